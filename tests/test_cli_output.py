"""What every command shares: ``--json`` answers that fit their schemas (``spec/schema/cli/``),
one error format naming the subcommand, progress lines on stderr, files written whole and
with the umask."""

from __future__ import annotations

import argparse
import io
import json
import os
import pickle
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gamehelpers import play_until
from jsonschema import Draft202012Validator

import moonrules as m
from moonrules.analysis.claim import verify_claim
from moonrules.analysis.solver import play_values, solve
from moonrules.cli.main import COMMANDS, build_parser, command_named, main
from moonrules.cli.progress import ProgressLine
from moonrules.records import files
from moonrules.records.files import OutputError, check_writable, interrupts_held, write_atomically
from moonrules.records.record import to_record

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "spec" / "schema" / "cli"
HAND = "6-6 6-5 6-4 5-5 4-2 3-1 1-1"


def _validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _json_of(argv: list[str], status: int, capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(argv) == status
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return json.loads(out.out)


def _valid(name: str, doc: Any) -> None:
    errors = [e.message for e in _validator(name).iter_errors(doc)]
    assert not errors, errors


# ---------------------------------------------------------------------------
# --json and the schemas


def test_the_schemas_are_draft_2020_12_and_one_per_answer() -> None:
    names = sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))
    assert names == [
        "advise",
        "claim",
        "explain",
        "match",
        "review",
        "solve",
        "study-report",
        "study-run",
        "verify",
    ]
    for name in names:
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$id"].endswith(f"/schema/cli/{name}.schema.json")
        assert schema["additionalProperties"] is False  # a field added is a field documented


def _mid_hand(seed: int, tricks: int) -> m.GameState:
    s = play_until(
        m.new_game(seed=seed),
        random.Random(seed),
        lambda s: s.phase is m.Phase.PLAY and len(s.tricks) >= tricks,
    )
    assert s is not None
    return s


def test_solve_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _mid_hand(11, 3)
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(to_record(state)))
    doc = _json_of(["solve", str(path), "--json"], 0, capsys)
    _valid("solve", doc)
    assert doc["value"] == solve(state) and doc["trick"] == 4
    assert {p["tile"]: p["value"] for p in doc["plays"]} == {
        str(t): v for t, v in play_values(state).items()
    }
    assert doc["hands"][0] == [str(t) for t in reversed(state.hands[0])]
    assert not _validator("solve").is_valid({**doc, "value": 8})
    assert not _validator("solve").is_valid({**doc, "extra": 1})


def test_claim_json_holds_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    failed = _json_of(["claim", str(ROOT / "examples" / "failed-claim.moon"), "--json"], 1, capsys)
    _valid("claim", failed)
    assert failed["holds"] is False and failed["guaranteed"] < failed["claimed"]
    assert len(failed["defeating_line"]) == 3 * failed["remaining"]
    state = _mid_hand(11, 5)
    seat = next(s for s in range(3) if verify_claim(state, s, 1).holds)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(to_record(state)))
    one = _json_of(["claim", str(path), "--seat", str(seat), "--tricks", "1", "--json"], 0, capsys)
    _valid("claim", one)
    assert one["holds"] is True and one["defeating_line"] is None and one["claimed"] == 1


