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
from moonrules.records.record import RecordError, to_record
from moonrules.records.replay import replay


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


@settings(deadline=None)
@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(0, 400))
def test_every_step_names_the_line_it_came_from(preset: str, seed: int, steps: int) -> None:
    """``lines`` has a key for each step the record holds, and no other, each naming the line
    that wrote it; ``seats`` the seat written on each call."""
    record = json.loads(json.dumps(to_record(random_game(preset, seed, steps))))
    text = write_notation(record)
    n = parse_notation(text)
    players = len(record["hands"][0]["deal"])
    written = text.splitlines()
    expected: dict[tuple[int, str, int | None], str] = {}
    seats = {}
    for h, hand in enumerate(record["hands"]):
        expected[(h, "deal", None)] = f"hand {h + 1}"
        expected[(h, "first", None)] = "first "
        for s in range(players):
            expected[(h, "deal", s)] = f"deal {s}:"
        for key in ("widow", "discard", "trump"):
            if key in hand:
                expected[(h, key, None)] = key
        for j, call in enumerate(hand.get("bids", [])):
            seat = (hand["first_bidder"] + j) % players
            expected[(h, "bid", j)] = f"{seat} passes" if call == "pass" else f"{seat} bids"
            seats[(h, j)] = seat
        plays = hand.get("plays", [])
        for k in range(-(-len(plays) // players)):
            expected[(h, "trick", k)] = f"trick {k + 1}:"
        for i in range(len(plays)):
            expected[(h, "play", i)] = f"trick {i // players + 1}:"
    assert set(n.lines) == set(expected) and len(n.lines) == len(expected)
    for key, start in expected.items():
        assert written[n.lines[key] - 1].startswith(start), (key, written[n.lines[key] - 1])
    assert dict(n.seats) == seats and n.seats == seats and len(n.seats) == len(seats)


def test_the_line_maps_know_no_other_key() -> None:
    n = parse_notation(SAMPLE)
    for key in [
        (0, "nope", None),
        (1, "deal", None),
        (-1, "deal", None),
        (0, "bid", 3),
        (0, "bid", -1),
        (0, "play", 6),
        (0, "deal", 3),
        (0, "trick", 2),
        ("0", "deal", None),
        (0, "deal"),
        "x",
        None,
    ]:
        assert n.lines.get(key) is None  # type: ignore[call-overload]
        with pytest.raises(KeyError):
            n.lines[key]  # type: ignore[index]
    for key in [(0, 3), (1, 0), (0, -1), ("0", 0), (0,), None]:
        assert n.seats.get(key) is None  # type: ignore[call-overload]


def test_lines_are_read_as_splitlines_reads_them() -> None:
    """Every character that ends a line for Python ends one here, and the line numbers of a
    long record (read a block at a time) are those of str.splitlines."""
    ends = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
    base = SAMPLE.splitlines()
    for end in ends:
        text = end.join(base) + end
        assert parse_notation(text) == parse_notation(SAMPLE)
    filler = "# a comment that makes the record long\n" * 5000
    long = filler + SAMPLE.replace("\n", "\r\n")
    n = parse_notation(long)
    assert n.lines[(0, "play", 4)] == 5000 + 17 and n.record == parse_notation(SAMPLE).record
    with pytest.raises(TypeError, match=r"^text: "):
        parse_notation(b"hand 1")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The players' names: 'player S NAME' header lines

_NAME = st.text(
    st.characters(blacklist_categories=("C", "Zl", "Zp")), min_size=1, max_size=40
).filter(lambda t: 1 <= len(t.strip()) <= 40)


@settings(deadline=None)
@given(
    st.sampled_from(sorted(m.PRESETS)),
    st.integers(0, 2**32),
    st.integers(0, 200),
    st.lists(st.one_of(st.none(), _NAME), min_size=4, max_size=4),
)
def test_names_survive_the_notation_exactly(
    preset: str, seed: int, steps: int, names: list[str | None]
) -> None:
    """Whatever the names hold ('#', a leading '"', blanks at either end, backslashes),
    JSON to the notation and back gives the same record, and the same text again."""
    s = random_game(preset, seed, steps)
    record = json.loads(json.dumps(to_record(s)))
    record = {**record, "players": names[: s.rules.players]}
    record = {k: record[k] for k in ("rules", "seed", "players", "hands") if k in record}
    text = write_notation(record)
    assert text.count("\nplayer ") == s.rules.players
    back = parse_notation(text).record
    assert back == record and list(back) == list(record)
    assert write_notation(back) == text
    assert m.read_record(text) == s


def test_player_lines_written_by_hand() -> None:
    text = (
        "rules standard\nseed 7\nplayer 0 Ann Lee   # a comment\nPLAYER seat 2 "
        '"No. \\u0023 1"\n' + SAMPLE.split("\n", 3)[3]
    )
    note = parse_notation(text)
    assert note.record["players"] == ["Ann Lee", None, "No. # 1"]
    assert list(note.record)[:3] == ["rules", "seed", "players"]
    assert 'player 2 "No. \\u0023 1"' in write_notation(note.record)
    assert "players" not in parse_notation(SAMPLE).record
    assert "player" not in write_notation(parse_notation(SAMPLE).record)


PLAYER_BAD = [
    ("player 0 Ann\nplayer 0 Bo\nhand 1", 2, "seat 0 already has a 'player' line"),
    ("player 3 Ann\nhand 1", 1, "there is no seat 3"),
    ("player 0 Ann\nrules partnership\nhand 1", 2, "'rules' comes before the 'player' lines"),
    ("hand 1\nplayer 0 Ann", 2, "'player' is a header line"),
    ('player 1 "Ann\nhand 1', 1, "is a JSON string"),
    ('player 1 "Ann" Lee\nhand 1', 1, "is a JSON string"),
    ('player 1 "Ann\\u0007"\nhand 1', 1, "the name of seat 1: U+0007"),
    ('player 1 "   "\nhand 1', 1, "at least one character besides blanks"),
    ("player 2 " + "x" * 41 + "\nhand 1", 1, "the name of seat 2: a name has at most 40"),
    ("player 2 " + "x" * 4_000_000 + "\nhand 1", 1, "not 4,000,000"),
    ("player Ann", 1, "expected 'player S NAME'"),
]


@pytest.mark.parametrize(("text", "line", "words"), PLAYER_BAD, ids=range(len(PLAYER_BAD)))
def test_bad_player_lines_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(text)
    assert info.value.line == line and words in str(info.value), str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_a_partnership_notation_names_four_seats() -> None:
    s = random_game("partnership", 2, 40)
    record = to_record(s, players=["N", "E", None, "W"])
    text = write_notation(record)
    assert "player 3 W" in text and "player 2\n" in text
    assert parse_notation(text).record == record
    assert replay(parse_notation(text).record).players == ("N", "E", None, "W")
