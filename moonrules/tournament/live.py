"""Running an event with people: its all-bot tables played here, its other tables on the web
table, every result kept in the event's log in a database.

Round by round (a Swiss round paired from the standings of those before it): the round's
seating is appended to the log; every table whose seats are all bots is played here, as
:func:`moonrules.tournament.run.run_event` plays it (the same results); every table with a
person gets one room on the web table per board (``POST /api/rooms`` with a ``board``:
the board's seeded deal, ``match --duplicate``'s for that deal, one hand, the event's names
at the seats, the file's clocks, no hints), and one link per seat for the round. A room's
game is one board's record, so a room is a table and a board: each board's result is kept
as soon as it is played. A table's boards are played one after another: when a board's room
ends, the next board's room is opened ``after`` it (the same seats' links; each page goes
there by itself).

Each room is kept with the event (:meth:`~moonrules.tournament.store.EventStore.add_room`),
and so are its seats' links: a run that stopped and is resumed (``--resume``) finds the rooms
opened for the round and prints their links again, and opens no new room for a board that
has one. A table that cannot be reached while the rooms are played (a server killed and
started again on the same database, which keeps every game) is waited for, up to
``patience`` seconds: nothing is lost, each room's game goes on where it stood, and its
record is kept when it ends.

When a room's game ends its record (``GET /rooms/{room}/record``) is appended to the log as
that table's result through :meth:`~moonrules.tournament.store.EventStore.append`, which
checks it with :func:`~moonrules.tournament.log.fold`: a record refused (a ruling against
it, a result given twice) is not kept, and is listed for the director. The next round is
seated once every room of this one has ended, or is no longer needed: a room whose board the
director adjusted for every entry of its table, or whose round the director approved (a
no-show: a room does not start before every person's seat has joined, so it would never
end), is no longer waited for; the run says so in one line, and the table's next board the
log needs gets a room of its own, with new links.

This module speaks to the table over HTTP only (``urllib``): the tournament package does
not import the table.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from moonrules.bots.match import deal_seed
from moonrules.records.values import rules_json
from moonrules.rules.errors import quote
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import Tournament
from moonrules.tournament.log import EventState, dumps_entry, header, seating_entry
from moonrules.tournament.movement import Round, Table
from moonrules.tournament.run import BoardJob, _Player, next_seating
from moonrules.tournament.store import EventStore

__all__ = [
    "BoardRoom",
    "LiveOutcome",
    "TableUnreachable",
    "board_request",
    "check_table",
    "run_live",
    "table_bots",
]

HTTP_TIMEOUT: Final = 15.0
"""Seconds a request to the table may take."""
PATIENCE: Final = 600.0
"""Seconds a run waits for a table that cannot be reached before it stops (to be resumed)."""
TABLE_NAME_MAX: Final = 24
"""The longest name a seat of the table has (``moonrules.table.wire.MAX_NAME``)."""


class TableUnreachable(TournamentError):
    """The table cannot be reached, or answers that it cannot serve now (5xx): one line."""


class BoardNotOver(TournamentError):
    """The board before, whose seats' links a new room was to take, was never played to its
    end (the director adjusted it instead): the new room has links of its own."""


@attrs.frozen(slots=True)
class BoardRoom:
    """A room of the web table playing one board at one table: each seat's name and link."""

    round: int
    table: int
    board: int
    room: str
    watch: str
    seats: tuple[tuple[str, str | None], ...]
    """(name, link) per seat; a bot's seat has no link."""


@attrs.frozen(slots=True)
class LiveOutcome:
    """What a run did: the rooms opened, the results kept, the records refused."""

    rooms: tuple[BoardRoom, ...]
    results: int
    refused: tuple[str, ...]
    given_up: tuple[str, ...] = ()
    """A line for each room no longer waited for: its board adjusted, or its round
    approved, by the director (a no-show)."""


