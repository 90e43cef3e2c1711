"""DEAL-1's shuffle: the tiles of a hand of a seeded game, in the order they are dealt.

:func:`shuffle_with` drawing from :func:`generator` is the one place the deal of a seeded game
is computed: :func:`shuffled` and :func:`dealt_masks` for the reference
(:mod:`moonrules.game.deal`), :class:`Dealer` for the fast engine (:mod:`moonrules.engine`).
It is plain, strictly typed Python that an install with ``MOONRULES_COMPILE=1`` also compiles
with mypyc (``moonrules.kernel.compiled``): every hand of every game is dealt here.

Its cost is mostly the generator's seeding, which DEAL-1 fixes: Mersenne Twister's
``init_by_array`` (about 1,900 steps in C, some 3.5 µs of the 6.5 µs a deal takes on the
machine of ``bench/engine.py``). The rest is kept small: :func:`generator` seeds once, as
``random.Random(text)`` does, without its Python-level steps, and the draws are taken 32 bits
at a time from one ``getrandbits`` call rather than one call a draw.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Callable
from typing import Final

from moonrules.rules.ruleset import RuleSet
from moonrules.rules.tiles import TileSet

_DRAW_BITS: Final = tuple((i, (i + 1).bit_length()) for i in range(27, 0, -1))
"""(position, bits to draw for a number below position + 1), last position first."""


_SHUFFLE_PLAN: Final = {
    ts: (tuple(t.index for t in ts.tiles), _DRAW_BITS[28 - len(ts.tiles) :]) for ts in TileSet
}
"""Per tile set: its tile indices in tile order, and the draws that shuffle them."""

WORDS: Final = 48
"""The generator's 32-bit outputs fetched at a time: a shuffle of 28 tiles draws about 37
(rejections included); more are fetched when a shuffle needs them."""


def shuffled(rules: RuleSet, seed: int, hand_number: int) -> list[int]:
    """The tile indices of the rule set, shuffled for hand ``hand_number`` of game ``seed``.

    The shuffle of ``random.shuffle`` in CPython 3.11-3.13, written out so that
    a change there cannot change the deals: from the last position down, swap
    with a position below it drawn by rejection from ``getrandbits``.
    """
    indices, draws = _SHUFFLE_PLAN[rules.tile_set]
    return shuffle_with(list(indices), draws, generator(seed, hand_number).getrandbits, WORDS)


def generator(seed: int, hand_number: int) -> random.Random:
    """The generator of hand ``hand_number`` of game ``seed``: ``random.Random(text)`` for the
    text ``moonrules/deal/{seed}/{hand_number}`` (:func:`seeded`)."""
    return seeded(f"moonrules/deal/{seed}/{hand_number}")


def seeded(text: str) -> random.Random:
    """``random.Random(text)``, seeded as ``random.Random.seed`` seeds a text (version 2: the
    integer of the text's UTF-8 bytes followed by their sha512 digest, big-endian), by the C
    generator's own ``seed`` once, without the Python-level steps of ``Random.__init__``."""
    data = text.encode()
    g = _NEW(random.Random)
    _SEED(g, int.from_bytes(data + _SHA512(data).digest(), "big"))
    return g


def first_bidder(seed: int, players: int) -> int:
    """BID-1's first bidder of game ``seed`` when none is given: ``randrange(players)`` of
    ``random.Random("moonrules/first-bidder/{seed}")``."""
    return seeded(f"moonrules/first-bidder/{seed}").randrange(players)


_NEW: Final = random.Random.__new__
_SEED: Final = _random.Random.seed
_SHA512: Final = hashlib.sha512


def shuffle_with(
    pool: list[int], draws: tuple[tuple[int, int], ...], bits: Callable[[int], int], words: int
) -> list[int]:
    """``pool`` shuffled in place by ``draws`` (position, bits), each draw ``bits(k)`` of a
    Mersenne Twister, fetched ``words`` 32-bit outputs at a time; ``pool``.

    ``getrandbits(k)`` for ``k <= 32`` is the top ``k`` bits of the generator's next 32-bit
    output, and ``getrandbits(32 * words)`` is the next ``words`` outputs, the first lowest:
    the top byte of output ``o`` is byte ``4 * o + 3`` of its little-endian bytes, so the
    draws are those of one call a draw."""
    block = bits(32 * words).to_bytes(4 * words, "little")
    o = 3
    end = 4 * words
    for i, k in draws:
        shift = 8 - k
        while True:
            if o >= end:
                block = bits(32 * words).to_bytes(4 * words, "little")
                o = 3
            j = block[o] >> shift
            o += 4
            if j <= i:
                break
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def dealt_masks(rules: RuleSet, seed: int, hand_number: int) -> tuple[list[int], int]:
    """:func:`shuffled`'s deal as each seat's tiles (masks; seat 0 the first seven tiles,
    seat 1 the next seven, …) and the widow's tile index (the last tile; -1 without one)."""
    return Dealer(rules).masks(seed, hand_number)


class Dealer:
    """:func:`dealt_masks` for one rule set, its plan read once (the fast engine keeps one)."""

    def __init__(self, rules: RuleSet) -> None:
        indices, draws = _SHUFFLE_PLAN[rules.tile_set]
        self.indices: tuple[int, ...] = indices
        self.draws: tuple[tuple[int, int], ...] = draws
        self.players: int = rules.players
        self.has_widow: bool = rules.has_widow

    def masks(self, seed: int, hand_number: int) -> tuple[list[int], int]:
        """:func:`dealt_masks` of this rule set."""
        pool = list(self.indices)
        shuffle_with(pool, self.draws, generator(seed, hand_number).getrandbits, WORDS)
        masks = []
        k = 0
        for _ in range(self.players):
            m = 0
            for _ in range(7):
                i: int = pool[k]
                m |= 1 << i
                k += 1
            masks.append(m)
        return masks, pool[len(pool) - 1] if self.has_widow else -1


__all__ = [
    "WORDS",
    "Dealer",
    "dealt_masks",
    "first_bidder",
    "generator",
    "seeded",
    "shuffle_with",
    "shuffled",
]
