"""The subprocess runner of ``conform`` and ``fuzz``: every kind of fault, never a hang."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

from moonrules.conformance.target import (
    Target,
    TargetCrash,
    TargetError,
    TargetExtraLine,
    TargetFault,
    TargetGarbage,
    TargetTimeout,
    check_timeout,
    split_command,
)

PY = sys.executable


def _target(
    tmp_path: Path, body: str, timeout: float = 5.0, startup_timeout: float | None = None
) -> Target:
    """A target running the Python script ``body``."""
    path = tmp_path / "target.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return Target([PY, str(path)], timeout=timeout, startup_timeout=startup_timeout)


ECHO = """
import sys
for line in sys.stdin:
    if "die" in line:
        sys.stderr.write("Traceback ...\\nRuntimeError: asked to die\\n")
        sys.exit(3)
    if "hang" in line:
        import time
        time.sleep(3600)
    if "garbage" in line:
        print("DEBUG not json", flush=True)
        continue
    if "array" in line:
        print("[1, 2]", flush=True)
        continue
    if "twice" in line:  # the answer and a second line, in one write
        sys.stdout.write(line.strip() + '\\n{"again": true}\\n')
        sys.stdout.flush()
        continue
    print(line.strip(), flush=True)
"""


def test_answers_and_closes(tmp_path: Path) -> None:
    with _target(tmp_path, ECHO) as target:
        assert target.ask('{"id": 1}') == '{"id": 1}'
        assert target.ask_object('{"id": 2}') == ({"id": 2}, '{"id": 2}')
        assert target.starts == 1 and target.answered == 2 and target.running
        proc = target.proc
    assert proc is not None and proc.returncode == 0  # it saw the end of its input and exited
    assert not target.running


def test_a_timeout_stops_the_target_and_the_next_request_restarts_it(tmp_path: Path) -> None:
    """The timeout runs from the moment the target read the request: the target answers one
    first, so that a slow start on a loaded machine is not what is timed."""
    with _target(tmp_path, ECHO, timeout=0.3) as target:
        assert target.ask('{"id": 2}', timeout=60) == '{"id": 2}'
        with pytest.raises(TargetTimeout, match=r"no answer within 0\.3 s;") as caught:
            target.ask('"hang"')
        assert caught.value.kind == "timeout" and not target.running
        assert target.ask('{"id": 3}', timeout=5) == '{"id": 3}'
        assert target.starts == 2


def test_a_crash_is_reported_with_status_and_last_words_then_restarted(tmp_path: Path) -> None:
    with _target(tmp_path, ECHO) as target:
        with pytest.raises(TargetCrash) as caught:
            target.ask('"die"')
        crash = caught.value
        assert crash.kind == "crash" and crash.status == 3
        assert crash.last_words == "RuntimeError: asked to die"
        assert str(crash) == (
            "the target exited with status 3 without answering; "
            "its last error output: RuntimeError: asked to die"
        )
        assert target.ask('{"id": 4}') == '{"id": 4}'
        assert target.starts == 2


def test_garbage_is_a_fault_of_its_own(tmp_path: Path) -> None:
    with _target(tmp_path, ECHO) as target:
        with pytest.raises(TargetGarbage) as caught:
            target.ask_object('"garbage"')
        assert caught.value.kind == "garbage" and caught.value.line == "DEBUG not json"
        assert caught.value.reason == "the answer is not JSON" and not target.running
        with pytest.raises(TargetGarbage, match="not an object"):
            target.ask_object('"array"')
        assert target.ask_object('{"id": 5}')[0] == {"id": 5}
        assert target.starts == 3


def test_an_extra_line_is_the_previous_requests_fault(tmp_path: Path) -> None:
    """The second line comes in the same write as the answer: it is read with it, so it is
    seen before the next request is sent, however slow the machine."""
    with _target(tmp_path, ECHO) as target:
        assert target.ask('"twice"') == '"twice"'
        with pytest.raises(TargetExtraLine) as caught:
            target.ask('{"id": 6}')
        extra = caught.value
        assert isinstance(extra, TargetGarbage) and extra.kind == "garbage"
        assert extra.after_answer and extra.line == '{"again": true}'
        assert str(extra).startswith("an extra line after the previous answer: ")
        assert target.ask('{"id": 6}') == '{"id": 6}'  # sent again, to a fresh target
        assert target.starts == 2


def test_a_line_before_any_request_is_not_blamed_on_one(tmp_path: Path) -> None:
    """A banner written before the target reads its first request is not that request's
    answer, whenever it comes: the target had not read the request when it came."""
    banner = 'import time\nprint("engine v0.1", flush=True)\ntime.sleep(3600)\n' + ECHO
    with _target(tmp_path, banner, timeout=30) as target:
        with pytest.raises(TargetExtraLine) as caught:
            target.ask('{"id": 7}')
        assert not caught.value.after_answer and caught.value.line == "engine v0.1"


def test_a_target_that_never_reads_does_not_block(tmp_path: Path) -> None:
    with _target(tmp_path, "import time\ntime.sleep(3600)\n", timeout=0.3) as target:
        for _ in range(2):  # more than a pipe holds
            with pytest.raises(TargetTimeout, match="it did not read the request"):
                target.ask("x" * 1_000_000)


def test_a_target_that_exits_at_once_is_a_crash(tmp_path: Path) -> None:
    with _target(tmp_path, "import sys\nsys.exit(1)\n") as target:
        for _ in range(2):
            with pytest.raises(TargetCrash, match="exited with status 1"):
                target.ask("{}")
        assert target.starts == 2


def test_a_target_that_exits_after_answering_is_started_again_quietly(tmp_path: Path) -> None:
    """Whether it has exited before the next request is sent or not: it did not read that
    request, so it is started again and sent it, however slow the machine."""
    once = "import sys\nprint(sys.stdin.readline().strip(), flush=True)\n"
    with _target(tmp_path, once) as target:
        for n in range(1, 6):
            assert target.ask(str(n)) == str(n)
        assert target.starts == 5
    crash_after = once + "sys.stdin.readline()\nsys.exit(5)\n"
    with _target(tmp_path, crash_after) as target:  # one that reads the request, then dies
        assert target.ask("1") == "1"
        with pytest.raises(TargetCrash, match="exited with status 5"):
            target.ask("2")


def test_a_command_is_split_like_a_shell_would_but_not_run_by_one(tmp_path: Path) -> None:
    assert split_command("engine --name 'a b' $HOME") == ["engine", "--name", "a b", "$HOME"]
    assert split_command(["a b", "c"]) == ["a b", "c"]
    with pytest.raises(OSError):
        Target("/nonexistent/engine --serve").start()
    assert issubclass(TargetTimeout, TargetFault) and issubclass(TargetCrash, TargetFault)


def test_conform_fails_the_vector_an_extra_line_followed(tmp_path: Path) -> None:
    import os

    from moonrules.conformance import conform

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    path = tmp_path / "chatty.py"
    path.write_text(
        textwrap.dedent(
            """
            import os, sys
            from moonrules.conformance.protocol import handle_line
            for line in sys.stdin:
                extra = "" if os.path.exists("said") else "a debugging line\\n"
                open("said", "w").close()  # only once: not again when restarted
                sys.stdout.write(handle_line(line.rstrip("\\n")) + "\\n" + extra)
                sys.stdout.flush()
            """
        ),
        encoding="utf-8",
    )
    vectors = conform.select(conform.load_vectors(), ops=["tiles"])[:3]
    outcomes = conform.run([PY, str(path)], vectors, timeout=20, env=env, cwd=tmp_path)
    assert [o.passed for o in outcomes] == [False, True, True]
    assert outcomes[0].problem == ("an extra line after the previous answer: 'a debugging line'")
    assert outcomes[0].actual is not None and outcomes[0].actual.startswith("{")


# ---------------------------------------------------------------------------
# Hostile targets: bounded memory, no hang, no process left behind


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_target_writing_without_end_is_garbage_in_bounded_memory(tmp_path: Path) -> None:
    """/dev/zero on stdout (no line end ever) and endless stderr: memory stays bounded."""
    before = _rss_mb()
    with (
        Target(["sh", "-c", "cat /dev/zero"], timeout=20) as target,
        pytest.raises(TargetGarbage, match="longer than"),
    ):
        target.ask("{}")
    noisy = "cat /dev/zero >&2 & read line; echo '{\"id\": 1}'; sleep 2"
    with Target(["sh", "-c", noisy], timeout=20) as target:
        time.sleep(1.0)  # a few hundred MB of stderr go by meanwhile
        assert target.ask("{}") == '{"id": 1}'
        assert all(len(line) <= 2000 for line in target.stderr_tail)
    assert _rss_mb() - before < 150


def test_a_child_holding_the_output_open_neither_hangs_nor_outlives_the_target(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "child.pid"
    script = f"sleep 300 & echo $! > {pid_file}; read line; exit 0"
    with (
        Target(["sh", "-c", script], timeout=20) as target,
        pytest.raises(TargetCrash, match="exited with status 0"),
    ):
        target.ask("{}")
    child = int(pid_file.read_text())
    for _ in range(50):
        if not _alive(child):
            break
        time.sleep(0.1)
    assert not _alive(child), "the target's child was left running"


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ('{"id": NaN}', "not JSON"),
        ('{"id": 1, "ok": true, "result": Infinity}', "not JSON"),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "nested"),
        ('{"a": ' * 100 + "1" + "}" * 100, "nested more than 64"),
        ("[1, 2]", "not an object"),
    ],
    ids=["nan", "infinity", "nested-100000", "nested-100", "array"],
)
def test_answers_that_are_not_strict_json_objects_are_garbage(
    tmp_path: Path, answer: str, reason: str
) -> None:
    body = f"import sys\nfor line in sys.stdin:\n    print({answer!r}, flush=True)\n"
    with _target(tmp_path, body) as target, pytest.raises(TargetGarbage, match=reason):
        target.ask_object("{}")


def test_requests_are_pipelined_and_answered_in_order(tmp_path: Path) -> None:
    with _target(tmp_path, ECHO) as target:
        lines = [f'{{"id": {i}}}' for i in range(2000)]
        answers, fault = target.ask_many(lines)
        assert fault is None and answers == lines
        answers, fault = target.ask_many(['{"id": 1}', '"die"', '{"id": 3}'])
        assert answers == ['{"id": 1}'] and isinstance(fault, TargetCrash)
        assert target.ask('{"id": 4}') == '{"id": 4}'


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1.0, 0.0, 1e400, 1e308])
def test_a_timeout_must_be_a_positive_finite_number_of_seconds(value: float) -> None:
    with pytest.raises(TargetError, match="more than 0"):
        Target(["true"], timeout=value)
    with pytest.raises(TargetError):
        check_timeout(value)


def test_a_command_that_cannot_be_split_is_refused() -> None:
    with pytest.raises(TargetError, match="cannot split"):
        split_command("'x")
    with pytest.raises(TargetError, match="give the command"):
        split_command("  ")


# ---------------------------------------------------------------------------
# No process of a target survives it, and the caller's own processes are left alone

_SPAWNS = {
    "background": "note(subprocess.Popen(['sleep', '300']).pid)",
    "setsid": "note(subprocess.Popen(['setsid', 'sleep', '300']).pid)",
    "new-session": "note(subprocess.Popen(['sleep', '300'], start_new_session=True).pid)",
    "daemon": (
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        note(os.getpid())\n"
        "        time.sleep(300)\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)"
    ),
    "holding-output": "note(subprocess.Popen(['setsid', 'sleep', '300'], stdout=sys.stdout).pid)",
    "grandchild": (
        'code = \'import subprocess, sys; p = subprocess.Popen(["setsid", "sleep", "300"]); '
        'open(sys.argv[1], "a").write(str(p.pid) + chr(10)); p.wait()\'\n'
        "note(subprocess.Popen([sys.executable, '-c', code, NOTES]).pid)"
    ),
}
"""Ways a target leaves a process behind (each notes its pid): in its group, out of it,
in a session of its own, daemonized, holding the target's output open, two levels down."""

