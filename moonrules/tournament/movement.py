"""Movements: who sits at which table and seat, and which boards are played, round by round.

Every table of a round plays the round's boards at the same time (a board is a seeded deal,
so no deal is passed from table to table, and none can be passed on). An *entry* is what
is ranked: a player in three-seat events (positions are the three seats), a pair in
partnership events (positions are the two sides: 0 holds seats 0 and 2, 1 holds seats 1
and 3).

- :func:`three_seat`: three-seat duplicate. Tables of three drawn from the event's seed;
  a Kirkman triple system (:mod:`moonrules.tournament.designs`) where one is known, so
  that nobody meets anybody twice while that is possible; otherwise, round by round, the
  partition into tables with the fewest repeated table-mates (exact search up to 12
  players, a seeded local search above), then the fewest seats held again.
- :func:`mitchell`: pairs, side 0 stationary and side 1 moving one table on each round;
  two fields, two winners.
- :func:`howell`: pairs, a round robin (the circle method), each pair on both sides as
  evenly as the rounds allow; one field, one winner.
- :func:`swiss_round`: one round of a Swiss event (three-seat, not duplicate) from the
  standings: tables of neighbours in the ranking, repeats avoided, fair byes.
- :func:`replan_round`: a round not yet seated planned again from the rounds played, for
  the entries that play it (a late entry, a withdrawal) and the pairings forbidden since.

Every planner takes ``forbidden``: pairs of entries who must not share a table (a
director's ruling). They are kept apart before anything else is weighed; a planner that
cannot keep them apart raises :class:`MovementError` saying which pair and why.

:func:`check_movement` checks any movement, given or generated, and says how balanced it
is (:class:`MovementCheck`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

import attrs

from moonrules.tournament.designs import kirkman
from moonrules.tournament.errors import TournamentError

__all__ = [
    "FORMATS",
    "Movement",
    "MovementCheck",
    "MovementError",
    "Round",
    "Table",
    "balanced_seats",
    "check_movement",
    "check_round",
    "draw",
    "forbidden_at",
    "howell",
    "mitchell",
    "positions_of",
    "replan_round",
    "round_boards",
    "swiss_round",
    "three_seat",
]

FORMATS: Final = ("three-seat", "mitchell", "howell", "swiss")
"""The kinds of event: three-seat duplicate, the two pair movements, and Swiss."""

_POSITIONS: Final = {"three-seat": 3, "swiss": 3, "mitchell": 2, "howell": 2}

EXACT_UP_TO: Final = 12
"""Partitions into tables are searched exhaustively up to this many players."""

_REPEAT: Final = 1_000_000
"""The weight of one repeated meeting against one seat held again (repeats come first)."""

_FORBIDDEN: Final = 10**18
"""The weight of a forbidden pair at one table: more than any number of repeats."""

DRAWS: Final = 200
"""Fixed movements (a design, Mitchell, Howell) are drawn again up to this many times to
keep the forbidden pairs apart."""

Forbidden = Collection[tuple[str, str]]
"""Pairs of entries who must not share a table."""


def _pairs_of(forbidden: Forbidden) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in forbidden)


def forbidden_at(entries: Sequence[str], forbidden: Forbidden) -> tuple[str, str] | None:
    """The first forbidden pair among ``entries`` (one table), in seat order, or ``None``."""
    bad = _pairs_of(forbidden)
    for a, b in itertools.combinations(entries, 2):
        if frozenset((a, b)) in bad:
            return a, b
    return None


class MovementError(TournamentError):
    """A movement that cannot be played: entries that do not fill the tables, a board
    played twice by an entry, an entry at two tables, a seat out of range."""


def positions_of(format: str) -> int:
    """The positions at a table: 3 seats (three-seat, Swiss) or 2 sides (pairs)."""
    return _POSITIONS[format]


@attrs.frozen(slots=True)
class Table:
    """One table of a round: the entry at each position (seat, or side for pairs)."""

    number: int
    entries: tuple[str, ...]


@attrs.frozen(slots=True)
class Round:
    """One round: the boards every table plays, the tables, and the entries that sit out."""

    number: int
    boards: tuple[int, ...]
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    def table(self, number: int) -> Table | None:
        """The table numbered ``number``, or ``None``."""
        return next((t for t in self.tables if t.number == number), None)


@attrs.frozen(slots=True)
class Movement:
    """A whole movement: the format and every round, in order (a Swiss event's rounds are
    paired one at a time, so its movement holds the rounds paired so far)."""

    format: str
    rounds: tuple[Round, ...]


def round_boards(number: int, boards_per_round: int) -> tuple[int, ...]:
    """The boards of round ``number`` (from 1) by default: the next ``boards_per_round``."""
    first = (number - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def draw(entries: Sequence[str], seed: int, what: str) -> list[str]:
    """``entries`` in the order drawn from the event's seed."""
    out = list(entries)
    random.Random(f"moonrules/tournament/{seed}/{what}").shuffle(out)
    return out


