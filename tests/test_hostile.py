"""Hostile input: every refusal is one clear line, memory and time stay bounded.

Each test is a reproduction of an attack on the command line, the protocol
server or the library, and asserts the refusal (or the right answer). Commands
run in-process where that is enough; the ones whose memory is in question run as
subprocesses whose peak resident memory is measured (``VmHWM`` of
``/proc/self/status``, written at its exit: the high-water mark since the
command started, which ``ru_maxrss`` is not, since it counts the memory of the
process that forked it) and must stay under 200 MB. Large inputs
are generated once per session in a temporary directory, never checked in.

The last part tries hostile input by category (huge, deep, binary, endless, malformed, limit
options, vector files, hostile targets, and work that must grow linearly), each category a
generator of many inputs run through every reader it can reach; ``MOONRULES_DEEP=1`` adds
larger inputs and more of them (a 100 MB request line, the largest valid records in both
forms, thousands of mutated records).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest
from depth import DEEP
from hypothesis import given
from hypothesis import strategies as st

import moonrules as m
from moonrules.cli.main import main
from moonrules.conformance.protocol import handle, handle_line
from moonrules.conformance.serve import serve
from moonrules.records.jsontext import MAX_DEPTH, MAX_NUMBER_LENGTH, MAX_RECORD_BYTES
from moonrules.records.notation import NotationError, parse_notation, write_notation
from moonrules.records.record import RecordError, load_record, to_record
from moonrules.records.replay import from_record, replay

ROOT = Path(__file__).resolve().parent.parent
PEAK_LIMIT_KB = 200 * 1024
"""Peak resident memory allowed to any command on any input: 200 MB."""

BIG = "1" * 5000
"""A number of 5,000 digits: more than Python converts by default (4,300)."""


def _record_text(record: dict[str, Any]) -> str:
    return json.dumps(record)


def _sample_record() -> dict[str, Any]:
    """A record of a hand played out, and a few steps of the next."""
    state = m.new_game(seed=4)
    rng = random.Random(4)
    while state.hand_number < 2 or state.history[0].thrown_in:
        state = m.apply(state, rng.choice(m.legal_actions(state)))
    return to_record(state)


def _notation() -> str:
    return write_notation(_sample_record())


# ---------------------------------------------------------------------------
# Running a command, in-process or measured


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _one_line_refusal(status: int, err: str) -> str:
    """Exit status 2 and one line on stderr naming the problem; that line."""
    assert status == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert lines[0].startswith("moonrules"), lines[0]
    assert "Traceback" not in err
    assert len(lines[0]) < 400, lines[0][:400]
    return lines[0]


_MEASURED = """
import atexit, os, signal, sys
def _peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["MOONRULES_PEAK_FILE"], "w") as f:
        f.write(peak)
atexit.register(_peak)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
from moonrules.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def _measured(
    args: list[str],
    tmp_path: Path,
    *,
    stdin: Any = subprocess.DEVNULL,
    stdout: Any = subprocess.PIPE,
    first_line: bool = False,
) -> tuple[int, bytes, str, int]:
    """Run ``moonrules ARGS`` in a subprocess: status, stdout, stderr, peak memory (KB).

    ``first_line``: stop it with SIGTERM once it has written its first line of
    output (a server reading an endless input).
    """
    if not Path("/proc/self/status").exists():
        pytest.skip("measuring memory needs /proc")
    peak_file = tmp_path / f"peak-{time.monotonic_ns()}"
    env = {**os.environ, "MOONRULES_PEAK_FILE": str(peak_file), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _MEASURED, *args],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    try:
        head = b""
        if first_line:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, "no answer within 120 s"
            head = proc.stdout.readline()
            time.sleep(0.5)  # reading on a while after answering
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        out = head + (out or b"")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    peak = int(peak_file.read_text())
    assert peak < PEAK_LIMIT_KB, f"moonrules {' '.join(args)}: peak {peak // 1024} MB"
    return proc.returncode, out or b"", err.decode("utf-8", "replace"), peak


