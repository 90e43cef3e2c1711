"""``random`` and ``basic``: a random player that never bids absurdly, and rules of thumb.

The ``basic`` bot's rules (documented in ``docs/guides/bots.md``):

* **Hand strength** for a trump: the trumps held that are masters (no higher
  trump unseen), the other trumps held, the length past three trumps, and the
  other tiles that are masters of the suit they lead (an off double, or a
  tile under one's own double). :func:`estimate_tricks` weighs these with
  coefficients fitted to double-dummy results of seeded deals.
* **Bid** the estimate for the best trump, rounded down, when it beats the
  bid so far; with four players a partner's help is added. A bid of 21 only
  with seven sure tricks; forced to bid (BID-8), the lowest bid.
* **Trump**: the trump with the best estimate. **Discard**: the tile whose
  removal leaves the best estimate, the least valuable on a tie.
* **Lead**: the bidder's side draws trumps with its master trumps while the
  others may hold trumps, then cashes masters, then leads its least valuable
  tile. The other sides cash masters, then lead their least valuable
  non-trump.
* **Follow**: when a partner already wins the trick with a master, or no
  legal tile can win, play the least valuable legal tile; otherwise win with
  the cheapest winning tile.
"""

from __future__ import annotations

import random
from typing import Final

from moonrules.bots.base import knowledge, legal_mask_of, view_legal_actions
from moonrules.game import Action, Bid, Discard, NameTrump, Pass, Phase, Play, PlayerView
from moonrules.kernel.tables import LED_SUIT, STRENGTH, SUIT_MASK, winner_index
from moonrules.rules.auction import MOON
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import TILES, indices_of, mask_of

__all__ = [
    "BasicBot",
    "RandomBot",
    "basic_discard",
    "basic_play",
    "best_trumps",
    "estimate_tricks",
    "tile_value",
]


class RandomBot:
    """Uniform over the legal actions, except in the auction: it passes or makes one of the
    two lowest bids still open, uniformly, and never bids 21 unless that is all it may do."""

    name = "random"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view_legal_actions(view)
        if view.phase is Phase.BIDDING:
            bids = [a for a in legal if isinstance(a, Bid) and a.amount != MOON][:2]
            sane = [a for a in legal if isinstance(a, Pass)] + bids
            return rng.choice(sane or list(legal))
        return rng.choice(legal)


# ---------------------------------------------------------------------------
# Hand strength


def tile_value(i: int, trump: int) -> int:
    """How much a tile is worth keeping under ``trump``: trumps by rank, then doubles, then
    other tiles by their rank in the suit they lead."""
    if SUIT_MASK[trump][TRUMP_SUIT] >> i & 1:
        return 100 + STRENGTH[trump][TRUMP_SUIT][i]
    suit = LED_SUIT[trump][i]
    own = STRENGTH[trump][suit][i]
    return own + (30 if TILES[i].is_double else 0)


_BEATERS: Final = tuple(
    tuple(
        sum(
            1 << j
            for j in range(28)
            if LED_SUIT[t][j] == LED_SUIT[t][i]
            and STRENGTH[t][LED_SUIT[t][i]][j] > STRENGTH[t][LED_SUIT[t][i]][i]
        )
        for i in range(28)
    )
    for t in range(9)
)
"""``_BEATERS[trump][i]``: the tiles that beat tile ``i`` in the suit it leads (the kernel's
led suits and strengths), as a mask."""


def _masters(held: int, trump: int, outside: int) -> int:
    """The tiles of ``held`` that no tile of ``outside`` beats in the suit they lead."""
    out = 0
    beaters = _BEATERS[trump]
    m = held
    while m:
        low = m & -m
        m ^= low
        if not beaters[low.bit_length() - 1] & outside:
            out |= low
    return out


def features(held: int, trump: int, outside: int) -> tuple[int, int, int, int]:
    """``(master trumps, other trumps, trumps past three, other masters)`` of a hand."""
    trumps = held & SUIT_MASK[trump][TRUMP_SUIT]
    masters = _masters(held, trump, outside)
    top = (masters & trumps).bit_count()
    count = trumps.bit_count()
    return top, count - top, max(0, count - 3), (masters & ~trumps).bit_count()


# Least-squares fits (``python bench/bots.py calibrate``) of the double-dummy tricks of the
# bidder's side, leading after a basic discard, against the features above: 300 seeded deals
# (standard) and 150 (partnership), two trumps each; residual spread 1.2 and 1.9 tricks.
_COEF_3P = (0.6, 1.28, 0.26, 1.0, 0.4)
_COEF_4P = (3.01, 0.98, 0.33, 0.38, 0.27)


