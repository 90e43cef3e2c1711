"""Arbitration: records are checked step by step and the first illegal step is ruled on.

- random legal games, written as records (JSON and notation), check as valid and
  reproduce the engine's scores;
- a single corrupted step (a tile swapped, a bid changed, a play out of turn) is
  found at exactly that step, with the right clause and the legal alternatives;
- unreadable input gives a clear message and exit status 2, never a traceback;
- ``explain`` answers single situations with their clause chains.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from gamehelpers import random_line
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import moonrules as m
from moonrules.arbitration import (
    UnreadableDeal,
    check,
    explain_auction,
    explain_play,
    explain_score,
    explain_trick,
    format_report,
    read_record,
    report_html,
)
from moonrules.cli.main import main
from moonrules.game import legal_play_mask
from moonrules.records.notation import write_notation
from moonrules.records.record import RecordError, to_record
from moonrules.rules.suits import is_trump
from moonrules.rules.tiles import tiles, tiles_of

PRESETS = sorted(m.PRESETS)
STOPPING = [p for p in PRESETS if p != "renege-penalty"]


def _game(preset: str, seed: int, steps: int) -> tuple[m.GameState, list[m.GameState]]:
    """A random legal game and the state before each of its actions."""
    line = random_line(m.new_game(preset, seed=seed), random.Random(seed), steps)
    return line[-1], line[:-1]


def _position(state: m.GameState) -> tuple[int, int]:
    """(hand index, index in the hand's bids or plays) of the next action of ``state``."""
    h = state.hand
    if state.phase is m.Phase.BIDDING:
        return h.number - 1, len(h.calls)
    return h.number - 1, sum(len(t.tiles) for t in h.tricks) + len(h.trick)


@settings(deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 2**32), st.integers(0, 400))
def test_a_legal_game_checks_valid_and_reproduces_the_scores(
    preset: str, seed: int, steps: int
) -> None:
    s, _ = _game(preset, seed, steps)
    record = json.loads(json.dumps(to_record(s)))
    for source in (read_record(json.dumps(record)), read_record(write_notation(record))):
        report = check(source)
        assert report.valid and report.status == 0
        assert report.state == s
        assert len(report.hands) == s.hand_number
        done = [h for h in report.hands if h.deltas is not None]
        engine = [h for h in (*s.history, s.hand) if h.deltas is not None]
        assert [h.deltas for h in done] == [h.deltas for h in engine]
        totals = done[-1].totals if done else (0,) * s.rules.sides
        assert tuple(totals) == s.scores
        assert report.to_json() == report.replay.to_json()
        text = format_report(report)
        assert "Verdict: valid" in text
        assert text.count("\nHand ") == s.hand_number
        if s.is_over:
            assert "Game over" in report.end


def _expected_play_clause(state: m.GameState, t: m.Tile) -> str:
    """The clause an illegal play breaks, worked out here from the rules, not the engine."""
    h = state.hand
    seat = state.to_act
    assert seat is not None
    owner = next((s for s, ts in enumerate(state.hands) if t in ts), None)
    if owner is None:
        return "TRICK-1"
    if owner != seat:
        return "TURN-1"
    if not state.trick:
        return "LEAD-2"
    trump = state.trump
    assert trump is not None
    return "FOLLOW-1" if is_trump(state.trick[0], trump) else "FOLLOW-2"
    del h


