"""Bot benchmarks: decision times, and matches between the bots (figures, not timed tests).

    python bench/bots.py times [--bots basic,strong] [--rules standard] [--games 3] [--seed 0]
                               [--results]
        Each bot's decision time (median, 95th percentile, max) by phase and overall, from
        games in which the bot plays against two (three) basic bots, seats rotated; with
        --results also the figures of those games (the bot's win rate against basic).
    python bench/bots.py match --bots strong,basic [--games 300] [--workers 2] [--seed 1]
                               [--rules standard] [--log FILE]
        The figures of ``moonrules match``; with --log each game's result is appended to FILE
        as it finishes (a JSON line), so that a long run can be read while it goes on.
    python bench/bots.py summary FILE [FILE ...] [--rules standard]
        The figures of the games logged in the FILEs so far.
    python bench/bots.py pool FILE [FILE ...] [--rules standard]
        The figures of several duplicate runs together, from their --log files (each run's
        deals its own: runs of other seeds, pooled), with the decision times of --timing.
    python bench/bots.py pool-compare --bot learned OLD:NEW [OLD:NEW ...] [--rules standard]
        Two versions of a bot on the same deals: each pair of duplicate logs of one seed (the
        old version's, the new one's), each deal's figure (the bot's points a hand less the
        others' in that deal) differenced deal by deal, with the 95% interval of the mean
        difference; deals missing from either log are left out.
    python bench/bots.py duplicate --bots strong,pimc [--deals 1000] [--rules standard]
                                   [--workers 2] [--seed 1] [--timing] [--log FILE]
        A duplicate match (``moonrules match --duplicate``) between bots that may carry
        options (``strong/inference=0``, ``pimc/bid_samples=48``: fields of StrongBot or
        PimcBot); with --timing each bot's decision times too.
    python bench/bots.py auctions --bots strong,pimc [--deals 1000] [--rules standard]
        A duplicate match of the auction, discard and trump alone, each contract then scored
        by its double-dummy tricks (the defenders' shared evenly), for comparing ways of
        bidding: it does not measure the play.
    python bench/bots.py targets [--bot strong] [--deals 1000] [--partnership-deals 300]
                                 [--games 300] [--basic-games 300] [--workers 2] [--seed 1]
        The strong bot against its targets: duplicate against pimc (three players, then
        partnership), whole games against two pimc and against two basic, decision times;
        each block headed by the command that measures it alone, then met / NOT met.
    python bench/bots.py cheat [--deals 200] [--seed 1] [--workers 2] [--strong-deals 60]
                               [--log FILE] [--only all,auction,...]
        Where the points are: a diagnostic pimc that is told hidden tiles (SeeingPimc,
        bench-only: no level, no name in the bots' table) against pimc, duplicate on hand 1
        of seeded standard deals: told everything everywhere, only in the auction, discard
        and trump, only in the play, only the widow, only the trumps; each by role; and
        how often strong decides otherwise than pimc in pimc's games. With --log each hand
        is appended as it finishes; ``cheat --from-log FILE`` prints the figures so far.
    python bench/bots.py model-data --out FILE [--rules standard] [--play]; model-fit FILE
        Calls, trumps and hand results of pimc bots, and the fit of the call model to them.
    python bench/bots.py calibrate [--rules standard] [--deals 300]
        Fit the coefficients of the basic bot's trick estimate to double-dummy results.

Every command ends with a closing note, the command line that printed its figures.

Run long matches with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attrs

from moonrules.bots.base import Bot, Knowledge, knowledge
from moonrules.bots.basic import best_trumps
from moonrules.bots.match import (
    DuplicateHand,
    GameResult,
    HandResult,
    interval_text,
    run_match,
)
from moonrules.bots.pimc import PimcBot
from moonrules.bots.sampled import Budget
from moonrules.bots.sampling import Sampler
from moonrules.bots.strong import StrongBot
from moonrules.bots.worlds import world
from moonrules.cli.match import lineup, report
from moonrules.game import GameState, PlayerView
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.suits import is_trump
from moonrules.rules.tiles import TILES, mask_of


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
        start = time.perf_counter()
        results = run_match(
            rules,
            names,
            args.games,
            seed=args.seed,
            timing=True,
            factory=variant_bot,
            progress=lambda k: print(f"{k} games", file=sys.stderr, flush=True),
        )
        if args.results:
            for line in report(rules, names, results, time.perf_counter() - start):
                print("  " + line)
        by: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        for g in results:
            for who, phase, wall, c in g.times:
                if who == name.split("/")[0]:
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
    variants = "/" in args.bots
    names = seating(args.bots, rules) if variants else lineup(args.bots, rules)
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    results: list[GameResult] = []

    start = time.perf_counter()

    def tick(done: int) -> None:
        pass

    if log is None and not variants:
        results = run_match(rules, names, args.games, seed=args.seed, workers=args.workers)
    else:
        # run in slices so that finished games reach the log while the match goes on
        from concurrent.futures import ProcessPoolExecutor

        from moonrules.bots.match import _GameJob, _play_job, bot_by_name, lineup_of

        jobs = [
            _GameJob(
                rules,
                args.seed,
                i,
                lineup_of(names, i),
                variant_bot if variants else bot_by_name,
                1000,
                False,
            )
            for i in range(args.games)
        ]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for res in pool.map(_play_job, jobs, chunksize=1):
                results.append(res)
                if log is not None:
                    log.write(_to_json(res) + "\n")
                    log.flush()
        if log is not None:
            log.close()
    for line in report(rules, names, results, time.perf_counter() - start):
        print(line)


def variant_bot(name: str):  # type: ignore[no-untyped-def]
    """A bot by name, or a strong, pimc or learned bot with other parameters:
    ``strong/inference=0/samples=32``, ``learned/late_calls=models`` (the fields of
    StrongBot, PimcBot or LearnedBot)."""
    from moonrules.bots.learned import LearnedBot
    from moonrules.bots.match import bot_by_name
    from moonrules.bots.pimc import PimcBot
    from moonrules.bots.strong import StrongBot

    base, *changes = name.split("/")
    if not changes:
        return bot_by_name(base)
    kinds = {"strong": StrongBot, "pimc": PimcBot, "learned": LearnedBot}
    kind: Any = kinds[base]
    fields = {f.name: f for f in attrs.fields(kind)}
    values: dict[str, object] = {}
    for change in changes:
        key, _, text = change.partition("=")
        default = fields[key].default
        if isinstance(default, bool):
            values[key] = text.lower() in ("1", "true", "yes")
        elif isinstance(default, str):
            values[key] = text
        elif isinstance(default, int) and not isinstance(default, bool):
            values[key] = None if text == "none" else int(text)
        else:
            values[key] = None if text == "none" else float(text)
    return kind(**values)


def seating(bots: str, rules: RuleSet) -> list[str]:
    """The bot at each seat from ``--bots`` (names that may carry options, as
    :func:`variant_bot` reads them): two names seat the first once and the second at the
    other seats (with partners, each at both seats of a team); else one name per seat."""
    names = [n.strip() for n in bots.split(",")]
    if len(names) != 2:
        return names
    first, other = names
    return [first, other, first, other] if rules.partnership else [first, other, other]


def _duplicate_hand(line: str, offset: int) -> DuplicateHand:
    """A hand of a duplicate log (``--log``), its deal numbered from ``offset``."""
    d = json.loads(line)
    h = d["hand"]
    result = HandResult(h["bidder"], h["bid"], h["made"], tuple(h["seat_points"]))
    times = tuple((w, p, float(wall), float(cpu)) for w, p, wall, cpu in d["times"])
    return DuplicateHand(offset + d["index"], d["arrangement"], tuple(d["seats"]), result, times)


def _print_times(hands: list[DuplicateHand]) -> None:
    """Each bot's CPU time a decision, from hands played with ``--timing``."""
    by: dict[str, list[float]] = defaultdict(list)
    for h in hands:
        for who, _phase, _wall, cpu in h.times:
            by[who].append(cpu)
    for who, ts in by.items():
        ts.sort()
        print(
            f"{who}: {len(ts)} decisions, CPU median {statistics.median(ts):.3f} s, "
            f"p95 {percentile(ts, 0.95):.3f} s, max {ts[-1]:.3f} s, "
            f"mean {sum(ts) / len(ts):.3f} s"
        )