def estimate_tricks(held: int, trump: Trump, rules: RuleSet, outside: int | None = None) -> float:
    """Tricks the bidder's side may expect, leading with ``held`` (a mask) and ``trump``.

    ``outside`` is the mask of the tiles that may be against the hand (default:
    every tile of the set not held).
    """
    if outside is None:
        outside = rules.tile_set.mask & ~held
    c = _COEF_4P if rules.partnership else _COEF_3P
    f = features(held, trump.value, outside)
    return c[0] + c[1] * f[0] + c[2] * f[1] + c[3] * f[2] + c[4] * f[3]


def best_trumps(held: int, rules: RuleSet, outside: int | None = None) -> list[tuple[float, Trump]]:
    """The trumps the rules offer, best estimate first (ties: the rules' order)."""
    scored = [(estimate_tricks(held, t, rules, outside), t) for t in rules.trumps]
    return sorted(scored, key=lambda x: -x[0])


def basic_discard(held: int, trump: Trump) -> int:
    """The tile to discard from ``held`` under ``trump``: the least valuable."""
    return min(indices_of(held), key=lambda i: (tile_value(i, trump.value), i))


# ---------------------------------------------------------------------------
# The basic bot


class BasicBot:
    """Rules of thumb for bidding, trump, discard, leads and follows (see the module)."""

    name = "basic"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view_legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.BIDDING:
            return self._call(view, legal)
        held = mask_of(view.hand)
        if phase is Phase.DISCARD:
            return Discard(TILES[self._discard(view, held)])
        if phase is Phase.TRUMP:
            return NameTrump(best_trumps(held, view.rules)[0][1])
        return Play(TILES[self._play(view, held)])

    def _call(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        held = mask_of(view.hand)
        est, _ = best_trumps(held, view.rules)[0]
        if view.rules.has_widow:
            est += 0.3  # the widow: one tile more to choose from
        bids = [a for a in legal if isinstance(a, Bid)]
        can_pass = any(isinstance(a, Pass) for a in legal)
        if not can_pass:
            return bids[0]
        if est >= 7.5 and any(a.amount == MOON for a in bids):
            return Bid(MOON)
        want = min(int(est), 7)
        for a in bids:
            if a.amount == want:
                return a
        return Pass()

    def _discard(self, view: PlayerView, held: int) -> int:
        if view.trump is not None:
            return basic_discard(held, view.trump)
        best: tuple[float, int, int] | None = None
        for i in indices_of(held):
            rest = held & ~(1 << i)
            est, trump = best_trumps(rest, view.rules)[0]
            key = (-est, tile_value(i, trump.value), i)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[2]

    def _play(self, view: PlayerView, held: int) -> int:
        assert view.trump is not None and view.bidder is not None
        return basic_play(
            legal_mask_of(view),
            knowledge(view).unseen,
            tuple(t.index for t in view.trick),
            view.seat if view.leader is None else view.leader,
            view.seat,
            view.bidder,
            view.trump.value,
            view.rules,
        )


def basic_play(
    legal: int,
    outside: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    bidder: int,
    trump: int,
    rules: RuleSet,
) -> int:
    """The tile index the basic bot plays (see the module): ``legal`` is the mask of the
    tiles ``seat`` may play, ``outside`` the tiles it cannot see, ``trick`` the tile
    indices on the table led by ``leader``, ``trump`` a ``Trump.value``. The tiles are
    masks and indices, so that a model of the other seats can ask what they would have
    played in a sampled deal (:mod:`moonrules.bots.inference`)."""
    masters = _masters(legal, trump, outside)
    mine = rules.side_of(seat)
    bidding_side = rules.side_of(bidder) == mine

    def cheapest(mask: int) -> int:
        return min(indices_of(mask), key=lambda i: (tile_value(i, trump), i))

    if not trick:
        trumps_out = outside & SUIT_MASK[trump][TRUMP_SUIT]
        my_trumps = legal & SUIT_MASK[trump][TRUMP_SUIT]
        if bidding_side and trumps_out and my_trumps & masters:
            return max(indices_of(my_trumps & masters), key=lambda i: tile_value(i, trump))
        if masters & ~SUIT_MASK[trump][TRUMP_SUIT]:
            return cheapest(masters & ~SUIT_MASK[trump][TRUMP_SUIT])
        if bidding_side and masters:
            return cheapest(masters)
        side_tiles = legal & ~SUIT_MASK[trump][TRUMP_SUIT]
        return cheapest(side_tiles or legal)
    n = rules.players
    best = winner_index(trick, trump)
    best_seat = (leader + best) % n
    suit = LED_SUIT[trump][trick[0]]
    st = STRENGTH[trump][suit]
    top = st[trick[best]]
    last = len(trick) == n - 1
    if rules.side_of(best_seat) == mine:
        later_beat = any(st[j] > top for j in indices_of(outside))
        if last or not later_beat:
            return cheapest(legal)
    winners = [i for i in indices_of(legal) if st[i] > top]
    if not winners:
        return cheapest(legal)
    return min(winners, key=lambda i: (st[i], i))
