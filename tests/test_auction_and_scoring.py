"""The auction (BID-2 … BID-8) and scoring (SCORE-1 … SCORE-6, END-1 … END-3, TEAM-1).

The exhaustive auction tests compare the library's reachable call sequences
(a depth-first walk through ``legal_calls``) with a declarative reading of the
clauses: a complete auction is a sequence of calls in which every bid is a bid
value of the rule set and beats every earlier bid, that stops after every
player has called or right after a 21, and that (under ``all_pass = force``) is
not all passes.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs
import pytest

from moonrules import (
    MOON,
    PARTNERSHIP,
    PASS,
    PRESETS,
    STANDARD,
    AllPass,
    Auction,
    IllegalAction,
    MoonMade,
    RuleSet,
    Scoring,
    TieRule,
    apply_call,
    game_winner,
    legal_calls,
    score_hand,
)
from moonrules.rules.auction import check_call

MARKS = RuleSet(scoring=Scoring.MARKS)
SCORES_21 = RuleSet(moon_made=MoonMade.SCORES_21)
BIDDER_OUT = RuleSet(tie=TieRule.BIDDER_OUT)
FORCE_3P = RuleSet(all_pass=AllPass.FORCE)
NO_MOON = RuleSet(moon=False)

AUCTION_RULES: dict[str, RuleSet] = {
    **PRESETS,
    "3p-force": FORCE_3P,
    "3p-no-moon": NO_MOON,
    "3p-min3": RuleSet(min_bid=3),
    "3p-min5": RuleSet(min_bid=5),
    "4p-no-moon-force": attrs.evolve(PARTNERSHIP, moon=False, all_pass=AllPass.FORCE),
}


def spec_bids(rules: RuleSet) -> list[int]:
    """BID-4: min_bid … 7, and 21 when the moon is allowed."""
    return [*range(rules.min_bid, 8), *([21] if rules.moon else [])]


def auction(calls: tuple[int, ...] = (), rules: RuleSet = STANDARD, first: int = 0) -> Auction:
    a = Auction(first_bidder=first, rules=rules)
    for c in calls:
        a = apply_call(a, c)
    return a


# ---------------------------------------------------------------------------
# Single clauses


def test_bid_values_by_min_bid_and_moon() -> None:
    """BID-4: the opening calls are pass and min_bid … 7, plus 21 when allowed."""
    assert legal_calls(Auction()) == (PASS, 4, 5, 6, 7, 21)
    assert legal_calls(Auction(rules=RuleSet(min_bid=3))) == (PASS, 3, 4, 5, 6, 7, 21)
    assert legal_calls(Auction(rules=RuleSet(min_bid=5))) == (PASS, 5, 6, 7, 21)
    assert legal_calls(Auction(rules=NO_MOON)) == (PASS, 4, 5, 6, 7)
    assert legal_calls(Auction(rules=PARTNERSHIP)) == (PASS, 4, 5, 6, 7, 21)


@pytest.mark.parametrize("call", [1, 2, 3, 8, 9, 20, 22, 42, -1, -4])
def test_a_bid_outside_the_values_is_refused_bid_4(call: int) -> None:
    with pytest.raises(IllegalAction) as e:
        apply_call(Auction(), call)
    assert e.value.rule == "BID-4"


def test_21_refused_without_the_moon_and_3_refused_with_min_4() -> None:
    with pytest.raises(IllegalAction) as e:
        apply_call(Auction(rules=NO_MOON), 21)
    assert e.value.rule == "BID-4"
    with pytest.raises(IllegalAction) as e:
        apply_call(Auction(rules=RuleSet(min_bid=5)), 4)
    assert e.value.rule == "BID-4"


def test_a_bid_must_beat_every_earlier_bid_bid_3() -> None:
    a = auction((5,))
    assert legal_calls(a) == (PASS, 6, 7, 21)
    for c in (4, 5):
        with pytest.raises(IllegalAction) as e:
            apply_call(a, c)
        assert e.value.rule == "BID-3"
    # After a pass the highest bid still counts.
    a = auction((6, PASS))
    assert legal_calls(a) == (PASS, 7, 21)
    with pytest.raises(IllegalAction) as e:
        apply_call(a, 6)
    assert e.value.rule == "BID-3"


def test_a_call_is_a_pass_or_a_bid() -> None:
    for bad in ("5", 5.0, None, True):  # not an int: a wrong type, named
        with pytest.raises(TypeError, match=r"^call: "):
            apply_call(Auction(), bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", [STANDARD, PARTNERSHIP], ids=["3p", "4p"])
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_one_turn_each_clockwise_bid_2(rules: RuleSet, first: int) -> None:
    """BID-2, SEAT-1: each player calls once, clockwise from the first bidder."""
    n = rules.players
    first %= n
    a = Auction(first_bidder=first, rules=rules)
    seen = []
    while not a.is_over:
        assert a.to_call is not None
        seen.append(a.to_call)
        a = apply_call(a, PASS)
    assert seen == [(first + i) % n for i in range(n)]
    assert a.to_call is None
    assert legal_calls(a) == ()
    with pytest.raises(IllegalAction) as e:
        apply_call(a, 7)
    assert e.value.rule == "BID-2"


def test_21_ends_the_auction_at_once_bid_5() -> None:
    for first_calls in ((), (PASS,), (5,), (PASS, 7)):
        a = auction((*first_calls, MOON), first=1)
        assert a.is_over
        assert a.to_call is None
        assert legal_calls(a) == ()
        assert a.bid == 21
        assert a.winner == (1 + len(first_calls)) % 3
        with pytest.raises(IllegalAction) as e:
            apply_call(a, PASS)
        assert e.value.rule == "BID-5"


def test_21_ends_the_partnership_auction_at_once() -> None:
    a = auction((PASS, MOON), rules=PARTNERSHIP, first=3)
    assert a.is_over and a.winner == 0 and a.bid == 21 and len(a.calls) == 2


def test_winner_is_the_highest_bidder_bid_6() -> None:
    """EX-6: A bids 4, B 5, C 6: C wins with 6."""
    a = auction((4, 5, 6), first=2)
    assert a.is_over and a.winner == 1 and a.bid == 6 and not a.redeal
    a = auction((PASS, 7, PASS), first=1)
    assert a.winner == 2 and a.bid == 7
    a = auction((5, PASS, PASS), first=0)
    assert a.winner == 0 and a.bid == 5
    # Before the end there is no winner yet.
    a = auction((5,))
    assert a.winner is None and a.bid is None and not a.is_over


def test_all_pass_is_a_redeal_bid_7() -> None:
    a = auction((PASS, PASS, PASS))
    assert a.is_over and a.redeal and a.winner is None and a.bid is None
    a = auction((PASS,) * 4, rules=PARTNERSHIP)
    assert a.is_over and a.redeal and a.winner is None


@pytest.mark.parametrize("rules", [FORCE_3P, PRESETS["partnership-forced"]], ids=["3p", "4p"])
def test_forced_last_bidder_bid_8(rules: RuleSet) -> None:
    n = rules.players
    a = auction((PASS,) * (n - 1), rules=rules)
    assert legal_calls(a) == tuple(spec_bids(rules))
    assert PASS not in legal_calls(a)
    with pytest.raises(IllegalAction) as e:
        apply_call(a, PASS)
    assert e.value.rule == "BID-8"
    done = apply_call(a, rules.min_bid)
    assert done.winner == n - 1 and done.bid == rules.min_bid
    # Only when *everyone* before passed: after one bid, the last may pass.
    b = auction((PASS,) * (n - 2) + (5,), rules=rules)
    assert PASS in legal_calls(b)
    # And the default (redeal) never forces.
    c = auction((PASS,) * (n - 1), rules=attrs.evolve(rules, all_pass=AllPass.REDEAL))
    assert PASS in legal_calls(c)


# ---------------------------------------------------------------------------
# Exhaustive auctions


def walk(a: Auction) -> Iterator[tuple[Auction, bool]]:
    """Every auction reachable from ``a`` through legal_calls; True for complete ones."""
    calls = legal_calls(a)
    if not calls:
        yield a, True
        return
    yield a, False
    for c in calls:
        yield from walk(apply_call(a, c))


def spec_complete_auctions(rules: RuleSet) -> set[tuple[int, ...]]:
    """Declarative: the complete call sequences BID-2 … BID-8 allow."""
    values = [PASS, *spec_bids(rules)]
    out: set[tuple[int, ...]] = set()
    for length in range(1, rules.players + 1):
        for seq in itertools.product(values, repeat=length):
            bids = [c for c in seq if c != PASS]
            if any(b <= max([PASS, *seq[:i]]) for i, b in enumerate(seq) if b != PASS):
                continue  # BID-3
            if MOON in seq[:-1]:
                continue  # BID-5: nothing after 21
            if length < rules.players and seq[-1] != MOON:
                continue  # BID-6: not over yet
            if rules.all_pass is AllPass.FORCE and not bids:
                continue  # BID-8
            out.add(seq)
    return out


def spec_expected_rule(rules: RuleSet, calls: tuple[int, ...], call: int) -> str | None:
    """The clause a call breaks after ``calls`` (None if legal), read from BID-2 … BID-8."""
    if MOON in calls:
        return "BID-5"
    if len(calls) >= rules.players:
        return "BID-2"
    high = max(calls, default=PASS)
    if call == PASS:
        forced = (
            rules.all_pass is AllPass.FORCE and len(calls) == rules.players - 1 and high == PASS
        )
        return "BID-8" if forced else None
    if call not in spec_bids(rules):
        return "BID-4"
    if call <= high:
        return "BID-3"
    return None


@pytest.mark.parametrize("name", sorted(AUCTION_RULES))
def test_every_reachable_auction(name: str) -> None:
    rules = AUCTION_RULES[name]
    n = rules.players
    for first in range(n):
        complete: set[tuple[int, ...]] = set()
        for a, over in walk(Auction(first_bidder=first, rules=rules)):
            assert a.is_over == over
            if not over:
                assert a.to_call == (first + len(a.calls)) % n
                assert a.winner is None and a.bid is None
                continue
            complete.add(a.calls)
            # Each ends, after at most one call per player.
            assert len(a.calls) <= n
            assert a.to_call is None
            # At most one winner; the winner's bid is the maximum; its seat made it.
            bids = [c for c in a.calls if c != PASS]
            assert bids == sorted(set(bids)), "bids strictly rise"
            if bids:
                assert a.bid == max(bids) == bids[-1]
                assert a.winner == (first + a.calls.index(max(bids))) % n
                assert not a.redeal
            else:
                assert a.winner is None and a.bid is None and a.redeal
        assert complete == spec_complete_auctions(rules)


@pytest.mark.parametrize("name", sorted(AUCTION_RULES))
def test_every_illegal_call_names_its_clause(name: str) -> None:
    rules = AUCTION_RULES[name]
    universe = [-1, PASS, 1, 2, 3, 4, 5, 6, 7, 8, 14, 20, 21, 22, 42]
    for a, _ in walk(Auction(rules=rules)):
        legal = set(legal_calls(a))
        for call in universe:
            expected = spec_expected_rule(rules, a.calls, call)
            assert (expected is None) == (call in legal), (a.calls, call)
            if expected is None:
                check_call(a, call)
                assert apply_call(a, call).calls == (*a.calls, call)
            else:
                with pytest.raises(IllegalAction) as e:
                    apply_call(a, call)
                err = e.value
                assert err.rule == expected, (a.calls, call)
                # The refusal says it in data too: who called, what, and what was allowed.
                assert (err.seat, err.call) == (a.to_call, call), (a.calls, call)
                assert err.allowed_calls == legal_calls(a), (a.calls, call)
                assert str(err) == f"{err.message} ({expected})"


def test_reachable_auction_counts() -> None:
    """A hand count from the clauses for 3p standard: 7 values, one turn each."""
    complete = spec_complete_auctions(STANDARD)
    # All-pass, one sequence; 21 ends at once.
    assert (PASS, PASS, PASS) in complete
    assert (MOON,) in complete and (PASS, MOON) in complete and (4, 5, MOON) in complete
    assert (MOON, PASS) not in complete and (5, 4, PASS) not in complete
    assert {s for s in complete if MOON not in s and len(s) < 3} == set()


# ---------------------------------------------------------------------------
# score_hand


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    for cut in itertools.combinations(range(total + parts - 1), parts - 1):
        bounds = (-1, *cut, total + parts - 1)
        yield tuple(bounds[i + 1] - bounds[i] - 1 for i in range(parts))


def test_compositions_helper() -> None:
    assert len(list(compositions(7, 3))) == 36
    assert len(list(compositions(7, 4))) == 120
    assert all(sum(c) == 7 for c in compositions(7, 4))


def test_score_points_examples() -> None:
    """SCORE-1, SCORE-2, SCORE-3."""
    r = score_hand(STANDARD, 0, 5, [5, 1, 1])
    assert r.made and r.deltas == (5, 1, 1) and not r.game_won
    r = score_hand(STANDARD, 0, 5, [7, 0, 0])
    assert r.made and r.deltas == (5, 0, 0)  # nothing for extra tricks
    r = score_hand(STANDARD, 1, 5, [3, 4, 0])
    assert not r.made and r.deltas == (3, -5, 0)
    r = score_hand(STANDARD, 2, 4, [2, 1, 4])
    assert r.made and r.deltas == (2, 1, 4)


def test_moon_made_wins_game_and_scores_21() -> None:
    """SCORE-4: a made 21 wins outright and scores 21; a set 21 loses 21."""
    r = score_hand(STANDARD, 1, MOON, [0, 7, 0])
    assert r.made and r.game_won and r.deltas == (0, 21, 0)
    r = score_hand(STANDARD, 1, MOON, [1, 6, 0])
    assert not r.made and not r.game_won and r.deltas == (1, -21, 0)


def test_moon_made_scores_21_only() -> None:
    """SCORE-5: a made 21 scores 21 and does not end the game by itself."""
    r = score_hand(SCORES_21, 1, MOON, [0, 7, 0])
    assert r.made and not r.game_won and r.deltas == (0, 21, 0)
    r = score_hand(SCORES_21, 1, MOON, [0, 6, 1])
    assert not r.made and r.deltas == (0, -21, 1)


def test_a_made_7_is_not_a_moon() -> None:
    r = score_hand(STANDARD, 0, 7, [7, 0, 0])
    assert r.made and r.deltas == (7, 0, 0) and not r.game_won


def test_partnership_scores_by_team() -> None:
    """TEAM-1: seats 0+2 are team 0, seats 1+3 team 1; tricks and scores are the team's."""
    r = score_hand(PARTNERSHIP, 2, 4, [1, 2, 3, 1])  # team 0: 4 tricks, team 1: 3
    assert r.made and r.deltas == (4, 3)
    r = score_hand(PARTNERSHIP, 3, 5, [2, 1, 2, 2])  # team 1: 3 tricks
    assert not r.made and r.deltas == (4, -5)
    r = score_hand(PARTNERSHIP, 1, 4, [0, 0, 3, 4])  # partner won them all
    assert r.made and r.deltas == (3, 4)
    r = score_hand(PARTNERSHIP, 0, MOON, [3, 0, 4, 0])
    assert r.made and r.game_won and r.deltas == (21, 0)


