"""The double-dummy solver (moonrules.analysis.solver) against plain minimax.

Positions come from random games: a seeded deal, seeded random calls, discard
and trump, then seeded random plays to a point of the play phase. Every check
compares :func:`solve` (alpha-beta, transposition table, merged tiles) with
:func:`solve_minimax` (every legal play searched), and :func:`play_values` with
the minimax value of each child position.

``MOONRULES_DEEP=1`` runs many more positions; whole hands are in
``tests/test_solver_whole_hands.py``.

Every test runs on each form of the search that is installed: the Python source,
and the mypyc-compiled module when the install built it (``MOONRULES_COMPILE=1``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest
from depth import DEEP
from gamehelpers import play_until, random_step
from hypothesis import given, settings
from hypothesis import strategies as st

from moonrules import PRESETS, GameState, Phase, Play, apply, new_game
from moonrules.analysis import solver
from moonrules.analysis.solver import SolverCache, play_values, solve, solve_minimax
from moonrules.game import legal_play_mask
from moonrules.kernel.compiled import is_compiled, source_form
from moonrules.rules.tiles import tiles_of

FORMS = ["compiled", "source"] if solver.COMPILED else ["source"]
"""The forms of the search installed: each test runs on each."""


@contextlib.contextmanager
def search_in(form: str) -> Iterator[str]:
    """The solver runs on ``form`` of the search (one of :data:`FORMS`) inside the block."""
    if form == "source" and solver.COMPILED:
        compiled = solver._impl
        solver._impl = source_form("moonrules.analysis.search")
        try:
            yield form
        finally:
            solver._impl = compiled
    else:
        yield form


@pytest.fixture(autouse=True, scope="module", params=FORMS)
def search_form(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the module's tests on one form of the search (module scope: Hypothesis-safe)."""
    with search_in(request.param) as form:
        yield form


def test_the_form_under_test_is_the_one_running(search_form: str) -> None:
    assert is_compiled(solver._impl) == (search_form == "compiled")


PLAY_PRESETS = [
    "standard",
    "partnership",
    "lead-trump",
    "no-double-blank",
    "pagat",
    "partnership-min3",
]
"""Presets whose play differs: players, tile set, first-lead rule, trump choices, widow timing."""


def opening(preset: str, seed: int, choices: int) -> GameState:
    """The first play-phase state of a game: seeded deal, random calls, discard and trump.

    Thrown-in hands are skipped (the next hand is dealt and bid).
    """
    state = play_until(new_game(preset, seed=seed), random.Random(choices), _in_play)
    assert state is not None
    return state


def _in_play(state: GameState) -> bool:
    return state.phase is Phase.PLAY


def tricks_left(state: GameState) -> int:
    h = state.hand
    return h.hands[(h.leader + len(h.trick)) % state.rules.players].bit_count()


def play_to(state: GameState, rng: random.Random, max_left: int, extra: int) -> GameState:
    """Random legal plays until at most ``max_left`` tricks are left, then ``extra`` more
    plays, never past the hand's last play."""
    number = state.hand_number
    while tricks_left(state) > max_left or extra > 0:
        if tricks_left(state) <= max_left:
            extra -= 1
        child = random_step(state, rng)
        if child.phase is not Phase.PLAY or child.hand_number != number:
            break
        state = child
    return state


def bidder_side_to_act(state: GameState) -> bool:
    rules = state.rules
    to_act = state.to_act
    assert to_act is not None and state.bidder is not None
    return rules.side_of(to_act) == rules.side_of(state.bidder)


def child_value(state: GameState, tile_play: Play) -> int:
    """The minimax value after one play (the hand's total if that play ends it)."""
    child = apply(state, tile_play)
    if child.phase is Phase.PLAY and child.hand_number == state.hand_number:
        return solve_minimax(child)
    hand = child.history[-1] if child.hand_number != state.hand_number else child.hand
    rules = state.rules
    assert state.bidder is not None
    side = rules.side_of(state.bidder)
    return sum(w for s, w in enumerate(hand.tricks_won) if rules.side_of(s) == side)


def check_position(state: GameState, *, children: bool = True) -> int:
    """solve == solve_minimax, and play_values agrees with it and with each child."""
    expected = solve_minimax(state)
    assert solve(state) == expected
    values = play_values(state)
    assert set(values) == set(tiles_of(legal_play_mask(state)))
    best = max(values.values()) if bidder_side_to_act(state) else min(values.values())
    assert best == expected
    if children:
        for t, v in values.items():
            assert v == child_value(state, Play(t)), t
    return expected


