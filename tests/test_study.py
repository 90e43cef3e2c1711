"""``moonrules study``: seeded rows, chunks, resuming, a real Dask cluster, the report.

The cluster test starts a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1 (ports chosen by the system), runs a tiny study on them, compares it
with the local pool's row for row and byte for byte, and always stops them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import moonrules as m
from moonrules.analysis.advise import bidder_state
from moonrules.analysis.solver import solve
from moonrules.cli.main import main
from moonrules.study.report import build_tables, write_report
from moonrules.study.rows import COLUMNS, chunk_rows, deal_masks, top_trumps
from moonrules.study.run import (
    Progress,
    StudyError,
    StudySettings,
    chunk_path,
    read_chunk,
    read_rows,
    run_study,
)

ROOT = Path(__file__).resolve().parent.parent
SMALL = m.RuleSet(trump_numbers=(5, 6), doubles_trump=False, no_trump=False)
"""Two trumps instead of nine: six solves a deal keep these tests quick."""
pytest.importorskip("pyarrow")


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.name.startswith("chunk-")}


def test_rows_are_the_double_dummy_tricks_of_each_seat_and_trump() -> None:
    rules = m.STANDARD
    cols = chunk_rows(rules, 11, 3, 1)
    assert set(cols["deal"]) == {3}
    deal = deal_masks(rules, 11, 3)
    d = m.seeded_deal(rules, 11, 3)
    assert deal[:3] == tuple(sum(1 << t.index for t in h) for h in d.hands)
    j = 0
    for seat in range(3):
        for trump in rules.trumps:
            row = {c: cols[c][j] for c in COLUMNS}
            assert (row["seat"], row["trump"]) == (seat, trump.value)
            hand = d.hands[seat]
            assert row["trumps"] == sum(m.is_trump(t, trump) for t in hand)
            assert row["doubles"] == sum(t.is_double for t in hand)
            assert row["widow"] == d.widow.index  # type: ignore[union-attr]
            state = bidder_state(rules, deal, seat, trump.value)
            after = state.hands[seat]
            assert row["trumps_after"] == sum(m.is_trump(t, trump) for t in after)
            assert row["tricks"] == solve(state)
            j += 1
    assert j == len(cols["deal"])


def test_top_trumps_counts_the_unbroken_run_from_the_top() -> None:
    rules = m.STANDARD
    six = m.Trump.SIX.value
    mask = sum(1 << t.index for t in m.tiles("6-6 6-5 6-3"))
    assert top_trumps(mask, six, rules) == 2
    assert top_trumps(sum(1 << t.index for t in m.tiles("6-5 6-4")), six, rules) == 0
    doubles = sum(1 << t.index for t in m.tiles("6-6 5-5 3-3"))
    assert top_trumps(doubles, m.Trump.DOUBLES.value, rules) == 2
    assert top_trumps(doubles, m.Trump.NONE.value, rules) == 0


def test_deal_k_does_not_depend_on_the_chunking() -> None:
    rules = m.rules_by_name("no-double-blank")
    whole = chunk_rows(rules, 5, 1, 3)
    parts = [chunk_rows(rules, 5, k, 1) for k in (1, 2, 3)]
    for c in COLUMNS:
        assert whole[c] == parts[0][c] + parts[1][c] + parts[2][c]


def test_pool_and_single_process_write_the_same_bytes_and_resume(tmp_path: Path) -> None:
    s = StudySettings(SMALL, seed=3, deals=5, chunk=2)
    one, two = tmp_path / "one", tmp_path / "two"
    seen: list[Progress] = []
    final = run_study(one, s, progress=seen.append)
    assert final.done == final.new == 5 and [p.done for p in seen] == [0, 2, 4, 5]
    run_study(two, s, workers=2)
    assert _files(one) == _files(two) and len(_files(one)) == 3
    # an interrupted study keeps its finished chunks and computes only the rest
    chunk_path(two, s, 1).unlink()
    before = chunk_path(two, s, 0).stat().st_mtime_ns
    again = run_study(two, s)
    assert (again.new, again.done) == (2, 5)
    assert chunk_path(two, s, 0).stat().st_mtime_ns == before
    assert _files(one) == _files(two)
    # stopping in the middle: the chunk finished before the stop stays
    three = tmp_path / "three"

    def stop_after_first(p: Progress) -> None:
        if p.new:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(three, s, progress=stop_after_first)
    assert list(_files(three)) == ["chunk-000000.parquet"]
    assert not list(three.glob("*.tmp"))
    run_study(three, s)
    assert _files(three) == _files(one)
    settings, cols = read_rows(one)
    assert settings == s and len(cols["deal"]) == 5 * 3 * 2
    assert cols == chunk_rows(SMALL, 3, 1, 5)
    # a study can grow: the short last chunk is computed again with its new deal
    grown = run_study(one, StudySettings(SMALL, seed=3, deals=6, chunk=2))
    assert (grown.new, grown.done) == (2, 6)
    assert read_rows(one)[1] == chunk_rows(SMALL, 3, 1, 6)


def test_csv_rows_equal_parquet_rows(tmp_path: Path) -> None:
    s = StudySettings(SMALL, seed=1, deals=2, chunk=2)
    run_study(tmp_path / "p", s)
    run_study(tmp_path / "c", StudySettings(SMALL, seed=1, deals=2, chunk=2, format="csv"))
    p = read_chunk(tmp_path / "p" / "chunk-000000.parquet")
    c = read_chunk(tmp_path / "c" / "chunk-000000.csv")
    assert p == c and list(c) == list(COLUMNS)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--deals", "0"], "at least 1 deal"),
        (["--chunk", "0"], "at least 1 deal"),
        (["--workers", "0"], "workers must be at least 1"),
        (["--rules", "bridge"], "no rule set"),
        (["--scheduler", "127.0.0.1:8786"], "tcp://HOST:PORT"),
        (["--seed", "4"], "seed 3"),
        (["--chunk", "3"], "chunk 2"),
        (["--csv"], "format 'parquet'"),
        (["--rules", "pagat"], "other rules"),
        (["--deals", "1"], "not cut to 1"),
    ],
)
def test_bad_settings_are_one_line_and_exit_2(
    tmp_path: Path, argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "s"
    d.mkdir()
    manifest = StudySettings(m.STANDARD, seed=3, deals=2, chunk=2).to_json()
    (d / "study.json").write_text(json.dumps(manifest))
    base = ["study", "run", str(d), "--seed", "3", "--deals", "2", "--chunk", "2", "--quiet"]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("moonrules study run: error: ") and err.count("\n") == 1 and needle in err
    ), err
    assert not list(d.glob("chunk-*")), "nothing was computed"


def test_another_version_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = StudySettings(m.STANDARD, deals=2, chunk=2).to_json()
    manifest["moonrules"] = "0.0.1"
    (tmp_path / "study.json").write_text(json.dumps(manifest))
    assert main(["study", "run", str(tmp_path), "--deals", "2", "--chunk", "2"]) == 2
    assert "written with moonrules '0.0.1'" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    port = _free_port()
    argv = ["study", "run", str(tmp_path / "s"), "--deals", "1", "--quiet", "--timeout", "1"]
    assert main([*argv, "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "moonrules study run: error: cannot reach the Dask scheduler at tcp://127.0.0.1:"
    )
    assert err.count("\n") == 1


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    """A ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1; always stopped."""
    pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler_file = tmp_path / "scheduler.json"
    procs: list[subprocess.Popen[bytes]] = []
    common = {"env": env, "cwd": tmp_path, "start_new_session": True}
    try:
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "dask",
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--no-dashboard",
                    "--scheduler-file",
                    str(scheduler_file),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                **common,  # type: ignore[call-overload]
            )
        )
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert procs[0].poll() is None, "the scheduler stopped"
            time.sleep(0.1)
        time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "dask",
                        "worker",
                        address,
                        "--host",
                        "127.0.0.1",
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--no-dashboard",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    **common,  # type: ignore[call-overload]
                )
            )
        import distributed

        with distributed.Client(address, timeout="30s") as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=60)
            assert len(client.scheduler_info()["workers"]) == 2
        yield address
    finally:
        # the workers first, so that none waits for a scheduler that has gone
        for p in [*procs[1:], *procs[:1]]:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.mark.slow
def test_a_dask_cluster_writes_what_the_local_pool_writes(
    tmp_path: Path, dask_cluster: str
) -> None:
    s = StudySettings(SMALL, seed=8, deals=6, chunk=1)
    on_dask = run_study(tmp_path / "dask", s, scheduler=dask_cluster)
    assert on_dask.new == 6
    run_study(tmp_path / "pool", s, workers=2)
    _, dask_cols = read_rows(tmp_path / "dask")
    _, pool_cols = read_rows(tmp_path / "pool")
    rows_dask = list(zip(*(dask_cols[c] for c in COLUMNS), strict=True))
    rows_pool = list(zip(*(pool_cols[c] for c in COLUMNS), strict=True))
    assert len(rows_pool) == 6 * 3 * 2
    for a, b in zip(rows_dask, rows_pool, strict=True):
        assert a == b
    assert _files(tmp_path / "dask") == _files(tmp_path / "pool")


def _synthetic() -> dict[str, list[int]]:
    """Rows with known shares: with sixes trump, 3 trumps make 5 in 3 of 4 rows."""
    rows = []
    for j, tricks in enumerate((5, 6, 2, 5)):
        rows.append((j + 1, 0, 6, 3, 1, 1, 3, 20, 0, tricks))
    for j, tricks in enumerate((7, 3)):
        rows.append((j + 1, 1, 7, 0, 4, 0, 0, 20, 0, tricks))
    return {c: [r[i] for r in rows] for i, c in enumerate(COLUMNS)}


def test_report_tables_count_what_they_say() -> None:
    tables, _ = build_tables(m.STANDARD, _synthetic(), min_count=1)
    by_name = {t.name: t for t in tables}
    numbers = by_name["numbers-by-trumps"]
    three = numbers.cells[3]
    assert numbers.columns[:2] == ("hands", "mean tricks")
    assert three[0] == "4" and three[1] == "4.50"
    assert dict(zip(numbers.columns, three, strict=True))["P(make 5)"] == "75%"
    assert dict(zip(numbers.columns, three, strict=True))["P(make 7)"] == "0%"
    assert numbers.cells[2][0] == "0" and numbers.cells[2][1] == "-"
    grid = by_name["numbers-bid5-by-trumps-and-doubles"]
    assert grid.cells[3][1] == "75%" and grid.cells[3][2] == "-"
    doubles = by_name["doubles-by-doubles"]
    assert dict(zip(doubles.columns, doubles.cells[4], strict=True))["P(make 7)"] == "50%"
    assert "| 3 | 4 | 4.50 | 75% |" in numbers.markdown()


def test_report_writes_tables_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    s = StudySettings(SMALL, seed=2, deals=2, chunk=2, format="csv")
    run_study(tmp_path / "s", s)
    assert main(["study", "report", str(tmp_path / "s"), "--out", str(tmp_path / "r")]) == 0
    out = tmp_path / "r"
    assert (out / "p-make.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "p-make-5-grid.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "From 2 deals of the custom rules" in (out / "tables.md").read_text()
    assert json.loads((out / "summary.json").read_text())["rows"] == 2 * 3 * 2
    assert str(out / "tables.md") in capsys.readouterr().out
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    write_report(tmp_path / "s", out)
    assert first == {p.name: p.read_bytes() for p in out.iterdir()}, "reports are reproducible"


def test_report_refuses_a_directory_without_a_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["study", "report", str(tmp_path)]) == 2
    assert "holds no study" in capsys.readouterr().err
    with pytest.raises(StudyError):
        read_rows(tmp_path)


def test_ctrl_c_stops_at_once_and_keeps_the_finished_chunks(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the process group) ends a pool run with one line and status 130;
    the chunks finished before it stay, no worker is left, and the run resumes."""
    d = tmp_path / "s"
    argv = ["study", "run", str(d), "--deals", "200", "--chunk", "1", "--workers", "2"]
    p = subprocess.Popen(
        [sys.executable, "-m", "moonrules", *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(d.glob("chunk-*.parquet"))) < 2:
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130
    assert err.decode().splitlines()[-1] == (
        "moonrules study run: interrupted; run the same command again to continue"
    )
    with pytest.raises(ProcessLookupError):
        os.killpg(p.pid, 0)  # no worker left in the group
    kept = sorted(d.glob("chunk-*.parquet"))
    assert len(kept) >= 2 and not list(d.glob("*.tmp"))
    settings = StudySettings(m.STANDARD, seed=0, deals=200, chunk=1)
    for path in kept[:2]:
        c = int(path.stem.split("-")[1])
        first, count = settings.chunk_deals(c)
        assert read_chunk(path) == chunk_rows(m.STANDARD, 0, first, count)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop
def test_a_ctrl_c_lost_in_a_finaliser_still_stops_the_run() -> None:
    """Python runs a signal's handler wherever the main thread is; in a ``__del__`` the
    KeyboardInterrupt is printed and dropped. The handler the study run installs keeps the
    stop, so that the run's next step raises it again (and the command exits with 130)."""
    from moonrules.cli.conform import stopped_by_signals

    class Dropping:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(100):  # the handler runs here, and its exception is dropped
                pass

    before = signal.getsignal(signal.SIGINT)
    with stopped_by_signals(interrupt=True) as check:
        check()  # nothing yet
        Dropping()
        with pytest.raises(KeyboardInterrupt):
            check()
    assert signal.getsignal(signal.SIGINT) is before


def test_a_chunk_file_that_is_not_its_chunk_is_computed_again(tmp_path: Path) -> None:
    """A run counts a chunk as done only once its file is read back and checked: a truncated
    file, a foreign one, one with rows out of range are computed again (a line on stderr)."""
    s = StudySettings(SMALL, seed=3, deals=4, chunk=1, format="csv")
    good, d = tmp_path / "good", tmp_path / "d"
    run_study(good, s)
    run_study(d, s)
    chunk_path(d, s, 1).write_bytes(chunk_path(d, s, 1).read_bytes()[:-7])  # truncated
    chunk_path(d, s, 2).write_bytes(b"\x00\x01 not a table")
    chunk_path(d, s, 3).write_bytes(chunk_path(d, s, 0).read_bytes())  # the wrong deal
    before = chunk_path(d, s, 0).stat().st_mtime_ns
    warnings: list[str] = []
    final = run_study(d, s, warn=warnings.append)
    assert (final.done, final.new) == (4, 3)
    assert len(warnings) == 3 and all(w.endswith("; it is computed again") for w in warnings)
    assert [w.split(" ", 1)[0] for w in warnings] == [str(chunk_path(d, s, c)) for c in (1, 2, 3)]
    assert "holds 0 rows, not 6" in warnings[0] or "not a chunk of rows" in warnings[0]
    assert "deal out of range" in warnings[2]
    assert _files(d) == _files(good)
    assert chunk_path(d, s, 0).stat().st_mtime_ns == before  # a good chunk is not redone
    assert run_study(d, s, warn=warnings.append).new == 0 and len(warnings) == 3


def test_a_chunk_path_that_is_no_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = StudySettings(SMALL, seed=3, deals=2, chunk=1, format="csv")
    run_study(tmp_path, s)
    chunk_path(tmp_path, s, 1).unlink()
    chunk_path(tmp_path, s, 1).mkdir()
    with pytest.raises(StudyError, match="not a regular file; remove it"):
        run_study(tmp_path, s)


def test_a_run_removes_what_a_killed_run_left_half_written(tmp_path: Path) -> None:
    s = StudySettings(SMALL, seed=3, deals=2, chunk=1, format="csv")
    run_study(tmp_path, s)
    left = [".chunk-000000.csv.0badf00d.tmp", "chunk-000001.csv.tmp", ".study.json.1234abcd.tmp"]
    for name in left:
        (tmp_path / name).write_bytes(b"half")
    (tmp_path / "notes.tmp").write_text("mine")  # not the study's: kept
    (tmp_path / ".notes.tmp").write_text("mine")
    run_study(tmp_path, s)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".notes.tmp",
        "chunk-000000.csv",
        "chunk-000001.csv",
        "notes.tmp",
        "study.json",
    ]


