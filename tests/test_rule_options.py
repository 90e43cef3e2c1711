"""One test per rule-set option, through the public game API; impossible rule sets;
presets by name and alias.

The game-level tests play *scripted hands*: deals built so that the outcome of
every trick follows from the clauses alone. With no-trump, a led double is the
highest tile of its suit (SUIT-3) and wins its trick (TRICK-2), so a player who
holds doubles and has the lead wins one trick per double led. The 3-player script
(roles A, B, C, any seats):

- A: 6-6 5-5 4-4 3-3 2-1 3-1 4-1   (the bidder; widow 5-1, discarded)
- B: 6-5 5-4 4-3 3-2 2-2 1-1 0-0
- C: 4-2 5-2 5-3 6-1 6-2 6-3 6-4

A leads 6-6, 5-5, 4-4, 3-3 (4 tricks), then 2-1; B must follow with a 2 and holds
only the 2-2 by then (its 3-2 went on the 3-3), which wins; B then leads 1-1 and
0-0 (the 0-0 is suit 0's only tile in the 22-tile set). So A takes 4 tricks, B 3,
C none, whatever the other tiles played.
"""

from __future__ import annotations

import re
from collections import defaultdict
from enum import Enum
from pathlib import Path

import attrs
import pytest

import moonrules
from moonrules import (
    PRESETS,
    AllPass,
    Bid,
    Deal,
    Discard,
    FirstLead,
    GameState,
    Hand,
    IllegalAction,
    MoonMade,
    NameTrump,
    ParseError,
    Pass,
    Phase,
    Play,
    RulesError,
    RuleSet,
    Scoring,
    TieRule,
    Tile,
    TileSet,
    Trump,
    WidowTiming,
    apply,
    legal_actions,
    new_game,
    rules_by_name,
    with_deal,
)
from moonrules.records.record import rules_from_json

SPEC = Path(__file__).resolve().parent.parent / "spec"


def T(text: str) -> Tile:
    return Tile.parse(text)


# ---------------------------------------------------------------------------
# Scripted hands

Roles = dict[str, int]
Script = dict[int, dict[str, str]]
"""Per trick number (0-6): the key tile each role plays; unscripted plays are free."""

HANDS_3P = {
    "A": "6-6 5-5 4-4 3-3 2-1 3-1 4-1",
    "B": "6-5 5-4 4-3 3-2 2-2 1-1 0-0",
    "C": "4-2 5-2 5-3 6-1 6-2 6-3 6-4",
}
WIDOW_3P = "5-1"
SCRIPT_3P: Script = {
    0: {"A": "6-6"},
    1: {"A": "5-5"},
    2: {"A": "4-4"},
    3: {"A": "3-3"},
    4: {"A": "2-1", "B": "2-2"},
    5: {"B": "1-1"},
    6: {"B": "0-0"},
}

MOON_HANDS_3P = {
    "A": "0-0 1-1 2-2 3-3 4-4 5-5 6-6",
    "B": "2-1 3-1 3-2 4-1 4-2 4-3 5-1",
    "C": "5-2 5-3 5-4 6-1 6-2 6-3 6-4",
}
MOON_WIDOW_3P = "6-5"
MOON_SCRIPT_3P: Script = {k: {"A": f"{6 - k}-{6 - k}"} for k in range(7)}
"""A leads its seven doubles, 6-6 down to 0-0, and takes every trick."""

# Four players (TEAM-1): A (seat 0) and P (seat 2) against B (seat 1) and D (seat 3).
# A takes 3 tricks with 6-6, 5-5, 4-4, leads 3-0 to partner P's 3-3 (4th trick for
# team 0); P leads 2-1, B's 2-2 wins, and B's 1-1 and 0-0 win the last two.
HANDS_4P = {
    "A": "6-6 5-5 4-4 3-0 4-0 5-0 6-0",
    "B": "2-2 1-1 0-0 6-4 5-3 4-2 3-2",
    "P": "3-3 2-1 6-5 5-4 4-3 1-0 2-0",
    "D": "3-1 4-1 5-1 5-2 6-1 6-2 6-3",
}
SCRIPT_4P: Script = {
    0: {"A": "6-6"},
    1: {"A": "5-5"},
    2: {"A": "4-4"},
    3: {"A": "3-0", "P": "3-3"},
    4: {"P": "2-1", "B": "2-2"},
    5: {"B": "1-1"},
    6: {"B": "0-0"},
}
SEATS_4P: Roles = {"A": 0, "B": 1, "P": 2, "D": 3}


def make_deal(hands: dict[str, str], roles: Roles, widow: str | None) -> Deal:
    by_seat: list[list[str]] = [[] for _ in roles]
    for role, seat in roles.items():
        by_seat[seat] = hands[role].split()
    return Deal.of(by_seat, widow=widow)


