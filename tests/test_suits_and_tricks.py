"""Trump, suits, ranks, following and winning tricks.

Clauses: TRUMP-2 … TRUMP-4, SUIT-1 … SUIT-4, LEAD-1 … LEAD-3, FOLLOW-1 … FOLLOW-3,
TRICK-2.

The exhaustive tests compare the library with an *independent* model of the same
clauses written below (``Model``), which works from tile ends and explicit
ranking lists, not from the library's ``rank``/``in_suit`` functions.

The full enumeration of ordered 4-tile tricks of the 28-tile set (about 4.4 million
cases, some 80 s of a core) runs with ``MOONRULES_DEEP=1``, as CI's step of its own runs
it; every 4-tile *set* of the 28 tiles, in one order, runs in every test run. The same
rule is also checked exhaustively in an equivalent pairwise form: every ordered 3-tile
trick of the 28-tile set under every trump (so every led tile and every ordered pair of
other tiles), which fixes the whole "beats" relation, plus a check that the model's
relation is a strict total order on the tiles that can win, plus a sample of 4-tile
tricks.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import pytest
from depth import DEEP
from hypothesis import given
from hypothesis import strategies as st

from moonrules import (
    DOUBLE_SIX_SET,
    MOON_SET,
    NO_DOUBLE_BLANK_SET,
    TILES,
    TRUMP_SUIT,
    ParseError,
    Tile,
    Trump,
    follows,
    in_suit,
    is_trump,
    led_suit,
    legal_plays,
    rank,
    trick_winner,
)

ALL_TRUMPS: tuple[Trump, ...] = tuple(Trump)
NUMBER_TRUMPS: tuple[Trump, ...] = tuple(Trump.of_number(n) for n in range(7))


def T(text: str) -> Tile:
    return Tile.parse(text)


def TS(text: str) -> list[Tile]:
    return [Tile.parse(p) for p in text.split()]


# ---------------------------------------------------------------------------
# An independent model of the clauses


def ends(t: Tile) -> tuple[int, int]:
    return (t.high, t.low)


def model_trumps(trump: Trump) -> frozenset[Tile]:
    """TRUMP-2/3/4: the tiles that are trumps."""
    if trump is Trump.NONE:
        return frozenset()
    if trump is Trump.DOUBLES:
        return frozenset(t for t in TILES if ends(t)[0] == ends(t)[1])
    n = trump.value
    return frozenset(t for t in TILES if n in ends(t))


@cache
def model_suit_order(suit: int, trump: Trump) -> tuple[Tile, ...]:
    """SUIT-1/2/3: the tiles of numeric suit ``suit``, highest first.

    The double first (unless it is a trump), then the tiles bearing the number,
    by their other end, high to low; trumps never belong.
    """
    trumps = model_trumps(trump)
    members = [t for t in TILES if suit in ends(t) and t not in trumps]

    def other(t: Tile) -> int:
        a, b = ends(t)
        return b if a == suit else a

    doubles = [t for t in members if ends(t) == (suit, suit)]
    rest = sorted((t for t in members if ends(t) != (suit, suit)), key=other, reverse=True)
    return (*doubles, *rest)


@cache
def model_trump_order(trump: Trump) -> tuple[Tile, ...]:
    """SUIT-4: the trumps, highest first."""
    if trump is Trump.NONE:
        return ()
    if trump is Trump.DOUBLES:
        return tuple(Tile(n, n) for n in range(6, -1, -1))
    n = trump.value

    def other(t: Tile) -> int:
        a, b = ends(t)
        return b if a == n else a

    ts = [t for t in TILES if n in ends(t)]
    double = [t for t in ts if ends(t) == (n, n)]
    rest = sorted((t for t in ts if ends(t) != (n, n)), key=other, reverse=True)
    return (*double, *rest)


def model_led(led: Tile, trump: Trump) -> str | int:
    """LEAD-3: "trump" for a led trump, else the higher number on the tile."""
    if led in model_trumps(trump):
        return "trump"
    return max(ends(led))


def model_follows(t: Tile, led: Tile, trump: Trump) -> bool:
    """FOLLOW-1/FOLLOW-2: is ``t`` a tile of the suit the lead calls?"""
    suit = model_led(led, trump)
    if suit == "trump":
        return t in model_trumps(trump)
    assert isinstance(suit, int)
    return t in model_suit_order(suit, trump)


@cache
def model_key(led: Tile, trump: Trump) -> dict[Tile, int]:
    """TRICK-2 as a score: higher wins. Trumps beat every non-trump; the suit led's
    tiles rank among themselves; other tiles never win (absent from the dict)."""
    key: dict[Tile, int] = {}
    order = model_trump_order(trump)
    for pos, t in enumerate(order):
        key[t] = 100 - pos
    suit = model_led(led, trump)
    if suit != "trump":
        assert isinstance(suit, int)
        for pos, t in enumerate(model_suit_order(suit, trump)):
            key[t] = 50 - pos
    return key


def model_winner(trick: Sequence[Tile], trump: Trump) -> int:
    """TRICK-2: highest trump played, else highest tile of the suit led."""
    trumps = model_trumps(trump)
    played_trumps = [i for i, t in enumerate(trick) if t in trumps]
    if played_trumps:
        order = model_trump_order(trump)
        return min(played_trumps, key=lambda i: order.index(trick[i]))
    suit = model_led(trick[0], trump)
    assert isinstance(suit, int)
    order = model_suit_order(suit, trump)
    followers = [i for i, t in enumerate(trick) if t in order]
    return min(followers, key=lambda i: order.index(trick[i]))


def model_legal(hand: Sequence[Tile], trick: Sequence[Tile], trump: Trump) -> tuple[Tile, ...]:
    """LEAD-1, FOLLOW-1 … FOLLOW-3."""
    if not trick:
        return tuple(hand)
    following = tuple(t for t in hand if model_follows(t, trick[0], trump))
    return following or tuple(hand)


def test_model_matches_spec_examples() -> None:
    """The model reproduces the orders the spec writes out (SUIT-3, EX-3, EX-4, EX-5)."""
    assert [str(t) for t in model_suit_order(2, Trump.ZERO) if t in MOON_SET] == [
        "2-2",
        "6-2",
        "5-2",
        "4-2",
        "3-2",
        "2-1",
    ]
    assert [str(t) for t in model_suit_order(6, Trump.NONE) if t in MOON_SET] == [
        "6-6",
        "6-5",
        "6-4",
        "6-3",
        "6-2",
        "6-1",
    ]
    assert [str(t) for t in model_trump_order(Trump.THREE) if t in MOON_SET] == [
        "3-3",
        "6-3",
        "5-3",
        "4-3",
        "3-2",
        "3-1",
    ]
    assert [str(t) for t in model_trump_order(Trump.DOUBLES)] == [
        "6-6",
        "5-5",
        "4-4",
        "3-3",
        "2-2",
        "1-1",
        "0-0",
    ]


# ---------------------------------------------------------------------------
# is_trump (TRUMP-2, TRUMP-3, TRUMP-4)


@pytest.mark.parametrize("trump", NUMBER_TRUMPS, ids=str)
def test_number_trump_is_every_tile_bearing_it(trump: Trump) -> None:
    n = trump.value
    for t in TILES:
        assert is_trump(t, trump) == (t.high == n or t.low == n), t
    assert sum(is_trump(t, trump) for t in DOUBLE_SIX_SET) == 7
    assert sum(is_trump(t, trump) for t in MOON_SET) == (1 if n == 0 else 6)


def test_doubles_trump_is_the_seven_doubles() -> None:
    assert {t for t in TILES if is_trump(t, Trump.DOUBLES)} == {Tile(n, n) for n in range(7)}


def test_no_trump_has_no_trumps() -> None:
    assert not any(is_trump(t, Trump.NONE) for t in TILES)


# ---------------------------------------------------------------------------
# in_suit (SUIT-1, SUIT-2)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_in_suit_matches_model_everywhere(trump: Trump) -> None:
    trumps = model_trumps(trump)
    for t in TILES:
        assert in_suit(t, TRUMP_SUIT, trump) == (t in trumps), t
        for suit in range(7):
            assert in_suit(t, suit, trump) == (t in model_suit_order(suit, trump)), (t, suit)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_a_tile_belongs_to_trump_or_its_numbers(trump: Trump) -> None:
    """SUIT-1/2: a trump is in the trump suit only; a non-trump in one suit per distinct end."""
    for t in TILES:
        suits = [s for s in range(8) if in_suit(t, s, trump)]
        if is_trump(t, trump):
            assert suits == [TRUMP_SUIT]
        else:
            assert suits == sorted({t.high, t.low})


def test_non_double_in_both_suits_double_in_one() -> None:
    assert in_suit(T("5-3"), 5, Trump.SIX) and in_suit(T("5-3"), 3, Trump.SIX)
    assert in_suit(T("4-4"), 4, Trump.SIX)
    assert not any(in_suit(T("4-4"), s, Trump.SIX) for s in (0, 1, 2, 3, 5, 6))
    # A trump leaves its numeric suits.
    assert not in_suit(T("6-3"), 3, Trump.SIX)
    assert not in_suit(T("4-4"), 4, Trump.DOUBLES)


# ---------------------------------------------------------------------------
# led_suit (LEAD-3)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_led_suit_matches_model(trump: Trump) -> None:
    for t in TILES:
        expected = model_led(t, trump)
        got = led_suit(t, trump)
        assert got == (TRUMP_SUIT if expected == "trump" else expected), t


def test_led_suit_is_the_higher_number_whatever_the_writing() -> None:
    for a, b in itertools.product(range(7), repeat=2):
        t = T(f"{a}-{b}")
        for trump in (Trump.NONE, Trump.DOUBLES):
            if not is_trump(t, trump):
                assert led_suit(t, trump) == max(a, b)
    assert led_suit(T("3-5"), Trump.SIX) == 5
    assert led_suit(T("3-5"), Trump.FIVE) == TRUMP_SUIT
    assert led_suit(T("4-4"), Trump.DOUBLES) == TRUMP_SUIT
    assert led_suit(T("4-4"), Trump.NONE) == 4


# ---------------------------------------------------------------------------
# rank (SUIT-3, SUIT-4)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_rank_orders_each_suit_as_the_model(trump: Trump) -> None:
    for suit in range(7):
        order = model_suit_order(suit, trump)
        ranks = [rank(t, suit, trump) for t in order]
        assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks), suit
    order = model_trump_order(trump)
    ranks = [rank(t, TRUMP_SUIT, trump) for t in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_rank_refuses_a_tile_outside_the_suit(trump: Trump) -> None:
    for t in TILES:
        for suit in range(8):
            if not in_suit(t, suit, trump):
                with pytest.raises(ValueError):
                    rank(t, suit, trump)


def test_rank_examples() -> None:
    """SUIT-3/4, EX-5: suit 2 runs 2-2, 2-6, 2-5, 2-4, 2-3, 2-1, trump or not."""
    for trump, suit in ((Trump.NONE, 2), (Trump.ZERO, 2), (Trump.TWO, TRUMP_SUIT)):
        order = TS("2-2 6-2 5-2 4-2 3-2 2-1")
        ranks = [rank(t, suit, trump) for t in order]
        assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 6
    # Doubles trump: by number.
    doubles = [Tile(n, n) for n in range(6, -1, -1)]
    ranks = [rank(t, TRUMP_SUIT, Trump.DOUBLES) for t in doubles]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7
    # Doubles trump: the 6-4 is the highest 4 (TRUMP-3).
    assert max(
        (t for t in MOON_SET if in_suit(t, 4, Trump.DOUBLES)),
        key=lambda t: rank(t, 4, Trump.DOUBLES),
    ) == T("6-4")


# ---------------------------------------------------------------------------
# Trump parsing


def test_trump_parse() -> None:
    for n in range(7):
        assert Trump.parse(str(n)) is Trump.of_number(n) is Trump.parse(n)
        assert Trump.of_number(n).number == n
    assert Trump.parse("doubles") is Trump.DOUBLES
    assert Trump.parse("none") is Trump.parse("no-trump") is Trump.NONE
    assert Trump.DOUBLES.number is None and Trump.NONE.number is None
    for bad in ("7", "x", "", "-1", 7):
        with pytest.raises(ParseError):
            Trump.parse(bad)
    for wrong in (True, None, 7.0):
        with pytest.raises(TypeError, match=r"^text: "):
            Trump.parse(wrong)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# follows and legal_plays (FOLLOW-1 … FOLLOW-3), single tiles and pairs, exhaustively


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_follows_matches_model_exhaustively(trump: Trump) -> None:
    for led in TILES:
        for t in TILES:
            assert follows(t, led, trump) == model_follows(t, led, trump), (led, t)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_legal_plays_one_tile_hands_exhaustive(trump: Trump) -> None:
    """A one-tile hand can always play its tile: it follows, or FOLLOW-3 frees it."""
    for led in TILES:
        for t in TILES:
            if t != led:
                assert legal_plays([t], [led], trump) == (t,)
                assert legal_plays([t], [], trump) == (t,)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_legal_plays_two_tile_hands_exhaustive(trump: Trump) -> None:
    for led in TILES:
        others = [t for t in TILES if t != led]
        for a, b in itertools.combinations(others, 2):
            hand = [a, b]
            got = legal_plays(hand, [led], trump)
            fa, fb = model_follows(a, led, trump), model_follows(b, led, trump)
            if fa or fb:
                assert got == tuple(t for t, f in ((a, fa), (b, fb)) if f), (led, hand)
            else:
                assert got == (a, b), (led, hand)


def _hand_and_trick(draw: st.DrawFn) -> tuple[list[Tile], list[Tile], Trump]:
    tile_set = draw(st.sampled_from([MOON_SET, DOUBLE_SIX_SET, NO_DOUBLE_BLANK_SET]))
    picked = draw(st.permutations(tile_set))
    size = draw(st.integers(min_value=1, max_value=8))
    played = draw(st.integers(min_value=0, max_value=3))
    trump = draw(st.sampled_from(ALL_TRUMPS))
    return list(picked[:size]), list(picked[size : size + played]), trump


hand_and_trick = st.composite(_hand_and_trick)


@given(hand_and_trick())
def test_legal_plays_random_hands(case: tuple[list[Tile], list[Tile], Trump]) -> None:
    hand, trick, trump = case
    got = legal_plays(hand, trick, trump)
    assert got, "a non-empty hand always has a legal play"
    assert set(got) <= set(hand)
    assert list(got) == [t for t in hand if t in got], "keeps the hand's order"
    assert got == model_legal(hand, trick, trump)
    if trick:
        following = [t for t in hand if model_follows(t, trick[0], trump)]
        if following:
            assert list(got) == following
        else:
            assert list(got) == hand


def test_legal_plays_many_random_hands() -> None:
    """A fixed-seed sweep of 20,000 random hands and tricks, besides the Hypothesis test."""
    rng = random.Random("legal-plays")
    for _ in range(20_000):
        tile_set = rng.choice([MOON_SET, DOUBLE_SIX_SET, NO_DOUBLE_BLANK_SET])
        trump = rng.choice(ALL_TRUMPS)
        size = rng.randint(1, 8)
        played = rng.randint(1, 3)
        picked = rng.sample(tile_set, size + played)
        hand, trick = picked[:size], picked[size:]
        got = legal_plays(hand, trick, trump)
        following = [t for t in hand if model_follows(t, trick[0], trump)]
        assert list(got) == (following or hand), (hand, trick, trump)


@given(hand_and_trick())
def test_lead_trump_option(case: tuple[list[Tile], list[Tile], Trump]) -> None:
    """LEAD-2: with ``lead_trump`` a leader holding a trump must lead one."""
    hand, _, trump = case
    got = legal_plays(hand, [], trump, lead_trump=True)
    trumps = [t for t in hand if t in model_trumps(trump)]
    assert list(got) == (trumps or hand)
    assert legal_plays(hand, [], trump) == tuple(hand)


def test_legal_plays_examples() -> None:
    # EX-1: 5-3 must follow a 3-2 lead; 6-6 is a trump and cannot follow.
    assert legal_plays(TS("5-3 6-6 1-1"), [T("3-2")], Trump.SIX) == (T("5-3"),)
    # EX-2: doubles trump, 4-2 led; the 4-4 is a trump, so anything may be played.
    assert legal_plays(TS("4-4 1-0"), [T("4-2")], Trump.DOUBLES) == (T("4-4"), T("1-0"))
    # FOLLOW-1: trump led, must play trump.
    assert legal_plays(TS("6-1 5-5 2-1"), [T("6-6")], Trump.SIX) == (T("6-1"),)
    # A lead of a trump tile via its lower number is still a trump lead.
    assert legal_plays(TS("6-1 5-2 2-1"), [T("5-1")], Trump.ONE) == (T("6-1"), T("2-1"))
    assert legal_plays([], [T("5-1")], Trump.ONE) == ()


# ---------------------------------------------------------------------------
# trick_winner (TRICK-2)


def test_trick_winner_examples() -> None:
    assert trick_winner(TS("3-2 6-3 3-3"), Trump.SIX) == 1  # 6-3 is a trump
    assert trick_winner(TS("3-2 5-3 3-3"), Trump.SIX) == 2  # 3-3 highest 3
    assert trick_winner(TS("3-2 5-1 4-1"), Trump.SIX) == 0  # nobody followed or trumped
    assert trick_winner(TS("6-1 3-2 6-2"), Trump.TWO) == 2  # 2-6 beats 2-3
    assert trick_winner(TS("4-2 6-4 4-4"), Trump.DOUBLES) == 2  # 4-4 trumps
    assert trick_winner(TS("4-2 6-4 5-4"), Trump.DOUBLES) == 1  # 6-4 highest 4
    assert trick_winner(TS("6-6 5-5 0-0"), Trump.ZERO) == 2  # the only trump
    assert trick_winner([T("5-1")], Trump.NONE) == 0
    with pytest.raises(ValueError):
        trick_winner([], Trump.NONE)


def _check_trick(trick: Sequence[Tile], trump: Trump) -> None:
    w = trick_winner(trick, trump)
    assert isinstance(w, int) and 0 <= w < len(trick)
    expected = model_winner(trick, trump)
    assert w == expected, (trick, trump, w, expected)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_every_3_tile_trick_of_the_22_tile_set(trump: Trump) -> None:
    """EXHAUSTIVE: 22*21*20 ordered tricks under each trump (9 x 9,240 = 83,160)."""
    trumps = model_trumps(trump)
    n = 0
    for trick in itertools.permutations(MOON_SET, 3):
        w = trick_winner(trick, trump)
        assert w in (0, 1, 2)
        win = trick[w]
        led = trick[0]
        key = model_key(led, trump)
        # If any trump was played the winner is a trump.
        if any(t in trumps for t in trick):
            assert win in trumps, trick
        # The winner follows the suit led or is a trump.
        assert win in trumps or model_follows(win, led, trump), trick
        # The winner is the unique maximum by the model.
        scores = [key.get(t, -1) for t in trick]
        assert scores[w] == max(scores) and scores.count(max(scores)) == 1, trick
        n += 1
    assert n == 9240


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_every_3_tile_trick_of_the_28_tile_set(trump: Trump) -> None:
    """EXHAUSTIVE pairwise form of the 4-tile check: every led tile and every ordered
    pair of other tiles of the 28-tile set (28*27*26 = 19,656 tricks per trump)."""
    for trick in itertools.permutations(TILES, 3):
        key = model_key(trick[0], trump)
        scores = [key.get(t, -1) for t in trick]
        assert trick_winner(trick, trump) == scores.index(max(scores)), trick


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_beats_relation_is_a_strict_total_order(trump: Trump) -> None:
    """For each lead, the tiles that can win (the led suit and trumps) are strictly
    ordered, the led tile among them, and non-contenders lose to the led tile. Together
    with the pairwise check above, a 4-tile trick's winner is its single maximum."""
    for led in TILES:
        key = model_key(led, trump)
        assert led in key
        values = list(key.values())
        assert len(set(values)) == len(values)
        # Pairwise through trick_winner: [led, a] decides whether a beats the lead.
        for a in TILES:
            if a == led:
                continue
            beats = trick_winner([led, a], trump) == 1
            assert beats == (a in key and key[a] > key[led]), (led, a)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_sampled_4_tile_tricks_of_the_28_tile_set(trump: Trump) -> None:
    rng = random.Random(f"4-tile/{trump.name}")
    for _ in range(6000):
        trick = rng.sample(TILES, 4)
        _check_trick(trick, trump)


