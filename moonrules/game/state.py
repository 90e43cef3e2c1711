"""The values of a game: a hand's contract and play, the game around it, and the state.

A :class:`GameState` is a :class:`Game` (rules, seed, scores, earlier hands, winner)
and the :class:`Hand` in progress (its :class:`Contract` and its play as far as it
went, with completed :class:`Trick` values). All are immutable and equal by value;
:mod:`moonrules.game.play` moves a state on, :mod:`moonrules.game.deal` deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from moonrules.game.actions import Bid, Pass, Phase, call_action
from moonrules.kernel.builders import positional_builder
from moonrules.rules.auction import Auction
from moonrules.rules.contract import typed
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class Trick:
    """A completed trick: who led, the tiles in the order played, the winning seat."""

    leader: int
    tiles: tuple[Tile, ...]
    winner: int

    def seat_of(self, position: int, players: int) -> int:
        """The seat that played the tile at ``position``."""
        return (self.leader + position) % players


@attrs.frozen(slots=True, field_transformer=typed)
class Deal:
    """The tiles each seat was dealt, by seat, and the widow (``None`` without one).

    A deal is checked against a rule set by :func:`check_deal` (DEAL-3).
    """

    hands: tuple[tuple[Tile, ...], ...]
    widow: Tile | None = None

    @staticmethod
    def of(hands: Sequence[Sequence[Tile | str]], widow: Tile | str | None = None) -> Deal:
        """Build a deal from tiles or tile texts (TILE-1), each hand sorted; whether it
        divides a rule set's tiles is :func:`check_deal`'s question (DEAL-3)."""
        from moonrules.rules.tiles import tile

        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
            raise wrong_type("hands", "a sequence of each seat's tiles", hands)
        dealt = []
        for s, h in enumerate(hands):
            if isinstance(h, (str, bytes)) or not isinstance(h, Sequence):
                raise wrong_type(f"hands[{s}]", "a sequence of tiles", h)
            for i, t in enumerate(h):
                if not isinstance(t, (Tile, str)):
                    raise wrong_type(f"hands[{s}][{i}]", "a Tile or text like '6-4'", t)
            dealt.append(tuple(sorted(tile(t) for t in h)))
        if widow is not None and not isinstance(widow, (Tile, str)):
            raise wrong_type("widow", "a Tile, text like '6-4', or None", widow)
        return Deal(tuple(dealt), None if widow is None else tile(widow))


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class Contract:
    """The part of a hand settled before the play: deal, auction, widow and trump.

    Tiles are bit masks and indices (see :mod:`moonrules.rules.tiles`).
    """

    number: int
    """1 for the first hand of the game; thrown-in hands count."""
    first_bidder: int
    deal: tuple[int, ...]
    """Each seat's dealt tiles, as masks."""
    widow: int
    """The widow's tile index, or -1."""
    calls: tuple[int, ...] = ()
    bidder: int = -1
    bid: int = 0
    discard: int = -1
    trump: int = -1
    """``Trump.value``, or -1 before trump is named."""
    widow_taken: bool = False


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class Claim:
    """A claim that held and ended its hand (CLAIM-1): ``seat`` claimed ``tricks`` of the
    tricks then remaining (the trick in progress included); the claimant's side was
    credited with them, and the other side (with four players) with the rest."""

    seat: int
    tricks: int


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class Hand:
    """One hand: its contract (deal, auction, widow, trump) and its play, as far as played.

    Internally tiles are bit masks and indices (see :mod:`moonrules.rules.tiles`); the
    properties of :class:`GameState` give them as :class:`Tile` values.
    """

    contract: Contract
    hands: tuple[int, ...]
    """Each seat's tiles now, as masks."""
    phase: Phase = Phase.BIDDING
    leader: int = -1
    trick: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    tricks_won: tuple[int, ...] = ()
    deltas: tuple[int, ...] | None = None
    """The score change of each side once the hand is scored."""
    renege: int = -1
    """The seat whose renege ended the hand under ``renege = penalty`` (RENEGE-2), or -1."""
    claim: Claim | None = None
    """The claim that ended the hand (CLAIM-1), or ``None``."""

    @property
    def number(self) -> int:
        """1 for the first hand of the game; thrown-in hands count."""
        return self.contract.number

    @property
    def first_bidder(self) -> int:
        return self.contract.first_bidder

    @property
    def deal(self) -> tuple[int, ...]:
        """Each seat's dealt tiles, as masks."""
        return self.contract.deal

    @property
    def widow(self) -> int:
        """The widow's tile index, or -1."""
        return self.contract.widow

    @property
    def calls(self) -> tuple[int, ...]:
        return self.contract.calls

    @property
    def bidder(self) -> int:
        """The bidder's seat, or -1."""
        return self.contract.bidder

    @property
    def bid(self) -> int:
        return self.contract.bid

    @property
    def discard(self) -> int:
        """The discard's tile index, or -1."""
        return self.contract.discard

    @property
    def trump(self) -> int:
        """``Trump.value``, or -1 before trump is named."""
        return self.contract.trump

    @property
    def widow_taken(self) -> bool:
        return self.contract.widow_taken

    @property
    def thrown_in(self) -> bool:
        """Whether every player passed and the hand was thrown in (BID-7)."""
        return self.phase is Phase.DONE and self.contract.bidder < 0


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class Game:
    """The game around the hand in progress: rules, seed, scores, earlier hands, winner.

    It changes only when a hand ends; :class:`GameState` pairs it with the hand
    in progress and reads it through (``state.game.rules``, ``state.game.scores``, …).
    """

    rules: RuleSet
    seed: int
    """Every deal of the game after the first comes from this seed (and any supplied deal)."""
    scores: tuple[int, ...]
    """Points (or marks) per side: per seat, or per team in partnership rules."""
    history: tuple[Hand, ...] = ()
    """Every earlier hand of the game, thrown-in hands included."""
    winner: int | None = None
    """The winning side (a seat; a team in partnership rules), once the game is over."""
    seed_given: bool = attrs.field(default=True, eq=False, repr=False)
    """Whether the seed was given, not assumed: a record without one is read with seed 0
    and written back without it. Not part of the game's value (ignored by ``==``)."""
    open_hand: Hand | None = attrs.field(default=None, eq=False, repr=False)
    """The hand the game dealt after the last hand of the record it was read from,
    while the game waits for its first call: the record ended between hands, and is
    written back so, while that hand is untouched. Not part of the game's value."""
    source: object = attrs.field(default=None, eq=False, repr=False)
    """The record the game was read from, as :mod:`moonrules.records.record` keeps it (its
    JSON text, an immutable value), or ``None``: the record is written back in its spellings
    (tiles either end first, rule-set aliases, fields left out). Not part of the game's value."""


