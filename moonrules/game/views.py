"""What one seat may see (VIEW-1).

A :class:`PlayerView` holds the public part of a state and the seat's own
tiles; never another seat's hand, and the widow and the discard only for the
bidder, once taken or made. Two states that differ only in tiles hidden from a
seat give that seat equal views.
"""

from __future__ import annotations

import attrs

from moonrules.game.actions import Phase, call_action
from moonrules.game.state import GameState, Trick
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of


@attrs.frozen(slots=True)
class PlayerView:
    """One seat's view of a game (VIEW-1)."""

    seat: int
    players: int
    hand_number: int
    scores: tuple[int, ...]
    phase: Phase
    to_act: int | None
    first_bidder: int
    hand: tuple[Tile, ...]
    """This seat's own tiles."""
    hand_sizes: tuple[int, ...]
    """How many tiles each seat holds (public)."""
    calls: tuple[object, ...]
    bidder: int | None
    bid: int | None
    trump: Trump | None
    leader: int | None
    trick: tuple[Tile, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    widow: Tile | None
    """The widow, for the bidder once taken; ``None`` for everyone else."""
    discard: Tile | None
    """The discard, for the bidder once made; ``None`` for everyone else."""
    is_over: bool
    winner: int | None
    rules: RuleSet
    """The rules of the game (public): with the rest of the view, enough to know the legal
    actions of the seat to act."""


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (VIEW-1)."""
    if type(seat) is not int or not 0 <= seat < state.rules.players:
        raise ValueError(f"seats are numbered 0 to {state.rules.players - 1}, not {seat!r}")
    h = state.hand
    is_bidder = seat == h.bidder
    return PlayerView(
        seat=seat,
        players=state.rules.players,
        hand_number=h.number,
        scores=state.scores,
        phase=h.phase,
        to_act=state.to_act,
        first_bidder=h.first_bidder,
        hand=tiles_of(h.hands[seat]),
        hand_sizes=tuple(m.bit_count() for m in h.hands),
        calls=tuple(call_action(c) for c in h.calls),
        bidder=state.bidder,
        bid=state.bid,
        trump=state.trump,
        leader=state.leader,
        trick=state.trick,
        tricks=h.tricks,
        tricks_won=state.tricks_won,
        widow=TILES[h.widow] if is_bidder and h.widow_taken else None,
        discard=TILES[h.discard] if is_bidder and h.discard >= 0 else None,
        is_over=state.is_over,
        winner=state.winner,
        rules=state.rules,
    )


__all__ = ["PlayerView", "view"]
