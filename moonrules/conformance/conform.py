"""Conformance: run the protocol's vectors against another Moon engine.

:func:`load_vectors` reads the conformance vectors (``spec/vectors/*.jsonl``,
generated from the reference by ``scripts/gen_vectors.py``; see
``spec/protocol.md``, section 7), :func:`select` filters them, and :func:`run`
starts a target command, speaks the protocol to it over its standard input and
output (through :class:`moonrules.conformance.target.Target`), and compares each answer with
the reference's. A target that hangs, dies or writes garbage is reported, never
waited on for ever: every request has a timeout, a target that dies is started
again, and one that keeps dying is given up on (the vectors left count as failed).

A target conforms when, for every vector, its answer has the same ``id`` and
``ok`` as the reference's; the same ``result`` (as JSON values) when ``ok`` is
true; the same ``error.code`` and ``error.rule`` when it is false (the message is
free).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final

import attrs

from moonrules.conformance.target import Target, TargetExtraLine, TargetFault, TargetGarbage
from moonrules.records.record import JSON, RecordError, rules_from_json
from moonrules.rules.errors import MoonError, ParseError
from moonrules.rules.ruleset import rules_by_name

VECTOR_DIRS: Final = (
    Path(__file__).resolve().parent / "vectors",
    Path(__file__).resolve().parents[2] / "spec" / "vectors",
)
"""Where the vectors are looked for, in order: inside the package, then in the repository."""

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a target may take to answer one request."""

MAX_RESTARTS_IN_A_ROW: Final = 5
"""A target that dies this many times in a row without answering once is given up on."""

_CLAUSE: Final = re.compile(r"[A-Z]+-[0-9]+")


class ConformError(MoonError):
    """The run cannot be made: no vectors, a damaged vector file, a filter matching nothing."""


@attrs.frozen(slots=True)
class Vector:
    """One conformance case: the request to send, the reference's answer, the clauses."""

    name: str
    request: JSON
    expected: dict[str, JSON]
    clauses: tuple[str, ...]
    raw: bool = False
    """Whether ``request`` is the text of the line itself (for unreadable lines)."""

    @property
    def line(self) -> str:
        """The request line to send (no line feed)."""
        if self.raw:
            assert isinstance(self.request, str)
            return self.request
        return json.dumps(self.request, separators=(",", ":"))

    @property
    def op(self) -> str | None:
        """The operation the request names, if it names one."""
        if self.raw or not isinstance(self.request, dict):
            return None
        op = self.request.get("op")
        return op if isinstance(op, str) else None

    @property
    def rules(self) -> str | None:
        """The preset the case is played under (``"custom"`` for a rule set no preset is)."""
        if self.raw or not isinstance(self.request, dict):
            return None
        value = self.request.get("rules", "standard")
        record = self.request.get("record")
        if isinstance(record, dict) and "rules" in record:
            value = record["rules"]
        try:
            return rules_from_json(value).name or "custom"
        except (RecordError, TypeError):
            return None


# ---------------------------------------------------------------------------
# Vectors


def vector_dir() -> Path:
    """The first of :data:`VECTOR_DIRS` that holds vector files."""
    for d in VECTOR_DIRS:
        if d.is_dir() and any(d.glob("*.jsonl")):
            return d
    raise ConformError(
        "no conformance vectors found (looked in "
        + ", ".join(str(d) for d in VECTOR_DIRS)
        + "); give a directory with --vectors"
    )


