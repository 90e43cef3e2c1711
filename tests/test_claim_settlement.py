"""CLAIM-1 settled in the game layer: ``apply_claim`` ends the hand with the claimed tricks to
the claimant's side (and, with four players, the rest to the other team), records keep the
claim and replay it, ``moonrules check`` scores it, and no refusal depends on hidden tiles."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonrules import (
    Claim,
    ClaimDoesNotHold,
    ClaimError,
    ClaimUndecided,
    GameState,
    Phase,
    apply,
    apply_claim,
    from_record,
    legal_actions,
    new_game,
    to_record,
    view,
)
from moonrules.analysis.claim import verify_claim
from moonrules.game.claims import ClaimSearch
from moonrules.game.resample import resample
from moonrules.records import replay


def _in_play(preset: str, seed: int, tricks: int) -> GameState:
    """A seeded game played at random to the play of its first hand, ``tricks`` tricks in."""
    s = new_game(preset, seed=seed)
    rng = random.Random(seed)
    while s.phase is not Phase.PLAY or len(s.tricks) < tricks:
        s = apply(s, rng.choice(legal_actions(s)))
        if s.hand_number > 1:  # thrown in: start again from the next deal's auction
            return _in_play(preset, seed + 1000, tricks)
    return s


def _side_tricks(s: GameState, tricks_won: tuple[int, ...]) -> list[int]:
    out = [0] * s.rules.sides
    for seat, n in enumerate(tricks_won):
        out[s.rules.side_of(seat)] += n
    return out


def _ended(before: GameState, after: GameState) -> tuple[int, ...]:
    """The tricks per seat of the hand ``before`` was in, once it ended in ``after``."""
    done = after.hand if after.is_over else after.history[-1]
    assert done.number == before.hand_number and done.phase is Phase.DONE
    return done.tricks_won


def test_the_issue_reproduction_partnership_claim_of_one_at_the_first_lead() -> None:
    """A partnership claim of one trick at the first lead that holds gives the side one trick
    and the other team six: not what a scripted defence let the side take."""
    for seed in range(40):
        s = _in_play("partnership", seed, 0)
        seat = s.to_act
        assert seat is not None
        if not verify_claim(s, seat, 1).holds:
            continue
        t = apply_claim(s, seat, 1)
        side = s.rules.side_of(seat)
        got = _side_tricks(s, _ended(s, t))
        assert got[side] == 1 and got[1 - side] == 6, (seed, got)
        return
    pytest.fail("no first-lead claim of one trick held in 40 deals")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    tricks=st.integers(2, 6),
    preset=st.sampled_from(["standard", "partnership"]),
)
def test_a_claim_holds_exactly_when_the_search_says_and_credits_what_it_claims(
    seed: int, tricks: int, preset: str
) -> None:
    s = _in_play(preset, seed, tricks)
    seat = s.to_act
    assert seat is not None
    left = 7 - len(s.tricks)
    side = s.rules.side_of(seat)
    before = _side_tricks(s, s.tricks_won)
    sure = verify_claim(s, seat).guaranteed
    counts = range(1, left + 1) if s.rules.partnership else (left,)
    for k in counts:
        if sure < k:
            with pytest.raises(ClaimDoesNotHold) as refused:
                apply_claim(s, seat, k)
            assert refused.value.rule == "CLAIM-1"
            continue
        t = apply_claim(s, seat, k)
        got = _side_tricks(s, _ended(s, t))
        want = list(before)
        want[side] += k
        if s.rules.partnership:
            want[1 - side] += left - k
        assert got == want
        done = t.hand if t.is_over else t.history[-1]
        assert done.claim == Claim(seat, k)
        assert sum(got) == 7


def test_with_three_players_a_claim_is_of_every_trick_left() -> None:
    s = _in_play("standard", 3, 2)
    seat = s.to_act
    assert seat is not None
    with pytest.raises(ClaimError, match="with three players a claim is of all") as e:
        apply_claim(s, seat, 1)
    assert e.value.rule == "CLAIM-1"


def test_a_claim_is_made_on_ones_turn_in_play() -> None:
    s = _in_play("partnership", 5, 1)
    seat = s.to_act
    assert seat is not None
    with pytest.raises(ClaimError) as e:
        apply_claim(s, (seat + 1) % 4)
    assert e.value.rule == "TURN-1"
    with pytest.raises(ClaimError) as e:
        apply_claim(new_game("partnership", seed=1), 0)
    assert e.value.rule == "CLAIM-1" and "not now" in e.value.message
    for bad in (0, 8, 7 - len(s.tricks) + 1):
        with pytest.raises(ClaimError, match=f"not {bad}"):
            apply_claim(s, seat, bad)
    with pytest.raises(TypeError, match="tricks"):
        apply_claim(s, seat, "all")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="budget"):
        apply_claim(s, seat, None, budget=0)


def test_a_refusal_is_the_same_in_every_deal_the_claimant_cannot_tell_apart() -> None:
    """The answer to a refused claim depends only on what the claimant sees: over worlds drawn
    from the claimant's view, every refusal has the same words (and fields)."""
    for preset in ("standard", "partnership"):
        s = _in_play(preset, 11, 1)
        seat = s.to_act
        assert seat is not None
        seen = view(s, seat)
        rng = random.Random(7)
        messages: set[tuple[str, str, int | None]] = set()
        outcomes = set()
        for _ in range(40):
            w = resample(seen, rng)
            assert view(w, seat) == seen
            try:
                apply_claim(w, seat)
                outcomes.add(True)
            except ClaimDoesNotHold as e:
                outcomes.add(False)
                messages.add((str(e), e.rule, e.seat))
        assert len(messages) == 1, messages
        assert False in outcomes