@pytest.mark.parametrize(
    ("argv", "status", "question"),
    [
        (["--trump", "6", "--hand", "5-3 6-6 1-1", "--trick", "3-2", "--play", "6-6"], 1, "play"),
        (["--trump", "2", "--trick", "3-2 6-3 3-3"], 0, "trick"),
        (["--calls", "5,4"], 1, "auction"),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "4,2,1"], 0, "score"),
    ],
)
def test_explain_json(
    argv: list[str], status: int, question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _json_of(["explain", *argv, "--json"], status, capsys)
    _valid("explain", doc)
    assert doc["question"] == question and doc["reasons"]
    assert main(["explain", *argv]) == status
    assert capsys.readouterr().out.splitlines()[0] == doc["verdict"]


def test_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["advise", HAND, "--calls", "pass 5", "--trump", "6", "--samples", "4"]
    doc = _json_of([*argv, "--min-samples", "4", "--workers", "1", "--json"], 0, capsys)
    _valid("advise", doc)
    assert doc["bids"] == [6, 7, 21] and [b["bid"] for b in doc["trumps"][0]["bids"]] == [6, 7, 21]


def test_verify_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["verify", "--quick", "--only", "tile-sets,worked-examples", "--json"]
    doc = _json_of(argv, 0, capsys)
    _valid("verify", doc)
    assert [p["id"] for p in doc["properties"]] == ["tile-sets", "worked-examples"]


def test_study_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    d = tmp_path / "s"
    argv = ["study", "run", str(d), "--deals", "1", "--chunk", "1", "--csv", "--workers", "1"]
    run = _json_of([*argv, "--json"], 0, capsys)
    _valid("study-run", run)
    assert (run["done"], run["new"], run["recomputed"]) == (1, 1, [])
    report = _json_of(["study", "report", str(d), "--min-count", "1", "--json"], 0, capsys)
    _valid("study-report", report)
    assert all(Path(p).is_file() for p in report["written"])


# ---------------------------------------------------------------------------
# One error format


@pytest.mark.parametrize("command", COMMANDS)
def test_a_usage_error_names_the_subcommand(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "run"] if command == "study" else [command]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--no-such-option"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    prog = "moonrules " + " ".join(argv)
    assert err.startswith(f"{prog}: error: ") and err.endswith(f" (see {prog} --help)\n"), err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "prog"),
    [
        (["play", "--rules", "chess"], "moonrules play"),
        (["match", "--bots", "clever"], "moonrules match"),
        (["check", "/nonexistent/record.json"], "moonrules check"),
        (["explain", "--trump", "6", "--play", "9-9"], "moonrules explain"),
        (["claim", "/nonexistent/record.json"], "moonrules claim"),
        (["solve", "/nonexistent/record.json"], "moonrules solve"),
        (["advise", "6-6"], "moonrules advise"),
        (["verify", "--only", "nothing"], "moonrules verify"),
        (["study", "report", "/nonexistent/study"], "moonrules study report"),
        (["conform", "--target", "'x"], "moonrules conform"),
    ],
)
def test_a_refusal_is_one_line_naming_the_subcommand(
    argv: list[str], prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{prog}: error: ") and err.count("\n") == 1, err


def test_a_solve_refusal_names_the_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "start.json"
    path.write_text(json.dumps(to_record(m.new_game(seed=2))))
    assert main(["solve", str(path)]) == 2
    assert capsys.readouterr().err.startswith("moonrules solve: error: the record must end")


# ---------------------------------------------------------------------------
# Progress lines


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_off_a_terminal_is_a_line_a_tenth_and_nothing_for_a_short_run() -> None:
    out, clock = io.StringIO(), _Clock()
    p = ProgressLine("study", "deals", total=1000, stream=out, tty=False, clock=clock)
    for done in range(0, 1001, 50):
        clock.now = done / 100  # 10 s in all; the first 2 s show nothing
        p.update(done)
    p.close()
    lines = out.getvalue().splitlines()
    assert [int(x.split()[1].split("/")[0].replace(",", "")) for x in lines] == [
        200,
        300,
        400,
        500,
        600,
        700,
        800,
        900,
        1000,
    ]
    assert lines[0] == "study: 200/1,000 deals (20%), 2 s, 0:08 left"
    assert lines[-1] == "study: 1,000/1,000 deals (100%), 10 s"
    quick = io.StringIO()
    q = ProgressLine("verify", "properties", total=3, stream=quick, tty=False, clock=_Clock())
    for k in range(4):
        q.update(k)
    assert quick.getvalue() == ""  # done within the delay: no line at all


def test_progress_off_a_terminal_says_something_every_ten_seconds_at_least() -> None:
    out, clock = io.StringIO(), _Clock()
    p = ProgressLine("fuzz", "cases", stream=out, tty=False, clock=clock)  # no total
    for k in range(100):
        clock.now = 2 + k  # one case a second
        p.update(k, note="legal_plays")
    lines = out.getvalue().splitlines()
    assert len(lines) == 10 and lines[0] == "fuzz: 0 cases, 2 s, legal_plays"


def test_progress_on_a_terminal_is_one_line_rewritten_and_erased() -> None:
    out, clock = io.StringIO(), _Clock()
    with ProgressLine("advise", "samples", total=10, stream=out, tty=True, clock=clock) as p:
        clock.now = 3.0
        p.update(5)
        clock.now = 3.05
        p.update(6)  # within a tenth of a second: not drawn
        clock.now = 4.0
        p.update(7)
        p.hide()
        out.write("a row of output\n")
        clock.now = 4.01
        p.update(8)  # drawn again at once after hide
    text = out.getvalue()
    assert "\n" not in text.replace("a row of output\n", "")
    assert text.count("\r") >= 5 and "advise: 5/10 samples (50%)" in text
    assert "6/10" not in text and "8/10" in text
    assert text.endswith("\r" + " " * len("advise: 8/10 samples (80%), 4 s, 0:03 left") + "\r")


def test_progress_with_a_line_and_a_pace_of_its_own() -> None:
    """``conform`` and ``fuzz`` give their own text and pace: ``fuzz`` at once, then a line
    every 5 s off a terminal; on a terminal at most one redraw each ``redraw`` seconds."""
    out, clock = io.StringIO(), _Clock()
    p = ProgressLine("fuzz", "cases", stream=out, tty=False, delay=0.0, every=5.0, clock=clock)
    for k in range(12):
        clock.now = k  # one batch a second
        p.update(k, text=f"fuzz: {k} cases ({clock.now:.0f} s)")
    assert out.getvalue().splitlines() == [
        "fuzz: 0 cases (0 s)",
        "fuzz: 5 cases (5 s)",
        "fuzz: 10 cases (10 s)",
    ]
    term, clock = io.StringIO(), _Clock()
    with ProgressLine("conform", "vectors", stream=term, tty=True, redraw=0.5, clock=clock) as q:
        for k in range(30):
            clock.now = 2 + k / 4
            q.update(k, text=f"conform: {k}/30 vectors")
            assert q.elapsed == clock.now
    text = term.getvalue()
    assert text.split("\r")[1:4] == [
        "conform: 0/30 vectors",
        "conform: 2/30 vectors",
        "conform: 4/30 vectors",
    ]
    assert text.endswith("\r" + " " * len("conform: 28/30 vectors") + "\r")


def test_the_progress_lines_of_conform_and_fuzz() -> None:
    from moonrules.cli import conform, fuzz
    from moonrules.conformance.findings import Progress

    assert (
        conform._progress_text(1234, 3, 6206, 12.4) == "conform: 1234/6206 vectors, 3 failed, 12 s"
    )
    assert fuzz._progress_text(Progress("auction", 1, 1, 9.4, False)) == (
        "fuzz: 1 case, 1 finding, 9 s (auction)"
    )
    assert fuzz._progress_text(Progress("led_suit", 1200, 2, 61.0, True)) == (
        "fuzz: 1200 cases, 2 findings, 61 s (shrinking a finding in led_suit)"
    )
    off = conform._progress(quiet=False)  # stderr is no terminal under pytest
    assert (off.tty, off.delay, off.every, off.redraw) == (False, 5.0, 5.0, 0.2)


def test_progress_survives_a_closed_stream() -> None:
    out = io.StringIO()
    p = ProgressLine("study", "deals", total=2, stream=out, tty=False, delay=0)
    out.close()
    p.update(1)  # no error: the work goes on unshown
    assert p.quiet and p.lines == 0


# ---------------------------------------------------------------------------
# Files written whole, with the umask, and Ctrl-C held back meanwhile


def test_write_atomically_keeps_the_old_file_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "out.txt"
    write_atomically(path, "old\n")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OutputError, match="No space left on device") as e:
        write_atomically(path, "new\n")
    assert e.value.path == str(path) and e.value.reason == "No space left on device"
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    again = pickle.loads(pickle.dumps(e.value))
    assert (again.path, again.reason, str(again)) == (e.value.path, e.value.reason, str(e.value))


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o000, 0o666)])
def test_files_written_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "a", b"x")
        write_atomically(tmp_path / "a", b"y")  # replaced: the new file's mode, from the umask
    finally:
        os.umask(old)
    assert (tmp_path / "a").stat().st_mode & 0o777 == mode