def board_request(state: EventState, rnd: int, table: Table, board: int) -> dict[str, Any]:
    """The ``POST /api/rooms`` body of ``board`` at ``table`` in round ``rnd``."""
    bots = state.seat_bots(rnd, table)
    body: dict[str, Any] = {
        "rules": rules_json(state.rules),
        "bots": {str(s): b for s, b in enumerate(bots) if b is not None},
        "hints": False,
        "board": {
            "seed": deal_seed(state.seed, board - 1),
            "names": list(state.seat_names(rnd, table)),
        },
    }
    clocks = state.clocks
    if clocks is not None:
        body["clock"] = {"turn": clocks.get("turn"), "bank": clocks.get("bank", 0)}
        if isinstance(clocks.get("bot"), str):  # the file's clock bot plays a timed-out seat
            body["clock"]["bot"] = clocks["bot"]
    return body


def _http(url: str, body: Mapping[str, Any] | None = None) -> tuple[int, Any]:
    """(status, JSON) of a GET (or a POST of ``body``) to the table; a table that cannot be
    reached, or that does not answer JSON, is :class:`TournamentError`."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise TableUnreachable(f"the table at {url} cannot be reached ({reason})") from None
    try:
        return status, json.loads(text)
    except ValueError:
        raise TournamentError(f"the table at {url} answered {status}, not JSON") from None


def check_table(base: str, t: Tournament) -> None:
    """Refuse, before anything is written, a table that cannot be reached or that does not
    seat the bot levels it must (``GET /api/options``: :func:`table_bots`)."""
    status, answer = _http(f"{base.rstrip('/')}/api/options")
    if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("bots"), list):
        raise TournamentError(f"{base} is not a Moon table (GET /api/options answered {status})")
    long = [p.name for e in t.entries for p in e.players if len(p.name) > TABLE_NAME_MAX]
    if long:
        raise TournamentError(
            f"{quote(long[0])}: the table shows names of at most {TABLE_NAME_MAX} characters"
        )
    wanted = table_bots(t)
    missing = [b for b in wanted if b not in answer["bots"]]
    if missing:
        raise TournamentError(
            f"the table at {base} seats no {', '.join(missing)} bot (it seats "
            f"{', '.join(map(str, answer['bots']))}); the event needs "
            f"{'it' if len(missing) == 1 else 'them'} at its tables with people"
        )


def table_bots(t: Tournament) -> list[str]:
    """The bot levels the web table must seat for ``t``: those of the bots that share a
    table with a person in the movement (every bot's, in a Swiss event with people: its
    rounds are paired as it goes), and the clocks' bot once a person plays; none for an
    all-bot event. Bots at all-bot tables are played by the run itself, whatever the
    table seats."""
    people = {p.name for e in t.entries for p in e.players if p.bot is None}
    if not people:
        return []
    level = {p.name: p.bot for e in t.entries for p in e.players if p.bot is not None}
    members = {e.name: tuple(p.name for p in e.players) for e in t.entries}
    wanted: set[str] = set()
    if t.format == "swiss":
        wanted.update(level.values())
    else:
        for rnd in t.movement().rounds:
            for table in rnd.tables:
                names = [n for entry in table.entries for n in members.get(entry, (entry,))]
                if any(n in people for n in names):
                    wanted.update(level[n] for n in names if n in level)
    if t.clocks is not None:
        wanted.add(t.clocks.bot)
    return sorted(wanted)


def open_room(
    base: str,
    state: EventState,
    rnd: int,
    table: Table,
    board: int,
    after: BoardRoom | None = None,
) -> BoardRoom:
    """Create the room of ``board`` at ``table`` on the table at ``base``; ``after``: the
    table's board before it, over, whose seats' links go on to this one (the pages move)."""
    body = board_request(state, rnd, table, board)
    if after is not None:
        body["board"]["after"] = after.room
    status, answer = _http(f"{base}/api/rooms", body)
    if status != 201 or not isinstance(answer, dict):
        error = answer.get("error") if isinstance(answer, dict) else answer
        if after is not None and status == 409:
            raise BoardNotOver(f"room {after.room}: {error}")
        raise TournamentError(
            f"round {rnd}, table {table.number}, board {board}: the table refused the room "
            f"({status}: {error})"
        )
    links: dict[int, str | None] = {int(s["seat"]): str(s["url"]) for s in answer["seats"]}
    new = str(answer["room"])
    if after is not None:  # the same tokens: the links of the board before, to this room
        links = {
            seat: None if link is None else link.replace(f"/rooms/{after.room}#", f"/rooms/{new}#")
            for seat, (_, link) in enumerate(after.seats)
        }
    names = state.seat_names(rnd, table)
    return BoardRoom(
        rnd,
        table.number,
        board,
        new,
        str(answer["watch"]),
        tuple((name, links.get(seat)) for seat, name in enumerate(names)),
    )


def room_record(base: str, room: str) -> dict[str, Any] | None:
    """The room's record once its game is over; ``None`` while it is played."""
    status, answer = _http(f"{base}/rooms/{room}/record")
    if status == 409:
        return None
    if status >= 500:
        raise TableUnreachable(f"room {room}: the table answered {status} for its record")
    if status != 200 or not isinstance(answer, dict):
        raise TournamentError(f"room {room}: the table answered {status} for its record")
    return answer


