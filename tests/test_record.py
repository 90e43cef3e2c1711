"""Records: the save format round-trips, and replay finds the first broken rule."""

from __future__ import annotations

import json

import pytest
from gamehelpers import random_game
from hypothesis import assume, given
from hypothesis import strategies as st

import moonrules as m
from moonrules.records.record import RecordError, RecordViolation, from_record, replay, to_record


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