# ---------------------------------------------------------------------------
# Partitions into tables of three


TripleCost = Callable[[tuple[int, int, int]], int]


def _exact_partition(n: int, cost: TripleCost) -> list[tuple[int, int, int]]:
    """The partition of ``0 … n-1`` into triples of least total ``cost`` (the first found
    in the order of the numbers, on a tie): branch and bound over every partition."""
    best: list[list[tuple[int, int, int]]] = [[]]
    best_cost = [-1]
    memo: dict[tuple[int, int, int], int] = {}

    def c(t: tuple[int, int, int]) -> int:
        if t not in memo:
            memo[t] = cost(t)
        return memo[t]

    def go(rest: tuple[int, ...], chosen: list[tuple[int, int, int]], total: int) -> None:
        if best_cost[0] >= 0 and total >= best_cost[0]:
            return
        if not rest:
            best[0], best_cost[0] = list(chosen), total
            return
        a, others = rest[0], rest[1:]
        options = sorted(
            (
                (c((a, b, d)), i, j)
                for i, b in enumerate(others)
                for j, d in enumerate(others)
                if i < j
            ),
        )
        for k, i, j in options:
            chosen.append((a, others[i], others[j]))
            go(tuple(x for m, x in enumerate(others) if m not in (i, j)), chosen, total + k)
            chosen.pop()
            if best_cost[0] == total:  # nothing left can do better than a free rest
                return

    go(tuple(range(n)), [], 0)
    return best[0]


