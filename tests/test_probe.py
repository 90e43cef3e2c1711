""":mod:`moonrules.analysis.probe`: answers learned probe by probe equal the solver's.

Over every position of hands played at random (three players and partnerships), each
answer of :class:`Tricks` (a bound asked, the value) and of :func:`play_reaches` is
checked against :func:`~moonrules.analysis.solver.solve` and
:func:`~moonrules.analysis.solver.play_values`; :func:`most_tricks` against the largest
solve of several positions.
"""

from __future__ import annotations

import random

import pytest

import moonrules as m
from moonrules.analysis.advise import bidder_state, sample_deal
from moonrules.analysis.probe import Tricks, most_tricks, play_reaches, play_tricks
from moonrules.analysis.solver import SolverCache, play_values, solve
from moonrules.game import Phase


def positions(rules: str, seed: int) -> list[m.GameState]:
    """Every play-phase position of one hand played at random."""
    rng = random.Random(seed)
    s = m.new_game(rules, seed=seed)
    while s.phase is not Phase.PLAY:
        s = m.apply(s, rng.choice(m.legal_actions(s)))
    out = []
    number = s.hand_number
    while s.phase is Phase.PLAY and s.hand_number == number:
        out.append(s)
        s = m.apply(s, rng.choice(m.legal_actions(s)))
    return out


@pytest.mark.parametrize("rules", ["standard", "partnership"])
@pytest.mark.parametrize("seed", range(6))
def test_each_answer_is_the_solvers(rules: str, seed: int) -> None:
    rng = random.Random(seed)
    shared = SolverCache(1 << 12)
    for s in positions(rules, seed):
        v = solve(s)
        asked = [rng.randint(-1, 8) for _ in range(3)]
        t = Tricks(s, shared if seed % 2 else None)
        for k in asked:
            assert t.at_least(k) == (v >= k), (k, v)
            assert t.lo <= v <= t.hi
        assert t.value() == v
        assert t.lo == t.hi == v
        k = rng.randint(0, 7)
        values = play_values(s)
        assert play_reaches(s, k, shared) == {a: b >= k for a, b in values.items()}
        assert play_tricks(s, shared if seed % 2 else None) == values


def test_the_most_tricks_of_several_positions() -> None:
    rules = m.rules_by_name("partnership")
    for k in range(12):
        deal = sample_deal(rules, rules.tile_set.mask & 0x7F, 5, k)
        states = [bidder_state(rules, deal, k % 4, t.value) for t in rules.trumps[: 2 + k % 3]]
        assert most_tricks([Tricks(s) for s in states]) == max(solve(s) for s in states)


def test_a_position_it_cannot_take_is_refused() -> None:
    with pytest.raises(ValueError, match="play phase"):
        Tricks(m.new_game(seed=1))
    with pytest.raises(TypeError):
        Tricks("a state")  # type: ignore[arg-type]
