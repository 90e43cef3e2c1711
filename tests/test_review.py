"""``moonrules review`` and :mod:`moonrules.analysis.review`: every decision of a game graded.

Double-dummy values are checked against a plain minimax written here over
:func:`~moonrules.legal_actions` and :func:`~moonrules.apply` on the last tricks of hands;
the review is the same for a seed whatever ``jobs`` is; the JSON fits its schema; marks
follow the documented thresholds; bad input is one line. A whole game reviewed with
samples runs only with ``MOONRULES_DEEP=1``.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from browser_support import command_line, needs_chromium
from jsonschema import Draft202012Validator

import moonrules as m
import moonrules.analysis.review as R
from moonrules.analysis.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    NOISE_Z,
    Review,
    ReviewError,
    mark_for,
    review,
    review_json,
)
from moonrules.arbitration.review_html import review_html
from moonrules.cli.main import main
from moonrules.game import Phase, Play

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCHEMA = json.loads((ROOT / "spec/schema/cli/review.schema.json").read_text(encoding="utf-8"))
DEEP = os.environ.get("MOONRULES_DEEP", "") not in ("", "0")


def random_hand(seed: int, rules: str = "standard") -> tuple[m.GameState, list[m.GameState]]:
    """A first hand played at random to its end (re-dealt until someone bids), and the
    state before each of its actions."""
    rng = random.Random(seed)
    while True:
        s = m.new_game(rules, seed=seed)
        states = []
        while s.hand_number == 1 and s.phase is not Phase.DONE:
            states.append(s)
            s = m.apply(s, rng.choice(m.legal_actions(s)))
        if states[-1].bidder is not None:
            return s, states
        seed += 1000


def minimax(s: m.GameState) -> int:
    """Tricks the bidder's side takes in the whole hand, everyone seeing every tile: the
    bidder's side maximises, the others minimise (nothing but the rules' own functions)."""
    rules = s.rules
    assert s.bidder is not None
    side = rules.side_of(s.bidder)
    number = s.hand_number

    @functools.cache
    def value(st: m.GameState) -> int:
        if st.hand_number != number or st.phase is Phase.DONE:
            h = st.history[-1] if st.hand_number != number else st.hand
            return sum(t for seat, t in enumerate(h.tricks_won) if rules.side_of(seat) == side)
        seat = st.to_act
        assert seat is not None
        kids = [value(m.apply(st, a)) for a in m.legal_actions(st)]
        return max(kids) if rules.side_of(seat) == side else min(kids)

    return value(s)


@pytest.mark.parametrize(("seed", "rules"), [(1, "standard"), (2, "standard"), (3, "partnership")])
def test_double_dummy_values_agree_with_a_plain_minimax_on_endings(seed: int, rules: str) -> None:
    end, states = random_hand(seed, rules)
    r = review(end, hand=1, samples=0)
    checked = 0
    for d in r.hands[0].decisions:
        if d.kind != "play" or d.trick is None or d.trick < 5:
            continue
        before = states[d.index]
        assert before.bidder is not None
        bidder_side = end.rules.side_of(before.bidder)
        mine = end.rules.side_of(d.seat) == bidder_side
        for a in d.alternatives:
            truth = minimax(m.apply(before, a.action))
            assert a.dd_tricks == (truth if mine else 7 - truth), (d, a)
        checked += 1
    assert checked >= 2


def test_the_chosen_double_dummy_best_is_never_marked() -> None:
    end, _ = random_hand(4)
    r = review(end, hand=1, samples=0)
    for d in r.hands[0].decisions:
        best = max(a.dd_points for a in d.alternatives)
        chosen = d.chosen_alternative.dd_points
        assert d.loss == best - chosen
        assert (d.mark is None) == (chosen == best or d.loss < INACCURACY)
        if best - chosen >= BLUNDER:  # a sure trick thrown away, or worse
            assert d.mark == "??"


def test_marks_follow_the_thresholds() -> None:
    assert mark_for(0.0, 0.0) is None
    assert mark_for(INACCURACY - 0.01, 0.0) is None
    assert mark_for(INACCURACY, 0.0) == "?!"
    assert mark_for(MISTAKE, 0.0) == "?"
    assert mark_for(BLUNDER, 0.0) == "??"
    assert mark_for(5.0, 5.0 / NOISE_Z + 0.01) is None  # within the noise
    assert mark_for(5.0, 5.0 / NOISE_Z) == "??"
    r = review(random_hand(5)[0], hand=1, samples=3, seed=2)
    for d in r.hands[0].decisions:
        assert d.mark == mark_for(d.loss, d.noise)


@pytest.mark.parametrize(
    ("seed", "rules"),
    [
        (6, "standard"),
        pytest.param(
            7,
            "partnership",
            marks=pytest.mark.skipif(
                not DEEP,
                reason="every position of a partnership hand solved in full (about 12 s): "
                "CI's deep step runs it; MOONRULES_DEEP=1",
            ),
        ),
    ],
)
def test_sampled_values_by_probes_are_those_of_full_solves(
    seed: int, rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the sampled deals the review asks the solver only what the points depend on
    (made or not, :mod:`moonrules.analysis.probe`); solving every position in full gives
    the very same review."""
    end, _ = random_hand(seed, rules)
    quick = review(end, hand=1, samples=3, seed=seed)
    values = R._values

    def full(*args: Any, **kwargs: Any) -> list[R.Table]:
        return values(*args, **{**kwargs, "exact": True})

    monkeypatch.setattr(R, "_values", full)
    assert review(end, hand=1, samples=3, seed=seed) == quick
    assert any(d.kind == "call" and d.advice for d in quick.hands[0].decisions)


