"""Following suit and winning tricks (LEAD-1 … LEAD-3, FOLLOW-1 … FOLLOW-3, TRICK-2)."""

from __future__ import annotations

from collections.abc import Sequence

from moonrules.rules.errors import wrong_type
from moonrules.rules.suits import (
    TRUMP_SUIT,
    Trump,
    check_tile_and_trump,
    in_suit,
    is_trump,
    led_suit,
    rank,
)
from moonrules.rules.tiles import Tile


def follows(tile: Tile, led: Tile, trump: Trump) -> bool:
    """Whether ``tile`` follows the suit called by the led tile ``led`` (FOLLOW-1, FOLLOW-2).

    >>> follows(Tile(5, 3), Tile(3, 2), Trump.SIX)
    True
    >>> follows(Tile(6, 3), Tile(3, 2), Trump.SIX)   # a trump never follows another suit
    False
    """
    return in_suit(tile, led_suit(led, trump), trump)


def _check_tiles(tiles: Sequence[Tile], parameter: str, trump: Trump) -> None:
    """:class:`TypeError` naming the parameter for anything but a sequence of tiles."""
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Sequence):
        raise wrong_type(parameter, "a sequence of Tile values", tiles)
    for i, t in enumerate(tiles):
        check_tile_and_trump(t, trump, f"{parameter}[{i}]")


def legal_plays(
    hand: Sequence[Tile], trick: Sequence[Tile], trump: Trump, *, lead_trump: bool = False
) -> tuple[Tile, ...]:
    """The tiles of ``hand`` that may be played next to ``trick`` (led tile first).

    Leading, any tile may be played (LEAD-1); with ``lead_trump`` (LEAD-2, the
    first lead of a hand under ``first_lead = trump``) a leader holding a trump
    must lead one. Otherwise the player must follow the suit led if able
    (FOLLOW-1, FOLLOW-2) and may play any tile if not (FOLLOW-3). The result keeps
    the hand's order.

    >>> legal_plays([Tile(5, 3), Tile(6, 6), Tile(1, 1)], [Tile(3, 2)], Trump.SIX)
    (Tile(5, 3),)
    >>> legal_plays([Tile(4, 4), Tile(1, 0)], [Tile(4, 2)], Trump.DOUBLES)
    (Tile(4, 4), Tile(1, 0))
    """
    _check_tiles(hand, "hand", trump)
    _check_tiles(trick, "trick", trump)
    if not trick:
        if lead_trump:
            trumps = tuple(t for t in hand if is_trump(t, trump))
            if trumps:
                return trumps
        return tuple(hand)
    suit = led_suit(trick[0], trump)
    following = tuple(t for t in hand if in_suit(t, suit, trump))
    return following if following else tuple(hand)


def trick_winner(trick: Sequence[Tile], trump: Trump) -> int:
    """The index in ``trick`` (led tile first) of the tile that wins it (TRICK-2).

    The highest trump wins; with no trump played, the highest tile of the suit
    led. A tile that neither follows nor trumps never wins.

    >>> trick_winner([Tile(3, 2), Tile(6, 3), Tile(3, 3)], Trump.SIX)
    1
    >>> trick_winner([Tile(3, 2), Tile(5, 3), Tile(3, 3)], Trump.SIX)
    2
    """
    _check_tiles(trick, "trick", trump)
    if not trick:
        raise ValueError("trick: an empty trick has no winner")
    led = led_suit(trick[0], trump)
    best = 0
    best_key = (led == TRUMP_SUIT, rank(trick[0], led, trump))
    for i in range(1, len(trick)):
        t = trick[i]
        if is_trump(t, trump):
            key = (True, rank(t, TRUMP_SUIT, trump))
        elif in_suit(t, led, trump):
            key = (False, rank(t, led, trump))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


__all__ = ["follows", "legal_plays", "trick_winner"]
