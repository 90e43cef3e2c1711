"""The public resampler (moonrules.bots.resample): states a seat cannot tell from the real one."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_encoding import states

from moonrules import GameState, Phase, apply, legal_actions, new_game, view
from moonrules.bots.resample import consistent_deals, resample


@given(states(), st.integers(0, 2**32))
def test_a_resampled_state_replays_to_the_same_view(s: GameState, seed: int) -> None:
    if s.is_over:
        return
    rng = random.Random(seed)
    for seat in range(s.rules.players):
        v = view(s, seat)
        guess = resample(v, rng)
        assert view(guess, seat) == v
        assert guess.rules == s.rules and guess.scores == s.scores
        assert guess.hand_number == s.hand_number and guess.history == ()
        if seat == s.to_act:
            assert legal_actions(guess) == legal_actions(s)
        # the state goes on like any other: play it to the end of the hand
        number = guess.hand_number
        while not guess.is_over and guess.hand_number == number:
            guess = apply(guess, rng.choice(legal_actions(guess)))


def test_the_same_generator_draws_the_same_state() -> None:
    v = view(new_game("partnership", seed=9), 2)
    assert resample(v, random.Random(4)) == resample(v, random.Random(4))
    draws = {resample(v, random.Random(k)).hands for k in range(20)}
    assert len(draws) == 20  # 21 hidden tiles dealt 7-7-7: repeats are all but impossible


def _late_view(preset: str, seed: int, seat: int) -> object:
    """A view in the play, late enough that few deals of the hidden tiles remain."""
    s = new_game(preset, seed=seed)
    rng = random.Random(seed)
    while s.phase is not Phase.PLAY or len(s.tricks) < 5 or s.to_act != seat:
        s = apply(s, rng.choice(legal_actions(s)))
        if s.is_over or s.hand_number > 1:
            return None
    return view(s, seat)


@pytest.mark.parametrize("preset", ["standard", "partnership"])
def test_every_consistent_deal_is_drawn_about_equally_often(preset: str) -> None:
    """Late in a hand the consistent deals can be counted; each is drawn, none favoured."""
    found = None
    for seed in range(200):
        for seat in range(4 if preset == "partnership" else 3):
            v = _late_view(preset, seed, seat)
            if v is not None and 3 <= consistent_deals(v) <= 30:  # type: ignore[arg-type]
                found = v
                break
        if found is not None:
            break
    assert found is not None
    count = consistent_deals(found)  # type: ignore[arg-type]
    rng = random.Random(1)
    draws = 200 * count
    seen = Counter(resample(found, rng).hand for _ in range(draws))  # type: ignore[arg-type]
    assert len(seen) == count
    # each deal is drawn 200 times on average; 6 standard deviations either side
    assert all(200 - 6 * 200**0.5 < c < 200 + 6 * 200**0.5 for c in seen.values())


def test_bad_arguments_name_the_parameter() -> None:
    s = new_game(seed=1)
    with pytest.raises(TypeError, match=r"^view: "):
        resample(s, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rng: "):
        resample(view(s, 0), 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^view: "):
        consistent_deals(None)  # type: ignore[arg-type]
    rng = random.Random(0)
    while not s.is_over:
        s = apply(s, rng.choice(legal_actions(s)))
    with pytest.raises(ValueError, match=r"^view: the game is over"):
        resample(view(s, 0), rng)


def test_the_bots_and_the_game_share_one_resampler() -> None:
    """The resampler lives in ``moonrules.game`` (so the engine, below the bots, can draw
    worlds); the bots' modules re-export the very same objects, not copies that could drift
    apart, and draw the same state from the same generator."""
    import moonrules.bots.base as bots_base
    import moonrules.bots.resample as bots_resample
    import moonrules.bots.sampling as bots_sampling
    import moonrules.bots.worlds as bots_worlds
    import moonrules.game.knowledge as game_knowledge
    import moonrules.game.resample as game_resample
    import moonrules.game.sampling as game_sampling
    import moonrules.game.worlds as game_worlds

    pairs = [
        (bots_base, game_knowledge, ("Knowledge", "knowledge")),
        (bots_sampling, game_sampling, ("Sampler",)),
        (bots_worlds, game_worlds, ("complete_contract", "world")),
        (bots_resample, game_resample, ("consistent_deals", "resample")),
    ]
    for old, new, names in pairs:
        for name in names:
            assert name in old.__all__ and name in new.__all__, (old.__name__, name)
            assert getattr(old, name) is getattr(new, name), (old.__name__, name)
    v = view(new_game("standard", seed=3), 0)
    assert game_resample.resample(v, random.Random(8)) == resample(v, random.Random(8))