def load_vectors(directory: Path | None = None) -> list[Vector]:
    """Every vector of every ``*.jsonl`` file of ``directory``, files in name order.

    Each file's provenance header is checked: a file whose content does not
    match its hash was edited or damaged, and is refused.
    """
    directory = vector_dir() if directory is None else directory
    paths = sorted(directory.glob("*.jsonl"))
    if not paths:
        raise ConformError(f"{directory} holds no vector files (*.jsonl)")
    out: list[Vector] = []
    for path in paths:
        header, _, body = path.read_text(encoding="utf-8").partition("\n")
        try:
            provenance = json.loads(header)["provenance"]
            digest = provenance["sha256"]
        except (ValueError, KeyError, TypeError):
            raise ConformError(f"{path}: the first line is not a provenance header") from None
        if hashlib.sha256(body.encode("utf-8")).hexdigest() != digest:
            raise ConformError(
                f"{path}: the vectors do not match the hash in their header; the file was "
                "edited or damaged (regenerate it with scripts/gen_vectors.py)"
            )
        for number, text in enumerate(body.splitlines(), 2):
            try:
                v = json.loads(text)
                out.append(
                    Vector(
                        name=v["name"],
                        request=v["request"],
                        expected=v["expected"],
                        clauses=tuple(v["clauses"]),
                        raw=bool(v.get("raw", False)),
                    )
                )
            except (ValueError, KeyError, TypeError) as e:
                raise ConformError(f"{path}:{number}: not a vector: {e}") from None
    return out


def select(
    vectors: Iterable[Vector],
    *,
    ops: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    clauses: Sequence[str] | None = None,
) -> list[Vector]:
    """The vectors of the given operations, presets (or aliases) and clauses.

    Each filter that is given must hold (a vector matches ``clauses`` when it
    exercises any of them). ``None`` means no filter. A preset name that matches
    no preset, or a clause that is not written like ``BID-3``, is refused.
    """
    wanted_rules: set[str] | None = None
    if rules is not None:
        wanted_rules = set()
        for name in rules:
            if name == "custom":
                wanted_rules.add(name)
                continue
            try:
                preset = rules_by_name(name).name
            except ParseError as e:
                raise ConformError(f"--rules: {e}") from None
            assert preset is not None
            wanted_rules.add(preset)
    if ops is not None:
        from moonrules.conformance.protocol import OPS

        unknown = [op for op in ops if op not in OPS]
        if unknown:
            raise ConformError(
                f"--ops: no operation is called {', '.join(unknown)}; the operations are "
                + ", ".join(OPS)
            )
    if clauses is not None:
        bad = [c for c in clauses if not _CLAUSE.fullmatch(c)]
        if bad:
            raise ConformError(f"--clauses: {', '.join(bad)} is not a clause ID like BID-3")
    out = []
    for v in vectors:
        if ops is not None and v.op not in ops:
            continue
        if wanted_rules is not None and v.rules not in wanted_rules:
            continue
        if clauses is not None and not set(clauses) & set(v.clauses):
            continue
        out.append(v)
    return out


# ---------------------------------------------------------------------------
# Comparing answers


def json_equal(a: JSON, b: JSON) -> bool:
    """Equality of JSON values: ``1`` equals ``1.0``, but ``true`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def mismatch(expected: Mapping[str, JSON], actual: JSON) -> str | None:
    """Why ``actual`` does not conform to ``expected``, or ``None`` if it does."""
    if not isinstance(actual, dict):
        return "the answer is not a JSON object"
    if "id" not in actual or not json_equal(actual["id"], expected["id"]):
        return "the answer's id is not the request's"
    if actual.get("ok") is not expected["ok"]:
        return f"ok is {json.dumps(actual.get('ok'))}, expected {json.dumps(expected['ok'])}"
    if expected["ok"]:
        if "result" not in actual or not json_equal(actual["result"], expected["result"]):
            return "the result differs"
        return None
    error = actual.get("error")
    if not isinstance(error, dict):
        return "the answer has no error object"
    want = expected["error"]
    if error.get("code") != want["code"]:
        return f"the error code is {json.dumps(error.get('code'))}, expected {want['code']!r}"
    if error.get("rule") != want["rule"]:
        return f"the error rule is {json.dumps(error.get('rule'))}, expected {want['rule']!r}"
    if not isinstance(error.get("message"), str):
        return "the error has no message"
    return None


# ---------------------------------------------------------------------------
# Running the vectors


@attrs.frozen(slots=True)
class Outcome:
    """One vector's outcome: passed when ``problem`` is ``None``."""

    vector: Vector
    actual: str | None
    """The target's answer line, or ``None`` when there was none."""
    problem: str | None

    @property
    def passed(self) -> bool:
        return self.problem is None


