"""A learned discard and trump: the bidder's choice after taking the widow, from a model.

With the standard rules (three players, WIDOW-1) the bidder takes the widow, discards one
of its eight tiles, then names trump. :func:`learned_discard_and_trump` weighs **every**
legal discard under **every** trump the rules offer (8 x 9 = 72 options) with one model of
gradient-boosted trees, the **hand-choice model**: for the seven tiles kept, the tile
discarded, the calls and one trump, the probability of each number of tricks (0-7) the
bidder takes double dummy. The option chosen is the one whose chances give the contract
the highest expected value to the seat (:class:`~moonrules.bots.value.HandValue`,
score-aware as ``strong``: a made 21 counts as the rules score it). The trees ship in
``hand_choice.npz`` beside this module and are read with numpy alone
(:class:`~moonrules.bots.auction_value.Forest`): no training library is needed to play.
The choice reads only the seat's view (its tiles, the tile it discarded, the calls, the
scores).

Two seeded commands make the model (``docs/guides/bots.md`` gives their times)::

    python -m moonrules.bots.hand_choice data --examples 7000 --seed 1 --out hand.npz
    python -m moonrules.bots.hand_choice fit hand.npz --seed 0 --out moonrules/bots/hand_choice.npz

``data`` deals a hand of the standard rules and draws its auction from the model of a
competent player (:mod:`moonrules.bots.model`, each seat from its true tiles, as the
``strong`` bot's inference reads calls): the seat that wins it is the bidder at the bid it
won with, so that bidders, contracts and calls are those of play (a hand everyone passes
is dealt again, not recorded). The bidder takes the widow; for each of its eight tiles
discarded and each trump, the solver (:mod:`moonrules.analysis.solver`) gives the tricks
it takes double dummy from the opening lead. ``fit`` trains a LightGBM multiclass model
(one thread, fixed seeds: deterministic) on one row per option of the first nine tenths of
the deals, the number of rounds by early stopping on the last tenth (held out, not trained
on: the model is not refit), and writes its trees as numpy arrays.

Measured against ``strong``'s discard and trump (``bench/hand_choice.py``: the same bidder,
contract and widow, each contract scored double dummy, 1000 deals of seed 48, 994 contracts):
**+0.305** relative points a hand, 95% interval [+0.115, +0.495] paired by deal; contracts
made 75.8% against 73.4%; 0.033 s of CPU a decision (mean; ``strong`` 0.40 s). Played out
by ``pimc`` seats (the 481 of those deals where the choices differ) the difference is within
noise: +0.040 [-0.162, +0.242] a hand over the 994 contracts.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from moonrules.bots import labelled
from moonrules.bots.auction_value import (
    HAND_FEATURES,
    TRUMP_FEATURES,
    Forest,
    hand_features,
    trump_features,
)
from moonrules.bots.base import call_value
from moonrules.bots.basic import estimate_tricks, tile_value
from moonrules.bots.value import HandValue
from moonrules.game import Bid, Pass, Phase, PlayerView
from moonrules.kernel.tables import SUIT_MASK
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import TILES, Tile, indices_of, mask_of

__all__ = [
    "FEATURES",
    "HandChoice",
    "drawn_auction",
    "example",
    "learned_discard_and_trump",
    "load",
    "model",
    "option_rows",
]

OPTION_FEATURES: Final = (
    "left_call",
    "right_call",
    "discard_high",
    "discard_low",
    "discard_double",
    *TRUMP_FEATURES,
    "discard_is_trump",
    "discard_value",
)
"""The names of the columns of an option after the kept hand's (:data:`HAND_FEATURES`)."""

FEATURES: Final = (*HAND_FEATURES, *OPTION_FEATURES)
"""The names of the columns of :func:`option_rows`."""

_TRAINED: Final = as_rules("standard")

Option = tuple[int, Trump]
"""A tile index to discard and a trump."""


