"""The worked examples of the rules digest (seed 003; spec EX-1 … EX-6), and one test
per "mistake seen in other implementations", each named for the mistake."""

from __future__ import annotations

import pytest

from moonrules import (
    MOON,
    MOON_SET,
    NO_DOUBLE_BLANK_SET,
    PASS,
    STANDARD,
    TILES,
    TRUMP_SUIT,
    Auction,
    Bid,
    Deal,
    Discard,
    GameState,
    IllegalAction,
    NameTrump,
    OutOfTurn,
    Pass,
    Phase,
    Play,
    RulesError,
    RuleSet,
    Tile,
    TileSet,
    Trump,
    apply,
    apply_call,
    follows,
    game_winner,
    in_suit,
    is_trump,
    led_suit,
    legal_actions,
    legal_calls,
    legal_plays,
    new_game,
    rank,
    rules_by_name,
    trick_winner,
    with_deal,
)


def T(text: str) -> Tile:
    return Tile.parse(text)


def TS(text: str) -> list[Tile]:
    return [Tile.parse(p) for p in text.split()]


def suit_order(suit: int, trump: Trump, among: tuple[Tile, ...] = MOON_SET) -> list[str]:
    members = [t for t in among if in_suit(t, suit, trump)]
    return [str(t) for t in sorted(members, key=lambda t: rank(t, suit, trump), reverse=True)]


# ---------------------------------------------------------------------------
# Worked examples


EX1_CASES = [
    (led, trump)
    for led in ("3-2", "5-1")
    for trump in Trump
    # Neither 5 nor 3 trump, and the led tile itself not a trump (it would call trumps).
    if trump.number not in (3, 5, *map(int, led.split("-")))
]


@pytest.mark.parametrize(("led", "trump"), EX1_CASES, ids=lambda v: str(v))
def test_example_5_3_must_be_played_on_3_2_and_on_5_1(led: str, trump: Trump) -> None:
    """EX-1: a player whose only 5 and only 3 is the 5-3 must play it on a 3-2 lead
    (calls 3s) and on a 5-1 lead (calls 5s), when neither 5 nor 3 is trump."""
    lead = T(led)
    assert not is_trump(lead, trump)
    hand = TS("5-3 6-6 6-2 4-4 1-1 4-2")  # no other 5 or 3
    assert led_suit(lead, trump) == (3 if led == "3-2" else 5)
    assert legal_plays(hand, [lead], trump) == (T("5-3"),)
    assert follows(T("5-3"), lead, trump)


def test_example_5_3_through_the_game() -> None:
    """EX-1 through apply: trump 6, seat 0 leads 3-2; seat 1's only legal play is 5-3."""
    deal = Deal.of(
        [
            ["3-2", "6-6", "6-5", "6-4", "1-1", "2-1", "4-1"],
            ["5-3", "2-2", "4-4", "4-2", "6-1", "0-0", "5-5"],
            ["3-3", "3-1", "4-3", "5-1", "5-2", "5-4", "6-3"],
        ],
        widow="6-2",
    )
    s = new_game(seed=1, first_bidder=0, deal=deal)
    s = apply(apply(apply(s, Bid(4)), Pass()), Pass())
    s = apply(apply(s, Discard(T("6-2"))), NameTrump(Trump.SIX))
    s = apply(s, Play(T("3-2")))
    assert legal_actions(s) == (Play(T("5-3")),)
    with pytest.raises(IllegalAction) as e:
        apply(s, Play(T("4-4")))
    assert e.value.rule == "FOLLOW-2"


def test_example_doubles_trump_4_2_led() -> None:
    """EX-2: doubles trump, 4-2 led: it calls 4s; the highest 4 is the 6-4; a player whose
    only 4 is the 4-4 cannot follow and may play anything, the 4-4 included."""
    trump = Trump.DOUBLES
    lead = T("4-2")
    assert led_suit(lead, trump) == 4
    assert suit_order(4, trump) == ["6-4", "5-4", "4-3", "4-2", "4-1"]
    assert trick_winner(TS("4-2 6-4 5-4"), trump) == 1
    assert trick_winner(TS("4-2 4-3 6-4"), trump) == 2
    # The 4-4 is a trump: it does not follow 4s, but it trumps.
    assert not follows(T("4-4"), lead, trump)
    hand = TS("4-4 6-1 2-2 5-3")
    assert legal_plays(hand, [lead], trump) == tuple(hand)
    assert trick_winner(TS("4-2 6-4 4-4"), trump) == 2
    assert trick_winner(TS("4-2 4-4 6-6"), trump) == 2