@settings(deadline=None)
@given(
    st.sampled_from(STOPPING),
    st.integers(0, 2**32),
    st.integers(20, 300),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_a_swapped_tile_is_found_at_that_play(
    preset: str, seed: int, steps: int, rng: random.Random, as_notation: bool
) -> None:
    s, before = _game(preset, seed, steps)
    plays = [b for b in before if b.phase is m.Phase.PLAY]
    assume(plays)
    b = rng.choice(plays)
    seat = b.to_act
    assert seat is not None
    legal = set(tiles_of(legal_play_mask(b)))
    # any tile of the set that is not a legal play: one the player holds, another's, a gone one
    wrong = [t for t in b.rules.tile_set.tiles if t not in legal]
    t = rng.choice(wrong)
    i, j = _position(b)
    record = json.loads(json.dumps(to_record(s)))
    record["hands"][i]["plays"][j] = str(t)
    source = read_record(write_notation(record) if as_notation else json.dumps(record))
    report = check(source)
    r = report.ruling
    assert r is not None and report.status == 1
    assert (r.hand, r.step, r.index) == (i, "play", j)
    assert r.rule == _expected_play_clause(b, t)
    assert r.seat == seat
    assert set(r.allowed) == {str(x) for x in legal}
    assert r.text.startswith(f"Hand {i + 1}, trick {j // b.rules.players + 1}")
    assert f"Illegal ({r.rule})." in r.text
    if as_notation:
        assert r.line is not None and f"(line {r.line})" in r.text
    assert report.state.hand.number == i + 1 and report.state.to_act == seat
    assert report.to_json()["violation"] == {
        "hand": i,
        "step": "play",
        "index": j,
        "rule": r.rule,
        "message": report.to_json()["violation"]["message"],
    }


@settings(deadline=None)
@given(st.sampled_from(STOPPING), st.integers(0, 2**32), st.integers(20, 300), st.randoms())
def test_a_play_out_of_turn_is_found_at_that_play(
    preset: str, seed: int, steps: int, rng: random.Random
) -> None:
    s, before = _game(preset, seed, steps)
    n = s.rules.players
    # a play that is not the last of its trick, whose next play is recorded too
    cands = [b for b in before if b.phase is m.Phase.PLAY and len(b.trick) < n - 1]
    record = to_record(s)
    cands = [
        b for b in cands if _position(b)[1] + 1 < len(record["hands"][_position(b)[0]]["plays"])
    ]
    assume(cands)
    b = rng.choice(cands)
    i, j = _position(b)
    plays = record["hands"][i]["plays"]
    plays[j], plays[j + 1] = plays[j + 1], plays[j]
    r = check(record).ruling
    assert r is not None
    assert (r.hand, r.step, r.index, r.rule) == (i, "play", j, "TURN-1")
    assert f"seat {b.to_act} is to play" in r.why


@settings(deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 2**32), st.integers(0, 200), st.randoms())
def test_a_changed_bid_is_found_at_that_call(
    preset: str, seed: int, steps: int, rng: random.Random
) -> None:
    s, before = _game(preset, seed, steps)
    calls = [b for b in before if b.phase is m.Phase.BIDDING]
    assume(calls)
    b = rng.choice(calls)
    rules = b.rules
    high = max(b.hand.calls, default=0)
    options: list[tuple[int | str, str]] = [(8, "BID-4"), (2, "BID-4")]
    if high:
        options.append((rng.choice([x for x in rules.bids if x <= high]), "BID-3"))
    legal = m.legal_calls(b.auction)
    if 0 not in legal:
        options.append(("pass", "BID-8"))
    call, clause = rng.choice(options)
    i, j = _position(b)
    record = to_record(s)
    record["hands"][i]["bids"][j] = call
    r = check(record).ruling
    assert r is not None
    assert (r.hand, r.step, r.index, r.rule) == (i, "bid", j, clause)
    assert r.allowed == tuple("pass" if c == 0 else str(c) for c in legal)
    assert r.label == f"Hand {i + 1}, call {j + 1}"


def test_a_call_after_the_auction_ended() -> None:
    s, _ = _game("standard", 4, 5)
    record = to_record(s)
    hand = record["hands"][0]
    assert len(hand["bids"]) == 3
    hand["bids"].append(7)
    for key in ("discard", "trump", "plays"):
        hand.pop(key, None)
    r = check(record).ruling
    # BID-2 (no player calls twice); replay may also give it as TURN-1 (the game waits for
    # the discard), and the ruling then says BID-2 in its words and its chain
    assert r is not None and (r.step, r.index) == ("bid", 3) and r.rule in ("BID-2", "TURN-1")
    assert r.seat == s.hand.first_bidder
    assert r.why.startswith(f"seat {r.seat} bid 7 after the auction was over: ")
    assert "BID-2" in r.why or r.rule == "BID-2"
    assert r.reasons[0].rule == "BID-2"


