"""Bot benchmarks: decision times, and matches between the bots (figures, not timed tests).

    python bench/bots.py times [--rules standard] [--games 3] [--seed 0]
        Each bot's decision time (median, 95th percentile, max) by phase and overall, from
        games in which the bot plays against two (three) basic bots, seats rotated.
    python bench/bots.py match --bots strong,basic [--games 300] [--workers 2] [--seed 1]
                               [--rules standard] [--log FILE]
        The figures of ``moonrules match``; with --log each game's result is appended to FILE
        as it finishes (a JSON line), so that a long run can be read while it goes on.
    python bench/bots.py summary FILE [--rules standard]
        The figures of the games logged in FILE so far.
    python bench/bots.py calibrate [--rules standard] [--deals 300]
        Fit the coefficients of the basic bot's trick estimate to double-dummy results.

Run long matches with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attrs

from moonrules.bots.match import GameResult, HandResult, run_match
from moonrules.cli.match import lineup, report
from moonrules.rules.ruleset import as_rules


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, nearest rank."""
    k = max(0, min(len(sorted_values) - 1, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def times(args: argparse.Namespace) -> None:
    rules = as_rules(args.rules)
    print(f"decision times (s) against basic bots, {rules.name}, {args.games} games per bot")
    print("wall clock | CPU time of the process (the machine may be shared)")
    print(
        f"{'bot':<8} {'phase':<8} {'n':>5} {'median':>8} {'p95':>8} {'max':>8} |"
        f" {'median':>8} {'p95':>8} {'max':>8}"
    )
    for name in args.bots.split(","):
        names = (name,) + ("basic",) * (rules.players - 1)
        results = run_match(rules, names, args.games, seed=args.seed, timing=True)
        by: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        for g in results:
            for who, phase, wall, c in g.times:
                if who == name:
                    for key in (phase, "all"):
                        by[key].append(wall)
                        cpu[key].append(c)
        for phase in ("bidding", "discard", "trump", "play", "all"):
            ts = sorted(by.get(phase, []))
            cs = sorted(cpu.get(phase, []))
            if ts:
                print(
                    f"{name:<8} {phase:<8} {len(ts):>5} {statistics.median(ts):8.3f} "
                    f"{percentile(ts, 0.95):8.3f} {ts[-1]:8.3f} | {statistics.median(cs):8.3f} "
                    f"{percentile(cs, 0.95):8.3f} {cs[-1]:8.3f}"
                )


def _to_json(g: GameResult) -> str:
    d = attrs.asdict(g, recurse=True)
    d.pop("times")
    return json.dumps(d)


def _from_json(line: str) -> GameResult:
    d = json.loads(line)
    hands = tuple(
        HandResult(h["bidder"], h["bid"], h["made"], tuple(h["seat_points"])) for h in d["hands"]
    )
    return GameResult(d["index"], tuple(d["seats"]), d["winner"], tuple(d["scores"]), hands, ())


def match(args: argparse.Namespace) -> None:
    rules = as_rules(args.rules)
    names = lineup(args.bots, rules)
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    results: list[GameResult] = []

    start = time.perf_counter()

    def tick(done: int) -> None:
        pass

    if log is None:
        results = run_match(rules, names, args.games, seed=args.seed, workers=args.workers)
    else:
        # run in slices so that finished games reach the log while the match goes on
        from concurrent.futures import ProcessPoolExecutor

        from moonrules.bots.match import _GameJob, _play_job, bot_by_name, lineup_of

        jobs = [
            _GameJob(rules, args.seed, i, lineup_of(names, i), bot_by_name, 1000, False)
            for i in range(args.games)
        ]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for res in pool.map(_play_job, jobs, chunksize=1):
                results.append(res)
                log.write(_to_json(res) + "\n")
                log.flush()
        log.close()
    for line in report(rules, names, results, time.perf_counter() - start):
        print(line)


def summary(args: argparse.Namespace) -> None:
    rules = as_rules(args.rules)
    results = [_from_json(x) for x in Path(args.file).read_text().splitlines() if x.strip()]
    names = results[0].seats if results else ()
    for line in report(rules, tuple(names), results, 0.0):
        print(line)


def calibrate(args: argparse.Namespace) -> None:
    import random

    import numpy as np

    from moonrules import new_game
    from moonrules.analysis.solver import SolverCache, solve
    from moonrules.bots.basic import basic_discard, features
    from moonrules.bots.worlds import complete_contract

    rules = as_rules(args.rules)
    xs, ys = [], []
    for seed in range(args.deals):
        s = new_game(rules, seed, first_bidder=0)
        rng = random.Random(seed)
        for trump in rng.sample(list(rules.trumps), 2):
            p = complete_contract(s, 0, rules.min_bid, trump, basic_discard)
            held = p.hand.hands[0]
            outside = rules.tile_set.mask & ~held
            if rules.has_widow:
                outside &= ~(1 << p.hand.discard)
            xs.append((1, *features(held, trump.value, outside)))
            ys.append(solve(p, SolverCache()))
    x, y = np.array(xs, float), np.array(ys, float)
    c, *_ = np.linalg.lstsq(x, y, rcond=None)
    print(
        rules.name, tuple(round(float(v), 2) for v in c), "rmse", round(float((y - x @ c).std()), 2)
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("times")
    t.add_argument("--rules", default="standard")
    t.add_argument("--bots", default="random,basic,strong")
    t.add_argument("--games", type=int, default=3)
    t.add_argument("--seed", type=int, default=0)
    m = sub.add_parser("match")
    m.add_argument("--rules", default="standard")
    m.add_argument("--bots", default="strong,basic")
    m.add_argument("--games", type=int, default=300)
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--log")
    s = sub.add_parser("summary")
    s.add_argument("file")
    s.add_argument("--rules", default="standard")
    c = sub.add_parser("calibrate")
    c.add_argument("--rules", default="standard")
    c.add_argument("--deals", type=int, default=300)
    args = p.parse_args()
    {"times": times, "match": match, "summary": summary, "calibrate": calibrate}[args.cmd](args)


if __name__ == "__main__":
    main()
