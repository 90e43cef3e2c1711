"""The engines side by side, in one run: hands of random whole games per second, as ratios.

Every figure is a rate of whole random games with the auction (hands played out per second;
thrown-in hands are not counted, their time is), set against the plain pure-Python bit-mask
loop of ``bench/gameai.py`` (its play-only hands/s, a shuffle of its own) run in turn with
each, so that the machine's load weighs on both sides of each ratio alike:

- **reference**: ``new_game`` / ``legal_actions`` / ``apply`` (the immutable API);
- **loop** and **seeded loop**: ``bench/gameai.py``'s bit-mask loop, shuffling with one
  generator, or dealing each hand by DEAL-1 as the game must;
- **Engine stepped**: a Python loop of ``legal_ids`` / ``step`` on :class:`moonrules.engine.Engine`;
- **Engine playout**: ``Engine.playout`` hand after hand (the random play inside the engine);
- **playout: dealt**: ``clone`` + ``playout`` of hands dealt before the clock starts (the same
  play without DEAL-1's deal, which whole games must pay: the target line is the one above);
- **rollout**: a clone of a position at the first lead, played out (what a search bot runs:
  ``clone`` + ``playout``), per second, and the same through the reference API;
- **undo walk**: nodes per second of a depth-first walk over every line of a hand's last three
  tricks with ``step`` / ``undo``, and the same walk through ``apply``;
- **batch** (:mod:`moonrules.engine.batch`, numpy) at n = 1,000 / 10,000 / 100,000 games, with
  its own vectorised deals and with DEAL-1's, and its peak memory at n = 100,000;
- **OpenSpiel** and **PettingZoo** steps per second (``bench/gameai.py``'s measures).

This process runs the engine's installed form (compiled when the install compiled it); when it
is compiled, a child process with ``MOONRULES_PURE_PYTHON=1`` gives the pure-Python figures
of the engine's rows beside them. The rates are the best of ``--repeat`` runs of ``--seconds``;
each ratio is the median of the ratios of the rounds.

    python bench/engine.py [--seconds 1] [--repeat 3] [--presets standard,partnership]
                           [--batch 1000,10000,100000] [--form both|this]
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gameai

import moonrules
from moonrules import Phase, apply, legal_actions
from moonrules.engine import Engine
from moonrules.kernel.compiled import is_compiled

Rate = tuple[float, float]
"""(units done, seconds taken)."""


def engine_stepped(preset: str, seconds: float) -> Rate:
    """Hands played out by a Python loop of ``legal_ids`` / ``step`` (as ``bench/gameai.py``'s
    loop of ``legal_actions`` / ``apply``: the hand's end read once a step, here from what
    ``step`` returns)."""
    rules = moonrules.rules_by_name(preset)
    calls = 1 + len(rules.bids)  # ids below this are calls: a hand a call ends was thrown in
    draw = random.Random(12345).random
    played = seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed += 1
        e = Engine(rules, seed)
        while True:
            legal = e.legal_ids()
            action = legal[int(draw() * len(legal))]
            if e.step(action):  # the hand is over
                played += action >= calls
                if e.is_over or e.hand_number > 50:
                    break
    return played, time.perf_counter() - start


def engine_playouts(preset: str, seconds: float) -> Rate:
    """Hands played out by ``Engine.playout``, hand after hand."""
    rules = moonrules.rules_by_name(preset)
    played = seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed += 1
        e = Engine(rules, seed)
        while not e.is_over and e.hand_number <= 50:
            played += e.playout(seed * 64 + e.hand_number) > rules.players
    return played, time.perf_counter() - start


def engine_dealt_playouts(preset: str, seconds: float) -> Rate:
    """Hands played out by ``clone`` + ``playout`` from hands already dealt (200 fresh deals,
    each at its first call, made before the clock starts): ``Engine playout`` without
    DEAL-1's deal, which the target line still pays."""
    rules = moonrules.rules_by_name(preset)
    dealt = []
    for seed in range(1, 201):
        e = Engine(rules, seed)
        e.legal_mask()
        e.to_state()  # the hand is dealt when first read
        dealt.append(e)
    played = k = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for e in dealt:
            k += 1
            played += e.clone().playout(k) > rules.players
    return played, time.perf_counter() - start


