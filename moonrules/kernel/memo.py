"""Memoised forms of the auction and scoring rules, for the game's hot paths.

Each function here returns what the rule function of ``moonrules.rules`` it
names returns, remembered per argument (rule sets are hashable values). Nothing here
decides anything of its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final, TypeVar

from moonrules.rules.auction import Auction, legal_calls
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.scoring import score_hand
from moonrules.rules.suits import Trump

_T = TypeVar("_T")


@functools.lru_cache(maxsize=1 << 12)
def calls_after(rules: RuleSet, calls: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`~moonrules.rules.auction.legal_calls` after ``calls`` (BID-2 … BID-8)."""
    return legal_calls(Auction(calls, 0, rules))


@functools.lru_cache(maxsize=1 << 12)
def auction_end(rules: RuleSet, calls: tuple[int, ...], first_bidder: int) -> tuple[bool, int, int]:
    """``(over, winner, bid)`` of the auction of ``calls``; the winner is -1 while it goes on
    or when all passed (from :class:`~moonrules.rules.auction.Auction`)."""
    auction = Auction(calls, first_bidder, rules)
    winner = auction.winner
    return auction.is_over, -1 if winner is None else winner, auction.high_bid


scored: Final = functools.lru_cache(maxsize=1 << 12)(score_hand)
""":func:`~moonrules.rules.scoring.score_hand`, memoised (its arguments are hashable)."""


@functools.lru_cache(maxsize=64)
def offered(rules: RuleSet) -> frozenset[Trump]:
    """The trumps ``rules`` offer (TRUMP-5), as a set."""
    return frozenset(rules.trumps)


def per_calls(
    convert: Callable[[int], _T],
) -> Callable[[RuleSet, tuple[int, ...]], tuple[_T, ...]]:
    """``convert`` of each of :func:`calls_after`, memoised (e.g. the calls as actions)."""

    @functools.lru_cache(maxsize=1 << 12)
    def converted(rules: RuleSet, calls: tuple[int, ...]) -> tuple[_T, ...]:
        return tuple(convert(c) for c in calls_after(rules, calls))

    return converted


def per_trump(convert: Callable[[Trump], _T]) -> Callable[[RuleSet], tuple[_T, ...]]:
    """``convert`` of each trump ``rules`` offer, in order, memoised."""

    @functools.lru_cache(maxsize=64)
    def converted(rules: RuleSet) -> tuple[_T, ...]:
        return tuple(convert(t) for t in rules.trumps)

    return converted


__all__ = ["auction_end", "calls_after", "offered", "per_calls", "per_trump", "scored"]
