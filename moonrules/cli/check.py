"""``moonrules check RECORD``: replay a game record and rule on its first illegal step.

Exit status: 0 the record is valid, 1 it breaks a rule (the ruling is printed), 2
it cannot be read (the message names the line or field and what was expected).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from moonrules.arbitration import (
    Report,
    Source,
    check,
    format_report,
    read_record,
    report_html,
)
from moonrules.records.record import RecordError

HELP = "check a game record (JSON or the text notation) and rule on its first illegal step"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD", help="the record file (JSON or notation); - for stdin"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the protocol's replay answer as JSON instead of the report",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the report as a self-contained HTML page to FILE",
    )


def read_text(path: str) -> tuple[str, str]:
    """The text of a record file (``-`` for stdin) and the name to call it by.

    Raises :class:`~moonrules.records.record.RecordError` for a file that is not text.
    """
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        data = Path(path).read_bytes()
        name = path
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        raise RecordError(
            f"byte {e.start}", "the file is not UTF-8 text: expected a JSON record or the notation"
        ) from None


def load(path: str) -> tuple[Source, str]:
    """Read and parse a record file.

    Raises :class:`~moonrules.records.record.RecordError` if it is unreadable.
    """
    text, name = read_text(path)
    return read_record(text), name


def unreadable(command: str, path: str, error: RecordError) -> int:
    """Say on stderr why a record cannot be read (which line or field); exit status 2."""
    where = f"{error.path}: " if error.path else ""
    print(
        f"moonrules {command}: {path}: unreadable record: {where}{error.message}", file=sys.stderr
    )
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        source, name = load(args.record)
        report: Report = check(source)
    except RecordError as e:
        return unreadable("check", args.record, e)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report))
    if args.html:
        title = f"Moon record check: {Path(name).name}"
        Path(args.html).write_text(report_html(report, title=title), encoding="utf-8")
    return report.status
