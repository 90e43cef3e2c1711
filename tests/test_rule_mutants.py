"""The list of one-line mutants of the rules (``tests/rule_mutants.toml``) and its runner.

Running every mutant through ``verify --quick`` takes minutes, so continuous integration does it
(``.ci/run``: ``python -m moonrules.verification.mutation``). Here, cheaply:

- the list is valid: at least 30 mutants over the rules, the kernel and the game, each line found
  exactly once in its file (so the list cannot rot silently), clauses and properties that exist;
- the four mutants ``verify --quick`` once missed are on it, each with the property that now
  catches it;
- the runner works end to end on one property: a mutant applied to a copy of the package is
  caught, the unmutated copy passes, and the working tree is never touched; a mutant runs the
  properties the list names for it, the unmutated copy the whole catalogue;
- a list with a rotten, repeated or misplaced line, or a malformed entry, is refused, naming it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from moonrules.verification import spec_clauses
from moonrules.verification.mutation import (
    DEFAULT_LIST,
    Mutant,
    MutantListError,
    checked_properties,
    load,
    main,
    parse,
    problems,
    run_one,
)

ROOT = Path(__file__).resolve().parents[1]
CLAUSES = spec_clauses((ROOT / "spec" / "rules.md").read_text(encoding="utf-8"))
UNDEFINED = next(f"END-{n}" for n in range(1, 100) if f"END-{n}" not in CLAUSES)
"""An ID shaped like a clause that the spec does not define (built, so that no file cites it)."""
MUTANTS = load(ROOT / "tests" / "rule_mutants.toml")


def test_the_list_is_the_checkouts() -> None:
    assert DEFAULT_LIST.resolve() == (ROOT / "tests" / "rule_mutants.toml").resolve()


def test_the_list_is_valid_and_each_line_is_found_once() -> None:
    assert len(MUTANTS) >= 30
    assert problems(MUTANTS, ROOT, CLAUSES) == []


@pytest.mark.parametrize("where", ["rules", "kernel", "game"])
def test_every_layer_of_the_rules_is_mutated(where: str) -> None:
    files = {m.file for m in MUTANTS if m.file.startswith(f"moonrules/{where}/")}
    assert len([m for m in MUTANTS if m.file in files]) >= 5 and len(files) >= 3


@pytest.mark.parametrize(
    ("mutant", "caught_by"),
    [
        ("team-tricks", "score-made"),
        ("score-5-wins", "score-points"),
        ("bidder-out-first-leader", "game-end"),
        ("made-21-plays-on", "hand-end"),
    ],
)
def test_the_mutants_quick_once_missed_are_listed(mutant: str, caught_by: str) -> None:
    """Partnership scoring, SCORE-5, the END-3 leader and a made 21 ending the game in play."""
    [m] = [m for m in MUTANTS if m.id == mutant]
    assert caught_by in m.killed_by


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted((root / "moonrules").rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


def test_a_mutant_is_caught_on_a_copy_and_the_tree_is_untouched() -> None:
    """End to end on one fast property: the copy, the environment and the verdict."""
    [m] = [m for m in MUTANTS if m.id == "set-21-drops-1-1"]
    before = _digest(ROOT)
    caught = run_one(m, only="tile-sets,rule-sets")
    assert caught.error is None and caught.ok, caught.describe()
    assert caught.failed == ("tile-sets",)
    clean = run_one(None, only="tile-sets,rule-sets")
    assert clean.error is None and clean.ok and clean.failed == (), clean.describe()
    assert _digest(ROOT) == before


def test_a_mutant_checks_the_properties_it_names_and_the_unmutated_copy_all() -> None:
    """The verdict needs only the named properties; the copy must pass the whole catalogue."""
    for m in MUTANTS:
        assert checked_properties(m) == ",".join(m.killed_by)
        assert checked_properties(m, every_property=True) is None
        assert checked_properties(m, only="deals", every_property=True) == "deals"
    assert checked_properties(None) is None
    assert checked_properties(None, every_property=True) is None
    assert checked_properties(None, only="deals") == "deals"


def test_a_mutant_not_caught_by_its_properties_is_reported() -> None:
    [m] = [m for m in MUTANTS if m.id == "set-21-drops-1-1"]
    survives = run_one(m, only="rule-sets")
    assert not survives.ok and "SURVIVES" in survives.describe()


def test_apply_changes_exactly_one_line() -> None:
    m = MUTANTS[0]
    text = (ROOT / m.file).read_text(encoding="utf-8")
    after = m.apply(text).split("\n")
    diff = [(a, b) for a, b in zip(text.split("\n"), after, strict=True) if a != b]
    assert diff == [(m.line, m.replacement)]


def _mutant(**changes: object) -> Mutant:
    fields = {
        "id": "x",
        "file": "moonrules/rules/scoring.py",
        "line": "    if top < rules.target:",
        "replacement": "    if top <= rules.target:",
        "breaks": "b",
        "clauses": ("END-1",),
        "killed_by": ("game-end",),
        **changes,
    }
    return Mutant(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"line": "    if top < rules.target:  # gone"}, "occurs 0 times"),
        ({"line": "        return False", "file": "moonrules/rules/suits.py"}, "occurs 2 times"),
        ({"file": "moonrules/cli/verify.py"}, "is not a source file of"),
        ({"file": "moonrules/rules/nothing.py"}, "does not exist"),
        ({"replacement": "    if top < rules.target:"}, "one different line"),
        ({"clauses": (UNDEFINED,)}, "unknown clauses"),
        ({"killed_by": ("no-such-property",)}, "unknown properties"),
        ({"id": "Not An Id"}, "ids are lower-case"),
    ],
)
def test_a_bad_entry_is_named(changes: dict[str, object], said: str) -> None:
    found = problems([_mutant(**changes)], ROOT, CLAUSES)
    assert len(found) == 1 and said in found[0], found


def test_a_repeated_id_is_named() -> None:
    assert problems([_mutant(), _mutant()], ROOT, CLAUSES) == [
        "x: ids are lower-case words joined by '-', each used once"
    ]


def test_apply_refuses_a_line_that_is_not_there_once() -> None:
    with pytest.raises(ValueError, match="occurs 2 times"):
        _mutant(line="a").apply("a\nb\na")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[[mutant]]\nid = 1", "is not TOML|missing"),
        ("mutant = 3", "only \\[\\[mutant\\]\\] tables"),
        ("[[mutant]]\nid = 'x'", "mutant 1: missing"),
        ("not toml at all [", "is not TOML"),
    ],
)
def test_a_malformed_list_is_refused(text: str, said: str) -> None:
    with pytest.raises(MutantListError, match=said):
        parse(text)


def test_a_malformed_field_is_named() -> None:
    entry = (ROOT / "tests" / "rule_mutants.toml").read_text(encoding="utf-8")
    broken = entry.replace('killed_by = ["tile-sets"]', "killed_by = []", 1)
    assert broken != entry
    with pytest.raises(MutantListError, match="killed_by must be a non-empty list"):
        parse(broken)


def test_the_command_checks_the_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--check"]) == 0
    assert capsys.readouterr().out == f"{len(MUTANTS)} mutants, each line found once\n"
    rotten = tmp_path / "rotten.toml"
    rotten.write_text(
        (ROOT / "tests" / "rule_mutants.toml")
        .read_text(encoding="utf-8")
        .replace("    if top < rules.target:", "    if top < rules.target:  # rotten", 1),
        encoding="utf-8",
    )
    assert main(["--check", "--list", str(rotten)]) == 2
    assert "target-must-be-passed: its line occurs 0 times" in capsys.readouterr().err
    assert main(["--check", "--only", "no-such-mutant"]) == 2
    assert "no mutant is called no-such-mutant" in capsys.readouterr().err
