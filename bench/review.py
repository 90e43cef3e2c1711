"""How long ``moonrules review`` takes on a whole game.

Two games of ten hands: a three-player game (``examples/clean-game.json``: ten hands, the
first nine in the record's history and the last that ends the game) and a partnership
game of ten hands played by the basic bot from ``new_game("partnership", seed=SEED)``
(a game that ends sooner is followed by hands of the next seed until there are ten; each
game is reviewed on its own and the times added). Each game is reviewed as the command
line does (deals weighted by the calls, :func:`moonrules.bots.inference.inferred_worlds`)
with the default samples and ``--jobs`` (default 2), then double dummy only
(``--samples 0``, one job).

Targets (this 2-core machine, the compiled solver): a ten-hand game with the default
samples under 30 s with ``--jobs 2``; with ``--samples 0`` under 3 s; for both games.
Prints the wall clock, the CPU time of this process and its workers (on a shared machine
the wall clock grows with the others' load; the CPU time much less), the decisions
reviewed, the solver form and the load average before each run.

    python bench/review.py [--jobs 2] [--samples N] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import moonrules as m  # noqa: E402
from moonrules.analysis.review import SAMPLES, review  # noqa: E402
from moonrules.analysis.solver import COMPILED  # noqa: E402
from moonrules.bots.basic import BasicBot  # noqa: E402
from moonrules.bots.inference import inferred_worlds  # noqa: E402

TARGET_SAMPLES = 30.0
TARGET_DD = 3.0
HANDS = 10


def partnership_games(seed: int) -> list[m.GameState]:
    """Games of the basic bot under partnership rules, ten hands in all."""
    games = []
    left = HANDS
    bot = BasicBot()
    while left > 0:
        rng = random.Random(seed)
        s = m.new_game("partnership", seed=seed)
        while not s.is_over and len(s.history) < left:
            seat = s.to_act
            assert seat is not None
            s = m.apply(s, bot.act(m.view(s, seat), rng))
        games.append(s)
        left -= len(s.history) + (1 if s.is_over else 0)
        seed += 1
    return games


def hands_of(s: m.GameState) -> int:
    return len(s.history) + (1 if s.is_over or s.hand.calls else 0)


def cpu() -> float:
    """CPU seconds of this process and of its workers that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(name: str, games: list[m.GameState], samples: int, jobs: int) -> float:
    load = os.getloadavg()[0]
    start = time.perf_counter()
    spent = cpu()
    decisions = 0
    for g in games:
        r = review(g, samples=samples, jobs=jobs, seed=0, worlds=inferred_worlds)
        decisions += sum(len(h.decisions) for h in r.hands)
    took = time.perf_counter() - start
    spent = cpu() - spent
    target = TARGET_SAMPLES if samples else TARGET_DD
    hands = sum(hands_of(g) for g in games)
    verdict = "meets" if took < target else "MISSES"
    print(
        f"{name:<12} {hands:>2} hands {decisions:>4} decisions  samples {samples:>3}  "
        f"jobs {jobs}  {took:6.2f} s  cpu {spent:6.2f} s  load {load:4.2f}  "
        f"({verdict} the {target:g} s target)",
        flush=True,
    )
    return took


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--samples", type=int, default=SAMPLES)
    p.add_argument("--seed", type=int, default=0, help="the partnership games' first seed")
    args = p.parse_args()
    print(f"solver: {'compiled' if COMPILED else 'Python source'}; default samples {SAMPLES}")
    three = [m.read_record(str(ROOT / "examples" / "clean-game.json"))]
    four = partnership_games(args.seed)
    for name, games in (("three-player", three), ("partnership", four)):
        measure(name, games, 0, 1)
        measure(name, games, args.samples, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