def test_marks() -> None:
    """SCORE-6: one mark to a made bidder; one to every other player on a set."""
    assert score_hand(MARKS, 0, 5, [5, 1, 1]).deltas == (1, 0, 0)
    assert score_hand(MARKS, 1, 5, [3, 4, 0]).deltas == (1, 0, 1)
    marks_4p = RuleSet(players=4, tile_set=PARTNERSHIP.tile_set, scoring=Scoring.MARKS)
    assert marks_4p.target == 7
    assert score_hand(marks_4p, 1, 4, [1, 2, 2, 2]).deltas == (0, 1)
    assert score_hand(marks_4p, 1, 5, [1, 2, 2, 2]).deltas == (1, 0)
    r = score_hand(MARKS, 2, MOON, [0, 0, 7])
    assert r.game_won and r.deltas == (0, 0, 1)
    marks_21 = RuleSet(scoring=Scoring.MARKS, moon_made=MoonMade.SCORES_21)
    r = score_hand(marks_21, 2, MOON, [0, 0, 7])
    assert not r.game_won and r.deltas == (0, 0, 1)


SCORING_RULES = {
    "standard": STANDARD,
    "scores-21": SCORES_21,
    "marks": MARKS,
    "partnership": PARTNERSHIP,
    "partnership-marks": attrs.evolve(PARTNERSHIP, scoring=Scoring.MARKS, target=7),
}


