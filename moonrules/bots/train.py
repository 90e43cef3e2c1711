"""Data and training for the learned value of the auction (:mod:`moonrules.bots.auction_value`).

Two commands, each seeded::

    python -m moonrules.bots.train data --examples 60000 --seed 1 --out auction.npz
    python -m moonrules.bots.train fit auction.npz --out moonrules/bots/auction_value.npz

``data`` deals hands of the standard rules (three players). For each it picks the seat
about to call (its position from the first bidder at random), draws the calls of the
seats before it from the model of a competent player (:mod:`moonrules.bots.model`, from
their true tiles, so that the calls say what they say in play), and labels the example
with the double-dummy solver (:mod:`moonrules.analysis.solver`):

* for each of the seat's :data:`~moonrules.bots.auction_value.CANDIDATES` best trumps by
  the basic estimate, the tricks the seat takes as the bidder after taking the widow
  and the basic discard;
* the relative points (not score-aware, scores 0-0) the seat expects by passing: the
  rest of the auction is enumerated under the model of the other seats, the winner
  takes the widow, names its best trump and plays double dummy.

``played`` deals hands, runs the auction with the ``learned`` bot (or ``pimc``) at every
seat, then has ``pimc`` take the widow, discard, name trump and play the hand out at every
seat; it records what the bidder saw when it made its winning call (its tiles, position,
the calls before it), the trump it named, the tricks it took and the double-dummy tricks of
the same contract (:func:`played_hand`). ``correct`` fits, on those hands, a calibration of
the tricks model's chances to the tricks taken in play (:func:`fit_correction`)::

    python -m moonrules.bots.train played --hands 2000 --seed 1 --out played.npz
    python -m moonrules.bots.train correct played.npz --out moonrules/bots/auction_correction.npz

``fit`` trains the tricks model (LightGBM multiclass) and the defence model (LightGBM
regression) with one thread and fixed seeds (deterministic), and writes them as numpy
arrays. LightGBM is imported here only (``pip install moonrules[train]``); playing needs
numpy alone.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from moonrules.analysis.solver import SolverCache, solve
from moonrules.bots import labelled
from moonrules.bots.auction_value import (
    CANDIDATES,
    Forest,
    candidate_trumps,
    hand_features,
    trump_features,
)
from moonrules.bots.basic import basic_discard, best_trumps
from moonrules.bots.inference import open_calls
from moonrules.bots.model import call_chances, strength
from moonrules.bots.value import HandValue
from moonrules.bots.worlds import complete_contract
from moonrules.game import GameState, new_game
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import RuleSet, as_rules

__all__ = [
    "example",
    "fit",
    "fit_correction",
    "generate",
    "main",
    "matrices",
    "played_chances",
    "played_hand",
]

_PRUNE = 1e-3


def _draw_call(rules: RuleSet, held: int, calls: tuple[int, ...], rng: random.Random) -> int:
    legal = open_calls(rules, calls)
    if len(legal) == 1:
        return legal[0]
    chances = call_chances(rules, strength(held, rules), max(calls, default=PASS), legal)
    r = rng.random()
    acc = 0.0
    for c, p in chances.items():
        acc += p
        if r < acc:
            return c
    return legal[-1]


def _endings(
    rules: RuleSet, hands: Sequence[int], first: int, calls: tuple[int, ...]
) -> list[tuple[float, int, int]]:
    """(probability, winner or -1, bid) of the ends of the auction after ``calls``."""
    n = rules.players
    out: list[tuple[float, int, int]] = []

    def go(cs: tuple[int, ...], p: float) -> None:
        if len(cs) >= n or MOON in cs:
            high = max(cs)
            out.append((p, -1, PASS) if high == PASS else (p, (first + cs.index(high)) % n, high))
            return
        seat = (first + len(cs)) % n
        legal = open_calls(rules, cs)
        if len(legal) == 1:
            go((*cs, legal[0]), p)
            return
        chances = call_chances(rules, strength(hands[seat], rules), max(cs, default=PASS), legal)
        for c, q in chances.items():
            if p * q >= _PRUNE:
                go((*cs, c), p * q)

    go(calls, 1.0)
    total = sum(p for p, _, _ in out)
    return [(p / total, s, b) for p, s, b in out]


#: The labels of an example (:func:`example`) and of a played hand (:func:`played_hand`),
#: each with its numpy type in the data file.
EXAMPLE_LABELS: Final = {"trumps": np.int8, "tricks": np.int8, "defence": np.float64}
PLAYED_LABELS: Final = {k: np.int8 for k in ("bid", "trump", "rank", "tricks", "dd")}


def example(rules: RuleSet, seed: int) -> dict[str, Any] | None:
    """One labelled example from the deal seeded ``seed`` (``None``: the seat gets no turn,
    a 21 closed the auction before it)."""
    rng = random.Random(f"moonrules/train/{seed}")
    state: GameState = new_game(rules, rng.getrandbits(63))
    hands = state.hand.hands
    widow = 1 << state.hand.contract.widow if rules.has_widow else 0
    first = state.first_bidder
    n = rules.players
    position = rng.randrange(n)
    calls: tuple[int, ...] = ()
    for k in range(position):
        calls = (*calls, _draw_call(rules, hands[(first + k) % n], calls, rng))
    if MOON in calls:
        return None
    seat = (first + position) % n
    held = hands[seat]
    trumps = candidate_trumps(held, rules)
    tricks = []
    for t in trumps:
        opening = complete_contract(state, seat, rules.min_bid, t, basic_discard)
        tricks.append(solve(opening, SolverCache()))
    value = HandValue.for_hand(rules, seat, (0,) * rules.sides, (0,) * n, first, score_aware=False)
    defence = 0.0
    solved: dict[int, int] = {}
    for p, winner, bid in _endings(rules, hands, first, (*calls, PASS)):
        if winner < 0:
            continue
        if winner not in solved:
            trump = best_trumps(hands[winner] | widow, rules)[0][1]
            opening = complete_contract(state, winner, rules.min_bid, trump, basic_discard)
            solved[winner] = solve(opening, SolverCache())
        defence += p * value(winner, bid, solved[winner])
    return {
        "held": held,
        "position": position,
        "calls": calls,
        "trumps": [t.value for t in trumps],
        "tricks": tricks,
        "defence": defence,
    }


def generate(rules: RuleSet, examples: int, seed: int, out: Path, every: int = 2000) -> int:
    """Write ``examples`` examples (deals ``seed * 10**9 + k``) to ``out`` (npz), saving every
    ``every`` examples; the number written."""
    return labelled.generate(
        lambda s: example(rules, s), examples, seed, out, EXAMPLE_LABELS, every, "examples"
    )


def played_hand(rules: RuleSet, seed: int, caller: str = "learned") -> dict[str, Any] | None:
    """One hand dealt from ``seed``, called by ``caller`` (``learned`` or ``pimc``) at every
    seat and played out by ``pimc`` at every seat (widow, discard, trump and play): the
    bidder's view at its winning call, the trump named, the tricks the bidder took (``tricks``)
    and the double-dummy tricks of the same contract from the start of the play (``dd``).
    ``None``: the hand was thrown in."""
    from moonrules.bots.learned import LearnedBot
    from moonrules.bots.pimc import PimcBot
    from moonrules.game import Phase, apply, view

    rng = random.Random(f"moonrules/played/{seed}")
    state: GameState = new_game(rules, rng.getrandbits(63))
    n = rules.players
    rngs = [random.Random(f"moonrules/played/{seed}/{s}") for s in range(n)]
    callers: list[Any] = [LearnedBot() if caller == "learned" else PimcBot() for _ in range(n)]
    pimc = PimcBot()
    first = state.first_bidder
    dd = -1
    while state.hand_number == 1 and not state.is_over:
        seat = state.to_act
        assert seat is not None
        if state.phase is Phase.PLAY and dd < 0:
            dd = solve(state, SolverCache())
        bot = callers[seat] if state.phase is Phase.BIDDING else pimc
        state = apply(state, bot.act(view(state, seat), rngs[seat]))
    hand = state.history[0] if state.history else state.hand
    c = hand.contract
    if c.bidder < 0:
        return None
    position = (c.bidder - first) % n
    held = c.deal[c.bidder]
    ranked = [t for _, t in best_trumps(held, rules)]
    rank = next(k for k, t in enumerate(ranked) if t.value == c.trump)
    return {
        "held": held,
        "position": position,
        "calls": c.calls[:position],
        "bid": c.bid,
        "trump": c.trump,
        "rank": rank,
        "tricks": hand.tricks_won[c.bidder],
        "dd": dd,
    }


def generate_played(
    rules: RuleSet, hands: int, seed: int, out: Path, caller: str = "learned", every: int = 50
) -> int:
    """Play ``hands`` hands (deals ``seed * 10**9 + k``, thrown-in hands not counted) with
    :func:`played_hand`, saving to ``out`` (npz) every ``every``; the number written."""
    return labelled.generate(
        lambda s: played_hand(rules, s, caller), hands, seed, out, PLAYED_LABELS, every, "hands"
    )


def played_chances(rules: RuleSet, data: Any, m: Any = None) -> npt.NDArray[np.float64]:
    """The (uncorrected) tricks model's chances of 0 … 7 tricks for each played hand, under
    the candidate trump its winning bid is worth most under (the trump the call was valued
    with, before the widow was seen; the trump named after it may be another): shape
    (hands, 8). ``m``: the models (default: the shipped, uncorrected)."""
    import attrs

    from moonrules.bots.auction_value import models

    forest = (m if m is not None else models()).tricks
    n = rules.players
    rows: list[list[float]] = []
    worths: list[list[float]] = []
    for held, pos, cs, bid in zip(
        data["held"], data["position"], data["calls"], data["bid"], strict=True
    ):
        calls = tuple(int(c) for c in cs if c >= 0)
        base = hand_features(int(held), rules, int(pos), calls)
        for k, t in enumerate(candidate_trumps(int(held), rules)):
            rows.append(base + trump_features(int(held), t, rules, k))
        value = HandValue.for_hand(rules, int(pos), (0,) * rules.sides, (0,) * n, 0)
        value = attrs.evolve(value, moon_points=21.0)
        worths.append([value(int(pos), int(bid), k) for k in range(8)])
    p = np.asarray(forest.predict(np.array(rows, dtype=np.float64)), dtype=np.float64)
    p = p.reshape(len(worths), CANDIDATES, 8)
    best = np.argmax(np.einsum("hck,hk->hc", p, np.array(worths)), axis=1)
    return np.asarray(p[np.arange(len(worths)), best], dtype=np.float64)


def fit_correction(
    chances: npt.NDArray[np.float64], tricks: npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.float64]:
    """The correction's coefficients, shape (7, 2): for k = 1 … 7 the intercept and slope of a
    logistic regression (scikit-learn) of "the bidder took at least k tricks in play" on the
    log-odds of the model's chance of at least k (see
    :class:`~moonrules.bots.auction_value.Correction`)."""
    from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

    from moonrules.bots.auction_value import cumulative_logits

    z = cumulative_logits(chances)
    coef = np.zeros((7, 2), dtype=np.float64)
    for k in range(1, 8):
        y = (np.asarray(tricks) >= k).astype(np.int64)
        if y.min() == y.max():  # every hand on one side: keep the model's chance
            coef[k - 1] = (0.0, 1.0)
            continue
        lr = LogisticRegression(C=1e6, max_iter=1000)
        lr.fit(z[:, k - 1 : k], y)
        coef[k - 1] = (float(lr.intercept_[0]), float(lr.coef_[0, 0]))
    return coef


def _trick_logloss(p: npt.NDArray[np.float64], tricks: npt.NDArray[np.integer[Any]]) -> float:
    t = np.asarray(tricks, dtype=np.int64)
    return float(-np.mean(np.log(p[np.arange(len(t)), t] + 1e-12)))


def correction_report(
    chances: npt.NDArray[np.float64],
    tricks: npt.NDArray[np.integer[Any]],
    dd: npt.NDArray[np.integer[Any]],
    bids: npt.NDArray[np.integer[Any]],
    folds: int = 5,
    lower_only: bool = False,
) -> dict[str, float]:
    """Held-out figures of the correction (``folds``-fold, the folds in order): the log loss
    and the mean of the played tricks under the model and the corrected model, the mean
    double-dummy and played tricks, and the contracts made in play and double dummy."""
    from moonrules.bots.auction_value import Correction

    n = len(tricks)
    t = np.asarray(tricks, dtype=np.int64)
    corrected = np.zeros_like(chances)
    edges = np.linspace(0, n, folds + 1).astype(int)
    for a, b in itertools.pairwise(edges):
        train = np.r_[0:a, b:n]
        coef = fit_correction(chances[train], t[train])
        corrected[a:b] = Correction(coef, lower_only).apply(chances[a:b])
    need = np.where(np.asarray(bids) == MOON, 7, np.asarray(bids))
    moon = np.asarray(bids) == MOON
    ks = np.arange(8)
    return {
        "hands": float(n),
        "logloss_model": _trick_logloss(chances, t),
        "logloss_corrected": _trick_logloss(corrected, t),
        "mean_model": float(np.mean(chances @ ks)),
        "mean_corrected": float(np.mean(corrected @ ks)),
        "mean_dd": float(np.mean(dd)),
        "mean_played": float(np.mean(t)),
        "made_played": float(np.mean(t >= need)),
        "made_dd": float(np.mean(np.asarray(dd) >= need)),
        "moons": float(moon.sum()),
        "moons_made_played": float(np.sum(t[moon] >= 7)),
        "moons_made_dd": float(np.sum(np.asarray(dd)[moon] >= 7)),
        "moon_chance_model": float(np.mean(chances[moon, 7])) if moon.any() else 0.0,
        "moon_chance_corrected": float(np.mean(corrected[moon, 7])) if moon.any() else 0.0,
    }


def save_correction(coef: npt.NDArray[np.float64], out: Path, lower_only: bool = False) -> str:
    """Write the correction's coefficients (and whether it only lowers the model's chances)
    as a numpy file; its SHA-256."""
    with out.open("wb") as fh:
        np.savez_compressed(
            fh,
            coef=np.asarray(coef, dtype=np.float64),
            lower_only=np.array([lower_only], dtype=np.bool_),
        )
    return hashlib.sha256(out.read_bytes()).hexdigest()


def matrices(
    rules: RuleSet, data: Any
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """The tricks model's rows and labels (one row per example and candidate trump), and the
    defence model's rows and labels, from the arrays :func:`generate` saved."""
    from moonrules.rules.suits import Trump

    xt: list[list[float]] = []
    yt: list[int] = []
    xd: list[list[float]] = []
    for held, pos, cs, trumps, tricks in zip(
        data["held"], data["position"], data["calls"], data["trumps"], data["tricks"], strict=True
    ):
        calls = tuple(int(c) for c in cs if c >= 0)
        base = hand_features(int(held), rules, int(pos), calls)
        xd.append(base)
        for k in range(CANDIDATES):
            xt.append(base + trump_features(int(held), Trump(int(trumps[k])), rules, k))
            yt.append(int(tricks[k]))
    return (
        np.array(xt, dtype=np.float64),
        np.array(yt, dtype=np.int64),
        np.array(xd, dtype=np.float64),
        np.asarray(data["defence"], dtype=np.float64),
    )