def _local_partition(n: int, cost: TripleCost, rng: random.Random) -> list[tuple[int, int, int]]:
    """A partition found by swapping players between tables while that lowers the cost,
    from a few seeded starts: the best one."""
    best: list[list[int]] | None = None
    best_total = 0
    for _ in range(6):
        order = list(range(n))
        rng.shuffle(order)
        tables = [order[i : i + 3] for i in range(0, n, 3)]

        def tc(t: list[int]) -> int:
            a, b, c = sorted(t)
            return cost((a, b, c))

        costs = [tc(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for x, y in itertools.combinations(range(len(tables)), 2):
                for i in range(3):
                    for j in range(3):
                        tx, ty = list(tables[x]), list(tables[y])
                        tx[i], ty[j] = ty[j], tx[i]
                        cx, cy = tc(tx), tc(ty)
                        if cx + cy < costs[x] + costs[y]:
                            tables[x], tables[y], costs[x], costs[y] = tx, ty, cx, cy
                            improved = True
        total = sum(costs)
        if best is None or total < best_total:
            best, best_total = tables, total
    assert best is not None
    return [(t[0], t[1], t[2]) for t in (sorted(t) for t in best)]


def _partition(n: int, cost: TripleCost, rng: random.Random) -> list[tuple[int, int, int]]:
    if n <= EXACT_UP_TO:
        return _exact_partition(n, cost)
    return _local_partition(n, cost, rng)


class _Tally:
    """Who met whom and who held which position so far."""

    def __init__(self, names: Sequence[str], positions: int) -> None:
        self.met: dict[frozenset[str], int] = {}
        self.held: dict[str, list[int]] = {name: [0] * positions for name in names}

    def meets(self, a: str, b: str) -> int:
        return self.met.get(frozenset((a, b)), 0)

    def seat_cost(self, people: Sequence[str]) -> tuple[int, tuple[str, ...]]:
        """The seating of ``people`` at one table that holds the fewest seats again
        (the first in permutation order on a tie), and that cost."""
        best: tuple[int, tuple[str, ...]] | None = None
        for perm in itertools.permutations(people):
            k = sum(self.held[p][s] for s, p in enumerate(perm))
            if best is None or k < best[0]:
                best = (k, perm)
        assert best is not None
        return best

    def add(self, table: Sequence[str]) -> None:
        for a, b in itertools.combinations(table, 2):
            key = frozenset((a, b))
            self.met[key] = self.met.get(key, 0) + 1
        for s, p in enumerate(table):
            self.held[p][s] += 1


def _tables_of_three(
    order: Sequence[str],
    tally: _Tally,
    rng: random.Random,
    spread: Sequence[int] | None = None,
    *,
    seats: bool = True,
    forbidden: Forbidden = (),
    where: str = "a round",
) -> list[tuple[str, ...]]:
    """One round's tables of three from ``order`` (every entry of it): no forbidden pair at
    a table, then the fewest repeated table-mates, then (with ``spread``, a rank per entry)
    the closest ranks; with ``seats`` seated, and among those the tables that hold the
    fewest seats again. :class:`MovementError` if the forbidden pairs cannot be kept apart."""
    bad = _pairs_of(forbidden)

    def cost(t: tuple[int, int, int]) -> int:
        people = [order[i] for i in t]
        pairs = list(itertools.combinations(people, 2))
        repeats = sum(tally.meets(a, b) ** 2 for a, b in pairs)
        near = 0 if spread is None else max(spread[i] for i in t) - min(spread[i] for i in t)
        kept = sum(_FORBIDDEN for a, b in pairs if frozenset((a, b)) in bad)
        return (
            kept + (repeats * _REPEAT + near) * 1000 + (tally.seat_cost(people)[0] if seats else 0)
        )

    tables = [tuple(order[i] for i in t) for t in _partition(len(order), cost, rng)]
    for t in tables:
        pair = forbidden_at(t, forbidden)
        if pair is not None:
            raise MovementError(
                f"{where}: {pair[0]!r} and {pair[1]!r} must not share a table, and the "
                f"forbidden pairs leave no way to seat {len(order)} players at tables of three"
            )
    return [tally.seat_cost(t)[1] for t in tables] if seats else tables


# ---------------------------------------------------------------------------
# Three-seat duplicate


def _edge_colour(
    tables: Sequence[Sequence[tuple[str, ...]]], places: int
) -> list[list[tuple[str, ...]]]:
    """The tables of a block of at most ``places`` rounds, seated so that every entry holds a
    different position in each round of the block.

    The tables and the entries are the two sides of a bipartite graph, an edge per entry at
    a table; its greatest degree is ``places``, so (König, 1916) its edges take ``places``
    colours with no two alike at a node: a colour is a position. Each edge gets a colour
    free at both ends, after swapping two colours along an alternating path when needed.
    """
    at: dict[tuple[int, int] | str, dict[int, tuple[int, int] | str]] = {}
    for r, round_tables in enumerate(tables):
        for k, people in enumerate(round_tables):
            u: tuple[int, int] = (r, k)
            for v in people:
                here, there = at.setdefault(u, {}), at.setdefault(v, {})
                a = next(c for c in range(places) if c not in here)
                b = next(c for c in range(places) if c not in there)
                if a in there:
                    path: list[tuple[tuple[int, int] | str, tuple[int, int] | str, int]] = []
                    x: tuple[int, int] | str = v
                    c = a
                    while c in at[x]:
                        y = at[x][c]
                        path.append((x, y, c))
                        x, c = y, (b if c == a else a)
                    for x, y, c in path:
                        at[x].pop(c, None)
                        at[y].pop(c, None)
                    for x, y, c in path:
                        flipped = b if c == a else a
                        at[x][flipped], at[y][flipped] = y, x
                here[a], there[a] = v, u
    out: list[list[tuple[str, ...]]] = []
    for r, round_tables in enumerate(tables):
        seated = []
        for k in range(len(round_tables)):
            colours = at[(r, k)]
            seated.append(tuple(str(colours[c]) for c in range(places)))
        out.append(seated)
    return out


def balanced_seats(
    tables: Sequence[Sequence[tuple[str, ...]]], places: int
) -> list[list[tuple[str, ...]]]:
    """Every round's tables (the entries of each, in any order) seated so that every entry
    holds every position equally often over each block of ``places`` rounds, and distinct
    positions within the last, shorter block: over the event, an entry's counts of the
    positions differ by at most one, and not at all when the rounds are a multiple of
    ``places``."""
    out: list[list[tuple[str, ...]]] = []
    for first in range(0, len(tables), places):
        out.extend(_edge_colour(tables[first : first + places], places))
    return out


def _design_rounds(order: Sequence[str], rounds: int) -> list[list[tuple[str, ...]]] | None:
    design = kirkman(len(order))
    if design is None:
        return None
    return [[tuple(order[i] for i in t) for t in design[r % len(design)]] for r in range(rounds)]


def _meets_forbidden(plan: Sequence[Sequence[tuple[str, ...]]], forbidden: Forbidden) -> bool:
    return any(forbidden_at(t, forbidden) is not None for tables in plan for t in tables)


def three_seat(
    entries: Sequence[str],
    rounds: int,
    boards_per_round: int,
    seed: int,
    forbidden: Forbidden = (),
) -> Movement:
    """The movement of a three-seat duplicate event (see the module's docstring), keeping
    the ``forbidden`` pairs apart (a design drawn again until it does, else the matching).

    Deterministic: the same entries, numbers and seed give the same movement.
    :class:`MovementError` when the entries do not fill tables of three, or the forbidden
    pairs cannot be kept apart.
    """
    n = len(entries)
    if n < 3 or n % 3:
        low, high = n - n % 3, n - n % 3 + 3
        fix = f"{low} or {high}" if low >= 3 else f"{high}"
        raise MovementError(
            f"{n} players do not fill tables of three: a three-seat duplicate event needs "
            f"a multiple of 3 ({fix}); a swiss event gives byes"
        )
    rng = random.Random(f"moonrules/tournament/{seed}/three-seat")
    order = draw(entries, seed, "draw")
    plan = _design_rounds(order, rounds)
    for k in range(1, DRAWS if forbidden else 0):
        if plan is None or not _meets_forbidden(plan, forbidden):
            break
        plan = _design_rounds(draw(entries, seed, f"draw/{k}"), rounds)
    if plan is None or _meets_forbidden(plan, forbidden):
        tally = _Tally(order, 3)
        plan = []
        for r in range(rounds):
            tables = _tables_of_three(
                order, tally, rng, seats=False, forbidden=forbidden, where=f"round {r + 1}"
            )
            for t in tables:
                tally.add(t)
            plan.append(tables)
    seated = balanced_seats(plan, 3)
    return Movement(
        "three-seat",
        tuple(
            Round(
                r + 1,
                round_boards(r + 1, boards_per_round),
                tuple(Table(k + 1, t) for k, t in enumerate(tables)),
            )
            for r, tables in enumerate(seated)
        ),
    )


# ---------------------------------------------------------------------------
# Pairs


def _pair_round(
    number: int, boards: tuple[int, ...], matches: Sequence[tuple[str | None, str | None]]
) -> Round:
    tables = []
    byes: list[str] = []
    for k, (a, b) in enumerate(matches):
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
        else:
            tables.append(Table(k + 1, (a, b)))
    return Round(number, boards, tuple(tables), tuple(byes))


def _redrawn(
    make: Callable[[str], Movement], forbidden: Forbidden, what: str, why: str
) -> Movement:
    """``make(draw name)``'s movement, drawn again until no forbidden pair shares a table
    (up to :data:`DRAWS` draws)."""
    for k in range(DRAWS if forbidden else 1):
        m = make(what if k == 0 else f"{what}/{k}")
        clash = _first_forbidden(m, forbidden)
        if clash is None:
            return m
    assert clash is not None
    a, b, r = clash
    raise MovementError(
        f"round {r}: {a!r} and {b!r} must not share a table, and no {what} movement of "
        f"these pairs keeps them apart ({why})"
    )


def _first_forbidden(m: Movement, forbidden: Forbidden) -> tuple[str, str, int] | None:
    for rnd in m.rounds:
        for t in rnd.tables:
            pair = forbidden_at(t.entries, forbidden)
            if pair is not None:
                return pair[0], pair[1], rnd.number
    return None


def mitchell(
    entries: Sequence[str],
    rounds: int,
    boards_per_round: int,
    seed: int,
    forbidden: Forbidden = (),
) -> Movement:
    """A Mitchell movement of the pairs ``entries``: half of them (drawn from the seed) stay
    at side 0 of their table, the others move up one table each round at side 1; with an
    odd number of pairs, the pair facing the empty place sits out. Two fields: each pair is
    compared with the pairs of its side only. At most one round per table (no pair meets
    another twice). Drawn again until the ``forbidden`` pairs never meet."""
    return _redrawn(
        lambda what: _mitchell(entries, rounds, boards_per_round, seed, what),
        forbidden,
        "mitchell",
        "they are on opposite sides in every draw tried",
    )


def _mitchell(
    entries: Sequence[str], rounds: int, boards_per_round: int, seed: int, what: str
) -> Movement:
    if len(entries) < 2:
        raise MovementError(f"a pair event needs at least 2 pairs, not {len(entries)}")
    order: list[str | None] = list(draw(entries, seed, what))
    if len(order) % 2:
        order.append(None)
    t = len(order) // 2
    if rounds > t:
        raise MovementError(
            f"a Mitchell movement of {t} tables has at most {t} rounds, not {rounds}: "
            "a pair would meet another twice (use fewer rounds, or howell)"
        )
    stay, move = order[:t], order[t:]
    return Movement(
        "mitchell",
        tuple(
            _pair_round(
                r + 1,
                round_boards(r + 1, boards_per_round),
                [(stay[k], move[(k + r) % t]) for k in range(t)],
            )
            for r in range(rounds)
        ),
    )


def howell(
    entries: Sequence[str],
    rounds: int,
    boards_per_round: int,
    seed: int,
    forbidden: Forbidden = (),
) -> Movement:
    """A Howell movement of the pairs ``entries``: every pair meets every other once over
    ``len - 1`` rounds (the circle method; an empty place makes an odd number even, its
    opponent sitting out), each pair on side 0 and side 1 as evenly as the rounds allow.
    One field, one winner. At most ``len - 1`` rounds (``len`` when odd). Drawn again until
    the ``forbidden`` pairs never meet (impossible when every pair meets every other)."""
    return _redrawn(
        lambda what: _howell(entries, rounds, boards_per_round, seed, what),
        forbidden,
        "howell",
        f"{rounds} round(s) of {len(entries)} pairs: play fewer rounds",
    )


def _howell(
    entries: Sequence[str], rounds: int, boards_per_round: int, seed: int, what: str
) -> Movement:
    if len(entries) < 2:
        raise MovementError(f"a pair event needs at least 2 pairs, not {len(entries)}")
    order: list[str | None] = list(draw(entries, seed, what))
    if len(order) % 2:
        order.append(None)
    m = len(order)
    if rounds > m - 1:
        raise MovementError(
            f"a Howell movement of {len(entries)} pairs has at most {m - 1} rounds, not "
            f"{rounds}: a pair would meet another twice"
        )
    played: list[list[tuple[str, ...]]] = []
    byes: list[tuple[str, ...]] = []
    for r in range(rounds):
        ring = m - 1
        matches = [(order[m - 1], order[r % ring])]
        for i in range(1, m // 2):
            matches.append((order[(r + i) % ring], order[(r - i) % ring]))
        played.append([(a, b) for a, b in matches if a is not None and b is not None])
        byes.append(tuple(x for a, b in matches if a is None or b is None for x in (a, b) if x))
    out = [
        Round(
            r + 1,
            round_boards(r + 1, boards_per_round),
            tuple(Table(k + 1, t) for k, t in enumerate(tables)),
            byes[r],
        )
        for r, tables in enumerate(balanced_seats(played, 2))
    ]
    return Movement("howell", tuple(out))


# ---------------------------------------------------------------------------
# Swiss


def swiss_round(
    number: int,
    ranking: Sequence[str],
    earlier: Sequence[Round],
    boards: tuple[int, ...],
    seed: int,
    forbidden: Forbidden = (),
) -> Round:
    """Round ``number`` of a Swiss event, from ``ranking`` (the entries still playing, best
    first) and the ``earlier`` rounds.

    Byes: ``len(ranking) % 3`` entries sit out, taken from the bottom of the ranking among
    those with the fewest byes so far (nobody has a second bye before everyone has had
    one). Tables: the partition with the fewest repeated table-mates, then the closest
    ranks, then the fewest seats held again (exact up to 12 entries); never a ``forbidden``
    pair at one table.
    """
    if len(ranking) < 3:
        raise MovementError(f"a swiss round needs at least 3 players, not {len(ranking)}")
    tally = _Tally(ranking, 3)
    byes_had = dict.fromkeys(ranking, 0)
    for r in earlier:
        for t in r.tables:
            if all(e in byes_had for e in t.entries):
                tally.add(t.entries)
            else:
                for a, b in itertools.combinations([e for e in t.entries if e in byes_had], 2):
                    key = frozenset((a, b))
                    tally.met[key] = tally.met.get(key, 0) + 1
        for e in r.byes:
            if e in byes_had:
                byes_had[e] += 1
    sitting = len(ranking) % 3
    byes: list[str] = []
    for _ in range(sitting):
        fewest = min(byes_had[e] for e in ranking if e not in byes)
        byes.append(next(e for e in reversed(ranking) if e not in byes and byes_had[e] == fewest))
    order = [e for e in ranking if e not in byes]
    rank = [ranking.index(e) for e in order]
    rng = random.Random(f"moonrules/tournament/{seed}/swiss/{number}")
    seated = _tables_of_three(
        order, tally, rng, spread=rank, forbidden=forbidden, where=f"round {number}"
    )
    seated.sort(key=lambda t: min(ranking.index(e) for e in t))
    return Round(number, boards, tuple(Table(k + 1, t) for k, t in enumerate(seated)), tuple(byes))


# ---------------------------------------------------------------------------
# A round planned again


def _fits(fmt: str, rnd: Round, playing: Sequence[str], forbidden: Forbidden) -> bool:
    seated = [e for t in rnd.tables for e in t.entries]
    return (
        sorted(seated + list(rnd.byes)) == sorted(playing)
        and not (fmt == "three-seat" and rnd.byes)
        and all(forbidden_at(t.entries, forbidden) is None for t in rnd.tables)
    )


def replan_round(
    fmt: str,
    number: int,
    boards: tuple[int, ...],
    playing: Sequence[str],
    earlier: Sequence[Round],
    seed: int,
    forbidden: Forbidden = (),
    planned: Round | None = None,
) -> Round:
    """Round ``number`` for the entries ``playing`` it (for a Swiss event: best first),
    after the ``earlier`` rounds, keeping the ``forbidden`` pairs apart.

    The ``planned`` round is kept when it seats exactly ``playing`` and no forbidden pair;
    otherwise a three-seat or Swiss round is seated again (the fewest repeated
    table-mates given the rounds before, then the fewest seats held again); a pair
    round keeps its pairs and sides and swaps side-1 pairs between tables to part a
    forbidden pair. Deterministic. :class:`MovementError` when it cannot be done (players
    that do not fill tables of three, a forbidden pair that cannot be parted, pairs joining
    or leaving a pair movement)."""
    where = f"round {number}"
    if planned is not None and _fits(fmt, planned, playing, forbidden):
        return planned
    if fmt == "swiss":
        return swiss_round(number, playing, earlier, boards, seed, forbidden)
    if fmt == "three-seat":
        n = len(playing)
        if n < 3 or n % 3:
            raise MovementError(
                f"{where}: {n} players do not fill tables of three (a three-seat duplicate "
                "event has no byes): enter or withdraw players to make a multiple of 3"
            )
        tally = _Tally(playing, 3)
        for r in earlier:
            for t in r.tables:
                here = [e for e in t.entries if e in tally.held]
                for a, b in itertools.combinations(here, 2):
                    key = frozenset((a, b))
                    tally.met[key] = tally.met.get(key, 0) + 1
                for s, e in enumerate(t.entries):
                    if e in tally.held:
                        tally.held[e][s] += 1
        order = draw(playing, seed, f"replan/{number}")
        rng = random.Random(f"moonrules/tournament/{seed}/replan/{number}")
        tables = _tables_of_three(order, tally, rng, forbidden=forbidden, where=where)
        return Round(number, boards, tuple(Table(k + 1, t) for k, t in enumerate(tables)))
    if planned is None or not _fits(fmt, planned, playing, ()):
        raise MovementError(
            f"{where}: a {fmt} movement is not planned again for pairs joining or leaving "
            "it; give the movement in the tournament file"
        )
    return _part_pairs(planned, forbidden)


def _part_pairs(rnd: Round, forbidden: Forbidden) -> Round:
    tables = [list(t.entries) for t in rnd.tables]
    for k in range(len(tables)):
        if forbidden_at(tables[k], forbidden) is None:
            continue
        for j in range(len(tables)):
            if j == k:
                continue
            a, b = list(tables[k]), list(tables[j])
            a[1], b[1] = b[1], a[1]
            if forbidden_at(a, forbidden) is None and forbidden_at(b, forbidden) is None:
                tables[k], tables[j] = a, b
                break
        else:
            x, y = tables[k]
            raise MovementError(
                f"round {rnd.number}: {x!r} and {y!r} must not share a table, and no swap "
                "of side-1 pairs between tables parts them"
            )
    return attrs.evolve(
        rnd,
        tables=tuple(Table(t.number, tuple(e)) for t, e in zip(rnd.tables, tables, strict=True)),
    )


# ---------------------------------------------------------------------------
# Checking a movement


@attrs.frozen(slots=True)
class MovementCheck:
    """How a movement stands: ``held`` is each entry's count of rounds at each position;
    ``repeats`` each pair of entries that met more than once (table-mates; opponents for
    pairs) and how often; ``plays`` each entry's boards played; ``notes`` what could not
    be balanced and why (numbers that do not allow it), or how good it is."""

    held: tuple[tuple[str, tuple[int, ...]], ...]
    repeats: tuple[tuple[str, str, int], ...]
    plays: tuple[tuple[str, int], ...]
    notes: tuple[str, ...]

    @property
    def balanced(self) -> bool:
        """Every entry holds every position equally often (pairs in a Mitchell: not asked)."""
        return all(max(h) == min(h) for _, h in self.held)


def check_round(fmt: str, rnd: Round, k: int, entries: Sequence[str]) -> None:
    """The first thing that makes round ``rnd`` (the ``k``-th, from 0) impossible, raised."""
    where = f"round {rnd.number}"
    if rnd.number != k + 1:
        raise MovementError(f"round {rnd.number} comes {k + 1}th: rounds are numbered 1, 2, …")
    if not rnd.boards:
        raise MovementError(f"{where} has no boards")
    bad = [b for b in rnd.boards if b < 1]
    if bad:
        raise MovementError(f"{where}: board {bad[0]} is out of range: boards count from 1")
    if len(set(rnd.boards)) != len(rnd.boards):
        twice = next(b for b in rnd.boards if rnd.boards.count(b) > 1)
        raise MovementError(f"{where} lists board {twice} twice")
    seen = _check_tables(fmt, rnd, set(entries))
    for e in rnd.byes:
        if e not in entries:
            raise MovementError(f"{where}: {e!r} sits out but is not an entry of the event")
        if e in seen:
            raise MovementError(f"{where}: {e!r} sits out and plays at {seen[e]}")
        seen[e] = "the byes"
    missing = [e for e in entries if e not in seen]
    if missing and fmt != "swiss":
        raise MovementError(f"{where}: {missing[0]!r} has no table (and no bye)")
    if rnd.byes and fmt == "three-seat":
        raise MovementError(
            f"{where}: {rnd.byes[0]!r} sits out: a three-seat duplicate event has no byes "
            "(the players must fill the tables)"
        )


def _check_tables(fmt: str, rnd: Round, known: set[str]) -> dict[str, str]:
    """Where each entry of ``rnd`` sits, its tables checked."""
    places = positions_of(fmt)
    where = f"round {rnd.number}"
    seen: dict[str, str] = {}
    numbers: set[int] = set()
    for t in rnd.tables:
        at = f"{where}, table {t.number}"
        if t.number < 1 or t.number in numbers:
            raise MovementError(f"{at}: tables are numbered 1, 2, … once each in a round")
        numbers.add(t.number)
        what = "seats" if places == 3 else "pairs (sides)"
        if len(t.entries) > places:
            raise MovementError(
                f"{at}: seat {places + 1} is out of range: a table has {places} {what}"
            )
        if len(t.entries) < places:
            raise MovementError(
                f"{at} has {len(t.entries)} {what}; every table has {places}: "
                "the entries do not fill it"
            )
        for e in t.entries:
            if e not in known:
                raise MovementError(f"{at}: {e!r} is not an entry of the event")
            if e in seen:
                raise MovementError(f"{where}: {e!r} is at {seen[e]} and at table {t.number}")
            seen[e] = f"table {t.number}"
    return seen


def check_movement(
    movement: Movement, entries: Sequence[str], forbidden: Forbidden = ()
) -> MovementCheck:
    """Check ``movement`` for the event's ``entries``; :class:`MovementError` with the first
    thing that makes it impossible (an unknown entry, an entry at two tables of a round or
    missing from one, a table with the wrong number of places, a board played twice by an
    entry, a round without boards, a ``forbidden`` pair at one table), else the
    :class:`MovementCheck`."""
    fmt = movement.format
    if fmt not in FORMATS:
        raise MovementError(f"no movement format is called {fmt!r}; known: {', '.join(FORMATS)}")
    places = positions_of(fmt)
    held = {e: [0] * places for e in entries}
    met: dict[tuple[str, str], int] = {}
    boards_of: dict[str, dict[int, int]] = {e: {} for e in entries}
    for k, rnd in enumerate(movement.rounds):
        check_round(fmt, rnd, k, entries)
        for t in rnd.tables:
            pair = forbidden_at(t.entries, forbidden)
            if pair is not None:
                raise MovementError(
                    f"round {rnd.number}, table {t.number}: {pair[0]!r} and {pair[1]!r} must "
                    "not share a table (a forbidden pairing)"
                )
            for s, e in enumerate(t.entries):
                held[e][s] += 1
                for b in rnd.boards:
                    if b in boards_of[e]:
                        raise MovementError(
                            f"round {rnd.number}: {e!r} would play board {b} twice (rounds "
                            f"{boards_of[e][b]} and {rnd.number})"
                        )
                    boards_of[e][b] = rnd.number
            for x, y in itertools.combinations(sorted(t.entries), 2):
                met[(x, y)] = met.get((x, y), 0) + 1
    notes = _notes(movement, entries, held, met)
    return MovementCheck(
        tuple((e, tuple(held[e])) for e in entries),
        tuple((a, b, k) for (a, b), k in sorted(met.items()) if k > 1),
        tuple((e, len(boards_of[e])) for e in entries),
        tuple(notes),
    )


def _notes(
    movement: Movement,
    entries: Sequence[str],
    held: Mapping[str, list[int]],
    met: Mapping[tuple[str, str], int],
) -> list[str]:
    fmt = movement.format
    rounds = len(movement.rounds)
    notes: list[str] = []
    places = positions_of(fmt)
    if fmt == "mitchell":
        notes.append("a Mitchell: each pair keeps its side; two fields, two winners")
    else:
        what = "seat" if places == 3 else "side"
        spread = max((max(h) - min(h) for h in held.values()), default=0)
        if spread == 0:
            notes.append(f"every entry holds every {what} equally often")
        else:
            worst = max(entries, key=lambda e: max(held[e]) - min(held[e]))
            counts = ", ".join(f"{what} {s + 1}: {k}" for s, k in enumerate(held[worst]))
            if fmt != "swiss" and rounds % places:
                notes.append(
                    f"{what}s cannot be balanced: {rounds} rounds are not a multiple of "
                    f"{places}, so an entry holds some {what} once more than another "
                    f"(e.g. {worst!r}: {counts})"
                )
            else:
                notes.append(f"{what}s are not balanced: {worst!r} holds {counts}")
    repeats = sum(k - 1 for k in met.values() if k > 1)
    n = len(entries)
    if fmt in ("three-seat", "swiss"):
        mates = "table-mates"
        possible = (n - 1) // 2  # rounds in which every meeting can be new
        exists = n % 6 == 3
        if repeats == 0:
            notes.append(f"no two players meet twice ({mates} never repeat)")
        elif exists and rounds <= possible and kirkman(n) is None:
            notes.append(
                f"{repeats} repeated meeting(s) of {mates}; a Kirkman design of {n} players "
                "would have none, but none is built in here for that number"
            )
        elif rounds > possible:
            notes.append(
                f"{repeats} repeated meeting(s) of {mates}: with {n} players, at most "
                f"{possible} round(s) can all be new meetings"
            )
        else:
            notes.append(f"{repeats} repeated meeting(s) of {mates} (the fewest found)")
    elif repeats == 0:
        notes.append("no two pairs meet twice")
    else:
        notes.append(f"{repeats} repeated meeting(s) of pairs")
    return notes
