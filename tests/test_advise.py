"""``moonrules advise``: sampling, the discard rule, the positions solved, the statistics.

Small sample counts keep these tests quick; the default-sample timing is measured by
``bench/study.py --advise``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import moonrules as m
from moonrules.analysis.advise import (
    AdviceError,
    advise,
    bidder_state,
    discard_for,
    sample_deal,
    tricks_as_bidder,
    wilson,
)
from moonrules.analysis.solver import solve
from moonrules.cli.advise import render
from moonrules.cli.main import main
from moonrules.rules.scoring import score_hand
from moonrules.rules.suits import TRUMP_SUIT, in_suit, led_suit, rank
from moonrules.rules.tiles import TILES, mask_of, tiles, tiles_of

HAND = "6-6 6-5 6-4 5-5 4-2 3-1 1-1"


def _via_apply(rules: m.RuleSet, deal: tuple[int, ...], bidder: int, trump: int) -> m.GameState:
    """The opening lead reached through the public game functions."""
    n = rules.players
    widow = deal[n]
    d = m.Deal(tuple(tiles_of(h) for h in deal[:n]), None if widow < 0 else TILES[widow])
    s = m.new_game(rules, seed=0, first_bidder=bidder, deal=d)
    s = m.apply(s, m.Bid(rules.min_bid))
    for _ in range(n - 1):
        s = m.apply(s, m.Pass())
    t = m.Trump(trump)
    if rules.has_widow and rules.widow_timing is m.WidowTiming.BEFORE_TRUMP:
        held = mask_of(s.hands[bidder])
        s = m.apply(s, m.Discard(TILES[discard_for(held, trump, rules)]))
        s = m.apply(s, m.NameTrump(t))
    else:
        s = m.apply(s, m.NameTrump(t))
        if rules.has_widow:
            held = mask_of(s.hands[bidder])
            s = m.apply(s, m.Discard(TILES[discard_for(held, trump, rules)]))
    assert s.phase is m.Phase.PLAY
    return s


@pytest.mark.parametrize("preset", ["standard", "pagat", "partnership", "no-double-blank"])
def test_the_position_solved_is_the_one_the_game_reaches(preset: str) -> None:
    rules = m.rules_by_name(preset)
    hand = mask_of(m.seeded_deal(rules, 5, 1).hands[0])
    for k in range(3):
        deal = sample_deal(rules, hand, 9, k)
        for bidder in range(rules.players):
            for trump in rules.trumps:
                built = bidder_state(rules, deal, bidder, trump.value)
                reached = _via_apply(rules, deal, bidder, trump.value)
                assert built.hand.hands == reached.hand.hands
                assert (built.hand.leader, built.hand.trump, built.bidder, built.hand.discard) == (
                    reached.hand.leader,
                    reached.hand.trump,
                    reached.bidder,
                    reached.hand.discard,
                )
                assert m.legal_actions(built) == m.legal_actions(reached)
    # and one solve per preset agrees on both states
    assert solve(bidder_state(rules, deal, 1, rules.trumps[0].value)) == solve(
        _via_apply(rules, deal, 1, rules.trumps[0].value)
    )


@pytest.mark.parametrize("preset", ["standard", "partnership", "no-double-blank"])
def test_a_sample_deals_exactly_the_unseen_tiles(preset: str) -> None:
    rules = m.rules_by_name(preset)
    hand = mask_of(m.seeded_deal(rules, 1, 1).hands[1])
    seen = set()
    for k in range(20):
        deal = sample_deal(rules, hand, 3, k, seat=1)
        assert deal == sample_deal(rules, hand, 3, k, seat=1)
        masks = deal[: rules.players]
        assert masks[1] == hand and all(h.bit_count() == 7 for h in masks)
        whole = 0
        for h in masks:
            assert whole & h == 0
            whole |= h
        if rules.has_widow:
            assert not whole >> deal[-1] & 1
            whole |= 1 << deal[-1]
        else:
            assert deal[-1] == -1
        assert whole == rules.tile_set.mask
        seen.add(deal)
    assert len(seen) == 20, "different k give different samples"


def _beaten_by(t: m.Tile, held: int, trump: m.Trump, rules: m.RuleSet) -> int:
    suit = led_suit(t, trump)
    return sum(
        1
        for o in rules.tile_set.tiles
        if not held >> o.index & 1
        and in_suit(o, suit, trump)
        and rank(o, suit, trump) > rank(t, suit, trump)
    )


@given(st.integers(0, 2**32), st.sampled_from(list(m.Trump)))
def test_the_discard_follows_its_documented_rule(seed: int, trump: m.Trump) -> None:
    rules = m.STANDARD
    eight = random.Random(seed).sample(rules.tile_set.tiles, 8)
    held = mask_of(eight)
    i = discard_for(held, trump.value, rules)
    assert held >> i & 1
    d = TILES[i]
    others = [t for t in eight if not m.is_trump(t, trump)]
    if others:
        assert not m.is_trump(d, trump), "a trump is kept while anything else can go"
    pool = others or eight
    assert _beaten_by(d, held, trump, rules) == max(_beaten_by(t, held, trump, rules) for t in pool)


def test_the_discard_prefers_a_short_suit_on_a_tie() -> None:
    # Sixes trump. 5-2 and 4-3 are each outranked by four unseen tiles of the suit
    # their lead calls; the hand holds one five (5-2) but two fours (4-3, 4-4).
    held = mask_of(tiles("6-6 6-5 6-4 6-3 6-2 5-2 4-3 4-4"))
    assert TILES[discard_for(held, m.Trump.SIX.value, m.STANDARD)] == m.Tile(5, 2)


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_advice_counts_are_the_solves_of_the_samples() -> None:
    rules = m.STANDARD
    hand = tiles(HAND)
    trumps = (m.Trump.SIX, m.Trump.NONE)
    a = advise(hand, rules, trumps=trumps, samples=12, min_samples=12, batch=5, seed=4)
    mask = mask_of(hand)
    for ta in a.trumps:
        assert ta.samples == 12
        want = [0] * 8
        for k in range(12):
            deal = sample_deal(rules, mask, 4, k)
            want[solve(_via_apply(rules, deal, 0, ta.trump.value))] += 1
        assert list(ta.counts) == want
        assert ta.mean == pytest.approx(sum(i * c for i, c in enumerate(want)) / 12)
        for b in ta.bids:
            need = 7 if b.bid == 21 else b.bid
            assert b.p_make == sum(want[need:]) / 12
            assert b.ci[0] <= b.p_make <= b.ci[1]
            score = sum(
                c * score_hand(rules, 0, b.bid, [k, 7 - k, 0]).deltas[0] for k, c in enumerate(want)
            )
            assert b.expected_score == pytest.approx(score / 12)
    best = max(
        ((b.expected_score, b.bid, t.trump) for t in a.trumps for b in t.bids),
        key=lambda x: x[0],
    )
    if best[0] > 0:
        assert (a.best.bid, a.best.trump) == (best[1], best[2])
    else:
        assert a.best.bid == 0 and a.best.trump is None


def test_the_same_seed_gives_the_same_numbers_whatever_solves_them() -> None:
    hand = tiles("5-5 5-4 5-3 5-1 2-2 6-3 4-1")
    kw = dict(trumps=(m.Trump.FIVE, m.Trump.DOUBLES), samples=12, min_samples=4, batch=4, seed=7)
    one = advise(hand, **kw)  # type: ignore[arg-type]
    assert one == advise(hand, **kw)  # type: ignore[arg-type]
    assert one == advise(hand, workers=2, **kw)  # type: ignore[arg-type]
    assert one != advise(hand, **{**kw, "seed": 8})  # type: ignore[arg-type]


def test_sampling_stops_once_every_interval_is_narrow_enough() -> None:
    """A trump stops at the first batch after which every bid's interval is narrow enough."""
    hand = tiles("6-6 6-5 6-4 6-3 6-2 5-5 1-1")
    kw = dict(trumps=(m.Trump.SIX, m.Trump.ONE), min_samples=8, batch=4, half_width=0.2)
    a = advise(hand, samples=60, **kw)  # type: ignore[arg-type]
    stopped_early = False
    for ta in a.trumps:
        widths = [(b.ci[1] - b.ci[0]) / 2 for b in ta.bids]
        assert ta.samples == 60 or max(widths) <= 0.2
        if 8 < ta.samples < 60:
            stopped_early = True
            # the same samples, one batch fewer: some interval was still too wide
            fewer = advise(
                hand, trumps=(ta.trump,), samples=ta.samples - 4, min_samples=ta.samples - 4
            ).trump(ta.trump)
            assert fewer.counts != ta.counts
            assert max((b.ci[1] - b.ci[0]) / 2 for b in fewer.bids) > 0.2
    assert stopped_early or all(t.samples in (8, 60) for t in a.trumps)


