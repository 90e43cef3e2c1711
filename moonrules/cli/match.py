"""``moonrules match``: many games between named bots, with win rates and points per hand.

The bots take turns at each seat (the lineup turns one seat round each game).
For each bot: games, win rate and mean points per hand with 95% confidence
intervals, bids made and set, moons tried and made.

With ``--duplicate``, every deal (the first hand of a game) is played once for each
arrangement of the bots over the seats instead, the same tiles each time: the
paired difference in points per hand between the bots, with its 95% interval and
split into what each scored as bidder and as defender, measures them with far
fewer hands than whole games.

Hands and games run on a pool of worker processes; the same seed gives the same
figures whatever the number of workers. ``--json`` prints the figures as one JSON
object (``spec/schema/cli/match.schema.json``). Progress goes to standard error: a
bar on a terminal, a line now and then elsewhere.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Final

import attrs

from moonrules.bots.base import Bot
from moonrules.bots.match import (
    BOTS,
    DuplicateHand,
    DuplicateSummary,
    GameResult,
    UnknownBot,
    arrangements,
    bot_by_name,
    duplicate_summary,
    run_duplicate,
    run_match,
    summarize,
)
from moonrules.bots.pimc import PimcBot
from moonrules.bots.strong import StrongBot
from moonrules.cli.options import check_range, check_workers, seconds, whole_number
from moonrules.cli.progress import ProgressLine
from moonrules.rules.errors import ParseError, quote
from moonrules.rules.ruleset import RuleSet, as_rules

HELP = "play many games (or duplicate deals) between bots and compare them"

MAX_GAMES: Final = 1_000_000
"""The most games (and hands, deals, and hands in a game) one match plays."""
MAX_SAMPLES: Final = 100_000
"""The most deals the strong and pimc bots sample per decision."""
MAX_NODES: Final = 10**12
"""The largest node budget (0 is no limit)."""
DEFAULT_GAMES: Final = 100
DEFAULT_DEALS: Final = 100


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bots",
        default="basic,random",
        help="the bots, comma-separated: one per seat; or one name for every seat; or two "
        "(three players: the first at one seat, the second at the others; partnership: one "
        "per team). Known: " + ", ".join(BOTS) + " (default basic,random)",
    )
    p.add_argument(
        "--games", type=whole_number, default=None, help=f"games to play (default {DEFAULT_GAMES})"
    )
    p.add_argument(
        "--hands",
        type=whole_number,
        default=None,
        help="play games until they hold this many hands (then --games is the most games)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per arrangement of the bots over the seats and compare "
        "them hand by hand (with --deals, not --games)",
    )
    p.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        help=f"with --duplicate: the deals to play (default {DEFAULT_DEALS})",
    )
    p.add_argument("--rules", default="standard", help="a preset name (default standard)")
    p.add_argument("--seed", type=whole_number, default=0, help="the match's seed (default 0)")
    p.add_argument(
        "--workers",
        type=whole_number,
        default=None,
        help="worker processes (default: the machine's cores)",
    )
    p.add_argument(
        "--samples",
        type=whole_number,
        default=None,
        help="strong and pimc: deals per play decision",
    )
    p.add_argument(
        "--node-budget",
        type=whole_number,
        default=None,
        help="strong and pimc: solver nodes per decision (0: no limit)",
    )
    p.add_argument(
        "--time-budget",
        type=seconds("the time budget"),
        default=None,
        help="strong and pimc: seconds per decision (makes the results depend on the machine)",
    )
    p.add_argument(
        "--max-hands", type=whole_number, default=1000, help="hands after which a game stops"
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def lineup(names_text: str, rules: RuleSet) -> tuple[str, ...]:
    """The bot at each seat from a comma-separated list (see ``--bots``)."""
    names = [n.strip().lower() for n in names_text.split(",") if n.strip()]
    for n in names:
        if n not in BOTS:
            raise UnknownBot(f"no bot is called {quote(n)}; known: {', '.join(BOTS)}")
    p = rules.players
    if len(names) == p:
        return tuple(names)
    if len(names) == 1:
        return (names[0],) * p
    if len(names) == 2:
        if rules.partnership:
            return (names[0], names[1], names[0], names[1])
        return (names[0],) + (names[1],) * (p - 1)
    raise ParseError(f"--bots names {len(names)} bots; {p} players need 1, 2 or {p}")


def make_bot(name: str, strong: tuple[tuple[str, object], ...] = ()) -> Bot:
    """A bot by name, the strong and pimc ones with the options given (picklable, for
    workers)."""
    options = dict(strong)
    if options and name == "strong":
        return StrongBot(**options)  # type: ignore[arg-type]
    if options and name == "pimc":
        return PimcBot(**options)  # type: ignore[arg-type]
    return bot_by_name(name)


def strong_options(args: argparse.Namespace) -> tuple[tuple[str, object], ...]:
    """The options of the strong and pimc bots on the command line, checked."""
    out: list[tuple[str, object]] = []
    if args.samples is not None:
        check_range(args.samples, "--samples", 1, MAX_SAMPLES)
        out.append(("samples", args.samples))
        out.append(("bid_samples", max(1, args.samples // 2)))
    if args.node_budget is not None:
        check_range(args.node_budget, "--node-budget", 0, MAX_NODES)
        out.append(("node_budget", args.node_budget or None))
    if args.time_budget is not None:
        out.append(("time_budget", args.time_budget))
    return tuple(out)


# ---------------------------------------------------------------------------
# Progress


@contextmanager
def progress_bar(total: int, unit: str) -> Iterator[Callable[[int], None]]:
    """Progress on stderr, as every command shows it (:class:`ProgressLine`): one line
    rewritten in place on a terminal, whole lines now and then elsewhere, nothing in the
    first seconds: ``match: 400/1,000 hands (40%), 12 s, 0:18 left``."""
    with ProgressLine("match", unit, total=total) as line:
        yield line.update


# ---------------------------------------------------------------------------
# Reports


def _interval(lo: float, hi: float, pct: bool) -> str:
    if pct:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"[{lo:+.2f}, {hi:+.2f}]"


def report(
    rules: RuleSet, names: Sequence[str], results: Sequence[GameResult], seconds: float
) -> list[str]:
    """The lines ``moonrules match`` prints for whole games."""
    hands = sum(len(g.hands) for g in results)
    unfinished = sum(1 for g in results if g.winner is None)
    lines = [
        f"{len(results)} games ({hands} hands) of {rules.name or 'custom rules'}: "
        f"{', '.join(names)}, seats rotated; {seconds:.1f} s",
    ]
    if unfinished:
        lines.append(f"{unfinished} game(s) stopped unfinished at the hand limit (no winner)")
    lines.append(
        f"{'bot':<8} {'games':>5}  {'win rate % (95% CI)':<24} {'points/hand (95% CI)':<26}"
        f" {'bids made/set':>13}  {'moons tried/made':>16}"
    )
    for s in summarize(rules, results):
        win = f"{100 * s.win_rate:5.1f} {_interval(*s.win_ci, pct=True)}"
        pts = f"{s.points_per_hand:+5.2f} {_interval(*s.points_ci, pct=False)}"
        lines.append(
            f"{s.name:<8} {s.games:>5}  {win:<24} {pts:<26} "
            f"{f'{s.bids_made}/{s.bids_set}':>13}  {f'{s.moons_tried}/{s.moons_made}':>16}"
        )
    return lines


def duplicate_report(
    rules: RuleSet, names: Sequence[str], summary: DuplicateSummary, seconds: float
) -> list[str]:
    """The lines ``moonrules match --duplicate`` prints."""
    seatings = len(arrangements(rules, names))
    lines = [
        f"{summary.deals} deals of {rules.name or 'custom rules'}, each played in {seatings} "
        f"seatings of {', '.join(names)} ({summary.hands} hands); {seconds:.1f} s",
        f"{'bot':<8} {'points/hand (95% CI)':<26} {'bid %':>6} {'made/set':>9} "
        f"{'per bid':>8} {'per defence':>11} {'moons tried/made':>16}",
    ]
    for b in summary.bots:
        pts = f"{b.points_per_hand:+5.2f} {_interval(*b.points_ci, pct=False)}"
        lines.append(
            f"{b.name:<8} {pts:<26} {100 * b.bid_share:6.1f} "
            f"{f'{b.bids_made}/{b.bids - b.bids_made}':>9} {b.points_per_bid:+8.2f} "
            f"{b.points_per_defence:+11.2f} {f'{b.moons_tried}/{b.moons_made}':>16}"
        )
    lines.append("paired difference in points per hand (95% CI), over the deals:")
    for d in summary.differences:
        lines.append(
            f"  {d.first} - {d.second}: {d.mean:+.3f} {_interval(*d.ci, pct=False)}; "
            f"as bidder {d.bidding:+.3f} {_interval(*d.bidding_ci, pct=False)}, "
            f"as defender {d.defending:+.3f} {_interval(*d.defending_ci, pct=False)}"
        )
    return lines


def _finite(x: float) -> float | None:
    return x if x == x and abs(x) != float("inf") else None


def _ci(pair: tuple[float, float]) -> list[float | None]:
    return [_finite(pair[0]), _finite(pair[1])]


def games_json(
    rules: RuleSet, names: Sequence[str], results: Sequence[GameResult], seconds: float, seed: int
) -> dict[str, object]:
    """The ``--json`` answer of a match of whole games."""
    bots = []
    for s in summarize(rules, results):
        d = attrs.asdict(s)
        d["win_ci"], d["points_ci"] = _ci(s.win_ci), _ci(s.points_ci)
        bots.append(d)
    return {
        "mode": "games",
        "rules": rules.name,
        "lineup": list(names),
        "seed": seed,
        "games": len(results),
        "hands": sum(len(g.hands) for g in results),
        "unfinished": sum(1 for g in results if g.winner is None),
        "seconds": round(seconds, 3),
        "bots": bots,
    }


def duplicate_json(
    rules: RuleSet, names: Sequence[str], summary: DuplicateSummary, seconds: float, seed: int
) -> dict[str, object]:
    """The ``--json`` answer of a duplicate match."""
    bots = []
    for b in summary.bots:
        d = attrs.asdict(b)
        d["points_ci"] = _ci(b.points_ci)
        d.update(
            bid_share=b.bid_share,
            points_per_bid=b.points_per_bid,
            points_per_defence=b.points_per_defence,
        )
        bots.append(d)
    diffs = []
    for p in summary.differences:
        d = attrs.asdict(p)
        for key in ("ci", "bidding_ci", "defending_ci"):
            d[key] = _ci(getattr(p, key))
        diffs.append(d)
    return {
        "mode": "duplicate",
        "rules": rules.name,
        "lineup": list(names),
        "seatings": [list(s) for s in arrangements(rules, names)],
        "seed": seed,
        "deals": summary.deals,
        "hands": summary.hands,
        "seconds": round(seconds, 3),
        "bots": bots,
        "differences": diffs,
    }


# ---------------------------------------------------------------------------
# The command


def _check(args: argparse.Namespace, rules: RuleSet, names: tuple[str, ...]) -> int:
    """The checked number of workers (and every other option checked)."""
    workers: int = args.workers if args.workers is not None else (os.cpu_count() or 1)
    check_workers(workers)
    check_range(args.max_hands, "--max-hands", 1, MAX_GAMES)
    if args.duplicate:
        for given, option in ((args.games, "--games"), (args.hands, "--hands")):
            if given is not None:
                raise ParseError(f"--duplicate plays deals: give --deals, not {option}")
        check_range(args.deals, "--deals", 1, MAX_GAMES)
        if len(set(names)) < 2:
            raise ParseError(f"--duplicate compares bots: --bots names only {names[0]}")
    else:
        if args.deals is not None:
            raise ParseError("--deals is for --duplicate; whole games are counted by --games")
        check_range(args.games, "--games", 1, MAX_GAMES)
        check_range(args.hands, "--hands", 1, MAX_GAMES)
    return workers


def run(args: argparse.Namespace) -> int:
    rules = as_rules(args.rules)
    names = lineup(args.bots, rules)
    workers = _check(args, rules, names)
    factory: Callable[[str], Bot] = functools.partial(make_bot, strong=strong_options(args))
    start = time.perf_counter()
    if args.duplicate:
        deals = args.deals if args.deals is not None else DEFAULT_DEALS
        total = deals * len(arrangements(rules, names))
        with progress_bar(total, "hands") as tick:
            hands: list[DuplicateHand] = run_duplicate(
                rules, names, deals, seed=args.seed, workers=workers, factory=factory, progress=tick
            )
        summary = duplicate_summary(rules, hands)
        seconds = time.perf_counter() - start
        if args.json:
            print(json.dumps(duplicate_json(rules, names, summary, seconds, args.seed), indent=2))
        else:
            print("\n".join(duplicate_report(rules, names, summary, seconds)))
        return 0
    games = args.games if args.games is not None else DEFAULT_GAMES
    total, label = (games, "games") if args.hands is None else (args.hands, "hands")
    most = games if args.hands is None else max(games, args.hands)
    with progress_bar(total, label) as tick:
        results = run_match(
            rules,
            names,
            most,
            hands=args.hands,
            seed=args.seed,
            workers=workers,
            factory=factory,
            max_hands=args.max_hands,
            progress=tick,
        )
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(games_json(rules, names, results, seconds, args.seed), indent=2))
    else:
        print("\n".join(report(rules, names, results, seconds)))
    return 0
