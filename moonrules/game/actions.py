"""The actions a player takes, and the phases of a hand that wait for them.

Actions are small frozen values that compare by value and sort by kind, then value:
:class:`Pass` and :class:`Bid` in the auction, :class:`Discard` and :class:`NameTrump`
by the bidder, :class:`Play` in the play. :class:`Phase` says which the hand waits for.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

import attrs

from moonrules.rules.auction import MOON, PASS
from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, shown, wrong_type
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile


class Action:
    """Base of the five actions. Actions compare by value and sort by kind, then value."""

    __slots__ = ()

    @property
    def sort_key(self) -> tuple[int, int]:
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.sort_key < other.sort_key


@attrs.frozen(slots=True, repr=False, order=False)
class Pass(Action):
    """Pass in the auction (BID-3)."""

    @property
    def sort_key(self) -> tuple[int, int]:
        return (0, 0)

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@attrs.frozen(slots=True, order=False, field_transformer=typed)
class Bid(Action):
    """Bid ``amount`` tricks (BID-3, BID-4); 21 is the moon."""

    amount: int

    @property
    def sort_key(self) -> tuple[int, int]:
        return (0, self.amount)

    def __str__(self) -> str:
        return f"bid {self.amount}"


@attrs.frozen(slots=True, order=False, field_transformer=typed)
class Discard(Action):
    """The bidder's discard after taking the widow (WIDOW-1)."""

    tile: Tile

    @property
    def sort_key(self) -> tuple[int, int]:
        return (1, self.tile.index)

    def __str__(self) -> str:
        return f"discard {self.tile}"


@attrs.frozen(slots=True, order=False, field_transformer=typed)
class NameTrump(Action):
    """The bidder names trump (TRUMP-1)."""

    trump: Trump

    @property
    def sort_key(self) -> tuple[int, int]:
        return (2, self.trump.value)

    def __str__(self) -> str:
        return f"trump {self.trump}"


@attrs.frozen(slots=True, order=False, field_transformer=typed)
class Play(Action):
    """Play a tile to the trick (TRICK-1)."""

    tile: Tile

    @property
    def sort_key(self) -> tuple[int, int]:
        return (3, self.tile.index)

    def __str__(self) -> str:
        return f"play {self.tile}"


GameAction = Pass | Bid | Discard | NameTrump | Play
"""Any one of the five actions (what :func:`~moonrules.game.play.apply` matches on)."""


def call_action(call: int) -> Pass | Bid:
    """The action for an auction call: ``0`` is a pass (BID-3), any other a bid (BID-4)."""
    action = BID_ACTIONS.get(call) if type(call) is int else None
    if action is not None:
        return action
    if call == PASS and type(call) is int:
        return PASS_ACTION
    if type(call) is not int:
        raise wrong_type("call", "a call: 0 (pass) or a bid", call)
    raise ArgumentError(f"call: 0 (pass) or a bid of 3 to 7 or 21, not {shown(call)}")


PASS_ACTION: Final = Pass()
BID_ACTIONS: Final[dict[int, Bid]] = {b: Bid(b) for b in (3, 4, 5, 6, 7, MOON)}
"""The bid actions, by amount."""
PLAY_ACTIONS: Final[tuple[Play, ...]] = tuple(Play(t) for t in TILES)
"""The play actions, by tile index."""
DISCARD_ACTIONS: Final[tuple[Discard, ...]] = tuple(Discard(t) for t in TILES)
"""The discard actions, by tile index."""
TRUMP_ACTIONS: Final[dict[Trump, NameTrump]] = {t: NameTrump(t) for t in Trump}
"""The actions naming each trump."""


class Phase(Enum):
    """What the hand in progress waits for."""

    BIDDING = "bidding"
    DISCARD = "discard"
    TRUMP = "trump"
    PLAY = "play"
    DONE = "done"
    """A finished hand (played out or thrown in): in ``history``, or the last hand of a game."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


__all__ = [
    "BID_ACTIONS",
    "DISCARD_ACTIONS",
    "PASS_ACTION",
    "PLAY_ACTIONS",
    "TRUMP_ACTIONS",
    "Action",
    "Bid",
    "Discard",
    "GameAction",
    "NameTrump",
    "Pass",
    "Phase",
    "Play",
    "call_action",
]
