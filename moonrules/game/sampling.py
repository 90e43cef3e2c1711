"""Dealing the hidden tiles consistently with what a seat knows, uniformly.

Given a seat's :class:`~moonrules.game.knowledge.Knowledge` (the unseen tiles, how
many each other seat holds, the suits each has shown out of, and the one tile
that may lie in no hand: the widow or another bidder's discard), a
:class:`Sampler` draws assignments of the unseen tiles to those places, every
consistent assignment with the same probability.

The tiles are grouped by the set of places they may go to (at most 16 groups);
the number of consistent assignments is counted group by group (a sum of
multinomial coefficients, memoised on the places' remaining room), and each
group's split between its places is drawn in proportion to the completions it
leaves. No rejection, no bias, whatever the voids.

Moved here from :mod:`moonrules.bots.sampling` (which re-exports it) so that layers below
the bots can draw worlds.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from math import factorial

from moonrules.game.knowledge import Knowledge

__all__ = ["Sampler"]

EXTRA = -1
"""The place of a tile in no hand (the widow, or another bidder's discard)."""


def _splits(k: int, rooms: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to split ``k`` tiles into parts no larger than ``rooms``."""
    if len(rooms) == 1:
        if k <= rooms[0]:
            yield (k,)
        return
    for first in range(min(k, rooms[0]) + 1):
        for rest in _splits(k - first, rooms[1:]):
            yield (first, *rest)


class Sampler:
    """Uniform draws of the hidden tiles for one seat's knowledge.

    ``draw(rng)`` returns ``(hands, extra)``: a mask per seat (0 for the seat
    itself) and the mask of the tile in no hand (0 when there is none).
    ``count`` is the number of consistent assignments.
    """

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        places = [s for s, c in enumerate(know.counts) if c > 0]
        if know.extra:
            places.append(EXTRA)
        self.places = tuple(places)
        self.rooms = tuple(know.extra if p == EXTRA else know.counts[p] for p in places)
        groups: dict[int, list[int]] = {}
        for i in range(28):
            if not know.unseen >> i & 1:
                continue
            allowed = 0
            for k, p in enumerate(places):
                if p == EXTRA or not know.void[p] >> i & 1:
                    allowed |= 1 << k
            groups.setdefault(allowed, []).append(i)
        self.groups = tuple(sorted((a, tuple(ts)) for a, ts in groups.items()))
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.count = self._completions(0, self.rooms)
        if self.count == 0:
            raise ValueError("no deal of the unseen tiles is consistent with this view")

    def _options(self, g: int, rooms: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Each split of group ``g`` over the room left, with its multinomial weight."""
        allowed, tiles = self.groups[g]
        idx = [k for k in range(len(rooms)) if allowed >> k & 1]
        k = len(tiles)
        if not idx:
            return
        for parts in _splits(k, tuple(rooms[j] for j in idx)):
            weight = factorial(k)
            for x in parts:
                weight //= factorial(x)
            full = [0] * len(rooms)
            for j, x in zip(idx, parts, strict=True):
                full[j] = x
            yield tuple(full), weight

    def _completions(self, g: int, rooms: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(rooms) else 0
        key = (g, rooms)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        total = 0
        for split, weight in self._options(g, rooms):
            rest = tuple(r - x for r, x in zip(rooms, split, strict=True))
            total += weight * self._completions(g + 1, rest)
        self._memo[key] = total
        return total

    def draw(self, rng: random.Random) -> tuple[tuple[int, ...], int]:
        """One consistent assignment, every one equally likely."""
        masks = [0] * len(self.places)
        rooms = self.rooms
        for g, (_allowed, tiles) in enumerate(self.groups):
            choices = []
            for split, weight in self._options(g, rooms):
                rest = tuple(r - x for r, x in zip(rooms, split, strict=True))
                w = weight * self._completions(g + 1, rest)
                if w:
                    choices.append((split, rest, w))
            pick = rng.randrange(sum(w for _, _, w in choices))
            k = 0
            while pick >= choices[k][2]:
                pick -= choices[k][2]
                k += 1
            split, rest, _ = choices[k]
            order = list(tiles)
            rng.shuffle(order)
            it = iter(order)
            for k, x in enumerate(split):
                for i in itertools.islice(it, x):
                    masks[k] |= 1 << i
            rooms = rest
        hands = [0] * len(self.know.counts)
        extra = 0
        for p, m in zip(self.places, masks, strict=True):
            if p == EXTRA:
                extra = m
            else:
                hands[p] = m
        return tuple(hands), extra
