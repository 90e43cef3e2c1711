"""How optimistic double-dummy numbers are: the bidder's tricks double dummy against
the tricks the bidder takes when bots that see only their own view play the hand.

For deal ``k`` of a seed (:func:`moonrules.game.seeded_deal`, as ``study`` deals),
seat 0 is the bidder, the trump is the one the basic estimate rates best for the
seat's seven dealt tiles, and the bidder takes the widow and discards by the rule
``advise`` and ``study`` use (:func:`moonrules.analysis.advise.bidder_state`). From
that opening lead the hand is then

- solved double dummy (:func:`moonrules.analysis.solver.solve`), and
- played out with a bot at every seat (default ``strong``), each seeing only its
  seat's view (:func:`moonrules.game.view`).

Prints the mean tricks each way, the mean difference with its 95% interval, and the
share of hands making 4 … 7 each way.

    python bench/dd_vs_play.py [--deals 200] [--seed 2026] [--bot strong] [--rules standard]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from moonrules import GameState, Phase, apply, view
from moonrules.analysis.advise import bidder_state
from moonrules.analysis.solver import SolverCache, solve
from moonrules.bots.basic import best_trumps
from moonrules.bots.match import bot_by_name
from moonrules.rules.ruleset import as_rules
from moonrules.study.rows import deal_masks


def played_tricks(state: GameState, bot_name: str, rng: random.Random) -> int:
    """The bidder's side's tricks when ``bot_name`` plays every seat from ``state``."""
    bots = [bot_by_name(bot_name) for _ in range(state.rules.players)]
    number = state.hand_number
    assert state.bidder is not None
    side = state.rules.side_of(state.bidder)
    while state.phase is Phase.PLAY and state.hand_number == number:
        seat = state.to_act
        assert seat is not None
        state = apply(state, bots[seat].act(view(state, seat), rng))
    done = state.history[-1] if state.hand_number != number else state.hand
    return sum(w for s, w in enumerate(done.tricks_won) if state.rules.side_of(s) == side)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--bot", default="strong")
    p.add_argument("--rules", default="standard")
    args = p.parse_args()
    rules = as_rules(args.rules)
    dd: list[int] = []
    play: list[int] = []
    start = time.perf_counter()
    for k in range(1, args.deals + 1):
        deal = deal_masks(rules, args.seed, k)
        trump = best_trumps(deal[0], rules)[0][1]
        state = bidder_state(rules, deal, 0, trump.value)
        dd.append(solve(state, SolverCache()))
        play.append(played_tricks(state, args.bot, random.Random(f"dd-vs-play/{args.seed}/{k}")))
    n = len(dd)
    diff = [a - b for a, b in zip(dd, play, strict=True)]
    mean = statistics.mean(diff)
    half = 1.959963984540054 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else math.nan
    print(
        f"{n} deals of {args.rules} (seed {args.seed}), bidder seat 0 with the basic estimate's "
        f"best trump; play by {args.bot!r} at every seat; {time.perf_counter() - start:.0f} s"
    )
    print(f"mean tricks: double dummy {statistics.mean(dd):.2f}, ", end="")
    print(f"played {statistics.mean(play):.2f}")
    print(f"double dummy minus played: {mean:+.2f} tricks (95% interval ±{half:.2f})")
    print(
        "hands where double dummy is higher / equal / lower: "
        f"{sum(d > 0 for d in diff)} / {sum(d == 0 for d in diff)} / {sum(d < 0 for d in diff)}"
    )
    for b in (4, 5, 6, 7):
        a = sum(x >= b for x in dd) / n
        c = sum(x >= b for x in play) / n
        print(f"P(make {b}): double dummy {100 * a:.0f}%, played {100 * c:.0f}%")


if __name__ == "__main__":
    main()