def test_example_trump_zero_has_one_trump() -> None:
    """EX-3: in the 22-tile set trump 0 gives one trump, the 0-0; trump 1-6 give six."""
    assert [t for t in MOON_SET if is_trump(t, Trump.ZERO)] == [T("0-0")]
    for n in range(1, 7):
        assert sum(is_trump(t, Trump.of_number(n)) for t in MOON_SET) == 6
    threes = [t for t in MOON_SET if is_trump(t, Trump.THREE)]
    ordered = sorted(threes, key=lambda t: rank(t, TRUMP_SUIT, Trump.THREE), reverse=True)
    assert [str(t) for t in ordered] == ["3-3", "6-3", "5-3", "4-3", "3-2", "3-1"]


def test_example_doubles_trump_order() -> None:
    """EX-4: doubles trump order 6-6, 5-5, 4-4, 3-3, 2-2, 1-1, 0-0."""
    assert suit_order(TRUMP_SUIT, Trump.DOUBLES) == [
        "6-6",
        "5-5",
        "4-4",
        "3-3",
        "2-2",
        "1-1",
        "0-0",
    ]
    # The lowest double of the 21-tile set is the 1-1 (SUIT-4).
    assert suit_order(TRUMP_SUIT, Trump.DOUBLES, NO_DOUBLE_BLANK_SET)[-1] == "1-1"


def test_example_suit_order() -> None:
    """Digest rule 4 / EX-5: suit 6 is 6-6 … 6-1; suit 2 is 2-2, 2-6, 2-5, 2-4, 2-3, 2-1."""
    assert suit_order(6, Trump.NONE) == ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"]
    assert suit_order(2, Trump.NONE) == ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    assert suit_order(TRUMP_SUIT, Trump.TWO) == ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    assert suit_order(0, Trump.NONE) == ["0-0"]


def test_example_rising_auction() -> None:
    """EX-6: A 4, B 5, C 6: C is the bidder with 6; had B bid 21, C would get no turn."""
    a = Auction(first_bidder=0).call(4).call(5).call(6)
    assert a.is_over and a.winner == 2 and a.bid == 6
    b = Auction(first_bidder=0).call(4).call(MOON)
    assert b.is_over and b.winner == 1 and b.bid == MOON and legal_calls(b) == ()


# ---------------------------------------------------------------------------
# Mistakes seen in other implementations


def test_mistake_every_double_treated_as_trump() -> None:
    """Only the trump number's double (or every double, when doubles are named) is a trump."""
    for n in range(7):
        trump = Trump.of_number(n)
        for d in range(7):
            assert is_trump(Tile(d, d), trump) == (d == n)
            if d != n:
                assert led_suit(Tile(d, d), trump) == d
    assert not any(is_trump(Tile(d, d), Trump.NONE) for d in range(7))
    # Trump 5: a 6-6 played on a 4-1 lead neither follows nor trumps, so it cannot win.
    assert trick_winner(TS("4-1 6-6 4-3"), Trump.FIVE) == 2
    assert trick_winner(TS("4-1 6-6 2-2"), Trump.FIVE) == 0
    # …and a player holding 4-4 must follow a 4 lead with it (it is not a trump).
    assert legal_plays(TS("4-4 6-5"), [T("4-1")], Trump.FIVE) == (T("4-4"),)
    # But a low trump beats a non-trump double.
    assert trick_winner(TS("6-6 5-1"), Trump.FIVE) == 1