@pytest.mark.parametrize("name", sorted(SCORING_RULES))
def test_score_hand_exhaustive(name: str) -> None:
    """Every split of the 7 tricks, every bidder, every bid, against SCORE-1 … SCORE-6."""
    rules = SCORING_RULES[name]
    n = rules.players
    for tricks in compositions(7, n):
        for bidder in range(n):
            for bid in spec_bids(rules):
                r = score_hand(rules, bidder, bid, tricks)
                if n == 4:
                    team = bidder % 2
                    side_tricks = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
                    sides = 2
                else:
                    team = bidder
                    side_tricks = list(tricks)
                    sides = 3
                need = 7 if bid == MOON else bid
                made = side_tricks[team] >= need
                assert r.made == made
                assert len(r.deltas) == sides
                for s in range(sides):
                    if rules.scoring is Scoring.MARKS:
                        expected = int(made) if s == team else int(not made)
                    elif s == team:
                        expected = bid if made else -bid
                    else:
                        expected = side_tricks[s]
                    assert r.deltas[s] == expected, (tricks, bidder, bid, s)
                wins = made and bid == MOON and rules.moon_made is MoonMade.WINS_GAME
                assert r.game_won == wins


# ---------------------------------------------------------------------------
# game_winner (END-1 … END-3)


