"""Trump, suits and ranks (TRUMP-1 … TRUMP-4, SUIT-1 … SUIT-4, LEAD-3).

These are the readable rule functions: the single source of truth. The fast
tables of :mod:`moonrules.kernel.tables` are computed from them.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from moonrules.rules.errors import ArgumentError, ParseError, shown, wrong_type
from moonrules.rules.tiles import Tile

TRUMP_SUIT: Final = 7
"""The suit number used for "trump" (numeric suits are 0-6)."""

Suit = int
"""A suit: 0-6 for a numeric suit, :data:`TRUMP_SUIT` (7) for the trump suit."""


class Trump(Enum):
    """What the bidder named as trump (TRUMP-1): a number 0-6, doubles, or none.

    >>> str(Trump.parse("5")), str(Trump.DOUBLES), str(Trump.NONE)
    ('5', 'doubles', 'none')
    >>> Trump.parse("5").number
    5
    """

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    DOUBLES = 7
    NONE = 8

    @staticmethod
    def of_number(number: int) -> Trump:
        """The trump naming ``number`` (0-6, TRUMP-2)."""
        if type(number) is not int:
            raise wrong_type("number", "a trump number 0-6", number)
        if not 0 <= number <= 6:
            raise ParseError(f"number: a trump number runs from 0 to 6, not {shown(number)}")
        return _BY_VALUE[number]

    @staticmethod
    def parse(text: str | int) -> Trump:
        """Read ``0``-``6``, ``"0"``-``"6"``, ``"doubles"`` or ``"none"`` (also ``"no-trump"``)
        (TRUMP-1); other text or numbers raise :class:`ParseError`, other types
        :class:`TypeError`."""
        if type(text) is int:
            if not 0 <= text <= 6:
                raise ParseError(f"{shown(text)} is not a trump: use 0-6, 'doubles' or 'none'")
            return _BY_VALUE[text]
        if not isinstance(text, str):
            raise wrong_type("text", "a trump: 0-6, 'doubles' or 'none'", text)
        key = text.strip().lower()
        if key in _NAMES:
            return _NAMES[key]
        raise ParseError(f"{shown(text)} is not a trump: use 0-6, 'doubles' or 'none'")

    @property
    def number(self) -> int | None:
        """The trump number, or ``None`` for doubles and no-trump."""
        return self.value if self.value <= 6 else None

    @property
    def is_number(self) -> bool:
        """Whether a number 0-6 is trump."""
        return self.value <= 6

    def __str__(self) -> str:
        if self.value <= 6:
            return str(self.value)
        return "doubles" if self is Trump.DOUBLES else "none"

    def __repr__(self) -> str:
        return f"Trump.{self.name}"

    def to_json(self) -> int | str:
        """The protocol encoding: an integer 0-6, ``"doubles"`` or ``"none"``."""
        return self.value if self.value <= 6 else str(self)


_BY_VALUE: Final[dict[int, Trump]] = {t.value: t for t in Trump}
_NAMES: Final[dict[str, Trump]] = {
    **{str(n): _BY_VALUE[n] for n in range(7)},
    "doubles": Trump.DOUBLES,
    "double": Trump.DOUBLES,
    "none": Trump.NONE,
    "no-trump": Trump.NONE,
    "notrump": Trump.NONE,
    "no trump": Trump.NONE,
    "nt": Trump.NONE,
}
ALL_TRUMPS: Final[tuple[Trump, ...]] = tuple(Trump)


def is_trump(tile: Tile, trump: Trump) -> bool:
    """Whether ``tile`` is a trump (TRUMP-2, TRUMP-3, TRUMP-4).

    >>> is_trump(Tile(6, 2), Trump.TWO), is_trump(Tile(6, 6), Trump.TWO)
    (True, False)
    >>> is_trump(Tile(4, 4), Trump.DOUBLES), is_trump(Tile(4, 4), Trump.NONE)
    (True, False)
    """
    check_tile_and_trump(tile, trump)
    return _is_trump(tile, trump)


def _is_trump(tile: Tile, trump: Trump) -> bool:
    """:func:`is_trump` of arguments already checked."""
    if trump is Trump.NONE:
        return False
    if trump is Trump.DOUBLES:
        return tile.is_double
    return tile.has(trump.value)


def in_suit(tile: Tile, suit: Suit, trump: Trump) -> bool:
    """Whether ``tile`` belongs to ``suit`` under ``trump`` (SUIT-1, SUIT-2).

    A trump belongs to the trump suit only. Any other non-double belongs to the
    suits of both its numbers; a double to its number's suit only.

    >>> in_suit(Tile(5, 3), 3, Trump.SIX), in_suit(Tile(5, 3), 5, Trump.SIX)
    (True, True)
    >>> in_suit(Tile(5, 3), 3, Trump.FIVE)
    False
    >>> in_suit(Tile(4, 4), 4, Trump.DOUBLES)
    False
    """
    check_tile_and_trump(tile, trump)
    check_suit(suit)
    return _in_suit(tile, suit, trump)


def _in_suit(tile: Tile, suit: Suit, trump: Trump) -> bool:
    """:func:`in_suit` of arguments already checked."""
    if _is_trump(tile, trump):
        return suit == TRUMP_SUIT
    if suit == TRUMP_SUIT:
        return False
    return tile.has(suit)


def check_tile_and_trump(tile: Tile, trump: Trump, parameter: str = "tile") -> None:
    """:class:`TypeError` naming the parameter unless ``tile`` is a Tile and ``trump`` a Trump."""
    if type(tile) is not Tile:
        raise wrong_type(parameter, "a Tile (Tile.parse reads '6-4')", tile)
    if type(trump) is not Trump:
        raise wrong_type("trump", "a Trump (Trump.parse reads 0-6, 'doubles', 'none')", trump)


def check_suit(suit: Suit, parameter: str = "suit") -> None:
    """:class:`TypeError` or :class:`ValueError` naming the parameter unless ``suit`` is a
    suit: 0-6, or 7 for the trump suit (SUIT-1)."""
    if type(suit) is not int:
        raise wrong_type(parameter, "a suit: 0-6, or 7 (TRUMP_SUIT) for trump", suit)
    if not 0 <= suit <= TRUMP_SUIT:
        raise ArgumentError(f"{parameter}: a suit is 0-6, or 7 for trump, not {shown(suit)}")


def led_suit(tile: Tile, trump: Trump) -> Suit:
    """The suit a led tile calls (LEAD-3): trump if it is a trump, else its higher number.

    >>> led_suit(Tile(3, 2), Trump.SIX), led_suit(Tile(6, 2), Trump.TWO) == TRUMP_SUIT
    (3, True)
    """
    check_tile_and_trump(tile, trump)
    return _led_suit(tile, trump)


def _led_suit(tile: Tile, trump: Trump) -> Suit:
    """:func:`led_suit` of arguments already checked."""
    if _is_trump(tile, trump):
        return TRUMP_SUIT
    return tile.high


def rank(tile: Tile, suit: Suit, trump: Trump) -> int:
    """The rank of ``tile`` within ``suit`` under ``trump``; higher beats lower (SUIT-3, SUIT-4).

    In a numeric suit (and the trump suit of a number) the double ranks 7, any
    other tile its other end. Among doubles as trump, a double ranks its number.
    Raises ``ValueError`` when the tile is not in the suit.

    >>> [rank(t, 2, Trump.FIVE) for t in (Tile(2, 2), Tile(6, 2), Tile(2, 1))]
    [7, 6, 1]
    >>> rank(Tile(6, 2), TRUMP_SUIT, Trump.TWO) > rank(Tile(3, 2), TRUMP_SUIT, Trump.TWO)
    True
    """
    check_tile_and_trump(tile, trump)
    check_suit(suit)
    return _rank(tile, suit, trump)


def _rank(tile: Tile, suit: Suit, trump: Trump) -> int:
    """:func:`rank` of arguments already checked."""
    if not _in_suit(tile, suit, trump):
        raise ArgumentError(f"tile: {tile} is not in suit {suit_name(suit)} when trump is {trump}")
    if suit == TRUMP_SUIT:
        if trump is Trump.DOUBLES:
            return tile.high
        suit = trump.value
    if tile.is_double:
        return 7
    return tile.other_end(suit)


def suit_tiles(suit: Suit, trump: Trump, among: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The tiles of ``among`` in ``suit``, highest rank first (SUIT-3, SUIT-4)."""
    check_suit(suit)
    members = [t for t in among if in_suit(t, suit, trump)]
    return tuple(sorted(members, key=lambda t: _rank(t, suit, trump), reverse=True))


def suit_name(suit: Suit) -> str:
    """``"trump"`` or the suit's number as text."""
    return "trump" if suit == TRUMP_SUIT else str(suit)


__all__ = [
    "ALL_TRUMPS",
    "TRUMP_SUIT",
    "Suit",
    "Trump",
    "check_suit",
    "check_tile_and_trump",
    "in_suit",
    "is_trump",
    "led_suit",
    "rank",
    "suit_name",
    "suit_tiles",
]