def auction_to_play(
    state: GameState, bidder: int, bid: int, trump: Trump, discard: str | None
) -> GameState:
    """Everyone passes but ``bidder``, who bids ``bid``, discards and names ``trump``."""
    while state.phase is Phase.BIDDING:
        seat = state.to_act
        state = apply(state, Bid(bid) if seat == bidder else Pass(), seat=seat)
    while state.phase in (Phase.DISCARD, Phase.TRUMP):
        assert state.to_act == bidder
        if state.phase is Phase.DISCARD:
            assert discard is not None
            state = apply(state, Discard(T(discard)), seat=bidder)
        else:
            state = apply(state, NameTrump(trump), seat=bidder)
    assert state.phase is Phase.PLAY and state.leader == bidder
    return state


def play_script(state: GameState, script: Script, roles: Roles) -> GameState:
    """Play the hand out: scripted key tiles, else the lowest legal unreserved tile."""
    plan = {k: {roles[r]: T(t) for r, t in v.items()} for k, v in script.items()}
    reserved: dict[int, set[Tile]] = defaultdict(set)
    for v in plan.values():
        for s, t in v.items():
            reserved[s].add(t)
    number = state.hand_number
    while not state.is_over and state.hand_number == number:
        seat = state.to_act
        assert seat is not None
        want = plan.get(len(state.tricks), {}).get(seat)
        if want is None:
            free = [a.tile for a in legal_actions(state) if a.tile not in reserved[seat]]  # type: ignore[attr-defined]
            assert free, f"script error: seat {seat} must play a reserved tile"
            want = free[0]
        state = apply(state, Play(want), seat=seat)
    return state


def last_hand(state: GameState) -> Hand:
    return state.hand if state.is_over else state.history[-1]


def scripted_3p(
    rules: RuleSet | str | None = None,
    *,
    roles: Roles | None = None,
    bid: int = 4,
    moon_deal: bool = False,
    state: GameState | None = None,
) -> GameState:
    """Play one scripted 3-player hand (the first, or the next hand of ``state``)."""
    roles = roles or {"A": 0, "B": 1, "C": 2}
    hands, widow, script = (
        (MOON_HANDS_3P, MOON_WIDOW_3P, MOON_SCRIPT_3P)
        if moon_deal
        else (HANDS_3P, WIDOW_3P, SCRIPT_3P)
    )
    deal = make_deal(hands, roles, widow)
    if state is None:
        state = new_game(rules, seed=11, first_bidder=roles["A"], deal=deal)
    else:
        assert state.first_bidder == roles["A"]
        state = with_deal(state, deal)
    state = auction_to_play(state, roles["A"], bid, Trump.NONE, widow)
    return play_script(state, script, roles)


def test_the_scripted_hands_are_valid_deals() -> None:
    for hands, widow, n in (
        (HANDS_3P, WIDOW_3P, 22),
        (MOON_HANDS_3P, MOON_WIDOW_3P, 22),
        (HANDS_4P, None, 28),
    ):
        all_tiles = [T(t) for h in hands.values() for t in h.split()] + (
            [T(widow)] if widow else []
        )
        assert len(all_tiles) == len(set(all_tiles)) == n


# ---------------------------------------------------------------------------
# players / teams (SEAT-1, TEAM-1)


def test_option_players_and_teams() -> None:
    """players = 4 (TEAM-1, SEAT-1): partners opposite; tricks and scores are the team's.

    Seat 0 bids 4 and takes 3 tricks itself; partner seat 2 takes the 4th, so team 0
    makes 4; team 1 scores its 3 tricks.
    """
    rules = rules_by_name("partnership")
    s = new_game(rules, seed=2, first_bidder=1, deal=make_deal(HANDS_4P, SEATS_4P, None))
    assert len(s.hands) == 4 and all(len(h) == 7 for h in s.hands)
    assert s.scores == (0, 0)
    # SEAT-1: clockwise from the first bidder, one call each.
    order = []
    while s.phase is Phase.BIDDING:
        order.append(s.to_act)
        s = apply(s, Bid(4) if s.to_act == 0 else Pass())
    assert order == [1, 2, 3, 0]
    assert s.phase is Phase.TRUMP  # no widow with four players (DEAL-2)
    s = apply(s, NameTrump(Trump.NONE))
    s = play_script(s, SCRIPT_4P, SEATS_4P)
    hand = last_hand(s)
    assert hand.tricks_won == (3, 3, 1, 0)
    assert hand.deltas == (4, 3)
    assert s.scores == (4, 3)
    # Play went clockwise: each trick's tiles came from leader, leader+1, …
    for trick in hand.tricks:
        assert len(trick.tiles) == 4


