"""The rooms of the table, independent of any web framework.

A :class:`Table` creates rooms, rebuilds them from storage, takes actions from seats and
bots, and tells each listener of a room what it may see. It holds the rules of the
server:

- a seat's messages are built from :func:`moonrules.view` of that seat alone (encoded by
  the JSON-lines protocol's one view encoder), a spectator's from what every seat sees;
- an action is applied by :func:`moonrules.apply` and stored with the room's new state
  before any listener hears of it; a refused action changes nothing;
- the actions of one room are taken one at a time, in order; rooms never wait for each
  other, nor for a listener that does not read (its messages are dropped or coalesced,
  never queued without bound).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping
from typing import Final, Protocol

import attrs

from moonrules import (
    TRUMP_SUIT,
    GameState,
    Hand,
    IllegalAction,
    OutOfTurn,
    Phase,
    RuleSet,
    Tile,
    Trump,
    apply,
    is_trump,
    led_suit,
    legal_actions,
    new_game,
    score_hand,
    trick_winner,
    view,
)
from moonrules.conformance.protocol import view_json
from moonrules.records.annotations import Annotation
from moonrules.records.record import (
    JSON,
    RecordError,
    RecordRulesError,
    from_record,
    json_kind,
    rules_from_json,
    rules_json,
    to_record,
)
from moonrules.rules.errors import MoonError, quote, wrong_type
from moonrules.rules.scoring import side_tricks
from moonrules.table import assist
from moonrules.table.botpool import DEFAULT_BOTS, BotFailed, BotPool
from moonrules.table.clock import Clock, ClockOptionError, action_number, clock_bot, parse_clock
from moonrules.table.review_at_table import Reviews
from moonrules.table.storage import RoomRow, Step, Storage
from moonrules.table.storage_pg import NotOwner, PgStorage
from moonrules.table.wire import (
    FrameError,
    action_json,
    check_name,
    encode,
    legal_json,
    parse_action,
    read_message,
    refused,
)

log = logging.getLogger("moonrules.table")

HUMAN: Final = "human"
"""A seat for a person (every seat not given to a bot)."""

OPTIONS: Final = ("hints", "claims")
"""A room's options (each on unless the request that created the room turns it off)."""

HINT_EVERY: Final = 3.0
"""Seconds a seat waits between two hints."""


@attrs.frozen(slots=True)
class TableLimits:
    """The limits the table holds every client to (stated in ``docs/limits.md``)."""

    max_frame_bytes: int = 4096
    """The largest WebSocket frame a client may send (larger: the connection is closed)."""
    max_body_bytes: int = 16 * 1024
    """The largest HTTP request body (``POST /api/rooms``)."""
    max_connections: int = 4096
    """WebSocket connections open at once, all rooms together."""
    max_address_connections: int = 256
    """WebSocket connections open at once from one client address."""
    max_address_requests: int = 64
    """HTTP connections open at once from one client address while their request is read
    (not counted behind a proxy, whose address all clients share: it is the proxy's job)."""
    request_timeout: float = 10.0
    """Seconds a client has to send a request's headers, and then its body."""
    max_room_connections: int = 32
    """Spectators' WebSocket connections open at once to one room (a seat's link is never
    refused for them)."""
    max_seat_connections: int = 4
    """WebSocket connections open at once with one seat's link (tabs of one player)."""
    rate: float = 20.0
    """Messages a second a connection may send, on average ..."""
    burst: int = 40
    """... and at once; beyond, each is refused ``too-fast``."""
    max_refused: int = 200
    """Refusals ``too-fast`` after which the connection is closed (code 1008)."""
    max_pending: int = 32
    """Messages waiting for a client that does not read; beyond, it is disconnected."""
    send_timeout: float = 30.0
    """Seconds a message may wait for a client that does not read before it is
    disconnected."""
    room_burst: int = 300
    """Rooms one client address may create at once ..."""
    room_rate: float = 1.0
    """... and a second, on average, after that."""
    bot_pace: float = 0.0
    """Seconds a bot waits before acting in a room where a person sits (0: none)."""
    hint_every: float = HINT_EVERY
    """Seconds a seat waits between two hints (a hint is seconds of a worker's time)."""
    max_bot_rooms: int = 256
    """Games of bots alone going on at once, all clients together; a further room of bots
    alone is refused (503) until one ends. Rooms with a seat for a person are not counted:
    they wait for the person, and their bots' decisions come first."""


