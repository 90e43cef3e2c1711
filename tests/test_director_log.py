"""Forbidden pairings (the tournament file, the planners, the log's ``forbid`` action), the
seating of a round as the log stands (:func:`next_round`), the director's secret kept by the
store, and the invariant of every director's action: a refused one changes nothing."""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: F401

from moonrules.cli.main import main
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import append, fold, next_round, read_log, seating_entry, write_log
from moonrules.tournament.movement import (
    MovementError,
    check_movement,
    howell,
    mitchell,
    replan_round,
    three_seat,
)
from moonrules.tournament.run import run_event
from moonrules.tournament.store import open_store

NINE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]

EVENT = """\
name = "Six bots"
format = "three-seat"
seed = 4
rounds = 3
boards_per_round = 1
players = [
  {name = "R1", bot = "random"}, {name = "R2", bot = "random"}, {name = "R3", bot = "random"},
  {name = "R4", bot = "random"}, {name = "R5", bot = "random"}, {name = "R6", bot = "random"},
]
forbidden = [["R1", "R2"]]
"""

Log = list[dict[str, Any]]


def _met(movement: Any) -> set[frozenset[str]]:
    return {
        frozenset(p)
        for rnd in movement.rounds
        for t in rnd.tables
        for p in itertools.combinations(t.entries, 2)
    }


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(NINE), st.sampled_from(NINE)).filter(lambda p: p[0] != p[1]),
        max_size=3,
    ),
    st.integers(1, 4),
    st.integers(0, 50),
)
def test_the_three_seat_planner_keeps_forbidden_pairs_apart(
    forbidden: list[tuple[str, str]], rounds: int, seed: int
) -> None:
    m = three_seat(NINE, rounds, 1, seed, forbidden)
    check_movement(m, NINE, forbidden)  # refuses a forbidden pair at a table
    assert not _met(m) & {frozenset(p) for p in forbidden}
    assert three_seat(NINE, rounds, 1, seed, forbidden) == m  # deterministic


def test_no_forbidden_pairs_is_the_movement_of_before() -> None:
    assert three_seat(NINE, 3, 2, 7) == three_seat(NINE, 3, 2, 7, ())
    pairs = ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert mitchell(pairs, 3, 1, 2) == mitchell(pairs, 3, 1, 2, ())
    kept = mitchell(pairs, 3, 1, 2, [("P1", "P4"), ("P2", "P5")])
    assert not _met(kept) & {frozenset(("P1", "P4")), frozenset(("P2", "P5"))}
    assert not _met(howell(pairs, 3, 1, 2, [("P1", "P2")])) & {frozenset(("P1", "P2"))}