def run(
    argv: Sequence[str],
    vectors: Sequence[Vector],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> list[Outcome]:
    """Run ``vectors`` against the target command ``argv``; one outcome per vector, in order.

    The target is spoken to through :class:`moonrules.conformance.target.Target`. It is
    started once, and again after each time it dies, times out or writes a line
    that is not a JSON object (that vector fails); after
    :data:`MAX_RESTARTS_IN_A_ROW` deaths without an answer in between, the
    remaining vectors fail without being sent. A second line after an answer
    (the protocol wants exactly one) fails the vector whose answer it followed,
    when it is seen before the next vector is sent (one after the last answer is
    not waited for); the target is started afresh and the next vector sent to it.
    Raises :class:`OSError` if the command cannot be started at all.
    """
    target = Target(argv, timeout=timeout, env=env, cwd=cwd)
    target.start()
    outcomes: list[Outcome] = []
    deaths = 0
    try:
        for v in vectors:
            if deaths >= MAX_RESTARTS_IN_A_ROW:
                outcomes.append(
                    Outcome(v, None, f"not sent: the target died {deaths} times in a row")
                )
                continue
            try:
                try:
                    answer, line = target.ask_object(v.line)
                except TargetExtraLine as extra:
                    if not (extra.after_answer and outcomes):
                        raise
                    # the previous vector's fault: it fails, and this one is sent afresh
                    outcomes[-1] = attrs.evolve(outcomes[-1], problem=str(extra))
                    answer, line = target.ask_object(v.line)
            except TargetGarbage as garbage:
                deaths = 0
                outcomes.append(Outcome(v, garbage.line, garbage.reason))
                continue
            except TargetFault as fault:
                deaths += 1
                outcomes.append(Outcome(v, None, str(fault)))
                continue
            deaths = 0
            outcomes.append(Outcome(v, line, mismatch(v.expected, answer)))
    finally:
        target.close()
    return outcomes


def _compact(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def report(outcomes: Sequence[Outcome], *, elapsed: float | None = None) -> list[str]:
    """The lines to print: ``N passed, M failed``, then each failure."""
    failed = [o for o in outcomes if not o.passed]
    summary = f"{len(outcomes) - len(failed)} passed, {len(failed)} failed"
    if elapsed is not None:
        summary += f" ({elapsed:.1f} s)"
    lines = [summary]
    for o in failed:
        v = o.vector
        lines.append("")
        lines.append(f"FAIL {v.name}: {o.problem}")
        lines.append(f"  clauses:  {', '.join(v.clauses) or '-'}")
        lines.append(f"  request:  {v.line}")
        lines.append(f"  expected: {_compact(v.expected)}")
        lines.append(f"  actual:   {o.actual if o.actual is not None else '(no answer)'}")
    return lines


def conform(
    argv: Sequence[str],
    *,
    ops: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    clauses: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    directory: Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> tuple[list[Outcome], list[str]]:
    """Load, filter and run the vectors; the outcomes and the report's lines."""
    chosen = select(load_vectors(directory), ops=ops, rules=rules, clauses=clauses)
    if not chosen:
        raise ConformError("no vector matches the filters given")
    start = time.monotonic()
    outcomes = run(argv, chosen, timeout=timeout, env=env, cwd=cwd)
    return outcomes, report(outcomes, elapsed=time.monotonic() - start)


__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_RESTARTS_IN_A_ROW",
    "VECTOR_DIRS",
    "ConformError",
    "Outcome",
    "Target",
    "TargetFault",
    "Vector",
    "conform",
    "json_equal",
    "load_vectors",
    "mismatch",
    "report",
    "run",
    "select",
    "vector_dir",
]
