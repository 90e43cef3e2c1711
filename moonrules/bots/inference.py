"""Deals of the hidden tiles weighted by what the other seats did.

The sampler (:mod:`moonrules.bots.sampling`) draws every deal consistent with the hard
facts (tiles played, suits shown out of) with the same probability. But a seat that
bid 6 is far more likely to hold six good trumps than a seat that passed, and a bidder
named the trump its tiles are longest in. :func:`likelihood` is the probability, under
the model of :mod:`moonrules.bots.model`, that the other seats made the calls they made
and the bidder named the trump it named, had they held the tiles a deal gives them;
:func:`inferred_deals` draws many deals uniformly and keeps some of them, each with a
chance in proportion to its likelihood (importance resampling), so that the deals kept
follow what the seat should believe after seeing the auction and the trump.

:func:`play_likelihood` reads the plays the same way: the probability that each other
seat played the tiles it played, had it held the tiles a deal gives it, when it plays as
the basic bot would (:func:`~moonrules.bots.basic.basic_play`) but for a ``noise`` share
of its plays, spread evenly over its other legal tiles. A defender who did not take a
trick it could have taken cheaply, in a deal where it held the tile to take it, makes
that deal less likely.

:func:`inferred_worlds` turns the deals into whole game states for a view: the sampler of
deals that ``moonrules review`` values each decision over
(:data:`moonrules.analysis.review.Worlds`).
"""

from __future__ import annotations

import random

from moonrules.bots.base import Knowledge, call_value, knowledge
from moonrules.bots.basic import basic_play
from moonrules.bots.model import call_chances, strength, trump_chances
from moonrules.bots.sampling import Sampler
from moonrules.bots.worlds import world
from moonrules.game import GameState, PlayerView
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import AllPass, RuleSet

__all__ = [
    "PLAY_NOISE",
    "WIDOW_GAIN",
    "inferred_deals",
    "inferred_worlds",
    "informative",
    "likelihood",
    "open_calls",
    "play_likelihood",
]

WIDOW_GAIN = 0.54
"""How much the widow and the discard raise a bidder's strength on average (three players,
measured over ``pimc`` hands): subtracted from the strength of a bidder's tiles after the
discard to read its call."""

PLAY_NOISE = 0.3
"""The share of its plays in which the model of a seat does not play the basic bot's tile
(the other seats are not basic bots: a soft model keeps every consistent deal possible)."""


def open_calls(rules: RuleSet, calls: tuple[int, ...]) -> tuple[int, ...]:
    """The calls open after ``calls`` (as :func:`moonrules.rules.auction.legal_calls`)."""
    high = max(calls, default=PASS)
    bids = tuple(b for b in rules.bids if b > high)
    forced = rules.all_pass is AllPass.FORCE and len(calls) == rules.players - 1 and high == PASS
    return bids if forced else (PASS, *bids)


def informative(view: PlayerView) -> bool:
    """Whether another seat made a call it had a choice about, or named trump."""
    if view.trump is not None and view.bidder is not None and view.bidder != view.seat:
        return True
    n = view.players
    calls = tuple(call_value(c) for c in view.calls)
    for k in range(len(calls)):
        if (view.first_bidder + k) % n != view.seat and len(open_calls(view.rules, calls[:k])) > 1:
            return True
    return False


def likelihood(view: PlayerView, know: Knowledge, hands: tuple[int, ...]) -> float:
    """The probability under the model that the other seats called as they did and the
    bidder named the trump it did, had they held ``hands`` (masks by seat, now)."""
    rules = view.rules
    n = view.players
    calls = tuple(call_value(c) for c in view.calls)
    held = [hands[s] | know.played[s] for s in range(n)]
    widow = rules.has_widow and view.bidder is not None and view.trump is not None
    p = 1.0
    high = PASS
    for k, call in enumerate(calls):
        seat = (view.first_bidder + k) % n
        if seat != view.seat:
            legal = open_calls(rules, calls[:k])
            if len(legal) > 1:
                power = strength(held[seat], rules)
                if widow and seat == view.bidder:
                    power -= WIDOW_GAIN
                p *= call_chances(rules, power, high, legal)[call]
        if call != PASS:
            high = max(high, call)
        if call == MOON:
            break
    if view.trump is not None and view.bidder is not None and view.bidder != view.seat:
        for t, q in trump_chances(held[view.bidder], rules):
            if t == view.trump:
                p *= q
                break
    return p


