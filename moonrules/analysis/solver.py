"""Double-dummy solver: the tricks the bidder's side takes under best play.

With every hand known, :func:`solve` gives the number of tricks the bidder (with
four players, the bidding team: TEAM-1) ends the hand with when the bidder's
side plays to take as many tricks as it can and every other player plays to
hold it to as few as they can. Tricks already won count.
:func:`play_values` gives that number after each legal play of the player to
act, and :func:`solve_minimax` is a plain minimax, for tests.

The search itself (alpha-beta over trick counts, a transposition table, cheap
bounds, move ordering, merged equivalent tiles) is :mod:`moonrules.analysis.search`.
That module may also be installed compiled (``MOONRULES_COMPILE=1``, see
``docs/guides/solver-speed.md`` and :mod:`moonrules.kernel.compiled`); :data:`COMPILED`
says which form runs. Both forms give the same numbers: the tests check each
against the exhaustive minimax.

>>> from moonrules import new_game, apply, legal_actions, Phase
>>> import random
>>> s, rng = new_game(seed=3), random.Random(3)
>>> while s.phase is not Phase.PLAY:
...     s = apply(s, rng.choice(legal_actions(s)))
>>> v = solve(s)
>>> 0 <= v <= 7 and v == max(play_values(s).values())
True
"""

from __future__ import annotations

from typing import Final

from moonrules.analysis import search as _impl
from moonrules.analysis.search import SolverCache
from moonrules.game import GameState, Phase, legal_play_mask
from moonrules.kernel.compiled import is_compiled
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.tables import winner_index
from moonrules.rules.errors import ArgumentError, wrong_type
from moonrules.rules.tiles import TILES, Tile, indices_of

__all__ = ["COMPILED", "SolverCache", "play_values", "solve", "solve_minimax"]

# ---------------------------------------------------------------------------
# The search, compiled or not

COMPILED: Final[bool] = is_compiled(_impl)
"""Whether the double-dummy search runs compiled (mypyc) rather than as Python source."""


# ---------------------------------------------------------------------------
# Checking the position


def check_solvable(state: GameState, cache: SolverCache | None = None) -> None:
    """:class:`TypeError` or :class:`~moonrules.rules.errors.ArgumentError` naming the
    argument the solver cannot take: a state not in the play phase, or not consistent."""
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    # (the form of the search in use may be the source beside a compiled module: its
    # cache class is another class of the same name, and either serves)
    if cache is not None and not isinstance(cache, (SolverCache, _impl.SolverCache)):
        raise wrong_type("cache", "a SolverCache or None", cache)
    h = state.hand
    if state.winner is not None or h.phase is not Phase.PLAY:
        raise ArgumentError(
            f"state: the solver needs a hand in the play phase; this hand is in the "
            f"{h.phase.value} phase" + (" and the game is over" if state.winner is not None else "")
        )
    n = state.rules.players
    if len(h.hands) != n or not 0 <= h.leader < n or len(h.trick) >= n or not 0 <= h.trump <= 8:
        raise ArgumentError("state: the solver was given an inconsistent play-phase state")
    left = h.hands[(h.leader + len(h.trick)) % n].bit_count()
    for k in range(n):
        seat = (h.leader + k) % n
        want = left - 1 if k < len(h.trick) else left
        if h.hands[seat].bit_count() != want:
            raise ArgumentError(
                f"state: the solver was given an inconsistent state: seat {seat} holds "
                f"{h.hands[seat].bit_count()} tiles, and {want} were expected"
            )
    if left == 0:
        raise ArgumentError("state: the solver was given a hand with no tiles left to play")


def bidder_sides(state: GameState) -> tuple[bool, ...]:
    """For each seat, whether it plays on the bidder's side (TEAM-1)."""
    rules = state.rules
    bidder = state.hand.bidder
    return tuple(rules.side_of(s) == rules.side_of(bidder) for s in range(rules.players))


def won_by_side(state: GameState, side: tuple[bool, ...]) -> int:
    """The tricks the seats of ``side`` (:func:`bidder_sides`) have won so far this hand."""
    won = state.hand.tricks_won or (0,) * state.rules.players
    return sum(w for s, w in enumerate(won) if side[s])


def _prepare(state: GameState, cache: SolverCache | None) -> tuple[_impl.Search, SolverCache]:
    check_solvable(state, cache)
    if cache is None:
        cache = _impl.SolverCache()
    return _impl.Search(state, bidder_sides(state), cache), cache


