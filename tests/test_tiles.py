"""Tiles and tile sets: TILE-1 … TILE-4.

Expected values are derived from the clause text: a tile is an unordered pair of
numbers 0-6, written high end first (TILE-1); the 22-tile set is the double-six
set less 0-1 … 0-6 (TILE-2); the 28-tile set is every pair (TILE-3); the 21-tile
set is the 22-tile set less 0-0 (TILE-4).
"""

from __future__ import annotations

import itertools
import math

import pytest

import moonrules
from moonrules import (
    DOUBLE_SIX_SET,
    MOON_SET,
    NO_DOUBLE_BLANK_SET,
    TILES,
    ParseError,
    Tile,
    TileSet,
    tile,
    tiles,
)
from moonrules.rules.tiles import indices_of, mask_of, tiles_of

ALL_PAIRS: list[tuple[int, int]] = [(a, b) for a in range(7) for b in range(7)]
"""Every ordered pair of ends: 49 ways of writing the 28 tiles."""


# ---------------------------------------------------------------------------
# Parsing (TILE-1)


@pytest.mark.parametrize(("a", "b"), ALL_PAIRS)
def test_parse_every_written_form(a: int, b: int) -> None:
    """TILE-1: "a-b" and "b-a" name the same tile, whose high end is the larger number."""
    t = Tile.parse(f"{a}-{b}")
    assert (t.high, t.low) == (max(a, b), min(a, b))
    assert t == Tile.parse(f"{b}-{a}")
    assert str(t) == f"{max(a, b)}-{min(a, b)}"
    assert t.is_double == (a == b)


def test_six_four_equals_four_six() -> None:
    assert Tile.parse("6-4") == Tile.parse("4-6") == Tile(6, 4)
    assert hash(Tile.parse("6-4")) == hash(Tile.parse("4-6"))
    assert str(Tile.parse("4-6")) == "6-4"


@pytest.mark.parametrize(
    "text",
    [
        "7-1",
        "1-7",
        "7-7",
        "9-0",
        "64",
        "x",
        "6-4-",
        "",
        " ",
        "-",
        "6-",
        "-4",
        "6 4",
        "6--4",
        "6-4-2",
        "10-1",
        "6.4",
        "6-4x",
        "a-b",
        "-1-4",
    ],
)
def test_parse_rejects_non_tiles(text: str) -> None:
    """TILE-1: anything but two numbers 0-6 joined by '-' is not a tile."""
    with pytest.raises(ParseError):
        Tile.parse(text)
    with pytest.raises(ParseError):
        tile(text)


@pytest.mark.parametrize("value", [None, 64, 6.4, (6, 4), b"6-4"])
def test_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(TypeError, match=r"^text: "):
        Tile.parse(value)  # type: ignore[arg-type]


def test_parse_error_is_a_value_error_and_moon_error() -> None:
    with pytest.raises(ValueError):
        Tile.parse("7-1")
    with pytest.raises(moonrules.MoonError):
        Tile.parse("7-1")


@pytest.mark.parametrize(("high", "low"), [(7, 1), (6, 7), (-1, 0), (4, 6), (0, 1)])
def test_constructor_rejects_bad_ends(high: int, low: int) -> None:
    """The constructor takes the high end first; ends run 0-6."""
    with pytest.raises(ParseError):
        Tile(high, low)


def test_constructor_rejects_non_integers() -> None:
    with pytest.raises(TypeError, match=r"^high: "):
        Tile("6", 4)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^high: "):
        Tile(6.0, 4)  # type: ignore[arg-type]


def test_tiles_splits_on_spaces_and_commas() -> None:
    assert tiles("6-4 3-3, 1-0") == (Tile(6, 4), Tile(3, 3), Tile(1, 0))
    assert tiles(["4-6", Tile(2, 2)]) == (Tile(6, 4), Tile(2, 2))
    assert tiles("") == ()
    assert tile(Tile(5, 1)) == Tile(5, 1)
    with pytest.raises(ParseError):
        tiles("6-4 7-1")


