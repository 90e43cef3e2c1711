"""Ratings: openskill's Plackett-Luce folded over the event log, held to openskill applied by
hand, one game at a time; ties as this version of openskill rates them (what the ratings rely
on), the order of the log, substitutes left out, bots flagged, the command line's forms and
its refusals, openskill missing."""

from __future__ import annotations

import ast
import copy
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from tournament_support import SIX_BOTS

from moonrules.cli.main import main
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import fold, write_log
from moonrules.tournament.ratings import (
    PARAMETERS,
    PROVISIONAL_SIGMA,
    Game,
    Rating,
    Ratings,
    elo,
    game_of,
    games,
    new_ratings,
    ratings,
    update,
)
from moonrules.tournament.run import run_event

ROOT = Path(__file__).resolve().parents[1]
MU, SIGMA = PARAMETERS["mu"], PARAMETERS["sigma"]

THREE = SIX_BOTS

PAIRS = """\
name = "Pairs"
format = "howell"
rules = "partnership"
seed = 5
scoring = "matchpoints"
rounds = 1
boards_per_round = 2
players = [{name = "A1", bot = "basic"}, {name = "A2", bot = "basic"},
           {name = "B1", bot = "random"}, {name = "B2", bot = "random"}]
pairs = [["A1", "A2"], ["B1", "B2"]]
"""

Log = list[dict[str, Any]]


@pytest.fixture(scope="module")
def three() -> Log:
    return list(run_event(parse_tournament(THREE)).entries)


@pytest.fixture(scope="module")
def pairs() -> Log:
    return list(run_event(parse_tournament(PAIRS)).entries)


def model() -> PlackettLuce:
    return PlackettLuce(**PARAMETERS)  # margin 0, no balance, sigma not limited: the defaults


def by_hand(log: Log) -> dict[str, tuple[float, float, int]]:
    """openskill applied directly, one result at a time in the log's order: teams of the
    seats of each position, ranked by points (lower rank better, ties shared), a
    substitute's seat a fresh rating at the prior and never kept."""
    m = model()
    state = fold(log)
    subs = {by for _, _, _, by in state.substitutes}
    got: dict[str, tuple[float, float, int]] = {}
    for x in state.results:
        k = len(x.points)
        teams = [[n for s, n in enumerate(x.players) if s % k == p] for p in range(k)]
        ranks = [float(sorted(x.points, reverse=True).index(p)) for p in x.points]
        prior = [
            [m.rating(*got[n][:2]) if n in got and n not in subs else m.rating() for n in t]
            for t in teams
        ]
        for team, rated in zip(teams, m.rate(prior, ranks=ranks), strict=True):
            for n, r in zip(team, rated, strict=True):
                if n not in subs:
                    got[n] = (r.mu, r.sigma, got.get(n, (0, 0, 0))[2] + 1)
    return got


def table(r: Ratings) -> dict[str, tuple[float, float, int]]:
    return {x.name: (x.mu, x.sigma, x.games) for x in r.players}


# ---------------------------------------------------------------------------
# openskill's ties, as relied on (openskill 6.2.0; its tie handling has open issues)


def test_openskill_ties_as_the_ratings_rely_on_them() -> None:
    m = model()
    r = m.rating

    def rate(teams: list[list[Any]], ranks: list[float]) -> list[tuple[float, float]]:
        return [(p.mu, p.sigma) for t in m.rate(teams, ranks=ranks) for p in t]

    # two tied for first from equal priors: equal updates, both up, the third down
    a, b, c = rate([[r()], [r()], [r()]], [0, 0, 2])
    assert a == b and a[0] > MU > c[0]
    # two tied for last: equal updates, both down, the winner up
    a, b, c = rate([[r()], [r()], [r()]], [0, 1, 1])
    assert b == c and a[0] > MU > b[0]
    # a sole winner gains more than either of two tied for first
    assert (
        rate([[r()], [r()], [r()]], [0, 1, 2])[0][0] > rate([[r()], [r()], [r()]], [0, 0, 2])[0][0]
    )
    # all tied, and a tie of two sides, from equal priors: nobody's mu moves, sigma shrinks
    for teams, ranks in (([[r()], [r()], [r()]], [0, 0, 0]), ([[r(), r()], [r(), r()]], [0, 0])):
        for mu, sigma in rate(teams, ranks):
            assert mu == MU and sigma < SIGMA
    # the tied teams' order in the list does not matter
    x = rate([[r(30, 5)], [r(20, 6)], [r()]], [0, 0, 2])
    y = rate([[r()], [r(20, 6)], [r(30, 5)]], [2, 0, 0])
    assert x == [y[2], y[1], y[0]]


