"""Study throughput on one and two local workers, and the time of ``advise`` by default.

For each preset: ``run_study`` of ``--deals`` deals (chunks of ``--chunk``) into a fresh
directory with 1 worker, then with 2, ``--repeat`` times each, alternating; prints
deals per second (best and median) and the scaling, 2 workers against 1, and the deals
per CPU second of all processes (which shows the pool's overhead, load or not). The load
average before each run is printed too: on a shared machine the figures are only as
good as the quiet they were measured in. Target: 2 workers at least 1.8 times 1.

``--advise`` times ``advise`` with its default samples on a few three-player hands
(workers 1 and 2) and prints the widest 95% interval of any P(make).
Target: under 5 s, no interval wider than ±5 points.

    python bench/study.py [--deals 60] [--chunk 5] [--repeat 3] [--presets standard,partnership]
    python bench/study.py --deals 300 --chunk 10 --presets standard    # the scaling figure
    python bench/study.py --advise

Sixty three-player deals take a few seconds, so the pool's start shows in the scaling;
three hundred give the steady rate.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from moonrules.analysis.advise import advise
from moonrules.rules.ruleset import rules_by_name
from moonrules.rules.tiles import tiles
from moonrules.study.run import StudySettings, run_study

HANDS = (
    "6-6 6-5 6-4 5-5 4-2 3-1 1-1",
    "5-5 5-4 5-3 5-1 2-2 6-3 4-1",
    "6-2 5-2 4-3 3-1 2-1 1-1 4-4",
)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _rate(preset: str, deals: int, chunk: int, workers: int, seed: int) -> tuple[float, float]:
    """Deals per second of wall-clock time, and per second of CPU time (all processes)."""
    settings = StudySettings(rules_by_name(preset), seed=seed, deals=deals, chunk=chunk)
    with tempfile.TemporaryDirectory() as d:
        cpu = _cpu()
        start = time.perf_counter()
        run_study(Path(d) / "s", settings, workers=workers)
        wall = time.perf_counter() - start
        return deals / wall, deals / (_cpu() - cpu)


def bench_study(presets: list[str], deals: int, chunk: int, repeat: int) -> None:
    for preset in presets:
        rates: dict[int, list[float]] = {1: [], 2: []}
        for r in range(repeat):
            for workers in (1, 2):
                load = os.getloadavg()[0]
                rate, per_cpu = _rate(preset, deals, chunk, workers, seed=r)
                rates[workers].append(rate)
                print(
                    f"  {preset} run {r + 1} workers {workers}: {rate:.2f} deals/s, "
                    f"{per_cpu:.2f} deals per CPU second (load before {load:.1f})",
                    flush=True,
                )
        best1, best2 = max(rates[1]), max(rates[2])
        med1, med2 = statistics.median(rates[1]), statistics.median(rates[2])
        print(
            f"{preset}: 1 worker {best1:.2f} deals/s (median {med1:.2f}), "
            f"2 workers {best2:.2f} deals/s (median {med2:.2f}); "
            f"scaling {best2 / best1:.2f}x best, {med2 / med1:.2f}x median (target >= 1.8x)"
        )


def bench_advise(repeat: int) -> None:
    for hand in HANDS:
        for workers in (1, 2):
            times = []
            cpu = _cpu()
            for _ in range(repeat):
                start = time.perf_counter()
                a = advise(tiles(hand), workers=workers)
                times.append(time.perf_counter() - start)
            cpu = (_cpu() - cpu) / repeat
            widest = max((b.ci[1] - b.ci[0]) / 2 for t in a.trumps for b in t.bids)
            solves = sum(t.samples for t in a.trumps)
            print(
                f"advise {hand!r} workers {workers}: best {min(times):.2f} s, "
                f"median {statistics.median(times):.2f} s, {cpu:.2f} CPU s, {solves} solves, "
                f"widest interval ±{100 * widest:.1f} points (load {os.getloadavg()[0]:.1f})",
                flush=True,
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--chunk", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--presets", default="standard,partnership")
    p.add_argument("--advise", action="store_true", help="time advise instead")
    args = p.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    if args.advise:
        bench_advise(args.repeat)
    else:
        bench_study(args.presets.split(","), args.deals, args.chunk, args.repeat)


if __name__ == "__main__":
    main()
