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
"""

from __future__ import annotations

import json
import os
import random
import shlex
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Final

import attrs

from moonrules.conformance.compare import (
    CompareLevel,
    Request,
    Response,
    _dump,
    _shape_error,
    clauses_involved,
    comparable,
    compare,
    first_difference,
)
from moonrules.conformance.findings import Finding, FindingKind, FuzzReport, Progress
from moonrules.conformance.generators import (
    FINITE_OPS,
    OPS,
    FuzzError,
    canonical,
    replay,
    requests,
    tile_text,
)
from moonrules.conformance.generators import draw as draw_request
from moonrules.conformance.generators import ops as op_names
from moonrules.conformance.generators import presets as preset_names
from moonrules.conformance.spaces import exhaustive, space_size
from moonrules.conformance.target import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    Target,
    TargetError,
    TargetFault,
    TargetTimeout,
    check_timeout,
    clip,
    read_answer,
)
from moonrules.game.deal import check_seed
from moonrules.records.record import JSON
from moonrules.rules.contract import check_arguments
from moonrules.rules.errors import PicklableError

Handler = Callable[[Request], Response]


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
MAX_FAULTS_IN_A_ROW: Final = 5
"""A target that has not answered a request properly yet and fails this many drawn requests
in a row the same way (it exits, hangs or writes garbage) is given up on: the run stops."""
MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED: Final = 25
"""The same, once the target has answered a request properly (right or wrong)."""
MAX_FAULT_SHRINKS: Final = 16
"""Shrinking attempts at most for a crash or garbage finding of a process (each attempt that
fails the same way costs a restart)."""
_FAULTS: Final = ("crash", "timeout", "garbage")
_FAULT_WORDS: Final = {
    "crash": "exited (or closed its output) without answering",
    "timeout": "did not answer in time",
    "garbage": "answered with something that is not a protocol answer",
}
_REFERENCE_CACHE: Final = 100_000


# ---------------------------------------------------------------------------
# Talking to a target


class TargetFailure(PicklableError):
    """The target did not answer a request with a protocol response.

    ``kind`` is ``"crash"`` (it exited, or an in-process target raised), ``"timeout"``
    (no answer within the per-request timeout) or ``"garbage"`` (a line that is not a
    JSON object); ``detail`` says what happened; ``tail`` the last lines of its error
    output, when known.
    """

    def __init__(self, kind: FindingKind, detail: str, tail: Sequence[str] = ()) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: FindingKind = kind
        self.detail = detail
        self.tail = tuple(tail)


class ProcessTarget(Target):
    """A protocol server run as a subprocess (a :class:`moonrules.conformance.target.Target`).

    The command is split like a shell would split it (no shell is run). Each request
    waits at most ``timeout`` seconds for its answer. A target that exits, hangs,
    prints something that is not a JSON object or more than one line raises
    :class:`TargetFailure` for that request and is started afresh for the next one. Use
    it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        try:
            super().__init__(
                command, timeout=timeout, cwd=cwd, env=env, startup_timeout=startup_timeout
            )
        except TargetError as e:
            raise FuzzError(str(e)) from None

    def start(self) -> None:
        """Start the target now (it is started on the first request otherwise)."""
        try:
            super().start()
        except OSError as e:
            raise FuzzError(f"cannot start the target {self.display!r}: {e}") from None

    def __call__(self, request: Request) -> Response:
        try:
            answer, _ = self.ask_object(json.dumps(request, separators=(",", ":")))
        except TargetTimeout as e:
            raise TargetFailure(e.kind, e.detail) from None
        except TargetFault as e:
            tail = getattr(e, "tail", ())
            raise TargetFailure(e.kind, f"{e.detail}; the target was restarted", tail) from None
        return answer

    def many(self, lines: Sequence[str]) -> tuple[list[Response], TargetFailure | None]:
        """Pipeline ``lines``; the answers read (as objects) and the failure that ended them."""
        fault = self.send_many(lines)
        return self.collect(len(lines)) if fault is None else ([], _failure(fault))

    def collect(self, n: int) -> tuple[list[Response], TargetFailure | None]:
        """The answers (as objects) to ``n`` requests sent with :meth:`send_many`."""
        texts, fault = self.receive_many(n)
        answers: list[Response] = []
        for text in texts:
            try:
                answers.append(read_answer(text))
            except TargetFault as e:
                self.stop()
                return answers, _failure(e)
        return answers, None if fault is None else _failure(fault)


