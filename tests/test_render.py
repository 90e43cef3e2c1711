"""SVG pictures (moonrules.arbitration.render): well-formed, right tiles, pips and marks."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import moonrules
from moonrules import TILES, Tile, Trick, Trump
from moonrules.arbitration.render import (
    HIGHLIGHT_COLOUR,
    WINNER_COLOUR,
    hand_svg,
    hand_tricks_svg,
    suits_svg,
    tile_svg,
    trick_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox"), "every picture scales through its viewBox"
    assert root.find(f"{SVG}title") is not None
    return root


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def find_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def tiles_in(root: ET.Element) -> list[str]:
    return [str(el.get("data-tile")) for el in find_class(root, "tile")]


def pips(tile_group: ET.Element, half: str) -> int:
    (g,) = [el for el in tile_group if {"half", f"half-{half}"} <= classes(el)]
    return sum(1 for el in g if el.tag == f"{SVG}circle" and "pip" in classes(el))


@pytest.mark.parametrize("tile", TILES, ids=str)
@pytest.mark.parametrize("orientation", ["vertical", "horizontal"])
def test_every_tile_has_its_pips(tile: Tile, orientation: str) -> None:
    root = parse(tile_svg(tile, orientation=orientation))  # type: ignore[arg-type]
    (g,) = find_class(root, "tile")
    assert g.get("data-tile") == f"{tile.high}-{tile.low}"
    assert pips(g, "high") == tile.high
    assert pips(g, "low") == tile.low
    assert len(find_class(root, "pip")) == tile.high + tile.low
    assert len(find_class(root, "divider")) == 1


@pytest.mark.parametrize("size", [24, 48, 200])
def test_sizes_scale_the_picture(size: int) -> None:
    root = parse(tile_svg("6-4", size=size))
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    assert size <= width < size * 1.3
    assert height == pytest.approx(width + size)  # twice as long as wide, plus padding
    view = [float(v) for v in root.get("viewBox", "").split()]
    assert view[2:] == [width, height]


def test_pips_sit_inside_their_half() -> None:
    root = parse(tile_svg("6-5", orientation="vertical"))
    (g,) = find_class(root, "tile")
    for half, (lo, hi) in (("high", (0, 100)), ("low", (100, 200))):
        (hg,) = [el for el in g if f"half-{half}" in classes(el)]
        for c in hg:
            assert 0 < float(c.get("cx", -1)) < 100
            assert lo < float(c.get("cy", -1)) < hi


def test_end_first_keeps_the_halves_honest() -> None:
    root = parse(tile_svg("6-2", end_first=2))
    (g,) = find_class(root, "tile")
    assert pips(g, "high") == 6 and pips(g, "low") == 2
    (low,) = [el for el in g if "half-low" in classes(el)]
    assert all(float(c.get("cy", 0)) < 100 for c in low), "the 2 end is drawn on top"


def test_tile_highlight_and_bad_arguments() -> None:
    root = parse(tile_svg("3-3", highlight=HIGHLIGHT_COLOUR))
    (ring,) = find_class(root, "highlight")
    assert ring.get("stroke") == HIGHLIGHT_COLOUR
    assert not find_class(parse(tile_svg("3-3")), "highlight")
    with pytest.raises(ValueError):
        tile_svg("3-3", orientation="diagonal")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tile_svg("3-3", size=0)
    with pytest.raises(moonrules.ParseError):
        tile_svg("7-3")


def test_hand_holds_its_tiles_in_order() -> None:
    hand = moonrules.rules.tiles("6-4 3-3 5-1 0-0 2-1")
    root = parse(
        hand_svg(
            hand,
            highlight=[Tile(3, 3)],
            dim=[Tile(0, 0)],
            labels=["a", "b", "c", "d", "e"],
        )
    )
    assert tiles_in(root) == ["6-4", "3-3", "5-1", "0-0", "2-1"]
    assert len(find_class(root, "pip")) == sum(t.pips for t in hand)
    assert [el.get("data-tile") for el in find_class(root, "tile") if "dim" in classes(el)] == [
        "0-0"
    ]
    assert len(find_class(root, "highlight")) == 1
    assert [el.text for el in find_class(root, "label")] == ["a", "b", "c", "d", "e"]
    with pytest.raises(ValueError):
        hand_svg(hand, labels=["too few"])


def test_hand_wraps_into_rows() -> None:
    one_row = parse(hand_svg(moonrules.MOON_SET))
    rows = parse(hand_svg(moonrules.MOON_SET, columns=11))
    assert tiles_in(rows) == [str(t) for t in moonrules.MOON_SET]
    assert float(rows.get("height", 0)) > float(one_row.get("height", 0))
    assert float(rows.get("width", 0)) < float(one_row.get("width", 0))
    assert tiles_in(parse(hand_svg([]))) == []


def winner_plays(root: ET.Element) -> list[ET.Element]:
    return [el for el in find_class(root, "play") if "winner" in classes(el)]


def test_trick_marks_the_winner() -> None:
    root = parse(trick_svg(["3-2", "6-3", "3-3"], leader=1, trump=Trump.SIX))
    assert tiles_in(root) == ["3-2", "6-3", "3-3"]
    plays = find_class(root, "play")
    assert [p.get("data-seat") for p in plays] == ["1", "2", "0"]
    (win,) = winner_plays(root)
    assert win.get("data-seat") == "2"
    assert tiles_in(win) == ["6-3"]
    (mark,) = find_class(win, "winner-mark")
    assert mark.get("stroke") == WINNER_COLOUR
    assert len(find_class(root, "winner-mark")) == 1
    assert any("led" in (t.text or "") for t in find_class(root, "label"))


def test_trick_winner_from_a_trick_or_an_index() -> None:
    trick = Trick(leader=2, tiles=moonrules.rules.tiles("4-2 6-4 4-4 1-0"), winner=0)
    root = parse(trick_svg(trick, players=4))
    (win,) = winner_plays(root)
    assert win.get("data-seat") == "0" and tiles_in(win) == ["4-4"]
    root = parse(trick_svg(["4-2", "6-4", "5-1"], leader=0, winner_index=1, labels=["x", "y", "z"]))
    (win,) = winner_plays(root)
    assert tiles_in(win) == ["6-4"]
    with pytest.raises(ValueError):
        trick_svg(["4-2", "6-4"], leader=0)  # no way to know the winner
    with pytest.raises(ValueError):
        trick_svg(["4-2", "6-4"], trump=Trump.SIX)  # no leader


def play_first_hand(rules: str, seed: int) -> tuple[moonrules.Hand, int]:
    state = moonrules.new_game(rules, seed=seed)
    rng = random.Random(seed)
    while state.hand_number == 1 and not state.is_over:
        actions = moonrules.legal_actions(state)
        bids = [a for a in actions if isinstance(a, moonrules.Bid)]
        action = bids[0] if bids and not state.calls else rng.choice(actions)
        state = moonrules.apply(state, action)
    hand = state.history[0] if state.history else state.hand
    return hand, state.rules.players


@pytest.mark.parametrize(("rules", "seed"), [("standard", 1), ("standard", 9), ("partnership", 4)])
def test_hand_tricks_shows_every_trick(rules: str, seed: int) -> None:
    hand, players = play_first_hand(rules, seed)
    assert len(hand.tricks) == 7
    root = parse(hand_tricks_svg(hand.tricks, players))
    rows = find_class(root, "trick")
    assert len(rows) == 7
    for row, trick in zip(rows, hand.tricks, strict=True):
        assert tiles_in(row) == [str(t) for t in trick.tiles]
        (win,) = winner_plays(row)
        assert win.get("data-seat") == str(trick.winner)
        assert len(find_class(win, "winner-mark")) == 1
        (lead,) = find_class(row, "leader-mark")
        assert lead in list(find_class(row, "play")[0])
        seats = [int(p.get("data-seat", -1)) for p in find_class(row, "play")]
        assert seats == [(trick.leader + i) % players for i in range(players)]
    counts = [int(el.text or -1) for el in find_class(root, "tricks-won")]
    assert counts == [sum(t.winner == s for t in hand.tricks) for s in range(players)]


def test_hand_tricks_seat_names() -> None:
    hand, players = play_first_hand("partnership", 4)
    root = parse(hand_tricks_svg(hand.tricks, players, seat_names=["N", "E", "S", "W"]))
    texts = {el.text for el in root.iter(f"{SVG}text")}
    assert {"N", "E", "S", "W"} <= texts
    with pytest.raises(ValueError):
        hand_tricks_svg(hand.tricks, players, seat_names=["N"])


@pytest.mark.parametrize("trump", list(Trump), ids=str)
def test_suits_follow_the_rules(trump: Trump) -> None:
    root = parse(suits_svg(trump))
    rows = find_class(root, "suit")
    expected_rows = (["trump"] if trump is not Trump.NONE else []) + [
        str(n) for n in range(6, -1, -1)
    ]
    assert [r.get("data-suit") for r in rows] == expected_rows
    for row in rows:
        key = row.get("data-suit")
        suit = moonrules.TRUMP_SUIT if key == "trump" else int(str(key))
        members = [t for t in moonrules.MOON_SET if moonrules.in_suit(t, suit, trump)]
        ranked = sorted(members, key=lambda t: moonrules.rank(t, suit, trump), reverse=True)
        assert tiles_in(row) == [str(t) for t in ranked]


def test_suit_two_ranks_as_the_spec_says() -> None:
    """SUIT-3, EX-5: the 2s run 2-2, 2-6, 2-5, 2-4, 2-3, 2-1; a trump leaves the suit."""
    for trump, expected in (
        (Trump.NONE, ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]),
        (Trump.FIVE, ["2-2", "6-2", "4-2", "3-2", "2-1"]),
        (Trump.DOUBLES, ["6-2", "5-2", "4-2", "3-2", "2-1"]),
    ):
        root = parse(suits_svg(trump))
        (twos,) = [r for r in find_class(root, "suit") if r.get("data-suit") == "2"]
        assert tiles_in(twos) == expected, trump


def test_an_empty_suit_says_so() -> None:
    root = parse(suits_svg(Trump.DOUBLES))
    (zeros,) = [r for r in find_class(root, "suit") if r.get("data-suit") == "0"]
    assert tiles_in(zeros) == []
    assert [el.text for el in find_class(zeros, "empty")] == ["no tiles"]
