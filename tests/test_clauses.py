"""The clauses a situation exercises (``moonrules.rules.clauses``) agree with the rulebook.

- the tile-set and trump maps cover every value and point at the clause whose
  heading in ``spec/rules.md`` defines it;
- the clauses chosen for a play, a trick and an auction agree with what the rule
  functions answer in the same situation (exhaustive over small domains).
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest
from gamehelpers import random_step

import moonrules as m
from moonrules.rules import clauses
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit
from moonrules.rules.tiles import TileSet
from moonrules.rules.tricks import legal_plays

SPEC = Path(__file__).resolve().parents[1] / "spec" / "rules.md"
HEADINGS = dict(re.findall(r"^### ([A-Z]+-\d+) — (.+)$", SPEC.read_text(), re.M))


@pytest.mark.parametrize("tile_set", list(TileSet))
def test_each_tile_set_maps_to_the_clause_that_defines_it(tile_set: TileSet) -> None:
    clause = clauses.tile_set_clause(tile_set)
    assert f"{len(tile_set.tiles)}-tile" in HEADINGS[clause]
    for rules in m.PRESETS.values():
        if rules.tile_set is tile_set:
            assert clauses.tiles_clauses(rules) == {"TILE-1", clause}


@pytest.mark.parametrize("trump", list(Trump))
def test_each_trump_maps_to_the_clause_that_defines_it(trump: Trump) -> None:
    heading = HEADINGS[clauses.trump_clause(trump)]
    if trump is Trump.NONE:
        assert heading == "No-trump"  # TRUMP-4: no tile is a trump
        assert not any(is_trump(t, trump) for t in m.DOUBLE_SIX_SET)
    elif trump is Trump.DOUBLES:
        assert heading == "Doubles as trump"
    else:
        assert heading == "A number as trump"
    assert clauses.trump_clauses(trump) == {"TRUMP-1", clauses.trump_clause(trump)}


def test_every_clause_the_module_can_name_is_in_the_rulebook() -> None:
    named = set(clauses.TILE_SET_CLAUSE.values()) | set(clauses.TRUMP_CLAUSE.values())
    assert named <= set(HEADINGS)


@pytest.mark.parametrize("trump", list(Trump))
def test_play_clauses_agree_with_the_rule_functions(trump: Trump) -> None:
    """For every led tile and random hands: FOLLOW-3 exactly when the hand cannot follow
    and legal_plays allows every tile; FOLLOW-1 exactly on a trump lead; LEAD-2 only for
    a seven-tile lead under first_lead = trump."""
    rng = random.Random(str(trump))
    tiles = list(m.DOUBLE_SIX_SET)
    lead_trump = m.preset("lead-trump")
    for led in tiles:
        rest = [t for t in tiles if t != led]
        for size in (1, 3, 7):
            hand = rng.sample(rest, size)
            got = clauses.play_clauses(m.STANDARD, hand, [led], trump)
            follows = any(in_suit(t, led_suit(led, trump), trump) for t in hand)
            assert ("FOLLOW-3" in got) == (not follows)
            if not follows:
                assert set(legal_plays(hand, [led], trump)) == set(hand)
            assert ("FOLLOW-1" in got) == (led_suit(led, trump) == TRUMP_SUIT)
            assert ("FOLLOW-2" in got) != ("FOLLOW-1" in got)
            assert ("SUIT-2" in got) == any(is_trump(t, trump) for t in hand)
            lead = clauses.play_clauses(lead_trump, hand, [], trump)
            assert ("LEAD-2" in lead) == (size == 7)
            assert "LEAD-2" not in clauses.play_clauses(m.STANDARD, hand, [], trump)


def test_auction_clauses_agree_with_the_auction() -> None:
    """Every auction of up to three calls under the standard and a forced rule set."""
    forced = m.RuleSet(all_pass=m.AllPass.FORCE)
    for rules in (m.STANDARD, forced):
        values = (PASS, *rules.bids)
        for n in range(4):
            for calls in itertools.product(values, repeat=n):
                a = Auction(rules=rules)
                try:
                    for c in calls:
                        a = a.call(c)
                except m.IllegalAction:
                    continue
                got = clauses.auction_clauses(rules, calls)
                assert ("BID-6" in got) == (a.winner is not None)
                assert ("BID-7" in got) == a.redeal
                assert ("SEAT-1" in got) == (not a.is_over)
                assert ("BID-5" in got) == (MOON in calls)
                asked = clauses.auction_clauses(rules, calls, asks_legal=True)
                assert ("BID-5" in asked) == (MOON in calls or MOON in legal_calls(a))
                barred = not a.is_over and PASS not in legal_calls(a)
                if barred:
                    assert "BID-8" in got


def test_error_clauses_add_renege_1_only_to_a_failure_to_follow() -> None:
    assert clauses.error_clauses("FOLLOW-1") == {"FOLLOW-1", "RENEGE-1"}
    assert clauses.error_clauses("FOLLOW-2") == {"FOLLOW-2", "RENEGE-1"}
    assert clauses.error_clauses("LEAD-2") == {"LEAD-2"}


def test_game_clauses_follow_the_hands_played() -> None:
    """A seeded game under renege = penalty with a renege: RENEGE-2 and the widow clause
    appear because of what happened, and TRICK-3 only once a hand had seven tricks."""
    from moonrules.game import apply_renege, illegal_play_reason

    s = m.new_game("renege-penalty", seed=4)
    rng = random.Random(4)
    reneged = False
    while not s.is_over and len(s.history) < 3:
        if s.phase is m.Phase.PLAY and not reneged:
            bad = [t for t in s.hands[s.to_act or 0] if illegal_play_reason(s, t) is not None]
            if bad:
                s = apply_renege(s, bad[0])
                reneged = True
                continue
        s = random_step(s, rng)
    hands = [*s.history, s.hand]
    got = clauses.game_clauses(s.rules, hands)
    assert reneged and "RENEGE-2" in got
    assert ("TRICK-3" in got) == any(len(h.tricks) == 7 for h in hands)
    assert clauses.widow_clause(s.rules) in got
    assert "TEAM-1" not in got
    assert "TEAM-1" in clauses.game_clauses(m.PARTNERSHIP, [])
