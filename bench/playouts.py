"""Complete random hands per second through the public API, per preset.

Plays seeded games between uniformly random players with ``new_game``,
``legal_actions`` and ``apply`` only, and counts hands played out (deal,
auction, widow, trump, every play, scoring); thrown-in hands are counted
separately and their time is included.

    python bench/playouts.py [--seconds 2] [--repeat 3] [--warmup 1] [--presets standard,...]

Before measuring, it plays for ``--warmup`` seconds untimed, so the first preset
measured does not pay for the interpreter's and allocator's warm-up. Each preset
is measured ``--repeat`` times over the same games; the best run is the figure
least disturbed by other work on the machine, and the median is printed beside it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules
from moonrules import apply, legal_actions, new_game


def measure(preset: str, seconds: float) -> tuple[int, int, float, float]:
    """(hands played out, hands thrown in, elapsed seconds, CPU seconds of this process)."""
    draw = random.Random(12345).random  # a uniform random player: one float per action
    played = thrown = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed += 1
        state = new_game(preset, seed=seed)
        hands_left = 50  # cap long random games so each run samples many deals
        game = state.game  # replaced by a new Game exactly when a hand ends
        while hands_left and game.winner is None:
            actions = legal_actions(state)
            state = apply(state, actions[int(draw() * len(actions))])
            if state.game is not game:
                game = state.game
                done = state.hand if game.winner is not None else game.history[-1]
                if done.thrown_in:
                    thrown += 1
                else:
                    played += 1
                hands_left -= 1
    return played, thrown, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--presets", default=",".join(moonrules.PRESETS))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
    print(
        f"hands/s per wall-clock second, best and median of {args.repeat} runs of "
        f"{args.seconds:g} s; hands/cpu-s: the best run per second of this process's CPU time"
    )
    print(
        f"{'preset':<20} {'best':>9} {'median':>9} {'hands/cpu-s':>12} {'played':>8} "
        f"{'thrown in':>10}"
    )
    measure(args.presets.split(",")[0], args.warmup)
    for preset in args.presets.split(","):
        runs = sorted(
            (measure(preset, args.seconds) for _ in range(args.repeat)),
            key=lambda r: r[0] / r[2],
        )
        played, thrown, elapsed, cpu = runs[-1]
        median = runs[len(runs) // 2]
        print(
            f"{preset:<20} {played / elapsed:>9.0f} {median[0] / median[2]:>9.0f} "
            f"{played / cpu:>12.0f} {played:>8} {thrown:>10}"
        )


if __name__ == "__main__":
    main()
