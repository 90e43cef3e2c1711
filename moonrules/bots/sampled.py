"""What the bots that decide over sampled deals share (``pimc`` and ``strong``).

* :class:`SampledSearch`: the search itself, written once: the dispatch of a decision
  by phase, a play chosen by its value summed over the deals (ties: the least valuable
  tile), the trumps weighed for a call (or a pass when the hand is hopeless), a discard
  or trump chosen by its value over the same deals. Each bot says only how it draws the
  deals (``_states``), what a count of tricks is worth to it (``_play_worth``,
  ``_contract_worth``) and how it calls (``_call``).
* :class:`Budget`: when a decision stops drawing deals (a number of deals, seconds of
  wall clock, solver nodes; at least one deal is always solved).
* :func:`contract_options`: the (trump, discard) pairs a bidder weighs when it discards
  or names trump.
* :func:`contract_tricks`: the double-dummy tricks of the bidder under each of those
  options, over the same deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

import attrs

from moonrules.analysis.solver import SolverCache, play_values, solve
from moonrules.bots.base import knowledge, view_legal_actions
from moonrules.bots.basic import basic_discard, best_trumps, tile_value
from moonrules.bots.worlds import complete_contract
from moonrules.game import Action, Bid, Discard, GameState, NameTrump, Pass, Phase, Play, PlayerView
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, indices_of, mask_of

__all__ = [
    "Budget",
    "ContractOption",
    "SampledSearch",
    "contract_options",
    "contract_tricks",
    "fixed_discard",
]

ContractOption = tuple[Trump, int | None]
"""A trump, and the tile index to discard (``None``: the basic discard, or no discard)."""


@attrs.frozen(slots=True)
class Budget:
    """How many deals one decision may draw: at most ``samples``, and none after
    ``time_budget`` seconds from ``start`` or once the ``caches`` have searched more than
    ``node_budget`` nodes (``None``: no such limit). The first deal is always drawn."""

    samples: int
    time_budget: float | None
    node_budget: int | None
    start: float
    caches: list[SolverCache]

    @staticmethod
    def starting(
        samples: int, time_budget: float | None, node_budget: int | None, caches: list[SolverCache]
    ) -> Budget:
        """A budget whose clock starts now."""
        return Budget(samples, time_budget, node_budget, time.perf_counter(), caches)

    def more(self, done: int) -> bool:
        """Whether another deal may be drawn after ``done`` deals."""
        if done >= self.samples:
            return False
        if done == 0:
            return True
        if self.time_budget is not None and time.perf_counter() - self.start > self.time_budget:
            return False
        return not (
            self.node_budget is not None and sum(c.nodes for c in self.caches) > self.node_budget
        )


def contract_options(
    view: PlayerView,
    held: int,
    unseen: int,
    *,
    discarding: bool,
    candidates: int,
    discards: int,
) -> list[ContractOption]:
    """The options the bidder weighs: when ``discarding``, the ``discards`` least valuable
    tiles of ``held`` under each trump weighed; else each trump weighed. The trumps weighed
    are the one named, if any (WIDOW-2: discarding after trump), else the ``candidates``
    best by the basic estimate (before a discard, of the best hand one discard leaves)."""
    rules = view.rules
    if view.trump is not None:
        trumps = [view.trump]
    else:
        ranked = (
            max(
                (best_trumps(held & ~(1 << i), rules, unseen) for i in indices_of(held)),
                key=lambda r: r[0][0],
            )
            if discarding
            else best_trumps(held, rules, unseen)
        )
        trumps = [t for _, t in ranked[:candidates]]
    options: list[ContractOption] = []
    for t in trumps:
        if discarding:
            worst = sorted(indices_of(held), key=lambda i: (tile_value(i, t.value), i))
            options.extend((t, d) for d in worst[:discards])
        else:
            options.append((t, None))
    return options


def contract_tricks(
    states: Iterable[GameState],
    seat: int,
    bid: int,
    options: list[ContractOption],
    caches: Mapping[Trump, SolverCache],
) -> dict[ContractOption, list[int]]:
    """For each option, the double-dummy tricks of ``seat`` as the bidder of ``bid`` in each
    of ``states`` (the deals, in order), solved with the cache of the option's trump."""
    out: dict[ContractOption, list[int]] = {o: [] for o in options}
    for state in states:
        for trump, d in options:
            chooser = basic_discard if d is None else fixed_discard(d)
            opening = complete_contract(state, seat, bid, trump, chooser)
            out[(trump, d)].append(solve(opening, caches[trump]))
    return out


