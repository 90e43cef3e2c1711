"""The batched engine's speed: hands of whole random games per second, against the bit-mask loop.

For each preset, batch size and deal mode, a :class:`moonrules.engine.batch.Batch` plays
uniformly random legal actions (:meth:`~moonrules.engine.batch.Batch.random_actions`, the
auction, the widow, trump and every play included) for ``--seconds``; the figure is the
hands played out per second (``hands_played``: thrown-in hands are not counted, their time
is). Beside each, in turn, the plain pure-Python bit-mask loop of ``bench/gameai.py``
(``loop_playouts``: play-only hands/s, a shuffle of its own) runs for as long, so that the
machine's load weighs on both sides of the ratio alike. ``seeded`` deals are DEAL-1's (one
Python call per hand dealt, as ``Engine``); ``fast`` deals are the batch's own numpy shuffle.

The peak memory of a batch of 100,000 games (``--memory``, fast deals): what ``tracemalloc``
saw numpy allocate while it was made and stepped, and the process's peak resident size.

    python bench/batch.py [--seconds 2] [--sizes 1000,10000,100000] [--deals seeded,fast]
                          [--presets standard,partnership] [--memory 100000]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from gameai import loop_playouts

from moonrules.engine.batch import Batch


def batch_rate(preset: str, n: int, deals: str, seconds: float) -> tuple[float, float]:
    """(hands played out per second, steps per second) of random whole games."""
    b = Batch(preset, n, 1, deals=deals)
    rng = np.random.default_rng(1)
    for _ in range(3):
        b.step(b.random_actions(rng))
    first = b.hands_played
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or steps < 3:
        b.step(b.random_actions(rng))
        steps += 1
    taken = time.perf_counter() - start
    return (b.hands_played - first) / taken, steps / taken


def loop_rate(preset: str, seconds: float) -> float:
    played, _thrown, taken = loop_playouts(preset, seconds)
    return played / taken


def memory(preset: str, n: int, steps: int) -> tuple[float, float]:
    """(peak MB traced while a batch of ``n`` is made, stepped and observed once, peak
    resident MB of this process so far)."""
    tracemalloc.start()
    b = Batch(preset, n, 1, deals="fast")
    rng = np.random.default_rng(1)
    for _ in range(steps):
        b.step(b.random_actions(rng))
    b.legal_mask()
    b.observe()
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return peak / 2**20, rss


def run(args: argparse.Namespace) -> None:
    sizes = [int(x) for x in args.sizes.split(",") if x]
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"numpy {np.__version__}, {args.seconds:g} s a figure")
    print(f"{'preset':<12} {'deals':<7} {'n':>8} {'hands/s':>11} {'steps/s':>9} {'loop':>9} ratio")
    for preset in args.presets.split(","):
        for deals in args.deals.split(","):
            for n in sizes:
                loop = loop_rate(preset, args.seconds)
                rate, steps = batch_rate(preset, n, deals, args.seconds)
                print(
                    f"{preset:<12} {deals:<7} {n:>8,} {rate:>11,.0f} {steps:>9,.1f} "
                    f"{loop:>9,.0f} {rate / loop:5.1f}x",
                    flush=True,
                )
    if args.memory:
        peak, rss = memory(args.presets.split(",")[0], args.memory, 20)
        print(
            f"memory at n={args.memory:,}: {peak:,.0f} MB traced at peak (numpy's arrays), "
            f"{rss:,.0f} MB peak resident (the whole process)"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a figure")
    parser.add_argument("--sizes", default="1000,10000,100000", help="batch sizes")
    parser.add_argument("--deals", default="seeded,fast", help="deal modes")
    parser.add_argument("--presets", default="standard,partnership", help="presets")
    parser.add_argument("--memory", type=int, default=100_000, help="n of the memory run (0: none)")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
