"""The fast engine (:class:`moonrules.engine.Engine`) is the reference game, step for step.

Each test runs on every installed form of the engine: the compiled one (when the install
compiled it) and its Python source. The lockstep machine steps an engine and the reference
(:func:`moonrules.apply`) together over every preset — three players and partnerships, both
first-lead rules, both widow timings, forced and thrown-in auctions — and after every step
holds the engine to the reference: the legal ids, ``to_state()``, every seat's observation,
the seat to act, phase, scores and winner, and the error an illegal id raises. ``undo``
must give back the state before, ``clone`` must share nothing, and ``playout`` must play
what its documented generator chooses. The auction is checked exhaustively (every sequence
of calls of every preset), and the pinned playthroughs of ``tests/playthroughs/`` are played
again through the engine.
"""

from __future__ import annotations

import copy as copylib
import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import seeded_streams
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import moonrules
from moonrules import GameState, Phase, apply, legal_actions, new_game, view
from moonrules.bots.resample import resample
from moonrules.game.encoding import (
    ActionSpace,
    encode_information_state,
    encode_observation,
    legal_action_ids,
)
from moonrules.kernel.compiled import is_compiled, source_form
from moonrules.rules.errors import MoonError
from moonrules.rules.ruleset import PRESETS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import gen_playthroughs  # noqa: E402

CORE = "moonrules.engine.core"
FORMS = ["compiled", "source"] if is_compiled(__import__(CORE, fromlist=["Engine"])) else ["source"]


def engine_module(form: str) -> ModuleType:
    """The module of the engine in ``form`` (one of :data:`FORMS`)."""
    module = __import__(CORE, fromlist=["Engine"])
    return module if form == "compiled" else source_form(CORE)


@pytest.fixture(params=FORMS)
def core(request: pytest.FixtureRequest) -> ModuleType:
    """Each installed form of :mod:`moonrules.engine.core`."""
    return engine_module(request.param)


def error_of(f: Any, *args: Any) -> tuple[type[BaseException], str, str | None] | None:
    """The type, message and clause of what ``f(*args)`` raises, or ``None``."""
    try:
        f(*args)
    except (MoonError, TypeError, ValueError) as e:
        return type(e), str(e), getattr(e, "rule", None)
    return None


def assert_same(engine: Any, state: GameState) -> None:
    """Everything the engine says of its position is what the reference says of ``state``."""
    assert engine.to_state() == state
    ids = list(legal_action_ids(state))
    assert engine.legal_ids() == ids
    assert engine.legal_mask() == sum(1 << i for i in ids)
    assert engine.to_act == state.to_act
    assert engine.phase is state.phase
    assert engine.is_over == state.is_over
    assert engine.winner == state.winner
    assert engine.scores == state.scores
    assert engine.hand_number == state.hand_number
    for seat in range(state.rules.players):
        seen = view(state, seat)
        assert engine.observe(seat) == list(encode_observation(seen))
        assert engine.observe(seat, True) == list(encode_information_state(seen))


# ---------------------------------------------------------------------------------
# Lockstep, by Hypothesis' stateful testing


