"""The conformance vectors (spec/vectors/*.jsonl): generated, never edited, complete.

The vectors are regenerated in memory by ``scripts/gen_vectors.py`` and must equal
the files byte for byte; when a change to the rules or the protocol is intended,
run ``python scripts/gen_vectors.py`` and review the diff.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import moonrules as m
from moonrules.conformance.protocol import OPS, handle
from moonrules.rules.suits import Trump

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "spec" / "vectors"
NOT_IN_VECTORS: dict[str, str] = {}
"""Clauses no vector can exercise yet, and why (they are exercised by unit tests)."""


@cache
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_vectors", ROOT / "scripts" / "gen_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_vectors"] = module
    spec.loader.exec_module(module)
    return module


@cache
def files() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(VECTORS.glob("*.jsonl"))}


@cache
def vectors() -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, json.loads(line)) for name, text in files().items() for line in text.splitlines()[1:]
    ]


def clause_ids() -> list[str]:
    text = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    return re.findall(r"^### ([A-Z]+-\d+) ", text, re.MULTILINE)


@pytest.mark.slow
def test_the_files_are_exactly_what_the_generator_writes() -> None:
    fresh = generator().texts()
    assert sorted(fresh) == sorted(files()), "a vector file is missing or left over"
    stale = [name for name, text in fresh.items() if files()[name] != text]
    assert not stale, (
        f"{', '.join(stale)} differ from the reference's answers; if the change is intended, "
        "run python scripts/gen_vectors.py and review the diff"
    )


def test_each_file_carries_its_provenance() -> None:
    for name, text in files().items():
        header, _, body = text.partition("\n")
        prov = json.loads(header)["provenance"]
        assert prov["generator"] == "scripts/gen_vectors.py"
        assert prov["moonrules"] == m.__version__
        assert prov["protocol"] == 1
        assert prov["count"] == len(body.splitlines()), name
        assert prov["sha256"] == hashlib.sha256(body.encode("utf-8")).hexdigest(), (
            f"{name} was edited by hand: its content does not match its hash"
        )


SCHEMA_PARTS = 3
"""Each file's lines are checked against the schema in this many parts, alternate lines to
each, so that test workers share the work (replay.jsonl alone takes seconds)."""


@pytest.mark.parametrize("part", range(SCHEMA_PARTS))
@pytest.mark.parametrize("name", sorted(p.name for p in VECTORS.glob("*.jsonl")))
def test_every_line_fits_the_vector_schema(name: str, part: int) -> None:
    from test_protocol import validator

    schema = validator("vector")
    lines = files()[name].splitlines()
    assert lines, f"{name} is empty"
    for i in range(part, len(lines), SCHEMA_PARTS):
        errors = list(schema.iter_errors(json.loads(lines[i])))
        assert not errors, f"{name}:{i + 1}: {errors[0].message}"


def test_each_recorded_answer_is_the_reference_answer() -> None:
    """A spot check independent of the generator: the answers are handle()'s answers."""
    from moonrules.conformance.protocol import handle_line

    for i, (_, v) in enumerate(vectors()):
        if i % 7:
            continue
        if v.get("raw"):
            assert json.loads(handle_line(v["request"])) == v["expected"]
        else:
            assert json.loads(json.dumps(handle(v["request"]))) == v["expected"], v["name"]


def test_several_thousand_vectors_of_modest_size() -> None:
    assert len(vectors()) >= 5000
    total = sum(len(t.encode("utf-8")) for t in files().values())
    assert total < 4 * 1024 * 1024, f"the vectors take {total} bytes"
    names = [v["name"] for _, v in vectors()]
    assert len(names) == len(set(names)), "vector names must be unique"


def _request_rules(v: dict[str, Any]) -> m.RuleSet | None:
    request = v["request"]
    if v.get("raw") or not isinstance(request, dict):
        return None
    value = request.get("rules", "standard")
    record = request.get("record")
    if isinstance(record, dict) and "rules" in record:
        value = record["rules"]
    try:
        from moonrules.records.record import rules_from_json

        return rules_from_json(value)
    except (m.MoonError, TypeError):
        return None