def test_calls_so_far_limit_the_bids() -> None:
    a = advise(tiles(HAND), calls=(0, 5), trumps=(m.Trump.SIX,), samples=4, min_samples=4)
    assert a.bids == (6, 7, 21) and a.may_pass
    assert a.best.bid in (0, 6, 7, 21)
    # bids 4 and 5 are closed after "pass 5": they are not rated, shown nor in the JSON
    assert [b.bid for t in a.trumps for b in t.bids] == [6, 7, 21]
    assert [b["bid"] for b in a.to_json()["trumps"][0]["bids"]] == [6, 7, 21]  # type: ignore[index]
    text = render(a)
    assert "P(make 6)" in text and "P(make 5)" not in text and "bid 4" not in text
    full = advise(tiles(HAND), trumps=(m.Trump.SIX,), samples=4, min_samples=4)
    assert full.trump(m.Trump.SIX).bid(6) == a.trump(m.Trump.SIX).bid(6)  # the same samples
    with pytest.raises(KeyError):
        a.trump(m.Trump.SIX).bid(5)
    forced = m.RuleSet(all_pass=m.AllPass.FORCE)
    f = advise(tiles(HAND), forced, calls=(0, 0), trumps=(m.Trump.ONE,), samples=4, min_samples=4)
    assert not f.may_pass and f.best.bid in f.bids


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["6-6 6-5 6-4 5-5 4-2 3-1"], "7 tiles"),
        (["6-6 6-5 6-4 5-5 4-2 3-1 3-1"], "given twice"),
        (["6-6 6-5 6-4 5-5 4-2 3-1 6-0"], "not in the moon-22 set"),
        (["6-6 6-5 6-4 5-5 4-2 3-1 9-1"], "9-1"),
        ([HAND, "--rules", "pagat", "--trump", "doubles"], "do not offer doubles"),
        ([HAND, "--trump", "purple"], "not a trump"),
        ([HAND, "--calls", "5 6 7"], "auction is over"),
        ([HAND, "--calls", "5 4"], "does not beat"),
        ([HAND, "--calls", "five"], "not a call"),
        ([HAND, "--samples", "0"], "at least 1"),
        ([HAND, "--rules", "bridge"], "no rule set"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["advise", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("moonrules advise: error: ") and err.count("\n") == 1 and needle in err, (
        err
    )


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["advise", HAND, "--trump", "6", "--trump", "none", "--samples", "8"]
    assert main([*argv, "--min-samples", "8", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["trump"] for t in data["trumps"]] == [6, "none"]
    assert all(t["samples"] == 8 and sum(t["counts"]) == 8 for t in data["trumps"])
    a = advise(tiles(HAND), trumps=(m.Trump.SIX, m.Trump.NONE), samples=8, min_samples=8)
    assert data == json.loads(json.dumps(a.to_json()))
    assert main([*argv, "--min-samples", "8", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "P(make 5)" in out and "Best call:" in out
    six = a.trump(m.Trump.SIX)
    assert f"{six.mean:.2f}" in out


def test_tricks_as_bidder_is_the_solve_of_the_reached_position() -> None:
    rules = m.rules_by_name("no-double-blank")
    deal = sample_deal(rules, mask_of(m.seeded_deal(rules, 2, 1).hands[0]), 1, 0)
    assert tricks_as_bidder(rules, deal, 2, m.Trump.DOUBLES.value) == solve(
        _via_apply(rules, deal, 2, m.Trump.DOUBLES.value)
    )
    assert TRUMP_SUIT == 7


def test_bad_hand_in_the_api() -> None:
    with pytest.raises(AdviceError, match="7 tiles"):
        advise(tiles("6-6"), samples=1)


def test_under_marks_a_bid_is_worth_one_mark_made_and_minus_one_set() -> None:
    a = advise(tiles(HAND), "marks", trumps=(m.Trump.FIVE,), samples=8, min_samples=8)
    for b in a.trump(m.Trump.FIVE).bids:
        assert b.expected_score == pytest.approx(2 * b.p_make - 1)


def test_progress_is_called_after_each_batch() -> None:
    seen: list[tuple[int, int]] = []
    advise(
        tiles(HAND),
        trumps=(m.Trump.SIX, m.Trump.FIVE),
        samples=10,
        min_samples=10,
        batch=4,
        progress=lambda done, most: seen.append((done, most)),
    )
    assert seen == [(8, 20), (16, 20), (20, 20)]
