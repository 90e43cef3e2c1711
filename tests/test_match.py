"""``moonrules match`` and :mod:`moonrules.bots.match`: rotation, statistics, determinism."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import moonrules as m
from moonrules.bots import BasicBot, Bot
from moonrules.bots.match import (
    DuplicateHand,
    GameResult,
    HandResult,
    arrangements,
    duplicate_summary,
    lineup_of,
    run_duplicate,
    run_match,
    summarize,
    wilson,
)
from moonrules.cli.main import main
from moonrules.cli.match import make_bot

SCHEMA = Path(__file__).resolve().parents[1] / "spec" / "schema" / "cli" / "match.schema.json"
ERROR = re.compile(r"^moonrules match: error: ")
"""A refusal's first words."""


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


# ---------------------------------------------------------------------------
# Duplicate matches


def test_arrangements_seat_every_bot_everywhere_and_keep_partners() -> None:
    three = arrangements("standard", ("a", "b", "b"))
    assert three == (("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a"))
    every = arrangements("standard", ("a", "b", "c"))
    assert len(every) == 6 and len(set(every)) == 6
    for seat in range(3):
        assert Counter(s[seat] for s in every) == {"a": 2, "b": 2, "c": 2}
    teams = arrangements("partnership", ("a", "b", "a", "b"))
    assert teams == (("a", "b", "a", "b"), ("b", "a", "b", "a"))
    four = arrangements("partnership", ("a", "b", "c", "d"))
    assert len(four) == 8
    for s in four:  # partners stay partners
        assert {frozenset((s[0], s[2])), frozenset((s[1], s[3]))} == {
            frozenset("ac"),
            frozenset("bd"),
        }
    with pytest.raises(ValueError, match="lineup: 3 players need 3"):
        arrangements("standard", ("a", "b"))


def test_duplicate_plays_each_deal_in_every_seating_whatever_the_workers() -> None:
    names = ["basic", "random", "random"]
    one = run_duplicate("standard", names, 4, seed=2, workers=1)
    two = run_duplicate("standard", names, 4, seed=2, workers=2)
    assert one == two
    assert [(h.index, h.arrangement) for h in one] == [(i, k) for i in range(4) for k in range(3)]
    assert [h.seats for h in one[:3]] == list(arrangements("standard", names))
    assert one != run_duplicate("standard", names, 4, seed=3, workers=1)
    with pytest.raises(ValueError, match="two different bots"):
        run_duplicate("standard", ["basic"] * 3, 2)
    with pytest.raises(m.MoonError, match="no bot is called"):
        run_duplicate("standard", ["basic", "clever", "basic"], 2)


TINY = (("samples", 2), ("bid_samples", 2), ("candidates", 1), ("discards", 1))


def _tiny(name: str) -> Bot:
    """strong and pimc with a few deals and small node budgets (cheap, and deterministic:
    no time budget)."""
    return make_bot(name, (*TINY, ("node_budget", 2000)))


def test_strong_against_pimc_is_the_same_match_whatever_the_workers() -> None:
    """The search bots draw their deals from generators seeded by the match's seed, the
    deal, the seat and the bot: the same hands, whatever the worker processes."""
    rules, lineup = "standard", ["strong", "pimc", "pimc"]
    one = run_duplicate(rules, lineup, 2, seed=5, workers=1, factory=_tiny)
    two = run_duplicate(rules, lineup, 2, seed=5, workers=2, factory=_tiny)
    assert one == two
    assert duplicate_summary(rules, one) == duplicate_summary(rules, two)
    assert one != run_duplicate(rules, lineup, 2, seed=6, workers=1, factory=_tiny)


def test_duplicate_arguments_are_checked() -> None:
    names = ["basic", "random", "random"]
    cases: list[tuple[dict[str, object], type[Exception], str]] = [
        ({"deals": "3"}, TypeError, "deals: expected a whole number"),
        ({"deals": 0}, ValueError, "deals: expected a whole number of at least 1"),
        ({"seed": 1.5}, TypeError, "seed: expected a whole number"),
        ({"workers": 0}, ValueError, "workers: expected at least 1"),
        ({"factory": "basic"}, TypeError, "factory: expected a function"),
        ({"progress": 3}, TypeError, "progress: expected a function"),
    ]
    for kwargs, error, text in cases:
        args: dict[str, object] = {"deals": 2, **kwargs}
        with pytest.raises(error, match=text):
            run_duplicate("standard", names, **args)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="lineup: expected a sequence of bot names"):
        arrangements("standard", "basic,random,random")
    with pytest.raises(TypeError, match="results: expected an iterable of DuplicateHand"):
        duplicate_summary("standard", [5])  # type: ignore[list-item]


def _hand(bidder: int, bid: int, made: bool, points: tuple[int, ...]) -> HandResult:
    return HandResult(bidder, bid, made, points)