def test_a_second_run_on_a_directory_in_use_is_refused(tmp_path: Path) -> None:
    import fcntl

    s = StudySettings(SMALL, seed=3, deals=1, chunk=1, format="csv")
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a run under way holds it
        with pytest.raises(StudyError, match="another run is writing to"):
            run_study(tmp_path, s)
    finally:
        os.close(fd)
    assert run_study(tmp_path, s).done == 1


def test_an_interrupt_while_a_chunk_is_written_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the middle of writing a chunk takes effect once the chunk is in place: no
    partial file, by construction (here the signal arrives between the write and the rename,
    where an unguarded writer leaves its temporary file)."""
    from moonrules.records import files

    s = StudySettings(SMALL, seed=3, deals=3, chunk=1, format="csv")
    real_replace = os.replace
    calls: list[str] = []

    def replace_after_ctrl_c(src: str, dst: str) -> None:
        calls.append(os.path.basename(dst))
        if os.path.basename(dst) == "chunk-000001.csv":
            os.kill(os.getpid(), signal.SIGINT)  # delivered now, to this (the main) thread
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace_after_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run_study(tmp_path, s)
    assert calls == ["study.json", "chunk-000000.csv", "chunk-000001.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "chunk-000000.csv",
        "chunk-000001.csv",
        "study.json",
    ]
    assert read_chunk(chunk_path(tmp_path, s, 1)) == chunk_rows(SMALL, 3, 2, 1)


def test_progress_lines_on_stderr_off_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonrules.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    argv = ["study", "run", str(tmp_path), "--deals", "4", "--chunk", "1", "--csv"]
    assert main([*argv, "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0].startswith("study: 0/4 deals (0%), ") and lines[-1].startswith(
        "study: 4/4 deals (100%), "
    )
    assert len(lines) == 5 and out.startswith("4/4 deals in ")
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
