"""Whole three-player hands from the opening lead: the solver against an exhaustive minimax.

The minimax of a whole hand takes seconds of a core, and it is the same number whatever
form of the search is installed (it does not use the search). So each hand's minimax is
computed once here, and the solver of every form installed (``test_solver.FORMS``: the
Python source, and the mypyc-compiled module when the install built it) is held to it in
the same test, instead of the minimax running again for each form under
``test_solver.py``'s module fixture.

``MOONRULES_DEEP=1`` runs a few hundred hands.
"""

from __future__ import annotations

import pytest
from depth import DEEP
from test_solver import FORMS, opening, search_in

from moonrules.analysis import solver
from moonrules.analysis.solver import SolverCache, play_values, solve, solve_minimax
from moonrules.kernel.compiled import is_compiled

# "a few hundred whole three-player hands": 302 under MOONRULES_DEEP=1 (about 2 s each)
WHOLE_HANDS = [("standard", s) for s in range(200)] + [
    (p, s) for p in ("lead-trump", "no-double-blank", "pagat") for s in range(34)
]

QUICK_WHOLE_HANDS = [("standard", 3), ("standard", 8), ("lead-trump", 5), ("no-double-blank", 7)]


@pytest.mark.parametrize(
    ("preset", "seed"),
    WHOLE_HANDS
    if DEEP
    # the first in the README's test command, the others in CI's step of slow checks
    else [QUICK_WHOLE_HANDS[0]]
    + [pytest.param(*c, marks=pytest.mark.slow) for c in QUICK_WHOLE_HANDS[1:]],
)
def test_whole_three_player_hands(preset: str, seed: int) -> None:
    """From the opening lead: the solver of each form against an exhaustive minimax.

    A plain minimax of a whole hand takes minutes, so this one remembers the
    value of each exact position at a trick boundary (``memo=True``); it still
    searches every legal play, and the values are the same.
    """
    state = opening(preset, seed, seed)
    assert not state.tricks and not state.trick
    expected = solve_minimax(state, memo=True)
    for form in FORMS:
        with search_in(form):
            assert is_compiled(solver._impl) == (form == "compiled")
            cache = SolverCache()
            assert solve(state, cache) == expected, form
            assert cache.nodes > 0
            values = play_values(state, cache)
            assert max(values.values()) == expected, form
    assert is_compiled(solver._impl) == solver.COMPILED  # the installed form is back
