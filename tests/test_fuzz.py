"""``moonrules fuzz``: the reference finds nothing against itself, every mutant is caught.

The mutants of ``tests/mutants/`` are protocol servers that wrap the reference and break
exactly one rule each (one per mistake of the digest's "Mistakes seen" list, plus an
off-by-one in scoring, doubles low at no-trump, a partnership team mix-up, an auction that
ignores the one-turn rule and a wrong game-end tie rule), and three broken targets (one
that hangs, one that crashes, one that prints garbage).

The bound: with seed ``SEED``, every mutant is found in every op it shows in within
``BOUND`` examples of that op, all presets drawn from (``bench/fuzz.py`` gives the counts
over many seeds). Each shrunk case is checked to be minimal in the obvious sense: the
smallest hand, trick, auction or scores that show the broken rule.

Most mutants run in-process through their ``handle`` function (fast); a few run as
subprocesses, as ``moonrules fuzz --target`` would run them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from moonrules.cli.main import main
from moonrules.conformance.fuzz import (
    MAX_FAULT_SHRINKS,
    MAX_FAULTS_IN_A_ROW,
    OPS,
    Finding,
    FuzzError,
    FuzzReport,
    ProcessTarget,
    compare,
    fuzz,
    iter_requests,
    requests,
)
from moonrules.conformance.protocol import handle
from moonrules.rules.ruleset import PRESETS
from moonrules.rules.tiles import Tile

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "tests" / "mutants"
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
SERVE = f"{PY} -m moonrules serve"

SEED = 1
BOUND = 2000
"""Examples per op within which every mutant must be found (seed ``SEED``)."""

if str(MUTANTS) not in sys.path:
    sys.path.insert(0, str(MUTANTS))


def load(name: str) -> ModuleType:
    """A mutant module, imported from its file."""
    spec = importlib.util.spec_from_file_location(f"mutant_{name}", MUTANTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def by_op(report: FuzzReport) -> dict[str, Finding]:
    """The first finding of each op."""
    out: dict[str, Finding] = {}
    for f in report.findings:
        out.setdefault(f.op, f)
    return out


def written_low_first(text: str) -> bool:
    a, b = (int(x) for x in text.split("-"))
    return a < b


def tiles_of(texts: list[str]) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


# ---------------------------------------------------------------------------
# The reference agrees with itself; the kernel the mutants share agrees with it


def test_reference_in_process_finds_nothing() -> None:
    report = fuzz(handle, examples=120, seed=0)
    assert report.ok, report.to_text()
    assert set(report.cases) == set(OPS)
    for op in OPS:
        if op != "tiles":  # the tiles op has only a few distinct requests
            assert report.cases[op] == 120
    line = report.summary()
    assert line.startswith("moonrules fuzz: no disagreement in ")
    assert all(f"{op} {report.cases[op]}" in line for op in OPS)


def test_serve_subprocess_finds_nothing() -> None:
    report = fuzz(SERVE, examples=40, seed=2, env=ENV)
    assert report.ok, report.to_text()
    assert report.starts == 1
    assert report.total >= 8 * 40
    assert report.target == SERVE


def test_unmutated_kernel_agrees_with_the_reference() -> None:
    """The mutants compute their answers with ``_kernel``; unmutated, it is the reference."""
    import _kernel

    report = fuzz(
        _kernel.Kernel().handle,
        ops=["led_suit", "legal_plays", "trick_winner"],
        examples=200,
        seed=3,
    )
    assert report.ok, report.to_text()

    def rescored(request: dict[str, Any]) -> dict[str, Any]:
        ref = handle(request)
        if not ref.get("ok"):
            return ref
        return _kernel.rescore_replay(ref, _kernel.op_rules(request), _kernel.reference_deltas)

    report = fuzz(rescored, ops=["replay"], examples=40, seed=3)
    assert report.ok, report.to_text()


# ---------------------------------------------------------------------------
# The strategies: legal by construction, or exactly one fault


@pytest.mark.parametrize("op", OPS)
def test_legal_situations_are_accepted(op: str) -> None:
    for fields in iter_requests_mode(op, faults=False, n=60):
        answer = handle({"id": 1, **fields})
        assert answer["ok"], (fields, answer)
        if op == "replay":
            assert answer["result"]["valid"], (fields, answer)


@pytest.mark.parametrize("op", OPS)
def test_faulty_situations_are_refused(op: str) -> None:
    for fields in iter_requests_mode(op, faults=True, n=60):
        answer = handle({"id": 1, **fields})
        if op == "replay" and answer["ok"]:
            assert not answer["result"]["valid"], fields
        else:
            assert not answer["ok"], (fields, answer)


def iter_requests_mode(op: str, faults: bool, n: int) -> list[dict[str, Any]]:
    from hypothesis import find, settings
    from hypothesis.errors import NoSuchExample

    out: list[dict[str, Any]] = []

    def keep(fields: dict[str, Any]) -> bool:
        out.append(fields)
        return False

    with pytest.raises(NoSuchExample):
        find(requests(op, faults=faults), keep, settings=settings(max_examples=n, database=None))
    return out


def test_iter_requests_draws_every_preset() -> None:
    seen = {r.get("rules", "standard") for r in iter_requests("score_hand", n=200, seed=4)}
    assert seen == set(PRESETS) | {"no-such-rules"}  # and the unknown-rules fault


# ---------------------------------------------------------------------------
# Comparing answers


def test_compare_ignores_messages_and_member_order() -> None:
    ok = {"id": 1, "ok": True, "result": {"over": True, "winner": 0, "bid": 4, "redeal": False}}
    same = {"result": {"redeal": False, "bid": 4, "winner": 0, "over": True}, "ok": True, "id": 1}
    assert compare("auction", ok, same) is None
    err = {"id": 1, "ok": False, "error": {"code": "illegal", "message": "a", "rule": "BID-3"}}
    other = {"id": 1, "ok": False, "error": {"code": "illegal", "message": "b", "rule": "BID-3"}}
    assert compare("auction", err, other) is None
    wrong_rule = {"id": 1, "ok": False, "error": {"code": "illegal", "message": "a", "rule": None}}
    assert compare("auction", err, wrong_rule) == 'error.rule: expected "BID-3", got null'
    v1 = {"hand": 0, "step": "play", "index": 3, "rule": "FOLLOW-2", "message": "x"}
    v2 = {**v1, "message": "y"}
    r1 = {"id": 1, "ok": True, "result": {"valid": False, "violation": v1}}
    r2 = {"id": 1, "ok": True, "result": {"valid": False, "violation": v2}}
    assert compare("replay", r1, r2) is None


def test_compare_tells_true_from_one_but_not_one_from_one_point_zero() -> None:
    a = {"id": 1, "ok": True, "result": 1}
    assert compare("trick_winner", a, {"id": 1, "ok": True, "result": 1.0}) is None
    assert compare("trick_winner", a, {"id": 1, "ok": True, "result": True}) == (
        "result: expected 1, got true"
    )
    assert compare("trick_winner", a, {"id": 2, "ok": True, "result": 1}) == (
        "id: expected 1, got 2"
    )
    assert compare(
        "legal_plays",
        {"id": 1, "ok": True, "result": ["6-4", "3-3"]},
        {"id": 1, "ok": True, "result": ["3-3", "6-4"]},
    ) == ('result[0]: expected "6-4", got "3-3"')


# ---------------------------------------------------------------------------
# The mutants, each caught within BOUND examples of every op it shows in, shrunk


def _players(f: Finding) -> int:
    return PRESETS[f.rules].players


def check_doubles_always_trump(found: dict[str, Finding]) -> None:
    req = found["led_suit"].request
    t = Tile.parse(req["tile"])
    assert t.is_double and req["trump"] != t.high and req["trump"] != "doubles"
    req = found["legal_plays"].request
    assert (len(req["hand"]), len(req["trick"])) == (2, 1)  # the smallest hand that shows it
    assert any(t.is_double for t in tiles_of(req["hand"] + req["trick"]))
    assert len(found["trick_winner"].request["trick"]) == _players(found["trick_winner"])


def check_trump_follows_suit(found: dict[str, Finding]) -> None:
    req = found["legal_plays"].request
    assert (len(req["hand"]), len(req["trick"])) == (2, 1)
    led = Tile.parse(req["trick"][0])
    trump = req["trump"]
    # the hand holds a trump bearing the number led, and no true tile of that suit
    assert any(
        (t.is_double if trump == "doubles" else t.has(trump)) and t.has(led.high)
        for t in tiles_of(req["hand"])
    )
    assert found["legal_plays"].expected["result"] == sorted(
        (str(t) for t in tiles_of(req["hand"])), reverse=True
    )


def check_low_trump_wrong_end(found: dict[str, Finding]) -> None:
    f = found["trick_winner"]
    trump = f.request["trump"]
    assert isinstance(trump, int) and trump != 6  # the trump is the lower number of its tiles
    trick = tiles_of(f.request["trick"])
    trumps = [t for t in trick if t.has(trump) and not t.is_double]
    assert len(trumps) >= 2 and len(trick) == _players(f)
    winner = trick[f.expected["result"]]
    assert winner in trumps and winner.other_end(trump) == max(t.other_end(trump) for t in trumps)


def check_led_suit_first_written(found: dict[str, Finding]) -> None:
    assert written_low_first(found["led_suit"].request["tile"])
    req = found["legal_plays"].request
    assert (len(req["hand"]), len(req["trick"])) == (2, 1)
    assert written_low_first(req["trick"][0])
    assert written_low_first(found["trick_winner"].request["trick"][0])


def check_no_trump_doubles_low(found: dict[str, Finding]) -> None:
    f = found["trick_winner"]
    assert f.request["trump"] == "none"
    trick = tiles_of(f.request["trick"])
    suit = trick[0].high
    assert trick[f.expected["result"]] == Tile(suit, suit)  # the double of the suit led wins


def check_auction_bid_twice(found: dict[str, Finding]) -> None:
    for op in ("legal_bids", "auction"):
        f = found[op]
        bids = f.request["bids"]
        assert len(bids) == _players(f)  # one full round, then the engine asks again
        assert sum(c != "pass" for c in bids) == 1


def check_auction_no_stop_21(found: dict[str, Finding]) -> None:
    assert found["legal_bids"].request["bids"] == [21]
    assert found["auction"].request["bids"] == [21]


def check_auction_one_turn(found: dict[str, Finding]) -> None:
    for op in ("legal_bids", "auction"):
        f = found[op]
        assert f.request["bids"] == ["pass"] * (_players(f) + 1)
        assert f.expected["error"]["rule"] == "BID-2"


def check_ties_by_seat(found: dict[str, Finding]) -> None:
    f = found["game_winner"]
    target = PRESETS[f.rules].target
    scores = f.request["scores"]
    assert sorted(scores, reverse=True)[:2] == [target, target]
    assert all(s in (0, target) for s in scores)
    assert f.expected["result"] is None


def check_tie_rule_wrong(found: dict[str, Finding]) -> None:
    f = found["game_winner"]
    target = PRESETS[f.rules].target
    assert sorted(f.request["scores"], reverse=True) == [target + 1, target] + [0] * (
        len(f.request["scores"]) - 2
    )


def check_trump_zero_21_tiles(found: dict[str, Finding]) -> None:
    for f in found.values():
        assert f.rules == "no-double-blank" and f.request["trump"] == 0
        assert f.expected["error"]["rule"] == "TRUMP-5"
    assert found["led_suit"].request["tile"] == "1-1"  # the first tile of the set
    req = found["legal_plays"].request
    assert (len(req["hand"]), len(req["trick"])) == (1, 0)


def check_score_made_off_by_one(found: dict[str, Finding]) -> None:
    f = found["score_hand"]
    rules = PRESETS[f.rules]
    tricks, bidder, bid = f.request["tricks"], f.request["bidder"], f.request["bid"]
    won = tricks[bidder] + tricks[(bidder + 2) % 4] if rules.partnership else tricks[bidder]
    assert won == bid == rules.min_bid  # made exactly, with the lowest bid
    assert f.expected["result"]["made"] is True
    assert found["replay"].expected["result"]["valid"] is True


def check_team_mixup(found: dict[str, Finding]) -> None:
    f = found["score_hand"]
    rules = PRESETS[f.rules]
    assert rules.partnership and f.request["bid"] == rules.min_bid
    assert found["replay"].request["record"]["rules"].startswith("partnership")


CHECKS: dict[str, Callable[[dict[str, Finding]], None]] = {
    "doubles_always_trump": check_doubles_always_trump,
    "trump_follows_suit": check_trump_follows_suit,
    "low_trump_wrong_end": check_low_trump_wrong_end,
    "auction_bid_twice": check_auction_bid_twice,
    "auction_no_stop_21": check_auction_no_stop_21,
    "ties_by_seat": check_ties_by_seat,
    "trump_zero_21_tiles": check_trump_zero_21_tiles,
    "led_suit_first_written": check_led_suit_first_written,
    "score_made_off_by_one": check_score_made_off_by_one,
    "no_trump_doubles_low": check_no_trump_doubles_low,
    "team_mixup": check_team_mixup,
    "auction_one_turn": check_auction_one_turn,
    "tie_rule_wrong": check_tie_rule_wrong,
}


def test_every_mutant_has_a_check() -> None:
    names = {p.stem for p in MUTANTS.glob("*.py") if not p.stem.startswith("_")}
    assert names == set(CHECKS) | {"hang", "crash", "garbage"}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_mutant_is_caught_and_shrunk(name: str) -> None:
    mutant = load(name)
    report = fuzz(
        mutant.handle, ops=list(mutant.SHOWS_IN), examples=BOUND, seed=SEED, max_findings=1
    )
    found = by_op(report)
    assert set(found) == set(mutant.SHOWS_IN), report.to_text()
    for f in found.values():
        assert f.kind == "disagreement"
        assert 1 <= f.examples <= BOUND
        assert f.request["id"] == 1 and f.expected["id"] == 1
        assert f.actual is not None and f.actual != f.expected
        assert set(mutant.BREAKS) & set(f.clauses) or f.op == "replay", (f.clauses, mutant.BREAKS)
        assert f.reproduce.startswith("echo ") or f.reproduce.startswith("target(")
    CHECKS[name](found)
    assert not report.ok and "finding" in report.summary()


def test_mutants_over_subprocess_match_in_process() -> None:
    """Two mutants as servers: the same cases, so the same minimal findings."""
    for name, ops in (("ties_by_seat", ["game_winner"]), ("low_trump_wrong_end", ["trick_winner"])):
        mutant = load(name)
        inproc = fuzz(mutant.handle, ops=ops, examples=BOUND, seed=SEED)
        command = f"{PY} {MUTANTS / (name + '.py')}"
        sub = fuzz(command, ops=ops, examples=BOUND, seed=SEED)
        assert [f.request for f in sub.findings] == [f.request for f in inproc.findings]
        assert [f.examples for f in sub.findings] == [f.examples for f in inproc.findings]
        f = sub.findings[0]
        assert f.reproduce == f"echo '{json.dumps(f.request, separators=(',', ':'))}' | {command}"


def test_same_seed_same_run() -> None:
    mutant = load("trump_follows_suit")
    a = fuzz(mutant.handle, ops=["legal_plays"], examples=BOUND, seed=7)
    b = fuzz(mutant.handle, ops=["legal_plays"], examples=BOUND, seed=7)
    assert a.cases == b.cases and [f.to_json() for f in a.findings] == [
        f.to_json() for f in b.findings
    ]


LEVEL_OPS = {"score_made_off_by_one": ("score_hand",), "team_mixup": ("score_hand",)}
"""Ops the level test fuzzes where a mutant also shows in replay (slow to shrink)."""


@pytest.mark.parametrize("level", ["code", "outcome"])
def test_every_mutant_is_caught_at_the_looser_levels(level: str) -> None:
    """Every mutant changes an outcome (a result, or accepted versus refused), so the
    looser comparison levels catch each one too."""
    for name in sorted(CHECKS):
        mutant = load(name)
        ops = LEVEL_OPS.get(name, mutant.SHOWS_IN)
        report = fuzz(
            mutant.handle,
            ops=list(ops),
            examples=BOUND,
            seed=SEED,
            max_findings=1,
            compare=level,  # type: ignore[arg-type]
            shrink_seconds=5,
        )
        assert {f.op for f in report.findings} == set(ops), (name, report.to_text())


def test_findings_are_collected_distinct_up_to_the_limit() -> None:
    mutant = load("doubles_always_trump")
    report = fuzz(mutant.handle, ops=["led_suit"], examples=BOUND, seed=SEED, max_findings=3)
    keys = [(f.rules, tuple(f.clauses)) for f in report.findings]
    assert len(keys) == 3 and len(set(keys)) == 3
    assert report.cases["led_suit"] < BOUND  # the op stopped at its third finding
    one = fuzz(mutant.handle, ops=["led_suit"], examples=BOUND, seed=SEED, max_findings=1)
    assert len(one.findings) == 1


def test_excluded_clauses_hide_a_known_gap() -> None:
    """An engine without the first-lead-trump variant passes once LEAD-2 is excluded."""

    def no_lead_trump(request: dict[str, Any]) -> dict[str, Any]:
        answer = handle(request)
        if request.get("op") == "legal_plays" and answer["ok"] and not request.get("trick"):
            hand = {str(Tile.parse(t)) for t in request["hand"]}
            answer = {**answer, "result": sorted(hand, key=Tile.parse, reverse=True)}
        return answer

    gap = fuzz(no_lead_trump, ops=["legal_plays"], examples=400, seed=SEED, valid_only=True)
    assert gap.findings and all("LEAD-2" in f.clauses for f in gap.findings)
    hidden = fuzz(
        no_lead_trump,
        ops=["legal_plays"],
        examples=400,
        seed=SEED,
        valid_only=True,
        exclude_clauses=["LEAD-2"],
    )
    assert hidden.ok and hidden.excluded > 0, hidden.to_text()
    by_rules = fuzz(
        no_lead_trump,
        ops=["legal_plays"],
        examples=400,
        seed=SEED,
        valid_only=True,
        exclude_rules=["lead-trump"],
    )
    assert by_rules.ok and "lead-trump" not in by_rules.rules


def test_valid_only_draws_only_legal_requests() -> None:
    seen: list[bool] = []

    def spy(request: dict[str, Any]) -> dict[str, Any]:
        answer = handle(request)
        result = answer.get("result")
        seen.append(
            answer["ok"] and not (isinstance(result, dict) and result.get("valid") is False)
        )
        return answer

    report = fuzz(spy, examples=40, seed=SEED, valid_only=True)
    assert report.ok and all(seen) and len(seen) >= 40 * (len(OPS) - 1)


def test_exhaustive_runs_every_legal_request_of_the_finite_ops() -> None:
    from moonrules.conformance.spaces import exhaustive, space_size

    report = fuzz(
        handle, ops=["tiles", "led_suit", "auction", "view"], rules="standard", exhaustive=True
    )
    assert report.ok
    assert report.cases["led_suit"] == space_size("led_suit", ["standard"]) == 9 * (7 + 2 * 15)
    assert report.cases["auction"] == sum(1 for _ in exhaustive("auction", ["standard"]))
    assert report.cases["view"] == 0 and any("not enumerable" in n for n in report.notes)
    mutant = load("led_suit_first_written")
    caught = fuzz(mutant.handle, ops=["led_suit"], rules="standard", exhaustive=True)
    assert caught.findings and caught.findings[0].kind == "disagreement"


def test_a_random_run_says_when_it_has_drawn_an_ops_whole_space() -> None:
    report = fuzz(
        handle, ops=["led_suit"], rules="no-double-blank", examples=9000, seed=SEED, valid_only=True
    )
    assert any(n.startswith("led_suit: all 288 ") for n in report.notes), report.notes
    assert report.cases["led_suit"] < 9000  # valid-only: nothing left to draw, it stopped
    quick = fuzz(handle, ops=["tiles"], examples=500, seed=SEED)
    assert quick.cases["tiles"] == 500 and any("tiles: all 11 " in n for n in quick.notes)


def test_a_target_that_keeps_dying_is_given_up_on() -> None:
    report = fuzz("sh -c 'echo engine missing >&2; exit 4'", examples=50, seed=SEED)
    assert not report.ok and report.gave_up is not None
    assert report.gave_up.startswith(
        "the target was given up on: it exited (or closed its output) without answering "
        f"{MAX_FAULTS_IN_A_ROW} times in a row"
    )
    assert "engine missing" in report.gave_up and "given up" in report.summary()
    assert report.total == MAX_FAULTS_IN_A_ROW  # one drawn case of each op it reached
    assert report.to_text().count("given up on:") == 1  # said once


def test_a_target_that_only_writes_garbage_is_given_up_on() -> None:
    garbage = f"{PY} -c 'import sys\nfor line in sys.stdin: print(\"DEBUG\", flush=True)'"
    report = fuzz(garbage, examples=50, seed=SEED)
    assert report.gave_up is not None and "not a protocol answer" in report.gave_up
    assert report.total == MAX_FAULTS_IN_A_ROW
    assert {f.kind for f in report.findings} == {"garbage"}
    assert all(f.shrinks <= MAX_FAULT_SHRINKS for f in report.findings)
    # restarts are bounded: one per case and per shrinking attempt, and a check of each
    assert report.starts <= MAX_FAULTS_IN_A_ROW * (MAX_FAULT_SHRINKS + 3)


# ---------------------------------------------------------------------------
# Targets that crash, hang or print garbage: reported, restarted, never hung on


def test_crashing_target_is_reported_and_restarted() -> None:
    report = fuzz(
        f"{PY} {MUTANTS / 'crash.py'}",
        ops=["legal_plays", "led_suit"],
        examples=60,
        seed=SEED,
        shrink_seconds=30,
    )
    assert [f.op for f in report.findings] == ["legal_plays"]
    f = report.findings[0]
    assert f.kind == "crash" and f.actual is None
    assert "exited with status 1" in f.detail and "RuntimeError" in f.detail
    assert (len(f.request["hand"]), len(f.request["trick"])) == (1, 1)
    assert Tile.parse(f.request["hand"][0]).is_double
    assert report.cases["led_suit"] == 60  # the run went on after the crashes
    assert report.starts > 1


def test_crashing_in_process_target() -> None:
    report = fuzz(load("crash").handle, ops=["legal_plays"], examples=60, seed=SEED)
    f = report.findings[0]
    assert f.kind == "crash" and "RuntimeError: lost track of a double" in f.detail


def test_hanging_target_is_reported_not_hung_on() -> None:
    """Restarted after each hang, it loads again: that does not count against the timeout,
    which runs from the moment it reads the request."""
    report = fuzz(
        f"{PY} {MUTANTS / 'hang.py'}",
        ops=["trick_winner", "led_suit"],
        examples=50,
        seed=SEED,
        timeout=0.5,
    )
    assert [f.op for f in report.findings] == ["trick_winner"]
    f = report.findings[0]
    assert f.kind == "timeout" and f.shrinks == 0 and "0.5 s" in f.detail
    assert any(Tile.parse(t).is_double for t in f.request["trick"])
    assert report.cases["led_suit"] == 50


def test_garbage_target_is_reported() -> None:
    report = fuzz(f"{PY} {MUTANTS / 'garbage.py'}", ops=["score_hand"], examples=100, seed=SEED)
    f = report.findings[0]
    assert f.kind == "garbage" and "not JSON" in f.detail and "DEBUG" in f.detail
    assert f.request["bid"] == 21
    in_process = fuzz(load("garbage").handle, ops=["score_hand"], examples=100, seed=SEED)
    assert in_process.findings[0].kind == "garbage"


def test_process_target_answers_and_closes() -> None:
    with ProcessTarget(SERVE, env=ENV) as target:
        assert target({"id": 9, "op": "led_suit", "trump": 6, "tile": "3-5"}) == {
            "id": 9,
            "ok": True,
            "result": 5,
        }
        assert target.starts == 1


def test_a_target_that_cannot_start_is_a_usage_error() -> None:
    with pytest.raises(FuzzError, match="cannot start the target"):
        fuzz("/nonexistent/engine --serve", examples=5)


def test_seconds_budget() -> None:
    """However short the time, every op has its first turn."""
    report = fuzz(handle, seconds=0.001, seed=5)
    assert report.ok and all(report.cases[op] == 8 for op in OPS)
    longer = fuzz(handle, seconds=1.0, seed=5)
    assert longer.ok and all(longer.cases[op] >= 8 for op in OPS)


# ---------------------------------------------------------------------------
# The command line


def test_cli_clean_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PYTHONPATH", ENV["PYTHONPATH"])
    status = main(
        ["fuzz", "--target", SERVE, "--ops", "led_suit,auction", "--examples", "30", "--seed", "1"]
    )
    out, err = capsys.readouterr()
    assert status == 0
    assert out.strip() == (
        "moonrules fuzz: no disagreement in 60 cases (seed 1, "
        + out.split("(seed 1, ")[1].split(")")[0]
        + "): led_suit 30, auction 30"
    )
    assert "fuzz: " in err  # the progress display


def test_cli_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report_file = tmp_path / "report.json"
    target = f"{PY} {MUTANTS / 'auction_no_stop_21.py'}"
    status = main(
        [
            "fuzz",
            "--target",
            target,
            "--ops",
            "auction",
            "--rules",
            "standard,4p",
            "--examples",
            "200",
            "--seed",
            "2",
            "--quiet",
            "--report",
            str(report_file),
        ]
    )
    out, err = capsys.readouterr()
    assert status == 1
    assert err == ""  # --quiet
    assert "[1] auction (rules: " in out and "): the answers disagree" in out
    assert '"bids":[21]' in out and f"| {target}" in out
    data = json.loads(report_file.read_text())
    assert data["ok"] is False and data["rules"] == ["standard", "partnership"]
    assert data["findings"][0]["request"]["bids"] == [21]
    assert "BID-5" in data["findings"][0]["clauses"]


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--target", SERVE, "--ops", "nonsense"]) == 2
    assert "unknown op 'nonsense'" in capsys.readouterr().err
    assert main(["fuzz", "--target", SERVE, "--rules", "nonsense"]) == 2
    assert "no rule set is called 'nonsense'" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# The adapters of docs/guides/fuzzing.md pass the fuzzer


def _doc_block(title: str) -> str:
    import re

    text = (ROOT / "docs" / "guides" / "fuzzing.md").read_text(encoding="utf-8")
    match = re.search(rf'^```\w+ title="{re.escape(title)}"\n(.*?)^```', text, re.M | re.S)
    assert match, f"docs/guides/fuzzing.md has no block titled {title}"
    return match.group(1)


PARTIAL = {"led_suit", "trick_winner"}
"""The ops the guide's partial engine implements."""


