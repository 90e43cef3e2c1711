"""``moonrules fuzz``: examples per second, and how many examples each mutant takes to be found.

1. Throughput, per op: how many requests per second ``moonrules serve`` answers on its own
   when the requests are piped to it (all written at once, the answers read to the end), and
   how many ``moonrules.conformance.fuzz.fuzz`` runs against the same ``moonrules serve``
   (each drawn, answered by the reference in-process and by the target, and compared),
   measured in the same run, the best of ``--rounds``. "per cpu-s" counts the CPU time of
   this process and of the target process, for a machine shared with other work.
2. Mutants: for each mutant of ``tests/mutants/`` (in-process) and each seed, the number
   of examples of each op it shows in that were run until the first disagreement
   (``Finding.examples``), with at most ``--bound`` examples per op; min / median / max
   over the seeds, and how many seeds missed within the bound.

    python bench/fuzz.py [--examples 5000] [--rounds 3] [--seeds 10] [--bound 1000] [--no-mutants]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules
from moonrules.conformance.fuzz import fuzz

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "tests" / "mutants"
sys.path.insert(0, str(MUTANTS))  # the mutants import their shared _kernel


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


THROUGHPUT_OPS = (
    "led_suit",
    "legal_plays",
    "trick_winner",
    "legal_bids",
    "auction",
    "score_hand",
    "game_winner",
)
"""The ops measured: every op but ``tiles`` (a dozen requests) and ``replay``/``view``
(whole games: the reference itself answers a few hundred a second)."""


def _piped(command: list[str], lines: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds for the target alone to answer ``lines`` sent down a pipe."""
    data = "".join(line + "\n" for line in lines).encode()
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(command, input=data, stdout=subprocess.PIPE, env=env, check=True)
    wall, used = time.perf_counter() - start, _cpu() - cpu
    assert done.stdout.count(b"\n") == len(lines)
    return wall, used


def throughput(examples: int, rounds: int) -> None:
    """Requests per second: the target alone (piped) and the fuzzer driving it, same run."""
    import random

    from moonrules.conformance.generators import draw, presets

    command = [sys.executable, "-m", "moonrules", "serve"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    names = presets(None)
    print(f"Throughput: {examples} requests per op, {rounds} rounds, target {shlex.join(command)}")
    print("requests/s (wall clock; per cpu-s counts this process and the target's CPU time)")
    print(f"{'op':<14} {'piped':>8} {'per cpu-s':>10} {'fuzz':>8} {'per cpu-s':>10} {'ratio':>6}")
    totals = {"piped": [0, 0.0, 0.0], "fuzz": [0, 0.0, 0.0]}
    for op in THROUGHPUT_OPS:
        rng = random.Random(f"0/{op}")
        lines = [
            json.dumps({"id": i, **draw(op, names, None, rng)[0]}, separators=(",", ":"))
            for i in range(examples)
        ]
        best = {"piped": (0.0, 0.0), "fuzz": (0.0, 0.0)}
        for _ in range(rounds):
            wall, used = _piped(command, lines, env)
            best["piped"] = max(best["piped"], (examples / wall, examples / used))
            cpu, start = _cpu(), time.perf_counter()
            report = fuzz(" ".join(command), ops=[op], examples=examples, seed=0, env=env)
            wall, used = time.perf_counter() - start, _cpu() - cpu
            assert report.ok, report.to_text()
            best["fuzz"] = max(best["fuzz"], (examples / wall, examples / used))
        for key, (rate, per_cpu) in best.items():
            totals[key][0] += examples
            totals[key][1] += examples / rate
            totals[key][2] += examples / per_cpu
        p, f = best["piped"], best["fuzz"]
        print(f"{op:<14} {p[0]:>8.0f} {p[1]:>10.0f} {f[0]:>8.0f} {f[1]:>10.0f} {f[0] / p[0]:>6.2f}")
    p_all = totals["piped"][0] / totals["piped"][1], totals["piped"][0] / totals["piped"][2]
    f_all = totals["fuzz"][0] / totals["fuzz"][1], totals["fuzz"][0] / totals["fuzz"][2]
    print(
        f"{'all these':<14} {p_all[0]:>8.0f} {p_all[1]:>10.0f} {f_all[0]:>8.0f} "
        f"{f_all[1]:>10.0f} {f_all[0] / p_all[0]:>6.2f}"
    )
    print("(best of the rounds for each; ratio = fuzz / piped, wall clock)")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"mutant_{name}", MUTANTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mutants(seeds: int, bound: int) -> None:
    names = sorted(p.stem for p in MUTANTS.glob("*.py") if not p.stem.startswith("_"))
    names.remove("hang")  # a hang is only a hang in a subprocess (see tests/test_fuzz.py)
    print()
    print(f"Mutants: examples until found, seeds 0-{seeds - 1}, at most {bound} per op")
    print(
        f"{'mutant':<24} {'op':<14} {'min':>5} {'median':>7} {'max':>5} {'missed':>7} {'s/run':>6}"
    )
    worst = 0
    for name in names:
        mutant = _load(name)
        counts: dict[str, list[int]] = {op: [] for op in mutant.SHOWS_IN}
        start = time.perf_counter()
        for seed in range(seeds):
            report = fuzz(
                mutant.handle, ops=list(mutant.SHOWS_IN), examples=bound, seed=seed, max_findings=1
            )
            for f in report.findings:
                counts[f.op].append(f.examples)
        per_run = (time.perf_counter() - start) / seeds
        for op, found in counts.items():
            missed = seeds - len(found)
            if found:
                worst = max(worst, max(found))
                print(
                    f"{name:<24} {op:<14} {min(found):>5} {statistics.median(found):>7.0f} "
                    f"{max(found):>5} {missed:>7} {per_run:>6.1f}"
                )
            else:
                print(f"{name:<24} {op:<14} {'-':>5} {'-':>7} {'-':>5} {missed:>7} {per_run:>6.1f}")
    print(f"largest number of examples to a finding: {worst}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=5000, help="requests per op (throughput)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per op (throughput)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per mutant")
    parser.add_argument("--bound", type=int, default=1000, help="examples per op, at most")
    parser.add_argument("--no-mutants", action="store_true", help="throughput only")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
    throughput(args.examples, args.rounds)
    if not args.no_mutants:
        mutants(args.seeds, args.bound)


if __name__ == "__main__":
    main()