class Lockstep(RuleBasedStateMachine):
    """An engine and the reference stepped together; the engine's form is drawn too."""

    def __init__(self) -> None:
        super().__init__()
        self.engine: Any = None
        self.states: list[GameState] = []
        self.space: ActionSpace | None = None

    @initialize(
        preset=st.sampled_from(sorted(PRESETS)),
        seed=st.integers(0, 2**40),
        form=st.sampled_from(FORMS),
        first_bidder=st.none() | st.integers(0, 3),
    )
    def start(self, preset: str, seed: int, form: str, first_bidder: int | None) -> None:
        rules = PRESETS[preset]
        if first_bidder is not None:
            first_bidder %= rules.players
        self.engine = engine_module(form).Engine(preset, seed, first_bidder)
        self.states = [new_game(preset, seed, first_bidder=first_bidder)]
        self.space = ActionSpace(rules)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def step_legal(self, data: st.DataObject) -> None:
        assert self.space is not None
        ids = legal_action_ids(self.state)
        chosen = data.draw(st.sampled_from(ids), label="id")
        ended = self.engine.step(chosen)
        before = self.state
        self.states.append(apply(before, self.space.actions[chosen]))
        assert ended is (self.state.is_over or self.state.hand_number != before.hand_number)

    @rule(data=st.data())
    def step_illegal(self, data: st.DataObject) -> None:
        """An id the rules refuse raises the reference's error, and changes nothing."""
        assert self.space is not None
        legal = set(legal_action_ids(self.state))
        refused = [i for i in range(self.space.size) if i not in legal]
        if not refused:
            return
        chosen = data.draw(st.sampled_from(refused), label="illegal id")
        expected = error_of(apply, self.state, self.space.actions[chosen])
        assert expected is not None
        assert error_of(self.engine.step, chosen) == expected

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 2**32))
    def playout(self, seed: int) -> None:
        """The playout plays what its generator chooses, to the end of the hand."""
        assert self.space is not None
        steps = self.engine.playout(seed)
        x = self.engine_generator(seed)
        start = self.state.hand_number
        for _ in range(steps):
            assert not self.state.is_over and self.state.hand_number == start
            ids = legal_action_ids(self.state)
            x = next_state(x)
            self.states.append(apply(self.state, self.space.actions[ids[x * len(ids) >> 32]]))
        assert self.state.is_over or self.state.hand_number == start + 1

    @staticmethod
    def engine_generator(seed: int) -> int:
        return generator_state(seed)

    @precondition(lambda self: len(self.states) > 1)
    @rule(count=st.integers(1, 30))
    def undo(self, count: int) -> None:
        for _ in range(min(count, len(self.states) - 1)):
            self.engine.undo()
            self.states.pop()

    @rule(seed=st.integers(0, 99))
    def clone_is_independent(self, seed: int) -> None:
        """A clone moves on without moving the original, and the original moves back
        without moving the clone."""
        copy = self.engine.clone() if seed % 2 else copylib.deepcopy(self.engine)
        assert_same(copy, self.state)
        if not self.state.is_over:
            copy.playout(seed)
            assert_same(self.engine, self.state)
        moved = copy.to_state()
        if len(self.states) > 1:
            self.engine.undo()
            self.states.pop()
            assert copy.to_state() == moved

    @invariant()
    def same_as_the_reference(self) -> None:
        if self.engine is not None:
            assert_same(self.engine, self.state)


def generator_state(seed: int) -> int:
    """The playout generator's first state, as its documentation says (restated here)."""
    x = seed % 2**32
    x ^= x >> 16
    x = x * 0x85EBCA6B % 2**32
    x ^= x >> 13
    x = x * 0xC2B2AE35 % 2**32
    x ^= x >> 16
    return x or 0x9E3779B9


def next_state(x: int) -> int:
    """xorshift32 (13, 17, 5), as the playout's documentation says (restated here)."""
    x ^= (x << 13) % 2**32
    x ^= x >> 17
    x ^= (x << 5) % 2**32
    return x


TestLockstep = Lockstep.TestCase
TestLockstep.settings = settings(  # the profile's examples (conftest.py), longer runs
    settings.default, stateful_step_count=80, suppress_health_check=[HealthCheck.too_slow]
)


# ---------------------------------------------------------------------------------
# Exhaustive: every auction of every preset