def test_option_players_three_each_for_themself() -> None:
    """players = 3 (SEAT-1, SCORE-3): three scores, one per seat."""
    s = scripted_3p()
    assert last_hand(s).tricks_won == (4, 3, 0)
    assert s.scores == (4, 3, 0)


# ---------------------------------------------------------------------------
# tile_set (TILE-2, TILE-3, TILE-4, DEAL-1, DEAL-2)


@pytest.mark.parametrize(
    ("name", "size", "widow"),
    [("standard", 22, True), ("partnership", 28, False), ("no-double-blank", 21, False)],
)
def test_option_tile_set(name: str, size: int, widow: bool) -> None:
    """tile_set (TILE-2/3/4, DEAL-1, DEAL-2): 7 tiles each, the rest the widow."""
    rules = rules_by_name(name)
    for seed in range(5):
        s = new_game(rules, seed=seed)
        dealt = [t for h in s.hands for t in h]
        assert all(len(h) == 7 for h in s.hands)
        assert (s.widow is not None) == widow
        if s.widow is not None:
            dealt.append(s.widow)
        assert len(dealt) == len(set(dealt)) == size
        assert set(dealt) == set(rules.tile_set.tiles)
    # With a widow the bidder discards after the auction; without, trump comes next.
    s = new_game(rules, seed=0, first_bidder=0)
    while s.phase is Phase.BIDDING:
        s = apply(s, Bid(4) if s.to_act == 0 else Pass())
    assert s.phase is (Phase.DISCARD if widow else Phase.TRUMP)
    assert len(s.hands[0]) == (8 if widow else 7)


# ---------------------------------------------------------------------------
# min_bid, moon (BID-4, BID-5)


@pytest.mark.parametrize("min_bid", [3, 4, 5])
def test_option_min_bid(min_bid: int) -> None:
    """min_bid (BID-4): bids run from min_bid to 7, then 21."""
    rules = attrs.evolve(rules_by_name("partnership"), min_bid=min_bid)
    s = new_game(rules, seed=1, first_bidder=0)
    expected = (Pass(), *(Bid(b) for b in range(min_bid, 8)), Bid(21))
    assert legal_actions(s) == expected
    for low in range(1, min_bid):
        with pytest.raises(IllegalAction) as e:
            apply(s, Bid(low))
        assert e.value.rule == "BID-4"
    assert apply(s, Bid(min_bid)).calls == (Bid(min_bid),)


def test_option_moon_true() -> None:
    """moon = true (BID-4, BID-5): 21 may open the auction and ends it at once."""
    s = new_game(seed=1, first_bidder=2)
    assert Bid(21) in legal_actions(s)
    s = apply(s, Bid(21), seat=2)
    assert s.phase is Phase.DISCARD
    assert s.bidder == 2 and s.bid == 21
    assert s.calls == (Bid(21),)
    assert s.to_act == 2


def test_option_moon_false() -> None:
    """moon = false (BID-4): 21 is not a bid."""
    s = new_game(RuleSet(moon=False), seed=1, first_bidder=0)
    assert legal_actions(s) == (Pass(), Bid(4), Bid(5), Bid(6), Bid(7))
    with pytest.raises(IllegalAction) as e:
        apply(s, Bid(21))
    assert e.value.rule == "BID-4"
    s = apply(s, Bid(7))
    assert legal_actions(s) == (Pass(),)


# ---------------------------------------------------------------------------
# all_pass (BID-7, BID-8)


def test_option_all_pass_redeal() -> None:
    """all_pass = redeal (BID-7, BID-1): the hand is thrown in, scores unchanged, the
    next hand is dealt and the first bid moves one seat clockwise."""
    s = new_game(seed=4, first_bidder=2)
    first_deal = s.hands
    for seat in (2, 0, 1):
        s = apply(s, Pass(), seat=seat)
    assert s.hand_number == 2
    assert s.first_bidder == 0 and s.to_act == 0
    assert s.phase is Phase.BIDDING
    assert s.scores == (0, 0, 0)
    thrown = s.history[-1]
    assert thrown.thrown_in and thrown.tricks == () and thrown.number == 1
    assert s.hands != first_deal  # a new shuffle


def test_option_all_pass_force() -> None:
    """all_pass = force (BID-8): when all before passed, the last may not pass."""
    for rules in (RuleSet(all_pass=AllPass.FORCE), rules_by_name("partnership-forced")):
        s = new_game(rules, seed=4, first_bidder=1)
        for _ in range(rules.players - 1):
            s = apply(s, Pass())
        assert Pass() not in legal_actions(s)
        assert legal_actions(s)[0] == Bid(4)
        with pytest.raises(IllegalAction) as e:
            apply(s, Pass())
        assert e.value.rule == "BID-8"
        s = apply(s, Bid(4))
        assert s.bidder == 0 and s.bid == 4