def test_a_tied_game_gives_tied_players_the_same_rating() -> None:
    assert Game((("a",), ("b",), ("c",)), (5, 5, 2)).ranks == (0, 0, 2)
    assert Game((("a",), ("b",), ("c",)), (3, -2, -2)).ranks == (0, 1, 1)
    assert Game((("a", "c"), ("b", "d")), (0, 0)).ranks == (0, 0)
    r = update(new_ratings(), Game((("a",), ("b",), ("c",)), (4, 4, -4)))
    a, b, c = (r.rating(n) for n in "abc")
    assert a is not None and b is not None and c is not None
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and a.mu > MU > c.mu
    drawn = update(new_ratings(), Game((("a", "c"), ("b", "d")), (0, 0)))
    assert {x.mu for x in drawn.players} == {MU}


# ---------------------------------------------------------------------------
# The fold over the log


def test_the_ratings_are_openskill_applied_game_by_game_in_the_logs_order(three: Log) -> None:
    r = ratings(three)
    assert table(r) == by_hand(three)
    assert r.games == 8 and len(r.players) == 6
    assert r.model == "openskill 6.2.0 PlackettLuce"
    assert all(x.model == r.model and x.games == 4 for x in r.players)
    # each game: the top scorer's mu rises, the bottom scorer's falls
    before = new_ratings()
    for game in games(fold(three)):
        after = update(before, game)
        pts = [p for p in game.points]
        top = game.teams[pts.index(max(pts))][0]
        low = game.teams[pts.index(min(pts))][0]
        old = {n: (before.rating(n) or Rating(n, MU, SIGMA, 0, "")).mu for n in (top, low)}
        if pts.count(max(pts)) == 1:
            assert after.rating(top).mu > old[top]  # type: ignore[union-attr]
        if pts.count(min(pts)) == 1:
            assert after.rating(low).mu < old[low]  # type: ignore[union-attr]
        before = after


def test_recomputed_from_the_log_equals_updated_entry_by_entry(three: Log) -> None:
    """The ratings of each prefix of the log are those of the prefix before it, updated by
    the new entry's game (or unchanged, for an entry that is not a result)."""
    previous = None
    for k in range(1, len(three) + 1):
        now = ratings(three[:k])
        if previous is not None:
            entry = three[k - 1]
            if entry["type"] == "result":
                state = fold(three[:k])
                assert now == update(previous, game_of(state, state.results[-1]))
            else:
                assert now == previous
        previous = now
    assert previous == ratings(fold(three))


def test_the_order_of_the_results_in_the_log_counts(three: Log) -> None:
    """Two results of one table (the same three players) swapped: both logs fold, the
    ratings differ, and each is openskill applied in its own order."""
    at = [k for k, e in enumerate(three) if e["type"] == "result" and e["table"] == 1]
    i, j = at[0], at[1]
    swapped = list(three)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert ratings(swapped) != ratings(three)
    assert table(ratings(swapped)) == by_hand(swapped)


def test_sigma_shrinks_with_games_and_provisional_marks_it(three: Log) -> None:
    state = fold(three)
    before = new_ratings()
    for game in games(state):
        after = update(before, game)
        for team in game.teams:
            for n in team:
                old = before.rating(n)
                new = after.rating(n)
                assert new is not None
                assert new.sigma < (old.sigma if old else SIGMA)
        before = after
    assert all(x.provisional for x in before.players)  # 4 games each
    assert Rating("x", MU, PROVISIONAL_SIGMA, 30, "m").provisional is False
    assert Rating("x", MU, PROVISIONAL_SIGMA + 1e-9, 30, "m").provisional is True


def test_the_elo_like_number() -> None:
    assert elo(MU, SIGMA) == 1000  # a newcomer
    assert elo(30.0, 2.0) == 1000 + 30 * 24
    x = Rating("x", 31.0, 3.0, 40, "m")
    assert x.elo == 1660 and x.ordinal == 22.0 and not x.provisional


