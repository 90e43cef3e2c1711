"""Tiles and tile sets (TILE-1 … TILE-4).

A tile is an unordered pair of ends 0-6, always written high end first.
Every tile has an index 0-27 (``0-0`` is 0, ``1-0`` is 1, ``1-1`` is 2, …,
``6-6`` is 27); the index order is the tile order, by high end then low end.
Sets of tiles are often handled as bit masks over those indices.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Final

import attrs

from moonrules.rules.errors import ArgumentError, ParseError, quote, shown, wrong_type

_TILE_RE = re.compile(r"^\s*([0-9])\s*-\s*([0-9])\s*$")


def _check_end(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        raise wrong_type(attribute.name, "a tile end, a whole number from 0 to 6", value)
    if not 0 <= value <= 6:
        raise ParseError(
            f"{attribute.name}: a tile end is a whole number from 0 to 6, not {shown(value)}"
        )


@attrs.frozen(slots=True, order=True, repr=False)
class Tile:
    """A domino tile (TILE-1): ``high`` ≥ ``low``, both 0-6.

    >>> Tile(6, 4)
    Tile(6, 4)
    >>> str(Tile.parse("4-6"))
    '6-4'
    >>> Tile(3, 3).is_double
    True
    """

    high: int = attrs.field(validator=_check_end)
    low: int = attrs.field(validator=_check_end)
    _index: int = attrs.field(init=False, repr=False, eq=False, order=False, hash=False)

    def __attrs_post_init__(self) -> None:
        if self.low > self.high:
            raise ParseError(
                f"a tile is written high end first: Tile({self.low}, {self.high}), "
                f"not Tile({self.high}, {self.low})"
            )
        object.__setattr__(self, "_index", _index(self.high, self.low))

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``"6-4"`` or ``"4-6"`` (TILE-1); other text raises :class:`ParseError`, and
        anything but text :class:`TypeError`."""
        if type(text) is str:
            known = _WRITTEN.get(text)
            if known is not None:
                return known
        elif not isinstance(text, str):
            raise wrong_type("text", "a tile written as text like '6-4'", text)
        m = _TILE_RE.match(text)
        if m is None:
            raise ParseError(
                f"{quote(text)} is not a tile: write two numbers 0-6 joined by '-', like '6-4'"
            )
        a, b = int(m.group(1)), int(m.group(2))
        if a > 6 or b > 6:
            raise ParseError(f"{quote(text)} is not a tile: tile ends run from 0 to 6")
        return TILES[_index(max(a, b), min(a, b))]

    @staticmethod
    def from_index(index: int) -> Tile:
        """The tile with index ``index`` (0-27); :class:`ValueError` for any other number."""
        if type(index) is not int or not 0 <= index < len(TILES):
            if not isinstance(index, int) or isinstance(index, bool):
                raise wrong_type("index", "a tile index 0-27", index)
            raise ArgumentError(f"index: a tile index runs from 0 to 27, not {shown(index)}")
        return TILES[index]

    @property
    def index(self) -> int:
        """This tile's index 0-27 (``0-0`` is 0, ``6-6`` is 27)."""
        return self._index

    @property
    def is_double(self) -> bool:
        """Whether both ends are the same number."""
        return self.high == self.low

    @property
    def pips(self) -> int:
        """The total of both ends."""
        return self.high + self.low

    def has(self, number: int) -> bool:
        """Whether either end of the tile is ``number``."""
        return self.high == number or self.low == number

    def other_end(self, number: int) -> int:
        """The end that is not ``number`` (``number`` itself for a double)."""
        if self.high == number:
            return self.low
        if self.low == number:
            return self.high
        raise ValueError(f"{self} has no end {number}")

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


def _index(high: int, low: int) -> int:
    return high * (high + 1) // 2 + low


TILES: Final[tuple[Tile, ...]] = tuple(Tile(h, lo) for h in range(7) for lo in range(h + 1))
"""All 28 tiles of a double-six set, by index."""

assert all(t.index == i for i, t in enumerate(TILES))

_WRITTEN: Final[dict[str, Tile]] = {
    f"{a}-{b}": TILES[_index(max(a, b), min(a, b))] for a in range(7) for b in range(7)
}
"""The 49 texts ``"a-b"`` of ends 0-6, read once (:meth:`Tile.parse` looks here first; any
other text goes through the pattern, so that what it refuses, and how, stays the same)."""


def tile(text: str | Tile) -> Tile:
    """Coerce ``"6-4"`` (or a :class:`Tile`) to a :class:`Tile` (TILE-1)."""
    if isinstance(text, Tile):
        return text
    if not isinstance(text, str):
        raise wrong_type("text", "a Tile or a tile written as text like '6-4'", text)
    return Tile.parse(text)


