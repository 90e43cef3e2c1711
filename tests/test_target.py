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
    TargetExtraLine,
    TargetFault,
    TargetGarbage,
    TargetTimeout,
    split_command,
)

PY = sys.executable


def _target(tmp_path: Path, body: str, timeout: float = 5.0) -> Target:
    """A target running the Python script ``body``."""
    path = tmp_path / "target.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return Target([PY, str(path)], timeout=timeout)


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
    print(line.strip(), flush=True)
    if "twice" in line:
        print('{"again": true}', flush=True)
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
    with _target(tmp_path, ECHO, timeout=0.3) as target:
        start = time.monotonic()
        with pytest.raises(TargetTimeout, match=r"no answer within 0\.3 s") as caught:
            target.ask('"hang"')
        assert time.monotonic() - start < 5
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
    with _target(tmp_path, ECHO) as target:
        assert target.ask('"twice"') == '"twice"'
        time.sleep(0.5)  # let the second line arrive before the next request
        with pytest.raises(TargetExtraLine) as caught:
            target.ask('{"id": 6}')
        extra = caught.value
        assert isinstance(extra, TargetGarbage) and extra.kind == "garbage"
        assert extra.after_answer and extra.line == '{"again": true}'
        assert str(extra).startswith("an extra line after the previous answer: ")
        assert target.ask('{"id": 6}') == '{"id": 6}'  # sent again, to a fresh target
        assert target.starts == 2


def test_a_line_before_any_request_is_not_blamed_on_one(tmp_path: Path) -> None:
    banner = 'print("engine v0.1", flush=True)\n' + ECHO
    with _target(tmp_path, banner) as target:
        target.start()
        for _ in range(200):  # until the banner is in (a loaded machine starts Python slowly)
            if not target._lines.empty():
                break
            time.sleep(0.05)
        with pytest.raises(TargetExtraLine) as caught:
            target.ask('{"id": 7}')
        assert not caught.value.after_answer and caught.value.line == "engine v0.1"


def test_a_target_that_never_reads_does_not_block(tmp_path: Path) -> None:
    with _target(tmp_path, "import time\ntime.sleep(3600)\n", timeout=0.3) as target:
        start = time.monotonic()
        for _ in range(2):  # more than a pipe holds
            with pytest.raises(TargetTimeout):
                target.ask("x" * 1_000_000)
        assert time.monotonic() - start < 10


def test_a_target_that_exits_at_once_is_a_crash(tmp_path: Path) -> None:
    with _target(tmp_path, "import sys\nsys.exit(1)\n") as target:
        for _ in range(2):
            with pytest.raises(TargetCrash, match="exited with status 1"):
                target.ask("{}")
        assert target.starts == 2


def test_a_target_that_exits_after_answering_is_started_again_quietly(tmp_path: Path) -> None:
    once = "import sys\nprint(sys.stdin.readline().strip(), flush=True)\n"
    with _target(tmp_path, once) as target:
        assert target.ask("1") == "1"
        time.sleep(0.3)
        assert target.ask("2") == "2"
        assert target.starts == 2


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