def test_a_call_by_the_wrong_seat_in_the_notation() -> None:
    s, _ = _game("standard", 4, 2)
    text = write_notation(to_record(s))
    first = s.hand.first_bidder
    wrong = (first + 2) % 3
    lines = text.splitlines()
    k = next(n for n, line in enumerate(lines) if line.startswith(f"{(first + 1) % 3} "))
    lines[k] = f"{wrong} bids 6"
    report = check(read_record("\n".join(lines)))
    r = report.ruling
    assert r is not None and (r.step, r.index, r.rule) == ("bid", 1, "TURN-1")
    assert r.line == k + 1
    assert f"seat {wrong} bid 6, but it was seat {(first + 1) % 3}'s turn" in r.why
    assert report.to_json()["violation"]["rule"] == "TURN-1"


def test_a_wrong_score_line_is_ruled_on() -> None:
    s, _ = _game("standard", 8, 60)
    assert s.history
    record = to_record(s)
    h = s.history[0]
    good = list(h.deltas or ())
    text = write_notation(record)
    lines = text.splitlines()
    k = lines.index("hand 2")
    bad = [good[0], good[1] + 1, good[2]]
    lines.insert(k - 1, "score " + " ".join(map(str, bad)))
    r = check(read_record("\n".join(lines))).ruling
    assert r is not None and r.step == "score" and r.hand == 0
    assert r.rule in ("SCORE-2", "SCORE-3")
    assert r.allowed == (" ".join(map(str, good)),)
    lines[k - 1] = "score " + " ".join(map(str, good))
    assert check(read_record("\n".join(lines))).valid


def test_renege_penalty_is_scored_and_reported() -> None:
    for seed in range(200):
        _, before = _game("renege-penalty", seed, 120)
        b = next(
            (
                b
                for b in before
                if b.phase is m.Phase.PLAY
                and b.trick
                and set(b.hands[b.to_act or 0]) - set(tiles_of(legal_play_mask(b)))
            ),
            None,
        )
        if b is not None:
            break
    assert b is not None
    seat = b.to_act
    assert seat is not None
    t = next(x for x in b.hands[seat] if x not in tiles_of(legal_play_mask(b)))
    after = m.game.apply_renege(b, t)
    record = to_record(after)
    report = check(record)
    assert report.valid
    h = report.hands[b.hand.number - 1]
    assert h.renege is not None and h.renege.seat == seat and h.renege.tile == t
    assert h.finished and h.deltas == after.history[-1].deltas if after.history else True
    text = format_report(report)
    assert "RENEGE-2" in text and f"seat {seat} played {t}" in text
    assert "renege" in report_html(report)


BAD_INPUT = [
    ('{"rules": "standard", "hands": [', "not valid JSON"),
    ('{"rules": "standard", "hands": [], "colour": 1}', "colour: unknown field"),
    ('{"hands": [{"first_bidder": "0", "deal": []}]}', "hands[0].first_bidder: expected a seat"),
    ('{"hands": [{"first_bidder": 0, "deal": 5}]}', "hands[0].deal: expected a list"),
    ('{"rules": "nonsense", "hands": []}', "rules"),
    ("", "the record is empty"),
    ("hand 1\nfirst 0\ndeal 0: 9-9", "line 3"),
    ("[1, 2]", "a record is a JSON object"),
]


