"""``moonrules conform``: the reference passes every vector; broken targets fail, never hang."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from moonrules.conformance import conform as c

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
SERVE = f"{shlex.quote(sys.executable)} -m moonrules serve"


def _moonrules(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moonrules", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def _script(tmp_path: Path, name: str, body: str) -> list[str]:
    """A target: a Python script run with this interpreter."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


def test_the_reference_server_passes_every_vector() -> None:
    vectors = c.load_vectors()
    result = _moonrules("conform", "--target", SERVE)
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert lines[0].startswith(f"{len(vectors)} passed, 0 failed"), lines[:3]
    assert len(lines) == 1
    assert len(vectors) >= 5000


def test_the_filters_choose_vectors() -> None:
    vectors = c.load_vectors()
    ops = c.select(vectors, ops=["legal_bids", "auction"])
    assert ops and {v.op for v in ops if not v.protocol_level} == {"legal_bids", "auction"}
    # the protocol-level vectors (no op, an unknown op, the carrier's) are kept
    assert {v.name for v in vectors if v.protocol_level} <= {v.name for v in ops}
    assert any(v.op == c.CARRIER for v in ops) and any(v.op is None for v in ops)
    forced = c.select(vectors, ops=["legal_bids"], rules=["4p-forced"], clauses=["BID-8"])
    assert forced and all(v.rules == "partnership-forced" and "BID-8" in v.clauses for v in forced)
    both = c.select(vectors, rules=["standard", "pagat"])
    assert {v.rules for v in both} == {"standard", "pagat"}
    assert c.select(vectors, rules=["custom"]) and all(
        v.rules == "custom" for v in c.select(vectors, rules=["custom"])
    )
    renege = c.select(vectors, clauses=["RENEGE-1", "RENEGE-2"])
    assert {v.op for v in renege} == {"replay"}
    assert len(c.select(vectors)) == len(vectors)
    with pytest.raises(c.ConformError, match="no operation is called deal"):
        c.select(vectors, ops=["deal"])
    with pytest.raises(c.ConformError, match="chess"):
        c.select(vectors, rules=["chess"])
    with pytest.raises(c.ConformError, match="bid3"):
        c.select(vectors, clauses=["bid3"])


