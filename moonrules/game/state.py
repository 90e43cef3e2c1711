"""The whole game as pure functions over immutable states.

:func:`new_game` deals the first hand; :func:`legal_actions` lists what the
player to act may do; :func:`apply` returns the next state or raises
:class:`~moonrules.rules.errors.IllegalAction` naming the clause broken. A state holds
everything: the rule set, the seed its deals come from, the scores, the hands
already played and the hand in progress. Nothing is mutated, nothing is global.

>>> from moonrules import new_game, legal_actions, apply
>>> import random
>>> s = new_game(seed=7)
>>> rng = random.Random(1)
>>> for _ in range(10_000):   # random players can drift below zero for a long time
...     if s.is_over:
...         break
...     s = apply(s, rng.choice(legal_actions(s)))
>>> s.is_over, s.winner is not None and max(s.scores) >= 21 or s.hand.bid == 21
(True, True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final, TypeVar

import attrs

from moonrules.kernel.tables import FOLLOW_MASK, LED_SUIT, SUIT_MASK, winner_index
from moonrules.rules.auction import MOON, PASS, Auction, call_name, check_call, legal_calls
from moonrules.rules.errors import IllegalAction, IllegalDeal, OutOfTurn
from moonrules.rules.ruleset import FirstLead, RuleSet, WidowTiming, as_rules
from moonrules.rules.scoring import game_winner, score_hand, side_tricks
from moonrules.rules.suits import TRUMP_SUIT, Trump, suit_name
from moonrules.rules.tiles import TILES, Tile, TileSet, mask_of, tiles_of

# ---------------------------------------------------------------------------
# Actions


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


@attrs.frozen(slots=True, order=False)
class Bid(Action):
    """Bid ``amount`` tricks (BID-3, BID-4); 21 is the moon."""

    amount: int

    @property
    def sort_key(self) -> tuple[int, int]:
        return (0, self.amount)

    def __str__(self) -> str:
        return f"bid {self.amount}"


@attrs.frozen(slots=True, order=False)
class Discard(Action):
    """The bidder's discard after taking the widow (WIDOW-1)."""

    tile: Tile

    @property
    def sort_key(self) -> tuple[int, int]:
        return (1, self.tile.index)

    def __str__(self) -> str:
        return f"discard {self.tile}"


@attrs.frozen(slots=True, order=False)
class NameTrump(Action):
    """The bidder names trump (TRUMP-1)."""

    trump: Trump

    @property
    def sort_key(self) -> tuple[int, int]:
        return (2, self.trump.value)

    def __str__(self) -> str:
        return f"trump {self.trump}"


@attrs.frozen(slots=True, order=False)
class Play(Action):
    """Play a tile to the trick (TRICK-1)."""

    tile: Tile

    @property
    def sort_key(self) -> tuple[int, int]:
        return (3, self.tile.index)

    def __str__(self) -> str:
        return f"play {self.tile}"


def call_action(call: int) -> Pass | Bid:
    """The action for an auction call (``0`` is pass)."""
    return _PASS if call == PASS else _BIDS[call]


_PASS: Final = Pass()
_BIDS: Final[dict[int, Bid]] = {b: Bid(b) for b in (3, 4, 5, 6, 7, MOON)}
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(t) for t in TILES)
_DISCARDS: Final[tuple[Discard, ...]] = tuple(Discard(t) for t in TILES)
_TRUMPS: Final[dict[Trump, NameTrump]] = {t: NameTrump(t) for t in Trump}


# ---------------------------------------------------------------------------
# States


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


# The phases as module constants: the hot paths compare against these.
_BIDDING: Final = Phase.BIDDING
_DISCARDING: Final = Phase.DISCARD
_NAMING: Final = Phase.TRUMP
_PLAYING: Final = Phase.PLAY
_DONE: Final = Phase.DONE


@attrs.frozen(slots=True)
class Trick:
    """A completed trick: who led, the tiles in the order played, the winning seat."""

    leader: int
    tiles: tuple[Tile, ...]
    winner: int

    def seat_of(self, position: int, players: int) -> int:
        """The seat that played the tile at ``position``."""
        return (self.leader + position) % players