def _check_partial_engine(command: list[str], tmp_path: Path) -> None:
    """A partial engine passes fuzz and conform at the outcome level, legal requests only,
    its unsupported ops reported and skipped; at the strict level it does not pass."""
    from moonrules.conformance import conform

    report = fuzz(shlex.join(command), compare="outcome", valid_only=True, examples=150, seed=SEED)
    assert report.ok, report.to_text()
    assert set(report.unsupported) == set(OPS) - PARTIAL
    assert all(report.cases[op] == 150 for op in PARTIAL)
    assert "unsupported: tiles" in report.to_text()
    outcomes, lines = conform.conform(command, compare="outcome", valid_only=True, cwd=tmp_path)
    assert " 0 failed, " in lines[0] and "skipped (unsupported)" in lines[0], lines[:5]
    passed = {o.vector.op for o in outcomes if o.passed}
    assert passed >= PARTIAL and "tiles" in passed  # the tiles vectors carried by led_suit
    strict = fuzz(shlex.join(command), ops=["led_suit"], examples=100, seed=SEED)
    assert not strict.ok  # it does not validate: refusals are not the reference's


@pytest.mark.slow
def test_guide_python_adapter(tmp_path: Path) -> None:
    path = tmp_path / "adapter.py"
    path.write_text(_doc_block("adapter.py"), encoding="utf-8")
    _check_partial_engine([PY, str(path)], tmp_path)
    spec = importlib.util.spec_from_file_location("guide_adapter", path)
    assert spec is not None and spec.loader is not None
    adapter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(adapter)
    report = fuzz(adapter.handle, compare="outcome", valid_only=True, examples=300, seed=SEED + 1)
    assert report.ok and "legal_plays" in report.unsupported
    # and a broken engine behind it is caught, at the outcome level too
    adapter.led_suit = lambda t, trump: "trump" if adapter.is_trump(t, trump) else t[1]
    broken = fuzz(
        adapter.handle, ops=["led_suit"], compare="outcome", valid_only=True, examples=300, seed=1
    )
    assert broken.findings and {f.kind for f in broken.findings} == {"disagreement"}


