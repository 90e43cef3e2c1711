"""Argument types the commands share: comma-separated names and a number of seconds."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def name_list(text: str) -> list[str]:
    """Comma-separated names, at least one (an argparse type)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one name, comma-separated")
    return names


def seconds(what: str) -> Callable[[str], float]:
    """An argparse type for a number of seconds: finite, above 0, at most a day; a refusal
    names ``what``."""

    def parse(text: str) -> float:
        from moonrules.conformance.target import TargetError, check_timeout

        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        try:
            return check_timeout(value, what)
        except TargetError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse
