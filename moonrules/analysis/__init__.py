"""Analysis: the double-dummy solver and claim verification, built on the game and the kernel.

:func:`solve` and :func:`play_values` (:mod:`moonrules.analysis.solver`) value a position
double dummy; :func:`verify_claim` (:mod:`moonrules.analysis.claim`) rules on a claim of the
remaining tricks; ``moonrules.analysis.advise.advise`` rates each bid of one hand over
sampled deals (it shares its module's name, so it is not listed here: the package's
attribute ``advise`` is that module); ``moonrules.analysis.review.review`` grades every
decision of a game (:class:`Review`, :class:`Decision`, :class:`Alternative`; the same
holds for its name). The names are imported on first use
(:mod:`moonrules.kernel.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.lazy import exports

if TYPE_CHECKING:
    from moonrules.analysis.advise import (
        Advice,
        AdviceError,
        BidAdvice,
        Choice,
        TrumpAdvice,
    )
    from moonrules.analysis.claim import ClaimError, ClaimResult, describe_line, verify_claim
    from moonrules.analysis.review import (
        Alternative,
        CallChance,
        Decision,
        HandReview,
        PlayerReview,
        Review,
        ReviewError,
    )
    from moonrules.analysis.solver import SolverCache, play_values, solve

_MODULES = {
    "moonrules.analysis.advise": ("Advice", "AdviceError", "BidAdvice", "Choice", "TrumpAdvice"),
    "moonrules.analysis.claim": ("ClaimError", "ClaimResult", "describe_line", "verify_claim"),
    "moonrules.analysis.solver": ("SolverCache", "play_values", "solve"),
    "moonrules.analysis.review": (
        "Alternative",
        "CallChance",
        "Decision",
        "HandReview",
        "PlayerReview",
        "Review",
        "ReviewError",
    ),
}
if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__,
        {name: module for module, names in _MODULES.items() for name in names},
    )

__all__ = [
    "Advice",
    "AdviceError",
    "Alternative",
    "BidAdvice",
    "CallChance",
    "Choice",
    "ClaimError",
    "ClaimResult",
    "Decision",
    "HandReview",
    "PlayerReview",
    "Review",
    "ReviewError",
    "SolverCache",
    "TrumpAdvice",
    "describe_line",
    "play_values",
    "solve",
    "verify_claim",
]
