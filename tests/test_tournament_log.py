"""The event log, scoring and all-bot runs: a small all-bot event played once for the module,
its log reproducible and checked, its duplicate comparison the same as ``match --duplicate``'s
on the same deals, director actions and refusals, and Neuberg's formula by hand."""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from moonrules.bots.match import DuplicateHand, arrangements, duplicate_summary, run_duplicate
from moonrules.cli.main import main
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import append, dumps_entry, fold, read_log, write_log
from moonrules.tournament.run import run_event
from moonrules.tournament.scoring import board_scores, duplicate_hands, neuberg, standings

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "spec" / "schema"

EVENT = """\
name = "Six bots"
format = "three-seat"
seed = 11
scoring = "{scoring}"
rounds = 2
boards_per_round = 2
players = [
  {{name = "R1", bot = "random"}}, {{name = "R2", bot = "random"}}, {{name = "R3", bot = "random"}},
  {{name = "B1", bot = "basic"}}, {{name = "B2", bot = "basic"}}, {{name = "B3", bot = "basic"}},
]

[[movement]]
tables = [["R1", "B1", "R2"], ["B2", "R3", "B3"]]

[[movement]]
tables = [["B3", "R2", "B1"], ["R3", "B2", "R1"]]
"""

Log = list[dict[str, Any]]


@pytest.fixture(scope="module")
def played() -> tuple[Log, Log]:
    """The event played with matchpoints and with points (the same games)."""
    mp = run_event(parse_tournament(EVENT.format(scoring="matchpoints")))
    pts = run_event(parse_tournament(EVENT.format(scoring="points")))
    return list(mp.entries), list(pts.entries)


def _validator(name: str) -> Draft202012Validator:
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=Registry().with_resources(resources))


