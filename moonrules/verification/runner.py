"""Running the catalogue: each property checked, timed, and its outcome kept.

Properties are checked one after another in this process, or ``jobs`` at a time in worker
processes of their own (each property is deterministic and checked on its own, so the results
are the same either way); results come in the order the properties were given.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import time
import traceback
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Final

import attrs

from moonrules.rules.contract import check_bool, check_instance, check_int, check_iterable, typed
from moonrules.rules.errors import ArgumentError
from moonrules.support.processes import end_with_parent, stop_pool
from moonrules.verification.core import Failure, Outcome, Property

MAX_JOBS: Final = 64
"""The most worker processes :func:`run` starts."""


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


def _check_by_id(prop_id: str, quick: bool) -> tuple[Outcome, float, float]:
    """In a worker process: check the catalogue's property ``prop_id``."""
    from moonrules.verification.catalogue import by_id

    [prop] = by_id([prop_id])
    r = check(prop, quick)
    return r.outcome, r.seconds, r.cpu_seconds


def _in_workers(props: list[Property], quick: bool, jobs: int) -> Iterator[Result]:
    """The results of ``props`` checked ``jobs`` at a time in spawned worker processes."""
    pool = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("spawn"), initializer=end_with_parent
    )
    try:
        futures: list[Future[tuple[Outcome, float, float]]] = [
            pool.submit(_check_by_id, p.id, quick) for p in props
        ]
        for prop, future in zip(props, futures, strict=True):
            start = time.perf_counter()
            try:
                outcome, seconds, cpu = future.result()
            except Exception as e:  # the worker died (killed, out of memory): no verdict
                outcome = Outcome(
                    0, "the worker process checking it stopped", f"{type(e).__name__}: {e}"
                )
                seconds, cpu = time.perf_counter() - start, 0.0
            yield Result(prop, outcome, seconds, quick, cpu)
    except BaseException:  # closed early, or Ctrl-C: no check is left running
        stop_pool(pool)
        raise
    pool.shutdown()


def run(properties: Iterable[Property], quick: bool = False, jobs: int = 1) -> Iterator[Result]:
    """Check each property (lazily: one as each result is asked for), in the order given.

    With ``jobs`` above 1 (at most :data:`MAX_JOBS`) the properties, which must be the
    catalogue's, are checked that many at a time in worker processes, started when the first
    result is asked for; the workers are ended at the end, or when the iterator is closed or
    collected before it, and a worker exits by itself if this process dies (even killed).

    The arguments are checked when it is called: :class:`TypeError` names one that is not
    an iterable of :class:`Property` values, a ``quick`` that is not ``True`` or ``False``, or
    ``jobs`` that is not an ``int``; :class:`ValueError` a ``jobs`` out of range or, with jobs,
    a property that is not the catalogue's.
    """
    props = check_iterable(properties, "properties", "an iterable of Property values")
    for i, p in enumerate(props):
        check_instance(p, Property, f"properties[{i}]", "a Property")
    check_bool(quick, "quick")
    check_int(jobs, "jobs", 1, MAX_JOBS, "a number of worker processes")
    if jobs == 1 or len(props) <= 1:
        return (check(prop, quick) for prop in props)
    from moonrules.verification.catalogue import CATALOGUE

    for i, p in enumerate(props):
        if p not in CATALOGUE:
            raise ArgumentError(
                f"properties[{i}]: {p.id!r} is not the catalogue's property of that name, and "
                "worker processes check only the catalogue's; use jobs=1"
            )
    return _in_workers(props, quick, min(jobs, len(props)))


__all__ = ["MAX_JOBS", "Result", "check", "run"]
