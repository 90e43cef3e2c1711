"""``moonrules match``: many games between named bots, with win rates and points per hand.

The bots take turns at each seat (the lineup turns one seat round each game).
For each bot: games, win rate and mean points per hand with 95% confidence
intervals, bids made and set, moons tried and made. Games run on a pool of
worker processes; the same seed gives the same figures whatever the number of
workers.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from moonrules.bots.base import Bot
from moonrules.bots.match import BOTS, UnknownBot, bot_by_name, run_match, summarize
from moonrules.bots.strong import StrongBot
from moonrules.cli.options import check_range, check_workers, seconds, whole_number
from moonrules.rules.errors import MoonError, ParseError, quote
from moonrules.rules.ruleset import RuleSet, as_rules

HELP = "play many games between bots (random, basic, strong) and compare them"

MAX_GAMES: Final = 1_000_000
"""The most games (and hands, and hands in a game) one match plays."""
MAX_SAMPLES: Final = 100_000
"""The most deals the strong bot samples per decision."""
MAX_NODES: Final = 10**12
"""The largest node budget (0 is no limit)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bots",
        default="basic,random",
        help="the bots, comma-separated: one per seat; or one name for every seat; or two "
        "(three players: the first at one seat, the second at the others; partnership: one "
        "per team). Known: " + ", ".join(BOTS) + " (default basic,random)",
    )
    p.add_argument("--games", type=whole_number, default=100, help="games to play (default 100)")
    p.add_argument(
        "--hands",
        type=whole_number,
        default=None,
        help="play games until they hold this many hands (then --games is the most games)",
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
        "--samples", type=whole_number, default=None, help="strong: deals per play decision"
    )
    p.add_argument(
        "--node-budget",
        type=whole_number,
        default=None,
        help="strong: solver nodes per decision (0: no limit)",
    )
    p.add_argument(
        "--time-budget",
        type=seconds("the time budget"),
        default=None,
        help="strong: seconds per decision (makes the results depend on the machine)",
    )
    p.add_argument(
        "--max-hands", type=whole_number, default=1000, help="hands after which a game stops"
    )


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
    """A bot by name, the strong one with the options given (picklable, for workers)."""
    if name == "strong" and strong:
        return StrongBot(**dict(strong))  # type: ignore[arg-type]
    return bot_by_name(name)


def strong_options(args: argparse.Namespace) -> tuple[tuple[str, object], ...]:
    """The StrongBot options of the command line, checked."""
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


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on a terminal's stderr (with ``rich``); nothing elsewhere."""
    if not sys.stderr.isatty():
        yield lambda done: None
        return
    try:
        from rich.progress import Progress
    except ImportError:  # pragma: no cover - without the play extra

        def plain(done: int) -> None:
            print(f"\r{label}: {done}/{total}", end="", file=sys.stderr, flush=True)

        yield plain
        print(file=sys.stderr)
        return
    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _interval(lo: float, hi: float, pct: bool) -> str:
    if pct:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"[{lo:+.2f}, {hi:+.2f}]"


def report(rules: RuleSet, names: tuple[str, ...], results: list, seconds: float) -> list[str]:  # type: ignore[type-arg]
    """The lines ``moonrules match`` prints."""
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


def run(args: argparse.Namespace) -> int:
    rules = as_rules(args.rules)
    names = lineup(args.bots, rules)
    check_range(args.games, "--games", 1, MAX_GAMES)
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    check_workers(workers)
    check_range(args.hands, "--hands", 1, MAX_GAMES)
    check_range(args.max_hands, "--max-hands", 1, MAX_GAMES)
    factory = functools.partial(make_bot, strong=strong_options(args))
    start = time.perf_counter()
    try:
        total, label = (args.games, "games") if args.hands is None else (args.hands, "hands")
        games = args.games if args.hands is None else max(args.games, args.hands)
        with progress_bar(total, label) as tick:
            results = run_match(
                rules,
                names,
                games,
                hands=args.hands,
                seed=args.seed,
                workers=workers,
                factory=factory,
                max_hands=args.max_hands,
                progress=tick,
            )
    except MoonError:
        raise
    for line in report(rules, names, results, time.perf_counter() - start):
        print(line)
    return 0
