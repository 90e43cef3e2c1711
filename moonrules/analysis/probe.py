"""Questions about a position's double-dummy value that need less than the value itself.

:func:`~moonrules.analysis.solver.solve` finds the tricks the bidder's side ends a hand
with by a binary search of null-window probes of the search ("can the bidder's side take
at least *k*?", :mod:`moonrules.analysis.search`). Many questions need fewer probes:
whether a contract is made needs one (SCORE-1), and the most tricks of several positions
needs the exact value only of those that may beat the best so far.

:class:`Tricks` answers such questions about one play-phase position with the probes they
need and remembers what it learned (bounds on the value); :func:`play_reaches` says, for
each legal play, whether the bidder's side still reaches a number of tricks after it;
:func:`most_tricks` is the largest value of several positions; :func:`play_tricks` the value
after each legal play, learned from the position's own value. Every answer is exact: the
same as :func:`~moonrules.analysis.solver.solve` and
:func:`~moonrules.analysis.solver.play_values` give (``tests/test_probe.py``).

>>> from moonrules import new_game, apply, legal_actions, Phase
>>> from moonrules.analysis.solver import solve
>>> import random
>>> s, rng = new_game(seed=3), random.Random(3)
>>> while s.phase is not Phase.PLAY:
...     s = apply(s, rng.choice(legal_actions(s)))
>>> t = Tricks(s)
>>> t.at_least(solve(s)), t.at_least(solve(s) + 1), t.value() == solve(s)
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from moonrules.analysis import search as _impl
from moonrules.analysis.solver import (
    SolverCache,
    bidder_sides,
    check_solvable,
    class_map,
    won_by_side,
    won_by_side_at_end,
)
from moonrules.game import GameState, Phase, Play, apply, legal_play_mask
from moonrules.rules.tiles import TILES, Tile, indices_of

__all__ = ["Tricks", "most_tricks", "play_reaches", "play_tricks"]


class Tricks:
    """The bidder's side's tricks in the whole hand from one play-phase position, learned
    probe by probe: :meth:`at_least` asks one bound, :meth:`value` the number itself.

    ``cache`` may be shared with other positions and solves (each probe takes it over for
    this position's trump and sides, as :func:`~moonrules.analysis.solver.solve` does);
    by default the position has a cache of its own.
    """

    __slots__ = ("_bounded", "cache", "hi", "lo", "side", "state", "won")

    def __init__(self, state: GameState, cache: SolverCache | None = None) -> None:
        check_solvable(state, cache)
        self.state = state
        self.cache = SolverCache(1 << 16) if cache is None else cache
        self.side = bidder_sides(state)
        h = state.hand
        self.won = won_by_side(state, self.side)
        """The tricks the bidder's side has already won."""
        left = h.hands[(h.leader + len(h.trick)) % len(h.hands)].bit_count()
        self.lo = self.won
        """The value is at least this."""
        self.hi = self.won + left
        """The value is at most this."""
        self._bounded = bool(h.trick) or legal_play_mask(state) != h.hands[h.leader]
        """Whether the search's cheap bounds were taken or do not apply (they hold at the
        root only when a trick starts and every tile may be led, as in ``solve_remaining``)."""

    def _search(self) -> _impl.Search:
        search = _impl.Search(self.state, self.side, self.cache)
        if not self._bounded:
            self._bounded = True
            h = self.state.hand
            lo, hi = search.bounds(h.leader, h.hands[h.leader].bit_count())
            self.lo, self.hi = max(self.lo, self.won + lo), min(self.hi, self.won + hi)
        return search

    def at_least(self, k: int) -> bool:
        """Whether the bidder's side ends the hand with ``k`` tricks or more."""
        if k <= self.lo:
            return True
        if k > self.hi:
            return False
        search = self._search()
        if k <= self.lo:
            return True
        if k > self.hi:
            return False
        before = search.nodes
        try:
            result = _impl.root_probe(search, self.state, k - self.won)
        finally:
            self.cache.nodes += search.nodes - before
        if result:
            self.lo = k
        else:
            self.hi = k - 1
        return result

    def value(self) -> int:
        """The tricks themselves (the number :func:`~moonrules.analysis.solver.solve`
        gives), by the probes the bounds learned so far leave to make."""
        if self.lo < self.hi:
            self._search()
        while self.lo < self.hi:
            self.at_least(max(self.lo + 1, (self.lo + self.hi) // 2))
        return self.lo


def most_tricks(positions: Sequence[Tricks]) -> int:
    """The largest value of ``positions`` (at least one): the first is solved, each later
    one only asked whether it beats the best so far, and solved only if it does."""
    best = positions[0].value()
    for p in positions[1:]:
        if p.at_least(best + 1):
            best = p.value()
    return best


def play_reaches(state: GameState, k: int, cache: SolverCache | None = None) -> dict[Tile, bool]:
    """For each legal play of the player to act (tile order), whether the bidder's side
    ends the hand with ``k`` tricks or more after it: ``play_values(state)[tile] >= k``,
    by one probe a class of equivalent tiles (as :func:`play_values` merges them)."""
    check_solvable(state, cache)
    if cache is None:
        cache = SolverCache()
    h = state.hand
    side = bidder_sides(state)
    search = _impl.Search(state, side, cache)
    played = 0
    for i in h.trick:
        played |= 1 << i
    rep_of = class_map(search, (h.leader + len(h.trick)) % search.n, played)
    reached: dict[int, bool] = {}
    mask = legal_play_mask(state)
    for i in indices_of(mask):
        r = rep_of[i]
        if r not in reached:
            child = apply(state, Play(TILES[r]))
            if child.phase is Phase.PLAY and child.hand.number == h.number:
                reached[r] = Tricks(child, cache).at_least(k)
            else:
                reached[r] = won_by_side_at_end(child, state, side) >= k
        reached[i] = reached[r]
    return {TILES[i]: reached[i] for i in indices_of(mask)}


def play_tricks(state: GameState, cache: SolverCache | None = None) -> dict[Tile, int]:
    """:func:`~moonrules.analysis.solver.play_values` learned from the position's own value
    ``v``: no play of the bidder's side makes more than ``v`` and no other play less, and
    most plays make ``v`` exactly, so each class of equivalent tiles is first asked only
    whether it stays at ``v`` (one probe), and solved only if not."""
    check_solvable(state, cache)
    if cache is None:
        cache = SolverCache()
    h = state.hand
    root = Tricks(state, cache)
    v = root.value()
    side = root.side
    mover = (h.leader + len(h.trick)) % len(h.hands)
    maximizing = side[mover]
    search = _impl.Search(state, side, cache)
    played = 0
    for i in h.trick:
        played |= 1 << i
    rep_of = class_map(search, mover, played)
    values: dict[int, int] = {}
    mask = legal_play_mask(state)
    for i in indices_of(mask):
        r = rep_of[i]
        if r not in values:
            child = apply(state, Play(TILES[r]))
            if child.phase is Phase.PLAY and child.hand.number == h.number:
                t = Tricks(child, cache)
                if maximizing:
                    t.hi = min(t.hi, v)
                    values[r] = v if t.at_least(v) else t.value()
                else:
                    t.lo = max(t.lo, v)
                    values[r] = v if not t.at_least(v + 1) else t.value()
            else:
                values[r] = won_by_side_at_end(child, state, side)
        values[i] = values[r]
    return {TILES[i]: values[i] for i in indices_of(mask)}
