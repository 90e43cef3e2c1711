"""The engine's tables for one rule set, computed from the rulebook and the kernel.

:class:`Tables` holds, as flat lists of plain integers, everything the engine reads on a
step: the numbering of the actions (``moonrules.ActionSpace``), the
kernel's follow, trump and strength tables (:mod:`moonrules.kernel.tables`, themselves
computed from :mod:`moonrules.rules.suits` and :mod:`moonrules.rules.tricks`), and the
auction as a tree of every sequence of calls the rulebook allows (each node's legal calls
from :func:`~moonrules.rules.auction.legal_calls`, its end from
:class:`~moonrules.rules.auction.Auction`). Nothing here states a rule: each entry is the
rulebook's answer, looked up. :func:`tables_for` builds them once per rule set.

This module runs compiled with the engine (``moonrules.kernel.compiled``): a plain class
with typed attributes, so the compiled engine reads them natively.
"""

from __future__ import annotations

from typing import Final

from moonrules.game.actions import Bid, Discard, NameTrump, Pass, Play
from moonrules.game.encoding import ActionSpace
from moonrules.game.shuffle import Dealer
from moonrules.kernel.masks import TRUMP_MASK
from moonrules.kernel.memo import auction_end, calls_after
from moonrules.kernel.tables import FOLLOW_MASK, LED_SUIT, STRENGTH
from moonrules.rules.ruleset import FirstLead, RuleSet, WidowTiming
from moonrules.rules.scoring import score_hand

CALL: Final = 0
"""Kind of an action id: a call (pass or bid)."""
DISCARD: Final = 1
"""Kind of an action id: the bidder's discard."""
TRUMP: Final = 2
"""Kind of an action id: the bidder naming trump."""
PLAY: Final = 3
"""Kind of an action id: a tile played."""


