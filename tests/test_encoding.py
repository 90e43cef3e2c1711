"""Action ids, legal-action masks and observation vectors (moonrules.game.encoding)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonrules import (
    PRESETS,
    Bid,
    Deal,
    Discard,
    GameState,
    NameTrump,
    Pass,
    Phase,
    Play,
    Tile,
    Trump,
    apply,
    legal_actions,
    new_game,
    view,
    with_deal,
)
from moonrules.bots.base import view_legal_actions
from moonrules.bots.resample import resample
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    encode_information_state,
    encode_observation,
    legal_action_ids,
    legal_action_mask,
    state_string,
    view_string,
)
from moonrules.rules.tiles import TILES

PRESET_NAMES = sorted(PRESETS)


@st.composite
def states(draw: st.DrawFn, max_steps: int = 90) -> GameState:
    """A state reached by random play from a seeded game of any preset."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, max_steps))
    rng = random.Random(draw(st.integers(0, 2**32)))
    s = new_game(preset, seed=seed)
    for _ in range(steps):
        if s.is_over:
            break
        s = apply(s, rng.choice(legal_actions(s)))
    return s


# -- action ids ---------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_numbering_follows_the_documented_order(preset: str) -> None:
    rules = PRESETS[preset]
    space = ActionSpace.of(preset)
    tiles = rules.tile_set.tiles
    expected = [
        Pass(),
        *(Bid(b) for b in rules.bids),
        *((Discard(t) for t in tiles) if rules.has_widow else ()),
        *(NameTrump(t) for t in rules.trumps),
        *(Play(t) for t in tiles),
    ]
    assert list(space.actions) == expected
    assert space.size == len(expected) == len(set(expected))
    assert sorted(space.actions) == list(space.actions)  # ids ascend as actions sort
    for i in range(space.size):
        assert space.id_of(space.action_of(i)) == i


def test_the_documented_sizes() -> None:
    assert ActionSpace.of("standard").size == 59
    assert ActionSpace.of("partnership").size == 43
    assert ActionSpace.of("standard") == ActionSpace(PRESETS["standard"])


def test_actions_the_rules_never_allow_have_no_id() -> None:
    standard = ActionSpace.of("standard")
    for action in (Bid(3), Play(Tile(1, 0)), Discard(Tile(6, 0)), Bid(8)):
        with pytest.raises(ValueError, match=r"action: .* never legal"):
            standard.id_of(action)
    with pytest.raises(ValueError, match=r"action: .* never legal"):
        ActionSpace.of("partnership").id_of(Discard(Tile(6, 6)))
    with pytest.raises(ValueError, match=r"never legal"):
        ActionSpace.of("pagat").id_of(NameTrump(Trump.DOUBLES))


