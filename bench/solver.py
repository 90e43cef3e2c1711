"""Double-dummy solve time from the opening lead, per preset.

For each of N seeded deals per preset: ``new_game(preset, seed=i)``, then calls,
discard and trump chosen by ``random.Random(i)`` (a thrown-in hand is skipped:
the game deals the next hand and bidding goes on), stopping at the opening lead
(phase PLAY, no tile played). Each position is solved with a fresh cache.

Prints, per preset, the median, 95th percentile and maximum solve time (wall
clock and CPU time of this process) and the nodes searched. Targets (2 cores):
three-player median ≤ 2 ms and maximum ≤ 30 ms; partnership median ≤ 5 ms and
maximum ≤ 50 ms.

Each form of the search installed is measured in the same run: the compiled one
(``MOONRULES_COMPILE=1`` at install) in this process, then the Python source in
a child process with ``MOONRULES_PURE_PYTHON=1``. ``--form`` measures one only.

    python bench/solver.py [--deals 200] [--presets standard,partnership|all] [--form F]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules
from moonrules import GameState, Phase, apply, legal_actions, new_game
from moonrules.analysis.solver import COMPILED, SolverCache, solve


def opening_lead(preset: str, seed: int) -> GameState:
    """The position of the opening lead of the first hand played out with this seed."""
    state = new_game(preset, seed=seed)
    rng = random.Random(seed)
    while state.phase is not Phase.PLAY:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, nearest rank."""
    k = max(0, min(len(sorted_values) - 1, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def measure(preset: str, deals: int) -> dict[str, float]:
    wall: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    values: list[int] = []
    for seed in range(deals):
        state = opening_lead(preset, seed)
        cache = SolverCache()
        c0 = time.process_time()
        w0 = time.perf_counter()
        values.append(solve(state, cache))
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
        nodes.append(cache.nodes)
    wall.sort()
    cpu.sort()
    nodes.sort()
    return {
        "median": statistics.median(wall),
        "p95": percentile(wall, 0.95),
        "max": wall[-1],
        "cpu_median": statistics.median(cpu),
        "cpu_p95": percentile(cpu, 0.95),
        "cpu_max": cpu[-1],
        "nodes_median": statistics.median(nodes),
        "nodes_p95": percentile([float(n) for n in nodes], 0.95),
        "nodes_max": nodes[-1],
        "total": sum(wall),
        "mean_value": statistics.mean(values),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per preset (default 200)")
    parser.add_argument(
        "--presets",
        default="standard,partnership",
        help="comma-separated preset names, or 'all' (default standard,partnership)",
    )
    parser.add_argument(
        "--form",
        choices=("both", "this"),
        default="both",
        help="both: every form installed (default); this: the one this process runs",
    )
    args = parser.parse_args()
    names = list(moonrules.PRESETS) if args.presets == "all" else args.presets.split(",")
    form = "compiled (mypyc)" if COMPILED else "Python source"
    if args.form == "both":
        print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
        print(f"double-dummy solve from the opening lead, {args.deals} seeded deals per preset")
        print("times in ms, wall clock (cpu: CPU time of this process); nodes: search nodes")
    print(f"\nsearch: {form}")
    print(
        f"{'preset':<20} {'median':>7} {'p95':>7} {'max':>7} | {'cpu med':>7} {'cpu p95':>7} "
        f"{'cpu max':>7} | {'nodes med':>9} {'p95':>7} {'max':>7} | {'tricks':>6} {'total s':>7}"
    )
    for name in names:
        r = measure(name.strip(), args.deals)
        print(
            f"{name:<20} {r['median'] * 1e3:7.1f} {r['p95'] * 1e3:7.1f} {r['max'] * 1e3:7.1f} | "
            f"{r['cpu_median'] * 1e3:7.1f} {r['cpu_p95'] * 1e3:7.1f} {r['cpu_max'] * 1e3:7.1f} | "
            f"{r['nodes_median']:9.0f} {r['nodes_p95']:7.0f} {r['nodes_max']:7d} | "
            f"{r['mean_value']:6.2f} {r['total']:7.1f}",
            flush=True,
        )
    if args.form == "both" and COMPILED:
        # The source form, in a process that loads no compiled module at all.
        env = {**os.environ, "MOONRULES_PURE_PYTHON": "1"}
        argv = [sys.executable, __file__, "--deals", str(args.deals), "--presets", args.presets]
        subprocess.run([*argv, "--form", "this"], env=env, check=True)


if __name__ == "__main__":
    main()