def test_game_winner_points() -> None:
    """END-1: after a hand, the single highest score at or above the target wins."""
    assert game_winner(STANDARD, [20, 20, 20]) is None
    assert game_winner(STANDARD, [21, 3, 0]) == 0
    assert game_winner(STANDARD, [21, 22, 3]) == 1
    assert game_winner(STANDARD, [-5, 0, 30]) == 2
    assert game_winner(STANDARD, [-30, -21, -22]) is None
    assert game_winner(PARTNERSHIP, [19, 21]) == 1
    assert game_winner(PARTNERSHIP, [25, 21]) == 0
    assert game_winner(MARKS, [6, 6, 5]) is None
    assert game_winner(MARKS, [7, 6, 5]) == 0
    assert game_winner(RuleSet(target=5), [5, 4, 0]) == 0


@pytest.mark.parametrize("scores", [[22, 22, 3], [3, 22, 22], [22, 3, 22], [21, 21, 21]])
def test_tie_at_the_top_plays_on(scores: list[int]) -> None:
    """END-2: a shared top score at or above the target: nobody has won yet, seat order
    never decides, whoever bid."""
    for bidder_side in (None, 0, 1, 2):
        assert game_winner(STANDARD, scores, bidder_side) is None
    assert game_winner(PARTNERSHIP, [23, 23], 0) is None


