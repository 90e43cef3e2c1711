"""The learned value of the auction: what a seat sees, as numbers, and a numpy tree evaluator.

The ``learned`` bot (:mod:`moonrules.bots.learned`) decides its calls with two models of
gradient-boosted trees, trained by :mod:`moonrules.bots.train` on deals whose labels come
from the double-dummy solver:

* the **tricks model**: for the seat's tiles, the calls so far and one trump, the
  probability of each number of tricks (0-7) the seat takes double dummy as the bidder
  with that trump, after taking the widow and the basic discard (WIDOW-1);
* the **defence model**: the relative points the seat expects when it passes and the
  rest of the auction is played out under the model of a competent player
  (:mod:`moonrules.bots.model`), the winner naming its best trump (0 when the hand is
  thrown in).

Both read only what the seat sees (:func:`hand_features`, :func:`trump_features`). The
trees ship in ``auction_value.npz`` beside this module and are read with numpy alone
(:class:`Forest`): no training library is needed to play.

Double-dummy labels are optimistic for the bidder, who never has to guess. The
**correction** (:class:`Correction`, ``auction_correction.npz``) recalibrates the tricks
model's chances of at least ``k`` tricks to the tricks bidders took in hands played out by
``pimc`` seats (``python -m moonrules.bots.train played`` and ``correct``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from moonrules.bots.basic import best_trumps, estimate_tricks, features
from moonrules.kernel.tables import STRENGTH, SUIT_MASK
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import TILES, indices_of

__all__ = [
    "CANDIDATES",
    "HAND_FEATURES",
    "TRUMP_FEATURES",
    "Correction",
    "Forest",
    "Models",
    "hand_features",
    "models",
    "trump_features",
]

CANDIDATES: Final = 4
"""Trumps weighed per hand: the best by the basic estimate."""

HAND_FEATURES: Final = (
    *(f"tile{i}" for i in range(28)),
    *(f"number{n}" for n in range(7)),
    "doubles",
    "strength",
    "position",
    "high",
    "bids_before",
    "lowest_open",
)
"""The names of :func:`hand_features`' columns."""

TRUMP_FEATURES: Final = (
    "trump",
    "estimate",
    "master_trumps",
    "other_trumps",
    "trumps_past_three",
    "other_masters",
    "trumps_held",
    "top_trump_rank",
    "trumps_out",
    "rank_by_estimate",
)
"""The names of :func:`trump_features`' columns (after the hand's)."""


def hand_features(held: int, rules: RuleSet, position: int, calls: Sequence[int]) -> list[float]:
    """What a seat about to call sees: its tiles ``held`` (a mask), its ``position`` from
    the first bidder and the ``calls`` before it (``0`` a pass)."""
    out = [float(held >> i & 1) for i in range(28)]
    for n in range(7):
        out.append(float(sum(1 for i in range(28) if held >> i & 1 and TILES[i].has(n))))
    out.append(float(sum(1 for i in range(28) if held >> i & 1 and TILES[i].is_double)))
    out.append(best_trumps(held, rules)[0][0])
    high = max(calls, default=PASS)
    out.append(float(position))
    out.append(float(high))
    out.append(float(sum(1 for c in calls if c != PASS)))
    bids = [b for b in rules.bids if b > high]
    out.append(float(min(bids) if bids else MOON))
    return out


def trump_features(
    held: int,
    trump: Trump,
    rules: RuleSet,
    rank: int,
    outside: int | None = None,
    estimate: float | None = None,
) -> list[float]:
    """The hand under one ``trump``, the ``rank``-th best by the basic estimate (0 the best).
    ``outside``: the tiles the seat knows are against it (default: every tile it does not
    hold; a bidder also knows its discard is not); ``estimate``: the basic estimate of
    the tricks, if already worked out."""
    outside = rules.tile_set.mask & ~held if outside is None else outside
    t = trump.value
    trumps = SUIT_MASK[t][TRUMP_SUIT] & rules.tile_set.mask
    mine = held & trumps
    strengths = [STRENGTH[t][TRUMP_SUIT][i] for i in indices_of(mine)]
    return [
        float(t),
        estimate_tricks(held, trump, rules, outside) if estimate is None else estimate,
        *(float(x) for x in features(held, t, outside)),
        float(mine.bit_count()),
        float(max(strengths, default=-1)),
        float((trumps & outside).bit_count()),
        float(rank),
    ]