@attrs.frozen(slots=True)
class Deal:
    """The tiles each seat was dealt, by seat, and the widow (``None`` without one).

    A deal is checked against a rule set by :func:`check_deal` (DEAL-3).
    """

    hands: tuple[tuple[Tile, ...], ...]
    widow: Tile | None = None

    @staticmethod
    def of(hands: Sequence[Sequence[Tile | str]], widow: Tile | str | None = None) -> Deal:
        """Build a deal from tiles or tile texts, each hand sorted."""
        from moonrules.rules.tiles import tile

        return Deal(
            tuple(tuple(sorted(tile(t) for t in h)) for h in hands),
            None if widow is None else tile(widow),
        )


@attrs.frozen(slots=True)
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


@attrs.frozen(slots=True)
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


@attrs.frozen(slots=True)
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


@attrs.frozen(slots=True)
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
        return _to_act(self)

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
        return None if self.hand.trump < 0 else _TRUMP_BY_VALUE[self.hand.trump]

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


_V = TypeVar("_V", bound=attrs.AttrsInstance)

_TRUMP_BY_VALUE: Final[dict[int, Trump]] = {t.value: t for t in Trump}


def _positional_builder(cls: type[_V]) -> Callable[..., _V]:
    """A constructor of ``cls`` taking every field positionally, for the hot paths.

    The ``__init__`` attrs generates for a frozen class sets each field through
    ``object.__setattr__``; the function built here sets the slots through their
    descriptors, which costs about a third less. It is generated the way attrs
    generates ``__init__``, and only for classes with nothing else for
    ``__init__`` to do: no validators, converters or post-init hook.
    ``tests/test_game_values.py`` checks that it builds the value the class does.
    """
    fields = attrs.fields(cls)
    if any(f.validator or f.converter or not f.init for f in fields) or hasattr(
        cls, "__attrs_post_init__"
    ):
        raise TypeError(f"{cls.__name__} needs its own __init__")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {f"set_{n}": cls.__dict__[n].__set__ for n in names}
    namespace.update(new=object.__new__, cls=cls)
    source = (
        f"def build({', '.join(names)}):\n    value = new(cls)\n"
        + "".join(f"    set_{n}(value, {n})\n" for n in names)
        + "    return value\n"
    )
    exec(source, namespace)
    build: Callable[..., _V] = namespace["build"]
    build.__name__ = build.__qualname__ = f"_build_{cls.__name__}"
    return build


_contract: Final = _positional_builder(Contract)
"""``Contract(number, first_bidder, deal, widow, calls, bidder, bid, discard, trump,
widow_taken)``."""
_hand: Final = _positional_builder(Hand)
"""``Hand(contract, hands, phase, leader, trick, tricks, tricks_won, deltas, renege)``."""
_state: Final = _positional_builder(GameState)
"""``GameState(game, hand)``."""
_game: Final = _positional_builder(Game)
"""``Game(rules, seed, scores, history, winner)``."""
_trick: Final = _positional_builder(Trick)
"""``Trick(leader, tiles, winner)``."""


def _to_act(state: GameState) -> int | None:
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


# ---------------------------------------------------------------------------
# Dealing


def check_deal(rules: RuleSet, deal: Deal) -> None:
    """DEAL-3: the deal must divide the rule set's tiles exactly; raise :class:`IllegalDeal`."""
    if len(deal.hands) != rules.players:
        raise IllegalDeal(
            "DEAL-3", f"a deal has one hand per player ({rules.players}), not {len(deal.hands)}"
        )
    seen: dict[Tile, str] = {}
    allowed = rules.tile_set.mask
    places: list[tuple[int | None, tuple[Tile, ...]]] = list(enumerate(deal.hands))
    if deal.widow is not None:
        places.append((None, (deal.widow,)))
    for seat, ts in places:
        where = "the widow" if seat is None else f"seat {seat}"
        if seat is not None and len(ts) != 7:
            raise IllegalDeal(
                "DEAL-1", f"{where} was dealt {len(ts)} tiles; each player gets 7", seat=seat
            )
        for t in ts:
            if not allowed >> t.index & 1:
                raise IllegalDeal(
                    "DEAL-3",
                    f"{t} ({where}) is not in the {rules.tile_set.value} set",
                    seat=seat,
                    tile=t,
                )
            if t in seen:
                raise IllegalDeal(
                    "DEAL-3", f"{t} was dealt twice: to {seen[t]} and to {where}", seat=seat, tile=t
                )
            seen[t] = where
    if rules.has_widow and deal.widow is None:
        raise IllegalDeal("DEAL-2", "these rules have a widow, and the deal names none")
    if not rules.has_widow and deal.widow is not None:
        raise IllegalDeal("DEAL-2", f"these rules have no widow, and the deal names {deal.widow}")