_ENDS = ("close", "crash", "timeout", "garbage")
"""How the target's run ends: closed, it dies, it hangs, it writes garbage."""


def _spawning_target(tmp_path: Path, spawn: str) -> tuple[Target, Path]:
    notes = tmp_path / "pids"
    body = (
        "import os, subprocess, sys, time\n"
        f"NOTES = {str(notes)!r}\n"
        "def note(pid):\n"
        "    with open(NOTES, 'a') as f:\n"
        "        f.write(f'{pid}\\n')\n"
        f"{_SPAWNS[spawn]}\n"
        "for line in sys.stdin:\n"
        "    if 'die' in line:\n"
        "        os._exit(4)\n"
        "    if 'hang' in line:\n"
        "        time.sleep(3600)\n"
        "    if 'garbage' in line:\n"
        "        print('not json', flush=True)\n"
        "        continue\n"
        "    print(line.strip(), flush=True)\n"
    )
    # (the script starts its child before it reads: on a loaded machine that can take longer
    # than the 0.5 s the hanging end is given, so the start has a bound of its own)
    return _target(tmp_path, body, timeout=0.5, startup_timeout=60), notes


def _noted(notes: Path, count: int) -> list[int]:
    """The pids noted, once there are ``count`` of them (a grandchild may take a moment)."""
    for _ in range(1200):
        pids = [int(p) for p in notes.read_text().split()] if notes.exists() else []
        if len(pids) >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"only {notes.read_text() if notes.exists() else 'no'} pids noted")