@pytest.mark.parametrize(("text", "words"), BAD_INPUT)
def test_unreadable_input_exits_2_with_a_clear_message(
    text: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "record.txt"
    f.write_text(text, encoding="utf-8")
    assert main(["check", str(f)]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err and words in out.err, out.err
    assert out.err.startswith("moonrules check: ")


def test_a_23_tile_deal_is_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s, _ = _game("standard", 2, 10)
    record = to_record(s)
    record["hands"][0]["deal"][1].append(record["hands"][0]["widow"])
    with pytest.raises(UnreadableDeal) as info:
        check(record)
    assert info.value.rule == "DEAL-1" and info.value.path == "hands[0].deal"
    f = tmp_path / "r.json"
    f.write_text(json.dumps(record))
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert "seat 1 was dealt 8 tiles; each player gets 7 (DEAL-1)" in err


def test_binary_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.bin"
    f.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["check", str(f)]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "nope.json")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_check_cli_json_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s, _ = _game("standard", 6, 50)
    record = to_record(s)
    record["hands"][0]["plays"][1], record["hands"][0]["plays"][2] = (
        record["hands"][0]["plays"][2],
        record["hands"][0]["plays"][1],
    )
    f = tmp_path / "r.json"
    f.write_text(json.dumps(record))
    html = tmp_path / "r.html"
    assert main(["check", str(f), "--json", "--html", str(html)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["valid"] is False and answer["violation"]["rule"] == "TURN-1"
    page = html.read_text()
    assert (
        'id="violation"' in page
        and "<script" not in page
        and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    )


def test_check_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    s, _ = _game("standard", 6, 30)
    data = write_notation(to_record(s)).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["check", "-"]) == 0
    assert "Verdict: valid" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# explain


def test_explain_ex1_a_tile_of_two_suits_must_follow_either() -> None:
    for led in ("3-2", "5-1"):
        e = explain_play(m.Trump.SIX, m.tile("6-6"), trick=tiles(led), hand=tiles("5-3 6-6 1-1"))
        assert e.legal is False and e.rule == "FOLLOW-2" and e.allowed == ("5-3",)
        assert [r.rule for r in e.reasons] == ["LEAD-3", "SUIT-2", "FOLLOW-2"]
    e = explain_play(m.Trump.SIX, m.tile("5-3"), trick=tiles("3-2"), hand=tiles("5-3 6-6 1-1"))
    assert e.legal is True and e.rule == "FOLLOW-2"


def test_explain_ex2_doubles_trump_the_double_cannot_follow() -> None:
    e = explain_play(
        m.Trump.DOUBLES,
        m.tile("1-0"),
        trick=tiles("4-2"),
        hand=tiles("4-4 1-0"),
        rules=m.PARTNERSHIP,
    )
    assert e.legal is True and e.rule == "FOLLOW-3"
    assert "4-4 is a double, and doubles are trump" in e.reasons[-1].text
    e = explain_trick(m.Trump.DOUBLES, tiles("4-2 6-4 4-4"))
    assert e.winner == 2 and "4-4" in e.verdict


def test_explain_a_trump_tile_following_its_other_number() -> None:
    e = explain_play(m.Trump.SIX, m.tile("6-3"), trick=tiles("3-2"), hand=tiles("6-3 3-1"))
    assert e.legal is False and e.rule == "FOLLOW-2"
    assert "a trump is never a 3" in e.reasons[1].text and e.reasons[1].rule == "SUIT-2"


def test_explain_a_doubles_lead_answered_with_a_non_double() -> None:
    e = explain_play(m.Trump.DOUBLES, m.tile("6-1"), trick=tiles("5-5"), hand=tiles("6-1 3-3"))
    assert e.legal is False and e.rule == "FOLLOW-1" and e.allowed == ("3-3",)


def test_explain_without_a_hand_and_leads() -> None:
    e = explain_play(m.Trump.SIX, m.tile("5-1"), trick=tiles("3-2"))
    assert e.legal is None and "FOLLOW-3" in e.verdict
    lead = m.RuleSet(first_lead=m.FirstLead.TRUMP)
    seven = tiles("5-1 6-2 5-5 4-3 3-3 2-1 1-1")
    e = explain_play(m.Trump.SIX, m.tile("5-1"), hand=seven, rules=lead, first_lead=True)
    assert e.legal is False and e.rule == "LEAD-2" and e.allowed == ("6-2",)
    with pytest.raises(m.IllegalAction, match="5-5 is not in the hand") as e_info:
        explain_play(m.Trump.SIX, m.tile("5-5"), trick=tiles("3-2"), hand=tiles("5-3"))
    assert e_info.value.rule == "TRICK-1"
    with pytest.raises(m.IllegalAction, match="holds 7 tiles, not 2") as e_info:
        explain_play(m.Trump.SIX, m.tile("5-1"), hand=seven[:2], rules=lead, first_lead=True)
    assert e_info.value.rule == "DEAL-1"


def test_explain_trick_ranks() -> None:
    e = explain_trick(m.Trump.TWO, tiles("3-2 6-3 3-3"), leader=1)
    assert e.winner == 1 and "trump" in e.reasons[0].text  # 3-2 is a trump: it calls trumps
    e = explain_trick(m.Trump.SIX, tiles("3-2 6-3 3-3"), leader=1)
    assert e.winner == 2 and e.reasons[-1].rule == "TRICK-2"
    e = explain_trick(m.Trump.FIVE, tiles("2-1 2-2 6-2"), leader=0)
    assert e.winner == 1 and any(r.rule == "SUIT-3" for r in e.reasons)
    e = explain_trick(m.Trump.TWO, tiles("4-1 6-2 3-2"), leader=0)
    assert e.winner == 1 and any(r.rule == "SUIT-4" and "6-2 > 3-2" in r.text for r in e.reasons)


def test_explain_auction() -> None:
    std = m.STANDARD
    e = explain_auction(std, [5, 0, 6])
    assert e.legal and "seat 2 is the bidder with 6" in e.verdict
    e = explain_auction(std, [5, 4])
    assert e.legal is False and e.rule == "BID-3" and e.allowed == ("pass", "6", "7", "21")
    e = explain_auction(std, [21, 0])
    assert e.legal is False and e.rule == "BID-5"
    e = explain_auction(std, [0, 0, 0])
    assert e.legal and "BID-7" in e.verdict
    e = explain_auction(m.preset("partnership-forced"), [0, 0, 0, 0])
    assert e.legal is False and e.rule == "BID-8"
    e = explain_auction(std, [5], first_bidder=2)
    assert "seat 0 to call" in e.verdict


def test_explain_score() -> None:
    e = explain_score(m.STANDARD, 0, 5, [4, 2, 1])
    assert "set" in e.verdict and "-5 +2 +1" in e.verdict
    e = explain_score(m.STANDARD, 0, 21, [7, 0, 0], totals=[0, 10, 10])
    assert "wins the game (SCORE-4)" in e.verdict
    e = explain_score(m.preset("marks"), 1, 4, [2, 4, 1])
    assert "+0 +1 +0" in e.verdict and any(r.rule == "SCORE-6" for r in e.reasons)
    with pytest.raises(m.IllegalAction, match="they add up to 8") as e_info:
        explain_score(m.STANDARD, 0, 5, [4, 2, 2])
    assert e_info.value.rule == "TRICK-3"


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (
            ["--trump", "6", "--hand", "5-3 6-6 1-1", "--trick", "3-2", "--play", "6-6"],
            1,
            "FOLLOW-2",
        ),
        (["--trump", "2", "--trick", "3-2 6-3 3-3"], 0, "Seat 0 wins the trick with 3-2"),
        (["--bids", "5,pass,6"], 0, "seat 2 is the bidder with 6"),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "4,2,1"], 0, "-5 +2 +1"),
        (
            ["--rules", "pagat", "--trump", "doubles", "--trick", "3-2 3-3 1-1"],
            2,
            "is not a trump these rules offer",
        ),
        (["--calls", "5,pass,6", "--json"], 0, '"rule": "BID-6"'),
        (["--trump", "6"], 2, "give --play"),
        ([], 2, "say what to explain"),
    ],
)
def test_explain_cli(
    argv: list[str], status: int, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", *argv]) == status
    out = capsys.readouterr()
    assert words in out.out + out.err


def test_report_json_is_the_replay_answer() -> None:
    s, _ = _game("partnership", 3, 500)
    record = to_record(s)
    report = check(copy.deepcopy(record))
    assert report.to_json() == report.replay.to_json()
    assert report.hands[0].deal == tuple(
        tuple(reversed(tiles_of(mask))) for mask in (s.history or (s.hand,))[0].deal
    )


def test_record_error_type() -> None:
    with pytest.raises(RecordError):
        read_record("   ")


@pytest.mark.parametrize(
    ("hand", "trick", "play", "rule", "words"),
    [
        ("6-4 6-4", "3-2", "6-4", "DEAL-3", "hand[1]: 6-4 appears twice, at hand[0]"),
        ("6-4 3-2", "3-2", "6-4", "DEAL-3", "hand[1]: 3-2 appears twice, at trick[0]"),
        ("5-1", "3-2", "5-4", "TRICK-1", "play: 5-4 is not in the hand"),
        ("5-1", "3-2 5-1", "5-1", "DEAL-3", "appears twice"),
        ("6-4", "3-2", "3-2", "DEAL-3", "play: 3-2 is already in the trick"),
        ("6-4", "3-2 4-4 1-1", "6-4", "TRICK-1", "trick: already complete with 3 tiles"),
        ("6-4 6-0", "3-2", "6-4", "TILE-2", "hand[1]: 6-0 is not a tile of the moon-22 set"),
        ("6-4", "3-0", "6-4", "TILE-2", "trick[0]: 3-0 is not a tile"),
        ("2-0", "3-2", "2-0", "TILE-2", "play: 2-0 is not a tile"),
        ("6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4", "3-2", "6-6", "DEAL-1", "hand: 8 tiles"),
    ],
)
def test_explain_refuses_an_impossible_situation(
    hand: str, trick: str, play: str, rule: str, words: str
) -> None:
    with pytest.raises(m.IllegalAction, match=re.escape(words)) as e:
        explain_play(m.Trump.SIX, m.tile(play), trick=tiles(trick), hand=tiles(hand))
    assert e.value.rule == rule


@pytest.mark.parametrize(
    ("argv", "rule", "words"),
    [
        (["--trump", "6", "--trick", "3-2 6-3", "--leader", "99"], "SEAT-1", "--leader: seats"),
        (["--trump", "6", "--trick", "3-2 6-3 3-3 1-1"], "TRICK-1", "at most 3"),
        (["--trump", "6", "--trick", "3-2 6-3 3-2"], "DEAL-3", "appears twice"),
        (["--trump", "6", "--trick", "3-2 6-0"], "TILE-2", "6-0 is not a tile"),
        (["--rules", "no-double-blank", "--trump", "6", "--trick", "0-0"], "TILE-4", "0-0"),
        (["--rules", "pagat", "--trump", "doubles", "--play", "6-6"], "TRUMP-5", "doubles"),
        (["--trump", "6", "--play", "6-6", "--hand", "6-6 " * 9], "DEAL-3", "twice"),
        (["--calls", "5", "--first", "3"], "SEAT-1", "--first: seats"),
        (["--score", "--bidder", "5", "--bid", "5", "--tricks", "4,2,1"], "SEAT-1", "--bidder"),
        (["--score", "--bidder", "0", "--bid", "9", "--tricks", "4,2,1"], "BID-4", "9 is not"),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "9,-1,-1"], "TRICK-3", "-1"),
        (["--score", "--bidder", "0", "--bid", "5", "--tricks", "4,3"], "SEAT-1", "2 numbers"),
        (
            ["--score", "--bidder", "0", "--bid", "5", "--tricks", "4,2,1", "--totals", "1"],
            "SEAT-1",
            "totals: 1 numbers",
        ),
    ],
)
def test_explain_cli_refuses_positions_that_cannot_arise_as_serve_does(
    argv: list[str], rule: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same checks as the protocol's (moonrules.rules.positions): the clause is named."""
    assert main(["explain", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moonrules explain: error: ") and err.count("\n") == 1
    assert words in err and err.rstrip().endswith(f"({rule})"), err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--trump", "6", "--play", "6-6", "--leader", "1"], "--leader does not go with a play"),
        (["--calls", "5", "--trump", "6"], "--trump does not go with an auction"),
        (["--trump", "6", "--trick", "3-2", "--hand", "6-6"], "--hand does not go with a trick"),
        (
            ["--score", "--bidder", "0", "--bid", "5", "--tricks", "4,2,1", "--first", "1"],
            "--first",
        ),
    ],
)
def test_explain_refuses_an_option_that_does_not_belong_to_the_question(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moonrules explain: error: ") and words in err, err


def test_explain_calls_and_its_older_name_bids_are_one_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "--calls", "5,pass,6"]) == 0
    new = capsys.readouterr().out
    assert main(["explain", "--bids", "5,pass,6"]) == 0
    assert capsys.readouterr().out == new and "seat 2 is the bidder with 6" in new
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    assert "--calls CALLS, --bids CALLS" in capsys.readouterr().out