def test_partnerships_are_two_teams_of_two(pairs: Log) -> None:
    state = fold(pairs)
    game = game_of(state, state.results[0])
    assert game.teams == (("B1", "B2"), ("A1", "A2"))
    r = ratings(pairs)
    assert table(r) == by_hand(pairs)
    one = update(new_ratings(), game)
    side = [[one.rating(n) for n in team] for team in game.teams]
    for a, b in side:
        assert a is not None and b is not None and (a.mu, a.sigma) == (b.mu, b.sigma)
    if game.points[0] != game.points[1]:
        winner = 0 if game.points[0] > game.points[1] else 1
        assert side[winner][0].mu > MU > side[1 - winner][0].mu  # type: ignore[union-attr]


def _with_substitute(log: Log) -> Log:
    """``log`` with a person substituting for B1 from round 2 (the records renamed)."""
    out = copy.deepcopy(log)
    at = next(k for k, e in enumerate(out) if e["type"] == "seating" and e["round"] == 2)
    action = {
        "type": "action",
        "action": "substitute",
        "round": 2,
        "entry": "B1",
        "player": "B1",
        "substitute": {"name": "Sam"},
        "reason": "B1 left at the break",
    }
    out.insert(at, action)
    for e in out:
        if e["type"] == "result" and e["round"] == 2:
            e["record"]["players"] = ["Sam" if n == "B1" else n for n in e["record"]["players"]]
    return out


def test_substitutes_are_left_out_and_the_others_still_rated(three: Log) -> None:
    log = _with_substitute(three)
    state = fold(log)
    r = ratings(log)
    assert r.rating("Sam") is None and r.substitutes == ("Sam",)
    b1 = r.rating("B1")
    assert b1 is not None and b1.games == 2  # round 1 only
    assert table(r) == by_hand(log)
    assert r.games == 8 and sum(x.games for x in r.players) == 8 * 3 - 2
    # the stand-in is at the prior in each game: B1's rating is not used in round 2
    sub_games = [g for g in games(state) if g.substitutes]
    assert len(sub_games) == 2 and all(g.substitutes == ("Sam",) for g in sub_games)
    assert not any(g.bots and "Sam" in dict(g.bots) for g in sub_games)


def test_bots_are_rated_and_flagged_people_are_not(three: Log) -> None:
    r = ratings(three)
    assert {x.name: x.bot for x in r.players} == {
        "R1": "random",
        "R2": "random",
        "R3": "random",
        "B1": "basic",
        "B2": "basic",
        "B3": "basic",
    }
    people = copy.deepcopy(three)
    for entry in people[0]["entries"]:
        for p in entry["players"]:
            if p["name"] == "R1":
                del p["bot"]
    mixed = ratings(people)
    assert mixed.rating("R1").bot is None  # type: ignore[union-attr]
    assert table(mixed) == table(r)  # flagged or not, rated alike


# ---------------------------------------------------------------------------
# Hypothesis: made-up games among a few players

NAMES = ("a", "b", "c", "d", "e")


@st.composite
def three_player_games(draw: st.DrawFn) -> Game:
    seats = draw(st.permutations(NAMES))[:3]
    points = draw(st.tuples(*[st.integers(-8, 8)] * 3))
    return Game(tuple((n,) for n in seats), points)


@given(st.lists(three_player_games(), max_size=12), st.integers(0, 12))
def test_folding_in_two_parts_is_folding_at_once(played: list[Game], cut: int) -> None:
    whole = new_ratings()
    for g in played:
        whole = update(whole, g)
    part = new_ratings()
    for g in played[:cut]:
        part = update(part, g)
    for g in played[cut:]:
        part = update(part, g)
    assert part == whole
    assert sum(x.games for x in whole.players) == 3 * len(played)


@given(st.lists(three_player_games(), min_size=1, max_size=12))
def test_sole_winners_rise_sole_losers_fall_sigma_shrinks(played: list[Game]) -> None:
    r = new_ratings()
    for g in played:
        after = update(r, g)
        for (n,), p in zip(g.teams, g.points, strict=True):
            old = r.rating(n) or Rating(n, MU, SIGMA, 0, "")
            new = after.rating(n)
            assert new is not None and new.sigma < old.sigma
            if g.points.count(p) == 1 and p == max(g.points):
                assert new.mu > old.mu
            if g.points.count(p) == 1 and p == min(g.points):
                assert new.mu < old.mu
        tied = [n for (n,), p in zip(g.teams, g.points, strict=True) if g.points.count(p) > 1]
        if len(tied) >= 2 and all(r.rating(n) is None for n in tied):
            got = [(after.rating(n).mu, after.rating(n).sigma) for n in tied]  # type: ignore[union-attr]
            # equal priors, tied: equal updates (to the last bits of the floating point: the
            # model sums the same terms in the teams' order, 23.53124869749965 against
            # 23.531248697499652 for two tied first)
            for mu, sigma in got[1:]:
                assert math.isclose(mu, got[0][0], rel_tol=1e-12)
                assert math.isclose(sigma, got[0][1], rel_tol=1e-12)
        r = after