def _first_lead(preset: str, seed: int) -> Engine:
    """An engine at the first lead of a hand: the auction, discard and trump taken at random."""
    rng = random.Random(seed)
    e = Engine(preset, seed)
    while e.phase is not Phase.PLAY:
        legal = e.legal_ids()
        e.step(legal[-1] if e.phase is Phase.BIDDING and rng.random() < 0.5 else rng.choice(legal))
    return e


def engine_rollouts(preset: str, seconds: float) -> Rate:
    """Rollouts (``clone`` + ``playout`` from the first lead) per second."""
    e = _first_lead(preset, 5)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            e.clone().playout(done)
            done += 1
    return done, time.perf_counter() - start


def reference_rollouts(preset: str, seconds: float) -> Rate:
    """The same rollouts through ``legal_actions`` / ``apply``."""
    state = _first_lead(preset, 5).to_state()
    draw = random.Random(1).random
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        s = state
        number = s.hand_number
        while not s.is_over and s.hand_number == number:
            legal = legal_actions(s)
            s = apply(s, legal[int(draw() * len(legal))])
        done += 1
    return done, time.perf_counter() - start


def _late(preset: str) -> Engine:
    """An engine with three tricks left in its hand."""
    e = _first_lead(preset, 7)
    rng = random.Random(7)
    while len(e.to_state().tricks) < 4:
        e.step(rng.choice(e.legal_ids()))
    return e


def engine_walk(preset: str, seconds: float) -> Rate:
    """Nodes a second of a depth-first walk of every line of the last three tricks, by
    ``step`` / ``undo`` on one engine."""
    e = _late(preset)
    number = e.hand_number

    def walk() -> int:
        nodes = 0
        for i in e.legal_ids():
            e.step(i)
            nodes += 1
            if e.hand_number == number and not e.is_over:
                nodes += walk()
            e.undo()
        return nodes

    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += walk()
    return done, time.perf_counter() - start


def reference_walk(preset: str, seconds: float) -> Rate:
    """The same walk through ``legal_actions`` / ``apply`` (immutable states, nothing undone)."""
    state = _late(preset).to_state()
    number = state.hand_number

    def walk(s: moonrules.GameState) -> int:
        nodes = 0
        for a in legal_actions(s):
            after = apply(s, a)
            nodes += 1
            if after.hand_number == number and not after.is_over:
                nodes += walk(after)
        return nodes

    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += walk(state)
    return done, time.perf_counter() - start


def reference_games(preset: str, seconds: float) -> Rate:
    played, _actions, taken = gameai.api_playouts(preset, seconds)
    return played, taken


def loop(preset: str, seconds: float) -> Rate:
    played, _thrown, taken = gameai.loop_playouts(preset, seconds)
    return played, taken


def seeded_loop(preset: str, seconds: float) -> Rate:
    played, _thrown, taken = gameai.loop_playouts(preset, seconds, seeded=True)
    return played, taken


def batch_games(preset: str, n: int, seconds: float, deals: str) -> tuple[float, int]:
    """(hands/s, peak resident MB) of random whole games in a batch of ``n`` games, each game's
    id drawn by the batch's documented random choice (``Batch.random_actions``)."""
    import numpy as np

    from moonrules.engine.batch import Batch

    rng = np.random.default_rng(1)
    b = Batch(preset, n, 1, deals=deals)
    start = time.perf_counter()
    first = b.hands_played
    steps = 0
    while time.perf_counter() - start < seconds or steps < 3:
        b.step(b.random_actions(rng))
        steps += 1
    taken = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return (b.hands_played - first) / taken, peak


