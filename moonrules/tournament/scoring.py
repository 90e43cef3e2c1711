"""Scoring: standings recomputed from the event log alone.

Duplicate events compare each result with the others of the same board and the same
*position* (seat, or side for pairs):

- ``matchpoints``: 1 for each holder of the position outscored on the board, ½ for each
  tie, out of a top of ``N - 1`` where ``N`` is the number of tables the board was seated
  at; a board with fewer results (``n < N``: a result missing, or replaced by an
  adjustment) is scaled by Neuberg's formula (:func:`neuberg`). An entry's score is its
  matchpoints over its tops, as a percentage.
- ``points``: the points of the position less the mean of the position's results on the
  board, summed.

A Swiss event is scored by plain totals of the points won; a bye scores the round's mean
points per entry. Director's adjustments: average-plus (60% of the top), average-minus
(40%), 60/40 (60% to one entry, 40% to the offender), a penalty (``value`` percent of a top
taken off); with points scoring each is the ``value`` stated (plus for average-plus and
the 60 side, minus otherwise). A late entry has the stated value for every board of the
rounds it missed (a percentage; points a board with points scoring).

Ties are broken in this order (:data:`TIE_BREAKS`): the score, head to head (the boards
the tied entries played at the same table: 1 for each tied entry outscored there, ½ a
tie), count-back (the better last round, then the one before, …), and a ballot drawn
from the event's seed.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import attrs

from moonrules.tournament.log import EventState, fold
from moonrules.tournament.movement import positions_of

if TYPE_CHECKING:
    from moonrules.bots.match import DuplicateHand

__all__ = [
    "TIE_BREAKS",
    "BoardScore",
    "Standing",
    "Standings",
    "board_scores",
    "duplicate_hands",
    "neuberg",
    "standings",
]

TIE_BREAKS: Final = ("score", "head to head", "count-back", "ballot")

_ARTIFICIAL: Final = {
    "average-plus": Fraction(60, 100),
    "60/40": Fraction(60, 100),
    "average-minus": Fraction(40, 100),
    "40/60": Fraction(40, 100),
}
_SIGN: Final = {"average-plus": 1, "60/40": 1, "average-minus": -1, "40/60": -1}


def neuberg(mp: Fraction, results: int, expected: int) -> Fraction:
    """Neuberg's formula: the matchpoints ``mp`` scored on a board with ``results`` results
    scaled to a board of ``expected`` results (a top of ``expected - 1``)::

        MP' = (MP + 1/2) * N / n - 1/2

    with ``n`` = ``results`` and ``N`` = ``expected`` (Neuberg; the WBF's Code of Practice
    and the ACBL's matchpoint rules use it for boards played fewer times, or with
    artificial scores). A lone result (``n = 1``) scores an average, ``(N - 1) / 2``.
    """
    if results < 1 or expected < results:
        raise ValueError(f"results: 1 to {expected}, not {results}")
    return (mp + Fraction(1, 2)) * expected / results - Fraction(1, 2)


@attrs.frozen(slots=True)
class BoardScore:
    """One entry's score on one board: its position, the points won, and its score there:
    matchpoints out of ``top`` (matchpoints scoring), or the points less the position's
    mean (points scoring; ``top`` is 0); ``artificial`` for an adjusted score."""

    board: int
    round: int
    entry: str
    position: int
    points: int | None
    score: Fraction
    top: int
    artificial: str | None = None


@attrs.frozen(slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    entry: str
    field: str
    score: Fraction
    """The percentage (matchpoints) or the total (points, Swiss)."""
    matchpoints: Fraction
    top: int
    boards: int
    by: str
    """The tie-break that separated the entry from the next one ("" for none)."""
    flags: tuple[str, ...]

    def to_json(self, scoring: str) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entry": self.entry,
            "field": self.field,
            ("percentage" if scoring == "matchpoints" else "total"): round(float(self.score), 2),
            "matchpoints": round(float(self.matchpoints), 2),
            "top": self.top,
            "boards": self.boards,
            "tie_break": self.by or None,
            "flags": list(self.flags),
        }


@attrs.frozen(slots=True)
class Standings:
    """The standings of an event: one ranking per field (two for a Mitchell)."""

    name: str
    format: str
    scoring: str
    rounds_seated: int
    rounds_approved: tuple[int, ...]
    results: int
    rows: tuple[Standing, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format,
            "scoring": self.scoring,
            "rounds_seated": self.rounds_seated,
            "rounds_approved": list(self.rounds_approved),
            "results": self.results,
            "tie_breaks": list(TIE_BREAKS),
            "standings": [r.to_json(self.scoring) for r in self.rows],
        }


def standings_csv(s: Standings) -> str:
    """The standings as CSV (``moonrules tournament standings --csv``, the table's
    ``standings.csv``): a header row, then one row per entry."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    score = "percentage" if s.scoring == "matchpoints" else "total"
    w.writerow(
        ["rank", "entry", "field", score, "matchpoints", "top", "boards", "tie_break", "flags"]
    )
    for r in s.rows:
        w.writerow(
            [
                r.rank,
                r.entry,
                r.field,
                f"{float(r.score):.2f}",
                f"{float(r.matchpoints):.2f}",
                r.top,
                r.boards,
                r.by,
                "; ".join(r.flags),
            ]
        )
    return out.getvalue()