@pytest.mark.skipif(
    not DEEP, reason="every ordered 4-tile trick of the rule: MOONRULES_DEEP=1 (80 s; CI runs it)"
)
@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_every_4_tile_trick_of_the_28_tile_set(trump: Trump) -> None:
    """EXHAUSTIVE: 28*27*26*25 ordered tricks per trump. Slow, so only with
    ``MOONRULES_DEEP=1`` (CI runs it in a step of its own): the pairwise test covers the
    order of play, and the test of every 4-tile set below every set's winning tile."""
    for led in TILES:
        key = model_key(led, trump)
        k0 = key[led]
        others = [t for t in TILES if t != led]
        for a, b, c in itertools.permutations(others, 3):
            scores = (k0, key.get(a, -1), key.get(b, -1), key.get(c, -1))
            assert trick_winner((led, a, b, c), trump) == scores.index(max(scores))


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_every_4_tile_trick_as_a_set_of_the_28_tile_set(trump: Trump) -> None:
    """EXHAUSTIVE over tile *combinations*: every led tile and every set of three other
    tiles of the 28-tile set, each played in one order (28 x C(27,3) = 81,900 per trump).
    With the pairwise test, which covers the order of play, this covers every 4-tile
    trick's winning tile."""
    for led in TILES:
        key = model_key(led, trump)
        k0 = key[led]
        others = [t for t in TILES if t != led]
        for a, b, c in itertools.combinations(others, 3):
            scores = (k0, key.get(a, -1), key.get(b, -1), key.get(c, -1))
            assert trick_winner((led, a, b, c), trump) == scores.index(max(scores))
