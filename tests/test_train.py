"""The learned value of the auction: its data, its numpy evaluator, the shipped trees, the bot."""

from __future__ import annotations

import hashlib
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import moonrules as m
from moonrules.bots import auction_value as av
from moonrules.bots import labelled, train
from moonrules.bots.learned import LearnedBot, trained_for
from moonrules.bots.match import bot_by_name, play_game
from moonrules.bots.strong import StrongBot
from moonrules.game import Bid, Deal, Pass, Phase, view
from moonrules.rules.tiles import tiles

STANDARD = m.rules_by_name("standard")


def _data(count: int, seed: int) -> dict[str, Any]:
    rows, _ = labelled.seeded_rows(lambda s: train.example(STANDARD, s), count, seed * 1000)
    return labelled.columns(rows, train.EXAMPLE_LABELS)


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return _data(40, 7)


def test_examples_are_seeded_and_labelled_by_the_solver() -> None:
    a, b = train.example(STANDARD, 3), train.example(STANDARD, 3)
    assert a == b and a is not None
    assert a != train.example(STANDARD, 4)
    assert len(a["trumps"]) == av.CANDIDATES and all(0 <= t <= 7 for t in a["tricks"])
    # the seat's calls come after the calls drawn before it, one per earlier seat
    assert len(a["calls"]) == a["position"]
    # the features: the seat's seven tiles, the calls before it
    held = sum(1 << t.index for t in tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5"))
    feats = av.hand_features(held, STANDARD, 1, (5,))
    assert len(feats) == len(av.HAND_FEATURES) and sum(feats[:28]) == 7
    assert feats[28 + 6] == 6 and feats[35] == 2  # six tiles with a six, two doubles
    assert feats[-4:] == [1.0, 5.0, 1.0, 6.0]  # position, high bid, bids before, lowest open


def test_numpy_evaluator_equals_lightgbm(data: dict[str, Any]) -> None:
    lgb = pytest.importorskip("lightgbm", reason="lightgbm (the [train] extra) is not installed")
    del lgb
    tricks, defence, _ = train.fit(STANDARD, data, seed=1, rounds=12, min_leaf=5)
    xt, _, xd, _ = train.matrices(STANDARD, data)
    ft, fd = train.forest_of(tricks), train.forest_of(defence)
    assert ft.classes == 8 and fd.classes == 1
    np.testing.assert_allclose(ft.predict(xt), tricks.predict(xt), rtol=0, atol=1e-9)
    np.testing.assert_allclose(fd.predict(xd), defence.predict(xd), rtol=0, atol=1e-9)
    # not a constant: the predictions differ between rows
    assert np.ptp(fd.predict(xd)) > 0 and np.ptp(ft.predict(xt)[:, 0]) > 0


def test_a_tiny_seeded_training_run_is_deterministic(data: dict[str, Any], tmp_path: Path) -> None:
    pytest.importorskip("lightgbm", reason="lightgbm (the [train] extra) is not installed")
    digests = []
    for k in range(2):
        tricks, defence, _ = train.fit(STANDARD, data, seed=3, rounds=8, min_leaf=5)
        digests.append(train.save_models(tricks, defence, tmp_path / f"m{k}.npz"))
    assert digests[0] == digests[1]
    loaded = av.load(tmp_path / "m0.npz")
    xt, _, _, _ = train.matrices(STANDARD, data)
    np.testing.assert_allclose(loaded.tricks.predict(xt), tricks.predict(xt), atol=1e-9)


def test_the_shipped_trees_are_the_recorded_ones() -> None:
    """The digest of ``auction_value.npz`` is recorded with the commands that made it."""
    folder = resources.files("moonrules.bots")
    shipped = folder.joinpath("auction_value.npz").read_bytes()
    record = json.loads(folder.joinpath("auction_value.json").read_text())
    assert hashlib.sha256(shipped).hexdigest() == record["sha256"]
    assert "python -m moonrules.bots.train fit" in record["commands"]["fit"]
    assert len(shipped) < 5_000_000
    models = av.models()
    held = sum(1 << t.index for t in tiles("6-6 6-5 6-4 6-3 5-5 4-4 3-3"))
    chances = models.trick_chances(held, STANDARD, 0, ())
    for p in chances.values():
        assert p.shape == (8,) and abs(p.sum() - 1) < 1e-9
    weak = sum(1 << t.index for t in tiles("2-1 3-2 4-1 5-2 6-1 4-3 5-3"))
    strong_mean = max(float(p @ np.arange(8)) for p in chances.values())
    weak_mean = max(
        float(p @ np.arange(8)) for p in models.trick_chances(weak, STANDARD, 0, ()).values()
    )
    assert strong_mean > 5.5 > 3.5 > weak_mean


def _deal_for_seat0(hand0: str, seed: int = 1) -> m.GameState:
    """A deal in which seat 0 (the first to call) holds ``hand0``."""
    s = m.new_game("standard", seed, first_bidder=0)
    mine = tiles(hand0)
    rest = [t for t in STANDARD.tile_set.tiles if t not in mine]
    random.Random(seed).shuffle(rest)
    hands = [list(mine), rest[0:7], rest[7:14]]
    return m.with_deal(s, Deal.of(hands, rest[14]))


def test_learned_bids_strong_hands_and_passes_weak_ones() -> None:
    bot = LearnedBot()
    strong = view(_deal_for_seat0("6-6 6-5 6-4 6-3 5-5 4-4 3-3"), 0)
    weak = view(_deal_for_seat0("2-1 3-2 4-1 5-2 6-1 4-3 5-3"), 0)
    assert strong.phase is Phase.BIDDING
    assert isinstance(bot.act(strong, random.Random(0)), Bid)
    assert bot.act(weak, random.Random(0)) == Pass()


def test_learned_reads_a_candidate_models_file(tmp_path: Path) -> None:
    """``models_file`` (``bench/learned.py swap --model``) replaces the shipped models: here
    the shipped tricks model with a defence model worth 100 points for any pass."""
    shipped = av.models()
    always = av.Forest(
        np.zeros((1, 1), dtype=np.int32),
        np.full((1, 1), np.inf),
        np.full((1, 1), -1, dtype=np.int32),
        np.full((1, 1), -1, dtype=np.int32),
        np.full((1, 1), 100.0),
        1,
        2,
    )
    path = tmp_path / "pass.npz"
    arrays = {**shipped.tricks.arrays("tricks"), **always.arrays("defence")}
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]  # as train.save_models
    strong = view(_deal_for_seat0("6-6 6-5 6-4 6-3 5-5 4-4 3-3"), 0)
    assert isinstance(LearnedBot().act(strong, random.Random(0)), Bid)
    assert LearnedBot(models_file=str(path)).act(strong, random.Random(0)) == Pass()
    assert av.models() is shipped  # the shipped models are still those read once