def auctions(state: GameState) -> Iterator[tuple[list[int], GameState]]:
    """Every sequence of legal ids from ``state`` to the end of its auction, with the state
    after it (the hand thrown in, or the bidder's first action waiting)."""
    space = ActionSpace(state.rules)
    stack: list[tuple[list[int], GameState]] = [([], state)]
    while stack:
        ids, s = stack.pop()
        if ids and (s.phase is not Phase.BIDDING or s.hand_number != state.hand_number):
            yield ids, s
            continue
        for i in legal_action_ids(s):
            stack.append(([*ids, i], apply(s, space.actions[i])))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_auction_and_the_bidders_choices(core: ModuleType, preset: str) -> None:
    """Every sequence of calls, then every discard and trump the bidder may choose (and
    every first lead after them), stepped and taken back, as the reference has them."""
    start = new_game(preset, seed=3, first_bidder=1)
    engine = core.Engine(preset, 3, 1)
    space = ActionSpace(start.rules)
    count = 0
    for ids, end in auctions(start):
        for i in ids:
            engine.step(i)
        assert_same(engine, end)
        frontier = [end]
        for _ in range(3):  # the discard and the trump (either order), then the first lead
            nxt = []
            for s in frontier:
                if s.phase is Phase.BIDDING:
                    continue
                for i in legal_action_ids(s):
                    after = apply(s, space.actions[i])
                    engine_after = core.Engine.from_state(s)
                    engine_after.step(i)
                    assert engine_after.to_state() == after
                    assert engine_after.legal_ids() == list(legal_action_ids(after))
                    engine_after.undo()
                    assert engine_after.to_state() == s
                    nxt.append(after)
            frontier = nxt[:: max(1, len(nxt) // 40)]
        for _ in ids:
            engine.undo()
        assert engine.to_state() == start
        count += 1
    assert count > 10


# ---------------------------------------------------------------------------------
# Pinned playthroughs, played through the engine


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pinned_playthrough_through_the_engine(core: ModuleType, preset: str) -> None:
    """The playthrough of ``tests/playthroughs/<preset>.txt`` again, each action stepped by
    id on the engine and each state read back from it (``to_state()``)."""
    rules = PRESETS[preset]
    space = ActionSpace(rules)
    seed = gen_playthroughs.SEED
    rng = random.Random(seed)
    engine = core.Engine(rules, seed)
    lines = [
        f"# moonrules playthrough: preset {preset}, game seed {seed}, "
        f"actions chosen by random.Random({seed}), at most {gen_playthroughs.HANDS} hands",
        f"# regenerate with: {gen_playthroughs.REGENERATE}",
        f"rules: {gen_playthroughs.rules_text(rules)}",
        "",
    ]
    step = 0
    while not engine.is_over and engine.hand_number <= gen_playthroughs.HANDS:
        step += 1
        state = engine.to_state()
        lines.append(f"step {step}")
        lines.extend(gen_playthroughs.state_text(state))
        action = gen_playthroughs.choose_action(state, rng)
        lines.append(f"  action: seat {engine.to_act} {action}")
        before = engine.hand_number
        engine.step(space.id_of(action))
        after = engine.to_state()
        if after.is_over:
            lines.extend(gen_playthroughs.hand_result_text(rules, after.hand, after.scores))
        elif after.hand_number != before:
            lines.extend(gen_playthroughs.hand_result_text(rules, after.history[-1], after.scores))
        lines.append("")
    expected = gen_playthroughs.path_for(preset).read_text(encoding="utf-8")
    assert "\n".join(lines) == "\n".join(expected.splitlines()[: len(lines)])


# ---------------------------------------------------------------------------------
# Whole games, states read in, clones, playouts


@pytest.mark.parametrize("preset", ["standard", "partnership", "pagat", "marks"])
def test_whole_games_in_lockstep_with_undo_to_the_start(core: ModuleType, preset: str) -> None:
    """Random whole games: the same states after every step, then every step taken back."""
    for seed in range(2):
        rng = random.Random(seed)
        state = new_game(preset, seed=seed)
        engine = core.Engine(preset, seed)
        states = [state]
        while not state.is_over and len(states) < 2000:
            action = rng.choice(legal_actions(state))
            ended = engine.step(ActionSpace(state.rules).id_of(action))
            number = state.hand_number
            state = apply(state, action)
            states.append(state)
            assert ended is (state.is_over or state.hand_number != number)
            assert engine.to_state() == state
            assert engine.legal_ids() == list(legal_action_ids(state))
        for k in range(len(states) - 1, 0, -1):
            engine.undo()
            if k % 13 == 0:
                assert engine.to_state() == states[k - 1]
        assert engine.to_state() == states[0]
        assert error_of(engine.undo) is not None


def test_from_state_keeps_the_history_and_moves_on_alike(core: ModuleType) -> None:
    """An engine read from a state with earlier hands gives that state back, and moves on
    as the reference does; taking back stops at the state it was read from."""
    rng = random.Random(4)
    state = new_game("standard", seed=4)
    while len(state.history) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    for _ in range(9):
        state = apply(state, rng.choice(legal_actions(state)))
    engine = core.Engine.from_state(state)
    assert_same(engine, state)
    assert engine.to_state().history == state.history
    action = rng.choice(legal_actions(state))
    engine.step(ActionSpace(state.rules).id_of(action))
    assert_same(engine, apply(state, action))
    engine.undo()
    assert_same(engine, state)
    with pytest.raises(ValueError, match=r"^undo: this engine has taken no step"):
        engine.undo()


def test_a_finished_game_refuses_every_id_as_the_reference(core: ModuleType) -> None:
    state = new_game("marks", seed=2)
    engine = core.Engine("marks", 2)
    while not state.is_over:
        engine.playout(len(state.history))
        state = engine.to_state()
    assert engine.legal_ids() == [] and engine.legal_mask() == 0
    space = ActionSpace(state.rules)
    for i in range(space.size):
        assert error_of(engine.step, i) == error_of(apply, state, space.actions[i])


@pytest.mark.parametrize(
    ("bad", "kind", "words"),
    [
        (-1, ValueError, "ids run from 0 to 58, not -1"),
        (59, ValueError, "ids run from 0 to 58, not 59"),
        ("3", TypeError, "action_id: expected a whole number"),
        (2.0, TypeError, "action_id: expected a whole number"),
        (True, TypeError, "action_id: expected a whole number"),
        (None, TypeError, "action_id: expected a whole number"),
    ],
)
def test_an_id_that_is_no_id_is_refused_in_one_line(
    core: ModuleType, bad: object, kind: type[Exception], words: str
) -> None:
    engine = core.Engine("standard", 1)
    before = engine.to_state()
    with pytest.raises(kind, match=words):
        engine.step(bad)
    assert engine.to_state() == before


def test_an_integer_of_another_kind_is_an_id(core: ModuleType) -> None:
    """numpy's integers (as Gymnasium hands out) step as the ids they are."""
    np = pytest.importorskip("numpy")
    engine = core.Engine("standard", 1)
    engine.step(np.int64(2))
    assert engine.to_state() == apply(new_game("standard", 1), moonrules.Bid(5))


@pytest.mark.parametrize(
    ("call", "kind", "words"),
    [
        (lambda e: e.observe(3), ValueError, "seat: seats are numbered 0 to 2, not 3"),
        (lambda e: e.observe("0"), TypeError, "seat: expected a seat number"),
        (lambda e: e.playout(1.5), TypeError, "seed: expected a whole number"),
        (lambda e: e.observe(0, 1), TypeError, "history: expected True or False"),
        (lambda e: e.resample(0, 7), TypeError, "rng: expected a random.Random"),
        (lambda e: type(e).from_state("state"), TypeError, "state: expected a GameState"),
        (lambda e: type(e)("standard", "7"), TypeError, "seed: expected a whole number"),
        (lambda e: type(e)("standard", 1, "0"), TypeError, "first_bidder: expected a seat"),
        (lambda e: type(e)(7), TypeError, "rules: expected a RuleSet"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(
    core: ModuleType, call: Any, kind: type[Exception], words: str
) -> None:
    with pytest.raises(kind, match=words):
        call(core.Engine("standard", 1))


def test_new_engines_deal_as_new_game(core: ModuleType) -> None:
    for preset in sorted(PRESETS):
        for seed in (0, 1, 2**70):
            assert core.Engine(preset, seed).to_state() == new_game(preset, seed)
    engine = core.Engine("partnership", None, 2)
    assert engine.to_act == 2
    assert engine.to_state() == new_game("partnership", engine.seed, first_bidder=2)


def test_the_deal_is_deal_1_drawn_from_the_stream_across_its_blocks() -> None:
    """DEAL-1 and BID-1: the shuffle and the first bidder draw from the SHA-512 stream as
    ``moonrules.game.shuffle`` describes it (``tests/seeded_streams.py`` writes it out from
    ``hashlib``), a draw past the first 64 bytes from the next block, and
    :class:`~moonrules.game.shuffle.Dealer` deals what ``new_game`` deals; both forms."""
    shuffles = [__import__("moonrules.game.shuffle", fromlist=["Dealer"])]
    if is_compiled(shuffles[0]):
        shuffles.append(source_form("moonrules.game.shuffle"))
    for shuffle in shuffles:
        for preset in ("standard", "partnership", "pagat"):
            rules = PRESETS[preset]
            for seed in (0, 7, -3, 2**70):
                for number in (1, 2, 33):
                    expected = seeded_streams.deal_order(
                        [t.index for t in rules.tile_set.tiles], seed, number
                    )
                    assert shuffle.shuffled(rules, seed, number) == expected
                    masks, widow = shuffle.Dealer(rules).masks(seed, number)
                    assert (masks, widow) == shuffle.dealt_masks(rules, seed, number)
                    assert widow == (expected[-1] if rules.has_widow else -1)
                    assert masks == [
                        sum(1 << i for i in expected[7 * s : 7 * s + 7])
                        for s in range(rules.players)
                    ]
            assert shuffle.Dealer(rules).masks(5, 1)[0] == list(new_game(preset, 5).hand.hands)
        # 200 one-byte draws (a position 1 takes the top bit of each byte) cross three blocks
        for text in ("x", "moonrules/deal/1/1"):
            stream = seeded_streams.stream(text)
            pool = shuffle.shuffle_with([0, 1], ((1, 1),) * 200, text)
            want = [0, 1]
            for _ in range(200):
                if next(stream) >> 7:
                    want.reverse()
            assert pool == want
            assert shuffle.stream_block(text, 2) == hashlib.sha512(f"{text}/2".encode()).digest()


def test_the_first_bidder_is_bid_1s_draw_and_a_new_engine_is_new_game(core: ModuleType) -> None:
    """BID-1: the first bidder drawn from the seed is a draw from 0 to ``players - 1`` from
    the stream of ``moonrules/first-bidder/{seed}`` (both forms); an engine made from a seed
    is the game ``new_game`` makes, and what it refuses, ``new_game`` refuses alike."""
    shuffles = [__import__("moonrules.game.shuffle", fromlist=["Dealer"])]
    if is_compiled(shuffles[0]):
        shuffles.append(source_form("moonrules.game.shuffle"))
    for shuffle in shuffles:
        seen = set()
        for seed in (*range(-20, 200), 2**70, -(2**64)):
            for players in (3, 4):
                want = seeded_streams.first_bidder(seed, players)
                assert shuffle.first_bidder(seed, players) == want
                seen.add((players, want))
        assert seen == {(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)}
    for preset in ("standard", "partnership"):
        for seed in range(40):
            for first in (None, 0, 2):
                e = core.Engine(preset, seed, first)
                assert e.to_state() == new_game(preset, seed, first_bidder=first)
                assert e.legal_ids() == core.Engine.from_state(e.to_state()).legal_ids()
    for args in (("standard", 1, 3), ("standard", 1, -1), ("standard", True), ("nope", 1),
                 ("standard", 10**5000), ("standard", 1, 1.0), (7, 1)):  # fmt: skip
        with pytest.raises(Exception) as want:  # (the error is compared)
            new_game(args[0], *args[1:2], first_bidder=args[2] if len(args) > 2 else None)
        with pytest.raises(type(want.value)) as got:
            core.Engine(*args)
        assert str(got.value) == str(want.value)


def test_the_playout_generator_is_as_documented(core: ModuleType) -> None:
    for seed in (0, 1, 12345, 2**32, 2**32 + 7, -5):
        x = core.generator_state(seed)
        assert x == generator_state(seed)
        for _ in range(50):
            x, y = core.next_state(x), next_state(x)
            assert x == y and 0 < x < 2**32


def test_resample_draws_what_the_bots_resampler_draws(core: ModuleType) -> None:
    """``Engine.resample`` is ``moonrules.bots.resample.resample`` of the seat's view."""
    rng = random.Random(8)
    state = new_game("standard", seed=8)
    for _ in range(14):
        state = apply(state, rng.choice(legal_actions(state)))
    engine = core.Engine.from_state(state)
    for seat in range(3):
        drawn = engine.resample(seat, random.Random(seat))
        expected = resample(view(state, seat), random.Random(seat))
        assert_same(drawn, expected)
        assert view(drawn.to_state(), seat) == view(state, seat)
    assert engine.to_state() == state
    with pytest.raises(TypeError, match="seat: expected a seat number"):
        engine.resample("1", rng)