# ---------------------------------------------------------------------------
# The command line


def test_ratings_command_forms(
    three: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "event.jsonl"
    write_log(f, three)
    assert main(["tournament", "ratings", "--log", str(f), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads(json.dumps(ratings(three).to_json()))
    assert [x["player"] for x in got["ratings"]] == [x.name for x in ratings(three).ranked()]
    assert got["model"]["name"] == "openskill 6.2.0 PlackettLuce" and got["games"] == 8
    assert main(["tournament", "ratings", "--log", str(f), "--csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "rank,player,rating,provisional,mu,sigma,games,bot" and len(rows) == 7
    first = rows[1].split(",")
    best = ratings(three).ranked()[0]
    assert first[1] == best.name and float(first[4]) == best.mu and first[3] == "true"
    assert main(["tournament", "ratings", "--log", str(f)]) == 0
    text = capsys.readouterr().out
    assert "8 game(s) rated; openskill 6.2.0 PlackettLuce" in text
    assert "provisional; bot (basic)" in text and "1000 + 30 * (mu - 3 * sigma)" in text


def test_the_same_log_gives_the_same_ratings_in_another_process(three: Log, tmp_path: Path) -> None:
    f = tmp_path / "event.jsonl"
    write_log(f, three)
    outs = [
        subprocess.run(
            [sys.executable, "-m", "moonrules", "tournament", "ratings", "--log", str(f), "--json"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2")
    ]
    assert outs[0] == outs[1]
    assert json.loads(outs[0]) == json.loads(json.dumps(ratings(three).to_json()))


def test_bad_input_is_one_line_exit_2(
    three: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "result"}\n', encoding="utf-8")
    assert main(["tournament", "ratings", "--log", str(bad)]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and "line 1" in err and err.startswith("moonrules tournament ratings")
    )
    assert main(["tournament", "ratings", "--log", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(SystemExit) as e:
        main(["tournament", "ratings", "--log", str(bad), "--json", "--csv"])
    assert e.value.code == 2
    capsys.readouterr()
    f = tmp_path / "event.jsonl"
    write_log(f, three)
    with pytest.raises(SystemExit) as e:
        main(["tournament", "ratings", "--log", str(f), "--event", "x"])
    assert e.value.code == 2 and "--event goes with --db" in capsys.readouterr().err
    with pytest.raises(TournamentError):
        ratings(three[1:])


def test_without_openskill_one_line_names_the_extra(
    three: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "event.jsonl"
    write_log(f, three)
    for name in [m for m in sys.modules if m == "openskill" or m.startswith("openskill.")]:
        monkeypatch.setitem(sys.modules, name, None)  # import openskill... raises ImportError
    monkeypatch.setitem(sys.modules, "openskill", None)
    assert main(["tournament", "ratings", "--log", str(f)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "moonrules tournament ratings: error: ratings need openskill, which is not installed: "
        "pip install 'moonrules[ratings]' (in a checkout: pip install -e '.[ratings]')"
    ]
    # the standings do not need it
    assert main(["tournament", "standings", "--log", str(f)]) == 0


def test_openskill_is_imported_only_by_the_ratings_module() -> None:
    """The ratings extra's library is imported in moonrules.tournament.ratings alone (inside
    a function: importing the module, and the command line, does not need it)."""
    found = []
    for path in sorted((ROOT / "moonrules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            if any(n.split(".")[0] == "openskill" for n in names):
                found.append(path.relative_to(ROOT).as_posix())
    assert set(found) == {"moonrules/tournament/ratings.py"}
    code = (
        "import sys; sys.modules['openskill'] = None; "
        "import moonrules.tournament.ratings, moonrules.cli.tournament; print('ok')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "ok"


def test_ratings_from_the_database_equal_those_of_the_log(
    three: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.toml"
    event.write_text(THREE, encoding="utf-8")
    db = str(tmp_path / "events.sqlite3")
    assert main(["tournament", "run", str(event), "--db", db]) == 0
    capsys.readouterr()
    assert main(["tournament", "ratings", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(ratings(three).to_json()))
    assert main(["tournament", "ratings", "--db", db, "--event", "nope"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