def fixed_discard(tile: int) -> Callable[[int, Trump], int]:
    """A discard chooser that always discards ``tile``."""

    def choose(_held: int, _trump: Trump) -> int:
        return tile

    return choose


class SampledSearch:
    """The decision search of the bots that sample deals (``pimc``, ``strong``), once.

    A subclass (an attrs class with the fields named below) gives ``_states`` (the deals
    of a decision, as positions, within a :class:`Budget`), ``_play_worth`` and
    ``_contract_worth`` (what the bidder's ``v`` tricks are worth to the seat, summed
    over the deals in their order) and ``_call`` (the auction, where the two differ).
    """

    __slots__ = ()

    samples: int
    bid_samples: int
    candidates: int
    discards: int
    hopeless: float
    time_budget: float | None
    node_budget: int | None

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view_legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view, legal, rng)
        if phase is Phase.BIDDING:
            return self._call(view, legal, rng)
        if phase is Phase.DISCARD:
            return self._contract(view, rng, discarding=True)
        return self._contract(view, rng, discarding=False)

    # -- what each bot gives ----------------------------------------------

    def _states(self, view: PlayerView, rng: random.Random, budget: Budget) -> Iterator[GameState]:
        raise NotImplementedError

    def _play_worth(self, view: PlayerView) -> Callable[[int], float]:
        raise NotImplementedError

    def _contract_worth(self, view: PlayerView) -> Callable[[int], float]:
        raise NotImplementedError

    def _call(self, view: PlayerView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        raise NotImplementedError

    # -- the search --------------------------------------------------------

    def _budget(self, samples: int, caches: list[SolverCache]) -> Budget:
        return Budget.starting(samples, self.time_budget, self.node_budget, caches)

    def _play(self, view: PlayerView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        assert view.bidder is not None and view.bid is not None and view.trump is not None
        worth = self._play_worth(view)
        totals = {a.tile: 0.0 for a in legal if isinstance(a, Play)}
        cache = SolverCache()
        for state in self._states(view, rng, self._budget(self.samples, [cache])):
            for t, v in play_values(state, cache).items():
                totals[t] += worth(v)
        trump = view.trump.value
        best = max(totals, key=lambda t: (totals[t], -tile_value(t.index, trump), -t.index))
        return Play(best)

    def _call_trumps(
        self, view: PlayerView, legal: tuple[Action, ...]
    ) -> tuple[list[int], bool, list[Trump]] | None:
        """The bids open, whether a pass is, and the trumps to weigh for a call; ``None``
        when the hand is hopeless (pass without sampling)."""
        bids = [a.amount for a in legal if isinstance(a, Bid)]
        can_pass = any(isinstance(a, Pass) for a in legal)
        ranked = best_trumps(mask_of(view.hand), view.rules, knowledge(view).unseen)
        if can_pass and ranked[0][0] + self.hopeless < min(bids):
            return None
        return bids, can_pass, [t for _, t in ranked[: self.candidates]]

    def _contract(self, view: PlayerView, rng: random.Random, *, discarding: bool) -> Action:
        assert view.bid is not None
        options = contract_options(
            view,
            mask_of(view.hand),
            knowledge(view).unseen,
            discarding=discarding,
            candidates=self.candidates,
            discards=self.discards,
        )
        tricks = self._contract_tricks(view, rng, options, self.bid_samples, bid=view.bid)
        worth = self._contract_worth(view)
        best = max(options, key=lambda o: sum(worth(v) for v in tricks[o]))
        if discarding:
            assert best[1] is not None
            return Discard(TILES[best[1]])
        return NameTrump(best[0])

    def _contract_tricks(
        self,
        view: PlayerView,
        rng: random.Random,
        options: list[ContractOption],
        samples: int,
        *,
        bid: int,
    ) -> dict[ContractOption, list[int]]:
        """For each (trump, discard) option, the double-dummy tricks of this seat as the
        bidder over the same deals (``None``: the basic discard)."""
        caches = {t: SolverCache() for t, _ in options}
        budget = self._budget(samples, list(caches.values()))
        return contract_tricks(self._states(view, rng, budget), view.seat, bid, options, caches)