def test_a_filtered_run_prints_only_its_count() -> None:
    result = _moonrules(
        "conform", "--target", SERVE, "--ops", "score_hand", "--rules", "marks", "--timeout", "30"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    expected = len(c.select(c.load_vectors(), ops=["score_hand"], rules=["marks"]))
    assert result.stdout.startswith(f"{expected} passed, 0 failed")
    nothing = _moonrules("conform", "--target", SERVE, "--clauses", "CLAIM-1")
    assert nothing.returncode == 2 and "no vector matches" in nothing.stderr


def test_a_target_that_cannot_start_is_an_error() -> None:
    result = _moonrules("conform", "--target", "/nonexistent/engine --serve", "--ops", "tiles")
    assert result.returncode == 2 and "nonexistent" in result.stderr
    assert "Traceback" not in result.stderr


def _tiles_vectors() -> list[c.Vector]:
    return _of(c.load_vectors(), "tiles")


def _of(vectors: list[c.Vector], op: str) -> list[c.Vector]:
    """The vectors of ``op`` only (``select`` also keeps the protocol-level ones)."""
    return [v for v in vectors if v.op == op]


def test_garbage_answers_are_failures(tmp_path: Path) -> None:
    target = _script(
        tmp_path,
        "garbage",
        """
        import sys
        for line in sys.stdin:
            print("this is not json", flush=True)
        """,
    )
    vectors = _tiles_vectors()
    outcomes = c.run(target, vectors, timeout=20)
    assert len(outcomes) == len(vectors)
    assert all(o.problem == "the answer is not JSON" for o in outcomes)
    lines = c.report(outcomes, verbose=True)
    assert lines[0] == f"0 passed, {len(vectors)} failed"
    first = lines[1:7]
    assert first[1].startswith(f"FAIL {vectors[0].name}: ") and "request:" in first[3]
    assert "expected:" in first[4] and first[5] == "  actual:   this is not json"


def test_the_command_line_exits_1_on_failures_and_prints_each(tmp_path: Path) -> None:
    target = _script(
        tmp_path,
        "echo",
        """
        import sys
        for line in sys.stdin:
            sys.stdout.write(line)
            sys.stdout.flush()
        """,
    )
    result = _moonrules(
        "conform", "--target", shlex.join(target), "--ops", "tiles", "--exclude-rules", "custom"
    )
    grouped = result.stdout.splitlines()
    result = _moonrules(
        "conform", "--target", shlex.join(target), "--ops", "tiles", "--verbose", "--quiet"
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    count = len(c.select(c.load_vectors(), ops=["tiles"]))
    assert lines[0].startswith(f"0 passed, {count} failed")
    assert sum(line.startswith("FAIL ") for line in lines) == count
    assert sum(line.startswith("  actual:   ") for line in lines) == count
    # without --verbose: one block per cause, with a count
    assert grouped[0].startswith("0 passed, ") and len(grouped) < len(lines)
    assert any(line.startswith("FAIL x") and " like " in line for line in grouped)


def test_a_hanging_target_times_out_and_the_run_ends(tmp_path: Path) -> None:
    target = _script(
        tmp_path,
        "hang",
        """
        import sys, time
        for line in sys.stdin:
            time.sleep(3600)
        """,
    )
    vectors = _tiles_vectors()
    start = time.monotonic()
    outcomes = c.run(target, vectors, timeout=0.3)
    elapsed = time.monotonic() - start
    assert elapsed < 20, elapsed
    assert not any(o.passed for o in outcomes)
    # (the first answer of a run may take longer: the target may be loading)
    timed_out = [o for o in outcomes if o.problem and "0.3 s" in o.problem]
    assert len(timed_out) == c.MAX_RESTARTS_IN_A_ROW
    assert all(o.problem and o.problem.startswith("not sent") for o in outcomes[len(timed_out) :])


def test_a_target_that_never_reads_does_not_block_the_runner(tmp_path: Path) -> None:
    target = _script(tmp_path, "deaf", "import time\ntime.sleep(3600)\n")
    answer = {"id": None, "ok": False, "error": {"code": "bad-json", "message": "-", "rule": None}}
    big = c.Vector("big", "x" * 1_000_000, answer, (), raw=True)  # more than a pipe holds
    start = time.monotonic()
    outcomes = c.run(target, [big, big], timeout=0.5)
    assert time.monotonic() - start < 20
    assert [o.passed for o in outcomes] == [False, False]
    assert outcomes[0].problem is not None and outcomes[0].problem.startswith("no answer within")
    assert outcomes[1].problem == "no answer within 0.5 s; the target was stopped"


def test_a_crashing_target_is_restarted_and_the_run_goes_on(tmp_path: Path) -> None:
    target = _script(
        tmp_path,
        "crash",
        """
        import json, sys
        from moonrules.conformance.protocol import handle_line
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("op") == "trick_winner":
                sys.stderr.write("trick_winner is not implemented\\n")
                sys.exit(3)
            print(handle_line(line), flush=True)
        """,
    )
    vectors = c.load_vectors()
    chosen = [
        *_of(vectors, "tiles"),
        *_of(vectors, "trick_winner")[:3],
        *_of(vectors, "led_suit")[:20],
    ]
    outcomes = c.run(target, chosen, timeout=20, env=ENV)
    assert len(outcomes) == len(chosen)
    failed = [o for o in outcomes if not o.passed]
    assert [o.vector.op for o in failed] == ["trick_winner"] * 3
    for o in failed:
        assert o.problem and "exited with status 3" in o.problem
        assert "trick_winner is not implemented" in o.problem
    assert all(o.passed for o in outcomes if o.vector.op != "trick_winner")


def test_a_target_that_keeps_dying_is_given_up_on(tmp_path: Path) -> None:
    target = _script(tmp_path, "dies", "import sys\nsys.exit(1)\n")
    vectors = _tiles_vectors()
    outcomes = c.run(target, vectors, timeout=5)
    assert len(outcomes) == len(vectors) and not any(o.passed for o in outcomes)
    assert [o.problem and o.problem.startswith("not sent") for o in outcomes].count(True) == len(
        vectors
    ) - c.MAX_RESTARTS_IN_A_ROW


def test_wrong_answers_name_what_differs(tmp_path: Path) -> None:
    target = _script(
        tmp_path,
        "wrong",
        """
        import json, sys
        from moonrules.conformance.protocol import handle_line
        for line in sys.stdin:
            answer = json.loads(handle_line(line))
            request = json.loads(line) if line.strip().startswith("{") else {}
            if isinstance(request, dict) and request.get("op") == "led_suit":
                if answer["ok"]:
                    answer["result"] = "trump"
                else:
                    answer["error"]["rule"] = "TILE-1"
                    answer["error"]["message"] = "another wording"
            elif isinstance(request, dict) and request.get("op") == "tiles":
                answer["id"] = "someone else"
            print(json.dumps(answer), flush=True)
        """,
    )
    vectors = c.load_vectors()
    led = _of(vectors, "led_suit")
    chosen = [*led[:5], *[v for v in led if not v.expected["ok"]][:3], *_tiles_vectors()[:2]]
    outcomes = c.run(target, chosen, timeout=20, env=ENV)
    problems = [o.problem for o in outcomes]
    results = [p for p in problems if p == "the result differs"]
    assert len(results) == sum(
        1 for v in chosen[:5] if v.expected["ok"] and v.expected["result"] != "trump"
    )
    assert problems[5:8] == [
        f'the error rule is "TILE-1", expected {chosen[i].expected["error"]["rule"]!r}'
        for i in range(5, 8)
    ]
    assert problems[8:] == ["the answer's id is not the request's"] * 2


def test_answers_compare_as_json_values() -> None:
    assert c.json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not c.json_equal(True, 1) and not c.json_equal(0, False)
    assert not c.json_equal([1, 2], [2, 1]) and not c.json_equal({"a": 1}, {"a": 1, "b": 2})
    assert not c.json_equal(None, 0) and not c.json_equal("1", 1)
    ok = {"id": 3, "ok": True, "result": [4, 5]}
    assert c.mismatch(ok, {"result": [4, 5], "ok": True, "id": 3}) is None
    assert c.mismatch(ok, {"id": 3, "ok": True, "result": [5, 4]}) == "the result differs"
    assert c.mismatch(ok, {"id": 3.0, "ok": True, "result": [4, 5]}) is None
    assert c.mismatch(ok, {"id": True, "ok": True, "result": [4, 5]}) is not None
    assert c.mismatch(ok, [1]) == "the answer is not a JSON object"
    error = {"id": None, "ok": False, "error": {"code": "illegal", "message": "x", "rule": "BID-3"}}
    same = {"id": None, "ok": False, "error": {"code": "illegal", "message": "y", "rule": "BID-3"}}
    assert c.mismatch(error, same) is None
    assert c.mismatch(error, {**same, "error": {**same["error"], "code": "bad-request"}})
    assert c.mismatch(error, {**same, "error": {"code": "illegal", "rule": "BID-3"}}) == (
        "the error has no message"
    )


def test_a_damaged_vector_file_is_refused(tmp_path: Path) -> None:
    source = c.vector_dir() / "tiles.jsonl"
    shutil.copy(source, tmp_path / "tiles.jsonl")
    assert len(c.load_vectors(tmp_path)) == len(source.read_text().splitlines()) - 1
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    v = json.loads(lines[1])
    v["expected"]["result"] = v["expected"]["result"][:-1]
    lines[1] = json.dumps(v) + "\n"
    (tmp_path / "tiles.jsonl").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(c.ConformError, match="edited or damaged"):
        c.load_vectors(tmp_path)
    result = _moonrules("conform", "--target", SERVE, "--vectors", str(tmp_path))
    assert result.returncode == 2 and "edited or damaged" in result.stderr
    with pytest.raises(c.ConformError, match="no vector files"):
        c.load_vectors(tmp_path / "empty")