def _failure(fault: TargetFault) -> TargetFailure:
    return TargetFailure(fault.kind, fault.detail, getattr(fault, "tail", ()))


class _CallableTarget:
    """An in-process target: exceptions become crashes, non-dict answers garbage."""

    def __init__(self, handle: Handler) -> None:
        self.handle = handle

    def __call__(self, request: Request) -> Response:
        try:
            answer = self.handle(json.loads(json.dumps(request)))
        except Exception as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            raise TargetFailure(
                "crash",
                f"{type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno})",
            ) from None
        if not isinstance(answer, dict):
            raise TargetFailure("garbage", f"the answer is not a dict: {clip(repr(answer))}")
        try:
            return dict(json.loads(json.dumps(answer, allow_nan=False)))
        except (TypeError, ValueError, RecursionError) as e:
            raise TargetFailure("garbage", f"the answer is not JSON-serialisable: {e}") from None


def serve(handle: Handler, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve ``handle`` as a protocol server: a request per input line, an answer per line.

    A line that is not a JSON object gets the reference's ``bad-json`` answer (a line
    over a limit ``bad-request``, as :func:`moonrules.conformance.serve.serve` has it);
    every other line goes to ``handle``, whose answer is written as one line and flushed.
    Returns 0 at the end of input. This is the quickest way to put a Python engine
    behind ``moonrules fuzz --target`` or ``moonrules conform --target``.
    """
    import sys

    from moonrules.conformance.serve import serve as serve_lines

    serve_lines(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, handle)
    return 0


# ---------------------------------------------------------------------------
# The engine


@attrs.define
class _Outcome:
    request: Request
    expected: Response
    actual: Response | None
    kind: FindingKind
    detail: str
    tail: tuple[str, ...] = ()


@attrs.frozen
class _Case:
    fields: Request
    choices: tuple[int, ...] | None
    """The choices that build it again (``None`` for an enumerated case: not shrunk)."""


class _Engine:
    """Asks the reference and the target, compares, collects and shrinks findings."""

    def __init__(
        self,
        call: Handler,
        process: ProcessTarget | None,
        reference: Handler,
        *,
        presets: tuple[str, ...],
        level: CompareLevel,
        faults: bool | None,
        require: frozenset[str],
        exclude_clauses: frozenset[str],
        max_findings: int,
        shrink_seconds: float,
        progress: Callable[[Progress], None] | None,
        ops: tuple[str, ...],
        target: object,
    ) -> None:
        self.call = call
        self.process = process
        self.reference = reference
        self.presets = presets
        self.level: CompareLevel = level
        self.faults = faults
        self.require = require
        self.exclude_clauses = exclude_clauses
        self.max_findings = max_findings
        self.shrink_seconds = shrink_seconds
        self.progress = progress
        self.target = target
        self.cases = dict.fromkeys(ops, 0)
        self.findings: list[Finding] = []
        self.unsupported: dict[str, str] = {}
        self.notes: list[str] = []
        self.excluded = 0
        self.gave_up: str | None = None
        self.in_a_row: dict[str, int] = {}
        """Faults of each kind since the last proper answer to a drawn request."""
        self.answered = False
        """Whether the target has answered a drawn request properly."""
        self.next_id = 0
        self.started = time.monotonic()
        self._cache: dict[str, Response] = {}
        self._seen: set[tuple[object, ...]] = set()
        self._shown: set[tuple[object, ...]] = set()

    # -- asking

    def expected(self, fields_line: str, fields: Request, request_id: JSON) -> Response:
        """The reference's answer (cached by request, the ``id`` put back)."""
        answer = self._cache.get(fields_line)
        if answer is None:
            answer = self.reference({"id": None, **fields})
            if len(self._cache) >= _REFERENCE_CACHE:
                self._cache.clear()
            self._cache[fields_line] = answer
        return {**answer, "id": request_id}

    def _request(self, fields: Request, request_id: int | None = None) -> tuple[Request, str]:
        if request_id is None:
            self.next_id += 1
            request_id = self.next_id
        return {"id": request_id, **fields}, _dump(fields)

    def judge(
        self, op: str, request: Request, expected: Response, actual: Response
    ) -> _Outcome | None:
        shape = _shape_error(actual)
        if shape is not None:
            return _Outcome(request, expected, actual, "garbage", shape)
        diff = compare(op, expected, actual, self.level)
        if diff is None:
            return None
        return _Outcome(request, expected, actual, "disagreement", diff)

    def ask_one(self, op: str, fields: Request, request_id: int | None = None) -> _Outcome | None:
        """Ask both about one request; the outcome if they disagree (or the target fails)."""
        request, fields_line = self._request(fields, request_id)
        expected = self.expected(fields_line, fields, request["id"])
        try:
            actual = self.call(request)
        except TargetFailure as e:
            return _Outcome(request, expected, None, e.kind, e.detail, e.tail)
        return self.judge(op, request, expected, actual)

    def ask_batch(self, op: str, batch: Sequence[Request]) -> list[_Outcome | None]:
        """Ask about several requests (pipelined to a process); one outcome each."""
        if self.process is None or len(batch) == 1:
            return [self.ask_one(op, fields) for fields in batch]
        requests_: list[Request] = []
        lines: list[str] = []
        fields_lines: list[str] = []
        for fields in batch:
            self.next_id += 1
            fields_line = _dump(fields)
            fields_lines.append(fields_line)
            requests_.append({"id": self.next_id, **fields})
            lines.append(f'{{"id":{self.next_id},{fields_line[1:]}' if fields else "{}")
        # the reference answers while the target does
        sent = self.process.send_many(lines)
        expected = [
            self.expected(line, fields, r["id"])
            for line, fields, r in zip(fields_lines, batch, requests_, strict=True)
        ]
        answers, failure = (
            self.process.collect(len(lines)) if sent is None else ([], _failure(sent))
        )
        if failure is None:
            return [
                self.judge(op, r, e, a)
                for r, e, a in zip(requests_, expected, answers, strict=True)
            ]
        # which request failed is not known: the unanswered ones again, one at a time
        out: list[_Outcome | None] = [
            self.judge(op, r, e, a) for r, e, a in zip(requests_, expected, answers, strict=False)
        ]
        for r in requests_[len(answers) :]:
            fields = {k: v for k, v in r.items() if k != "id"}
            outcome = self.ask_one(op, fields, r["id"])
            out.append(outcome)
            if outcome is not None and outcome.kind in _FAULTS:
                break  # the op is done with at its first fault: the rest are not asked
        return out

    # -- findings

    def _key(self, op: str, outcome: _Outcome) -> tuple[object, ...]:
        if outcome.kind != "disagreement":  # a crash is a crash, whatever the preset
            return (op, outcome.kind)
        preset = _preset_of(outcome.request)
        clauses = clauses_involved(outcome.request, outcome.expected, outcome.actual)
        return (op, outcome.kind, preset, tuple(sorted(clauses)))

    def unsupported_answer(self, op: str, outcome: _Outcome) -> bool:
        """Whether the target answered ``unknown-op`` to a known op (the op is then skipped)."""
        actual = outcome.actual
        if actual is None or actual.get("ok") is not False:
            return False
        err = actual.get("error")
        if not isinstance(err, dict) or err.get("code") != "unknown-op":
            return False
        want = outcome.expected.get("error")
        return not (isinstance(want, dict) and want.get("code") == "unknown-op")

    def count(self, outcome: _Outcome | None) -> None:
        """Count a drawn request's outcome toward giving up: a fault of the target adds to
        its kind, a proper answer (agreeing or not) ends the run of faults. The run is given
        up on when one kind reaches :data:`MAX_FAULTS_IN_A_ROW`
        (:data:`MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED` once a request was answered); said once,
        in ``gave_up``."""
        if outcome is None or outcome.kind not in _FAULTS:
            self.in_a_row.clear()
            self.answered = True
            return
        n = self.in_a_row[outcome.kind] = self.in_a_row.get(outcome.kind, 0) + 1
        limit = MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED if self.answered else MAX_FAULTS_IN_A_ROW
        if n < limit or self.gave_up is not None:
            return
        tail = "; ".join(outcome.tail[-3:])
        said = "its last error output" in outcome.detail
        self.gave_up = (
            f"the target was given up on: it {_FAULT_WORDS[outcome.kind]} {n} times in a row; "
            f"the run stopped (last: {outcome.detail}"
            + (f"; its last error output: {tail}" if tail and not said else "")
            + ")"
        )

    def record(self, op: str, case: _Case, outcome: _Outcome, examples: int) -> bool:
        """Take in an outcome; True when the op is done with (unsupported, or the run is)."""
        if self.unsupported_answer(op, outcome):
            if op not in self.require:
                self.unsupported[op] = _dump(outcome.actual)
                self.cases[op] = 0  # nothing of it was compared
                return True
            outcome = attrs.evolve(outcome, kind="unsupported", detail="answered unknown-op")
        key = self._key(op, outcome)
        if key in self._seen:
            return self.op_done(op)
        self._seen.add(key)
        plain = self.gave_up is not None or outcome.kind == "unsupported"
        final, shrinks = (outcome, 0) if plain else self.shrink(op, case, outcome)
        if final.kind != "timeout" and not plain:
            fields = {k: v for k, v in final.request.items() if k != "id"}
            again = self.ask_one(op, fields, 1)
            if again is not None:
                final = again
        shown = self._key(op, final)
        if shown not in self._shown:
            self._shown.add(shown)
            self.findings.append(self.finding(op, final, examples, shrinks))
        return self.op_done(op)

    @property
    def done(self) -> bool:
        """Whether the whole run stops (a target given up on)."""
        return self.gave_up is not None

    def op_done(self, op: str) -> bool:
        """Whether an op is done with: unsupported, its findings are enough, or it made
        the target crash, hang or write garbage (each further case like it would cost a
        restart, or the timeout)."""
        if op in self.unsupported or self.done:
            return True
        mine = [f for f in self.findings if f.op == op]
        return len(mine) >= self.max_findings or any(f.kind != "disagreement" for f in mine)

    def shrink(self, op: str, case: _Case, outcome: _Outcome) -> tuple[_Outcome, int]:
        """The smallest case failing the same way (op, preset, kind) found in the time given."""
        if case.choices is None or outcome.kind == "timeout":
            return outcome, 0
        want = (outcome.kind, _preset_of(outcome.request))
        best = outcome
        deadline = time.monotonic() + self.shrink_seconds
        tries = 0
        budget = MAX_FAULT_SHRINKS if self.process is not None and outcome.kind in _FAULTS else None

        def attempt(choices: list[int], current: list[int]) -> list[int] | None:
            nonlocal best, tries
            if (budget is not None and tries >= budget) or self.done:
                return None  # the budget is spent: nothing more is asked
            tries += 1
            if self.progress is not None and tries % 20 == 0:
                self.report_progress(op, True)
            try:
                fields, used = replay(op, self.presets, self.faults, choices)
            except Exception:  # a replay no builder can finish: not this finding
                return None
            if not _smaller(used, current) or self.skip(fields, op):
                return None
            found = self.ask_one(op, fields)
            if found is None or (found.kind, _preset_of(found.request)) != want:
                return None
            best = found
            return used

        _shrink_choices(list(case.choices), attempt, deadline)
        return best, tries

    def skip(self, fields: Request, op: str) -> bool:
        """Whether a case exercises an excluded clause (it is then not compared)."""
        if not self.exclude_clauses:
            return False
        request, fields_line = {"id": None, **fields}, _dump(fields)
        clauses = clauses_involved(request, self.expected(fields_line, fields, None))
        return bool(self.exclude_clauses.intersection(clauses))

    def finding(self, op: str, outcome: _Outcome, examples: int, shrinks: int) -> Finding:
        request = outcome.request
        line = shlex.quote(_dump(request))
        if self.process is not None:
            reproduce = f"echo {line} | {self.process.display}"
        else:
            func = _callable_command(self.target)
            if func:
                module = func.rpartition(".")[0]
                code = (
                    f"import {module}; from moonrules.conformance.fuzz import serve; serve({func})"
                )
                reproduce = f"echo {line} | python -c {shlex.quote(code)}"
            else:
                reproduce = f"target(json.loads({_dump(request)!r}))"
        return Finding(
            op=op,
            kind=outcome.kind,
            request=request,
            expected=outcome.expected,
            actual=outcome.actual,
            detail=outcome.detail,
            clauses=clauses_involved(request, outcome.expected, outcome.actual),
            reproduce=reproduce,
            examples=examples,
            shrinks=shrinks,
            stderr=outcome.tail,
        )

    def report_progress(self, op: str, shrinking: bool = False) -> None:
        if self.progress is not None:
            self.progress(
                Progress(
                    op,
                    sum(self.cases.values()),
                    len(self.findings),
                    time.monotonic() - self.started,
                    shrinking,
                )
            )

    # -- running an op

    def run_cases(self, op: str, cases: Sequence[_Case]) -> bool:
        """Run a batch of one op's cases; True when the op (or the run) is done with."""
        chosen = [c for c in cases if not self.skip(c.fields, op)]
        self.excluded += len(cases) - len(chosen)
        outcomes = self.ask_batch(op, [c.fields for c in chosen])
        for case, outcome in zip(chosen, outcomes, strict=False):
            self.cases[op] += 1
            self.count(outcome)
            if outcome is not None and self.record(op, case, outcome, self.cases[op]):
                return True
        self.report_progress(op)
        return self.op_done(op)