def test_explain_cli_reports_a_duplicated_tile_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        ["explain", "--trump", "6", "--hand", "6-4 6-4", "--trick", "3-2", "--play", "6-4"]
    )
    err = capsys.readouterr().err
    assert status == 2 and "6-4 appears twice, at hand[0] and at hand[1]" in err
    assert "Traceback" not in err


def test_a_record_that_names_no_trump_and_goes_on_is_ruled_on_trump_1() -> None:
    """The record goes on to the plays without naming trump: a TRUMP-1 ruling on the
    trump step, with the trumps the rules offer, and no seat's words put in its mouth."""
    s = m.new_game("standard", seed=3)
    while s.phase is not m.Phase.PLAY:
        s = m.apply(s, m.legal_actions(s)[-1])
    s = m.apply(s, m.legal_actions(s)[0])
    record = to_record(s)
    del record["hands"][-1]["trump"]
    report = check(record)
    r = report.ruling
    assert r is not None
    assert (r.step, r.rule, r.seat) == ("trump", "TRUMP-1", s.hand.bidder)
    assert r.allowed == tuple(str(t) for t in s.rules.trumps)
    assert r.why == "the record names no trump, and goes on."
    assert "Legal trumps were:" in format_report(report)


def test_a_ruling_on_a_call_quotes_the_auction_not_the_message_capitals() -> None:
    """BID-3: the ruling quotes the auction's reason as it was raised, after the seat."""
    s = m.new_game("standard", seed=3)
    record = to_record(s)
    first = s.hand.first_bidder
    record["hands"][0]["bids"] = [5, 4]
    r = check(record).ruling
    assert r is not None and r.rule == "BID-3"
    assert r.seat == (first + 1) % 3
    assert r.why == f"seat {r.seat} bid 4: a bid of 4 does not beat the earlier bid of 5."
    assert r.allowed == ("pass", "6", "7", "21")


def test_the_shared_position_checks_name_a_wrong_type() -> None:
    from moonrules.rules import positions

    with pytest.raises(TypeError, match="rules"):
        positions.check_seat(None, 0, "seat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        positions.check_seat(m.STANDARD, "0", "seat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tiles"):
        positions.check_in_set(m.STANDARD, "hand", ["6-6"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="trump"):
        positions.check_offered(m.STANDARD, 6)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tricks"):
        positions.check_hand_result(m.STANDARD, 0, 5, "421")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="groups"):
        positions.check_distinct([("hand", None)])  # type: ignore[list-item]
