"""Fast forms of the game, proven equal to the reference state machine.

:class:`Engine` is a mutable game object of plain integers, stepped by action id, with
``undo``, ``clone`` and random ``playout``: the form for search. It is derived from the
rulebook's tables (:mod:`moonrules.engine.tables`) and tested in lockstep with
:func:`~moonrules.game.play.apply` (``tests/test_engine.py``); with ``MOONRULES_COMPILE=1``
it is compiled by mypyc. The batched form for learning is :mod:`moonrules.engine.batch`
(extra ``[batch]``: numpy), imported only on its own. The names are imported on first use
(:mod:`moonrules.kernel.lazy`): ``moonrules.kernel.compiled`` chooses the engine's form first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.lazy import exports

if TYPE_CHECKING:
    from moonrules.engine.core import Engine, generator_state, next_state

if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__,
        {name: "moonrules.engine.core" for name in ("Engine", "generator_state", "next_state")},
    )

__all__ = ["Engine", "generator_state", "next_state"]