# ---------------------------------------------------------------------------
# str / repr


@pytest.mark.parametrize("t", TILES, ids=str)
def test_str_and_repr_round_trip(t: Tile) -> None:
    assert Tile.parse(str(t)) == t
    assert eval(repr(t), {"Tile": Tile}) == t
    assert repr(t) == f"Tile({t.high}, {t.low})"


# ---------------------------------------------------------------------------
# Identity, ordering, hashing, indices


def test_there_are_28_distinct_tiles() -> None:
    """TILE-3: every unordered pair of numbers 0-6 once: 7 doubles and C(7, 2) = 21 others."""
    assert len(TILES) == 7 + math.comb(7, 2)
    # Each unordered pair, written high end first (TILE-1), exactly once.
    assert sorted((t.high, t.low) for t in TILES) == [
        (a, b) for a in range(7) for b in range(a + 1)
    ]
    assert sum(t.is_double for t in TILES) == 7
    # Each tile's index is its place in TILES: distinct, dense, and found from any writing.
    assert [t.index for t in TILES] == list(range(len(TILES)))
    for a, b in ALL_PAIRS:
        t = Tile.parse(f"{a}-{b}")
        assert TILES[t.index] == t == Tile(max(a, b), min(a, b))
    assert mask_of(TILES) == (1 << len(TILES)) - 1
    assert tiles_of(mask_of(TILES)) == TILES


def test_indices_of_a_mask_are_its_tiles_indices_lowest_first() -> None:
    for n in range(4):
        for ts in itertools.combinations(TILES, n):
            assert indices_of(mask_of(ts)) == [t.index for t in tiles_of(mask_of(ts))]
    assert indices_of(mask_of(TILES)) == list(range(28))


def test_equal_tiles_hash_equal_and_work_as_keys() -> None:
    forms = {Tile.parse(f"{a}-{b}") for a, b in ALL_PAIRS}
    assert len(forms) == 28
    d = {Tile.parse("5-2"): "x"}
    assert d[Tile.parse("2-5")] == "x"
    assert Tile(5, 2) != Tile(5, 3)
    assert Tile(5, 2) != "5-2"  # type: ignore[comparison-overlap]


def test_ordering_is_by_high_end_then_low_end() -> None:
    expected = sorted(TILES, key=lambda t: (t.high, t.low))
    assert sorted(TILES) == expected
    assert sorted(reversed(TILES)) == expected
    assert Tile(6, 4) < Tile(6, 5) < Tile(6, 6)
    assert Tile(5, 5) < Tile(6, 0)
    assert Tile(1, 0) > Tile(0, 0)
    assert not Tile(3, 2) < Tile(3, 2)
    assert Tile(3, 2) <= Tile(3, 2)


def test_indices_follow_tile_order() -> None:
    """Indices 0-27: 0-0 is 0, 1-0 is 1, 1-1 is 2, …, 6-6 is 27, in tile order."""
    ordered = sorted(TILES, key=lambda t: (t.high, t.low))
    assert [t.index for t in ordered] == list(range(28))
    assert Tile(0, 0).index == 0
    assert Tile(1, 0).index == 1
    assert Tile(1, 1).index == 2
    assert Tile(2, 0).index == 3
    assert Tile(6, 6).index == 27
    for i in range(28):
        assert Tile.from_index(i).index == i
        assert TILES[i] is Tile.from_index(i)


def test_tile_helpers() -> None:
    t = Tile(6, 2)
    assert t.has(6) and t.has(2) and not t.has(3)
    assert t.other_end(6) == 2 and t.other_end(2) == 6
    assert Tile(4, 4).other_end(4) == 4
    assert t.pips == 8
    with pytest.raises(ValueError):
        t.other_end(5)


