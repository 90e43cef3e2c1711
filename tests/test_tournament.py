"""Tournament files and movements: the invariants of every movement, exhaustively for small
numbers of players and with Hypothesis beyond, and every refusal of a file in one line."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonrules.cli.main import main
from moonrules.tournament.designs import kirkman
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.movement import (
    Movement,
    MovementError,
    Round,
    check_movement,
    howell,
    mitchell,
    swiss_round,
    three_seat,
)

ROOT = Path(__file__).resolve().parents[1]


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def assert_sound(m: Movement, entries: list[str], places: int) -> None:
    """Every round seats each entry once (or as a bye), every table in full, and nobody
    plays a board twice."""
    played: dict[str, set[int]] = {e: set() for e in entries}
    for rnd in m.rounds:
        seated = [e for t in rnd.tables for e in t.entries] + list(rnd.byes)
        assert sorted(seated) == sorted(entries)
        assert all(len(t.entries) == places for t in rnd.tables)
        for t in rnd.tables:
            for e in t.entries:
                assert not played[e] & set(rnd.boards)
                played[e] |= set(rnd.boards)
    check_movement(m, entries)


def meetings(m: Movement) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(p)
        for r in m.rounds
        for t in r.tables
        for p in itertools.combinations(t.entries, 2)
    )


def held(m: Movement, places: int) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for r in m.rounds:
        for t in r.tables:
            for s, e in enumerate(t.entries):
                out.setdefault(e, [0] * places)[s] += 1
    return out


# ---------------------------------------------------------------------------
# Designs


@pytest.mark.parametrize("n", [3, 9, 15, 27])
def test_kirkman_designs_meet_every_pair_once(n: int) -> None:
    design = kirkman(n)
    assert design is not None and len(design) == (n - 1) // 2
    for rnd in design:
        assert sorted(x for t in rnd for x in t) == list(range(n))
    pairs = Counter(
        frozenset(p) for rnd in design for t in rnd for p in itertools.combinations(t, 2)
    )
    assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}


# ---------------------------------------------------------------------------
# Three-seat duplicate: exhaustively for small numbers


@pytest.mark.parametrize("n", [3, 6, 9, 12, 15])
@pytest.mark.parametrize("rounds", range(1, 7))
def test_three_seat_invariants_for_small_fields(n: int, rounds: int) -> None:
    m = three_seat(names(n), rounds, 2, seed=n + rounds)
    assert_sound(m, names(n), 3)
    assert all(r.boards == (2 * r.number - 1, 2 * r.number) for r in m.rounds)
    spread = [max(h) - min(h) for h in held(m, 3).values()]
    assert max(spread) <= 1
    assert (max(spread) == 0) == (rounds % 3 == 0)  # balanced exactly when numbers allow
    check = check_movement(m, names(n))
    assert check.balanced == (rounds % 3 == 0)
    if rounds % 3:
        assert any("not a multiple of 3" in note for note in check.notes)
    if kirkman(n) is not None and rounds <= (n - 1) // 2:
        assert max(meetings(m).values()) == 1  # the design: nobody meets anybody twice


def _all_partitions(items: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    if not items:
        return [[]]
    a, rest = items[0], items[1:]
    out = []
    for i, j in itertools.combinations(range(len(rest)), 2):
        left = tuple(x for k, x in enumerate(rest) if k not in (i, j))
        out.extend([(a, rest[i], rest[j]), *p] for p in _all_partitions(left))
    return out


@pytest.mark.parametrize("n", [6, 12])
def test_each_round_repeats_table_mates_as_little_as_possible(n: int) -> None:
    """Without a design, each round is the partition whose repeated meetings (a pair that
    met k times before costs k²) are the fewest of all partitions: checked against every
    partition of the players."""
    m = three_seat(names(n), 5, 1, seed=3)
    parts = _all_partitions(tuple(range(n)))
    met: Counter[frozenset[str]] = Counter()
    for rnd in m.rounds:
        ps = [f"p{i}" for i in range(n)]

        def cost(tables: list[tuple[str, ...]], met: Counter[frozenset[str]] = met) -> int:
            return sum(met[frozenset(p)] ** 2 for t in tables for p in itertools.combinations(t, 2))

        best = min(cost([tuple(ps[i] for i in t) for t in p]) for p in parts)
        assert cost([t.entries for t in rnd.tables]) == best
        for t in rnd.tables:
            met.update(frozenset(p) for p in itertools.combinations(t.entries, 2))


@given(
    k=st.integers(1, 10),
    rounds=st.integers(1, 8),
    per=st.integers(1, 3),
    seed=st.integers(0, 2**63 - 1),
)
def test_three_seat_invariants_hold_for_any_field(k: int, rounds: int, per: int, seed: int) -> None:
    n = 3 * k
    m = three_seat(names(n), rounds, per, seed)
    assert_sound(m, names(n), 3)
    spread = [max(h) - min(h) for h in held(m, 3).values()]
    assert max(spread) <= 1 and (rounds % 3 or max(spread) == 0)
    assert three_seat(names(n), rounds, per, seed) == m  # deterministic from the seed
    if rounds <= 1:
        assert max(meetings(m).values(), default=1) == 1


@pytest.mark.parametrize("n", [1, 2, 4, 5, 7, 10])
def test_players_that_do_not_fill_tables_are_refused(n: int) -> None:
    with pytest.raises(MovementError, match="do not fill tables of three"):
        three_seat(names(n), 2, 2, 0)


# ---------------------------------------------------------------------------
# Pairs


@pytest.mark.parametrize("pairs", range(2, 12))
def test_howell_every_pair_meets_every_other_once(pairs: int) -> None:
    rounds = pairs - 1 if pairs % 2 == 0 else pairs
    m = howell(names(pairs), rounds, 2, seed=1)
    assert_sound(m, names(pairs), 2)
    seen = meetings(m)
    assert set(seen.values()) == {1} and len(seen) == pairs * (pairs - 1) // 2
    byes = Counter(e for r in m.rounds for e in r.byes)
    assert set(byes.values()) <= {1} and len(byes) == (pairs % 2) * pairs
    for h in held(m, 2).values():
        assert abs(h[0] - h[1]) <= 2
    with pytest.raises(MovementError, match="at most"):
        howell(names(pairs), rounds + 1, 2, seed=1)


@pytest.mark.parametrize("pairs", range(2, 12))
def test_mitchell_keeps_sides_and_never_repeats(pairs: int) -> None:
    tables = (pairs + 1) // 2
    m = mitchell(names(pairs), tables, 1, seed=2)
    assert_sound(m, names(pairs), 2)
    assert set(meetings(m).values()) == {1}
    sides = {e: {s for s, k in enumerate(h) if k} for e, h in held(m, 2).items()}
    assert all(len(s) == 1 for s in sides.values())  # two fields
    with pytest.raises(MovementError, match="at most"):
        mitchell(names(pairs), tables + 1, 1, seed=2)


# ---------------------------------------------------------------------------
# Swiss


@given(n=st.integers(3, 17), rounds=st.integers(1, 12), seed=st.integers(0, 1000))
def test_swiss_byes_are_fair(n: int, rounds: int, seed: int) -> None:
    """Nobody has a second bye before everyone has had one; nobody sits at two tables."""
    rng = random.Random(seed)
    earlier: list[Round] = []
    byes: Counter[str] = Counter()
    for number in range(1, rounds + 1):
        ranking = names(n)
        rng.shuffle(ranking)
        rnd = swiss_round(number, ranking, earlier, (number,), seed)
        assert len(rnd.byes) == n % 3
        for e in rnd.byes:
            assert byes[e] == min(byes[x] for x in names(n))
            byes[e] += 1
        earlier.append(rnd)
        assert_sound(Movement("swiss", tuple(earlier)), names(n), 3)
    assert max(byes.values(), default=0) - min(byes[x] for x in names(n)) <= 1


def test_swiss_pairs_neighbours_and_avoids_repeats() -> None:
    ranking = names(9)
    first = swiss_round(1, ranking, (), (1,), 0)
    assert [t.entries for t in first.tables] and sorted(first.tables[0].entries) == [
        "p0",
        "p1",
        "p2",
    ]
    second = swiss_round(2, ranking, (first,), (2,), 0)
    again = meetings(Movement("swiss", (first, second)))
    assert max(again.values()) == 1


# ---------------------------------------------------------------------------
# The file


GOOD = """\
name = "Club"
format = "three-seat"
seed = 4
rounds = 3
boards_per_round = 2
players = ["Ann", "Bob", "Cy", {name = "Robo", bot = "basic"}, "Di", "Ed"]