@attrs.frozen(slots=True, weakref_slot=False, field_transformer=typed)
class GameState:
    """A whole game at one moment. Immutable, hashable, equal by value.

    Use :func:`legal_actions` and :func:`apply` to move on; read it through the
    properties (``hands``, ``trump``, ``bidder``, ``bid``, ``scores``, ``trick``,
    ``tricks``, ``to_act``, ``is_over``, ``winner``, ``hand_number``).
    """

    game: Game
    """The rules, seed, scores, earlier hands and winner: what changes only between hands."""
    hand: Hand
    """The hand in progress (or the last hand, once the game is over)."""

    # -- reading the state ------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rules of the game."""
        return self.game.rules

    @property
    def seed(self) -> int:
        """Every deal of the game after the first comes from this seed (and any supplied deal)."""
        return self.game.seed

    @property
    def scores(self) -> tuple[int, ...]:
        """Points (or marks) per side: per seat, or per team in partnership rules."""
        return self.game.scores

    @property
    def history(self) -> tuple[Hand, ...]:
        """Every earlier hand of the game, thrown-in hands included."""
        return self.game.history

    @property
    def winner(self) -> int | None:
        """The winning side (a seat; a team in partnership rules), once the game is over."""
        return self.game.winner

    @property
    def is_over(self) -> bool:
        """Whether the game has been won (END-1, SCORE-4)."""
        return self.winner is not None

    @property
    def hand_number(self) -> int:
        """Hands dealt so far, thrown-in hands included."""
        return self.hand.number

    @property
    def phase(self) -> Phase:
        """What the hand in progress waits for."""
        return self.hand.phase

    @property
    def to_act(self) -> int | None:
        """The seat to act now, or ``None`` once the game is over."""
        return seat_to_act(self)

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles now, by seat, in tile order."""
        return tuple(tiles_of(m) for m in self.hand.hands)

    @property
    def widow(self) -> Tile | None:
        """The widow tile of the hand (hidden from players; see :mod:`moonrules.game.views`)."""
        return None if self.hand.widow < 0 else TILES[self.hand.widow]

    @property
    def discard(self) -> Tile | None:
        """The bidder's discard, once made."""
        return None if self.hand.discard < 0 else TILES[self.hand.discard]

    @property
    def first_bidder(self) -> int:
        """The seat that calls first in this hand (BID-1)."""
        return self.hand.first_bidder

    @property
    def calls(self) -> tuple[Pass | Bid, ...]:
        """The auction's calls so far, first bidder first."""
        return tuple(call_action(c) for c in self.hand.calls)

    @property
    def auction(self) -> Auction:
        """The auction of this hand as an :class:`~moonrules.rules.auction.Auction` value."""
        return Auction(self.hand.calls, self.hand.first_bidder, self.rules)

    @property
    def bidder(self) -> int | None:
        """The auction's winner, once decided."""
        return None if self.hand.bidder < 0 else self.hand.bidder

    @property
    def bid(self) -> int | None:
        """The winning bid, once decided."""
        return None if self.hand.bidder < 0 else self.hand.bid

    @property
    def trump(self) -> Trump | None:
        """The trump named, once named."""
        return None if self.hand.trump < 0 else TRUMP_BY_VALUE[self.hand.trump]

    @property
    def leader(self) -> int | None:
        """The seat that led (or is to lead) the trick in progress."""
        return None if self.hand.leader < 0 else self.hand.leader

    @property
    def trick(self) -> tuple[Tile, ...]:
        """The tiles of the trick in progress, led tile first."""
        return tuple(TILES[i] for i in self.hand.trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed in this hand."""
        return self.hand.tricks

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won in this hand, per seat."""
        return self.hand.tricks_won or (0,) * self.rules.players

    @property
    def is_partnership(self) -> bool:
        """Whether seats play in two teams (TEAM-1)."""
        return self.rules.partnership


TRUMP_BY_VALUE: Final[dict[int, Trump]] = {t.value: t for t in Trump}
"""Each :class:`~moonrules.rules.suits.Trump` by its value (as :attr:`Contract.trump` holds it)."""

# Positional constructors for the hot paths (see :mod:`moonrules.kernel.builders`).
make_contract: Final = positional_builder(Contract)
"""``Contract(number, first_bidder, deal, widow, calls, bidder, bid, discard, trump,
widow_taken)``."""
make_hand: Final = positional_builder(Hand)
"""``Hand(contract, hands, phase, leader, trick, tricks, tricks_won, deltas, renege, claim)``."""
make_state: Final = positional_builder(GameState)
"""``GameState(game, hand)``."""
make_game: Final = positional_builder(Game)
"""``Game(rules, seed, scores, history, winner, seed_given, open_hand, source)``."""
make_trick: Final = positional_builder(Trick)
"""``Trick(leader, tiles, winner)``."""


def seat_to_act(state: GameState) -> int | None:
    h = state.hand
    if state.game.winner is not None:
        return None
    p = h.phase
    n = state.game.rules.players
    if p is Phase.BIDDING:
        return (h.first_bidder + len(h.calls)) % n
    if p is Phase.PLAY:
        return (h.leader + len(h.trick)) % n
    return h.bidder


def with_hand(state: GameState, hand: Hand) -> GameState:
    """``state`` with ``hand`` as the hand in progress (the fast ``attrs.evolve``)."""
    return make_state(state.game, hand)


__all__ = [
    "TRUMP_BY_VALUE",
    "Claim",
    "Contract",
    "Deal",
    "Game",
    "GameState",
    "Hand",
    "Trick",
    "make_contract",
    "make_game",
    "make_hand",
    "make_state",
    "make_trick",
    "seat_to_act",
    "with_hand",
]
