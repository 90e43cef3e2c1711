"""Records: the save format round-trips, and replay finds the first broken rule."""

from __future__ import annotations

import json
import re

import pytest
from gamehelpers import random_game
from hypothesis import assume, given
from hypothesis import strategies as st

import moonrules as m
from moonrules.records.record import RecordError, RecordViolation, to_record
from moonrules.records.replay import from_record, replay


@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(0, 400))
def test_record_round_trips_at_any_step(preset: str, seed: int, steps: int) -> None:
    s = random_game(preset, seed, steps)
    record = json.loads(json.dumps(to_record(s)))
    assert from_record(record) == s


@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32))
def test_replay_of_a_long_game_reproduces_scores(preset: str, seed: int) -> None:
    # random players can drift below zero for ever under some presets: cap the length
    s = random_game(preset, seed, 3000)
    answer = replay(to_record(s)).to_json()
    assert answer["valid"] is True
    assert answer["scores"] == list(s.scores)
    assert answer["winner"] == s.winner
    assert len(answer["hands"]) == s.hand_number
    assert [h["deltas"] for h in answer["hands"][:-1]] == [
        list(h.deltas or [0] * len(s.scores)) for h in s.history
    ]
    assert [sum(h["deltas"]) for h in answer["hands"]] == [
        sum(h.deltas or ()) for h in (*s.history, s.hand)
    ]


def _standard_record() -> dict[str, object]:
    return to_record(random_game("standard", 3, 40))


def test_a_play_out_of_turn_is_reported_at_that_play() -> None:
    s = random_game("standard", 5, 3000)
    record = to_record(s)
    hand = next(h for h in record["hands"] if "plays" in h and len(h["plays"]) == 21)
    i = record["hands"].index(hand)
    hand["plays"][1], hand["plays"][2] = hand["plays"][2], hand["plays"][1]
    v = replay(record).violation
    assert v is not None and v.hand == i and v.step == "play" and v.index == 1
    assert v.rule in ("TURN-1", "FOLLOW-1", "FOLLOW-2")


def test_a_duplicated_tile_in_the_deal_is_a_deal_violation() -> None:
    record = _standard_record()
    hands = record["hands"]
    assert isinstance(hands, list)
    hands[0]["deal"][0][0] = hands[0]["deal"][1][0]
    v = replay(record).violation
    assert v is not None and (v.hand, v.step, v.rule) == (0, "deal", "DEAL-3")
    with pytest.raises(RecordViolation) as e:
        from_record(record)
    assert e.value.rule == "DEAL-3"


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda r: r.update(hands="x"), "hands"),
        (lambda r: r["hands"][0].update(deal=[["6-7"]]), "hands[0].deal[0][0]"),
        (lambda r: r["hands"][0].update(colour="red"), "hands[0].colour"),
        (lambda r: r["hands"][0].update(bids=["pass", "five"]), "hands[0].bids[1]"),
        (lambda r: r.update(rules="chess"), "rules"),
        (lambda r: r["hands"][0].pop("deal"), "hands[0]"),
    ],
)
def test_malformed_records_name_the_field(mutate: object, where: str) -> None:
    record = _standard_record()
    mutate(record)  # type: ignore[operator]
    with pytest.raises(RecordError) as e:
        replay(record)
    assert e.value.path == where


def test_the_state_of_a_violation_is_the_state_just_before_the_broken_step() -> None:
    s = random_game("standard", 5, 3000)
    record = to_record(s)
    i, hand = next((i, h) for i, h in enumerate(record["hands"]) if len(h.get("plays", [])) == 21)
    hand["plays"][1], hand["plays"][2] = hand["plays"][2], hand["plays"][1]
    result = replay(record)
    assert result.violation is not None and result.violation.index == 1
    before = result.state
    assert before.hand_number == i + 1 and before.phase is m.Phase.PLAY
    assert len(before.trick) == 1 and not before.tricks
    assert str(before.trick[0]) == hand["plays"][0]