def seeded_deal(rules: RuleSet, seed: int, hand_number: int) -> Deal:
    """The deal of hand ``hand_number`` (1 = first) of the game with ``seed`` (DEAL-1, DEAL-2).

    The tiles, in tile order, are shuffled by a Fisher-Yates shuffle drawing
    from its own :class:`random.Random`, seeded from the game's seed and the hand
    number; seat 0 gets the first 7, seat 1 the next 7, and so on, and the
    widow is the last tile. The shuffle draws only through ``getrandbits``, so
    the deal is the same on every machine and Python version.
    """
    pool = _shuffled(rules, seed, hand_number)
    hands = tuple(
        tuple(TILES[i] for i in sorted(pool[7 * s : 7 * s + 7])) for s in range(rules.players)
    )
    widow = TILES[pool[-1]] if rules.has_widow else None
    return Deal(hands, widow)


_DRAW_BITS: Final = tuple((i, (i + 1).bit_length()) for i in range(27, 0, -1))
"""(position, bits to draw for a number below position + 1), last position first."""


_SHUFFLE_PLAN: Final = {
    ts: (tuple(t._index for t in ts.tiles), _DRAW_BITS[28 - len(ts.tiles) :]) for ts in TileSet
}
"""Per tile set: its tile indices in tile order, and the draws that shuffle them."""


def _shuffled(rules: RuleSet, seed: int, hand_number: int) -> list[int]:
    """The tile indices of the rule set, shuffled for hand ``hand_number`` of game ``seed``.

    The shuffle of ``random.shuffle`` in CPython 3.11-3.13, written out so that
    a change there cannot change the deals: from the last position down, swap
    with a position below it drawn by rejection from ``getrandbits``.
    """
    indices, draws = _SHUFFLE_PLAN[rules.tile_set]
    pool = list(indices)
    bits = random.Random(f"moonrules/deal/{seed}/{hand_number}").getrandbits
    for i, k in draws:
        j = bits(k)
        while j > i:
            j = bits(k)
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def _seeded_hand(rules: RuleSet, seed: int, number: int, first_bidder: int) -> Hand:
    """The hand :func:`seeded_deal` deals, built straight from tile indices."""
    pool = _shuffled(rules, seed, number)
    masks = tuple(sum(map(_BIT_OF, pool[k : k + 7])) for k in range(0, 7 * rules.players, 7))
    return _dealt(rules, number, first_bidder, masks, pool[-1] if rules.has_widow else -1)


_BIT_OF: Final = tuple(1 << i for i in range(28)).__getitem__


def _new_hand(rules: RuleSet, number: int, first_bidder: int, deal: Deal) -> Hand:
    masks = tuple(mask_of(h) for h in deal.hands)
    return _dealt(
        rules, number, first_bidder, masks, -1 if deal.widow is None else deal.widow.index
    )


def _dealt(
    rules: RuleSet, number: int, first_bidder: int, masks: tuple[int, ...], widow: int
) -> Hand:
    """A new hand, waiting for its first call: ``masks`` per seat, the widow's index or -1."""
    return Hand(
        Contract(number, first_bidder, masks, widow), masks, tricks_won=(0,) * rules.players
    )


