"""``moonrules conform``: check another Moon engine against the conformance vectors.

The target command is started (split like a shell would, but run without one),
spoken to with the protocol of ``spec/protocol.md`` over its standard input and
output, and sent every selected vector. The first line printed is ``N passed, M
failed`` (and how many were skipped as unsupported); the failures follow, grouped by
cause with a count and one example each (``--verbose``: each one); ``--json`` prints
the result as one JSON object instead. A target that fails five vectors in a row the same
way (exits, hangs, writes garbage) is given up on, and the report says so once. The exit
status is 0 when every vector sent passes, 1 when any fails (or the target was given up
on), 2 when the run cannot be made.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TextIO

from moonrules.cli.options import add_compare, add_target, add_timeout, name_list
from moonrules.cli.progress import ProgressLine
from moonrules.conformance.conform import ConformError, conform, summary_json
from moonrules.conformance.target import TargetError, split_command

HELP = "run the conformance vectors against another engine speaking the protocol"

_EPILOG = """\
Comparison levels (--compare): strict compares results, error codes and clause IDs (an
engine that speaks this project's clause IDs); code drops the clause IDs; outcome compares
only whether a request is accepted or refused, and the results. --valid-only sends only
the vectors whose expected answer is not a refusal (an engine that does not validate).
An op the target answers with unknown-op is reported once and its vectors skipped, unless
--require names it; the protocol-level vectors (id echo, presets, rule objects) are then
sent with an op the target supports.
Example: moonrules conform --target "node engine.js" --compare outcome --valid-only
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = _EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    add_target(p, 'the engine to check, e.g. "moonrules serve" or "./my-engine --protocol"')
    p.add_argument("--ops", type=name_list, metavar="A,B", help="only these operations")
    p.add_argument(
        "--rules", type=name_list, metavar="A,B", help="only these presets (or aliases; 'custom')"
    )
    p.add_argument(
        "--clauses", type=name_list, metavar="BID-3,LEAD-2", help="only vectors exercising these"
    )
    p.add_argument("--exclude-rules", type=name_list, metavar="A,B", help="not these presets")
    p.add_argument(
        "--exclude-clauses", type=name_list, metavar="LEAD-2", help="not vectors exercising these"
    )
    add_compare(p, "what must agree (default strict; see below)")
    p.add_argument(
        "--valid-only", action="store_true", help="skip the vectors that expect a refusal"
    )
    p.add_argument(
        "--require",
        type=name_list,
        default=[],
        metavar="A,B",
        help="ops whose unknown-op answers are failures, not skipped",
    )
    add_timeout(p, "the timeout")
    p.add_argument(
        "--vectors",
        type=Path,
        metavar="DIR",
        help="the directory of *.jsonl vector files (default: the ones shipped with moonrules)",
    )
    p.add_argument("--verbose", action="store_true", help="list every failure, not one per cause")
    p.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object, every failure in it "
        "(spec/schema/conform.schema.json)",
    )


class _Terminated(SystemExit):
    pass


@contextlib.contextmanager
def stopped_by_signals(*, interrupt: bool = False) -> Iterator[Callable[[], None]]:
    """SIGTERM and SIGHUP end the command like an interrupt does: the code under way
    unwinds (so that a target it runs is stopped with its process group), and the
    command exits with 128 + the signal's number. With ``interrupt``, SIGINT is handled
    here too (``KeyboardInterrupt``, as Python's own handler does).

    A stop is also kept: the block is handed a function that raises it again. Python
    runs a signal's handler wherever the main thread is, a finaliser (``__del__``)
    included, where the exception it raises is printed and dropped; a loop that calls
    the function once a step stops all the same.
    """
    stopped: list[BaseException] = []

    def stop(number: int, frame: FrameType | None) -> None:
        e: BaseException = (
            KeyboardInterrupt() if number == signal.SIGINT else _Terminated(128 + number)
        )
        stopped.append(e)
        raise e

    def check() -> None:
        if stopped:
            raise stopped[0]

    signals = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    if interrupt:
        signals.append(signal.SIGINT)
    try:
        previous = [(s, signal.signal(s, stop)) for s in signals]
    except ValueError:  # not the main thread: leave the signals alone
        yield check
        return
    try:
        yield check
    finally:
        for s, handler in previous:
            signal.signal(s, handler)


def print_lines(lines: Sequence[str], stream: TextIO | None = None) -> bool:
    """Print ``lines``; False when the reader went away (a broken pipe: nothing more is
    written, not even at exit)."""
    out = sys.stdout if stream is None else stream
    try:
        for line in lines:
            out.write(line + "\n")
        out.flush()
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return False
    return True


def _progress(quiet: bool) -> ProgressLine:
    """The progress line on stderr, after 2 seconds: rewritten in place on a terminal (at
    most five times a second), else a line every 5 seconds."""
    progress = ProgressLine("conform", "vectors", quiet=quiet, every=5.0, redraw=0.2)
    if not progress.tty:
        progress.delay = progress.every  # the first line too comes after 5 seconds
    return progress


def _progress_text(done: int, failed: int, total: int, elapsed: float) -> str:
    """``conform: 1234/6206 vectors, 3 failed, 12 s``: the progress line of a run."""
    return f"conform: {done}/{total} vectors, {failed} failed, {elapsed:.0f} s"


def run(args: argparse.Namespace) -> int:
    try:
        argv = split_command(args.target)
    except TargetError as e:
        raise ConformError(str(e)) from None
    started = time.monotonic()
    with stopped_by_signals(), _progress(args.quiet) as progress:

        def show(done: int, failed: int, total: int) -> None:
            progress.update(done, text=_progress_text(done, failed, total, progress.elapsed))

        outcomes, lines = conform(
            argv,
            ops=args.ops,
            rules=args.rules,
            clauses=args.clauses,
            exclude_rules=args.exclude_rules,
            exclude_clauses=args.exclude_clauses,
            valid_only=args.valid_only,
            compare=args.compare,
            require=args.require,
            timeout=args.timeout,
            directory=args.vectors,
            verbose=args.verbose,
            progress=None if args.quiet else show,
        )
    if args.json:
        answer = summary_json(
            outcomes,
            target=args.target,
            compare=args.compare,
            elapsed=time.monotonic() - started,
        )
        lines = [json.dumps(answer, indent=2)]
    if not print_lines(lines):
        return 141  # 128 + SIGPIPE, as a shell reports a reader gone away
    return 0 if all(o.status != "failed" and o.status != "not-sent" for o in outcomes) else 1
