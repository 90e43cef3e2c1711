"""Reading a game from a record: a file, or the record's text, in JSON or the text notation.

:func:`read_record` is the one call that takes whatever a user has at hand, the way
``chess.pgn.read_game`` does for chess, and gives the game's state. What it is given is
told apart by one rule, never by guessing from the file system:

- an :class:`os.PathLike` (a :class:`pathlib.Path`) is always a path;
- a ``str`` is the record's text when it holds a line break or begins (after blanks and
  a byte-order mark) with ``{``: a JSON record is an object, and a record in the
  notation has a line per step; any other ``str`` is a path.

So ``read_record("game.json")`` reads a file and ``read_record(text)`` reads text; a file
whose name holds a line break or begins with ``{`` is read by passing a
:class:`~pathlib.Path`. The text, read or given, is JSON when it begins with ``{`` or ``[``
(:func:`~moonrules.records.notation.looks_like_json`, as ``moonrules check`` tells them
apart) and the notation otherwise.

>>> import json, moonrules
>>> state = moonrules.new_game(seed=5, first_bidder=0)
>>> state = moonrules.apply(state, moonrules.Bid(4))
>>> text = json.dumps(moonrules.to_record(state))
>>> read_record(text) == state
True
>>> from moonrules.records.notation import write_notation
>>> read_record(write_notation(moonrules.to_record(state))) == state
True
>>> read_record("no-such-game.json")
Traceback (most recent call last):
...
moonrules.records.values.RecordError: source: no file 'no-such-game.json' (No such file or \
directory); a str is read as a path unless it holds a line break or begins with '{'
"""

from __future__ import annotations

import os
from typing import Final

from moonrules.game import GameState
from moonrules.records.jsontext import MAX_RECORD_BYTES, TooLarge, read_bounded, size_text
from moonrules.records.notation import looks_like_json, parse_notation
from moonrules.records.record import load_record
from moonrules.records.replay import from_record
from moonrules.records.values import RecordError
from moonrules.rules.contract import check_int
from moonrules.rules.errors import quote, wrong_type

_BLANKS: Final = "\ufeff \t\r\n"


def is_record_text(source: str) -> bool:
    """Whether :func:`read_record` reads the ``str`` ``source`` as a record's text (it holds a
    line break or begins with ``{``) rather than as a path.

    >>> [is_record_text(s) for s in ('{"hands": []}', "seed 1\\nhand 1", "games/7.moon")]
    [True, True, False]
    """
    return "\n" in source or "\r" in source or source.lstrip(_BLANKS)[:1] == "{"


def read_record(
    source: str | os.PathLike[str], *, max_length: int | None = MAX_RECORD_BYTES
) -> GameState:
    """The state of the game a record describes: ``source`` is a path or the record's text,
    told apart as the module says, in JSON or in the notation.

    A record longer than ``max_length`` bytes (default 4 MiB; ``None`` for no limit) is
    refused before it is parsed. Raises :class:`~moonrules.records.values.RecordError`
    for a file that cannot be read and for text that is no record (the notation's
    :class:`~moonrules.records.notation.NotationError` names the line), and
    :class:`~moonrules.records.record.RecordViolation` (with the clause) for a record
    that breaks a rule, as :func:`~moonrules.records.replay.from_record` does.
    """
    if max_length is not None:
        check_int(max_length, "max_length", 1, what="a size in bytes")
    if isinstance(source, str):
        text = source if is_record_text(source) else _read_file(source, max_length)
    elif isinstance(source, os.PathLike):
        path = os.fspath(source)
        if not isinstance(path, str):
            raise wrong_type("source", "a path of text, not of bytes", source)
        text = _read_file(path, max_length)
    else:
        raise wrong_type("source", "a path (str or os.PathLike) or a record's text", source)
    if max_length is not None and len(text) > max_length:
        raise RecordError("source", f"the record is longer than {size_text(max_length)}")
    if not text.strip(_BLANKS):
        raise RecordError("source", "the record is empty: expected a JSON record or the notation")
    if looks_like_json(text):
        return from_record(load_record(text.lstrip("\ufeff"), max_length=max_length))
    return from_record(parse_notation(text.lstrip("\ufeff")).record)


def _read_file(path: str, max_length: int | None) -> str:
    """The text of the file at ``path``: UTF-8, at most ``max_length`` bytes."""
    try:
        with open(path, "rb") as stream:
            data = stream.read() if max_length is None else read_bounded(stream, max_length)
    except TooLarge:
        raise RecordError(
            "source", f"{quote(path)} is longer than {size_text(max_length or 0)}"
        ) from None
    except FileNotFoundError as e:
        raise RecordError(
            "source",
            f"no file {quote(path)} ({e.strerror}); a str is read as a path unless it holds "
            "a line break or begins with '{'",
        ) from e
    except OSError as e:
        raise RecordError("source", f"cannot read {quote(path)}: {e.strerror or e}") from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError("source", f"{quote(path)} is not UTF-8 text (byte {e.start})") from None


__all__ = ["is_record_text", "read_record"]
