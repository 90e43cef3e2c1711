"""The batched engine's speed: hands of whole random games per second, against the bit-mask loop.

For each preset, batch size and deal mode, a :class:`moonrules.engine.batch.Batch` plays
uniformly random legal actions (:meth:`~moonrules.engine.batch.Batch.random_actions`, the
auction, the widow, trump and every play included) for ``--seconds``; the figure is the
hands played out per second (``hands_played``: thrown-in hands are not counted, their time
is). Beside each, in turn, the plain pure-Python bit-mask loop of ``bench/gameai.py``
(``loop_playouts``: play-only hands/s, a shuffle of its own) runs for as long, so that the
machine's load weighs on both sides of the ratio alike. ``seeded`` deals are DEAL-1's (one
Python call per hand dealt, as ``Engine``); ``fast`` deals are the batch's own numpy shuffle.

The JAX form (``moonrules.engine.batch_jax``, when jax is installed; ``--engines``) runs the
same random whole games two ways: ``jax`` a Python loop of the jitted ``random_actions`` and
``step`` (one dispatch each per step), ``jax-scan`` ``play_random`` (``--scan`` steps in one
compiled ``lax.scan``); each is timed after its first call, which compiles it, and the
compile time (``compile s``: the first ``init``, ``random_actions`` and ``step``, or the
first ``play_random``) is printed beside it; ``block_until_ready`` ends every timing.

The peak memory of a batch of 100,000 games (``--memory``, fast deals): what ``tracemalloc``
saw numpy allocate while it was made and stepped, and the process's peak resident size.

    python bench/batch.py [--seconds 2] [--sizes 1000,10000,100000] [--deals seeded,fast]
                          [--presets standard,partnership] [--memory 100000]
                          [--engines numpy,jax,jax-scan] [--scan 16]
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

try:
    import jax

    from moonrules.engine import batch_jax
except ModuleNotFoundError:  # the JAX rows need the extra [jax]
    jax = None  # type: ignore[assignment]


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


def ready(games: batch_jax.Games) -> None:
    """Wait until every array of ``games`` is computed."""
    for x in games:
        x.block_until_ready()


def jax_rate(preset: str, n: int, seconds: float, scan: int) -> tuple[float, float, float]:
    """(hands played out per second, steps per second, compile seconds) of the JAX form:
    ``scan`` 0, a Python loop of jitted ``random_actions`` and ``step``; else
    ``play_random`` of ``scan`` steps at a time."""
    f = batch_jax.functions_for(preset)
    start = time.perf_counter()
    games = f.init(1, n)
    key = jax.random.PRNGKey(2)
    games = f.play_random(games, key, scan) if scan else f.step(games, f.random_actions(games, key))
    ready(games)
    compiled = time.perf_counter() - start
    first = batch_jax.hands_played(games)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or steps < 3:
        key, sub = jax.random.split(key)
        if scan:
            games = f.play_random(games, sub, scan)
            steps += scan
        else:
            games = f.step(games, f.random_actions(games, sub))
            steps += 1
        if steps % 64 == 0:
            ready(games)
    ready(games)
    taken = time.perf_counter() - start
    return (batch_jax.hands_played(games) - first) / taken, steps / taken, compiled


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
    engines = args.engines.split(",")
    versions = f"numpy {np.__version__}"
    if jax is not None:
        versions += f", jax {jax.__version__} on {jax.devices()[0].platform}"
    elif any(e.startswith("jax") for e in engines):
        print("jax is not installed (extra [jax]): no JAX rows")
        engines = [e for e in engines if not e.startswith("jax")]
    print(f"{versions}, {args.seconds:g} s a figure")
    print(
        f"{'preset':<12} {'engine':<13} {'n':>8} {'hands/s':>11} {'steps/s':>9} {'loop':>9} "
        f"{'ratio':>6} {'compile s':>9}"
    )

    def row(preset: str, engine: str, n: int, rate: float, steps: float, compiled: str) -> None:
        loop = loop_rate(preset, args.seconds)
        print(
            f"{preset:<12} {engine:<13} {n:>8,} {rate:>11,.0f} {steps:>9,.1f} "
            f"{loop:>9,.0f} {rate / loop:5.1f}x {compiled:>9}",
            flush=True,
        )

    for preset in args.presets.split(","):
        for n in sizes:
            if "numpy" in engines:
                for deals in args.deals.split(","):
                    rate, steps = batch_rate(preset, n, deals, args.seconds)
                    row(preset, f"numpy-{deals}", n, rate, steps, "")
            for engine in ("jax", "jax-scan"):
                if engine in engines:
                    scan = args.scan if engine == "jax-scan" else 0
                    rate, steps, compiled = jax_rate(preset, n, args.seconds, scan)
                    row(preset, engine, n, rate, steps, f"{compiled:.1f}")
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
    parser.add_argument("--engines", default="numpy,jax,jax-scan", help="numpy, jax, jax-scan")
    parser.add_argument("--scan", type=int, default=16, help="steps per play_random call")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