def _wait_until_gone(pids: list[int]) -> list[int]:
    """The pids still alive (not zombies) after the keeper has had its time (bounded)."""
    for _ in range(200):
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.05)
    return alive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the keeper is for Linux")
@pytest.mark.parametrize("end", _ENDS)
@pytest.mark.parametrize("spawn", sorted(_SPAWNS))
def test_no_process_a_target_started_outlives_it(tmp_path: Path, spawn: str, end: str) -> None:
    target, notes = _spawning_target(tmp_path, spawn)
    with target:
        assert target.ask('{"id": 1}') == '{"id": 1}'
        pids = _noted(notes, 2 if spawn == "grandchild" else 1)
        assert all(_alive(p) for p in pids)
        if end == "crash":
            with pytest.raises(TargetCrash):
                target.ask('"die"')
        elif end == "timeout":
            with pytest.raises(TargetTimeout):
                target.ask('"hang"')
        elif end == "garbage":
            with pytest.raises(TargetGarbage):
                target.ask_object('"garbage"')
    assert _wait_until_gone(pids) == [], f"left running after {end}: {spawn}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the keeper is for Linux")
def test_no_process_survives_a_caller_that_is_killed(tmp_path: Path) -> None:
    """moonrules used as a library in a helper process: the helper is killed outright (no
    cleanup runs), and still nothing the target started is left."""
    import signal
    import subprocess

    target, notes = _spawning_target(tmp_path, "daemon")
    code = (
        "import sys, time\n"
        "from moonrules.conformance.target import Target\n"
        f"t = Target({target.argv!r}, timeout=30)\n"
        "print(t.ask('{\"id\": 1}'), flush=True)\n"
        "time.sleep(3600)\n"
    )
    root = Path(__file__).resolve().parents[1]
    helper = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, cwd=root)
    try:
        assert helper.stdout is not None and helper.stdout.readline().strip() == b'{"id": 1}'
        pids = _noted(notes, 1)
        assert all(_alive(p) for p in pids)
    finally:
        helper.send_signal(signal.SIGKILL)
        helper.wait()
    assert _wait_until_gone(pids) == []


