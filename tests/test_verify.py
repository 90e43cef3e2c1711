"""The proof catalogue (``moonrules verify``, ``spec/proofs.md``): complete, fresh, and holding.

- every clause of ``spec/rules.md`` is covered by at least one property, and every clause a
  property names exists;
- the clauses over finite domains are covered exhaustively, the integer rules by SMT;
- ``spec/proofs.md`` and ``docs/verification.md`` are what ``scripts/gen_proofs.py`` writes;
- every property holds on its ``--quick`` domain (one test each, so they spread over the
  workers); the full run is ``python -m moonrules verify`` (CI runs it). The quick SMT
  proofs of scoring take 20-30 s each: they run here with ``MOONRULES_DEEP=1``, and in CI
  in ``moonrules verify`` and the mutation step (which runs ``verify --quick``);
- a property that fails is reported with its counterexample and exit status 1; an unknown
  property is one line and exit status 2.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

import attrs
import pytest
from depth import DEEP

from moonrules.cli.main import main
from moonrules.rules.ruleset import PRESETS, MoonMade, RuleSet, Scoring, TieRule
from moonrules.verification import (
    CATALOGUE,
    Method,
    Outcome,
    Property,
    bmc,
    coverage,
    smt,
    spec_clauses,
)
from moonrules.verification.core import require
from moonrules.verification.document import render_docs, render_proofs
from moonrules.verification.mutation import load as load_mutants
from moonrules.verification.runner import check

ROOT = Path(__file__).resolve().parents[1]
SPEC = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
CLAUSES = spec_clauses(SPEC)

FINITE = re.compile(r"(TILE|SUIT|LEAD|FOLLOW|EX|RULES)-\d+|TRUMP-[2-5]|TRICK-2|BID-[2-8]")
"""Clauses whose whole domain is finite and small enough to enumerate."""
INTEGER = re.compile(r"(SCORE|END)-\d+|RENEGE-2")
"""Clauses over unbounded integers: scores, targets, tricks taken."""


def test_the_spec_has_clauses() -> None:
    assert len(CLAUSES) > 50 and len(set(CLAUSES)) == len(CLAUSES)
    assert {"TILE-1", "SCORE-6", "END-3", "CLAIM-1", "EX-6"} <= set(CLAUSES)


def test_every_clause_has_a_property() -> None:
    bare = [c for c, props in coverage(CLAUSES).items() if not props]
    assert not bare, f"clauses no property covers: {bare}"


def test_every_clause_a_property_names_exists() -> None:
    unknown = {(p.id, c) for p in CATALOGUE for c in p.clauses if c not in CLAUSES}
    assert not unknown


def test_finite_clauses_are_covered_exhaustively() -> None:
    finite = [c for c in CLAUSES if FINITE.fullmatch(c)]
    assert len(finite) > 30
    missing = [
        c for c in finite if not any(p.method is Method.EXHAUSTIVE for p in coverage([c])[c])
    ]
    assert not missing, f"finite clauses without an exhaustive property: {missing}"


def test_integer_clauses_are_proved_by_smt() -> None:
    integer = [c for c in CLAUSES if INTEGER.fullmatch(c)]
    assert len(integer) == 10
    missing = [c for c in integer if not any(p.method is Method.SMT for p in coverage([c])[c])]
    assert not missing, f"integer clauses without an SMT proof: {missing}"


def test_property_ids_are_unique_and_not_clause_shaped() -> None:
    ids = [p.id for p in CATALOGUE]
    assert len(set(ids)) == len(ids)
    assert not [i for i in ids if re.fullmatch(r"[a-z]+(-[a-z]+)*", i) is None]


def test_tested_properties_say_why() -> None:
    assert all(p.reason for p in CATALOGUE if p.method in (Method.TESTED, Method.SMT))


@pytest.mark.parametrize(
    ("path", "render"),
    [
        ("spec/proofs.md", render_proofs),
        ("docs/verification.md", lambda spec: render_docs(spec, load_mutants())),
    ],
    ids=["proofs", "docs"],
)
def test_generated_pages_are_fresh(path: str, render: Callable[[str], str]) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert text == render(SPEC), f"{path} is stale: run python scripts/gen_proofs.py"


SLOW_QUICK: Final = {
    **dict.fromkeys(
        ("score-made", "score-points", "score-marks", "score-renege"),
        "a 20-30 s SMT proof",
    ),
    **dict.fromkeys(
        ("trick-winner", "game-end", "follow-rules", "follow-in-play"),
        "a check of 3-8 s of a core",
    ),
}
"""The properties whose quick check is slow, and why: the README's test command leaves them
to ``moonrules verify``, which CI runs (with every other property) after it."""


def _quick_param(prop: Property) -> object:
    if prop.id in SLOW_QUICK and not DEEP:
        reason = (
            f"{prop.id}: {SLOW_QUICK[prop.id]}; `moonrules verify` runs it in CI, "
            "MOONRULES_DEEP=1 here"
        )
        return pytest.param(prop, marks=pytest.mark.skip(reason=reason), id=prop.id)
    return pytest.param(prop, id=prop.id)


def test_the_slow_quick_properties_exist() -> None:
    assert {p.id for p in CATALOGUE} >= set(SLOW_QUICK)


@pytest.mark.parametrize("prop", [_quick_param(p) for p in CATALOGUE])
def test_property_holds_on_its_quick_domain(prop: Property) -> None:
    """Each property's ``--quick`` check, as ``moonrules verify --quick`` runs it."""
    result = check(prop, quick=True)
    assert result.ok, result.outcome.counterexample
    assert result.outcome.cases > 0