def test_tiles_are_immutable() -> None:
    t = Tile(6, 4)
    with pytest.raises(AttributeError):
        t.high = 5  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Tile sets (TILE-2, TILE-3, TILE-4)


def _pairs(ts: tuple[Tile, ...]) -> set[tuple[int, int]]:
    return {(t.high, t.low) for t in ts}


def test_moon_set_has_22_tiles() -> None:
    """TILE-2: double-six less 0-1 … 0-6; the 0-0 stays; suit 0 is the 0-0 alone."""
    full = {(h, lo) for h in range(7) for lo in range(h + 1)}
    removed = {(n, 0) for n in range(1, 7)}
    assert len(MOON_SET) == 22
    assert _pairs(MOON_SET) == full - removed
    assert Tile(0, 0) in MOON_SET
    assert [t for t in MOON_SET if t.has(0)] == [Tile(0, 0)]
    assert TileSet.MOON_22.tiles == MOON_SET


def test_double_six_set_has_28_tiles() -> None:
    """TILE-3: the full double-six set."""
    assert len(DOUBLE_SIX_SET) == 28
    assert set(DOUBLE_SIX_SET) == set(TILES)
    assert TileSet.DOUBLE_SIX_28.tiles == DOUBLE_SIX_SET
    # Each number appears on 7 tiles of the full set.
    for n in range(7):
        assert sum(t.has(n) for t in DOUBLE_SIX_SET) == 7


def test_no_double_blank_set_has_21_tiles() -> None:
    """TILE-4: the 22-tile set less the 0-0; no tile bears a 0; three players, no widow."""
    assert set(NO_DOUBLE_BLANK_SET) == set(MOON_SET) - {Tile(0, 0)}
    assert len(NO_DOUBLE_BLANK_SET) == len(MOON_SET) - 1
    assert not any(t.has(0) for t in NO_DOUBLE_BLANK_SET)
    assert TileSet.NO_DOUBLE_BLANK_21.tiles == NO_DOUBLE_BLANK_SET
    # Seven each for three players leaves no widow (DEAL-2), and trump 0 is not offered.
    rules = moonrules.RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21)
    assert rules.widow_size == 0 and not rules.has_widow
    assert 0 not in rules.trump_numbers
    for seed in range(5):
        deal = moonrules.seeded_deal(rules, seed, 1)
        assert deal.widow is None
        assert [len(h) for h in deal.hands] == [7, 7, 7]
        assert sorted(t for h in deal.hands for t in h) == sorted(NO_DOUBLE_BLANK_SET)


@pytest.mark.parametrize("ts", list(TileSet), ids=lambda s: s.value)
def test_tile_set_masks_and_order(ts: TileSet) -> None:
    assert list(ts.tiles) == sorted(ts.tiles)
    assert len(set(ts.tiles)) == len(ts.tiles)
    mask = sum(1 << t.index for t in ts.tiles)
    assert ts.mask == mask
    assert TileSet(ts.value) is ts


def test_tile_set_sizes_fit_the_deal() -> None:
    """DEAL-1, DEAL-2: 3 x 7 + 1 widow = 22; 4 x 7 = 28; 3 x 7 = 21."""
    assert len(TileSet.MOON_22.tiles) == 3 * 7 + 1
    assert len(TileSet.DOUBLE_SIX_28.tiles) == 4 * 7
    assert len(TileSet.NO_DOUBLE_BLANK_21.tiles) == 3 * 7


def test_moon_set_suit_sizes() -> None:
    """In the 22-tile set suit 0 holds 1 tile and every other number appears on 6 tiles."""
    counts = {n: sum(t.has(n) for t in MOON_SET) for n in range(7)}
    assert counts == {0: 1, 1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6}


def test_every_pair_of_distinct_tiles_differs_somewhere() -> None:
    for a, b in itertools.combinations(TILES, 2):
        assert a != b
        assert (a < b) != (b < a)
