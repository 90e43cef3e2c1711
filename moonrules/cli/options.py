"""Argument types and checks the commands share: names, whole numbers, sizes, seconds,
workers, and files to write; the options of the commands that speak to a target engine."""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from typing import Final

from moonrules.records.jsontext import MAX_NUMBER_LENGTH, MAX_RAISED_BYTES, size_text
from moonrules.rules.errors import ParseError, quote, shown

MAX_WORKERS: Final = 4 * (os.cpu_count() or 1)
"""The most worker processes a command starts: four per core (more never helps)."""

_WHOLE: Final = re.compile(r"[+-]?[0-9]+")


def name_list(text: str) -> list[str]:
    """Comma-separated names, at least one (an argparse type)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one name, comma-separated")
    return names


def whole_number(text: str) -> int:
    """A whole number in ASCII digits, at most 100 characters long, as a record's numbers
    (an argparse type; ``int`` also takes other scripts' digits and 4,300 of them)."""
    t = text.strip()
    if _WHOLE.fullmatch(t) is None or len(t) > MAX_NUMBER_LENGTH:
        limit = f"at most {MAX_NUMBER_LENGTH} characters" if t.isascii() else "in ASCII digits"
        raise argparse.ArgumentTypeError(f"expected a whole number ({limit}), not {quote(text)}")
    return int(t)


_BYTES: Final = re.compile(r"([0-9]{1,12})([kKmMgG]?)")
_UNIT_SHIFT: Final = {"": 0, "k": 10, "m": 20, "g": 30}


def byte_count(text: str) -> int:
    """A positive number of bytes, as an option gives it: ``1000000``, ``64k``, ``16M``; at most
    :data:`~moonrules.records.jsontext.MAX_RAISED_BYTES` (an argparse type: more is refused
    in one line, before anything is read)."""
    m = _BYTES.fullmatch(text.strip())
    if m is None or int(m.group(1)) == 0:
        raise argparse.ArgumentTypeError(
            f"expected a positive number of bytes (like 16M or 500k), not {quote(text)}"
        )
    value = int(m.group(1)) << _UNIT_SHIFT[m.group(2).lower()]
    if value > MAX_RAISED_BYTES:
        raise argparse.ArgumentTypeError(
            f"at most {size_text(MAX_RAISED_BYTES)} ({MAX_RAISED_BYTES >> 20}M), not {quote(text)}"
        )
    return value


def check_output(path: str, option: str) -> None:
    """Refuse ``path`` as the file ``option`` writes, before any work is done: a directory, a
    directory that does not exist, or a place where no file can be written. A file that
    exists is left as it is (it is replaced only when the work is done); one that does not
    is created and removed again, to be sure. A device (``/dev/stdout``) is only checked
    for permission."""
    shown_path = quote(path, 240)
    if os.path.isdir(path):
        raise ParseError(f"{option}: cannot write {shown_path}: it is a directory")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise ParseError(
            f"{option}: cannot write {shown_path}: no directory {quote(directory, 240)}"
        )
    try:
        if os.path.isfile(path):
            with open(path, "ab"):
                pass
        elif os.path.lexists(path):
            if not os.access(path, os.W_OK):
                raise PermissionError(13, "Permission denied")
        else:
            with open(path, "xb"):
                pass
            os.unlink(path)
    except OSError as e:
        raise ParseError(f"{option}: cannot write {shown_path}: {e.strerror or e}") from None


def _float(text: str) -> float:
    """``float(text)`` for ASCII text without ``_`` (``float`` takes other scripts' digits)."""
    if not text.isascii() or "_" in text or len(text) > MAX_NUMBER_LENGTH:
        raise ValueError(text)
    return float(text)


def finite_number(text: str) -> float:
    """A finite number in ASCII digits (an argparse type): ``nan`` and ``inf`` are refused."""
    try:
        value = _float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {quote(text)}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, not {quote(text)}")
    return value


def check_range(value: int | None, option: str, low: int, high: int) -> None:
    """Refuse ``value`` of ``option`` outside ``low`` … ``high`` (``None``: not given)."""
    if value is None:
        return
    if value < low:
        raise ParseError(f"{option} must be at least {low}, not {shown(value)}")
    if value > high:
        raise ParseError(f"{option} must be at most {high:,}, not {shown(value)}")


def check_workers(value: int, option: str = "--workers") -> int:
    """``value`` if it is a number of worker processes from 1 to :data:`MAX_WORKERS`."""
    check_range(value, option, 1, MAX_WORKERS)
    return value


def seconds(what: str) -> Callable[[str], float]:
    """An argparse type for a number of seconds: finite, above 0, at most a day; a refusal
    names ``what``."""

    def parse(text: str) -> float:
        from moonrules.conformance.target import TargetError, check_timeout

        try:
            value = _float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quote(text)} is not a number of seconds") from None
        try:
            return check_timeout(value, what)
        except TargetError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse


def add_target(p: argparse.ArgumentParser, help_text: str) -> None:
    """``--target COMMAND`` (required) of the commands that speak to a target engine
    (``conform``, ``fuzz``): its command line."""
    p.add_argument("--target", required=True, metavar="COMMAND", help=help_text)


def add_compare(p: argparse.ArgumentParser, help_text: str) -> None:
    """``--compare LEVEL`` of the commands that speak to a target engine (``conform``,
    ``fuzz``): what must agree, ``strict`` by default."""
    p.add_argument(
        "--compare", choices=("strict", "code", "outcome"), default="strict", help=help_text
    )


def add_timeout(p: argparse.ArgumentParser, what: str) -> None:
    """``--timeout S`` of the commands that speak to a target engine (``conform``,
    ``fuzz``): the seconds it may take to answer one request; a refusal names ``what``."""
    from moonrules.conformance.target import DEFAULT_TIMEOUT

    p.add_argument(
        "--timeout",
        type=seconds(what),
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds the target may take to answer one request (default {DEFAULT_TIMEOUT:g})",
    )
