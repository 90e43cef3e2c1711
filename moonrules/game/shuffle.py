"""DEAL-1's shuffle and BID-1's draw for a seeded game: the tiles of a hand in the order they
are dealt, and the first bidder of the game.

A seeded game draws from byte streams of SHA-512 digests, which any language can reproduce:

- **The stream** of a text ``T`` is the SHA-512 digest of the UTF-8 bytes of ``T/0``, then
  that of ``T/1``, ``T/2`` and so on, 64 bytes each (:func:`stream_block`).
- **A draw** of a number from 0 to ``i`` takes the next byte ``b`` of the stream and keeps its
  top ``k`` bits, ``b >> (8 - k)``, for ``k`` the bit length of ``i``; a number above ``i`` is
  thrown away and the next byte drawn (rejection: every number is equally likely).
- **The deal** of hand ``h`` (1 = the first) of game ``s`` (the seed, a whole number written in
  decimal, with a ``-`` if negative) shuffles the rule set's tile indices, in tile order, by
  Fisher-Yates from the stream of ``moonrules/deal/{s}/{h}``: for each position ``i`` from the
  last down to 1, a draw from 0 to ``i`` names the position it swaps with. Seat 0 gets the
  first seven tiles, seat 1 the next seven, and so on; the widow is the last tile.
- **The first bidder** of game ``s``, when none is given (BID-1), is a draw from 0 to
  ``players - 1`` from the stream of ``moonrules/first-bidder/{s}``.

A shuffle of 28 tiles draws about 36 bytes, mostly from the first digest. :func:`shuffle_with`
is the one place the deal of a seeded game is computed: :func:`shuffled` and
:func:`dealt_masks` for the reference (:mod:`moonrules.game.deal`), :class:`Dealer` for the fast
engine (:mod:`moonrules.engine`). It is plain, strictly typed Python that an install with
``MOONRULES_COMPILE=1`` also compiles with mypyc (``moonrules.kernel.compiled``): every hand of
every game is dealt here.
"""

from __future__ import annotations

import hashlib
from typing import Final

from moonrules.rules.ruleset import RuleSet
from moonrules.rules.tiles import TileSet

_DRAW_BITS: Final = tuple((i, i.bit_length()) for i in range(27, 0, -1))
"""(position, bit length of the position): the draws of a shuffle, last position first."""


_SHUFFLE_PLAN: Final = {
    ts: (tuple(t.index for t in ts.tiles), _DRAW_BITS[28 - len(ts.tiles) :]) for ts in TileSet
}
"""Per tile set: its tile indices in tile order, and the draws that shuffle them."""

_SHA512: Final = hashlib.sha512


def stream_block(text: str, block: int) -> bytes:
    """Block ``block`` (0 = the first) of the byte stream of ``text``: the SHA-512 digest of
    the UTF-8 bytes of ``{text}/{block}``."""
    return _SHA512(f"{text}/{block}".encode()).digest()


def shuffled(rules: RuleSet, seed: int, hand_number: int) -> list[int]:
    """The tile indices of the rule set, shuffled for hand ``hand_number`` of game ``seed``
    (the module's "The deal")."""
    indices, draws = _SHUFFLE_PLAN[rules.tile_set]
    return shuffle_with(list(indices), draws, deal_text(seed, hand_number))


def deal_text(seed: int, hand_number: int) -> str:
    """The text whose stream deals hand ``hand_number`` of game ``seed``."""
    return f"moonrules/deal/{seed}/{hand_number}"


def first_bidder(seed: int, players: int) -> int:
    """BID-1's first bidder of game ``seed`` when none is given: a draw from 0 to
    ``players - 1`` from the stream of ``moonrules/first-bidder/{seed}``."""
    top = players - 1
    return Stream(f"moonrules/first-bidder/{seed}").draw(top, top.bit_length())


class Stream:
    """The byte stream of a text, read from its start, a draw at a time."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.block: bytes = stream_block(text, 0)
        """The digest being read."""
        self.number = 0
        """The block being read."""
        self.at = 0
        """The next byte's place in :attr:`block`."""

    def draw(self, top: int, bits: int) -> int:
        """A number from 0 to ``top`` (``bits`` its bit length): the top ``bits`` bits of the
        next byte, drawn again while above ``top``."""
        shift = 8 - bits
        while True:
            if self.at == 64:
                self.number += 1
                self.block = stream_block(self.text, self.number)
                self.at = 0
            j: int = self.block[self.at] >> shift
            self.at += 1
            if j <= top:
                return j


def shuffle_with(pool: list[int], draws: tuple[tuple[int, int], ...], text: str) -> list[int]:
    """``pool`` shuffled in place by ``draws`` (position, bit length) from the stream of
    ``text``; ``pool``."""
    stream = Stream(text)
    for i, k in draws:
        j = stream.draw(i, k)
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
        shuffle_with(pool, self.draws, deal_text(seed, hand_number))
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
    "Dealer",
    "Stream",
    "deal_text",
    "dealt_masks",
    "first_bidder",
    "shuffle_with",
    "shuffled",
    "stream_block",
]
