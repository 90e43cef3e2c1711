"""What the bots that decide over sampled deals share (``pimc`` and ``strong``).

* :class:`Budget`: when a decision stops drawing deals (a number of deals, seconds of
  wall clock, solver nodes; at least one deal is always solved).
* :func:`contract_options`: the (trump, discard) pairs a bidder weighs when it discards
  or names trump.
* :func:`contract_tricks`: the double-dummy tricks of the bidder under each of those
  options, over the same deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping

import attrs

from moonrules.analysis.solver import SolverCache, solve
from moonrules.bots.basic import basic_discard, best_trumps, tile_value
from moonrules.bots.worlds import complete_contract
from moonrules.game import GameState, PlayerView
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import indices_of

__all__ = ["Budget", "ContractOption", "contract_options", "contract_tricks", "fixed_discard"]

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