def test_duplicate_summary_pairs_by_deal_and_splits_by_role() -> None:
    seatings = arrangements("standard", ("a", "b", "b"))
    # deal 0: whoever sits at seat 0 bids 5; "a" makes it, "b" is set; deal 1: thrown in
    hands = []
    for k, seats in enumerate(seatings):
        made = seats[0] == "a"
        pts = (5, 1, 1) if made else (-5, 3, 2)
        hands.append(DuplicateHand(0, k, seats, _hand(0, 5, made, pts)))
        hands.append(DuplicateHand(1, k, seats, _hand(-1, 0, False, (0, 0, 0))))
    hands.sort(key=lambda h: (h.index, h.arrangement))
    s = duplicate_summary("standard", hands)
    assert (s.deals, s.hands) == (2, 6)
    a, b = s.bots
    assert (a.name, a.seat_hands, b.seat_hands) == ("a", 6, 12)
    # deal 0: a's seat-hands score 5, 3, 2 (bidder in the first seating); deal 1: nothing
    assert math.isclose(a.points_per_hand, ((5 + 3 + 2) / 3 + 0) / 2)
    assert math.isclose(a.bidding_points, (5 / 3) / 2) and a.bids == 1 and a.bids_made == 1
    assert math.isclose(a.bidding_points + a.defending_points, a.points_per_hand)
    assert a.thrown_in == 3 and math.isclose(a.points_per_bid, 5.0)
    # b: in deal 0, 1 and 1 (a bid), -5 and 2 (b bid at seat 0), -5 and 3
    assert math.isclose(b.points_per_hand, ((1 + 1 - 5 + 2 - 5 + 3) / 6) / 2)
    (d,) = s.differences
    assert (d.first, d.second, d.deals) == ("a", "b", 2)
    assert math.isclose(d.mean, a.points_per_hand - b.points_per_hand)
    assert math.isclose(d.bidding + d.defending, d.mean)
    assert d.ci[0] < d.mean < d.ci[1]


def test_duplicate_cancels_the_luck_of_the_deal() -> None:
    """The same deterministic bot under two names: each deal is played alike in every
    seating, so the paired difference is exactly zero, however the points vary."""
    names = ["basic", "basic/2", "basic/2"]
    hands = run_duplicate("standard", names, 40, seed=4, factory=_basic_twins)
    s = duplicate_summary("standard", hands)
    (d,) = s.differences
    assert d.mean == 0.0 and d.ci == (0.0, 0.0)
    assert s.bots[0].points_ci[1] - s.bots[0].points_ci[0] > 0.5


def _basic_twins(name: str) -> Bot:
    return BasicBot()


def test_match_duplicate_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--duplicate", "--bots", "basic,random", "--deals", "5", "--workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("5 deals of standard, each played in 3 seatings")
    assert "basic - random:" in out and "as bidder" in out and "as defender" in out


def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


@pytest.mark.parametrize("duplicate", [False, True])
def test_match_json_fits_its_schema(duplicate: bool, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--bots", "basic,random", "--workers", "1", "--json", "--seed", "3"]
    argv += ["--duplicate", "--deals", "4"] if duplicate else ["--games", "3"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    errors = [e.message for e in _validator().iter_errors(doc)]
    assert not errors, errors
    assert doc["mode"] == ("duplicate" if duplicate else "games")
    names = [b["name"] for b in doc["bots"]]
    assert names == ["basic", "random"]
    if duplicate:
        hands = run_duplicate("standard", ["basic", "random", "random"], 4, seed=3)
        s = duplicate_summary("standard", hands)
        assert doc["differences"][0]["mean"] == s.differences[0].mean
        assert doc["seatings"] == [list(x) for x in arrangements("standard", doc["lineup"])]
        assert not _validator().is_valid({**doc, "games": 3})
    else:
        assert doc["games"] == 3 and 0 <= doc["bots"][0]["win_rate"] <= 1
        assert not _validator().is_valid({**doc, "differences": []})
    assert not _validator().is_valid({**doc, "extra": 1})


def test_schema_is_draft_2020_12() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert schema["$id"].endswith("/schema/cli/match.schema.json")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--duplicate", "--bots", "basic"], "--duplicate compares bots"),
        (["--duplicate", "--games", "3"], "give --deals, not --games"),
        (["--duplicate", "--hands", "3"], "give --deals, not --hands"),
        (["--deals", "3"], "--deals is for --duplicate"),
        (["--duplicate", "--deals", "0"], "--deals must be at least 1"),
    ],
)
def test_match_duplicate_bad_input(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ERROR.match(err) and message in err, err


def test_match_shows_progress_when_piped() -> None:
    """Run as a user would, output piped: the figures on stdout, progress lines on stderr."""
    code = (
        "import sys, moonrules.cli.progress as p; p.DELAY = 0.0; "
        "from moonrules.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    argv = ["--duplicate", "--bots", "basic,random", "--deals", "20", "--workers", "1"]
    done = subprocess.run(
        [sys.executable, "-c", code, "match", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("20 deals of standard")
    progress = [x for x in done.stderr.splitlines() if x.startswith("match: ")]
    assert progress and progress[-1].startswith("match: 60/60 hands (100%)")
