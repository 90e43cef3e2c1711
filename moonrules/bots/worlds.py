"""Game states built from a view and a guess at the hidden tiles.

:func:`world` and :func:`complete_contract` live in :mod:`moonrules.game.worlds`, below the
bots, so that lower layers can draw worlds too; they are re-exported here, where the bots
import them from.
"""

from __future__ import annotations

from moonrules.game.worlds import complete_contract, world

__all__ = ["complete_contract", "world"]
