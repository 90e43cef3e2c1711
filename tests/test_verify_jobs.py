"""``moonrules verify --jobs N``: the catalogue checked N properties at a time in worker processes.

- the results are those of checking one after another, in the same order;
- only the catalogue's properties go to workers (a worker finds a property by its ID), and a
  number of jobs that is not a whole number from 1 to ``MAX_JOBS`` is refused, naming it;
- closing the results early ends the workers at once, checks under way included;
- a worker that dies gives a failure with no verdict, never a hang or a pass;
- a process that dies while its workers check (SIGTERM, SIGKILL) leaves none of them running;
- on the command line ``--jobs`` prints the same table, and a bad count is one line, status 2.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from multiprocessing.process import BaseProcess
from pathlib import Path

import attrs
import pytest

from moonrules.rules.errors import ArgumentError
from moonrules.verification import Outcome, by_id, run
from moonrules.verification.runner import MAX_JOBS

ROOT = Path(__file__).resolve().parents[1]
FAST = by_id(["tile-sets", "suits-and-ranks", "auction", "deals", "first-bidder"])
"""Quick properties of four methods' neighbours: together a few seconds."""


def _workers(before: frozenset[BaseProcess] = frozenset()) -> set[BaseProcess]:
    """This process's live children, other than those of ``before`` (under ``pytest -n``
    other tests of the same worker may have children of their own)."""
    return {p for p in multiprocessing.active_children() if p.is_alive()} - before


def _ended(workers: set[BaseProcess]) -> bool:
    return not any(p.is_alive() for p in workers)


def test_workers_give_the_results_of_one_after_another_in_order() -> None:
    alone = list(run(FAST, quick=True))
    before = frozenset(_workers())
    results = run(FAST, quick=True, jobs=2)
    together = [next(results)]
    ours = _workers(before)
    assert len(ours) == 2
    together += results
    assert [r.prop for r in together] == list(FAST)
    assert [r.outcome for r in together] == [r.outcome for r in alone]
    assert all(r.ok and r.outcome.cases > 0 for r in together[1:])
    assert _ended(ours)


def test_only_the_catalogues_properties_go_to_workers() -> None:
    mine = attrs.evolve(FAST[0], check=lambda quick: Outcome(1))
    assert [r.ok for r in run([mine], jobs=1)] == [True]
    with pytest.raises(ArgumentError, match=r"properties\[1\]: 'tile-sets' is not the catalogue"):
        run([FAST[1], mine], jobs=2)


@pytest.mark.parametrize(
    ("jobs", "error"),
    [
        (0, ValueError),
        (-1, ValueError),
        (MAX_JOBS + 1, ValueError),
        (True, TypeError),
        (2.0, TypeError),
        ("2", TypeError),
        (None, TypeError),
    ],
)
def test_a_number_of_jobs_out_of_range_or_of_another_type_is_refused(
    jobs: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match=r"^jobs: "):
        run(FAST, jobs=jobs)  # type: ignore[arg-type]


def test_closing_the_results_early_ends_the_workers_at_once() -> None:
    before = frozenset(_workers())
    results = run(by_id(["tile-sets", "trick-winner", "follow-rules"]), quick=True, jobs=2)
    first = next(results)
    assert first.prop.id == "tile-sets" and first.ok
    ours = _workers(before)
    assert len(ours) == 2  # the other two checks take seconds: both are under way
    start = time.perf_counter()
    results.close()  # type: ignore[attr-defined]
    assert time.perf_counter() - start < 3
    assert _ended(ours)


def test_a_worker_that_dies_is_a_failure_without_a_verdict() -> None:
    before = frozenset(_workers())
    results = run(by_id(["tile-sets", "trick-winner", "follow-rules"]), quick=True, jobs=2)
    assert next(results).ok
    ours = _workers(before)
    assert len(ours) == 2
    for w in ours:
        assert w.pid is not None
        os.kill(w.pid, signal.SIGKILL)
    rest = list(results)
    assert [r.prop.id for r in rest] == ["trick-winner", "follow-rules"]
    for r in rest:
        assert not r.ok and r.outcome.note == "the worker process checking it stopped"
        assert "BrokenProcessPool" in (r.outcome.counterexample or "")
    assert _ended(ours)


_PARENT = """
import sys
from moonrules.verification import by_id, run
from multiprocessing import active_children
if __name__ == "__main__":
    results = run(by_id(["tile-sets", "trick-winner", "follow-rules"]), quick=True, jobs=2)
    next(results)
    print(*sorted(p.pid for p in active_children()), flush=True)
    sys.stdin.read()  # until the test ends this process
"""


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie (its parent died; reaped soon after) counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_a_run_that_is_killed_leaves_no_worker_running(sig: signal.Signals) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    workers: list[int] = []
    try:
        assert parent.stdout is not None
        workers += [int(w) for w in parent.stdout.readline().split()]
        assert len(workers) == 2 and not any(_gone(w) for w in workers)
        parent.send_signal(sig)
        parent.wait(30)
        deadline = time.monotonic() + 10  # the checks under way take longer than this
        while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(w) for w in workers), "a worker outlived the run"
    finally:
        parent.kill()
        parent.wait(30)
        for w in workers:
            if not _gone(w):
                os.kill(w, signal.SIGKILL)


def _verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moonrules", "verify", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_command_prints_the_same_table_with_jobs() -> None:
    only = ["--quick", "--quiet", "--only", "tile-sets,suits-and-ranks,first-bidder"]
    one, two = _verify(*only), _verify(*only, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr

    def table(out: str) -> list[list[str]]:  # every cell but the seconds
        rows = [line.split() for line in out.splitlines()]
        return [row[:-2] + row[-1:] for row in rows[:-1]] + [rows[-1][:5]]

    assert table(two.stdout) == table(one.stdout)
    assert two.stdout.splitlines()[-1].startswith("3 of 3 properties hold")


@pytest.mark.parametrize("jobs", ["0", str(MAX_JOBS + 1), "two"])
def test_a_bad_number_of_jobs_is_one_line_and_status_2(jobs: str) -> None:
    done = _verify("--jobs", jobs)
    assert done.returncode == 2 and done.stdout == ""
    [line] = [x for x in done.stderr.splitlines() if "newer than the compiled" not in x]
    assert line.startswith("moonrules verify: error: ") and "--jobs" in line