def booster_params(seed: int, min_leaf: int, **extra: Any) -> dict[str, Any]:
    """LightGBM's parameters for every model here: one thread and deterministic, so that a
    seed gives the same trees on any machine; ``extra`` (the objective, a learning rate)
    added or overriding."""
    return {
        "learning_rate": 0.05,
        "num_leaves": 31,
        "min_data_in_leaf": min_leaf,
        "feature_fraction": 0.8,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "num_threads": 1,
        "deterministic": True,
        "force_row_wise": True,
        "seed": seed,
        "verbose": -1,
        **extra,
    }


def early_stopped(
    params: dict[str, Any], x: Any, y: Any, cut: int, rounds: int, patience: int
) -> tuple[Any, int]:
    """A LightGBM booster trained on the rows before ``cut``, stopped early (after
    ``patience`` rounds without a gain) on the rows from ``cut`` on, held out; and its best
    number of rounds, at most ``rounds``."""
    import lightgbm as lgb  # the [train] extra: only training needs it

    booster = lgb.train(
        params,
        lgb.Dataset(x[:cut], y[:cut]),
        rounds,
        valid_sets=[lgb.Dataset(x[cut:], y[cut:])],
        callbacks=[lgb.early_stopping(patience, verbose=False)],
    )
    return booster, max(1, booster.best_iteration or rounds)


