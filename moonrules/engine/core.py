"""The fast form of the game: a mutable game object of plain integers, stepped by action id.

:class:`Engine` plays the same game as :func:`~moonrules.game.play.apply`, as a mutable
object made of plain integers and lists of them (hand masks, the trick, the auction's node,
the scores), stepped by the ids of ``moonrules.ActionSpace`` and taken
back by :meth:`Engine.undo`. Every per-step rule is a look-up in the tables of
:mod:`moonrules.engine.tables`, computed from the rulebook; the per-hand events call the
rulebook: the deal is :func:`~moonrules.game.shuffle.shuffled`'s (DEAL-1), the score
:func:`~moonrules.rules.scoring.score_hand` (memoised) and the game's end
:func:`~moonrules.rules.scoring.decided_winner`. An illegal id is refused by the reference
itself: the engine's state is turned into a :class:`~moonrules.game.state.GameState` and
:func:`~moonrules.game.play.apply` raises its error, clause and sentence.

``tests/test_engine.py`` steps the engine in lockstep with the reference over every preset
(legal ids, ``to_state()``, observations, errors, ``undo``, ``clone``), on the pure and the
compiled form. With ``MOONRULES_COMPILE=1`` this module is compiled by mypyc.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from moonrules.engine.hand import (
    BIDDING,
    DISCARDING,
    DONE,
    NAMING,
    PHASE_NUMBER,
    PHASES,
    PLAYING,
    HandState,
    undealt,
)
from moonrules.engine.tables import CALL, DISCARD, PLAY, TRUMP, Tables, tables_for
from moonrules.game.actions import Phase
from moonrules.game.deal import game_start
from moonrules.game.encoding import ActionSpace, _tables, _whole_number
from moonrules.game.encoding import _SeatTables as SeatTables
from moonrules.game.encoding import _Tables as EncoderTables
from moonrules.game.play import apply
from moonrules.game.resample import resample
from moonrules.game.state import (
    GameState,
    Hand,
    make_contract,
    make_game,
    make_hand,
    make_state,
    make_trick,
)
from moonrules.game.views import view
from moonrules.rules.errors import ArgumentError, shown, wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.scoring import decided_winner
from moonrules.rules.tiles import TILES

if TYPE_CHECKING:
    from mypy_extensions import i64  # machine integers in the compiled form; int in Python

_ENDED_GAME: Final = 1 << 16
"""A flag in the undo log: this step ended the game."""
_ENDED_HAND: Final = 2 << 16
"""A flag in the undo log: this step ended the hand and the next one was dealt."""
_ID_BITS: Final = 0xFFFF

_MASK32: Final = 0xFFFFFFFF


def mix32(x: int) -> int:
    """MurmurHash3's 32-bit finaliser of ``x`` (0 … 2**32 - 1): seeds the playout generator."""
    x = (x ^ x >> 16) & _MASK32
    x = _mul32(x, 0x85EBCA6B)
    x ^= x >> 13
    x = _mul32(x, 0xC2B2AE35)
    x ^= x >> 16
    return x


def _mul32(x: int, c: int) -> int:
    """``x * c mod 2**32`` for ``x`` and ``c`` below ``2**32``, in products of 16-bit halves
    (machine integers in the compiled form, no big ones)."""
    low = x & 0xFFFF
    high = x >> 16
    return (low * (c & 0xFFFF) + ((low * (c >> 16) + high * (c & 0xFFFF) & 0xFFFF) << 16)) & _MASK32


def generator_state(seed: int) -> int:
    """The playout generator's first state for ``seed``: ``mix32(seed mod 2**32)``, or
    ``0x9E3779B9`` if that is 0 (a xorshift generator never leaves 0)."""
    x = mix32(seed & _MASK32)
    return x if x else 0x9E3779B9


def next_state(x: int) -> int:
    """One step of Marsaglia's xorshift32 generator (shifts 13, 17, 5) from state ``x``."""
    x ^= x << 13 & _MASK32
    x ^= x >> 17
    x ^= x << 5 & _MASK32
    return x