# ---------------------------------------------------------------------------
# widow_timing (WIDOW-1, WIDOW-2)


def test_option_widow_before_trump() -> None:
    """widow_timing = before-trump (WIDOW-1): widow, discard, then trump."""
    s = new_game(seed=1, first_bidder=0, deal=make_deal(HANDS_3P, {"A": 0, "B": 1, "C": 2}, "5-1"))
    s = apply(apply(apply(s, Bid(4)), Pass()), Pass())
    assert s.phase is Phase.DISCARD
    assert T("5-1") in s.hands[0] and len(s.hands[0]) == 8
    assert set(legal_actions(s)) == {Discard(t) for t in s.hands[0]}
    # The widow tile itself may be the discard.
    s2 = apply(s, Discard(T("5-1")))
    assert s2.phase is Phase.TRUMP and len(s2.hands[0]) == 7 and T("5-1") not in s2.hands[0]
    # Or any other tile; it leaves the hand and is out of play.
    s3 = apply(s, Discard(T("6-6")))
    assert T("6-6") not in s3.hands[0] and T("5-1") in s3.hands[0]
    assert s3.discard == T("6-6")
    s3 = apply(s3, NameTrump(Trump.FIVE))
    assert s3.phase is Phase.PLAY and s3.to_act == 0


def test_option_widow_after_trump() -> None:
    """widow_timing = after-trump (WIDOW-2): trump named unseen, then widow and discard."""
    rules = RuleSet(widow_timing=WidowTiming.AFTER_TRUMP)
    s = new_game(
        rules, seed=1, first_bidder=0, deal=make_deal(HANDS_3P, {"A": 0, "B": 1, "C": 2}, "5-1")
    )
    s = apply(apply(apply(s, Bid(4)), Pass()), Pass())
    assert s.phase is Phase.TRUMP
    assert len(s.hands[0]) == 7 and T("5-1") not in s.hands[0]
    s = apply(s, NameTrump(Trump.SIX))
    assert s.phase is Phase.DISCARD
    assert T("5-1") in s.hands[0] and len(s.hands[0]) == 8
    s = apply(s, Discard(T("2-1")))
    assert s.phase is Phase.PLAY and s.to_act == 0 and len(s.hands[0]) == 7
    assert s.trump is Trump.SIX


# ---------------------------------------------------------------------------
# doubles_trump, no_trump, trump_numbers (TRUMP-1 … TRUMP-5)


def trump_choices(rules: RuleSet | str) -> set[Trump]:
    s = new_game(rules, seed=3, first_bidder=0)
    s = apply(s, Bid(21))
    if s.phase is Phase.DISCARD:
        s = apply(s, legal_actions(s)[0])
    assert s.phase is Phase.TRUMP
    return {a.trump for a in legal_actions(s)}  # type: ignore[attr-defined]


def test_option_doubles_trump() -> None:
    """doubles_trump (TRUMP-3, TRUMP-5): offered by default, withheld when false."""
    assert Trump.DOUBLES in trump_choices("standard")
    rules = RuleSet(doubles_trump=False)
    assert trump_choices(rules) == {Trump.of_number(n) for n in range(7)} | {Trump.NONE}
    s = new_game(rules, seed=3, first_bidder=0)
    s = apply(apply(s, Bid(21)), Discard(s.hands[0][0]))
    with pytest.raises(IllegalAction) as e:
        apply(s, NameTrump(Trump.DOUBLES))
    assert e.value.rule == "TRUMP-5"


def test_option_no_trump() -> None:
    """no_trump (TRUMP-4, TRUMP-5): offered by default, withheld when false."""
    assert Trump.NONE in trump_choices("standard")
    rules = RuleSet(no_trump=False)
    assert trump_choices(rules) == {Trump.of_number(n) for n in range(7)} | {Trump.DOUBLES}
    s = new_game(rules, seed=3, first_bidder=0)
    s = apply(apply(s, Bid(21)), Discard(s.hands[0][0]))
    with pytest.raises(IllegalAction) as e:
        apply(s, NameTrump(Trump.NONE))
    assert e.value.rule == "TRUMP-5"


def test_option_trump_numbers() -> None:
    """trump_numbers (TRUMP-2, TRUMP-5): only the numbers listed may be named."""
    assert trump_choices("standard") == set(Trump)
    assert trump_choices("no-double-blank") == set(Trump) - {Trump.ZERO}
    rules = RuleSet(trump_numbers=(5, 2))
    assert rules.trump_numbers == (2, 5)
    assert trump_choices(rules) == {Trump.TWO, Trump.FIVE, Trump.DOUBLES, Trump.NONE}
    s = new_game(rules, seed=3, first_bidder=0)
    s = apply(apply(s, Bid(21)), Discard(s.hands[0][0]))
    for t in (Trump.ZERO, Trump.THREE, Trump.SIX):
        with pytest.raises(IllegalAction) as e:
            apply(s, NameTrump(t))
        assert e.value.rule == "TRUMP-5"
    assert apply(s, NameTrump(Trump.FIVE)).trump is Trump.FIVE