def forest_of(booster: Any) -> Forest:
    """A LightGBM booster's trees as a :class:`Forest`."""
    dump = booster.dump_model()
    classes = int(dump.get("num_class", 1))
    trees = dump["tree_info"]
    nodes: list[tuple[list[int], list[float], list[int], list[int]]] = []
    leaves: list[list[float]] = []
    depth = 1

    def walk(tree: dict[str, Any]) -> None:
        nonlocal depth
        feat: list[int] = []
        thr: list[float] = []
        left: list[int] = []
        right: list[int] = []
        leaf: list[float] = []

        def visit(node: dict[str, Any], d: int) -> int:
            nonlocal depth
            if "leaf_value" in node:
                leaf.append(float(node["leaf_value"]))
                depth = max(depth, d)
                return ~(len(leaf) - 1)
            if node["decision_type"] != "<=":
                raise ValueError(f"unsupported split {node['decision_type']!r}")
            k = len(feat)
            feat.append(int(node["split_feature"]))
            thr.append(float(node["threshold"]))
            left.append(0)
            right.append(0)
            left[k] = visit(node["left_child"], d + 1)
            right[k] = visit(node["right_child"], d + 1)
            return k

        root = visit(tree["tree_structure"], 0)
        if root < 0:  # a tree of one leaf: a node that always goes left to it
            feat.append(0)
            thr.append(np.inf)
            left.append(root)
            right.append(root)
            depth = max(depth, 1)
        nodes.append((feat, thr, left, right))
        leaves.append(leaf)

    for t in trees:
        walk(t)
    width = max(len(f) for f, _, _, _ in nodes)
    lw = max(len(v) for v in leaves)
    count = len(nodes)
    feature = np.zeros((count, width), dtype=np.int32)
    threshold = np.zeros((count, width), dtype=np.float64)
    left_a = np.full((count, width), -1, dtype=np.int32)
    right_a = np.full((count, width), -1, dtype=np.int32)
    leaf_a = np.zeros((count, lw), dtype=np.float64)
    for k, ((f, th, lf, rt), lv) in enumerate(zip(nodes, leaves, strict=True)):
        feature[k, : len(f)] = f
        threshold[k, : len(th)] = th
        left_a[k, : len(lf)] = lf
        right_a[k, : len(rt)] = rt
        leaf_a[k, : len(lv)] = lv
    return Forest(feature, threshold, left_a, right_a, leaf_a, classes, depth + 1)


