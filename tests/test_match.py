"""``moonrules match`` and :mod:`moonrules.bots.match`: rotation, statistics, determinism."""

from __future__ import annotations

import math
import random

import pytest

from moonrules.bots.match import (
    GameResult,
    HandResult,
    lineup_of,
    run_match,
    summarize,
    wilson,
)
from moonrules.cli.main import main


def test_the_lineup_turns_round_the_seats() -> None:
    names = ("strong", "basic", "basic")
    seats = [lineup_of(names, i).index("strong") for i in range(6)]
    assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    assert [lineup_of(("a", "b", "a", "b"), i)[0] for i in range(2)] == ["a", "b"]


def test_same_seed_same_results_whatever_the_workers() -> None:
    one = run_match("standard", ["basic", "random", "random"], 6, seed=5, workers=1)
    two = run_match("standard", ["basic", "random", "random"], 6, seed=5, workers=2)
    assert one == two
    other = run_match("standard", ["basic", "random", "random"], 6, seed=6, workers=1)
    assert one != other


def _game(index: int, seats: tuple[str, ...], winner: int, points: list[list[int]]) -> GameResult:
    hands = tuple(HandResult(0, 4, True, tuple(p)) for p in points)
    return GameResult(index, seats, winner, (0, 0, 0), hands)


def test_summary_figures() -> None:
    rng = random.Random(1)
    games = []
    for i in range(200):
        seats = lineup_of(("a", "b", "b"), i)
        winner = seats.index("a") if rng.random() < 0.6 else (seats.index("a") + 1) % 3
        pts = [[rng.choice([4, -4, 1, 2]) for _ in range(3)] for _ in range(rng.randint(3, 9))]
        games.append(_game(i, seats, winner, pts))
    a, b = summarize("standard", games)
    assert (a.name, b.name) == ("a", "b")
    assert a.games == b.games == 200 and a.seats == 200 and b.seats == 400
    assert math.isclose(a.win_rate + b.win_rate * 2, 1.0)  # b's share counts half a game a seat
    assert a.win_ci[0] < a.win_rate < a.win_ci[1]
    assert 0.5 < a.win_rate < 0.7
    # points per hand: the plain mean over the seat-hands of the bot
    mine = [h.seat_points[g.seats.index("a")] for g in games for h in g.hands]
    assert math.isclose(a.points_per_hand, sum(mine) / len(mine))
    assert a.points_ci[0] < a.points_per_hand < a.points_ci[1]
    assert a.bids_made == sum(1 for g in games for h in g.hands if g.seats[h.bidder] == "a")


def test_wilson_interval() -> None:
    lo, hi = wilson(150, 300)
    assert lo < 0.5 < hi and math.isclose(0.5 - lo, hi - 0.5) and 0.05 < hi - lo < 0.12
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
    assert math.isclose(wilson(0, 10)[1], 0.2775, abs_tol=1e-3)  # the textbook value


def test_match_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--bots", "basic,random", "--games", "6", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "6 games" in out and "basic, random, random" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "basic" in rows and "random" in rows and "%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "basic,clever"], "no bot is called 'clever'"),
        (["--bots", "basic,random,random,random"], "--bots names 4 bots"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        (["--rules", "chess"], "no rule set is called 'chess'"),
        (["--samples", "0"], "--samples must be at least 1"),
    ],
)
def test_match_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("moonrules match: error: ") and message in err


def test_a_match_of_hands_stops_at_the_same_game_whatever_the_workers() -> None:
    names = ["basic", "random", "random"]
    one = run_match("standard", names, 100, seed=3, hands=20, workers=1)
    two = run_match("standard", names, 100, seed=3, hands=20, workers=2)
    assert one == two
    counts = [len(g.hands) for g in one]
    assert sum(counts) >= 20 > sum(counts[:-1])
    assert one == run_match("standard", names, len(one), seed=3)