@functools.cache
def small_review(jobs: int) -> Review:
    state = m.read_record(str(EXAMPLES / "clean-game.json"))
    return review(state, hand=2, samples=2, seed=7, jobs=jobs)


def test_a_review_is_the_same_for_a_seed() -> None:
    again = review(
        m.read_record(str(EXAMPLES / "clean-game.json")), hand=2, samples=2, seed=7, jobs=1
    )
    assert again == small_review(1)
    other = review(
        m.read_record(str(EXAMPLES / "clean-game.json")), hand=2, samples=2, seed=8, jobs=1
    )
    assert [d.alternatives for d in other.hands[0].decisions] != [
        d.alternatives for d in again.hands[0].decisions
    ]


def test_two_jobs_give_what_one_gives() -> None:
    assert small_review(2) == small_review(1)


def test_the_review_covers_every_decision_with_a_choice() -> None:
    r = small_review(1)
    (h,) = r.hands
    kinds = {d.kind for d in h.decisions}
    assert kinds == {"call", "discard", "trump", "play"}
    for d in h.decisions:
        assert len(d.alternatives) >= 2
        assert d.chosen in [a.action for a in d.alternatives]
        assert all(a.sd_points is not None and a.sd_se is not None for a in d.alternatives)
        if d.kind == "call" and any(isinstance(a.action, m.Bid) for a in d.alternatives):
            assert d.advice and all(0 <= c.p_make <= 1 for c in d.advice)
    assert sum(p.decisions for p in r.players) == len(h.decisions)


def test_the_json_fits_its_schema_and_the_html_is_one_page() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    validator = Draft202012Validator(SCHEMA)
    data = json.loads(json.dumps(review_json(small_review(1))))
    validator.validate(data)
    plays = [d for d in data["hands"][0]["decisions"] if d["kind"] == "play"]
    assert plays and all(isinstance(d["chosen"], str) and "-" in d["chosen"] for d in plays)
    page = review_html(small_review(1))
    assert page.count("<li data-mark=") == len(small_review(1).hands[0].decisions)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing from the network


def test_the_command_line_json(capsys: pytest.CaptureFixture[str]) -> None:
    record = str(EXAMPLES / "partnership-game.moon")
    assert main(["review", record, "--samples", "0", "--json", "--quiet", "--hand", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    Draft202012Validator(SCHEMA).validate(data)
    assert [h["number"] for h in data["hands"]] == [1]
    assert (
        main(
            ["review", record, "--samples", "0", "--json", "--quiet", "--seat", "2", "--hand", "2"]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [p["seat"] for p in data["players"]] == [2]
    assert {d["seat"] for h in data["hands"] for d in h["decisions"]} == {2}


def test_an_illegal_record_gets_the_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["review", str(EXAMPLES / "bid-twice.moon"), "--samples", "0", "--quiet"])
    out = capsys.readouterr().out
    assert status == 1
    assert "BID-" in out and "The review of the legal part before the ruling" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nowhere.json"], "No such file"),
        (["-"], "unreadable record"),
        ([str(EXAMPLES / "clean-game.json"), "--seat", "3"], "--seat"),
        ([str(EXAMPLES / "clean-game.json"), "--hand", "99"], "hand"),
        ([str(EXAMPLES / "clean-game.json"), "--samples", "x"], "--samples"),
        ([str(EXAMPLES / "clean-game.json"), "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"not a record")))
    try:
        status = main(["review", args[0], "--quiet", "--samples", "0", *args[1:]])
    except SystemExit as e:  # argparse's own usage errors
        status = int(e.code or 0)
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and "Traceback" not in err[0], err
    assert err[0].startswith("moonrules review: error:") and says in err[0], err


def test_the_library_refuses_bad_arguments() -> None:
    state = m.read_record(str(EXAMPLES / "clean-game.json"))
    with pytest.raises(ValueError, match="samples"):
        review(state, samples=-1)
    with pytest.raises(ValueError, match="seat"):
        review(state, seat=3)
    with pytest.raises(TypeError):
        review(42)  # type: ignore[arg-type]
    assert issubclass(ReviewError, ValueError)


@pytest.mark.skipif(not DEEP, reason="a whole game reviewed with samples: MOONRULES_DEEP=1")
def test_a_whole_game_with_samples_deep() -> None:
    state = m.read_record(str(EXAMPLES / "clean-game.json"))
    one = review(state, samples=8, seed=1)
    two = review(state, samples=8, seed=1, jobs=2)
    assert one == two
    Draft202012Validator(SCHEMA).validate(review_json(one))
    assert all(
        isinstance(d.chosen, (Play, m.Bid, m.Pass, m.Discard, m.NameTrump))
        for h in one.hands
        for d in h.decisions
    )


@needs_chromium("the review page")
@pytest.mark.parametrize(("width", "height"), [(1366, 850), (390, 844)])
def test_the_review_page_opens_in_chromium(width: int, height: int, tmp_path: Path) -> None:
    """The page loads with no script error at desktop and phone widths; each decision is a
    button; set ``MOONRULES_SCREENSHOTS=DIR`` to keep the screenshots."""
    page = tmp_path / "review.html"
    page.write_text(review_html(small_review(1)), encoding="utf-8")
    shot = tmp_path / f"review-{width}.png"
    result = subprocess.run(
        command_line(
            tmp_path / "profile",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            "--dump-dom",
            page.as_uri(),
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Uncaught" not in result.stderr, result.stderr[-2000:]
    decisions = len(small_review(1).hands[0].decisions)
    assert result.stdout.count('<button class="head"') == decisions
    assert shot.stat().st_size > 0
    keep = os.environ.get("MOONRULES_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
