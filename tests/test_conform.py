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
    nothing = _moonrules("conform", "--target", SERVE, "--ops", "tiles", "--clauses", "CLAIM-1")
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
    # it never answers properly: given up on after five, and the rest are not sent
    limit = c.MAX_FAULTS_IN_A_ROW
    assert all(o.problem == "the answer is not JSON" for o in outcomes[:limit])
    assert all(o.fault == "garbage" and o.status == "failed" for o in outcomes[:limit])
    assert all(o.status == "not-sent" for o in outcomes[limit:])
    lines = c.report(outcomes, verbose=True)
    assert lines[0] == f"0 passed, {len(vectors)} failed"
    assert lines[1] == (
        "the target was given up on: it answered with a line that is not a JSON object "
        f"{limit} times in a row; the {len(vectors) - limit} vectors left were not sent "
        "(last: the answer is not JSON)"
    )
    assert sum("given up" in line for line in lines) == 1  # said once
    first = lines[2:8]
    assert first[1].startswith(f"FAIL {vectors[0].name}: ") and "request:" in first[3]
    assert "expected:" in first[4] and first[5] == "  actual:   this is not json"


def test_a_target_that_answered_is_given_up_on_only_after_more_faults(tmp_path: Path) -> None:
    """Once a target has answered properly, a run of faults may be a kind of vector it fails
    (17 unreadable lines come together): it is given up on after 25 of one kind, not 5."""
    target = _script(
        tmp_path,
        "breaks",
        """
        import os, sys
        from moonrules.conformance.protocol import handle_line
        for line in sys.stdin:
            with open("answered", "a") as f:  # counted across restarts
                f.write("x")
            good = os.path.getsize("answered") <= 3
            print(handle_line(line.rstrip("\\n")) if good else "broken", flush=True)
        """,
    )
    vectors = _tiles_vectors()[:3] * 12
    outcomes = c.run(target, vectors, timeout=20, env=ENV, cwd=tmp_path)
    assert [o.passed for o in outcomes[:3]] == [True] * 3
    limit = c.MAX_FAULTS_IN_A_ROW_ONCE_ANSWERED
    faulted = [o for o in outcomes if o.fault == "garbage"]
    assert len(faulted) == limit and outcomes[3 + limit - 1].fault == "garbage"
    assert [o.status for o in outcomes[3 + limit :]] == ["not-sent"] * (len(vectors) - 3 - limit)


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
    outcomes = c.run(target, vectors, timeout=0.3)
    assert not any(o.passed for o in outcomes)
    # (the first answer of a run may take longer: the target may be loading)
    timed_out = [o for o in outcomes if o.fault == "timeout"]
    assert len(timed_out) == c.MAX_FAULTS_IN_A_ROW
    assert all(o.problem and "0.3 s" in o.problem for o in timed_out[1:])
    assert all(o.problem and o.problem.startswith("not sent") for o in outcomes[len(timed_out) :])


def test_a_target_that_never_reads_does_not_block_the_runner(tmp_path: Path) -> None:
    target = _script(tmp_path, "deaf", "import time\ntime.sleep(3600)\n")
    answer = {"id": None, "ok": False, "error": {"code": "bad-json", "message": "-", "rule": None}}
    big = c.Vector("big", "x" * 1_000_000, answer, (), raw=True)  # more than a pipe holds
    outcomes = c.run(target, [big, big], timeout=0.5, startup_timeout=0.5)
    assert [o.passed for o in outcomes] == [False, False]
    assert all(
        o.problem == "no answer within 0.5 s (it did not read the request); the target was stopped"
        for o in outcomes
    )


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


# ---------------------------------------------------------------------------
# From an installed wheel


@pytest.mark.skipif(
    os.environ.get("MOONRULES_SLOW_BUILDS", "") in ("", "0"),
    reason="builds and installs a wheel: CI's build step runs it; set MOONRULES_SLOW_BUILDS=1",
)
def test_conform_runs_from_an_installed_wheel(tmp_path: Path) -> None:
    """The wheel carries the protocol text, the schemas and every vector file.

    Builds the wheel from a copy of the checkout (``setup.py`` copies ``spec/`` into
    the package), installs it into a fresh virtual environment (no system packages;
    attrs from the package index), checks that every shipped file is a byte-for-byte
    copy of ``spec/``, and runs ``moonrules conform`` from outside the checkout against
    ``python -m moonrules serve`` of that environment. Every vector file is loaded
    (their hashes are checked); only the ``led_suit`` vectors of the standard rules
    and the protocol-level ones are sent, to keep the test short.
    """
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "data")
    for name in ("moonrules", "spec", "build_backend"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}

    def run(*argv: str | Path, cwd: Path = tmp_path) -> str:
        done = subprocess.run(
            [str(a) for a in argv],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        return done.stdout

    wheels = tmp_path / "dist"
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
        "-w", wheels, src)  # fmt: skip
    (wheel,) = wheels.glob("moonrules-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)  # (no pip to install: faster)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", wheel)
    data = Path(
        run(
            python, "-c", "import moonrules.conformance.conform as c; print(c.vector_dir())"
        ).strip()
    ).parent
    assert venv in data.parents and data.name == "data"
    shipped = sorted(p.relative_to(data) for p in data.rglob("*") if p.is_file())
    spec = ROOT / "spec"
    expected = sorted(
        p.relative_to(spec)
        for pattern in ("protocol.md", "schema/*.json", "vectors/*.jsonl")
        for p in spec.glob(pattern)
    )
    assert shipped == expected
    assert all((data / p).read_bytes() == (spec / p).read_bytes() for p in shipped)
    serve = f"{shlex.quote(str(python))} -m moonrules serve"
    out = run(
        venv / "bin" / "moonrules", "conform", "--target", serve, "--ops", "led_suit",
        "--rules", "standard", "--quiet",
    )  # fmt: skip
    assert out.startswith(
        f"{len(c.select(c.load_vectors(), ops=['led_suit'], rules=['standard']))} passed, 0 failed"
    )