def _relative_calls(rules: RuleSet, bidder: int, first: int, calls: Sequence[int]) -> list[float]:
    """The calls of the seat after the bidder and of the one after it (-1: no call)."""
    n = rules.players
    out = []
    for step in (1, 2):
        k = (bidder + step - first) % n
        out.append(float(calls[k]) if k < len(calls) else -1.0)
    return out


def option_rows(
    held: int,
    rules: RuleSet,
    position: int,
    calls: Sequence[int],
    discards: Sequence[int] | None = None,
) -> tuple[list[Option], npt.NDArray[np.float64]]:
    """The options of a bidder holding ``held`` (a mask of its eight tiles, the widow taken)
    at ``position`` from the first bidder after the auction's ``calls`` (``0`` a pass), and
    the row of :data:`FEATURES` of each: every tile of ``discards`` (default: every tile
    held) discarded, under every trump of the rules, in that order."""
    n = rules.players
    bidder = position % n
    around = _relative_calls(rules, bidder, 0, calls)
    options: list[Option] = []
    rows: list[list[float]] = []
    for d in indices_of(held) if discards is None else discards:
        kept = held & ~(1 << d)
        outside = rules.tile_set.mask & ~held  # the discard is known not to be against
        base = hand_features(kept, rules, position, calls)
        tile = TILES[d]
        head = [*around, float(tile.high), float(tile.low), float(tile.is_double)]
        estimates = [estimate_tricks(kept, t, rules, outside) for t in rules.trumps]
        order = sorted(range(len(estimates)), key=lambda k: -estimates[k])
        rank = {k: r for r, k in enumerate(order)}
        for k, t in enumerate(rules.trumps):
            trumps = SUIT_MASK[t.value][TRUMP_SUIT] & rules.tile_set.mask
            options.append((d, t))
            rows.append(
                [
                    *base,
                    *head,
                    *trump_features(kept, t, rules, rank[k], outside, estimates[k]),
                    float(trumps >> d & 1),
                    float(tile_value(d, t.value)),
                ]
            )
    return options, np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))


class HandChoice:
    """The hand-choice model (see the module): a :class:`Forest` of 8 classes."""

    __slots__ = ("forest",)

    def __init__(self, forest: Forest) -> None:
        self.forest = forest

    def chances(
        self,
        held: int,
        rules: RuleSet,
        position: int,
        calls: Sequence[int],
        discards: Sequence[int] | None = None,
    ) -> tuple[list[Option], npt.NDArray[np.float64]]:
        """The options (:func:`option_rows`) and, for each, the chances of 0 … 7 tricks."""
        options, x = option_rows(held, rules, position, calls, discards)
        return options, self.forest.predict(x)


def load(path: str | os.PathLike[str]) -> HandChoice:
    """The model saved in the npz file at ``path``."""
    with np.load(path) as data:
        return HandChoice(Forest.from_arrays(data, "hand"))


@functools.cache
def model(path: str | None = None) -> HandChoice:
    """The model in the npz file at ``path``, read once; ``None``: the shipped one
    (``hand_choice.npz`` beside this module)."""
    if path is not None:
        return load(path)
    ref = resources.files("moonrules.bots").joinpath("hand_choice.npz")
    with resources.as_file(ref) as shipped:
        return load(shipped)


def trained_for(rules: RuleSet) -> bool:
    """Whether the model applies to ``rules`` (trained on the standard rules; the target and
    the tie rule do not change what a hand's tricks are)."""
    import attrs

    return attrs.evolve(rules, target=_TRAINED.target, tie=_TRAINED.tie) == _TRAINED