def test_the_log_fits_its_schema_and_every_record_checks(
    played: tuple[Log, Log], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, _ = played
    v = _validator("event-log")
    for entry in log:
        errors = [e.message for e in v.iter_errors(entry)]
        assert not errors, errors
    results = [e for e in log if e["type"] == "result"]
    assert len(results) == 2 * 2 * 2  # rounds x tables x boards
    for k, entry in enumerate(results):
        f = tmp_path / f"board{k}.json"
        f.write_text(json.dumps(entry["record"]), encoding="utf-8")
        assert main(["check", str(f)]) == 0, capsys.readouterr().err
        assert len(entry["record"]["hands"]) == 1


def test_the_same_file_gives_the_same_log_byte_for_byte(
    played: tuple[Log, Log], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "event.toml"
    f.write_text(EVENT.format(scoring="matchpoints"), encoding="utf-8")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["tournament", "run", str(f), "--log", str(one)]) == 0
    assert main(["tournament", "run", str(f), "--log", str(two), "--jobs", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert one.read_text(encoding="utf-8").splitlines() == [dumps_entry(e) for e in played[0]]
    capsys.readouterr()
    assert main(["tournament", "standings", "--log", str(one), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["standings"] == standings(played[0]).to_json()["standings"]
    assert main(["tournament", "standings", "--log", str(one), "--csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("rank,entry,field,percentage") and len(rows) == 7


def _kind(name: str) -> str:
    return "random" if name.startswith("R") else "basic"


def test_the_duplicate_comparison_agrees_with_match_duplicate(played: tuple[Log, Log]) -> None:
    """Each table's board is ``match --duplicate``'s deal in that seating, played alike; so
    the per-board, per-seat comparison (points less the seat's mean) is the same computed
    from ``run_duplicate``'s hands, and ``duplicate_summary`` of the event's own hands (from
    its records) is that of ``run_duplicate``'s same hands."""
    _, log = played
    results = [e for e in log if e["type"] == "result"]
    lineups = {tuple(sorted(_kind(n) for n in e["record"]["players"])) for e in results}
    hands: dict[tuple[int, tuple[str, ...]], DuplicateHand] = {}
    for lineup in lineups:
        for h in run_duplicate("standard", list(lineup), 4, seed=11):
            hands[(h.index, h.seats)] = h
    state = fold(log)
    matched: list[DuplicateHand] = []
    ours = duplicate_hands(state)  # worked out from the event's records alone
    assert len(ours) == len(state.results) == 8
    for r, mine in zip(state.results, ours, strict=True):
        seats = tuple(_kind(n) for n in r.players)
        theirs = hands[(r.board - 1, seats)]
        assert theirs.hand.seat_points == r.points
        assert (mine.index, mine.seats, mine.hand) == (theirs.index, theirs.seats, theirs.hand)
        assert mine.arrangement == arrangements("standard", sorted(seats)).index(seats)
        matched.append(theirs)
    for s in board_scores(state):
        same = [h for h in matched if h.index == s.board - 1]
        mean = Fraction(sum(h.hand.seat_points[s.position] for h in same), len(same))
        assert s.points is not None and s.score == s.points - mean
    assert duplicate_summary("standard", ours) == duplicate_summary("standard", matched)
    assert {h.hand.bidder for h in ours} != {-1}  # (hands bid and played, not all thrown in)


def test_standings_are_a_pure_function_of_the_log(played: tuple[Log, Log], tmp_path: Path) -> None:
    log, _ = played
    f = tmp_path / "log.jsonl"
    write_log(f, log)
    again = standings(fold(read_log(f)))
    assert again == standings(log)
    rows = again.rows
    assert [r.rank for r in rows] == list(range(1, 7))
    assert sum(r.matchpoints for r in rows) == sum(r.top for r in rows) / 2  # a zero-sum field
    assert all(r.boards == 4 and r.top == 4 for r in rows)
    for a, b in itertools.pairwise(rows):
        assert a.score >= b.score


# ---------------------------------------------------------------------------
# Refusals: one line, the log unchanged


def _result(log: Log) -> dict[str, Any]:
    return copy.deepcopy(next(e for e in log if e["type"] == "result"))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda e: e.update(table=9), "round 1, table 9, which does not exist"),
        (lambda e: None, "has a result already (given twice)"),
        (lambda e: e.update(board=3), "plays boards [1, 2], not board 3"),
        (lambda e: e["record"].update(players=["x", "y", "z"]), "its players are"),
        (lambda e: e["record"].update(rules="pagat"), "rule set is not the event's"),
        (lambda e: e["record"]["hands"][0]["plays"].pop(), "not finished"),
    ],
)
def test_a_bad_result_is_refused_and_the_log_unchanged(
    played: tuple[Log, Log], tmp_path: Path, change: Any, reason: str
) -> None:
    log, _ = played
    bad = _result(log)
    base = log if "twice" in reason else [e for e in log if e != bad]
    f = tmp_path / "log.jsonl"
    write_log(f, base)
    before = f.read_bytes()
    change(bad)
    with pytest.raises(TournamentError) as e:
        append(f, bad)
    assert reason in str(e.value) and "\n" not in str(e.value), str(e.value)
    assert e.value.line == len(base) + 1
    assert f.read_bytes() == before


def test_a_result_of_another_board_is_refused(played: tuple[Log, Log]) -> None:
    log, _ = played
    head = [e for e in log if e["type"] != "result"][:2]
    first, second = [e for e in log if e["type"] == "result"][:2]
    moved = {**second, "board": first["board"], "table": 2}
    if moved["record"] == first["record"]:  # pragma: no cover
        pytest.skip("the same record")
    with pytest.raises(TournamentError, match=r"its deal is not board 1's|its players are"):
        fold([*head, moved])


def _action(**fields: Any) -> dict[str, Any]:
    return {"type": "action", "reason": "director", **fields}


def test_approval_closes_a_round_until_it_is_reopened(played: tuple[Log, Log]) -> None:
    log, _ = played
    head = log[0]
    seat1 = log[1]
    round1 = [e for e in log if e.get("type") == "result" and e["round"] == 1]
    with pytest.raises(TournamentError, match="cannot be approved: table 1 has no result"):
        fold([head, seat1, _action(action="approve", round=1)])
    approved = [head, seat1, *round1, _action(action="approve", round=1)]
    assert fold(approved).approved == {1}
    adjust = _action(
        action="adjustment",
        round=1,
        board=1,
        entry=seat1["tables"][0]["entries"][0],
        kind="penalty",
        value=25,
    )
    with pytest.raises(TournamentError, match="round 1 is approved: re-open it"):
        fold([*approved, adjust])
    reopened = [*approved, _action(action="reopen", round=1), adjust]
    state = fold(reopened)
    assert state.approved == frozenset() and len(state.adjustments) == 1
    with pytest.raises(TournamentError, match="is not approved"):
        fold([*reopened, _action(action="reopen", round=1)])


def test_director_actions_change_the_standings(played: tuple[Log, Log]) -> None:
    log, _ = played
    head, seat1 = log[0], log[1]
    round1 = [e for e in log if e.get("type") == "result" and e["round"] == 1]
    who = seat1["tables"][0]["entries"][0]
    base = standings([head, seat1, *round1])
    score = {r.entry: r for r in base.rows}
    # average-plus on board 1 replaces the entry's result there by 60% of the top (1)
    plus = standings(
        [
            head,
            seat1,
            *round1,
            _action(action="adjustment", round=1, board=1, entry=who, kind="average-plus"),
        ]
    )
    row = next(r for r in plus.rows if r.entry == who)
    assert row.matchpoints - score[who].matchpoints == Fraction(6, 10) - next(
        s.score
        for s in board_scores(fold([head, seat1, *round1]))
        if s.entry == who and s.board == 1
    )
    assert any("average-plus on board 1" in f for f in row.flags)
    # a penalty of 50% of a top takes half a matchpoint off
    pen = standings(
        [
            head,
            seat1,
            *round1,
            _action(action="adjustment", round=1, board=2, entry=who, kind="penalty", value=50),
        ]
    )
    assert next(r for r in pen.rows if r.entry == who).matchpoints == score[
        who
    ].matchpoints - Fraction(1, 2)


def test_late_entry_withdrawal_and_substitute(played: tuple[Log, Log]) -> None:
    log, _ = played
    head, seat1 = log[0], log[1]
    round1 = [e for e in log if e.get("type") == "result" and e["round"] == 1]
    leaver = seat1["tables"][0]["entries"][0]
    late = {"name": "Lou", "players": [{"name": "Lou", "bot": "basic"}]}
    entries = [
        head,
        seat1,
        *round1,
        _action(action="withdrawal", round=2, entry=leaver),
        _action(action="late-entry", round=2, entry=late, value=45),
        _action(
            action="substitute",
            round=2,
            entry="B1",
            player="B1",
            substitute={"name": "Sub", "bot": "random"},
        ),
    ]
    state = fold(entries)
    assert not state.active(leaver, 2) and state.active("Lou", 2) and not state.active("Lou", 1)
    rows = {r.entry: r for r in standings(state).rows}
    assert rows["Lou"].score == 45 and any("late entry" in f for f in rows["Lou"].flags)
    assert any("withdrew" in f for f in rows[leaver].flags)
    assert any("substitute Sub for B1" in f for f in rows["B1"].flags)
    tables = [[e for e in t["entries"]] for t in seat1["tables"]]
    swapped = [[("Lou" if e == leaver else e) for e in t] for t in tables]
    seating = {
        "type": "seating",
        "round": 2,
        "boards": [3, 4],
        "byes": [],
        "tables": [{"table": k + 1, "entries": t} for k, t in enumerate(swapped)],
    }
    with pytest.raises(TournamentError, match=r"round 2 plays boards \[3, 4\], not \[1, 2\]"):
        fold([*entries, {**seating, "boards": [1, 2]}])
    with pytest.raises(TournamentError, match=f"'{leaver}' does not play in round 2"):
        fold(
            [
                *entries,
                {
                    **seating,
                    "tables": [{"table": k + 1, "entries": t} for k, t in enumerate(tables)],
                },
            ]
        )
    state = fold([*entries, seating])
    table = next(t for t in state.seatings[1].tables if "B1" in t.entries)
    assert "Sub" in state.seat_names(2, table) and "random" in state.seat_bots(2, table)


def test_a_log_must_begin_with_its_event(played: tuple[Log, Log]) -> None:
    log, _ = played
    with pytest.raises(TournamentError, match="begins with its event entry") as e:
        fold(log[1:])
    assert e.value.line == 1
    with pytest.raises(TournamentError, match="a second event entry"):
        fold([log[0], log[0]])
    with pytest.raises(TournamentError, match="seated already"):
        fold([log[0], log[1], log[1]])


def test_a_broken_log_file_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "log.jsonl"
    f.write_text('{"type": "event"}\n{oops\n', encoding="utf-8")
    assert main(["tournament", "standings", "--log", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moonrules tournament standings: error: line 2: not a JSON entry")
    assert err.count("\n") == 1


# ---------------------------------------------------------------------------
# Scoring by hand


def test_neuberg_by_hand() -> None:
    """Neuberg, MP' = (MP + 1/2) * N / n - 1/2, on worked examples."""
    # N = 5 (top 4), played 4 times: the best of the 4 (MP 3) scores 3.5 * 5/4 - 0.5 = 3.875
    assert neuberg(Fraction(3), 4, 5) == Fraction(31, 8)
    # the worst of the 4 (MP 0): 0.5 * 5/4 - 0.5 = 0.125
    assert neuberg(Fraction(0), 4, 5) == Fraction(1, 8)
    # a lone result is an average: 0.5 * 5 - 0.5 = 2 = top / 2
    assert neuberg(Fraction(0), 1, 5) == 2
    # N = 13 (top 12), n = 10, MP 6: 6.5 * 1.3 - 0.5 = 7.95
    assert neuberg(Fraction(6), 10, 13) == Fraction(795, 100)
    # played every time: unchanged
    assert neuberg(Fraction(5, 2), 7, 7) == Fraction(5, 2)
    with pytest.raises(ValueError):
        neuberg(Fraction(0), 0, 3)


def test_a_missing_result_is_scored_by_neuberg(played: tuple[Log, Log]) -> None:
    """Two tables (N = 2, top 1): with one table's result on board 1 missing, each position
    of board 1 has one result, scored (0 + 1/2) * 2/1 - 1/2 = 1/2: an average."""
    log, _ = played
    head, seat1 = log[0], log[1]
    round1 = [e for e in log if e.get("type") == "result" and e["round"] == 1]
    kept = [e for e in round1 if not (e["table"] == 2 and e["board"] == 1)]
    scores = [s for s in board_scores(fold([head, seat1, *kept])) if s.board == 1]
    assert len(scores) == 3 and all(s.score == Fraction(1, 2) and s.top == 1 for s in scores)


def test_a_swiss_event_runs_with_fair_byes() -> None:
    text = """\
format = "swiss"
seed = 3
rounds = 4
boards_per_round = 1
players = [
  {name = "A", bot = "random"}, {name = "B", bot = "random"}, {name = "C", bot = "random"},
  {name = "D", bot = "random"}, {name = "E", bot = "random"},
]
"""
    out = run_event(parse_tournament(text))
    state = fold(out.entries)
    byes = [e for r in state.seatings for e in r.byes]
    assert len(byes) == 8 and len(set(byes[:5])) == 5  # everyone once before anyone twice
    rows = standings(state).rows
    assert rows[0].score >= rows[-1].score and all(r.boards + 0 >= 2 for r in rows)


def test_tables_with_people_are_skipped_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(
        'format = "three-seat"\nrounds = 1\nboards_per_round = 1\n'
        'players = ["Ann", {name = "R", bot = "random"}, {name = "S", bot = "random"}]\n',
        encoding="utf-8",
    )
    out = tmp_path / "log.jsonl"
    assert main(["tournament", "run", str(f), "--log", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Ann is a person" in err and "skipped" in err
    assert [e["type"] for e in read_log(out)] == ["event", "seating"]