def paired(
    measure: Callable[[str, float], Rate], preset: str, seconds: float, repeat: int
) -> tuple[float, float]:
    """(best rate of ``measure``, median ratio to the loop's rate, run in turn)."""
    rates, ratios = [], []
    for _ in range(repeat):
        done, taken = measure(preset, seconds)
        ldone, ltaken = loop(preset, seconds)
        rate = done / taken
        rates.append(rate)
        ratios.append(rate / (ldone / ltaken))
    ratios.sort()
    return max(rates), ratios[len(ratios) // 2]


def forms() -> str:
    core = importlib.import_module("moonrules.engine.core")
    return "compiled (mypyc)" if is_compiled(core) else "pure Python"


ROWS: dict[str, tuple[Callable[[str, float], Rate], str]] = {
    "reference API": (reference_games, "hands/s"),
    "loop": (loop, "hands/s"),
    "seeded loop": (seeded_loop, "hands/s"),
    "Engine stepped": (engine_stepped, "hands/s"),
    "Engine playout": (engine_playouts, "hands/s"),
    "playout: dealt": (engine_dealt_playouts, "hands/s"),
    "rollout: Engine": (engine_rollouts, "rollouts/s"),
    "rollout: reference": (reference_rollouts, "rollouts/s"),
    "undo walk: Engine": (engine_walk, "nodes/s"),
    "walk: reference": (reference_walk, "nodes/s"),
}
ENGINE_ROWS = (
    "Engine stepped",
    "Engine playout",
    "playout: dealt",
    "rollout: Engine",
    "undo walk: Engine",
)


def run(args: argparse.Namespace) -> None:
    this = args.form == "this"
    print(f"\nengine: {forms()}")
    print(f"{'preset':<13} {'measure':<20} {'rate':>12} {'unit':<11} {'x loop':>7}")
    for preset in args.presets.split(","):
        for name, (measure, unit) in ROWS.items():
            if this and name not in ENGINE_ROWS:
                continue
            rate, ratio = paired(measure, preset, args.seconds, args.repeat)
            print(f"{preset:<13} {name:<20} {rate:>12,.0f} {unit:<11} {ratio:>6.2f}x", flush=True)
        if this:
            continue
        loop_rate = max(loop(preset, args.seconds)[0] / args.seconds for _ in range(args.repeat))
        for n in [int(x) for x in args.batch.split(",") if x]:
            for deals in ("fast", "seeded"):
                try:
                    rate, peak = batch_games(preset, n, args.seconds, deals)
                except ImportError as e:
                    print(f"{preset:<13} batch: {e}")
                    break
                print(
                    f"{preset:<13} {f'batch n={n:,} {deals}':<20} {rate:>12,.0f} {'hands/s':<11} "
                    f"{rate / loop_rate:>6.2f}x  (peak RSS {peak:,} MB)",
                    flush=True,
                )
        for label, measure in (
            ("OpenSpiel", gameai.openspiel_steps),
            ("PettingZoo", gameai.pettingzoo_steps),
        ):
            try:
                steps, _hands, taken = gameai.best(measure, preset, args.seconds, args.repeat)
            except ImportError as e:
                print(f"{preset:<13} {label}: {e}")
                continue
            print(f"{preset:<13} {label:<20} {steps / taken:>12,.0f} {'steps/s':<11}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds a run (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--presets", default="standard,partnership")
    parser.add_argument("--batch", default="1000,10000,100000", help="batch sizes ('' for none)")
    parser.add_argument("--form", choices=("both", "this"), default="both")
    args = parser.parse_args()
    if args.form == "both":
        print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
        print(
            f"whole random games; best of {args.repeat} runs of {args.seconds:g} s; "
            "x loop: the median ratio to the pure-Python loop's hands/s, run in turn"
        )
    run(args)
    core = importlib.import_module("moonrules.engine.core")
    if args.form == "both" and is_compiled(core):
        env = {**os.environ, "MOONRULES_PURE_PYTHON": "1"}
        argv = [sys.executable, __file__, "--seconds", str(args.seconds), "--repeat"]
        argv += [str(args.repeat), "--presets", args.presets, "--form", "this"]
        subprocess.run(argv, env=env, check=True)


if __name__ == "__main__":
    main()