def test_every_op_preset_and_trump_has_valid_and_invalid_cases() -> None:
    seen: dict[tuple[str, str], set[bool]] = {}
    trumps: dict[str, set[Any]] = {}
    for _, v in vectors():
        request = v["request"]
        op = request.get("op") if isinstance(request, dict) else None
        if v.get("raw") or not isinstance(op, str) or op not in OPS:
            continue
        rules = _request_rules(v)
        if rules is None or rules.name is None:
            continue
        ok = v["expected"]["ok"]
        result = v["expected"].get("result")
        if isinstance(result, dict) and result.get("valid") is False:
            ok = False
        seen.setdefault((request["op"], rules.name), set()).add(ok)
        if "trump" in request and v["expected"]["ok"]:
            trumps.setdefault(rules.name, set()).add(json.dumps(request["trump"]))
    for op in OPS:
        assert (op, "standard") in seen and seen[(op, "standard")] == {True, False}, op
        for preset in m.PRESETS:
            assert True in seen.get((op, preset), set()), f"no valid {op} vector for {preset}"
    for preset, rules in m.PRESETS.items():
        offered = {json.dumps(t.to_json()) for t in rules.trumps}
        assert trumps[preset] == offered, preset
    every = {json.dumps(t.to_json()) for t in Trump}
    assert set().union(*trumps.values()) == every


def test_every_clause_is_exercised_and_every_clause_named_exists() -> None:
    ids = clause_ids()
    covered: set[str] = set()
    for name, v in vectors():
        unknown = set(v["clauses"]) - set(ids)
        assert not unknown, f"{name}: {v['name']} names clauses the spec does not define: {unknown}"
        covered |= set(v["clauses"])
        expected = v["expected"]
        if not expected["ok"] and expected["error"]["rule"]:
            assert expected["error"]["rule"] in v["clauses"], v["name"]
        result = expected.get("result")
        if isinstance(result, dict) and result.get("valid") is False:
            assert result["violation"]["rule"] in v["clauses"], v["name"]
    missing = [c for c in ids if c not in covered and c not in NOT_IN_VECTORS]
    assert not missing, f"no vector exercises {', '.join(missing)}"
    assert not set(NOT_IN_VECTORS) & covered, "a clause listed as not in vectors now is: update"


def test_error_codes_and_replays_cover_every_kind() -> None:
    codes = {v["expected"]["error"]["code"] for _, v in vectors() if not v["expected"]["ok"]}
    assert codes == {"bad-json", "unknown-op", "bad-request", "illegal", "unknown-rules"}
    steps: dict[str, set[str]] = {}
    whole = 0
    for _, v in vectors():
        result = v["expected"].get("result")
        if v["request"].get("op") == "replay" if isinstance(v["request"], dict) else False:
            if isinstance(result, dict) and result.get("valid") is False:
                steps.setdefault(result["violation"]["step"], set()).add(
                    result["violation"]["rule"]
                )
            elif isinstance(result, dict) and result.get("winner") is not None:
                whole += 1
    assert set(steps) == {"deal", "bid", "discard", "trump", "play", "claim"}
    assert {"CLAIM-1", "TURN-1"} <= steps["claim"]
    assert {"TURN-1", "FOLLOW-1", "FOLLOW-2", "TRICK-1", "LEAD-2"} <= steps["play"]
    assert {"BID-2", "BID-3", "BID-4", "BID-5", "BID-6", "BID-8"} <= steps["bid"]
    assert {"DEAL-1", "DEAL-2", "DEAL-3", "SEAT-1", "BID-1", "END-1"} <= steps["deal"]
    assert whole >= 3 * len(m.PRESETS), "whole games of every preset"


_GENERIC = re.compile(r"[0-9]+|(seat|won|bid)-[0-9]+|trump-([0-6]|doubles|none)")
_STEPS = {"deal", "bid", "discard", "trump", "play"}


def test_invalid_cases_are_named_for_their_fault() -> None:
    generic = {*m.PRESETS, *(f"trump-{t}" for t in Trump)}
    for _, v in vectors():
        expected = v["expected"]
        result = expected.get("result")
        invalid = not expected["ok"] or (isinstance(result, dict) and result.get("valid") is False)
        segments = v["name"].split("/")[1:]
        if not invalid:
            assert not {"bad-json", "bad-request", "illegal", "unknown-op", "unknown-rules"} & set(
                segments
            ), v["name"]
            continue
        words = [s for s in segments if s not in generic | _STEPS and not _GENERIC.fullmatch(s)]
        assert words, f"{v['name']} does not say what its fault is"
        if not expected["ok"]:
            code = expected["error"]["code"]
            if code in ("bad-json", "bad-request", "unknown-op", "unknown-rules"):
                assert code in v["name"] or v["name"].startswith("errors/id/"), v["name"]


@pytest.mark.parametrize("stem", ["legal_plays", "replay"])
def test_vectors_for_one_op_live_in_its_file(stem: str) -> None:
    for name, v in vectors():
        if name == f"{stem}.jsonl":
            assert v["name"].startswith(f"{stem}/")
            assert v["request"]["op"] == stem