@pytest.mark.slow
def test_guide_javascript_adapter(tmp_path: Path) -> None:
    """The guide's JavaScript engine, when node is installed (skipped, and listed, if not)."""
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the guide's JavaScript adapter is not tested")
    path = tmp_path / "adapter.js"
    path.write_text(_doc_block("adapter.js"), encoding="utf-8")
    _check_partial_engine([node, str(path)], tmp_path)


def test_cli_json_fits_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from test_protocol import validator

    schema = validator("fuzz")
    target = f"{PY} {MUTANTS / 'auction_no_stop_21.py'}"
    argv = ["fuzz", "--target", target, "--ops", "auction,led_suit", "--examples", "100"]
    status = main([*argv, "--seed", "2", "--quiet", "--json"])
    answer = json.loads(capsys.readouterr().out)
    schema.validate(answer)
    assert status == 1 and not answer["ok"] and answer["findings"][0]["op"] == "auction"
    dead = main(["fuzz", "--target", "false", "--examples", "5", "--quiet", "--json"])
    answer = json.loads(capsys.readouterr().out)
    schema.validate(answer)
    assert dead == 1 and answer["gave_up"].startswith("the target was given up on")


@pytest.mark.parametrize(
    "report",
    ["/proc/fuzz-report.json", "{tmp}", "{tmp}/no/such/dir/r.txt", "{tmp}/read-only/r.json"],
)
def test_an_unwritable_report_is_refused_before_the_run(
    report: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing is run for a report that could not be written: the target is never started."""
    started = tmp_path / "started"
    target = f"{PY} -c 'open({str(started)!r}, \"w\")'"
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    existing = read_only / "r.json"
    existing.write_text("the last report\n")
    existing.chmod(0o444)
    read_only.chmod(0o555)
    path = report.format(tmp=tmp_path)
    try:
        if os.geteuid() == 0 and path.startswith(str(read_only)):
            pytest.skip("root writes read-only files")
        status = main(["fuzz", "--target", target, "--examples", "5", "--report", path])
    finally:
        read_only.chmod(0o755)
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1 and "--report" in err, err
    assert not started.exists()
    assert existing.read_text() == "the last report\n"
