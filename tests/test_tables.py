"""moonrules.kernel.tables: the fast tables equal the readable rule functions everywhere.

The domain is finite (28 tiles, 9 trumps, 8 suits), so every table is compared
with the functions of :mod:`moonrules.rules.suits` and :mod:`moonrules.rules.tricks` over all of it.
Every ordered 2- and 3-tile trick and the legal plays of every rule set are compared by
``moonrules.kernel.check`` (tests/test_kernel_check.py). Here ``winner_index`` is also
compared with ``trick_winner`` on every 4-tile trick of the 28-tile set as a set of tiles
(every led tile with every set of three others), with ``MOONRULES_DEEP=1`` on every
ordered 4-tile trick, and the legal-play mask on random hands.
"""

from __future__ import annotations

import itertools

import pytest
from depth import DEEP
from hypothesis import given
from hypothesis import strategies as st

from moonrules import TILES, TRUMP_SUIT, Tile, Trump, follows, legal_plays, trick_winner
from moonrules.kernel.masks import legal_mask
from moonrules.kernel.tables import FOLLOW_MASK, LED_SUIT, STRENGTH, SUIT_MASK, winner_index
from moonrules.rules.ruleset import STANDARD
from moonrules.rules.suits import in_suit, is_trump, led_suit, rank

ALL_TRUMPS: tuple[Trump, ...] = tuple(Trump)


def mask(ts: object) -> int:
    return sum(1 << t.index for t in ts)  # type: ignore[attr-defined]


def test_table_shapes() -> None:
    assert len(SUIT_MASK) == 9 and all(len(row) == 8 for row in SUIT_MASK)
    assert len(LED_SUIT) == 9 and all(len(row) == 28 for row in LED_SUIT)
    assert len(FOLLOW_MASK) == 9 and all(len(row) == 28 for row in FOLLOW_MASK)
    assert len(STRENGTH) == 9
    assert all(len(row) == 8 and all(len(r) == 28 for r in row) for row in STRENGTH)
    assert [t.value for t in Trump] == list(range(9))


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_suit_mask(trump: Trump) -> None:
    for suit in range(8):
        assert SUIT_MASK[trump.value][suit] == mask(t for t in TILES if in_suit(t, suit, trump))
    assert SUIT_MASK[trump.value][TRUMP_SUIT] == mask(t for t in TILES if is_trump(t, trump))


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_led_suit_table(trump: Trump) -> None:
    for t in TILES:
        assert LED_SUIT[trump.value][t.index] == led_suit(t, trump)


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_follow_mask(trump: Trump) -> None:
    for led in TILES:
        assert FOLLOW_MASK[trump.value][led.index] == mask(
            t for t in TILES if follows(t, led, trump)
        )
        # The led tile itself always follows its own lead.
        assert FOLLOW_MASK[trump.value][led.index] >> led.index & 1


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_strength(trump: Trump) -> None:
    """STRENGTH orders exactly as TRICK-2 does through is_trump, in_suit and rank."""
    for suit in range(8):
        s = STRENGTH[trump.value][suit]
        trumps = [t for t in TILES if is_trump(t, trump)]
        members = [t for t in TILES if not is_trump(t, trump) and in_suit(t, suit, trump)]
        others = [t for t in TILES if t not in trumps and t not in members]
        for t in others:
            assert s[t.index] == -1, (suit, t)
        for t in trumps + members:
            assert s[t.index] >= 0, (suit, t)
        # Every trump beats every tile of the suit.
        if trumps and members:
            assert min(s[t.index] for t in trumps) > max(s[t.index] for t in members)
        # Within trumps and within the suit, strength agrees with rank, strictly.
        for group, sv in ((trumps, TRUMP_SUIT), (members, suit)):
            for a, b in itertools.combinations(group, 2):
                ra, rb = rank(a, sv, trump), rank(b, sv, trump)
                assert ra != rb
                assert (s[a.index] > s[b.index]) == (ra > rb), (suit, a, b)


def _key_table(trump: Trump, led: Tile) -> list[int]:
    """TRICK-2 through the pure functions: (is trump, rank) as a sortable number; -1 never wins."""
    suit = led_suit(led, trump)
    out = []
    for t in TILES:
        if is_trump(t, trump):
            out.append(100 + rank(t, TRUMP_SUIT, trump))
        elif in_suit(t, suit, trump):
            out.append(rank(t, suit, trump))
        else:
            out.append(-1)
    return out


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_winner_index_every_4_tile_set_of_28(trump: Trump) -> None:
    """Every led tile with every set of three other tiles (one order each); the
    3-tile test above covers the order of play pairwise."""
    tv = trump.value
    for led in range(28):
        key = _key_table(trump, TILES[led])
        others = [i for i in range(28) if i != led]
        for a, b, c in itertools.combinations(others, 3):
            trick = (led, a, b, c)
            scores = (key[led], key[a], key[b], key[c])
            best = scores.index(max(scores))
            assert winner_index(trick, tv) == best
            # The same tiles in the other order of the three followers: same winning tile.
            rev = (led, c, b, a)
            assert rev[winner_index(rev, tv)] == trick[best]


@pytest.mark.skipif(not DEEP, reason="every ordered 4-tile trick: MOONRULES_DEEP=1 (100 s)")
@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_winner_index_every_4_tile_trick_of_28(trump: Trump) -> None:
    """Every ordered trick of four tiles of the 28. Slow, so only with ``MOONRULES_DEEP=1``:
    the kernel check's 2- and 3-tile tricks cover these by the argument in
    :mod:`moonrules.kernel.check`, and the 4-tile sets above check it on every set."""
    tv = trump.value
    for led in TILES:
        others = [t for t in TILES if t != led]
        for a, b, c in itertools.permutations(others, 3):
            trick = (led, a, b, c)
            idx = (led.index, a.index, b.index, c.index)
            assert winner_index(idx, tv) == trick_winner(trick, trump)


@given(
    st.sampled_from(ALL_TRUMPS),
    st.permutations(TILES),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=3),
)
def test_legal_mask_random_hands(trump: Trump, order: list[Tile], size: int, played: int) -> None:
    hand = sorted(order[:size])
    trick = order[size : size + played]
    expected = mask(legal_plays(hand, trick, trump))
    got = legal_mask(mask(hand), trick[0].index, trump.value, STANDARD, 1)
    assert got == expected
    assert got and got & ~mask(hand) == 0
