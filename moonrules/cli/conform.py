"""``moonrules conform``: check another Moon engine against the conformance vectors.

The target command is started (split like a shell would, but run without one),
spoken to with the protocol of ``spec/protocol.md`` over its standard input and
output, and sent every selected vector. The first line printed is ``N passed, M
failed``; each failure follows with its request, the expected answer and the
actual one. The exit status is 0 when every vector passes, 1 when any fails, 2 when
the run cannot be made.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from moonrules.conformance.conform import DEFAULT_TIMEOUT, ConformError, conform
from moonrules.conformance.target import split_command

HELP = "run the conformance vectors against another engine speaking the protocol"


def _list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one name, comma-separated")
    return names


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("the timeout must be more than 0 seconds")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--target",
        required=True,
        metavar="COMMAND",
        help='the engine to check, e.g. "moonrules serve" or "./my-engine --protocol"',
    )
    p.add_argument("--ops", type=_list, metavar="A,B", help="only these operations")
    p.add_argument(
        "--rules", type=_list, metavar="A,B", help="only these presets (or aliases; 'custom')"
    )
    p.add_argument(
        "--clauses", type=_list, metavar="BID-3,LEAD-2", help="only vectors exercising these"
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds the target may take to answer one request (default {DEFAULT_TIMEOUT:g})",
    )
    p.add_argument(
        "--vectors",
        type=Path,
        metavar="DIR",
        help="the directory of *.jsonl vector files (default: the ones shipped with moonrules)",
    )


def run(args: argparse.Namespace) -> int:
    argv = split_command(args.target)
    if not argv:
        raise ConformError("--target: give the command that starts the engine")
    outcomes, lines = conform(
        argv,
        ops=args.ops,
        rules=args.rules,
        clauses=args.clauses,
        timeout=args.timeout,
        directory=args.vectors,
    )
    for line in lines:
        print(line, flush=False)
    return 0 if all(o.passed for o in outcomes) else 1
