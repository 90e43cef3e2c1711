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
from moonrules.table.botpool import BotFailed, BotPool
from moonrules.table.storage import RoomRow, Step, Storage
from moonrules.table.wire import (
    FrameError,
    action_json,
    encode,
    legal_json,
    parse_action,
    read_frame,
    refused,
)

log = logging.getLogger("moonrules.table")

HUMAN: Final = "human"
"""A seat for a person (every seat not given to a bot)."""


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
        self.last_used = time.monotonic()
        self._last_hand: tuple[GameState | None, JSON] = (None, None)
        self._sheet: tuple[GameState | None, list[JSON]] = (None, [])
        self._rules_json: dict[str, JSON] | None = None

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
                {"seat": s, "player": p, "joined": s in self.joined, "online": s in online}
                for s, p in enumerate(self.seats)
            ],
            "spectators": sum(1 for x in self.listeners if x.seat is None),
            "started": self.started,
            "over": self.over,
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
        same for every listener, so made once per state of the room."""
        if self._last_hand[0] is not self.state:
            self._last_hand = (self.state, self._make_last_hand())
        return self._last_hand[1]

    def _make_last_hand(self) -> JSON:
        st = self.state
        h = st.hand if st.hand.phase is Phase.DONE else (st.history[-1] if st.history else None)
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
        if self._sheet[0] is not self.state:
            st = self.state
            hands = [*st.history, *((st.hand,) if st.hand.phase is Phase.DONE else ())]
            self._sheet = (st, [self._hand_summary(h) for h in hands])
        return self._sheet[1]

    def state_message(self, seat: int | None) -> dict[str, JSON]:
        st = self.state
        legal: list[JSON] = []
        if seat is not None and self.started and st.to_act == seat:
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
        }

    def legal_for(self, seat: int | None) -> list[JSON]:
        st = self.state
        if seat is None or not self.started or st.to_act != seat:
            return []
        return legal_json(legal_actions(st))

    def broadcast(self) -> None:
        """Send every listener the room as it now is (each what it may see)."""
        texts: dict[int | None, str] = {}
        for listener in list(self.listeners):
            seat = listener.seat
            if seat not in texts:
                texts[seat] = encode(self.state_message(seat))
            listener.send_state(texts[seat])


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


class Table:
    """Every room of a server: created, loaded from storage, played, listened to."""

    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        limits: TableLimits | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not isinstance(storage, Storage):
            raise wrong_type("storage", "a Storage", storage)
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
        self.connections = 0
        self.closing = False

    # -- rooms ----------------------------------------------------------------

    async def start(self) -> int:
        """Resume every stored game in which a bot is to act; returns how many."""
        ids = await self.storage.moving()
        for room_id in ids:
            room = await self.room(room_id)
            if room is not None:
                self._schedule_bot(room)
        return len(ids)

    async def close(self) -> None:
        """Stop every bot task (the workers are the :class:`BotPool`'s to end)."""
        self.closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    def parse_request(self, body: JSON) -> tuple[RuleSet, tuple[str, ...]]:
        """Read a ``POST /api/rooms`` body: ``{"rules": …, "bots": {"1": "basic", …}}``.

        Raises :class:`RoomError` naming the member at fault: status 400, or 422 for
        rules whose fields contradict each other.
        """
        if not isinstance(body, dict):
            raise RoomError(400, f"the request is a JSON object, not {json_kind(body)}")
        for key in body:
            if key not in ("rules", "bots"):
                raise RoomError(400, f"{quote(key)}: unknown member; a room has rules, bots")
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

    async def create(self, body: JSON) -> CreatedRoom:
        """Create a room from a ``POST /api/rooms`` body (see :meth:`parse_request`)."""
        rules, seats = self.parse_request(body)
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
        )
        room = Room(row, state)
        await self.storage.create_room(row, bot_turn=room.bot_to_act() is not None)
        self.rooms[row.id] = room
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
            room = None if row is None else Room(row, await self._rebuild(row))
            if room is not None:
                self.rooms[room_id] = room
            future.set_result(room)
            return room
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: a later caller sees it, none warns of it
            raise
        finally:
            del self._loading[room_id]

    async def _reload(self, room: Room) -> None:
        """The room's game and sequence number read again from storage (under its lock),
        every listener told."""
        row = await self.storage.load(room.id)
        if row is None:  # pragma: no cover - rooms are never deleted
            return
        room.state = await self._rebuild(row)
        room.seq = row.seq
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
            if not r.listeners and r.bot_task is None and not r.lock.locked()
        ]
        for room_id in gone:
            del self.rooms[room_id]
        return len(gone)

    # -- listeners -------------------------------------------------------------

    async def join(self, room: Room, listener: Listener) -> None:
        """Add a listener; a seat joining for the first time may start the game."""
        room.listeners.add(listener)
        seat = listener.seat
        if seat is not None and seat not in room.joined:
            async with room.lock:
                if seat not in room.joined:
                    joined = frozenset(room.joined | {seat})
                    nxt = room.state.to_act
                    bot_turn = (
                        nxt is not None
                        and room.seats[nxt] != HUMAN
                        and all(s in joined for s in room.humans)
                    )
                    await self.storage.set_joined(room.id, joined, bot_turn=bot_turn)
                    room.joined = set(joined)
        room.broadcast()
        self._schedule_bot(room)

    def leave(self, room: Room, listener: Listener) -> None:
        room.listeners.discard(listener)
        room.last_used = time.monotonic()
        if not self.closing:
            room.broadcast()

    # -- actions ---------------------------------------------------------------

    async def receive(self, room: Room, listener: Listener, text: str) -> None:
        """One frame from a listener: an ``act`` message, or a refusal sent back."""
        seat = listener.seat
        try:
            value = read_frame(text, max_bytes=self.limits.max_frame_bytes)
        except FrameError as e:
            listener.send(encode(refused(e.code, e.message, room.legal_for(seat))))
            return
        if seat is None:
            message = "a spectator watches: only a seat's link may act"
            listener.send(encode(refused("spectator", message, [])))
            return
        outcome = await self.act(room, seat, value)
        if outcome is not None:
            listener.send(encode(outcome))

    async def act(self, room: Room, seat: int, value: JSON) -> dict[str, JSON] | None:
        """Take ``seat``'s action ``value`` (as records write it): ``None`` once it is stored
        and every listener told, else the ``refused`` message for that seat.

        Shielded: when the caller is cancelled (its connection closed) while the action is
        being stored, the action still ends as it would have (stored, the room moved on,
        every listener told), so that the room never falls behind its database."""
        return await asyncio.shield(self._act_locked(room, seat, value))

    async def _act_locked(self, room: Room, seat: int, value: JSON) -> dict[str, JSON] | None:
        async with room.lock:
            return await self._act(room, seat, value)

    async def _act(self, room: Room, seat: int, value: JSON) -> dict[str, JSON] | None:
        st = room.state
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
        try:
            await self.storage.append(
                room.id,
                step,
                to_record(new) if ended else None,
                over=new.is_over,
                bot_turn=bot_turn,
            )
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
        room.broadcast()
        self._schedule_bot(room)
        return None

    # -- bots ------------------------------------------------------------------

    def _schedule_bot(self, room: Room) -> None:
        if self.closing or room.bot_task is not None or room.bot_to_act() is None:
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))

    async def _bot_turn(self, room: Room) -> None:
        try:
            while not self.closing:
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

    # -- the record ------------------------------------------------------------

    def record(self, room: Room) -> JSON:
        """The game's record, once it is over; :class:`RoomError` (409) before that."""
        if not room.over:
            raise RoomError(
                409,
                "the game is not over yet: its record is given once it ends, since it shows "
                "every hand's tiles",
            )
        return to_record(room.state)


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