class RoomError(MoonError, ValueError):
    """A request about rooms that the table refuses: ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[RoomError], tuple[int, str]]:
        return (type(self), (self.status, self.message))


class Listener(Protocol):
    """Someone connected to a room: a seat (``seat`` a number) or a spectator (``None``).

    ``send_state`` replaces any state message not yet sent (a state is a whole
    snapshot, so only the latest matters); ``send`` queues any other message and
    returns false when the listener has too many waiting (it is then disconnected).
    """

    @property
    def seat(self) -> int | None: ...

    def send_state(self, text: str) -> None: ...

    def send(self, text: str) -> bool: ...

    def disconnect(self, code: int, reason: str) -> None: ...


@attrs.frozen(slots=True)
class CreatedRoom:
    """A new room: its id and one secret token per seat for a person."""

    room: str
    tokens: Mapping[int, str]


class Room:
    """One room: its game, seats and listeners (mutable; owned by its :class:`Table`)."""

    def __init__(self, row: RoomRow, state: GameState) -> None:
        self.id = row.id
        self.row = row
        self.state = state
        self.seq = row.seq
        self.seats = row.seats
        self.tokens = tuple(None if t is None else bytes.fromhex(t) for t in row.tokens)
        self.joined = set(row.joined)
        self.listeners: set[Listener] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.gone = False
        """Set when the room has moved to another process: nothing more is taken here."""
        self.last_used = time.monotonic()
        self._last_hand: tuple[object, JSON] = (self, None)  # (the hand shown, its summary)
        self._sheet: tuple[tuple[object, object], list[JSON]] = ((self, self), [])
        self._shared = SharedParts()
        """The score sheet's and the last hand's texts, made again only when they change."""
        self._rules_json: dict[str, JSON] | None = None
        self.names: list[str | None] = [
            *row.names[: len(row.seats)],
            *([None] * (len(row.seats) - len(row.names))),
        ]
        given = row.options if isinstance(row.options, dict) else {}
        self.options = {k: given.get(k, True) is not False for k in OPTIONS}
        self.next = row.next
        self.order: list[Listener] = []
        """The listeners in the order they came."""
        self.active: dict[int, Listener] = {}
        """Per seat, the one connection that may act for it (the newest, or the one that
        took the seat back); the seat's other tabs watch."""
        self.hint_at: dict[int, float] = {}
        self.helping: set[int] = set()
        """Seats whose hint or claim a worker is thinking out."""
        self.clock = Clock.of(row.options, len(row.seats))
        """The room's turn clocks (:mod:`moonrules.table.clock`), or ``None``."""
        self.clock_task: asyncio.Task[None] | None = None

    @property
    def rules(self) -> RuleSet:
        return self.state.rules

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, p in enumerate(self.seats) if p == HUMAN)

    @property
    def started(self) -> bool:
        """Whether every seat for a person has joined once: the game has begun."""
        return all(s in self.joined for s in self.humans)

    @property
    def over(self) -> bool:
        return self.state.is_over

    def bot_to_act(self) -> int | None:
        """The seat of the bot to act now, if the game goes on and a bot is to act."""
        seat = self.state.to_act
        if not self.started or seat is None or self.seats[seat] == HUMAN:
            return None
        return seat

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, compared in constant time against every seat."""
        given = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        found = None
        for seat, stored in enumerate(self.tokens):
            if stored is not None and hmac.compare_digest(given, stored):
                found = seat
        return found

    # -- messages -----------------------------------------------------------

    def table_json(self, seat: int | None) -> dict[str, JSON]:
        """The room around the game: seats, who is connected, the rules' choices."""
        online = {x.seat for x in self.listeners}
        if self._rules_json is None:  # the rules' part, the same for the whole game
            r = self.rules
            self._rules_json = {
                "players": r.players,
                "partnership": r.partnership,
                "rules": rules_json(r),
                "bids": list(r.bids),
                "trumps": [t.to_json() for t in r.trumps],
                "target": r.target,
            }
        return {
            "room": self.id,
            "seat": seat,
            **self._rules_json,
            "seats": [
                {
                    "seat": s,
                    "player": p,
                    "name": self.names[s],
                    "joined": s in self.joined,
                    "online": s in online,
                }
                for s, p in enumerate(self.seats)
            ],
            "spectators": sum(1 for x in self.listeners if x.seat is None),
            "started": self.started,
            "over": self.over,
            "hints": self.options["hints"],
            "claims": self.options["claims"],
            "next": self.next,
        }

    def view_for(self, seat: int | None, state: GameState) -> dict[str, JSON]:
        """The view a listener gets: the seat's own, or for a spectator what is public."""
        if seat is not None:
            return view_json(state, seat)
        public = view_json(state, 0)
        public.update(seat=None, hand=[], widow=None, discard=None)
        return public

    def last_hand_json(self) -> JSON:
        """The hand that ended last, as every seat saw it end (its tricks are public); the
        same for every listener, so made once per hand that ends (the same object until the
        next one ends)."""
        st = self.state
        h = st.hand if st.hand.phase is Phase.DONE else (st.history[-1] if st.history else None)
        if self._last_hand[0] is not h:
            self._last_hand = (h, self._make_last_hand(h))
        return self._last_hand[1]

    def _make_last_hand(self, h: Hand | None) -> JSON:
        if h is None:
            return None
        summary = self._hand_summary(h)
        summary["tricks"] = [
            {"leader": t.leader, "tiles": [str(x) for x in t.tiles], "winner": t.winner}
            for t in h.tricks
        ]
        return summary

    def _hand_summary(self, h: Hand) -> dict[str, JSON]:
        """A finished hand without its tricks: contract, outcome, tricks won, score change."""
        r = self.rules
        deltas = list(h.deltas or (0,) * r.sides)
        bidder = None if h.bidder < 0 else h.bidder
        made = None
        tricks_won = tuple(h.tricks_won or (0,) * r.players)
        if bidder is not None and h.renege < 0:
            made = score_hand(r, bidder, h.bid, tricks_won).made
        return {
            "number": h.number,
            "bidder": bidder,
            "bid": None if bidder is None else h.bid,
            "trump": None if h.trump < 0 else Trump(h.trump).to_json(),
            "thrown_in": h.thrown_in,
            "renege": None if h.renege < 0 else h.renege,
            "made": made,
            "tricks_won": list(tricks_won),
            "bidder_tricks": None
            if bidder is None
            else side_tricks(r, tricks_won)[r.side_of(bidder)],
            "deltas": deltas,
        }

    def sheet_json(self) -> list[JSON]:
        """The score sheet: every finished hand of the game, first to last, as
        :meth:`_hand_summary` writes it (the same for every listener)."""
        st = self.state
        done = st.hand if st.hand.phase is Phase.DONE else None
        key = self._sheet[0]
        if key[0] is not st.history or key[1] is not done:  # (a game's history only grows)
            hands = [*st.history, *((st.hand,) if done is not None else ())]
            self._sheet = ((st.history, done), [self._hand_summary(h) for h in hands])
        return self._sheet[1]

    def state_message(self, seat: int | None, active: bool = True) -> dict[str, JSON]:
        """The state as the seat ``seat`` sees it, for one of its connections: ``active``
        the one that may act (its other tabs are sent no legal action)."""
        st = self.state
        legal: list[JSON] = []
        active = seat is not None and active
        if active and self.started and st.to_act == seat:
            legal = legal_json(legal_actions(st))
        seen = self.view_for(seat, st)
        return {
            "type": "state",
            "seq": self.seq,
            "view": seen,
            "legal": legal,
            "last_hand": self.last_hand_json(),
            "table": self.table_json(seat),
            "hand_number": st.hand_number,
            **trick_marks(seen, self.rules.players),
            "sheet": self.sheet_json(),
            "active": active,
            "tabs": 0 if seat is None else sum(1 for x in self.listeners if x.seat == seat),
            **({} if self.clock is None else {"clock": self.clock.message(time.time())}),
        }

    def legal_for(self, seat: int | None) -> list[JSON]:
        st = self.state
        if seat is None or not self.started or st.to_act != seat:
            return []
        return legal_json(legal_actions(st))

    def broadcast(self) -> None:
        """Send every listener the room as it now is (each what it may see): one text per
        seat (and tab that may act), the parts every listener shares encoded once."""
        texts: dict[tuple[int | None, bool], str] = {}
        shared = self._shared
        for listener in list(self.listeners):
            seat = listener.seat
            key = (seat, seat is not None and self.active.get(seat) is listener)
            if key not in texts:
                texts[key] = shared.encode(self.state_message(*key))
            listener.send_state(texts[key])

    def is_active(self, listener: Listener) -> bool:
        seat = listener.seat
        return seat is not None and self.active.get(seat) is listener

    def tell(self, message: dict[str, JSON]) -> None:
        """Send every listener the same message (nothing secret in it)."""
        text = encode(message)
        for listener in list(self.listeners):
            listener.send(text)


