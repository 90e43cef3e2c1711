"""The tournament file: a TOML file (schema ``spec/schema/tournament.schema.json``) read into
a :class:`Tournament`.

::

    name = "Club night"
    format = "three-seat"        # three-seat | mitchell | howell | swiss
    rules = "standard"           # a preset, or a table of RuleSet fields as records give them
    seed = 7                     # board k is the deal match --duplicate --seed 7 deals k-1
    scoring = "matchpoints"      # matchpoints | points
    rounds = 4
    boards_per_round = 3
    players = ["Ann", "Bob", {name = "Robo", bot = "basic"}]

    [clocks]                     # for the web table: seconds a turn, a bank, the clock's bot
    turn = 30
    bank = 300

Pair events add ``pairs = [["Ann", "Bob"], …]`` (player names; the pair's name is theirs
joined by `` & ``). ``forbidden = [["Ann", "Bob"], …]`` names pairs of entries who must not
share a table (a player's name stands for the pair it plays in): the movement generated keeps
them apart, a movement given must, and ``plan`` refuses one that cannot.

A movement may be given instead of generated: ``[[movement]]`` tables
with ``round``, ``boards`` (optional: the next ``boards_per_round``), ``tables`` (each a
list of entry names, one per seat, or per side for pairs) and ``byes``.

Every refusal is a :class:`~moonrules.tournament.errors.TournamentError` of one line,
beginning with the file's line where it is known (``line 9: players[2].bot: …``).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from moonrules.bots.match import BOTS
from moonrules.records.values import RecordError, rules_from_json
from moonrules.rules.errors import MoonError, quote
from moonrules.rules.ruleset import RuleSet
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.movement import (
    FORMATS,
    Movement,
    MovementError,
    Round,
    Table,
    check_movement,
    draw,
    howell,
    mitchell,
    positions_of,
    round_boards,
    swiss_round,
    three_seat,
)

__all__ = [
    "SCORINGS",
    "Clocks",
    "Entry",
    "Player",
    "Tournament",
    "load_tournament",
    "parse_tournament",
]

SCORINGS: Final = ("matchpoints", "points")
MAX_ROUNDS: Final = 1000
MAX_BOARDS_PER_ROUND: Final = 100
MAX_ENTRIES: Final = 3000
MAX_NAME: Final = 40
"""The longest player name, as records allow."""
MAX_FILE_BYTES: Final = 1 << 20

_KEYS: Final = (
    "name",
    "format",
    "rules",
    "seed",
    "scoring",
    "rounds",
    "boards_per_round",
    "players",
    "pairs",
    "clocks",
    "movement",
    "forbidden",
)


@attrs.frozen(slots=True)
class Player:
    """A player: a person (``bot`` is ``None``) or a bot of the level ``bot`` (one of
    :data:`moonrules.bots.match.BOTS`)."""

    name: str
    bot: str | None = None


@attrs.frozen(slots=True)
class Entry:
    """What is ranked: one player (three-seat, Swiss) or a pair (their names joined)."""

    name: str
    players: tuple[Player, ...]

    @property
    def all_bots(self) -> bool:
        return all(p.bot is not None for p in self.players)


@attrs.frozen(slots=True)
class Clocks:
    """The web table's turn clocks for the event's games (``turn`` seconds an action,
    ``bank`` seconds a game, the clock's ``bot`` playing a timed-out seat)."""

    turn: float
    bank: float = 0.0
    bot: str = "basic"

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "bank": self.bank, "bot": self.bot}


@attrs.frozen(slots=True)
class Tournament:
    """A tournament file, read and checked."""

    name: str
    format: str
    rules: RuleSet
    seed: int
    scoring: str
    rounds: int
    boards_per_round: int
    entries: tuple[Entry, ...]
    clocks: Clocks | None = None
    given: Movement | None = None
    """The movement the file gives, or ``None`` to generate it."""
    forbidden: tuple[tuple[str, str], ...] = ()
    """Pairs of entries who must not share a table."""

    @property
    def entry_names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def entry(self, name: str) -> Entry:
        return next(e for e in self.entries if e.name == name)

    def movement(self) -> Movement:
        """The event's movement: the file's, or the one generated from the seed (for a Swiss
        event, the first round only: later rounds are paired from the standings)."""
        if self.given is not None:
            return self.given
        names = self.entry_names
        apart = self.forbidden
        if self.format == "three-seat":
            return three_seat(names, self.rounds, self.boards_per_round, self.seed, apart)
        if self.format == "mitchell":
            return mitchell(names, self.rounds, self.boards_per_round, self.seed, apart)
        if self.format == "howell":
            return howell(names, self.rounds, self.boards_per_round, self.seed, apart)
        order = draw(names, self.seed, "swiss")
        boards = round_boards(1, self.boards_per_round)
        first = swiss_round(1, order, (), boards, self.seed, apart)
        return Movement("swiss", (first,))