def test_quick_covers_every_preset_family() -> None:
    """``--quick`` meets three players and four and every variant family of spec/variants.md:
    the bounded walk runs every preset and, with four players, every variant field the presets
    give only three; the quick SMT proofs meet every value of the fields scoring reads."""
    walked = list(bmc.WALK_RULES.values())
    assert set(PRESETS.values()) <= set(walked)
    four = [r for r in walked if r.players == 4]
    skip = {"players", "tile_set", "trump_numbers", "widow_timing"}  # fixed by four players
    for f in attrs.fields(RuleSet):
        if f.name not in skip:
            values = {getattr(r, f.name) for r in PRESETS.values()}
            assert values <= {getattr(r, f.name) for r in four}, f.name
    proved = [r for sets in smt.QUICK_RULE_SETS.values() for r in sets]
    for name, values in {
        "players": {3, 4},
        "scoring": set(Scoring),
        "moon_made": set(MoonMade),
        "tie": set(TieRule),
    }.items():
        assert {getattr(r, name) for r in proved} == values, name


def _broken(quick: bool) -> Outcome:
    require(1 + 1 == 3, "1 + 1 is not 3")
    return Outcome(1)


def test_a_missing_extra_says_how_to_install_it_from_an_index_and_a_checkout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import moonrules.cli.verify as verify_cli

    real = verify_cli.importlib.util.find_spec
    monkeypatch.setattr(
        verify_cli.importlib.util, "find_spec", lambda n, *a: None if n == "z3" else real(n, *a)
    )
    assert main(["verify", "--only", "score-points"]) == 2
    err = capsys.readouterr().err
    assert "the proofs need z3" in err and len(err.strip().splitlines()) == 1
    assert "pip install 'moonrules[proofs]'" in err and "pip install -e '.[proofs]'" in err


def test_a_failing_property_reports_its_counterexample() -> None:
    prop = Property("broken", ("TILE-1",), "Fails.", Method.EXHAUSTIVE, "one case", _broken)
    result = check(prop)
    assert not result.ok and result.outcome.counterexample == "1 + 1 is not 3"
    doc = result.to_json()
    assert doc["result"] == "fail" and doc["counterexample"] == "1 + 1 is not 3"


