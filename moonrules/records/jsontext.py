"""Reading JSON text within limits: records, protocol requests and engines' answers.

Whatever arrives, reading it takes bounded memory and time, and anything that
cannot be read is refused with a :class:`JSONTextError` (a :class:`ValueError`)
rather than an exception from deep inside :mod:`json`:

- text longer than a size limit is refused before it is parsed; a stream is
  read only up to the limit (:func:`read_bounded`, :func:`read_line`);
- arrays and objects nested more than :data:`MAX_DEPTH` deep are refused;
- a number written with more than :data:`MAX_NUMBER_LENGTH` characters, or one
  too large for a float (``1e400``), is refused;
- ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON and are refused;
- an object that names a member twice is refused.

JSON itself has ASCII digits only. The limits are stated in ``docs/limits.md``.

>>> loads('{"seed": 7, "hands": []}')
{'seed': 7, 'hands': []}
>>> loads('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
moonrules.records.jsontext.JSONTextError: arrays and objects are nested more than 64 deep
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from itertools import accumulate
from typing import IO, Any, Final

from moonrules.rules.errors import PicklableError, quote, shown, wrong_type

JSON = Any

MAX_DEPTH: Final = 64
"""Arrays and objects nested deeper than this are refused (a record needs 5 levels)."""

MAX_NUMBER_LENGTH: Final = 100
"""A number written with more characters than this (sign and exponent included) is refused."""

MAX_RECORD_BYTES: Final = 4 * 1024 * 1024
"""The default largest record (4 MiB: several thousand hands); ``--max-bytes`` raises it."""

MAX_LINE_BYTES: Final = 4 * 1024 * 1024
"""The default longest protocol line (4 MiB, newline excluded); ``serve --max-line-bytes``."""

MAX_RAISED_BYTES: Final = 64 * 1024 * 1024
"""The most ``--max-bytes`` and ``--max-line-bytes`` may be raised to (64 MiB): memory grows
with the size of a record, about 40 bytes for each of its bytes at the most."""


class JSONTextError(PicklableError, ValueError):
    """JSON text that cannot be read; ``limit`` is true when a limit refused it.

    ``line`` and ``column`` (from 1) say where the text stops being JSON (a syntax
    error, whose ``message`` is :mod:`json`'s, e.g. ``Expecting value``); ``None``
    for a refusal of the whole text or of one value.
    """

    def __init__(
        self, message: str, *, line: int | None = None, column: int | None = None, limit: bool
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.limit = limit


def size_text(n: int) -> str:
    """A size limit for a message: ``4 MiB``, ``512 KiB`` or ``100 bytes``."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


# ---------------------------------------------------------------------------
# Parsing


_STRING: Final = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
"""A string, to its closing quote or, unclosed, to the end of the text. Every quantifier is
possessive and a string always matches once it has begun, so the engine never goes back:
each character is looked at once, whatever the text (an unclosed string full of escaped
quotes included, which took a time quadratic in its length with a pattern that could fail)."""
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def _too_deep(text: str, max_depth: int) -> bool:
    """Whether arrays and objects in ``text`` nest more than ``max_depth`` deep.

    Brackets inside strings do not count (nor, in text that is not JSON, those after a
    string left open). Linear in the length of the text, at C speed but for one step per
    bracket outside strings.
    """
    if text.count("[") + text.count("{") <= max_depth:
        return False
    outside = _STRING.sub("", text) if '"' in text else text
    brackets = _NOT_BRACKET.sub("", outside)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > max_depth


class _Refused(Exception):
    """Raised by the parser's hooks; carries the reason out of :func:`json.loads`."""

    def __init__(self, message: str, *, limit: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_LENGTH:
        raise _Refused(
            f"a number is written with {len(text)} digits "
            f"(at most {MAX_NUMBER_LENGTH}): {quote(text, 20)}",
            limit=True,
        )
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_LENGTH:
        raise _Refused(
            f"a number is written with {len(text)} characters "
            f"(at most {MAX_NUMBER_LENGTH}): {quote(text, 20)}",
            limit=True,
        )
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {quote(text, 20)} is too large", limit=True)
    return value


def _constant(name: str) -> JSON:
    raise _Refused(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the member name {quote(key)} appears twice in one object")
            seen.add(key)
    return out


SHARED_LENGTH: Final = 8
"""Strings of at most this many characters read in arrays and objects are kept once
(:func:`loads`): a record's thousands of ``"6-6"`` and ``"pass"`` share one string each."""


def _sharing(memo: dict[str, str]) -> Callable[[list[tuple[str, JSON]]], dict[str, JSON]]:
    """The object hook of one :func:`loads`: :func:`_no_duplicates`, and each short string
    among the object's values and in the arrays under it (not under another object) made
    the one string ``memo`` keeps for that text. Each value is looked at once."""

    def share(value: JSON) -> JSON:
        if type(value) is str:
            return memo.setdefault(value, value) if len(value) <= SHARED_LENGTH else value
        if type(value) is list:
            stack = [value]
            while stack:
                items = stack.pop()
                for i, v in enumerate(items):
                    if type(v) is str:
                        if len(v) <= SHARED_LENGTH:
                            items[i] = memo.setdefault(v, v)
                    elif type(v) is list:
                        stack.append(v)
        return value

    def hook(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
        out = _no_duplicates(pairs)
        for key, value in pairs:
            if type(value) is str or type(value) is list:
                out[key] = share(value)
        return out

    return hook


SHORT_TEXT: Final = 16 * 1024
"""Text of at most this many characters (a protocol request, an answer) is read by one
decoder made once, without sharing strings (:data:`SHARED_LENGTH`: it saves memory only
in long records): the same values, the same refusals, a third of the time."""

_LONG_DIGITS: Final = re.compile(f"[0-9]{{{MAX_NUMBER_LENGTH}}}")
"""A run of digits as long as the longest number: only text holding one can hold a whole
number over :data:`MAX_NUMBER_LENGTH` characters (:func:`_int` is skipped without one)."""

_SHORT: Final = json.JSONDecoder(
    parse_float=_float, parse_constant=_constant, object_pairs_hook=_no_duplicates
)
"""The decoder of short text: :func:`json.loads`'s own (a whole number read by ``int`` in
C) with this module's refusals."""


def loads(text: str, *, max_length: int | None = None) -> JSON:
    """Parse strict JSON text within the limits; :class:`JSONTextError` says what is wrong.

    ``max_length`` (characters) refuses longer text before it is parsed.
    """
    if max_length is not None and len(text) > max_length:
        raise JSONTextError(
            f"the text is longer than {size_text(max_length)} (the limit)", limit=True
        )
    if _too_deep(text, MAX_DEPTH):
        raise JSONTextError(f"arrays and objects are nested more than {MAX_DEPTH} deep", limit=True)
    try:
        if (
            type(text) is str
            and len(text) <= SHORT_TEXT
            and _LONG_DIGITS.search(text) is None
            and not text.startswith("\ufeff")
        ):
            return _SHORT.decode(text)
        return json.loads(
            text,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_sharing({}),
        )
    except json.JSONDecodeError as e:
        raise JSONTextError(e.msg, line=e.lineno, column=e.colno, limit=False) from None
    except _Refused as e:
        raise JSONTextError(e.message, limit=e.limit) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JSONTextError("nested too deeply", limit=True) from None


# ---------------------------------------------------------------------------
# Reading streams


class TooLarge(PicklableError):
    """A stream or a line longer than its limit; ``limit`` is that limit in bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"longer than {size_text(limit)}")
        self.limit = limit


def check_limit(value: int, parameter: str, high: int = sys.maxsize - 1) -> int:
    """``value`` if it is a whole number of bytes from 1 to ``high``: :class:`TypeError` or
    :class:`ValueError` naming ``parameter`` otherwise."""
    if type(value) is not int:
        raise wrong_type(parameter, "a whole number of bytes", value)
    if not 1 <= value <= high:
        raise ValueError(f"{parameter}: a number of bytes from 1 to {high:,}, not {shown(value)}")
    return value


def read_bounded(stream: IO[bytes], max_bytes: int) -> bytes:
    """All of ``stream``, reading at most ``max_bytes + 1`` bytes: :class:`TooLarge` beyond.

    Memory stays bounded whatever the stream is (``/dev/zero`` included).
    """
    check_limit(max_bytes, "max_bytes")
    chunks: list[bytes] = []
    size = 0
    while size <= max_bytes:
        chunk = stream.read(min(1 << 20, max_bytes + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise TooLarge(max_bytes)


def read_line(stream: IO[bytes], max_bytes: int) -> bytes | TooLarge | None:
    """The next line of ``stream`` (its line feed included), ``None`` at the end.

    A line longer than ``max_bytes`` (line feed excluded) gives a :class:`TooLarge`,
    returned rather than raised, as soon as ``max_bytes + 1`` bytes have been read;
    the rest of the line is still to be read: answer it, then call :func:`skip_line`,
    which drops the rest a chunk at a time. Memory stays bounded whatever arrives.
    """
    check_limit(max_bytes, "max_bytes")
    line = stream.readline(max_bytes + 1)
    if not line:
        return None
    if len(line) <= max_bytes or line.endswith(b"\n"):
        return line
    return TooLarge(max_bytes)


def skip_line(stream: IO[bytes]) -> None:
    """Read and drop the rest of the current line (up to and including its line feed)."""
    while True:
        chunk = stream.readline(1 << 16)
        if not chunk or chunk.endswith(b"\n"):
            return


__all__ = [
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_NUMBER_LENGTH",
    "MAX_RAISED_BYTES",
    "MAX_RECORD_BYTES",
    "JSONTextError",
    "TooLarge",
    "check_limit",
    "loads",
    "quote",
    "read_bounded",
    "read_line",
    "size_text",
    "skip_line",
]