@pytest.fixture(scope="session")
def big_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Large hostile files, written once per session."""
    d = tmp_path_factory.mktemp("hostile")
    files: dict[str, Path] = {}
    limit = MAX_RECORD_BYTES - 16
    unit = "{},"
    files["objects"] = d / "objects.json"
    files["objects"].write_text("[" + unit * (limit // len(unit)) + "0]")
    line = b'{"id":1,"op":"tiles","rules":"' + b"x" * (20 << 20) + b'"}\n'
    files["long-line"] = d / "long-line.jsonl"
    files["long-line"].write_bytes(line + b'{"id":2,"op":"tiles"}\n')
    if DEEP:
        files["huge-line"] = d / "huge-line.jsonl"
        with files["huge-line"].open("wb") as f:
            f.write(b'{"id":1,"op":"tiles","rules":"')
            for _ in range(100):
                f.write(b"x" * (1 << 20))
            f.write(b'"}\n{"id":2,"op":"tiles"}\n')
    return files


# ---------------------------------------------------------------------------
# 1. No traceback, no status 1, on a record that cannot be read


def _json_hostiles() -> dict[str, str]:
    deep = "[" * 2000 + "]" * 2000
    return {
        "long number": '{"hands":[{"first_bidder":' + BIG + "}]}",
        "long float": '{"hands":[{"first_bidder":1.' + BIG + "}]}",
        "huge float": '{"hands":[{"first_bidder":1e400}]}',
        "deep array": deep,
        "deep field": '{"hands":[{"first_bidder":0,"deal":' + deep + "}]}",
        "NaN": '{"seed":NaN,"hands":[]}',
        "Infinity": '{"seed":-Infinity,"hands":[]}',
        "duplicate": '{"hands":1,"hands":[{"first_bidder":0,"deal":[]}]}',
        "not JSON": '{"hands": [',
        "not UTF-8": '{"rules": "\udcff"}',
        "empty": "   ",
    }


def _notation_hostiles() -> dict[str, str]:
    base = _notation()
    lines = base.splitlines()

    def swap(prefix: str, new: str) -> str:
        i = next(i for i, line in enumerate(lines) if line.startswith(prefix))
        return "\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n"

    return {
        "rules deep": "rules " + '{"a":' * 2000 + "1" + "}" * 2000 + "\n" + base,
        "rules NaN": 'rules {"players": NaN}\n' + base,
        "rules long name": "rules " + "x" * 100_000 + "\n" + base,
        "seed": swap("seed", "seed " + BIG) if "seed" in base else "seed " + BIG + "\n" + base,
        "hand": swap("hand 1", "hand " + BIG),
        "first": swap("first", "first " + BIG),
        "deal": swap("deal 0", "deal " + BIG + ": 6-6"),
        "bids": swap("0 ", "0 bids " + BIG),
        "bids superscript": swap("0 ", "0 bids \u00b2"),
        "seat superscript": swap("0 ", "\u00b2 passes"),
        "trick": swap("trick 1", "trick " + BIG + ": 6-6"),
        "score": base + "score " + " ".join([BIG] * 3) + "\n",
        "claim": base + "claim 0 " + BIG + "\n",
        "claim seat": base + "claim " + BIG + " all\n",
        "long line": base + "x" * 100_000 + "\n",
    }


@pytest.mark.parametrize("name", sorted(_json_hostiles()))
@pytest.mark.parametrize("command", [["check"], ["check", "--json"], ["claim"], ["solve"]])
def test_an_unreadable_json_record_is_one_line_and_status_2(
    name: str, command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(_json_hostiles()[name].encode("utf-8", "surrogateescape"))
    line = _one_line_refusal(*_cli([*command, str(path)], capsys)[::2])
    assert "unreadable record" in line or "error" in line


@pytest.mark.parametrize("name", sorted(_notation_hostiles()))
@pytest.mark.parametrize("command", [["check"], ["check", "--json"], ["claim"], ["solve"]])
def test_an_unreadable_notation_record_is_one_line_and_status_2(
    name: str, command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.moon"
    path.write_text(_notation_hostiles()[name], encoding="utf-8")
    line = _one_line_refusal(*_cli([*command, str(path)], capsys)[::2])
    assert "unreadable record: line " in line


def test_the_notation_names_the_limit_it_refuses() -> None:
    hostiles = _notation_hostiles()
    for name in ("seed", "hand", "first", "deal", "bids", "trick", "score", "claim"):
        with pytest.raises(NotationError, match=f"at most {MAX_NUMBER_LENGTH}"):
            parse_notation(hostiles[name])
    with pytest.raises(NotationError, match=f"nested more than {MAX_DEPTH} deep"):
        parse_notation(hostiles["rules deep"])
    with pytest.raises(NotationError, match="whole number of tricks, got '\u00b2'"):
        parse_notation(hostiles["bids superscript"])


@pytest.mark.parametrize("name", sorted(_json_hostiles()))
def test_load_record_raises_record_error_for_anything_it_cannot_read(name: str) -> None:
    text = _json_hostiles()[name]
    with pytest.raises(RecordError) as e:
        load_record(text.encode("utf-8", "surrogateescape") if name == "not UTF-8" else text)
    assert len(str(e.value)) < 300


def test_load_record_reads_strict_json_within_its_limits() -> None:
    record = _sample_record()
    assert load_record(json.dumps(record, indent=2)) == record
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_record(nested) is not None
    with pytest.raises(RecordError, match="nested more than"):
        load_record("[" + nested + "]")
    assert load_record("[" + "1" * MAX_NUMBER_LENGTH + "]") == [int("1" * MAX_NUMBER_LENGTH)]
    with pytest.raises(RecordError, match="at most"):
        load_record("[" + "1" * (MAX_NUMBER_LENGTH + 1) + "]")
    # brackets inside strings are not nesting
    assert load_record(json.dumps(["[" * 500])) == ["[" * 500]
    with pytest.raises(RecordError, match="longer than"):
        load_record(" " * 101, max_length=100)
    with pytest.raises(TypeError, match="text"):
        load_record(None)  # type: ignore[arg-type]


def test_messages_quote_at_most_a_short_prefix_of_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "y" * 1_000_000
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"rules": name, "hands": []}))
    line = _one_line_refusal(*_cli(["check", str(path)], capsys)[::2])
    assert "yyyy" in line and "(1000000 characters)" in line
    answer = json.loads(handle_line(json.dumps({"id": 1, "op": "tiles", "rules": name})))
    assert answer["error"]["code"] == "unknown-rules"
    assert len(answer["error"]["message"]) < 300
    answer = json.loads(handle_line(json.dumps({"id": 1, "op": "tiles", name: 1})))
    assert answer["error"]["code"] == "bad-request" and len(answer["error"]["message"]) < 300
    with pytest.raises(m.ParseError) as e:
        m.Tile.parse(name)
    assert len(str(e.value)) < 200


# ---------------------------------------------------------------------------
# 2. Bounded reads: memory stays bounded whatever arrives


def test_check_reads_at_most_the_limit_of_an_endless_file(tmp_path: Path) -> None:
    status, _, err, _ = _measured(["check", "/dev/zero"], tmp_path)
    line = _one_line_refusal(status, err)
    assert "larger than 4 MiB" in line and "--max-bytes" in line
    with open("/dev/zero", "rb") as zero:
        status, _, err, _ = _measured(["check", "-"], tmp_path, stdin=zero)
    assert "larger than 4 MiB" in _one_line_refusal(status, err)


def test_max_bytes_sets_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_sample_record()))
    size = path.stat().st_size
    assert _cli(["check", str(path), "--max-bytes", str(size)], capsys)[0] == 0
    status, _, err = _cli(["check", str(path), "--max-bytes", str(size - 1)], capsys)
    assert f"larger than {size - 1} bytes" in _one_line_refusal(status, err)
    with pytest.raises(SystemExit) as e:
        main(["check", str(path), "--max-bytes", "lots"])
    assert e.value.code == 2
    assert "positive number of bytes" in capsys.readouterr().err


def test_a_record_of_the_largest_size_in_the_worst_shape_stays_in_memory_bounds(
    big_inputs: dict[str, Path], tmp_path: Path
) -> None:
    status, _, err, _ = _measured(["check", str(big_inputs["objects"])], tmp_path)
    assert "a record is a JSON object" in _one_line_refusal(status, err)


def _answers(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.decode("ascii").splitlines()]


def test_serve_answers_an_endless_line_at_once_in_bounded_memory(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        status, out, err, _ = _measured(["serve"], tmp_path, stdin=zero, first_line=True)
    assert status == 143 and "Traceback" not in err
    [answer] = _answers(out)
    assert answer["id"] is None and answer["error"]["code"] == "bad-request"
    assert "longer than 4 MiB" in answer["error"]["message"]


@pytest.mark.parametrize("name", ["long-line", "huge-line"])
def test_serve_refuses_a_long_line_and_goes_on(
    name: str, big_inputs: dict[str, Path], tmp_path: Path
) -> None:
    if name not in big_inputs:
        pytest.skip("MOONRULES_DEEP=1 for a 100 MB line")
    with big_inputs[name].open("rb") as f:
        status, out, err, _ = _measured(["serve"], tmp_path, stdin=f)
    assert status == 0, err
    first, second = _answers(out)
    assert first["error"]["code"] == "bad-request" and first["id"] is None
    assert second["id"] == 2 and second["ok"] is True


def _long_record(hands: int) -> dict[str, Any]:
    """A valid record of ``hands`` hands played out at random (a target no one reaches)."""
    state = m.new_game(m.RuleSet(target=10**6, moon=False), seed=1)
    rng = random.Random(1)
    while state.hand_number <= hands:
        state = m.apply(state, rng.choice(m.legal_actions(state)))
    record = to_record(state)
    record["hands"] = record["hands"][:hands]
    return record


@pytest.mark.skipif(not DEEP, reason="MOONRULES_DEEP=1 for the largest valid records (20 s)")
def test_check_of_the_largest_valid_records_stays_in_memory_bounds(tmp_path: Path) -> None:
    """The largest valid record under the limit (11,726 hands played out in 4 MiB), checked
    with its report, its HTML page and as JSON; and 3,950 hands with the HTML page."""
    record = _long_record(11_726)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(record, separators=(",", ":")))
    assert MAX_RECORD_BYTES - (64 << 10) < big.stat().st_size <= MAX_RECORD_BYTES
    for extra in ([], ["--json"], ["--html", str(tmp_path / "big.html")]):
        status, _, err, _ = _measured(["check", str(big), *extra], tmp_path)
        assert status == 0, err
    shorter = tmp_path / "3950.json"
    shorter.write_text(json.dumps({**record, "hands": record["hands"][:3950]}, indent=1))
    status, _, err, _ = _measured(
        ["check", str(shorter), "--html", str(tmp_path / "p.html")], tmp_path
    )
    assert status == 0, err


def test_serve_max_line_bytes_sets_the_limit() -> None:
    line = json.dumps({"id": 1, "op": "tiles"}).encode()
    for limit, code in ((len(line), None), (len(line) - 1, "bad-request")):
        source = io.BytesIO(line + b"\r\n" + line + b"\n")
        sink = io.BytesIO(b"")
        assert serve(source, sink, max_line_bytes=limit + 1 if code is None else limit) == 2
        answers = _answers(sink.getvalue())
        assert [a.get("error", {}).get("code") for a in answers] == [code, code]


# ---------------------------------------------------------------------------
# 5. serve: every line answered, every id valid JSON


@pytest.mark.parametrize(
    "line",
    [
        '{"id":1e400,"op":"tiles"}',
        '{"id":-1e400,"op":"tiles"}',
        '{"id":' + BIG + ',"op":"tiles"}',
        '{"id":1,"op":"tiles","x":' + "[" * 985 + "]" * 985 + "}",
        '{"id":' + "[" * 985 + "]" * 985 + ',"op":"tiles"}',
        "[" * 100_000,
        "{" * 100_000,
    ],
)
def test_a_line_over_a_limit_is_a_bad_request_with_a_null_id(line: str) -> None:
    answer = json.loads(handle_line(line))
    assert answer["id"] is None and answer["ok"] is False
    assert answer["error"]["code"] == "bad-request" and answer["error"]["rule"] is None


def test_every_answer_id_is_strict_json() -> None:
    sink = io.BytesIO(b"")
    lines = [
        b'{"id":1e308,"op":"tiles"}',
        b'{"id":1.5,"op":"nope"}',
        b'{"id":[[[["x"]]]],"op":"tiles"}',
        b'{"id":"\\ud800","op":"tiles"}',
    ]
    serve(io.BytesIO(b"\n".join(lines)), sink)
    answers = sink.getvalue().splitlines()
    assert len(answers) == len(lines)
    for raw in answers:
        assert json.loads(raw, parse_constant=lambda c: None) == json.loads(raw), raw[:80]


def test_an_engine_answer_that_is_not_strict_json_becomes_an_internal_answer() -> None:
    sink = io.BytesIO(b"")
    serve(io.BytesIO(b'{"id":7,"op":"tiles"}\n'), sink, lambda r: {"id": 7, "x": float("nan")})
    [answer] = _answers(sink.getvalue())
    assert answer["id"] == 7 and answer["error"]["code"] == "internal"


def test_handle_refuses_a_request_nested_too_deeply_for_python() -> None:
    value: Any = []
    for _ in range(5000):
        value = [value]
    answer = handle({"id": 3, "op": "legal_bids", "bids": value})
    assert answer["id"] == 3 and answer["error"]["code"] == "bad-request"


def _shell(command: str) -> subprocess.CompletedProcess[bytes]:
    """``moonrules COMMAND`` run by the shell (for its redirections), stderr captured."""
    return subprocess.run(
        f"{sys.executable} -m moonrules {command}",
        shell=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


def test_serve_with_its_output_or_input_closed_is_one_line_and_status_2() -> None:
    for redirect in (">&-", "<&-"):
        result = _shell(f"serve {redirect}")
        err = result.stderr.decode()
        assert result.returncode == 2 and "Traceback" not in err, err
        assert err.strip() in (
            "moonrules serve: error: standard output is closed",
            "moonrules serve: error: standard input is closed",
        )


def test_check_refuses_a_record_naming_a_member_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.dumps(_sample_record())
    path = tmp_path / "dup.json"
    path.write_text('{"seed": 1, ' + record[1:])
    line = _one_line_refusal(*_cli(["check", str(path)], capsys)[::2])
    assert "'seed' appears twice" in line


# ---------------------------------------------------------------------------
# 8. Output errors name the file, never "None"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line_naming_the_file(tmp_path: Path) -> None:
    example = str(ROOT / "examples" / "clean-game.json")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args, stdout in (
        (["check", example], "/dev/full"),
        (["check", example, "--html", "/dev/full"], os.devnull),
        (["explain", "--trump", "6", "--trick", "6-6 5-5 4-4"], "/dev/full"),
    ):
        with open(stdout, "wb") as out:
            result = subprocess.run(
                [sys.executable, "-m", "moonrules", *args],
                stdout=out,
                stderr=subprocess.PIPE,
                env=env,
                cwd=ROOT,
                timeout=60,
                check=False,
            )
        line = _one_line_refusal(result.returncode, result.stderr.decode())
        assert "No space left on device" in line and "None" not in line
    status, _, err, _ = _measured(["check", "/proc/self/mem"], tmp_path)
    assert _one_line_refusal(status, err).endswith("Input/output error: /proc/self/mem")


def test_check_json_with_html_writes_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "out.html"
    status, out, _ = _cli(
        [
            "check",
            str(ROOT / "examples" / "renege-trump-follows.json"),
            "--json",
            "--html",
            str(page),
        ],
        capsys,
    )
    assert status == 1 and json.loads(out)["valid"] is False
    assert page.read_text().startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------
# 6. The library


def test_presets_are_read_only() -> None:
    before = m.rules_by_name("standard")
    with pytest.raises(TypeError):
        m.PRESETS["standard"] = m.PRESETS["partnership"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.PRESETS.clear()  # type: ignore[attr-defined]
    from moonrules.rules.ruleset import ALIASES

    with pytest.raises(TypeError):
        ALIASES["standard"] = "partnership"  # type: ignore[index]
    assert m.rules_by_name("standard") == before == m.new_game(seed=1).rules


def _library_calls() -> dict[str, tuple[Any, type[Exception], str]]:
    from moonrules.game import Deal, check_deal, illegal_play_reason, with_deal
    from moonrules.rules.scoring import score_hand

    s = m.new_game(seed=1)
    standard = m.PRESETS["standard"]
    playing = s
    while playing.phase is not m.Phase.PLAY:
        playing = m.apply(playing, m.legal_actions(playing)[-1])
    text_hands = (("6-6",) * 7,) * 3
    return {
        "apply(None)": (lambda: m.apply(None, m.Pass()), TypeError, "state"),  # type: ignore[arg-type]
        "apply(s, 5)": (lambda: m.apply(s, 5), TypeError, "action"),  # type: ignore[arg-type]
        "legal_actions('x')": (lambda: m.legal_actions("x"), TypeError, "state"),  # type: ignore[arg-type]
        "legal_plays trump 6": (
            lambda: m.legal_plays(m.tiles("6-6"), m.tiles("5-5"), 6),  # type: ignore[arg-type]
            TypeError,
            "trump",
        ),
        "legal_plays text hand": (
            lambda: m.legal_plays("6-6", (), m.Trump.SIX),  # type: ignore[arg-type]
            TypeError,
            "hand",
        ),
        "trick_winner text": (
            lambda: m.trick_winner(["6-6", "5-5", "4-4"], m.Trump.SIX),  # type: ignore[list-item]
            TypeError,
            "trick[0]",
        ),
        "led_suit text": (lambda: m.led_suit("6-6", m.Trump.SIX), TypeError, "tile"),  # type: ignore[arg-type]
        "check_deal None": (lambda: check_deal(standard, None), TypeError, "deal"),  # type: ignore[arg-type]
        "check_deal rules": (lambda: check_deal("standard", s), TypeError, "rules"),  # type: ignore[arg-type]
        "new_game deal text": (lambda: m.new_game(deal="x"), TypeError, "deal"),  # type: ignore[arg-type]
        "new_game seed text": (lambda: m.new_game(seed="7"), TypeError, "seed"),  # type: ignore[arg-type]
        "new_game seed 4,301 digits": (lambda: m.new_game(seed=10**4300), ValueError, "seed"),
        "seeded_deal seed 4,301 digits": (
            lambda: m.seeded_deal(standard, -(10**4300), 1),
            ValueError,
            "seed",
        ),
        # A Deal refuses tiles written as text itself (Deal.of reads them).
        "Deal text tiles": (lambda: Deal(text_hands, None), TypeError, "hands"),  # type: ignore[arg-type]
        "with_deal text deal": (lambda: with_deal(s, text_hands), TypeError, "deal"),  # type: ignore[arg-type]
        "with_deal None": (lambda: with_deal(None, s.hand), TypeError, "state"),  # type: ignore[arg-type]
        "score_hand seat 5": (lambda: score_hand(standard, 5, 5, (5, 1, 1)), ValueError, "bidder"),
        "score_hand tricks": (lambda: score_hand(standard, 0, 5, (5, 2)), ValueError, "tricks"),
        "score_hand rules": (lambda: score_hand("x", 0, 5, (5, 1, 1)), TypeError, "rules"),  # type: ignore[arg-type]
        "from_index 28": (lambda: m.Tile.from_index(28), ValueError, "index"),
        "from_index -1": (lambda: m.Tile.from_index(-1), ValueError, "index"),
        "from_index text": (lambda: m.Tile.from_index("1"), TypeError, "index"),  # type: ignore[arg-type]
        "illegal_play_reason text": (
            lambda: illegal_play_reason(playing, "6-6"),  # type: ignore[arg-type]
            TypeError,
            "tile",
        ),
        "apply Play text": (lambda: m.apply(playing, m.Play("6-6")), TypeError, "tile"),  # type: ignore[arg-type]
    }


@pytest.mark.parametrize("name", sorted(_library_calls()))
def test_library_entry_points_name_the_argument_they_cannot_use(name: str) -> None:
    call, error, parameter = _library_calls()[name]
    with pytest.raises(error) as e:
        call()
    assert str(e.value).startswith(f"{parameter}: "), str(e.value)
    assert len(str(e.value)) < 200


def test_a_seed_of_4300_digits_deals_every_hand() -> None:
    """The largest seed allowed deals the first hand and the ones after it."""
    s = m.new_game(seed=10**4300 - 1)
    assert m.seeded_deal(s.rules, 10**4300 - 1, 2) != m.seeded_deal(s.rules, 10**4300 - 1, 1)


def test_every_index_of_the_set_is_a_tile_and_no_other() -> None:
    assert [m.Tile.from_index(i).index for i in range(28)] == list(range(28))
    for bad in (-28, -1, 28, 10**6, True):
        with pytest.raises((ValueError, TypeError)):
            m.Tile.from_index(bad)


# ---------------------------------------------------------------------------
# 7. A record comes back exactly as it was written


def _records_of(state: m.GameState) -> list[dict[str, Any]]:
    """Every record a game gives: as saved, cut after each hand, each with and without seed."""
    full = to_record(state)
    records = [full]
    for k in range(1, len(full["hands"])):
        records.append({**full, "hands": full["hands"][:k]})
    return records + [{k: v for k, v in r.items() if k != "seed"} for r in records]


@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(0, 300))
def test_a_record_comes_back_exactly_as_written(preset: str, seed: int, steps: int) -> None:
    state = m.new_game(preset, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = m.apply(state, rng.choice(m.legal_actions(state)))
    for record in _records_of(state):
        record = json.loads(json.dumps(record))
        again = from_record(record)
        assert to_record(again) == record
        assert from_record(to_record(again)) == again
        assert load_record(json.dumps(to_record(again))) == record


def test_a_record_ending_between_hands_is_written_back_so_until_the_game_moves_on() -> None:
    state = m.new_game(seed=9)
    rng = random.Random(9)
    while state.hand_number < 3:
        state = m.apply(state, rng.choice(m.legal_actions(state)))
    record = to_record(state)
    record["hands"].pop()
    read = from_record(record)
    assert read == state and to_record(read) == record
    moved = m.apply(read, m.legal_actions(read)[0])
    assert len(to_record(moved)["hands"]) == 3
    assert to_record(m.with_deal(read, m.seeded_deal(read.rules, 1, 3))) != record
    del record["seed"]
    read = from_record(record)
    assert read.seed == 0 and to_record(read) == record
    moved = m.apply(read, m.legal_actions(read)[0])
    assert len(to_record(moved)["hands"]) == 3 and "seed" not in to_record(moved)


def test_every_valid_vector_record_and_example_comes_back_exactly() -> None:
    from moonrules.arbitration import read_record

    count = 0
    for path in sorted((ROOT / "spec" / "vectors").glob("*.jsonl")):
        for line in path.read_text().splitlines()[1:]:
            vector = json.loads(line)
            request = vector["request"]
            record = request.get("record") if isinstance(request, dict) else None
            if not isinstance(record, dict) or "hands" not in record:
                continue
            try:
                if not replay(record).valid:
                    continue
            except RecordError:
                continue
            assert json.dumps(to_record(from_record(record))) == json.dumps(record), vector["name"]
            count += 1
    for path in sorted((ROOT / "examples").iterdir()):
        if path.suffix not in (".json", ".moon") or path.name == "verdicts.json":
            continue
        record = read_record(path.read_text()).record
        if replay(record).valid:
            assert json.dumps(to_record(from_record(record))) == json.dumps(record), path.name
            count += 1
    assert count > 360


def _shuffled(obj: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    keys = list(obj)
    rng.shuffle(keys)
    return {k: obj[k] for k in keys}


def _rule_spellings(rules: m.RuleSet) -> list[Any]:
    """Every way a record may name ``rules``: its preset's name in other letters, an alias,
    an object of all its fields or of those that differ from the defaults."""
    from moonrules.rules.ruleset import ALIASES

    fields = rules.to_json()
    default = m.RuleSet().to_json()
    spellings: list[Any] = [fields, {k: v for k, v in fields.items() if default[k] != v}]
    spellings.append({**fields, "trump_numbers": fields["trump_numbers"][::-1]})
    name = rules.name
    if name is not None:
        spellings += [name, name.upper(), f" {name.replace('-', '_')} ", name.title()]
        spellings += [alias for alias, preset in ALIASES.items() if preset == name]
    return spellings


def _respelled(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` written another way that means the same: tiles either end first, each
    seat's tiles in any order, the rules by alias or as an object, fields whose absence
    means the same left out, members in any order."""

    def tile(t: str) -> str:
        return t[::-1] if rng.random() < 0.5 else t

    hands = []
    for hand in record["hands"]:
        hand = dict(hand)
        hand["deal"] = [rng.sample([tile(t) for t in seat], len(seat)) for seat in hand["deal"]]
        for key in ("widow", "discard"):
            if key in hand:
                hand[key] = tile(hand[key])
        if "plays" in hand:
            hand["plays"] = [tile(t) for t in hand["plays"]]
        for key in ("bids", "plays"):
            if hand.get(key) == [] and rng.random() < 0.7:
                del hand[key]
        hands.append(_shuffled(hand, rng))
    rules = m.rules_by_name(record["rules"]) if isinstance(record["rules"], str) else None
    assert rules is not None
    spelling = rng.choice(_rule_spellings(rules))
    if isinstance(spelling, dict):
        spelling = _shuffled(spelling, rng)
    out = {**record, "rules": spelling, "hands": hands}
    if rules == m.PRESETS["standard"] and rng.random() < 0.5:
        del out["rules"]
    if "seed" in out and rng.random() < 0.3:
        del out["seed"]
    return _shuffled(out, rng)


_STOPS = ["anywhere", "between hands", "dealt", "bidding", "discard", "trump", "trump named"]


def _game_stopping(preset: str, seed: int, steps: int, stop: str) -> m.GameState:
    """A random game of ``preset`` played ``steps`` actions, then on to the ``stop`` named."""
    state = m.new_game(preset, seed=seed)
    rng = random.Random(seed)
    reached = {
        "anywhere": lambda s: True,
        "between hands": lambda s: s.hand_number > 1 and s.phase is m.Phase.BIDDING,
        "dealt": lambda s: s.phase is m.Phase.BIDDING and not s.calls,
        "bidding": lambda s: s.phase is m.Phase.BIDDING and bool(s.calls),
        "discard": lambda s: s.phase is m.Phase.DISCARD,
        "trump": lambda s: s.phase is m.Phase.TRUMP,
        "trump named": lambda s: s.phase is m.Phase.PLAY and not s.trick and not s.tricks,
    }[stop]
    for step in range(steps + 400):
        if state.is_over or (step >= steps and reached(state)):
            break
        state = m.apply(state, rng.choice(m.legal_actions(state)))
    return state


@given(
    st.sampled_from(sorted(m.PRESETS)),
    st.integers(0, 2**32),
    st.integers(0, 120),
    st.sampled_from(_STOPS),
    st.randoms(use_true_random=False),
)
def test_a_record_in_any_spelling_comes_back_exactly_as_written(
    preset: str, seed: int, steps: int, stop: str, rng: random.Random
) -> None:
    """Whatever legal spelling a record uses, ``to_record(from_record(x))`` is ``x``, key
    order included; a game read and played on keeps the spellings of the hands it was given
    and is read back as the same state."""
    state = _game_stopping(preset, seed, steps, stop)
    canonical = to_record(state)
    if stop == "between hands" and len(canonical["hands"]) > 1 and not state.is_over:
        canonical["hands"].pop()  # the record ends with the hand before the one dealt
    record = json.loads(json.dumps(_respelled(canonical, rng)))
    read = from_record(record)
    assert read == from_record({**canonical, "seed": record.get("seed", 0)})
    assert json.dumps(to_record(read)) == json.dumps(record)
    if read.is_over:
        return
    on = read
    for _ in range(rng.randrange(1, 60)):
        if on.is_over:
            break
        on = m.apply(on, rng.choice(m.legal_actions(on)))
    written = to_record(on)
    assert from_record(json.loads(json.dumps(written))) == on
    assert written["hands"][: len(record["hands"]) - 1] == record["hands"][:-1]
    assert to_record(from_record(written)) == written


def test_what_leaving_a_field_out_means_stays_out_until_the_game_fills_it() -> None:
    state = _game_stopping("standard", 3, 0, "trump named")
    record = to_record(state)
    hand = record["hands"][0]
    assert hand.pop("plays") == [] and record.pop("rules") == "standard"
    hand["widow"] = hand["widow"][::-1]
    read = from_record(record)
    assert to_record(read) == record and "plays" not in to_record(read)["hands"][0]
    on = m.apply(read, m.legal_actions(read)[0])
    written = to_record(on)
    assert "rules" not in written and len(written["hands"][0]["plays"]) == 1
    assert written["hands"][0]["widow"] == hand["widow"]
    assert str(on.trick[0]) == written["hands"][0]["plays"][0]  # new plays: high end first
    dealt = {"first_bidder": hand["first_bidder"], "deal": hand["deal"], "widow": hand["widow"]}
    read = from_record({"rules": "3P", "hands": [dealt]})
    assert to_record(read) == {"rules": "3P", "hands": [dealt]}
    assert to_record(m.apply(read, m.Pass()))["hands"][0]["bids"] == ["pass"]


