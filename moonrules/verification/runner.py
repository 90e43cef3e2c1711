"""Running the catalogue: each property checked, timed, and its outcome kept."""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable, Iterator

import attrs

from moonrules.rules.contract import check_bool, check_instance, check_iterable, typed
from moonrules.verification.core import Failure, Outcome, Property


@attrs.frozen(slots=True, field_transformer=typed)
class Result:
    """A property, what checking it found, and how long it took."""

    prop: Property
    outcome: Outcome
    seconds: float
    """Wall-clock seconds."""
    quick: bool
    cpu_seconds: float = 0.0
    """Processor seconds of this process (the wall clock also counts other work on the machine)."""

    @property
    def ok(self) -> bool:
        """Whether the property held."""
        return self.outcome.ok

    def to_json(self) -> dict[str, object]:
        """The result as the ``--json`` output gives it."""
        p = self.prop
        return {
            "id": p.id,
            "clauses": list(p.clauses),
            "method": p.method.value,
            "statement": p.statement,
            "domain": p.quick_domain if self.quick and p.quick_domain else p.domain,
            "subject": p.subject,
            "cases": self.outcome.cases,
            "note": self.outcome.note,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "result": "pass" if self.ok else "fail",
            "counterexample": self.outcome.counterexample,
        }


def check(prop: Property, quick: bool = False) -> Result:
    """Check one property; an exception inside the check is a failure, reported as such."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        outcome = prop.check(quick)
    except Failure as e:
        outcome = Outcome(0, "stopped at the first counterexample", str(e))
    except Exception as e:
        where = traceback.extract_tb(e.__traceback__)[-1]
        outcome = Outcome(
            0,
            "the check raised an exception",
            f"{type(e).__name__}: {e} (at {where.filename}:{where.lineno})",
        )
    return Result(prop, outcome, time.perf_counter() - start, quick, time.process_time() - cpu)


def run(properties: Iterable[Property], quick: bool = False) -> Iterator[Result]:
    """Check each property in turn (lazily: one as each result is asked for).

    The arguments are checked when it is called: :class:`TypeError` names one that is not
    an iterable of :class:`Property` values, or a ``quick`` that is not ``True`` or ``False``.
    """
    props = check_iterable(properties, "properties", "an iterable of Property values")
    for i, p in enumerate(props):
        check_instance(p, Property, f"properties[{i}]", "a Property")
    check_bool(quick, "quick")
    return (check(prop, quick) for prop in props)


__all__ = ["Result", "check", "run"]