def pool(args: argparse.Namespace) -> None:
    """The figures of several duplicate runs' logs together, each run's deals its own (runs
    of other seeds deal other tiles, so the deals of the pool are independent)."""
    from moonrules.bots.match import duplicate_summary
    from moonrules.cli.match import duplicate_report

    rules = as_rules(args.rules)
    hands: list[DuplicateHand] = []
    for k, path in enumerate(args.files):
        try:
            lines = Path(path).read_text().splitlines()
        except OSError as e:
            raise SystemExit(f"pool: cannot read {path}: {e.strerror}") from None
        hands.extend(_duplicate_hand(x, k * 1_000_000) for x in lines if x.strip())
    if not hands:
        raise SystemExit("pool: the logs hold no hands")
    names = list(hands[0].seats)
    summary = duplicate_summary(rules, hands)
    head, *rest = duplicate_report(rules, names, summary, 0.0)
    print(head.rpartition(";")[0] + f"; pooled from {len(args.files)} runs")
    for line in rest:
        print(line)
    _print_times(hands)


def _per_deal(rules: RuleSet, path: str, bot: str) -> dict[int, float]:
    """Each deal's figure of ``bot`` in a duplicate log: its points a hand less the other
    bots' (the pair's difference of :func:`~moonrules.bots.match.duplicate_summary`)."""
    from moonrules.bots.match import duplicate_summary

    by: dict[int, list[DuplicateHand]] = defaultdict(list)
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise SystemExit(f"pool-compare: cannot read {path}: {e.strerror}") from None
    for line in text.splitlines():
        if line.strip():
            hand = _duplicate_hand(line, 0)
            by[hand.index].append(hand)
    out = {}
    for index, hands in by.items():
        (diff,) = [
            d for d in duplicate_summary(rules, hands).differences if bot in (d.first, d.second)
        ]
        out[index] = diff.mean if diff.first == bot else -diff.mean
    return out


