"""``pimc``: plain Perfect Information Monte Carlo over the double-dummy solver.

This is the first ``strong`` bot, kept unchanged as the baseline that every
later bot is measured against (``moonrules match --duplicate --bots strong,pimc``).
For each decision the bot draws deals of the tiles it cannot see, uniformly
among those consistent with everything its seat knows (:mod:`moonrules.bots.sampling`:
the tiles played, the suits each seat has shown out of, the widow and the
discard where the seat knows them), builds the position of each deal
(:mod:`moonrules.bots.worlds`) and solves it with
:func:`~moonrules.analysis.solver.play_values` or
:func:`~moonrules.analysis.solver.solve`. Each action is scored by the points
it brings the seat's side on average over the deals (the bid won or lost, by
whether the double-dummy trick count makes it), and the best is chosen.

* **Play**: every legal tile, scored over ``samples`` deals.
* **Bid**: for the ``candidates`` best trumps by the basic estimate, the
  double-dummy tricks of the seat as bidder (basic discard) over
  ``bid_samples`` deals of the other hands and the widow; the bid with the best
  expected score is made if that score reaches ``pass_margin``, else a pass.
* **Discard and trump**: each candidate (discard, trump) scored the same way
  over the same deals.

Known weaknesses of PIMC, and what is done about them: *strategy fusion*
(each deal is solved as if the bot would then know every tile, so the average
overrates lines that need a guess the bot cannot make; nothing is done about it
in the play, and the bidding asks ``pass_margin`` of the expected score to
cover the optimism); *non-locality* (each deal is solved on its own, not as
part of the set of deals a player cannot tell apart, so the opponents are
assumed to play as if they could see the bot's tiles); and *no inference*
(deals are drawn uniformly among the consistent ones: the auction and the
choice of plays are not read as signals of strength).

``samples`` and ``bid_samples`` bound the deals per decision; ``node_budget``
(solver nodes, deterministic) and ``time_budget`` (seconds of wall clock; the
play then depends on the machine's speed) stop early. At least one deal is
always solved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import ClassVar

import attrs

from moonrules.bots.base import Knowledge, knowledge
from moonrules.bots.sampled import Budget, SampledSearch
from moonrules.bots.sampling import Sampler
from moonrules.bots.worlds import world
from moonrules.game import Action, Bid, GameState, Pass, PlayerView
from moonrules.rules.auction import MOON
from moonrules.rules.ruleset import RuleSet, Scoring

__all__ = ["PimcBot", "contract_points"]


def contract_points(rules: RuleSet, bid: int, tricks: int) -> float:
    """What the bidder's side gains by ending the hand with ``tricks`` on a bid of ``bid``.

    The bid won or lost (SCORE-1, SCORE-2), or one mark under SCORE-6; plus a
    hundredth of a point per trick, so that among equally scoring plays the one
    with more tricks wins.
    """
    need = 7 if bid == MOON else bid
    stake = 1.0 if rules.scoring is Scoring.MARKS else float(bid)
    return (stake if tricks >= need else -stake) + 0.01 * tricks


@attrs.frozen(slots=True)
class PimcBot(SampledSearch):
    """PIMC over the double-dummy solver (see the module for the method and its limits)."""

    samples: int = 16
    """Deals drawn per play decision."""
    bid_samples: int = 8
    """Deals drawn per bid, discard or trump decision."""
    candidates: int = 2
    """Trumps weighed per bid or trump decision (the best by the basic estimate)."""
    discards: int = 2
    """Discards weighed per trump (the least valuable tiles)."""
    pass_margin: float = 1.0
    """The expected score (points) a bid must reach to be made rather than passing."""
    partner_discount: int = 1
    """Tricks taken off each double-dummy count when bidding with a partner, whose tiles
    double dummy lets the bidder see."""
    hopeless: float = 1.5
    """Pass without sampling when the basic estimate plus this is below the lowest bid open."""
    time_budget: float | None = None
    """Seconds per decision after which no more deals are drawn (``None``: no limit)."""
    node_budget: int | None = 60_000
    """Solver nodes per decision after which no more deals are drawn (``None``: no limit)."""

    name: ClassVar[str] = "pimc"

    # the search (the dispatch by phase, the play, the discard and trump) is
    # SampledSearch's, shared with strong; pimc says how it draws deals and values tricks

    def _states(self, view: PlayerView, rng: random.Random, budget: Budget) -> Iterator[GameState]:
        know: Knowledge = knowledge(view)
        sampler = Sampler(know)
        done = 0
        while budget.more(done):
            hands, extra = sampler.draw(rng)
            yield world(view, know, hands, extra)
            done += 1
            if sampler.count == 1:
                return

    def _play_worth(self, view: PlayerView) -> Callable[[int], float]:
        assert view.bidder is not None and view.bid is not None
        rules = view.rules
        sign = 1.0 if rules.side_of(view.seat) == rules.side_of(view.bidder) else -1.0
        bid = view.bid
        return lambda v: sign * contract_points(rules, bid, v)

    def _contract_worth(self, view: PlayerView) -> Callable[[int], float]:
        rules, bid = view.rules, view.bid or 0
        return lambda v: contract_points(rules, bid, v)

    # -- auction --------------------------------------------------------

    def _call(self, view: PlayerView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        weighed = self._call_trumps(view, legal)
        if weighed is None:
            return Pass()
        bids, can_pass, trumps = weighed
        rules = view.rules
        tricks = self._contract_tricks(
            view, rng, [(t, None) for t in trumps], self.bid_samples, bid=bids[0]
        )
        discount = self.partner_discount if rules.partnership else 0
        best_bid, best_score = bids[0], float("-inf")
        for b in bids:
            for values in tricks.values():
                score = sum(contract_points(rules, b, v - discount) for v in values) / len(values)
                if score > best_score:
                    best_bid, best_score = b, score
        if can_pass and best_score < self.pass_margin:
            return Pass()
        return Bid(best_bid)
