"""Lookup tables compiled from the pure rule functions.

The domain is finite (28 tiles, 9 trumps, 8 suits), so the hot paths of the
game run on tables computed here, at import, by calling the readable rule
functions of :mod:`moonrules.rules.suits` and :mod:`moonrules.rules.tricks` over the whole
domain. Nothing here is written by hand; ``tests/test_tables.py`` checks the
tables against the functions exhaustively.

All tables are indexed by ``trump.value`` (0-8) first and use tile indices
(0-27) and bit masks over them.
"""

from __future__ import annotations

from typing import Final

from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, led_suit, rank
from moonrules.rules.tiles import TILES

SUITS: Final = tuple(range(8))

SUIT_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << t.index for t in TILES if in_suit(t, suit, trump)) for suit in SUITS)
    for trump in Trump
)
"""``SUIT_MASK[trump][suit]``: the tiles of ``suit`` (7 = trump) under ``trump`` (SUIT-1/2)."""

LED_SUIT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(led_suit(t, trump) for t in TILES) for trump in Trump
)
"""``LED_SUIT[trump][tile]``: the suit a led tile calls (LEAD-3)."""

FOLLOW_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(SUIT_MASK[trump.value][LED_SUIT[trump.value][t.index]] for t in TILES) for trump in Trump
)
"""``FOLLOW_MASK[trump][led tile]``: the tiles that follow that lead (FOLLOW-1, FOLLOW-2)."""


def _strength(trump: Trump, suit: int, tile_index: int) -> int:
    t = TILES[tile_index]
    if in_suit(t, TRUMP_SUIT, trump):
        return 16 + rank(t, TRUMP_SUIT, trump)
    if in_suit(t, suit, trump):
        return rank(t, suit, trump)
    return -1


STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(_strength(trump, suit, i) for i in range(28)) for suit in SUITS) for trump in Trump
)
"""``STRENGTH[trump][led suit][tile]``: higher wins the trick; -1 never wins (TRICK-2).

A trump is 16 + its trump rank; a tile of the suit led its rank in that suit.
"""


def winner_index(trick: tuple[int, ...], trump: int) -> int:
    """Index of the winning tile of a trick of tile indices (TRICK-2), by the tables."""
    strength = STRENGTH[trump][LED_SUIT[trump][trick[0]]]
    best = 0
    best_s = strength[trick[0]]
    for i in range(1, len(trick)):
        s = strength[trick[i]]
        if s > best_s:
            best, best_s = i, s
    return best


__all__ = ["FOLLOW_MASK", "LED_SUIT", "STRENGTH", "SUIT_MASK", "winner_index"]
