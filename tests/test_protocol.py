"""The JSON-lines protocol (spec/protocol.md): every op and error code, the server, the schemas."""

from __future__ import annotations

import json
import random
import select
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from gamehelpers import play_until, random_game
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import moonrules as m
from moonrules.conformance import protocol
from moonrules.conformance.protocol import OPS, handle, handle_line
from moonrules.records.record import RecordError, parse_record, to_record

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "spec" / "schema"


# ---------------------------------------------------------------------------
# Schemas


def _registry() -> Registry[Any]:
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def _documents() -> dict[str, Any]:
    docs = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        docs[schema["$id"]] = schema
    return docs


def _inline(node: Any, base: str, docs: dict[str, Any]) -> Any:
    """``node`` with every ``$ref`` replaced by its target (the schemas are not recursive)."""
    if isinstance(node, list):
        return [_inline(x, base, docs) for x in node]
    if not isinstance(node, dict):
        return node
    if "$ref" not in node:
        return {k: _inline(v, base, docs) for k, v in node.items() if k != "$defs"}
    url = urljoin(base, node["$ref"])
    doc, _, fragment = url.partition("#")
    target = docs[doc]
    for part in filter(None, fragment.split("/")):
        target = target[part]
    out = {k: v for k, v in _inline(target, doc, docs).items() if k not in ("$schema", "$id")}
    rest = {k: _inline(v, base, docs) for k, v in node.items() if k != "$ref"}
    return {"allOf": [out], **rest} if rest else out


def validator(name: str, *, inline: bool = True) -> Draft202012Validator:
    """The validator of ``spec/schema/<name>.schema.json``, its references resolved locally.

    With ``inline`` (the default) every reference is replaced by its target first,
    which validates the same and is several times faster.
    """
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    if inline:
        return Draft202012Validator(_inline(schema, schema["$id"], _documents()))
    return Draft202012Validator(schema, registry=REGISTRY)


RECORD = validator("record")
REQUEST = validator("request")
RESPONSE = validator("response")


def test_inlining_the_references_changes_nothing() -> None:
    record = to_record(random_game("pagat", 4, 120))
    for name, good, bad in (
        ("record", record, {**record, "seed": "x"}),
        ("request", {"op": "replay", "record": record}, {"op": "replay", "record": []}),
        ("response", handle({"op": "tiles"}), {"ok": True}),
    ):
        for value in (good, bad):
            assert validator(name).is_valid(value) == validator(name, inline=False).is_valid(value)
        assert validator(name).is_valid(good) and not validator(name).is_valid(bad)


