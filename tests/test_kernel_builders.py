"""The kernel's speed machinery builds exactly what the plain code does.

The generated positional constructors, the chunk tables of actions and the written-out
deal shuffle.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from seeded_streams import deal_order

from moonrules import PRESETS, new_game, seeded_deal
from moonrules.game import Claim, Contract, Discard, Game, GameState, Hand, Phase, Play, Trick
from moonrules.game.actions import DISCARD_ACTIONS, PLAY_ACTIONS
from moonrules.game.deal import shuffled
from moonrules.game.state import make_contract, make_game, make_hand, make_state, make_trick
from moonrules.kernel.actions import mask_items
from moonrules.kernel.builders import positional_builder
from moonrules.rules.tiles import TILES, Tile

_plays = mask_items(PLAY_ACTIONS)
_discards = mask_items(DISCARD_ACTIONS)


def test_a_class_whose_init_does_more_gets_no_builder() -> None:
    """The builders skip ``__init__``, so a class with validators or a post-init is refused."""
    with pytest.raises(TypeError, match="Tile needs its own __init__"):
        positional_builder(Tile)


def test_fast_constructors_equal_the_classes_own() -> None:
    state = new_game("standard", seed=7)
    contract = (3, 1, (1, 2, 4), 5, (0, 4), 2, 4, 6, 3, True)
    c = Contract(*contract)
    hand = (c, (1, 2, 4), Phase.PLAY, 2, (3,), (), (1, 0, 2), (4, -1, 0), 1, Claim(2, 3))
    game = (state.rules, 9, (1, 2, 3), (state.hand,), 2, False, state.hand, object())
    cases: list[tuple[Any, type, tuple[Any, ...]]] = [
        (make_contract, Contract, contract),
        (make_hand, Hand, hand),
        (make_game, Game, game),
        (make_state, GameState, (Game(*game), Hand(*hand))),
        (make_trick, Trick, (2, TILES[:3], 1)),
    ]
    for build, cls, args in cases:
        value = build(*args)
        assert type(value) is cls
        assert value == cls(*args) and hash(value) == hash(cls(*args))
        assert repr(value) == repr(cls(*args))
        for field, arg in zip(attrs.fields(cls), args, strict=True):
            assert getattr(value, field.name) is arg
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(value, attrs.fields(cls)[0].name, args[0])


@given(st.integers(), st.integers(1, 60), st.sampled_from(sorted(PRESETS)))
def test_the_deal_shuffle_is_the_seeded_stream_s(seed: int, number: int, preset: str) -> None:
    """DEAL-1: a seeded deal is the Fisher-Yates shuffle drawing from the SHA-512 stream of
    ``moonrules/deal/{seed}/{number}``, as ``moonrules.game.shuffle`` describes it."""
    rules = PRESETS[preset]
    expected = deal_order([t.index for t in rules.tile_set.tiles], seed, number)
    assert shuffled(rules, seed, number) == expected
    deal = seeded_deal(rules, seed, number)
    assert [tuple(t.index for t in h) for h in deal.hands] == [
        tuple(sorted(expected[7 * s : 7 * s + 7])) for s in range(rules.players)
    ]


@given(st.integers(0, (1 << 28) - 1))
def test_the_actions_of_a_mask_are_its_tiles_in_order(mask: int) -> None:
    """The chunk tables give, for any mask, one action per tile of the mask, in tile order."""
    tiles = tuple(t for t in TILES if mask >> t.index & 1)
    assert _plays(mask) == tuple(Play(t) for t in tiles)
    assert _discards(mask) == tuple(Discard(t) for t in tiles)


def test_the_actions_of_every_single_tile_and_chunk_edge() -> None:
    for i, t in enumerate(TILES):
        assert _plays(1 << i) == (Play(t),) and _discards(1 << i) == (Discard(t),)
    for mask in (0, (1 << 10) - 1, (1 << 19) - (1 << 10), (1 << 28) - (1 << 19), (1 << 28) - 1):
        assert [p.tile.index for p in _plays(mask)] == [i for i in range(28) if mask >> i & 1]


def test_the_builders_source_is_shown_by_inspect_and_tracebacks() -> None:
    """The generated code is registered with linecache (as attrs does): ``inspect`` finds it,
    and a traceback through a builder shows its lines."""
    import inspect
    import traceback

    from moonrules.kernel.builders import builder_filename

    source = inspect.getsource(make_contract)
    assert source.startswith("def build_Contract(number, first_bidder, deal, widow, calls,")
    assert "value.trump = trump" in source
    assert inspect.getsourcefile(make_contract) == builder_filename(Contract)
    new = make_state.__globals__["new"]
    try:
        make_state.__globals__["new"] = lambda cls: 1 / 0
        with pytest.raises(ZeroDivisionError) as err:
            make_state(None, None)
    finally:
        make_state.__globals__["new"] = new
    shown = "".join(traceback.format_tb(err.value.__traceback__))
    assert builder_filename(GameState) in shown
    assert "value = new(twin)" in shown


def test_the_state_values_are_built_as_twins() -> None:
    """Every value of the hot paths is built the fast way: filled as an instance of its twin
    (same slots) and turned into the class by ``__class__``, which CPython allows only
    between equal layouts."""
    from moonrules.game.views import PlayerView
    from moonrules.kernel.builders import twin_of

    for cls in (Contract, Hand, Game, GameState, Trick, PlayerView):
        twin = twin_of(cls)
        assert twin is not None, cls
        assert twin.__slots__ == cls.__slots__  # type: ignore[attr-defined]
        assert "__weakref__" not in cls.__slots__


@attrs.frozen(slots=True)
class _WithWeakref:
    a: int
    b: tuple[int, ...] = ()


@attrs.frozen(slots=True, weakref_slot=False)
class _Twinned:
    a: int
    b: tuple[int, ...] = ()


def test_a_class_with_a_weakref_slot_is_built_through_its_descriptors() -> None:
    """No twin for a class CPython would not let an instance turn into (its ``__weakref__``
    slot changes the layout): its builder sets the slots through their descriptors, and
    builds the same value."""
    import inspect
    import weakref

    from moonrules.kernel.builders import twin_of

    assert twin_of(_WithWeakref) is None and twin_of(_Twinned) is not None
    slow, fast = positional_builder(_WithWeakref), positional_builder(_Twinned)
    assert "set_a(value, a)" in inspect.getsource(slow)
    assert "value.a = a" in inspect.getsource(fast)
    for build, cls in ((slow, _WithWeakref), (fast, _Twinned)):
        value = build(3, (1, 2))
        assert (
            type(value) is cls and value == cls(3, (1, 2)) and hash(value) == hash(cls(3, (1, 2)))
        )
        assert repr(value) == repr(cls(3, (1, 2)))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            value.a = 4  # type: ignore[misc]
    assert weakref.ref(slow(1, ())) is not None
