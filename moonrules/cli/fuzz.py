"""``moonrules fuzz``: search for situations where another engine disagrees with the reference.

Starts the target command, speaks the protocol of ``spec/protocol.md`` to it, and compares
every answer with the reference's (see :mod:`moonrules.conformance.fuzz`). Exit status 0 when every
answer agreed (a summary line of cases run per op), 1 with a report of each finding shrunk
to a minimal request, 2 on a usage error (a target that cannot be started, an unknown op or
preset).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from moonrules.cli.options import (
    add_compare,
    add_target,
    add_timeout,
    check_output,
    seconds,
    whole_number,
)
from moonrules.cli.progress import ProgressLine

if TYPE_CHECKING:
    from moonrules.conformance.fuzz import Progress

HELP = "fuzz another engine against the reference and shrink each disagreement found"

_EPILOG = """\
The target is a command that speaks the protocol of spec/protocol.md: one JSON request
per line on its standard input, one JSON answer per line on its standard output. Each op
stops at its first finding, which is shrunk to a minimal request and reported with both
answers, the clauses involved and a one-line reproduction; the run goes on, collecting
up to --max-findings distinct findings per op (distinct by preset and clauses). A target
that crashes, hangs (--timeout) or prints garbage is a finding; it is restarted and the
run goes on with the other ops, until it fails five requests in a row the same way: then
it is given up on, and the report says so. An op the target answers with unknown-op is reported once
as unsupported and skipped (unless --require names it).
Examples:
  moonrules fuzz --target "node engine.js" --seconds 60 --seed 1
  moonrules fuzz --target "./engine" --compare outcome --valid-only --ops trick_winner
  moonrules fuzz --target "./engine" --exhaustive --ops led_suit,legal_bids
"""


MAX_EXAMPLES = 10_000_000
"""The most ``--examples`` per op (about twenty minutes of requests per op)."""


def _count(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"it must be at least 1, not {value}")
    if value > MAX_EXAMPLES:
        raise argparse.ArgumentTypeError(f"it must be at most {MAX_EXAMPLES:,}, not {value}")
    return value


def _clauses(text: str) -> list[str]:
    import re

    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if not re.fullmatch(r"[A-Z]+-[0-9]+", n)]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"{', '.join(bad) or text!r} is not a clause ID like BID-3"
        )
    return names


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = _EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    add_target(p, 'the engine\'s command line, e.g. "node engine.js" (split like a shell would)')
    p.add_argument("--ops", metavar="LIST", help="comma-separated ops to fuzz (default: every op)")
    p.add_argument(
        "--rules", metavar="LIST", help="comma-separated presets to draw from (default: all)"
    )
    p.add_argument("--exclude-rules", metavar="LIST", help="presets not to draw from")
    p.add_argument(
        "--exclude-clauses",
        type=_clauses,
        default=[],
        metavar="LIST",
        help="do not compare cases that exercise these clauses (e.g. LEAD-2)",
    )
    add_compare(
        p,
        "what must agree: strict (results, error codes and clause IDs; the default), "
        "code (no clause IDs), outcome (only accepted or refused, and the results)",
    )
    p.add_argument(
        "--valid-only",
        action="store_true",
        help="draw only well-formed, legal requests (for an engine that does not validate)",
    )
    p.add_argument(
        "--require",
        metavar="LIST",
        help="ops the target must support: unknown-op to them is a finding (default: an op "
        "answered with unknown-op is reported as unsupported and skipped)",
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--examples", type=_count, metavar="N", help="examples per op (default 500)"
    )
    budget.add_argument(
        "--seconds",
        type=seconds("the number of seconds"),
        metavar="S",
        help="fuzz the ops in turn for S seconds (shrinking a finding may take longer)",
    )
    budget.add_argument(
        "--exhaustive",
        action="store_true",
        help="send every legal request of the finite ops (tiles, led_suit, legal_plays, "
        "trick_winner, legal_bids, auction, score_hand) instead of drawing",
    )
    p.add_argument(
        "--max-findings",
        type=_count,
        default=5,
        metavar="N",
        help="distinct findings per op before the op stops (default 5)",
    )
    p.add_argument(
        "--seed",
        type=whole_number,
        help="the same seed, the same cases (default: a random seed, shown)",
    )
    p.add_argument(
        "--report",
        metavar="FILE",
        help="also write the report to FILE (JSON if FILE ends in .json, else text); "
        "checked before the run starts",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the report as one JSON object (spec/schema/fuzz.schema.json)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    add_timeout(p, "the number of seconds")
    p.add_argument(
        "--shrink-seconds",
        type=seconds("the number of seconds"),
        default=60.0,
        metavar="S",
        help="the most time spent shrinking one finding (default 60)",
    )


def _progress_text(p: Progress) -> str:
    """``fuzz: 1200 cases, 1 finding, 9 s (auction)``: the progress line of a run."""
    state = f"shrinking a finding in {p.op}" if p.shrinking else p.op
    return (
        f"fuzz: {p.cases} case{'s' if p.cases != 1 else ''}, "
        f"{p.findings} finding{'s' if p.findings != 1 else ''}, "
        f"{p.elapsed:.0f} s ({state})"
    )


def run(args: argparse.Namespace) -> int:
    from moonrules.cli.conform import stopped_by_signals
    from moonrules.conformance.fuzz import fuzz

    if args.report:
        check_output(args.report, "--report")
    # at once, then rewritten in place on a terminal, else a line every 5 seconds
    progress = ProgressLine("fuzz", "cases", quiet=args.quiet, delay=0.0, every=5.0)
    with stopped_by_signals(), progress:

        def show(p: Progress) -> None:
            progress.update(p.cases, text=_progress_text(p))

        report = fuzz(
            args.target,
            ops=args.ops,
            rules=args.rules,
            examples=args.examples,
            seconds=args.seconds,
            seed=args.seed,
            progress=None if args.quiet else show,
            timeout=args.timeout,
            shrink_seconds=args.shrink_seconds,
            compare=args.compare,
            valid_only=args.valid_only,
            require=args.require,
            exclude_rules=args.exclude_rules,
            exclude_clauses=args.exclude_clauses,
            max_findings=args.max_findings,
            exhaustive=args.exhaustive,
        )
    from moonrules.cli.conform import print_lines

    text = report.to_text()
    as_json = json.dumps(report.to_json(), indent=2)
    if args.report:
        try:
            with open(args.report, "w", encoding="utf-8") as f:
                f.write((as_json if args.report.endswith(".json") else text) + "\n")
        except OSError as e:
            e.filename = args.report if e.filename is None else e.filename
            raise
    if not print_lines([as_json] if args.json else text.split("\n")):
        return 141
    return 0 if report.ok else 1
