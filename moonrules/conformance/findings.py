"""The fuzzer's findings and its report."""

from __future__ import annotations

import shlex
from typing import Literal

import attrs

from moonrules.conformance.compare import (
    CompareLevel,
    Request,
    Response,
    _dump,
)
from moonrules.conformance.target import (
    clip,
)
from moonrules.records.record import JSON

FindingKind = Literal["disagreement", "crash", "timeout", "garbage", "unsupported"]


# ---------------------------------------------------------------------------
# Findings and the report


@attrs.define
class Finding:
    """One disagreement (or crash, hang, garbage answer), shrunk to a minimal request."""

    op: str
    kind: FindingKind
    request: Request
    """The minimal request (its ``id`` is 1)."""
    expected: Response
    """The reference's answer."""
    actual: Response | None
    """The target's answer; ``None`` when it crashed, hung or printed garbage."""
    detail: str
    """Where the answers first differ, or what went wrong with the target."""
    clauses: list[str]
    """Clauses of ``spec/rules.md`` the request involves."""
    reproduce: str
    """A command line that sends the request to the target."""
    examples: int
    """Examples of this op run before the first failing one was found (it included)."""
    shrinks: int
    """Shrinking attempts made to reach the minimal request."""
    stderr: tuple[str, ...] = ()
    """The last lines of the target's error output, for a crash."""

    @property
    def rules(self) -> JSON:
        return self.request.get("rules", "standard")

    def to_json(self) -> dict[str, JSON]:
        return {
            "op": self.op,
            "kind": self.kind,
            "rules": self.rules,
            "request": self.request,
            "expected": self.expected,
            "actual": self.actual,
            "detail": self.detail,
            "clauses": self.clauses,
            "reproduce": self.reproduce,
            "reference": _reference_command(self.request),
            "examples": self.examples,
            "shrinks": self.shrinks,
            "stderr": list(self.stderr),
        }

    def to_text(self, number: int = 1) -> str:
        what = {
            "disagreement": "the answers disagree",
            "crash": "the target crashed",
            "timeout": "the target did not answer in time",
            "garbage": "the target's answer is not a protocol answer",
            "unsupported": "the target does not support this op, which is required",
        }[self.kind]
        lines = [
            f"[{number}] {self.op} (rules: {self.rules}): {what}; found after {self.examples} "
            f"example(s), shrunk in {self.shrinks} step(s)",
            f"    clauses:   {', '.join(self.clauses) or '-'}",
            f"    request:   {_dump(self.request)}",
            f"    expected:  {_dump(self.expected)}",
            f"    actual:    {_dump(self.actual) if self.actual is not None else '(no answer)'}",
            f"    {'differs:' if self.kind == 'disagreement' else 'problem:'}   {self.detail}",
            f"    reproduce: {self.reproduce}",
            f"    reference: {_reference_command(self.request)}",
        ]
        lines += [f"    stderr:    {clip(line, 200)}" for line in self.stderr[-5:]]
        return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _reference_command(request: Request) -> str:
    return f"echo {shlex.quote(_dump(request))} | moonrules serve"


@attrs.define
class FuzzReport:
    """What a fuzzing run found: cases run per op, and the findings (empty when all agree)."""

    target: str
    seed: int
    ops: tuple[str, ...]
    rules: tuple[str, ...]
    cases: dict[str, int]
    """Examples run per op, shrinking attempts not counted."""
    findings: list[Finding]
    elapsed: float
    """Seconds the run took."""
    starts: int = 1
    """Times the target process was started (restarts after crashes, hangs, garbage)."""
    compare: CompareLevel = "strict"
    unsupported: dict[str, str] = attrs.Factory(dict)
    """Ops the target answered with ``unknown-op``, skipped: op -> its answer."""
    notes: list[str] = attrs.Factory(list)
    """What else the run has to say: an op's space used up, ops not enumerable, a dead target."""
    excluded: int = 0
    """Cases drawn but not compared, for ``exclude_clauses``."""
    gave_up: str | None = None
    """Why the run stopped early (a target that keeps failing), if it did."""

    @property
    def ok(self) -> bool:
        """Whether the target agreed with the reference on every case (and did not die)."""
        return not self.findings and self.gave_up is None

    @property
    def total(self) -> int:
        return sum(self.cases.values())

    def summary(self) -> str:
        """One line: the verdict and the cases run per op."""
        per_op = ", ".join(
            f"{op} {'unsupported' if op in self.unsupported else self.cases.get(op, 0)}"
            for op in self.ops
        )
        if self.gave_up is not None:
            head = f"the target was given up on after {_count(self.total, 'case')}"
        elif self.ok:
            head = f"no disagreement in {_count(self.total, 'case')}"
        else:
            n = len(self.findings)
            head = f"{_count(n, 'finding')} in {_count(self.total, 'case')}"
        level = "" if self.compare == "strict" else f", compare {self.compare}"
        return f"moonrules fuzz: {head} (seed {self.seed}{level}, {self.elapsed:.1f} s): {per_op}"

    def to_text(self) -> str:
        parts = [self.summary()]
        for op, answer in self.unsupported.items():
            parts.append(f"unsupported: {op} (the target answered {clip(answer, 160)}); skipped")
        parts += self.notes
        if self.gave_up is not None:
            parts.append(self.gave_up)
        for i, f in enumerate(self.findings, 1):
            parts.append("")
            parts.append(f.to_text(i))
        if self.findings:
            parts.append("")
            parts.append(
                f"target: {self.target}; started {self.starts} time(s); "
                f"rerun with --seed {self.seed}"
            )
        return "\n".join(parts)

    def to_json(self) -> dict[str, JSON]:
        return {
            "target": self.target,
            "seed": self.seed,
            "ops": list(self.ops),
            "rules": list(self.rules),
            "compare": self.compare,
            "cases": dict(self.cases),
            "elapsed": round(self.elapsed, 3),
            "starts": self.starts,
            "ok": self.ok,
            "unsupported": dict(self.unsupported),
            "notes": list(self.notes),
            "excluded": self.excluded,
            "gave_up": self.gave_up,
            "findings": [f.to_json() for f in self.findings],
        }


@attrs.frozen
class Progress:
    """Where a run stands, passed to the ``progress`` callback after each batch."""

    op: str
    cases: int
    """Cases run so far, every op."""
    findings: int
    elapsed: float
    shrinking: bool
    """Whether the run is shrinking a finding."""
