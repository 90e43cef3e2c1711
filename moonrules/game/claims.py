"""Claims (CLAIM-1): the exhaustive search that decides whether a claim holds.

A claim holds only if the claimant's side (with four players, the claimant and partner),
choosing its plays, wins at least the claimed number of the remaining tricks (the current
one included) against **every** legal line of play by the others. That is a min-max
question over all the remaining play, answered here by exhaustive search: every legal play
of every player at every turn (the kernel's LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3), the trick
winner by TRICK-2. Positions reached by different orders of play are searched once (a
table of positions), and a branch stops as soon as its answer is known; nothing is
estimated.

The search may be given a budget of positions: past it, it raises
:class:`ClaimUndecided` rather than answer (a table checks claims within a budget, so
that a claim at the first lead of a partnership hand cannot hold a worker for seconds);
the positions it keeps are never more than its budget.

:func:`moonrules.game.play.apply_claim` settles a claim with this search;
:func:`moonrules.analysis.claim.verify_claim` answers the question for analysis (how many
tricks the side can be sure of, and a line that defeats a claim that fails).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.tables import winner_index
from moonrules.rules.errors import IllegalAction, MoonError
from moonrules.rules.tiles import TILES, Tile

if TYPE_CHECKING:
    from moonrules.game.state import GameState

_Key = tuple[tuple[int, ...], tuple[int, ...], int, int, int]
_Child = tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]


class ClaimError(IllegalAction):
    """A claim that cannot be made at all: not in the play phase, not the claimant's turn,
    no such seat, a count of tricks the rules do not allow (CLAIM-1)."""


class ClaimDoesNotHold(IllegalAction):
    """A claim refused because the others have a defence against it (CLAIM-1); play goes
    on. Its message names nothing the claimant cannot see."""


class ClaimUndecided(MoonError):
    """The search ran past its budget of positions before it knew whether the claim holds:
    too early to check the claim; play on. ``budget`` is the budget it was given."""

    def __init__(self, budget: int) -> None:
        super().__init__(
            f"the claim could not be checked within {budget} positions: too early to check, play on"
        )
        self.budget = budget


class ClaimSearch:
    """Exhaustive min-max over the rest of a hand, on bit masks, for ``seat``'s side.

    ``budget``: the most positions searched (and kept) before :class:`ClaimUndecided`;
    ``None`` for no limit.
    """

    __slots__ = ("budget", "memo", "n", "nodes", "rules", "side", "trump")

    def __init__(self, state: GameState, seat: int, budget: int | None = None) -> None:
        rules = state.rules
        self.n = rules.players
        self.trump = state.hand.trump
        self.side = tuple(rules.side_of(s) == rules.side_of(seat) for s in range(self.n))
        self.rules = rules
        self.memo: dict[_Key, bool] = {}
        self.budget = budget
        self.nodes = 0

    def children(
        self, hands: tuple[int, ...], trick: tuple[int, ...], leader: int, done: int
    ) -> list[_Child]:
        """(tile, hands, trick, leader, done, won) after each legal play; ``won`` is 1 when the
        play completes a trick won by the claimant's side."""
        seat = (leader + len(trick)) % self.n
        hand = hands[seat]
        mask = legal_mask(hand, trick[0] if trick else NO_LEAD, self.trump, self.rules, done)
        out: list[_Child] = []
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            mask ^= low
            hs = list(hands)
            hs[seat] = hand & ~low
            t = (*trick, i)
            if len(t) == self.n:
                w = (leader + winner_index(t, self.trump)) % self.n
                out.append((i, tuple(hs), (), w, done + 1, 1 if self.side[w] else 0))
            else:
                out.append((i, tuple(hs), t, leader, done, 0))
        return out

    def probe(
        self, hands: tuple[int, ...], trick: tuple[int, ...], leader: int, done: int, need: int
    ) -> bool:
        """Can the claimant's side be sure of ``need`` more tricks from here?"""
        if need <= 0:
            return True
        if need > 7 - done:
            return False
        key = (hands, trick, leader, done, need)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise ClaimUndecided(self.budget)
        maximise = self.side[(leader + len(trick)) % self.n]
        answer = not maximise
        for _i, hs, t, ld, dn, won in self.children(hands, trick, leader, done):
            ok = self.probe(hs, t, ld, dn, need - won)
            if ok is maximise:
                answer = ok
                break
        self.memo[key] = answer
        return answer

    def value(self, hands: tuple[int, ...], trick: tuple[int, ...], leader: int, done: int) -> int:
        """The most tricks from here the claimant's side can be sure of."""
        k = 0
        while k < 7 - done and self.probe(hands, trick, leader, done, k + 1):
            k += 1
        return k

    def line(
        self, hands: tuple[int, ...], trick: tuple[int, ...], leader: int, done: int
    ) -> list[tuple[int, Tile]]:
        """A principal variation: each side plays a best play to the end of the hand."""
        out: list[tuple[int, Tile]] = []
        while done < 7:
            seat = (leader + len(trick)) % self.n
            maximise = self.side[seat]
            best = None
            best_v = -1
            for i, hs, t, ld, dn, won in self.children(hands, trick, leader, done):
                v = won + self.value(hs, t, ld, dn)
                if best is None or (v > best_v if maximise else v < best_v):
                    best, best_v = (i, hs, t, ld, dn), v
            assert best is not None
            i, hands, trick, leader, done = best
            out.append((seat, TILES[i]))
        return out


def claim_holds(state: GameState, seat: int, tricks: int, budget: int | None = None) -> bool:
    """Whether ``seat``'s side is sure of ``tricks`` of the remaining tricks of ``state``'s
    hand (in play) against every line of play by the others (CLAIM-1).

    :class:`ClaimUndecided` past ``budget`` positions. The arguments are not checked:
    :func:`moonrules.game.play.apply_claim` and
    :func:`moonrules.analysis.claim.verify_claim` check them first.
    """
    h = state.hand
    return ClaimSearch(state, seat, budget).probe(h.hands, h.trick, h.leader, len(h.tricks), tricks)


__all__ = ["ClaimDoesNotHold", "ClaimError", "ClaimSearch", "ClaimUndecided", "claim_holds"]
