"""A room of the table: its game, its seats and listeners, the state messages each seat is
sent, and the values the table shares (limits, errors, the listener's protocol).
:class:`~moonrules.table.rooms.Table` keeps the rooms."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Final, Protocol

import attrs

from moonrules import (
    TRUMP_SUIT,
    GameState,
    Hand,
    Phase,
    RuleSet,
    Tile,
    Trump,
    is_trump,
    led_suit,
    legal_actions,
    score_hand,
    to_record,
    trick_winner,
)
from moonrules.conformance.protocol import view_json
from moonrules.records.record import (
    JSON,
    RecordError,
    RecordRulesError,
    json_kind,
    rules_from_json,
    rules_json,
)
from moonrules.rules.errors import MoonError, quote
from moonrules.rules.scoring import side_tricks
from moonrules.table.clock import Clock, ClockOptionError, parse_clock
from moonrules.table.storage import RoomRow
from moonrules.table.wire import (
    FrameError,
    check_name,
    encode,
    legal_json,
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
    claim_every: float = HINT_EVERY
    """Seconds a seat waits between two claims (a claim's check is seconds of a worker's
    time; counted from the last claim's answer, across reconnections)."""
    max_help: int = 16
    """Hints, claims and reviews being worked out (or waiting for a worker of the help
    pool) at once, all clients together; a further one is refused ``unavailable``."""
    max_address_help: int = 2
    """Of those, from one client address; a further one is refused ``too-fast``."""
    max_bot_rooms: int = 256
    """Games of bots alone going on at once, all clients together; a further room of bots
    alone is refused (503) until one ends. Rooms with a seat for a person are not counted:
    they wait for the person, and their bots' decisions come first."""


class HelpLoad:
    """The players' help being worked out (hints, claims' checks, reviews), counted in all
    and by the client address that asked, and held to :attr:`TableLimits.max_help` and
    :attr:`TableLimits.max_address_help`."""

    def __init__(self, limits: TableLimits) -> None:
        self.limits = limits
        self.total = 0
        self.by_address: dict[str, int] = {}

    def refusal(self, address: str) -> dict[str, JSON] | None:
        """Why one more job for ``address`` may not start now, as a refusal; ``None`` if
        it may."""
        if self.total >= self.limits.max_help:
            message = (
                f"the table is working out {self.total} hints, claims and reviews, its most; "
                "ask again in a moment"
            )
            return refused("unavailable", message, [])
        mine = self.by_address.get(address, 0)
        if mine >= self.limits.max_address_help:
            message = (
                f"{mine} hints, claims or reviews asked from your address are being worked "
                "out, the most at once; wait for one to be answered"
            )
            return refused("too-fast", message, [])
        return None

    def take(self, address: str) -> None:
        """One more job of ``address`` (:meth:`give` when it ends)."""
        self.total += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def give(self, address: str) -> None:
        """A job of ``address`` ended."""
        self.total -= 1
        left = self.by_address.pop(address, 1) - 1
        if left > 0:
            self.by_address[address] = left

    @contextlib.contextmanager
    def job(self, address: str) -> Iterator[None]:
        """Counts one job of ``address`` while the block runs."""
        self.take(address)
        try:
            yield
        finally:
            self.give(address)


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


class Bucket:
    """A token bucket: ``burst`` at once, ``rate`` a second after that."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.level = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


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
        self.board = isinstance(given.get("board"), dict)
        """Whether the room plays a tournament's board: one hand, dealt from the board's
        seed, with the event's names at its seats (:func:`parse_board`)."""
        self.next = row.next
        self.asked = rematch_seats(row.options)
        """The seats whose players asked for a rematch (each is told :attr:`next`)."""
        self.order: list[Listener] = []
        """The listeners in the order they came."""
        self.active: dict[int, Listener] = {}
        """Per seat, the one connection that may act for it (the newest, or the one that
        took the seat back); the seat's other tabs watch."""
        self.hint_at: dict[int, float] = {}
        self.claim_at: dict[int, float] = {}
        self.claim_cache: dict[tuple[int, int, int | None], dict[str, JSON]] = {}
        """Claims refused, by position (the room's ``seq``), seat and count: asked again,
        answered from here, without a new search."""
        """Per seat, when its last hint's (claim's) answer came: the next waits an interval
        (in the room, whatever the seat's connections)."""
        self.buckets: dict[int, Bucket] = {}
        """Per seat, the rate its messages come at (all its connections together, whenever
        they connected: a reconnection does not start it again)."""
        self.helping: set[int] = set()
        """Seats whose hint or claim a worker is thinking out."""
        self.clock = Clock.of(row.options, len(row.seats))
        """The room's turn clocks (:mod:`moonrules.table.clock`), or ``None``."""
        self.clock_task: asyncio.Task[None] | None = None
        self.autoplay = False
        self.parked = False
        """Set while the clock of this room, which nobody is at, waits for a game of bots
        alone to end (the table plays its most); a person back starts the turn afresh."""
        """Set when the clock moves for a seat of a room nobody is at (the room is then one
        of the games of bots alone, :attr:`plays_itself`); cleared when a person is back."""

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
        return self.ends(self.state)

    def ends(self, state: GameState) -> bool:
        """Whether the room's game is over in ``state``: won, or, for a tournament's
        board, its one hand finished (the next hand dealt is never played)."""
        return state.is_over or (self.board and state.hand_number > 1)

    @property
    def attended(self) -> bool:
        """Whether a person is at the room: a seat for a person connected now and not
        played by the clock. A room nobody is at is played as a room of bots alone is
        (its moves after every room where a person waits, and without the bots' pace)."""
        online = {x.seat for x in self.listeners}
        auto = self.clock.auto if self.clock is not None else set()
        return any(s in online and s not in auto for s in self.humans)

    @property
    def plays_itself(self) -> bool:
        """Whether the game goes on with no person at it: a game of bots alone, or one
        whose seats for people are all away or played by the clock (counted among the games
        of bots alone once its clock has made a move: :attr:`autoplay`)."""
        if self.over or self.gone or not self.started:
            return False
        return not self.humans or self.autoplay

    def bot_to_act(self) -> int | None:
        """The seat of the bot to act now, if the game goes on and a bot is to act."""
        seat = self.state.to_act
        if not self.started or seat is None or self.seats[seat] == HUMAN or self.over:
            return None
        return seat

    def bucket(self, seat: int, limits: TableLimits) -> Bucket:
        """The seat's message rate limit (:attr:`buckets`), made on first use."""
        found = self.buckets.get(seat)
        if found is None:
            found = self.buckets[seat] = Bucket(limits.rate, limits.burst)
        return found

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
            "board": self.board,
            "next": self.next if seat is None or seat in self.asked else None,
            "rematch": sorted(self.asked) if self.next is not None else [],
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

    def record(self) -> JSON:
        """The game's record, once it is over; :class:`RoomError` (409) before that.

        The seats' names are its ``players`` (``null`` for a seat without one, a bot's
        included); a room where no one gave a name gives a record without them.
        """
        if not self.over:
            raise RoomError(
                409,
                "the game is not over yet: its record is given once it ends, since it shows "
                "every hand's tiles",
            )
        notes = None if self.clock is None or not self.clock.notes else self.clock.notes
        if any(name is not None for name in self.names):
            record = to_record(self.state, players=self.names, annotations=notes)
        else:
            record = to_record(self.state, annotations=notes)
        hands = record.get("hands")
        if self.board and isinstance(hands, list):  # the board's hand alone
            record["hands"] = hands[:1]
        return record

    def clock_seat(self, state: GameState) -> int | None:
        """The seat whose clock runs in ``state``: a person's seat to act, once started."""
        seat = state.to_act
        if seat is None or not self.started or self.seats[seat] != HUMAN or self.ends(state):
            return None
        return seat

    def help_refusal(self, seat: int, what: str) -> dict[str, JSON] | None:
        """Why a seat may not have a hint or a claim now, as a refusal; ``None`` if it may."""
        st = self.state
        if not self.options[what + "s"]:
            return refused("off", f"{what}s are turned off in this room (as in a tournament)", [])
        if not self.started or self.over or st.to_act != seat:
            return refused("not-now", f"a {what} is for your turn; it is not your turn", [])
        if seat in self.helping:
            return refused("too-fast", "your last hint or claim is still being worked out", [])
        return None


def rematch_seats(options: JSON) -> set[int]:
    """The seats that asked for a rematch, as a room's stored options hold them."""
    asked = options.get("rematch") if isinstance(options, dict) else None
    if not isinstance(asked, list):
        return set()
    return {s for s in asked if type(s) is int}


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


def parse_request(body: JSON, bot_names: Sequence[str]) -> tuple[RuleSet, tuple[str, ...]]:
    """Read a ``POST /api/rooms`` body: ``{"rules": …, "bots": {"1": "basic", …},
    "hints": true, "claims": true}`` (the options: :func:`parse_options`).

    Raises :class:`RoomError` naming the member at fault: status 400, or 422 for
    rules whose fields contradict each other.
    """
    if not isinstance(body, dict):
        raise RoomError(400, f"the request is a JSON object, not {json_kind(body)}")
    for key in body:
        if key not in ("rules", "bots", *OPTIONS, "clock", "board"):
            raise RoomError(
                400,
                f"{quote(key)}: unknown member; a room has rules, bots, hints, claims, clock, "
                "board",
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
        if not isinstance(level, str) or level not in bot_names:
            shown = quote(level) if isinstance(level, str) else json_kind(level)
            raise RoomError(
                400, f"bots.{key}: {shown} is no bot; the bots are {', '.join(bot_names)}"
            )
        seats[int(key)] = level
    return rules, tuple(seats)


def parse_options(body: JSON, bot_names: Sequence[str] = ()) -> dict[str, JSON]:
    """The options of a ``POST /api/rooms`` body: ``hints`` (a seat may ask what the
    strong bot would do) and ``claims`` (CLAIM-1), each ``true`` (the default) or
    ``false`` (a tournament's room); ``clock`` (:func:`~moonrules.table.clock.parse_clock`,
    its ``bot`` one of ``bot_names``)."""
    options: dict[str, JSON] = {}
    for key in OPTIONS:
        value = body.get(key, True) if isinstance(body, dict) else True
        if not isinstance(value, bool):
            raise RoomError(400, f"{key}: true or false, not {json_kind(value)}")
        options[key] = value
    try:
        clock = parse_clock(body.get("clock") if isinstance(body, dict) else None, bot_names)
    except ClockOptionError as e:
        raise RoomError(400, str(e)) from None
    if clock is not None:
        options["clock"] = clock
    return options


MAX_SEED: Final = 2**63 - 1
ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


def parse_board(body: JSON, players: int) -> tuple[int, tuple[str, ...], str | None] | None:
    """The ``board`` member of a ``POST /api/rooms`` body: ``null`` (an ordinary game, the
    default) or ``{"seed": S, "names": [NAME, …], "after": ROOM}``, a tournament's board: the
    room's game is one hand, dealt from ``S`` (the game's seed: the board's tiles and first
    bidder, as ``new_game(rules, S)`` deals them), with ``names`` at its seats (one a seat,
    fixed: not renamed); no rematch. ``after`` (optional): the board room of the same table
    played before it, whose seats' links go on to this one. :class:`RoomError` (400)
    otherwise."""
    value = body.get("board") if isinstance(body, dict) else None
    if value is None:
        return None
    if not isinstance(value, dict) or not {"seed", "names"} <= set(value) <= {
        "seed",
        "names",
        "after",
    }:
        raise RoomError(
            400, 'board: an object {"seed": number, "names": [name, …], "after": room} or null'
        )
    after = value.get("after")
    if after is not None and (not isinstance(after, str) or not ROOM_ID.fullmatch(after)):
        raise RoomError(400, "board.after: a room's id (1 to 32 letters, digits, - or _)")
    seed = value["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RoomError(400, f"board.seed: a whole number from 0 to 2**63 - 1, not {seed!r}")
    names = value["names"]
    if not isinstance(names, list) or len(names) != players:
        raise RoomError(400, f"board.names: one name for each of the {players} seats")
    for k, name in enumerate(names):
        try:
            if check_name(name) != name:
                raise FrameError("bad-name", f"name: {quote(str(name))} is not written plainly")
        except FrameError as e:
            raise RoomError(400, f"board.names[{k}]: {e.message}") from None
    return seed, tuple(str(n) for n in names), after


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
