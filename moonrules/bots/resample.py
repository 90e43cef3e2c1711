"""Drawing a whole game state from what one seat knows: the hidden tiles guessed, uniformly.

This is the public place to import :func:`resample` and :func:`consistent_deals` from:
``from moonrules.bots.resample import resample``. Search over imperfect information
(IS-MCTS, PIMC, belief-based learning) calls ``resample(view, rng)`` at a seat's decision
for a full state the seat cannot tell from the real one, every deal consistent with the
view equally likely; ``consistent_deals(view)`` counts those deals. Both are defined in
:mod:`moonrules.game.resample` (documented there), below the bots, so that lower layers
(the engine) draw exactly the same worlds.
"""

from __future__ import annotations

from moonrules.game.resample import consistent_deals, resample

__all__ = ["consistent_deals", "resample"]