def tiles(texts: Iterable[str | Tile] | str) -> tuple[Tile, ...]:
    """Coerce many tiles (TILE-1); a string is split on whitespace and commas.

    >>> tiles("6-4 3-3, 1-0")
    (Tile(6, 4), Tile(3, 3), Tile(1, 0))
    """
    if isinstance(texts, str):
        texts = [p for p in re.split(r"[\s,]+", texts) if p]
    elif isinstance(texts, (bytes, bytearray)) or not isinstance(texts, Iterable):
        raise wrong_type("texts", "tiles, or text like '6-4 3-3'", texts)
    out = []
    for i, t in enumerate(texts):
        if not isinstance(t, (Tile, str)):
            raise wrong_type(f"texts[{i}]", "a Tile or a tile written as text like '6-4'", t)
        out.append(tile(t))
    return tuple(out)


def check_tiles(
    value: object,
    parameter: str,
    *,
    most: int | None = None,
    least: int = 0,
    distinct: bool = True,
) -> tuple[Tile, ...]:
    """``value`` as a tuple of distinct tiles, ``least`` to ``most`` of them.

    :class:`TypeError` naming ``parameter`` for anything but a sequence of :class:`Tile`
    values (``hand[2]`` for its third item), :class:`~moonrules.rules.errors.ArgumentError`
    naming it for a tile given twice (unless not ``distinct``) or a count out of range:
    one tile is in one place (TILE-2 … TILE-4).
    """
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise wrong_type(parameter, "a sequence of Tile values", value)
    seen = 0
    for i, t in enumerate(value):
        if type(t) is not Tile:
            raise wrong_type(f"{parameter}[{i}]", "a Tile (Tile.parse reads '6-4')", t)
        bit = 1 << t._index
        if seen & bit and distinct:
            raise ArgumentError(f"{parameter}: {t} is given twice; a tile is in one place only")
        seen |= bit
    n = len(value)
    if n < least or (most is not None and n > most):
        count = f"{least} to {most}" if most is not None else f"at least {least}"
        raise ArgumentError(f"{parameter}: {count} tiles, not {n}")
    return tuple(value)


def mask_of(ts: Iterable[Tile]) -> int:
    """The bit mask of a collection of tiles."""
    m = 0
    for t in ts:
        m |= 1 << t.index
    return m


def indices_of(mask: int) -> list[int]:
    """The tile indices of a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_MASK_TILES_CACHE: dict[int, tuple[Tile, ...]] = {}


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit mask, in tile order (lowest first)."""
    cached = _MASK_TILES_CACHE.get(mask)
    if cached is not None:
        return cached
    out = tuple(TILES[i] for i in range(28) if mask >> i & 1)
    if len(_MASK_TILES_CACHE) < 1 << 16:
        _MASK_TILES_CACHE[mask] = out
    return out


class TileSet(Enum):
    """Which tiles a rule set plays with (TILE-2, TILE-3, TILE-4)."""

    MOON_22 = "moon-22"
    """The double-six set less 0-1 … 0-6: 22 tiles (TILE-2)."""
    DOUBLE_SIX_28 = "double-six-28"
    """The whole double-six set: 28 tiles (TILE-3)."""
    NO_DOUBLE_BLANK_21 = "no-double-blank-21"
    """The 22-tile set less 0-0: 21 tiles (TILE-4)."""

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set's tiles in tile order."""
        return _SET_TILES[self]

    @property
    def mask(self) -> int:
        """The set's bit mask."""
        return _SET_MASKS[self]

    def __repr__(self) -> str:
        return f"TileSet.{self.name}"


MOON_SET: Final[tuple[Tile, ...]] = tuple(t for t in TILES if t.low != 0 or t.high == 0)
"""The 22-tile Moon set (TILE-2)."""
DOUBLE_SIX_SET: Final[tuple[Tile, ...]] = TILES
"""The 28-tile double-six set (TILE-3)."""
NO_DOUBLE_BLANK_SET: Final[tuple[Tile, ...]] = tuple(t for t in MOON_SET if t.high != 0)
"""The 21-tile set without 0-0 (TILE-4)."""

_SET_TILES: Final[dict[TileSet, tuple[Tile, ...]]] = {
    TileSet.MOON_22: MOON_SET,
    TileSet.DOUBLE_SIX_28: DOUBLE_SIX_SET,
    TileSet.NO_DOUBLE_BLANK_21: NO_DOUBLE_BLANK_SET,
}
_SET_MASKS: Final[dict[TileSet, int]] = {k: mask_of(v) for k, v in _SET_TILES.items()}

assert len(MOON_SET) == 22 and len(NO_DOUBLE_BLANK_SET) == 21

__all__ = [
    "DOUBLE_SIX_SET",
    "MOON_SET",
    "NO_DOUBLE_BLANK_SET",
    "TILES",
    "Tile",
    "TileSet",
    "check_tiles",
    "indices_of",
    "mask_of",
    "tile",
    "tiles",
    "tiles_of",
]