def test_learned_plays_legal_games_and_is_registered() -> None:
    assert trained_for(STANDARD) and not trained_for(m.rules_by_name("partnership"))
    assert isinstance(bot_by_name("learned"), LearnedBot)
    fast = LearnedBot(strong=StrongBot(samples=2, bid_samples=2))
    for preset in ("standard", "partnership"):
        rules = m.rules_by_name(preset)
        bots = [fast, bot_by_name("basic")] * 2
        rngs = [random.Random(s) for s in range(rules.players)]
        state, _ = play_game(rules, 4, bots[: rules.players], rngs, max_hands=1)
        assert state.hand_number >= 2 or state.is_over


def test_every_level_has_a_rating() -> None:
    """``levels.json`` (the round robin of ``bench/learned.py levels``) rates each level."""
    from moonrules.bots.match import BOTS

    record = json.loads(resources.files("moonrules.bots").joinpath("levels.json").read_text())
    rated = {r["level"]: r for r in record["levels"]}
    assert set(rated) == set(BOTS)
    assert record["command"].startswith("python bench/learned.py levels")
    assert all(r["sigma"] > 0 and isinstance(r["rating"], int) for r in rated.values())
    # the one ordering the round robin tells apart: random is the weakest
    assert min(rated.values(), key=lambda r: r["mu"])["level"] == "random"


def test_played_hands_are_seeded_and_played_out() -> None:
    """``train played``: the hand called by ``learned`` seats and played out by ``pimc``."""
    rows = [train.played_hand(STANDARD, k) for k in range(2)]
    assert rows[0] == train.played_hand(STANDARD, 0)
    for r in rows:
        if r is None:  # thrown in
            continue
        assert len(r["calls"]) == r["position"] and r["bid"] in (*STANDARD.bids, 21)
        assert 0 <= r["tricks"] <= 7 and 0 <= r["dd"] <= 7 and r["rank"] >= 0
        assert bin(r["held"]).count("1") == 7


def test_the_correction_is_a_calibration_of_trick_chances() -> None:
    """Identity coefficients keep the chances; fitted on hands that took a trick fewer than
    the model's chances say, the correction lowers them; its fit is deterministic."""
    pytest.importorskip("sklearn", reason="scikit-learn (the [train] extra) is not installed")
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(8), size=400)
    same = av.Correction(np.tile([0.0, 1.0], (7, 1))).apply(p)
    np.testing.assert_allclose(same, p, atol=1e-3)  # up to the floor of each chance
    drawn = np.array([rng.choice(8, p=row) for row in p])
    tricks = np.maximum(drawn - 1, 0)
    coef = train.fit_correction(p, tricks)
    np.testing.assert_array_equal(coef, train.fit_correction(p, tricks))
    fixed = av.Correction(coef).apply(p)
    assert (fixed >= -1e-12).all() and np.allclose(fixed.sum(axis=1), 1)
    assert float(np.mean(fixed @ np.arange(8))) < float(np.mean(p @ np.arange(8))) - 0.5


def test_the_shipped_correction_is_the_recorded_one() -> None:
    """The digest of ``auction_correction.npz`` is recorded with the commands that made it,
    and the bot reads it."""
    folder = resources.files("moonrules.bots")
    shipped = folder.joinpath("auction_correction.npz").read_bytes()
    record = json.loads(folder.joinpath("auction_value.json").read_text())["correction"]
    assert hashlib.sha256(shipped).hexdigest() == record["sha256"]
    assert "python -m moonrules.bots.train correct" in record["commands"]["correct"]
    assert "python -m moonrules.bots.train played" in record["commands"]["played"]
    corrected = av.models(None, av.SHIPPED_CORRECTION)
    assert corrected.correction is not None and corrected.correction.coef.shape == (7, 2)
    held = sum(1 << t.index for t in tiles("6-6 6-5 6-4 6-3 5-5 4-4 3-3"))
    for p in corrected.trick_chances(held, STANDARD, 0, ()).values():
        assert p.shape == (8,) and abs(p.sum() - 1) < 1e-9
    strong = view(_deal_for_seat0("6-6 6-5 6-4 6-3 5-5 4-4 3-3"), 0)
    assert isinstance(LearnedBot(correction="shipped").act(strong, random.Random(0)), Bid)
