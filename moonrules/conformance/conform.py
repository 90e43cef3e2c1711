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
import stat
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

import attrs

from moonrules.conformance.protocol import OPS as PROTOCOL_OPS
from moonrules.conformance.target import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    FaultKind,
    Target,
    TargetCrash,
    TargetError,
    TargetExtraLine,
    TargetFault,
    TargetGarbage,
    check_timeout,
    read_answer,
)
from moonrules.records.jsontext import (
    JSONTextError,
    TooLarge,
    loads,
    read_bounded,
    size_text,
)
from moonrules.records.record import JSON, RecordError, json_kind, rules_from_json
from moonrules.rules.contract import check_arguments
from moonrules.rules.errors import MoonError, ParseError, quote
from moonrules.rules.ruleset import rules_by_name

VECTOR_DIRS: Final = (
    Path(__file__).resolve().parent / "data" / "vectors",
    Path(__file__).resolve().parents[2] / "spec" / "vectors",
)
"""Where the vectors are looked for, in order: inside the package (an installed wheel),
then in the repository (a checkout)."""

CompareLevel = Literal["strict", "code", "outcome"]
COMPARE_LEVELS: Final[tuple[CompareLevel, ...]] = ("strict", "code", "outcome")
"""What must agree: ``strict``, the result, or the error's code and clause; ``code``, the
result, or the error's code; ``outcome``, only accepted or refused, and the result (a replay
violation's clause is compared only at ``strict``)."""

CARRIER: Final = "tiles"
"""The op the protocol-level vectors (id echo, presets, rule objects) are written with;
they are sent with another op the target supports when it does not support this one."""

MAX_FAULTS_IN_A_ROW: Final = 5
"""A target that has not answered any vector properly yet and fails this many in a row the
same way (it exits, does not answer in time, or answers with something that is not a JSON
object) is given up on: each such fault costs a restart, or the timeout."""

MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED: Final = 25
"""The same, for a target that has answered a vector properly (right or wrong): more, for the
vectors of a kind come together (17 unreadable lines in a row, which an engine may well fail
alike), and one fault in them should not cost the rest of the run."""

MAX_RESTARTS_IN_A_ROW: Final = MAX_FAULTS_IN_A_ROW
"""The former name of :data:`MAX_FAULTS_IN_A_ROW`."""

_FAULT_WORDS: Final[dict[str, str]] = {
    "crash": "exited (or closed its output) without answering",
    "timeout": "did not answer in time",
    "garbage": "answered with a line that is not a JSON object",
}

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
    def protocol_level(self) -> bool:
        """Whether the vector tests the protocol rather than an operation: it names no
        operation (or one that does not exist), or it is written with :data:`CARRIER`."""
        from moonrules.conformance.protocol import OPS

        return self.op is None or self.op not in OPS or self.op == CARRIER

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


MAX_VECTOR_FILE_BYTES: Final = 64 * 2**20
"""The largest vector file read (64 MiB; the shipped ones are under 2 MiB)."""


def load_vectors(directory: Path | None = None) -> list[Vector]:
    """Every vector of every ``*.jsonl`` file of ``directory``, files in name order.

    Each file's provenance header is checked: a file whose content does not
    match its hash was edited or damaged, and is refused. Each file is read as a
    record is (:mod:`moonrules.records.jsontext`): at most :data:`MAX_VECTOR_FILE_BYTES`,
    UTF-8, strict JSON nested at most 64 deep, and each vector must have the shape of
    ``spec/schema/vector.schema.json``; anything else is a :class:`ConformError` of one
    line naming the file and the line.
    """
    check_arguments(load_vectors, locals())
    directory = vector_dir() if directory is None else directory
    paths = sorted(directory.glob("*.jsonl"))
    if not paths:
        raise ConformError(f"{directory} holds no vector files (*.jsonl)")
    out: list[Vector] = []
    for path in paths:
        header, _, body = _vector_text(path).partition("\n")
        digest = _provenance_digest(header)
        if digest is None:
            raise ConformError(f"{path}:1: the first line is not a provenance header")
        if hashlib.sha256(body.encode("utf-8")).hexdigest() != digest:
            raise ConformError(
                f"{path}: the vectors do not match the hash in their header; the file was "
                "edited or damaged (regenerate it with scripts/gen_vectors.py)"
            )
        for number, text in enumerate(body.splitlines(), 2):
            out.append(_vector(text, f"{path}:{number}"))
    return out