# ---------------------------------------------------------------------------
# Lines


_HEADER: Final = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\- \"]+?)\s*\]\]?\s*(#.*)?$")
_STRINGS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')
_KEY: Final = re.compile(r"^\s*([A-Za-z0-9_\-.\" ]+?)\s*=")


class _Lines:
    """The line of each key of a TOML file, as far as a line scan finds them: table
    headers, arrays of tables (counted) and ``key =`` lines; a path not found is given
    the line of its nearest ancestor."""

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[str | int, ...], int] = {}
        counts: dict[tuple[str | int, ...], int] = {}
        where: tuple[str | int, ...] = ()
        depth = 0  # open brackets of a value spanning lines
        for number, line in enumerate(text.splitlines(), 1):
            bare = _STRINGS.sub('""', line).split("#", 1)[0]
            if depth == 0:
                header = _HEADER.match(line)
                if header is not None:
                    path = tuple(p.strip().strip('"') for p in header.group(2).split("."))
                    if header.group(1) == "[[":
                        index = counts.get(path, 0)
                        counts[path] = index + 1
                        where = (*path, index)
                    else:
                        where = path
                    self.lines.setdefault(where, number)
                    continue
                key = _KEY.match(line)
                if key is not None:
                    parts = tuple(p.strip().strip('"') for p in key.group(1).split("."))
                    self.lines.setdefault((*where, *parts), number)
            opened = bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")
            depth = max(0, depth + opened)

    def of(self, path: Sequence[str | int]) -> int | None:
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return None