def test_an_exception_in_a_check_is_a_failure() -> None:
    def explodes(quick: bool) -> Outcome:
        return Outcome(len([]) // 0)

    result = check(Property("x", (), "", Method.TESTED, "", explodes))
    assert not result.ok and "ZeroDivisionError" in (result.outcome.counterexample or "")


def test_the_command_prints_a_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--quick", "--only", "tile-sets,first-bidder"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["property", "clauses", "method", "cases", "seconds", "result"]
    assert out[1].split()[0] == "tile-sets" and out[1].split()[-1] == "pass"
    assert out[-1].startswith("2 of 2 properties hold")
    assert main(["verify", "--quick", "--json", "--only", "tile-sets"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["passed"] is True
    [p] = doc["properties"]
    assert p["id"] == "tile-sets" and p["method"] == "exhaustive" and p["cases"] > 100


def test_an_unknown_property_is_one_line_and_status_2() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "moonrules", "verify", "--only", "NO-SUCH-ID"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert line.startswith("moonrules verify: error: no property is called 'NO-SUCH-ID'")


def test_a_wrong_tie_rule_is_refuted_by_the_smt_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant ``game_winner`` that lets seat order break a tie (END-2) is caught, with the
    scores CrossHair found."""
    from moonrules.rules.scoring import game_winner
    from moonrules.verification import smt

    def seat_order_breaks_ties(
        rules: object, scores: list[int], bidder: int | None = None
    ) -> int | None:
        top = max(scores)
        return scores.index(top) if top >= rules.target else None  # type: ignore[attr-defined]

    assert smt.game_winner is game_winner
    monkeypatch.setattr(smt, "game_winner", seat_order_breaks_ties)
    result = check(next(p for p in CATALOGUE if p.id == "game-end"), quick=True)
    assert not result.ok
    assert "refuted" in (result.outcome.counterexample or "")


def test_a_wrong_follow_rule_is_caught_exhaustively(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant ``legal_plays`` that lets a trump follow the suit of its other number (a
    mistake the digest records) is caught."""
    from moonrules.rules.suits import is_trump, led_suit
    from moonrules.rules.tricks import legal_plays
    from moonrules.verification import exhaustive

    def trump_follows(hand, trick, trump, *, lead_trump=False):  # type: ignore[no-untyped-def]
        if trick and not is_trump(trick[0], trump):
            suit = led_suit(trick[0], trump)
            following = tuple(t for t in hand if t.has(suit))
            return following or tuple(hand)
        return legal_plays(hand, trick, trump, lead_trump=lead_trump)

    monkeypatch.setattr(exhaustive, "legal_plays", trump_follows)
    result = check(next(p for p in CATALOGUE if p.id == "follow-rules"), quick=True)
    assert not result.ok and "legal_plays" in (result.outcome.counterexample or "")


def test_the_moves_are_held_against_the_restated_clauses() -> None:
    """The bounded model check never imports the scoring or trick functions the game is built
    from: what it expects of a move comes from moonrules.verification.statements."""
    for name in ("score_hand", "game_winner", "trick_winner", "is_made", "side_tricks"):
        assert not hasattr(bmc, name), name
    assert bmc.spec.score.__module__ == "moonrules.verification.statements"


def test_a_kernel_built_from_a_wrong_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that asks a trump of every lead (LEAD-2 after the first trick too) is caught,
    with the position, whatever the rule functions say."""
    from moonrules.kernel import masks
    from moonrules.verification import exhaustive

    def every_lead(held: int, led: int, trump: int, rules: RuleSet, done: int) -> int:
        return masks.legal_mask(held, led, trump, rules, 0)

    monkeypatch.setattr(exhaustive, "legal_mask", every_lead)
    result = check(next(p for p in CATALOGUE if p.id == "kernel"), quick=True)
    assert not result.ok and "after 1 trick(s)" in (result.outcome.counterexample or "")


def test_a_made_21_that_plays_on_is_caught_even_if_the_scoring_agrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game's scoring and the library's score_hand both made wrong alike (a made 21 never
    wins outright): the hand-end step still fails, at the hand of the made 21."""
    from moonrules.game import play
    from moonrules.rules import scoring

    right = scoring.score_hand

    def plays_on(*args: object, **kwargs: object) -> scoring.HandScore:
        return attrs.evolve(right(*args, **kwargs), game_won=False)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "scored", plays_on)
    monkeypatch.setattr(play, "score_hand", plays_on)
    monkeypatch.setattr(scoring, "score_hand", plays_on)
    bmc.reachable.cache_clear()
    try:
        result = check(next(p for p in CATALOGUE if p.id == "hand-end"), quick=True)
    finally:
        bmc.reachable.cache_clear()
    assert not result.ok
    assert "the clauses say 0" in (result.outcome.counterexample or "")
