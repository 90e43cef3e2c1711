"""What one seat may see (VIEW-1).

A :class:`PlayerView` holds the public part of a state and the seat's own
tiles; never another seat's hand, and the widow and the discard only for the
bidder, once taken or made. Two states that differ only in tiles hidden from a
seat give that seat equal views.
"""

from __future__ import annotations

from typing import Final

import attrs

from moonrules.game.actions import Phase, call_action
from moonrules.game.state import GameState, Trick
from moonrules.kernel.builders import positional_builder
from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, shown, wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
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
    rules: RuleSet = attrs.field(validator=lambda v, _a, _r: _check_view(v))
    """The rules of the game (public): with the rest of the view, enough to know the legal
    actions of the seat to act."""


def _check_view(v: PlayerView) -> None:
    """A view built by hand holds values its rules allow: seats at the table, one entry a
    seat (a side, for the scores), tiles of the rule set, a bid and a trump the rules offer.
    (:func:`view` builds its views without this: they come from a checked state.)"""
    rules = v.rules
    n = rules.players
    if v.players != n:
        raise ArgumentError(f"players: the rules seat {n} players, not {shown(v.players)}")
    seats = {"seat": v.seat, "first_bidder": v.first_bidder, "to_act": v.to_act}
    seats.update({"bidder": v.bidder, "leader": v.leader})
    seats.update({f"tricks[{k}].leader": t.leader for k, t in enumerate(v.tricks)})
    seats.update({f"tricks[{k}].winner": t.winner for k, t in enumerate(v.tricks)})
    for name, seat in seats.items():
        if seat is not None and not 0 <= seat < n:
            raise ArgumentError(f"{name}: seats are numbered 0 to {n - 1}, not {shown(seat)}")
    if v.winner is not None and not 0 <= v.winner < rules.sides:
        raise ArgumentError(
            f"winner: the sides are numbered 0 to {rules.sides - 1}, not {shown(v.winner)}"
        )
    counts = {"scores": (rules.sides, "side"), "hand_sizes": (n, "seat"), "tricks_won": (n, "seat")}
    for name, (count, each) in counts.items():
        got = len(getattr(v, name))
        if got != count:
            raise ArgumentError(f"{name}: one entry a {each} ({count}), not {got}")
    in_set = rules.tile_set.mask
    tiles = {"hand": v.hand, "trick": v.trick}
    tiles.update({f"tricks[{k}].tiles": t.tiles for k, t in enumerate(v.tricks)})
    tiles["widow"] = () if v.widow is None else (v.widow,)
    tiles["discard"] = () if v.discard is None else (v.discard,)
    for name, ts in tiles.items():
        for t in ts:
            if not in_set >> t.index & 1:
                raise ArgumentError(
                    f"{name}: {t} is not a tile of the rules' set ({rules.tile_set.value})"
                )
    if v.bid is not None and v.bid not in rules.bids:
        raise ArgumentError(f"bid: the rules' bids are {list(rules.bids)}, not {shown(v.bid)}")
    if v.trump is not None and v.trump not in rules.trumps:
        raise ArgumentError(f"trump: {v.trump} is not a trump the rules offer")


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (VIEW-1)."""
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    if type(seat) is not int:
        raise wrong_type("seat", "a seat number", seat)
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise ArgumentError(f"seat: seats are numbered 0 to {rules.players - 1}, not {shown(seat)}")
    h = state.hand
    is_bidder = seat == h.bidder
    return _make_view(
        seat,
        rules.players,
        h.number,
        state.scores,
        h.phase,
        state.to_act,
        h.first_bidder,
        tiles_of(h.hands[seat]),
        tuple(map(int.bit_count, h.hands)),
        tuple(map(call_action, h.calls)),
        state.bidder,
        state.bid,
        state.trump,
        state.leader,
        state.trick,
        h.tricks,
        state.tricks_won,
        TILES[h.widow] if is_bidder and h.widow_taken else None,
        TILES[h.discard] if is_bidder and h.discard >= 0 else None,
        state.is_over,
        state.winner,
        rules,
    )


_make_view: Final = positional_builder(PlayerView)
"""``PlayerView(...)`` of its fields in order, unchecked: :func:`view` builds it from a state."""

__all__ = ["PlayerView", "view"]