def _path_text(path: Sequence[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.where = _Lines(text)

    def fail(self, path: Sequence[str | int], reason: str) -> TournamentError:
        shown = _path_text(path)
        return TournamentError(f"{shown}: {reason}" if shown else reason, self.where.of(path))

    def movement_fail(self, path: Sequence[str | int], reason: str) -> MovementError:
        shown = _path_text(path)
        return MovementError(f"{shown}: {reason}" if shown else reason, self.where.of(path))

    def whole(
        self, value: object, path: Sequence[str | int], low: int, high: int, what: str
    ) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected {what} (a whole number), not {_kind(value)}")
        if not low <= value <= high:
            raise self.fail(path, f"expected {what} from {low} to {high:,}, not {value}")
        return value

    def text(self, value: object, path: Sequence[str | int], what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected {what} (text), not {_kind(value)}")
        return value

    def choice(self, value: object, path: Sequence[str | int], choices: Sequence[str]) -> str:
        text = self.text(value, path, "one of " + ", ".join(choices))
        if text not in choices:
            raise self.fail(path, f"{quote(text)} is not one of {', '.join(choices)}")
        return text

    def name(self, value: object, path: Sequence[str | int]) -> str:
        text = self.text(value, path, "a name").strip()
        if not text or len(text) > MAX_NAME or not text.isprintable():
            raise self.fail(
                path, f"a name is 1 to {MAX_NAME} printable characters, not {quote(text)}"
            )
        return text

    def number(self, value: object, path: Sequence[str | int], low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"expected a number of seconds, not {_kind(value)}")
        if not math.isfinite(value) or not low <= value <= high:
            raise self.fail(path, f"expected {low:g} to {high:g} seconds, not {value}")
        return float(value)


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _bot(r: _Reader, value: object, path: Sequence[str | int]) -> str:
    text = r.text(value, path, "a bot name").strip().lower()
    if text not in BOTS:
        raise r.fail(path, f"no bot is called {quote(text)}; known: {', '.join(BOTS)}")
    return text


def _players(r: _Reader, value: object) -> tuple[Player, ...]:
    if not isinstance(value, list) or not value:
        raise r.fail(("players",), f"expected a non-empty array of players, not {_kind(value)}")
    if len(value) > MAX_ENTRIES:
        raise r.fail(("players",), f"at most {MAX_ENTRIES} players, not {len(value)}")
    out: list[Player] = []
    seen: set[str] = set()
    for k, item in enumerate(value):
        path: tuple[str | int, ...] = ("players", k)
        if isinstance(item, str):
            player = Player(r.name(item, path))
        elif isinstance(item, dict):
            for key in item:
                if key not in ("name", "bot"):
                    raise r.fail((*path, key), "unknown key; a player has name and bot")
            if "name" not in item:
                raise r.fail(path, "a player needs a name")
            bot = None if item.get("bot") is None else _bot(r, item["bot"], (*path, "bot"))
            player = Player(r.name(item["name"], (*path, "name")), bot)
        else:
            raise r.fail(path, f"expected a name or a table {{name, bot}}, not {_kind(item)}")
        if player.name.casefold() in seen:
            raise r.fail(path, f"{quote(player.name)} is listed twice")
        seen.add(player.name.casefold())
        out.append(player)
    return tuple(out)


def _pairs(r: _Reader, value: object, players: Sequence[Player]) -> tuple[Entry, ...]:
    by_name = {p.name: p for p in players}
    if not isinstance(value, list) or not value:
        raise r.fail(("pairs",), f"a pair event needs an array of pairs, not {_kind(value)}")
    out: list[Entry] = []
    used: set[str] = set()
    for k, item in enumerate(value):
        path: tuple[str | int, ...] = ("pairs", k)
        if not isinstance(item, list) or len(item) != 2:
            raise r.fail(path, "a pair is an array of two player names")
        members = []
        for j, name in enumerate(item):
            n = r.name(name, (*path, j))
            if n not in by_name:
                raise r.fail((*path, j), f"{quote(n)} is not one of the players")
            if n in used:
                raise r.fail((*path, j), f"{quote(n)} is in two pairs")
            used.add(n)
            members.append(by_name[n])
        out.append(Entry(f"{members[0].name} & {members[1].name}", tuple(members)))
    left = [p.name for p in players if p.name not in used]
    if left:
        raise r.fail(("pairs",), f"{quote(left[0])} is in no pair")
    return tuple(out)


def _clocks(r: _Reader, value: object) -> Clocks:
    if not isinstance(value, dict):
        raise r.fail(("clocks",), f"expected a table {{turn, bank, bot}}, not {_kind(value)}")
    for key in value:
        if key not in ("turn", "bank", "bot"):
            raise r.fail(("clocks", key), "unknown key; clocks have turn, bank and bot")
    if "turn" not in value:
        raise r.fail(("clocks",), "clocks need turn: the seconds each action has")
    turn = r.number(value["turn"], ("clocks", "turn"), 0.1, 3600.0)
    bank = r.number(value.get("bank", 0), ("clocks", "bank"), 0.0, 86400.0)
    bot = _bot(r, value.get("bot", "basic"), ("clocks", "bot"))
    return Clocks(turn, bank, bot)


def _round_item(
    r: _Reader, item: object, k: int, places: int, names: set[str], boards_per_round: int
) -> Round:
    path: tuple[str | int, ...] = ("movement", k)
    if not isinstance(item, dict):
        raise r.fail(path, f"a round is a table, not {_kind(item)}")
    for key in item:
        if key not in ("round", "boards", "tables", "byes"):
            raise r.fail((*path, key), "unknown key; a round has round, boards, tables, byes")
    number = r.whole(item.get("round", k + 1), (*path, "round"), 1, MAX_ROUNDS, "a round")
    if number != k + 1:
        raise r.movement_fail((*path, "round"), f"round {number} is given {k + 1}th")
    boards_value = item.get("boards")
    if boards_value is None:
        boards = round_boards(number, boards_per_round)
    else:
        if not isinstance(boards_value, list) or not boards_value:
            raise r.fail((*path, "boards"), "expected a non-empty array of board numbers")
        boards = tuple(
            r.whole(b, (*path, "boards", j), 1, MAX_ROUNDS * MAX_BOARDS_PER_ROUND, "a board")
            for j, b in enumerate(boards_value)
        )
    tables_value = item.get("tables")
    if not isinstance(tables_value, list):
        raise r.fail((*path, "tables"), "a round needs tables: an array of arrays of names")
    tables = []
    for j, t in enumerate(tables_value):
        tpath = (*path, "tables", j)
        if not isinstance(t, list):
            raise r.fail(tpath, f"a table is an array of entry names, not {_kind(t)}")
        if len(t) > places:
            raise r.movement_fail(
                tpath, f"seat {places + 1} is out of range: a table has {places} places"
            )
        seated = tuple(r.text(x, (*tpath, s), "an entry name").strip() for s, x in enumerate(t))
        for s, x in enumerate(seated):
            if x not in names:
                raise r.movement_fail((*tpath, s), f"{quote(x)} is not an entry of the event")
        tables.append(Table(j + 1, seated))
    byes_value = item.get("byes", [])
    if not isinstance(byes_value, list):
        raise r.fail((*path, "byes"), "expected an array of entry names")
    byes = tuple(
        r.text(x, (*path, "byes", j), "an entry name").strip() for j, x in enumerate(byes_value)
    )
    return Round(number, boards, tuple(tables), byes)


def _movement(
    r: _Reader, value: object, fmt: str, entries: Sequence[Entry], boards_per_round: int
) -> Movement:
    if not isinstance(value, list):
        raise r.fail(
            ("movement",), f"expected an array of rounds ([[movement]]), not {_kind(value)}"
        )
    names = {e.name for e in entries}
    places = positions_of(fmt)
    rounds = [
        _round_item(r, item, k, places, names, boards_per_round) for k, item in enumerate(value)
    ]
    return Movement(fmt, tuple(rounds))


def parse_tournament(text: str) -> Tournament:
    """The tournament the TOML ``text`` describes; :class:`TournamentError` (the line and the
    reason) when it is not one, :class:`~moonrules.tournament.movement.MovementError` when
    its movement (given, or generated) cannot be played."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise TournamentError(f"a tournament file is at most {MAX_FILE_BYTES >> 10} KiB")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        found = re.search(r"\(at line (\d+), column \d+\)", message)
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "not TOML"
        raise TournamentError(
            f"not TOML: {reason[0].lower() + reason[1:]}",
            int(found.group(1)) if found else None,
        ) from None
    r = _Reader(text)
    return _tournament(r, data)


def _format_and_rules(r: _Reader, data: Mapping[str, Any]) -> tuple[str, RuleSet]:
    fmt = r.choice(data["format"], ("format",), FORMATS)
    try:
        rules = rules_from_json(data.get("rules", "standard"), "rules")
    except (RecordError, MoonError) as e:
        raise r.fail(("rules",), str(e).removeprefix("rules: ")) from None
    pairs = fmt in ("mitchell", "howell")
    at = ("rules",) if "rules" in data else ("format",)
    if pairs and not rules.partnership:
        raise r.fail(at, f"a {fmt} event is for pairs: it needs partnership rules (4 players)")
    if not pairs and rules.players != 3:
        raise r.fail(at, f"a {fmt} event is for three players; these rules are for 4")
    return fmt, rules


def _entries_of(r: _Reader, data: Mapping[str, Any], fmt: str) -> tuple[Entry, ...]:
    players = _players(r, data["players"])
    if fmt in ("mitchell", "howell"):
        return _pairs(r, data.get("pairs"), players)
    if "pairs" in data:
        raise r.fail(("pairs",), f"a {fmt} event has no pairs")
    return tuple(Entry(p.name, (p,)) for p in players)


def _tournament(r: _Reader, data: Mapping[str, Any]) -> Tournament:
    for key in data:
        if key not in _KEYS:
            raise r.fail((key,), f"unknown key; the keys are {', '.join(_KEYS)}")
    for key in ("format", "rounds", "boards_per_round", "players"):
        if key not in data:
            raise r.fail((), f"the file has no {key}")
    name = r.text(data.get("name", "Moon tournament"), ("name",), "the event's name")
    fmt, rules = _format_and_rules(r, data)
    seed = r.whole(data.get("seed", 0), ("seed",), 0, 2**63 - 1, "a seed")
    scoring = r.choice(data.get("scoring", "matchpoints"), ("scoring",), SCORINGS)
    if fmt == "swiss" and "scoring" in data and scoring != "points":
        raise r.fail(("scoring",), 'a swiss event is scored by plain totals: scoring = "points"')
    if fmt == "swiss":
        scoring = "points"
    rounds = r.whole(data["rounds"], ("rounds",), 1, MAX_ROUNDS, "a number of rounds")
    per = r.whole(
        data["boards_per_round"], ("boards_per_round",), 1, MAX_BOARDS_PER_ROUND, "boards a round"
    )
    entries = _entries_of(r, data, fmt)
    clocks = _clocks(r, data["clocks"]) if "clocks" in data else None
    given = _given(r, data, fmt, entries, per, rounds)
    apart = _forbidden(r, data.get("forbidden", []), entries)
    event = Tournament(name, fmt, rules, seed, scoring, rounds, per, entries, clocks, given, apart)
    _check_plan(r, event)
    return event


def _forbidden(r: _Reader, value: object, entries: Sequence[Entry]) -> tuple[tuple[str, str], ...]:
    """``forbidden``: pairs of entries (or players, standing for their entry) kept apart."""
    if not isinstance(value, list):
        raise r.fail(("forbidden",), f"expected an array of pairs of names, not {_kind(value)}")
    entry_of = {e.name: e.name for e in entries}
    for e in entries:
        for p in e.players:
            entry_of.setdefault(p.name, e.name)
    out: list[tuple[str, str]] = []
    for k, item in enumerate(value):
        path: tuple[str | int, ...] = ("forbidden", k)
        if not isinstance(item, list) or len(item) != 2:
            raise r.fail(path, "a forbidden pairing is an array of two names")
        pair = []
        for j, name in enumerate(item):
            n = r.name(name, (*path, j))
            if n not in entry_of:
                raise r.fail((*path, j), f"{quote(n)} is not an entry or a player of the event")
            pair.append(entry_of[n])
        a, b = pair
        if a == b:
            raise r.fail(path, f"{quote(a)} is forbidden from its own table: name two entries")
        if any({a, b} == set(p) for p in out):
            raise r.fail(path, f"{quote(a)} and {quote(b)} are forbidden twice")
        out.append((a, b))
    return tuple(out)


def _given(
    r: _Reader, data: Mapping[str, Any], fmt: str, entries: Sequence[Entry], per: int, rounds: int
) -> Movement | None:
    given = None
    if "movement" in data:
        if fmt == "swiss":
            raise r.fail(("movement",), "a swiss event is paired from the standings, not given")
        given = _movement(r, data["movement"], fmt, entries, per)
        if len(given.rounds) != rounds:
            raise r.movement_fail(
                ("movement",), f"the movement has {len(given.rounds)} rounds; rounds = {rounds}"
            )
    return given


def _check_plan(r: _Reader, event: Tournament) -> None:
    given = event.given
    try:
        check_movement(event.movement(), event.entry_names, event.forbidden)
    except MovementError as e:
        if given is None and e.line is None and "must not share a table" in e.reason:
            raise MovementError(e.reason, r.where.of(("forbidden",))) from None
        if given is not None and e.line is None:
            raise MovementError(e.reason, _round_line(r, e.reason)) from None
        if e.line is None:
            raise MovementError(e.reason, r.where.of(("players",))) from None
        raise


def _round_line(r: _Reader, reason: str) -> int | None:
    found = re.match(r"round (\d+)(?:, table (\d+))?", reason)
    if found is None:
        return r.where.of(("movement",))
    k = int(found.group(1)) - 1
    if found.group(2) is not None:
        return r.where.of(("movement", k, "tables"))
    return r.where.of(("movement", k))


def load_tournament(path: str | Path) -> Tournament:
    """:func:`parse_tournament` of the file at ``path`` (its size checked first)."""
    p = Path(path)
    with p.open("rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise TournamentError(f"{p}: a tournament file is at most {MAX_FILE_BYTES >> 10} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise TournamentError("not UTF-8 text", line) from None
    return parse_tournament(text)


def entries_json(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """The entries as the event log's header writes them."""
    return [
        {"name": e.name, "players": [{"name": p.name, "bot": p.bot} for p in e.players]}
        for e in entries
    ]


def movement_json(movement: Movement) -> list[dict[str, Any]]:
    """A movement's rounds as JSON (the event log's header, ``plan --json``)."""
    return [round_json(rnd) for rnd in movement.rounds]


def round_json(rnd: Round) -> dict[str, Any]:
    return {
        "round": rnd.number,
        "boards": list(rnd.boards),
        "tables": [{"table": t.number, "entries": list(t.entries)} for t in rnd.tables],
        "byes": list(rnd.byes),
    }


def round_from_json(value: Mapping[str, Any]) -> Round:
    """:func:`round_json` read back (the value already checked against the schema's shape)."""
    return Round(
        int(value["round"]),
        tuple(int(b) for b in value["boards"]),
        tuple(Table(int(t["table"]), tuple(t["entries"])) for t in value["tables"]),
        tuple(value.get("byes", ())),
    )
