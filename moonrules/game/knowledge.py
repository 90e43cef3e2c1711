"""What one seat knows about the tiles it cannot see, from its view alone.

:func:`knowledge` gathers it from a :class:`~moonrules.game.views.PlayerView`: the
tiles the seat cannot see, how many each seat holds, the suits a seat has shown out of
(and, under LEAD-2, a first leader's missing trumps). It is what drawing the hidden
tiles needs (:mod:`moonrules.game.sampling`, :mod:`moonrules.game.resample`).

Moved here from :mod:`moonrules.bots.base` (which re-exports it) so that layers below the
bots can draw worlds.
"""

from __future__ import annotations

import functools

import attrs

from moonrules.game.views import PlayerView
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.rules.contract import typed
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.tiles import TILES, mask_of

__all__ = ["Knowledge", "knowledge"]


@attrs.frozen(slots=True, field_transformer=typed)
class Knowledge:
    """What one seat knows about the tiles it cannot see, from its view alone.

    ``unseen`` is the mask of the tiles that are neither in the seat's hand, nor
    played, nor (for the bidder) the discard: they are in the other seats'
    hands, or are the widow not yet taken, or the discard of another bidder.
    ``counts[s]`` is how many tiles seat ``s`` holds (0 for this seat), and
    ``extra`` how many unseen tiles are in none of the hands (0 or 1: the
    widow or the discard). ``void[s]`` is the mask of the tiles seat ``s``
    cannot hold: the suits it has shown out of (FOLLOW-1, FOLLOW-2) and, under
    LEAD-2, the trumps of a first leader who led another suit.
    """

    seat: int
    unseen: int
    counts: tuple[int, ...]
    extra: int
    void: tuple[int, ...]
    played: tuple[int, ...]
    """The mask of the tiles each seat has played in this hand."""


@functools.lru_cache(maxsize=1 << 14)
def _ruled_out(played: int, led: int, trump: int, rules: RuleSet, first: bool) -> int:
    """The tiles a seat cannot have held when it played tile index ``played``.

    A tile ``x`` is ruled out when holding it beside ``played`` would have made
    ``played`` illegal: the kernel's one copy of LEAD-2 and FOLLOW-1 … FOLLOW-3
    (:func:`moonrules.kernel.masks.legal_mask`) decides, so no rule is restated here.
    """
    done = 0 if first else 1
    out = 0
    for x in range(len(TILES)):
        pair = (1 << played) | (1 << x)
        if x != played and not legal_mask(pair, led, trump, rules, done) >> played & 1:
            out |= 1 << x
    return out


def knowledge(view: PlayerView) -> Knowledge:
    """Gather :class:`Knowledge` from ``view`` (nothing else is read)."""
    if type(view) is not PlayerView:
        raise wrong_type("view", "a PlayerView (moonrules.view)", view)
    n = view.players
    own = mask_of(view.hand)
    played = [0] * n
    void = [0] * n
    trump = None if view.trump is None else view.trump.value
    all_tricks: list[tuple[int, tuple[int, ...]]] = [
        (t.leader, tuple(x.index for x in t.tiles)) for t in view.tricks
    ]
    if view.trick:
        assert view.leader is not None
        all_tricks.append((view.leader, tuple(x.index for x in view.trick)))
    for k, (leader, tiles) in enumerate(all_tricks):
        assert trump is not None
        for pos, i in enumerate(tiles):
            seat = (leader + pos) % n
            played[seat] |= 1 << i
            led = tiles[0] if pos else NO_LEAD
            void[seat] |= _ruled_out(i, led, trump, view.rules, k == 0)
    out = own
    for m in played:
        out |= m
    if view.discard is not None:
        out |= 1 << view.discard.index
    unseen = view.rules.tile_set.mask & ~out
    counts = tuple(0 if s == view.seat else view.hand_sizes[s] for s in range(n))
    extra = unseen.bit_count() - sum(counts)
    if extra not in (0, 1):  # pragma: no cover - a view always adds up
        raise ValueError(f"the view does not add up: {extra} unseen tiles in no hand")
    void[view.seat] = 0
    return Knowledge(view.seat, unseen, counts, extra, tuple(void), tuple(played))