def _round_of(state: EventState) -> dict[int, int]:
    return {b: r.number for r in state.seatings for b in r.boards}


def board_scores(state: EventState) -> list[BoardScore]:
    """Every entry's score on every board it played or was given (see the module)."""
    positions = positions_of(state.format)
    rounds = _round_of(state)
    adjusted = {(a.entry, a.board): a for a in state.adjustments if a.kind != "penalty"}
    out: list[BoardScore] = []
    for rnd in state.seatings:
        tables = len(rnd.tables)
        for b in rnd.boards:
            for p in range(positions):
                real = [
                    (x.entries[p], x.points[p])
                    for x in state.results
                    if x.board == b and x.round == rnd.number and (x.entries[p], b) not in adjusted
                ]
                out.extend(_score_position(state, b, rounds[b], p, real, tables))
            for t in rnd.tables:
                for p, e in enumerate(t.entries):
                    a = adjusted.get((e, b))
                    if a is None:
                        continue
                    x = state.result(rnd.number, t.number, b)
                    pts = None if x is None else x.points[p]
                    if state.scoring == "matchpoints" and state.format != "swiss":
                        top = max(tables - 1, 0)
                        score = _ARTIFICIAL[a.kind] * top
                    else:
                        top = 0
                        score = _SIGN[a.kind] * Fraction(a.value or 0)
                    out.append(BoardScore(b, rnd.number, e, p, pts, score, top, a.kind))
    return out


def _score_position(
    state: EventState, board: int, rnd: int, p: int, real: Sequence[tuple[str, int]], tables: int
) -> list[BoardScore]:
    if not real:
        return []
    if state.format == "swiss":
        return [BoardScore(board, rnd, e, p, pts, Fraction(pts), 0) for e, pts in real]
    if state.scoring == "points":
        mean = Fraction(sum(pts for _, pts in real), len(real))
        return [BoardScore(board, rnd, e, p, pts, pts - mean, 0) for e, pts in real]
    n, top = len(real), max(tables - 1, 0)
    out = []
    for e, pts in real:
        mp = Fraction(0)
        for f, q in real:
            if f != e:
                mp += 1 if pts > q else Fraction(1, 2) if pts == q else 0
        score = neuberg(mp, n, tables) if n < tables else mp
        out.append(BoardScore(board, rnd, e, p, pts, score, top))
    return out


def _field(state: EventState, entry: str) -> str:
    if state.format != "mitchell":
        return "all"
    for rnd in state.movement.rounds:
        for t in rnd.tables:
            if entry in t.entries:
                return f"side {t.entries.index(entry) + 1}"
    return "all"


