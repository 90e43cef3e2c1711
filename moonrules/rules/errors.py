"""The library's error types.

Every error raised on purpose by moonrules is a :class:`MoonError`. Errors about
something the rules forbid carry the ID of the clause of ``spec/rules.md`` that
forbids it, and a sentence a player understands.

Every exception class of moonrules is a :class:`PicklableError`: a copy, a deep copy
or a pickle of an error (one that crosses a process pool) has its type, its message
and every field of the original.

>>> import pickle
>>> e = pickle.loads(pickle.dumps(IllegalAction("BID-3", "too low", seat=1, call=4)))
>>> type(e).__name__, str(e), e.rule, e.seat, e.call
('IllegalAction', 'too low (BID-3)', 'BID-3', 1, 4)
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from moonrules.rules.suits import Trump
    from moonrules.rules.tiles import Tile

QUOTE_LENGTH: Final = 40
"""Error messages quote at most this many characters of the input at fault."""


class PicklableError(Exception):
    """An exception that a copy, a deep copy or a pickle rebuilds whole: its ``args`` (the
    message) and every field, without calling ``__init__`` again.

    The default way (``cls(*args)``, then the fields) fails for any class whose
    ``__init__`` takes other arguments than the message it passes on, as most of ours do.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self.args, dict(vars(self))))


def _rebuilt(
    cls: type[BaseException], args: tuple[object, ...], fields: dict[str, object]
) -> BaseException:
    """The error of class ``cls`` with ``args`` and ``fields`` (see :class:`PicklableError`)."""
    error = cls.__new__(cls, *args)
    error.args = args
    vars(error).update(fields)
    return error


class MoonError(PicklableError):
    """Base class of every error moonrules raises on purpose."""


class ParseError(MoonError, ValueError):
    """Text that should name a tile, trump, call, rule set or record does not."""


class ArgumentError(MoonError, ValueError):
    """An argument of the right type whose value is impossible: a seat that is not at the
    table, a tile given twice, a count below one. The message begins with the parameter's
    name (``"bidder: seats are numbered 0 to 2, not 5"``).

    It is a :class:`ValueError`, as Python's own functions raise for such values, and a
    :class:`MoonError`, as every error moonrules raises on purpose.
    """


class RulesError(MoonError, ValueError):
    """A rule set that cannot be played: its options contradict each other (RULES-1).

    ``rule`` is the clause broken, ``message`` the sentence, ``field`` the field of the
    rule set at fault when one is (the error's text then begins with it).
    """

    rule: str
    field: str | None

    def __init__(self, message: str, rule: str = "RULES-1", field: str | None = None) -> None:
        super().__init__(f"{field}: {message} ({rule})" if field else f"{message} ({rule})")
        self.rule = rule
        self.message = message
        self.field = field


class IllegalAction(MoonError):
    """Well-formed, but the rules forbid it.

    ``rule`` is the clause ID (e.g. ``"FOLLOW-2"``); ``message`` a sentence a player
    understands. The other fields say the same in data, for code that rules on the
    error (arbitration, the protocol): never parse ``message``.

    - ``reason``: ``message`` without its closing list of what was allowed (the
      part a ruling quotes before its own "Legal plays were: …");
    - ``seat``: the seat that acted, or was to act (``None`` when none was);
    - ``tile``, ``call``, ``trump``: what was played or discarded, called, named;
    - ``allowed_tiles``, ``allowed_calls``, ``allowed_trumps``: what the rules allowed
      instead (``None`` when the error is not about a choice of that kind; ``()``
      when nothing was allowed).

    >>> e = IllegalAction("BID-3", "a bid of 5 does not beat 6", seat=1, call=5,
    ...                   allowed_calls=(0, 7))
    >>> e.rule, e.message, e.seat, e.call, e.allowed_calls
    ('BID-3', 'a bid of 5 does not beat 6', 1, 5, (0, 7))
    """

    rule: str
    message: str
    reason: str
    seat: int | None
    tile: Tile | None
    call: int | None
    trump: Trump | None
    allowed_tiles: tuple[Tile, ...] | None
    allowed_calls: tuple[int, ...] | None
    allowed_trumps: tuple[Trump, ...] | None

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        reason: str | None = None,
        seat: int | None = None,
        tile: Tile | None = None,
        call: int | None = None,
        trump: Trump | None = None,
        allowed_tiles: tuple[Tile, ...] | None = None,
        allowed_calls: tuple[int, ...] | None = None,
        allowed_trumps: tuple[Trump, ...] | None = None,
    ) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
        self.reason = message if reason is None else reason
        self.seat = seat
        self.tile = tile
        self.call = call
        self.trump = trump
        self.allowed_tiles = allowed_tiles
        self.allowed_calls = allowed_calls
        self.allowed_trumps = allowed_trumps


class OutOfTurn(IllegalAction):
    """A player acted when it was not their turn, or out of the current phase (TURN-1)."""


class IllegalDeal(IllegalAction):
    """A supplied deal does not divide the rule set's tiles exactly (DEAL-3)."""


def quote(text: str, length: int = QUOTE_LENGTH) -> str:
    """``text`` quoted for an error message: all of it, or its first ``length`` characters.

    >>> quote("6-6")
    "'6-6'"
    >>> quote("x" * 100, 5)
    "'xxxxx'… (100 characters)"
    """
    if len(text) <= length:
        return repr(text)
    return f"{text[:length]!r}… ({len(text)} characters)"


def shown(value: object) -> str:
    """Any value for an error message, at most a short prefix of it: text as by :func:`quote`.

    >>> shown(list(range(100)))
    '[0, 1, 2, 3, 4, 5, ...]'
    >>> shown(10**5000)
    'a number of more than 40 digits'
    >>> shown([("6-6",) * 7] * 3)
    "[('6-6', '6-6', '6-6', '6-6', '6-6', '6-6', ...), ('6-6', '6-6', '6-6', '6-6', '…"
    """
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int) and not -_BIG < value < _BIG:
        return f"a number of more than {QUOTE_LENGTH} digits"
    text = reprlib.repr(value)
    return text if len(text) <= 2 * QUOTE_LENGTH else f"{text[: 2 * QUOTE_LENGTH]}…"


_BIG: Final = 10**QUOTE_LENGTH


def wrong_type(parameter: str, expected: str, value: object) -> TypeError:
    """The :class:`TypeError` for an argument of the wrong type, naming the parameter.

    >>> wrong_type("trump", "a Trump", 6)
    TypeError('trump: expected a Trump, not 6')
    """
    return TypeError(f"{parameter}: expected {expected}, not {shown(value)}")


def install_extra(extra: str) -> str:
    """How to install one of the package's extras, from an index and from a checkout.

    Every message that asks for an extra says it so: ``pip install 'moonrules[x]'``
    alone would send someone working in a checkout to the index instead.

    >>> install_extra("table")
    "pip install 'moonrules[table]' (in a checkout of moonrules: pip install -e '.[table]')"
    """
    checkout = f"pip install -e '.[{extra}]'"
    return f"pip install 'moonrules[{extra}]' (in a checkout of moonrules: {checkout})"


__all__ = [
    "ArgumentError",
    "IllegalAction",
    "IllegalDeal",
    "MoonError",
    "OutOfTurn",
    "ParseError",
    "PicklableError",
    "RulesError",
    "install_extra",
    "quote",
    "shown",
    "wrong_type",
]