def test_impossible_forbidden_pairs_are_refused_with_the_line_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(MovementError, match="must not share a table"):
        howell(["P1", "P2", "P3", "P4"], 3, 1, 0, [("P1", "P2")])  # everyone meets everyone
    f = tmp_path / "t.toml"
    f.write_text(
        'name = "x"\nformat = "three-seat"\nrounds = 1\nboards_per_round = 1\n'
        'players = ["A", "B", "C"]\n'
        'forbidden = [["A", "B"]]\n'
    )
    assert main(["tournament", "plan", str(f)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line 6:" in err and "'A' and 'B' must not share" in err
    for bad, why in [
        ('[["A", "Z"]]', "'Z' is not an entry or a player"),
        ('[["A", "A"]]', "its own table"),
        ('[["A", "B"], ["B", "A"]]', "forbidden twice"),
        ('[["A"]]', "two names"),
    ]:
        rest = _rest(bad)
        f.write_text(f.read_text().splitlines()[0] + "\n" + rest)
        assert main(["tournament", "plan", str(f)]) == 2
        err = capsys.readouterr().err.strip()
        assert why in err and "line 6" in err and "\n" not in err, err


def _rest(forbidden: str) -> str:
    return (
        'format = "three-seat"\nrounds = 1\nboards_per_round = 1\n'
        'players = ["A", "B", "C", "D", "E", "F"]\n'
        f"forbidden = {forbidden}\n"
    )


def test_plan_prints_the_pairs_kept_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(EVENT)
    assert main(["tournament", "plan", str(f)]) == 0
    out = capsys.readouterr().out
    assert "kept apart (never at one table): R1 and R2" in out
    for line in out.splitlines():
        if line.strip().startswith("table"):
            assert not ("R1" in line and "R2" in line), line


@pytest.fixture(scope="module")
def log() -> Log:
    """The event's header, round 1 seated and played (round 2 and 3 not yet seated)."""
    entries = list(run_event(parse_tournament(EVENT)).entries)
    first = [e for e in entries if e["type"] == "event" or e.get("round") == 1]
    return first


def test_the_header_carries_the_forbidden_pairs(log: Log) -> None:
    assert log[0]["forbidden"] == [["R1", "R2"]]
    state = fold(log)
    assert state.forbidden == (("R1", "R2", 1),)
    plain = parse_tournament(EVENT.replace('forbidden = [["R1", "R2"]]\n', ""))
    assert "forbidden" not in run_event(plain).entries[0]  # logs of before: the same bytes


def _forbid(rnd: int, a: str, b: str, reason: str = "they are related") -> dict[str, Any]:
    return {
        "type": "action",
        "action": "forbid",
        "round": rnd,
        "entries": [a, b],
        "reason": reason,
    }


def test_a_seating_with_a_forbidden_pair_is_refused(log: Log) -> None:
    state = fold(log)
    planned = state.movement.rounds[1]
    together = next(t for t in planned.tables)
    a, b = together.entries[0], together.entries[1]
    after = [*log, _forbid(2, a, b)]
    with pytest.raises(TournamentError, match=f"'{a}' and '{b}' must not share a table"):
        fold([*after, seating_entry(planned)])
    # the round as the log stands keeps them apart and seats everybody
    rnd = next_round(fold(after), 2)
    assert all(not {a, b} <= set(t.entries) for t in rnd.tables)
    assert sorted(e for t in rnd.tables for e in t.entries) == sorted(state.entry_names)
    fold([*after, seating_entry(rnd)])  # accepted
    # without the action, the movement's round is kept as it is
    assert next_round(state, 2) == planned


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (_forbid(1, "R3", "R4"), "round 1 is seated already"),
        (_forbid(2, "R3", "R9"), "'R9' is not an entry"),
        (_forbid(2, "R3", "R3"), "'R3' twice"),
        (_forbid(2, "R2", "R1"), "kept apart already"),
        (_forbid(2, "R3", "R4", reason=" "), "a forbid needs a reason"),
        (_forbid(9, "R3", "R4"), "the event has 3 rounds"),
        ({**_forbid(2, "R3", "R4"), "entries": "R3"}, "expected two entry names"),
    ],
)
def test_a_refused_forbid_leaves_the_log_file_unchanged(
    log: Log, tmp_path: Path, action: dict[str, Any], why: str
) -> None:
    path = tmp_path / "event.jsonl"
    write_log(path, log)
    before = path.read_bytes()
    with pytest.raises(TournamentError, match=why):
        append(path, action)
    assert path.read_bytes() == before


def test_an_approved_round_is_reopened_before_any_action_on_it(log: Log) -> None:
    approve = {"type": "action", "action": "approve", "round": 1, "reason": "checked"}
    reopen = {"type": "action", "action": "reopen", "round": 1, "reason": "a correction"}
    with pytest.raises(TournamentError, match="round 1 is approved: re-open it"):
        fold([*log, approve, _forbid(1, "R3", "R4")])
    with pytest.raises(TournamentError, match="round 1 is seated already"):
        fold([*log, approve, reopen, _forbid(1, "R3", "R4")])
    seated = [*log, seating_entry(next_round(fold(log), 2))]
    with pytest.raises(TournamentError, match="round 2 cannot be approved"):
        fold([*seated, {**approve, "round": 2}])  # its boards have no result