def standings(log: EventState | Iterable[Mapping[str, Any]]) -> Standings:
    """The standings the log gives (a log's entries, or the :class:`EventState` they fold
    to): a pure function of the log."""
    state = log if isinstance(log, EventState) else fold(log)
    scores = board_scores(state)
    matchpoints = state.scoring == "matchpoints" and state.format != "swiss"
    total: dict[str, Fraction] = dict.fromkeys(state.entry_names, Fraction(0))
    top: dict[str, int] = dict.fromkeys(state.entry_names, 0)
    boards: dict[str, int] = dict.fromkeys(state.entry_names, 0)
    by_round: dict[str, dict[int, list[Fraction]]] = {e: {} for e in state.entry_names}
    for s in scores:
        total[s.entry] += s.score
        top[s.entry] += s.top
        boards[s.entry] += 1
        acc = by_round[s.entry].setdefault(s.round, [Fraction(0), Fraction(0)])
        acc[0] += s.score
        acc[1] += s.top
    _extras(state, total, top, by_round)
    flags = _flags(state)

    def score_of(e: str) -> Fraction:
        if not matchpoints:
            return total[e]
        return 100 * total[e] / top[e] if top[e] else Fraction(50)

    def round_score(e: str, r: int) -> Fraction:
        got = by_round[e].get(r)
        if got is None:
            return Fraction(-(10**9))
        if matchpoints:
            return 100 * got[0] / got[1] if got[1] else Fraction(50)
        return got[0]

    ballot = sorted(state.entry_names)
    random.Random(f"moonrules/tournament/{state.seed}/ballot").shuffle(ballot)
    rows: list[Standing] = []
    fields: dict[str, list[str]] = {}
    for e in state.entry_names:
        fields.setdefault(_field(state, e), []).append(e)
    last = max((r.number for r in state.seatings), default=0)
    for field, members in fields.items():
        ordered = _order(state, members, score_of, round_score, ballot.index, last)
        for rank, (e, why) in enumerate(ordered, 1):
            rows.append(
                Standing(
                    rank,
                    e,
                    field,
                    score_of(e),
                    total[e],
                    top[e],
                    boards[e],
                    why,
                    flags.get(e, ()),
                )
            )
    return Standings(
        state.name,
        state.format,
        "matchpoints" if matchpoints else "points",
        len(state.seatings),
        tuple(sorted(state.approved)),
        len(state.results),
        tuple(rows),
    )


def _extras(
    state: EventState,
    total: dict[str, Fraction],
    top: dict[str, int],
    by_round: dict[str, dict[int, list[Fraction]]],
) -> None:
    """Penalties, late entries' stated values and Swiss byes."""
    matchpoints = state.scoring == "matchpoints" and state.format != "swiss"
    tops = {b: max(len(r.tables) - 1, 0) for r in state.seatings for b in r.boards}
    for a in state.adjustments:
        if a.kind == "penalty":
            value = Fraction(a.value or 0)
            taken = value * tops.get(a.board, 0) / 100 if matchpoints else value
            total[a.entry] -= taken
            by_round[a.entry].setdefault(a.round, [Fraction(0), Fraction(0)])[0] -= taken
    for late, first, stated in state.late:
        for rnd in state.seatings:
            if rnd.number >= first:
                continue
            for b in rnd.boards:
                v = Fraction(stated)
                got = v * tops[b] / 100 if matchpoints else v
                total[late] += got
                top[late] += tops[b] if matchpoints else 0
                acc = by_round[late].setdefault(rnd.number, [Fraction(0), Fraction(0)])
                acc[0] += got
                acc[1] += tops[b] if matchpoints else 0
    if state.format == "swiss":
        for rnd in state.seatings:
            played = [x for x in state.results if x.round == rnd.number]
            if not rnd.byes or not played:
                continue
            mean = Fraction(sum(sum(x.points) for x in played), len(played) * 3) * len(rnd.boards)
            for bye in rnd.byes:
                total[bye] += mean
                by_round[bye].setdefault(rnd.number, [Fraction(0), Fraction(0)])[0] += mean


