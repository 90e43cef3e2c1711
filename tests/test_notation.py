"""The text notation: the writer's output parses back to the same record; errors name the line."""

from __future__ import annotations

import json

import pytest
from gamehelpers import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

import moonrules as m
from moonrules.records.notation import (
    ClaimLine,
    NotationError,
    ScoreLine,
    looks_like_json,
    parse_notation,
    write_notation,
)
from moonrules.records.record import RecordError, replay, to_record


@settings(deadline=None)
@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(0, 300))
def test_writer_output_parses_back_to_the_same_record(preset: str, seed: int, steps: int) -> None:
    record = json.loads(json.dumps(to_record(random_game(preset, seed, steps))))
    text = write_notation(record)
    assert parse_notation(text).record == record
    # and the text is stable: writing the parsed record again gives the same text
    assert write_notation(parse_notation(text).record) == text


@pytest.mark.parametrize("preset", sorted(m.PRESETS))
def test_every_preset_round_trips_a_whole_game(preset: str) -> None:
    s = random_game(preset, 11, 3000)
    record = to_record(s)
    back = parse_notation(write_notation(record)).record
    assert back == json.loads(json.dumps(record))
    assert replay(back).state == s


SAMPLE = """\
# a hand-written record
rules standard
seed 7

hand 1            # the first hand
first 0
deal 0: 6-6 6-5 5-5 4-3 3-3 2-1 1-1
deal 1: 6-4 6-3 6-2 5-4 5-2 4-4 3-1
deal 2: 6-1 5-3 5-1 4-2 4-1 3-2 0-0
widow 2-2
0 bids 5
seat 1 passes
2 pass
discard 1-2
TRUMP 6
trick 1: 6-6 6-4 6-1
trick 2: 5-5 5-4 3-5
"""


def test_a_hand_written_record() -> None:
    n = parse_notation(SAMPLE)
    hand = n.record["hands"][0]
    assert n.record["rules"] == "standard" and n.record["seed"] == 7
    assert hand["bids"] == [5, "pass", "pass"]
    assert hand["discard"] == "2-1" and hand["trump"] == 6
    assert hand["plays"] == ["6-6", "6-4", "6-1", "5-5", "5-4", "5-3"]
    assert n.seats == {(0, 0): 0, (0, 1): 1, (0, 2): 2}
    assert n.lines[(0, "play", 4)] == 17
    assert n.lines[(0, "bid", 1)] == 12
    assert replay(n.record).violation is None


def test_score_and_claim_lines_round_trip() -> None:
    s = random_game("standard", 3, 60)
    record = to_record(s)
    text = write_notation(
        record, scores=[ScoreLine(0, (1, 1, -21), 0)], claim=ClaimLine(1, 2, None, 0)
    )
    n = parse_notation(text)
    assert n.scores[0].totals == (1, 1, -21) and n.scores[0].hand == 0
    assert n.claim is not None and (n.claim.seat, n.claim.tricks) == (2, None)
    assert n.claim.hand == len(record["hands"]) - 1
    assert "claim 2 all" in text


def test_custom_rules_as_a_json_object() -> None:
    rules = m.RuleSet(min_bid=3, renege=m.Renege.PENALTY)
    s = m.new_game(rules, seed=4)
    record = to_record(s)
    text = write_notation(record)
    assert text.splitlines()[0].startswith("rules {")
    assert parse_notation(text).record == json.loads(json.dumps(record))


def test_format_detection() -> None:
    assert looks_like_json('  {"hands": []}') and looks_like_json("\ufeff[1]")
    assert not looks_like_json("rules standard")


BAD = [
    ("hand 1\nfirst 0\ndeal 0: 6-6 7-1", 3, "not a tile"),
    ("rules nonsense\nhand 1", 1, "no rule set is called"),
    ("hand 2", 1, "expected 'hand 1'"),
    ("first 0", 1, "expected 'hand 1' first"),
    ("hand 1\nfirst 5", 2, "no seat 5"),
    ("hand 1\nfirst 0\ndeal 0: 6-6\n0 bids 5", 4, "expected 'deal 1: …'"),
    ("hand 1\nfirst 0\nwibble", 3, "expected one of"),
    ("hand 1\nfirst 0\n0 bids five", 3, "whole number of tricks"),
    ("hand 1\nfirst 0\n0 calls 5", 3, "a call is written"),
    ("hand 1\nfirst 0\ntrump", 3, "expected 'trump X'"),
    ("seed x", 1, "expected 'seed N'"),
    ("hand 1\nfirst 0\ndeal 0: 6-6\ndeal 0: 5-5", 4, "already has a deal line"),
    ("rules standard\nhand 1\nrules standard", 3, "header line"),
    ("# nothing here\n\n", 3, "has no hand"),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD)
def test_errors_name_the_line_and_what_was_expected(text: str, line: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(text)
    assert info.value.line == line
    assert isinstance(info.value, RecordError) and info.value.path == f"line {line}"
    assert words in str(info.value), str(info.value)


def _full_hand_prefix() -> str:
    return "\n".join(SAMPLE.splitlines()[:15]) + "\n"


def test_trick_errors() -> None:
    base = _full_hand_prefix()
    with pytest.raises(NotationError, match="expected 'trick 1'"):
        parse_notation(base + "trick 2: 6-6 6-4 6-1\n")
    with pytest.raises(NotationError, match="one per player"):
        parse_notation(base + "trick 1: 6-6 6-4 6-1 5-5\n")
    with pytest.raises(NotationError, match="only the last trick of a hand may be unfinished"):
        parse_notation(base + "trick 1: 6-6 6-4\ntrick 2: 5-5\n")
    with pytest.raises(NotationError, match="comes before"):
        parse_notation(base + "trick 1: 6-6 6-4 6-1\ndeal 1: 3-3\n")
    with pytest.raises(NotationError, match="expected 'trump X' with 0-6"):
        parse_notation("\n".join(SAMPLE.splitlines()[:14]) + "\ntrump purple\n")
    with pytest.raises(NotationError, match="nothing may follow the claim"):
        parse_notation(base + "claim 0 all\ntrick 1: 6-6 6-4 6-1\n")
    with pytest.raises(NotationError, match="'score' and 3 whole numbers"):
        parse_notation(base + "score 1 2\n")


def test_writer_refuses_a_value_that_is_no_record() -> None:
    with pytest.raises(RecordError):
        write_notation({"hands": "no"})
