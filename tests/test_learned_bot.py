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
from moonrules.rules.tiles import mask_of


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


def _late(seed: int) -> tuple[m.PlayerView, m.PlayerView]:
    """The first caller's view of a seeded deal at 2-2-2, and the same view with the next
    seat at 19 of 21 (a hand that may end the game)."""
    state = new_game("standard", seed=seed)
    v = view(state, state.first_bidder)
    scores = [2, 2, 2]
    scores[(v.seat + 1) % 3] = 19
    return attrs.evolve(v, scores=(2, 2, 2)), attrs.evolve(v, scores=tuple(scores))


def test_late_calls_must_be_one_of_the_three() -> None:
    with pytest.raises(ValueError, match="late_calls"):
        LearnedBot(late_calls="pimc")


@pytest.mark.parametrize("seed", [2, 7, 8, 10])
def test_late_calls_by_the_models_are_the_calls_of_earlier_in_the_game(seed: int) -> None:
    """``late_calls="models"``: a hand that may end the game is called as at other scores
    (relative points); ``late_calls="strong"`` leaves the call to ``strong``."""
    early, late = _late(seed)
    value = HandValue.for_hand(
        late.rules, late.seat, late.scores, late.tricks_won, late.first_bidder
    )
    assert value.by_game
    rng = random.Random
    assert LearnedBot(late_calls="models").act(late, rng(1)) == LearnedBot().act(early, rng(1))
    assert LearnedBot(late_calls="strong").act(late, rng(1)) == StrongBot().act(late, rng(1))


@pytest.mark.parametrize("seed", [2, 7, 8, 10])
def test_late_calls_by_the_game_weigh_each_call_by_the_chance_to_win(seed: int) -> None:
    """``late_calls="game"`` (the default): each bid is worth the models' chances of each
    number of tricks times the chance to win the game after it; a pass,
    :meth:`HandValue.passing`."""
    from moonrules.bots.auction_value import models

    _, late = _late(seed)
    value = HandValue.for_hand(
        late.rules, late.seat, late.scores, late.tricks_won, late.first_bidder
    )
    chances = models().trick_chances(mask_of(late.hand), late.rules, 0, ())
    worth: dict[m.Action, float] = {Pass(): value.passing(())}
    for b in (*late.rules.bids, 21):
        worth[Bid(b)] = max(
            sum(float(p[k]) * value(late.seat, b, k) for k in range(8)) for p in chances.values()
        )
    assert all(0.0 <= w <= 1.0 for w in worth.values())
    call = LearnedBot().act(late, random.Random(1))
    assert worth[call] == max(worth.values())


def test_passing_is_valued_by_the_hands_the_calls_leave_possible() -> None:
    """After two passes the last seat's pass throws the hand in; after a bid, a pass leaves
    that bid or a higher one by a later seat, and is worth less to the seat the more points
    the others then score."""
    rules = m.rules_by_name("standard")
    early = HandValue.for_hand(rules, 2, (0, 0, 0), (0, 0, 0), 0)
    assert not early.by_game
    assert early.passing((0, 0)) == early.thrown_in() == 0.0
    assert early.passing((4, 0)) < 0  # the bidder mostly makes its bid: a defender loses ground
    late = HandValue.for_hand(rules, 2, (19, 2, 2), (0, 0, 0), 0)
    assert late.by_game and late.passing((0, 0)) == late.thrown_in()
    assert 0.0 < late.passing((5, 0)) < late.thrown_in()