def test_mistake_trump_tile_follows_its_other_number() -> None:
    """A trump belongs to the trump suit only: with 6s trump the 6-3 is not a 3."""
    trump = Trump.SIX
    lead = T("3-2")
    assert not follows(T("6-3"), lead, trump)
    # Holding 6-3 and 3-1, the player must play the 3-1.
    assert legal_plays(TS("6-3 3-1"), [lead], trump) == (T("3-1"),)
    # Holding 6-3 and no other 3, anything goes (the trump is not demanded).
    assert legal_plays(TS("6-3 1-1"), [lead], trump) == (T("6-3"), T("1-1"))
    # Exhaustively: no trump ever follows a non-trump lead.
    for tr in Trump:
        for led in TILES:
            if is_trump(led, tr):
                continue
            for t in TILES:
                if is_trump(t, tr):
                    assert not follows(t, led, tr), (tr, led, t)


def test_mistake_overtrump_ranked_by_wrong_end() -> None:
    """2s trump: the 2-6 beats the 2-3 (rank by the other end, not by the trump end)."""
    trump = Trump.TWO
    assert rank(T("6-2"), TRUMP_SUIT, trump) > rank(T("3-2"), TRUMP_SUIT, trump)
    assert trick_winner(TS("6-1 3-2 6-2"), trump) == 2
    assert trick_winner(TS("6-1 6-2 3-2"), trump) == 1
    assert trick_winner(TS("2-1 6-2 5-2"), trump) == 1
    assert trick_winner(TS("5-2 2-1 2-2"), trump) == 2
    # Under every number trump, trumps rank by their other end, the double first.
    for n in range(7):
        tr = Trump.of_number(n)
        trumps = [t for t in TILES if t.has(n) and not t.is_double]
        for a in trumps:
            for b in trumps:
                if a != b:
                    a_wins = trick_winner([T("0-0") if n else T("1-1"), a, b], tr) == 1
                    assert a_wins == (a.other_end(n) > b.other_end(n)), (n, a, b)


def test_mistake_auction_lets_players_bid_twice() -> None:
    """BID-2: one call each; after every player has called, no more calls."""
    a = Auction().call(4).call(5).call(PASS)
    assert a.is_over and legal_calls(a) == ()
    with pytest.raises(IllegalAction) as e:
        apply_call(a, 6)
    assert e.value.rule == "BID-2"
    # Through the game: seat 0 bid 4, seats 1 and 2 passed; seat 0 cannot raise itself.
    s = new_game(seed=3, first_bidder=0)
    s = apply(apply(apply(s, Bid(4)), Pass()), Pass())
    assert s.phase is Phase.DISCARD and s.bidder == 0 and s.bid == 4
    with pytest.raises(OutOfTurn) as e2:
        apply(s, Bid(5))
    assert e2.value.rule == "TURN-1"
    # 4 players: four calls, then over.
    b = Auction(rules=rules_by_name("partnership")).call(4).call(PASS).call(5).call(PASS)
    assert b.is_over and b.winner == 2


def test_mistake_auction_does_not_stop_at_21() -> None:
    """BID-5: a 21 ends the auction at once; later players get no turn."""
    a = Auction(first_bidder=1).call(MOON)
    assert a.is_over and a.winner == 1 and legal_calls(a) == ()
    with pytest.raises(IllegalAction) as e:
        apply_call(a, PASS)
    assert e.value.rule == "BID-5"
    s = new_game(seed=3, first_bidder=1)
    s = apply(s, Pass())
    s = apply(s, Bid(21))
    assert s.phase is Phase.DISCARD
    assert s.bidder == 2 and s.bid == 21 and len(s.calls) == 2
    assert s.to_act == 2
    with pytest.raises(OutOfTurn):
        apply(s, Pass(), seat=0)


# The 3-player script of test_rule_options (see there): A takes 4 tricks, B 3, C 0.
_HANDS = {
    "A": "6-6 5-5 4-4 3-3 2-1 3-1 4-1",
    "B": "6-5 5-4 4-3 3-2 2-2 1-1 0-0",
    "C": "4-2 5-2 5-3 6-1 6-2 6-3 6-4",
}
_KEY = {0: {"A": "6-6"}, 1: {"A": "5-5"}, 2: {"A": "4-4"}, 3: {"A": "3-3"}}
_KEY |= {4: {"A": "2-1", "B": "2-2"}, 5: {"B": "1-1"}, 6: {"B": "0-0"}}