def play_likelihood(
    view: PlayerView,
    know: Knowledge,
    hands: tuple[int, ...],
    extra: int,
    noise: float = PLAY_NOISE,
) -> float:
    """The probability under the model that the other seats played the tiles they played in
    this hand, had they held ``hands`` (masks by seat, now) with ``extra`` (a mask of the
    tile in no hand: the widow, or another bidder's discard) where the view does not say.

    Each play that had a choice counts ``1 - noise`` if it is the basic bot's tile in the
    deal (with what that seat could see then), else ``noise`` shared among the other legal
    tiles. Plays of this seat, and plays with one legal tile, count 1.
    """
    if view.trump is None or view.bidder is None or (not view.tricks and not view.trick):
        return 1.0
    rules = view.rules
    n = view.players
    trump = view.trump.value
    bidder = view.bidder
    own_discard = 0
    if rules.has_widow:
        own_discard = (
            1 << view.discard.index if view.discard is not None and view.seat == bidder else extra
        )
    held = [hands[s] | know.played[s] for s in range(n)]
    held[view.seat] = 0  # this seat's plays are not weighed
    every = rules.tile_set.mask
    gone = 0  # the tiles played before the play weighed
    tricks: list[tuple[int, tuple[int, ...]]] = [
        (t.leader, tuple(x.index for x in t.tiles)) for t in view.tricks
    ]
    if view.trick:
        assert view.leader is not None
        tricks.append((view.leader, tuple(x.index for x in view.trick)))
    p = 1.0
    for done, (leader, tiles) in enumerate(tricks):
        for pos, tile in enumerate(tiles):
            seat = (leader + pos) % n
            bit = 1 << tile
            if seat != view.seat:
                mine = held[seat]
                legal = legal_mask(mine, tiles[0] if pos else NO_LEAD, trump, rules, done)
                k = legal.bit_count()
                if k > 1:
                    outside = every & ~mine & ~gone
                    if seat == bidder:
                        outside &= ~own_discard
                    choice = basic_play(
                        legal, outside, tiles[:pos], leader, seat, bidder, trump, rules
                    )
                    p *= 1.0 - noise if choice == tile else noise / (k - 1)
                held[seat] = mine & ~bit
            gone |= bit
    return p


def inferred_deals(
    view: PlayerView,
    know: Knowledge,
    sampler: Sampler,
    rng: random.Random,
    count: int,
    *,
    pool: int = 4,
    weight: float = 1.0,
    play_weight: float = 0.0,
) -> list[tuple[tuple[int, ...], int]]:
    """``count`` deals of the hidden tiles (``(hands, extra)`` as :meth:`Sampler.draw`):
    ``pool * count`` drawn uniformly, ``count`` kept by systematic resampling in proportion
    to :func:`likelihood` raised to ``weight`` times :func:`play_likelihood` raised to
    ``play_weight`` (both 0: every deal alike, as the sampler draws).
    """
    calls = weight > 0 and informative(view)
    plays = play_weight > 0 and bool(view.tricks or view.trick)
    if pool <= 1 or not (calls or plays):
        return [sampler.draw(rng) for _ in range(count)]
    drawn = [sampler.draw(rng) for _ in range(pool * count)]
    ws = [
        (likelihood(view, know, hands) ** weight if calls else 1.0)
        * (play_likelihood(view, know, hands, extra) ** play_weight if plays else 1.0)
        for hands, extra in drawn
    ]
    total = sum(ws)
    if total <= 0:  # pragma: no cover - the model's floor keeps every call possible
        return drawn[:count]
    step = total / count
    point = rng.random() * step
    out = []
    acc = 0.0
    k = 0
    for deal, w in zip(drawn, ws, strict=True):
        acc += w
        while k < count and point < acc:
            out.append(deal)
            point += step
            k += 1
    while len(out) < count:  # rounding at the very end
        out.append(drawn[-1])
    return out


def inferred_worlds(v: PlayerView, rng: random.Random, count: int) -> list[GameState]:
    """``count`` states at ``v``'s position, the deals weighted by the calls and the trump
    the seat has seen (:func:`inferred_deals` with its defaults): the worlds ``moonrules
    review`` values each decision over."""
    know = knowledge(v)
    deals = inferred_deals(v, know, Sampler(know), rng, count)
    return [world(v, know, hands, extra) for hands, extra in deals]
