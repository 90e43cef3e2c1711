"""``moonrules serve``: answer protocol requests, one JSON line in, one JSON line out.

Requests are read from standard input and answers written to standard output,
one line each, in order, flushed after each (see ``spec/protocol.md``). A bad
line gets an error answer and the server goes on; a line longer than
``--max-line-bytes`` gets a ``bad-request`` answer. At the end of the input it
exits with status 0; with standard input or output closed, status 2.
"""

from __future__ import annotations

import argparse
import sys

from moonrules.cli.options import byte_count
from moonrules.conformance.serve import serve
from moonrules.records.jsontext import MAX_LINE_BYTES, MAX_RAISED_BYTES, size_text
from moonrules.rules.errors import MoonError

HELP = "answer JSON-lines protocol requests on stdin, one answer line each on stdout"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = "The protocol is specified in spec/protocol.md; its limits in docs/limits.md."
    p.add_argument(
        "--max-line-bytes",
        type=byte_count,
        default=MAX_LINE_BYTES,
        metavar="N",
        help="answer a request line longer than N bytes with bad-request "
        f"(default {size_text(MAX_LINE_BYTES)}, at most {size_text(MAX_RAISED_BYTES)})",
    )


class ClosedStream(MoonError):
    """Standard input or output is closed: there is nothing to serve."""


def run(args: argparse.Namespace) -> int:
    for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
        if stream is None:
            raise ClosedStream(f"standard {name} is closed")
    serve(sys.stdin.buffer, sys.stdout.buffer, max_line_bytes=args.max_line_bytes)
    return 0
