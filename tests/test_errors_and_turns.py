"""Refused actions: each error names the clause it breaks (TURN-1 and the clause itself).

Clauses: TURN-1, TRICK-1, FOLLOW-1, FOLLOW-2, LEAD-2, TRUMP-5, WIDOW-1, END-1,
DEAL-1 … DEAL-3, BID-2 … BID-8.

All tests use one fixed deal of the 22-tile set (``DEAL``), seats 0, 1, 2:

- seat 0: 6-6 5-5 4-4 3-3 2-1 3-1 4-1
- seat 1: 6-5 5-4 4-3 3-2 2-2 1-1 0-0
- seat 2: 4-2 5-2 5-3 6-1 6-2 6-3 6-4
- widow: 5-1
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gamehelpers import random_step

import moonrules
from moonrules import (
    Bid,
    Deal,
    Discard,
    GameState,
    IllegalAction,
    IllegalDeal,
    MoonError,
    NameTrump,
    OutOfTurn,
    ParseError,
    Pass,
    Phase,
    Play,
    RulesError,
    RuleSet,
    Tile,
    TileSet,
    Trump,
    apply,
    legal_actions,
    new_game,
    with_deal,
)

SEAT0 = "6-6 5-5 4-4 3-3 2-1 3-1 4-1"
SEAT1 = "6-5 5-4 4-3 3-2 2-2 1-1 0-0"
SEAT2 = "4-2 5-2 5-3 6-1 6-2 6-3 6-4"
WIDOW = "5-1"
DEAL = Deal.of([SEAT0.split(), SEAT1.split(), SEAT2.split()], widow=WIDOW)


def T(text: str) -> Tile:
    return Tile.parse(text)


def bidding(rules: RuleSet | str | None = None) -> GameState:
    """A game in its first call, seat 0 to call."""
    return new_game(rules, seed=5, first_bidder=0, deal=DEAL)


def to_discard(rules: RuleSet | str | None = None) -> GameState:
    """Seat 0 bids 4, the others pass: seat 0 holds the widow and must discard."""
    s = bidding(rules)
    s = apply(s, Bid(4), seat=0)
    s = apply(s, Pass(), seat=1)
    return apply(s, Pass(), seat=2)


def to_trump(rules: RuleSet | str | None = None) -> GameState:
    """Seat 0 is to name trump (after its discard, unless the widow comes after trump)."""
    s = to_discard(rules)
    if s.phase is Phase.TRUMP:  # widow_timing = after-trump
        return s
    assert s.phase is Phase.DISCARD
    return apply(s, Discard(T(WIDOW)), seat=0)


def to_play(trump: Trump, rules: RuleSet | str | None = None) -> GameState:
    s = to_trump(rules)
    assert s.phase is Phase.TRUMP
    s = apply(s, NameTrump(trump), seat=0)
    if s.phase is Phase.DISCARD:  # widow_timing = after-trump
        s = apply(s, Discard(T(WIDOW)), seat=0)
    assert s.phase is Phase.PLAY
    return s


def refused(
    state: GameState, action: object, seat: int | None = None, kind: type = IllegalAction
) -> IllegalAction:
    """Apply ``action`` expecting a refusal of type ``kind``; the state is unchanged."""
    before = state
    with pytest.raises(kind) as e:
        apply(state, action, seat=seat)  # type: ignore[arg-type]
    assert state == before
    err = e.value
    assert isinstance(err, MoonError)
    assert isinstance(err, IllegalAction)
    assert err.rule in str(err)
    assert err.message in str(err)
    return err


# ---------------------------------------------------------------------------
# TURN-1: the wrong seat


def test_the_wrong_seat_is_refused_in_bidding() -> None:
    s = bidding()
    assert s.to_act == 0
    for seat in (1, 2):
        err = refused(s, Pass(), seat=seat, kind=OutOfTurn)
        assert err.rule == "TURN-1"
    # The right seat, or no seat given, is accepted.
    assert apply(s, Pass(), seat=0).to_act == 1
    assert apply(s, Pass()).to_act == 1


def test_the_wrong_seat_is_refused_in_every_phase() -> None:
    states = {
        "discard": (to_discard(), Discard(T("5-1"))),
        "trump": (to_trump(), NameTrump(Trump.SIX)),
        "play": (to_play(Trump.NONE), Play(T("6-6"))),
    }
    for state, action in states.values():
        assert state.to_act == 0
        for seat in (1, 2):
            err = refused(state, action, seat=seat, kind=OutOfTurn)
            assert err.rule == "TURN-1"
    # Mid-trick: seat 1 to play; seat 0 and seat 2 may not.
    s = apply(to_play(Trump.NONE), Play(T("6-6")))
    assert s.to_act == 1
    for seat in (0, 2):
        assert refused(s, Play(T("6-5")), seat=seat, kind=OutOfTurn).rule == "TURN-1"
    assert apply(s, Play(T("6-5")), seat=1).to_act == 2


# ---------------------------------------------------------------------------
# TURN-1: an action of the wrong phase


PHASE_STATES: dict[str, Callable[[], GameState]] = {
    "bidding": bidding,
    "discard": to_discard,
    "trump": to_trump,
    "play": lambda: to_play(Trump.NONE),
}
ACTIONS: dict[str, list[moonrules.Action]] = {
    "bidding": [Pass(), Bid(4)],
    "discard": [Discard(T("6-6"))],
    "trump": [NameTrump(Trump.SIX)],
    "play": [Play(T("6-6"))],
}


@pytest.mark.parametrize("phase", sorted(PHASE_STATES))
def test_actions_of_another_phase_are_refused(phase: str) -> None:
    state = PHASE_STATES[phase]()
    assert state.phase.value == phase
    for other, actions in ACTIONS.items():
        for action in actions:
            if other == phase:
                apply(state, action)  # legal here
            else:
                err = refused(state, action, seat=state.to_act, kind=OutOfTurn)
                assert err.rule == "TURN-1", (phase, action)


def test_a_non_action_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        apply(bidding(), "pass")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Auction errors through the game


def test_auction_errors_through_the_game() -> None:
    s = bidding()
    assert refused(s, Bid(3)).rule == "BID-4"
    assert refused(s, Bid(8)).rule == "BID-4"
    s = apply(s, Bid(5))
    assert refused(s, Bid(5)).rule == "BID-3"
    assert refused(s, Bid(4)).rule == "BID-3"
    forced = bidding(RuleSet(all_pass=moonrules.AllPass.FORCE))
    forced = apply(apply(forced, Pass()), Pass())
    assert refused(forced, Pass()).rule == "BID-8"


def test_a_bid_of_zero_is_refused() -> None:
    """BID-4: a bid is min_bid … 7 or 21; Bid(0) is not a legal action, so it must be refused."""
    s = bidding()
    assert Bid(0) not in legal_actions(s)
    assert refused(s, Bid(0)).rule == "BID-4"


# ---------------------------------------------------------------------------
# Play errors


def test_playing_a_tile_not_held_is_refused_trick_1() -> None:
    s = to_play(Trump.NONE)
    err = refused(s, Play(T("0-0")))  # seat 1 holds it
    assert err.rule == "TRICK-1"
    s = apply(s, Play(T("6-6")))
    err = refused(s, Play(T("6-4")))  # seat 2 holds it, seat 1 is to play
    assert err.rule == "TRICK-1"
    err = refused(s, Play(T("6-6")))  # already played
    assert err.rule == "TRICK-1"


def test_not_following_suit_is_refused_follow_2() -> None:
    s = apply(to_play(Trump.NONE), Play(T("6-6")))  # calls 6s
    err = refused(s, Play(T("5-4")))  # seat 1 holds the 6-5
    assert err.rule == "FOLLOW-2"
    assert "6-5" in err.message
    s = apply(s, Play(T("6-5")))
    err = refused(s, Play(T("4-2")))  # seat 2 holds four 6s
    assert err.rule == "FOLLOW-2"
    for t in ("6-4", "6-3", "6-2", "6-1"):
        assert t in err.message
    assert "4-2" in err.message


def test_not_following_a_trump_lead_is_refused_follow_1() -> None:
    s = apply(to_play(Trump.SIX), Play(T("6-6")))  # a trump lead
    err = refused(s, Play(T("5-4")))
    assert err.rule == "FOLLOW-1"
    assert "6-5" in err.message
    s = apply(s, Play(T("6-5")))
    err = refused(s, Play(T("5-3")))
    assert err.rule == "FOLLOW-1"
    for t in ("6-4", "6-3", "6-2", "6-1"):
        assert t in err.message


def test_a_trump_does_not_follow_its_other_number_follow_2() -> None:
    """FOLLOW-2 / SUIT-2: trump 6, 3-3 led: seat 2 must play 5-3; its 6-3 is a trump."""
    s = apply(to_play(Trump.SIX), Play(T("3-3")))
    s = apply(s, Play(T("3-2")))
    assert legal_actions(s) == (Play(T("5-3")),)
    err = refused(s, Play(T("6-3")))
    assert err.rule == "FOLLOW-2"
    assert "5-3" in err.message


def test_leading_a_non_trump_under_lead_trump_is_refused_lead_2() -> None:
    s = to_play(Trump.THREE, "lead-trump")
    err = refused(s, Play(T("6-6")))
    assert err.rule == "LEAD-2"
    assert "3-3" in err.message and "3-1" in err.message


# ---------------------------------------------------------------------------
# Trump and widow errors


def test_naming_a_trump_not_offered_is_refused_trump_5() -> None:
    s = to_trump("pagat")  # pagat: trump before the widow; no doubles contract
    assert s.phase is Phase.TRUMP
    err = refused(s, NameTrump(Trump.DOUBLES))
    assert err.rule == "TRUMP-5"
    s = to_trump(RuleSet(trump_numbers=(1, 2), no_trump=False))
    for t in (Trump.ZERO, Trump.THREE, Trump.SIX, Trump.NONE):
        assert refused(s, NameTrump(t)).rule == "TRUMP-5"


def test_discarding_a_tile_not_held_is_refused_widow_1() -> None:
    s = to_discard()
    assert s.hands[0] == tuple(sorted([*map(T, SEAT0.split()), T(WIDOW)]))
    err = refused(s, Discard(T("0-0")))
    assert err.rule == "WIDOW-1"
    # Also under widow_timing = after-trump (WIDOW-2 refers to WIDOW-1's discard).
    s = apply(to_trump("pagat"), NameTrump(Trump.SIX))
    assert s.phase is Phase.DISCARD
    assert refused(s, Discard(T("6-5"))).rule == "WIDOW-1"


# ---------------------------------------------------------------------------
# After the game


def test_anything_after_game_over_is_refused_end_1() -> None:
    """A made 21 ends the game (SCORE-4); then every action is refused under END-1."""
    deal = Deal.of(
        [
            ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
            ["2-1", "3-1", "3-2", "4-1", "4-2", "4-3", "5-1"],
            ["5-2", "5-3", "5-4", "6-1", "6-2", "6-3", "6-4"],
        ],
        widow="6-5",
    )
    s = new_game(seed=1, first_bidder=0, deal=deal)
    s = apply(s, Bid(21))
    s = apply(s, Discard(T("6-5")))
    s = apply(s, NameTrump(Trump.NONE))
    for n in range(6, -1, -1):
        s = apply(s, Play(Tile(n, n)))
        while s.trick:
            s = apply(s, legal_actions(s)[0])
    assert s.is_over and s.winner == 0
    assert legal_actions(s) == ()
    assert s.to_act is None
    for action in (Pass(), Bid(4), Play(T("6-6")), Discard(T("6-6")), NameTrump(Trump.SIX)):
        assert refused(s, action).rule == "END-1"
        assert refused(s, action, seat=0).rule == "END-1"


# ---------------------------------------------------------------------------
# Deals (DEAL-1 … DEAL-3)


def deal_error(deal: Deal, rules: RuleSet | str | None = None) -> IllegalDeal:
    state = bidding(rules) if rules != "no-double-blank" else new_game(rules, seed=1)
    with pytest.raises(IllegalDeal) as e:
        with_deal(state, deal)
    with pytest.raises(IllegalDeal):
        new_game(rules, seed=1, deal=deal)
    err = e.value
    assert isinstance(err, MoonError) and isinstance(err, IllegalAction)
    return err


def test_a_duplicate_tile_is_refused() -> None:
    deal = Deal.of([SEAT0.split(), SEAT1.split(), [*SEAT2.split()[:6], "6-6"]], widow=WIDOW)
    err = deal_error(deal)
    assert err.rule == "DEAL-3"
    assert "6-6" in err.message
    # The widow duplicating a hand's tile.
    deal = Deal.of([SEAT0.split(), SEAT1.split(), SEAT2.split()], widow="6-6")
    assert deal_error(deal).rule == "DEAL-3"


def test_a_tile_outside_the_set_is_refused() -> None:
    deal = Deal.of([SEAT0.split(), SEAT1.split(), [*SEAT2.split()[:6], "1-0"]], widow="6-4")
    err = deal_error(deal)
    assert err.rule == "DEAL-3"
    assert "1-0" in err.message
    # 0-0 is not in the 21-tile set.
    hands = [SEAT0.split(), [*SEAT1.split()[:6], "5-1"], SEAT2.split()]
    assert "0-0" in SEAT1.split()[6]
    hands[1] = [*SEAT1.split()[:6], "0-0"]
    assert deal_error(Deal.of(hands), "no-double-blank").rule == "DEAL-3"


def test_a_wrong_count_is_refused() -> None:
    eight = [*SEAT0.split(), "6-4"]
    six = SEAT2.split()[:6]
    deal = Deal.of([eight, SEAT1.split(), six], widow=WIDOW)
    assert deal_error(deal).rule in ("DEAL-1", "DEAL-3")
    deal = Deal.of([SEAT0.split(), SEAT1.split(), six], widow=WIDOW)
    assert deal_error(deal).rule in ("DEAL-1", "DEAL-3")
    # One hand too few or too many.
    assert deal_error(Deal.of([SEAT0.split(), SEAT1.split()], widow=WIDOW)).rule == "DEAL-3"
    four = Deal.of([SEAT0.split(), SEAT1.split(), SEAT2.split(), []], widow=WIDOW)
    assert deal_error(four).rule in ("DEAL-1", "DEAL-3")


def test_a_missing_or_extra_widow_is_refused() -> None:
    deal = Deal.of([SEAT0.split(), SEAT1.split(), SEAT2.split()])
    assert deal_error(deal).rule in ("DEAL-2", "DEAL-3")
    hands = [SEAT0.split(), [*SEAT1.split()[:6], "5-1"], SEAT2.split()]
    assert deal_error(Deal.of(hands, widow="0-0"), "no-double-blank").rule in (
        "DEAL-2",
        "DEAL-3",
    )


def test_a_valid_deal_is_accepted() -> None:
    s = with_deal(new_game(seed=3, first_bidder=1), DEAL)
    assert s.hands == DEAL.hands
    assert s.widow == T(WIDOW)
    assert s.to_act == 1


def test_with_deal_only_before_the_first_call() -> None:
    s = apply(bidding(), Pass())
    with pytest.raises(OutOfTurn) as e:
        with_deal(s, DEAL)
    assert e.value.rule == "TURN-1"


def test_first_bidder_must_be_a_seat() -> None:
    for bad in (-1, 3, 4):
        with pytest.raises(OutOfTurn, match=r"^first_bidder: seats are numbered 0 to 2"):
            new_game(seed=1, first_bidder=bad)
    with pytest.raises(TypeError, match=r"^first_bidder: "):
        new_game(seed=1, first_bidder="0")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        new_game("partnership", seed=1, first_bidder=4)


# ---------------------------------------------------------------------------
# The error hierarchy


def test_every_error_is_a_moon_error() -> None:
    for kind in (IllegalAction, IllegalDeal, OutOfTurn, ParseError, RulesError):
        assert issubclass(kind, MoonError)
        assert kind.__name__ in moonrules.__all__
    assert issubclass(OutOfTurn, IllegalAction)
    assert issubclass(IllegalDeal, IllegalAction)
    assert issubclass(ParseError, ValueError)
    assert issubclass(RulesError, ValueError)


def test_rules_and_parse_errors_are_moon_errors() -> None:
    with pytest.raises(MoonError):
        RuleSet(players=4)
    with pytest.raises(MoonError):
        RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21, trump_numbers=(0,))
    with pytest.raises(MoonError):
        moonrules.rules_by_name("no-such-rules")
    with pytest.raises(MoonError):
        Tile.parse("7-7")
    with pytest.raises(MoonError):
        Trump.parse("eight")


# ---------------------------------------------------------------------------
# The structured fields of a refusal


def test_a_refused_play_carries_seat_tile_and_the_legal_plays() -> None:
    """Every refused play, in seeded random games of every preset, says in data what
    the message says in words: the seat, the tile, the plays allowed (TRICK-1,
    LEAD-2, FOLLOW-1, FOLLOW-2), and its ``reason`` is the message before the list."""
    import random

    from moonrules.game import illegal_play_reason, legal_play_mask
    from moonrules.rules.tiles import tiles_of

    seen: set[str] = set()
    for preset in moonrules.PRESETS:
        rng = random.Random(preset)
        s = new_game(preset, seed=11)
        while not s.is_over and len(s.history) < 2:
            if s.phase is Phase.PLAY:
                legal = tuple(reversed(tiles_of(legal_play_mask(s))))
                for t in s.rules.tile_set.tiles:
                    err = illegal_play_reason(s, t)
                    assert (err is None) == (t in legal)
                    if err is None:
                        continue
                    seen.add(err.rule)
                    assert (err.seat, err.tile, err.allowed_tiles) == (s.to_act, t, legal)
                    assert err.message.startswith(err.reason)
                    tail = err.message[len(err.reason) :]
                    listed = ", ".join(map(str, legal))
                    assert tail in (
                        "",
                        f" Legal plays were: {listed}.",
                        f" Legal leads were: {listed}.",
                    )
                    assert (tail == "") == (err.rule == "TRICK-1")
            s = random_step(s, rng)
    assert seen == {"TRICK-1", "LEAD-2", "FOLLOW-1", "FOLLOW-2"}


def test_a_refused_call_carries_seat_call_and_the_legal_calls() -> None:
    s = apply(bidding(), Bid(5), seat=0)
    err = refused(s, Bid(4))
    assert (err.rule, err.seat, err.call) == ("BID-3", 1, 4)
    assert err.allowed_calls == moonrules.legal_calls(s.auction)
    assert err.reason == err.message
    err = refused(s, Bid(0))
    assert (err.rule, err.seat, err.call) == ("BID-4", 1, 0)
    assert err.allowed_calls == moonrules.legal_calls(s.auction)
    forced = apply(
        apply(bidding(RuleSet(all_pass=moonrules.AllPass.FORCE)), Pass(), seat=0), Pass(), seat=1
    )
    err = refused(forced, Pass())
    assert (err.rule, err.seat, err.call, err.allowed_calls) == ("BID-8", 2, 0, (4, 5, 6, 7, 21))
    over = moonrules.Auction(rules=moonrules.STANDARD).call(21)
    with pytest.raises(IllegalAction) as e:
        moonrules.rules.check_call(over, 5)
    assert (e.value.rule, e.value.seat, e.value.allowed_calls) == ("BID-5", None, ())


def test_refused_trumps_discards_and_turns_carry_their_fields() -> None:
    s = to_trump("pagat")
    err = refused(s, NameTrump(Trump.DOUBLES))
    assert (err.seat, err.trump, err.allowed_trumps) == (0, Trump.DOUBLES, s.rules.trumps)
    s = to_discard()
    err = refused(s, Discard(T("0-0")))
    assert (err.seat, err.tile) == (0, T("0-0"))
    assert err.allowed_tiles == tuple(sorted(s.hands[0], reverse=True))
    err = refused(bidding(), Pass(), seat=2, kind=OutOfTurn)
    assert err.seat == 2
    with pytest.raises(IllegalDeal) as d:
        new_game(None, seed=1, deal=Deal.of([SEAT0.split(), SEAT1.split(), SEAT1.split()], WIDOW))
    assert (d.value.rule, d.value.seat) == ("DEAL-3", 2)
    assert (
        d.value.tile in s.rules.tile_set.tiles
        and f"{d.value.tile} was dealt twice" in d.value.message
    )


# ---------------------------------------------------------------------------
# The calls the issue that set the public API's contract found escaping (each is also one
# of the calls tests/test_api_contract.py makes on every public callable)

_SIX = Tile(6, 6)
_TEN = tuple(moonrules.tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4 5-3 5-2"))

WRONG_TYPES: list[tuple[str, Callable[[], object], str]] = [
    ("seeded_deal", lambda: moonrules.seeded_deal("standard", 1, 1), "rules"),  # type: ignore[arg-type]
    ("is_trump", lambda: moonrules.is_trump(_SIX, 6), "trump"),  # type: ignore[arg-type]
    ("legal_calls", lambda: moonrules.legal_calls(None), "auction"),  # type: ignore[arg-type]
    ("solve", lambda: moonrules.solve(None), "state"),  # type: ignore[arg-type]
    ("view", lambda: moonrules.view(None, 0), "state"),  # type: ignore[arg-type]
    ("legal_actions", lambda: legal_actions(moonrules.view(bidding(), 0)), "state"),  # type: ignore[arg-type]
    ("apply", lambda: apply(bidding(), "pass"), "action"),  # type: ignore[arg-type]
    ("Bid", lambda: Bid("5"), "amount"),  # type: ignore[arg-type]
    ("GameState", lambda: GameState(None, None), "game"),  # type: ignore[arg-type]
    ("RuleSet", lambda: RuleSet(players="3"), "players"),  # type: ignore[arg-type]
    ("to_record", lambda: moonrules.to_record(None), "state"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(
    ("name", "call", "parameter"), WRONG_TYPES, ids=[w[0] for w in WRONG_TYPES]
)
def test_a_wrong_type_is_a_type_error_naming_the_parameter(
    name: str, call: Callable[[], object], parameter: str
) -> None:
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value).startswith(f"{parameter}: expected "), e.value


IMPOSSIBLE: list[tuple[str, Callable[[], object], str]] = [
    (
        "score_hand bid 99",
        lambda: moonrules.score_hand(moonrules.STANDARD, 0, 99, [5, 1, 1]),
        "bid",
    ),
    (
        "score_hand tricks",
        lambda: moonrules.score_hand(moonrules.STANDARD, 0, 5, [9, -1, -1]),
        "tricks",
    ),
    (
        "score_hand bidder",
        lambda: moonrules.score_hand(moonrules.STANDARD, 3, 5, [5, 1, 1]),
        "bidder",
    ),
    ("game_winner no scores", lambda: moonrules.game_winner(moonrules.STANDARD, []), "scores"),
    (
        "legal_plays a tile twice",
        lambda: moonrules.legal_plays([_SIX, _SIX], [], Trump.SIX),
        "hand",
    ),
    ("trick_winner ten tiles", lambda: moonrules.trick_winner(_TEN, Trump.SIX), "trick"),
    ("trick_winner no tile", lambda: moonrules.trick_winner([], Trump.SIX), "trick"),
    ("view seat 3", lambda: moonrules.view(bidding(), 3), "seat"),
    ("seeded_deal hand 0", lambda: moonrules.seeded_deal(moonrules.STANDARD, 1, 0), "hand_number"),
    ("in_suit suit 8", lambda: moonrules.in_suit(_SIX, 8, Trump.SIX), "suit"),
    ("solve in bidding", lambda: moonrules.solve(bidding()), "state"),
]


@pytest.mark.parametrize(("name", "call", "parameter"), IMPOSSIBLE, ids=[w[0] for w in IMPOSSIBLE])
def test_an_impossible_value_is_a_moon_value_error_naming_the_parameter(
    name: str, call: Callable[[], object], parameter: str
) -> None:
    """An impossible value raises a :class:`ValueError` that is also a :class:`MoonError`
    (so the command line reports it in one line), and names the parameter."""
    with pytest.raises(ValueError) as e:
        call()
    assert isinstance(e.value, MoonError)
    assert str(e.value).startswith(f"{parameter}: "), e.value


def test_an_argument_error_is_a_value_error_and_a_moon_error() -> None:
    assert issubclass(moonrules.ArgumentError, ValueError)
    assert issubclass(moonrules.ArgumentError, MoonError)
    assert "ArgumentError" in moonrules.__all__