def _clock_option(options: JSON) -> dict[str, JSON]:
    """The ``clock`` of a room's stored options, as the options of its rematch."""
    if isinstance(options, dict) and isinstance(options.get("clock"), dict):
        return {"clock": options["clock"]}
    return {}


class SharedParts:
    """Encodes the state messages of one broadcast, each a seat's: the members every
    listener gets the same (``SHARED``: the score sheet and the last hand, most of a
    message's text late in a game) encoded once, the others for each message. The text
    is that of :func:`~moonrules.table.wire.encode` of the whole message."""

    SHARED: Final = ("last_hand", "sheet")

    def __init__(self) -> None:
        self._texts: dict[str, tuple[JSON, str]] = {}

    def encode(self, message: dict[str, JSON]) -> str:
        marked = dict(message)
        for key in self.SHARED:
            if key in marked:
                value = marked[key]
                if key not in self._texts or self._texts[key][0] is not value:
                    self._texts[key] = (value, encode({key: value})[len(key) + 4 : -1])
                marked[key] = f"\x00{key}\x00"  # a string no message holds (no C0 control)
        text = encode(marked)
        for key in self.SHARED:
            if key in marked:
                mark = f'"\\u0000{key}\\u0000"'
                if text.count(mark) != 1:  # the string was somewhere else too: no shortcut
                    return encode(message)
                text = text.replace(mark, self._texts[key][1], 1)
        return text


def trick_marks(seen: Mapping[str, JSON], players: int) -> dict[str, JSON]:
    """What the page marks, each the library's ruling on the view ``seen``: the suit led
    (LEAD-3: ``0``-``6`` or ``"trump"``), the seat winning the trick so far (TRICK-2), and
    the seat's own trumps (SUIT-1), highest first as ``hand`` lists them; ``None`` and
    ``[]`` before there is a trick or a trump."""
    trump_json, tiles, leader = seen.get("trump"), seen.get("trick"), seen.get("leader")
    marks: dict[str, JSON] = {"trick_led": None, "trick_winning": None, "trumps": []}
    if not isinstance(trump_json, (int, str)) or isinstance(trump_json, bool):
        return marks
    trump = Trump.parse(trump_json)
    hand = seen.get("hand")
    if isinstance(hand, list):
        marks["trumps"] = [t for t in hand if isinstance(t, str) and is_trump(Tile.parse(t), trump)]
    if isinstance(tiles, list) and tiles and isinstance(leader, int):
        played = [Tile.parse(t) for t in tiles if isinstance(t, str)]
        led = led_suit(played[0], trump)
        marks["trick_led"] = "trump" if led == TRUMP_SUIT else led
        marks["trick_winning"] = (leader + trick_winner(played, trump)) % players
    return marks


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id() -> str:
    """A room id: 72 random bits, URL-safe (not a secret, but not guessable either)."""
    return secrets.token_urlsafe(9)


def new_token() -> str:
    """A seat's token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


HANDOVER_SECONDS: Final = 10.0
"""At most this long for a room's owner to hand it over to the process that asked for it
(it looks for rooms asked for twice a second); longer, the asker gives up (503, or a
WebSocket closed with 1013) and the client tries again."""

MOVED_CODE: Final = 1012
"""The close code of a room's connections when the room moves to another process (the page
reconnects, through the proxy, to the room's new owner)."""
MOVED_REASON: Final = "this room moved to another server; reconnect"
MOVING_CODE: Final = 1013
"""The close code of a connection to a room that is moving and did not arrive in time."""
MOVING_REASON: Final = "the room is moving between servers; try again in a moment"