def learned_discard_and_trump(
    view: PlayerView,
    choice: HandChoice | None = None,
    value: HandValue | None = None,
) -> tuple[Tile, Trump]:
    """The discard and the trump whose chances under the model give the contract the highest
    expected value to the bidder ``view.seat`` (``value``; default the score-aware value of
    ``strong``). In the discard phase every tile held is weighed under every trump; in the
    trump phase (the discard made) every trump with that discard. ``choice``: the model
    (default the shipped one). Reads only the seat's view."""
    rules = view.rules
    if view.phase not in (Phase.DISCARD, Phase.TRUMP) or view.bidder != view.seat:
        raise ValueError("the discard and the trump are the bidder's, after the auction")
    assert view.bid is not None
    m = choice if choice is not None else model()
    held = mask_of(view.hand)
    discards: list[int] | None = None
    if view.discard is not None:
        held |= 1 << view.discard.index
        discards = [view.discard.index]
    position = (view.seat - view.first_bidder) % rules.players
    calls = tuple(call_value(c) for c in view.calls)
    options, p = m.chances(held, rules, position, calls, discards)
    if value is None:
        value = HandValue.for_hand(
            rules, view.seat, view.scores, view.tricks_won, view.first_bidder
        )
    worth = np.array([value(view.seat, view.bid, k) for k in range(8)], dtype=np.float64)
    score = p @ worth + 1e-6 * (p @ np.arange(8))
    best = int(np.argmax(score))
    d, t = options[best]
    return TILES[d], t


# -- data --------------------------------------------------------------------


def drawn_auction(
    rules: RuleSet, hands: Sequence[int], first: int, rng: random.Random
) -> tuple[int, ...]:
    """The calls of an auction drawn from the model of a competent player
    (:func:`~moonrules.bots.model.call_chances`), each seat from its true tiles ``hands``."""
    from moonrules.bots.inference import open_calls
    from moonrules.bots.model import call_chances, strength

    n = rules.players
    calls: tuple[int, ...] = ()
    while len(calls) < n and MOON not in calls:
        legal = open_calls(rules, calls)
        seat = (first + len(calls)) % n
        call = legal[-1]
        if len(legal) == 1:
            call = legal[0]
        else:
            chances = call_chances(
                rules, strength(hands[seat], rules), max(calls, default=0), legal
            )
            r = rng.random()
            acc = 0.0
            for c, q in chances.items():
                acc += q
                if r < acc:
                    call = c
                    break
        calls = (*calls, call)
    return calls


def contract_state(rules: RuleSet, seed: int) -> Any:
    """The deal seeded ``seed`` (a duplicate deal's seed) after an auction drawn by
    :func:`drawn_auction`: the state at the bidder's discard, or ``None`` (thrown in)."""
    from moonrules.game import apply, new_game

    rng = random.Random(f"moonrules/hand_choice/{seed}")
    state = new_game(rules, seed)
    calls = drawn_auction(rules, state.hand.hands, state.first_bidder, rng)
    if max(calls) == PASS:
        return None
    for c in calls:
        state = apply(state, Pass() if c == PASS else Bid(c))
    assert state.phase is Phase.DISCARD
    return state


#: The labels of an example (:func:`example`), each with its numpy type in the data file.
LABELS: Final = {"bid": np.int8, "tricks": np.int8}


def example(rules: RuleSet, seed: int) -> dict[str, Any] | None:
    """One labelled deal (``None``: thrown in): the bidder's eight tiles, its position, the
    calls, the bid, and the double-dummy tricks of each (discard, trump), shape (8, trumps)."""
    from moonrules.analysis.solver import SolverCache, solve
    from moonrules.bots.sampled import fixed_discard
    from moonrules.bots.worlds import complete_contract

    state = contract_state(
        rules, random.Random(f"moonrules/hand_choice/deal/{seed}").getrandbits(63)
    )
    if state is None:
        return None
    bidder = state.bidder
    held = state.hand.hands[bidder]
    caches = {t: SolverCache() for t in rules.trumps}
    tricks = [
        [
            solve(complete_contract(state, bidder, None, t, fixed_discard(d)), caches[t])
            for t in rules.trumps
        ]
        for d in indices_of(held)
    ]
    calls = tuple(int(c) for c in state.hand.contract.calls)
    return {
        "held": held,
        "position": (bidder - state.first_bidder) % rules.players,
        "calls": calls,
        "bid": state.bid,
        "tricks": tricks,
    }


def generate(rules: RuleSet, examples: int, seed: int, out: Path, every: int = 250) -> int:
    """Write ``examples`` labelled deals (deals ``seed * 10**9 + k``, thrown-in ones skipped)
    to ``out`` (npz), saving every ``every``: the first ``j`` saved are those a run of
    ``--examples j`` writes. The number written."""
    return labelled.generate(
        lambda s: example(rules, s), examples, seed, out, LABELS, every, "deals"
    )


