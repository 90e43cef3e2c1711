"""The diagnosis of where the points are (``bench/bots.py cheat``): the pimc that is told hidden
tiles is told exactly what its variant says, and is no level a player or a match can seat."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

import moonrules as m
from moonrules.bots.match import BOTS, UnknownBot, bot_by_name
from moonrules.bots.sampled import Budget
from moonrules.game import GameState, Phase, view

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bots.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module
    spec.loader.exec_module(module)
    return module


def _worlds(bot: object, state: GameState, n: int) -> list[GameState]:
    assert state.to_act is not None
    v = view(state, state.to_act)
    bot.truth[:] = [state]  # type: ignore[attr-defined]
    budget = Budget.starting(n, None, None, [])
    return list(bot._states(v, random.Random(0), budget))  # type: ignore[attr-defined]


def test_told_everything_its_one_world_is_the_true_deal(bench: ModuleType) -> None:
    state = m.new_game("standard", 3)
    worlds = _worlds(bench.SeeingPimc(phases=bench.AUCTION_PHASES, learns="all"), state, 8)
    assert len(worlds) == 1
    assert worlds[0].hand.hands == state.hand.hands
    assert worlds[0].hand.widow == state.hand.widow


def test_told_the_widow_it_draws_the_rest(bench: ModuleType) -> None:
    state = m.new_game("standard", 3)
    seat = state.to_act
    assert seat is not None
    worlds = _worlds(bench.SeeingPimc(phases=bench.AUCTION_PHASES, learns="widow"), state, 8)
    assert len(worlds) == 8
    assert all(w.hand.widow == state.hand.widow for w in worlds)
    assert all(w.hand.hands[seat] == state.hand.hands[seat] for w in worlds)
    assert len({w.hand.hands for w in worlds}) > 1


def test_outside_its_phases_it_is_pimc(bench: ModuleType) -> None:
    state = m.new_game("standard", 3)
    assert state.phase is Phase.BIDDING
    bot = bench.SeeingPimc(phases=frozenset({"play"}), learns="all")
    worlds = _worlds(bot, state, 8)
    pimc = bench.PimcBot()
    assert state.to_act is not None
    plain = list(
        pimc._states(
            view(state, state.to_act), random.Random(0), Budget.starting(8, None, None, [])
        )
    )
    assert [w.hand.hands for w in worlds] == [w.hand.hands for w in plain]


def test_no_level_seats_the_diagnostic(bench: ModuleType) -> None:
    assert all(not isinstance(make(), bench.SeeingPimc) for make in BOTS.values())
    for name in ("see/all", "seeingpimc", "cheat"):
        with pytest.raises(UnknownBot):
            bot_by_name(name)
