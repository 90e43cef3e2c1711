"""Differential fuzzing of another Moon engine against the reference (``moonrules fuzz``).

Requests are drawn from seeded generators (:mod:`moonrules.conformance.generators`):
situations legal by construction and, now and then, a request with exactly one fault.
Each is answered by the reference (:func:`moonrules.conformance.protocol.handle`,
in-process) and by the target, several requests in flight at a time, and the answers
are compared at the level asked for (:data:`COMPARE_LEVELS`). A disagreement is
recorded and the run goes on: findings are distinct by op, preset, kind and the
clauses involved, up to ``max_findings``, and each is shrunk to a minimal request by
replaying smaller choices. The report gives that request, both answers, the first
place they differ, the clauses of ``spec/rules.md`` involved, and a one-line
reproduction. ``exhaustive=True`` sends every legal request of the finite ops instead.

An op the target answers with ``unknown-op`` is reported once as unsupported and
skipped (unless it is ``require``\\ d), so that a partial engine can be fuzzed on what
it implements.

The target is either a command speaking the protocol on stdin/stdout
(:class:`ProcessTarget`: a per-request timeout, restarted after a crash, a hang or
garbage output) or any Python callable taking a request ``dict`` and returning the
response ``dict``, so that a Python engine is fuzzed in-process::

    >>> from moonrules.conformance.fuzz import fuzz
    >>> from moonrules.conformance.protocol import handle
    >>> report = fuzz(handle, ops=["led_suit"], examples=20, seed=1)
    >>> report.ok, report.cases["led_suit"]
    (True, 20)

Runs are reproducible with ``seed``. Hypothesis is not needed to fuzz (it is for
:func:`requests`, the strategies used by property tests).

This module is the entry point: :func:`fuzz` checks its arguments and puts the parts
together, and every name of ``__all__`` is imported from here. The parts have modules of
their own: the targets (:mod:`moonrules.conformance.fuzz_target`), the engine that runs the
cases and keeps the findings (:mod:`moonrules.conformance.fuzz_engine`), the shrinker
(:mod:`moonrules.conformance.fuzz_shrink`), the random and exhaustive runs
(:mod:`moonrules.conformance.fuzz_runs`), beside the request generators
(:mod:`moonrules.conformance.generators`), the comparison of answers
(:mod:`moonrules.conformance.compare`) and the findings and report
(:mod:`moonrules.conformance.findings`).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from moonrules.conformance.compare import (
    CompareLevel,
    clauses_involved,
    comparable,
    compare,
    first_difference,
)
from moonrules.conformance.findings import Finding, FuzzReport, Progress
from moonrules.conformance.fuzz_engine import (
    MAX_FAULT_SHRINKS,
    MAX_FAULTS_IN_A_ROW,
    MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED,
    _Engine,
)
from moonrules.conformance.fuzz_runs import _run_exhaustive, _run_random, iter_requests
from moonrules.conformance.fuzz_target import (
    Handler,
    ProcessTarget,
    TargetFailure,
    _callable_command,
    _CallableTarget,
    serve,
)
from moonrules.conformance.generators import OPS, FuzzError, requests, tile_text
from moonrules.conformance.generators import ops as op_names
from moonrules.conformance.generators import presets as preset_names
from moonrules.conformance.target import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    TargetError,
    check_timeout,
)
from moonrules.game.deal import check_seed
from moonrules.rules.contract import check_arguments

COMPARE_LEVELS: Final[tuple[CompareLevel, ...]] = ("strict", "code", "outcome")
"""How much of two answers must agree: ``strict``, everything but messages (the
``result``, or the error's code and clause); ``code``, no clause IDs (the ``result``
without a violation's clause, or the error's code); ``outcome``, only what the rules
decide (accepted or refused, and the ``result`` without clause IDs)."""

DEFAULT_EXAMPLES: Final = 500
"""Examples per op when neither ``examples`` nor ``seconds`` is given."""
DEFAULT_SHRINK_SECONDS: Final = 60.0
"""The most time spent shrinking one finding; past it the smallest case so far is reported."""
DEFAULT_MAX_FINDINGS: Final = 5
"""Distinct findings collected per op before the op stops."""
BATCH: Final = 64
"""Requests in flight at a time to a target process."""


def _check_budget(examples: int | None, seconds: float | None, max_findings: int) -> None:
    if examples is not None and seconds is not None:
        raise FuzzError("give a number of examples or a number of seconds, not both")
    if examples is not None and (isinstance(examples, bool) or examples < 1):
        raise FuzzError(f"the number of examples must be at least 1, not {examples}")
    if seconds is not None:
        try:
            check_timeout(seconds, "the number of seconds")
        except TargetError as e:
            raise FuzzError(str(e)) from None
    if max_findings < 1:
        raise FuzzError(
            f"max_findings: the number of findings must be at least 1, not {max_findings}"
        )


def fuzz(
    target: Handler | str | ProcessTarget,
    ops: Sequence[str] | str | None = None,
    rules: Sequence[str] | str | None = None,
    examples: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    reference: Handler | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    compare: CompareLevel = "strict",
    valid_only: bool = False,
    require: Sequence[str] | str | None = None,
    exclude_rules: Sequence[str] | str | None = None,
    exclude_clauses: Sequence[str] = (),
    max_findings: int = DEFAULT_MAX_FINDINGS,
    exhaustive: bool = False,
    batch: int = BATCH,
    startup_timeout: float = STARTUP_TIMEOUT,
) -> FuzzReport:
    """Fuzz ``target`` against the reference; the report of what disagreed, shrunk.

    ``target``: a command (``"node engine.js"``) speaking the protocol on stdin and
    stdout, a :class:`ProcessTarget`, or a callable answering a request ``dict`` with a
    response ``dict`` (in-process: no timeout applies). ``ops``: which ops (default
    :data:`OPS`); ``rules``: which presets (names or aliases; default all), less
    ``exclude_rules``. ``examples``: examples per op (default :data:`DEFAULT_EXAMPLES`);
    or ``seconds``: fuzz the ops in turn, a batch at a time, until the time is up
    (shrinking may take up to ``shrink_seconds`` more per finding). ``seed``: the same
    seed, the same cases (a random one when ``None``, given in the report).

    ``compare``: the level of :data:`COMPARE_LEVELS`. ``valid_only``: draw only legal,
    well-formed requests. An op the target answers with ``unknown-op`` is skipped
    (reported as unsupported) unless it is in ``require``. Cases exercising a clause of
    ``exclude_clauses`` are not compared. Findings are collected up to
    ``max_findings`` distinct ones per op (by kind, preset and clauses), each shrunk.
    ``exhaustive``: send every legal request of the finite ops instead
    (:func:`moonrules.conformance.spaces.exhaustive`); ``seconds`` then caps the run.
    ``progress`` is called now and then. The timeout counts from when the target reads a
    request; a process just started may take ``startup_timeout`` to read its first.
    ``reference`` replaces
    :func:`moonrules.conformance.protocol.handle` (for tests).
    """
    check_arguments(fuzz, locals())
    if batch < 1:
        raise FuzzError(f"batch: at least 1 request a batch, not {batch}")
    names = op_names(ops)
    chosen = preset_names(rules)
    if exclude_rules:
        dropped = set(preset_names(exclude_rules))
        chosen = tuple(p for p in chosen if p not in dropped)
        if not chosen:
            raise FuzzError("--exclude-rules leaves no rule set to fuzz")
    if compare not in COMPARE_LEVELS:
        raise FuzzError(
            f"compare: unknown comparison level {compare!r}: {', '.join(COMPARE_LEVELS)}"
        )
    required = frozenset(op_names(require, "required op")) if require else frozenset()
    _check_budget(examples, seconds, max_findings)
    try:
        timeout = check_timeout(timeout, "the timeout")
        shrink_seconds = check_timeout(shrink_seconds, "shrink_seconds, the shrinking time,")
    except TargetError as e:
        raise FuzzError(str(e)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    check_seed(seed)
    from moonrules.conformance.protocol import handle

    owned: ProcessTarget | None = None
    process: ProcessTarget | None = None
    if isinstance(target, str):
        owned = process = ProcessTarget(
            target, timeout=timeout, cwd=cwd, env=env, startup_timeout=startup_timeout
        )
        process.start()
        call: Handler = process
        name = process.display
    elif isinstance(target, ProcessTarget):
        process = target
        process.start()
        call = target
        name = target.display
    else:
        call = _CallableTarget(target)
        name = _callable_command(target) or repr(target)

    engine = _Engine(
        call,
        process,
        reference if reference is not None else handle,
        presets=chosen,
        level=compare,
        faults=False if valid_only else None,
        require=required,
        exclude_clauses=frozenset(exclude_clauses),
        max_findings=max_findings,
        shrink_seconds=shrink_seconds,
        progress=progress,
        ops=names,
        target=target,
    )
    started = engine.started
    deadline = None if seconds is None else started + seconds
    try:
        if exhaustive:
            _run_exhaustive(engine, names, chosen, max(1, batch), deadline)
        else:
            n = None if seconds is not None else (examples or DEFAULT_EXAMPLES)
            _run_random(engine, names, chosen, seed, n, deadline, max(1, batch), valid_only)
    finally:
        if owned is not None:
            owned.close()
    return FuzzReport(
        target=name,
        seed=seed,
        ops=names,
        rules=chosen,
        cases=engine.cases,
        findings=engine.findings,
        elapsed=time.monotonic() - started,
        starts=process.starts if process is not None else 1,
        compare=compare,
        unsupported=engine.unsupported,
        notes=engine.notes,
        excluded=engine.excluded,
        gave_up=engine.gave_up,
    )


__all__ = [
    "COMPARE_LEVELS",
    "DEFAULT_EXAMPLES",
    "DEFAULT_MAX_FINDINGS",
    "DEFAULT_TIMEOUT",
    "MAX_FAULTS_IN_A_ROW",
    "MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED",
    "MAX_FAULT_SHRINKS",
    "OPS",
    "Finding",
    "FuzzError",
    "FuzzReport",
    "ProcessTarget",
    "Progress",
    "TargetFailure",
    "clauses_involved",
    "comparable",
    "compare",
    "first_difference",
    "fuzz",
    "iter_requests",
    "requests",
    "serve",
    "tile_text",
]