def _scripted_hand(state: GameState, roles: dict[str, int]) -> GameState:
    by_seat: list[list[str]] = [[], [], []]
    for role, place in roles.items():
        by_seat[place] = _HANDS[role].split()
    state = with_deal(state, Deal.of(by_seat, widow="5-1"))
    bidder = roles["A"]
    while state.phase is Phase.BIDDING:
        state = apply(state, Bid(4) if state.to_act == bidder else Pass())
    state = apply(apply(state, Discard(T("5-1"))), NameTrump(Trump.NONE))
    plan = {k: {roles[r]: T(t) for r, t in v.items()} for k, v in _KEY.items()}
    keep = {
        roles[r]: {T(t) for v in _KEY.values() for rr, t in v.items() if rr == r} for r in roles
    }
    number = state.hand_number
    while not state.is_over and state.hand_number == number:
        seat = state.to_act
        assert seat is not None
        tile = plan.get(len(state.tricks), {}).get(seat)
        if tile is None:
            tile = next(a.tile for a in legal_actions(state) if a.tile not in keep[seat])  # type: ignore[attr-defined]
        state = apply(state, Play(tile))
    return state


def test_mistake_end_ties_broken_by_seat_order() -> None:
    """END-2: a tie at the top at or above the target is never settled by seat order."""
    for scores in ([22, 22, 3], [3, 22, 22], [22, 3, 22], [25, 25, 25]):
        for bidder in (None, 0, 1, 2):
            assert game_winner(STANDARD, scores, bidder) is None
    # Through the game, target 7: (4, 3, 0) after hand 1, (7, 7, 0) after hand 2.
    s = new_game(RuleSet(target=7), seed=9, first_bidder=0)
    s = _scripted_hand(s, {"A": 0, "B": 1, "C": 2})
    assert s.scores == (4, 3, 0)
    s = _scripted_hand(s, {"A": 1, "B": 0, "C": 2})
    assert s.scores == (7, 7, 0)
    assert not s.is_over and s.winner is None and s.phase is Phase.BIDDING


def test_mistake_trump_zero_accepted_in_21_tile_game() -> None:
    """TRUMP-5: no tile of the 21-tile set bears a 0, so trump 0 is refused."""
    with pytest.raises(RulesError) as e:
        RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21, trump_numbers=(0, 1, 2, 3, 4, 5, 6))
    assert e.value.rule == "TRUMP-5"
    with pytest.raises(RulesError) as e:
        RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21, trump_numbers=(0,))
    assert e.value.rule == "TRUMP-5"
    # The preset never offers it.
    preset = rules_by_name("no-double-blank")
    assert 0 not in preset.trump_numbers
    for seed in range(6):
        s = new_game(preset, seed=seed, first_bidder=seed % 3)
        s = apply(s, Bid(4))
        s = apply(apply(s, Pass()), Pass())
        assert s.phase is Phase.TRUMP  # no widow
        offered = legal_actions(s)
        assert NameTrump(Trump.ZERO) not in offered
        assert {a.trump for a in offered} == set(Trump) - {Trump.ZERO}  # type: ignore[attr-defined]
        with pytest.raises(IllegalAction) as e2:
            apply(s, NameTrump(Trump.ZERO))
        assert e2.value.rule == "TRUMP-5"


def test_mistake_led_suit_from_first_written_number() -> None:
    """LEAD-3: the led suit is the higher number, however the tile is written."""
    for a in range(7):
        for b in range(7):
            t = T(f"{a}-{b}")
            if not is_trump(t, Trump.NONE):
                assert led_suit(t, Trump.NONE) == max(a, b)
    assert led_suit(T("3-5"), Trump.SIX) == 5
    assert led_suit(T("1-4"), Trump.DOUBLES) == 4
    # "3-5" led, with 6s trump: a hand with 5-2 and 3-1 must play the 5-2, not the 3-1.
    assert legal_plays(TS("3-1 5-2"), [T("3-5")], Trump.SIX) == (T("5-2"),)
    assert legal_plays(TS("3-1 4-4"), [T("3-5")], Trump.SIX) == (T("3-1"), T("4-4"))
