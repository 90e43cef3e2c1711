"""The bot interface: a bot sees one seat's :class:`~moonrules.game.views.PlayerView` and a
:class:`random.Random`, and returns one legal action.

A bot never receives the game state. Everything it may know comes from the view
(VIEW-1): its own tiles, the auction, the trump, the tiles played, the widow and
the discard only if it is the bidder, and the rules. :func:`view_legal_actions`
derives the legal actions from the view alone; :func:`knowledge` gathers what the
seat knows about the tiles it cannot see (how many each seat holds, the suits a
seat has shown out of), which is what a bot that samples the hidden tiles needs.
"""

from __future__ import annotations

import functools
import random
from typing import Protocol, runtime_checkable

import attrs

from moonrules.game import Action, Bid, Discard, NameTrump, Pass, Phase, Play, PlayerView
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.rules.auction import PASS, Auction, legal_calls
from moonrules.rules.contract import typed
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import RuleSet
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
