"""The learned discard and trump: its data, its numpy evaluator, the shipped trees, the choice."""

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
from moonrules.bots import hand_choice as hc
from moonrules.bots import labelled
from moonrules.game import Bid, Deal, Discard, NameTrump, Pass, Phase, apply, view
from moonrules.rules.tiles import mask_of, tiles

STANDARD = m.rules_by_name("standard")


def _data(count: int, seed: int) -> dict[str, Any]:
    rows, _ = labelled.seeded_rows(lambda s: hc.example(STANDARD, s), count, seed * 1000)
    return labelled.columns(rows, hc.LABELS)


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return _data(12, 5)


def test_a_tiny_seeded_data_run_is_deterministic(tmp_path: Path) -> None:
    a, b = hc.example(STANDARD, 3), hc.example(STANDARD, 3)
    assert a is not None and a == b
    assert len(a["tricks"]) == 8 and all(len(row) == len(STANDARD.trumps) for row in a["tricks"])
    assert all(0 <= t <= 7 for row in a["tricks"] for t in row)
    assert bin(a["held"]).count("1") == 8 and max(a["calls"]) == a["bid"]
    files = []
    for k in range(2):
        out = tmp_path / f"d{k}.npz"
        assert hc.generate(STANDARD, 3, 2, out) == 3
        files.append(np.load(out))
    for key in files[0].files:
        np.testing.assert_array_equal(files[0][key], files[1][key])
    _, x = hc.option_rows(int(files[0]["held"][0]), STANDARD, 0, (4, 0, 0))
    assert x.shape == (8 * len(STANDARD.trumps), len(hc.FEATURES))


def test_numpy_evaluator_equals_lightgbm(data: dict[str, Any]) -> None:
    pytest.importorskip("lightgbm", reason="lightgbm (the [train] extra) is not installed")
    from moonrules.bots.train import forest_of

    booster, report = hc.fit(STANDARD, data, seed=1, rounds=6, min_leaf=5)
    x, _ = hc.matrices(STANDARD, data)
    forest = forest_of(booster)
    assert forest.classes == 8 and report["rows"] == len(x)
    np.testing.assert_allclose(forest.predict(x), booster.predict(x), rtol=0, atol=1e-9)
    assert np.ptp(forest.predict(x)[:, 0]) > 0  # not a constant


def test_the_shipped_trees_are_the_recorded_ones() -> None:
    """The digest of ``hand_choice.npz`` is recorded with the commands that made it."""
    folder = resources.files("moonrules.bots")
    shipped = folder.joinpath("hand_choice.npz").read_bytes()
    record = json.loads(folder.joinpath("hand_choice.json").read_text())
    assert hashlib.sha256(shipped).hexdigest() == record["sha256"]
    assert "python -m moonrules.bots.hand_choice data" in record["commands"]["data"]
    assert "python -m moonrules.bots.hand_choice fit" in record["commands"]["fit"]
    assert len(shipped) < 5_000_000
    choice = hc.model()
    held = mask_of(tiles("6-6 6-5 6-4 6-3 6-2 5-5 4-4 2-1"))
    options, p = choice.chances(held, STANDARD, 0, (5, 0, 0))
    assert p.shape == (len(options), 8) and np.allclose(p.sum(axis=1), 1)
    mean = dict(zip(options, p @ np.arange(8), strict=True))
    sixes = next(t for t in STANDARD.trumps if str(t) == "6")
    # sixes with the 2-1 thrown are worth more than anything with the 6-6 thrown
    worst_kept = tiles("2-1")[0].index
    top = tiles("6-6")[0].index
    assert mean[(worst_kept, sixes)] > max(v for (d, _), v in mean.items() if d == top)


def _contract(others_seed: int) -> m.GameState:
    """Seat 0 bids 5 and the others pass, seat 0 holding the same tiles and widow whatever
    ``others_seed``; the other seats' tiles shuffled by it."""
    mine = tiles("6-6 6-5 6-3 5-5 4-2 3-1 2-1")
    widow = tiles("6-1")[0]
    rest = [t for t in STANDARD.tile_set.tiles if t not in mine and t != widow]
    random.Random(others_seed).shuffle(rest)
    s = m.new_game("standard", 1, first_bidder=0)
    s = m.with_deal(s, Deal.of([list(mine), rest[0:7], rest[7:14]], widow))
    for call in (Bid(5), Pass(), Pass()):
        s = apply(s, call)
    assert s.phase is Phase.DISCARD and s.bidder == 0
    return s


def test_the_choice_is_legal_and_reads_only_the_seats_view() -> None:
    choices = set()
    for seed in range(3):
        state = _contract(seed)
        d, t = hc.learned_discard_and_trump(view(state, 0))
        choices.add((d, t))
        assert d in view(state, 0).hand and t in STANDARD.trumps
        after = apply(state, Discard(d))
        assert after.phase is Phase.TRUMP
        # named after the discard, the trump is the one weighed with it
        assert hc.learned_discard_and_trump(view(after, 0)) == (d, t)
        assert apply(after, NameTrump(t)).phase is Phase.PLAY
    assert len(choices) == 1
    with pytest.raises(ValueError, match="bidder"):
        hc.learned_discard_and_trump(view(_contract(0), 1))