def test_a_record_with_a_number_python_cannot_write_as_text_still_comes_back() -> None:
    record = to_record(_game_stopping("standard", 2, 8, "anywhere"))
    record["rules"] = {"target": 10**5000}
    record["hands"][0]["widow"] = record["hands"][0]["widow"][::-1]
    read = from_record(record)
    assert read.rules.target == 10**5000 and to_record(read) == record


def test_a_record_read_under_other_rules_names_them_when_written() -> None:
    state = _game_stopping("pagat", 5, 20, "anywhere")
    record = {k: v for k, v in to_record(state).items() if k != "rules"}
    read = replay(record, rules=m.PRESETS["pagat"]).state
    assert read == state and to_record(read) == {"rules": "pagat", **record}


# ---------------------------------------------------------------------------
# 8. Smaller items


def test_solve_on_a_record_breaking_a_rule_gives_the_ruling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = str(ROOT / "examples" / "bid-out-of-turn.moon")
    status, _, err = _cli(["solve", record], capsys)
    line = _one_line_refusal(status, err)
    assert "breaks a rule" in line and "(TURN-1)" in line
    status, _, err = _cli(["claim", record, "--seat", "0"], capsys)
    assert "(TURN-1)" in _one_line_refusal(status, err)


def test_the_limits_page_says_what_the_code_does() -> None:
    page = ROOT / "docs" / "limits.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0
    lines = [line for line in page.read_text().splitlines() if line[:2] in ("→ ", "← ")]
    assert lines
    for sent, answer in zip(lines[::2], lines[1::2], strict=True):
        assert handle_line(sent[2:]) == answer[2:]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trump", "6", "--trick", "6-6", "--play", "6-6"], "6-6 is already in the trick"),
        (
            ["--trump", "6", "--trick", "5-5", "--hand", "6-6 5-5", "--play", "6-6"],
            "appears twice, at trick[0] and at hand[1]",
        ),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "9,-1,-1"], "tricks[1]: -1"),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "\u0663,\u0662,\u0662"], "whole"),
        (["--score", "--bidder", "\u0663", "--bid", "5", "--tricks", "5,1,1"], "a seat"),
        (["--trump", "6", "--trick", "6-6", "--leader", "99"], "not 99"),
        (["--trump", "6", "--trick", "6-6", "--leader", "3"], "0 to 2 with these rules, not 3"),
        (["--bids", "\u00b2"], "'\u00b2' is not a call"),
        (["--bids", "5," + BIG], "is not a call"),
    ],
)
def test_explain_refuses_an_impossible_situation_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(["explain", *args])
    except SystemExit as e:  # a usage error, from the option parser
        status = int(e.code or 0)
    line = _one_line_refusal(status, capsys.readouterr().err)
    assert message in line


def test_explain_scores_and_rules_on_tricks_within_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _cli(
        ["explain", "--trump", "6", "--trick", "6-6 5-5 4-4", "--leader", "2"], capsys
    )
    assert status == 0 and "Seat 2 wins" in out
    status, out, _ = _cli(
        ["explain", "--score", "--bidder", "0", "--bid", "5", "--tricks", "5,1,1"], capsys
    )
    assert status == 0 and "(SCORE-1)" in out


def test_the_guides_say_what_the_code_does() -> None:
    import re

    guide = (ROOT / "docs" / "guides" / "disputes.md").read_text()
    example = next(b for b in re.findall(r"```text\n(.*?)```", guide, re.S) if "hand 1" in b)
    [said] = re.findall(r"`(line \d+: expected 'trump X'[^`]*)`", guide)
    with pytest.raises(NotationError) as e:
        parse_notation(example.replace("trump 6", "trump spades"))
    assert str(e.value) == said
    app = (ROOT / "docs" / "guides" / "app.md").read_text()
    [printed] = re.findall(r"# (DEAL-3 - .*)", app)
    deal = m.new_game(seed=5).hands
    bad = m.Deal.of([["6-6"] * 7, deal[1], deal[2]], widow="0-0")
    with pytest.raises(m.IllegalDeal) as d:
        m.new_game(seed=5, deal=bad)
    assert (
        f"{d.value.rule} - {d.value.message}" == printed == "DEAL-3 - 6-6 was dealt twice to seat 0"
    )