class Table:
    """Every room of a server: created, loaded from storage, played, listened to."""

    def __init__(
        self,
        storage: Storage | PgStorage,
        bots: BotPool,
        limits: TableLimits | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not isinstance(storage, (Storage, PgStorage)):
            raise wrong_type("storage", "a Storage or a PgStorage", storage)
        if not isinstance(bots, BotPool):
            raise wrong_type("bots", "a BotPool", bots)
        self.storage = storage
        self.bots = bots
        self.limits = TableLimits() if limits is None else limits
        if not isinstance(self.limits, TableLimits):
            raise wrong_type("limits", "a TableLimits", limits)
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._taking: set[str] = set()
        """Rooms being created or taken over, not yet in :attr:`rooms`."""
        self.connections = 0
        self.closing = False
        self.reviews = Reviews(storage, bots)
        """The reviews of finished hands (:mod:`moonrules.table.review_at_table`)."""

    # -- rooms ----------------------------------------------------------------

    async def start(self) -> int:
        """Resume every stored game in which a bot is to act; returns how many were not in
        memory yet. On PostgreSQL, the games of no process (their owner gone) are taken
        over, never another's (run again every second by the server's lease task)."""
        ids = await self.storage.moving()
        ids += [r for r in await self.storage.clocked() if r not in ids]
        resumed = 0
        for room_id in ids:
            if self.closing:
                break
            fresh = room_id not in self.rooms
            self._taking.add(room_id)
            try:
                if isinstance(self.storage, PgStorage) and fresh:
                    lease = await self.storage.acquire(room_id)
                    if lease is None or not lease.mine:  # another process took it first
                        continue
                room = await self.room(room_id)
            except (RoomError, sqlite3.Error) as e:
                log.warning("room %s: not resumed: %s", room_id, e)
                continue
            finally:
                self._taking.discard(room_id)
            if room is not None:
                self._schedule_bot(room)
                self._clock_follow(room)
                resumed += fresh
        return resumed

    def pinned(self) -> set[str]:
        """The rooms this process serves or is about to serve (in memory, being loaded,
        created or taken over): their leases are kept."""
        return set(self.rooms) | set(self._loading) | self._taking

    async def close(self) -> None:
        """Stop every bot task (the workers are the :class:`BotPool`'s to end)."""
        self.closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        tasks += [r.clock_task for r in self.rooms.values() if r.clock_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.reviews.close()

    def parse_request(self, body: JSON) -> tuple[RuleSet, tuple[str, ...]]:
        """Read a ``POST /api/rooms`` body: ``{"rules": …, "bots": {"1": "basic", …},
        "hints": true, "claims": true}`` (the options: :meth:`parse_options`).

        Raises :class:`RoomError` naming the member at fault: status 400, or 422 for
        rules whose fields contradict each other.
        """
        if not isinstance(body, dict):
            raise RoomError(400, f"the request is a JSON object, not {json_kind(body)}")
        for key in body:
            if key not in ("rules", "bots", *OPTIONS, "clock"):
                raise RoomError(
                    400,
                    f"{quote(key)}: unknown member; a room has rules, bots, hints, claims, clock",
                )
        try:
            rules = rules_from_json(body.get("rules", "standard"))
        except RecordError as e:
            status = 422 if isinstance(e, RecordRulesError) else 400
            where = f"{e.path}: " if e.path else ""
            raise RoomError(status, f"{where}{e.message}") from None
        bots = body.get("bots", {})
        if not isinstance(bots, dict):
            raise RoomError(400, f"bots: expected an object of seat: bot, got {json_kind(bots)}")
        seats = [HUMAN] * rules.players
        for key, level in bots.items():
            if not (key.isascii() and key.isdigit()) or not 0 <= int(key) < rules.players:
                raise RoomError(
                    400, f"bots: {quote(key)} is not a seat; seats are 0 to {rules.players - 1}"
                )
            if not isinstance(level, str) or level not in self.bots.names:
                shown = quote(level) if isinstance(level, str) else json_kind(level)
                raise RoomError(
                    400, f"bots.{key}: {shown} is no bot; the bots are {', '.join(self.bots.names)}"
                )
            seats[int(key)] = level
        return rules, tuple(seats)

    @staticmethod
    def parse_options(body: JSON) -> dict[str, JSON]:
        """The options of a ``POST /api/rooms`` body: ``hints`` (a seat may ask what the
        strong bot would do) and ``claims`` (CLAIM-1), each ``true`` (the default) or
        ``false`` (a tournament's room)."""
        options: dict[str, JSON] = {}
        for key in OPTIONS:
            value = body.get(key, True) if isinstance(body, dict) else True
            if not isinstance(value, bool):
                raise RoomError(400, f"{key}: true or false, not {json_kind(value)}")
            options[key] = value
        try:
            clock = parse_clock(body.get("clock") if isinstance(body, dict) else None)
        except ClockOptionError as e:
            raise RoomError(400, str(e)) from None
        if clock is not None:
            options["clock"] = clock
        return options

    async def create(self, body: JSON) -> CreatedRoom:
        """Create a room from a ``POST /api/rooms`` body (see :meth:`parse_request`)."""
        rules, seats = self.parse_request(body)
        options = self.parse_options(body)
        if HUMAN not in seats:
            playing = sum(1 for r in self.rooms.values() if not r.humans and not r.over)
            if playing >= self.limits.max_bot_rooms:
                raise RoomError(
                    503,
                    f"the table is playing {playing} games of bots alone, its most; wait for "
                    "one to end, or give a seat to a person",
                )
        state = new_game(rules)  # a fresh secret seed: it never leaves the server mid-game
        tokens = {s: new_token() for s, p in enumerate(seats) if p == HUMAN}
        record = to_record(state)
        row = RoomRow(
            id=new_id(),
            created=self.clock(),
            rules=rules_json(rules),
            seats=seats,
            tokens=tuple(token_hash(tokens[s]) if s in tokens else None for s in range(len(seats))),
            bot_seed=secrets.token_hex(16),
            initial=record,
            record=record,
            seq=0,
            joined=frozenset(),
            over=False,
            options=options,
        )
        room = Room(row, state)
        self._taking.add(row.id)
        try:
            await self.storage.create_room(row, bot_turn=room.bot_to_act() is not None)
            self.rooms[row.id] = room
        finally:
            self._taking.discard(row.id)
        self._schedule_bot(room)
        return CreatedRoom(row.id, tokens)

    async def room(self, room_id: str) -> Room | None:
        """The room with this id, loaded from storage on first use; ``None`` if none."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        pending = self._loading.get(room_id)
        if pending is not None:
            return await pending
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Room | None] = loop.create_future()
        self._loading[room_id] = future
        try:
            row = await self.storage.load(room_id)
            if row is not None and isinstance(self.storage, PgStorage):
                await self._own(self.storage, room_id)
                row = await self.storage.load(room_id)  # as its last owner left it
                assert row is not None
            room = None if row is None else Room(row, await self._rebuild(row))
            if room is not None:
                self.rooms[room_id] = room
                await self._clock_load(room)
            future.set_result(room)
            return room
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: a later caller sees it, none warns of it
            raise
        finally:
            del self._loading[room_id]

    async def _own(self, storage: PgStorage, room_id: str) -> None:
        """Take the room's lease: at once if nobody holds it, else by asking its owner, who
        hands it over within a second; :class:`RoomError` (503) if it has not within
        :data:`HANDOVER_SECONDS`."""
        deadline = time.monotonic() + HANDOVER_SECONDS
        lease = await storage.ask(room_id)
        while lease is not None and not lease.mine:
            if time.monotonic() > deadline or self.closing:
                raise RoomError(503, MOVING_REASON)
            await asyncio.sleep(0.05)
            lease = await storage.acquire(room_id)

    async def hand_over(self, room_id: str, *, release: bool) -> bool:
        """Stop serving a room another process owns or asked for: the action under way is
        stored (the room's lock waited for), its bot stops, every listener is closed with
        :data:`MOVED_CODE` (they reconnect, through the proxy, to the room's new owner);
        ``release`` gives up its lease too. False (nothing done) for a room being loaded,
        created or taken over here: it is handed over once it is in memory."""
        if room_id in self._loading or room_id in self._taking:
            return False
        room = self.rooms.get(room_id)
        if room is not None:
            async with room.lock:
                self._moved(room)
        if release and isinstance(self.storage, PgStorage):
            await self.storage.release([room_id])
        return True

    def _moved(self, room: Room) -> None:
        """The room is another process's now: dropped from memory, its bot stopped, its
        listeners sent on (closed with :data:`MOVED_CODE`)."""
        room.gone = True
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if room.bot_task is not None and room.bot_task is not asyncio.current_task():
            room.bot_task.cancel()
        if room.clock_task is not None and room.clock_task is not asyncio.current_task():
            room.clock_task.cancel()
        for listener in list(room.listeners):
            listener.disconnect(MOVED_CODE, MOVED_REASON)

    async def _reload(self, room: Room) -> None:
        """The room's game and sequence number read again from storage (under its lock),
        every listener told."""
        row = await self.storage.load(room.id)
        if row is None:  # pragma: no cover - rooms are never deleted
            return
        room.state = await self._rebuild(row)
        room.seq = row.seq
        room.next = row.next
        await self._clock_load(room)
        self._clock_schedule(room)
        room.broadcast()
        self._schedule_bot(room)

    async def _rebuild(self, row: RoomRow) -> GameState:
        """The game of a stored room: its last record, then the actions after it."""
        state = from_record(row.record)
        for step in await self.storage.steps(row.id, after=row.record_seq):
            state = apply(state, parse_action(state.phase, step.action), seat=step.seat)
        return state

    def evict_idle(self) -> int:
        """Forget rooms nobody listens to and no bot moves (they reload from storage)."""
        gone = [
            r.id
            for r in self.rooms.values()
            if not r.listeners
            and r.bot_task is None
            and r.clock_task is None
            and not r.lock.locked()
        ]
        for room_id in gone:
            del self.rooms[room_id]
        return len(gone)

    # -- listeners -------------------------------------------------------------

    async def join(self, room: Room, listener: Listener) -> None:
        """Add a listener; a seat joining for the first time may start the game."""
        room.listeners.add(listener)
        room.order.append(listener)
        seat = listener.seat
        if seat is not None:
            room.active[seat] = listener  # the newest tab plays; the others watch
        if seat is not None and seat not in room.joined:
            async with room.lock:
                if room.gone:
                    listener.disconnect(MOVED_CODE, MOVED_REASON)
                    return
                if seat not in room.joined:
                    joined = frozenset(room.joined | {seat})
                    nxt = room.state.to_act
                    bot_turn = (
                        nxt is not None
                        and room.seats[nxt] != HUMAN
                        and all(s in joined for s in room.humans)
                    )
                    try:
                        await self.storage.set_joined(room.id, joined, bot_turn=bot_turn)
                    except NotOwner:  # another process took the room: the seat goes there
                        log.warning("room %s: another process owns it now", room.id)
                        self._moved(room)
                        return
                    except sqlite3.Error as e:
                        log.error("room %s: seat %d's joining not stored: %s", room.id, seat, e)
                        listener.disconnect(MOVING_CODE, "the server could not store this; "
                                            "try again in a moment")  # fmt: skip
                        return
                    room.joined = set(joined)
        if room.gone:
            listener.disconnect(MOVED_CODE, MOVED_REASON)
            return
        if seat is not None and room.clock is not None:
            room.clock.come_back(seat)  # the player is back: the seat is theirs again
        self._clock_follow(room)
        room.broadcast()
        self._schedule_bot(room)

    def leave(self, room: Room, listener: Listener) -> None:
        room.listeners.discard(listener)
        with contextlib.suppress(ValueError):
            room.order.remove(listener)
        seat = listener.seat
        if seat is not None and room.active.get(seat) is listener:
            others = [x for x in room.order if x.seat == seat]
            if others:
                room.active[seat] = others[-1]  # the seat's newest tab left plays it
            else:
                del room.active[seat]
        room.last_used = time.monotonic()
        if not self.closing:
            room.broadcast()

    # -- actions ---------------------------------------------------------------

    async def receive(self, room: Room, listener: Listener, text: str) -> None:
        """One frame from a listener: its message carried out, or a refusal sent back."""
        seat = listener.seat
        try:
            kind, message = read_message(text, max_bytes=self.limits.max_frame_bytes)
        except FrameError as e:
            listener.send(encode(refused(e.code, e.message, room.legal_for(seat))))
            return
        if kind == "review":  # any listener, any tab: filtered for what its seat may see
            answer = await self.reviews.request(room, listener, message["hand"])
            if answer is not None:
                listener.send(encode(answer))
            return
        if seat is None:
            note = "a spectator watches: only a seat's link may act"
            listener.send(encode(refused("spectator", note, [])))
            return
        outcome: dict[str, JSON] | None = None
        if kind == "name":
            outcome = await self.rename(room, seat, message["name"])
        elif kind == "rematch":
            outcome = await self.rematch(room, seat)
        elif kind == "take-seat":
            room.active[seat] = listener
            room.broadcast()
        elif not room.is_active(listener):
            note = (
                "this seat is played in another tab or window; choose “Play here” to play it "
                "in this one"
            )
            outcome = refused("elsewhere", note, [])
        elif kind == "act":
            outcome = await self.act(room, seat, message["action"])
        elif kind == "hint":
            outcome = await self.hint(room, seat)
        elif kind == "claim":
            outcome = await self.claim(room, seat, message.get("tricks"))
        if outcome is not None:
            listener.send(encode(outcome))

    async def act(
        self, room: Room, seat: int, value: JSON, *, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        """Take ``seat``'s action ``value`` (as records write it): ``None`` once it is stored
        and every listener told, else the ``refused`` message for that seat.

        Shielded: when the caller is cancelled (its connection closed) while the action is
        being stored, the action still ends as it would have (stored, the room moved on,
        every listener told), so that the room never falls behind its database.

        ``clocked``: the move the clock's bot makes for a seat whose time ran out at action
        ``clocked`` (refused if the room has moved on since)."""
        return await asyncio.shield(self._act_locked(room, seat, value, clocked))

    async def _act_locked(
        self, room: Room, seat: int, value: JSON, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        async with room.lock:
            return await self._act(room, seat, value, clocked)

    async def _act(
        self, room: Room, seat: int, value: JSON, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        st = room.state
        if room.gone:  # moved to another process while this action waited
            return refused("unavailable", MOVED_REASON, [])
        if clocked is not None and (room.clock is None or clocked != room.seq):
            return refused("turn", "the seat acted before its clock ran out", [])
        if not room.started:
            waiting = [f"seat {s}" for s in room.humans if s not in room.joined]
            message = "the game starts when every player has joined; waiting for " + ", ".join(
                waiting
            )
            return refused("not-started", message, [])
        if st.is_over:
            return refused("over", "the game is over; no more actions", [], "END-1")
        try:
            action = parse_action(st.phase, value)
        except FrameError as e:
            return refused(e.code, e.message, room.legal_for(seat))
        try:
            new = apply(st, action, seat=seat)
        except OutOfTurn as e:
            code = "turn" if e.seat == seat and st.to_act != seat else "illegal"
            return refused(code, e.message, room.legal_for(seat), e.rule, e.reason)
        except IllegalAction as e:
            return refused("illegal", e.message, room.legal_for(seat), e.rule, e.reason)
        step = Step(room.seq + 1, seat, action_json(action))
        nxt = new.to_act
        bot_turn = nxt is not None and room.seats[nxt] != HUMAN and room.started
        # the record at the end of each hand (and of the game); between, the action alone
        ended = new.is_over or new.hand_number != st.hand_number
        clock = self._clock_after(room, st, seat, new, step.seq, clocked)
        try:
            await self.storage.append(
                room.id,
                step,
                to_record(new) if ended else None,
                over=new.is_over,
                bot_turn=bot_turn,
                **({} if clock is None else {"clock": clock.to_json()}),
            )
        except NotOwner:  # another process took the room: its listeners go there
            log.warning("room %s: another process owns it now; its listeners are sent on", room.id)
            self._moved(room)
            return refused("unavailable", MOVED_REASON, [])
        except sqlite3.IntegrityError as e:  # the database is ahead: the room is read again
            log.error(
                "room %s: action %d not stored: %s; the room is reloaded", room.id, step.seq, e
            )
            await self._reload(room)
            message = "the game had moved on; here is where it stands"
            return refused("turn", message, room.legal_for(seat))
        except sqlite3.Error as e:
            log.error("room %s: action %d not stored: %s", room.id, step.seq, e)
            message = "the server could not store this action; try again"
            return refused("unavailable", message, room.legal_for(seat))
        room.state = new
        room.seq = step.seq
        room.last_used = time.monotonic()
        room.clock = clock
        self._clock_schedule(room)
        room.broadcast()
        self._schedule_bot(room)
        return None

    # -- names, help, rematch ----------------------------------------------------

    async def rename(self, room: Room, seat: int, value: JSON) -> dict[str, JSON] | None:
        """The seat's player chose a name (stored with the room, shown to everyone)."""
        try:
            name = check_name(value)
        except FrameError as e:
            return refused(e.code, e.message, [])
        async with room.lock:
            if room.names[seat] == name:
                return None
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            names = list(room.names)
            names[seat] = name
            try:
                await self.storage.set_names(room.id, tuple(names))
            except NotOwner:
                self._moved(room)
                return refused("unavailable", MOVED_REASON, [])
            except sqlite3.Error as e:
                log.error("room %s: seat %d's name not stored: %s", room.id, seat, e)
                return refused("unavailable", "the server could not store the name; try again", [])
            room.names = names
        room.broadcast()
        return None

    def _help_refusal(self, room: Room, seat: int, what: str) -> dict[str, JSON] | None:
        """Why a seat may not have a hint or a claim now, as a refusal; ``None`` if it may."""
        st = room.state
        if not room.options[what + "s"]:
            return refused("off", f"{what}s are turned off in this room (as in a tournament)", [])
        if not room.started or st.is_over or st.to_act != seat:
            return refused("not-now", f"a {what} is for your turn; it is not your turn", [])
        if seat in room.helping:
            return refused("too-fast", "your last hint or claim is still being worked out", [])
        return None

    async def hint(self, room: Room, seat: int) -> dict[str, JSON] | None:
        """What the ``strong`` bot would do from this seat's view, and in the auction
        bidding advice's chances: thought out in a worker, sent to this connection alone."""
        no = self._help_refusal(room, seat, "hint")
        if no is not None:
            return no
        now = time.monotonic()
        wait = room.hint_at.get(seat, -1e9) + self.limits.hint_every - now
        if wait > 0:
            return refused("too-fast", f"one hint every {self.limits.hint_every:g} s: wait "
                           f"{max(1, round(wait))} s", [])  # fmt: skip
        room.hint_at[seat] = now
        room.helping.add(seat)
        seq = room.seq
        spec = self.bots.bots.get("strong", DEFAULT_BOTS["strong"])
        try:
            action, advice = await self.bots.run(
                "slow",
                assist.hint,
                (spec.make, view(room.state, seat), f"{room.row.bot_seed}/hint/{seq}"),
                urgent=True,
                what="the hint",
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s", room.id, seat, e)
            return refused("unavailable", "the hint could not be worked out; try again", [])
        finally:
            room.helping.discard(seat)
            room.hint_at[seat] = time.monotonic()  # the next one counted from this answer
        return {"type": "hint", "seq": seq, "action": action, "advice": advice}

    async def claim(self, room: Room, seat: int, tricks: JSON) -> dict[str, JSON] | None:
        """The seat claims the remaining tricks, or ``tricks`` of them (CLAIM-1): checked
        in a worker against every line of play; accepted, the hand is played out along a
        line the check proves (the game has no other way to end a hand by a claim) and every
        listener told; refused, this seat is told why and play goes on."""
        no = self._help_refusal(room, seat, "claim")
        if no is not None:
            return no
        st = room.state
        if st.phase is not Phase.PLAY:
            return refused("not-now", "a claim is made during the play of a hand", [], "CLAIM-1")
        remaining = 7 - len(st.hand.tricks)
        if tricks is not None and (type(tricks) is not int or not 1 <= tricks <= remaining):
            message = f"a claim is of 1 to {remaining} tricks (the tricks left), or of all"
            return refused("bad-frame", f"tricks: {message}", [])
        room.helping.add(seat)
        seq = room.seq
        try:
            holds, guaranteed, claimed, left, line = await self.bots.run(
                "slow", assist.claim, (st, seat, tricks), urgent=True, what="the claim's check"
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s", room.id, seat, e)
            return refused("unavailable", "the claim could not be checked; try again", [])
        finally:
            room.helping.discard(seat)
        wanted = (
            "the last trick"
            if left == 1
            else f"all {left} remaining tricks"
            if tricks is None
            else (f"{claimed} of the {left} remaining tricks")
        )
        side = "your team" if room.rules.partnership else "you"
        if not holds:
            message = (
                f"your claim of {wanted} does not hold: against the best defence {side} "
                f"can be held to {guaranteed}; play goes on"
            )
            return refused("claim", message, room.legal_for(seat), "CLAIM-1")
        assert isinstance(line, list)
        return await self._play_out(room, seat, seq, line, wanted)

    async def _play_out(
        self, room: Room, seat: int, seq: int, line: list[JSON], wanted: str
    ) -> dict[str, JSON] | None:
        async with room.lock:
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            if room.seq != seq:
                message = "the game moved on while the claim was checked; claim again"
                return refused("turn", message, room.legal_for(seat))
            st = room.state
            steps: list[Step] = []
            for k, item in enumerate(line):
                assert isinstance(item, list)
                who, tile = item
                assert isinstance(who, int)
                st = apply(st, parse_action(st.phase, tile), seat=who)
                steps.append(Step(seq + k + 1, who, tile))
            nxt = st.to_act
            bot_turn = nxt is not None and room.seats[nxt] != HUMAN and room.started
            clock = self._clock_after(room, room.state, seat, st, steps[-1].seq, None)
            try:
                await self.storage.append_many(
                    room.id,
                    steps,
                    to_record(st),
                    over=st.is_over,
                    bot_turn=bot_turn,
                    **({} if clock is None else {"clock": clock.to_json()}),
                )
            except NotOwner:
                self._moved(room)
                return refused("unavailable", MOVED_REASON, [])
            except sqlite3.Error as e:
                log.error("room %s: the claim's tricks not stored: %s", room.id, e)
                message = "the server could not store the claim; try again"
                return refused("unavailable", message, room.legal_for(seat))
            room.state = st
            room.seq = steps[-1].seq
            room.last_used = time.monotonic()
            room.clock = clock
            self._clock_schedule(room)
            room.tell(
                {
                    "type": "notice",
                    "kind": "claim",
                    "seat": seat,
                    "message": f"seat {seat} claimed {wanted}: the claim holds (CLAIM-1); "
                    "the hand is played out along a line the check proves",
                }
            )
            room.broadcast()
            self._schedule_bot(room)
        return None

    async def rematch(self, room: Room, seat: int) -> dict[str, JSON] | None:
        """At the game's end, a new room with the same seats (people, with their names and
        links' tokens, and bots) and rules and options; every listener is told its id
        (``table.next``) and goes there. Asked again, the same room."""
        if not room.over:
            return refused("not-now", "a rematch is offered once the game is over", [])
        async with room.lock:
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            if room.next is None:
                state = new_game(room.rules)
                record = to_record(state)
                row = RoomRow(
                    id=new_id(),
                    created=self.clock(),
                    rules=rules_json(room.rules),
                    seats=room.seats,
                    tokens=room.row.tokens,  # the same links' tokens: each page knows its own
                    bot_seed=secrets.token_hex(16),
                    initial=record,
                    record=record,
                    seq=0,
                    joined=frozenset(),
                    over=False,
                    names=tuple(room.names),
                    options={**room.options, **_clock_option(room.row.options)},
                )
                new = Room(row, state)
                self._taking.add(row.id)
                try:
                    made = await self.storage.create_rematch(room.id, row, bot_turn=False)
                    if made:
                        self.rooms[row.id] = new
                        room.next = row.id
                except NotOwner:
                    self._moved(room)
                    return refused("unavailable", MOVED_REASON, [])
                except sqlite3.Error as e:
                    log.error("room %s: the rematch not stored: %s", room.id, e)
                    message = "the server could not store the rematch; try again"
                    return refused("unavailable", message, [])
                finally:
                    self._taking.discard(row.id)
                if not made:  # another process made it first: the room read again
                    await self._reload(room)
        room.broadcast()
        return None

    # -- bots ------------------------------------------------------------------

    def _schedule_bot(self, room: Room) -> None:
        if self.closing or room.gone or room.bot_task is not None or room.bot_to_act() is None:
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))

    async def _bot_turn(self, room: Room) -> None:
        try:
            while not self.closing and not room.gone:
                seat = room.bot_to_act()
                if seat is None:
                    return
                await self._bot_move(room, seat)
        except Exception as e:  # a fault of the server: the room waits, the server goes on
            log.error("room %s: the bot stopped: %s: %s", room.id, type(e).__name__, e)
        finally:
            room.bot_task = None

    async def _bot_move(self, room: Room, seat: int) -> None:
        """One move of the bot at ``seat``: thought out in a worker, then taken as any
        seat's action is."""
        seq = room.seq
        pace = self.limits.bot_pace
        if pace > 0 and room.humans:
            await asyncio.sleep(pace)
        level = room.seats[seat]
        try:
            action = await self.bots.decide(
                level,
                view(room.state, seat),
                f"{room.row.bot_seed}/{seq}",
                urgent=bool(room.humans),  # a person waits: before rooms of bots alone
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s; it plays its first legal move", room.id, seat, e)
            action = legal_actions(room.state)[0]
        outcome = await self.act(room, seat, action_json(action))
        if outcome is not None and outcome["code"] != "unavailable":
            log.warning(
                "room %s seat %d: the %s bot's move was refused (%s); it plays its first "
                "legal move",
                room.id,
                seat,
                level,
                outcome["message"],
            )
            await self.act(room, seat, action_json(legal_actions(room.state)[0]))
        elif outcome is not None:
            await asyncio.sleep(1.0)  # storage failed: try again shortly

    # -- turn clocks (moonrules.table.clock) ----------------------------------------

    def _clock_seat(self, room: Room, state: GameState) -> int | None:
        """The seat whose clock runs in ``state``: a person's seat to act, once started."""
        seat = state.to_act
        if seat is None or not room.started or room.seats[seat] != HUMAN:
            return None
        return seat

    def _clock_after(
        self,
        room: Room,
        before: GameState,
        seat: int,
        after: GameState,
        seq: int,
        clocked: int | None,
    ) -> Clock | None:
        """The room's clock once ``seat`` took the action that leads from ``before`` to
        ``after`` (action ``seq``): a copy, the room's own replaced once it is stored."""
        if room.clock is None:
            return None
        clock = copy.deepcopy(room.clock)
        if clocked is not None:
            hand, number = action_number(before)
            clock.ran_out(seat, Annotation(hand, number, seat, "clock", clock_bot(self.bots.names)))
        else:
            clock.come_back(seat)
        clock.follow(seq, self._clock_seat(room, after), self.clock())
        return clock

    async def _clock_load(self, room: Room) -> None:
        """The room's clock as stored with its last action."""
        if room.clock is not None:
            room.clock.load(await self.storage.load_clock(room.id))

    def _clock_follow(self, room: Room) -> None:
        """Start the clock of the seat to act if it does not run yet (the game began, or
        the room was loaded), and wait for it to run out."""
        if room.clock is None:
            return
        room.clock.follow(room.seq, self._clock_seat(room, room.state), self.clock())
        if room.clock_task is None:
            self._clock_schedule(room)

    def _clock_schedule(self, room: Room) -> None:
        """Wait for the running turn to run out (the wait for an earlier turn cancelled)."""
        task = room.clock_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            room.clock_task = None
        if self.closing or room.gone or room.clock is None or room.clock.seat is None:
            return
        if room.clock_task is None:
            room.clock_task = asyncio.get_running_loop().create_task(self._clock_run(room))

    async def _clock_run(self, room: Room) -> None:
        try:
            while not self.closing and not room.gone and room.clock is not None:
                deadline, seat, seq = room.clock.deadline(), room.clock.seat, room.clock.seq
                if deadline is None or seat is None or seq != room.seq:
                    return
                wait = deadline - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                await self._clock_move(room, seat, seq)
                return
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a fault of the server: the room waits, the server goes on
            log.error("room %s: the clock stopped: %s: %s", room.id, type(e).__name__, e)
        finally:
            if room.clock_task is asyncio.current_task():
                room.clock_task = None

    async def _clock_move(self, room: Room, seat: int, seq: int) -> None:
        """The seat's time ran out: the clock's bot makes its move (thought out in a
        worker, as a bot seat's move is), stored with an annotation."""
        level = clock_bot(self.bots.names)
        try:
            action = await self.bots.decide(
                level, view(room.state, seat), f"{room.row.bot_seed}/clock/{seq}", urgent=True
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s; the clock plays its first legal move", room.id,
                        seat, e)  # fmt: skip
            action = legal_actions(room.state)[0]
        log.info("room %s seat %d: the clock ran out; the %s bot moves", room.id, seat, level)
        outcome = await self.act(room, seat, action_json(action), clocked=seq)
        if outcome is not None and outcome["code"] == "illegal" and room.seq == seq:
            await self.act(room, seat, action_json(legal_actions(room.state)[0]), clocked=seq)

    # -- the record ------------------------------------------------------------

    def record(self, room: Room) -> JSON:
        """The game's record, once it is over; :class:`RoomError` (409) before that.

        The seats' names are its ``players`` (``null`` for a seat without one, a bot's
        included); a room where no one gave a name gives a record without them.
        """
        if not room.over:
            raise RoomError(
                409,
                "the game is not over yet: its record is given once it ends, since it shows "
                "every hand's tiles",
            )
        notes = None if room.clock is None or not room.clock.notes else room.clock.notes
        if any(name is not None for name in room.names):
            return to_record(room.state, players=room.names, annotations=notes)
        return to_record(room.state, annotations=notes)


__all__ = [
    "HUMAN",
    "CreatedRoom",
    "Listener",
    "Room",
    "RoomError",
    "Table",
    "TableLimits",
    "new_id",
    "new_token",
    "token_hash",
]