@st.composite
def endgames(draw: st.DrawFn) -> GameState:
    """A play-phase position with at most three tricks left."""
    preset = draw(st.sampled_from(PLAY_PRESETS))
    seed = draw(st.integers(0, 2**32 - 1))
    choices = draw(st.integers(0, 2**32 - 1))
    plays = draw(st.integers(0, 2**32 - 1))
    max_left = draw(st.integers(1, 3))
    extra = draw(st.integers(0, 3))
    state = opening(preset, seed, choices)
    return play_to(state, random.Random(plays), max_left, extra)


@settings(max_examples=4000 if DEEP else 400, deadline=None)
@given(endgames(), st.integers(0, 2**32 - 1))
def test_solver_agrees_with_minimax_in_endgames(state: GameState, line: int) -> None:
    """At a position with ≤3 tricks left and at every position of a random line from it."""
    assert tricks_left(state) <= 3
    rng = random.Random(line)
    number = state.hand_number
    while True:
        check_position(state)
        child = random_step(state, rng)
        if child.phase is not Phase.PLAY or child.hand_number != number:
            break
        state = child


def test_positions_with_four_tricks_left() -> None:
    """Deeper positions, where the bounds and merged tiles have more to do."""
    count = 400 if DEEP else 40
    for k in range(count):
        preset = PLAY_PRESETS[k % len(PLAY_PRESETS)]
        state = opening(preset, 1000 + k, k)
        state = play_to(state, random.Random(k), 4, k % state.rules.players)
        check_position(state, children=not state.rules.partnership)


def test_opening_play_values_follow_the_first_lead_rule() -> None:
    """LEAD-2: at the first lead only trumps are offered when the leader holds one."""
    for seed in range(20):
        state = opening("lead-trump", seed, seed)
        assert set(play_values(state)) == set(tiles_of(legal_play_mask(state)))


def test_minimax_memo_changes_nothing() -> None:
    for k in range(10):
        preset = PLAY_PRESETS[k % len(PLAY_PRESETS)]
        state = play_to(opening(preset, 500 + k, k), random.Random(k), 3, 0)
        assert solve_minimax(state) == solve_minimax(state, memo=True)


def test_shared_and_tiny_caches_give_the_same_values() -> None:
    """A cache shared between positions of one hand, or one that keeps emptying itself."""
    for k in range(8):
        preset = PLAY_PRESETS[k % len(PLAY_PRESETS)]
        state = opening(preset, 200 + k, k)
        state = play_to(state, random.Random(k), 4, 0)
        shared = SolverCache()
        tiny = SolverCache(max_entries=4)
        rng = random.Random(k)
        number = state.hand_number
        while state.phase is Phase.PLAY and state.hand_number == number:
            expected = solve(state)
            assert solve(state, shared) == expected
            assert solve(state, tiny) == expected
            assert len(tiny) <= 4
            state = random_step(state, rng)


def test_a_cache_moves_on_to_another_hand() -> None:
    cache = SolverCache()
    for seed in range(6):
        preset = "partnership" if seed % 2 else "standard"
        state = play_to(opening(preset, seed, seed), random.Random(seed), 3, 0)
        assert solve(state, cache) == solve_minimax(state)


def test_tricks_already_won_count() -> None:
    state = play_to(opening("standard", 11, 11), random.Random(11), 2, 0)
    assert state.bidder is not None
    won = state.tricks_won[state.bidder]
    assert won <= solve(state) <= won + tricks_left(state)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_only_play_phase_positions(preset: str) -> None:
    state = new_game(preset, seed=1)
    with pytest.raises(ValueError, match="play phase"):
        solve(state)
    with pytest.raises(ValueError, match="play phase"):
        play_values(state)
    with pytest.raises(ValueError, match="play phase"):
        solve_minimax(state)


def test_every_preset_solves_from_the_opening_lead() -> None:
    for preset in sorted(PRESETS):
        state = opening(preset, 42, 42)
        value = solve(state)
        assert 0 <= value <= 7
        assert value == (max if bidder_side_to_act(state) else min)(play_values(state).values())
