"""Traceability: every clause of spec/rules.md is cited by the code and exercised by a check.

- Every clause ID defined in ``spec/rules.md`` (a heading ``### ID — title``) must be
  cited somewhere in the package ``moonrules/`` — in the docstring of the code that
  implements it, or in the error it raises. The worked examples ``EX-n`` are exempt:
  they illustrate clauses that are implemented and cited elsewhere, and are not
  rules of their own.
- Every clause ID, the examples included, must be asserted by at least one test or
  exercised by at least one conformance vector (``spec/vectors/*.jsonl``, whose
  ``clauses`` list the clauses each case exercises, and whose expected answers
  ``tests/test_conform.py`` checks). A test file asserts a clause when the ID is in a
  string of an ``assert`` statement, of a ``pytest.raises`` or ``pytest.mark.parametrize``
  call, or of a value assigned to a name that an ``assert`` of the file reads: naming a
  clause in a docstring, a comment or a message printed on the way counts for nothing.
  The meta-tests of this kind below do not count.
- No code, test, generator or vector may cite an ID that the spec does not define.
  A token shaped like an ID that is not meant as one (``UTF-8``) is listed in
  :data:`NOT_CLAUSES`.

Each failure names the clauses (or the file and line) at fault.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec" / "rules.md"

HEADING = re.compile(r"^### ([A-Z]+-\d+) — \S", re.MULTILINE)
"""A clause heading of spec/rules.md."""
TOKEN = re.compile(r"(?<![A-Za-z0-9_-])([A-Z]+-\d+)(?![\d])")
"""Anything written like a clause ID: capitals, a hyphen, a number."""

EXEMPT_FROM_CODE = re.compile(r"EX-\d+")
"""Worked examples: cited by tests and vectors, not by the code (see the module docstring)."""

NOT_CLAUSES = {
    "UTF-8": "the text encoding",
    "SHA-256": "the hash of the vector files",
    "SHA-512": "the hash of the seeded byte streams (DEAL-1, BID-1)",
    "NO-1": "a clause the rulebook lacks, quoted by nothing (tests/test_i18n_rulebook.py)",
    "XYZ-9": "a clause no rule defines, rendered by its name alone (tests/test_i18n.py)",
}
"""Tokens shaped like a clause ID that are not clause IDs."""

META_TESTS = {"test_traceability.py", "test_vectors.py", "test_conform.py"}
"""Tests about the clause lists themselves: naming a clause there exercises nothing."""


def defined() -> list[str]:
    """The clause IDs of spec/rules.md, in order."""
    return HEADING.findall(SPEC.read_text(encoding="utf-8"))


def cited(paths: Iterable[Path]) -> dict[str, list[str]]:
    """Each ID-shaped token in ``paths``, with the places (``file:line``) it appears."""
    out: dict[str, list[str]] = {}
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for token in TOKEN.findall(line):
                out.setdefault(token, []).append(f"{path.relative_to(ROOT)}:{number}")
    return out


def asserted(source: str) -> set[str]:
    """The clause-shaped IDs that a test module's ``source`` asserts (see the module
    docstring): those in strings inside an ``assert``, a ``pytest.raises`` or
    ``pytest.mark.parametrize`` call, or a value assigned to a name an ``assert`` reads."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    read_by_asserts = {
        name.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert)
        for name in ast.walk(node)
        if isinstance(name, ast.Name)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            checked: ast.AST | None = node
        elif isinstance(node, ast.Call):
            callee = ast.unparse(node.func)
            checked = node if callee.endswith(("raises", "mark.parametrize")) else None
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            checked = node.value if names & read_by_asserts else None
        else:
            checked = None
        if checked is None:
            continue
        for leaf in ast.walk(checked):
            if (
                isinstance(leaf, ast.Constant)
                and isinstance(leaf.value, str)
                and id(leaf) not in docstrings
            ):
                found.update(TOKEN.findall(leaf.value))
    return found


def asserted_by_tests() -> dict[str, list[str]]:
    """Each clause the tests assert, with the test files asserting it."""
    out: dict[str, list[str]] = {}
    for path in checked_tests():
        if path.name not in META_TESTS:
            for clause in asserted(path.read_text(encoding="utf-8")):
                out.setdefault(clause, []).append(str(path.relative_to(ROOT)))
    return out


def code_files() -> list[Path]:
    return sorted((ROOT / "moonrules").rglob("*.py"))


def checked_tests() -> list[Path]:
    return sorted((ROOT / "tests").glob("test_*.py"))


