"""Dealing the hidden tiles consistently with what a seat knows, uniformly.

:class:`Sampler` lives in :mod:`moonrules.game.sampling`, below the bots, so that lower
layers can draw worlds too; it is re-exported here, where the bots import it from.
"""

from __future__ import annotations

from moonrules.game.sampling import Sampler

__all__ = ["Sampler"]