def candidate_trumps(held: int, rules: RuleSet) -> list[Trump]:
    """The :data:`CANDIDATES` trumps a hand is weighed under (the best by the basic estimate)."""
    return [t for _, t in best_trumps(held, rules)[:CANDIDATES]]


@attrs.frozen(slots=True, eq=False)
class Forest:
    """Gradient-boosted trees as flat arrays, evaluated with numpy.

    Tree ``k`` (of ``classes`` per round, class ``k % classes``) has its nodes in row ``k``
    of ``feature``, ``threshold``, ``left`` and ``right``; a child ``c < 0`` is the leaf
    ``~c``, whose value is ``leaf[k, ~c]``. A row goes left when its feature is at most
    the threshold (LightGBM's numerical split; the features are never missing).
    """

    feature: npt.NDArray[np.int32]
    threshold: npt.NDArray[np.float64]
    left: npt.NDArray[np.int32]
    right: npt.NDArray[np.int32]
    leaf: npt.NDArray[np.float64]
    classes: int
    depth: int

    def raw(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The summed leaf values of each row of ``x``: shape (rows, classes)."""
        x = np.asarray(x, dtype=np.float64)
        trees = self.feature.shape[0]
        rows = x.shape[0]
        node = np.zeros((trees, rows), dtype=np.int32)
        tree_ix = np.arange(trees)[:, None]
        row_ix = np.arange(rows)[None, :]
        for _ in range(self.depth):
            inner = node >= 0
            if not inner.any():
                break
            at = np.where(inner, node, 0)
            f = self.feature[tree_ix, at]
            go_left = x[row_ix, f] <= self.threshold[tree_ix, at]
            nxt = np.where(go_left, self.left[tree_ix, at], self.right[tree_ix, at])
            node = np.where(inner, nxt, node)
        values = self.leaf[tree_ix, ~node]
        out = values.reshape(trees // self.classes, self.classes, rows).sum(axis=0)
        return np.asarray(out.T, dtype=np.float64)

    def predict(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """As LightGBM's ``predict``: class probabilities (softmax) with several classes,
        else the value, shape (rows,)."""
        raw = self.raw(x)
        if self.classes == 1:
            return np.asarray(raw[:, 0], dtype=np.float64)
        e = np.exp(raw - raw.max(axis=1, keepdims=True))
        return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float64)

    def arrays(self, prefix: str) -> dict[str, npt.NDArray[np.generic]]:
        """The forest as named arrays (for :func:`numpy.savez_compressed`)."""
        return {
            f"{prefix}_feature": self.feature,
            f"{prefix}_threshold": self.threshold,
            f"{prefix}_left": self.left,
            f"{prefix}_right": self.right,
            f"{prefix}_leaf": self.leaf,
            f"{prefix}_shape": np.array([self.classes, self.depth], dtype=np.int32),
        }

    @staticmethod
    def from_arrays(data: Mapping[str, npt.NDArray[np.generic]], prefix: str) -> Forest:
        """The forest saved by :meth:`arrays` under ``prefix`` in ``data`` (an npz)."""
        get = data.__getitem__
        classes, depth = (int(v) for v in get(f"{prefix}_shape"))
        return Forest(
            np.asarray(get(f"{prefix}_feature"), dtype=np.int32),
            np.asarray(get(f"{prefix}_threshold"), dtype=np.float64),
            np.asarray(get(f"{prefix}_left"), dtype=np.int32),
            np.asarray(get(f"{prefix}_right"), dtype=np.int32),
            np.asarray(get(f"{prefix}_leaf"), dtype=np.float64),
            classes,
            depth,
        )


def cumulative_logits(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The log-odds of the chance of at least ``k`` tricks, k = 1 … 7, from chances of 0 … 7
    tricks ``p`` (rows): shape (rows, 7), the chances clipped to [1e-6, 1 - 1e-6]."""
    at_least = np.cumsum(np.asarray(p, dtype=np.float64)[:, ::-1], axis=1)[:, ::-1][:, 1:]
    q = np.clip(at_least, 1e-6, 1 - 1e-6)
    return np.asarray(np.log(q / (1 - q)), dtype=np.float64)


@attrs.frozen(slots=True, eq=False)
class Correction:
    """The tricks model's chances recalibrated to tricks taken in play: for k = 1 … 7 the
    chance of at least ``k`` tricks becomes ``sigmoid(a_k + b_k * logit(model's chance))``
    (``coef[k - 1] = (a_k, b_k)``, fitted by :func:`moonrules.bots.train.fit_correction`),
    made non-increasing in ``k`` (with :attr:`lower_only`, never above the model's chance:
    a correction of the double-dummy labels' optimism alone); the chances of each number of
    tricks are their differences, each at least :attr:`floor` (then normalised)."""

    coef: npt.NDArray[np.float64]
    lower_only: bool = False
    floor: float = 1e-4

    def apply(self, p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The corrected chances of 0 … 7 tricks of each row of ``p``."""
        z = cumulative_logits(p)
        at_least = 1.0 / (1.0 + np.exp(-(self.coef[:, 0] + self.coef[:, 1] * z)))
        if self.lower_only:
            at_least = np.minimum(at_least, 1.0 / (1.0 + np.exp(-z)))
        at_least = np.minimum.accumulate(at_least, axis=1)
        rows = at_least.shape[0]
        full = np.concatenate([np.ones((rows, 1)), at_least, np.zeros((rows, 1))], axis=1)
        p = np.maximum(full[:, :-1] - full[:, 1:], self.floor)
        return np.asarray(p / p.sum(axis=1, keepdims=True), dtype=np.float64)


@attrs.frozen(slots=True, eq=False)
class Models:
    """The tricks model and the defence model (see the module), and the correction of the
    tricks model's chances to tricks taken in play (``None``: the double-dummy chances)."""

    tricks: Forest
    defence: Forest
    correction: Correction | None = None

    def trick_chances(
        self, held: int, rules: RuleSet, position: int, calls: Sequence[int]
    ) -> dict[Trump, npt.NDArray[np.float64]]:
        """For each candidate trump, the probability of 0 … 7 double-dummy tricks as bidder."""
        base = hand_features(held, rules, position, calls)
        trumps = candidate_trumps(held, rules)
        x = np.array(
            [base + trump_features(held, t, rules, k) for k, t in enumerate(trumps)],
            dtype=np.float64,
        )
        probs = self.tricks.predict(x)
        if self.correction is not None:
            probs = self.correction.apply(probs)
        return {t: probs[k] for k, t in enumerate(trumps)}

    def defence_value(
        self, held: int, rules: RuleSet, position: int, calls: Sequence[int]
    ) -> float:
        """The relative points the seat expects by passing."""
        x = np.array([hand_features(held, rules, position, calls)], dtype=np.float64)
        return float(self.defence.predict(x)[0])


def load(path: str | os.PathLike[str]) -> Models:
    """The models saved in the npz file at ``path``."""
    with np.load(path) as data:
        return Models(Forest.from_arrays(data, "tricks"), Forest.from_arrays(data, "defence"))


def load_correction(path: str | os.PathLike[str]) -> Correction:
    """The correction saved in the npz file at ``path``."""
    with np.load(path) as data:
        lower = bool(data["lower_only"][0]) if "lower_only" in data.files else False
        return Correction(np.asarray(data["coef"], dtype=np.float64), lower)


SHIPPED_CORRECTION: Final = "shipped"
"""``models(correction=...)``: the shipped correction (``auction_correction.npz``)."""


@functools.cache
def models(path: str | None = None, correction: str | None = None) -> Models:
    """The models in the npz file at ``path``, read once; ``None``: the shipped models
    (``auction_value.npz`` beside this module). ``correction``: the npz file of a correction
    of the tricks model, :data:`SHIPPED_CORRECTION` for the shipped one
    (``auction_correction.npz``), ``None`` for none."""
    if path is not None:
        base = load(path)
    else:
        ref = resources.files("moonrules.bots").joinpath("auction_value.npz")
        with resources.as_file(ref) as shipped:
            base = load(shipped)
    if correction is None:
        return base
    if correction == SHIPPED_CORRECTION:
        ref = resources.files("moonrules.bots").joinpath("auction_correction.npz")
        with resources.as_file(ref) as shipped:
            return attrs.evolve(base, correction=load_correction(shipped))
    return attrs.evolve(base, correction=load_correction(correction))
