"""The seeded byte streams of DEAL-1 and BID-1 written out plainly from ``hashlib``, as an
implementer in another language would from ``moonrules.game.shuffle``'s description: what
the library's shuffle (pure and compiled) is held to."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator


def stream(text: str) -> Iterator[int]:
    """The bytes of the stream of ``text``: SHA-512 of ``text/0``, ``text/1``, …"""
    block = 0
    while True:
        yield from hashlib.sha512(f"{text}/{block}".encode()).digest()
        block += 1


def draw(source: Iterator[int], top: int) -> int:
    """A number from 0 to ``top`` by rejection from the top bits of the stream's bytes."""
    while True:
        j = next(source) >> (8 - top.bit_length())
        if j <= top:
            return j


def deal_order(indices: list[int], seed: int, number: int) -> list[int]:
    """``indices`` shuffled as hand ``number`` of game ``seed`` deals them."""
    pool = list(indices)
    source = stream(f"moonrules/deal/{seed}/{number}")
    for i in range(len(pool) - 1, 0, -1):
        j = draw(source, i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def first_bidder(seed: int, players: int) -> int:
    """BID-1's first bidder of game ``seed``."""
    return draw(stream(f"moonrules/first-bidder/{seed}"), players - 1)