def pool_compare(args: argparse.Namespace) -> None:
    rules = as_rules(args.rules)
    diffs: list[float] = []
    for pair in args.pairs:
        old, sep, new = pair.partition(":")
        if not sep:
            raise SystemExit(f"pool-compare: {pair!r}: give OLD:NEW")
        a, b = _per_deal(rules, old, args.bot), _per_deal(rules, new, args.bot)
        diffs.extend(b[i] - a[i] for i in sorted(a) if i in b)
    if len(diffs) < 2:
        raise SystemExit("pool-compare: fewer than two deals in both logs")
    changed = sum(1 for d in diffs if d != 0)
    print(
        f"{args.bot}, new less old: {interval_text(diffs)} points "
        f"a hand over {len(diffs)} deals ({changed} of them played otherwise), "
        f"from {len(args.pairs)} pairs of logs"
    )


def duplicate(args: argparse.Namespace) -> None:
    from moonrules.bots.match import duplicate_summary, run_duplicate
    from moonrules.cli.match import duplicate_report

    rules = as_rules(args.rules)
    names = seating(args.bots, rules)
    for n in names:
        variant_bot(n)
    start = time.perf_counter()
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    done = [0]

    def tick(k: int) -> None:
        done[0] = k
        if k % 30 == 0:
            print(f"{k} hands, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    hands = run_duplicate(
        rules,
        names,
        args.deals,
        seed=args.seed,
        workers=args.workers,
        factory=variant_bot,
        progress=tick,
        timing=args.timing,
    )
    if log is not None:
        for h in hands:
            d = attrs.asdict(h, recurse=True)
            log.write(json.dumps(d) + "\n")
        log.close()
    summary = duplicate_summary(rules, hands)
    for line in duplicate_report(rules, names, summary, time.perf_counter() - start):
        print(line)
    if args.timing:
        _print_times(hands)


def _auction_hand(job: tuple[str, tuple[str, ...], int, int, int]):  # type: ignore[no-untyped-def]
    """One deal's auction, discard and trump by the bots seated, the hand then scored by the
    double-dummy tricks of the contract (the defenders' tricks shared evenly)."""
    import random

    from moonrules.analysis.solver import solve
    from moonrules.bots.match import DuplicateHand, HandResult, deal_seed
    from moonrules.game import Phase, apply, new_game, view

    preset, seats, seed, index, arrangement = job
    rules = as_rules(preset)
    bots = [variant_bot(n) for n in seats]
    rngs = [
        random.Random(f"moonrules/duplicate/{seed}/{index}/{s}/{n}") for s, n in enumerate(seats)
    ]
    state = new_game(rules, deal_seed(seed, index))
    n = rules.players
    while state.phase is not Phase.PLAY and state.hand_number == 1 and not state.is_over:
        seat = state.to_act
        state = apply(state, bots[seat].act(view(state, seat), rngs[seat]))
    if state.hand_number != 1 or state.phase is not Phase.PLAY:
        return DuplicateHand(index, arrangement, seats, HandResult(-1, 0, False, (0,) * n))
    bidder, bid = state.bidder, state.bid
    t = solve(state)
    need = 7 if bid == 21 else bid
    made = t >= need
    side = rules.side_of(bidder)
    others = [s for s in range(n) if rules.side_of(s) != side]
    pts = []
    for s in range(n):
        if rules.side_of(s) == side:
            pts.append(bid if made else -bid)
        else:
            pts.append((7 - t) / (1 if rules.partnership else len(others)))
    return DuplicateHand(index, arrangement, seats, HandResult(bidder, bid, made, tuple(pts)))


