"""A model of the other seats: how likely a hand is to make each call and name each trump.

The strong bot reads the auction and the trump named as a strong player would: a seat
that bid 6 holds trumps, a seat that passed probably does not, and the bidder named the
trump its tiles are longest and highest in. It needs, for any hand a seat might hold,
the probability of what that seat did. This module gives them, from one number per
hand: the basic bot's estimate of the tricks it takes as the bidder with its best trump
(:func:`strength`, see :mod:`moonrules.bots.basic`).

* :func:`call_chances`: each legal call's probability for a hand of a strength, after a
  highest bid so far. Passing falls off along a logistic curve as the strength passes
  a threshold that grows with the bid to beat; a seat that bids makes the lowest bid
  open, or a higher one, or 21 (more likely as the strength grows).
* :func:`trump_chances`: each trump's probability, a softmax of the estimate of each.

The parameters (:data:`CALLS_3P` …) are maximum-likelihood fits to the calls and trumps
of ``pimc`` bots in thousands of hands (``python bench/bots.py model-data`` and
``model-fit``): the model is of a competent player, not of any one bot.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Final

import attrs

from moonrules.bots.basic import best_trumps, estimate_tricks
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump

__all__ = [
    "CALLS_3P",
    "CALLS_4P",
    "TRUMP_SHARPNESS",
    "CallModel",
    "call_chances",
    "strength",
    "trump_chances",
]


@attrs.frozen(slots=True)
class CallModel:
    """The parameters of :func:`call_chances` (see the module)."""

    threshold: float
    """The strength at which a seat first to bid bids half the time."""
    step: float
    """How much more strength each trick of the bid to beat asks for."""
    slope: float
    """The steepness of the logistic curve of bidding against strength."""
    raise_rate: float
    """Per unit of strength past the threshold, the odds of bidding above the lowest bid."""
    moon_threshold: float
    """The strength at which a seat that bids bids 21 half the time."""
    moon_slope: float
    seven: float = 1.0
    """The weight of a bid of 7 beside the other raises (``pimc`` never bids 7)."""
    floor: float = 0.02
    """The least probability of any legal call (nobody is that predictable)."""


CALLS_3P: Final = CallModel(2.95, 1.18, 2.7, 0.298, 8.86, 0.782, 0.0)
"""The call model with three players."""
CALLS_4P: Final = CallModel(3.28, 1.52, 1.28, 0.324, 9.02, 2.16, 0.0)
"""The call model in partnership rules."""
TRUMP_SHARPNESS: Final = (2.0, 3.6)
"""The softmax's factor in :func:`trump_chances` (per trick of estimate), with three players
and in partnership rules."""


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@functools.lru_cache(maxsize=1 << 16)
def strength(held: int, rules: RuleSet) -> float:
    """The basic estimate of the tricks the tiles ``held`` (a mask) take as the bidder with
    their best trump, every other tile of the set against them."""
    return best_trumps(held, rules)[0][0]


def call_chances(
    rules: RuleSet, power: float, high: int, legal: Sequence[int], model: CallModel | None = None
) -> dict[int, float]:
    """The probability of each call of ``legal`` (``0`` a pass) for a hand of strength
    ``power`` when the highest bid so far is ``high`` (``0``: none)."""
    m = model or (CALLS_4P if rules.partnership else CALLS_3P)
    bids = sorted(c for c in legal if c != PASS)
    if not bids:
        return {PASS: 1.0}
    lowest = bids[0] if bids[0] != MOON else rules.bids[-2] + 1
    need = m.threshold + m.step * max(0, lowest - rules.min_bid)
    bid = _sigmoid(m.slope * (power - need))
    out: dict[int, float] = {}
    if PASS in legal:
        out[PASS] = 1.0 - bid
    else:
        bid = 1.0
    moon = _sigmoid(m.moon_slope * (power - m.moon_threshold)) if MOON in bids else 0.0
    plain = [b for b in bids if b != MOON]
    if plain:
        ratio = m.raise_rate * max(0.0, power - need)
        weights = [ratio**k * (m.seven if b == 7 else 1.0) for k, b in enumerate(plain)]
        if not any(weights):
            weights = [1.0] + [0.0] * (len(plain) - 1)
        total = sum(weights)
        for b, w in zip(plain, weights, strict=True):
            out[b] = bid * (1.0 - moon) * w / total
        if MOON in bids:
            out[MOON] = bid * moon
    else:
        out[MOON] = bid
    k = len(out)
    return {c: m.floor / k + (1.0 - m.floor) * p for c, p in out.items()}


@functools.lru_cache(maxsize=1 << 16)
def trump_chances(held: int, rules: RuleSet) -> tuple[tuple[Trump, float], ...]:
    """Each trump the rules offer with its probability of being named by a bidder holding
    ``held`` (a mask)."""
    ests = [(t, estimate_tricks(held, t, rules)) for t in rules.trumps]
    top = max(e for _, e in ests)
    sharp = TRUMP_SHARPNESS[1 if rules.partnership else 0]
    ws = [math.exp(sharp * (e - top)) for _, e in ests]
    total = sum(ws)
    return tuple((t, w / total) for (t, _), w in zip(ests, ws, strict=True))