# ---------------------------------------------------------------------------
# first_lead (LEAD-1, LEAD-2)


def lead_state(rules: RuleSet | str, trump: Trump) -> GameState:
    s = new_game(
        rules, seed=1, first_bidder=0, deal=make_deal(HANDS_3P, {"A": 0, "B": 1, "C": 2}, "5-1")
    )
    return auction_to_play(s, 0, 4, trump, "5-1")


def test_option_first_lead_any() -> None:
    """first_lead = any (LEAD-1): any tile of the leader's hand may be led."""
    s = lead_state("standard", Trump.THREE)
    assert set(legal_actions(s)) == {Play(t) for t in s.hands[0]}


def test_option_first_lead_trump() -> None:
    """first_lead = trump (LEAD-2): the first lead must be a trump if the leader holds one;
    later leads are free; a leader without trumps leads anything."""
    s = lead_state("lead-trump", Trump.THREE)
    assert set(legal_actions(s)) == {Play(T("3-3")), Play(T("3-1"))}
    with pytest.raises(IllegalAction) as e:
        apply(s, Play(T("6-6")))
    assert e.value.rule == "LEAD-2"
    # 3-3 leads; the others must follow trump (FOLLOW-1); the 3-3 wins (SUIT-4).
    s = apply(s, Play(T("3-3")))
    s = apply(s, legal_actions(s)[0])
    s = apply(s, legal_actions(s)[0])
    assert s.tricks[0].winner == 0 and s.to_act == 0
    # Second lead: free.
    assert set(legal_actions(s)) == {Play(t) for t in s.hands[0]}
    assert Play(T("6-6")) in legal_actions(s)
    # Trump 0: the leader holds no trump (the 0-0 is seat 1's), so any lead.
    s = lead_state("lead-trump", Trump.ZERO)
    assert set(legal_actions(s)) == {Play(t) for t in s.hands[0]}
    # No-trump: no restriction.
    s = lead_state("lead-trump", Trump.NONE)
    assert set(legal_actions(s)) == {Play(t) for t in s.hands[0]}
    assert RuleSet(first_lead=FirstLead.TRUMP) == rules_by_name("lead-trump")


# ---------------------------------------------------------------------------
# moon_made (SCORE-4, SCORE-5)


def test_option_moon_made_wins_game() -> None:
    """moon_made = wins-game (SCORE-4): a made 21 ends the game at once for the bidder."""
    s = scripted_3p("standard", bid=21, moon_deal=True, roles={"A": 1, "B": 2, "C": 0})
    assert last_hand(s).tricks_won == (0, 7, 0)
    assert s.is_over and s.winner == 1
    assert s.scores == (0, 21, 0)
    # Even with a target far away, and under marks (one mark only).
    s = scripted_3p(RuleSet(target=100), bid=21, moon_deal=True)
    assert s.is_over and s.winner == 0 and s.scores == (21, 0, 0)
    s = scripted_3p("marks", bid=21, moon_deal=True)
    assert s.is_over and s.winner == 0 and s.scores == (1, 0, 0)


def test_option_moon_made_scores_21() -> None:
    """moon_made = scores-21 (SCORE-5): a made 21 scores 21 and the game goes on unless
    that reaches the target."""
    s = scripted_3p(RuleSet(moon_made=MoonMade.SCORES_21, target=50), bid=21, moon_deal=True)
    assert not s.is_over and s.scores == (21, 0, 0) and s.hand_number == 2
    s = scripted_3p(
        RuleSet(moon_made=MoonMade.SCORES_21, scoring=Scoring.MARKS), bid=21, moon_deal=True
    )
    assert not s.is_over and s.scores == (1, 0, 0)
    # Reaching the target of 21 with it wins under END-1.
    s = scripted_3p("pagat", bid=21, moon_deal=True)
    assert s.is_over and s.winner == 0 and s.scores == (21, 0, 0)


def test_a_set_moon_loses_21() -> None:
    """SCORE-4: a set 21 loses 21 points (A takes only 4 tricks in the script)."""
    s = scripted_3p("standard", bid=21)
    assert last_hand(s).tricks_won == (4, 3, 0)
    assert s.scores == (-21, 3, 0) and not s.is_over


# ---------------------------------------------------------------------------
# scoring / target (SCORE-1 … SCORE-3, SCORE-6, END-1)