[clocks]
turn = 20
"""


def test_a_good_file_reads() -> None:
    t = parse_tournament(GOOD)
    assert t.format == "three-seat" and t.seed == 4 and t.rules.players == 3
    assert [e.name for e in t.entries] == ["Ann", "Bob", "Cy", "Robo", "Di", "Ed"]
    assert t.entry("Robo").players[0].bot == "basic" and t.clocks is not None
    assert t.clocks.turn == 20 and t.clocks.bot == "basic"
    assert len(t.movement().rounds) == 3


EXPLICIT = """\
format = "three-seat"
rounds = 2
boards_per_round = 1
players = ["A", "B", "C"]

[[movement]]
tables = [["A", "B", "C"]]

[[movement]]
boards = {boards}
tables = [{table}]
"""


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (GOOD.replace('bot = "basic"', 'bot = "clever"'), 6, "no bot is called 'clever'"),
        (GOOD.replace("seed = 4", 'seed = 4\nrules = "chess"'), 4, "rules: "),
        (GOOD.replace("turn = 20", "turn = 0"), 9, "clocks.turn: expected 0.1 to 3600"),
        (GOOD.replace("rounds = 3", "rounds = three"), 4, "not TOML"),
        (GOOD.replace("rounds = 3", "rounds = 0"), 4, "rounds: expected a number of rounds"),
        (GOOD.replace('format = "three-seat"', 'format = "round-robin"'), 2, "format: "),
        (GOOD + "colour = 1\n", 10, "clocks.colour: unknown key"),
        ("colour = 1\n" + GOOD, 1, "colour: unknown key"),
        (GOOD.replace('"Ed"', '"Ann"'), 6, "listed twice"),
        (GOOD.replace('"three-seat"', '"mitchell"'), 2, "partnership rules"),
    ],
)
def test_a_bad_file_is_refused_with_its_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(TournamentError) as e:
        parse_tournament(text)
    assert e.value.line == line, str(e.value)
    assert reason in str(e.value) and "\n" not in str(e.value)
    assert not isinstance(e.value, MovementError)


@pytest.mark.parametrize(
    ("boards", "table", "reason"),
    [
        ("[1]", '["A", "B", "C"]', "would play board 1 twice"),
        ("[2]", '["A", "B", "C", "A"]', "seat 4 is out of range"),
        ("[2]", '["A", "B"]', "do not fill"),
        ("[2]", '["A", "B", "Zed"]', "'Zed' is not an entry"),
        ("[2]", '["A", "B", "B"]', "at table 1 and at table 1"),
    ],
)
def test_an_impossible_movement_is_refused_with_its_line(
    boards: str, table: str, reason: str
) -> None:
    with pytest.raises(MovementError) as e:
        parse_tournament(EXPLICIT.format(boards=boards, table=table))
    assert reason in str(e.value) and e.value.line is not None and e.value.line >= 9


def test_players_that_do_not_fill_tables_name_the_players_line() -> None:
    with pytest.raises(MovementError) as e:
        parse_tournament(GOOD.replace(', "Ed"', ""))
    assert e.value.line == 6 and "5 players do not fill tables of three" in str(e.value)


# ---------------------------------------------------------------------------
# The command


def test_plan_prints_the_movement_and_its_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(GOOD.replace('"Ed"', '"Ed", "Flo", "Gus", "Hal"'), encoding="utf-8")
    assert main(["tournament", "plan", str(f)]) == 0
    out = capsys.readouterr().out
    assert "round 3: boards 5, 6" in out and "table 3: seat 1:" in out
    assert "every entry holds every seat equally often" in out
    assert "no two players meet twice" in out


def test_plan_of_an_impossible_movement_exits_1_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(EXPLICIT.format(boards="[1]", table='["A", "B", "C"]'), encoding="utf-8")
    assert main(["tournament", "plan", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("moonrules tournament plan: impossible: line ") and err.count("\n") == 1


def test_plan_of_a_bad_file_exits_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.toml"
    f.write_text(GOOD.replace('bot = "basic"', 'bot = "clever"'), encoding="utf-8")
    assert main(["tournament", "plan", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moonrules tournament plan: error: line 6: ") and err.count("\n") == 1
    assert main(["tournament", "plan", str(tmp_path / "none.toml")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_example_file_plans() -> None:
    assert main(["tournament", "plan", str(ROOT / "examples" / "tournament-bots.toml")]) == 0
