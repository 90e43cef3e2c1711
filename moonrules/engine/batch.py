"""The batched form of the game: ``n`` games stepped at once as numpy arrays (extra ``[batch]``).

:class:`Batch` holds ``n`` games of one rule set as a struct of arrays (hand masks, the
trick, the auction's node, the scores, …) and steps all of them with one array of action
ids (the ids of ``moonrules.ActionSpace``), with no Python loop over the
games in a step. It plays the same games as :class:`~moonrules.engine.Engine` and the
reference :func:`~moonrules.game.play.apply`, and states no rule of its own:

- every per-step rule is a look-up in the engine's tables
  (:func:`moonrules.engine.tables.tables_for`: action kinds and arguments, the auction's tree
  of nodes with their legal ids, children and ends, the follow, trump, led-suit and strength
  tables), turned into numpy arrays once per rule set
  (:func:`~moonrules.engine.batch_tables.batch_tables`);
- a hand's score is a look-up in a table of :func:`~moonrules.kernel.memo.scored`
  (:func:`~moonrules.rules.scoring.score_hand`) for every bidder, bid and count of tricks
  per seat; the game's end is :func:`~moonrules.rules.scoring.decided_winner` written over
  arrays (:func:`~moonrules.engine.batch_tables.decided_winners`, checked against it over a
  grid of scores by the tests);
- the deals are DEAL-1's (``deals="seeded"``, the default: :func:`~moonrules.game.deal.new_game`
  and :func:`~moonrules.game.deal.shuffled`, one Python call per hand dealt) or the batch's
  own (``deals="fast"``: see below).

The same step as pure functions under ``jax.jit`` and ``jax.vmap``, with a ``pgx.Env``:
:mod:`moonrules.engine.batch_jax` (extra ``[jax]``), which reads these tables.

``tests/test_engine_batch.py`` steps every game of batches of several presets in lockstep
with an :class:`~moonrules.engine.Engine` on the same deals: legal ids, the seat to act,
observations, scores, rewards, the end of each game and the reference state of the hand.

**Seeds and resets.** Game ``i`` of ``Batch(rules, n, seed)`` is the game of seed
``seed + i``. A game that ends (``done[i]`` after a step) is replaced at once by a new game:
the resets take the next unused seeds, ``seed + n``, ``seed + n + 1``, …, in game order
within a step (:attr:`Batch.seeds` says each game's seed). With ``deals="seeded"`` game ``i``
is exactly ``Engine(rules, seed=seeds[i])`` (its first bidder and every deal). With
``deals="fast"`` every deal, and the first bidder of each game, come from one
``numpy.random.default_rng(seed)``: at each step, for the games to be dealt in game order,
first one ``integers(players)`` per new game (its first bidder), then one
``permuted(tiles, axis=1)`` row per game (its tiles in the rule set's order, shuffled: seat
0 gets the first 7, seat 1 the next 7, …, the widow is the last), so every deal is equally
likely and a seed and the same actions give the same games, but not DEAL-1's deals; such a
game is ``Engine.from_state(with_deal(new_game(rules, seed=seeds[i], first_bidder=f), deal))``
with each later hand's deal put in by ``with_deal`` too (:meth:`Batch.deal`).

**Rewards.** After a step, :attr:`Batch.rewards` ``[n, sides]`` is each side's score change
at that step, by absolute side (a seat; a team in partnership rules; the side of seat ``s``
is ``side_of[s]``): the hand's deltas on the step that ended a hand, zeros otherwise.
:attr:`Batch.done` ``[n]`` says which games ended at that step, :attr:`Batch.winner` ``[n]``
their winning side (-1 elsewhere); the arrays of the state already show the new game.

**Random play.** :meth:`Batch.random_actions` draws ``u = generator.random(n)`` and takes in
each game the ``k``-th of its ``count`` legal ids, ascending, ``k = floor(u * count)``.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from moonrules.engine.batch_tables import (
    BIDDING,
    CHUNK,
    DISCARDING,
    DONE,
    NAMING,
    PHASES,
    PLAYING,
    BatchTables,
    batch_tables,
    decided_sides,
    decided_winners,
)
from moonrules.engine.tables import CALL, DISCARD, PLAY, TRUMP
from moonrules.game.deal import new_game, shuffled
from moonrules.game.encoding import ActionSpace
from moonrules.game.play import apply
from moonrules.game.state import (
    Deal,
    GameState,
    make_contract,
    make_game,
    make_hand,
    make_state,
    make_trick,
)
from moonrules.rules.errors import ArgumentError, IllegalAction, shown, wrong_type
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.tiles import TILES

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float32]
Words = npt.NDArray[np.uint64]
Halves = npt.NDArray[np.int32]

DEAL_MODES: Final = ("seeded", "fast")

_ONE: Final = np.int64(1)


def _select14() -> npt.NDArray[np.int8]:
    """``[chunk * 16 + k]``: the position of the ``k``-th set bit of the 14-bit ``chunk``
    (lowest first; 0 past its last)."""
    values = np.arange(1 << CHUNK)
    bits = values[:, None] >> np.arange(CHUNK) & 1
    rank = np.cumsum(bits, axis=1) - 1  # [chunk, bit]: how many set bits below, if set
    out = np.zeros((1 << CHUNK) * 16, dtype=np.int8)
    chunk, bit = np.nonzero(bits)
    out[chunk * 16 + rank[chunk, bit]] = bit
    return out


_SELECT14: Final = _select14()
_LOW14: Final = (1 << CHUNK) - 1
_WINNER: Final = 28
"""A completed trick is kept as its tiles' mask with its winner's seat from this bit up."""
_TILES: Final = (1 << _WINNER) - 1


def _positions(bt: BatchTables, masks: Ints) -> Halves:
    """Tile masks as masks of positions in tile order (bit ``k``: the ``k``-th tile)."""
    low = np.take(bt.low_positions, masks & ((1 << CHUNK) - 1))
    out: Halves = low | np.take(bt.high_positions, masks >> CHUNK)
    return out


def _unpack(words: Words | Halves, width: int) -> npt.NDArray[np.uint8]:
    """The low ``width`` bits of each word, lowest first, as 0/1 bytes (shape ``[..., width]``)."""
    little = np.ascontiguousarray(words, dtype="<u8")
    octets = little.view(np.uint8).reshape(*little.shape, 8)
    return np.unpackbits(octets, axis=-1, bitorder="little")[..., :width]


class Batch:
    """``n`` games of one rule set, stepped at once by arrays of action ids (see the module).

    ``Batch(rules, n, seed, deals="seeded")``: ``rules`` a :class:`RuleSet` or a preset
    name, ``n`` the number of games, ``seed`` the seed of game 0 (game ``i``: ``seed + i``),
    ``deals`` ``"seeded"`` (DEAL-1's deals, as :class:`~moonrules.engine.Engine`) or
    ``"fast"`` (the batch's own shuffle, from ``numpy.random.default_rng(seed)``; for a
    negative seed ``default_rng([1, -seed])``).

    The state is a struct of arrays, one entry per game (per seat or per side: arrays
    ``[players, n]`` or ``[sides, n]`` inside, read as ``[n, players]`` or ``[n, sides]``
    through :attr:`hands`, :attr:`scores`, :attr:`rewards`, :attr:`tricks_won`).
    """

    def __init__(
        self, rules: RuleSet | str, n: int, seed: int = 0, *, deals: str = "seeded"
    ) -> None:
        r = as_rules(rules)
        if type(n) is not int:
            raise wrong_type("n", "a whole number of games", n)
        if n <= 0:
            raise ArgumentError(f"n: a batch holds 1 game or more, not {shown(n)}")
        if type(seed) is not int:
            raise wrong_type("seed", "a whole number", seed)
        if deals not in DEAL_MODES:
            raise ArgumentError(f"deals: 'seeded' or 'fast', not {shown(deals)}")
        self.rules: RuleSet = r
        self.bt: BatchTables = batch_tables(r)
        self.n: int = n
        self.seed: int = seed
        self.deals: str = deals
        self.rng: np.random.Generator | None = None
        if deals == "fast":
            self.rng = np.random.default_rng(seed if seed >= 0 else [1, -seed])
        self._allocate()
        self._deal(self._rows, np.ones(n, dtype=np.bool_))

    def _allocate(self) -> None:
        """The arrays of the games' state, before the first deal."""
        n = self.n
        players = self.bt.players
        sides = self.bt.sides
        self._rows: Ints = np.arange(n, dtype=np.int64)
        z = np.zeros(n, dtype=np.int64)
        self.offset: Ints = z.copy()
        """Each game's seed, less ``seed``."""
        self._next_offset = 0  # the first deal takes offsets 0 … n - 1
        self._hands: Ints = np.zeros((players, n), dtype=np.int64)
        self._dealt: Ints = np.zeros((players, n), dtype=np.int64)
        self.widow: Ints = z - 1
        """The widow's tile index in each game (-1 without one)."""
        self.hand_number: Ints = z.copy()
        self.first_bidder: Ints = z.copy()
        self.node: Ints = z.copy()
        """The auction's node (:class:`~moonrules.engine.tables.Tables`: the calls so far)."""
        self.bidder: Ints = z - 1
        self.bid: Ints = z.copy()
        self.discard: Ints = z - 1
        self.trump: Ints = z - 1
        """``Trump.value`` of the trump named, or -1."""
        self.widow_taken: Bools = np.zeros(n, dtype=np.bool_)
        self.phase: Ints = z.copy()
        """Phase numbers: 0 bidding, 1 discard, 2 trump, 3 play (4, done, is never current)."""
        self.leader: Ints = z - 1
        self.to_act: Ints = z.copy()
        """The seat to act in each game."""
        self.in_trick: Ints = z.copy()
        self.tricks_done: Ints = z.copy()
        self.require: Ints = z.copy()
        """The tiles the seat to play must play if it holds any (0: any tile)."""
        self.led_suit: Ints = z.copy()
        self.best: Ints = z - 1
        """The strength (8 times) of the winning tile of the trick so far plus its position
        in the trick (-1 before the lead)."""
        # where the strengths of the trick in progress start in ``strength_of_id``
        self._strengths: Ints = z.copy()
        self.trick_mask: Ints = z.copy()
        """The tiles of the trick in progress."""
        self._tricks: Ints = np.zeros((7, n), dtype=np.int64)
        """The tiles of each completed trick of the hand, and its winner above (bit 28 up)."""
        # _hands by flat index seat * n + game (views: a fancy assignment to one is much
        # cheaper than np.put), _tricks by trick * n + game
        self._hands_flat, self._tricks_flat = self._hands.reshape(-1), self._tricks.reshape(-1)
        self._code: Ints = z.copy()
        """The tricks won by each seat in the hand in progress, 3 bits a seat (seat ``s``'s
        count from bit ``3 * s``): the scoring table's key (:attr:`tricks_won` reads it)."""
        self._scores: Ints = np.zeros((sides, n), dtype=np.int64)
        self._rewards: Floats = np.zeros((sides, n), dtype=np.float32)
        self.done: Bools = np.zeros(n, dtype=np.bool_)
        """Which games ended at the last step (each is already replaced by a new game)."""
        self.winner: Ints = z - 1
        """The winning side of each game that ended at the last step (-1 elsewhere)."""
        self.hands_played: int = 0
        """Hands played out (scored) since the batch was made, all games together."""
        self.hands_thrown_in: int = 0
        """Hands thrown in (every player passed) since the batch was made."""
        self.games_played: int = 0
        """Games ended since the batch was made."""
        self._allocate_step(z)

    def _allocate_step(self, z: Ints) -> None:
        """The step's own arrays: the legal words of the state and what they are made of."""
        self._side_at: Ints = np.arange(self.bt.sides, dtype=np.int64)[:, None] * self.n
        self._ids: Words | None = None
        self._fresh = False  # _word, _flat and _held are those of the state (_words)
        self._chosen: Ints | None = None  # a copy of random_actions' ids for the state
        self._flat: Ints = z
        self._held: Ints = z
        self._word: Halves = z.astype(np.int32)
        self._base: Ints = z.copy()
        """Each game's base (:meth:`_words`), kept with its phase (:meth:`_enter`)."""
        self._special: Halves = z.astype(np.int32)
        """The legal word of a game in the auction or naming trump (its node's calls, the
        trumps offered), 0 in the other phases (kept with the phase and node)."""
        self._keep: Halves = z.astype(np.int32)
        """-1 where the legal word is the tiles' (discarding, playing), 0 elsewhere."""

    # -- reading --------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """How many action ids there are (``ActionSpace(rules).size``)."""
        return self.bt.size

    @property
    def observation_size(self) -> int:
        """The length of an observation (``ObservationLayout(rules).size``)."""
        return self.bt.observation_size

    @property
    def side_of(self) -> Ints:
        """By seat: its side (itself; its team in partnership rules)."""
        return self.bt.side_of

    @property
    def seeds(self) -> list[int]:
        """Each game's seed."""
        return [self.seed + int(k) for k in self.offset]

    @property
    def hands(self) -> Ints:
        """``[n, players]``: each seat's tiles, as masks (bit ``i``: the tile of index ``i``)."""
        return self._hands.T

    @property
    def deal_masks(self) -> Ints:
        """``[n, players]``: each seat's tiles as dealt in the hand in progress."""
        return self._dealt.T

    @property
    def _won(self) -> Ints:
        """``[players, n]``: tricks won by each seat in the hand in progress."""
        out: Ints = self._code >> self.bt.shifts[:, None] & 7
        return out

    @property
    def tricks_won(self) -> Ints:
        """``[n, players]``: tricks won by each seat in the hand in progress."""
        return self._won.T

    @property
    def scores(self) -> Ints:
        """``[n, sides]``: points (or marks) per side in each game."""
        return self._scores.T

    @property
    def rewards(self) -> Floats:
        """``[n, sides]``: each side's score change at the last step (absolute sides)."""
        return self._rewards.T

    def legal_ids(self) -> Words:
        """The legal ids of each game as a 64-bit mask (bit ``i``: id ``i`` is legal)."""
        if self._ids is None:
            self._ids = self._legal_ids()
        return self._ids

    def _current_word(self) -> Halves:
        """The legal words of the state (:meth:`_words`), computed once per step."""
        if not self._fresh:
            self._words()
        return self._word

    def _legal_ids(self) -> Words:
        """The legal ids as 64-bit masks; on the way, each game's legal word and its base
        (:meth:`_words`), kept for :meth:`random_actions`."""
        word = self._current_word()
        base = self._base
        ids: Words = word.astype(np.uint64) << base.view(np.uint64)
        return ids

    def _words(self) -> tuple[Halves, Ints]:
        """Each game's legal ids shifted down to bit 0 (its *legal word*, under 28 bits:
        the calls' ids; the positions in tile order of the tiles it may discard or play; the
        trumps offered from the first trump's id) and the id of bit 0 (the *base*)."""
        bt = self.bt
        flat = self.to_act * self.n + self._rows
        held = np.take(self._hands, flat)
        self._flat = flat
        self._held = held
        must = held & self.require
        tiles = np.where(must != 0, must, held)
        if bt.in_order:  # positions are the tiles' indices
            word: Halves = tiles.astype(np.int32)
        else:
            word = np.take(bt.low_positions, tiles & _LOW14)
            word |= np.take(bt.high_positions, tiles >> CHUNK)
        word &= self._keep
        word |= self._special
        self._word = word
        self._fresh = True
        return word, self._base

    def legal_mask(self) -> Bools:
        """``[n, num_actions]``: ``True`` where the id is legal in the game."""
        return _unpack(self.legal_ids(), self.bt.size).view(np.bool_)

    def random_actions(self, generator: np.random.Generator) -> Ints:
        """A uniformly random legal id per game: ``u = generator.random(n)`` and, in each
        game, the ``k``-th of its ``count`` legal ids, ascending, ``k = floor(u * count)``."""
        if not isinstance(generator, np.random.Generator):
            raise wrong_type("generator", "a numpy.random.Generator", generator)
        word = self._current_word()
        u = generator.random(self.n)
        low = word & _LOW14
        below = np.bitwise_count(low)  # the legal ids among the word's low 14 bits
        k = (u * np.bitwise_count(word)).astype(np.int32)
        high = k >= below  # the k-th is in the high 14 bits
        shift = high * np.int32(CHUNK)
        half = word >> shift & _LOW14
        k -= below * high
        out: Ints = np.take(_SELECT14, half << 4 | k) + shift + self._base
        self._chosen = out.copy()
        return out

    def deal(self, game: int) -> Deal:
        """The deal of the hand in progress of game ``game``."""
        i = self._game(game)
        hands = tuple(
            tuple(TILES[k] for k in range(28) if int(m) >> k & 1) for m in self._dealt[:, i]
        )
        w = int(self.widow[i])
        return Deal(hands, TILES[w] if w >= 0 else None)

    def _game(self, game: object) -> int:
        if type(game) is not int:
            raise wrong_type("game", "a game number", game)
        if not 0 <= game < self.n:
            raise ArgumentError(f"game: games are numbered 0 to {self.n - 1}, not {shown(game)}")
        return game

    def _played(self) -> Ints:
        """``[players, n]``: the tiles each seat has played in the hand: dealt (the widow with
        them once taken), not held, not discarded."""
        bidder = self.bidder
        widow = np.where(self.widow_taken, _ONE << np.maximum(self.widow, 0), 0)
        gone = np.where(self.discard >= 0, _ONE << np.maximum(self.discard, 0), 0)
        out = self._dealt & ~self._hands
        for s in range(self.bt.players):
            mine = (self._dealt[s] | widow) & ~self._hands[s] & ~gone
            out[s] = np.where(bidder == s, mine, out[s])
        return out

    def state(self, game: int) -> GameState:
        """The reference :class:`~moonrules.game.state.GameState` of game ``game``'s position:
        its rules, seed, scores and hand in progress (the earlier hands are not kept: its
        ``history`` is empty, so only its hand and scores are those of the game)."""
        i = self._game(game)
        t = self.bt.engine_tables
        n = t.players
        played = [int(m) for m in self._played()[:, i]]
        done = int(self.tricks_done[i])
        # the bidder leads the first trick (LEAD-1), each trick's winner the next
        won = [int(x) for x in self._tricks[:done, i]]
        leaders = [int(self.bidder[i]), *(x >> _WINNER for x in won)]

        def tiles_of(leader: int, mask: int, count: int) -> list[int]:
            return [(played[(leader + j) % n] & mask).bit_length() - 1 for j in range(count)]

        tricks = tuple(
            make_trick(
                leaders[k],
                tuple(TILES[x] for x in tiles_of(leaders[k], won[k] & _TILES, n)),
                leaders[k + 1],
            )
            for k in range(done)
        )
        trick = tiles_of(int(self.leader[i]), int(self.trick_mask[i]), int(self.in_trick[i]))
        contract = make_contract(
            int(self.hand_number[i]),
            int(self.first_bidder[i]),
            tuple(int(m) for m in self._dealt[:, i]),
            int(self.widow[i]),
            t.node_calls[int(self.node[i])],
            int(self.bidder[i]),
            int(self.bid[i]),
            int(self.discard[i]),
            int(self.trump[i]),
            bool(self.widow_taken[i]),
        )
        hand = make_hand(
            contract,
            tuple(int(m) for m in self._hands[:, i]),
            PHASES[int(self.phase[i])],
            int(self.leader[i]),
            tuple(trick),
            tricks,
            tuple(int(x) for x in self._won[:, i]),
            None,
            -1,
            None,
        )
        game_value = make_game(
            self.rules,
            self.seed + int(self.offset[i]),
            tuple(int(x) for x in self._scores[:, i]),
            (),
            None,
            True,
            None,
            None,
        )
        return make_state(game_value, hand)

    # -- stepping -------------------------------------------------------------------

    def _checked(self, actions: object) -> Ints:
        if not isinstance(actions, np.ndarray):
            raise wrong_type("actions", f"a numpy array of {self.n} action ids", actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions: expected an integer array, not one of {actions.dtype}")
        if actions.shape != (self.n,):
            raise ArgumentError(
                f"actions: expected shape ({self.n},), one id per game, not {actions.shape}"
            )
        chosen = self._chosen
        if chosen is not None and actions.dtype == np.int64 and (actions == chosen).all():
            return chosen  # random_actions' ids for this state: legal
        a = actions.astype(np.int64, copy=False)
        size = self.bt.size
        wide = a.astype(np.uint64)  # a negative id wraps to a huge one
        if (wide >= size).any():
            i = int(np.flatnonzero(wide >= size)[0])
            raise ArgumentError(
                f"actions[{i}]: ids run from 0 to {size - 1}, not {shown(int(a[i]))}"
            )
        legal = self.legal_ids() >> wide & np.uint64(1)
        if not legal.all():
            i = int(np.flatnonzero(legal == 0)[0])
            raise ArgumentError(f"actions[{i}]: {self._why(i, int(a[i]))}")
        return a

    def _why(self, i: int, a: int) -> str:
        """Why id ``a`` is illegal in game ``i``: the reference's error, clause and sentence."""
        action = ActionSpace(self.rules).actions[a]
        try:
            apply(self.state(i), action)
        except IllegalAction as e:
            return f"id {a} ({action}) is not legal in game {i}: {e.message} ({e.rule})"
        return f"id {a} ({action}) is not legal in game {i}"  # pragma: no cover

    def step(self, actions: npt.NDArray[np.integer]) -> None:
        """Take in each game ``i`` the action with id ``actions[i]`` (an integer array of
        shape ``[n]``); an id that is not legal raises :class:`ValueError` naming the first
        such game, before anything changes. Sets :attr:`rewards`, :attr:`done`, :attr:`winner`;
        ended games are replaced by new ones (see the module)."""
        a = self._checked(actions)
        self._current_word()  # _play reads the seat to act's tiles (_flat, _held)
        self._ids = None
        self._fresh = False
        self._chosen = None
        self._rewards.fill(0)
        self.done.fill(False)
        self.winner.fill(-1)
        kind = np.take(self.bt.kind, a)
        play = kind == PLAY
        ended = self._play(a, play)
        dealt = np.zeros(self.n, dtype=np.bool_)
        fresh = np.zeros(self.n, dtype=np.bool_)
        other = np.flatnonzero(~play)
        if len(other):
            kinds = kind[other]
            for k, handler in ((CALL, self._call), (DISCARD, self._discard), (TRUMP, self._name)):
                g = other[kinds == k]
                if len(g):
                    handler(g, a[g], dealt)
        if len(ended):
            self._score(ended, dealt, fresh)
        g = np.flatnonzero(dealt)
        if len(g):
            self._deal(g, fresh[g])

    def _play(self, a: Ints, play: Bools) -> Ints:
        """Play the tile of each game where ``play`` (every game computed, those kept); the
        games whose hand this ends (the seventh trick complete)."""
        bt = self.bt
        p = bt.players
        bit = np.take(bt.play_bit, a)  # 0 for an id that plays no tile
        self._hands_flat[self._flat] = self._held ^ bit
        in_trick = self.in_trick
        g = np.flatnonzero(play > in_trick)  # a play in a trick not begun: a lead
        if len(g):  # the leads: the suit led, what follows it, the strengths of the trick
            trump = self.trump[g]
            at = trump * 28 + np.take(bt.arg, a[g])
            led = np.take(bt.led_suit, at)
            self.led_suit[g] = led
            self.require[g] = np.take(bt.follow, at)
            self._strengths[g] = np.take(bt.strengths_at, at)
        # the strength of each tile played (8 times) plus its position in the trick: the
        # trick's highest so far is the largest (strengths in a trick differ: the tables)
        value = np.take(bt.strength_of_id, self._strengths + a)
        value += in_trick
        np.maximum(self.best, value, out=self.best)
        self.trick_mask |= bit
        in_trick += play
        np.take(bt.seat_after, self.to_act + play, out=self.to_act, mode="clip")
        full = np.flatnonzero(in_trick == p)
        if len(full):
            return self._trick_won(full)
        return full

    def _trick_won(self, g: Ints) -> Ints:
        """TRICK-2: the trick of each game ``g`` is complete; its winner leads the next. The
        games whose hand this ends."""
        n = self.n
        win = np.take(self.bt.seat_after, self.leader[g] + (self.best[g] & 7))
        self.best[g] = -1
        self._code[g] += np.take(self.bt.trick_code, win)
        self.leader[g] = win
        self.to_act[g] = win
        self.in_trick[g] = 0
        self.require[g] = 0
        done = self.tricks_done[g]
        self._tricks_flat[done * n + g] = self.trick_mask[g] | win << _WINNER
        self.trick_mask[g] = 0
        done += 1
        self.tricks_done[g] = done
        out: Ints = g[done == 7]
        return out

    def _call(self, g: Ints, a: Ints, dealt: Bools) -> None:
        """A call in each game ``g`` (BID-2 … BID-8): the auction's next node, and its end."""
        bt = self.bt
        child = np.take(bt.node_child, self.node[g] * bt.size + a)
        self.node[g] = child
        self._special[g] = np.take(bt.node_words, child)
        nxt = self.to_act[g] + 1
        self.to_act[g] = np.take(bt.seat_after, nxt)
        over = np.take(bt.node_over, child)
        if not over.any():
            return
        g = g[over]
        child = child[over]
        position = np.take(bt.node_winner, child)
        thrown = position < 0  # every player passed: thrown in (BID-7)
        if thrown.any():
            dealt[g[thrown]] = True
            self.hands_thrown_in += int(thrown.sum())
            kept = ~thrown
            g = g[kept]
            child = child[kept]
            position = position[kept]
        if not len(g):
            return
        bidder = np.take(bt.seat_after, self.first_bidder[g] + position)
        self.bidder[g] = bidder
        self.bid[g] = np.take(bt.node_bid, child)
        self.to_act[g] = bidder
        t = bt.engine_tables
        if t.has_widow and t.widow_before_trump:
            self._take_widow(g, bidder)
            self._enter(g, DISCARDING)
        else:
            self._enter(g, NAMING)

    def _enter(self, g: Ints, phase: int) -> None:
        """Games ``g`` enter ``phase`` (their node already set): the phase, the base of their
        legal word and its special value."""
        bt = self.bt
        self.phase[g] = phase
        self._base[g] = bt.word_base[phase]
        if phase == BIDDING:
            self._special[g] = np.take(bt.node_words, self.node[g])
        else:
            self._special[g] = bt.trump_word if phase == NAMING else 0
        self._keep[g] = -1 if phase in (DISCARDING, PLAYING) else 0

    def _take_widow(self, g: Ints, bidder: Ints) -> None:
        k = bidder * self.n + g
        self._hands_flat[k] |= _ONE << self.widow[g]
        self.widow_taken[g] = True

    def _discard(self, g: Ints, a: Ints, dealt: Bools) -> None:
        """The bidder's discard in each game ``g`` (WIDOW-1, WIDOW-2)."""
        bt = self.bt
        tile = np.take(bt.arg, a)
        bidder = self.bidder[g]
        k = bidder * self.n + g
        self._hands_flat[k] ^= _ONE << tile
        self.discard[g] = tile
        if bt.engine_tables.widow_before_trump:
            self._enter(g, NAMING)
        else:
            self._start_play(g, bidder)

    def _name(self, g: Ints, a: Ints, dealt: Bools) -> None:
        """The bidder names trump in each game ``g`` (TRUMP-1 … TRUMP-5)."""
        bt = self.bt
        t = bt.engine_tables
        self.trump[g] = np.take(bt.arg, a)
        bidder = self.bidder[g]
        if t.has_widow and not t.widow_before_trump:
            self._take_widow(g, bidder)
            self._enter(g, DISCARDING)
        else:
            self._start_play(g, bidder)

    def _start_play(self, g: Ints, bidder: Ints) -> None:
        """The bidder leads the first trick (LEAD-1, LEAD-2)."""
        self._enter(g, PLAYING)
        self.leader[g] = bidder
        self.best[g] = -1
        self.to_act[g] = bidder
        if self.bt.engine_tables.first_lead_trump:
            self.require[g] = np.take(self.bt.trumps_of, self.trump[g])
        else:
            self.require[g] = 0

    def _score(self, g: Ints, dealt: Bools, fresh: Bools) -> None:
        """Score the hands of games ``g`` (SCORE-1 … SCORE-6) and end the games that are won
        (END-1 … END-3)."""
        bt = self.bt
        bidder = self.bidder[g]
        code = self._code[g]
        bid = np.take(bt.bid_index, self.bid[g])
        key = (bidder * bt.bid_count + bid) * 8**bt.players + code
        delta = np.take(bt.deltas, key, axis=1)
        at = self._side_at + g  # [sides, len(g)]: flat indices in _scores and _rewards
        score = np.take(self._scores, at) + delta
        self._scores.reshape(-1)[at] = score
        self._rewards.reshape(-1)[at] = delta
        self.hands_played += len(g)
        dealt[g] = True
        # a game can end only where the hand wins it or a score reaches the target (END-1)
        won = np.take(bt.game_won, key)
        top = score[0]
        for column in score[1:]:
            top = np.maximum(top, column)
        maybe = np.flatnonzero(won | (top >= bt.target))
        if not len(maybe):
            return
        side = np.take(bt.side_of, bidder[maybe])
        win = np.where(won[maybe], side, decided_sides(self.rules, score[:, maybe], side))
        over = win >= 0
        if over.any():
            e = g[maybe[over]]
            self.done[e] = True
            self.winner[e] = win[over]
            fresh[e] = True
            self.games_played += len(e)

    def _deal(self, g: Ints, fresh: Bools) -> None:
        """Deal the next hand of games ``g`` (``fresh``: the first hand of a new game, with
        the next unused seed), in game order."""
        bt = self.bt
        new = g[fresh]
        if len(new):
            self.offset[new] = np.arange(self._next_offset, self._next_offset + len(new))
            self._next_offset += len(new)
            self._scores[:, new] = 0
            self.hand_number[new] = 0
        old = g[~fresh]
        if len(old):
            self.first_bidder[old] = np.take(bt.next_seat, self.first_bidder[old])
        self.hand_number[g] += 1
        seeded = self.deals == "seeded"
        masks = self._seeded_deals(g, fresh) if seeded else self._fast_deals(g, new)
        self._dealt[:, g] = masks
        self.node[g] = 0
        self.bidder[g] = -1
        self.bid[g] = 0
        self.discard[g] = -1
        self.trump[g] = -1
        self.widow_taken[g] = False
        self._enter(g, BIDDING)
        self.leader[g] = -1
        self.to_act[g] = self.first_bidder[g]
        self.tricks_done[g] = 0
        self._code[g] = 0
        # in_trick, require and trick_mask are 0 already: a hand ends on a complete trick
        # (TRICK-2 resets them) or in the auction (which never sets them)
        self._hands[:, g] = masks

    def _seeded_deals(self, g: Ints, fresh: Bools) -> Ints:
        """DEAL-1: each new game as :func:`new_game` deals it, each next hand as
        :func:`shuffled` does (one Python call per game). The hands ``[players, len(g)]``."""
        rules = self.rules
        n = self.bt.players
        has_widow = rules.has_widow
        base = self.seed
        masks = []
        widows = []
        firsts = []
        offsets = self.offset[g].tolist()
        numbers = self.hand_number[g].tolist()
        for k, is_new in enumerate(fresh.tolist()):
            seed = base + offsets[k]
            if is_new:
                c = new_game(rules, seed).hand.contract
                masks.append(c.deal)
                widows.append(c.widow)
                firsts.append(c.first_bidder)
            else:
                pool = shuffled(rules, seed, numbers[k])
                masks.append(tuple(sum(1 << x for x in pool[7 * s : 7 * s + 7]) for s in range(n)))
                widows.append(pool[-1] if has_widow else -1)
        self.widow[g] = widows
        if firsts:
            self.first_bidder[g[fresh]] = firsts
        out: Ints = np.array(masks, dtype=np.int64).T
        return out

    def _fast_deals(self, g: Ints, new: Ints) -> Ints:
        """The batch's own deals (see the module): first bidders, then shuffles. The hands
        ``[players, len(g)]``."""
        bt = self.bt
        rng = self.rng
        assert rng is not None
        if len(new):
            self.first_bidder[new] = rng.integers(bt.players, size=len(new))
        m = len(g)
        pools = np.empty((m, bt.count), dtype=np.int64)
        pools[:] = bt.tiles
        rng.permuted(pools, axis=1, out=pools)  # the same draws as permuted(tiles rows)
        bits = (_ONE << pools[:, : 7 * bt.players]).reshape(m, bt.players, 7)
        self.widow[g] = pools[:, -1] if bt.engine_tables.has_widow else -1
        out: Ints = np.einsum("gsk->sg", bits)  # a sum of distinct bits: their or
        return out

    # -- observations -----------------------------------------------------------

    def observe(self) -> Floats:
        """``[n, observation_size]`` float32: in each game, the observation of the seat to
        act, ``encode_observation(view(state, seat))`` (as ``Engine.observe(seat)``)."""
        bt = self.bt
        at = bt.at
        n = self.n
        p = bt.players
        count = bt.count
        rows = self._rows
        out = np.zeros((n, bt.observation_size), dtype=np.float32)
        me = self.to_act
        phase = self.phase
        out[rows, at["phase"] + phase] = 1.0
        out[rows, at["to_act"]] = 1.0
        played = self._played()
        trick = played & self.trick_mask
        order = (me[None, :] + np.arange(p)[:, None]) % p  # [k, n]: the k-th seat from me
        flat = order * n + rows
        held = np.take(self._hands, me * n + rows)
        out[:, at["hand"] : at["hand"] + count] = _unpack(_positions(bt, held), count)
        for name, masks in (("played", played), ("trick", trick)):
            bits = _unpack(_positions(bt, np.take(masks, flat.T)), count)
            out[:, at[name] : at[name] + p * count] = bits.reshape(n, p * count)
        playing = np.flatnonzero((phase == PLAYING) & (self.leader >= 0))
        out[playing, at["leader"] + (self.leader[playing] - me[playing]) % p] = 1.0
        fb = self.first_bidder
        out[rows, at["first_bidder"] + (fb - me) % p] = 1.0
        columns = bt.node_columns[self.node]
        width = 1 + bt.bid_count
        for j in range(p):
            has = np.flatnonzero(columns[:, j] >= 0)
            seat = (fb[has] + j - me[has]) % p
            out[has, at["calls"] + seat * width + columns[has, j]] = 1.0
        b = np.flatnonzero(self.bidder >= 0)
        out[b, at["bidder"] + (self.bidder[b] - me[b]) % p] = 1.0
        out[b, at["bid"] + bt.bid_index[self.bid[b]]] = 1.0
        tr = np.flatnonzero(self.trump >= 0)
        out[tr, at["trump"] + bt.trump_position[self.trump[tr]]] = 1.0
        mine = me == self.bidder
        w = np.flatnonzero(mine & self.widow_taken)
        out[w, at["widow"] + bt.position[self.widow[w]]] = 1.0
        d = np.flatnonzero(mine & (self.discard >= 0))
        out[d, at["discard"] + bt.position[self.discard[d]]] = 1.0
        won = np.take(self._won, flat.T)
        out[:, at["tricks_won"] : at["tricks_won"] + p] = bt.tricks_value[won]
        sides = bt.sides
        target = bt.target
        scaled = (np.clip(self._scores, -target, target) / target).astype(np.float32)
        mine_side = bt.side_of[me]
        side_order = (mine_side[None, :] + np.arange(sides)[:, None]) % sides
        out[:, at["scores"] : at["scores"] + sides] = np.take(scaled, side_order * n + rows).T
        return out


__all__ = [
    "BIDDING",
    "DEAL_MODES",
    "DISCARDING",
    "DONE",
    "NAMING",
    "PHASES",
    "PLAYING",
    "Batch",
    "BatchTables",
    "batch_tables",
    "decided_winners",
]