def test_option_scoring_points() -> None:
    """scoring = points (SCORE-1, SCORE-2, SCORE-3): made bid scores the bid, set loses it;
    others score a point a trick."""
    s = scripted_3p(bid=4)
    assert s.scores == (4, 3, 0)
    s = scripted_3p(bid=5)
    assert s.scores == (-5, 3, 0)


def test_option_scoring_marks() -> None:
    """scoring = marks (SCORE-6): a made contract gives the bidder one mark; a set gives
    every other player one; no points for tricks. Target 7 marks."""
    marks = rules_by_name("marks")
    assert marks.target == 7
    s = scripted_3p(marks, bid=4)
    assert s.scores == (1, 0, 0)
    s = scripted_3p(marks, bid=5)
    assert s.scores == (0, 1, 1)


def test_option_target() -> None:
    """target (END-1): the game ends after a hand where a single top score reaches it."""
    s = scripted_3p(RuleSet(target=4), bid=4)
    assert s.is_over and s.winner == 0 and s.scores == (4, 3, 0)
    s = scripted_3p(RuleSet(target=5), bid=4)
    assert not s.is_over and s.hand_number == 2
    s = scripted_3p(RuleSet(target=3), bid=5)  # bidder set; seat 1 reaches 3
    assert s.is_over and s.winner == 1


# ---------------------------------------------------------------------------
# tie (END-2, END-3)


def two_hands_to_a_tie(rules: RuleSet) -> GameState:
    """Hand 1: seat 0 bids 4 and takes 4, seat 1 takes 3 → (4, 3, 0). Hand 2 (seat 1 bids
    first): seat 1 bids 4 and takes 4, seat 0 takes 3 → (7, 7, 0), a tie at the target 7
    that includes the bidder, seat 1."""
    s = scripted_3p(rules, roles={"A": 0, "B": 1, "C": 2})
    assert s.scores == (4, 3, 0) and not s.is_over
    return scripted_3p(rules, roles={"A": 1, "B": 0, "C": 2}, state=s)


def test_option_tie_play_on() -> None:
    """tie = play-on (END-2): a tie at the top goes on to further hands; seat order never
    breaks it."""
    rules = RuleSet(target=7)
    s = two_hands_to_a_tie(rules)
    assert s.scores == (7, 7, 0)
    assert not s.is_over and s.winner is None
    assert s.hand_number == 3 and s.first_bidder == 2
    # Hand 3: seat 2 bids and takes 4, seat 0 takes 3: seat 0 is alone on top with 10.
    s = scripted_3p(rules, roles={"A": 2, "B": 0, "C": 1}, state=s)
    assert s.scores == (10, 7, 4)
    assert s.is_over and s.winner == 0


def test_option_tie_bidder_out() -> None:
    """tie = bidder-out (END-3): the bidder among the tied leaders goes out and wins."""
    rules = RuleSet(target=7, tie=TieRule.BIDDER_OUT)
    s = two_hands_to_a_tie(rules)
    assert s.scores == (7, 7, 0)
    assert s.is_over and s.winner == 1


# ---------------------------------------------------------------------------
# Impossible rule sets (RULES-1, TRUMP-5)


def refused_rules(**kw: object) -> RulesError:
    with pytest.raises(RulesError) as e:
        RuleSet(**kw)  # type: ignore[arg-type]
    return e.value


def test_four_players_need_28_tiles() -> None:
    err = refused_rules(players=4)
    assert err.rule == "RULES-1"
    assert "28" in str(err) and "four players" in str(err).lower()
    assert refused_rules(players=4, tile_set=TileSet.NO_DOUBLE_BLANK_21).rule == "RULES-1"
    assert refused_rules(players=3, tile_set=TileSet.DOUBLE_SIX_28).rule == "RULES-1"
    assert refused_rules(players=5).rule == "RULES-1"
    assert refused_rules(players=2).rule == "RULES-1"


def test_after_trump_needs_a_widow() -> None:
    err = refused_rules(widow_timing=WidowTiming.AFTER_TRUMP, tile_set=TileSet.NO_DOUBLE_BLANK_21)
    assert err.rule == "RULES-1" and "widow" in str(err)
    err = refused_rules(
        players=4, tile_set=TileSet.DOUBLE_SIX_28, widow_timing=WidowTiming.AFTER_TRUMP
    )
    assert err.rule == "RULES-1" and "widow" in str(err)


@pytest.mark.parametrize("min_bid", [0, 1, 2, 6, 7, 21])
def test_min_bid_must_be_3_4_or_5(min_bid: int) -> None:
    err = refused_rules(min_bid=min_bid)
    # RULES-1 lists the requirement; BID-4 defines the values. Either names the clause.
    assert err.rule in ("RULES-1", "BID-4")
    assert "3, 4 or 5" in str(err)


