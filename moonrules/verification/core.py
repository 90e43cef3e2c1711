"""The values of the catalogue: a property, its method, and the outcome of checking it."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import attrs

from moonrules.rules.contract import typed
from moonrules.rules.errors import PicklableError


class Method(Enum):
    """How a property is established."""

    EXHAUSTIVE = "exhaustive"
    """Every element of a finite domain is checked."""
    SMT = "smt"
    """Proved for every value (unbounded integers included) with the z3 SMT solver."""
    BOUNDED = "bounded-model-check"
    """Every state reachable from stated roots within a stated depth is checked."""
    TESTED = "tested"
    """Sampled only; the property says why no proof is given."""

    def __str__(self) -> str:
        return self.value


@attrs.frozen(slots=True, field_transformer=typed)
class Outcome:
    """What one check found: the cases covered, a note on how, and the first counterexample."""

    cases: int
    """Elements checked (or, for a symbolic proof, paths explored and confirmed)."""
    note: str = ""
    """How the cases were counted, e.g. ``"paths confirmed by CrossHair"``."""
    counterexample: str | None = None
    """``None`` when the property holds; otherwise the first case that breaks it."""

    @property
    def ok(self) -> bool:
        """Whether the property held on every case."""
        return self.counterexample is None


class Failure(PicklableError):
    """Raised inside a check at the first counterexample; the runner reports its message."""


def require(condition: bool, counterexample: str) -> None:
    """Raise :class:`Failure` with ``counterexample`` unless ``condition`` holds."""
    if not condition:
        raise Failure(counterexample)


@attrs.frozen(slots=True, field_transformer=typed)
class Property:
    """One entry of the catalogue."""

    id: str
    """A short lower-case name, e.g. ``"trick-winner"`` (never shaped like a clause ID)."""
    clauses: tuple[str, ...]
    """The clauses of ``spec/rules.md`` it covers."""
    statement: str
    """What it checks, in one sentence."""
    method: Method
    domain: str
    """The domain checked, in words, with its size."""
    check: Callable[[bool], Outcome]
    """The checking code, ``check(quick)``; ``quick`` may shrink the domain (``quick_domain``)."""
    quick_domain: str | None = None
    """The smaller domain ``--quick`` checks, or ``None`` when it checks the whole domain."""
    subject: str = ""
    """The code proved or checked, e.g. ``moonrules.rules.scoring.score_hand``."""
    reason: str = ""
    """For *tested* properties: why no proof is given. Otherwise how the proof is obtained."""
    needs: tuple[str, ...] = ()
    """Optional packages the check imports (``z3``, ``crosshair``)."""