def test_the_html_page_of_a_long_record_shows_in_full_only_the_last_hands_and_the_dispute(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from moonrules.arbitration.report_html import FULL_HANDS

    state = m.new_game(seed=3)
    while state.hand_number < 3 * FULL_HANDS:
        state = m.apply(state, m.Pass())
    record = to_record(state)
    path, page = tmp_path / "long.json", tmp_path / "long.html"
    path.write_text(json.dumps(record))
    assert _cli(["check", str(path), "--html", str(page)], capsys)[0] == 0
    html = page.read_text()
    assert html.count('<section class="hand"') == FULL_HANDS
    assert 'id="hand-1"' not in html and f'id="hand-{3 * FULL_HANDS}"' in html
    assert f"{2 * FULL_HANDS} hands not in dispute are summarised" in html


def test_max_bytes_raises_the_limit_above_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(_sample_record())
    path = tmp_path / "padded.json"
    path.write_text(text[:-1] + " " * MAX_RECORD_BYTES + "}")
    status, _, err = _cli(["check", str(path)], capsys)
    assert "larger than 4 MiB" in _one_line_refusal(status, err)
    assert _cli(["check", str(path), "--max-bytes", "8M"], capsys)[0] == 0


# ---------------------------------------------------------------------------
# 9. The other commands: play, match, advise, study, verify


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``moonrules ARGV`` in-process (argument errors exit through argparse): the one
    line of its refusal."""
    try:
        status = main(argv)
    except SystemExit as e:
        status = e.code  # type: ignore[assignment]
    _, err = capsys.readouterr()
    return _one_line_refusal(status, err)


HAND = "6-6 6-5 6-4 5-5 4-2 3-1 1-1"
FULLWIDTH = "\uff13"
"""A digit three of another script (which ``int`` reads as 3)."""
HUGE = "9" * 30
"""A number of 30 digits: more games, samples, deals or workers than any command runs."""
LONG = "x" * 100_000
"""A name 100,000 characters long: the refusal quotes a short prefix of it."""


def _option_hostiles(tmp_path: Path) -> list[tuple[list[str], str]]:
    watch = ["play", "--watch", "--seed", "1"]
    return [
        (["play", "--watch", "--seed", FULLWIDTH], "ASCII digits"),
        (["play", "--watch", "--seed", "1" * 101], "at most 100 characters"),
        (["play", "--watch", "--seed", BIG], "at most 100 characters"),
        (["play", "--watch", "--players-seed", "²"], "ASCII digits"),
        (["play", "--seat", HUGE], "no seat"),
        (["play", "--seat", "-1"], "no seat"),
        (["play", "--watch", "--rules", LONG], "no rule set"),
        (["play", "--watch", "--bots", LONG], "no bot"),
        ([*watch, "--save", str(tmp_path / "no" / "dir" / "game.json")], "no directory"),
        ([*watch, "--save", "/dev/null"], "not a regular file"),
        ([*watch, "--save", str(tmp_path)], "it is a directory"),
        ([*watch, "--save", "/proc/game.json"], "cannot save to '/proc/game.json'"),
        (["fuzz", "--target", "x", "--examples", HUGE], "at most 10,000,000"),
        (["match", "--games", HUGE], "--games must be at most 1,000,000"),
        (["match", "--games", "-1"], "--games must be at least 1"),
        (["match", "--hands", HUGE], "--hands must be at most"),
        (["match", "--max-hands", "0"], "--max-hands must be at least 1"),
        (["match", "--workers", "100000"], "--workers must be at most"),
        (["match", "--seed", FULLWIDTH], "ASCII digits"),
        (["match", "--bots", "strong", "--samples", HUGE], "--samples must be at most"),
        (["match", "--bots", "strong", "--node-budget", "-1"], "--node-budget must be at least"),
        (["match", "--bots", "strong", "--time-budget", "nan"], "not nan"),
        (["match", "--bots", "strong", "--time-budget", "inf"], "not inf"),
        (["match", "--bots", "strong", "--time-budget", "1e400"], "not inf"),
        (["match", "--bots", "strong", "--time-budget", "-1"], "more than 0"),
        (["match", "--bots", LONG], "no bot"),
        (["advise", HAND, "--samples", HUGE], "--samples must be at most 100,000"),
        (["advise", HAND, "--samples", "-5"], "at least 1"),
        (["advise", HAND, "--samples", "10", "--min-samples", "500"], "--min-samples"),
        (["advise", HAND, "--workers", "100000"], "--workers must be at most"),
        (["advise", HAND, "--precision", "nan"], "finite"),
        (["advise", HAND, "--precision", "inf"], "finite"),
        (["advise", HAND, "--precision", FULLWIDTH], "expected a number"),
        (["advise", HAND, "--seed", FULLWIDTH], "ASCII digits"),
        (["advise", HAND, "--calls", "pass ²"], "not a call"),
        (["advise", HAND, "--calls", f"pass {BIG}"], "not a call"),
        (["advise", HAND, "--trump", LONG], "not a trump"),
        (["advise", LONG], "not a tile"),
        (["advise", "\udcff\udcfe"], "not a tile"),
        (["study", "run", str(tmp_path / "s"), "--deals", HUGE], "at most 1,000,000,000"),
        (
            ["study", "run", str(tmp_path / "s"), "--deals", "1000000000"],
            "at most 1,000,000 chunks",
        ),
        (["study", "run", str(tmp_path / "s"), "--deals", "-1"], "at least 1 deal"),
        (["study", "run", str(tmp_path / "s"), "--chunk", "0"], "at least 1 deal"),
        (["study", "run", str(tmp_path / "s"), "--workers", "100000"], "workers must be at most"),
        (["study", "run", str(tmp_path / "s"), "--seed", FULLWIDTH], "ASCII digits"),
        (["study", "run", str(tmp_path / "s"), "--timeout", "nan"], "not nan"),
        (["study", "run", str(tmp_path / "s"), "--timeout", "-1"], "more than 0"),
        (["study", "run", str(tmp_path / "s"), "--scheduler", LONG], "tcp://HOST:PORT"),
        (["study", "run", str(tmp_path / "s"), "--rules", LONG], "no rule set"),
        (["study", "run", "/proc/study", "--deals", "1", "--csv"], "/proc/study"),
        (["study", "run", "/dev/null", "--deals", "1", "--csv"], "/dev/null"),
        (["study", "report", str(tmp_path / "none")], "holds no study"),
        (["study", "report", "/dev/zero"], "/dev/zero"),
        (["verify", "--only", LONG], "no property is called"),
        (["verify", "--only", ","], "names no property"),
    ]


def test_every_command_refuses_a_hostile_option_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """play, match, advise, study and verify: huge, negative, non-ASCII and non-finite numbers,
    unknown names, paths that are no file or directory; nothing runs, nothing is written."""
    for argv, needle in _option_hostiles(tmp_path):
        line = _refused(argv, capsys)
        assert needle in line, (argv[:4], line)
    assert not (tmp_path / "s").exists()
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_play_stops_at_a_line_of_input_too_long_in_bounded_memory(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    with open("/dev/zero", "rb") as zero:
        status, _, err, _ = _measured(
            ["play", "--seed", "1", "--save", str(save)], tmp_path, stdin=zero
        )
    line = _one_line_refusal(status, err)
    assert "longer than 4096 bytes" in line and str(save) in line
    assert from_record(load_record(save.read_bytes())).hand_number == 1
    binary = tmp_path / "binary"
    rng = random.Random(1)
    binary.write_bytes(b"\n".join(rng.randbytes(rng.randrange(100)) for _ in range(200)))
    with binary.open("rb") as f:
        status, out, err, _ = _measured(["play", "--seed", "1"], tmp_path, stdin=f)
    # refused answer after refused answer: off a terminal the game stops after ten
    assert "10 answers in a row took no action" in _one_line_refusal(status, err)
    assert b"not a call" in out


def test_play_reads_only_ascii_numbers_as_answers(tmp_path: Path) -> None:
    """A superscript or another script's digit, or a number too long, typed as a call or a
    tile's number is refused like any other bad answer, and the game goes on."""
    from moonrules.cli.play import parse_choice

    state = m.new_game(seed=1)
    for text in ("²", FULLWIDTH, "bid ²", "9" * 4000, "٣"):
        assert isinstance(parse_choice(text, m.legal_actions(state), m.Phase.BIDDING), str)
    plays = (m.Play(m.tile("6-6")),)
    for text in ("²", FULLWIDTH, "1" * 30):
        assert isinstance(parse_choice(text, plays, m.Phase.PLAY), str)
    assert parse_choice("1", plays, m.Phase.PLAY) == plays[0]
    answers = tmp_path / "answers"
    answers.write_text("²\n" + FULLWIDTH + "\n" + "9" * 4000 + "\nquit\n")
    with answers.open("rb") as f:
        status, out, err, _ = _measured(["play", "--seed", "1"], tmp_path, stdin=f)
    assert status == 0 and not err and out.count(b"not a call") == 3


def test_every_command_with_its_output_closed_is_one_line_and_status_2() -> None:
    """Nothing is computed for no one: ``moonrules COMMAND >&-`` refuses at once (``play``
    with its input closed too, when a seat is to be played from it)."""
    commands = [
        "play --watch --seed 1 >&-",
        "play --seed 1 <&-",
        "match --games 1 --workers 1 >&-",
        f"advise '{HAND}' --samples 8 --min-samples 8 --workers 1 >&-",
        "verify --list >&-",
        "check examples/clean-game.json >&-",
    ]
    for command in commands:
        result = _shell(command)
        line = _one_line_refusal(result.returncode, result.stderr.decode())
        assert "standard output is closed" in line or "standard input is closed" in line


@pytest.fixture(scope="module")
def small_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished study of one deal, in CSV."""
    from moonrules.study.run import StudySettings, run_study

    d = tmp_path_factory.mktemp("study") / "one"
    run_study(d, StudySettings(m.PRESETS["standard"], seed=1, deals=1, chunk=1, format="csv"))
    return d


def _study_copy(small_study: Path, where: Path, name: str) -> Path:
    import shutil

    d = where / name
    shutil.copytree(small_study, d)
    return d


def test_study_report_refuses_files_that_are_not_its_own(
    small_study: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest or chunk that is binary, endless, too large, nested too deep, or holds numbers
    out of range: one line naming the file, never a traceback."""
    chunk = "chunk-000000.csv"
    good = (small_study / chunk).read_text()
    manifest = json.loads((small_study / "study.json").read_text())
    cases: list[tuple[str, str, bytes | str | None, str]] = [
        ("study.json", "zero", "/dev/zero", "larger than 1 MiB"),
        ("study.json", "binary", bytes(range(256)) * 10, "not a study manifest"),
        ("study.json", "deep", b"[" * 100_000 + b"]" * 100_000, "nested more than"),
        ("study.json", "nan", b'{"deals": NaN}', "NaN"),
        ("study.json", "list", b"[1]", "not a JSON object"),
        ("study.json", "deals", json.dumps({**manifest, "deals": 10**18}), "at most 1,000,000,000"),
        ("study.json", "rules", json.dumps({**manifest, "rules": [1]}), "rules"),
        (chunk, "zero", "/dev/zero", "not a regular file"),
        (chunk, "binary", bytes(range(256)) * 10, "not a chunk of rows"),
        (chunk, "empty", b"", "not a chunk of rows"),
        (chunk, "large", good + good.split("\n", 1)[1] * 2000, "larger than"),
        (chunk, "number", good.replace("\n1,", f"\n{BIG},", 1), "not 10 whole numbers"),
        (chunk, "super", good.replace("\n1,", "\n²,", 1).encode(), "not a chunk of rows"),
        (chunk, "short", good + "1,2\n", "not 10 whole numbers"),
        (chunk, "range", good[: good.rindex(",") + 1] + "99\n", "out of range"),
        (chunk, "rows", good + good.split("\n", 2)[1] + "\n", "rows"),
    ]
    for file, name, content, needle in cases:
        d = _study_copy(small_study, tmp_path, f"{file}-{name}")
        path = d / file
        path.unlink()
        if isinstance(content, str) and content.startswith("/dev/"):
            path.symlink_to(content)
        elif isinstance(content, str):
            path.write_text(content)
        else:
            assert content is not None
            path.write_bytes(content)
        line = _refused(["study", "report", str(d), "--out", str(d / "out")], capsys)
        assert needle in line and file in line, (file, name, line)
    d = _study_copy(small_study, tmp_path, "min-count")
    assert "--min-count must be at least 1" in _refused(
        ["study", "report", str(d), "--min-count", "0"], capsys
    )
    line = _refused(["study", "report", str(d), "--out", "/proc/report"], capsys)
    assert "/proc/report" in line


def test_study_report_reads_an_endless_manifest_in_bounded_memory(
    small_study: Path, tmp_path: Path
) -> None:
    d = _study_copy(small_study, tmp_path, "endless")
    (d / "study.json").unlink()
    (d / "study.json").symlink_to("/dev/zero")
    status, _, err, _ = _measured(["study", "report", str(d)], tmp_path)
    assert "larger than 1 MiB" in _one_line_refusal(status, err)


def _answering_with(reply: bytes) -> tuple[int, Any]:
    """A local TCP server answering every connection with ``reply``: its port and a stop."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(reply)
        server.close()

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1], stop.set


def test_a_study_on_a_scheduler_that_cannot_be_reached_or_is_none_is_one_line(
    tmp_path: Path,
) -> None:
    """Nothing listening, or a web server where the scheduler should be: one line, exit 2,
    no directory created, no progress line, in bounded memory and time."""
    pytest.importorskip("distributed")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    port, stop = _answering_with(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    try:
        for address, needle in (
            (f"tcp://127.0.0.1:{closed}", "cannot reach the Dask scheduler"),
            (f"tcp://127.0.0.1:{port}", "no Dask scheduler"),
        ):
            d = tmp_path / "s"
            args = ["study", "run", str(d), "--deals", "1", "--csv", "--timeout", "1"]
            status, _, err, _ = _measured([*args, "--scheduler", address], tmp_path)
            assert needle in _one_line_refusal(status, err)
            assert not d.exists()
    finally:
        stop()


# ===========================================================================
# Hostile input by category
#
# Each category is a generator of many inputs, each input run through every reader that can
# be handed it; CATEGORY_SIZES counts them (MOONRULES_DEEP=1: larger and more). The promise
# kept by every one: a refusal of the documented kind (one line from a command), never
# another exception, never a hang, in bounded memory, and no process left behind.

SCALE = 10 if DEEP else 1


def _validator(name: str) -> Any:
    from test_protocol import validator

    return validator(name)


# ---------------------------------------------------------------------------
# deep: nesting, at and around the limit and far past it


_DEPTHS = (1, 2, 63, 64, 65, 66, 100, 999, 1000, 5000, 100_000) + ((1_000_000,) if DEEP else ())


def _mixed(d: int) -> str:
    opening = "".join("[" if i % 2 else '{"k":' for i in range(d))
    return opening + "0" + "".join("]" if i % 2 else "}" for i in reversed(range(d)))


_NESTINGS: dict[str, tuple[Any, bool]] = {
    # name: (text of depth d, whether the depth is the nesting)
    "array": (lambda d: "[" * d + "]" * d, True),
    "object": (lambda d: '{"a":' * d + "1" + "}" * d, True),
    "mixed": (_mixed, True),
    "unclosed": (lambda d: "[" * d, True),
    "in-string": (lambda d: json.dumps(["[" * d]), False),
    "in-key": (lambda d: json.dumps({"{" * d: 1}), False),
    "escaped": (lambda d: '["' + '\\"[' * d + '"]', False),
    "open-string": (lambda d: '["' + "[" * d, False),
}


def _deep_consumers() -> dict[str, Any]:
    """Each reader of nested text: a function of the text that returns whether it refused
    the text for its depth (and raises nothing but the refusals it documents)."""
    from moonrules.conformance.conform import ConformError, _vector
    from moonrules.conformance.target import TargetGarbage, read_answer
    from moonrules.records.jsontext import JSONTextError, loads

    def by_loads(text: str) -> bool:
        try:
            loads(text)
        except JSONTextError as e:
            return "nested more than 64" in e.message
        return False

    def by_record(text: str) -> bool:
        try:
            load_record(text)
        except RecordError as e:
            return "nested more than 64" in str(e)
        return False

    def by_server(text: str) -> bool:
        answer = json.loads(handle_line(text))
        return answer["id"] is None and "nested more than 64" in answer.get("error", {}).get(
            "message", ""
        )

    def by_target(text: str) -> bool:
        try:
            read_answer(text)
        except TargetGarbage as e:
            # an answer is an object: a deep array is refused as none, before its depth
            return "nested" in e.reason or (
                "not an object" in e.reason and text.startswith("[") and _depth_of(text) > 64
            )
        return False

    def by_notation(text: str) -> bool:
        try:
            parse_notation(f"rules {text}\n" + _notation())
        except NotationError as e:
            return "nested more than 64" in e.message
        return False

    def by_vector_file(text: str) -> bool:
        try:
            _vector(text, "v.jsonl:2")
        except ConformError as e:
            assert str(e).startswith("v.jsonl:2: ") and len(str(e)) < 300
            return "nested more than 64" in str(e)
        raise AssertionError("not a vector, yet read")

    return {
        "loads": by_loads,
        "load_record": by_record,
        "serve": by_server,
        "target answer": by_target,
        "notation rules": by_notation,
        "vector file": by_vector_file,
    }


def _depth_of(text: str) -> int:
    """The nesting of brackets at the start of ``text`` (what the generators make)."""
    return len(text) - len(text.lstrip("["))


@pytest.mark.parametrize("depth", _DEPTHS)
@pytest.mark.parametrize("shape", sorted(_NESTINGS))
def test_deep_input_is_refused_past_64_by_every_reader(shape: str, depth: int) -> None:
    make, nests = _NESTINGS[shape]
    text = make(depth)
    too_deep = nests and depth > 64
    for name, refused in _deep_consumers().items():
        if name == "notation rules" and not text.startswith("{"):
            continue  # a rules line is an object
        assert refused(text) == too_deep, (name, shape, depth)


# ---------------------------------------------------------------------------
# binary: bytes of every kind where text is expected


def _binary(seed: int) -> bytes:
    """Seeded bytes: random, control characters in text, invalid UTF-8 in JSON, NUL-filled,
    and valid UTF-8 of every plane."""
    rng = random.Random(seed)
    n = rng.choice((0, 1, 2, 7, 64, 1000, 4096))
    kind = seed % 5
    if kind == 0:
        return rng.randbytes(n)
    if kind == 1:
        return bytes(
            rng.choice(b'\x00\x01\x07\x08\x0b\x0c\x1b\x7f\r\n\t{}[]",:-0123') for _ in range(n)
        )
    if kind == 2:
        text = json.dumps(_sample_record()).encode()
        i = rng.randrange(len(text))
        return text[:i] + rng.randbytes(rng.randrange(1, 8)) + text[i:]
    if kind == 3:
        return b"\x00" * n
    return "".join(
        chr(rng.choice((rng.randrange(32, 127), rng.randrange(0x80, 0x2FFFF)))) for _ in range(n)
    ).encode("utf-8", "surrogatepass")


_BINARIES = range(200 * SCALE)


@pytest.mark.parametrize("block", range(10))
def test_binary_input_is_refused_by_every_reader(
    block: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonrules.arbitration import check as arbitrate
    from moonrules.arbitration import read_record as read_any
    from moonrules.conformance.conform import ConformError, load_vectors
    from moonrules.conformance.serve import answer_line
    from moonrules.conformance.target import TargetGarbage, read_answer

    for seed in _BINARIES[block::10]:
        data = _binary(seed)
        with pytest.raises(RecordError):
            replay(load_record(data))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            with contextlib.suppress(RecordError):
                arbitrate(read_any(text))
            with contextlib.suppress(TargetGarbage):
                read_answer(text)
        for line in data.split(b"\n")[:20]:
            answer = json.loads(answer_line(line))
            assert answer["ok"] is False or "result" in answer
        vectors = tmp_path / f"v{seed}"
        vectors.mkdir()
        (vectors / "x.jsonl").write_bytes(data)
        with pytest.raises(ConformError) as e:
            load_vectors(vectors)
        assert str(e.value).startswith(str(vectors / "x.jsonl")) and len(str(e.value)) < 300
        if seed % 10 == block % 10:  # and a few through the command line
            monkeypatch.chdir(tmp_path)  # (a short name: the line says it)
            Path(f"r{seed}").write_bytes(data)
            refusal = _one_line_refusal(*_cli(["check", f"r{seed}"], capsys)[::2])
            assert "unreadable record" in refusal


# ---------------------------------------------------------------------------
# malformed: records of every form, mutated


def _sample_texts() -> list[str]:
    """Valid records in both forms: JSON compact and indented, the notation; of three- and
    four-player games, ending mid-hand and between hands."""
    texts = []
    for preset, seed, steps in (("standard", 4, 90), ("partnership", 5, 120), ("pagat", 6, 40)):
        state = m.new_game(preset, seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over:
                break
            state = m.apply(state, rng.choice(m.legal_actions(state)))
        record = to_record(state)
        texts += [json.dumps(record), json.dumps(record, indent=1), write_notation(record)]
    return texts


_PIECES = [
    '"',
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "-",
    "0",
    "9",
    "6-6",
    "9-9",
    "\n",
    "#",
    " ",
    "pass",
    "bids",
    "trick",
    "hand",
    "\u00b2",
    "\udcff",
    "NaN",
    "1e400",
    "\\",
    BIG,
]


def _mutated(seed: int, texts: list[str]) -> str:
    rng = random.Random(seed)
    text = rng.choice(texts)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randrange(1, 40))
        op = rng.randrange(7)
        if op == 0:  # delete a span
            text = text[:i] + text[j:]
        elif op == 1:  # insert a piece
            text = text[:i] + rng.choice(_PIECES) + text[i:]
        elif op == 2:  # duplicate a span
            text = text[:j] + text[i:j] + text[j:]
        elif op == 3:  # cut short
            text = text[:i]
        elif op == 4:  # swap two lines
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif op == 5:  # a number made huge or negative
            text = text[:i] + rng.choice(("-1", "99", BIG, "1.5")) + text[j:]
        else:  # a piece replaced
            text = text[:i] + rng.choice(_PIECES) + text[j:]
    return text


_MUTANTS = range(300 * SCALE)


@pytest.mark.parametrize("block", range(10))
def test_a_mutated_record_is_refused_or_ruled_on(
    block: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each mutation of a record in either form is an unreadable record (RecordError, one
    line from check, status 2), or is read and ruled on (a report, status 0 or 1), its JSON
    answer fitting its schema; nothing else."""
    from moonrules.arbitration import check as arbitrate
    from moonrules.arbitration import format_report
    from moonrules.arbitration import read_record as read_any

    schema = _validator("check")
    texts = _sample_texts()
    for seed in _MUTANTS[block::10]:
        text = _mutated(seed, texts)
        try:
            source = read_any(text)
        except RecordError as e:
            assert len(str(e)) < 400
            continue
        except UnicodeEncodeError:  # a lone surrogate: only bytes can carry it
            continue
        try:
            report = arbitrate(source)
        except RecordError as e:  # read as JSON, not the shape of a record
            assert len(str(e)) < 400
            continue
        format_report(report)
        schema.validate(report.to_json())
        if seed % 30 == block:
            path = tmp_path / f"mutant-{seed}"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            status, out, err = _cli(["check", str(path), "--json"], capsys)
            assert status in (0, 1) and not err
            schema.validate(json.loads(out))


# ---------------------------------------------------------------------------
# huge: large texts of many shapes, within the limit and past it


_AT_THE_LIMIT = ("open string", "escapes", "trick lines", "keys")
"""The shapes tried right at the limit in a quick run (MOONRULES_DEEP=1: every one)."""


_HUGE_SIZES: Final = {"64k": 64 << 10, "limit": MAX_RECORD_BYTES - 2, "past": MAX_RECORD_BYTES + 1}
_HUGE_SHAPES: dict[str, Callable[[int], bytes]] = {
    "spaces": lambda n: b" " * n,
    "digits": lambda n: b"[" + b"1," * (n // 2 - 1) + b"1]",
    "string": lambda n: b'{"rules":"' + b"x" * (n - 13) + b'"}',
    "keys": lambda n: b"{" + b",".join(b'"k%d":0' % i for i in range(n // 12)) + b"}",
    "objects": lambda n: b"[" + b"{}," * (n // 3 - 1) + b"{}]",
    "escapes": lambda n: b'["' + b'\\"' * (n // 2 - 2) + b'"]',
    "open string": lambda n: b"[" * 65 + b'"' + b'\\"' * ((n - 66) // 2),
    "comment": lambda n: b"# " + b"x" * (n - 3) + b"\n",
    "blank lines": lambda n: b"\n" * n,
    "hand lines": lambda n: b"".join(b"hand %d\n" % i for i in range(1, n // 12)),
    "trick lines": lambda n: (
        b"hand 1\nfirst 0\n" + b"".join(b"trick %d: 6-6\n" % i for i in range(1, n // 16))
    ),
}


def _huge_names() -> list[str]:
    """Every shape at every size (right at the limit, in a quick run, only some shapes)."""
    return [
        f"{shape} {size}"
        for shape in _HUGE_SHAPES
        for size in _HUGE_SIZES
        if DEEP or size != "limit" or shape in _AT_THE_LIMIT
    ]


def _huge_text(name: str) -> bytes:
    """The text of ``name``: its shape, made as long as its size (padded with spaces)."""
    shape, size = name.rsplit(" ", 1)
    n = _HUGE_SIZES[size]
    data = _HUGE_SHAPES[shape](n)[:n]
    return data + b" " * (n - len(data))


@pytest.mark.parametrize("name", _huge_names())
def test_huge_input_is_refused_or_read_in_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check reads at most the limit and says what it refuses in one line; serve answers a
    line of the same text (past its limit: bad-request) and goes on."""
    data = _huge_text(name)
    path = tmp_path / "huge"
    path.write_bytes(data)
    status, _, err = _cli(["check", str(path)], capsys)
    line = _one_line_refusal(status, err)
    if len(data) > MAX_RECORD_BYTES:
        assert "larger than 4 MiB" in line
    sink = io.BytesIO()
    assert (
        serve(io.BytesIO(data.replace(b"\n", b" ") + b"\n" + b'{"id":2,"op":"tiles"}\n'), sink) == 2
    )
    first, second = _answers(sink.getvalue())
    assert first["ok"] is False and second["id"] == 2 and second["ok"] is True


# ---------------------------------------------------------------------------
# limit options: every size option has a floor and a ceiling, refused in one line


_SIZES = [
    "0",
    "-1",
    "1",
    "1k",
    "1K",
    "4M",
    "64M",
    "64m",
    "65M",
    "67108864",
    "67108865",
    "1G",
    "999999999999G",
    "1e9",
    "0x10",
    " 16M ",
    "16 M",
    "16MB",
    "",
    "½",
    "\uff11",
    "nan",
    "9" * 30,
    "x" * 100_000,
]
_SIZE_OPTIONS = [
    ["check", "RECORD", "--max-bytes"],
    ["claim", "RECORD", "--max-bytes"],
    ["solve", "RECORD", "--max-bytes"],
    ["serve", "--max-line-bytes"],
]


@pytest.mark.parametrize("value", _SIZES)
@pytest.mark.parametrize("option", _SIZE_OPTIONS, ids=lambda o: f"{o[0]} {o[-1]}")
def test_a_size_option_is_bounded_both_ways(
    option: list[str], value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from moonrules.cli.main import build_parser
    from moonrules.records.jsontext import MAX_RAISED_BYTES

    argv = [str(ROOT / "examples" / "clean-game.json") if a == "RECORD" else a for a in option]
    try:
        args = build_parser().parse_args([*argv, value])
    except SystemExit as e:
        line = _one_line_refusal(int(e.code or 0), capsys.readouterr().err)
        assert option[-1] in line and ("at most 64 MiB" in line or "positive number" in line)
        return
    size = args.max_bytes if option[0] != "serve" else args.max_line_bytes
    assert 1 <= size <= MAX_RAISED_BYTES


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (0, ValueError),
        (-1, ValueError),
        (2**70, ValueError),
        (1.5, TypeError),
        ("4M", TypeError),
        (True, TypeError),
        (None, TypeError),
        ((64 << 20) + 1, ValueError),
    ],
)
def test_the_library_bounds_its_reading_limits(value: Any, error: type[Exception]) -> None:
    from moonrules.records.jsontext import read_bounded, read_line

    with pytest.raises(error, match=r"^max_line_bytes: "):
        serve(io.BytesIO(b""), io.BytesIO(), max_line_bytes=value)
    if value != (64 << 20) + 1:  # (read_bounded takes more: a study's chunk may be larger)
        for read in (read_bounded, read_line):
            with pytest.raises(error, match=r"^max_bytes: "):
                read(io.BytesIO(b"x"), value)


def test_the_raised_limit_still_bounds_an_endless_file(tmp_path: Path) -> None:
    status, _, err, _ = _measured(["check", "/dev/zero", "--max-bytes", "64M"], tmp_path)
    line = _one_line_refusal(status, err)
    assert "larger than 64 MiB" in line and "no more is read" in line


# ---------------------------------------------------------------------------
# vector files: checked like records, each fault named with its file and line


def _vector_files() -> dict[str, bytes]:
    import hashlib

    good = json.loads((ROOT / "spec" / "vectors" / "tiles.jsonl").read_text().splitlines()[1])

    def file_of(*lines: str, header: str | None = None) -> bytes:
        body = "".join(line + "\n" for line in lines)
        digest = hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()
        head = (
            header
            if header is not None
            else json.dumps(
                {
                    "provenance": {
                        "generator": "t",
                        "moonrules": "0",
                        "protocol": 1,
                        "count": 1,
                        "sha256": digest,
                    }
                }
            )
        )
        return (head + "\n" + body).encode("utf-8", "surrogatepass")

    files: dict[str, bytes] = {}
    for key in ("name", "request", "expected", "clauses"):
        files[f"no {key}"] = file_of(json.dumps({k: v for k, v in good.items() if k != key}))
        wrongs: tuple[Any, ...] = (None, 1, "x", [], {})
        for wrong in wrongs:
            if key == "request" or (key, wrong) in (("name", "x"), ("clauses", [])):
                continue
            files[f"{key} {json.dumps(wrong)}"] = file_of(json.dumps({**good, key: wrong}))
    for key in ("id", "ok", "result"):
        expected = {k: v for k, v in good["expected"].items() if k != key}
        files[f"expected without {key}"] = file_of(json.dumps({**good, "expected": expected}))
    refused: dict[str, Any] = {
        "id": 1,
        "ok": False,
        "error": {"code": "bad-json", "message": "m", "rule": None},
    }
    for key in ("code", "message", "rule"):
        error = {k: v for k, v in refused["error"].items() if k != key}
        files[f"error without {key}"] = file_of(
            json.dumps({**good, "expected": {**refused, "error": error}})
        )
    files["error rule 5"] = file_of(
        json.dumps({**good, "expected": {**refused, "error": {**refused["error"], "rule": 5}}})
    )
    files["ok 1"] = file_of(json.dumps({**good, "expected": {**good["expected"], "ok": 1}}))
    files["raw false"] = file_of(json.dumps({**good, "raw": False}))
    files["raw object"] = file_of(json.dumps({**good, "raw": True}))
    files["extra member"] = file_of(json.dumps({**good, "comment": "x"}))
    files["clause bid3"] = file_of(json.dumps({**good, "clauses": ["bid3"]}))
    files["not an object"] = file_of("[1, 2]")
    files["not JSON"] = file_of('{"name": ')
    files["NaN"] = file_of(json.dumps(good)[:-1] + ', "x": NaN}')
    files["twice"] = file_of(json.dumps(good)[:-1] + ', "name": "again"}')
    files["blank line"] = file_of(json.dumps(good), "")
    files["deep"] = file_of(
        json.dumps({**good, "request": [[[[[]]]]]}).replace("[[[[[]]]]]", "[" * 100 + "]" * 100)
    )
    files["very deep"] = file_of("[" * 100_000 + "]" * 100_000)
    files["number"] = file_of(
        json.dumps({**good, "request": {"id": 1}}).replace('"id": 1', '"id": ' + BIG)
    )
    files["not UTF-8"] = file_of(json.dumps(good)) + b"\xff\xfe\n"
    files["not UTF-8 header"] = b"\xff" + file_of(json.dumps(good))
    files["no header"] = file_of(json.dumps(good), header="")
    files["header list"] = file_of(json.dumps(good), header="[1]")
    files["header deep"] = file_of(json.dumps(good), header="[" * 1000 + "]" * 1000)
    files["header no hash"] = file_of(json.dumps(good), header='{"provenance": {}}')
    files["edited"] = file_of(json.dumps(good)).replace(b"6-6", b"5-5", 1)
    files["binary"] = bytes(range(256)) * 8
    files["empty"] = b""
    return files


@pytest.mark.parametrize("name", sorted(_vector_files()))
def test_a_bad_vector_file_is_one_line_naming_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from moonrules.conformance.conform import ConformError, load_vectors

    directory = tmp_path / "vectors"
    directory.mkdir()
    path = directory / "bad.jsonl"
    path.write_bytes(_vector_files()[name])
    with pytest.raises(ConformError) as e:
        load_vectors(directory)
    message = str(e.value)
    assert message.startswith(str(path)) and "\n" not in message and len(message) < 400
    if name in ("not UTF-8", "deep", "no expected", "expected without ok", "binary"):
        started = tmp_path / "started"
        target = f"{sys.executable} -c 'open({str(started)!r}, \"w\")'"
        status = main(["conform", "--target", target, "--vectors", str(directory), "--quiet"])
        line = _one_line_refusal(status, capsys.readouterr().err)
        assert str(path) in line and not started.exists()  # refused before the target starts


@pytest.mark.parametrize("kind", ["directory", "fifo", "zero", "dangling"])
def test_a_vector_file_that_is_no_file_is_one_line(kind: str, tmp_path: Path) -> None:
    from moonrules.conformance.conform import ConformError, load_vectors

    directory = tmp_path / "vectors"
    directory.mkdir()
    path = directory / "x.jsonl"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.symlink_to(tmp_path / "nowhere")
    with pytest.raises((ConformError, OSError)) as e:
        load_vectors(directory)
    assert str(path) in str(e.value) or getattr(e.value, "filename", None) == str(path)


# ---------------------------------------------------------------------------
# endless: input that never ends, from files, pipes and targets


_ENDLESS = [
    (["check", "/dev/zero"], None, "larger than 4 MiB"),
    (["check", "/dev/urandom"], None, "larger than 4 MiB"),
    (["check", "-"], "/dev/urandom", "larger than 4 MiB"),
    (["check", "/dev/zero", "--json", "--max-bytes", "16M"], None, "larger than 16 MiB"),
    (["check", "/dev/zero", "--html", "{tmp}/page.html"], None, "larger than 4 MiB"),
    (["claim", "/dev/zero"], None, "larger than 4 MiB"),
    (["solve", "-"], "/dev/zero", "larger than 4 MiB"),
    (
        ["conform", "--target", "x", "--vectors", "{tmp}/zero", "--quiet"],
        None,
        "not a regular file",
    ),
]
_ENDLESS_TARGETS = {
    "output without a line end": "cat /dev/zero",
    "lines without end": "yes",
    "error output without end": "cat /dev/zero >&2 & while read l; do echo garbage; done",
    "both": "cat /dev/zero >&2 & cat /dev/zero",
}


@pytest.mark.parametrize(("args", "stdin", "needle"), _ENDLESS, ids=lambda v: str(v)[:40])
def test_endless_input_is_refused_in_bounded_memory(
    args: list[str], stdin: str | None, needle: str, tmp_path: Path
) -> None:
    zero_dir = tmp_path / "zero"
    zero_dir.mkdir()
    (zero_dir / "z.jsonl").symlink_to("/dev/zero")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if stdin is None:
        status, _, err, _ = _measured(args, tmp_path)
    else:
        with open(stdin, "rb") as f:
            status, _, err, _ = _measured(args, tmp_path, stdin=f)
    assert needle in _one_line_refusal(status, err)


@pytest.mark.parametrize("name", sorted(_ENDLESS_TARGETS))
def test_a_target_writing_without_end_is_given_up_on_in_bounded_memory(
    name: str, tmp_path: Path
) -> None:
    command = f"sh -c {_ENDLESS_TARGETS[name]!r}"
    args = ["conform", "--target", command, "--ops", "led_suit", "--rules", "standard"]
    status, out, err, _ = _measured([*args, "--timeout", "2", "--quiet"], tmp_path)
    assert status == 1 and "Traceback" not in err, err
    assert out.decode().count("given up on") == 1


def test_serve_answers_endless_random_lines_in_bounded_memory(tmp_path: Path) -> None:
    with open("/dev/urandom", "rb") as noise:
        status, out, err, _ = _measured(["serve"], tmp_path, stdin=noise, first_line=True)
    assert status == 143 and "Traceback" not in err
    assert json.loads(out.splitlines()[0])["ok"] is False


# ---------------------------------------------------------------------------
# hostile targets: conform and fuzz finish, give up at most once, leave no process


_TARGETS: dict[str, str] = {
    "exits": "exit 3",
    "exits after one": 'read l; echo "$l"; exit 0',
    "garbage": "while read l; do echo garbage; done",
    "two lines": 'while read l; do echo "$l"; echo "$l"; done',
    "no line end": "read l; printf '{\"id\":1'; sleep 300",
    "hangs": "while read l; do sleep 300; done",
    "deaf": "sleep 300",
    "endless output": "cat /dev/zero",
    "endless answers": 'yes \'{"id":1,"ok":true,"result":null}\'',
    "stderr flood": "cat /dev/zero >&2 & while read l; do echo garbage; done",
    "closes output": "exec 1>&-; sleep 300",
    "NaN": "while read l; do echo '{\"id\": NaN}'; done",
    "wrong ids": 'while read l; do echo \'{"id":"other","ok":true,"result":null}\'; done',
    "kills itself": "read l; kill -9 $$",
    "setsid child": "setsid sleep 300 & echo $! >> {pids}; while read l; do echo garbage; done",
    "many children": "for i in 1 2 3 4 5 6 7 8 9 10; do sleep 300 & echo $! >> {pids}; done; "
    "while read l; do echo '{}'; done",
    "daemon": "(setsid sh -c 'echo $$ >> {pids}; exec sleep 300' &); exit 1",
    "deep answer": "while read l; do printf '%0200d\\n' 0 | sed 's/0/[/g'; done",
}


def _hostile_vectors() -> list[Any]:
    from moonrules.conformance.conform import load_vectors

    vectors = load_vectors()
    ops = ("tiles", "led_suit", "legal_bids", "score_hand")
    chosen = [next(v for v in vectors if v.op == op) for op in ops]
    raw = [v for v in vectors if v.raw][:2]
    return (chosen * (3 * SCALE) + raw)[: 12 * SCALE]


def _targets_and_runners() -> list[Any]:
    """Each hostile target under both runners: in the README's test command each under one of
    them, in turn (conform, fuzz, conform, …), the other in CI's step of slow checks."""
    return [
        pytest.param(name, runner, marks=() if (k + r) % 2 == 0 else pytest.mark.slow)
        for k, name in enumerate(sorted(_TARGETS))
        for r, runner in enumerate(("conform", "fuzz"))
    ]


@pytest.mark.parametrize(("name", "runner"), _targets_and_runners())
def test_a_hostile_target_is_given_up_on_once_and_leaves_nothing(
    name: str, runner: str, tmp_path: Path
) -> None:
    from moonrules.conformance import conform as c
    from moonrules.conformance.fuzz import fuzz

    pids = tmp_path / "pids"
    argv = ["sh", "-c", _TARGETS[name].replace("{pids}", str(pids))]
    if runner == "conform":
        vectors = _hostile_vectors()
        outcomes = c.run(argv, vectors, timeout=0.5, startup_timeout=0.5)
        assert len(outcomes) == len(vectors)
        assert {o.status for o in outcomes} <= {"passed", "failed", "not-sent", "unsupported"}
        lines = c.report(outcomes)
        assert sum("given up on" in line for line in lines) <= 1
        said = "\n".join(lines)
    else:
        import shlex

        report = fuzz(
            shlex.join(argv),
            ops=["led_suit", "legal_bids"],
            examples=6 * SCALE,
            seed=1,
            timeout=0.5,
            startup_timeout=0.5,
            shrink_seconds=0.5,
        )
        said = report.to_text()
        assert said.count("given up on:") <= 1 and report.total <= 12 * SCALE
    assert "Traceback" not in said
    if pids.exists():
        noted = [int(p) for p in pids.read_text().split()]
        for _ in range(200):
            if not any(_alive(p) for p in noted):
                break
            time.sleep(0.05)
        assert not any(_alive(p) for p in noted), f"{name}: a process was left running"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


# ---------------------------------------------------------------------------
# work: what a reader does grows linearly with its input, on every hostile shape


def _cpu_per_call(f: Any, arg: Any) -> float:
    """The CPU time of this thread for one ``f(arg)``: the best of three runs of enough
    calls to take 20 ms (CPU time, not the clock: another process's load does not count)."""
    best = float("inf")
    calls = 1
    for _ in range(3):
        while True:
            started = time.thread_time()
            for _ in range(calls):
                f(arg)
            spent = time.thread_time() - started
            if spent >= 0.02:
                break
            calls *= 2
        best = min(best, spent / calls)
    return best


def _quietly(f: Any) -> Any:
    def call(text: str) -> None:
        with contextlib.suppress(Exception):  # only the work counts here
            f(text)

    return call


_SCANNED: dict[str, Any] = {
    # the text of size n of each shape that once cost, or could cost, more than linear work
    "open string of escaped quotes": lambda n: "[" * 65 + '"' + '\\"' * (n // 2),
    "open string of backslashes": lambda n: "[" * 65 + '"' + "\\" * n,
    "lone backslash at the end": lambda n: "[" * 65 + '"' + "\\\\" * (n // 2) + "\\",
    "many strings": lambda n: "[" * 65 + '"a",' * (n // 4),
    "escaped quotes in strings": lambda n: "[" * 65 + '"\\"",' * (n // 5),
    "unicode escapes": lambda n: "[" * 65 + '"' + "\\u" * (n // 2),
    "open brackets": lambda n: "[" * n,
    "open objects": lambda n: '{"a":' * (n // 5),
    "digits": lambda n: "[" * 65 + "1" * n,
    "brackets in a string": lambda n: '["' + "[" * n + '"]',
}


def _readers() -> dict[str, Any]:
    from moonrules.conformance.serve import answer_line
    from moonrules.conformance.target import read_answer
    from moonrules.records.jsontext import loads

    return {
        "loads": _quietly(loads),
        "load_record": _quietly(load_record),
        "serve": lambda text: answer_line(text.encode()),
        "target answer": _quietly(read_answer),
        "notation": _quietly(parse_notation),
    }


_READERS = ("loads", "load_record", "serve", "target answer", "notation")


def _shapes_and_readers() -> list[Any]:
    """Every shape through every reader: in the README's test command each shape through two
    of the five readers, in turn, the others in CI's step of slow checks."""
    return [
        pytest.param(shape, reader, marks=() if (s - r) % 5 in (0, 1) else pytest.mark.slow)
        for s, shape in enumerate(sorted(_SCANNED))
        for r, reader in enumerate(_READERS)
    ]


@pytest.mark.parametrize(("shape", "reader"), _shapes_and_readers())
def test_reading_is_linear_on_every_hostile_shape(shape: str, reader: str) -> None:
    """The work per character of a text eight times longer is about the same (a quadratic
    scan would make it eight times more): measured in CPU time, both sizes in the same run,
    each the best of three."""
    make, read = _SCANNED[shape], _readers()[reader]
    small, large = make(2000), make(16000)
    ratio = (_cpu_per_call(read, large) / len(large)) / (_cpu_per_call(read, small) / len(small))
    assert ratio < 3, f"{shape} through {reader}: {ratio:.1f} times the work per character"


def _line_events(f: Any, arg: Any) -> int:
    """How many lines of Python ``f(arg)`` runs: a count of work that no clock affects."""
    count = 0

    def trace(frame: Any, event: str, _: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        f(arg)
    except RecordError:
        pass
    finally:
        sys.settrace(None)
    return count


_DEALT = "hand 1\nfirst 0\ndeal 0: 6-6\ndeal 1: 5-5\ndeal 2: 4-4\n"

_NOTATED: dict[str, Any] = {
    # the notation of about n lines of each shape; each is read to its end
    "tricks in one hand": lambda n: (
        _DEALT
        + "0 bids 5\n1 passes\n2 passes\ndiscard 1-1\ntrump 6\n"
        + "".join(f"trick {i}: 6-6 5-5 4-4\n" for i in range(1, n))
    ),
    "calls in one hand": lambda n: _DEALT + "0 passes\n" * n,
    "hands": lambda n: "".join(
        f"hand {i}\nfirst 0\ndeal 0: 6-6\ndeal 1: 5-5\ndeal 2: 4-4\nscore 0 0 0\n"
        for i in range(1, n // 6)
    ),
    "tiles on a deal line": lambda n: "hand 1\nfirst 0\ndeal 0: " + "6-6 " * n + "\n",
    "tiles on trick lines": lambda n: (
        _DEALT + "".join(f"trick {i}: 6-6, 5-5 4-4\n" for i in range(1, n))
    ),
    "comments": lambda n: "# x\n" * n + "hand 1\n",
    "blank lines": lambda n: "\n\r\n" * n + "hand 1\n",
    "lines ended every way": lambda n: "# x\r" * n + "# y\x0b" * n + "# z\u2028" * n,
}


@pytest.mark.parametrize("shape", sorted(_NOTATED))
def test_the_notation_reader_is_linear(shape: str) -> None:
    """Counted in lines of Python run (no clock): eight times the input, at most about eight
    times the work."""
    make = _NOTATED[shape]
    small, large = make(400), make(3200)
    try:  # read to its end, not refused early
        parse_notation(small)
    except NotationError as e:
        assert e.line >= len(small.splitlines()), e
    work_small, work_large = (
        _line_events(parse_notation, small),
        _line_events(parse_notation, large),
    )
    assert work_small > 400
    ratio = work_large / work_small
    assert ratio < 8 * 1.2, f"{shape}: {ratio:.1f} times the work for eight times the lines"


def test_replaying_is_linear_in_the_hands() -> None:
    """A record of eight times the hands takes about eight times the work, not sixty-four."""

    def record(hands: int) -> dict[str, Any]:
        state = m.new_game(seed=2)
        while state.hand_number <= hands:
            state = m.apply(state, m.Pass())
        out = to_record(state)
        out["hands"] = out["hands"][:hands]
        return out

    small, large = record(100), record(800)
    ratio = (_cpu_per_call(replay, large) / 800) / (_cpu_per_call(replay, small) / 100)
    assert ratio < 2.5, f"{ratio:.1f} times the work per hand"


# ---------------------------------------------------------------------------
# memory: the largest valid records, in both forms (MOONRULES_DEEP=1)


@pytest.mark.skipif(
    not DEEP, reason="MOONRULES_DEEP=1 for the largest records in both forms (2 min)"
)
@pytest.mark.parametrize("shape", ["played", "thrown", "partnership"])
@pytest.mark.parametrize("form", ["json", "notation"])
def test_the_largest_records_of_every_shape_stay_in_memory_bounds(
    shape: str, form: str, tmp_path: Path
) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from records import largest  # type: ignore[import-not-found]  # bench/records.py

    text, _ = largest(shape, form)
    assert MAX_RECORD_BYTES - (64 << 10) < len(text.encode()) <= MAX_RECORD_BYTES
    path = tmp_path / ("big.json" if form == "json" else "big.moon")
    path.write_text(text, encoding="utf-8")
    for extra in ([], ["--json"], ["--html", os.devnull]):
        status, _, err, _ = _measured(["check", str(path), *extra], tmp_path)  # peak checked
        assert status == 0, err
    if form == "json":  # and the same record replayed by the server, in one request line
        request = tmp_path / "replay.jsonl"
        with request.open("w", encoding="utf-8") as f:
            f.write('{"id":1,"op":"replay","record":' + text + "}\n")
        with request.open("rb") as f:  # (the line is the record and a few bytes more)
            status, out, err, _ = _measured(["serve", "--max-line-bytes", "5M"], tmp_path, stdin=f)
        assert status == 0 and json.loads(out)["result"]["valid"] is True, err


# ---------------------------------------------------------------------------
# The count of every category


def category_sizes() -> dict[str, tuple[int, int]]:
    """Each category: how many hostile inputs it tries in this run (MOONRULES_DEEP=1: more),
    and how many times one is handed to a reader (a function or a command)."""
    deep_runs = sum(
        len(_deep_consumers()) - (not _NESTINGS[shape][0](min(d, 100)).startswith("{"))
        for shape in _NESTINGS
        for d in _DEPTHS
    )
    hostile_records = len(_json_hostiles()) + len(_notation_hostiles())
    return {
        "deep": (len(_NESTINGS) * len(_DEPTHS), deep_runs),
        "binary": (len(_BINARIES), len(_BINARIES) * 5 + len(_BINARIES) // 10),
        "malformed": (len(_MUTANTS) + hostile_records, len(_MUTANTS) * 2 + hostile_records * 5),
        "huge": (len(_huge_names()), len(_huge_names()) * 2),
        "limit options": (len(_SIZES) * len(_SIZE_OPTIONS) + 8 + 1, len(_SIZES) * 4 + 8 * 3 + 1),
        "vector files": (len(_vector_files()) + 4, len(_vector_files()) + 5 + 4),
        "endless": (len(_ENDLESS) + len(_ENDLESS_TARGETS) + 6, len(_ENDLESS) + 10),
        "hostile targets": (len(_TARGETS), len(_TARGETS) * 2),
        "linear work": (len(_SCANNED) + len(_NOTATED) + 1, len(_SCANNED) * 5 * 2 + 17),
    }


def test_every_category_tries_many_inputs() -> None:
    sizes = category_sizes()
    assert all(n >= 18 and runs >= n for n, runs in sizes.values()), sizes