@given(st.sampled_from(sorted(m.PRESETS)), st.integers(0, 2**32), st.integers(1, 3000))
def test_a_violation_leaves_the_state_reached_with_its_whole_history(
    preset: str, seed: int, steps: int
) -> None:
    """A replay keeps the earlier hands aside while it runs (not to copy them at each hand):
    the state it reports, at a violation as at the end, has every one of them."""
    s = random_game(preset, seed, steps)
    record = json.loads(json.dumps(to_record(s)))
    hands = len(record["hands"])
    assume(hands >= 2)
    last = record["hands"][-1]
    last["first_bidder"] = (last["first_bidder"] + 1) % s.rules.players  # BID-1 broken
    result = replay(record)
    assert result.violation is not None and result.violation.rule == "BID-1"
    assert result.violation.hand == hands - 1
    assert result.state.history == s.history[: hands - 1]
    assert result.state.hand_number == hands
    assert replay(to_record(s)).state.history == s.history


def test_a_python_value_that_is_not_json_is_named_as_such() -> None:
    """A value no JSON text could give (the ``Notation`` that ``parse_notation`` returns, a
    set) is named by its type, not called 'an object' in a message that then reads 'a
    record is a JSON object, got an object'."""
    from moonrules import from_record, new_game, to_record
    from moonrules.records.notation import parse_notation, write_notation

    notation = parse_notation(write_notation(to_record(new_game(seed=7))))
    with pytest.raises(ValueError, match=r"^a record is a JSON object, got a Notation, not a JSON"):
        from_record(notation)  # type: ignore[arg-type]
    assert from_record(notation.record) == new_game(seed=7)
    record = {"rules": "standard", "seed": 1, "hands": [{1, 2}]}
    with pytest.raises(ValueError, match=r"hands\[0\]: expected a hand object, got a set, not a"):
        from_record(record)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The players' names (the record's optional ``players`` field)

_NAMES = st.one_of(
    st.none(),
    st.text(st.characters(blacklist_categories=("C", "Zl", "Zp")), min_size=1, max_size=40).filter(
        lambda t: 1 <= len(t.strip()) <= 40
    ),
)


@given(
    st.sampled_from(sorted(m.PRESETS)),
    st.integers(0, 2**32),
    st.integers(0, 400),
    st.lists(_NAMES, min_size=4, max_size=4),
)
def test_names_round_trip_and_leave_the_game_as_it_was(
    preset: str, seed: int, steps: int, names: list[str | None]
) -> None:
    """A record written with names reads back the same game, the names trimmed by
    ``players_of``, and is written back exactly; a game played on keeps them."""
    from moonrules.records.record import players_of

    s = random_game(preset, seed, steps)
    names = names[: s.rules.players]
    record = json.loads(json.dumps(to_record(s, players=names)))
    assert list(record) == [k for k in ("rules", "seed", "players", "hands") if k in record]
    trimmed = tuple(None if n is None else n.strip() for n in names)
    assert record["players"] == list(trimmed)
    read = from_record(record)
    assert read == s and hash(read) == hash(s)
    assert players_of(read) == trimmed
    assert to_record(read) == record
    assert replay(record).players == trimmed
    if not read.is_over:
        on = m.apply(read, m.legal_actions(read)[0])
        assert to_record(on)["players"] == list(trimmed)
        assert players_of(on) == trimmed


