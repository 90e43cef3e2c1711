"""The fast engine's hand in progress as plain integers (:class:`HandState`) and its phase
numbers: the part of :class:`~moonrules.engine.core.Engine`'s state that a hand replaces.

Compiled with :mod:`moonrules.engine.core` by mypyc under ``MOONRULES_COMPILE=1`` (one group:
the engine reads these attributes as native fields).
"""

from __future__ import annotations

from typing import Final

from moonrules.game.actions import Phase
from moonrules.game.state import Claim

BIDDING: Final = 0
"""Phase numbers, in the order of :class:`~moonrules.game.actions.Phase`."""
DISCARDING: Final = 1
NAMING: Final = 2
PLAYING: Final = 3
DONE: Final = 4

PHASES: Final = tuple(Phase)
"""The :class:`~moonrules.game.actions.Phase` of each phase number."""

PHASE_NUMBER: Final = {p: k for k, p in enumerate(Phase)}
"""The phase number of each :class:`~moonrules.game.actions.Phase`."""


class HandState:
    """The hand in progress, as plain integers: what :meth:`Engine.undo` swaps back in
    when a step that dealt the next hand is taken back."""

    def __init__(
        self,
        number: int,
        first_bidder: int,
        deal: list[int],
        widow: int,
        players: int,
    ) -> None:
        self.number: int = number
        self.first_bidder: int = first_bidder
        self.deal: list[int] = deal
        """Each seat's dealt tiles, as masks."""
        self.widow: int = widow
        """The widow's tile index, or -1."""
        self.hands: list[int] = list(deal)
        self.node: int = 0
        """The auction's node in :class:`~moonrules.engine.tables.Tables` (its calls)."""
        self.bidder: int = -1
        self.bid: int = 0
        self.discard: int = -1
        self.trump: int = -1
        self.widow_taken: bool = False
        self.phase: int = BIDDING
        self.leader: int = -1
        """The leader of the trick in progress (-1 before the play)."""
        self.played: list[int] = []
        """Every tile played in the hand, in order: trick ``k`` is ``played[k*n:(k+1)*n]``."""
        self.leaders: list[int] = []
        """The leader of each completed trick."""
        self.winners: list[int] = []
        """The winning seat of each completed trick."""
        self.in_trick: int = 0
        """How many tiles the trick in progress holds."""
        self.tricks_won: list[int] = [0] * players
        self.deltas: list[int] = []
        """The score change of each side once the hand is scored (empty before)."""
        self.renege: int = -1
        self.claim: Claim | None = None
        """The claim that ended the hand (CLAIM-1): a finished hand's, read from a state."""

    def copy(self) -> HandState:
        """A copy sharing no list with this hand."""
        c = HandState(self.number, self.first_bidder, list(self.deal), self.widow, 0)
        c.hands = list(self.hands)
        c.node = self.node
        c.bidder = self.bidder
        c.bid = self.bid
        c.discard = self.discard
        c.trump = self.trump
        c.widow_taken = self.widow_taken
        c.phase = self.phase
        c.leader = self.leader
        c.played = list(self.played)
        c.leaders = list(self.leaders)
        c.winners = list(self.winners)
        c.in_trick = self.in_trick
        c.tricks_won = list(self.tricks_won)
        c.deltas = list(self.deltas)
        c.renege = self.renege
        c.claim = self.claim
        return c


def undealt(number: int, first_bidder: int, players: int) -> HandState:
    """Hand ``number`` before its deal (DEAL-1 deals it when it is first read): no tiles yet,
    the auction waiting for ``first_bidder``."""
    return HandState(number, first_bidder, [0] * players, -1, players)


__all__ = [
    "BIDDING",
    "DISCARDING",
    "DONE",
    "NAMING",
    "PHASES",
    "PHASE_NUMBER",
    "PLAYING",
    "HandState",
    "undealt",
]
