"""``moonrules serve``: answer protocol requests, one JSON line in, one JSON line out.

Requests are read from standard input and answers written to standard output,
one line each, in order, flushed after each (see ``spec/protocol.md``). A bad
line gets an error answer and the server goes on; at the end of the input it
exits with status 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

from moonrules.conformance.protocol import encode, error_answer, handle_line

HELP = "answer JSON-lines protocol requests on stdin, one answer line each on stdout"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = "The protocol is specified in spec/protocol.md."


def serve(source: BinaryIO, sink: BinaryIO) -> int:
    """Answer every line of ``source`` on ``sink``; the number of lines answered."""
    count = 0
    while True:
        raw = source.readline()
        if not raw:
            return count
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            answer = encode(error_answer(None, "bad-json", f"the line is not UTF-8 text: {e}"))
        else:
            answer = handle_line(line.rstrip("\r\n"))
        sink.write(answer.encode("ascii") + b"\n")
        sink.flush()
        count += 1


def run(args: argparse.Namespace) -> int:
    serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0