class Tables:
    """What the engine reads of one rule set, as lists of plain integers."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules: RuleSet = rules
        n = rules.players
        self.players: int = n
        self.sides: int = rules.sides
        self.side_of: list[int] = [rules.side_of(s) for s in range(n)]
        self.has_widow: bool = rules.has_widow
        self.widow_before_trump: bool = rules.widow_timing is WidowTiming.BEFORE_TRUMP
        self.first_lead_trump: bool = rules.first_lead is FirstLead.TRUMP
        self.set_mask: int = rules.tile_set.mask
        self.dealer: Dealer = Dealer(rules)
        """DEAL-1's deal of a hand (:func:`~moonrules.game.shuffle.dealt_masks`)."""
        actions = ActionSpace(rules).actions
        self.size: int = len(actions)
        self.kind: list[int] = []
        """By action id: :data:`CALL`, :data:`DISCARD`, :data:`TRUMP` or :data:`PLAY`."""
        self.arg: list[int] = []
        """By action id: the call (0 = pass), the tile index, or ``Trump.value``."""
        self.play_id: list[int] = [-1] * 28
        """By tile index: the id of playing it (-1 off the set)."""
        self.discard_id: list[int] = [-1] * 28
        """By tile index: the id of discarding it (-1 off the set, or without a widow)."""
        self.trump_id: list[int] = [-1] * 9
        """By ``Trump.value``: the id of naming it (-1 when not offered)."""
        self.call_id: list[int] = [-1] * 22
        """By call (0 = pass, else the bid): its id (-1 for a number that is no call)."""
        for i, a in enumerate(actions):
            if isinstance(a, Pass):
                self.kind.append(CALL)
                self.arg.append(0)
                self.call_id[0] = i
            elif isinstance(a, Bid):
                self.kind.append(CALL)
                self.arg.append(a.amount)
                self.call_id[a.amount] = i
            elif isinstance(a, Discard):
                self.kind.append(DISCARD)
                self.arg.append(a.tile.index)
                self.discard_id[a.tile.index] = i
            elif isinstance(a, NameTrump):
                self.kind.append(TRUMP)
                self.arg.append(a.trump.value)
                self.trump_id[a.trump.value] = i
            else:
                assert isinstance(a, Play)
                self.kind.append(PLAY)
                self.arg.append(a.tile.index)
                self.play_id[a.tile.index] = i
        self.trump_ids_mask: int = sum(1 << self.trump_id[t.value] for t in rules.trumps)
        """The ids of the trumps the rules offer (TRUMP-5), as a mask."""
        self.trump_ids: list[int] = [self.trump_id[t.value] for t in rules.trumps]
        """The ids of the trumps the rules offer, ascending."""
        self.follow: list[int] = [FOLLOW_MASK[tr][t] for tr in range(9) for t in range(28)]
        """``follow[trump * 28 + led]``: the tiles that follow that lead (FOLLOW-1, FOLLOW-2)."""
        self.trumps_of: list[int] = list(TRUMP_MASK)
        """``trumps_of[trump]``: the trumps under ``trump`` (TRUMP-2 … TRUMP-4)."""
        self.led_suit: list[int] = [LED_SUIT[tr][t] for tr in range(9) for t in range(28)]
        """``led_suit[trump * 28 + tile]``: the suit a led tile calls (LEAD-3)."""
        self.strength: list[int] = [
            STRENGTH[tr][s][t] for tr in range(9) for s in range(8) for t in range(28)
        ]
        """``strength[(trump * 8 + led suit) * 28 + tile]``: higher wins the trick (TRICK-2)."""
        self._build_auction(rules)
        self._build_memos()

    def _build_memos(self) -> None:
        """The memo of :meth:`hand_score`, empty."""
        self._scores: dict[int, tuple[tuple[int, ...], bool]] = {}

    def hand_score(self, bidder: int, bid: int, won: list[int]) -> tuple[tuple[int, ...], bool]:
        """The score change of each side and whether the game is won, for a hand played out
        with ``won`` tricks per seat: :func:`~moonrules.rules.scoring.score_hand`'s answer
        (SCORE-1 … SCORE-6, TEAM-1), remembered."""
        key = bidder * 22 + bid
        for w in won:
            key = key * 8 + w
        found = self._scores.get(key)
        if found is None:
            result = score_hand(self.rules, bidder, bid, tuple(won))
            found = (result.deltas, result.game_won)
            self._scores[key] = found
        return found

    def _build_auction(self, rules: RuleSet) -> None:
        """The tree of every sequence of calls the rulebook allows, from no call at all.

        Node 0 is the empty auction. For each node: its calls, the ids of the calls legal
        there (as a mask), the node after each legal call, and the auction's end there
        (whether it is over, the position in the calls of the winning bid, the bid)."""
        self.node_calls: list[tuple[int, ...]] = [()]
        self.node_ids: list[int] = []
        """By node: the ids of the legal calls, as a mask (0 once the auction is over)."""
        self.node_child: list[int] = []
        """``node_child[node * size + id]``: the node after that call (-1 if illegal)."""
        self.node_parent: list[int] = [-1]
        self.node_over: list[bool] = []
        self.node_winner: list[int] = []
        """By node: the position in the calls of the winning bid (-1: none, or not over)."""
        self.node_bid: list[int] = []
        self.node_of: dict[tuple[int, ...], int] = {(): 0}
        k = 0
        while k < len(self.node_calls):
            calls = self.node_calls[k]
            over, winner, bid = auction_end(rules, calls, 0)
            legal = () if over else calls_after(rules, calls)
            self.node_over.append(over)
            self.node_winner.append(winner)
            self.node_bid.append(bid)
            self.node_ids.append(sum(1 << self.call_id[c] for c in legal))
            children = [-1] * self.size
            for c in legal:
                after = (*calls, c)
                self.node_of[after] = len(self.node_calls)
                children[self.call_id[c]] = len(self.node_calls)
                self.node_calls.append(after)
                self.node_parent.append(k)
            self.node_child.extend(children)
            k += 1
        self.node_id_list: list[tuple[int, ...]] = [_bits(m) for m in self.node_ids]
        """By node: the ids of the legal calls, ascending."""


def _bits(m: int) -> tuple[int, ...]:
    """The set bits of ``m``, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return tuple(out)


_CACHE: dict[RuleSet, Tables] = {}


def tables_for(rules: RuleSet) -> Tables:
    """The :class:`Tables` of ``rules``, built once per rule set."""
    found = _CACHE.get(rules)
    if found is None:
        found = Tables(rules)
        if len(_CACHE) >= 64:
            _CACHE.clear()
        _CACHE[rules] = found
    return found


__all__ = ["CALL", "DISCARD", "PLAY", "TRUMP", "Tables", "tables_for"]