def new_game(
    rules: RuleSet | str | None = None,
    seed: int | None = None,
    *,
    first_bidder: int | None = None,
    deal: Deal | None = None,
) -> GameState:
    """A new game, its first hand dealt and waiting for the first call.

    ``rules``: a :class:`~moonrules.rules.ruleset.RuleSet` or a preset name (default
    ``"standard"``). ``seed``: the game's seed; the same seed gives the same
    game (a fresh random seed when ``None``, kept in ``state.game.seed``).
    ``first_bidder``: default chosen at random from the seed (BID-1).
    ``deal``: the first hand's deal, instead of the seeded shuffle.
    """
    r = as_rules(rules)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    if first_bidder is None:
        first_bidder = random.Random(f"moonrules/first-bidder/{seed}").randrange(r.players)
    elif type(first_bidder) is not int or not 0 <= first_bidder < r.players:
        raise OutOfTurn("SEAT-1", f"seats are numbered 0 to {r.players - 1}, not {first_bidder!r}")
    if deal is None:
        hand = _seeded_hand(r, seed, 1, first_bidder)
    else:
        check_deal(r, deal)
        hand = _new_hand(r, 1, first_bidder, deal)
    return GameState(Game(r, seed, (0,) * r.sides), hand)


def with_deal(state: GameState, deal: Deal) -> GameState:
    """The state with the hand in progress dealt from ``deal`` instead (the caller's shuffle).

    Only before the hand's first call; raises :class:`IllegalDeal` (DEAL-3) for a
    deal that does not divide the rule set's tiles exactly.
    """
    h = state.hand
    if state.is_over or h.phase is not Phase.BIDDING or h.calls:
        raise OutOfTurn("TURN-1", "a hand can be redealt only before its first call")
    check_deal(state.game.rules, deal)
    return _with_hand(state, _new_hand(state.game.rules, h.number, h.first_bidder, deal))


# ---------------------------------------------------------------------------
# Legal actions


_A = TypeVar("_A", bound=Action)


def _chunk_table(actions: tuple[_A, ...], low: int, width: int) -> tuple[tuple[_A, ...], ...]:
    """For each ``width``-bit mask ``m``: the actions of the tiles ``low + i`` for each bit ``i`` of
    ``m``, in tile order."""
    table: list[tuple[_A, ...]] = [()]
    for m in range(1, 1 << width):
        rest = m & (m - 1)  # m without its lowest bit, which comes first
        table.append((actions[low + (m ^ rest).bit_length() - 1], *table[rest]))
    return tuple(table)


# The actions of a mask are those of its bits 0-9, 10-18 and 19-27, looked up and joined.
_PLAYS_0: Final = _chunk_table(_PLAYS, 0, 10)
_PLAYS_1: Final = _chunk_table(_PLAYS, 10, 9)
_PLAYS_2: Final = _chunk_table(_PLAYS, 19, 9)
_DISCARDS_0: Final = _chunk_table(_DISCARDS, 0, 10)
_DISCARDS_1: Final = _chunk_table(_DISCARDS, 10, 9)
_DISCARDS_2: Final = _chunk_table(_DISCARDS, 19, 9)


def _plays(mask: int) -> tuple[Play, ...]:
    """The Play actions of the tiles of a mask, in tile order."""
    return _PLAYS_0[mask & 1023] + _PLAYS_1[mask >> 10 & 511] + _PLAYS_2[mask >> 19]


def _discards(mask: int) -> tuple[Discard, ...]:
    """The Discard actions of the tiles of a mask, in tile order."""
    return _DISCARDS_0[mask & 1023] + _DISCARDS_1[mask >> 10 & 511] + _DISCARDS_2[mask >> 19]