def test_the_callers_own_children_are_left_to_it(tmp_path: Path) -> None:
    """The caller is not made a subreaper and nothing reaps its children: a child it started
    before, and one during, are still its own to wait for, with their exit status."""
    import ctypes
    import subprocess

    before = subprocess.Popen([PY, "-c", "import sys; sys.exit(7)"])
    with _target(tmp_path, ECHO) as target:
        during = subprocess.Popen([PY, "-c", "import sys; sys.exit(9)"])
        assert target.ask('{"id": 1}') == '{"id": 1}'
        with pytest.raises(TargetCrash):
            target.ask('"die"')
        assert target.ask('{"id": 2}') == '{"id": 2}'
    assert before.wait(timeout=60) == 7 and during.wait(timeout=60) == 9
    if sys.platform.startswith("linux"):
        flag = ctypes.c_int(-1)
        ctypes.CDLL(None).prctl(37, ctypes.byref(flag))  # PR_GET_CHILD_SUBREAPER
        assert flag.value == 0


def test_a_target_just_started_is_not_timed_out_while_it_loads(tmp_path: Path) -> None:
    """The timeout counts from when the target reads the request: one that loads for longer
    than the timeout before it reads, at its first start and at each restart, answers."""
    slow = "import time\ntime.sleep(1.5)\n" + ECHO
    path = tmp_path / "slow.py"
    path.write_text(slow, encoding="utf-8")
    with Target([PY, str(path)], timeout=1.0, startup_timeout=60) as target:
        for n in range(3):
            assert target.ask(f'{{"id": {n}}}') == f'{{"id": {n}}}'
            with pytest.raises(TargetCrash):
                target.ask('"die"')  # and the next start loads again
        assert target.starts == 3
        # but once it has read a request, the timeout holds, restarted or not
        with pytest.raises(TargetTimeout, match=r"no answer within 1 s;"):
            target.ask('"hang"')