# -- fit ---------------------------------------------------------------------


def matrices(rules: RuleSet, data: Any) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The rows (one per deal and option, in :func:`option_rows`' order) and their labels."""
    xs: list[npt.NDArray[np.float64]] = []
    ys: list[npt.NDArray[np.int64]] = []
    for held, pos, cs, tricks in zip(
        data["held"], data["position"], data["calls"], data["tricks"], strict=True
    ):
        calls = tuple(int(c) for c in cs if c >= 0)
        _, x = option_rows(int(held), rules, int(pos), calls)
        xs.append(x)
        ys.append(np.asarray(tricks, dtype=np.int64).reshape(-1))
    return np.concatenate(xs), np.concatenate(ys)


def fit(
    rules: RuleSet, data: Any, *, seed: int = 0, rounds: int = 300, min_leaf: int = 50
) -> tuple[Any, dict[str, float]]:
    """The trained booster (its best number of rounds, at most ``rounds``, chosen by early
    stopping on the last tenth of the deals, held out and not trained on) and its held-out
    figures: the log loss, the mean error of the expected tricks, and how much worse in
    tricks the option the model ranks first is than the best one double dummy."""
    import lightgbm as lgb  # the [train] extra: only training needs it

    x, y = matrices(rules, data)
    deals = len(data["held"])
    per = len(y) // deals
    cut = (deals - deals // 10) * per if deals >= 10 else len(y)
    from moonrules.bots.train import booster_params, early_stopped

    params = booster_params(seed, min_leaf, learning_rate=0.1, objective="multiclass", num_class=8)
    report: dict[str, float] = {"deals": float(deals), "rows": float(len(y))}
    if cut == len(y):
        booster = lgb.train(params, lgb.Dataset(x, y), rounds)
        return booster, report
    booster, best = early_stopped(params, x, y, cut, rounds, 20)
    booster = lgb.Booster(model_str=booster.model_to_string(num_iteration=best))
    p = np.asarray(booster.predict(x[cut:]), dtype=np.float64)
    held = y[cut:]
    report["rounds"] = float(best)
    report["logloss"] = float(-np.mean(np.log(p[np.arange(len(p)), held] + 1e-12)))
    prior = np.bincount(y[:cut], minlength=8) / cut
    report["baseline_logloss"] = float(-np.mean(np.log(prior[held] + 1e-12)))
    mean = (p @ np.arange(8)).reshape(-1, per)
    truth = held.reshape(-1, per)
    report["mae_mean"] = float(np.mean(np.abs(mean - truth)))
    picked = truth[np.arange(len(truth)), np.argmax(mean, axis=1)]
    report["tricks_lost_by_top_option"] = float(np.mean(truth.max(axis=1) - picked))
    return booster, report


def save(booster: Any, out: Path) -> str:
    """Write the booster's trees as a numpy file; its SHA-256."""
    from moonrules.bots.train import forest_of

    with out.open("wb") as fh:
        np.savez_compressed(fh, **forest_of(booster).arrays("hand"))  # type: ignore[arg-type]
    return hashlib.sha256(out.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m moonrules.bots.hand_choice")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="deals labelled with each discard and trump's tricks")
    d.add_argument("--examples", type=int, default=100)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="train the model and write its trees")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--rounds", type=int, default=300)
    f.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rules = _TRAINED
    start = time.perf_counter()
    if args.command == "data":
        count = generate(rules, args.examples, args.seed, args.out)
        took = time.perf_counter() - start
        print(json.dumps({"examples": count, "seconds": round(took, 1)}))
        return
    parts = [np.load(p) for p in args.data]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files if k != "deals"}
    booster, report = fit(rules, data, seed=args.seed, rounds=args.rounds)
    digest = save(booster, args.out)
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps({**report, "sha256": digest}))


if __name__ == "__main__":
    main()