def _flags(state: EventState) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for entry in state.entries:
        if entry.all_bots:
            out.setdefault(entry.name, []).append("bot")
    for late, first, stated in state.late:
        out.setdefault(late, []).append(
            f"late entry from round {first} ({stated:g} for rounds missed)"
        )
    for gone, r in state.withdrawn:
        out.setdefault(gone, []).append(f"withdrew from round {r}")
    for who, r, player, by in state.substitutes:
        out.setdefault(who, []).append(f"substitute {by} for {player} from round {r}")
    for a in state.adjustments:
        value = "" if a.value is None else f" {a.value:g}"
        out.setdefault(a.entry, []).append(f"{a.kind}{value} on board {a.board}: {a.reason}")
    for rnd in state.seatings:
        for e in rnd.byes:
            out.setdefault(e, []).append(f"bye in round {rnd.number}")
    return {e: tuple(v) for e, v in out.items()}


def _head_to_head(state: EventState, tied: Sequence[str]) -> dict[str, Fraction]:
    got = dict.fromkeys(tied, Fraction(0))
    for x in state.results:
        here = [(e, x.points[p]) for p, e in enumerate(x.entries) if e in got]
        for e, pts in here:
            for f, q in here:
                if f != e:
                    got[e] += 1 if pts > q else Fraction(1, 2) if pts == q else 0
    return got


def _order(
    state: EventState,
    members: Sequence[str],
    score_of: Any,
    round_score: Any,
    ballot_place: Any,
    last: int,
) -> list[tuple[str, str]]:
    """``members`` ranked by the tie-break chain, each with the tie-break that put it above
    the next one."""
    groups: list[list[str]] = []
    for e in sorted(members, key=lambda e: -score_of(e)):
        if groups and score_of(groups[-1][0]) == score_of(e):
            groups[-1].append(e)
        else:
            groups.append([e])
    ranked: list[tuple[str, str]] = []
    for group in groups:
        if len(group) == 1:
            ranked.append((group[0], "score"))
            continue
        h2h = _head_to_head(state, group)

        def key(e: str, h2h: dict[str, Fraction] = h2h) -> tuple[Any, ...]:
            back = tuple(-round_score(e, r) for r in range(last, 0, -1))
            return (-h2h[e], back, ballot_place(e))

        inner = sorted(group, key=key)
        for k, e in enumerate(inner):
            if k == len(inner) - 1:
                ranked.append((e, "score"))
                continue
            a, b = key(e), key(inner[k + 1])
            why = "head to head" if a[0] != b[0] else "count-back" if a[1] != b[1] else "ballot"
            ranked.append((e, why))
        ranked[-1] = (ranked[-1][0], "score")
    return ranked


def duplicate_hands(log: EventState | Iterable[Mapping[str, Any]]) -> list[DuplicateHand]:
    """The event's results as ``match --duplicate``'s hands
    (:class:`~moonrules.bots.match.DuplicateHand`), for
    :func:`~moonrules.bots.match.duplicate_summary`: board ``b`` is deal ``b - 1``, the seats
    are named by the bots' levels (a person by the entry's name), the arrangement is the
    seating's place among :func:`~moonrules.bots.match.arrangements` of its names sorted,
    and the hand's result is worked out from the record, replayed, as a match works it out
    from the game it played. In the log's order."""
    from moonrules.bots.match import DuplicateHand, _hand_result, arrangements
    from moonrules.records.replay import from_record

    state = log if isinstance(log, EventState) else fold(log)
    levels = {p.name: p.bot for e in state.entries for p in e.players if p.bot is not None}
    out = []
    for r in state.results:
        seats = tuple(levels.get(name) or name for name in r.players)
        k = arrangements(state.rules, sorted(seats)).index(seats)
        game = from_record(dict(r.record))
        out.append(DuplicateHand(r.board - 1, k, seats, _hand_result(game, 1)))
    return out