def test_a_record_keeps_its_names_as_written_and_a_writer_may_replace_them() -> None:
    from moonrules.records.record import players_of

    s = random_game("standard", 3, 40)
    assert "players" not in to_record(s) and players_of(s) is None
    record = {**to_record(s), "players": ["  Ann ", None, "Bo"]}
    read = from_record(record)
    assert to_record(read) == record  # the spelling kept, blanks and all
    assert list(to_record(read)) == list(record)
    assert players_of(read) == ("Ann", None, "Bo")
    assert to_record(read, players=["Cy", "Di", None])["players"] == ["Cy", "Di", None]
    plain = from_record(to_record(s))
    assert players_of(plain) is None and "players" not in to_record(plain)
    named = to_record(plain, players=("Ed", None, None))
    assert list(named) == ["rules", "seed", "players", "hands"] and named["players"][0] == "Ed"
    # names are not the game's value
    assert from_record(named) == from_record(record) == s


@pytest.mark.parametrize(
    ("players", "where", "words"),
    [
        ("Ann", "players", "expected a list of names"),
        ({"0": "Ann"}, "players", "got an object"),
        (["Ann", "Bo"], "players", "these rules have 3 seats, and the list has 2 entries"),
        (["Ann", None, None, None], "players", "the list has 4 entries"),
        ([7, None, None], "players[0]", "a name is text, or null"),
        ([None, True, None], "players[1]", "got true (a boolean)"),
        ([None, None, ["Ann"]], "players[2]", "got a list"),
        ([None, None, {"name": "Ann"}], "players[2]", "got an object"),
        ([None, "", None], "players[1]", "at least one character besides blanks"),
        ([None, " \u3000 ", None], "players[1]", "at least one character besides blanks"),
        ([None, None, "x" * 41], "players[2]", "at most 40 characters"),
        (["a\u0007b", None, None], "players[0]", "U+0007 is a control or format character"),
        (["a\nb", None, None], "players[0]", "U+000A"),
        (["Ann\t", None, None], "players[0]", "U+0009"),
        (["a\u202eb", None, None], "players[0]", "U+202E"),
        (["a\u2028b", None, None], "players[0]", "U+2028"),
        (["\ud800", None, None], "players[0]", "U+D800"),
    ],
)
def test_bad_names_are_refused_naming_the_entry(players: object, where: str, words: str) -> None:
    record = {**_standard_record(), "players": players}
    with pytest.raises(RecordError) as e:
        replay(record)
    assert e.value.path == where and words in e.value.message, str(e.value)
    assert str(e.value).startswith(f"{where}: ") and "\n" not in str(e.value)
    s = random_game("standard", 3, 40)
    if isinstance(players, list):  # a Python writer: a name of the wrong type is a TypeError
        typed = all(p is None or isinstance(p, str) for p in players)
        with pytest.raises(RecordError if typed else TypeError, match=rf"^{re.escape(where)}: "):
            to_record(s, players=players)


def test_a_partnership_record_names_four_seats() -> None:
    s = random_game("partnership", 4, 30)
    record = to_record(s, players=["N", "E", "S", "W"])
    assert from_record(record) == s
    with pytest.raises(RecordError, match=r"^players: .*have 4 seats, and the list has 3 entries"):
        from_record({**record, "players": ["N", "E", "S"]})


def test_a_writer_passes_names_as_a_sequence() -> None:
    s = random_game("standard", 3, 10)
    for bad in ("Ann", 7, {"Ann": 0}, b"abc"):
        with pytest.raises(TypeError, match=r"^players: "):
            to_record(s, players=bad)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^players: .*the list has 2 entries"):
        to_record(s, players=["Ann", "Bo"])