def auctions(args: argparse.Namespace) -> None:
    """A duplicate match of the auction, discard and trump only, each contract scored double
    dummy, for comparing ways of bidding (the play is not measured)."""
    from concurrent.futures import ProcessPoolExecutor

    from moonrules.bots.match import arrangements, duplicate_summary
    from moonrules.cli.match import duplicate_report

    rules = as_rules(args.rules)
    names = seating(args.bots, rules)
    seatings = arrangements(rules, names)
    jobs = [
        (args.rules, seating, args.seed, i, k)
        for i in range(args.deals)
        for k, seating in enumerate(seatings)
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        hands = list(pool.map(_auction_hand, jobs, chunksize=4))
    if args.log:
        with open(args.log, "a") as log:
            for h in hands:
                log.write(json.dumps(attrs.asdict(h, recurse=True)) + "\n")
    summary = duplicate_summary(rules, hands)
    for line in duplicate_report(rules, names, summary, time.perf_counter() - start):
        print(line)


def _closing(args: argparse.Namespace) -> None:
    """The closing note: the command that printed these figures."""
    print("command: python bench/bots.py " + " ".join(shlex.quote(a) for a in sys.argv[1:]))


def targets(args: argparse.Namespace) -> None:
    """The strong bot against the targets it was built for, each measured by a command of
    its own (printed with its figures): duplicate deals against ``pimc`` (three players and
    partnership), whole games against two ``pimc`` and against two ``basic``, and the
    decision times of those last games."""
    from moonrules.bots.match import duplicate_summary, run_duplicate, summarize
    from moonrules.cli.match import duplicate_report

    bot = args.bot
    w = args.workers
    checks: list[str] = []

    def note(what: str, ok: bool, figure: str) -> None:
        checks.append(f"  {'met    ' if ok else 'NOT met'}  {what}: {figure}")

    for preset, deals in (("standard", args.deals), ("partnership", args.partnership_deals)):
        if deals <= 0:
            continue
        rules = as_rules(preset)
        names = seating(f"{bot},pimc", rules)
        command = (
            f"python bench/bots.py duplicate --bots {bot},pimc --rules {preset} "
            f"--deals {deals} --workers {w} --seed {args.seed}"
        )
        print(f"== {command}", flush=True)
        start = time.perf_counter()
        hands = run_duplicate(rules, names, deals, seed=args.seed, workers=w, factory=variant_bot)
        summary = duplicate_summary(rules, hands)
        for line in duplicate_report(rules, names, summary, time.perf_counter() - start):
            print(line)
        d = summary.differences[0]
        figure = f"{d.mean:+.3f} [{d.ci[0]:+.2f}, {d.ci[1]:+.2f}] over {d.deals} deals"
        if preset == "standard":
            ok = d.mean >= 0.25 and d.ci[0] > 0 and deals >= 1000
            note("duplicate vs pimc >= +0.25 a hand, interval above 0, 1,000 deals", ok, figure)
        else:
            note("partnership duplicate vs pimc (no target; reported)", True, figure)
    rules = as_rules("standard")
    for others, games, goal in (("pimc", args.games, 0.40), ("basic", args.basic_games, 0.70)):
        if games <= 0:
            continue
        names = [bot, others, others]
        timing = others == "basic"
        command = (
            f"python bench/bots.py times --bots {bot} --games {games} --results"
            if timing
            else f"moonrules match --bots {bot},{others} --games {games} --workers {w} "
            f"--seed {args.seed}"
        )
        print(f"== {command}", flush=True)
        start = time.perf_counter()
        results = run_match(
            rules,
            names,
            games,
            seed=args.seed if not timing else 0,
            workers=1 if timing else w,
            factory=variant_bot,
            timing=timing,
        )
        for line in report(rules, names, results, time.perf_counter() - start):
            print(line)
        mine = summarize(rules, results)[0]
        figure = (
            f"{100 * mine.win_rate:.1f}% [{100 * mine.win_ci[0]:.1f}, "
            f"{100 * mine.win_ci[1]:.1f}] over {mine.games} games"
        )
        enough = games >= 300
        note(
            f"win rate vs two {others} >= {100 * goal:.0f}%, 300 games",
            mine.win_rate >= goal and enough,
            figure,
        )
        if timing:
            kind = bot.split("/")[0]  # a decision is timed under the bot's class name
            cpu = sorted(c for g in results for who, _p, _w, c in g.times if who == kind)
            if cpu:
                med, p95 = statistics.median(cpu), percentile(cpu, 0.95)
                print(f"{bot}: {len(cpu)} decisions, CPU median {med:.3f} s, p95 {p95:.3f} s")
                note(
                    "decision time median < 0.3 s, p95 < 1 s (CPU)",
                    med < 0.3 and p95 < 1.0,
                    f"median {med:.3f} s, p95 {p95:.3f} s over {len(cpu)} decisions",
                )
    print("targets (a target run at fewer deals or games than it asks is not met):")
    for line in checks:
        print(line)


def summary(args: argparse.Namespace) -> None:
    rules = as_rules(args.rules)
    results = [
        _from_json(x) for f in args.file for x in Path(f).read_text().splitlines() if x.strip()
    ]
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


# ---------------------------------------------------------------------------
# Data for the strong bot's models of the other seats


def _model_deal(job: tuple[str, str, int, bool]) -> list[dict[str, object]]:
    """One deal played by the bot named at every seat: each call with the caller's hand
    estimate, each trump named with the estimate of every trump, and (with play) the hand's
    outcome relative to the first bidder."""
    import random

    from moonrules import new_game
    from moonrules.bots.basic import best_trumps, estimate_tricks
    from moonrules.bots.match import _hand_result, bot_by_name, play_game
    from moonrules.game import Bid, NameTrump, Pass
    from moonrules.rules.tiles import mask_of

    preset, bot, seed, play = job
    rules = as_rules(preset)
    rows: list[dict[str, object]] = []
    start = new_game(rules, seed)
    dealt = start.hand.hands

    def seen(state, seat, action) -> None:  # type: ignore[no-untyped-def]
        if isinstance(action, Pass | Bid):
            high = max((c for c in state.hand.calls), default=0)
            calls = state.hand.calls
            legal_pass = calls.count(0) < rules.players - 1 or rules.all_pass.value == "redeal"
            rows.append(
                {
                    "kind": "call",
                    "est": best_trumps(dealt[seat], rules)[0][0],
                    "high": high,
                    "position": len(state.hand.calls),
                    "forced": not legal_pass,
                    "call": action.amount if isinstance(action, Bid) else 0,
                }
            )
        elif isinstance(action, NameTrump):
            held = state.hand.hands[seat]
            rows.append(
                {
                    "kind": "trump",
                    "ests": [estimate_tricks(held, t, rules) for t in rules.trumps],
                    "chosen": list(rules.trumps).index(action.trump),
                    "gain": best_trumps(held, rules)[0][0] - best_trumps(dealt[seat], rules)[0][0],
                    "tiles": mask_of(()) + held.bit_count(),
                }
            )

    names = [bot] * rules.players
    bots = [bot_by_name(n) for n in names]
    rngs = [random.Random(f"model/{seed}/{s}") for s in range(rules.players)]
    if play:
        state, _ = play_game(rules, seed, bots, rngs, max_hands=1, on_action=seen)
        h = _hand_result(state, 1)
        first = start.hand.first_bidder
        n = rules.players
        rows.append(
            {
                "kind": "outcome",
                "bidder": -1 if h.bidder < 0 else (h.bidder - first) % n,
                "bid": h.bid,
                "made": h.made,
                "points": [h.seat_points[(first + k) % n] for k in range(n)],
            }
        )
    else:
        state = start
        while state.phase.value in ("bidding", "discard", "trump") and state.hand_number == 1:
            seat = state.to_act
            from moonrules.game import apply, view

            action = bots[seat].act(view(state, seat), rngs[seat])
            seen(state, seat, action)
            state = apply(state, action)
    return rows


def model_data(args: argparse.Namespace) -> None:
    from concurrent.futures import ProcessPoolExecutor

    jobs = [(args.rules, args.bot, args.seed * 1_000_000 + i, args.play) for i in range(args.deals)]
    with open(args.out, "a") as out, ProcessPoolExecutor(max_workers=args.workers) as pool:
        for k, rows in enumerate(pool.map(_model_deal, jobs, chunksize=4), 1):
            for row in rows:
                out.write(json.dumps(row) + "\n")
            if k % 200 == 0:
                out.flush()
                print(f"{k}/{args.deals} deals", file=sys.stderr, flush=True)


def _nelder_mead(f, x0, step=0.3, iters=400):  # type: ignore[no-untyped-def]
    """Minimise ``f`` from ``x0`` (a small Nelder-Mead, without scipy)."""
    import numpy as np

    n = len(x0)
    pts = [np.array(x0, float)] + [np.array(x0, float) + step * np.eye(n)[i] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = np.argsort(vals)
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        centre = sum(pts[:-1]) / n
        r = centre + (centre - pts[-1])
        fr = f(r)
        if fr < vals[0]:
            e = centre + 2 * (centre - pts[-1])
            fe = f(e)
            pts[-1], vals[-1] = (e, fe) if fe < fr else (r, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = r, fr
        else:
            c = centre + 0.5 * (pts[-1] - centre)
            fc = f(c)
            if fc < vals[-1]:
                pts[-1], vals[-1] = c, fc
            else:
                pts = [pts[0] + 0.5 * (p - pts[0]) for p in pts]
                vals = [f(p) for p in pts]
    best = int(np.argmin(vals))
    return pts[best], vals[best]


def model_fit(args: argparse.Namespace) -> None:
    """Fit the call and trump models and the table of hand results to model-data rows."""
    import math
    from collections import Counter

    from moonrules.bots.inference import open_calls
    from moonrules.bots.model import CallModel, call_chances

    rules = as_rules(args.rules)
    rows = [json.loads(x) for x in Path(args.file).read_text().splitlines() if x.strip()]
    calls = [r for r in rows if r["kind"] == "call" and not r["forced"]]
    trumps = [r for r in rows if r["kind"] == "trump"]
    outcomes = [r for r in rows if r["kind"] == "outcome"]
    prefixes = []
    for r in calls:
        # the calls before this one: the highest is all the model reads
        prefixes.append((0,) * 0 + ((r["high"],) if r["high"] else ()))

    def nll(x) -> float:  # type: ignore[no-untyped-def]
        if x[2] <= 0 or x[3] < 0 or x[5] <= 0 or x[6] < 0:
            return 1e9
        m = CallModel(*(float(v) for v in x))
        total = 0.0
        for r, before in zip(calls, prefixes, strict=True):
            legal = open_calls(rules, before)
            p = call_chances(rules, r["est"], r["high"], legal, m).get(r["call"], 1e-9)
            total -= math.log(p)
        return total

    x0 = [4.6, 0.9, 2.0, 0.3, 8.5, 1.4, 0.3]
    if not rules.partnership:
        x0 = [2.9, 1.2, 2.6, 0.2, 9.0, 0.7, 0.3]
    x, v = _nelder_mead(nll, x0)
    print(f"calls: {len(calls)}, nll {v:.1f} (start {nll(x0):.1f})")
    print("CallModel(" + ", ".join(f"{float(t):.3g}" for t in x) + ")")
    if trumps:

        def tnll(beta: float) -> float:
            total = 0.0
            for r in trumps:
                top = max(r["ests"])
                ws = [math.exp(beta * (e - top)) for e in r["ests"]]
                total -= math.log(ws[r["chosen"]] / sum(ws))
            return total

        beta = min((b / 10 for b in range(1, 100)), key=tnll)
        gain = sum(r["gain"] for r in trumps) / len(trumps)
        print(f"trumps: {len(trumps)}, sharpness {beta:.1f}, widow gain {gain:.2f}")
    if outcomes:
        table = Counter((r["bidder"], r["bid"], r["made"], tuple(r["points"])) for r in outcomes)
        print(f"outcomes: {len(outcomes)}")
        print(
            "("
            + " ".join(
                f"({c}, {b}, {bid}, {made}, {pts}),"
                for (b, bid, made, pts), c in sorted(table.items(), key=lambda kv: -kv[1])
            )
            + ")"
        )


# ---------------------------------------------------------------------------
# Where the points are: a pimc that is told the hidden tiles (a diagnostic, never a level)

AUCTION_PHASES = frozenset({"bidding", "discard", "trump"})
CHEATS: dict[str, tuple[frozenset[str], str, str]] = {
    "all": (AUCTION_PHASES | {"play"}, "all", "every tile, in every phase"),
    "auction": (AUCTION_PHASES, "all", "every tile, in the auction, discard and trump only"),
    "play": (frozenset({"play"}), "all", "every tile, in the play only"),
    "widow": (AUCTION_PHASES, "widow", "the widow only, in the auction, discard and trump"),
    "trumps": (
        AUCTION_PHASES,
        "trumps",
        "where the others' tiles of the trumps it weighs lie (the widow too if one is), "
        "in the auction, discard and trump",
    ),
}
"""The diagnostic's variants: (the phases in which it is told, what it is told, what that is)."""


@attrs.frozen(slots=True)
class SeeingPimc(PimcBot):
    """DIAGNOSTIC ONLY, not a player: ``pimc`` that, in ``phases``, is told where some hidden
    tiles lie (``learns``: ``all`` every tile, so that the true deal is its one world;
    ``widow`` the widow; ``trumps`` the tiles of the trumps it weighs), read from the true
    state the bench puts in ``truth`` before each of its decisions. The rest is drawn as
    pimc draws it, uniformly among the deals consistent with the view and what it was told.
    Made only by ``bench/bots.py cheat``: it is in no table of bots (``BOTS``, the table's
    levels) and no command line of the package can seat it."""

    phases: frozenset[str] = frozenset()
    learns: str = "all"
    truth: list[GameState] = attrs.field(factory=list, eq=False)

    def _told(self, view: PlayerView, know: Knowledge, state: GameState) -> int:
        """The mask of the unseen tiles whose place the bot is told."""
        if self.learns == "all":
            return know.unseen
        if self.learns == "widow":
            w = state.hand.widow
            return (1 << w) & know.unseen if w >= 0 else 0
        if view.trump is not None:
            trumps = [view.trump]
        else:
            ranked = best_trumps(mask_of(view.hand), view.rules, know.unseen)
            trumps = [t for _, t in ranked[: self.candidates]]
        told = 0
        for i, tile in enumerate(TILES):
            if any(is_trump(tile, t) for t in trumps):
                told |= 1 << i
        return told & know.unseen

    def _states(self, view: PlayerView, rng: random.Random, budget: Budget) -> Iterator[GameState]:
        if view.phase.value not in self.phases or not self.truth:
            yield from PimcBot._states(self, view, rng, budget)
            return
        state = self.truth[0]
        know = knowledge(view)
        true_hands = [
            0 if s == view.seat else state.hand.hands[s] & know.unseen for s in range(view.players)
        ]
        true_extra = know.unseen
        for h in true_hands:
            true_extra &= ~h
        told = self._told(view, know, state)
        rest = attrs.evolve(
            know,
            unseen=know.unseen & ~told,
            counts=tuple(c - (true_hands[s] & told).bit_count() for s, c in enumerate(know.counts)),
            extra=know.extra - (true_extra & told).bit_count(),
        )
        sampler = Sampler(rest)
        done = 0
        while budget.more(done):
            hands, extra = sampler.draw(rng)
            hands = tuple(h | (t & told) for h, t in zip(hands, true_hands, strict=True))
            yield world(view, know, hands, extra | (true_extra & told))
            done += 1
            if sampler.count == 1:
                return


def _diagnostic_bot(name: str) -> Bot:
    """``pimc``, ``strong``, or ``see/VARIANT`` (a SeeingPimc of :data:`CHEATS`)."""
    if name == "pimc":
        return PimcBot()
    if name == "strong":
        return StrongBot()
    phases, learns, _ = CHEATS[name.removeprefix("see/")]
    return SeeingPimc(phases=phases, learns=learns)


def _cheat_hand(job: tuple[str, int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """One duplicate hand (deal ``index`` of ``seed``, hand 1) with the bots seated; the bots'
    generators are those of ``bench/bots.py duplicate`` (a pimc draws the same numbers as
    in a duplicate match of the same seed). With ``seats`` all pimc and ``--strong-deals``,
    each choice a pimc makes is also put to ``strong`` (its own generator), and whether
    they differ is kept by phase."""
    import random

    from moonrules.bots.base import view_legal_actions
    from moonrules.bots.match import _hand_result, deal_seed
    from moonrules.game import apply, legal_actions, new_game, view

    preset, seed, index, arrangement, lineup = job
    rules = as_rules(preset)
    compare = lineup[-1] == "+strong"
    seats = lineup[:-1] if compare else lineup
    bots = [_diagnostic_bot(n) for n in seats]
    strong = _diagnostic_bot("strong") if compare else None
    rngs = [
        random.Random(f"moonrules/duplicate/{seed}/{index}/{s}/{n}") for s, n in enumerate(seats)
    ]
    state = new_game(rules, deal_seed(seed, index))
    differ: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    k = 0
    while not state.is_over and state.hand_number <= 1:
        seat = state.to_act
        assert seat is not None
        v = view(state, seat)
        bot = bots[seat]
        if isinstance(bot, SeeingPimc):
            bot.truth[:] = [state]
        action = bot.act(v, rngs[seat])
        if strong is not None and len(view_legal_actions(v)) > 1:
            other = strong.act(v, random.Random(f"cheat/strong/{seed}/{index}/{k}"))
            differ[v.phase.value][0] += 1
            differ[v.phase.value][1] += other != action
        if action not in legal_actions(state):
            raise ValueError(f"{seats[seat]} at seat {seat} chose {action}, not legal")
        state = apply(state, action)
        k += 1
    hand = _hand_result(state, 1)
    return {
        "index": index,
        "arrangement": arrangement,
        "seats": list(seats),
        "hand": attrs.asdict(hand),
        "differ": dict(differ),
    }


def _cheat_figures(rows: list[dict[str, Any]]) -> list[str]:
    """The table of the diagnosis from its hands (a log read so far, or a finished run)."""
    from moonrules.bots.match import duplicate_summary, wilson

    rules = as_rules("standard")
    lines = [
        f"{'told':<8} {'deals':>5} {'gain a hand (95% CI)':<24} {'as bidder':<24} "
        f"{'as defender':<24} {'bid % see/pimc':>14}"
    ]
    by: dict[str, list[DuplicateHand]] = defaultdict(list)
    differ: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        seats: tuple[str, ...] = tuple(r["seats"])
        h = r["hand"]
        hand = HandResult(h["bidder"], h["bid"], h["made"], tuple(h["seat_points"]))
        cheat = next((n for n in seats if n.startswith("see/")), None)
        if cheat is not None:
            by[cheat].append(DuplicateHand(r["index"], r["arrangement"], seats, hand))
        for phase, (n, d) in r["differ"].items():
            differ[phase][0] += n
            differ[phase][1] += d

    def ci(m: float, c: tuple[float, float]) -> str:
        return f"{m:+.2f} [{c[0]:+.2f}, {c[1]:+.2f}]"

    for variant in CHEATS:
        hands = by.get("see/" + variant)
        if not hands:
            continue
        s = duplicate_summary(rules, hands)
        d = s.differences[0]
        share = {b.name: 100 * b.bid_share for b in s.bots}
        lines.append(
            f"{variant:<8} {d.deals:>5} {ci(d.mean, d.ci):<24} {ci(d.bidding, d.bidding_ci):<24} "
            f"{ci(d.defending, d.defending_ci):<24} "
            f"{share['see/' + variant]:6.1f}/{share['pimc']:<6.1f}"
        )
    for variant, (_, _, what) in CHEATS.items():
        lines.append(f"  {variant}: told {what}")
    if differ:
        lines.append("decisions where strong would choose otherwise than pimc (pimc's games):")
        total = [0, 0]
        for phase in ("bidding", "discard", "trump", "play"):
            n, d = differ.get(phase, [0, 0])
            total[0] += n
            total[1] += d
            if n:
                lo, hi = wilson(d, n)
                lines.append(
                    f"  {phase:<8} {d:>5} of {n:<6} {100 * d / n:5.1f}% "
                    f"[{100 * lo:.1f}, {100 * hi:.1f}]"
                )
        lo, hi = wilson(total[1], total[0])
        lines.append(
            f"  {'all':<8} {total[1]:>5} of {total[0]:<6} {100 * total[1] / total[0]:5.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}]"
        )
    return lines


def cheat(args: argparse.Namespace) -> None:
    """Where the points are: each variant of the diagnostic against pimc, duplicate."""
    from concurrent.futures import ProcessPoolExecutor

    from moonrules.bots.match import arrangements

    if args.from_log:
        rows = [json.loads(x) for x in Path(args.from_log).read_text().splitlines() if x.strip()]
        for line in _cheat_figures(rows):
            print(line)
        return
    rules = as_rules("standard")
    variants = args.only.split(",") if args.only else list(CHEATS)
    jobs = []
    for i in range(args.deals):
        if i < args.strong_deals:
            jobs.append(("standard", args.seed, i, 0, ("pimc",) * rules.players + ("+strong",)))
        for v in variants:
            seatings = arrangements(rules, seating(f"see/{v},pimc", rules))
            jobs.extend(("standard", args.seed, i, k, s) for k, s in enumerate(seatings))
    start = time.perf_counter()
    rows = []
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for row in pool.map(_cheat_hand, jobs, chunksize=1):
            rows.append(row)
            if log is not None:
                log.write(json.dumps(row) + "\n")
                log.flush()
            if len(rows) % 50 == 0:
                print(
                    f"{len(rows)}/{len(jobs)} hands, {time.perf_counter() - start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    if log is not None:
        log.close()
    print(f"standard rules, deals of seed {args.seed}; {time.perf_counter() - start:.0f} s")
    for line in _cheat_figures(rows):
        print(line)


def _model_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The commands that fit the bots' models: calibrate, model-data, model-fit."""
    c = sub.add_parser("calibrate")
    c.add_argument("--rules", default="standard")
    c.add_argument("--deals", type=int, default=300)
    d = sub.add_parser("model-data")
    d.add_argument("--rules", default="standard")
    d.add_argument("--bot", default="pimc")
    d.add_argument("--deals", type=int, default=6000)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--play", action="store_true")
    d.add_argument("--out", required=True)
    f = sub.add_parser("model-fit")
    f.add_argument("file")
    f.add_argument("--rules", default="standard")


def _compare_command(sub: Any) -> None:
    q = sub.add_parser("pool-compare")
    q.add_argument("pairs", nargs="+", metavar="OLD:NEW")
    q.add_argument("--bot", default="learned")
    q.add_argument("--rules", default="standard")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("times")
    t.add_argument("--rules", default="standard")
    t.add_argument("--bots", default="random,basic,strong")
    t.add_argument("--games", type=int, default=3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--results", action="store_true")
    m = sub.add_parser("match")
    m.add_argument("--rules", default="standard")
    m.add_argument("--bots", default="strong,basic")
    m.add_argument("--games", type=int, default=300)
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--log")
    s = sub.add_parser("summary")
    s.add_argument("file", nargs="+")
    s.add_argument("--rules", default="standard")
    o = sub.add_parser("pool")
    o.add_argument("files", nargs="+")
    o.add_argument("--rules", default="standard")
    _compare_command(sub)
    u = sub.add_parser("duplicate")
    u.add_argument("--rules", default="standard")
    u.add_argument("--bots", default="strong,pimc")
    u.add_argument("--deals", type=int, default=1000)
    u.add_argument("--workers", type=int, default=2)
    u.add_argument("--seed", type=int, default=1)
    u.add_argument("--timing", action="store_true")
    u.add_argument("--log")
    a = sub.add_parser("auctions")
    a.add_argument("--rules", default="standard")
    a.add_argument("--bots", default="strong,pimc")
    a.add_argument("--deals", type=int, default=1000)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--log")
    g = sub.add_parser("targets")
    g.add_argument("--bot", default="strong")
    g.add_argument("--deals", type=int, default=1000)
    g.add_argument("--partnership-deals", type=int, default=300)
    g.add_argument("--games", type=int, default=300)
    g.add_argument("--basic-games", type=int, default=300)
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("cheat")
    c.add_argument("--deals", type=int, default=200)
    c.add_argument("--strong-deals", type=int, default=60)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--only", default="")
    c.add_argument("--log")
    c.add_argument("--from-log")
    _model_commands(sub)
    args = p.parse_args()
    commands = {
        "duplicate": duplicate,
        "cheat": cheat,
        "auctions": auctions,
        "targets": targets,
        "model-fit": model_fit,
        "times": times,
        "match": match,
        "summary": summary,
        "pool": pool,
        "pool-compare": pool_compare,
        "calibrate": calibrate,
        "model-data": model_data,
    }
    commands[args.cmd](args)
    _closing(args)


if __name__ == "__main__":
    main()