# ---------------------------------------------------------------------------
# Partial engines, comparison levels, reporting, signals


PARTIAL_ENGINE = """
import json, sys
from moonrules.conformance.protocol import handle
for line in sys.stdin:
    request = json.loads(line) if line.lstrip().startswith("{") else None
    if isinstance(request, dict) and request.get("op") not in ("led_suit", "legal_bids"):
        answer = {"id": request.get("id"), "ok": False,
                  "error": {"code": "unknown-op", "message": "not here", "rule": None}}
    else:
        answer = handle(request)
        if not answer["ok"] and answer["error"]["rule"]:
            answer["error"]["rule"] = "own-rule-1"  # its own clause IDs
    print(json.dumps(answer), flush=True)
"""


def test_a_partial_engine_has_its_unsupported_ops_skipped(tmp_path: Path) -> None:
    target = _script(tmp_path, "partial", PARTIAL_ENGINE)
    vectors = c.load_vectors()
    chosen = [
        *_of(vectors, "tiles"),
        *_of(vectors, "trick_winner")[:20],
        *_of(vectors, "led_suit")[:40],
        *_of(vectors, "legal_bids")[:40],
    ]
    outcomes = c.run(target, chosen, timeout=20, env=ENV, compare="code")
    by_status: dict[str, set[str | None]] = {}
    for o in outcomes:
        by_status.setdefault(o.status, set()).add(o.vector.op)
    assert by_status["unsupported"] == {"trick_winner"}
    assert "failed" not in by_status, c.report(outcomes)
    carried = [o for o in outcomes if o.vector.op == "tiles"]
    assert carried and all(o.passed and o.sent and o.sent.op == "led_suit" for o in carried)
    assert all("(as led_suit)" in (o.sent.name if o.sent else "") for o in carried)
    lines = c.report(outcomes)
    assert lines[0].startswith(f"{len(chosen) - 20} passed, 0 failed, 20 skipped (unsupported)")
    assert lines[1] == "unsupported (answered unknown-op, skipped): trick_winner"
    # strict: its clause IDs are not the reference's; --require: unknown-op is a failure
    refused = [v for v in _of(vectors, "led_suit") if not v.expected["ok"]]
    refused = [v for v in refused if v.expected["error"]["rule"]]
    strict = c.run(target, refused[:10], timeout=20, env=ENV)
    assert any(o.problem and "error rule" in o.problem for o in strict)
    required = c.run(target, _of(vectors, "trick_winner")[:3], env=ENV, require=["trick_winner"])
    assert [o.status for o in required] == ["failed"] * 3


def test_comparison_levels() -> None:
    expected = {"id": 1, "ok": False, "error": {"code": "illegal", "message": "m", "rule": "BID-3"}}
    other_rule = {"id": 1, "ok": False, "error": {"code": "illegal", "message": "x", "rule": None}}
    other_code = {"id": 1, "ok": False, "error": {"code": "bad-request", "message": "x"}}
    assert c.mismatch(expected, other_rule) is not None
    assert c.mismatch(expected, other_rule, "code") is None
    assert c.mismatch(expected, other_code, "code") is not None
    assert c.mismatch(expected, other_code, "outcome") is None
    accepted = {"id": 1, "ok": True, "result": 1}
    assert c.mismatch(expected, accepted, "outcome") == "ok is true, expected false"
    replay = {"id": 1, "ok": True, "result": {"valid": False, "violation": {"rule": "BID-3"}}}
    mine = {"id": 1, "ok": True, "result": {"valid": False, "violation": {"rule": "own-rule-2"}}}
    assert c.mismatch(replay, mine) == "the result differs"
    assert c.mismatch(replay, mine, "code") is None


def test_valid_only_and_exclusions_filter_vectors() -> None:
    vectors = c.load_vectors()
    valid = c.select(vectors, valid_only=True)
    assert valid and all(v.expected["ok"] for v in valid)
    no_lead2 = c.select(vectors, exclude_clauses=["LEAD-2"], exclude_rules=["pagat"])
    assert no_lead2 and all("LEAD-2" not in v.clauses and v.rules != "pagat" for v in no_lead2)
    with pytest.raises(c.ConformError, match="--exclude-rules"):
        c.select(vectors, exclude_rules=["chess"])