def test_late_entries_and_withdrawals_replan_a_round(log: Log) -> None:
    late = [
        {
            "type": "action",
            "action": "late-entry",
            "round": 2,
            "entry": {"name": name, "players": [{"name": name, "bot": "random"}]},
            "value": 50,
            "reason": "came late",
        }
        for name in ("L1", "L2", "L3")
    ]
    state = fold([*log, *late])
    rnd = next_round(state, 2)
    assert sorted(e for t in rnd.tables for e in t.entries) == sorted(state.entry_names)
    assert all(not {"R1", "R2"} <= set(t.entries) for t in rnd.tables)
    fold([*log, *late, seating_entry(rnd)])
    one = late[:1]
    with pytest.raises(MovementError, match="7 players do not fill tables of three"):
        next_round(fold([*log, *one]), 2)
    with pytest.raises(MovementError, match="round 1 is seated already"):
        next_round(state, 1)


def test_a_pair_round_is_replanned_by_swapping_sides() -> None:
    pairs = ["P1", "P2", "P3", "P4"]
    m = mitchell(pairs, 2, 1, 0)
    rnd = m.rounds[0]
    a, b = rnd.tables[0].entries
    out = replan_round("mitchell", 1, rnd.boards, pairs, [], 0, [(a, b)], rnd)
    assert out != rnd and all(not {a, b} <= set(t.entries) for t in out.tables)
    assert [t.entries[0] for t in out.tables] == [t.entries[0] for t in rnd.tables]  # side 0 stays


