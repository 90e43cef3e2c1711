"""Drawing a whole game state from what one seat knows: the hidden tiles guessed, uniformly.

Search over imperfect information (IS-MCTS, PIMC, belief-based learning) needs, at a
seat's decision, full states that the seat cannot tell apart from the real one.
:func:`resample` draws one: the tiles the seat does not see are dealt to the other
seats (and to the widow, or another bidder's discard) uniformly among the deals
consistent with everything in the seat's :class:`~moonrules.game.views.PlayerView` —
how many tiles each seat holds, the suits each has shown out of (FOLLOW-1,
FOLLOW-2), a first leader's missing trumps (LEAD-2), the widow and the discard where
the seat knows them. The auction, trump and plays of the view are then replayed with
:func:`~moonrules.game.play.apply`, so the state is one the game can reach, and
``view(resample(v, rng), v.seat) == v``.

Every consistent deal is equally likely: the auction and the plays are not read as
signals of what a seat holds. The draws come from ``rng`` alone.

The public place to import it from is :mod:`moonrules.bots.resample`, which re-exports it;
it lives here, below the bots, so that lower layers (the engine) can draw worlds too.

>>> import random
>>> from moonrules import new_game, view
>>> state = new_game("standard", seed=5)
>>> seen = view(state, 1)
>>> guess = resample(seen, random.Random(0))
>>> view(guess, 1) == seen, guess.hands[1] == state.hands[1]
(True, True)
>>> consistent_deals(seen)  # the 15 tiles seat 1 does not see, 7 + 7 + 1
51480
"""

from __future__ import annotations

import random

from moonrules.game.knowledge import knowledge
from moonrules.game.sampling import Sampler
from moonrules.game.state import Game, GameState, make_contract, make_hand
from moonrules.game.views import PlayerView
from moonrules.game.worlds import world
from moonrules.rules.errors import wrong_type

__all__ = ["consistent_deals", "resample"]

_SEED_BITS = 63
"""A resampled state's seed (for the deals of the hands after this one) has this many bits."""


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise wrong_type("view", "a PlayerView (moonrules.view(state, seat))", view)
    if view.is_over:
        raise ValueError("view: the game is over; there is nothing left to guess")
    return view


def _sampler(view: PlayerView) -> Sampler:
    try:
        return Sampler(knowledge(view))
    except ValueError:
        raise ValueError("view: no deal of the hidden tiles is consistent with it") from None


def consistent_deals(view: PlayerView) -> int:
    """How many deals of the tiles ``view``'s seat cannot see agree with the view."""
    return _sampler(_check_view(view)).count


def resample(view: PlayerView, rng: random.Random) -> GameState:
    """A state the seat of ``view`` cannot tell from the real one, drawn uniformly with ``rng``.

    The hand in progress is the view's, with the hidden tiles dealt at random; the scores
    and the hand number are the view's. What the view does not hold is not invented:
    the state has no earlier hands (``history`` is empty), and its seed, which deals the
    hands after this one, is drawn from ``rng``. ``ValueError`` for a finished game.
    """
    _check_view(view)
    if not isinstance(rng, random.Random):
        raise wrong_type("rng", "a random.Random", rng)
    know = knowledge(view)
    sampler = _sampler(view)
    hands, extra = sampler.draw(rng)
    state = world(view, know, hands, extra)
    c = state.hand.contract
    h = state.hand
    contract = make_contract(
        view.hand_number,
        c.first_bidder,
        c.deal,
        c.widow,
        c.calls,
        c.bidder,
        c.bid,
        c.discard,
        c.trump,
        c.widow_taken,
    )
    hand = make_hand(
        contract,
        h.hands,
        h.phase,
        h.leader,
        h.trick,
        h.tricks,
        h.tricks_won,
        h.deltas,
        h.renege,
        h.claim,
    )
    game = Game(view.rules, rng.getrandbits(_SEED_BITS), view.scores)
    return GameState(game, hand)