def test_trump_zero_refused_in_the_21_tile_set() -> None:
    err = refused_rules(tile_set=TileSet.NO_DOUBLE_BLANK_21, trump_numbers=(0, 1, 2, 3, 4, 5, 6))
    assert err.rule == "TRUMP-5"
    assert "0" in err.message and "no tile" in err.message
    assert refused_rules(trump_numbers=(7,)).rule == "TRUMP-5"
    assert refused_rules(trump_numbers=(-1,)).rule == "TRUMP-5"


def test_at_least_one_trump_choice() -> None:
    err = refused_rules(trump_numbers=(), doubles_trump=False, no_trump=False)
    assert err.rule == "TRUMP-5"
    # One choice is enough.
    assert RuleSet(trump_numbers=(), doubles_trump=False).trumps == (Trump.NONE,)


@pytest.mark.parametrize("target", [0, -7])
def test_target_must_be_positive(target: int) -> None:
    assert refused_rules(target=target).rule == "RULES-1"


def test_valid_combinations_are_accepted() -> None:
    RuleSet(players=4, tile_set=TileSet.DOUBLE_SIX_28, min_bid=3, all_pass=AllPass.FORCE)
    RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21)
    r = RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21)
    assert r.trump_numbers == (1, 2, 3, 4, 5, 6) and not r.has_widow
    assert RuleSet().has_widow and RuleSet().trump_numbers == tuple(range(7))
    assert RuleSet(scoring=Scoring.MARKS).target == 7 and RuleSet().target == 21
    assert RuleSet(scoring=Scoring.MARKS, target=9).target == 9


# ---------------------------------------------------------------------------
# Presets (spec/variants.md)


