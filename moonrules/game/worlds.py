"""Game states built from a view and a guess at the hidden tiles.

A bot that samples the hidden tiles (see :mod:`moonrules.game.sampling`) needs,
for each sample, a whole :class:`~moonrules.game.GameState` at the view's
position, to hand to the double-dummy solver. :func:`world` builds it by
dealing the hand again (the tiles each seat now holds plus those it has played)
and replaying the view's auction, discard, trump and plays with
:func:`~moonrules.game.apply`: whatever the rules forbid would raise, so a world
is always a position the game can reach. :func:`complete_contract` plays a
hypothetical rest of the auction, discard and trump for a seat that is
weighing a bid or a trump.

Moved here from :mod:`moonrules.bots.worlds` (which re-exports it) so that layers below
the bots can draw worlds.
"""

from __future__ import annotations

from collections.abc import Callable

from moonrules.game.actions import Bid, Discard, NameTrump, Pass, Phase, Play
from moonrules.game.deal import new_game
from moonrules.game.knowledge import Knowledge
from moonrules.game.play import apply
from moonrules.game.state import Deal, GameState
from moonrules.game.views import PlayerView
from moonrules.rules.ruleset import WidowTiming
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, mask_of, tiles_of

__all__ = ["complete_contract", "world"]


def _discard_done(view: PlayerView) -> bool:
    """Whether the bidder has discarded in this hand (WIDOW-1, WIDOW-2)."""
    if not view.rules.has_widow or view.bidder is None:
        return False
    if view.phase in (Phase.PLAY, Phase.DONE):
        return True
    return view.phase is Phase.TRUMP and view.rules.widow_timing is WidowTiming.BEFORE_TRUMP


def world(view: PlayerView, know: Knowledge, hands: tuple[int, ...], extra: int) -> GameState:
    """The state at the view's position when the other seats hold ``hands`` (masks, by seat)
    and ``extra`` (a mask of 0 or 1 tile) is the tile in no hand."""
    rules = view.rules
    n = view.players
    current = list(hands)
    current[view.seat] = mask_of(view.hand)
    dealt = [current[s] | know.played[s] for s in range(n)]
    widow = -1
    discard = -1
    if rules.has_widow:
        bidder = view.bidder
        if view.widow is not None:  # this seat is the bidder and has taken the widow
            assert bidder == view.seat
            widow = view.widow.index
            if view.discard is not None:
                discard = view.discard.index
                dealt[bidder] |= 1 << discard
            dealt[bidder] &= ~(1 << widow)
        elif extra:
            widow = extra.bit_length() - 1
            if _discard_done(view):
                discard = widow
        else:
            # another bidder holds eight tiles: any one of them may have been the widow
            assert bidder is not None
            low = dealt[bidder] & -dealt[bidder]
            widow = low.bit_length() - 1
            dealt[bidder] &= ~low
    deal = Deal(
        tuple(tiles_of(m) for m in dealt),
        TILES[widow] if widow >= 0 else None,
    )
    state = new_game(rules, 0, first_bidder=view.first_bidder, deal=deal)
    for call in view.calls:
        state = apply(state, call)  # type: ignore[arg-type]
    while True:
        if state.phase is Phase.DISCARD and discard >= 0:
            state = apply(state, Discard(TILES[discard]))
        elif state.phase is Phase.TRUMP and view.trump is not None:
            state = apply(state, NameTrump(view.trump))
        else:
            break
    for trick in view.tricks:
        for t in trick.tiles:
            state = apply(state, Play(t))
    for t in view.trick:
        state = apply(state, Play(t))
    return state


def complete_contract(
    state: GameState,
    seat: int,
    bid: int | None,
    trump: Trump,
    discard: Callable[[int, Trump], int],
) -> GameState:
    """``state`` carried to the opening lead with ``seat`` as the bidder.

    In the auction ``seat`` bids ``bid`` and everyone after passes; the discard
    is ``discard(mask of the bidder's eight tiles, trump)`` (a tile index); the
    trump is ``trump``.
    """
    while state.phase is not Phase.PLAY:
        phase = state.phase
        if phase is Phase.BIDDING:
            if state.to_act == seat:
                assert bid is not None
                state = apply(state, Bid(bid))
            else:
                state = apply(state, Pass())
        elif phase is Phase.DISCARD:
            held = state.hand.hands[seat]
            state = apply(state, Discard(TILES[discard(held, trump)]))
        elif phase is Phase.TRUMP:
            state = apply(state, NameTrump(trump))
        else:  # pragma: no cover
            raise ValueError(f"no contract can be completed from the {phase.value} phase")
    return state
