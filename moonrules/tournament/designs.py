"""Resolvable designs of triples: rounds in which no two players meet twice.

A Kirkman triple system of order ``n`` splits the pairs of ``n`` players into
``(n - 1) / 2`` rounds of ``n / 3`` triples, every pair meeting exactly once. One exists
for every ``n`` divisible by 3 and odd (``n ≡ 3 (mod 6)``, Ray-Chaudhuri and Wilson, 1971);
:func:`kirkman` gives those it knows how to build: the affine geometries AG(k, 3) (``n`` a
power of 3: the parallel classes of its lines) and Kirkman's fifteen schoolgirls.
"""

from __future__ import annotations

import itertools
from typing import Final

Triple = tuple[int, int, int]
Resolution = tuple[tuple[Triple, ...], ...]

SCHOOLGIRLS: Final[Resolution] = (
    ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14)),
    ((0, 3, 6), (1, 4, 7), (2, 9, 12), (5, 10, 13), (8, 11, 14)),
    ((0, 4, 9), (1, 5, 11), (2, 7, 14), (3, 8, 13), (6, 10, 12)),
    ((0, 5, 14), (1, 3, 12), (2, 6, 11), (4, 8, 10), (7, 9, 13)),
    ((0, 7, 10), (1, 6, 13), (2, 5, 8), (3, 9, 14), (4, 11, 12)),
    ((0, 8, 12), (1, 10, 14), (2, 4, 13), (3, 7, 11), (5, 6, 9)),
    ((0, 11, 13), (1, 8, 9), (2, 3, 10), (4, 6, 14), (5, 7, 12)),
)
"""A solution of Kirkman's schoolgirl problem (1850): 15 players, 7 rounds of 5 triples,
every pair together once (found by a backtracking search, checked by the tests)."""


def _affine(k: int) -> Resolution:
    """The parallel classes of the lines of AG(k, 3): point ``x`` is the number whose
    base-3 digits are its coordinates; a class is a direction (a non-zero vector whose
    first non-zero coordinate is 1), its triples the lines ``p, p + d, p + 2d``."""
    points = list(itertools.product(range(3), repeat=k))

    def number(p: tuple[int, ...]) -> int:
        return sum(c * 3**i for i, c in enumerate(p))

    rounds: list[tuple[Triple, ...]] = []
    for d in points:
        nonzero = [c for c in d if c]
        if not nonzero or nonzero[0] != 1:
            continue
        seen: set[int] = set()
        lines: list[Triple] = []
        for p in points:
            if number(p) in seen:
                continue
            line = [tuple((p[i] + t * d[i]) % 3 for i in range(k)) for t in range(3)]
            a, b, c = sorted(number(q) for q in line)
            seen.update((a, b, c))
            lines.append((a, b, c))
        rounds.append(tuple(sorted(lines)))
    return tuple(rounds)


def kirkman(n: int) -> Resolution | None:
    """A Kirkman triple system of ``n`` players (numbered ``0 … n-1``) as its rounds, or
    ``None`` when none is known here (``n`` not 15 nor a power of 3 up to 243)."""
    if n == 15:
        return SCHOOLGIRLS
    for k in range(1, 6):
        if n == 3**k:
            return _affine(k)
    return None
