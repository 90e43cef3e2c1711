"""The hot paths' private constructors and shuffle build exactly what the plain ones do."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonrules import PRESETS, new_game, seeded_deal
from moonrules.game import (
    Contract,
    GameState,
    Hand,
    Phase,
    Trick,
    _contract,
    _hand,
    _positional_builder,
    _shuffled,
    _state,
    _trick,
)
from moonrules.tiles import TILES, Tile


def test_a_class_whose_init_does_more_gets_no_builder() -> None:
    """The builders skip ``__init__``, so a class with validators or a post-init is refused."""
    with pytest.raises(TypeError, match="Tile needs its own __init__"):
        _positional_builder(Tile)


def test_fast_constructors_equal_the_classes_own() -> None:
    state = new_game("standard", seed=7)
    cargs = (3, 1, (1, 2, 4), 5, (0, 4), 2, 4, 6, 3, True)
    c = _contract(*cargs)
    assert c == Contract(*cargs) and repr(c) == repr(Contract(*cargs))
    args = (c, (1, 2, 4), Phase.PLAY, 2, (3,), (), (1, 0, 2), (4, -1, 0), 1)
    hand = _hand(*args)
    assert hand == Hand(*args) and hash(hand) == hash(Hand(*args))
    assert repr(hand) == repr(Hand(*args))
    for field, value in zip(attrs.fields(Hand), args, strict=True):
        assert getattr(hand, field.name) is value
    gargs = (state.rules, 9, (1, 2, 3), hand, (state.hand,), 2)
    assert _state(*gargs) == GameState(*gargs)
    for field, value in zip(attrs.fields(GameState), gargs, strict=True):
        assert getattr(_state(*gargs), field.name) is value
    assert _trick(2, TILES[:3], 1) == Trick(2, TILES[:3], 1)
    # Still frozen.
    try:
        hand.leader = 0  # type: ignore[misc]
    except attrs.exceptions.FrozenInstanceError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a hand built by _hand could be changed")


@given(st.integers(), st.integers(1, 60), st.sampled_from(sorted(PRESETS)))
def test_the_deal_shuffle_is_random_shuffle(seed: int, number: int, preset: str) -> None:
    """DEAL-1: the written-out shuffle draws exactly as ``random.shuffle`` of CPython 3.11-3.13."""
    rules = PRESETS[preset]
    expected = [t.index for t in rules.tile_set.tiles]
    random.Random(f"moonrules/deal/{seed}/{number}").shuffle(expected)
    assert _shuffled(rules, seed, number) == expected
    deal = seeded_deal(rules, seed, number)
    assert [tuple(t.index for t in h) for h in deal.hands] == [
        tuple(sorted(expected[7 * s : 7 * s + 7])) for s in range(rules.players)
    ]