def solve(state: GameState, cache: SolverCache | None = None) -> int:
    """Tricks the bidder's side ends the hand with under best play by everyone.

    All hands are known (double dummy). The bidder (the bidding team, TEAM-1)
    plays to maximise its tricks and everyone else to minimise them; tricks
    already won count. ``state`` must be in the play phase (else
    :class:`~moonrules.rules.errors.ArgumentError`, a ``ValueError``).
    ``cache`` may be shared between calls about positions of the same hand;
    its ``nodes`` counts the search nodes.
    """
    search, cache = _prepare(state, cache)
    try:
        value = _impl.solve_remaining(search, state)
    finally:
        cache.nodes += search.nodes
    return won_by_side(state, search.side) + value


def play_values(state: GameState, cache: SolverCache | None = None) -> dict[Tile, int]:
    """For each legal play of the player to act, the bidder's side's trick total after it.

    Each value is what :func:`solve` gives for the position after that play, so
    the best value for the player to act (the highest for the bidder's side,
    the lowest for the others) equals ``solve(state)``. Tiles come in tile order.
    """
    check_solvable(state, cache)
    if cache is None:
        cache = _impl.SolverCache()
    from moonrules.game import Play, apply

    mask = legal_play_mask(state)
    search, cache = _prepare(state, cache)
    h = state.hand
    played = 0
    for i in h.trick:
        played |= 1 << i
    rep_of = class_map(search, (h.leader + len(h.trick)) % search.n, played)
    values: dict[int, int] = {}
    for i in indices_of(mask):
        r = rep_of[i]
        if r not in values:
            child = apply(state, Play(TILES[r]))
            if child.phase is Phase.PLAY and child.hand.number == h.number:
                values[r] = solve(child, cache)
            else:
                values[r] = won_by_side_at_end(child, state, search.side)
        values[i] = values[r]
    return {TILES[i]: values[i] for i in indices_of(mask)}


def class_map(search: _impl.Search, seat: int, played: int) -> dict[int, int]:
    """Each tile of ``seat`` mapped to a representative of its class (see ``Search.seat_reps``)."""
    t = search.t
    reps = search.seat_reps(seat, played)
    hand = search.hands[seat]
    outside = played
    for hnd in search.hands:
        outside |= hnd
    outside &= ~hand
    rep_by_key: dict[int, int] = {}
    for i in indices_of(reps):
        rep_by_key[t.above_led[i] & outside | t.lead_key[i]] = i
    out: dict[int, int] = {}
    for i in indices_of(hand):
        out[i] = i if reps >> i & 1 else rep_by_key[t.above_led[i] & outside | t.lead_key[i]]
    return out


def won_by_side_at_end(child: GameState, parent: GameState, side: tuple[bool, ...]) -> int:
    """The bidder's side's tricks once the hand has ended with the last play."""
    hand = child.history[-1] if child.hand.number != parent.hand.number else child.hand
    return sum(w for s, w in enumerate(hand.tricks_won) if side[s])


def solve_minimax(state: GameState, *, memo: bool = False) -> int:
    """The same number as :func:`solve`, by plain minimax: no pruning, no bounds, no merging.

    Every legal play of every player is searched to the end of the hand. With
    ``memo`` the exact value of each position reached at a trick boundary is
    remembered (a whole hand then takes seconds instead of minutes); the values
    are the same. Slow either way: a reference for tests.
    """
    check_solvable(state)
    h = state.hand
    side = bidder_sides(state)
    n = state.rules.players
    trump = h.trump
    rules = state.rules
    hands = list(h.hands)
    total = len(h.tricks) + h.hands[h.leader].bit_count() + (1 if h.trick else 0)
    seen: dict[tuple[int, ...], int] = {}

    def boundary(leader: int) -> int:
        if not memo:
            return value(leader, ())
        key = (leader, *hands)
        v = seen.get(key)
        if v is None:
            v = seen[key] = value(leader, ())
        return v

    def value(leader: int, trick: tuple[int, ...]) -> int:
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        if not hand:
            return 0
        led = trick[0] if trick else NO_LEAD
        legal = legal_mask(hand, led, trump, rules, total - hand.bit_count())
        results = []
        for i in indices_of(legal):
            hands[seat] = hand & ~(1 << i)
            played = (*trick, i)
            if len(played) == n:
                winner = (leader + winner_index(played, trump)) % n
                results.append(int(side[winner]) + boundary(winner))
            else:
                results.append(value(leader, played))
            hands[seat] = hand
        return max(results) if side[seat] else min(results)

    return won_by_side(state, side) + value(h.leader, h.trick)