def vector_clauses() -> dict[str, list[str]]:
    """Each clause the vectors exercise, with the vectors (``file:line``) exercising it."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "spec" / "vectors").glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines[1:], 2):
            for clause in json.loads(line)["clauses"]:
                out.setdefault(clause, []).append(f"{path.relative_to(ROOT)}:{number}")
    return out


def test_the_spec_defines_each_clause_once() -> None:
    ids = defined()
    assert len(ids) > 50
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    headings = re.findall(r"^### (.*)$", SPEC.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(headings) == len(ids), "every ### heading of spec/rules.md is a clause"
    assert not set(ids) & set(NOT_CLAUSES)


def test_every_clause_is_cited_by_the_code() -> None:
    in_code = cited(code_files())
    missing = [i for i in defined() if i not in in_code and not EXEMPT_FROM_CODE.fullmatch(i)]
    assert not missing, (
        "no code in moonrules/ cites "
        + ", ".join(missing)
        + ": cite each clause in the docstring of the code that implements it, or in its error"
    )


def test_every_clause_is_exercised_by_a_test_or_a_vector() -> None:
    in_tests = asserted_by_tests()
    in_vectors = vector_clauses()
    missing = [i for i in defined() if i not in in_tests and i not in in_vectors]
    assert not missing, (
        f"no test asserts and no vector exercises {', '.join(missing)} "
        "(a clause named only in a docstring, a comment or a printed message does not count)"
    )


PROBE = '''\
"""A test module naming SCORE-1 in its docstring."""
import pytest
EXPECTED = {"a": "BID-3"}
UNUSED = "BID-4"  # never asserted
@pytest.mark.parametrize("rule", ["TRICK-2"])
def test_probe(rule):
    """FOLLOW-1 in a docstring."""
    # FOLLOW-2 in a comment
    print("TRUMP-1 printed")
    with pytest.raises(ValueError, match="LEAD-2"):
        pass
    assert rule == EXPECTED["a"] or "END-1" in rule, "TURN-1 in a message"
'''


def test_only_asserted_clauses_count() -> None:
    """The reader of assertions itself, on a made-up test module."""
    assert asserted(PROBE) == {"BID-3", "TRICK-2", "LEAD-2", "END-1", "TURN-1"}


def test_nothing_cites_a_clause_the_spec_does_not_define() -> None:
    ids = set(defined())
    places = cited(
        [
            *code_files(),
            *sorted((ROOT / "tests").rglob("*.py")),
            *sorted((ROOT / "scripts").glob("*.py")),
            ROOT / "spec" / "protocol.md",
            ROOT / "spec" / "variants.md",
        ]
    )
    for clause, where in vector_clauses().items():
        places.setdefault(clause, []).extend(where)
    unknown = {
        token: where[:3]
        for token, where in places.items()
        if token not in ids and token not in NOT_CLAUSES
    }
    assert not unknown, "IDs the spec does not define: " + "; ".join(
        f"{token} at {', '.join(where)}" for token, where in sorted(unknown.items())
    )


def test_the_token_pattern_finds_ids_where_they_are_written() -> None:
    text = "(BID-3), `LEAD-2`, SCORE-1 … SCORE-6, TRUMP-5: FOLLOW-1/FOLLOW-2"
    assert TOKEN.findall(text) == [
        "BID-3",
        "LEAD-2",
        "SCORE-1",
        "SCORE-6",
        "TRUMP-5",
        "FOLLOW-1",
        "FOLLOW-2",
    ]
    undefined = "BID-" + "33"  # spelt in two parts so that this file cites no such clause
    assert TOKEN.findall(f"moon-22, double-six-28, x-BID-3, {undefined}") == [undefined]


def traceability_matrix() -> dict[str, tuple[list[str], list[str], int]]:
    """For each clause: where the code cites it, which tests assert it, how many vectors.

    Run ``python tests/test_traceability.py`` to print it.
    """
    in_code = cited(code_files())
    in_tests = asserted_by_tests()
    in_vectors = vector_clauses()
    return {
        i: (
            sorted({w.split(":")[0] for w in in_code.get(i, [])}),
            sorted(in_tests.get(i, [])),
            len(in_vectors.get(i, [])),
        )
        for i in defined()
    }


if __name__ == "__main__":
    for clause, (code, tests, vectors) in traceability_matrix().items():
        print(f"{clause:10} code: {', '.join(Path(c).name for c in code) or '-'}")
        print(f"{'':10} tests: {', '.join(Path(t).name for t in tests) or '-'}; vectors: {vectors}")
