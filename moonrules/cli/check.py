"""``moonrules check RECORD``: replay a game record and rule on its first illegal step.

Exit status: 0 the record is valid, 1 it breaks a rule (the ruling is printed), 2
it cannot be read (the message names the line or field and what was expected).

``--lang`` gives the ruling's sentence in another language (:mod:`moonrules.i18n`); the
rest of the report (the hands, the "Why" steps, the verdict), ``--json`` and ``--html``
stay English.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from moonrules.arbitration import (
    Report,
    Source,
    check,
    format_report,
    read_record,
    report_html,
)
from moonrules.cli.options import byte_count, check_output
from moonrules.i18n import LANGUAGES, SOURCE_LANGUAGE, render
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
    p.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language of the ruling's sentence: {', '.join(LANGUAGES)} (default: the "
        "environment's locale, then English); the rest of the report stays English",
    )
    add_max_bytes(p)


def language(given: str | None, environ: Mapping[str, str] = os.environ) -> tuple[str, str]:
    """The language to rule in, and a one-line notice when ``given`` names none we have
    (``""`` when all is well).

    ``given`` is ``--lang``; without it, the first locale the environment sets (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if it is of a language we have; else English.

    >>> language("ru"), language("ru_RU.UTF-8")
    (('ru', ''), ('ru', ''))
    >>> language(None, {"LANG": "be_BY.UTF-8"}), language(None, {"LANG": "C.UTF-8"})
    (('be', ''), ('en', ''))
    >>> language("xx")
    ('en', "no catalog for --lang 'xx'; the ruling is in English (en, az, be, hu, pa, ru)")
    """
    if given is not None:
        lang = _language_of(given)
        if lang is None:
            shown = repr(given)[:40]
            return SOURCE_LANGUAGE, (
                f"no catalog for --lang {shown}; the ruling is in English ({', '.join(LANGUAGES)})"
            )
        return lang, ""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return _language_of(value.split(":")[0]) or SOURCE_LANGUAGE, ""
    return SOURCE_LANGUAGE, ""


def _language_of(locale: str) -> str | None:
    """The language of a locale name (``ru``, ``ru_RU.UTF-8``, ``ru-RU``), if we have it."""
    lang = locale.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return lang if lang in LANGUAGES else None


def ruled_in(text: str, report: Report, lang: str) -> tuple[str, str]:
    """The report's text with the ruling's sentence in ``lang`` (the clause ID kept), and a
    one-line notice when it could not be (``""`` when all is well)."""
    violation = report.replay.violation
    ruling = report.ruling
    if lang == SOURCE_LANGUAGE or ruling is None or violation is None or violation.error is None:
        return text, ""
    try:
        sentence = render(violation.error, lang)
    except MoonError as e:  # Babel is not installed
        return text, f"the ruling is in English: {e}"
    line = f"RULING\n  {ruling.text}\n"
    return text.replace(line, f"RULING\n  {sentence}\n", 1), ""


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
    lang, notice = language(args.lang)
    if notice:
        print(f"moonrules check: {notice}", file=sys.stderr)
    try:
        source, name = load(args.record, args.max_bytes)
        report: Report = check(source)
        text = json.dumps(report.to_json(), indent=2) if args.json else format_report(report)
    except RecordError as e:
        return unreadable("check", args.record, e)
    except MemoryError:
        return unreadable(
            "check", args.record, RecordError("", "the record is too large to check here")
        )
    if not args.json:
        text, notice = ruled_in(text, report, lang)
        if notice:
            print(f"moonrules check: {notice}", file=sys.stderr)
    print(text)
    del text
    if not args.json:
        for line in annotation_lines(source.record):
            print(line)
    if args.html:
        page = report_html(report, title=f"Moon record check: {Path(name).name}")
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as e:
            e.filename = args.html if e.filename is None else e.filename
            raise
    return report.status


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
    "language",
    "load",
    "read_text",
    "ruled_in",
    "run",
    "unreadable",
]
