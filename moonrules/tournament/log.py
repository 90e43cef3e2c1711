"""The event log: an append-only sequence of JSON entries (``spec/schema/event-log.schema.json``).

An event *is* its log. The entries, one JSON object each, with ``type``:

- ``event``: the header, first and once: the event's name, format, rule set, seed, scoring,
  rounds, boards a round, entries, clocks and movement (:func:`header`), and the pairs of
  entries ``forbidden`` to share a table, if the file names any;
- ``seating``: one round's tables (and byes), as they were seated;
- ``result``: one board at one table: ``round``, ``table``, ``board`` and the game's
  record (:func:`moonrules.records.to_record`'s JSON);
- ``action``: a director's action, always with a ``reason``: ``late-entry``,
  ``withdrawal``, ``substitute``, ``adjustment``, ``approve``, ``reopen``, ``forbid``
  (two entries who must not share a table from a round not yet seated on: a seating that
  puts them together is refused, and :func:`next_round` plans the rounds around them).

:func:`fold` reads a log into an :class:`EventState`, checking every entry against those
before it; the first one that cannot be accepted (a result for a table that does not
exist, a result given twice, an action on an approved round that was not re-opened, a
record that is not the board's deal or breaks a rule…) is refused with a one-line
:class:`~moonrules.tournament.errors.TournamentError` naming its line, and :func:`append`
never writes it: the log is unchanged. Standings are a pure function of the state
(:mod:`moonrules.tournament.scoring`): the same log gives the same standings anywhere.

The log is stored as JSON lines (:func:`read_log`, :func:`write_log`, :func:`append`),
one entry a line, keys in a fixed order, so that the same event gives the same bytes.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from moonrules.bots.match import BOTS, deal_seed
from moonrules.game import new_game
from moonrules.records import RecordError, replay
from moonrules.records.values import rules_from_json, rules_json
from moonrules.rules.errors import MoonError, quote
from moonrules.rules.ruleset import RuleSet
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import (
    MAX_NAME,
    SCORINGS,
    Entry,
    Player,
    Tournament,
    entries_json,
    movement_json,
    round_json,
)
from moonrules.tournament.movement import (
    FORMATS,
    Movement,
    MovementError,
    Round,
    Table,
    check_movement,
    check_round,
    forbidden_at,
    positions_of,
    replan_round,
    round_boards,
)

__all__ = [
    "ACTIONS",
    "ADJUSTMENTS",
    "LOG_VERSION",
    "Adjustment",
    "EventState",
    "Result",
    "append",
    "dumps_entry",
    "fold",
    "header",
    "next_round",
    "read_log",
    "write_log",
]

LOG_VERSION: Final = 1
ACTIONS: Final = (
    "late-entry",
    "withdrawal",
    "substitute",
    "adjustment",
    "approve",
    "reopen",
    "forbid",
)
ADJUSTMENTS: Final = ("average-plus", "average-minus", "60/40", "penalty")
LINE_KEY: Final = "\x00line"
"""The key :func:`read_log` gives each entry for its line in the file (never written)."""
MAX_LOG_BYTES: Final = 1 << 30
MAX_LINE_BYTES: Final = 4 << 20


@attrs.frozen(slots=True)
class Result:
    """One board played at one table: the entry at each position, each position's points
    (the score change of the seat, or of the side for pairs), and the names at each seat."""

    round: int
    table: int
    board: int
    entries: tuple[str, ...]
    points: tuple[int, ...]
    players: tuple[str, ...]
    record: Mapping[str, Any] = attrs.field(eq=False, repr=False)


@attrs.frozen(slots=True)
class Adjustment:
    """A director's score adjustment of one entry on one board (``value``: for ``penalty``
    what is taken off; for the others, with points scoring, the points difference given)."""

    entry: str
    round: int
    board: int
    kind: str
    value: float | None
    reason: str


@attrs.frozen(slots=True)
class EventState:
    """An event as its log stands: the header's values, the rounds seated, the results and
    the director's actions (all checked)."""

    name: str
    format: str
    rules: RuleSet
    seed: int
    scoring: str
    rounds: int
    boards_per_round: int
    entries: tuple[Entry, ...]
    movement: Movement
    clocks: Mapping[str, Any] | None = attrs.field(eq=False)
    seatings: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()
    late: tuple[tuple[str, int, float], ...] = ()
    """(entry, first round played, stated value for each board of the rounds missed)."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """(entry, first round not played)."""
    substitutes: tuple[tuple[str, int, str, str], ...] = ()
    """(entry, round from which, player replaced, substitute's name)."""
    adjustments: tuple[Adjustment, ...] = ()
    approved: frozenset[int] = frozenset()
    forbidden: tuple[tuple[str, str, int], ...] = ()
    """(entry, entry, first round): two entries who must not share a table from that round."""

    def forbidden_in(self, rnd: int) -> tuple[tuple[str, str], ...]:
        """The pairs kept apart in round ``rnd``."""
        return tuple((a, b) for a, b, since in self.forbidden if since <= rnd)

    @property
    def entry_names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def seating(self, number: int) -> Round | None:
        return next((r for r in self.seatings if r.number == number), None)

    def result(self, rnd: int, table: int, board: int) -> Result | None:
        return next(
            (x for x in self.results if (x.round, x.table, x.board) == (rnd, table, board)), None
        )

    def withdrawn_from(self, name: str) -> int | None:
        return next((r for e, r in self.withdrawn if e == name), None)

    def first_round(self, name: str) -> int:
        return next((r for e, r, _ in self.late if e == name), 1)

    def active(self, name: str, rnd: int) -> bool:
        """Whether ``name`` plays in round ``rnd`` (entered by then, not withdrawn)."""
        gone = self.withdrawn_from(name)
        return self.first_round(name) <= rnd and (gone is None or rnd < gone)

    def seat_names(self, rnd: int, table: Table) -> tuple[str, ...]:
        """The player at each seat of the game at ``table`` in round ``rnd``, substitutes in."""
        positions = positions_of(self.format)
        names = []
        for seat in range(self.rules.players):
            entry = self.entry(table.entries[seat % positions])
            assert entry is not None
            player = entry.players[seat // positions].name
            for who, since, replaced, by in self.substitutes:
                if who == entry.name and replaced == player and since <= rnd:
                    player = by
            names.append(player)
        return tuple(names)

    def seat_bots(self, rnd: int, table: Table) -> tuple[str | None, ...]:
        """The bot level at each seat (``None`` for a person), substitutes in."""
        positions = positions_of(self.format)
        out: list[str | None] = []
        subs = dict(self.substitute_bots)
        for seat, name in enumerate(self.seat_names(rnd, table)):
            entry = self.entry(table.entries[seat % positions])
            assert entry is not None
            member = entry.players[seat // positions]
            out.append(member.bot if member.name == name else subs.get(name))
        return tuple(out)

    substitute_bots: tuple[tuple[str, str | None], ...] = ()
    """The bot level of each substitute (``None`` for a person)."""

    def substituted(self, name: str, rnd: int) -> bool:
        """Whether a substitute played for ``name`` in round ``rnd`` (flagged)."""
        return any(who == name and since <= rnd for who, since, _, _ in self.substitutes)


# ---------------------------------------------------------------------------
# Writing entries


def header(t: Tournament, movement: Movement | None = None) -> dict[str, Any]:
    """The ``event`` entry of tournament ``t`` (its movement: ``movement`` or ``t``'s)."""
    m = movement if movement is not None else t.movement()
    apart = {"forbidden": [list(p) for p in t.forbidden]} if t.forbidden else {}
    return {
        "type": "event",
        "version": LOG_VERSION,
        "name": t.name,
        "format": t.format,
        "rules": rules_json(t.rules),
        "seed": t.seed,
        "scoring": t.scoring,
        "rounds": t.rounds,
        "boards_per_round": t.boards_per_round,
        "entries": entries_json(t.entries),
        "clocks": None if t.clocks is None else t.clocks.to_json(),
        "movement": movement_json(m) if t.format != "swiss" else [],
        **apart,
    }


def seating_entry(rnd: Round) -> dict[str, Any]:
    return {"type": "seating", **round_json(rnd)}


def dumps_entry(entry: Mapping[str, Any]) -> str:
    """One entry as its line (no line break): compact JSON, the keys as given."""
    entry = {k: v for k, v in entry.items() if k != LINE_KEY}
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_log(path: str | Path, entries: Sequence[Mapping[str, Any]]) -> None:
    """Write a whole log (checked first by :func:`fold`): one entry a line, replacing the
    file in one step."""
    fold(entries)
    p = Path(path)
    tmp = p.with_name(p.name + ".part")
    with tmp.open("w", encoding="utf-8", newline="\n") as f:
        for e in entries:
            f.write(dumps_entry(e) + "\n")
    os.replace(tmp, p)


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The entries of the JSON-lines log at ``path`` (not yet checked: :func:`fold` them)."""
    p = Path(path)
    if p.stat().st_size > MAX_LOG_BYTES:
        raise TournamentError(f"{p}: a log is at most {MAX_LOG_BYTES >> 20} MiB")
    out: list[dict[str, Any]] = []
    with p.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if len(raw) > MAX_LINE_BYTES:
                raise TournamentError(f"an entry is at most {MAX_LINE_BYTES >> 20} MiB", number)
            if not raw.strip():
                continue
            try:
                value = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
            except (UnicodeDecodeError, ValueError) as e:
                what = e.msg if isinstance(e, json.JSONDecodeError) else "not UTF-8 text"
                raise TournamentError(f"not a JSON entry: {what}", number) from None
            if not isinstance(value, dict):
                raise TournamentError("an entry is a JSON object", number)
            value[LINE_KEY] = number
            out.append(value)
    return out


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def append(path: str | Path, entry: Mapping[str, Any]) -> EventState:
    """Append ``entry`` to the log at ``path`` if the log with it folds (else the
    :class:`TournamentError` of the refusal, and the file is untouched); the new state."""
    p = Path(path)
    entries = read_log(p) if p.exists() else []
    state = fold([*entries, dict(entry)])
    with p.open("a", encoding="utf-8", newline="\n") as f:
        f.write(dumps_entry(entry) + "\n")
    return state


# ---------------------------------------------------------------------------
# Reading: the fold


class _Fail(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _int(entry: Mapping[str, Any], key: str, low: int = 1, high: int = 10**9) -> int:
    v = entry.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise _Fail(f"{key}: expected a whole number from {low}, not {_shown(v)}")
    return v


def _str(entry: Mapping[str, Any], key: str) -> str:
    v = entry.get(key)
    if not isinstance(v, str) or not v.strip():
        raise _Fail(f"{key}: expected a non-empty text, not {_shown(v)}")
    return v


def _shown(v: object) -> str:
    if v is None:
        return "nothing"
    if isinstance(v, str):
        return quote(v)
    text = json.dumps(v) if isinstance(v, (int, float, bool, list, dict)) else repr(v)
    return text if len(text) <= 40 else text[:37] + "…"


def _entries(value: object) -> tuple[Entry, ...]:
    if not isinstance(value, list) or not value:
        raise _Fail("entries: expected a non-empty array")
    out = []
    for k, item in enumerate(value):
        out.append(_entry(item, f"entries[{k}]"))
    names = [e.name for e in out]
    if len(set(names)) != len(names):
        raise _Fail("entries: an entry is listed twice")
    return tuple(out)


def _entry(item: object, where: str) -> Entry:
    if not isinstance(item, dict) or not isinstance(item.get("players"), list):
        raise _Fail(f"{where}: expected {{name, players}}")
    players = []
    for p in item["players"]:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise _Fail(f"{where}: a player is {{name, bot}}")
        players.append(Player(_name(p["name"], where), _bot_of(p.get("bot"), where)))
    name = item.get("name")
    if not isinstance(name, str) or not name.strip() or not players:
        raise _Fail(f"{where}: an entry needs a name and players")
    return Entry(name, tuple(players))


def _name(v: object, where: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v.strip()) > MAX_NAME:
        raise _Fail(f"{where}: a name is 1 to {MAX_NAME} characters, not {_shown(v)}")
    return v.strip()


def _bot_of(v: object, where: str) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or v not in BOTS:
        raise _Fail(f"{where}: no bot is called {_shown(v)}; known: {', '.join(BOTS)}")
    return v


def _round_value(value: object, where: str) -> Round:
    if not isinstance(value, dict):
        raise _Fail(f"{where}: expected a round object")
    number = _int(value, "round")
    boards = value.get("boards")
    if not isinstance(boards, list) or not all(
        isinstance(b, int) and not isinstance(b, bool) and b >= 1 for b in boards
    ):
        raise _Fail(f"{where}: boards: expected an array of board numbers from 1")
    tables_v = value.get("tables")
    if not isinstance(tables_v, list):
        raise _Fail(f"{where}: tables: expected an array")
    tables = []
    for t in tables_v:
        if not isinstance(t, dict) or not isinstance(t.get("entries"), list):
            raise _Fail(f"{where}: a table is {{table, entries}}")
        if not all(isinstance(e, str) for e in t["entries"]):
            raise _Fail(f"{where}: a table's entries are names")
        tables.append(Table(_int(t, "table"), tuple(t["entries"])))
    byes = value.get("byes", [])
    if not isinstance(byes, list) or not all(isinstance(e, str) for e in byes):
        raise _Fail(f"{where}: byes: expected an array of names")
    return Round(number, tuple(boards), tuple(tables), tuple(byes))


def _read_header(entry: Mapping[str, Any]) -> EventState:
    if entry.get("version") != LOG_VERSION:
        raise _Fail(
            f"version: this is log version {LOG_VERSION}, not {_shown(entry.get('version'))}"
        )
    fmt = entry.get("format")
    if fmt not in FORMATS:
        raise _Fail(f"format: one of {', '.join(FORMATS)}, not {_shown(fmt)}")
    try:
        rules = rules_from_json(entry.get("rules"), "rules")
    except MoonError as e:
        raise _Fail(str(e)) from None
    scoring = entry.get("scoring")
    if scoring not in SCORINGS:
        raise _Fail(f"scoring: one of {', '.join(SCORINGS)}, not {_shown(scoring)}")
    name = entry.get("name")
    if not isinstance(name, str):
        raise _Fail("name: expected a text")
    entries = _entries(entry.get("entries"))
    size = 2 if fmt in ("mitchell", "howell") else 1
    if any(len(e.players) != size for e in entries):
        raise _Fail(f"entries: a {fmt} entry has {size} player(s)")
    rounds_v = entry.get("movement")
    if not isinstance(rounds_v, list):
        raise _Fail("movement: expected an array of rounds")
    movement = Movement(
        str(fmt), tuple(_round_value(r, f"movement[{k}]") for k, r in enumerate(rounds_v))
    )
    apart = _forbidden_pairs(entry.get("forbidden", []), [e.name for e in entries])
    try:
        check_movement(movement, [e.name for e in entries], apart)
    except MovementError as e:
        raise _Fail(f"movement: {e.reason}") from None
    clocks = entry.get("clocks")
    if clocks is not None and not isinstance(clocks, dict):
        raise _Fail("clocks: expected an object or null")
    return EventState(
        name,
        str(fmt),
        rules,
        _int(entry, "seed", 0, 2**63 - 1),
        str(scoring),
        _int(entry, "rounds"),
        _int(entry, "boards_per_round"),
        entries,
        movement,
        clocks,
        forbidden=tuple((a, b, 1) for a, b in apart),
    )


def _forbidden_pairs(value: object, names: Sequence[str]) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        raise _Fail("forbidden: expected an array of pairs of entries")
    out: list[tuple[str, str]] = []
    for k, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise _Fail(f"forbidden[{k}]: expected two entry names")
        a, b = item
        for x in (a, b):
            if x not in names:
                raise _Fail(f"forbidden[{k}]: {_shown(x)} is not an entry of the event")
        if a == b or any({a, b} == set(p) for p in out):
            raise _Fail(f"forbidden[{k}]: two different entries, once each")
        out.append((a, b))
    return out


def _open(state: EventState, rnd: int, what: str) -> None:
    if rnd in state.approved:
        raise _Fail(f"round {rnd} is approved: re-open it (a reopen action) before {what}")


def _seat(state: EventState, entry: Mapping[str, Any]) -> EventState:
    rnd = _round_value(entry, "seating")
    n = rnd.number
    if n > state.rounds:
        raise _Fail(f"round {n}: the event has {state.rounds} rounds")
    if state.seating(n) is not None:
        raise _Fail(f"round {n} is seated already")
    if n > 1 and state.seating(n - 1) is None:
        raise _Fail(f"round {n} is seated before round {n - 1}")
    _open(state, n, "seating it")
    if state.format != "swiss":
        planned = state.movement.rounds[n - 1]
        if rnd.boards != planned.boards:
            raise _Fail(f"round {n} plays boards {list(planned.boards)}, not {list(rnd.boards)}")
    for t in rnd.tables:
        for e in t.entries:
            if state.entry(e) is not None and not state.active(e, n):
                raise _Fail(f"round {n}, table {t.number}: {e!r} does not play in round {n}")
    playing = [e for e in state.entry_names if state.active(e, n)]
    try:
        check_round(state.format, rnd, n - 1, playing)
    except MovementError as e:
        raise _Fail(e.reason) from None
    _apart(state, rnd)
    for earlier in state.seatings:
        again = set(earlier.boards) & set(rnd.boards)
        for t in earlier.tables:
            for who in t.entries:
                if again and any(who in u.entries for u in rnd.tables):
                    raise _Fail(
                        f"round {n}: {who!r} would play board {min(again)} twice (rounds "
                        f"{earlier.number} and {n})"
                    )
    return attrs.evolve(state, seatings=(*state.seatings, rnd))


def _apart(state: EventState, rnd: Round) -> None:
    for t in rnd.tables:
        pair = forbidden_at(t.entries, state.forbidden_in(rnd.number))
        if pair is not None:
            raise _Fail(
                f"round {rnd.number}, table {t.number}: {pair[0]!r} and {pair[1]!r} must not "
                "share a table (a forbidden pairing)"
            )


def _result(state: EventState, entry: Mapping[str, Any]) -> EventState:
    n, t, b = _int(entry, "round"), _int(entry, "table"), _int(entry, "board")
    rnd = state.seating(n)
    table = rnd.table(t) if rnd is not None else None
    if rnd is None or table is None:
        raise _Fail(f"a result for round {n}, table {t}, which does not exist (not seated)")
    if b not in rnd.boards:
        raise _Fail(f"round {n} plays boards {list(rnd.boards)}, not board {b}")
    if state.result(n, t, b) is not None:
        raise _Fail(f"round {n}, table {t}, board {b} has a result already (given twice)")
    _open(state, n, "adding a result")
    record = entry.get("record")
    if not isinstance(record, dict):
        raise _Fail("record: expected a game record (a JSON object)")
    try:
        if rules_from_json(record.get("rules"), "record.rules") != state.rules:
            raise _Fail("record: its rule set is not the event's")
        played = replay(record)
    except (RecordError, MoonError) as e:
        raise _Fail(f"record: {e}") from None
    if played.violation is not None:
        v = played.violation
        raise _Fail(
            f"record: {v.message} ({v.rule}); the director rules on it (moonrules check) and "
            "gives an adjustment instead"
        )
    if played.state.rules != state.rules:
        raise _Fail("record: its rule set is not the event's")
    st = played.state
    first = st.history[0] if st.history else st.hand
    if not st.history and first.deltas is None:  # a hand thrown in (BID-7) is in the history
        raise _Fail("record: the board's hand is not finished")
    deal = new_game(state.rules, deal_seed(state.seed, b - 1)).hand.contract
    mine = first.contract
    if (mine.deal, mine.widow, mine.first_bidder) != (deal.deal, deal.widow, deal.first_bidder):
        raise _Fail(f"record: its deal is not board {b}'s")
    names = state.seat_names(n, table)
    if played.players is not None and tuple(played.players) != names:
        raise _Fail(f"record: its players are {list(played.players)}, not {list(names)}")
    deltas = played.hands[0].deltas
    positions = positions_of(state.format)
    points = tuple(deltas[state.rules.side_of(p)] for p in range(positions))
    result = Result(n, t, b, table.entries, points, names, record)
    return attrs.evolve(state, results=(*state.results, result))


def _number(entry: Mapping[str, Any], key: str) -> float:
    v = entry.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise _Fail(f"{key}: expected a number, not {_shown(v)}")
    return float(v)


def _action(state: EventState, entry: Mapping[str, Any]) -> EventState:
    kind = entry.get("action")
    if kind not in ACTIONS:
        raise _Fail(f"action: one of {', '.join(ACTIONS)}, not {_shown(kind)}")
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise _Fail(f"a {kind} needs a reason")
    n = _int(entry, "round")
    if n > state.rounds:
        raise _Fail(f"round {n}: the event has {state.rounds} rounds")
    if kind == "reopen":
        if n not in state.approved:
            raise _Fail(f"round {n} is not approved: there is nothing to re-open")
        return attrs.evolve(state, approved=state.approved - {n})
    _open(state, n, f"{'an' if str(kind)[0] in 'aeiou' else 'a'} {kind}")
    if kind == "approve":
        return _approve(state, n)
    if kind == "late-entry":
        return _late_entry(state, entry, n)
    if kind == "forbid":
        return _forbid(state, entry, n)
    name = _str(entry, "entry")
    if state.entry(name) is None:
        raise _Fail(f"entry: {name!r} is not an entry of the event")
    if kind == "withdrawal":
        return _withdraw(state, name, n)
    if kind == "substitute":
        return _substitute(state, entry, name, n)
    return _adjust(state, entry, name, n, reason)


def _late_entry(state: EventState, entry: Mapping[str, Any], n: int) -> EventState:
    new = _entry(entry.get("entry"), "entry")
    if state.entry(new.name) is not None:
        raise _Fail(f"entry: {new.name!r} is an entry already")
    size = len(state.entries[0].players)
    if len(new.players) != size:
        raise _Fail(f"entry: an entry of this event has {size} player(s)")
    if state.seating(n) is not None:
        raise _Fail(f"round {n} is seated already: a late entry plays from a later round")
    value = _number(entry, "value")
    if state.scoring == "matchpoints" and not 0 <= value <= 100:
        raise _Fail(f"value: a percentage from 0 to 100, not {value:g}")
    return attrs.evolve(
        state, entries=(*state.entries, new), late=(*state.late, (new.name, n, value))
    )


def _forbid(state: EventState, entry: Mapping[str, Any], n: int) -> EventState:
    pair = entry.get("entries")
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
        raise _Fail(f"entries: expected two entry names, not {_shown(pair)}")
    a, b = pair
    for x in (a, b):
        if state.entry(x) is None:
            raise _Fail(f"entries: {x!r} is not an entry of the event")
    if a == b:
        raise _Fail(f"entries: {a!r} twice: a forbidden pairing names two entries")
    if any({a, b} == {x, y} for x, y, _ in state.forbidden):
        raise _Fail(f"{a!r} and {b!r} are kept apart already")
    if state.seating(n) is not None:
        raise _Fail(f"round {n} is seated already: forbid a pairing from a round not yet seated")
    return attrs.evolve(state, forbidden=(*state.forbidden, (a, b, n)))


def _withdraw(state: EventState, name: str, n: int) -> EventState:
    if state.withdrawn_from(name) is not None:
        raise _Fail(f"{name!r} has withdrawn already")
    for rnd in state.seatings:
        if rnd.number >= n and any(name in t.entries for t in rnd.tables):
            raise _Fail(f"{name!r} is seated in round {rnd.number}: withdraw from a later round")
    return attrs.evolve(state, withdrawn=(*state.withdrawn, (name, n)))


def _substitute(state: EventState, entry: Mapping[str, Any], name: str, n: int) -> EventState:
    member = _str(entry, "player")
    owner = state.entry(name)
    assert owner is not None
    if member not in [p.name for p in owner.players]:
        raise _Fail(f"player: {member!r} does not play for {name!r}")
    sub = entry.get("substitute")
    if not isinstance(sub, dict):
        raise _Fail("substitute: expected {name, bot}")
    sub_name = _name(sub.get("name"), "substitute")
    sub_bot = _bot_of(sub.get("bot"), "substitute")
    taken = {p.name for e in state.entries for p in e.players} | {
        s for _, _, _, s in state.substitutes
    }
    if sub_name in taken:
        raise _Fail(f"substitute: {sub_name!r} plays in the event already")
    if state.seating(n) is not None:
        raise _Fail(f"round {n} is seated already: substitute from a round not yet seated")
    return attrs.evolve(
        state,
        substitutes=(*state.substitutes, (name, n, member, sub_name)),
        substitute_bots=(*state.substitute_bots, (sub_name, sub_bot)),
    )


def _adjust(
    state: EventState, entry: Mapping[str, Any], name: str, n: int, reason: str
) -> EventState:
    rnd = state.seating(n)
    if rnd is None:
        raise _Fail(f"round {n} is not seated: there is nothing to adjust")
    b = _int(entry, "board")
    if b not in rnd.boards:
        raise _Fail(f"round {n} plays boards {list(rnd.boards)}, not board {b}")
    if not any(name in t.entries for t in rnd.tables):
        raise _Fail(f"{name!r} does not play in round {n}")
    kind = entry.get("kind")
    if kind not in ADJUSTMENTS:
        raise _Fail(f"kind: one of {', '.join(ADJUSTMENTS)}, not {_shown(kind)}")
    value: float | None = None
    if kind == "penalty" or state.scoring == "points":
        value = _number(entry, "value")
        if value < 0:
            raise _Fail(
                f"value: a penalty or a points difference is given as at least 0, not {value:g}"
            )
    adds = [Adjustment(name, n, b, str(kind), value, reason)]
    if kind == "60/40":
        other = _str(entry, "offender")
        if not any(name in t.entries and other in t.entries for t in rnd.tables) or other == name:
            raise _Fail(f"offender: {other!r} is not at {name!r}'s table in round {n}")
        adds.append(Adjustment(other, n, b, "40/60", value, reason))
    made = {(a.entry, a.board, a.kind) for a in state.adjustments if a.kind != "penalty"}
    for a in adds:
        if a.kind != "penalty" and (a.entry, a.board, a.kind) in made:
            raise _Fail(f"{a.entry!r} has that adjustment on board {b} already")
    return attrs.evolve(state, adjustments=(*state.adjustments, *adds))


def _approve(state: EventState, n: int) -> EventState:
    rnd = state.seating(n)
    if rnd is None:
        raise _Fail(f"round {n} is not seated: there is nothing to approve")
    adjusted = {(a.entry, a.board) for a in state.adjustments if a.kind != "penalty"}
    for t in rnd.tables:
        for b in rnd.boards:
            if state.result(n, t.number, b) is None and not any(
                (e, b) in adjusted for e in t.entries
            ):
                raise _Fail(
                    f"round {n} cannot be approved: table {t.number} has no result for board "
                    f"{b} (play it, or adjust it)"
                )
    return attrs.evolve(state, approved=state.approved | {n})


def next_round(state: EventState, number: int, ranking: Sequence[str] | None = None) -> Round:
    """The seating of round ``number`` (not yet seated) as the log stands: the movement's
    round when it still fits, else the round planned again
    (:func:`~moonrules.tournament.movement.replan_round`) for the entries playing it (late
    entries in, withdrawals out) with the pairings forbidden by then kept apart. A Swiss
    round is paired from ``ranking`` (the standings, best first; by default the entries'
    order). :class:`~moonrules.tournament.movement.MovementError` if it cannot be seated."""
    if not 1 <= number <= state.rounds:
        raise MovementError(f"round {number}: the event has {state.rounds} rounds")
    if state.seating(number) is not None:
        raise MovementError(f"round {number} is seated already")
    playing = [e for e in (ranking or state.entry_names) if state.active(e, number)]
    planned = None
    if state.format != "swiss" and number <= len(state.movement.rounds):
        planned = state.movement.rounds[number - 1]
    boards = planned.boards if planned is not None else round_boards(number, state.boards_per_round)
    earlier = [r for r in state.seatings if r.number < number]
    return replan_round(
        state.format,
        number,
        boards,
        playing,
        earlier,
        state.seed,
        state.forbidden_in(number),
        planned,
    )


def _step(state: EventState | None, entry: Mapping[str, Any]) -> EventState:
    kind = entry.get("type")
    if state is None:
        if kind != "event":
            raise _Fail("a log begins with its event entry (type event)")
        return _read_header(entry)
    if kind == "event":
        raise _Fail("a second event entry: a log holds one event")
    if kind == "seating":
        return _seat(state, entry)
    if kind == "result":
        return _result(state, entry)
    if kind == "action":
        return _action(state, entry)
    raise _Fail(f"type: one of event, seating, result, action, not {_shown(kind)}")


def fold(entries: Iterable[Mapping[str, Any]]) -> EventState:
    """The event the log's ``entries`` make, every entry checked against those before it;
    :class:`TournamentError` for the first refused (its line: the entry's line in the file
    it was read from, else its position from 1)."""
    state: EventState | None = None
    for k, entry in enumerate(entries, 1):
        line = entry.get(LINE_KEY, k)
        try:
            state = _step(state, entry)
        except _Fail as e:
            raise TournamentError(e.reason, int(line)) from None
    if state is None:
        raise TournamentError("the log is empty: it begins with its event entry")
    return state