def test_tie_at_the_top_bidder_goes_out() -> None:
    """END-3: a tie at the top including the bidder: the bidder wins; otherwise play on."""
    assert game_winner(BIDDER_OUT, [22, 22, 3], 1) == 1
    assert game_winner(BIDDER_OUT, [22, 22, 3], 0) == 0
    assert game_winner(BIDDER_OUT, [22, 22, 3], 2) is None
    assert game_winner(BIDDER_OUT, [22, 22, 22], 2) == 2
    assert game_winner(BIDDER_OUT, [20, 20, 3], 1) is None  # below the target
    assert game_winner(BIDDER_OUT, [22, 23, 3], 0) == 1  # not a tie: the highest wins
    bidder_out_4p = attrs.evolve(PARTNERSHIP, tie=TieRule.BIDDER_OUT)
    assert game_winner(bidder_out_4p, [23, 23], 1) == 1


def test_game_winner_exhaustive_small_scores() -> None:
    """END-1/2/3 over every score triple in a window around the target."""
    window = range(17, 26)
    for scores in itertools.product(window, repeat=3):
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        for bidder in range(3):
            expected_play_on = leaders[0] if top >= 21 and len(leaders) == 1 else None
            assert game_winner(STANDARD, scores, bidder) == expected_play_on
            if top >= 21 and len(leaders) > 1 and bidder in leaders:
                expected_out: int | None = bidder
            else:
                expected_out = expected_play_on
            assert game_winner(BIDDER_OUT, scores, bidder) == expected_out