def test_hostile_names_are_refused_in_one_line() -> None:
    """A huge name, a million entries, names nested in junk, a million blanks around a
    control character: each refused with one line naming the entry, the text read once."""
    from moonrules.records.record import load_record

    base = _standard_record()
    cases: list[tuple[object, str]] = [
        (["x" * 10_000_000, None, None], "players[0]: a name has at most 40 characters"),
        ([" " * 5_000_000 + "Ann" + " " * 5_000_000, None, "\x00"], "players[2]: U+0000"),
        ([" " * 5_000_000 + "a\x85" + " " * 5_000_000, None, None], "players[0]: U+0085"),
        ([None] * 1_000_000, "players: one name (or null) per seat"),
        (["Ann"] * 1_000_000, "players: one name (or null) per seat"),
        ([[[[[["Ann"]]]]], None, None], "players[0]: a name is text"),
        ([None, None, {"a": [{"b": {}}] * 1000}], "players[2]: a name is text"),
    ]
    for players, message in cases:
        record = {**base, "players": players}
        with pytest.raises(RecordError) as e:
            from_record(record)
        assert str(e.value).startswith(message) and "\n" not in str(e.value)
        assert len(str(e.value)) < 300
    # the same through the record's text (the size limit lifted)
    text = json.dumps({**base, "players": [None] * 1_000_000})
    with pytest.raises(RecordError, match="4 MiB"):
        load_record(text)
    with pytest.raises(RecordError, match=r"^players: .*1,000,000 entries$"):
        from_record(load_record(text, max_length=None))


def test_a_violation_keeps_the_names_and_the_protocol_answer_is_unchanged() -> None:
    from moonrules.conformance.protocol import handle

    s = random_game("standard", 5, 3000)
    record = to_record(s)
    named = {**record, "players": ["Ann", None, "Bo"]}
    assert handle({"id": 1, "op": "replay", "record": named}) == handle(
        {"id": 1, "op": "replay", "record": record}
    )
    assert handle({"id": 2, "op": "view", "record": named, "seat": 1}) == handle(
        {"id": 2, "op": "view", "record": record, "seat": 1}
    )
    bad = handle({"id": 3, "op": "replay", "record": {**record, "players": ["Ann", 4, None]}})
    assert bad["ok"] is False and bad["error"]["code"] == "bad-request"
    assert bad["error"]["message"].startswith("record.players[1]: "), bad
    broken = json.loads(json.dumps(named))
    broken["hands"][0]["first_bidder"] = (broken["hands"][0]["first_bidder"] + 1) % 3
    result = replay(broken)
    assert result.violation is not None and result.players == ("Ann", None, "Bo")
    assert "players" not in json.dumps(result.to_json())


def test_the_schema_takes_the_names_the_reader_takes() -> None:
    from pathlib import Path

    from jsonschema import Draft202012Validator

    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "spec/schema/record.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    base = json.loads(json.dumps(_standard_record()))
    good = ["Ann", " Bo ", "x" * 40, "  " + "y" * 40 + "\u3000", "Ann <b>Lee</b>", "名前", "a  b"]
    bad = ["", "   ", "x" * 41, "a\tb", "a\u0007", "a\u202eb", "a\u2028b", "\ufeffAnn", "a\x85"]
    for name in good:
        record = {**base, "players": [name, None, None]}
        assert validator.is_valid(record), name
        from_record(record)
    for name in bad:
        record = {**base, "players": [None, name, None]}
        assert not validator.is_valid(record), name
        with pytest.raises(RecordError, match=r"^players\[1\]: "):
            from_record(record)
    assert not validator.is_valid({**base, "players": "Ann"})
    assert not validator.is_valid({**base, "players": [1, None, None]})


def test_check_shows_the_names_in_its_reports(tmp_path: object) -> None:
    """``moonrules check`` reads a record with names and shows them in the reports'
    header; the HTML page escapes them."""
    from moonrules.arbitration.check import check
    from moonrules.arbitration.report_html import report_html
    from moonrules.arbitration.report_text import format_report

    s = random_game("standard", 3, 40)
    record = to_record(s, players=["<b>Ann</b> & Co", None, "Bo"])
    report = check(record)
    assert report.valid
    text = format_report(report)
    assert text.splitlines()[1] == "Players: seat 0 <b>Ann</b> & Co, seat 1 (no name), seat 2 Bo"
    page = report_html(report)
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; Co" in page and "<b>Ann</b>" not in page
    plain = check(to_record(s))
    assert "Players:" not in format_report(plain) and "Players:" not in report_html(plain)