def _kth_bit(m: int, x: int) -> int:
    """The ``x * c >> 32``-th lowest set bit of ``m`` (``c`` its set bits; ``x`` below
    ``2**32``; ``m`` below ``2**28``), as a bit number (machine integers when compiled)."""
    rest: i64 = m
    c: i64 = 0
    while rest:
        rest &= rest - 1
        c += 1
    y: i64 = x
    k = ((y >> 16) * c + ((y & 0xFFFF) * c >> 16)) >> 16  # x * c >> 32 in small products
    left: i64 = m
    while k:
        left &= left - 1
        k -= 1
    low: int = left & -left
    return low.bit_length() - 1


class Engine:
    """A game of Moon as a mutable object of plain integers, stepped by action id.

    ``Engine(rules, seed, first_bidder)`` deals what ``new_game(rules, seed=seed,
    first_bidder=first_bidder)`` deals; :meth:`from_state` and :meth:`to_state` convert
    from and to the reference :class:`~moonrules.game.state.GameState`. Action ids are those
    of ``moonrules.ActionSpace``.
    """

    t: Tables
    """The rule set's tables."""
    seed: int
    """Every deal of the game after the first comes from this seed (DEAL-1)."""
    seed_given: bool
    source: object
    _scores: list[int]
    _winner: int
    past: list[object]
    """Earlier hands: reference :class:`Hand` values, or this engine's :class:`HandState`."""
    past_values: list[Hand | None]
    log: list[int]
    """Each step taken: its action id and flags (:data:`_ENDED_GAME`, :data:`_ENDED_HAND`)."""
    h: HandState
    """The hand in progress."""
    due: bool
    """Whether the hand in progress is still to be dealt (it is, when first read)."""

    def __init__(
        self,
        rules: object = "standard",
        seed: object = None,
        first_bidder: object = None,
        *,
        _empty: bool = False,
    ) -> None:
        # ``_empty``: an engine with nothing set yet, for :meth:`clone` and :meth:`from_state`
        # (compiled, ``Engine.__new__`` costs twenty times a whole clone). The arguments are
        # checked by ``new_game``'s own checks, which name them (typed ``object`` here, so
        # that the compiled form does not refuse them with a message of its own); the first
        # hand is dealt when first read.
        if not _empty:
            r, s, first = game_start(rules, seed, first_bidder)
            self._start(r, s, first)

    def _start(self, rules: RuleSet, seed: int, first_bidder: int) -> None:
        """A new game of ``rules`` from ``seed`` (:func:`~moonrules.game.deal.new_game`'s),
        its first hand due to be dealt."""
        t = tables_for(rules)
        self.t = t
        self.seed = seed
        self.seed_given = True
        self.source = None
        self._scores = [0] * t.sides
        self._winner = -1
        self.past = []
        self.past_values = []
        self.log = []
        self.h = undealt(1, first_bidder, t.players)
        self.due = True

    # -- conversion -------------------------------------------------------------

    @staticmethod
    def from_state(state: object) -> Engine:
        """The engine at ``state`` (its earlier hands kept for :meth:`to_state`)."""
        if type(state) is not GameState:
            raise wrong_type("state", "a GameState", state)
        engine = Engine(_empty=True)
        engine._load(state)
        return engine

    def _load(self, state: GameState) -> None:
        g = state.game
        self.t = tables_for(g.rules)
        t = self.t
        self.seed = g.seed
        self.seed_given = g.seed_given
        self.source = g.source
        self._scores = list(g.scores)
        self._winner = -1 if g.winner is None else g.winner
        self.past = list(g.history)
        self.past_values = [None] * len(self.past)
        self.log = []
        self.due = False
        h = state.hand
        c = h.contract
        hs = HandState(c.number, c.first_bidder, list(c.deal), c.widow, t.players)
        node = t.node_of.get(c.calls)
        if node is None:
            raise ArgumentError(f"state: the calls {list(c.calls)} are no auction of its rules")
        hs.node = node
        hs.hands = list(h.hands)
        hs.bidder = c.bidder
        hs.bid = c.bid
        hs.discard = c.discard
        hs.trump = c.trump
        hs.widow_taken = c.widow_taken
        hs.phase = PHASE_NUMBER[h.phase]
        hs.leader = h.leader
        for tr in h.tricks:
            hs.played.extend(x.index for x in tr.tiles)
            hs.leaders.append(tr.leader)
            hs.winners.append(tr.winner)
        hs.played.extend(h.trick)
        hs.in_trick = len(h.trick)
        hs.tricks_won = list(h.tricks_won) if h.tricks_won else [0] * t.players
        hs.deltas = [] if h.deltas is None else list(h.deltas)
        hs.renege = h.renege
        hs.claim = h.claim
        self.h = hs

    def to_state(self) -> GameState:
        """The reference :class:`~moonrules.game.state.GameState` of this position."""
        self._deal_if_due()
        t = self.t
        history = []
        for k, x in enumerate(self.past):
            if isinstance(x, HandState):
                value = self.past_values[k]
                if value is None:
                    value = self._hand_value(x)
                    self.past_values[k] = value
                history.append(value)
            else:
                assert isinstance(x, Hand)
                history.append(x)
        game = make_game(
            t.rules,
            self.seed,
            tuple(self._scores),
            tuple(history),
            None if self._winner < 0 else self._winner,
            self.seed_given,
            None,
            self.source,
        )
        return make_state(game, self._hand_value(self.h))

    def _hand_value(self, h: HandState) -> Hand:
        t = self.t
        n = t.players
        contract = make_contract(
            h.number,
            h.first_bidder,
            tuple(h.deal),
            h.widow,
            t.node_calls[h.node],
            h.bidder,
            h.bid,
            h.discard,
            h.trump,
            h.widow_taken,
        )
        played = h.played
        tricks = tuple(
            make_trick(
                h.leaders[k], tuple(TILES[i] for i in played[k * n : k * n + n]), h.winners[k]
            )
            for k in range(len(h.winners))
        )
        return make_hand(
            contract,
            tuple(h.hands),
            PHASES[h.phase],
            h.leader,
            tuple(played[len(played) - h.in_trick :]),
            tricks,
            tuple(h.tricks_won),
            tuple(h.deltas) if h.deltas else None,
            h.renege,
            h.claim,
        )

    def clone(self) -> Engine:
        """A copy sharing nothing mutable with this engine (its undo log included)."""
        c = Engine(_empty=True)
        c.t = self.t
        c.seed = self.seed
        c.seed_given = self.seed_given
        c.source = self.source
        c._scores = list(self._scores)
        c._winner = self._winner
        c.past = list(self.past)  # shared: a hand of the past is copied when undone
        c.past_values = list(self.past_values)
        c.log = list(self.log)
        c.h = self.h.copy()
        c.due = self.due
        return c

    def __copy__(self) -> Engine:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Engine:
        return self.clone()

    # -- reading ------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rules of the game."""
        return self.t.rules

    @property
    def action_space(self) -> ActionSpace:
        """The numbering of the actions (ids ``0 … size - 1``)."""
        return ActionSpace(self.t.rules)

    @property
    def is_over(self) -> bool:
        """Whether the game has been won."""
        return self._winner >= 0

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over (a seat; a team in partnership rules)."""
        return None if self._winner < 0 else self._winner

    @property
    def scores(self) -> tuple[int, ...]:
        """Points (or marks) per side: per seat, or per team in partnership rules."""
        return tuple(self._scores)

    @property
    def hand_number(self) -> int:
        """Hands dealt so far, thrown-in hands included."""
        return self.h.number

    @property
    def phase(self) -> Phase:
        """What the hand in progress waits for."""
        return PHASES[self.h.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        s = self.seat_to_act()
        return None if s < 0 else s

    def seat_to_act(self) -> int:
        """The seat to act, or -1 once the game is over."""
        if self._winner >= 0:
            return -1
        h = self.h
        p = h.phase
        if p == PLAYING:
            return (h.leader + h.in_trick) % self.t.players
        if p == BIDDING:
            return (h.first_bidder + len(self.t.node_calls[h.node])) % self.t.players
        return h.bidder

    def legal_mask(self) -> int:
        """The ids of the legal actions as an int: bit ``i`` set when id ``i`` is legal."""
        if self._winner >= 0:
            return 0
        h = self.h
        t = self.t
        p = h.phase
        if p == PLAYING:
            out = 0
            m = self._legal_tiles(h, t)
            ids = t.play_id
            while m:
                low = m & -m
                out |= 1 << ids[low.bit_length() - 1]
                m ^= low
            return out
        if p == BIDDING:
            return t.node_ids[h.node]
        if p == NAMING:
            return t.trump_ids_mask
        if p == DISCARDING:
            out = 0
            m = h.hands[h.bidder]
            ids = t.discard_id
            while m:
                low = m & -m
                out |= 1 << ids[low.bit_length() - 1]
                m ^= low
            return out
        return 0

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (empty once the game is over)."""
        if self._winner >= 0:
            return []
        h = self.h
        t = self.t
        p = h.phase
        if p == BIDDING:
            return list(t.node_id_list[h.node])
        if p == PLAYING:
            m = self._legal_tiles(h, t)
            ids = t.play_id
        elif p == DISCARDING:
            m = h.hands[h.bidder]
            ids = t.discard_id
        else:
            return list(t.trump_ids)
        out: list[int] = []
        while m:
            low = m & -m
            out.append(ids[low.bit_length() - 1])
            m ^= low
        return out

    def _legal_tiles(self, h: HandState, t: Tables) -> int:
        """The mask of the tiles the seat to act may play (LEAD-1, LEAD-2, FOLLOW-1 … 3)."""
        in_trick = h.in_trick
        seat = h.leader + in_trick
        if seat >= t.players:
            seat -= t.players
        held: int = h.hands[seat]
        if in_trick:
            played = h.played
            follow: int = t.follow[h.trump * 28 + played[len(played) - in_trick]]
            m = held & follow
            return m if m else held
        if t.first_lead_trump and not h.winners:
            trumps: int = t.trumps_of[h.trump]
            m = held & trumps
            return m if m else held
        return held

    # -- stepping -----------------------------------------------------------------

    def step(self, action_id: object) -> bool:
        """Take the action with id ``action_id`` for the seat to act; whether that ended the
        hand in progress (the next hand is dealt, or the game is over), so that a caller's
        loop need not read :attr:`hand_number` and :attr:`is_over` after every step.

        An id the rules do not allow now raises what :func:`~moonrules.game.play.apply`
        raises for its action (the same error type, clause and sentence); an id that is no
        whole number :class:`TypeError`, one outside ``0 … size - 1`` :class:`ValueError`."""
        if self.due:
            self._deal_if_due()
        t = self.t
        if isinstance(action_id, int) and not isinstance(action_id, bool):
            a = action_id
        else:
            a = _whole_number(action_id)
        if not 0 <= a < t.size or self._winner >= 0:
            self._refuse(a)
        h = self.h
        self._step(a)
        return self.h is not h or self._winner >= 0

    def _step(self, action_id: int) -> None:
        """:meth:`step` of an id in range, while the game goes on."""
        t = self.t
        h = self.h
        kind = t.kind[action_id]
        p = h.phase
        if p == PLAYING and kind == PLAY:
            tile = t.arg[action_id]
            if not self._legal_tiles(h, t) >> tile & 1:
                self._refuse(action_id)
            self._play(h, t, tile, action_id)
        elif p == BIDDING and kind == CALL:
            child = t.node_child[h.node * t.size + action_id]
            if child < 0:
                self._refuse(action_id)
            self._call(h, t, child, action_id)
        elif p == DISCARDING and kind == DISCARD:
            tile = t.arg[action_id]
            if not h.hands[h.bidder] >> tile & 1:
                self._refuse(action_id)
            h.hands[h.bidder] ^= 1 << tile
            h.discard = tile
            if t.widow_before_trump:
                h.phase = NAMING
            else:
                h.phase = PLAYING
                h.leader = h.bidder
            self.log.append(action_id)
        elif p == NAMING and kind == TRUMP:
            h.trump = t.arg[action_id]
            if t.has_widow and not t.widow_before_trump:
                h.hands[h.bidder] |= 1 << h.widow
                h.widow_taken = True
                h.phase = DISCARDING
            else:
                h.phase = PLAYING
                h.leader = h.bidder
            self.log.append(action_id)
        else:
            self._refuse(action_id)

    def _call(self, h: HandState, t: Tables, child: int, action_id: int) -> None:
        h.node = child
        if not t.node_over[child]:
            self.log.append(action_id)
            return
        position = t.node_winner[child]
        if position < 0:  # every player passed: thrown in (BID-7)
            h.phase = DONE
            self._next_hand(h)
            self.log.append(action_id | _ENDED_HAND)
            return
        bidder = (h.first_bidder + position) % t.players
        h.bidder = bidder
        h.bid = t.node_bid[child]
        if t.has_widow and t.widow_before_trump:
            held: int = h.hands[bidder]
            h.hands[bidder] = held | 1 << h.widow
            h.widow_taken = True
            h.phase = DISCARDING
        else:
            h.phase = NAMING
        self.log.append(action_id)

    def _play(self, h: HandState, t: Tables, tile: int, action_id: int) -> None:
        n = t.players
        in_trick = h.in_trick
        leader = h.leader
        seat = leader + in_trick
        if seat >= n:
            seat -= n
        hands = h.hands
        held: int = hands[seat]
        hands[seat] = held ^ 1 << tile
        played = h.played
        played.append(tile)
        if in_trick + 1 < n:
            h.in_trick = in_trick + 1
            self.log.append(action_id)
            return
        # the trick is complete: its winner (TRICK-2) leads the next
        start = len(played) - n
        first: int = played[start]
        trump = h.trump
        suit: int = t.led_suit[trump * 28 + first]
        base = (trump * 8 + suit) * 28
        strength = t.strength
        best = 0
        best_s: int = strength[base + first]
        for k in range(1, n):
            other: int = played[start + k]
            s: int = strength[base + other]
            if s > best_s:
                best = k
                best_s = s
        win = leader + best
        if win >= n:
            win -= n
        h.leaders.append(leader)
        h.winners.append(win)
        won = h.tricks_won
        count: int = won[win]
        won[win] = count + 1
        h.leader = win
        h.in_trick = 0
        if len(h.winners) < 7:
            self.log.append(action_id)
            return
        self.log.append(action_id | self._score(h, t))

    def _score(self, h: HandState, t: Tables) -> int:
        """Score the hand just played out (SCORE-1 … SCORE-6, END-1 … END-3); deal the next
        unless the game is won. The flag of the undo log that says which."""
        deltas, game_won = t.hand_score(h.bidder, h.bid, h.tricks_won)
        scores = self._scores
        for k in range(t.sides):
            score: int = scores[k]
            delta: int = deltas[k]
            scores[k] = score + delta
        h.deltas = list(deltas)
        h.phase = DONE
        bidder_side = t.side_of[h.bidder]
        if game_won:
            self._winner = bidder_side
        else:
            w = decided_winner(t.rules, scores, bidder_side)
            if w is not None:
                self._winner = w
        if self._winner >= 0:
            return _ENDED_GAME
        self._next_hand(h)
        return _ENDED_HAND

    def _next_hand(self, h: HandState) -> None:
        """BID-1, BID-7: the finished hand ``h`` goes to the past; the next is due, dealt
        from the seed (DEAL-1) when it is first read (:meth:`_deal_if_due`)."""
        self.past.append(h)
        self.past_values.append(None)
        n = self.t.players
        self.h = undealt(h.number + 1, (h.first_bidder + 1) % n, n)
        self.due = True

    def _deal_if_due(self) -> None:
        """Deal the hand in progress from the seed (DEAL-1) if it is still due."""
        if not self.due:
            return
        self.due = False
        h = self.h
        t = self.t
        deal, widow = t.dealer.masks(self.seed, h.number)
        h.deal = deal
        h.hands = list(deal)
        h.widow = widow

    def _refuse(self, action_id: int) -> None:
        """Raise what the reference raises for this action id here."""
        t = self.t
        if not 0 <= action_id < t.size:
            raise ArgumentError(
                f"action_id: ids run from 0 to {t.size - 1}, not {shown(action_id)}"
            )
        state = self.to_state()
        action = ActionSpace(t.rules).actions[action_id]
        apply(state, action)
        raise AssertionError(f"the engine refused {action}, which the reference allows")

    # -- taking back ------------------------------------------------------------

    def undo(self) -> None:
        """Take back the last step taken by this engine (across tricks, hands and deals)."""
        if not self.log:
            raise ArgumentError("undo: this engine has taken no step that is left to take back")
        entry = self.log.pop()
        action_id = entry & _ID_BITS
        t = self.t
        if entry & _ENDED_HAND:
            last = self.past.pop()
            self.past_values.pop()
            assert isinstance(last, HandState)
            self.h = last.copy()  # clones may share it
            self.due = False
        h = self.h
        if entry & (_ENDED_GAME | _ENDED_HAND) and h.deltas:
            for k in range(t.sides):
                self._scores[k] -= h.deltas[k]
            h.deltas = []
        self._winner = -1
        kind = t.kind[action_id]
        if kind == PLAY:
            self._unplay(h, t)
        elif kind == CALL:
            if h.phase != BIDDING and h.bidder >= 0:  # the call ended the auction
                if h.widow_taken:
                    h.hands[h.bidder] &= ~(1 << h.widow)
                    h.widow_taken = False
                h.bidder = -1
                h.bid = 0
            h.phase = BIDDING
            h.node = t.node_parent[h.node]
        elif kind == DISCARD:
            h.hands[h.bidder] |= 1 << h.discard
            h.discard = -1
            h.phase = DISCARDING
            if not t.widow_before_trump:
                h.leader = -1
        else:
            if h.phase == DISCARDING:  # the widow came after trump was named
                h.hands[h.bidder] &= ~(1 << h.widow)
                h.widow_taken = False
            h.trump = -1
            h.phase = NAMING
            h.leader = -1

    def _unplay(self, h: HandState, t: Tables) -> None:
        n = t.players
        h.phase = PLAYING
        tile = h.played.pop()
        if h.in_trick == 0:  # the tile completed a trick
            win = h.winners.pop()
            h.tricks_won[win] -= 1
            h.leader = h.leaders.pop()
            h.in_trick = n - 1
        else:
            h.in_trick -= 1
        h.hands[(h.leader + h.in_trick) % n] |= 1 << tile

    # -- worlds ---------------------------------------------------------------

    def resample(self, seat: object, rng: object) -> Engine:
        """An engine at a state ``seat`` cannot tell from this one, drawn uniformly with
        ``rng``: :func:`moonrules.game.resample.resample` (``moonrules.bots.resample``) of
        the seat's view, read into an engine. The earlier hands and the undo log are not
        carried over (the draw knows only the view)."""
        if type(seat) is not int:
            raise wrong_type("seat", "a seat number", seat)
        if not isinstance(rng, random.Random):
            raise wrong_type("rng", "a random.Random", rng)
        return Engine.from_state(resample(view(self.to_state(), seat), rng))

    # -- random play ----------------------------------------------------------

    def playout(self, seed: object) -> int:
        """Play uniformly random legal actions until the hand in progress is over (the next
        hand dealt, or the game over); the number of steps taken.

        The choices come from Marsaglia's xorshift32 generator (shifts 13, 17, 5) started at
        :func:`generator_state` of ``seed``: at each step the state moves on once
        (:func:`next_state`) and the ``k``-th of the ``m`` legal ids, ascending, is taken,
        ``k = state * m >> 32``. The steps go to the undo log like any other.
        """
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise wrong_type("seed", "a whole number", seed)
        self._deal_if_due()
        x = generator_state(seed)
        t = self.t
        h = self.h
        steps = 0
        while self._winner < 0 and self.h is h:
            x ^= x << 13 & _MASK32
            x ^= x >> 17
            x ^= x << 5 & _MASK32
            steps += 1
            p = h.phase
            # the id is drawn among the legal ones, so it is taken without being checked
            if p == PLAYING:
                tile = _kth_bit(self._legal_tiles(h, t), x)
                self._play(h, t, tile, t.play_id[tile])
            elif p == BIDDING:
                a = _kth_bit(t.node_ids[h.node], x)
                self._call(h, t, t.node_child[h.node * t.size + a], a)
            else:
                self._step(self._kth_legal_id(x))
        return steps

    def _kth_legal_id(self, x: int) -> int:
        """``legal_ids()[x * len(legal_ids()) >> 32]``, without building the list: the ids
        ascend with the bits of the mask they come from."""
        h = self.h
        t = self.t
        p = h.phase
        if p == PLAYING:
            return t.play_id[_kth_bit(self._legal_tiles(h, t), x)]
        if p == BIDDING:
            return _kth_bit(t.node_ids[h.node], x)
        if p == DISCARDING:
            return t.discard_id[_kth_bit(h.hands[h.bidder], x)]
        return _kth_bit(t.trump_ids_mask, x)

    # -- observations ---------------------------------------------------------

    def observe(self, seat: object, history: object = False) -> list[float]:
        """``encode_observation(view(self.to_state(), seat))``, written from the engine; with
        ``history``, ``encode_information_state`` of that view (every completed trick of the
        hand too)."""
        self._deal_if_due()
        t = self.t
        if type(seat) is not int:
            raise wrong_type("seat", "a seat number", seat)
        if type(history) is not bool:
            raise wrong_type("history", "True or False", history)
        n = t.players
        if not 0 <= seat < n:
            raise ArgumentError(f"seat: seats are numbered 0 to {n - 1}, not {shown(seat)}")
        tables = _tables(t.rules, history)
        st = tables.seats[seat]
        h = self.h
        out = [0.0] * tables.size
        out[tables.phase + h.phase] = 1.0
        if self._winner < 0 and h.phase != DONE:
            out[st.to_act[self.seat_to_act()]] = 1.0
        row = tables.hand
        m = h.hands[seat]
        while m:
            low = m & -m
            out[row[low.bit_length() - 1]] = 1.0
            m ^= low
        played = h.played
        for k in range(len(h.winners)):
            rows = st.played[h.leaders[k]]
            for j in range(n):
                out[rows[j][played[k * n + j]]] = 1.0
        if h.in_trick:
            rows = st.played[h.leader]
            trick_rows = st.trick[h.leader]
            start = len(played) - h.in_trick
            for j in range(h.in_trick):
                i = played[start + j]
                out[rows[j][i]] = 1.0
                out[trick_rows[j][i]] = 1.0
        if h.leader >= 0 and h.phase == PLAYING:
            out[st.leader[h.leader]] = 1.0
        for s in range(n):
            if h.tricks_won[s]:
                out[st.tricks_won[s]] = h.tricks_won[s] / 7
        self._observe_contract(out, seat, tables, st)
        target = tables.target
        for side in range(t.sides):
            out[st.scores[side]] = max(-target, min(target, self._scores[side])) / target
        if history:
            self._observe_tricks(out, st)
        return out

    def _observe_tricks(self, out: list[float], st: SeatTables) -> None:
        """The ``tricks`` section of :meth:`observe` (the information state)."""
        h = self.h
        n = self.t.players
        for k in range(len(h.winners)):
            leader = h.leaders[k]
            out[st.tricks_led[k][leader]] = 1.0
            rows = st.tricks_played[k][leader]
            for j in range(n):
                out[rows[j][h.played[k * n + j]]] = 1.0

    def _observe_contract(
        self, out: list[float], seat: int, tables: EncoderTables, st: SeatTables
    ) -> None:
        """The ``first_bidder``, ``calls``, ``bidder``, ``bid``, ``trump``, ``widow`` and
        ``discard`` sections of :meth:`observe`."""
        h = self.h
        t = self.t
        out[st.first_bidder[h.first_bidder]] = 1.0
        calls = t.node_calls[h.node]
        call_rows = st.calls[h.first_bidder]
        columns = tables.columns
        for j in range(len(calls)):
            c = calls[j]
            out[call_rows[j] + (columns[c] if c else 0)] = 1.0
        if h.bidder >= 0:
            out[st.bidder[h.bidder]] = 1.0
            out[tables.bid + tables.bids.index(h.bid)] = 1.0
        if h.trump >= 0:
            out[tables.trump + t.trump_ids.index(t.trump_id[h.trump])] = 1.0
        if seat == h.bidder:
            if h.widow_taken:
                out[tables.widow[h.widow]] = 1.0
            if h.discard >= 0:
                out[tables.discard[h.discard]] = 1.0


__all__ = ["Engine", "HandState", "generator_state", "mix32", "next_state"]
