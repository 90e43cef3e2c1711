"""What the end of a hand is worth to a seat: relative points early, the chance to win late.

A hand's result changes every side's score. :class:`HandValue` turns a result (the
bidder, the bid, the tricks of the bidder's side and of each other side) into one
number for the seat weighing its options:

* **Relative points** (early in a game): the seat's side's change of score minus the
  mean change of the other sides. With three players a defender's tricks score for
  that defender (SCORE-3), so a bidder's overtrick is worth half a point (it is
  taken from the defenders), and a defender gains when the bidder is set as well
  as by its own tricks. In a match this is what the seat gains on the others. A
  made 21 that wins the game (SCORE-4) counts what a game won is worth in points
  at these scores: the chance to win the seat lacks, over what a point adds to it
  (about 28 points at the start of a game, not 21).
* **The chance to win the game**, when this hand may end the game (a side may
  reach the target, END-1): a result that ends the game is worth 1 to the winner
  and 0 to the others; any other is worth :func:`win_chance` of the scores it
  leaves.

:func:`win_chance` estimates the chance that a side goes on to win from given
scores: the game is played on from them many times with hand results drawn from
a table of results of whole hands between ``pimc`` bots (:data:`OUTCOMES`),
the same draws for every score (common random numbers), so that nearby scores
are compared without noise of their own. It is deterministic and memoised.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Final

import attrs

from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import MoonMade, RuleSet, Scoring
from moonrules.rules.scoring import decided_winner

__all__ = ["OUTCOMES", "HandValue", "win_chance"]

OUTCOMES: Final[dict[int, tuple[tuple[int, int, int, bool, tuple[int, ...]], ...]]] = {
    # players -> (count, bidder's position from the first bidder or -1, bid, made,
    #             points of each position from the first bidder)
    3: (
        (53, 1, 5, True, (1, 5, 0)),
        (45, 2, 6, True, (0, 0, 6)),
        (43, 2, 5, True, (0, 1, 5)),
        (38, 0, 5, True, (5, 1, 0)),
        (35, 1, 5, True, (0, 5, 1)),
        (33, 2, 5, True, (1, 0, 5)),
        (32, 0, 6, True, (6, 0, 0)),
        (31, 0, 5, True, (5, 0, 1)),
        (30, 1, 6, True, (0, 6, 0)),
        (29, 0, 5, True, (5, 2, 0)),
        (28, 1, 5, True, (0, 5, 2)),
        (27, 1, 21, True, (0, 21, 0)),
        (26, 1, 5, True, (0, 5, 0)),
        (26, 1, 5, True, (2, 5, 0)),
        (26, 2, 5, True, (0, 2, 5)),
        (25, 0, 4, True, (4, 1, 1)),
        (25, 2, 5, True, (0, 0, 5)),
        (23, 0, 5, True, (5, 0, 2)),
        (22, 2, 21, True, (0, 0, 21)),
        (21, 0, 21, True, (21, 0, 0)),
        (20, 2, 6, True, (0, 1, 6)),
        (19, 0, 6, True, (6, 1, 0)),
        (19, 1, 5, True, (1, 5, 1)),
        (18, 0, 6, True, (6, 0, 1)),
        (18, 1, 6, True, (0, 6, 1)),
        (18, 2, 5, True, (1, 1, 5)),
        (17, 0, 4, True, (4, 1, 0)),
        (17, 0, 5, True, (5, 0, 0)),
        (17, 1, 6, True, (1, 6, 0)),
        (16, 0, 4, True, (4, 0, 2)),
        (15, 0, 4, True, (4, 0, 1)),
        (15, 0, 4, True, (4, 2, 0)),
        (15, 2, 5, True, (2, 0, 5)),
        (13, 0, 5, True, (5, 1, 1)),
        (13, 2, 6, True, (1, 0, 6)),
        (12, -1, 0, False, (0, 0, 0)),
        (12, 0, 4, True, (4, 0, 0)),
        (10, 1, 4, True, (0, 4, 2)),
        (9, 0, 4, True, (4, 0, 3)),
        (9, 0, 4, True, (4, 2, 1)),
        (9, 1, 4, True, (0, 4, 0)),
        (8, 2, 5, False, (1, 2, -5)),
        (7, 0, 21, False, (-21, 1, 0)),
        (7, 1, 4, True, (1, 4, 1)),
        (7, 1, 4, True, (2, 4, 0)),
        (6, 0, 4, True, (4, 1, 2)),
        (6, 1, 4, True, (0, 4, 3)),
        (6, 1, 5, False, (3, -5, 0)),
        (6, 2, 4, True, (1, 0, 4)),
        (6, 2, 21, False, (0, 1, -21)),
        (5, 1, 21, False, (1, -21, 0)),
        (5, 2, 21, False, (1, 0, -21)),
        (4, 1, 4, False, (2, -4, 2)),
        (4, 1, 4, True, (1, 4, 0)),
        (4, 1, 4, True, (3, 4, 0)),
        (4, 1, 5, False, (0, -5, 3)),
        (4, 1, 5, False, (1, -5, 2)),
        (4, 1, 21, False, (0, -21, 1)),
        (4, 2, 4, True, (1, 1, 4)),
        (4, 2, 5, False, (0, 3, -5)),
        (3, 1, 4, True, (0, 4, 1)),
        (3, 1, 4, True, (1, 4, 2)),
        (3, 1, 4, True, (2, 4, 1)),
        (3, 1, 6, False, (0, -6, 2)),
        (3, 2, 5, False, (3, 1, -5)),
        (2, 0, 4, False, (-4, 1, 3)),
        (2, 0, 5, False, (-5, 0, 3)),
        (2, 0, 5, False, (-5, 3, 0)),
        (2, 0, 6, False, (-6, 1, 3)),
        (2, 0, 6, False, (-6, 2, 0)),
        (2, 0, 21, False, (-21, 0, 1)),
        (2, 1, 4, False, (0, -4, 4)),
        (2, 1, 5, False, (2, -5, 1)),
        (2, 1, 6, False, (1, -6, 1)),
        (2, 2, 4, True, (0, 0, 4)),
        (2, 2, 4, True, (0, 2, 4)),
        (2, 2, 4, True, (2, 0, 4)),
        (2, 2, 5, False, (2, 1, -5)),
        (2, 2, 6, False, (0, 2, -6)),
        (1, 0, 4, False, (-4, 0, 4)),
        (1, 0, 4, False, (-4, 0, 5)),
        (1, 0, 4, False, (-4, 2, 2)),
        (1, 0, 4, False, (-4, 2, 3)),
        (1, 0, 4, False, (-4, 4, 0)),
        (1, 0, 4, False, (-4, 4, 1)),
        (1, 0, 4, True, (4, 3, 0)),
        (1, 0, 6, False, (-6, 0, 2)),
        (1, 1, 4, False, (1, -4, 3)),
        (1, 1, 4, False, (3, -4, 3)),
        (1, 1, 4, False, (5, -4, 0)),
        (1, 1, 5, False, (2, -5, 2)),
        (1, 1, 5, False, (3, -5, 1)),
        (1, 1, 5, False, (4, -5, 0)),
        (1, 1, 6, False, (2, -6, 0)),
        (1, 1, 21, False, (2, -21, 0)),
        (1, 2, 4, False, (2, 2, -4)),
        (1, 2, 4, True, (0, 1, 4)),
        (1, 2, 4, True, (0, 3, 4)),
        (1, 2, 5, False, (3, 0, -5)),
        (1, 2, 5, False, (4, 0, -5)),
        (1, 2, 6, False, (1, 1, -6)),
        (1, 2, 6, False, (2, 0, -6)),
    ),
    4: (
        (22, 2, 6, True, (6, 1, 6, 1)),
        (20, 2, 6, False, (-6, 2, -6, 2)),
        (17, 0, 6, False, (-6, 2, -6, 2)),
        (17, 1, 6, True, (1, 6, 1, 6)),
        (16, 0, 5, True, (5, 2, 5, 2)),
        (16, 0, 6, True, (6, 0, 6, 0)),
        (16, 3, 6, True, (1, 6, 1, 6)),
        (14, 0, 6, True, (6, 1, 6, 1)),
        (14, 2, 6, False, (-6, 3, -6, 3)),
        (12, 1, 5, False, (3, -5, 3, -5)),
        (12, 1, 6, False, (2, -6, 2, -6)),
        (12, 1, 6, True, (0, 6, 0, 6)),
        (12, 2, 6, True, (6, 0, 6, 0)),
        (12, 3, 6, False, (2, -6, 2, -6)),
        (11, 1, 5, True, (2, 5, 2, 5)),
        (10, 0, 5, True, (5, 1, 5, 1)),
        (10, 1, 5, True, (1, 5, 1, 5)),
        (10, 2, 5, True, (5, 2, 5, 2)),
        (10, 3, 6, False, (3, -6, 3, -6)),
        (9, 0, 6, False, (-6, 3, -6, 3)),
        (9, 3, 6, True, (0, 6, 0, 6)),
        (8, 0, 5, True, (5, 0, 5, 0)),
        (8, 1, 6, False, (3, -6, 3, -6)),
        (8, 1, 6, False, (4, -6, 4, -6)),
        (7, 1, 5, False, (4, -5, 4, -5)),
        (6, 0, 4, True, (4, 2, 4, 2)),
        (6, 0, 6, False, (-6, 4, -6, 4)),
        (6, 2, 5, True, (5, 1, 5, 1)),
        (5, 1, 5, True, (0, 5, 0, 5)),
        (5, 2, 5, False, (-5, 3, -5, 3)),
        (5, 2, 5, False, (-5, 4, -5, 4)),
        (5, 3, 5, True, (2, 5, 2, 5)),
        (5, 3, 6, False, (4, -6, 4, -6)),
        (4, 2, 5, True, (5, 0, 5, 0)),
        (4, 2, 6, False, (-6, 4, -6, 4)),
        (4, 3, 5, False, (3, -5, 3, -5)),
        (3, 0, 4, True, (4, 3, 4, 3)),
        (2, 0, 4, True, (4, 0, 4, 0)),
        (2, 0, 4, True, (4, 1, 4, 1)),
        (2, 0, 5, False, (-5, 3, -5, 3)),
        (2, 0, 6, False, (-6, 5, -6, 5)),
        (2, 1, 5, False, (5, -5, 5, -5)),
        (2, 1, 6, False, (5, -6, 5, -6)),
        (2, 2, 6, False, (-6, 5, -6, 5)),
        (2, 3, 6, False, (5, -6, 5, -6)),
        (1, 0, 5, False, (-5, 4, -5, 4)),
        (1, 0, 5, False, (-5, 5, -5, 5)),
        (1, 0, 6, False, (-6, 6, -6, 6)),
        (1, 1, 4, False, (4, -4, 4, -4)),
        (1, 1, 4, True, (1, 4, 1, 4)),
        (1, 1, 4, True, (2, 4, 2, 4)),
        (1, 1, 5, False, (6, -5, 6, -5)),
        (1, 2, 4, True, (4, 1, 4, 1)),
        (1, 2, 4, True, (4, 2, 4, 2)),
        (1, 2, 5, False, (-5, 5, -5, 5)),
        (1, 3, 4, True, (3, 4, 3, 4)),
        (1, 3, 5, False, (6, -5, 6, -5)),
        (1, 3, 5, True, (0, 5, 0, 5)),
        (1, 3, 5, True, (1, 5, 1, 5)),
    ),
}
"""Hand results by the number of players, counted over hands between ``pimc`` bots at the
start of a game (``python bench/bots.py model-data --play``; fitted by ``model-fit``)."""

ROLLOUTS: Final = 256
"""Games played on from each score to estimate :func:`win_chance`."""
HANDS_AHEAD: Final = 40
"""The most hands each of those games is played on for (then the leader counts as winning)."""


def _seed_sequences(players: int) -> tuple[tuple[int, ...], ...]:
    table = OUTCOMES[players]
    weights = [row[0] for row in table]
    rng = random.Random(f"moonrules/bots/value/{players}")
    picks = range(len(table))
    return tuple(tuple(rng.choices(picks, weights, k=HANDS_AHEAD)) for _ in range(ROLLOUTS))


@functools.lru_cache(maxsize=8)
def _sequences(players: int) -> tuple[tuple[int, ...], ...]:
    return _seed_sequences(players)


def _result(rules: RuleSet, scores: list[int], bidder_side: int, moon_won: bool) -> int | None:
    """The winning side after a hand with ``scores`` per side, or ``None`` (END-1 … END-3,
    and SCORE-4 when ``moon_won``)."""
    return bidder_side if moon_won else decided_winner(rules, scores, bidder_side)


@functools.lru_cache(maxsize=1 << 16)
def win_chance(rules: RuleSet, scores: tuple[int, ...], first_bidder: int, side: int) -> float:
    """The chance that ``side`` wins a game of ``rules`` that goes on from ``scores`` (per
    side) with ``first_bidder`` to call first in the next hand (see the module)."""
    n = rules.players
    table = OUTCOMES[n]
    sides = rules.sides
    marks = rules.scoring is Scoring.MARKS
    moon_wins = rules.moon_made is MoonMade.WINS_GAME
    won = 0.0
    for seq in _sequences(n):
        sc = list(scores)
        fb = first_bidder
        winner: int | None = None
        for pick in seq:
            _, rel, bid, made, points = table[pick]
            if rel >= 0:
                bidder_side = rules.side_of((fb + rel) % n)
                if marks:
                    for s in range(sides):
                        sc[s] += (s == bidder_side) if made else (s != bidder_side)
                else:
                    seen = set()
                    for k in range(n):
                        s = rules.side_of((fb + k) % n)
                        if s not in seen:
                            seen.add(s)
                            sc[s] += points[k]
                winner = _result(rules, sc, bidder_side, made and bid == MOON and moon_wins)
                if winner is not None:
                    break
            fb = (fb + 1) % n
        if winner is None:
            top = max(sc)
            leaders = [s for s in range(sides) if sc[s] == top]
            won += (side in leaders) / len(leaders)
        else:
            won += winner == side
    return won / len(_sequences(n))


def _win_points(rules: RuleSet, scores: tuple[int, ...], first_bidder: int, side: int) -> float:
    """What winning the game now is worth to ``side`` in relative points: the chance it
    does not yet have, over what a point of lead adds to that chance here."""
    step = 1 if rules.scoring is Scoring.MARKS else 5
    up = list(scores)
    down = list(scores)
    up[side] += step
    down[side] -= step
    slope = (
        win_chance(rules, tuple(up), first_bidder, side)
        - win_chance(rules, tuple(down), first_bidder, side)
    ) / (2 * step)
    now = win_chance(rules, scores, first_bidder, side)
    return (1.0 - now) / max(slope, 1e-3)


@attrs.frozen(slots=True)
class HandValue:
    """What the end of the current hand is worth to ``seat`` (see the module).

    ``scores`` are the scores per side before the hand, ``tricks_won`` the tricks each
    seat has won in it so far, ``first_bidder`` the hand's first bidder. With
    ``by_game`` every result is valued by the chance to win the game; else by
    relative points, a made 21 that wins the game counting ``moon_points`` to the
    bidder's side (the points a game won is worth here; 21 when not score-aware).
    """

    rules: RuleSet
    seat: int
    scores: tuple[int, ...]
    tricks_won: tuple[int, ...]
    first_bidder: int
    by_game: bool
    moon_points: float = float(MOON)

    @staticmethod
    def for_hand(
        rules: RuleSet,
        seat: int,
        scores: Sequence[int],
        tricks_won: Sequence[int],
        first_bidder: int,
        *,
        score_aware: bool = True,
    ) -> HandValue:
        """The valuation for a seat. Score-aware: by the game when this hand may end it (a
        side within reach of the target, END-1), else by relative points with a made 21
        worth a game won (SCORE-4). Not score-aware: relative points, a made 21 worth 21."""
        reach = 1 if rules.scoring is Scoring.MARKS else 7
        late = score_aware and max(scores) + reach >= rules.target
        moon = float(MOON)
        if score_aware and not late and rules.moon_made is MoonMade.WINS_GAME:
            nxt = (first_bidder + 1) % rules.players
            moon = max(moon, _win_points(rules, tuple(scores), nxt, rules.side_of(seat)))
        return HandValue(rules, seat, tuple(scores), tuple(tricks_won), first_bidder, late, moon)

    def thrown_in(self) -> float:
        """The value of the hand thrown in (BID-7): nothing changes but the first bidder."""
        if not self.by_game:
            return 0.0
        nxt = (self.first_bidder + 1) % self.rules.players
        return win_chance(self.rules, self.scores, nxt, self.rules.side_of(self.seat))

    def passing(self, calls: Sequence[int]) -> float:
        """The value of passing after the auction's ``calls`` (``0`` a pass), the seat's
        being the next: the results of hands between ``pimc`` bots (:data:`OUTCOMES`) that
        the calls so far and the pass leave possible (bid by a seat yet to call or by the
        one holding the highest bid, above it; thrown in only when no one has bid), each
        valued as it ends, weighted by how often it came. A prior over what the others do,
        not a reading of the seat's tiles."""
        rules = self.rules
        n = rules.players
        me = len(calls)
        high = max(calls, default=PASS)
        holder = calls.index(high) if high != PASS else -1
        total = weight = 0.0
        for count, rel, bid, made, points in OUTCOMES[n]:
            if rel < 0:
                if high != PASS:
                    continue
                v = self.thrown_in()
            else:
                if rel == me or (rel < me and not (rel == holder and bid == high)):
                    continue
                if rel > me and bid <= high:
                    continue
                bidder = (self.first_bidder + rel) % n
                deltas = [0.0] * rules.sides
                seen: set[int] = set()
                for k in range(n):
                    side = rules.side_of((self.first_bidder + k) % n)
                    if side not in seen:
                        seen.add(side)
                        deltas[side] = float(points[k])
                if rules.scoring is Scoring.MARKS:
                    b = rules.side_of(bidder)
                    deltas = [float(s == b) if made else float(s != b) for s in range(rules.sides)]
                v = self._game(bidder, bid, deltas) if self.by_game else self._relative(deltas)
            total += count * v
            weight += count
        return total / weight if weight else self.thrown_in()

    def _relative(self, deltas: Sequence[float]) -> float:
        mine = self.rules.side_of(self.seat)
        others = [d for s, d in enumerate(deltas) if s != mine]
        return deltas[mine] - sum(others) / len(others)

    def _deltas(self, bidder: int, bid: int, per_side: Sequence[float]) -> list[float]:
        rules = self.rules
        bside = rules.side_of(bidder)
        made = per_side[bside] >= (7 if bid == MOON else bid)
        if rules.scoring is Scoring.MARKS:
            return [float(s == bside) if made else float(s != bside) for s in range(rules.sides)]
        return [(bid if made else -bid) if s == bside else per_side[s] for s in range(rules.sides)]

    def _splits(self, bidder: int, tricks: int) -> list[list[int]]:
        """The tricks per side at the end: the bidder's side ``tricks``; with three players the
        defenders share the rest of theirs evenly from what each has (both ways if odd)."""
        rules = self.rules
        n = rules.players
        if rules.partnership:
            b = rules.side_of(bidder)
            return [[tricks if s == b else 7 - tricks for s in range(2)]]
        others = [s for s in range(n) if s != bidder]
        have = [self.tricks_won[s] for s in others]
        rest = max(0, 7 - tricks - sum(have))
        out = []
        for first in sorted({rest // 2, rest - rest // 2}):
            split = [0] * n
            split[bidder] = tricks
            split[others[0]] = have[0] + first
            split[others[1]] = have[1] + rest - first
            out.append(split)
        return out

    def __call__(self, bidder: int, bid: int, tricks: int) -> float:
        """The value of the hand ending with ``tricks`` to the side of ``bidder`` on ``bid``."""
        rules = self.rules
        mine = rules.side_of(self.seat)
        splits = self._splits(bidder, tricks)
        total = 0.0
        for split in splits:
            deltas = self._deltas(bidder, bid, split)
            if self.by_game:
                total += self._game(bidder, bid, deltas)
                continue
            if bid == MOON and tricks >= 7 and rules.side_of(bidder) == mine:
                deltas[mine] = max(deltas[mine], self.moon_points)
            others = [d for s, d in enumerate(deltas) if s != mine]
            total += deltas[mine] - sum(others) / len(others)
        return total / len(splits)

    def _game(self, bidder: int, bid: int, deltas: Sequence[float]) -> float:
        rules = self.rules
        mine = rules.side_of(self.seat)
        bside = rules.side_of(bidder)
        after = [int(s + d) for s, d in zip(self.scores, deltas, strict=True)]
        made = deltas[bside] > 0
        moon_won = made and bid == MOON and rules.moon_made is MoonMade.WINS_GAME
        winner = _result(rules, after, bside, moon_won)
        if winner is not None:
            return float(winner == mine)
        nxt = (self.first_bidder + 1) % rules.players
        return win_chance(rules, tuple(after), nxt, mine)