@functools.lru_cache(maxsize=1 << 12)
def _calls(rules: RuleSet, calls: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`~moonrules.rules.auction.legal_calls` after ``calls`` (memoised)."""
    return legal_calls(Auction(calls, 0, rules))


@functools.lru_cache(maxsize=1 << 12)
def _call_actions(rules: RuleSet, calls: tuple[int, ...]) -> tuple[Pass | Bid, ...]:
    """The actions of :func:`_calls` (memoised)."""
    return tuple(call_action(c) for c in _calls(rules, calls))


@functools.lru_cache(maxsize=1 << 12)
def _auction_end(
    rules: RuleSet, calls: tuple[int, ...], first_bidder: int
) -> tuple[bool, int, int]:
    """``(over, winner, bid)`` of the auction of ``calls``; the winner is -1 while it goes on
    or when all passed (memoised; from :class:`~moonrules.rules.auction.Auction`)."""
    auction = Auction(calls, first_bidder, rules)
    winner = auction.winner
    return auction.is_over, -1 if winner is None else winner, auction.high_bid


@functools.lru_cache(maxsize=64)
def _trump_actions(rules: RuleSet) -> tuple[NameTrump, ...]:
    """The NameTrump actions of the trumps the rules offer (memoised)."""
    return tuple(_TRUMPS[t] for t in rules.trumps)


@functools.lru_cache(maxsize=64)
def _offered(rules: RuleSet) -> frozenset[Trump]:
    """The trumps the rules offer (memoised)."""
    return frozenset(rules.trumps)


_LEAD_TRUMP: Final = FirstLead.TRUMP


def legal_play_mask(state: GameState) -> int:
    """Mask of the tiles the player to act may play (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3)."""
    return _legal_mask(state.hand, state.game.rules)


def _legal_mask(h: Hand, rules: RuleSet) -> int:
    """:func:`legal_play_mask` of a hand in play under ``rules``, by the tables."""
    trick = h.trick
    held = h.hands[(h.leader + len(trick)) % len(h.hands)]
    if trick:
        return held & FOLLOW_MASK[h.contract.trump][trick[0]] or held
    if h.tricks or rules.first_lead is not _LEAD_TRUMP:
        return held
    return held & SUIT_MASK[h.contract.trump][TRUMP_SUIT] or held


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The actions the player to act may take, sorted; ``()`` once the game is over.

    Never empty while the game goes on.
    """
    if state.game.winner is not None:
        return ()
    h = state.hand
    p = h.phase
    if p is _PLAYING:
        return _plays(_legal_mask(h, state.game.rules))
    if p is _BIDDING:
        return _call_actions(state.game.rules, h.contract.calls)
    if p is _DISCARDING:
        return _discards(h.hands[h.contract.bidder])
    if p is _NAMING:
        return _trump_actions(state.game.rules)
    return ()  # pragma: no cover - a DONE hand never stays current in a live game


# ---------------------------------------------------------------------------
# Applying actions


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after the player to act takes ``action``.

    With ``seat``, the action is refused unless that seat is to act (TURN-1).
    Raises :class:`~moonrules.rules.errors.IllegalAction` (with the clause ID) for any
    action the rules forbid; the state given is never changed.
    """
    if state.game.winner is not None:
        raise IllegalAction("END-1", "the game is over; no more actions")
    if seat is not None and seat != _to_act(state):
        raise OutOfTurn(
            "TURN-1", f"it is seat {_to_act(state)}'s turn, not seat {seat}'s", seat=seat
        )
    h = state.hand
    p = h.phase
    kind = type(action)
    if kind is Play and p is _PLAYING:
        return _play(state, h, action.tile)  # type: ignore[attr-defined]
    if p is _BIDDING:
        if kind is Pass:
            return _call(state, PASS)
        if kind is Bid:
            amount = action.amount  # type: ignore[attr-defined]
            if type(amount) is not int or amount <= PASS:
                raise IllegalAction(
                    "BID-4",
                    f"{amount!r} is not a bid; to pass, pass",
                    seat=_to_act(state),
                    call=amount if type(amount) is int else None,
                    allowed_calls=legal_calls(state.auction),
                )
            return _call(state, amount)
    if kind is Discard and p is _DISCARDING:
        return _discard(state, action.tile)  # type: ignore[attr-defined]
    if kind is NameTrump and p is _NAMING:
        return _name_trump(state, action.trump)  # type: ignore[attr-defined]
    if not isinstance(action, Action):
        raise TypeError(f"{action!r} is not an action")
    wanted = {
        Phase.BIDDING: "a call (pass or bid)",
        Phase.DISCARD: "the bidder's discard",
        Phase.TRUMP: "the bidder naming trump",
        Phase.PLAY: "a tile played to the trick",
    }[p]
    raise OutOfTurn(
        "TURN-1",
        f"the game waits for {wanted} by seat {_to_act(state)}, not {action}",
        seat=_to_act(state),
    )


def _call(state: GameState, call: int) -> GameState:
    """BID-2 … BID-8 (the auction's rules are those of :mod:`moonrules.rules.auction`)."""
    h = state.hand
    c = h.contract
    rules = state.game.rules
    if call not in _calls(rules, c.calls):
        check_call(state.auction, call)
        raise AssertionError(f"check_call let {call!r} through")  # pragma: no cover
    calls = (*c.calls, call)
    over, winner, bid = _auction_end(rules, calls, c.first_bidder)
    if not over:
        return _with_hand(state, _settled(h, _BIDDING, _amended(c, calls=calls)))
    if winner < 0:
        done = _settled(h, _DONE, _amended(c, calls=calls))
        return _next_hand(state, done, state.game.scores)
    if rules.has_widow and rules.widow_timing is WidowTiming.BEFORE_TRUMP:
        hands = list(h.hands)
        hands[winner] |= 1 << c.widow
        contract = _amended(c, calls=calls, bidder=winner, bid=bid, widow_taken=True)
        return _with_hand(state, _settled(h, _DISCARDING, contract, tuple(hands)))
    contract = _amended(c, calls=calls, bidder=winner, bid=bid)
    return _with_hand(state, _settled(h, _NAMING, contract))


def _with_hand(state: GameState, hand: Hand) -> GameState:
    """``state`` with ``hand`` as the hand in progress (the fast ``attrs.evolve``)."""
    return _state(state.game, hand)


def _amended(
    c: Contract,
    *,
    calls: tuple[int, ...] | None = None,
    bidder: int | None = None,
    bid: int | None = None,
    discard: int | None = None,
    trump: int | None = None,
    widow_taken: bool | None = None,
) -> Contract:
    """``c`` with the fields given changed (the fast ``attrs.evolve``)."""
    return _contract(
        c.number,
        c.first_bidder,
        c.deal,
        c.widow,
        c.calls if calls is None else calls,
        c.bidder if bidder is None else bidder,
        c.bid if bid is None else bid,
        c.discard if discard is None else discard,
        c.trump if trump is None else trump,
        c.widow_taken if widow_taken is None else widow_taken,
    )


def _settled(
    h: Hand,
    phase: Phase,
    contract: Contract,
    hands: tuple[int, ...] | None = None,
    leader: int | None = None,
) -> Hand:
    """``h`` with a new phase and contract, and changes to its hands or leader."""
    return _hand(
        contract,
        h.hands if hands is None else hands,
        phase,
        h.leader if leader is None else leader,
        h.trick,
        h.tricks,
        h.tricks_won,
        h.deltas,
        h.renege,
    )


def _discard(state: GameState, tile: Tile) -> GameState:
    """WIDOW-1, WIDOW-2: the bidder discards one tile of the eight."""
    h = state.hand
    c = h.contract
    bit = 1 << _index_of(tile)
    if not h.hands[c.bidder] & bit:
        raise IllegalAction(
            "WIDOW-1",
            f"seat {c.bidder} cannot discard {tile}: it is not in their hand",
            seat=c.bidder,
            tile=tile,
            allowed_tiles=tuple(reversed(tiles_of(h.hands[c.bidder]))),
        )
    hands = list(h.hands)
    hands[c.bidder] &= ~bit
    contract = _amended(c, discard=tile._index)
    if state.game.rules.widow_timing is WidowTiming.AFTER_TRUMP:
        return _with_hand(state, _settled(h, _PLAYING, contract, tuple(hands), c.bidder))
    return _with_hand(state, _settled(h, _NAMING, contract, tuple(hands), -1))


def _name_trump(state: GameState, trump: Trump) -> GameState:
    """TRUMP-1, TRUMP-5, WIDOW-2."""
    rules = state.game.rules
    if trump not in _offered(rules):
        offered = ", ".join(str(t) for t in rules.trumps)
        raise IllegalAction(
            "TRUMP-5",
            f"trump {trump} is not offered by these rules; choose one of {offered}",
            seat=state.hand.bidder,
            trump=trump,
            allowed_trumps=rules.trumps,
        )
    h = state.hand
    c = h.contract
    if rules.has_widow and rules.widow_timing is WidowTiming.AFTER_TRUMP:
        hands = list(h.hands)
        hands[c.bidder] |= 1 << c.widow
        contract = _amended(c, trump=trump.value, widow_taken=True)
        return _with_hand(state, _settled(h, _DISCARDING, contract, tuple(hands)))
    contract = _amended(c, trump=trump.value)
    return _with_hand(state, _settled(h, _PLAYING, contract, leader=c.bidder))


def _index_of(tile: Tile) -> int:
    """The index of ``tile``; :class:`TypeError` for anything that is not a tile."""
    try:
        return tile._index
    except AttributeError:
        raise TypeError(f"{tile!r} is not a tile") from None


def illegal_play_reason(state: GameState, tile: Tile) -> IllegalAction | None:
    """Why the player to act may not play ``tile`` now, or ``None`` if they may.

    The error names the clause (TRICK-1, LEAD-2, FOLLOW-1, FOLLOW-2) and says
    what was allowed instead.
    """
    h = state.hand
    n = state.game.rules.players
    seat = (h.leader + len(h.trick)) % n
    hand = h.hands[seat]
    bit = 1 << tile.index
    legal = legal_play_mask(state)
    if hand & bit and legal & bit:
        return None
    legal_tiles = tuple(reversed(tiles_of(legal)))
    if not hand & bit:
        return IllegalAction(
            "TRICK-1",
            f"seat {seat} does not hold {tile}",
            seat=seat,
            tile=tile,
            allowed_tiles=legal_tiles,
        )
    allowed = ", ".join(str(t) for t in legal_tiles)
    one = len(legal_tiles) == 1
    trump = _TRUMP_BY_VALUE[h.trump]

    def illegal(rule: str, reason: str, kind: str) -> IllegalAction:
        return IllegalAction(
            rule,
            f"{reason} Legal {kind} were: {allowed}.",
            reason=reason,
            seat=seat,
            tile=tile,
            allowed_tiles=legal_tiles,
        )

    if not h.trick:
        return illegal(
            "LEAD-2",
            f"seat {seat} led {tile} while holding a trump; the first lead of the hand must be "
            "a trump.",
            "leads",
        )
    led = TILES[h.trick[0]]
    suit = LED_SUIT[h.trump][h.trick[0]]
    if suit == TRUMP_SUIT:
        return illegal(
            "FOLLOW-1",
            f"seat {seat} played {tile} on a trump lead ({led}, trump {trump}) while holding "
            f"{allowed}, which {'is a trump' if one else 'are trumps'}.",
            "plays",
        )
    note = ""
    if SUIT_MASK[h.trump][TRUMP_SUIT] & bit and tile.has(suit):
        note = f" ({tile} is a trump, and a trump never follows another suit)"
    return illegal(
        "FOLLOW-2",
        f"seat {seat} played {tile} on a {suit_name(suit)} lead ({led}) while holding "
        f"{allowed}, which follow{'s' if one else ''} suit {suit}{note}.",
        "plays",
    )


def apply_renege(state: GameState, tile: Tile) -> GameState:
    """RENEGE-2: the player to act reneges with ``tile``; the hand ends and is scored.

    Only under ``renege = penalty`` rules, and only for a play that breaks
    FOLLOW-1 or FOLLOW-2 (a tile the player holds). If the bidder's side
    reneged, the bidder is set; if a defender reneged, the bidder makes the bid.
    The other sides score the tricks they took before the renege.
    """
    from moonrules.rules.ruleset import Renege

    if state.game.rules.renege is not Renege.PENALTY:
        raise IllegalAction(
            "RENEGE-1", "these rules stop at a renege; no penalty is scored", tile=tile
        )
    if state.game.winner is not None or state.hand.phase is not Phase.PLAY:
        raise OutOfTurn("TURN-1", "a renege can only happen while tiles are being played")
    err = illegal_play_reason(state, tile)
    if err is None or err.rule not in ("FOLLOW-1", "FOLLOW-2"):
        raise IllegalAction(
            "RENEGE-2",
            f"playing {tile} is {'legal' if err is None else 'not a renege'} here",
            seat=state.to_act,
            tile=tile,
        )
    h = state.hand
    rules = state.game.rules
    seat = (h.leader + len(h.trick)) % rules.players
    hands = list(h.hands)
    hands[seat] &= ~(1 << tile.index)
    made = rules.side_of(seat) != rules.side_of(h.bidder)
    result = score_hand(rules, h.bidder, h.bid, h.tricks_won, made=made)
    scores = tuple(s + d for s, d in zip(state.game.scores, result.deltas, strict=True))
    hand = attrs.evolve(
        h,
        hands=tuple(hands),
        trick=(*h.trick, tile.index),
        phase=Phase.DONE,
        deltas=result.deltas,
        renege=seat,
    )
    bidder_side = rules.side_of(h.bidder)
    winner = bidder_side if result.game_won else game_winner(rules, scores, bidder_side)
    if winner is not None:
        return GameState(Game(rules, state.game.seed, scores, state.game.history, winner), hand)
    return _next_hand(state, hand, scores)


def _play(state: GameState, h: Hand, tile: Tile) -> GameState:
    """TRICK-1 … TRICK-3, FOLLOW-1 … FOLLOW-3, then scoring at the end of the hand.

    ``h`` is ``state.hand``. This is the game's hot path: it builds the next
    values positionally and runs on the tables of :mod:`moonrules.kernel.tables`.
    """
    try:  # _index_of, inline on the hot path
        index = tile._index
    except AttributeError:
        raise TypeError(f"{tile!r} is not a tile") from None
    bit = 1 << index
    if not _legal_mask(h, state.game.rules) & bit:
        err = illegal_play_reason(state, tile)
        assert err is not None
        raise err
    trick = h.trick
    n = len(h.hands)
    leader = h.leader
    seat = (leader + len(trick)) % n
    after = list(h.hands)
    after[seat] ^= bit
    hands = tuple(after)
    trick += (index,)
    if len(trick) < n:
        hand = _hand(h.contract, hands, _PLAYING, leader, trick, h.tricks, h.tricks_won, None, -1)
        return _state(state.game, hand)
    c = h.contract
    win = (leader + winner_index(trick, c.trump)) % n
    counts = list(h.tricks_won)
    counts[win] += 1
    won = tuple(counts)
    done = _trick(leader, tuple(map(_TILE_AT, trick)), win)
    tricks = h.tricks + (done,)  # noqa: RUF005 - faster than unpacking
    if len(tricks) < 7:
        hand = _hand(c, hands, _PLAYING, win, (), tricks, won, None, -1)
        return _state(state.game, hand)
    g = state.game
    rules = g.rules
    result = _scored(rules, c.bidder, c.bid, won)
    scores = tuple(s + d for s, d in zip(g.scores, result.deltas, strict=True))
    hand = _hand(c, hands, _DONE, win, (), tricks, won, result.deltas, -1)
    bidder_side = rules.side_of(c.bidder)
    winner = bidder_side if result.game_won else game_winner(rules, scores, bidder_side)
    if winner is not None:
        return _state(_game(rules, g.seed, scores, g.history, winner), hand)
    return _next_hand(state, hand, scores)


_TILE_AT: Final = TILES.__getitem__
_scored: Final = functools.lru_cache(maxsize=1 << 12)(score_hand)
""":func:`~moonrules.rules.scoring.score_hand`, memoised (its arguments here are hashable)."""


def _next_hand(state: GameState, done: Hand, scores: tuple[int, ...]) -> GameState:
    """BID-1, BID-7: deal the next hand from the seed; the first bid moves one seat on."""
    g = state.game
    rules = g.rules
    number = done.contract.number + 1
    first = (done.contract.first_bidder + 1) % rules.players
    hand = _seeded_hand(rules, g.seed, number, first)
    return _state(_game(rules, g.seed, scores, (*g.history, done), None), hand)


def hand_result(hand: Hand, rules: RuleSet) -> tuple[int, ...]:
    """Tricks per side of a hand (per seat, or per team: TEAM-1)."""
    return side_tricks(rules, hand.tricks_won or (0,) * rules.players)


def describe_call(call: int) -> str:
    """A call as a player says it."""
    return call_name(call)


__all__ = [
    "Action",
    "Bid",
    "Deal",
    "Discard",
    "Game",
    "GameState",
    "Hand",
    "NameTrump",
    "Pass",
    "Phase",
    "Play",
    "Trick",
    "apply",
    "apply_renege",
    "call_action",
    "check_deal",
    "hand_result",
    "illegal_play_reason",
    "legal_actions",
    "legal_play_mask",
    "new_game",
    "seeded_deal",
    "with_deal",
]