def test_check_writable_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    check_writable(tmp_path / "new.json")
    with pytest.raises(OutputError, match="it is a directory"):
        check_writable(tmp_path)
    with pytest.raises(OutputError, match="no directory"):
        check_writable(tmp_path / "missing" / "x.json")
    with pytest.raises(OutputError, match="not a regular file"):
        check_writable("/dev/null")
    with pytest.raises(TypeError, match="path"):
        check_writable(3)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_a_file_is_written_waits_until_it_is_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.bin"
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        write_atomically(path, b"whole")  # done before the interrupt takes effect
        assert path.read_bytes() == b"whole"
    assert path.read_bytes() == b"whole" and [p.name for p in tmp_path.iterdir()] == ["out.bin"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# ---------------------------------------------------------------------------
# a command builds the parser of that command alone


def _options_of(parser: argparse.ArgumentParser, name: str) -> list[Any]:
    """What the subcommand ``name`` of ``parser`` accepts: each argument's spelling, name,
    count, default, choices and help, and so of its own subcommands."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return _accepted(sub.choices[name])


def _accepted(parser: argparse.ArgumentParser) -> list[Any]:
    out: list[Any] = [parser.prog]
    for a in parser._actions:
        choices: Any = a.choices
        if isinstance(a, argparse._SubParsersAction):
            choices = {k: _accepted(v) for k, v in a.choices.items()}
        out.append((a.option_strings, a.dest, a.nargs, repr(a.default), choices, a.help))
    return out


@pytest.mark.parametrize("name", COMMANDS)
def test_a_command_alone_parses_as_among_all(name: str) -> None:
    assert command_named([name, "--help"]) == name
    alone = build_parser(name)
    assert _options_of(alone, name) == _options_of(build_parser(), name)
    with pytest.raises(SystemExit):  # a command that is not the one named is not built
        alone.parse_args([next(c for c in COMMANDS if c != name)])


def test_only_a_first_argument_that_is_a_command_names_one() -> None:
    assert command_named([]) is None
    assert command_named(["--help", "check"]) is None
    assert command_named(["--version"]) is None
    assert command_named(["nope", "check"]) is None
    assert command_named(["check", "play"]) == "check"


def _main_in_a_fresh_process(argv: list[str]) -> list[str]:
    """What ``main(argv)`` prints in a fresh interpreter, then its exit status and the
    sorted commands whose modules it loaded (two more lines)."""
    code = (
        "import sys; from moonrules.cli.main import COMMANDS, main\n"
        "try:\n"
        f"    status = main({argv!r})\n"
        "except SystemExit as e:\n"
        "    status = e.code\n"
        "print(status)\n"
        "print(sorted(c for c in COMMANDS if 'moonrules.cli.' + c in sys.modules))\n"
    )
    env = {**os.environ, "MOONRULES_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return out.stdout.splitlines()


def test_a_command_loads_no_other_command_module() -> None:
    assert _main_in_a_fresh_process(["check", "--help"])[-2:] == ["0", "['check']"]


@pytest.mark.parametrize("argv", [["--version"], ["--version", "check"]])
def test_the_version_loads_no_command_module(argv: list[str]) -> None:
    assert _main_in_a_fresh_process(argv) == [f"moonrules {m.__version__}", "0", "[]"]


def test_no_command_is_still_an_error_naming_what_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err