def test_a_budget_bounds_the_search_and_answers_undecided_past_it() -> None:
    s = _in_play("partnership", 2, 0)
    seat = s.to_act
    assert seat is not None
    with pytest.raises(ClaimUndecided, match="too early to check") as e:
        apply_claim(s, seat, 3, budget=50)
    assert e.value.budget == 50
    search = ClaimSearch(s, seat, budget=200)
    h = s.hand
    with pytest.raises(ClaimUndecided):
        search.probe(h.hands, h.trick, h.leader, 0, 3)
    assert len(search.memo) <= 200
    late = _in_play("partnership", 2, 5)
    assert late.to_act is not None
    with contextlib.suppress(ClaimDoesNotHold):  # two tricks left: decided within the budget
        apply_claim(late, late.to_act, budget=2_000)


def test_records_keep_a_claim_and_replay_it() -> None:
    done = 0
    for seed in range(30):
        s = _in_play("partnership", seed, 3)
        seat = s.to_act
        assert seat is not None
        for k in (4, 3, 2, 1):
            try:
                t = apply_claim(s, seat, k)
            except ClaimDoesNotHold:
                continue
            rng = random.Random(seed)
            for _ in range(15):  # the game goes on after the claim
                if t.is_over:
                    break
                t = apply(t, rng.choice(legal_actions(t)))
            record = to_record(t)
            assert record["hands"][0]["claim"] == {"seat": seat, "tricks": k}
            assert from_record(json.loads(json.dumps(record))) == t
            done += 1
            break
    assert done >= 5


def _claimed_record(holds: bool) -> tuple[dict[str, object], GameState]:
    for seed in range(60):
        s = _in_play("standard", seed, 4)
        seat = s.to_act
        assert seat is not None
        if verify_claim(s, seat).holds is holds:
            record = to_record(s)
            record["hands"][-1]["claim"] = {"seat": seat, "tricks": 7 - len(s.tricks)}
            return record, s
    raise AssertionError("no such claim in 60 deals")


def test_a_record_whose_claim_does_not_hold_breaks_claim_1() -> None:
    record, s = _claimed_record(False)
    result = replay(record)
    v = result.violation
    assert v is not None and (v.hand, v.step, v.index, v.rule) == (0, "claim", None, "CLAIM-1")
    assert result.state == s
    record2 = json.loads(json.dumps(record))
    record2["hands"][-1]["claim"] = {"seat": 0, "tricks": 1, "when": 3}
    with pytest.raises(Exception, match=r"hands\[0\]\.claim\.when: unknown field"):
        replay(record2)


def test_moonrules_check_scores_a_hand_ended_by_a_claim(tmp_path: Path) -> None:
    record, s = _claimed_record(True)
    path = tmp_path / "claimed.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "moonrules", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    seat = s.to_act
    left = 7 - len(s.tricks)
    assert f"Claim: seat {seat} lays down their tiles and claims all {left} remaining" in out.stdout
    after = apply_claim(s, seat)  # type: ignore[arg-type]
    totals = " ".join(map(str, after.scores))
    assert f"totals {totals} points" in out.stdout
    bad, _ = _claimed_record(False)
    path.write_text(json.dumps(bad))
    out = subprocess.run(
        [sys.executable, "-m", "moonrules", "check", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1
    answer = json.loads(out.stdout)
    assert answer["violation"]["step"] == "claim" and answer["violation"]["rule"] == "CLAIM-1"
