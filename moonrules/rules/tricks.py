"""Following suit and winning tricks (LEAD-1 … LEAD-3, FOLLOW-1 … FOLLOW-3, TRICK-2)."""

from __future__ import annotations

from collections.abc import Sequence

from moonrules.rules.errors import ArgumentError, wrong_type
from moonrules.rules.suits import (
    TRUMP_SUIT,
    Trump,
    _in_suit,
    _is_trump,
    _led_suit,
    _rank,
    check_tile_and_trump,
)
from moonrules.rules.tiles import Tile, check_tiles


def follows(tile: Tile, led: Tile, trump: Trump) -> bool:
    """Whether ``tile`` follows the suit called by the led tile ``led`` (FOLLOW-1, FOLLOW-2).

    >>> follows(Tile(5, 3), Tile(3, 2), Trump.SIX)
    True
    >>> follows(Tile(6, 3), Tile(3, 2), Trump.SIX)   # a trump never follows another suit
    False
    """
    check_tile_and_trump(tile, trump)
    check_tile_and_trump(led, trump, "led")
    return _in_suit(tile, _led_suit(led, trump), trump)


def _check_trump(trump: Trump) -> None:
    if type(trump) is not Trump:
        raise wrong_type("trump", "a Trump (Trump.parse reads 0-6, 'doubles', 'none')", trump)


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
    hand = check_tiles(hand, "hand")
    trick = check_tiles(trick, "trick", most=3)
    _check_trump(trump)
    if type(lead_trump) is not bool:
        raise wrong_type("lead_trump", "True or False", lead_trump)
    both = set(hand).intersection(trick)
    if both:
        raise ArgumentError(f"trick: {min(both)} is on the table and in the hand at once")
    if not trick:
        if lead_trump:
            trumps = tuple(t for t in hand if _is_trump(t, trump))
            if trumps:
                return trumps
        return hand
    suit = _led_suit(trick[0], trump)
    following = tuple(t for t in hand if _in_suit(t, suit, trump))
    return following if following else hand


def trick_winner(trick: Sequence[Tile], trump: Trump) -> int:
    """The index in ``trick`` (led tile first) of the tile that wins it (TRICK-2).

    The highest trump wins; with no trump played, the highest tile of the suit
    led. A tile that neither follows nor trumps never wins. A trick holds one tile per
    player, so one to four distinct tiles (TRICK-1).

    >>> trick_winner([Tile(3, 2), Tile(6, 3), Tile(3, 3)], Trump.SIX)
    1
    >>> trick_winner([Tile(3, 2), Tile(5, 3), Tile(3, 3)], Trump.SIX)
    2
    """
    trick = check_tiles(trick, "trick", least=1, most=4)
    _check_trump(trump)
    led = _led_suit(trick[0], trump)
    best = 0
    best_key = (led == TRUMP_SUIT, _rank(trick[0], led, trump))
    for i in range(1, len(trick)):
        t = trick[i]
        if _is_trump(t, trump):
            key = (True, _rank(t, TRUMP_SUIT, trump))
        elif _in_suit(t, led, trump):
            key = (False, _rank(t, led, trump))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


__all__ = ["follows", "legal_plays", "trick_winner"]
