"""``learned``: ``strong`` whose calls come from the learned value of the auction.

Each call is valued with the models of :mod:`moonrules.bots.auction_value`, trained on
tens of thousands of deals labelled by the double-dummy solver
(:mod:`moonrules.bots.train`), in place of a few sampled deals:

* a **bid** of ``b`` is worth, under the best of the hand's candidate trumps, the mean
  over the tricks model's chances of 0 … 7 tricks of what ending the hand with that
  many tricks on ``b`` is worth to the seat (:class:`~moonrules.bots.value.HandValue`,
  score-aware as ``strong``: in relative points, or by the chance to win the game when
  this hand may end it);
* a **pass** is worth what the defence model expects the seat to score defending (or
  nothing when the hand is thrown in); in a hand that may end the game, the chance to
  win after the results the calls leave possible
  (:meth:`~moonrules.bots.value.HandValue.passing`).

The bidder's **discard and trump** come from the hand-choice model
(:mod:`moonrules.bots.hand_choice`): every discard under every trump weighed by its chances
of each number of tricks. The play is ``strong``'s, and so are the calls, the discard and
the trump where the models do not apply: rules other than the three-player standard rules
they were trained on. The bot reads only its seat's view. It needs numpy (the ``[batch]``
or ``[train]`` extra), to read the trees.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

import attrs

from moonrules.bots.base import call_value, view_legal_actions
from moonrules.bots.strong import StrongBot
from moonrules.bots.value import HandValue
from moonrules.game import Action, Bid, Discard, NameTrump, Pass, Phase, PlayerView
from moonrules.rules.auction import PASS
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.tiles import mask_of

if TYPE_CHECKING:
    from moonrules.bots.auction_value import Models

__all__ = ["LearnedBot", "trained_for"]

_TRAINED = as_rules("standard")

LATE_CALLS = ("strong", "models", "game")
"""The choices of :attr:`LearnedBot.late_calls`."""


def trained_for(rules: RuleSet) -> bool:
    """Whether the models apply to ``rules`` (they were trained on the standard rules; the
    target and the tie rule do not change a hand's value in relative points)."""
    return attrs.evolve(rules, target=_TRAINED.target, tie=_TRAINED.tie) == _TRAINED


@attrs.frozen(slots=True)
class LearnedBot:
    """``strong`` with its calls valued by the learned models (see the module)."""

    strong: StrongBot = attrs.field(factory=StrongBot)
    """The bot that discards, names trump and plays, and calls where the models do not apply."""
    bid_margin: float = 0.0
    """What a bid must be worth over passing, in relative points."""
    moon_points: float | None = 21.0
    """What a made 21 is worth in the calls, in relative points (``None``: ``strong``'s
    score-aware worth of a game won, about 28 at the start of a game; measured, 21s bid at
    that worth lost points: they were set nearly half the time)."""
    models_file: str | None = None
    """The npz file of the models (written by ``python -m moonrules.bots.train fit``);
    ``None``: the shipped ones. For measuring a candidate model against the shipped one."""
    correction: str | None = None
    """The correction of the tricks model's double-dummy chances to tricks taken in play
    (:class:`~moonrules.bots.auction_value.Correction`): ``"shipped"`` for the shipped one
    (``auction_correction.npz``), the path of an npz written by ``python -m
    moonrules.bots.train correct``, or ``None`` (the default) for none: measured, the shipped
    correction called no better (the bots guide)."""

    late_calls: str = attrs.field(default="game", validator=attrs.validators.in_(LATE_CALLS))
    """How a hand that may end the game (a side within reach of the target) is called:
    ``"game"`` (the default), the models' chances of each number of tricks valued by the
    chance to win the game, a pass by :meth:`~moonrules.bots.value.HandValue.passing`;
    ``"strong"``, by ``strong`` (its sampled, score-aware calls); or ``"models"``, the
    models valued in relative points as earlier in the game (measured in the bots guide:
    ``"game"`` won most whole games)."""
    hand_choice: bool = True
    """Whether the bidder's discard and trump come from the learned hand-choice model
    (:mod:`moonrules.bots.hand_choice`) where it applies, else ``strong``'s (measured in the
    bots guide)."""

    name: ClassVar[str] = "learned"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if (
            self.hand_choice
            and view.phase in (Phase.DISCARD, Phase.TRUMP)
            and view.bidder == view.seat
            and trained_for(view.rules)
        ):
            return self._discard_or_trump(view)
        if view.phase is Phase.BIDDING and trained_for(view.rules):
            legal = view_legal_actions(view)
            if len(legal) > 1:
                value = HandValue.for_hand(
                    view.rules, view.seat, view.scores, view.tricks_won, view.first_bidder
                )
                if value.by_game and self.late_calls == "models":
                    value = HandValue.for_hand(
                        view.rules,
                        view.seat,
                        view.scores,
                        view.tricks_won,
                        view.first_bidder,
                        score_aware=False,
                    )
                if not value.by_game or self.late_calls == "game":
                    if not value.by_game and self.moon_points is not None:
                        value = attrs.evolve(value, moon_points=self.moon_points)
                    # numpy (the [batch] or [train] extra) is needed only here
                    from moonrules.bots.auction_value import models

                    m = models(self.models_file, self.correction)
                    return self._call(view, legal, value, m)
        return self.strong.act(view, rng)

    def _discard_or_trump(self, view: PlayerView) -> Action:
        """The bidder's discard, or trump, by the hand-choice model: the option whose chances
        give the contract the most worth, valued as the calls value it."""
        # numpy (the [batch] or [train] extra) is needed only here
        from moonrules.bots.hand_choice import learned_discard_and_trump

        value = HandValue.for_hand(
            view.rules, view.seat, view.scores, view.tricks_won, view.first_bidder
        )
        if not value.by_game and self.moon_points is not None:
            value = attrs.evolve(value, moon_points=self.moon_points)
        tile, trump = learned_discard_and_trump(view, value=value)
        return Discard(tile) if view.phase is Phase.DISCARD else NameTrump(trump)

    def _call(
        self, view: PlayerView, legal: tuple[Action, ...], value: HandValue, m: Models
    ) -> Action:
        """The call worth most to the seat under the models."""
        rules = view.rules
        seat = view.seat
        held = mask_of(view.hand)
        position = (seat - view.first_bidder) % rules.players
        calls = tuple(call_value(c) for c in view.calls)
        chances = m.trick_chances(held, rules, position, calls)
        best, best_score = PASS, float("-inf")
        if any(isinstance(a, Pass) for a in legal):
            if value.by_game:
                best_score = value.passing(calls)
            else:
                best_score = m.defence_value(held, rules, position, calls)
        for a in legal:
            if not isinstance(a, Bid):
                continue
            worth = [value(seat, a.amount, k) for k in range(8)]
            score = max(float(p @ worth) for p in chances.values()) - self.bid_margin
            if score > best_score:
                best, best_score = a.amount, score
        return Pass() if best == PASS else Bid(best)