def _vector_text(path: Path) -> str:
    """The text of a vector file, read within :data:`MAX_VECTOR_FILE_BYTES`."""
    if not stat.S_ISREG(os.stat(path).st_mode):  # (a FIFO would block the opening)
        raise ConformError(f"{path}: not a regular file, so not a vector file")
    with open(path, "rb") as f:
        try:
            data = read_bounded(f, MAX_VECTOR_FILE_BYTES)
        except TooLarge:
            raise ConformError(
                f"{path}: larger than {size_text(MAX_VECTOR_FILE_BYTES)}, so not a vector file"
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConformError(f"{path}: byte {e.start} is not UTF-8 text: not a vector file") from None


def _provenance_digest(header: str) -> str | None:
    try:
        value = loads(header)
    except JSONTextError:
        return None
    provenance = value.get("provenance") if isinstance(value, dict) else None
    digest = provenance.get("sha256") if isinstance(provenance, dict) else None
    return digest if isinstance(digest, str) else None


_VECTOR_FIELDS: Final = ("name", "request", "expected", "clauses", "raw")


def _vector(text: str, where: str) -> Vector:
    """One line of a vector file as a :class:`Vector`; :class:`ConformError` naming ``where``
    (``file:line``) and what is wrong."""
    try:
        v = loads(text)
    except JSONTextError as e:
        at = f" (column {e.column})" if e.column is not None else ""
        raise ConformError(f"{where}: not JSON: {e.message}{at}") from None
    problem = _vector_problem(v)
    if problem is not None:
        raise ConformError(f"{where}: not a vector: {problem}")
    return Vector(
        name=v["name"],
        request=v["request"],
        expected=v["expected"],
        clauses=tuple(v["clauses"]),
        raw=bool(v.get("raw", False)),
    )


def _vector_problem(v: JSON) -> str | None:
    """What keeps ``v`` from being a vector (``spec/schema/vector.schema.json``), or ``None``."""
    if not isinstance(v, dict):
        return f"a vector is a JSON object, not {json_kind(v)}"
    for key in v:
        if key not in _VECTOR_FIELDS:
            return f"unknown member {quote(key)}; a vector has {', '.join(_VECTOR_FIELDS)}"
    for key in _VECTOR_FIELDS[:4]:
        if key not in v:
            return f"it has no {key!r}"
    if not isinstance(v["name"], str) or not v["name"]:
        return f"'name' is a non-empty string, not {json_kind(v['name'])}"
    if "raw" in v and v["raw"] is not True:
        return "'raw' is true when it is given"
    if v.get("raw") and not isinstance(v["request"], str):
        return f"the request of a raw vector is a string, not {json_kind(v['request'])}"
    clauses = v["clauses"]
    if not isinstance(clauses, list) or not all(
        isinstance(c, str) and _CLAUSE.fullmatch(c) for c in clauses
    ):
        return "'clauses' is a list of clause IDs like \"BID-3\""
    return _expected_problem(v["expected"])


def _expected_problem(expected: JSON) -> str | None:
    if not isinstance(expected, dict):
        return f"'expected' is an answer object, not {json_kind(expected)}"
    if "id" not in expected:
        return "'expected' has no 'id'"
    if not isinstance(expected.get("ok"), bool):
        return "'expected' has no 'ok' (true or false)"
    if expected["ok"]:
        return None if "result" in expected else "'expected' is ok and has no 'result'"
    error = expected.get("error")
    if not isinstance(error, dict):
        return "'expected' is not ok and has no 'error' object"
    for key in ("code", "message"):
        if not isinstance(error.get(key), str):
            return f"'expected.error' has no {key!r} string"
    if "rule" not in error or not (error["rule"] is None or isinstance(error["rule"], str)):
        return "'expected.error' has no 'rule' (a clause ID or null)"
    return None


def select(
    vectors: Iterable[Vector],
    *,
    ops: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    clauses: Sequence[str] | None = None,
    exclude_rules: Sequence[str] | None = None,
    exclude_clauses: Sequence[str] | None = None,
    valid_only: bool = False,
) -> list[Vector]:
    """The vectors of the given operations, presets (or aliases) and clauses.

    Each filter that is given must hold (a vector matches ``clauses`` when it
    exercises any of them; it is left out by ``exclude_rules`` when its preset is one
    of them, by ``exclude_clauses`` when it exercises any of them). ``None`` means no
    filter. ``valid_only`` leaves out the vectors whose expected answer is a refusal.
    The protocol-level vectors (no op, or one no operation is called, and those of
    :data:`CARRIER`) are kept whatever ``ops`` says: they test the protocol itself,
    and :func:`run` sends the carrier's with an op the target supports. A preset name
    that matches no preset, or a clause that is not written like ``BID-3``, is refused.
    """
    check_arguments(select, locals())
    wanted_rules = None if rules is None else _preset_set(rules, "--rules")
    unwanted_rules = _preset_set(exclude_rules or (), "--exclude-rules")
    if ops is not None:
        from moonrules.conformance.protocol import OPS

        unknown = [op for op in ops if op not in OPS]
        if unknown:
            raise ConformError(
                f"--ops: no operation is called {', '.join(unknown)}; the operations are "
                + ", ".join(OPS)
            )
    for flag, names in (("--clauses", clauses), ("--exclude-clauses", exclude_clauses)):
        bad = [c for c in names or () if not _CLAUSE.fullmatch(c)]
        if bad:
            raise ConformError(f"{flag}: {', '.join(bad)} is not a clause ID like BID-3")
    out = []
    for v in vectors:
        if ops is not None and v.op not in ops and not v.protocol_level:
            continue
        if wanted_rules is not None and v.rules not in wanted_rules:
            continue
        if v.rules in unwanted_rules:
            continue
        if clauses is not None and not set(clauses) & set(v.clauses):
            continue
        if exclude_clauses and set(exclude_clauses) & set(v.clauses):
            continue
        if valid_only and not v.expected.get("ok"):
            continue
        out.append(v)
    return out


def _preset_set(names: Sequence[str], flag: str) -> set[str]:
    out: set[str] = set()
    for name in names:
        if name == "custom":
            out.add(name)
            continue
        try:
            preset = rules_by_name(name).name
        except ParseError as e:
            raise ConformError(f"{flag}: {e}") from None
        assert preset is not None
        out.add(preset)
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


def mismatch(
    expected: Mapping[str, JSON], actual: JSON, level: CompareLevel = "strict"
) -> str | None:
    """Why ``actual`` does not conform to ``expected`` at ``level``, or ``None`` if it does."""
    if not isinstance(actual, dict):
        return "the answer is not a JSON object"
    if "id" not in actual or not json_equal(actual["id"], expected["id"]):
        return "the answer's id is not the request's"
    if actual.get("ok") is not expected["ok"]:
        return f"ok is {json.dumps(actual.get('ok'))}, expected {json.dumps(expected['ok'])}"
    if expected["ok"]:
        if "result" not in actual:
            return "the answer has no result"
        want, got = expected["result"], actual["result"]
        if isinstance(want, dict) and isinstance(got, dict):
            want, got = _free_text_out(want, level), _free_text_out(got, level)
        if not json_equal(got, want):
            return "the result differs"
        return None
    error = actual.get("error")
    if not isinstance(error, dict):
        return "the answer has no error object"
    want_error = expected["error"]
    if level != "outcome" and error.get("code") != want_error["code"]:
        return f"the error code is {json.dumps(error.get('code'))}, expected {want_error['code']!r}"
    if level == "strict" and error.get("rule") != want_error["rule"]:
        return f"the error rule is {json.dumps(error.get('rule'))}, expected {want_error['rule']!r}"
    if not isinstance(error.get("message"), str):
        return "the error has no message"
    return None


def _free_text_out(result: dict[str, JSON], level: CompareLevel) -> dict[str, JSON]:
    """A replay result without its violation's message (not normative), nor its clause
    below ``strict``."""
    violation = result.get("violation")
    if not isinstance(violation, dict):
        return result
    dropped = ("message",) if level == "strict" else ("message", "rule")
    return {**result, "violation": {k: v for k, v in violation.items() if k not in dropped}}


# ---------------------------------------------------------------------------
# Running the vectors

Status = Literal["passed", "failed", "unsupported", "not-sent"]


@attrs.frozen(slots=True)
class Outcome:
    """One vector's outcome: passed when ``problem`` is ``None``.

    ``status`` tells a failure from an op the target does not support (``unsupported``:
    the vector was skipped) and from a vector never sent (``not-sent``: the target was
    given up on). ``sent`` is the vector as sent: a protocol-level vector goes with
    another op when the target does not support :data:`CARRIER`.
    """

    vector: Vector
    actual: str | None
    """The target's answer line, or ``None`` when there was none."""
    problem: str | None
    status: Status = "passed"
    sent: Vector | None = None
    fault: FaultKind | None = None
    """How the target failed to answer (``crash``, ``timeout``, ``garbage``), if it did."""

    @property
    def passed(self) -> bool:
        return self.problem is None and self.status == "passed"


@attrs.define
class _Runner:
    target: Target
    level: CompareLevel
    require: frozenset[str]
    progress: Callable[[int, int, int], None] | None
    outcomes: list[Outcome] = attrs.Factory(list)
    unsupported: dict[str, str] = attrs.Factory(dict)
    supported: list[str] = attrs.Factory(list)
    dead: str | None = None
    total: int = 0
    last_fault: TargetFault | None = None
    answered: bool = False
    """Whether the target has answered a vector properly (a JSON object) in this run."""

    def ask(self, v: Vector, original: Vector) -> Outcome:
        try:
            try:
                line = self.target.ask(v.line)
            except TargetExtraLine as extra:
                if not (extra.after_answer and self.outcomes):
                    raise
                # the previous vector's fault: it fails, and this one is sent afresh
                self.outcomes[-1] = attrs.evolve(
                    self.outcomes[-1], problem=str(extra), status="failed", fault="garbage"
                )
                self.give_up_if_dead(extra)
                if self.dead is not None:
                    return self.not_sent(original)
                line = self.target.ask(v.line)
            answer = read_answer(line)
        except TargetGarbage as garbage:
            self.target.stop()
            self.last_fault = garbage
            return Outcome(original, garbage.line, garbage.reason, "failed", v, "garbage")
        except TargetFault as fault:
            self.last_fault = fault
            return Outcome(original, None, str(fault), "failed", v, fault.kind)
        if v.op is not None and v.op in PROTOCOL_OPS and _unknown_op(answer, v.expected):
            self.answered = True
            if v.op not in self.require:
                self.unsupported.setdefault(v.op, line)
                return Outcome(original, line, None, "unsupported", v)
        elif v.op is not None and v.op not in self.supported and v.op in PROTOCOL_OPS:
            self.supported.append(v.op)
        self.answered = True
        problem = mismatch(v.expected, answer, self.level)
        return Outcome(original, line, problem, "failed" if problem else "passed", v)

    def give_up_if_dead(self, last: TargetFault | None) -> None:
        """Give up on the target when the vectors last asked failed in a row, one kind of
        fault :data:`MAX_FAULTS_IN_A_ROW` times (:data:`MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED`
        once it has answered a vector properly); a proper answer, even a wrong one, ends
        the run of faults."""
        limit = MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED if self.answered else MAX_FAULTS_IN_A_ROW
        counts: dict[str, int] = {}
        kind = None
        for o in reversed(self.outcomes):
            if o.fault is None:
                break
            counts[o.fault] = counts.get(o.fault, 0) + 1
            if counts[o.fault] >= limit:
                kind = o.fault
                break
        if kind is None:
            return
        left = self.total - len(self.outcomes)
        tail = last.tail if isinstance(last, TargetCrash) else ()
        problem = self.outcomes[-1].problem
        self.dead = (
            f"the target was given up on: it {_FAULT_WORDS[kind]} {limit} times "
            f"in a row; the {left} vector{' left was' if left == 1 else 's left were'} not sent "
            f"(last: {problem})" + "".join(f"\n  stderr: {t}" for t in tail[-10:])
        )

    def not_sent(self, v: Vector) -> Outcome:
        return Outcome(v, None, f"not sent: {self.dead}", "not-sent")

    def run(self, v: Vector) -> None:
        if self.dead is not None:
            self.outcomes.append(self.not_sent(v))
            return
        sent = v
        if v.op in self.unsupported:
            carried = self.carry(v) if v.op == CARRIER else None
            if carried is None:
                self.outcomes.append(Outcome(v, None, None, "unsupported"))
                return
            sent = carried
        outcome = self.ask(sent, v)
        if outcome.status == "unsupported" and v.op == CARRIER:
            carried = self.carry(v)
            if carried is not None:
                outcome = self.ask(carried, v)
        self.outcomes.append(outcome)
        if outcome.fault is not None:
            self.give_up_if_dead(self.last_fault)
        if self.progress is not None:
            failed = sum(o.status == "failed" for o in self.outcomes)
            self.progress(len(self.outcomes), failed, 0)

    def carry(self, v: Vector) -> Vector | None:
        """``v`` written with an op the target supports, if one is known (see :func:`carry`)."""
        for op in self.supported:
            carried = carry(v, op)
            if carried is not None:
                return carried
        return None


def _unknown_op(answer: dict[str, JSON], expected: Mapping[str, JSON]) -> bool:
    """Whether the target answered ``unknown-op`` where the reference does not."""
    error = answer.get("error")
    want = expected.get("error")
    return (
        answer.get("ok") is False
        and isinstance(error, dict)
        and error.get("code") == "unknown-op"
        and not (isinstance(want, dict) and want.get("code") == "unknown-op")
    )


_CARRIED_FIELDS: Final[dict[str, tuple[dict[str, JSON], ...]]] = {
    "legal_bids": ({"bids": []},),
    "auction": ({"bids": []},),
    "led_suit": tuple({"trump": t, "tile": "2-1"} for t in ("none", 6, 2, "doubles")),
    "legal_plays": tuple({"trump": t, "hand": ["2-1"], "trick": []} for t in ("none", 6, 2)),
    "trick_winner": tuple(
        {"trump": t, "trick": trick}
        for t in ("none", 6, 2)
        for trick in (["2-1", "3-1", "3-2"], ["2-1", "3-1", "3-2", "4-1"])
    ),
    "score_hand": tuple(
        {"bidder": 0, "bid": bid, "tricks": tricks}
        for bid in (4, 5, 3)
        for tricks in ([7, 0, 0], [7, 0, 0, 0])
    ),
    "game_winner": ({"scores": [0, 0, 0]}, {"scores": [0, 0]}),
}


def carry(v: Vector, op: str) -> Vector | None:
    """A protocol-level vector of :data:`CARRIER` written with ``op`` instead.

    The request keeps its ``id``, ``rules`` and any other member, and gets fields of
    ``op`` for which the reference's answer is the same kind of answer as before
    (accepted, or refused with the same code and clause); the expected answer is the
    reference's. ``None`` if no such fields are known for ``op``.
    """
    from moonrules.conformance.protocol import handle

    if v.raw or not isinstance(v.request, dict) or v.op != CARRIER:
        return None
    for fields in _CARRIED_FIELDS.get(op, ()):
        request = {**v.request, "op": op, **fields}
        expected = handle(request)
        want, got = v.expected, expected
        same = got["ok"] == want["ok"] and (
            got["ok"]
            or (got["error"]["code"], got["error"]["rule"])
            == (want["error"]["code"], want["error"]["rule"])
        )
        if same:
            return Vector(f"{v.name} (as {op})", request, expected, v.clauses)
    return None


def run(
    argv: Sequence[str],
    vectors: Sequence[Vector],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    compare: CompareLevel = "strict",
    require: Sequence[str] = (),
    progress: Callable[[int, int, int], None] | None = None,
    startup_timeout: float = STARTUP_TIMEOUT,
) -> list[Outcome]:
    """Run ``vectors`` against the target command ``argv``; one outcome per vector, in order.

    The target is spoken to through :class:`moonrules.conformance.target.Target`. It is
    started once, and again after each time it dies, times out or writes a line
    that is not a JSON object (that vector fails); after :data:`MAX_FAULTS_IN_A_ROW`
    faults of one kind without a proper answer in between
    (:data:`MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED` once it has answered one), it is given up on: the
    remaining vectors are not sent (status ``not-sent``, their ``problem`` saying why,
    once, in the same words). A second line after an answer
    (the protocol wants exactly one) fails the vector whose answer it followed,
    when it is seen before the next vector is sent (one after the last answer is
    not waited for); the target is started afresh and the next vector sent to it.

    Answers are compared at ``compare`` (:data:`COMPARE_LEVELS`). An op the target
    answers with ``unknown-op`` is unsupported: its vectors are skipped (status
    ``unsupported``), unless it is in ``require``; the protocol-level vectors of
    :data:`CARRIER` are then sent with an op the target supports (:func:`carry`).
    ``progress(done, failed, total)`` is called after each vector. The timeout counts from
    when the target reads a request; a target just started may take ``startup_timeout``
    to read its first. Raises :class:`OSError` if the command cannot be started at all.
    """
    target = Target(argv, timeout=timeout, env=env, cwd=cwd, startup_timeout=startup_timeout)
    target.start()
    runner = _Runner(target, compare, frozenset(require), None, total=len(vectors))
    if progress is not None:
        total = len(vectors)
        runner.progress = lambda done, failed, _: progress(done, failed, total)
    # the carrier's vectors last, once the ops the target supports are known; before them the
    # lines that are no request (unreadable, or no object), which many engines answer alike:
    # faults there say less about a target than faults in the ops it answers
    order = sorted(range(len(vectors)), key=lambda i: _sending_order(vectors[i]))
    try:
        for i in order:
            runner.run(vectors[i])
    finally:
        target.close()
    by_vector = dict(zip(order, runner.outcomes, strict=True))
    return [by_vector[i] for i in range(len(vectors))]


def _sending_order(v: Vector) -> int:
    """When ``v`` is sent: the ops' vectors first, then the lines that are no request
    object, then the carrier's."""
    if v.op == CARRIER:
        return 2
    return 1 if v.raw or not isinstance(v.request, dict) else 0


def _compact(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _cause(o: Outcome) -> tuple[str, str, str, str]:
    v = o.vector
    return (v.op or "(no op)", v.rules or "-", ", ".join(v.clauses) or "-", o.problem or "")


def report(
    outcomes: Sequence[Outcome], *, elapsed: float | None = None, verbose: bool = False
) -> list[str]:
    """The lines to print: ``N passed, M failed`` (and the unsupported and unsent), then the
    failures grouped by cause (op, preset, clauses, what differs), with a count and one
    example each, or every failure with ``verbose``."""
    failed = [o for o in outcomes if o.status == "failed"]
    passed = sum(o.passed for o in outcomes)
    skipped = [o for o in outcomes if o.status == "unsupported"]
    unsent = [o for o in outcomes if o.status == "not-sent"]
    summary = f"{passed} passed, {len(failed) + len(unsent)} failed"
    if skipped:
        summary += f", {len(skipped)} skipped (unsupported)"
    if elapsed is not None:
        summary += f" ({elapsed:.1f} s)"
    lines = [summary]
    ops = sorted({o.vector.op or "" for o in skipped})
    if ops:
        lines.append(f"unsupported (answered unknown-op, skipped): {', '.join(ops)}")
    if unsent:
        problem = unsent[0].problem or ""
        lines.append(problem.removeprefix("not sent: ") or "the target was given up on")
    groups: dict[tuple[str, str, str, str], list[Outcome]] = {}
    for o in failed:
        groups.setdefault(_cause(o) if not verbose else (str(len(groups)), "", "", ""), []).append(
            o
        )
    for members in groups.values():
        o = members[0]
        v = o.sent or o.vector
        lines.append("")
        head = f"FAIL {o.vector.name}: {o.problem}"
        if len(members) > 1:
            head = f"FAIL x{len(members)} like {o.vector.name}: {o.problem}"
        lines.append(head)
        lines.append(f"  clauses:  {', '.join(v.clauses) or '-'}")
        lines.append(f"  request:  {v.line}")
        lines.append(f"  expected: {_compact(v.expected)}")
        lines.append(f"  actual:   {o.actual if o.actual is not None else '(no answer)'}")
        if len(members) > 1:
            others = ", ".join(m.vector.name for m in members[1:4])
            more = f" and {len(members) - 4} more" if len(members) > 4 else ""
            lines.append(f"  also:     {others}{more} (--verbose lists each)")
    return lines


def summary_json(
    outcomes: Sequence[Outcome],
    *,
    target: str,
    compare: CompareLevel = "strict",
    elapsed: float | None = None,
) -> dict[str, JSON]:
    """The run as one JSON object (``spec/schema/conform.schema.json``): the counts, why the
    target was given up on (if it was), the unsupported ops, and every failure."""
    unsent = [o for o in outcomes if o.status == "not-sent"]
    failed = [o for o in outcomes if o.status == "failed"]
    unsupported: dict[str, JSON] = {}
    for o in outcomes:
        if o.status == "unsupported" and o.vector.op is not None:
            unsupported.setdefault(o.vector.op, o.actual)
    gave_up = (unsent[0].problem or "").removeprefix("not sent: ") if unsent else None
    return {
        "target": target,
        "compare": compare,
        "ok": not failed and not unsent,
        "vectors": len(outcomes),
        "passed": sum(o.passed for o in outcomes),
        "failed": len(failed),
        "skipped": sum(o.status == "unsupported" for o in outcomes),
        "not_sent": len(unsent),
        "gave_up": gave_up,
        "unsupported": unsupported,
        "elapsed": None if elapsed is None else round(elapsed, 3),
        "failures": [_failure_json(o) for o in failed],
    }


def _failure_json(o: Outcome) -> dict[str, JSON]:
    v = o.sent or o.vector
    return {
        "name": o.vector.name,
        "op": o.vector.op,
        "rules": o.vector.rules,
        "clauses": list(v.clauses),
        "problem": o.problem,
        "fault": o.fault,
        "request": v.line,
        "expected": v.expected,
        "actual": o.actual,
    }


def conform(
    argv: Sequence[str],
    *,
    ops: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    clauses: Sequence[str] | None = None,
    exclude_rules: Sequence[str] | None = None,
    exclude_clauses: Sequence[str] | None = None,
    valid_only: bool = False,
    compare: CompareLevel = "strict",
    require: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
    directory: Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    verbose: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
) -> tuple[list[Outcome], list[str]]:
    """Load, filter and run the vectors; the outcomes and the report's lines."""
    check_arguments(conform, locals())
    try:
        timeout = check_timeout(timeout, "--timeout")
    except TargetError as e:
        raise ConformError(str(e)) from None
    if compare not in COMPARE_LEVELS:
        raise ConformError(f"--compare: one of {', '.join(COMPARE_LEVELS)}, not {compare!r}")
    chosen = select(
        load_vectors(directory),
        ops=ops,
        rules=rules,
        clauses=clauses,
        exclude_rules=exclude_rules,
        exclude_clauses=exclude_clauses,
        valid_only=valid_only,
    )
    if not chosen:
        raise ConformError("no vector matches the filters given")
    start = time.monotonic()
    outcomes = run(
        argv,
        chosen,
        timeout=timeout,
        env=env,
        cwd=cwd,
        compare=compare,
        require=require,
        progress=progress,
    )
    return outcomes, report(outcomes, elapsed=time.monotonic() - start, verbose=verbose)


__all__ = [
    "CARRIER",
    "COMPARE_LEVELS",
    "DEFAULT_TIMEOUT",
    "MAX_FAULTS_IN_A_ROW",
    "MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED",
    "MAX_RESTARTS_IN_A_ROW",
    "VECTOR_DIRS",
    "ConformError",
    "Outcome",
    "Target",
    "TargetFault",
    "Vector",
    "carry",
    "conform",
    "json_equal",
    "load_vectors",
    "mismatch",
    "report",
    "run",
    "select",
    "summary_json",
    "vector_dir",
]