def read_presets_table() -> dict[str, dict[str, str]]:
    text = (SPEC / "variants.md").read_text(encoding="utf-8")
    section = text.split("## Presets", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    out: dict[str, dict[str, str]] = {}
    for row in rows[2:]:
        cells = [c.strip().replace("**", "") for c in row.strip("|").split("|")]
        out[cells[0]] = dict(zip(header[1:], cells[1:], strict=True))
    return out


def read_aliases() -> dict[str, list[str]]:
    text = (SPEC / "variants.md").read_text(encoding="utf-8")
    section = text.split("## Sources and aliases", 1)[1].split("\n## ", 1)[0]
    out: dict[str, list[str]] = {}
    for m in re.finditer(r"^- \*\*([a-z0-9-]+)\*\* — (.*)$", section, re.MULTILINE):
        first_sentence = m.group(2).split(". ", 1)[0]
        out[m.group(1)] = re.findall(r"`([^`]+)`", first_sentence)
    return out


def spec_value(field: str, text: str) -> object:
    if field in ("players", "min_bid", "target"):
        return int(text)
    if field in ("moon", "doubles_trump", "no_trump"):
        return {"true": True, "false": False}[text]
    if field == "trump_numbers":
        lo, hi = map(int, text.split("-"))
        return list(range(lo, hi + 1))
    return text


def test_the_preset_table_is_readable() -> None:
    table = read_presets_table()
    assert "standard" in table and len(table) >= 10
    aliases = read_aliases()
    assert aliases["standard"] == ["3p", "three-player", "default"]
    assert set(aliases) == set(table)


@pytest.mark.parametrize("name", sorted(read_presets_table()))
def test_preset_by_name_matches_the_variants_table(name: str) -> None:
    row = read_presets_table()[name]
    rules = rules_by_name(name)
    assert rules is PRESETS[name]
    assert rules.name == name
    as_json = rules.to_json()
    for field, text in row.items():
        assert as_json[field] == spec_value(field, text), (name, field)


@pytest.mark.parametrize("name", sorted(read_aliases()))
def test_preset_by_alias(name: str) -> None:
    for alias in read_aliases()[name]:
        assert rules_by_name(alias) == rules_by_name(name), alias
    # And new_game accepts a name.
    assert new_game(name, seed=1).rules == PRESETS[name]


def test_every_preset_is_documented() -> None:
    assert set(PRESETS) == set(read_presets_table())


@pytest.mark.parametrize("bad", ["", "nope", "standard2", "4 p", "partnership-min4", "moon"])
def test_unknown_preset_names_raise_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        rules_by_name(bad)
    with pytest.raises(ParseError):
        new_game(bad, seed=1)


def test_preset_function_named_in_variants_md() -> None:
    assert moonrules.preset("pagat") == rules_by_name("pagat")  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Option values as the records spell them (spec/variants.md, "Fields")


def read_fields_table() -> dict[str, list[str]]:
    """Each field of the Fields table with its values, default first (``a | b``), or ``[]``
    when the values are described in words (``trump_numbers``, ``target``)."""
    text = (SPEC / "variants.md").read_text(encoding="utf-8")
    section = text.split("## Fields", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|")][2:]
    out: dict[str, list[str]] = {}
    for row in rows:
        field, values, _ = (c.strip() for c in re.split(r"(?<!\\)\|", row.strip("|")))
        out[field] = [v.strip() for v in values.split("\\|")] if "\\|" in values else []
    return out


FIELD_VALUES = [(f, v) for f, vs in read_fields_table().items() for v in vs]
ENUM_FIELDS = [
    f.name for f in attrs.fields(RuleSet) if isinstance(getattr(RuleSet(), f.name), Enum)
]


def test_the_fields_table_lists_every_field() -> None:
    table = read_fields_table()
    assert list(table) == [f.name for f in attrs.fields(RuleSet)]
    for name in ENUM_FIELDS:
        assert table[name], f"{name}: the table gives no values"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_built_from_its_record_fields(name: str) -> None:
    """The keyword arguments may be exactly a record's ``rules`` object."""
    fields = PRESETS[name].to_json()
    assert all(isinstance(fields[f], str) for f in ENUM_FIELDS)
    built = RuleSet(**fields)  # type: ignore[arg-type]
    assert built == PRESETS[name] and hash(built) == hash(PRESETS[name])
    assert built.name == name


@pytest.mark.parametrize(("field", "text"), FIELD_VALUES, ids=[f"{f}={v}" for f, v in FIELD_VALUES])
def test_every_option_value_is_accepted_as_records_spell_it(field: str, text: str) -> None:
    value = spec_value(field, text)
    # The first preset that uses the value, so that the other fields fit it; else standard.
    base = next((p for p in PRESETS.values() if p.to_json()[field] == value), PRESETS["standard"])
    fields = {**base.to_json(), field: value}
    built = RuleSet(**fields)  # type: ignore[arg-type]
    assert built.to_json()[field] == value
    member = getattr(built, field)
    if field in ENUM_FIELDS:
        kind = type(getattr(RuleSet(), field))
        assert member is kind(text) and member.value == text
        assert attrs.evolve(base, **{field: kind(text)}) == built
        assert attrs.evolve(base, **{field: text}) == built  # type: ignore[arg-type]
    assert built == rules_from_json(fields)
    assert hash(built) == hash(rules_from_json(fields))


def _bad_values(field: str) -> list[object]:
    if field in ENUM_FIELDS:
        good = getattr(RuleSet(), field).value
        return ["", good.upper(), f"{good} ", "no such option", 1, None, Trump.SIX]
    if field in ("players", "min_bid", "target"):
        return ["4", 4.0, True, None]
    if field in ("moon", "doubles_trump", "no_trump"):
        return ["true", 1, 0, None]
    assert field == "trump_numbers"
    return ["0-6", 3, None, {1: 2}]


BAD_VALUES = [(f.name, v) for f in attrs.fields(RuleSet) for v in _bad_values(f.name)]


@pytest.mark.parametrize(("field", "bad"), BAD_VALUES, ids=[f"{f}={v!r}" for f, v in BAD_VALUES])
def test_a_bad_option_value_is_refused_naming_the_field_and_its_values(
    field: str, bad: object
) -> None:
    # Text that names no option is an impossible value (RulesError); any other type is a
    # wrong type (TypeError); both name the field first and list its values.
    kind: type[Exception] = (
        RulesError if isinstance(bad, str) and field in ENUM_FIELDS else TypeError
    )
    with pytest.raises(kind) as e:
        RuleSet(**{field: bad})  # type: ignore[arg-type]
    message = e.value.message if isinstance(e.value, RulesError) else str(e.value)
    assert message.startswith(f"{field} must be" if kind is RulesError else f"{field}: "), message
    assert repr(bad) in message
    table = read_fields_table()[field]
    if field in ENUM_FIELDS:
        assert all(repr(v) in message for v in table), message
    elif table:
        assert all(v in message for v in table), message
    # The same value through attrs.evolve is refused the same way.
    with pytest.raises(kind) as again:
        attrs.evolve(RuleSet(), **{field: bad})  # type: ignore[arg-type]
    assert str(again.value) == str(e.value)


@pytest.mark.parametrize("bad", [[7], [-1], ["1"], [1.0], [True]])
def test_trump_numbers_outside_0_to_6_are_refused(bad: list[object]) -> None:
    if type(bad[0]) is int:
        with pytest.raises(RulesError) as e:
            RuleSet(trump_numbers=bad)  # type: ignore[arg-type]
        assert e.value.rule == "TRUMP-5" and "0 to 6" in e.value.message
        assert repr(bad[0]) in e.value.message
    else:  # not a number: a wrong type
        with pytest.raises(TypeError, match=r"^trump_numbers: .*0 to 6") as t:
            RuleSet(trump_numbers=bad)  # type: ignore[arg-type]
        assert repr(bad[0]) in str(t.value)
