"""``moonrules fuzz``: examples per second, and how many examples each mutant takes to be found.

1. Throughput: examples per second of ``moonrules.conformance.fuzz.fuzz`` against the reference
   itself, in-process (``moonrules.conformance.protocol.handle``) and through a ``moonrules serve``
   subprocess, per op. Every example is answered by the reference in-process and by the
   target, and compared. "per cpu-s" counts the CPU time of this process and of the
   target process, for a machine shared with other work.
2. Mutants: for each mutant of ``tests/mutants/`` (in-process) and each seed, the number
   of examples of each op it shows in that were run until the first disagreement
   (``Finding.examples``), with at most ``--bound`` examples per op; min / median / max
   over the seeds, and how many seeds missed within the bound.

    python bench/fuzz.py [--examples 200] [--seeds 10] [--bound 1000] [--no-mutants]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules
from moonrules.conformance.fuzz import OPS, fuzz
from moonrules.conformance.protocol import handle

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "tests" / "mutants"
sys.path.insert(0, str(MUTANTS))  # the mutants import their shared _kernel


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def throughput(examples: int) -> None:
    serve = f"{sys.executable} -m moonrules serve"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"Throughput: {examples} examples per op, seed 0 (examples/s, wall clock and CPU)")
    print(f"{'op':<14} {'in-process':>11} {'per cpu-s':>10} {'serve':>9} {'per cpu-s':>10}")
    totals = {"in": [0, 0.0, 0.0], "sub": [0, 0.0, 0.0]}
    for op in OPS:
        row = []
        for key, target in (("in", handle), ("sub", serve)):
            cpu, start = _cpu(), time.perf_counter()
            report = fuzz(target, ops=[op], examples=examples, seed=0, env=env)  # type: ignore[arg-type]
            wall, used = time.perf_counter() - start, _cpu() - cpu
            assert report.ok, report.to_text()
            n = report.cases[op]
            totals[key][0] += n
            totals[key][1] += wall
            totals[key][2] += used
            row += [n / wall, n / used]
        print(f"{op:<14} {row[0]:>11.0f} {row[1]:>10.0f} {row[2]:>9.0f} {row[3]:>10.0f}")
    t_in, t_sub = totals["in"], totals["sub"]
    print(
        f"{'all ops':<14} {t_in[0] / t_in[1]:>11.0f} {t_in[0] / t_in[2]:>10.0f} "
        f"{t_sub[0] / t_sub[1]:>9.0f} {t_sub[0] / t_sub[2]:>10.0f}"
    )


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
            report = fuzz(mutant.handle, ops=list(mutant.SHOWS_IN), examples=bound, seed=seed)
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
    parser.add_argument("--examples", type=int, default=200, help="examples per op (throughput)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per mutant")
    parser.add_argument("--bound", type=int, default=1000, help="examples per op, at most")
    parser.add_argument("--no-mutants", action="store_true", help="throughput only")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
    throughput(args.examples)
    if not args.no_mutants:
        mutants(args.seeds, args.bound)


if __name__ == "__main__":
    main()