def fit(
    rules: RuleSet, data: Any, *, seed: int = 0, rounds: int = 300, min_leaf: int = 50
) -> tuple[Any, Any, dict[str, float]]:
    """The trained tricks and defence boosters, and their held-out figures: each model's
    number of rounds (at most ``rounds``) is chosen by early stopping on the last tenth of
    the examples, held out, then the models are refit on every example."""
    import lightgbm as lgb  # the [train] extra: only training needs it

    xt, yt, xd, yd = matrices(rules, data)
    n = len(yd)
    cut = n - n // 10
    tricks_params = booster_params(seed, min_leaf, objective="multiclass", num_class=8)
    defence_params = booster_params(seed, min_leaf, objective="regression")
    report: dict[str, float] = {"examples": float(n)}
    tricks_rounds = defence_rounds = rounds
    if n >= 50:
        # the number of rounds of each model is chosen on the last tenth held out (early
        # stopping), then each model is refit on every example with that number
        ct = cut * CANDIDATES
        bt, tricks_rounds = early_stopped(tricks_params, xt, yt, ct, rounds, 30)
        p = np.asarray(bt.predict(xt[ct:], num_iteration=tricks_rounds), dtype=np.float64)
        report["tricks_rounds"] = float(tricks_rounds)
        report["tricks_logloss"] = float(-np.mean(np.log(p[np.arange(len(p)), yt[ct:]] + 1e-12)))
        report["tricks_mae_mean"] = float(np.mean(np.abs(p @ np.arange(8) - yt[ct:])))
        report["tricks_baseline_logloss"] = float(
            -np.mean(np.log(np.bincount(yt[:ct], minlength=8)[yt[ct:]] / ct + 1e-12))
        )
        bd, defence_rounds = early_stopped(defence_params, xd, yd, cut, rounds, 30)
        pd = bd.predict(xd[cut:], num_iteration=defence_rounds)
        report["defence_rounds"] = float(defence_rounds)
        report["defence_rmse"] = float(np.sqrt(np.mean((pd - yd[cut:]) ** 2)))
        report["defence_baseline_rmse"] = float(np.std(yd[cut:]))
    tricks = lgb.train(tricks_params, lgb.Dataset(xt, yt), tricks_rounds)
    defence = lgb.train(defence_params, lgb.Dataset(xd, yd), defence_rounds)
    return tricks, defence, report


