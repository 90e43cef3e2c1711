"""``moonrules check RECORD``: replay a game record and rule on its first illegal step.

Exit status: 0 the record is valid, 1 it breaks a rule (the ruling is printed), 2
it cannot be read (the message names the line or field and what was expected).

``--lang`` gives the whole report in another language (:mod:`moonrules.i18n.report`): the
hands, the ruling from the error's fields, its "why" steps, the clause quoted from the
rulebook in that language, the verdict; ``--html`` writes the page in it too (the same
catalogs, its ``lang`` attribute set, a font stack that draws Gurmukhi); ``--json`` stays
language-free (English).
"""

from __future__ import annotations

import argparse
import functools
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
from moonrules.cli.lang import add_lang_argument, chosen_language, language, lines_in, page_in
from moonrules.cli.options import byte_count, check_output
from moonrules.i18n import SOURCE_LANGUAGE
from moonrules.i18n.report import PageWords, report_in
from moonrules.records.annotations import describe, hand_actions, parse_annotations
from moonrules.records.jsontext import (
    MAX_RAISED_BYTES,
    MAX_RECORD_BYTES,
    TooLarge,
    read_bounded,
    size_text,
)
from moonrules.records.record import JSON, RecordError, rules_from_json
from moonrules.rules import MoonError

HELP = "check a game record (JSON or the text notation) and rule on its first illegal step"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD", help="the record file (JSON or notation); - for stdin"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the protocol's replay answer as JSON instead of the report "
        "(spec/schema/check.schema.json)",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the report as a self-contained HTML page to FILE",
    )
    add_lang_argument(p, "the report")
    add_max_bytes(p)


def ruled_in(report: Report, lang: str) -> tuple[str, str]:
    """The report's text in ``lang``, and a one-line notice when some of it could not be
    (``""`` when all is well): a line no catalog entry matches stays English."""
    if lang == SOURCE_LANGUAGE:
        return format_report(report), ""
    try:
        told = report_in(report, format_report(report), lang)
    except MoonError as e:  # Babel is not installed
        return format_report(report), f"the report is in English: {e}"
    if told.untranslated:
        count = len(told.untranslated)
        return told.text, f"{count} line(s) of the report have no translation yet and stay English"
    return told.text, ""


def add_max_bytes(p: argparse.ArgumentParser) -> None:
    """The ``--max-bytes`` option: the largest record read (see docs/limits.md)."""
    p.add_argument(
        "--max-bytes",
        type=byte_count,
        default=MAX_RECORD_BYTES,
        metavar="N",
        help=f"refuse a record larger than N bytes (default {size_text(MAX_RECORD_BYTES)}, "
        f"at most {size_text(MAX_RAISED_BYTES)})",
    )


def read_text(path: str, max_bytes: int = MAX_RECORD_BYTES) -> tuple[str, str]:
    """The text of a record file (``-`` for stdin) and the name to call it by.

    At most ``max_bytes`` are read: memory stays bounded whatever the file is.
    Raises :class:`~moonrules.records.record.RecordError` for a file that is not
    text or is larger than that.
    """
    try:
        if path == "-":
            if sys.stdin is None:
                raise RecordError("", "standard input is closed")
            data = read_bounded(sys.stdin.buffer, max_bytes)
            name = "<stdin>"
        else:
            with open(path, "rb") as f:
                data = read_bounded(f, max_bytes)
            name = path
    except OSError as e:
        if e.filename is None:  # a read that failed: say which file
            e.filename = "<stdin>" if path == "-" else path
        raise
    except TooLarge:
        raise RecordError(
            "",
            f"the record is larger than {size_text(max_bytes)} (the limit; "
            + ("no more is read)" if max_bytes >= MAX_RAISED_BYTES else "--max-bytes raises it)"),
        ) from None
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        raise RecordError(
            f"byte {e.start}", "the file is not UTF-8 text: expected a JSON record or the notation"
        ) from None


def load(path: str, max_bytes: int = MAX_RECORD_BYTES) -> tuple[Source, str]:
    """Read and parse a record file of at most ``max_bytes``.

    Raises :class:`~moonrules.records.record.RecordError` if it is unreadable.
    """
    text, name = read_text(path, max_bytes)
    return read_record(text, max_length=None), name


def unreadable(command: str, path: str, error: RecordError) -> int:
    """Say on stderr why a record cannot be read (which line or field); exit status 2."""
    where = f"{error.path}: " if error.path else ""
    print(
        f"moonrules {command}: error: {path}: unreadable record: {where}{error.message}",
        file=sys.stderr,
    )
    return 2


def run(args: argparse.Namespace) -> int:
    if args.html:
        check_output(args.html, "--html")
    lang = chosen_language(args, "check")
    try:
        source, name = load(args.record, args.max_bytes)
        report: Report = check(source)
        text = json.dumps(report.to_json(), indent=2) if args.json else ""
    except RecordError as e:
        return unreadable("check", args.record, e)
    except MemoryError:
        return unreadable(
            "check", args.record, RecordError("", "the record is too large to check here")
        )
    if not args.json:
        text, notice = ruled_in(report, lang)
        if notice:
            print(f"moonrules check: {notice}", file=sys.stderr)
    print(text)
    del text
    if not args.json:
        for line in lines_in(annotation_lines(source.record), lang, "check"):
            print(line)
    if args.html:
        page = html_page(report, Path(name).name, lang)
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as e:
            e.filename = args.html if e.filename is None else e.filename
            raise
    return report.status


def html_page(report: Report, name: str, lang: str) -> str:
    """The HTML report of the record file ``name`` in ``lang``; a one-line notice on stderr
    says how many of its sentences have no translation yet and stay English."""
    return page_in(
        lang,
        "check",
        "report",
        "Moon record check: {name}",
        name,
        functools.partial(report_html, report),
        lambda: PageWords(lang, report),
    )


def annotation_lines(record: JSON) -> list[str]:
    """The record's annotations (:mod:`moonrules.records.annotations`), one line each, under
    a heading; none for a record without them."""
    if not isinstance(record, dict) or not record.get("annotations"):
        return []
    hands = record.get("hands")
    assert isinstance(hands, list)
    rules = rules_from_json(record.get("rules", "standard"))
    notes = parse_annotations(
        record["annotations"], rules.players, [hand_actions(h) for h in hands]
    )
    return ["Annotations:", *(f"  {describe(n)}" for n in notes)]


__all__ = [
    "add_max_bytes",
    "byte_count",
    "html_page",
    "language",
    "load",
    "read_text",
    "ruled_in",
    "run",
    "unreadable",
]
