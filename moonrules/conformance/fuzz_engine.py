"""The fuzzer's engine: each case asked of the reference and the target, the findings kept.

The engine (``_Engine``) asks both about a batch of cases at a time (pipelined to a
process), judges each answer at the comparison level asked for, counts the target's faults
in a row toward giving up on it (:data:`MAX_FAULTS_IN_A_ROW`), skips an op the target
answers with ``unknown-op``, and makes each distinct disagreement a
:class:`~moonrules.conformance.findings.Finding`, shrunk first by replaying smaller choices
(:mod:`moonrules.conformance.fuzz_shrink`). The runs (:mod:`moonrules.conformance.fuzz_runs`)
give it the cases.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from moonrules.conformance.compare import (
    CompareLevel,
    Request,
    Response,
    _dump,
    _shape_error,
    clauses_involved,
    compare,
)
from moonrules.conformance.findings import Finding, FindingKind, Progress
from moonrules.conformance.fuzz_shrink import _shrink_choices, _smaller
from moonrules.conformance.fuzz_target import (
    Handler,
    ProcessTarget,
    TargetFailure,
    _callable_command,
    _failure,
)
from moonrules.conformance.generators import replay
from moonrules.conformance.protocol import encode
from moonrules.conformance.protocol import handle as _protocol_handle
from moonrules.conformance.target import TargetFault, read_answer
from moonrules.records.record import JSON

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
    line: str | None = None
    """``fields`` as one line of JSON (:func:`_dump`), when it was written already."""


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
        self._cache: dict[str, tuple[Response, str | None]] = {}
        self._plain = reference is _protocol_handle
        self.ahead: Callable[[], bool] | None = None
        """Set by a run while it runs a batch: draws some of the next cases and asks the
        reference about them (:meth:`prefetch`), while the target answers; False when no
        more are to be drawn ahead."""
        self._seen: set[tuple[object, ...]] = set()
        self._shown: set[tuple[object, ...]] = set()

    # -- asking

    def answer(self, fields_line: str, fields: Request) -> tuple[Response, str | None]:
        """The reference's answer to a request (``id`` null), cached by request, and its
        line after the ``id`` as ``moonrules serve`` writes it (``None`` if it cannot be
        written back the same: see :func:`_tail`)."""
        entry = self._cache.get(fields_line)
        if entry is None:
            answer = self.reference({"id": None, **fields})
            entry = (answer, _tail(answer, self._plain))
            if len(self._cache) >= _REFERENCE_CACHE:
                self._cache.clear()
            self._cache[fields_line] = entry
        return entry

    def expected(self, fields_line: str, fields: Request, request_id: JSON) -> Response:
        """The reference's answer (cached by request, the ``id`` put back)."""
        return {**self.answer(fields_line, fields)[0], "id": request_id}

    def prefetch(self, fields: Request) -> str:
        """Ask the reference about a case ahead of its turn (the answer is cached); the
        case's line."""
        line = _dump(fields)
        self.answer(line, fields)
        return line

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

    def ask_batch(
        self, op: str, batch: Sequence[Request], written: Sequence[str | None] = ()
    ) -> list[_Outcome | None]:
        """Ask about several requests (pipelined to a process); one outcome each.
        ``written``: the requests' lines (:func:`_dump`) where known."""
        if self.process is None or len(batch) == 1:
            return [self.ask_one(op, fields) for fields in batch]
        process = self.process
        first = self.next_id + 1
        lines: list[str] = []
        fields_lines: list[str] = []
        for i, fields in enumerate(batch):
            self.next_id += 1
            known = written[i] if i < len(written) else None
            fields_line = _dump(fields) if known is None else known
            fields_lines.append(fields_line)
            lines.append(f'{{"id":{self.next_id},{fields_line[1:]}' if fields else "{}")
        # the reference answers while the target does, and goes on with the next cases
        # until the target's first answer is in
        sent = process.send_many(lines)
        answers = [
            self.answer(line, fields) for line, fields in zip(fields_lines, batch, strict=True)
        ]
        if sent is None and self.ahead is not None:
            while not process.answer_ready() and self.ahead():
                pass
        texts, fault = process.receive_many(len(lines)) if sent is None else ([], sent)
        failure = None if fault is None else _failure(fault)
        out: list[_Outcome | None] = []
        for i, text in enumerate(texts):
            answer, tail = answers[i]
            request_id = first + i
            if tail is not None and text == f'{{"id":{request_id},{tail}':
                out.append(None)  # the reference's own answer line: they agree
                continue
            try:
                actual = read_answer(text)
            except TargetFault as e:
                process.stop()
                failure = _failure(e)
                break
            request = {"id": request_id, **batch[i]}
            out.append(self.judge(op, request, {**answer, "id": request_id}, actual))
        if failure is None:
            return out
        # which request failed is not known: the unanswered ones again, one at a time
        for i in range(len(out), len(batch)):
            outcome = self.ask_one(op, batch[i], first + i)
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
        outcomes = self.ask_batch(op, [c.fields for c in chosen], [c.line for c in chosen])
        for case, outcome in zip(chosen, outcomes, strict=False):
            self.cases[op] += 1
            self.count(outcome)
            if outcome is not None and self.record(op, case, outcome, self.cases[op]):
                return True
        self.report_progress(op)
        return self.op_done(op)


_NULL_ID: Final = '{"id":null,'


def _tail(answer: Response, plain: bool) -> str | None:
    """``answer``'s line as ``moonrules serve`` writes it, after ``{"id":null,`` (its ``id``
    comes first); ``None`` when it has no such line, or (unless ``plain``: the protocol's
    own answers are JSON values) when the line does not read back as ``answer``, so that a
    target's line equal to it always means the same answer."""
    try:
        text = encode(answer)
    except (TypeError, ValueError, RecursionError):
        return None
    if not text.startswith(_NULL_ID):
        return None
    if not plain:
        try:
            same = json.loads(text) == answer
        except (TypeError, ValueError, RecursionError):
            same = False
        if not same:
            return None
    return text[len(_NULL_ID) :]


def _preset_of(request: Request) -> JSON:
    record = request.get("record")
    if isinstance(record, dict) and "rules" in record and "rules" not in request:
        return record["rules"]
    return request.get("rules", "standard")


__all__ = ["MAX_FAULTS_IN_A_ROW", "MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED", "MAX_FAULT_SHRINKS"]