ACTIONS = st.one_of(
    st.builds(
        lambda r, a, b, why: _forbid(r, a, b, why),
        st.integers(0, 4),
        st.sampled_from(["R1", "R2", "R3", "R4", "R5", "R6", "Q"]),
        st.sampled_from(["R1", "R2", "R3", "R4", "R5", "R6", "Q"]),
        st.sampled_from(["", "why", "  "]),
    ),
    st.builds(
        lambda kind, r, who, board, value: {
            "type": "action",
            "action": "adjustment",
            "round": r,
            "entry": who,
            "board": board,
            "kind": kind,
            "value": value,
            "reason": "r",
        },
        st.sampled_from(["average-plus", "penalty", "60/40", "bogus"]),
        st.integers(0, 3),
        st.sampled_from(["R1", "R4", "Q"]),
        st.integers(0, 3),
        st.one_of(st.none(), st.integers(-2, 5)),
    ),
    st.builds(
        lambda kind, r: {"type": "action", "action": kind, "round": r, "reason": "r"},
        st.sampled_from(["approve", "reopen", "withdrawal", "nonsense"]),
        st.integers(0, 4),
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(ACTIONS, max_size=8))
def test_refused_actions_change_nothing(log: Log, actions: list[dict[str, Any]]) -> None:
    """Any sequence of actions: each refused one leaves the state as it was, and the state
    is the fold of the accepted ones alone."""
    accepted: Log = []
    state = fold(log)
    for a in actions:
        try:
            after = fold([*log, *accepted, a])
        except TournamentError as e:
            assert "\n" not in str(e)
            assert fold([*log, *accepted]) == state
            continue
        accepted.append(a)
        state = after
    assert fold([*log, *accepted]) == state


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind: a SQLite path, a ``postgresql://`` URL."""
    if request.param == "sqlite":
        return str(tmp_path / "events.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_the_stores_director_secret(log: Log, db: str) -> None:
    with open_store(db) as store:
        made = store.create("six", log)
        other = store.create("other", log[:1])
        assert made.director is not None and other.director is not None
        assert len(made.director) >= 40 and made.director != other.director
        assert store.director_allowed("six", made.director)
        assert not store.director_allowed("six", other.director)  # another event's secret
        assert not store.director_allowed("six", made.director + "x")
        assert not store.director_allowed("nope", made.director)
        assert not store.director_allowed("../six", made.director)
        again = store.new_director_secret("six")
        assert store.director_allowed("six", again)
        assert not store.director_allowed("six", made.director)  # the old one stops working
        kept = store._director("six")  # what the database holds: the hash alone
        assert kept == hashlib.sha256(again.encode()).hexdigest()
    if not db.startswith("postgresql"):
        raw = Path(db).read_bytes()
        assert again.encode() not in raw and made.director.encode() not in raw


def test_director_link_prints_a_new_link(
    log: Log, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "e.sqlite3"
    with open_store(db) as store:
        first = store.create("six", log).director
    argv = ["tournament", "director-link", "--db", str(db), "--table", "http://t.example:8/"]
    assert main(argv) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://t.example:8/events/six/director/")
    secret = link.rsplit("/", 1)[1]
    with open_store(db) as store:
        assert store.director_allowed("six", secret)
        assert first is not None and not store.director_allowed("six", first)
    assert main(["tournament", "director-link", "--db", str(db), "--event", "nope"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no event 'nope'" in err and "\n" not in err


def test_a_log_read_back_keeps_its_forbid(log: Log, tmp_path: Path) -> None:
    path = tmp_path / "event.jsonl"
    write_log(path, [*log, _forbid(2, "R3", "R4")])
    assert fold(read_log(path)).forbidden_in(2) == (("R1", "R2"), ("R3", "R4"))
    assert fold(read_log(path)).forbidden_in(1) == (("R1", "R2"),)


def test_a_substitute_who_played_is_flagged_and_never_rated(log: Log) -> None:
    """A substitute (a bot) plays round 2 for R3: the standings flag R3, the ratings rate
    every other player of the games and never the substitute."""
    pytest.importorskip("openskill")
    from moonrules.tournament.ratings import ratings
    from moonrules.tournament.run import BoardJob, play_board
    from moonrules.tournament.scoring import standings

    t = parse_tournament(EVENT)
    sub = {
        "type": "action",
        "action": "substitute",
        "round": 2,
        "entry": "R3",
        "player": "R3",
        "substitute": {"name": "Stand-in", "bot": "basic"},
        "reason": "R3 was called away",
    }
    entries = [*log, sub]
    rnd = next_round(fold(entries), 2)
    entries.append(seating_entry(rnd))
    state = fold(entries)
    for table in rnd.tables:
        bots = tuple(b or "basic" for b in state.seat_bots(2, table))
        names = state.seat_names(2, table)
        entries.append(play_board(BoardJob(t.rules, t.seed, 2, table.number, 2, bots, names)))
    state = fold(entries)
    assert any("Stand-in" in r.players for r in state.results if r.round == 2)
    row = next(r for r in standings(state).rows if r.entry == "R3")
    assert any("substitute" in f for f in row.flags), row.flags
    rated = ratings(state)
    rated_names = {p.name for p in rated.players}
    assert "Stand-in" not in rated_names and {"R1", "R2", "R4"} <= rated_names
    assert rated.substitutes == ("Stand-in",)


def test_run_db_prints_the_director_link_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(EVENT)
    db = tmp_path / "e.sqlite3"
    assert main(["tournament", "run", str(f), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if x.startswith("director's console")]
    found = re.search(r"/events/six-bots/director/([A-Za-z0-9_-]+) ", line)
    assert found is not None, line
    with open_store(db) as store:
        assert store.director_allowed("six-bots", found.group(1))


def test_the_forbidden_pairs_fit_the_schemas(log: Log) -> None:
    """The file's ``forbidden`` (read as TOML) and the log's header and forbid action."""
    import json
    import tomllib

    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
    from referencing import Registry, Resource

    schemas = Path(__file__).resolve().parents[1] / "spec" / "schema"
    resources = []
    for path in sorted(schemas.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)

    def errors(name: str, value: Any) -> list[str]:
        schema = json.loads((schemas / f"{name}.schema.json").read_text(encoding="utf-8"))
        v = Draft202012Validator(schema, registry=registry)
        return [e.message for e in v.iter_errors(value)]

    assert errors("tournament", tomllib.loads(EVENT)) == []
    assert errors("tournament", {**tomllib.loads(EVENT), "forbidden": [["R1"]]}) != []
    for entry in [*log, _forbid(2, "R3", "R4")]:
        assert errors("event-log", entry) == [], entry
    assert errors("event-log", {**_forbid(2, "R3", "R4"), "entries": ["R3"]}) != []
