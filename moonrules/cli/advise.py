"""``moonrules advise "6-6 6-5 …"``: double-dummy bidding advice for one hand.

Samples the unseen tiles, solves each sample double-dummy with the hand as
bidder under each trump the rule set offers, and prints, per trump, the mean
tricks and the chance of making each bid with a 95% confidence interval, then
the call with the best expected score. ``--json`` prints the same as JSON.
Exit status 0, or 2 for a bad hand, call or trump.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Final

from moonrules.analysis.advise import Advice, AdviceError, advise
from moonrules.arbitration.explain import parse_calls
from moonrules.cli.options import check_range, check_workers, finite_number, whole_number
from moonrules.cli.progress import ProgressLine
from moonrules.rules.auction import PASS
from moonrules.rules.errors import ParseError
from moonrules.rules.ruleset import rules_by_name
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import tiles

HELP = "bidding advice: double-dummy chances of each bid and trump for one hand"

MAX_SAMPLES: Final = 100_000
"""The most samples per trump."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "hand", metavar="HAND", help='the seat\'s 7 tiles, e.g. "6-6 6-5 6-4 5-5 4-2 3-1 1-1"'
    )
    p.add_argument("--rules", default="standard", help="a preset name (default standard)")
    p.add_argument(
        "--calls",
        default="",
        help='the auction so far from the first bidder, e.g. "pass 5"; the hand calls next',
    )
    p.add_argument(
        "--trump",
        action="append",
        metavar="TRUMP",
        help="only this trump (0-6, doubles, none); may be repeated (default: every one offered)",
    )
    p.add_argument(
        "--samples", type=whole_number, default=384, help="most samples per trump (default 384)"
    )
    p.add_argument(
        "--min-samples", type=whole_number, default=48, help="fewest samples per trump (default 48)"
    )
    p.add_argument(
        "--precision",
        type=finite_number,
        default=5.0,
        help="stop a trump once every bid's 95%% interval is within ± this many points (default 5)",
    )
    p.add_argument("--seed", type=whole_number, default=0, help="the sampling seed (default 0)")
    p.add_argument(
        "--workers",
        type=whole_number,
        default=min(2, os.cpu_count() or 1),
        help="processes solving samples (default: 2, or 1 on one core); the numbers do not "
        "depend on it",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the advice as JSON (spec/schema/advise.schema.json)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _calls(text: str) -> tuple[int, ...]:
    return tuple(parse_calls(text))


def run(args: argparse.Namespace) -> int:
    rules = rules_by_name(args.rules)
    hand = tiles(args.hand)
    trumps = None if not args.trump else tuple(Trump.parse(t) for t in args.trump)
    if not 0 < args.precision <= 50:
        raise AdviceError(f"--precision is in points between 0 and 50, not {args.precision}")
    check_range(args.samples, "--samples", 1, MAX_SAMPLES)
    check_range(args.min_samples, "--min-samples", 1, args.samples)
    check_workers(args.workers)
    start = time.perf_counter()
    with ProgressLine("advise", "samples solved", quiet=args.quiet) as progress:
        result = advise(
            hand,
            rules,
            calls=_calls(args.calls),
            trumps=trumps,
            samples=args.samples,
            min_samples=args.min_samples,
            half_width=args.precision / 100,
            seed=args.seed,
            workers=args.workers,
            progress=lambda done, most: progress.update(done, total=most),
        )
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(render(result, elapsed))
    return 0


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def render(a: Advice, elapsed: float | None = None) -> str:
    """The text table of ``moonrules advise``."""
    rules = a.rules.name or "custom rules"
    lines = [
        f"Hand {' '.join(str(t) for t in sorted(a.hand, reverse=True))} as bidder, "
        f"{rules} rules, double dummy (seed {a.seed})"
        + ("" if elapsed is None else f", {elapsed:.1f} s"),
    ]
    if a.calls:
        calls = " ".join("pass" if c == PASS else str(c) for c in a.calls)
        lines.append(f"After the calls {calls}: bids open {', '.join(map(str, a.bids))}")
    heads = [f"P(make {b})" for b in a.bids]
    lines.append(
        f"{'trump':<8} {'samples':>7} {'mean':>5}  " + "  ".join(f"{h:>12}" for h in heads)
    )
    for t in a.trumps:
        cells = []
        for b in t.bids:
            half = (b.ci[1] - b.ci[0]) / 2
            cells.append(f"{_pct(b.p_make):>5} ±{100 * half:>4.1f}".rjust(12))
        lines.append(f"{t.trump!s:<8} {t.samples:>7} {t.mean:>5.2f}  " + "  ".join(cells))
    lines.append("")
    lines.append("Expected score of each bid (the bid won or lost, weighted by its chance):")
    lines.append(f"{'trump':<8} " + "  ".join(f"{'bid ' + str(b):>8}" for b in a.bids))
    for t in a.trumps:
        lines.append(f"{t.trump!s:<8} " + "  ".join(f"{b.expected_score:>+8.2f}" for b in t.bids))
    lines.append("")
    best = a.best
    if best.trump is None:
        lines.append("Best call: pass (no bid open to this hand has a positive expected score)")
    else:
        lines.append(
            f"Best call: bid {best.bid} with {best.trump} as trump "
            f"(expected score {best.expected_score:+.2f})"
        )
    lines.append(
        "Double-dummy figures assume every tile is seen, by the bidder and the defenders "
        "alike; see the bidding guide for how far they are from play."
    )
    return "\n".join(lines)


__all__ = ["HELP", "ParseError", "add_arguments", "render", "run"]
