"""The ``learned`` bot's discard and trump: the hand-choice model's where it applies
(:mod:`moonrules.bots.hand_choice`), else ``strong``'s."""

from __future__ import annotations

import random

import attrs
import pytest

pytest.importorskip("numpy", reason="the learned bot reads its trees with numpy (extra [batch])")

import moonrules as m
from moonrules.bots.hand_choice import learned_discard_and_trump
from moonrules.bots.learned import LearnedBot
from moonrules.bots.strong import StrongBot
from moonrules.bots.value import HandValue
from moonrules.game import Bid, Discard, NameTrump, Pass, Phase, apply, new_game, view


def _contract(rules: str, seed: int, bid: int = 5) -> m.GameState:
    """The first hand of a seeded game, the first bidder's ``bid`` won, the others passing:
    at its discard (or, without a widow to take first, its trump)."""
    state = new_game(rules, seed=seed)
    state = apply(state, Bid(bid))
    while state.phase is Phase.BIDDING:
        state = apply(state, Pass())
    return state


@pytest.mark.parametrize("seed", range(4))
def test_the_bidders_discard_and_trump_are_the_models(seed: int) -> None:
    state = _contract("standard", seed)
    assert state.phase is Phase.DISCARD
    seat = state.to_act
    v = view(state, seat)
    value = HandValue.for_hand(v.rules, seat, v.scores, v.tricks_won, v.first_bidder)
    tile, trump = learned_discard_and_trump(v, value=attrs.evolve(value, moon_points=21.0))
    assert LearnedBot().act(v, random.Random(1)) == Discard(tile)
    after = apply(state, Discard(tile))
    assert LearnedBot().act(view(after, seat), random.Random(1)) == NameTrump(trump)


@pytest.mark.parametrize("rules", ["standard", "pagat"])
def test_without_the_model_the_discard_and_trump_are_strongs(rules: str) -> None:
    """``hand_choice=False``, and rules the model was not trained on (pagat: the widow after
    trump), leave the choice to ``strong``, decided the same from the same random numbers."""
    state = _contract(rules, 2)
    seat = state.to_act
    v = view(state, seat)
    bots = [LearnedBot(hand_choice=False)] + ([LearnedBot()] if rules == "pagat" else [])
    for bot in bots:
        assert bot.act(v, random.Random(3)) == StrongBot().act(v, random.Random(3))
