"""The bot interface: a bot sees one seat's :class:`~moonrules.game.views.PlayerView` and a
:class:`random.Random`, and returns one legal action.

A bot never receives the game state. Everything it may know comes from the view
(VIEW-1): its own tiles, the auction, the trump, the tiles played, the widow and
the discard only if it is the bidder, and the rules. :func:`view_legal_actions`
derives the legal actions from the view alone; :func:`knowledge` gathers what the
seat knows about the tiles it cannot see (how many each seat holds, the suits a
seat has shown out of), which is what a bot that samples the hidden tiles needs.
``Knowledge`` and ``knowledge`` live in :mod:`moonrules.game.knowledge` and are
re-exported here.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from moonrules.game import Action, Bid, Discard, NameTrump, Pass, Phase, Play, PlayerView
from moonrules.game.knowledge import Knowledge, knowledge
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.rules.auction import PASS, Auction, legal_calls
from moonrules.rules.errors import wrong_type
from moonrules.rules.tiles import TILES, indices_of, mask_of

__all__ = ["Bot", "Knowledge", "call_value", "knowledge", "view_legal_actions"]


@runtime_checkable
class Bot(Protocol):
    """A player: ``act(view, rng)`` returns one of ``view_legal_actions(view)``.

    ``view`` is the seat's view with the seat to act; ``rng`` is the bot's own
    random generator (a bot draws on nothing else, so the same seed gives the
    same play). ``name`` is how matches and the command line show the bot.
    """

    @property
    def name(self) -> str: ...

    def act(self, view: PlayerView, rng: random.Random) -> Action: ...


def call_value(call: object) -> int:
    """An auction call as an ``int`` (``0`` for pass), from its action."""
    if isinstance(call, Bid):
        return call.amount
    if isinstance(call, Pass):
        return PASS
    raise TypeError(f"{call!r} is not a call")


def view_legal_actions(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of the seat whose view this is, sorted as ``legal_actions`` sorts them.

    Only the view is read: BID-2 … BID-8 from the auction and the rules, WIDOW-1
    from the seat's tiles, TRUMP-1/TRUMP-5 from the rules, LEAD-1, LEAD-2 and
    FOLLOW-1 … FOLLOW-3 from the trick on the table. ``()`` once the game is over;
    ``ValueError`` when it is not this seat's turn.
    """
    if type(view) is not PlayerView:
        raise wrong_type("view", "a PlayerView (moonrules.view)", view)
    if view.is_over:
        return ()
    if view.to_act != view.seat:
        raise ValueError(f"it is seat {view.to_act}'s turn, not seat {view.seat}'s")
    rules = view.rules
    phase = view.phase
    if phase is Phase.BIDDING:
        auction = Auction(tuple(call_value(c) for c in view.calls), view.first_bidder, rules)
        return tuple(Pass() if c == PASS else Bid(c) for c in legal_calls(auction))
    if phase is Phase.DISCARD:
        return tuple(Discard(t) for t in view.hand)
    if phase is Phase.TRUMP:
        return tuple(NameTrump(t) for t in rules.trumps)
    if phase is Phase.PLAY:
        assert view.trump is not None
        return tuple(Play(TILES[i]) for i in indices_of(legal_mask_of(view)))
    return ()


def legal_mask_of(view: PlayerView) -> int:
    """The mask of the tiles the seat may play now (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3).

    The rule itself is the kernel's one copy, :func:`moonrules.kernel.masks.legal_mask`.
    """
    assert view.trump is not None
    led = view.trick[0].index if view.trick else NO_LEAD
    return legal_mask(mask_of(view.hand), led, view.trump.value, view.rules, len(view.tricks))