def _preset_of(request: Request) -> JSON:
    record = request.get("record")
    if isinstance(record, dict) and "rules" in record and "rules" not in request:
        return record["rules"]
    return request.get("rules", "standard")


def _smaller(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether choices ``a`` are simpler than ``b``: shorter, or as long and smaller."""
    if len(a) != len(b):
        return len(a) < len(b)
    return [(abs(x), x < 0) for x in a] < [(abs(x), x < 0) for x in b]


def _shrink_choices(
    best: list[int], attempt: Callable[[list[int], list[int]], list[int] | None], deadline: float
) -> list[int]:
    """Shrink a choice sequence while ``attempt`` accepts the change (it returns the
    choices used, or ``None``): drop runs of choices, then lower each choice."""
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for size in (8, 4, 3, 2, 1):
            i = 0
            while i + size <= len(best) and time.monotonic() < deadline:
                used = attempt(best[:i] + best[i + size :], best)
                if used is not None:
                    best, improved = used, True
                else:
                    i += 1
        for i in range(len(best)):
            if time.monotonic() >= deadline or i >= len(best) or best[i] == 0:
                continue
            # the smallest value accepted, by halving (as if the smaller ones failed alike)
            v = best[i]
            used = attempt([*best[:i], 0, *best[i + 1 :]], best)
            if used is not None:
                best, improved = used, True
                continue
            low, high = 0, abs(v)
            sign = 1 if v > 0 else -1
            while high - low > 1 and time.monotonic() < deadline:
                mid = (low + high) // 2
                used = attempt([*best[:i], sign * mid, *best[i + 1 :]], best)
                if used is not None:
                    best, improved, high = used, True, mid
                    if i >= len(best) or abs(best[i]) != mid:
                        break  # the change moved the choices: start again from here
                else:
                    low = mid
    return best


def _callable_command(handle: object) -> str:
    module = getattr(handle, "__module__", None)
    name = getattr(handle, "__qualname__", None)
    if not module or not name or module == "__main__" or "<" in name or "." in name:
        return ""
    return f"{module}.{name}"


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


@attrs.define
class _OpState:
    op: str
    rng: random.Random
    size: int | None
    distinct: set[str] = attrs.Factory(set)
    done: bool = False


def _run_random(
    engine: _Engine,
    names: tuple[str, ...],
    presets: tuple[str, ...],
    seed: int,
    examples: int | None,
    deadline: float | None,
    batch: int,
    valid_only: bool,
) -> None:
    """Draw and run each op's cases: ``examples`` each, one op after the other, or, with a
    ``deadline``, a batch of each op in turn until it passes."""
    faults = False if valid_only else None
    states = [_OpState(op, random.Random(f"{seed}/{op}"), space_size(op, presets)) for op in names]

    def step(state: _OpState, n: int) -> None:
        cases = []
        for _ in range(n):
            fields, choices = draw_request(state.op, presets, faults, state.rng)
            cases.append(_Case(fields, tuple(choices)))
        state.done = engine.run_cases(state.op, cases) or engine.done
        if state.size is not None and not state.done:
            for case in cases:
                fields = case.fields
                line = _dump(fields)
                if engine.expected(line, fields, None).get("ok") is True:
                    state.distinct.add(canonical(fields))
            if len(state.distinct) >= state.size:
                engine.notes.append(
                    f"{state.op}: all {state.size} legal requests were drawn after "
                    f"{engine.cases[state.op]} cases (its whole space)"
                )
                state.size = None
                state.done = valid_only

    if deadline is None:
        assert examples is not None
        for state in states:
            while not state.done and engine.cases[state.op] < examples and not engine.done:
                step(state, min(batch, examples - engine.cases[state.op]))
        return
    size = min(8, batch)  # short turns first, so that every op is reached in a short run
    first = True  # every op has its first turn, however short the time
    while (first or time.monotonic() < deadline) and not engine.done:
        pending = [s for s in states if not s.done and s.op not in engine.unsupported]
        if not pending:
            break
        for state in pending:
            if (not first and time.monotonic() >= deadline) or engine.done:
                break
            step(state, size)
        first = False
        size = min(batch, size * 2)


def _run_exhaustive(
    engine: _Engine,
    names: tuple[str, ...],
    presets: tuple[str, ...],
    batch: int,
    deadline: float | None,
) -> None:
    skipped = [op for op in names if op not in FINITE_OPS]
    if skipped:
        engine.notes.append(
            f"not enumerable, skipped: {', '.join(skipped)} (fuzz them without --exhaustive)"
        )
    for op in names:
        if op in skipped or engine.done:
            continue
        it = exhaustive(op, presets)
        while True:
            if deadline is not None and time.monotonic() >= deadline:
                engine.notes.append(f"{op}: the time ran out after {engine.cases[op]} cases")
                return
            chunk = [_Case(fields, None) for fields in _take(it, batch)]
            if not chunk:
                engine.notes.append(f"{op}: every one of its {engine.cases[op]} legal requests")
                break
            if engine.run_cases(op, chunk):
                break


def _take(it: Iterator[Request], n: int) -> list[Request]:
    out = []
    for fields in it:
        out.append(fields)
        if len(out) >= n:
            break
    return out


def iter_requests(
    op: str, rules: Sequence[str] | str | None = None, n: int = 10, seed: int = 0
) -> Iterator[Request]:
    """``n`` requests of ``op`` as the fuzzer draws them with ``seed`` (to look at)."""
    names = preset_names(rules)
    if op not in OPS:
        raise FuzzError(f"unknown op {op!r}; the ops are {', '.join(OPS)}")
    rng = random.Random(f"{seed}/{op}")
    for _ in range(n):
        yield draw_request(op, names, None, rng)[0]


__all__ = [
    "COMPARE_LEVELS",
    "DEFAULT_EXAMPLES",
    "DEFAULT_MAX_FINDINGS",
    "DEFAULT_TIMEOUT",
    "MAX_FAULTS_IN_A_ROW",
    "MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED",
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