def test_a_dead_target_is_reported_once_with_its_last_words(tmp_path: Path) -> None:
    target = _script(tmp_path, "dies", "import sys\nsys.stderr.write('no engine here\\n')\n")
    result = _moonrules("conform", "--target", shlex.join(target), "--quiet")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) < 40 and "not sent" in result.stdout, lines
    assert "the target was given up on" in result.stdout
    assert "no engine here" in result.stdout


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "1e400", "0"])
def test_timeouts_that_are_no_positive_number_are_refused(value: str) -> None:
    for command in ("conform", "fuzz"):
        result = _moonrules(command, "--target", SERVE, "--timeout", value, timeout=60)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines()[-1].startswith(f"moonrules {command}: error:")


def test_a_target_that_cannot_be_split_is_one_line_of_error() -> None:
    for command in ("conform", "fuzz"):
        result = _moonrules(command, "--target", "'x", timeout=60)
        assert result.returncode == 2
        assert (
            result.stderr.strip()
            == f'moonrules {command}: error: --target: cannot split "\'x": '
            + ("No closing quotation")
        )


def test_a_reader_going_away_is_a_non_zero_exit(tmp_path: Path) -> None:
    """``conform ... | head -1``: the command stops quietly with 141, not 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "moonrules", "conform", "--target", "false", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert b"Traceback" not in err


def test_sigterm_to_conform_ends_its_target(tmp_path: Path) -> None:
    import signal

    pid_file = tmp_path / "target.pid"
    target = _script(
        tmp_path,
        "slow",
        f"""
        import os, sys, time
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        for line in sys.stdin:
            time.sleep(3600)
        """,
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "moonrules", "conform", "--target", shlex.join(target), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    try:
        for _ in range(300):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.1)
        pid = int(pid_file.read_text())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the target outlived conform")


@pytest.mark.parametrize(
    ("rules", "answer"),
    [
        ({"colour": 1, "players": "x"}, ("bad-request", None)),  # (1) in the order written
        ({"players": 5, "trump_numbers": [9]}, ("illegal", "TRUMP-5")),  # (2) before (3)
        ({"players": 4, "min_bid": 9}, ("illegal", "RULES-1")),  # (3) before (4)
        (
            {"min_bid": 9, "tile_set": "no-double-blank-21", "trump_numbers": [0]},
            ("illegal", "BID-4"),  # (4) before (6)
        ),
        (
            {"widow_timing": "after-trump", "players": 4, "tile_set": "double-six-28"}
            | {"trump_numbers": []},
            ("illegal", "RULES-1"),  # (5) before (6)
        ),
        (
            {"tile_set": "no-double-blank-21", "trump_numbers": [0], "target": 0},
            ("illegal", "TRUMP-5"),  # (6) before (7)
        ),
        ({"target": 0}, ("illegal", "RULES-1")),
        ({"rules": " Lead_Trump "}, None),  # a name: case, whitespace and _ do not matter
    ],
)
def test_the_order_of_rule_object_checks_is_the_one_protocol_md_gives(
    rules: dict[str, object], answer: tuple[str, str | None] | None
) -> None:
    """spec/protocol.md, section 4.5: which fault of a rule object is answered first."""
    from moonrules.conformance.protocol import handle

    value = rules.get("rules", rules)
    got = handle({"op": "tiles", "rules": value})
    if answer is None:
        assert got["ok"]
    else:
        assert (got["error"]["code"], got["error"]["rule"]) == answer
    text = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
    assert "A rule object with several faults gets the answer of the first found" in text


def test_the_json_result_fits_its_schema(tmp_path: Path) -> None:
    from test_protocol import validator

    schema = validator("conform")
    good = _moonrules(
        "conform", "--target", SERVE, "--ops", "score_hand", "--rules", "marks", "--json"
    )
    answer = json.loads(good.stdout)
    schema.validate(answer)
    assert good.returncode == 0 and answer["ok"] and answer["failures"] == []
    assert answer["passed"] == answer["vectors"] > 0 and answer["gave_up"] is None
    target = _script(
        tmp_path, "garbage", "import sys\nfor line in sys.stdin:\n    print('no', flush=True)\n"
    )
    bad = _moonrules("conform", "--target", shlex.join(target), "--json", "--quiet")
    answer = json.loads(bad.stdout)
    schema.validate(answer)
    assert bad.returncode == 1 and not answer["ok"]
    assert answer["failed"] == c.MAX_FAULTS_IN_A_ROW == len(answer["failures"])
    assert answer["not_sent"] == answer["vectors"] - c.MAX_FAULTS_IN_A_ROW
    assert answer["gave_up"].startswith("the target was given up on: it answered with a line")
    assert {f["fault"] for f in answer["failures"]} == {"garbage"}