def test_the_schemas_are_valid_draft_2020_12() -> None:
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert set(names) >= {
        "record.schema.json",
        "request.schema.json",
        "response.schema.json",
        "vector.schema.json",
        "check.schema.json",
        "conform.schema.json",
        "fuzz.schema.json",
    }
    for name in names:
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_check_json_fits_its_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``check --json`` of valid records, records breaking a rule and notation rulings."""
    from moonrules.cli.main import main

    schema = validator("check")
    examples = sorted((ROOT / "examples").glob("*.moon")) + sorted(
        p for p in (ROOT / "examples").glob("*.json") if p.name != "verdicts.json"
    )
    assert len(examples) > 5
    statuses = set()
    for path in examples:
        status = main(["check", str(path), "--json"])
        out = capsys.readouterr().out
        statuses.add(status)
        schema.validate(json.loads(out))
    assert statuses == {0, 1}
    assert not schema.is_valid({"valid": True})


@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(0, 300))
def test_every_saved_record_fits_the_record_schema(preset: str, seed: int, steps: int) -> None:
    record = json.loads(json.dumps(to_record(random_game(preset, seed, steps))))
    RECORD.validate(record)
    answer = handle({"id": 0, "op": "replay", "record": record})
    assert answer["ok"] is True and answer["result"]["valid"] is True
    RESPONSE.validate(answer)


_MALFORMED_RECORDS: list[tuple[str, Any]] = [
    ("not an object", lambda r: ["hands"]),
    ("no hands", lambda r: {"rules": "standard"}),
    ("empty hands", lambda r: {**r, "hands": []}),
    ("unknown member", lambda r: {**r, "colour": "red"}),
    ("seed is text", lambda r: {**r, "seed": "7"}),
    ("rules is a number", lambda r: {**r, "rules": 3}),
    ("rules is null", lambda r: {**r, "rules": None}),
    ("rules field unknown", lambda r: {**r, "rules": {"colours": 2}}),
    ("rules field ill-typed", lambda r: {**r, "rules": {"moon": "yes"}}),
    ("rules value unknown", lambda r: {**r, "rules": {"scoring": "golf"}}),
    ("hand not an object", lambda r: {**r, "hands": [3]}),
    ("hand without deal", lambda r: {**r, "hands": [{"first_bidder": 0}]}),
    ("hand member unknown", lambda r: _hand(r, colour="red")),
    ("first bidder is a boolean", lambda r: _hand(r, first_bidder=True)),
    ("tile with spaces", lambda r: _hand(r, widow=" 3-1")),
    ("tile end 7", lambda r: _hand(r, widow="7-1")),
    ("tile as a number", lambda r: _hand(r, widow=31)),
    ("call is text", lambda r: _hand(r, bids=["five"])),
    ("call is a boolean", lambda r: _hand(r, bids=[True])),
    ("trump is text of a number", lambda r: _hand(r, trump="6")),
    ("trump is 7", lambda r: _hand(r, trump=7)),
    ("trump is no-trump", lambda r: _hand(r, trump="no-trump")),
    ("plays not a list", lambda r: _hand(r, plays="6-6")),
]


def _hand(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    hands = [dict(h) for h in record["hands"]]
    hands[0].update(fields)
    return {**record, "hands": hands}


@pytest.mark.parametrize(
    ("fault", "mutate"), _MALFORMED_RECORDS, ids=[f for f, _ in _MALFORMED_RECORDS]
)
def test_the_record_schema_refuses_what_a_replay_cannot_read(fault: str, mutate: Any) -> None:
    record = json.loads(json.dumps(to_record(random_game("standard", 3, 40))))
    RECORD.validate(record)
    bad = mutate(record)
    assert not RECORD.is_valid(bad), fault
    with pytest.raises(RecordError):
        parse_record(bad)
    answer = handle({"id": 1, "op": "replay", "record": bad})
    assert answer["error"]["code"] == "bad-request", answer


# ---------------------------------------------------------------------------
# Every op


def ok(request: dict[str, Any]) -> Any:
    answer = handle({"id": "t", **request})
    assert answer["ok"] is True, answer
    assert answer["id"] == "t"
    REQUEST.validate({"id": "t", **request})
    RESPONSE.validate(answer)
    return answer["result"]


def test_tiles() -> None:
    standard = ok({"op": "tiles"})
    assert len(standard) == 22 and standard[0] == "6-6" and standard[-1] == "0-0"
    assert "6-0" not in standard
    assert standard == sorted(standard, key=lambda t: (int(t[0]), int(t[2])), reverse=True)
    four = ok({"op": "tiles", "rules": "partnership"})
    assert len(four) == 28 and "6-0" in four
    assert ok({"op": "tiles", "rules": "4p"}) == four  # an alias
    blank = ok({"op": "tiles", "rules": "no-double-blank"})
    assert len(blank) == 21 and "0-0" not in blank
    assert ok({"op": "tiles", "rules": {"players": 4, "tile_set": "double-six-28"}}) == four


@pytest.mark.parametrize(
    ("trump", "tile", "suit"),
    [
        (6, "3-5", 5),  # the higher end, whatever the order written (LEAD-3)
        (6, "5-3", 5),
        (6, "6-2", "trump"),
        (2, "6-2", "trump"),
        ("doubles", "4-4", "trump"),
        ("doubles", "4-2", 4),
        ("none", "4-4", 4),
        ("none", "6-6", 6),
        (0, "0-0", "trump"),
        (0, "1-1", 1),
    ],
)
def test_led_suit(trump: Any, tile: str, suit: Any) -> None:
    assert ok({"op": "led_suit", "trump": trump, "tile": tile}) == suit


@pytest.mark.parametrize(
    ("rules", "trump", "hand", "trick", "plays"),
    [
        # EX-1: the 5-3 follows a 3 lead and a 5 lead
        ("standard", 6, ["5-3", "6-6", "1-1"], ["3-2"], ["5-3"]),
        ("standard", 6, ["1-1", "5-3", "6-6"], ["5-1"], ["5-3"]),
        # EX-2: doubles trump, the 4-4 cannot follow the 4 led: any tile
        ("standard", "doubles", ["4-4", "3-1", "6-1"], ["4-2"], ["6-1", "4-4", "3-1"]),
        # a trump lead must be followed by a trump (FOLLOW-1)
        ("standard", 2, ["6-2", "6-6", "2-1"], ["5-2"], ["6-2", "2-1"]),
        # a trump never follows its other number (FOLLOW-2)
        ("standard", 6, ["6-3", "1-1"], ["3-2"], ["6-3", "1-1"]),
        # leading: anything (LEAD-1)
        ("standard", 6, ["6-3", "1-1"], [], ["6-3", "1-1"]),
        # LEAD-2: a leader of seven tiles leads the first trick, and must lead a trump
        ("lead-trump", 3, ["6-6", "3-1", "2-2", "5-5", "4-4", "1-1", "6-5"], [], ["3-1"]),
        # …but not with fewer tiles, or with no trump in hand
        (
            "lead-trump",
            3,
            ["6-6", "3-1", "2-2", "5-5", "4-4", "1-1"],
            [],
            ["6-6", "5-5", "4-4", "3-1", "2-2", "1-1"],
        ),
        ("lead-trump", "none", ["6-6", "3-1"], [], ["6-6", "3-1"]),
        # four players: three tiles may already be down
        ("partnership", 0, ["6-0", "5-5", "1-1"], ["3-0", "2-2", "4-1"], ["6-0"]),
    ],
)
def test_legal_plays(
    rules: str, trump: Any, hand: list[str], trick: list[str], plays: list[str]
) -> None:
    assert (
        ok({"op": "legal_plays", "rules": rules, "trump": trump, "hand": hand, "trick": trick})
        == plays
    )


@pytest.mark.parametrize(
    ("rules", "trump", "trick", "winner"),
    [
        ("standard", 6, ["3-2", "6-3", "3-3"], 1),
        ("standard", 6, ["3-2", "5-3", "3-3"], 2),
        ("standard", 2, ["3-2", "6-3", "2-2"], 2),  # the double is the highest trump
        ("standard", 2, ["6-2", "3-2", "6-6"], 0),  # the 2-6 beats the 2-3 (SUIT-4)
        ("standard", "doubles", ["4-2", "6-4", "1-1"], 2),  # EX-2
        ("standard", "doubles", ["4-2", "6-4", "5-3"], 1),
        ("standard", "none", ["4-2", "6-6", "4-1"], 0),  # off-suit never wins
        ("partnership", "doubles", ["1-0", "0-0", "6-6", "6-0"], 2),
    ],
)
def test_trick_winner(rules: str, trump: Any, trick: list[str], winner: int) -> None:
    assert ok({"op": "trick_winner", "rules": rules, "trump": trump, "trick": trick}) == winner


@pytest.mark.parametrize(
    ("rules", "bids", "calls"),
    [
        ("standard", [], ["pass", 4, 5, 6, 7, 21]),
        ("standard", [5, "pass"], ["pass", 6, 7, 21]),
        ("standard", [7], ["pass", 21]),
        ("standard", [4, 5, 6], []),
        ("standard", [21], []),
        ("standard", ["pass", "pass", "pass"], []),
        ("partnership-min3", [], ["pass", 3, 4, 5, 6, 7, 21]),
        ("partnership-min5", ["pass"], ["pass", 5, 6, 7, 21]),
        ("partnership-forced", ["pass", "pass", "pass"], [4, 5, 6, 7, 21]),
        ("partnership", ["pass", "pass", "pass"], ["pass", 4, 5, 6, 7, 21]),
        ({"moon": False}, [], ["pass", 4, 5, 6, 7]),
    ],
)
def test_legal_bids(rules: Any, bids: list[Any], calls: list[Any]) -> None:
    assert ok({"op": "legal_bids", "rules": rules, "bids": bids}) == calls


@pytest.mark.parametrize(
    ("rules", "bids", "result"),
    [
        ("standard", [], {"over": False, "winner": None, "bid": None, "redeal": False}),
        ("standard", [4, 5, 6], {"over": True, "winner": 2, "bid": 6, "redeal": False}),  # EX-6
        ("standard", [4, 21], {"over": True, "winner": 1, "bid": 21, "redeal": False}),
        ("standard", [5, "pass", "pass"], {"over": True, "winner": 0, "bid": 5, "redeal": False}),
        ("standard", ["pass"] * 3, {"over": True, "winner": None, "bid": None, "redeal": True}),
        (
            "partnership",
            ["pass", 4, "pass"],
            {"over": False, "winner": None, "bid": None, "redeal": False},
        ),
        (
            "partnership-forced",
            ["pass", "pass", "pass", 4],
            {"over": True, "winner": 3, "bid": 4, "redeal": False},
        ),
    ],
)
def test_auction(rules: str, bids: list[Any], result: dict[str, Any]) -> None:
    assert ok({"op": "auction", "rules": rules, "bids": bids}) == result


@pytest.mark.parametrize(
    ("rules", "bidder", "bid", "tricks", "result"),
    [
        ("standard", 0, 5, [4, 2, 1], {"made": False, "deltas": [-5, 2, 1], "game_won": False}),
        ("standard", 1, 5, [1, 5, 1], {"made": True, "deltas": [1, 5, 1], "game_won": False}),
        ("standard", 1, 5, [0, 7, 0], {"made": True, "deltas": [0, 5, 0], "game_won": False}),
        ("standard", 2, 21, [0, 0, 7], {"made": True, "deltas": [0, 0, 21], "game_won": True}),
        ("standard", 2, 21, [1, 0, 6], {"made": False, "deltas": [1, 0, -21], "game_won": False}),
        ("pagat", 2, 21, [0, 0, 7], {"made": True, "deltas": [0, 0, 21], "game_won": False}),
        ("marks", 0, 4, [4, 2, 1], {"made": True, "deltas": [1, 0, 0], "game_won": False}),
        ("marks", 0, 5, [4, 2, 1], {"made": False, "deltas": [0, 1, 1], "game_won": False}),
        ("partnership", 1, 5, [1, 3, 1, 2], {"made": True, "deltas": [2, 5], "game_won": False}),
        ("partnership", 2, 6, [1, 3, 3, 0], {"made": False, "deltas": [-6, 3], "game_won": False}),
        (
            "partnership-min3",
            0,
            3,
            [1, 1, 2, 3],
            {"made": True, "deltas": [3, 4], "game_won": False},
        ),
    ],
)
def test_score_hand(
    rules: str, bidder: int, bid: int, tricks: list[int], result: dict[str, Any]
) -> None:
    assert (
        ok({"op": "score_hand", "rules": rules, "bidder": bidder, "bid": bid, "tricks": tricks})
        == result
    )


@pytest.mark.parametrize(
    ("rules", "scores", "bidder", "winner"),
    [
        ("standard", [21, 22, 3], None, 1),
        ("standard", [22, 22, 3], None, None),  # END-2
        ("standard", [20, 19, 3], None, None),
        ("standard", [-5, 21, 3], 0, 1),
        ("bidder-out", [22, 22, 3], 1, 1),  # END-3
        ("bidder-out", [22, 22, 3], 2, None),
        ("bidder-out", [22, 22, 3], None, None),
        ("marks", [7, 6, 6], None, 0),
        ("partnership", [20, 25], 0, 1),
    ],
)
def test_game_winner(rules: str, scores: list[int], bidder: int | None, winner: int | None) -> None:
    request: dict[str, Any] = {"op": "game_winner", "rules": rules, "scores": scores}
    if bidder is not None:
        request["bidder"] = bidder
    assert ok(request) == winner
    assert ok({**request, "bidder": None}) == ok(
        {k: v for k, v in request.items() if k != "bidder"}
    )


def test_replay_of_a_whole_game() -> None:
    state = random_game("standard", 11, 5000)
    assert state.is_over
    record = to_record(state)
    result = ok({"op": "replay", "record": record})
    assert result["valid"] is True
    assert result["scores"] == list(state.scores)
    assert result["winner"] == state.winner
    assert len(result["hands"]) == state.hand_number
    # the record's own rules govern; the same rules in the request are fine too
    assert ok({"op": "replay", "rules": "standard", "record": record}) == result
    # a record without rules is read under the request's
    four = to_record(random_game("partnership", 6, 60))
    del four["rules"]
    assert ok({"op": "replay", "rules": "partnership", "record": four})["valid"] is True
    assert ok({"op": "replay", "record": four})["violation"]["rule"] == "DEAL-3"


def test_replay_reports_the_first_violation() -> None:
    record = to_record(random_game("standard", 5, 3000))
    hand = next(h for h in record["hands"] if len(h.get("plays", ())) == 21)
    i = record["hands"].index(hand)
    hand["plays"][1], hand["plays"][2] = hand["plays"][2], hand["plays"][1]
    result = ok({"op": "replay", "record": record})
    assert result["valid"] is False
    v = result["violation"]
    assert (v["hand"], v["step"], v["index"]) == (i, "play", 1)
    assert v["rule"] in ("TURN-1", "FOLLOW-1", "FOLLOW-2")
    assert v["message"].endswith(".") and v["message"][0].isupper()


def test_replay_of_a_changed_bid_and_a_trump_not_offered() -> None:
    record = to_record(random_game("pagat", 2, 80))
    hand = next(h for h in record["hands"] if "trump" in h)
    i = record["hands"].index(hand)
    hand["trump"] = "doubles"
    v = ok({"op": "replay", "record": record})["violation"]
    assert (v["hand"], v["step"], v["index"], v["rule"]) == (i, "trump", None, "TRUMP-5")
    record = to_record(random_game("standard", 2, 80))
    record["hands"][0]["bids"] = [5, 4]
    v = ok({"op": "replay", "record": record})["violation"]
    assert (v["hand"], v["step"], v["index"], v["rule"]) == (0, "bid", 1, "BID-3")
    record["hands"][0]["bids"] = [0]
    v = ok({"op": "replay", "record": record})["violation"]
    assert (v["step"], v["index"], v["rule"]) == ("bid", 0, "BID-4")


# ---------------------------------------------------------------------------
# Every error code, one fault at a time

HAND7 = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "6-5"]

ERRORS: list[tuple[str, dict[str, Any], str, str | None, str]] = [
    # (name, request, code, rule, a word the message must contain)
    ("no op", {}, "bad-request", None, "op"),
    ("op not text", {"op": 3}, "bad-request", None, "op"),
    ("op unknown", {"op": "deal"}, "unknown-op", None, "deal"),
    ("op wrong case", {"op": "Tiles"}, "unknown-op", None, "Tiles"),
    ("unknown field", {"op": "tiles", "trump": 6}, "bad-request", None, "trump"),
    ("missing field", {"op": "led_suit", "trump": 6}, "bad-request", None, "tile"),
    ("rules a number", {"op": "tiles", "rules": 3}, "bad-request", None, "rules"),
    ("rules null", {"op": "tiles", "rules": None}, "bad-request", None, "rules"),
    ("rules unknown", {"op": "tiles", "rules": "chess"}, "unknown-rules", None, "chess"),
    (
        "rules field unknown",
        {"op": "tiles", "rules": {"colours": 3}},
        "bad-request",
        None,
        "colours",
    ),
    (
        "rules field ill-typed",
        {"op": "tiles", "rules": {"players": "4"}},
        "bad-request",
        None,
        "players",
    ),
    (
        "rules bool is not an int",
        {"op": "tiles", "rules": {"target": True}},
        "bad-request",
        None,
        "target",
    ),
    ("rules inconsistent", {"op": "tiles", "rules": {"players": 4}}, "illegal", "RULES-1", "28"),
    ("rules min bid", {"op": "tiles", "rules": {"min_bid": 6}}, "illegal", "BID-4", "minimum"),
    (
        "rules trump 0 without 0s",
        {"op": "tiles", "rules": {"tile_set": "no-double-blank-21", "trump_numbers": [0, 1]}},
        "illegal",
        "TRUMP-5",
        "0",
    ),
    ("tile malformed", {"op": "led_suit", "trump": 6, "tile": "64"}, "bad-request", None, "tile"),
    ("tile end 7", {"op": "led_suit", "trump": 6, "tile": "7-1"}, "bad-request", None, "7-1"),
    (
        "tile with spaces",
        {"op": "led_suit", "trump": 6, "tile": "6 - 4"},
        "bad-request",
        None,
        "tile",
    ),
    ("tile a number", {"op": "led_suit", "trump": 6, "tile": 64}, "bad-request", None, "tile"),
    (
        "trump text number",
        {"op": "led_suit", "trump": "6", "tile": "6-4"},
        "bad-request",
        None,
        "trump",
    ),
    ("trump 7", {"op": "led_suit", "trump": 7, "tile": "6-4"}, "bad-request", None, "trump"),
    (
        "trump bool",
        {"op": "led_suit", "trump": True, "tile": "6-4"},
        "bad-request",
        None,
        "boolean",
    ),
    (
        "trump not offered",
        {"op": "led_suit", "rules": "pagat", "trump": "doubles", "tile": "6-4"},
        "illegal",
        "TRUMP-5",
        "doubles",
    ),
    (
        "trump 0 in 21 tiles",
        {"op": "led_suit", "rules": "no-double-blank", "trump": 0, "tile": "6-4"},
        "illegal",
        "TRUMP-5",
        "0",
    ),
    (
        "tile outside moon-22",
        {"op": "led_suit", "trump": 6, "tile": "6-0"},
        "illegal",
        "TILE-2",
        "6-0",
    ),
    (
        "tile outside 21",
        {"op": "led_suit", "rules": "no-double-blank", "trump": 6, "tile": "0-0"},
        "illegal",
        "TILE-4",
        "0-0",
    ),
    (
        "hand not a list",
        {"op": "legal_plays", "trump": 6, "hand": "6-6", "trick": []},
        "bad-request",
        None,
        "hand",
    ),
    (
        "hand duplicate",
        {"op": "legal_plays", "trump": 6, "hand": ["6-6", "6-6"], "trick": []},
        "illegal",
        "DEAL-3",
        "twice",
    ),
    (
        "hand duplicate written backwards",
        {"op": "legal_plays", "trump": 6, "hand": ["6-4", "4-6"], "trick": []},
        "illegal",
        "DEAL-3",
        "twice",
    ),
    (
        "hand shares a tile with the trick",
        {"op": "legal_plays", "trump": 6, "hand": ["6-6", "3-2"], "trick": ["3-2"]},
        "illegal",
        "DEAL-3",
        "3-2",
    ),
    (
        "hand empty",
        {"op": "legal_plays", "trump": 6, "hand": [], "trick": ["3-2"]},
        "illegal",
        "TRICK-1",
        "empty",
    ),
    (
        "hand of eight",
        {"op": "legal_plays", "trump": 6, "hand": [*HAND7, "3-1"], "trick": []},
        "illegal",
        "DEAL-1",
        "7",
    ),
    (
        "trick complete",
        {"op": "legal_plays", "trump": 6, "hand": ["6-6"], "trick": ["3-2", "3-1", "2-2"]},
        "illegal",
        "TRICK-1",
        "complete",
    ),
    (
        "trick incomplete",
        {"op": "trick_winner", "trump": 6, "trick": ["3-2", "3-1"]},
        "illegal",
        "TRICK-1",
        "2",
    ),
    ("trick empty", {"op": "trick_winner", "trump": 6, "trick": []}, "illegal", "TRICK-1", "0"),
    (
        "trick of four in three-player",
        {"op": "trick_winner", "trump": 6, "trick": ["3-2", "3-1", "2-2", "1-1"]},
        "illegal",
        "TRICK-1",
        "4",
    ),
    (
        "trick duplicate",
        {"op": "trick_winner", "trump": 6, "trick": ["3-2", "2-3", "1-1"]},
        "illegal",
        "DEAL-3",
        "twice",
    ),
    ("bids not a list", {"op": "legal_bids", "bids": 5}, "bad-request", None, "bids"),
    ("call text", {"op": "legal_bids", "bids": ["five"]}, "bad-request", None, "bids[0]"),
    ("call bool", {"op": "legal_bids", "bids": [True]}, "bad-request", None, "boolean"),
    ("call float", {"op": "legal_bids", "bids": [5.5]}, "bad-request", None, "bids[0]"),
    ("call zero", {"op": "legal_bids", "bids": [0]}, "illegal", "BID-4", "0"),
    ("call negative", {"op": "auction", "bids": [-4]}, "illegal", "BID-4", "-4"),
    ("call 8", {"op": "auction", "bids": [8]}, "illegal", "BID-4", "8"),
    (
        "call 21 without moon",
        {"op": "auction", "rules": {"moon": False}, "bids": [21]},
        "illegal",
        "BID-4",
        "21",
    ),
    (
        "call under min",
        {"op": "auction", "rules": "partnership-min5", "bids": [4]},
        "illegal",
        "BID-4",
        "4",
    ),
    ("call not higher", {"op": "legal_bids", "bids": [5, 5]}, "illegal", "BID-3", "bids[1]"),
    ("call after 21", {"op": "legal_bids", "bids": [21, "pass"]}, "illegal", "BID-5", "21"),
    ("call after everyone", {"op": "auction", "bids": [4, 5, 6, 7]}, "illegal", "BID-2", "bids[3]"),
    (
        "forced pass",
        {"op": "auction", "rules": "partnership-forced", "bids": ["pass", "pass", "pass", "pass"]},
        "illegal",
        "BID-8",
        "bids[3]",
    ),
    (
        "bidder no seat",
        {"op": "score_hand", "bidder": 3, "bid": 5, "tricks": [5, 1, 1]},
        "illegal",
        "SEAT-1",
        "bidder",
    ),
    (
        "bidder negative",
        {"op": "score_hand", "bidder": -1, "bid": 5, "tricks": [5, 1, 1]},
        "illegal",
        "SEAT-1",
        "bidder",
    ),
    (
        "bidder bool",
        {"op": "score_hand", "bidder": False, "bid": 5, "tricks": [5, 1, 1]},
        "bad-request",
        None,
        "boolean",
    ),
    (
        "bid not allowed",
        {"op": "score_hand", "bidder": 0, "bid": 3, "tricks": [5, 1, 1]},
        "illegal",
        "BID-4",
        "3",
    ),
    (
        "tricks short",
        {"op": "score_hand", "bidder": 0, "bid": 5, "tricks": [6, 1]},
        "illegal",
        "SEAT-1",
        "tricks",
    ),
    (
        "tricks per team",
        {"op": "score_hand", "rules": "partnership", "bidder": 0, "bid": 5, "tricks": [6, 1]},
        "illegal",
        "SEAT-1",
        "tricks",
    ),
    (
        "tricks not 7",
        {"op": "score_hand", "bidder": 0, "bid": 5, "tricks": [5, 1, 2]},
        "illegal",
        "TRICK-3",
        "8",
    ),
    (
        "tricks negative",
        {"op": "score_hand", "bidder": 0, "bid": 5, "tricks": [8, 0, -1]},
        "illegal",
        "TRICK-3",
        "tricks[2]",
    ),
    (
        "tricks float",
        {"op": "score_hand", "bidder": 0, "bid": 5, "tricks": [5, 1, 1.5]},
        "bad-request",
        None,
        "tricks[2]",
    ),
    ("scores short", {"op": "game_winner", "scores": [21, 3]}, "illegal", "SEAT-1", "scores"),
    (
        "scores per seat in partnership",
        {"op": "game_winner", "rules": "partnership", "scores": [21, 3, 4, 5]},
        "illegal",
        "TEAM-1",
        "team",
    ),
    (
        "scores text",
        {"op": "game_winner", "scores": ["21", 3, 4]},
        "bad-request",
        None,
        "scores[0]",
    ),
    (
        "winner bidder no seat",
        {"op": "game_winner", "scores": [21, 3, 4], "bidder": 5},
        "illegal",
        "SEAT-1",
        "bidder",
    ),
    ("record not an object", {"op": "replay", "record": []}, "bad-request", None, "record"),
    (
        "record rules unknown",
        {"op": "replay", "record": {"rules": "chess", "hands": []}},
        "unknown-rules",
        None,
        "chess",
    ),
    (
        "record rules inconsistent",
        {"op": "replay", "record": {"rules": {"players": 4}, "hands": []}},
        "illegal",
        "RULES-1",
        "record.rules",
    ),
    (
        "record tile malformed",
        {"op": "replay", "record": {"hands": [{"first_bidder": 0, "deal": [["6-x"]]}]}},
        "bad-request",
        None,
        "record.hands[0].deal[0][0]",
    ),
    (
        "record and request rules differ",
        {"op": "replay", "rules": "partnership", "record": {"rules": "standard", "hands": []}},
        "bad-request",
        None,
        "rules",
    ),
]


@pytest.mark.parametrize(
    ("name", "request_", "code", "rule", "word"), ERRORS, ids=[e[0] for e in ERRORS]
)
def test_each_fault_gets_its_code_and_rule(
    name: str, request_: dict[str, Any], code: str, rule: str | None, word: str
) -> None:
    answer = handle({"id": [name], **request_})
    RESPONSE.validate(answer)
    assert answer["id"] == [name]
    assert answer["ok"] is False
    error = answer["error"]
    assert (error["code"], error["rule"]) == (code, rule), error
    assert word in error["message"], error["message"]
    if code in ("bad-request", "unknown-op"):
        assert not REQUEST.is_valid({"id": 1, **request_}), "the request schema should refuse it"


def test_every_error_code_is_tested() -> None:
    codes = {e[2] for e in ERRORS} | {"bad-json", "internal"}
    assert codes == set(protocol.ERROR_CODES)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "nope",
        "{",
        '{"op": "tiles"',
        "[1, 2]",
        '"tiles"',
        "42",
        "null",
        "true",
        '{"id": 1, "op": "tiles", "x": NaN}',
        '{"id": 1, "op": "tiles", "x": Infinity}',
        '{"id": 1, "id": 2, "op": "tiles"}',
    ],
)
def test_unreadable_lines_are_bad_json_with_a_null_id(line: str) -> None:
    answer = json.loads(handle_line(line))
    RESPONSE.validate(answer)
    assert answer["id"] is None
    assert answer["error"]["code"] == "bad-json" and answer["error"]["rule"] is None


@pytest.mark.parametrize("value", [[1], "x", 3, None, True, 1.5])
def test_handle_refuses_a_request_that_is_not_an_object(value: Any) -> None:
    answer = handle(value)
    assert answer == {
        "id": None,
        "ok": False,
        "error": {"code": "bad-json", "message": answer["error"]["message"], "rule": None},
    }


def test_a_number_without_a_fractional_part_is_a_whole_number() -> None:
    assert handle({"op": "legal_bids", "bids": [5.0]})["result"] == ["pass", 6, 7, 21]
    answer = handle({"op": "score_hand", "bidder": 0.0, "bid": 5, "tricks": [5, 1, 1e0]})
    assert answer["result"]["deltas"] == [5, 1, 1]
    assert handle_line('{"id": 1.0, "op": "led_suit", "trump": 6.0, "tile": "3-2"}') == (
        '{"id":1.0,"ok":true,"result":3}'
    )


def test_the_id_is_echoed_whatever_its_value() -> None:
    for rid in (None, 0, -1.5, "x", "ü", [1, {"a": None}], {"k": [True]}):
        line = handle_line(json.dumps({"id": rid, "op": "tiles", "rules": "marks"}))
        assert line.isascii() and "\n" not in line
        assert json.loads(line)["id"] == rid
    assert handle({"op": "tiles"})["id"] is None


def test_a_fault_of_the_server_is_an_internal_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(rules: m.RuleSet, req: dict[str, Any]) -> Any:
        raise ZeroDivisionError("oops")

    monkeypatch.setitem(OPS, "tiles", protocol.Op(broken, ()))
    answer = handle({"id": 9, "op": "tiles"})
    assert answer["id"] == 9 and answer["error"]["code"] == "internal"
    assert answer["error"]["rule"] is None and "ZeroDivisionError" in answer["error"]["message"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-30, 30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | st.sampled_from(["6-4", "4-6", "pass", "doubles", "none", "trump"]),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)
fields = st.sampled_from(
    [
        "trump",
        "tile",
        "hand",
        "trick",
        "bids",
        "bidder",
        "bid",
        "tricks",
        "scores",
        "record",
        "rules",
        "id",
    ]
)


@given(st.sampled_from([*OPS, "x"]), st.dictionaries(fields, json_values, max_size=5))
def test_any_request_gets_one_well_formed_answer(op: str, body: dict[str, Any]) -> None:
    request = {**body, "op": op}
    line = handle_line(json.dumps(request))
    answer = json.loads(line)
    RESPONSE.validate(answer)
    assert answer["id"] == request.get("id")
    assert answer.get("error", {}).get("code") != "internal", answer
    if answer["ok"]:
        REQUEST.validate(request)


# ---------------------------------------------------------------------------
# The server


def _serve(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "moonrules", "serve"],
        input=stdin,
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )


def test_serve_answers_every_line_in_order_and_exits_0() -> None:
    lines = [
        json.dumps({"id": 1, "op": "led_suit", "trump": 6, "tile": "3-5"}),
        "garbage",
        "",
        json.dumps({"id": 2, "op": "nope"}),
        json.dumps({"id": 3, "op": "legal_bids", "bids": [5]}) + "\r",
        "\xff",  # becomes not-UTF-8 below
        json.dumps({"id": 4, "op": "tiles", "rules": "ü"}),
        json.dumps({"id": 5, "op": "auction", "bids": [4, 21]}),  # no final newline
    ]
    data = "\n".join(lines).encode("utf-8").replace("\xff".encode(), b"\xff")
    result = _serve(data)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode("ascii").split("\n")
    assert out[-1] == ""
    answers = [json.loads(a) for a in out[:-1]]
    assert len(answers) == len(lines)
    for a in answers:
        RESPONSE.validate(a)
    assert [a["id"] for a in answers] == [1, None, None, 2, 3, None, 4, 5]
    assert answers[0]["result"] == 5
    assert [a["error"]["code"] for a in answers[1:3]] == ["bad-json", "bad-json"]
    assert answers[3]["error"]["code"] == "unknown-op"
    assert answers[4]["result"] == ["pass", 6, 7, 21]
    assert answers[5]["error"]["code"] == "bad-json"
    assert answers[6]["error"]["code"] == "unknown-rules"
    assert answers[7]["result"] == {"over": True, "winner": 1, "bid": 21, "redeal": False}


def test_serve_with_no_input_exits_0_silently() -> None:
    result = _serve(b"")
    assert (result.returncode, result.stdout) == (0, b"")


def test_serve_flushes_each_answer_before_the_next_request() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "moonrules", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for i in range(3):
            proc.stdin.write(json.dumps({"id": i, "op": "tiles"}).encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no answer within 30 s: the server does not flush"
            answer = json.loads(proc.stdout.readline())
            assert answer["id"] == i and len(answer["result"]) == 22
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_view_shows_a_seat_its_own_tiles_and_the_widow_only_to_the_bidder() -> None:
    state = random_game("standard", 8, 6)
    while state.phase is not m.Phase.PLAY:
        state = m.apply(state, m.legal_actions(state)[-1])
    record = to_record(state)
    bidder = state.bidder
    assert bidder is not None
    for seat in range(3):
        seen = ok({"op": "view", "record": record, "seat": seat})
        assert seen["seat"] == seat and seen["phase"] == "play"
        assert seen["hand"] == [str(t) for t in sorted(state.hands[seat], reverse=True)]
        assert seen["hand_sizes"] == [len(h) for h in state.hands]
        assert seen["to_act"] == state.to_act and seen["trump"] == state.trump.to_json()
        if seat == bidder:
            assert seen["widow"] == str(state.widow) and seen["discard"] == str(state.discard)
        else:
            assert seen["widow"] is None and seen["discard"] is None
            others = {t for s, h in enumerate(state.hands) if s != seat for t in h}
            assert not {str(t) for t in others} & set(json.dumps(seen).split('"'))


def test_view_of_a_finished_hand_is_that_hand_never_the_next_deal() -> None:
    end = play_until(
        m.new_game("partnership", seed=2), random.Random(2), lambda s: s.hand_number > 1
    )
    assert end is not None
    record = to_record(end)
    record["hands"].pop()  # the record stops at the end of hand 1
    seen = ok({"op": "view", "record": record, "seat": 3})
    assert seen["phase"] == "done" and seen["to_act"] is None and seen["hand"] == []
    assert sum(seen["tricks_won"]) == 7 or seen["bidder"] is None
    with_seed = {**record, "seed": 12345}
    assert ok({"op": "view", "record": with_seed, "seat": 3}) == seen


def test_view_refuses_a_bad_seat_and_a_record_that_breaks_a_rule() -> None:
    record = to_record(random_game("standard", 8, 6))
    assert handle({"op": "view", "record": record, "seat": 3})["error"]["rule"] == "SEAT-1"
    assert handle({"op": "view", "record": record, "seat": "0"})["error"]["code"] == "bad-request"
    record["hands"][0]["bids"] = [5, 4]
    error = handle({"op": "view", "record": record, "seat": 0})["error"]
    assert (error["code"], error["rule"]) == ("illegal", "BID-3")
    assert error["message"].startswith("record.hands[0].bids[1]: ")


GUIDE = ROOT / "docs" / "guides" / "protocol.md"


def test_the_guide_s_exchanges_are_the_reference_s() -> None:
    lines = [
        line for line in GUIDE.read_text(encoding="utf-8").splitlines() if line[:2] in ("→ ", "← ")
    ]
    assert len(lines) >= 20 and len(lines) % 2 == 0
    for sent, answer in zip(lines[::2], lines[1::2], strict=True):
        assert sent.startswith("→ ") and answer.startswith("← "), (sent, answer)
        assert handle_line(sent[2:]) == answer[2:], sent


def test_the_guide_s_python_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    text = GUIDE.read_text(encoding="utf-8")
    blocks = [b.split("\n", 1)[1] for b in text.split("```python")[1:]]
    assert blocks
    for block in blocks:
        code = block.split("```", 1)[0]
        exec(compile(code, "docs/guides/protocol.md", "exec"), {"__name__": "guide"})