def test_wrong_types_and_values_name_the_parameter() -> None:
    space = ActionSpace.of("standard")
    with pytest.raises(TypeError, match=r"^action: "):
        space.id_of("pass")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^action_id: "):
        space.action_of("3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^action_id: "):
        space.action_of(True)
    with pytest.raises(ValueError, match=r"^action_id: ids run from 0 to 58"):
        space.action_of(59)
    with pytest.raises(ValueError, match=r"^action_id: "):
        space.action_of(-1)
    with pytest.raises(TypeError, match=r"^rules: "):
        ActionSpace(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"no rule set is called"):
        ActionSpace.of("chess")
    with pytest.raises(TypeError, match=r"^state: "):
        legal_action_ids(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^state: "):
        legal_action_mask("standard")  # type: ignore[arg-type]


@given(states())
def test_every_legal_action_has_an_id_and_every_id_in_the_mask_is_legal(s: GameState) -> None:
    space = ActionSpace(s.rules)
    legal = legal_actions(s)
    ids = legal_action_ids(s)
    assert ids == tuple(space.id_of(a) for a in legal)
    assert list(ids) == sorted(ids)
    mask = legal_action_mask(s)
    assert len(mask) == space.size and set(mask) <= {0, 1}
    decoded = [space.action_of(i) for i, bit in enumerate(mask) if bit]
    assert decoded == list(legal)
    for a in decoded:
        apply(s, a)  # each one is accepted


@given(states())
def test_a_view_has_the_legal_ids_of_its_seat_only(s: GameState) -> None:
    space = ActionSpace(s.rules)
    for seat in range(s.rules.players):
        v = view(s, seat)
        ids = legal_action_ids(v)
        if seat == s.to_act:
            assert ids == legal_action_ids(s)
            assert ids == tuple(space.id_of(a) for a in view_legal_actions(v))
        else:
            assert ids == () and not any(legal_action_mask(v))


# -- observations -------------------------------------------------------------


def _read(layout: ObservationLayout, vector: tuple[float, ...], name: str) -> list[float]:
    s = layout.section(name)
    return list(vector[s.start : s.stop])


def _tiles_in(layout: ObservationLayout, row: list[float]) -> set[Tile]:
    tiles = layout.rules.tile_set.tiles
    assert len(row) == len(tiles)
    return {tiles[k] for k, x in enumerate(row) if x}


def _rows(values: list[float], width: int) -> list[list[float]]:
    return [values[k : k + width] for k in range(0, len(values), width)]


@given(states())
def test_the_observation_reads_back_as_the_view(s: GameState) -> None:
    """Each section holds what the module's table says, seats counted from the seat."""
    rules = s.rules
    n = rules.players
    t = len(rules.tile_set.tiles)
    layout = ObservationLayout.of(rules)
    for seat in range(n):
        v = view(s, seat)
        vec = encode_observation(v)
        assert vec == layout.encode(v)
        assert len(vec) == layout.size
        assert all(-1.0 <= x <= 1.0 for x in vec)

        def seat_of(k: int, seat: int = seat) -> int:
            return (seat + k) % n

        assert _read(layout, vec, "phase").index(1.0) == list(Phase).index(v.phase)
        assert _tiles_in(layout, _read(layout, vec, "hand")) == set(v.hand)
        played = _rows(_read(layout, vec, "played"), t)
        for k in range(n):
            tiles_played = {
                x
                for tr in v.tricks
                for j, x in enumerate(tr.tiles)
                if (tr.leader + j) % n == seat_of(k)
            }
            if v.trick:
                assert v.leader is not None
                tiles_played |= {
                    x for j, x in enumerate(v.trick) if (v.leader + j) % n == seat_of(k)
                }
            assert _tiles_in(layout, played[k]) == tiles_played
        calls = _rows(_read(layout, vec, "calls"), 1 + len(rules.bids))
        for k, call in enumerate(v.calls):
            row = calls[(v.first_bidder + k - seat) % n]
            column = row.index(1.0)
            assert call == (Pass() if column == 0 else Bid(rules.bids[column - 1]))
        assert sum(map(sum, calls)) == len(v.calls)
        trump = _read(layout, vec, "trump")
        assert (rules.trumps[trump.index(1.0)] if any(trump) else None) == v.trump
        bidder = _read(layout, vec, "bidder")
        assert (seat_of(bidder.index(1.0)) if any(bidder) else None) == v.bidder
        widow = _tiles_in(layout, _read(layout, vec, "widow"))
        assert widow == ({v.widow} if v.widow else set())
        won = _read(layout, vec, "tricks_won")
        assert [round(won[(s2 - seat) % n] * 7) for s2 in range(n)] == list(v.tricks_won)
        scores = _read(layout, vec, "scores")
        mine = rules.side_of(seat)
        for side, score in enumerate(v.scores):
            clipped = max(-rules.target, min(rules.target, score)) / rules.target
            assert scores[(side - mine) % rules.sides] == clipped


@given(states(max_steps=40), st.integers(0, 2**32))
def test_an_encoding_never_depends_on_hidden_tiles(s: GameState, seed: int) -> None:
    """A state that differs only in tiles a seat cannot see encodes equal for that seat.

    The other state is drawn by the resampler; at the start of a hand, also by dealing the
    hidden tiles again and replaying the calls (which do not depend on the tiles).
    """
    if s.is_over:
        return
    rng = random.Random(seed)
    for seat in range(s.rules.players):
        v = view(s, seat)
        other = resample(v, rng)
        for encode in (encode_observation, encode_information_state):
            assert encode(view(other, seat)) == encode(v)
        assert view_string(view(other, seat), history=True) == view_string(v, history=True)
    if s.phase is Phase.BIDDING:
        _check_a_redeal_of_hidden_tiles(s, rng)


def _check_a_redeal_of_hidden_tiles(s: GameState, rng: random.Random) -> None:
    n = s.rules.players
    seat = rng.randrange(n)
    hidden = [x for k, h in enumerate(s.hand.deal) if k != seat for x in TILES if h >> x.index & 1]
    if s.widow is not None:
        hidden.append(s.widow)
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = [
        s.hands[k] if k == seat else tuple(sorted(next(it) for _ in range(7))) for k in range(n)
    ]
    widow = next(it) if s.widow is not None else None
    other = with_deal(
        new_game(s.rules, s.seed, first_bidder=s.first_bidder), Deal(tuple(hands), widow)
    )
    for call in s.calls:
        other = apply(other, call)
    other = GameState(s.game, other.hand)
    assert encode_information_state(view(other, seat)) == encode_information_state(view(s, seat))
    changed = [k for k in range(n) if other.hands[k] != s.hands[k]]
    for k in changed:  # what a seat does see is encoded: its own tiles changed, so does its vector
        assert encode_observation(view(other, k)) != encode_observation(view(s, k))


@pytest.mark.parametrize("preset", ["standard", "partnership", "pagat"])
def test_the_information_state_tells_every_position_of_a_hand_apart(preset: str) -> None:
    """Along a hand every step changes each seat's information state (vector and text)."""
    for seed in range(3):
        s = new_game(preset, seed=seed)
        rng = random.Random(seed)
        number = s.hand_number
        seen: list[set[object]] = [set() for _ in range(s.rules.players)]
        steps = 0
        while s.hand_number == number and not s.is_over:
            for seat in range(s.rules.players):
                v = view(s, seat)
                seen[seat].add(encode_information_state(v))
                seen[seat].add(view_string(v, history=True))
            steps += 1
            s = apply(s, rng.choice(legal_actions(s)))
        assert all(len(x) == 2 * steps for x in seen)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_layout_is_the_documented_table(preset: str) -> None:
    rules = PRESETS[preset]
    n, t, b, k = rules.players, len(rules.tile_set.tiles), len(rules.bids), len(rules.trumps)
    sizes = {
        "phase": 5,
        "to_act": n,
        "hand": t,
        "played": n * t,
        "trick": n * t,
        "leader": n,
        "first_bidder": n,
        "calls": n * (1 + b),
        "bidder": n,
        "bid": b,
        "trump": k,
        "widow": t,
        "discard": t,
        "tricks_won": n,
        "scores": rules.sides,
    }
    layout = ObservationLayout.of(preset)
    assert [(x.name, x.length) for x in layout.sections] == list(sizes.items())
    full = ObservationLayout.of(preset, history=True)
    assert full.sections[:-1] == layout.sections
    assert full.sections[-1].name == "tricks" and full.sections[-1].shape == (7, n + n * t)
    assert full.size == layout.size + 7 * (n + n * t)
    starts = [x.start for x in full.sections]
    assert starts == [0, *(x.stop for x in full.sections[:-1])]


def test_layout_errors_name_the_parameter() -> None:
    layout = ObservationLayout.of("standard")
    with pytest.raises(ValueError, match=r"^name: the layout has no section 'tricks'"):
        layout.section("tricks")
    with pytest.raises(TypeError, match=r"^name: "):
        layout.section(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^history: "):
        ObservationLayout("standard", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^view: "):
        layout.encode(new_game(seed=1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^view: "):
        layout.encode(view(new_game("partnership", seed=1), 0))
    with pytest.raises(TypeError, match=r"^view: "):
        encode_observation(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^view: "):
        view_string(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^state: "):
        state_string(None)  # type: ignore[arg-type]


def test_an_action_id_may_be_any_integer_type_but_not_a_bool_or_a_float() -> None:
    """Ids from numpy (Gymnasium's ``Discrete.sample`` gives ``np.int64``) or any type with
    ``__index__`` are ids; a bool, a float or an integer-looking string are not."""

    class Index:
        def __index__(self) -> int:
            return 4

    space = ActionSpace.of("standard")
    assert space.action_of(Index()) == space.action_of(4)  # type: ignore[arg-type]
    np = pytest.importorskip("numpy", reason="numpy is not installed")
    for kind in (np.int8, np.int32, np.int64, np.uint16):
        assert space.action_of(kind(3)) == space.action_of(3)
    with pytest.raises(ValueError, match=r"^action_id: ids run from 0 to 58, not 59"):
        space.action_of(np.int64(59))
    for bad in (np.True_, np.float64(3), 3.0):
        with pytest.raises(TypeError, match=r"^action_id: expected a whole number"):
            space.action_of(bad)


def test_the_table_text_of_a_finished_hand_names_no_seat_to_act() -> None:
    """A state showing a finished hand before the next deal (as OpenSpiel's end of a hand
    does) says ``hand over``, as :func:`view_string` does."""
    from moonrules.game.state import make_state

    s = new_game(seed=2)
    rng = random.Random(0)
    while s.hand_number == 1:
        s = apply(s, rng.choice(legal_actions(s)))
    finished = make_state(s.game, s.history[-1])
    assert finished.phase is Phase.DONE and not finished.is_over
    head = state_string(finished).splitlines()[0]
    assert head.endswith(", hand over") and "to act" not in head
    assert "hand over" in view_string(view(finished, 0))


def test_the_table_text_shows_every_hand() -> None:
    s = new_game("partnership", seed=3)
    text = state_string(s)
    for seat, hand in enumerate(s.hands):
        assert f"p{seat}: " + " ".join(map(str, hand)) in text


@given(states())
def test_every_view_of_a_state_passes_the_views_checks(s: GameState) -> None:
    """:func:`view` builds its views unchecked; built again through ``PlayerView``'s own
    checks, each is accepted as it is."""
    import attrs

    for seat in range(s.rules.players):
        v = view(s, seat)
        assert attrs.evolve(v) == v


def test_a_view_built_by_hand_with_impossible_values_is_refused() -> None:
    """A ``PlayerView`` made by hand (``attrs.evolve`` of a real one) is checked against its
    rules: a seat not at the table, a tile off the set, a wrong count, a bid or trump the
    rules do not offer raise ``ValueError`` naming the field, rather than encoding a wrong
    vector."""
    import attrs

    s = new_game("no-double-blank", seed=3)
    v = view(s, 0)
    assert attrs.evolve(v, seat=2).seat == 2  # a seat at the table is accepted
    cases = [
        ({"seat": 3}, r"^seat: seats are numbered 0 to 2, not 3"),
        ({"seat": -1}, r"^seat: seats are numbered 0 to 2, not -1"),
        ({"to_act": 5}, r"^to_act: seats are numbered 0 to 2, not 5"),
        ({"players": 4}, r"^players: the rules seat 3 players, not 4"),
        ({"hand": (Tile(0, 0), *v.hand[1:])}, r"^hand: 0-0 is not a tile of the rules' set"),
        ({"scores": (0, 0)}, r"^scores: one entry a side \(3\), not 2"),
        ({"tricks_won": (0,) * 4}, r"^tricks_won: one entry a seat \(3\), not 4"),
        ({"bid": 3, "bidder": 0}, r"^bid: the rules' bids are \[4, 5, 6, 7, 21\], not 3"),
        ({"winner": 3}, r"^winner: the sides are numbered 0 to 2, not 3"),
        ({"trump": Trump.ZERO}, r"^trump: .* is not a trump the rules offer"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            attrs.evolve(v, **change)
