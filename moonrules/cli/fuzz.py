"""``moonrules fuzz``: search for situations where another engine disagrees with the reference.

Starts the target command, speaks the protocol of ``spec/protocol.md`` to it, and compares
every answer with the reference's (see :mod:`moonrules.conformance.fuzz`). Exit status 0 when every
answer agreed (a summary line of cases run per op), 1 with a report of each finding shrunk
to a minimal request, 2 on a usage error (a target that cannot be started, an unknown op or
preset).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from moonrules.conformance.fuzz import Progress

HELP = "fuzz another engine against the reference and shrink each disagreement found"

_EPILOG = """\
The target is a command that speaks the protocol of spec/protocol.md: one JSON request
per line on its standard input, one JSON answer per line on its standard output. Each op
stops at its first finding, which is shrunk to a minimal request and reported with both
answers, the clauses involved and a one-line reproduction. A target that crashes, hangs
(--timeout) or prints garbage is a finding; it is restarted and the run goes on.
Example: moonrules fuzz --target "node engine.js" --seconds 60 --seed 1
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = _EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "--target",
        required=True,
        metavar="COMMAND",
        help='the engine\'s command line, e.g. "node engine.js" (split like a shell would)',
    )
    p.add_argument("--ops", metavar="LIST", help="comma-separated ops to fuzz (default: every op)")
    p.add_argument(
        "--rules", metavar="LIST", help="comma-separated presets to draw from (default: all)"
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--examples", type=int, metavar="N", help="examples per op (default 500)")
    budget.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help="fuzz the ops in turn for S seconds (shrinking a finding may take longer)",
    )
    p.add_argument(
        "--seed", type=int, help="the same seed, the same cases (default: a random seed, shown)"
    )
    p.add_argument(
        "--report",
        metavar="FILE",
        help="also write the report to FILE (JSON if FILE ends in .json, else text)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    p.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds the target may take to answer one request (default 5)",
    )
    p.add_argument(
        "--shrink-seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="the most time spent shrinking one finding (default 60)",
    )


class _Display:
    """The progress line on stderr: rewritten in place on a terminal, else now and then."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.last = 0.0
        self.width = 0

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self.last < (0.1 if self.tty else 5.0):
            return
        self.last = now
        state = f"shrinking a finding in {p.op}" if p.shrinking else p.op
        text = (
            f"fuzz: {p.cases} case{'s' if p.cases != 1 else ''}, "
            f"{p.findings} finding{'s' if p.findings != 1 else ''}, "
            f"{p.elapsed:.0f} s ({state})"
        )
        if self.tty:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("hypothesis") is None:
        print(
            "moonrules: error: fuzzing needs Hypothesis: pip install hypothesis",
            file=sys.stderr,
        )
        return 2
    from moonrules.conformance.fuzz import fuzz

    display = None if args.quiet else _Display(sys.stderr)
    try:
        report = fuzz(
            args.target,
            ops=args.ops,
            rules=args.rules,
            examples=args.examples,
            seconds=args.seconds,
            seed=args.seed,
            progress=display,
            timeout=args.timeout,
            shrink_seconds=args.shrink_seconds,
        )
    finally:
        if display is not None:
            display.close()
    print(report.to_text())
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            if args.report.endswith(".json"):
                json.dump(report.to_json(), f, indent=2)
                f.write("\n")
            else:
                f.write(report.to_text() + "\n")
    return 0 if report.ok else 1
