"""``strong``: PIMC over the double-dummy solver, with inference and score-aware values.

Like ``pimc`` (:mod:`moonrules.bots.pimc`, the baseline it is measured against), the
bot draws deals of the tiles it cannot see, solves each double dummy
(:mod:`moonrules.analysis.solver`) and chooses the action that does best on average.
Three things differ (``docs/guides/bots.md`` gives what each gained in matches):

* **Inference** (:mod:`moonrules.bots.inference`): the deals are drawn in proportion to
  how likely the other seats' calls and the trump named are under a model of a
  competent player (:mod:`moonrules.bots.model`), not uniformly: a seat that bid
  holds strength, a bidder holds the trump it named. With ``play_inference`` the tiles
  the other seats played are read too, under a soft model of the basic bot's play.
* **Score-aware values** (:mod:`moonrules.bots.value`): the end of a hand is valued by
  what it gains the seat on the other sides (a defender's tricks are its points; a
  bidder's overtrick takes a point from the defenders), a made 21 that wins the game
  by what a game won is worth in points at the scores, and, when the hand may end the
  game (a side within reach of the target), by the chance to win the game.
* **The rest of the auction**: a call is valued by playing the auction out under the
  model of the other seats in each deal, so that passing is worth what the seat
  expects to score defending against whoever then wins the auction (or nothing when
  the hand is thrown in), and a bid counts the chance of being outbid.

* **Play**: every legal tile, scored over ``samples`` deals.
* **Bid**: for the ``candidates`` best trumps by the basic estimate, the double-dummy
  tricks of the seat as bidder (basic discard), and of each other seat that may win
  the auction with its likely trump, over ``bid_samples`` deals.
* **Discard and trump**: each candidate (discard, trump) over the same deals.

``samples`` and ``bid_samples`` bound the deals per decision; ``node_budget`` (solver
nodes, deterministic) and ``time_budget`` (seconds of wall clock; the play then depends
on the machine's speed) stop early. At least one deal is always solved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import ClassVar

import attrs

from moonrules.analysis.solver import SolverCache, solve
from moonrules.bots.base import Knowledge, call_value, knowledge
from moonrules.bots.basic import basic_discard, best_trumps
from moonrules.bots.inference import inferred_deals, open_calls
from moonrules.bots.model import call_chances, strength
from moonrules.bots.pimc import contract_points
from moonrules.bots.sampled import Budget, SampledSearch
from moonrules.bots.sampling import Sampler
from moonrules.bots.value import HandValue
from moonrules.bots.worlds import complete_contract, world
from moonrules.game import Action, Bid, GameState, Pass, PlayerView
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump

__all__ = ["StrongBot", "contract_points"]

_PRUNE = 1e-3
"""Auction continuations less likely than this are not followed."""


@attrs.frozen(slots=True)
class StrongBot(SampledSearch):
    """PIMC with inference and score-aware values (see the module for the method)."""

    samples: int = 24
    """Deals drawn per play decision."""
    bid_samples: int = 48
    """Deals drawn per bid, discard or trump decision."""
    candidates: int = 3
    """Trumps weighed per bid or trump decision (the best by the basic estimate)."""
    discards: int = 2
    """Discards weighed per trump (the least valuable tiles)."""
    inference: float = 1.0
    """How much the deals follow the model's likelihood of what the other seats did: the
    likelihood is raised to this power (0: deals drawn uniformly, as ``pimc`` does)."""
    play_inference: float = 0.0
    """How much the deals follow the model's likelihood of the tiles the other seats played
    (:func:`~moonrules.bots.inference.play_likelihood`, raised to this power; 0: not read)."""
    pool: int = 4
    """Deals drawn uniformly for each deal kept by the inference."""
    score_aware: bool = True
    """Value a hand that may end the game by the chance to win it, and a made 21 that wins
    the game by what a game won is worth (else relative points, a made 21 worth 21)."""
    rollout: bool = True
    """Value a call by playing out the rest of the auction under the model (else a pass is
    worth nothing and a bid is never outbid, as ``pimc`` assumes)."""
    bid_margin: float = 0.0
    """What a bid must gain over passing to be made, in relative points (a guard against
    double dummy's optimism; scaled down when calls are valued by the game)."""
    partner_discount: int = 1
    """Tricks taken off each double-dummy count of the seat's side as bidder with a partner,
    whose tiles double dummy lets the bidder see."""
    hopeless: float = 1.5
    """Pass without sampling when the basic estimate plus this is below the lowest bid open."""
    time_budget: float | None = None
    """Seconds per decision after which no more deals are drawn (``None``: no limit)."""
    node_budget: int | None = 150_000
    """Solver nodes per decision after which no more deals are drawn (``None``: no limit)."""

    name: ClassVar[str] = "strong"

    # the search (the dispatch by phase, the play, the discard and trump) is
    # SampledSearch's, shared with pimc; strong draws deals by inference and values
    # tricks by HandValue, and calls by playing out the rest of the auction

    def _worlds(
        self, view: PlayerView, rng: random.Random, budget: Budget
    ) -> Iterator[tuple[GameState, tuple[int, ...], int]]:
        """Worlds at the view's position, each with the hidden hands and extra tile it has."""
        know: Knowledge = knowledge(view)
        sampler = Sampler(know)
        if sampler.count == 1:
            hands, extra = sampler.draw(rng)
            yield world(view, know, hands, extra), hands, extra
            return
        deals = inferred_deals(
            view,
            know,
            sampler,
            rng,
            budget.samples,
            pool=self.pool,
            weight=self.inference,
            play_weight=self.play_inference,
        )
        for done, (hands, extra) in enumerate(deals):
            if not budget.more(done):
                return
            yield world(view, know, hands, extra), hands, extra

    def _value(self, view: PlayerView) -> HandValue:
        return HandValue.for_hand(
            view.rules,
            view.seat,
            view.scores,
            view.tricks_won,
            view.first_bidder,
            score_aware=self.score_aware,
        )

    def _states(self, view: PlayerView, rng: random.Random, budget: Budget) -> Iterator[GameState]:
        return (state for state, _, _ in self._worlds(view, rng, budget))

    def _play_worth(self, view: PlayerView) -> Callable[[int], float]:
        assert view.bidder is not None and view.bid is not None
        value = self._value(view)
        worth = [value(view.bidder, view.bid, t) for t in range(8)]
        return lambda v: worth[v] + 1e-6 * v

    def _contract_worth(self, view: PlayerView) -> Callable[[int], float]:
        assert view.bid is not None
        value = self._value(view)
        worth = [value(view.seat, view.bid, t) for t in range(8)]
        return lambda v: worth[v] + 1e-6 * v

    # -- auction --------------------------------------------------------

    def _call(self, view: PlayerView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        weighed = self._call_trumps(view, legal)
        if weighed is None:
            return Pass()
        bids, can_pass, trumps = weighed
        rules = view.rules
        discount = self.partner_discount if rules.partnership else 0
        calls = tuple(call_value(c) for c in view.calls)
        caches = {t: SolverCache() for t in trumps}
        other_cache = SolverCache()
        budget = self._budget(self.bid_samples, [*caches.values(), other_cache])
        mine: dict[Trump, list[int]] = {t: [] for t in trumps}
        futures: list[_Auction] = []
        for state, hands, extra in self._worlds(view, rng, budget):
            for t in trumps:
                opening = complete_contract(state, view.seat, bids[0], t, basic_discard)
                mine[t].append(max(0, solve(opening, caches[t]) - discount))
            futures.append(
                _Auction(rules, view.seat, calls, view.first_bidder, state, hands, extra)
            )
        moon = MOON in bids and any(v >= 7 for vs in mine.values() for v in vs)
        value = self._value(view)
        choices = [PASS] * can_pass + [b for b in bids if b != MOON or moon]
        if not self.rollout:
            return self._call_alone(view, value, choices, mine, can_pass)
        # one trump for the seat's own contracts: the best on average (it is named before
        # the seat could know which deal it is in)
        best_trump = max(trumps, key=lambda t: (sum(mine[t]), -trumps.index(t)))
        scores = {c: 0.0 for c in choices}
        for k, future in enumerate(futures):
            for c in choices:
                scores[c] += future.value(c, value, mine[best_trump][k], other_cache, discount)
        scale = 1.0 if not value.by_game else 0.02
        margin = self.bid_margin * scale

        def score(c: int) -> tuple[float, int]:
            return scores[c] / len(futures) - (0.0 if c == PASS else margin), -c

        best = max(choices, key=score)
        return Pass() if best == PASS else Bid(best)

    def _call_alone(
        self,
        view: PlayerView,
        value: HandValue,
        choices: list[int],
        mine: dict[Trump, list[int]],
        can_pass: bool,
    ) -> Action:
        """The call when the rest of the auction is not modelled: every bid as if it won the
        auction, a pass as if the hand were thrown in."""
        seat = view.seat
        best, best_score = PASS, value.thrown_in() if can_pass else float("-inf")
        scale = 1.0 if not value.by_game else 0.02
        for b in choices:
            if b == PASS:
                continue
            for vs in mine.values():
                score = sum(value(seat, b, v) for v in vs) / len(vs) - self.bid_margin * scale
                if score > best_score:
                    best, best_score = b, score
        return Pass() if best == PASS else Bid(best)


@attrs.frozen(slots=True)
class _Auction:
    """The rest of the auction in one world, under the model of the other seats."""

    rules: RuleSet
    seat: int
    calls: tuple[int, ...]
    first_bidder: int
    state: GameState
    hands: tuple[int, ...]
    extra: int
    solved: dict[int, int] = attrs.field(factory=dict)

    def _strength(self, seat: int) -> float:
        return strength(self.hands[seat], self.rules)

    def endings(self, call: int) -> list[tuple[float, int, int]]:
        """The ways the auction may end after this seat calls ``call``: (probability, the
        seat that wins it or -1 for a hand thrown in, the bid)."""
        rules = self.rules
        n = rules.players
        out: list[tuple[float, int, int]] = []

        def go(calls: tuple[int, ...], p: float) -> None:
            done = len(calls) >= n or MOON in calls
            if done:
                high = max(calls)
                if high == PASS:
                    out.append((p, -1, PASS))
                else:
                    k = calls.index(high)
                    out.append((p, (self.first_bidder + k) % n, high))
                return
            seat = (self.first_bidder + len(calls)) % n
            legal = open_calls(rules, calls)
            if len(legal) == 1:
                go((*calls, legal[0]), p)
                return
            chances = call_chances(rules, self._strength(seat), max(calls, default=PASS), legal)
            for c, q in chances.items():
                if p * q >= _PRUNE:
                    go((*calls, c), p * q)

        go((*self.calls, call), 1.0)
        total = sum(p for p, _, _ in out)
        return [(p / total, s, b) for p, s, b in out]

    def tricks(self, bidder: int, cache: SolverCache) -> int:
        """The double-dummy tricks of ``bidder``'s side when ``bidder`` (another seat) wins the
        auction and names the trump its tiles (and the widow) are best in, basic discard."""
        hit = self.solved.get(bidder)
        if hit is not None:
            return hit
        rules = self.rules
        held = self.hands[bidder] | (self.extra if rules.has_widow else 0)
        trump = best_trumps(held, rules)[0][1]
        lowest = min(b for b in open_calls(rules, self.calls) if b != PASS)
        opening = complete_contract(self.state, bidder, lowest, trump, basic_discard)
        tricks = solve(opening, cache)
        self.solved[bidder] = tricks
        return tricks

    def value(
        self,
        call: int,
        value: HandValue,
        mine: int,
        cache: SolverCache,
        discount: int,
    ) -> float:
        """The expected value to the seat of calling ``call`` in this world, where the seat
        takes ``mine`` tricks as the bidder."""
        total = 0.0
        rules = self.rules
        for p, winner, bid in self.endings(call):
            if winner < 0:
                total += p * value.thrown_in()
            elif winner == self.seat:
                total += p * value(winner, bid, mine)
            else:
                t = self.tricks(winner, cache)
                if rules.partnership and rules.side_of(winner) == rules.side_of(self.seat):
                    t = max(0, t - discount)
                total += p * value(winner, bid, t)
        return total
