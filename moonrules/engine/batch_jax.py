"""The batched form of the game in JAX: pure functions, jitted and vmapped (extra ``[jax]``).

The same step as :class:`moonrules.engine.batch.Batch`, written as pure functions of a
state pytree (:class:`Games`: a struct of arrays, one row per game: hand masks as int32, the
trick, the auction's node, the scores, …), so that ``n`` games are stepped at once by one
compiled XLA program with no Python in the step. Nothing here states a rule: every per-step
rule is a look-up in the engine's tables (:func:`moonrules.engine.tables.tables_for`, the
same tables the numpy batch reads, through :func:`~moonrules.engine.batch.batch_tables`),
turned into ``jnp`` arrays once per rule set (:func:`functions_for`); a hand's score is the
numpy batch's table of :func:`~moonrules.rules.scoring.score_hand`, the game's end
:func:`~moonrules.rules.scoring.decided_winner` written over arrays, as the numpy batch does.

    >>> import jax
    >>> f = functions_for("standard")
    >>> games = f.init(jax.random.PRNGKey(0), 4)          # 4 games
    >>> mask = f.legal_action_mask(games)                 # bool [4, num_actions]
    >>> games = f.step(games, f.random_actions(games, jax.random.PRNGKey(1)))
    >>> f.observe(games).shape == (4, f.observation_size)
    True

**The functions** (:class:`JaxFunctions`, one per rule set, each jitted, each a per-game
function vmapped over the games): ``init(key, n)`` (or an int seed for ``key``),
``step(games, actions)``, ``legal_action_mask(games)`` ``[n, num_actions]``,
``observe(games)`` ``[n, observation_size]`` float32 (the seat to act's observation, equal
to ``encode_observation(view(state, seat))``), ``random_actions(games, key)`` and
``play_random(games, key, steps)`` (that many random steps in one ``lax.scan``). The
tables are arguments of the compiled programs, and the rule set's choices (the widow's
timing, the first lead, the tie rule, the target) data in them: rule sets of one shape
(players, tiles, ids, bids, trumps) share one program per batch size. After a step,
``games.rewards`` ``[n, sides]`` is each side's score change at that step (by absolute side,
as the numpy batch), ``games.done`` ``[n]`` says which games ended at that step and
``games.winner`` their winning side (-1 elsewhere); ``games.to_act`` is the seat to act.

**Deals and resets (the "fast" deals, as pgx deals).** ``init(key, n)`` gives game ``i`` the
key ``jax.random.split(key, n)[i]``; each game keeps its own key in the state. Every deal
of a game (its first hand, each next hand, and the first hand of each new game) splits that
key into words, ``w = jax.random.bits(key, (3 + tiles,), uint32)``: the game goes on with
the key ``w[0:2]``; a new game's first bidder is ``w[2] % players``; the deal is the rule
set's tile indices, in tile order, stably sorted by the words ``w[3:]`` (one tile a word:
a random permutation, as ``jax.random.permutation`` makes one; the sort is a count of the
smaller words, as XLA's sort is slow on CPU): seat 0 gets the first 7, seat 1 the next 7,
…, the widow is the last. Every deal is equally likely but for ties of 32-bit words and the
``% players`` (differences below 1e-7). Only the games that need a deal are dealt in a
step (gathered, when few). A game that
ends (``done`` after a step) is replaced at once, in that step, by a new game dealt so (its
scores at zero, hand 1): the state already shows the new game, as in the numpy batch. A
hand every player passed (BID-7) is dealt again at once, the first bidder one seat on.

So the JAX form plays DEAL-1's rules of the game on deals of its own: the same key and the
same actions give the same games, and each hand is the
reference's hand on that deal (``with_deal``), but they are not DEAL-1's seeded deals.
DEAL-1's deals (``moonrules.game.shuffle``: Python's integer generator and shuffle, one
Python call per hand) cannot run inside a jitted function; the numpy batch's
``deals="seeded"`` is the batched form that deals them.

**Random play.** :meth:`JaxFunctions.random_actions` takes in game ``i``
``u = jax.random.uniform(key, (n,))[i]`` (float32) and the ``k``-th of its ``count`` legal
ids, ascending, ``k = floor(u * count)``: the numpy batch's rule, with JAX's generator.

**pgx.** :func:`moonrules.engine.batch_pgx.pgx_env` gives a ``pgx.Env`` of one game of these
functions (:mod:`moonrules.engine.batch_pgx`, which also draws the games' states).

``tests/test_engine_jax.py`` steps the games of several presets in lockstep with an
:class:`~moonrules.engine.Engine` per game on the same deals (put in with ``with_deal``):
legal masks, observations, the seat to act, scores, rewards, game ends and resets after
every step; and the pgx environment the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from moonrules.engine.batch import BIDDING, DISCARDING, DONE, NAMING, PLAYING, batch_tables
from moonrules.engine.tables import CALL, DISCARD, PLAY, TRUMP
from moonrules.game.state import Deal
from moonrules.rules.errors import ArgumentError, shown, wrong_type
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.tiles import TILES

Array = jax.Array


class Games(NamedTuple):
    """The state of ``n`` games (a JAX pytree; each field has the games on its first axis,
    or is one game's value inside the per-game functions). All integers are int32."""

    key: Array
    """Each game's PRNG key (raw ``uint32[2]``), split at every deal."""
    hands: Array
    """``[n, players]``: the tiles each seat holds, as masks (bit ``i``: tile index ``i``)."""
    dealt: Array
    """``[n, players]``: each seat's tiles as dealt in the hand in progress."""
    widow: Array
    """The widow's tile index (-1 without one)."""
    hand_number: Array
    first_bidder: Array
    node: Array
    """The auction's node (:class:`~moonrules.engine.tables.Tables`: the calls so far)."""
    bidder: Array
    bid: Array
    discard: Array
    trump: Array
    """``Trump.value`` of the trump named, or -1."""
    widow_taken: Array
    phase: Array
    """Phase numbers, as the numpy batch's: 0 bidding, 1 discard, 2 trump, 3 play, 4 done
    (only without the automatic reset: a game over in the pgx environment)."""
    leader: Array
    to_act: Array
    in_trick: Array
    tricks_done: Array
    require: Array
    """The tiles the seat to play must play if it holds any (0: any tile)."""
    led_suit: Array
    best: Array
    best_position: Array
    trick_mask: Array
    won: Array
    """``[n, players]``: tricks won by each seat in the hand in progress."""
    scores: Array
    """``[n, sides]``: points (or marks) per side."""
    rewards: Array
    """``[n, sides]`` float32: each side's score change at the last step."""
    done: Array
    """Which games ended at the last step (each already replaced by a new game)."""
    winner: Array
    """The winning side of each game that ended at the last step (-1 elsewhere)."""
    hands_played: Array
    """Hands played out (scored) in each row since ``init``."""
    hands_thrown_in: Array
    games_played: Array
    """Games ended in each row since ``init``."""


def _i32(values: Any) -> Array:
    return jnp.asarray(np.asarray(values, dtype=np.int32))


def _as_key(key: ArrayLike) -> Array:
    """A raw ``uint32[2]`` key from a key (raw or typed) or an int seed."""
    if isinstance(key, bool) or not isinstance(key, (int, np.ndarray, jax.Array)):
        raise wrong_type("key", "a jax.random key or a whole-number seed", key)
    if isinstance(key, int):
        return jax.random.PRNGKey(key)
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return jax.random.key_data(key)
    if key.shape != (2,) or key.dtype != jnp.uint32:
        raise ArgumentError(f"key: expected a uint32[2] key, not {key.dtype}{list(key.shape)}")
    return jnp.asarray(key)


_STATIC: Final = ("players", "sides", "size", "count", "bid_count", "trump_count")
"""What fixes the shapes of a rule set's arrays (the rest is data)."""
_ARRAYS: Final = (
    *("has_widow", "widow_before", "widow_after", "first_lead_trump", "target", "bidder_out"),
    *("seats", "tiles", "side_of", "kind", "arg", "follow", "trumps_of", "led_suit", "strength"),
    *("node_child", "node_over", "node_winner", "node_bid", "node_columns", "node_low"),
    *("node_high", "trump_words", "chunk_low", "chunk_high", "base_of_phase"),
    *("bid_index", "deltas", "game_won"),
    *("position", "trump_position", "tricks_value", "score_value"),
)
"""The tables, the leaves of the pytree."""


@jax.tree_util.register_pytree_node_class
class _Core:
    """The numpy batch's tables as ``jnp`` arrays, and the per-game functions over them.

    A pytree whose leaves are the tables: the jitted functions take it as an argument, so
    the tables are inputs of the compiled program, not constants folded into it (which
    costs compile time)."""

    def __init__(self, rules: RuleSet) -> None:
        bt = batch_tables(rules)
        t = bt.engine_tables
        self.rules = rules
        self.players = p = bt.players
        self.sides = bt.sides
        self.size = bt.size
        self.observation_size = bt.observation_size
        # the rule set's choices as data, so that rule sets of one shape share a program
        self.has_widow = jnp.bool_(t.has_widow)
        self.widow_before = jnp.bool_(t.has_widow and t.widow_before_trump)
        """The bidder takes the widow when the auction ends (else after naming trump)."""
        self.widow_after = jnp.bool_(t.has_widow and not t.widow_before_trump)
        self.first_lead_trump = jnp.bool_(t.first_lead_trump)
        self.target = jnp.int32(bt.target)
        self.bidder_out = jnp.bool_(bt.bidder_out)
        self.bid_count = bt.bid_count
        self.count = bt.count
        self.seats = jnp.arange(p, dtype=jnp.int32)
        self.tiles = _i32(bt.tiles)
        self.side_of = _i32(bt.side_of)
        self.kind = _i32(bt.kind)
        self.arg = _i32(bt.arg)
        self.follow = _i32(bt.follow)
        self.trumps_of = _i32(bt.trumps_of)
        self.led_suit = _i32(bt.led_suit)
        self.strength = _i32(bt.strength)
        # the auction's tables, padded to a multiple of 64 nodes (nodes no game reaches)
        size = bt.size
        nodes = len(bt.node_over)
        pad = -nodes % 64
        child = np.pad(bt.node_child.reshape(nodes, size), ((0, pad), (0, 0)), constant_values=-1)
        self.node_child = _i32(child.reshape(-1))
        self.node_over = jnp.asarray(np.pad(bt.node_over, (0, pad)))
        self.node_winner = _i32(np.pad(bt.node_winner, (0, pad), constant_values=-1))
        self.node_bid = _i32(np.pad(bt.node_bid, (0, pad)))
        self.node_columns = _i32(np.pad(bt.node_columns, ((0, pad), (0, 0)), constant_values=-1))
        # the legal ids as two 32-bit words (ids 0-31, 32-63), as the numpy batch's 64-bit
        # masks: by node, the calls; the trumps; tile masks to masks of positions in tile
        # order (two chunks of 14 bits), shifted to the play or discard ids by phase
        words = np.pad(bt.node_ids, (0, pad))
        self.node_low = jnp.asarray((words & np.uint64(0xFFFFFFFF)).astype(np.uint32))
        self.node_high = jnp.asarray((words >> np.uint64(32)).astype(np.uint32))
        trumps = int(bt.trump_ids)
        self.trump_words = jnp.asarray(np.array([trumps & 0xFFFFFFFF, trumps >> 32], np.uint32))
        self.chunk_low = jnp.asarray(bt.low.astype(np.uint32))
        self.chunk_high = jnp.asarray(bt.high.astype(np.uint32))
        self.base_of_phase = _i32(bt.base_of_phase.astype(np.int64))
        # by id: the tile it plays or discards, and the phase in which it does (-1: neither)
        self.bid_index = _i32(np.maximum(bt.bid_index, 0))
        self.deltas = _i32(bt.deltas.T)  # [key, side]
        self.game_won = jnp.asarray(bt.game_won)
        self.position = _i32(np.maximum(bt.position, 0))
        self.trump_position = _i32(np.maximum(bt.trump_position, 0))
        self.trump_count = len(rules.trumps)
        self.tricks_value = jnp.asarray(bt.tricks_value)
        # by score + target (the score clipped to the target): the score's float, as the
        # numpy batch computes it; padded to a power of two (at least 64) entries
        target = bt.target
        width = max(64, 1 << (2 * target).bit_length())
        values = np.clip(np.arange(width) - target, -target, target) / target
        self.score_value = jnp.asarray(values.astype(np.float32))
        missing = {k for k, v in vars(self).items() if isinstance(v, jax.Array)} ^ set(_ARRAYS)
        assert not missing, missing

    def tree_flatten(self) -> tuple[list[Array], tuple[int, ...]]:
        """The tables are the leaves; the shape of the rule set is the static part (rule
        sets of one shape share each compiled program)."""
        return [getattr(self, k) for k in _ARRAYS], tuple(getattr(self, k) for k in _STATIC)

    @classmethod
    def tree_unflatten(cls, shape: tuple[int, ...], leaves: list[Array]) -> _Core:
        out = cls.__new__(cls)
        for k, v in zip(_STATIC, shape, strict=True):
            setattr(out, k, v)
        for k, a in zip(_ARRAYS, leaves, strict=True):
            setattr(out, k, a)
        return out

    # -- one game ---------------------------------------------------------------------

    def blank(self, key: Array) -> Games:
        p = self.players
        z = jnp.int32(0)
        m1 = jnp.int32(-1)
        f = jnp.bool_(False)
        return Games(
            key=key,
            hands=jnp.zeros(p, jnp.int32),
            dealt=jnp.zeros(p, jnp.int32),
            widow=m1,
            hand_number=z,
            first_bidder=z,
            node=z,
            bidder=m1,
            bid=z,
            discard=m1,
            trump=m1,
            widow_taken=f,
            phase=z,
            leader=m1,
            to_act=z,
            in_trick=z,
            tricks_done=z,
            require=z,
            led_suit=z,
            best=z,
            best_position=z,
            trick_mask=z,
            won=jnp.zeros(p, jnp.int32),
            scores=jnp.zeros(self.sides, jnp.int32),
            rewards=jnp.zeros(self.sides, jnp.float32),
            done=f,
            winner=m1,
            hands_played=z,
            hands_thrown_in=z,
            games_played=z,
        )

    def init_one(self, key: Array) -> Games:
        """A new game from its key: its first bidder and first deal."""
        return self.deal(self.blank(key), jnp.bool_(True), jnp.bool_(True))

    def deal(self, g: Games, need: Array, fresh: Array) -> Games:
        """Where ``need``: deal the next hand (``fresh``: the first hand of a new game)."""
        return self.put_deal(g, need, fresh, self.draw(g.key))

    def draw(self, key: Array) -> tuple[Array, Array, Array, Array]:
        """A deal from a game's key: (the game's next key, a new game's first bidder, the
        seats' tiles, the widow)."""
        p = self.players
        words = jax.random.bits(key, (3 + self.count,), jnp.uint32)
        key = words[:2]
        first = (words[2] % p).astype(jnp.int32)
        # the place of each tile in the tiles stably sorted by their words (a sort by
        # counting: XLA's sort is slow on CPU): the words below it, and the equal ones before
        r = words[3:]
        order = jnp.arange(self.count)
        below = (r[None, :] < r[:, None]) | (
            (r[None, :] == r[:, None]) & (order[None, :] < order[:, None])
        )
        place = jnp.sum(below, axis=1, dtype=jnp.int32)
        seat = place // 7  # seat s: places 7s … 7s + 6; the widow: the last place
        bits = jnp.left_shift(1, self.tiles)
        dealt = jnp.sum(
            jnp.where(seat[None, :] == self.seats[:, None], bits, 0), axis=1, dtype=jnp.int32
        )
        last = jnp.sum(jnp.where(place == self.count - 1, self.tiles, 0), dtype=jnp.int32)
        widow = jnp.where(self.has_widow, last, -1)
        return key, first, dealt, widow

    def put_deal(
        self, g: Games, need: Array, fresh: Array, drawn: tuple[Array, Array, Array, Array]
    ) -> Games:
        """Where ``need``: the next hand on the deal ``drawn`` (:meth:`draw`)."""
        p = self.players
        key, first, dealt, widow = drawn
        first = jnp.where(fresh, first, (g.first_bidder + 1) % p)

        def w(new: Any, old: Array) -> Array:
            return jnp.where(need, new, old)

        return g._replace(
            key=w(key, g.key),
            hands=w(dealt, g.hands),
            dealt=w(dealt, g.dealt),
            widow=w(widow, g.widow),
            hand_number=w(jnp.where(fresh, 1, g.hand_number + 1), g.hand_number),
            first_bidder=w(first, g.first_bidder),
            node=w(0, g.node),
            bidder=w(-1, g.bidder),
            bid=w(0, g.bid),
            discard=w(-1, g.discard),
            trump=w(-1, g.trump),
            widow_taken=w(False, g.widow_taken),
            phase=w(BIDDING, g.phase),
            leader=w(-1, g.leader),
            to_act=w(first, g.to_act),
            in_trick=w(0, g.in_trick),
            tricks_done=w(0, g.tricks_done),
            require=w(0, g.require),
            trick_mask=w(0, g.trick_mask),
            won=w(jnp.zeros(p, jnp.int32), g.won),
            scores=jnp.where(need & fresh, 0, g.scores),
        )

    def held(self, g: Games) -> Array:
        """The tiles of the seat to act."""
        return jnp.sum(jnp.where(self.seats == g.to_act, g.hands, 0), dtype=jnp.int32)

    def words_one(self, g: Games) -> tuple[Array, Array]:
        """The legal ids (FOLLOW-1/2, BID-*, WIDOW-*, TRUMP-5) as two uint32 words: bit
        ``i`` of the first, id ``i``; of the second, id ``32 + i``."""
        held = self.held(g)
        must = held & g.require
        tiles = jnp.where(must != 0, must, held)
        pos = self.chunk_low[tiles & 0x3FFF] | self.chunk_high[jnp.right_shift(tiles, 14)]
        base = self.base_of_phase[g.phase]
        low = jnp.where(base < 32, pos << jnp.minimum(base, 31).astype(jnp.uint32), 0)
        up = jnp.where(
            base >= 32,
            pos << jnp.clip(base - 32, 0, 31).astype(jnp.uint32),
            jnp.where(base == 0, 0, pos >> jnp.clip(32 - base, 0, 31).astype(jnp.uint32)),
        )
        bidding = g.phase == BIDDING
        naming = g.phase == NAMING
        over = g.phase == DONE
        low = jnp.where(bidding, self.node_low[g.node], low)
        up = jnp.where(bidding, self.node_high[g.node], up)
        low = jnp.where(naming, self.trump_words[0], jnp.where(over, 0, low))
        up = jnp.where(naming, self.trump_words[1], jnp.where(over, 0, up))
        return low.astype(jnp.uint32), up.astype(jnp.uint32)

    def mask_one(self, g: Games) -> Array:
        """``[num_actions]`` bool: the legal ids."""
        low, up = self.words_one(g)
        shifts = jnp.arange(32, dtype=jnp.uint32)
        bits = jnp.concatenate([(low >> shifts) & 1, (up >> shifts) & 1])
        return bits[: self.size] == 1

    def _decided(self, scores: Array, side: Array) -> Array:
        """:func:`moonrules.engine.batch.decided_winners` of one game."""
        top = jnp.max(scores)
        leads = scores == top
        count = jnp.sum(leads)
        out = jnp.where(count == 1, jnp.argmax(leads).astype(jnp.int32), -1)
        out = jnp.where(self.bidder_out & (count > 1) & leads[side], side, out)
        return jnp.where(top >= self.target, out, -1)

    def step_one(self, g: Games, a: Array, auto_reset: bool) -> Games:
        """Take action id ``a`` (legal: not checked) in one game, and deal if it must."""
        out, need, fresh = self.advance(g, a, auto_reset)
        return self.deal(out, need, fresh)

    def advance(  # noqa: PLR0915
        self, g: Games, a: Array, auto_reset: bool
    ) -> tuple[Games, Array, Array]:
        """Take action id ``a`` (legal: not checked) in one game, without the deal that may
        follow: the game, whether it must be dealt a hand, and whether a new game."""
        p = self.players
        a = a.astype(jnp.int32)
        kind = self.kind[a]
        arg = self.arg[a]
        bit = jnp.left_shift(jnp.int32(1), arg)
        seats = self.seats
        # PLAY (LEAD-3, FOLLOW-*, TRICK-2)
        play = kind == PLAY
        hands = jnp.where(play & (seats == g.to_act), g.hands ^ bit, g.hands)
        lead = g.in_trick == 0
        at = jnp.maximum(g.trump, 0) * 28 + arg
        first = play & lead
        led_suit = jnp.where(first, self.led_suit[at], g.led_suit)
        require = jnp.where(first, self.follow[at], g.require)
        strength = self.strength[(jnp.maximum(g.trump, 0) * 8 + led_suit) * 28 + arg]
        better = play & (lead | (strength > g.best))
        best = jnp.where(better, strength, g.best)
        best_position = jnp.where(better, g.in_trick, g.best_position)
        trick_mask = jnp.where(play, g.trick_mask | bit, g.trick_mask)
        in_trick = g.in_trick + play
        to_act = jnp.where(play, (g.to_act + 1) % p, g.to_act)
        full = play & (in_trick == p)
        win = (g.leader + best_position) % p
        won = g.won + (full & (seats == win))
        leader = jnp.where(full, win, g.leader)
        to_act = jnp.where(full, win, to_act)
        in_trick = jnp.where(full, 0, in_trick)
        require = jnp.where(full, 0, require)
        trick_mask = jnp.where(full, 0, trick_mask)
        tricks_done = g.tricks_done + full
        # CALL (BID-2 … BID-8)
        call = kind == CALL
        child = jnp.maximum(self.node_child[g.node * self.size + a], 0)
        node = jnp.where(call, child, g.node)
        to_act = jnp.where(call, (to_act + 1) % p, to_act)
        over = call & self.node_over[child]
        position = self.node_winner[child]
        thrown = over & (position < 0)
        contract = over & (position >= 0)
        named = (g.first_bidder + position) % p
        bidder = jnp.where(contract, named, g.bidder)
        bid = jnp.where(contract, self.node_bid[child], g.bid)
        to_act = jnp.where(contract, named, to_act)
        before = self.widow_before
        after = self.widow_after
        take = contract & before
        phase = jnp.where(contract, jnp.where(before, DISCARDING, NAMING), g.phase)
        # DISCARD (WIDOW-1, WIDOW-2)
        discarding = kind == DISCARD
        hands = jnp.where(discarding & (seats == bidder), hands ^ bit, hands)
        discard = jnp.where(discarding, arg, g.discard)
        phase = jnp.where(discarding & before, NAMING, phase)
        start = discarding & ~before
        # TRUMP (TRUMP-1 … TRUMP-5)
        naming = kind == TRUMP
        trump = jnp.where(naming, arg, g.trump)
        take = take | (naming & after)
        phase = jnp.where(naming & after, DISCARDING, phase)
        start = start | (naming & ~after)
        widow_bit = jnp.left_shift(jnp.int32(1), jnp.maximum(g.widow, 0))
        hands = jnp.where(take & (seats == bidder), hands | widow_bit, hands)
        widow_taken = g.widow_taken | take
        # the first lead (LEAD-1, LEAD-2)
        phase = jnp.where(start, PLAYING, phase)
        leader = jnp.where(start, bidder, leader)
        to_act = jnp.where(start, bidder, to_act)
        trumps = self.trumps_of[jnp.maximum(trump, 0)]
        require = jnp.where(start & self.first_lead_trump, trumps, require)
        # the hand's score (SCORE-*, TEAM-1) and the game's end (END-1 … END-3)
        ended = tricks_done == 7
        code = jnp.sum(jnp.left_shift(won, 3 * seats), dtype=jnp.int32)
        b = jnp.maximum(bidder, 0)
        row = (b * self.bid_count + self.bid_index[bid]) * 8**p + code
        deltas = jnp.where(ended, self.deltas[row], 0)
        scores = g.scores + deltas
        side = self.side_of[b]
        winner = jnp.where(self.game_won[row], side, self._decided(scores, side))
        winner = jnp.where(ended, winner, -1)
        game_over = winner >= 0
        out = g._replace(
            hands=hands,
            node=node,
            bidder=bidder,
            bid=bid,
            discard=discard,
            trump=trump,
            widow_taken=widow_taken,
            phase=phase,
            leader=leader,
            to_act=to_act,
            in_trick=in_trick,
            tricks_done=tricks_done,
            require=require,
            led_suit=led_suit,
            best=best,
            best_position=best_position,
            trick_mask=trick_mask,
            won=won,
            scores=scores,
            rewards=deltas.astype(jnp.float32),
            done=game_over,
            winner=winner,
            hands_played=g.hands_played + ended,
            hands_thrown_in=g.hands_thrown_in + thrown,
            games_played=g.games_played + game_over,
        )
        if auto_reset:
            return out, thrown | ended, game_over
        out = out._replace(phase=jnp.where(game_over, DONE, out.phase))
        return out, thrown | (ended & ~game_over), jnp.bool_(False)

    def observe_one(self, g: Games, me: Array) -> Array:
        """The observation of seat ``me`` (``encode_observation(view(state, me))``)."""
        p = self.players
        seats = self.seats
        order = (me + seats) % p  # the k-th seat from me

        def bits(mask: Array) -> Array:
            return (jnp.right_shift(mask[..., None], self.tiles) & 1).astype(jnp.float32)

        def one_hot(k: Array | int, width: int, on: Array | bool = True) -> Array:
            return ((jnp.arange(width) == k) & on).astype(jnp.float32)

        played = g.dealt & ~g.hands
        widow = jnp.where(g.widow_taken, jnp.left_shift(1, jnp.maximum(g.widow, 0)), 0)
        gone = jnp.where(g.discard >= 0, jnp.left_shift(1, jnp.maximum(g.discard, 0)), 0)
        mine = (g.dealt | widow) & ~g.hands & ~gone
        played = jnp.where(seats == g.bidder, mine, played)
        trick = played & g.trick_mask
        columns = self.node_columns[g.node]  # by position from the first bidder
        width = 1 + self.bid_count
        calls = jnp.stack(
            [one_hot(columns[(me + r - g.first_bidder) % p], width) for r in range(p)]
        )
        has_bid = g.bidder >= 0
        is_bidder = me == g.bidder
        s = self.sides
        my_side = self.side_of[me]
        clipped = jnp.clip(g.scores, -self.target, self.target) + self.target
        parts = [
            one_hot(g.phase, 5),
            one_hot(0, p),
            bits(self.held(g)),
            bits(played[order]).reshape(-1),
            bits(trick[order]).reshape(-1),
            one_hot((g.leader - me) % p, p, (g.phase == PLAYING) & (g.leader >= 0)),
            one_hot((g.first_bidder - me) % p, p),
            calls.reshape(-1),
            one_hot((g.bidder - me) % p, p, has_bid),
            one_hot(self.bid_index[g.bid], self.bid_count, has_bid),
            one_hot(self.trump_position[jnp.maximum(g.trump, 0)], self.trump_count, g.trump >= 0),
            one_hot(self.position[jnp.maximum(g.widow, 0)], self.count, is_bidder & g.widow_taken),
            one_hot(
                self.position[jnp.maximum(g.discard, 0)], self.count, is_bidder & (g.discard >= 0)
            ),
            self.tricks_value[g.won[order]],
            self.score_value[clipped[(my_side + jnp.arange(s)) % s]],
        ]
        return jnp.concatenate(parts)

    def random_one(self, g: Games, u: Array) -> Array:
        """The ``k``-th legal id, ``k = floor(u * count)``, for ``u`` in [0, 1)."""
        # the k-th set bit of the two words, found by halving with popcounts (a cumulative
        # sum over the ids is slow on CPU)
        low, high = self.words_one(g)
        below = jax.lax.population_count(low).astype(jnp.int32)
        count = below + jax.lax.population_count(high).astype(jnp.int32)
        k = jnp.minimum((u * count).astype(jnp.int32), count - 1)
        up = k >= below
        word = jnp.where(up, high, low)
        rest = k - jnp.where(up, below, 0)
        out = jnp.where(up, 32, 0)
        for width in (16, 8, 4, 2, 1):
            part = word & jnp.uint32((1 << width) - 1)
            c = jax.lax.population_count(part).astype(jnp.int32)
            go = rest >= c
            rest = rest - jnp.where(go, c, 0)
            out = out + jnp.where(go, width, 0)
            word = jnp.where(go, word >> width, part)
        return out.astype(jnp.int32)


def _init(core: _Core, keys: Array) -> Games:
    return jax.vmap(core.init_one)(keys)


def _step(core: _Core, games: Games, actions: Array) -> Games:
    out, need, fresh = jax.vmap(lambda g, a: core.advance(g, a, auto_reset=True))(games, actions)
    return _deal_where(core, out, need, fresh)


def _deal_where(core: _Core, games: Games, need: Array, fresh: Array) -> Games:
    """Deal the games where ``need``. Most steps end no hand (a hand is some 25 steps, and
    the games of a batch keep close in step), and then nothing is drawn; else the keys of
    the games to deal are gathered, up to ``n // 32``, ``n // 8`` or ``n // 2`` of them (the
    smallest that holds them; ``n // 8`` only, below 256 games), their deals drawn and put
    back; more, and a deal is drawn for every game. The deals are the same whichever way:
    each game's from its own key. Only the draws are inside the branches (not the state)."""
    n = need.shape[0]
    p = core.players
    caps = sorted({max(1, n // d) for d in ((32, 8, 2) if n >= 256 else (8,))})
    Drawn = tuple[Array, Array, Array, Array]

    def nothing() -> Drawn:
        z = jnp.zeros(n, jnp.int32)
        return jnp.zeros((n, 2), jnp.uint32), z, jnp.zeros((n, p), jnp.int32), z

    def every() -> Drawn:
        out: Drawn = jax.vmap(core.draw)(games.key)
        return out

    def some(cap: int) -> Callable[[], Drawn]:
        def draw() -> Drawn:
            rows = jnp.nonzero(need, size=cap, fill_value=n)[0]
            drawn = jax.vmap(core.draw)(games.key[jnp.minimum(rows, n - 1)])
            out: Drawn = jax.tree.map(lambda z, d: z.at[rows].set(d, mode="drop"), nothing(), drawn)
            return out

        return draw

    count = jnp.sum(need, dtype=jnp.int32)
    branch = jnp.where(count == 0, 0, 1 + sum((count > c).astype(jnp.int32) for c in caps))
    drawn = jax.lax.switch(branch, (nothing, *(some(c) for c in caps), every))
    out: Games = jax.vmap(core.put_deal)(games, need, fresh, drawn)
    return out


def _mask(core: _Core, games: Games) -> Array:
    return jax.vmap(core.mask_one)(games)


def _observe(core: _Core, games: Games) -> Array:
    return jax.vmap(core.observe_one)(games, games.to_act)


def _random(core: _Core, games: Games, key: Array) -> Array:
    u = jax.random.uniform(key, (games.to_act.shape[0],))
    return jax.vmap(core.random_one)(games, u)


def _play_random(core: _Core, games: Games, key: Array, steps: int) -> Games:
    def one(g: Games, k: Array) -> tuple[Games, None]:
        return _step(core, g, _random(core, g, k)), None

    out, _ = jax.lax.scan(one, games, jax.random.split(key, steps))
    return out


_JIT_INIT: Final = jax.jit(_init)
_JIT_STEP: Final = jax.jit(_step)
_JIT_MASK: Final = jax.jit(_mask)
_JIT_OBSERVE: Final = jax.jit(_observe)
_JIT_RANDOM: Final = jax.jit(_random)
_JIT_PLAY_RANDOM: Final = jax.jit(_play_random, static_argnums=3)


class JaxFunctions:
    """The jitted, vmapped functions of one rule set (see the module); :func:`functions_for`
    builds them once per rule set. Each compiles on its first call with a new batch size."""

    def __init__(self, rules: RuleSet) -> None:
        core = _Core(rules)
        self.rules: RuleSet = rules
        self.core: _Core = core
        self.num_actions: int = core.size
        self.observation_size: int = core.observation_size
        self.players: int = core.players
        self.sides: int = core.sides
        self.side_of: Array = core.side_of
        # jitted once for every rule set: a program per shape of rule set and batch size
        self._init: Callable[[_Core, Array], Games] = _JIT_INIT
        self._step: Callable[[_Core, Games, Array], Games] = _JIT_STEP
        self._mask: Callable[[_Core, Games], Array] = _JIT_MASK
        self._observe: Callable[[_Core, Games], Array] = _JIT_OBSERVE
        self._random: Callable[[_Core, Games, Array], Array] = _JIT_RANDOM

    def init(self, key: ArrayLike, n: int) -> Games:
        """``n`` new games; game ``i`` from the key ``jax.random.split(key, n)[i]`` (an int
        ``key`` is the seed of ``jax.random.PRNGKey(key)``)."""
        if type(n) is not int:
            raise wrong_type("n", "a whole number of games", n)
        if n <= 0:
            raise ArgumentError(f"n: a batch holds 1 game or more, not {shown(n)}")
        return self._init(self.core, jax.random.split(_as_key(key), n))

    def step(self, games: Games, actions: ArrayLike) -> Games:
        """Take in each game ``i`` the action with id ``actions[i]``; games that end are
        replaced by new ones (see the module). The ids must be legal: inside a jitted
        function nothing is refused (an illegal id gives a state no game reaches; check
        with :meth:`legal_action_mask`, or step the numpy batch, which refuses them)."""
        return self._step(self.core, games, jnp.asarray(actions, dtype=jnp.int32))

    def legal_action_mask(self, games: Games) -> Array:
        """``[n, num_actions]`` bool: ``True`` where the id is legal in the game."""
        return self._mask(self.core, games)

    def observe(self, games: Games) -> Array:
        """``[n, observation_size]`` float32: the observation of the seat to act."""
        return self._observe(self.core, games)

    def random_actions(self, games: Games, key: ArrayLike) -> Array:
        """A uniformly random legal id per game (see the module), from ``key``."""
        return self._random(self.core, games, _as_key(key))

    def play_random(self, games: Games, key: ArrayLike, steps: int) -> Games:
        """``steps`` steps of uniformly random legal ids in one compiled loop (``lax.scan``):
        step ``j`` takes :meth:`random_actions` with the key ``jax.random.split(key,
        steps)[j]`` (the rewards and ends of the last step only are kept)."""
        if type(steps) is not int:
            raise wrong_type("steps", "a whole number of steps", steps)
        if steps <= 0:
            raise ArgumentError(f"steps: 1 or more, not {shown(steps)}")
        out: Games = _JIT_PLAY_RANDOM(self.core, games, _as_key(key), steps)
        return out

    def player_rewards(self, games: Games) -> Array:
        """``[n, players]``: each seat's reward, its side's score change at the last step."""
        return games.rewards[:, self.side_of]


_CACHE: dict[RuleSet, JaxFunctions] = {}


def functions_for(rules: RuleSet | str) -> JaxFunctions:
    """The :class:`JaxFunctions` of ``rules`` (a :class:`RuleSet` or a preset name), built
    once per rule set."""
    r = as_rules(rules)
    found = _CACHE.get(r)
    if found is None:
        found = JaxFunctions(r)
        if len(_CACHE) >= 16:
            _CACHE.clear()
        _CACHE[r] = found
    return found


def hands_played(games: Games) -> int:
    """Hands played out (scored) in all the games since ``init``."""
    return int(jnp.sum(games.hands_played))


def deal_of(games: Games, game: int) -> Deal:
    """The deal of the hand in progress of game ``game`` (for ``with_deal``)."""
    dealt = np.asarray(games.dealt)[game].tolist()
    hands = tuple(tuple(TILES[k] for k in range(28) if m >> k & 1) for m in dealt)
    w = int(np.asarray(games.widow)[game])
    return Deal(hands, TILES[w] if w >= 0 else None)


__all__ = [
    "Games",
    "JaxFunctions",
    "deal_of",
    "functions_for",
    "hands_played",
]