def run_live(
    t: Tournament,
    store: EventStore,
    event: str,
    base: str,
    *,
    jobs: int = 1,
    poll: float = 1.0,
    say: Callable[[str], None] = print,
    rooms_opened: Callable[[BoardRoom], None] | None = None,
    resume: bool = False,
    patience: float = PATIENCE,
) -> LiveOutcome:
    """Run event ``event`` of ``t`` (created in ``store`` already, its header alone) with the
    table at ``base`` (``http://host:port``): see the module. ``say`` is told each line for
    the director (the links, the records refused); ``rooms_opened`` each room opened.

    ``resume``: the event has begun (a run stopped, or its table restarted): it goes on where
    its log stands. A round seated is not seated again; a board with a result is not played
    again; a board whose room was opened is waited for in that room (its players' links,
    kept with it, are printed again); the others are played or opened as in a first run.

    ``patience``: the seconds a table that cannot be reached is waited for (see the module)
    before the run stops with :class:`TableUnreachable`."""
    planned = t.movement()
    state = store.state(event)
    if store.lines(event)[0] != dumps_entry(header(t, planned)):
        raise TournamentError(f"event {quote(event)} is not this tournament file's event")
    if not resume and (state.seatings or state.results):
        raise TournamentError(
            f"event {quote(event)} has begun already: resume it (--resume), or give a new id"
        )
    run = _Live(t, store, event, base.rstrip("/"), say, rooms_opened, state, patience)
    player = _Player(jobs)
    failed = True
    try:
        for number in range(1, t.rounds + 1):
            rnd = run.state.seating(number)
            if rnd is None:
                rnd = next_seating(t, run.state, number)
                run.state = store.append(event, seating_entry(rnd)).state
            bots, waiting = run.tables(rnd)
            for entry in player.play(bots):
                run.state = store.append(event, entry).state
                run.results += 1
            left: list[BoardRoom | _After] = list(waiting)
            while left:
                left = run.collect(left)
                if left:
                    time.sleep(poll)
        failed = False
    finally:
        player.close(failed)
    return LiveOutcome(tuple(run.opened), run.results, tuple(run.refusals), tuple(run.given_up))


@attrs.frozen(slots=True)
class _After:
    """The table's next board is to be opened after ``room`` (over, its result kept; or,
    not ``ended``, given up)."""

    room: BoardRoom
    ended: bool = True


