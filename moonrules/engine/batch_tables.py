"""The numpy batch's tables of one rule set, and the game's end over arrays (extra ``[batch]``).

:class:`BatchTables` turns the engine's tables (:func:`moonrules.engine.tables.tables_for`:
action kinds and arguments, the auction's tree of nodes with their legal ids, children and
ends, the follow, trump, led-suit and strength tables) into numpy arrays, once per rule set
(:func:`batch_tables`), with the table of :func:`~moonrules.kernel.memo.scored`
(:func:`~moonrules.rules.scoring.score_hand`) for every bidder, bid and count of tricks per
seat, and the offsets of the observation's sections. :func:`decided_winners` is
:func:`~moonrules.rules.scoring.decided_winner` written over arrays. Nothing here states a
rule: every entry is the rulebook's answer, looked up. :class:`moonrules.engine.batch.Batch`
and :mod:`moonrules.engine.batch_jax` read these tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from moonrules.engine.tables import PLAY, Tables, tables_for
from moonrules.game.actions import Phase
from moonrules.game.encoding import ObservationLayout
from moonrules.kernel.memo import scored
from moonrules.rules.errors import ArgumentError
from moonrules.rules.ruleset import RuleSet, TieRule

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Words = npt.NDArray[np.uint64]

BIDDING: Final = 0
"""Phase numbers, in the order of :class:`~moonrules.game.actions.Phase` (as the engine's)."""
DISCARDING: Final = 1
NAMING: Final = 2
PLAYING: Final = 3
DONE: Final = 4

PHASES: Final = tuple(Phase)

CHUNK: Final = 14
"""Tile masks are read in two chunks of 14 bits (tiles 0-13 and 14-27)."""
WORD: Final = 2 * CHUNK
"""A game's legal ids, shifted down to bit 0 of a legal word, fit 28 bits."""


class BatchTables:
    """The engine's :class:`~moonrules.engine.tables.Tables` of one rule set as numpy arrays,
    and the tables of its scoring and of its observation layout (built by
    :func:`batch_tables`, once per rule set)."""

    def __init__(self, rules: RuleSet) -> None:
        t: Tables = tables_for(rules)
        self.rules = rules
        self.engine_tables = t
        n = t.players
        self.players = n
        self.sides = t.sides
        self.size = t.size
        if t.size > 64:  # pragma: no cover - every rule set has at most 1 + 6 + 28 + 9 + 28 ids
            raise ArgumentError(f"rules: {t.size} action ids do not fit a 64-bit mask")
        tiles = [x.index for x in rules.tile_set.tiles]
        self.tiles = np.array(tiles, dtype=np.int64)
        """The rule set's tile indices, in tile order."""
        self.count = len(tiles)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        self.kind = np.array(t.kind, dtype=np.int64)
        self.arg = np.array(t.arg, dtype=np.int64)
        self.next_seat = np.array([(s + 1) % n for s in range(n)], dtype=np.int64)
        # tile masks -> masks of positions in tile order (the order of the play and discard ids)
        position = [-1] * 28
        for k, i in enumerate(tiles):
            position[i] = k
        self.position = np.array(position, dtype=np.int64)
        self.low = self._chunk_table(position, 0)
        self.high = self._chunk_table(position, CHUNK)
        self.low_positions = self.low.astype(np.int32)
        """``low`` and ``high`` as int32 (positions fit 28 bits), as the numpy step reads them."""
        self.high_positions = self.high.astype(np.int32)
        self.in_order = tiles == list(range(28))
        """Whether the positions in tile order are the tiles' indices (all 28 tiles)."""
        play = [t.play_id[i] for i in tiles]
        self.play_base = play[0]
        assert play == list(range(play[0], play[0] + len(tiles)))
        self.discard_base = 0
        if t.has_widow:
            discard = [t.discard_id[i] for i in tiles]
            self.discard_base = discard[0]
            assert discard == list(range(discard[0], discard[0] + len(tiles)))
        self.base_of_phase = np.array([0, self.discard_base, 0, self.play_base, 0], dtype=np.uint64)
        self.trump_ids = np.uint64(t.trump_ids_mask)
        trump_base = min(t.trump_ids)
        self.word_base = np.array(
            [0, self.discard_base, trump_base, self.play_base, 0], dtype=np.int64
        )
        """By phase: the id of bit 0 of a game's legal word (its legal ids, shifted down:
        the calls' ids; positions in tile order, from the first discard or play id; the
        trumps' ids from the first)."""
        self.trump_word = t.trump_ids_mask >> trump_base
        """The trumps offered (TRUMP-5), as a legal word (bit ``k``: id ``trump_base + k``)."""
        self.follow = np.array(t.follow, dtype=np.int64)
        self.trumps_of = np.array(t.trumps_of, dtype=np.int64)
        self.led_suit = np.array(t.led_suit, dtype=np.int64)
        self.strength = np.array(t.strength, dtype=np.int64)
        # by trump * 28 + tile led: where the strengths of its trick start in strength_of_id
        self.strengths_at = (np.arange(len(self.led_suit)) // 28 * 8 + self.led_suit) * self.size
        self._by_id(rules, t, tiles)
        self._auction(t)
        self._scoring(rules, t)
        self._layout(rules, t)

    def _by_id(self, rules: RuleSet, t: Tables, tiles: list[int]) -> None:
        """The tables the numpy batch's play step reads by action id."""
        n = t.players
        size = t.size
        self.play_bit = np.array(
            [1 << t.arg[a] if t.kind[a] == PLAY else 0 for a in range(size)], dtype=np.int64
        )
        """By id: the bit of the tile it plays (0 for an id that plays none)."""
        self.seat_after = np.array([s % n for s in range(2 * n)], dtype=np.int64)
        """``seat_after[seat + k]``: the seat ``k`` places after ``seat`` (``k < players``)."""
        # by (trump * 8 + led suit) * size + id: the strength of the tile played, 8 times (a
        # trick's winner is its largest strength plus position); an id that plays no tile, far
        # below any. In each trick the strengths that can win (0 and up) differ (TRICK-2).
        low = -(1 << 20)
        by_id = np.full((9 * 8, size), low, dtype=np.int64)
        for ctx in range(9 * 8):
            strengths = [t.strength[ctx * 28 + x] for x in tiles]
            winning = [v for v in strengths if v >= 0]
            if len(winning) != len(set(winning)):  # pragma: no cover - the tables say so
                raise ArgumentError(f"rules: two tiles of equal strength in suit {ctx % 8}")
            for a in range(size):
                if t.kind[a] == PLAY:
                    by_id[ctx, a] = 8 * t.strength[ctx * 28 + t.arg[a]]
        self.strength_of_id = by_id.reshape(-1)

    @staticmethod
    def _chunk_table(position: list[int], shift: int) -> Words:
        out = np.zeros(1 << CHUNK, dtype=np.uint64)
        for b in range(CHUNK):
            k = position[shift + b] if shift + b < 28 else -1
            if k >= 0:
                bit = np.uint64(1 << k)
                out[np.arange(1 << CHUNK) >> b & 1 == 1] |= bit
        return out

    def _auction(self, t: Tables) -> None:
        nodes = len(t.node_calls)
        self.node_ids = np.array(t.node_ids, dtype=np.uint64)
        self.node_words = np.array(t.node_ids, dtype=np.int64)
        """By node: the legal calls as a legal word (the calls' ids are the lowest)."""
        if max(t.node_ids) >> WORD:  # pragma: no cover - at most 1 + 21 calls
            raise ArgumentError(f"rules: the calls' ids do not fit {WORD} bits")
        self.node_child = np.array(t.node_child, dtype=np.int64)
        self.node_over = np.array(t.node_over, dtype=np.bool_)
        self.node_winner = np.array(t.node_winner, dtype=np.int64)
        self.node_bid = np.array(t.node_bid, dtype=np.int64)
        bids = t.rules.bids
        # by node and position from the first bidder: the column of the call in its row of
        # the observation's ``calls`` (0 = pass, k + 1 = the k-th bid), -1 for no call yet
        cols = np.full((nodes, t.players), -1, dtype=np.int64)
        for k, calls in enumerate(t.node_calls):
            for j, c in enumerate(calls):
                cols[k, j] = bids.index(c) + 1 if c else 0
        self.node_columns = cols

    def _scoring(self, rules: RuleSet, t: Tables) -> None:
        """``score_hand`` for every bidder, bid and tricks per seat (7 in all), by key
        ``(bidder * bids + bid's index) * 8**players + sum(tricks[s] << 3 * s)``."""
        n = t.players
        bids = rules.bids
        self.bid_index = np.full(22, -1, dtype=np.int64)
        for k, b in enumerate(bids):
            self.bid_index[b] = k
        self.bid_count = len(bids)
        self.shifts = np.array([3 * s for s in range(n)], dtype=np.int64)
        self.trick_code = np.array([1 << 3 * s for s in range(n)], dtype=np.int64)
        """By seat: a trick it wins, in the key's count of tricks per seat."""
        rows = n * len(bids) * 8**n
        deltas = np.zeros((rows, t.sides), dtype=np.int64)
        self.game_won = np.zeros(rows, dtype=np.bool_)
        splits = [c for c in itertools.product(range(8), repeat=n) if sum(c) == 7]
        for bidder in range(n):
            for k, bid in enumerate(bids):
                for tricks in splits:
                    key = (bidder * len(bids) + k) * 8**n + sum(
                        x << 3 * s for s, x in enumerate(tricks)
                    )
                    result = scored(rules, bidder, bid, tricks)
                    deltas[key] = result.deltas
                    self.game_won[key] = result.game_won
        self.deltas = np.ascontiguousarray(deltas.T)
        """``deltas[side, key]``: the side's score change."""
        self.target = rules.target
        self.bidder_out = rules.tie is TieRule.BIDDER_OUT

    def _layout(self, rules: RuleSet, t: Tables) -> None:
        layout = ObservationLayout(rules)
        self.observation_size = layout.size
        self.at = {s.name: s.start for s in layout.sections}
        self.trump_position = np.full(9, -1, dtype=np.int64)
        for k, tr in enumerate(rules.trumps):
            self.trump_position[tr.value] = k
        self.tricks_value = np.array([k / 7 for k in range(8)], dtype=np.float32)


_CACHE: dict[RuleSet, BatchTables] = {}


def batch_tables(rules: RuleSet) -> BatchTables:
    """The :class:`BatchTables` of ``rules``, built once per rule set."""
    found = _CACHE.get(rules)
    if found is None:
        found = BatchTables(rules)
        if len(_CACHE) >= 16:
            _CACHE.clear()
        _CACHE[rules] = found
    return found


def decided_columns(rules: RuleSet, scores: Sequence[Ints], side: Ints) -> Ints:
    """:func:`decided_winners` of the columns ``scores`` (one array per side) with the
    bidder's ``side`` of each game."""
    top = scores[0]
    for column in scores[1:]:
        top = np.maximum(top, column)
    count = np.zeros(len(side), dtype=np.int64)
    first = np.full(len(side), -1, dtype=np.int64)
    among = np.zeros(len(side), dtype=np.bool_)
    for k in range(len(scores) - 1, -1, -1):
        leads = scores[k] == top
        count += leads
        first = np.where(leads, k, first)
        among |= leads & (side == k)
    out = np.where(count == 1, first, -1)
    if rules.tie is TieRule.BIDDER_OUT:
        out = np.where((count > 1) & among, side, out)
    return np.where(top >= rules.target, out, -1)


def decided_sides(rules: RuleSet, scores: Ints, side: Ints) -> Ints:
    """:func:`decided_winners` of the scores ``[sides, m]`` (a column per game) with the
    bidder's ``side`` of each game (what :func:`decided_columns` says, in fewer passes)."""
    top = scores.max(axis=0)
    leads = scores == top
    count = leads.sum(axis=0)
    out = np.where(count == 1, leads.argmax(axis=0), -1)  # argmax: the first leader
    if rules.tie is TieRule.BIDDER_OUT:
        among = (leads & (np.arange(len(scores))[:, None] == side)).any(axis=0)
        out = np.where((count > 1) & among, side, out)
    won: Ints = np.where(top >= rules.target, out, -1)
    return won


def decided_winners(rules: RuleSet, scores: npt.ArrayLike, bidder_side: npt.ArrayLike) -> Ints:
    """:func:`~moonrules.rules.scoring.decided_winner` of each row of ``scores`` ``[m, sides]``
    with its ``bidder_side`` ``[m]``: the winning side, or -1 while the game goes on
    (END-1: the top score reaches the target, held by one side; END-2/END-3 by ``rules.tie``:
    a tie at the top plays on, or the bidder's side goes out if it is among the leaders)."""
    s = np.asarray(scores, dtype=np.int64)
    side = np.asarray(bidder_side, dtype=np.int64)
    return decided_sides(rules, s.T, side)


__all__ = [
    "BIDDING",
    "CHUNK",
    "DISCARDING",
    "DONE",
    "NAMING",
    "PHASES",
    "PLAYING",
    "WORD",
    "BatchTables",
    "batch_tables",
    "decided_columns",
    "decided_sides",
    "decided_winners",
]
