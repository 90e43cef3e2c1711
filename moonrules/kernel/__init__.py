"""The kernel: bit-mask forms and lookup tables computed from the rulebook's pure functions.

This is the only place speed tricks live. Every table is derived from ``moonrules.rules`` and
checked equal to it exhaustively by the tests; nothing here states a rule of its own.

Its public face is its proof: :func:`kernel_mismatches` compares the fast copies with the
rule functions (:mod:`moonrules.kernel.check`). The masks and tables themselves serve the
game, the solver and the bots, which check their arguments before they reach them. The names
are imported on first use (:mod:`moonrules.kernel.lazy`): ``moonrules.kernel`` is imported
before :mod:`moonrules.kernel.compiled` has decided which form of a compiled module may run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.lazy import exports

if TYPE_CHECKING:
    from moonrules.kernel.check import Kernel, Mismatch, kernel_mismatches

if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__,
        {name: "moonrules.kernel.check" for name in ("Kernel", "Mismatch", "kernel_mismatches")},
    )

__all__ = ["Kernel", "Mismatch", "kernel_mismatches"]
