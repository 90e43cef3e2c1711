"""DEAL-1's shuffle: the tiles of a hand of a seeded game, in the order they are dealt.

:func:`shuffled` is the one place the deal of a seeded game is computed; the reference
(:mod:`moonrules.game.deal`) and the fast engine (:mod:`moonrules.engine`) both deal with it.
It is plain, strictly typed Python that an install with ``MOONRULES_COMPILE=1`` also compiles
with mypyc (``moonrules.kernel.compiled``): every hand of every game is dealt here.
"""

from __future__ import annotations

import random
from typing import Final

from moonrules.rules.ruleset import RuleSet
from moonrules.rules.tiles import TileSet

_DRAW_BITS: Final = tuple((i, (i + 1).bit_length()) for i in range(27, 0, -1))
"""(position, bits to draw for a number below position + 1), last position first."""


_SHUFFLE_PLAN: Final = {
    ts: (tuple(t.index for t in ts.tiles), _DRAW_BITS[28 - len(ts.tiles) :]) for ts in TileSet
}
"""Per tile set: its tile indices in tile order, and the draws that shuffle them."""


def shuffled(rules: RuleSet, seed: int, hand_number: int) -> list[int]:
    """The tile indices of the rule set, shuffled for hand ``hand_number`` of game ``seed``.

    The shuffle of ``random.shuffle`` in CPython 3.11-3.13, written out so that
    a change there cannot change the deals: from the last position down, swap
    with a position below it drawn by rejection from ``getrandbits``.
    """
    indices, draws = _SHUFFLE_PLAN[rules.tile_set]
    pool = list(indices)
    bits = random.Random(f"moonrules/deal/{seed}/{hand_number}").getrandbits
    for i, k in draws:
        j = bits(k)
        while j > i:
            j = bits(k)
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def dealt_masks(rules: RuleSet, seed: int, hand_number: int) -> tuple[list[int], int]:
    """:func:`shuffled`'s deal as each seat's tiles (masks; seat 0 the first seven tiles,
    seat 1 the next seven, …) and the widow's tile index (the last tile; -1 without one)."""
    pool = shuffled(rules, seed, hand_number)
    masks = []
    for s in range(rules.players):
        m = 0
        for i in pool[7 * s : 7 * s + 7]:
            m |= 1 << i
        masks.append(m)
    return masks, pool[len(pool) - 1] if rules.has_widow else -1


__all__ = ["dealt_masks", "shuffled"]