class _Live:
    """A run's state: the event as its log stands, the rooms opened, the results kept."""

    def __init__(
        self,
        t: Tournament,
        store: EventStore,
        event: str,
        base: str,
        say: Callable[[str], None],
        rooms_opened: Callable[[BoardRoom], None] | None,
        state: EventState,
        patience: float = PATIENCE,
    ) -> None:
        self.t, self.store, self.event, self.base = t, store, event, base
        self.say, self.rooms_opened, self.state = say, rooms_opened, state
        self.patience = patience
        self.opened: list[BoardRoom] = []
        self.refusals: list[str] = []
        self.given_up: list[str] = []
        self.results = 0
        self.links: dict[str, tuple[str | None, ...]] = {}
        """The seats' links kept with each room of the event (read as each round begins)."""
        self.down_since: float | None = None
        """When the table was first found unreachable (``None`` while it answers)."""
        self._folded = -1
        """The entries of the log when :attr:`state` was last read from the store."""

    def _refresh(self) -> None:
        """Read the event's state again if its log has grown (the director's console
        appends to it too), so that a board the log no longer needs is not waited for."""
        entries = len(self.store.lines(self.event))
        if entries != self._folded:
            self.state = self.store.state(self.event)
            self._folded = entries

    def tables(self, rnd: Round) -> tuple[list[BoardJob], list[BoardRoom]]:
        """The boards of the round's all-bot tables still to play, and the rooms of its
        tables with people still being played (opened now, or by an earlier run)."""
        t, n, state = self.t, rnd.number, self.state
        known = self.store.rooms(self.event)
        self.links = self.store.room_links(self.event)
        bots: list[BoardJob] = []
        waiting: list[BoardRoom] = []
        for table in rnd.tables:
            seated = state.seat_bots(n, table)
            names = state.seat_names(n, table)
            if all(b is not None for b in seated):
                boards = [b for b in rnd.boards if state.result(n, table.number, b) is None]
                levels = tuple(b for b in seated if b is not None)
                bots += [
                    BoardJob(t.rules, t.seed, n, table.number, b, levels, names) for b in boards
                ]
                continue
            boards = [b for b in rnd.boards if self.not_needed(n, table, b) is None]
            if not boards:
                continue
            b = boards[0]  # a table's boards are played one after another
            made = known.get((n, table.number, b))
            if made is None:
                k = rnd.boards.index(b)
                prior = rnd.boards[k - 1] if k else None
                before = None if prior is None else known.get((n, table.number, prior))
                stub = None
                if prior is not None and before is not None:
                    stub = self._known(n, table, prior, before)
                waiting.append(self.open(n, table, b, stub))
                continue
            room = self._known(n, table, b, made)
            waiting.append(room)
            self.say(
                f"round {n}, table {table.number}, board {b}: being played (the links given "
                f"before): watch {room.watch}"
            )
            for name, link in room.seats:
                if link is not None:
                    self.say(f"  {name}: {link}")
        return bots, waiting

    def not_needed(self, n: int, table: Table, b: int) -> str | None:
        """Why the log no longer needs board ``b`` played at ``table`` in round ``n`` (it
        has a result, the round is approved, or every entry of the table has an adjustment
        on it), or ``None`` while it does."""
        state = self.state
        if state.result(n, table.number, b) is not None:
            return "it has a result"
        if n in state.approved:
            return f"round {n} is approved"
        adjusted = {a.entry for a in state.adjustments if a.round == n and a.board == b}
        if all(e in adjusted for e in table.entries):
            return "every seat at the table has an adjustment on it"
        return None

    def _known(self, n: int, table: Table, b: int, room: str) -> BoardRoom:
        """A room opened by an earlier run, with the seats' links kept with it (each on
        this run's table address; ``None`` for a bot's seat, or a room kept without them)."""
        names = self.state.seat_names(n, table)
        kept = self.links.get(room, ())
        links: list[str | None] = []
        for seat in range(len(names)):
            link = kept[seat] if seat < len(kept) else None
            token = None if link is None or "#" not in link else link.split("#", 1)[1]
            links.append(None if token is None else f"{self.base}/rooms/{room}#{token}")
        return BoardRoom(
            n,
            table.number,
            b,
            room,
            f"{self.base}/rooms/{room}",
            tuple(zip(names, links, strict=True)),
        )

    def open(self, n: int, table: Table, b: int, after: BoardRoom | None = None) -> BoardRoom:
        """Open the room of board ``b`` at ``table`` (after the table's board ``after``), keep
        it with the event, print its links."""
        try:
            room = open_room(self.base, self.state, n, table, b, after)
        except BoardNotOver:  # a board given up (adjusted, never played): new links
            after = None
            room = open_room(self.base, self.state, n, table, b)
        links = [link for _, link in room.seats]
        self.store.add_room(self.event, n, table.number, b, room.room, links)
        self.opened.append(room)
        self.say(f"round {n}, table {table.number}, board {b}: watch {room.watch}")
        if after is not None:
            self.say("  (the seats' links of the board before go on to it by themselves)")
        for name, link in room.seats:
            if link is not None:
                self.say(f"  {name}: {link}")
        if self.rooms_opened is not None:
            self.rooms_opened(room)
        return room

    def collect(self, waiting: list[BoardRoom | _After]) -> list[BoardRoom | _After]:
        """Keep the record of each room whose game is over; the rooms still being played
        (and the rooms still to open after a room over, while the table cannot be reached)."""
        left: list[BoardRoom | _After] = []
        down: TableUnreachable | None = None
        self._refresh()  # the director's actions since (an adjustment, an approval)
        for item in waiting:
            try:
                if isinstance(item, _After):
                    left.extend(self._then(item.room, ended=item.ended))
                    continue
                why = self._room_not_needed(item)
                if why is not None:
                    line = (
                        f"round {item.round}, table {item.table}, board {item.board} (room "
                        f"{item.room}): no longer waited for ({why}); its room stays unplayed"
                    )
                    self.given_up.append(line)
                    self.say(line)
                    try:
                        left.extend(self._then(item, ended=False))
                    except TableUnreachable as e:
                        down = e
                        left.append(_After(item, ended=False))
                    continue
                record = room_record(self.base, item.room)
            except TableUnreachable as e:
                down = e
                left.append(item)
                continue
            room = item
            if record is None:
                left.append(room)
                continue
            entry = {
                "type": "result",
                "round": room.round,
                "table": room.table,
                "board": room.board,
                "record": record,
            }
            try:
                self.state = self.store.append(self.event, entry).state
                self.results += 1
            except TournamentError as e:
                line = (
                    f"round {room.round}, table {room.table}, board {room.board} "
                    f"(room {room.room}): not kept, for the director: {e}"
                )
                self.refusals.append(line)
                self.say(line)
            try:
                left.extend(self._then(room))
            except TableUnreachable as e:
                down = e
                left.append(_After(room))
        self._reached(down)
        return left

    def _reached(self, down: TableUnreachable | None) -> None:
        """Note whether the table answered; stop once it has not for ``patience`` seconds."""
        now = time.monotonic()
        if down is None:
            if self.down_since is not None:
                self.say(f"the table at {self.base} answers again: the rooms go on")
            self.down_since = None
            return
        if self.down_since is None:
            self.down_since = now
            self.say(
                f"{down}: waiting for it (the results kept are safe; its games go on when it is "
                "started again on its database)"
            )
        elif now - self.down_since > self.patience:
            raise TableUnreachable(
                f"{down}, for {self.patience:g} s: stopped; once it is back, go on with --resume"
            )

    def _room_not_needed(self, room: BoardRoom) -> str | None:
        """Why the log no longer needs ``room``'s board (:meth:`not_needed`), or ``None``."""
        rnd = self.state.seating(room.round)
        table = None if rnd is None else rnd.table(room.table)
        if table is None:
            return f"round {room.round} has no table {room.table}"
        return self.not_needed(room.round, table, room.board)

    def _then(self, room: BoardRoom, *, ended: bool = True) -> list[BoardRoom]:
        """The room of the table's next board the log needs once ``room``'s is played (none
        after its round's last board); ``ended``: ``room`` was played to its end, and the
        next room takes its seats' links (else, a board given up, it has links of its own)."""
        rnd = self.state.seating(room.round)
        table = None if rnd is None else rnd.table(room.table)
        if rnd is None or table is None:
            return []
        later = [
            b
            for b in rnd.boards[rnd.boards.index(room.board) + 1 :]
            if self.not_needed(room.round, table, b) is None
        ]
        if not later:
            return []
        return [self.open(room.round, table, later[0], room if ended else None)]