def save_models(tricks: Any, defence: Any, out: Path) -> str:
    """Write the boosters as a numpy file; its SHA-256."""
    arrays = {**forest_of(tricks).arrays("tricks"), **forest_of(defence).arrays("defence")}
    with out.open("wb") as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
    return hashlib.sha256(out.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m moonrules.bots.train")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="generate labelled examples of the auction")
    d.add_argument("--examples", type=int, default=1000)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--rules", default="standard")
    d.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="train the models on examples and write their trees")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--rounds", type=int, default=300)
    f.add_argument("--rules", default="standard")
    f.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("played", help="hands played out by pimc seats, for the correction")
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--caller", choices=("learned", "pimc"), default="learned")
    p.add_argument("--rules", default="standard")
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("correct", help="fit the correction of the tricks model on played hands")
    c.add_argument("data", type=Path, nargs="+")
    c.add_argument("--rules", default="standard")
    c.add_argument("--lower-only", action="store_true", help="never raise the model's chances")
    c.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rules = as_rules(args.rules)
    start = time.perf_counter()
    if args.command == "data":
        count = generate(rules, args.examples, args.seed, args.out)
        took = time.perf_counter() - start
        print(json.dumps({"examples": count, "seconds": round(took, 1)}))
        return
    if args.command == "played":
        count = generate_played(rules, args.hands, args.seed, args.out, args.caller)
        took = time.perf_counter() - start
        print(json.dumps({"hands": count, "seconds": round(took, 1)}))
        return
    parts = [np.load(p) for p in args.data]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}
    if args.command == "correct":
        chances = played_chances(rules, data)
        report = correction_report(
            chances, data["tricks"], data["dd"], data["bid"], lower_only=args.lower_only
        )
        coef = fit_correction(chances, data["tricks"])
        digest = save_correction(coef, args.out, args.lower_only)
        report["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps({**report, "coef": coef.round(4).tolist(), "sha256": digest}))
        return
    tricks, defence, report = fit(rules, data, seed=args.seed, rounds=args.rounds)
    digest = save_models(tricks, defence, args.out)
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps({**report, "sha256": digest}))


if __name__ == "__main__":
    main()
