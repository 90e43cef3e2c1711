"""Tuples of actions for a mask of tiles, by table lookup instead of a loop over bits.

The game lists the legal plays (or the bidder's discards) of a mask of tiles as a
tuple of actions in tile order. :func:`mask_items` builds, for 28 values (one per
tile index), the function that gives the values of a mask's tiles: the mask is cut
into chunks of 10, 9 and 9 bits, and each chunk's values are looked up in a table
of every mask of that chunk and joined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")

CHUNKS = ((0, 10), (10, 9), (19, 9))
"""(lowest tile index, width) of each chunk; together they cover tile indices 0-27."""


def chunk_table(items: tuple[_T, ...], low: int, width: int) -> tuple[tuple[_T, ...], ...]:
    """For each ``width``-bit mask ``m``: ``items[low + i]`` for each bit ``i`` of ``m``,
    in order."""
    table: list[tuple[_T, ...]] = [()]
    for m in range(1, 1 << width):
        rest = m & (m - 1)  # m without its lowest bit, which comes first
        table.append((items[low + (m ^ rest).bit_length() - 1], *table[rest]))
    return tuple(table)


def mask_items(items: tuple[_T, ...]) -> Callable[[int], tuple[_T, ...]]:
    """The function giving ``tuple(items[i] for each bit i of mask)`` for a 28-bit mask."""
    if len(items) != 28:
        raise ValueError(f"one item per tile index is needed (28), not {len(items)}")
    low = chunk_table(items, *CHUNKS[0])
    mid = chunk_table(items, *CHUNKS[1])
    high = chunk_table(items, *CHUNKS[2])

    def of_mask(mask: int) -> tuple[_T, ...]:
        return low[mask & 1023] + mid[mask >> 10 & 511] + high[mask >> 19]

    return of_mask


__all__ = ["CHUNKS", "chunk_table", "mask_items"]
