"""The JAX form of the batched engine (moonrules.engine.batch_jax) in lockstep with Engine.

Every game of a jitted, vmapped batch is stepped beside an :class:`~moonrules.engine.Engine`
on the same deals (the JAX form's own deals, put into the engine with ``with_deal``): after
every step the legal mask, the observation of the seat to act, the seat to act, the scores
and the hand number are equal, the rewards are the engine's score changes, and a game ends
(``done``, its winner) exactly when the engine's does, then starts again at once from a
new deal (scores at zero, hand 1). The pgx environment is held to the engine the same way
until its games end. Each rule set's functions compile once for the module (the compile
time is most of this module's time). Deeper runs behind ``MOONRULES_DEEP``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import pytest

# Compiling is most of this module's time: XLA's backend compiles here without its LLVM
# optimisations (the programs compute the same integers; bench/batch.py times the programs
# as a user gets them). Read when jax first compiles, which nothing before this module does.
os.environ.setdefault("XLA_FLAGS", "--xla_backend_optimization_level=0")
jax = pytest.importorskip(
    "jax", reason="the JAX batch needs jax (extra [jax]: pip install 'moonrules[jax]')"
)
import numpy as np  # noqa: E402

from moonrules.engine import Engine  # noqa: E402
from moonrules.engine.batch import Batch, batch_tables  # noqa: E402
from moonrules.engine.batch_jax import (  # noqa: E402
    Games,
    JaxFunctions,
    deal_of,
    functions_for,
    hands_played,
)
from moonrules.game.deal import new_game, with_deal  # noqa: E402
from moonrules.game.state import make_game, make_state  # noqa: E402
from moonrules.rules.ruleset import PRESETS, rules_by_name  # noqa: E402

DEEP = bool(os.environ.get("MOONRULES_DEEP"))

# Compiling the programs of each rule set takes most of a minute of a core: the module runs
# in CI's step of slow checks (MOONRULES_SLOW=1), not in the README's test command.
pytestmark = pytest.mark.slow

N = 12
"""Games in a batch, the same in every test: a program is compiled per shape of rule set
and batch size, and compiling is most of this module's time."""

LOCKSTEP_PRESETS = [
    "standard",
    "partnership",
    "pagat",  # the widow after trump
    "lead-trump",
    "partnership-forced",  # all pass: the last caller is forced
    "marks",
    "bidder-out",  # a tie at the top: the bidder's side goes out
]


def _new_engine(f: JaxFunctions, games: Games, i: int) -> Engine:
    """The engine of game ``i`` in its first hand, on the JAX form's deal and first bidder,
    with the game's scores (zero for a new game)."""
    state = new_game(f.rules, seed=0, first_bidder=int(np.asarray(games.first_bidder)[i]))
    scores = tuple(np.asarray(games.scores)[i].tolist())
    game = make_game(f.rules, 0, scores, (), None, True, None, None)
    return Engine.from_state(with_deal(make_state(game, state.hand), deal_of(games, i)))


def _near_the_end(f: JaxFunctions, games: Games) -> Games:
    """The first half of the games started a few points (or marks) from the target, each
    side its own distance, so that games end, and new ones start, within a few hands."""
    n = games.scores.shape[0]
    target = f.rules.target
    near = [
        [
            max(0, target - 1 - (3 * i + 2 * s) % (2 + target // 4)) if i < n // 2 else 0
            for s in range(f.sides)
        ]
        for i in range(n)
    ]
    return games._replace(scores=jax.numpy.asarray(np.array(near, dtype=np.int32)))


def _check(f: JaxFunctions, games: Games, engines: list[Engine]) -> None:
    """Everything the JAX form says of each game equals its engine's."""
    mask = np.asarray(f.legal_action_mask(games))
    assert mask.shape == (len(engines), f.num_actions) and mask.dtype == np.bool_
    obs = np.asarray(f.observe(games))
    assert obs.shape == (len(engines), f.observation_size) and obs.dtype == np.float32
    to_act = np.asarray(games.to_act)
    scores = np.asarray(games.scores)
    number = np.asarray(games.hand_number)
    for i, e in enumerate(engines):
        assert np.flatnonzero(mask[i]).tolist() == e.legal_ids(), i
        assert int(to_act[i]) == e.to_act
        assert tuple(scores[i].tolist()) == e.scores
        assert int(number[i]) == e.hand_number
        expected = np.array(e.observe(e.to_act), dtype=np.float32)
        assert np.array_equal(obs[i], expected), (i, np.flatnonzero(obs[i] != expected))


def lockstep(preset: str, n: int, seed: int, steps: int) -> list[int]:
    """Step ``n`` JAX games and their engines ``steps`` times; the steps at which some game
    ended."""
    f = functions_for(preset)
    games = _near_the_end(f, f.init(seed, n))
    engines = [_new_engine(f, games, i) for i in range(n)]
    key = jax.random.PRNGKey(seed + 99)
    ended: list[int] = []
    for k in range(steps):
        _check(f, games, engines)
        key, sub = jax.random.split(key)
        actions = np.asarray(f.random_actions(games, sub))
        before = [e.scores for e in engines]
        games = f.step(games, actions)
        rewards = np.asarray(games.rewards)
        done = np.asarray(games.done)
        winner = np.asarray(games.winner)
        for i, e in enumerate(engines):
            number = e.hand_number
            e.step(int(actions[i]))
            deltas = [a - b for a, b in zip(e.scores, before[i], strict=True)]
            assert rewards[i].tolist() == [float(x) for x in deltas]
            assert bool(done[i]) == e.is_over
            if e.is_over:
                assert int(winner[i]) == e.winner
                ended.append(k)
                engines[i] = _new_engine(f, games, i)  # the new game, dealt at once
                assert int(np.asarray(games.hand_number)[i]) == 1
            else:
                assert int(winner[i]) == -1
                if e.hand_number != number:  # the next hand, on the JAX form's deal
                    engines[i] = Engine.from_state(with_deal(e.to_state(), deal_of(games, i)))
    _check(f, games, engines)
    assert hands_played(games) > 0
    assert int(np.sum(np.asarray(games.games_played))) == len(ended)
    return ended


@pytest.mark.parametrize("preset", LOCKSTEP_PRESETS)
def test_every_jax_game_in_lockstep_with_engine(preset: str) -> None:
    n, steps = (32, 1200) if DEEP else (N, 150)
    ended = lockstep(preset, n, 7, steps)
    assert len(set(ended)) >= 3, "games should end (and be reset) at different steps"


@pytest.mark.skipif(not DEEP, reason="every preset in lockstep: set MOONRULES_DEEP=1")
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_in_lockstep_deep(preset: str) -> None:
    lockstep(preset, 16, 31, 1000)


def test_the_deals_are_reproducible_and_whole() -> None:
    """The same key gives the same games; each deal is the rule set's tiles, 7 a seat,
    the widow the one left; games of one batch are dealt differently."""
    f = functions_for("standard")
    a = f.init(jax.random.PRNGKey(5), N)
    b = f.init(5, N)  # an int is the seed of PRNGKey
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(np.asarray(x), np.asarray(y))
    tiles = batch_tables(f.rules).tiles.tolist()
    dealt = np.asarray(a.dealt)
    seen = set()
    for i in range(N):
        masks = [int(m) for m in dealt[i]]
        assert all(bin(m).count("1") == 7 for m in masks)
        assert sum(masks) | 1 << int(np.asarray(a.widow)[i]) == sum(1 << t for t in tiles)
        seen.add(tuple(masks))
    assert len(seen) == N
    assert set(np.asarray(a.first_bidder).tolist()) == {0, 1, 2}


def test_the_random_choice_is_as_documented() -> None:
    """``u = jax.random.uniform(key, (n,))``; the k-th legal id, k = floor(u * count)."""
    f = functions_for("partnership")
    games = f.init(3, N)
    key = jax.random.PRNGKey(4)
    for _ in range(30):
        key, sub = jax.random.split(key)
        mask = np.asarray(f.legal_action_mask(games))
        u = np.asarray(jax.random.uniform(sub, (N,)))
        a = np.asarray(f.random_actions(games, sub))
        for i in range(N):
            legal = np.flatnonzero(mask[i])
            assert a[i] == legal[int(u[i] * np.float32(len(legal)))]
        games = f.step(games, a)


def test_play_random_is_the_steps_of_random_actions() -> None:
    """``play_random(games, key, steps)``: step ``j`` takes ``random_actions`` with the key
    ``jax.random.split(key, steps)[j]``; the same games as those steps one by one."""
    f = functions_for("marks")
    games = f.init(21, N)
    for _ in range(4):  # 4 x 8 steps: hands and games end on the way
        key = jax.random.PRNGKey(int(np.asarray(games.key)[0, 0]))
        fast = f.play_random(games, key, 8)
        for sub in jax.random.split(key, 8):
            games = f.step(games, f.random_actions(games, sub))
        for x, y in zip(fast, games, strict=True):
            assert np.array_equal(np.asarray(x), np.asarray(y))
    assert hands_played(games) > 0


def test_the_jax_form_and_the_numpy_batch_agree_on_the_same_games() -> None:
    """Both batched forms on the same deal: the numpy batch's game ``i`` made from the JAX
    game's deal (one game each), the same actions, the same masks and observations until
    the first hand ends."""
    f = functions_for("standard")
    games = f.init(11, N)
    b = Batch("standard", N, 0, deals="fast")
    # put the JAX deals into the numpy batch's arrays (its state is a struct of arrays)
    b._dealt[:] = np.asarray(games.dealt).T
    b._hands[:] = np.asarray(games.hands).T
    b.widow[:] = np.asarray(games.widow)
    b.first_bidder[:] = np.asarray(games.first_bidder)
    b.to_act[:] = np.asarray(games.to_act)
    b._ids = None
    key = jax.random.PRNGKey(2)
    for _ in range(20):
        assert np.array_equal(np.asarray(f.legal_action_mask(games)), b.legal_mask())
        assert np.array_equal(np.asarray(f.observe(games)), b.observe())
        key, sub = jax.random.split(key)
        a = np.asarray(f.random_actions(games, sub))
        games = f.step(games, a)
        b.step(a.astype(np.int64))
        assert np.array_equal(np.asarray(games.rewards), b.rewards)


@pytest.mark.parametrize(
    ("call", "kind", "text"),
    [
        (lambda: functions_for("standard").init(0, 0), ValueError, "n: a batch holds 1 game"),
        (
            lambda: functions_for("standard").init(0, 2.0),  # type: ignore[arg-type]
            TypeError,
            "n: expected a whole number",
        ),
        (
            lambda: functions_for("standard").init("0", 2),  # type: ignore[arg-type]
            TypeError,
            "key: expected a jax.random key",
        ),
        (
            lambda: functions_for("standard").init(np.zeros(3, np.uint32), 2),
            ValueError,
            r"key: expected a uint32\[2\] key",
        ),
        (lambda: functions_for("nonesuch"), ValueError, "no rule set is called"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(call: object, kind: type, text: str) -> None:
    with pytest.raises(kind, match=text) as info:
        call()  # type: ignore[operator]
    assert "\n" not in str(info.value)


def test_the_functions_are_built_once_per_rule_set() -> None:
    rules = rules_by_name("pagat")
    assert functions_for(rules) is functions_for("pagat")
    assert functions_for(rules).num_actions == 58


pgx = pytest.importorskip("pgx", reason="the pgx environment needs pgx (extra [jax])")
from pgx._src import api_test  # type: ignore[import-untyped]  # noqa: E402  (pgx's checks)

SHORT = attrs.evolve(rules_by_name("marks"), target=2)
"""The pgx environment's rules in these tests: marks to 2, so that random games end within a
few hands (to 7 marks, or 21 points, a random game takes hundreds or thousands of steps)."""

PGX_BATCH = 4
"""Games in a pgx batch: pgx's ``api_test_batch`` plays 4 at a time, and these tests play as
many, so that its checks run the programs compiled here."""


class _Memo:
    """``jax.jit`` and ``jax.vmap`` memoised per function, for pgx's ``api_test`` module: it
    wraps ``env.init`` and ``env.step`` afresh (``jax.jit(jax.vmap(env.step))``), and jax
    keeps a compiled program per jitted function, so it would compile again what this
    module compiled (tens of seconds on a loaded machine). Everything else is jax's."""

    def __init__(self) -> None:
        self._vmapped: dict[object, object] = {}
        self._jitted: dict[object, object] = {}

    def vmap(self, fun: object) -> object:
        if fun not in self._vmapped:
            self._vmapped[fun] = jax.vmap(fun)
        return self._vmapped[fun]

    def jit(self, fun: object) -> object:
        if fun not in self._jitted:
            self._jitted[fun] = jax.jit(fun)
        return self._jitted[fun]

    def __getattr__(self, name: str) -> object:
        return getattr(jax, name)


MEMO = _Memo()


@pytest.fixture(scope="module")
def short_env() -> object:
    from moonrules.engine.batch_pgx import pgx_env

    return pgx_env(SHORT)


def _pgx_ids(env: object) -> object:
    """pgx's ``EnvId`` (the ids ``_validate_state`` admits: pgx's own games only) with the id
    of ``env`` added."""
    from typing import Literal, get_args

    return Literal[(*get_args(api_test.EnvId), env.id)]  # type: ignore[attr-defined]


def test_the_pgx_environment_in_lockstep_with_engine(
    short_env: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pgx's ``jax.vmap(env.init)`` / ``jax.vmap(env.step)`` on games of the marks rules (to 2
    marks), each beside its engine until it ends: the seat to act, the mask, the
    observation, the rewards per player (the side's score change) and the end of the game;
    a finished game stays terminal, with pgx's all-True mask and zero rewards. At every step
    each game's state passes pgx's own state checks (``_validate_state``, the seat to act,
    the terminal mask, zero rewards at ``init``), and ``state.env_id`` is ``env.id``."""
    env: Any = short_env
    assert isinstance(env, pgx.Env)
    assert env.num_players == 3 and env.id == "moonrules-custom"
    assert pgx_env_of("marks").id == "moonrules-marks"
    monkeypatch.setattr(api_test, "EnvId", _pgx_ids(env))
    f = functions_for(SHORT)
    n = PGX_BATCH
    init = MEMO.jit(MEMO.vmap(env.init))
    step = MEMO.jit(MEMO.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(8), n))  # type: ignore[operator]
    _pgx_checks(env, state, n, first=True)
    games = state._games
    engines = [_new_engine(f, games, i) for i in range(n)]
    side_of = batch_tables(f.rules).side_of
    key = jax.random.PRNGKey(9)
    finished = [False] * n
    counts = [0] * n
    for _ in range(2000):
        if all(finished):
            break
        mask = np.asarray(state.legal_action_mask)
        obs = np.asarray(state.observation)
        for i, e in enumerate(engines):
            if finished[i]:
                assert mask[i].all() and bool(np.asarray(state.terminated)[i])
                continue
            assert int(np.asarray(state.current_player)[i]) == e.to_act
            assert np.flatnonzero(mask[i]).tolist() == e.legal_ids()
            assert np.array_equal(obs[i], np.array(e.observe(e.to_act), dtype=np.float32))
        key, k1, k2 = jax.random.split(key, 3)
        actions = np.asarray(f.random_actions(state._games, k1))
        actions = np.where(finished, 0, actions)
        before = [e.scores for e in engines]
        state = step(state, actions, jax.random.split(k2, n))  # type: ignore[operator]
        counts = [c + (not done) for c, done in zip(counts, finished, strict=True)]
        assert np.asarray(state._step_count).tolist() == counts  # a terminal state stays
        _pgx_checks(env, state, n, first=False)
        rewards = np.asarray(state.rewards)
        terminated = np.asarray(state.terminated)
        for i, e in enumerate(engines):
            if finished[i]:
                assert not rewards[i].any()
                continue
            number = e.hand_number
            e.step(int(actions[i]))
            deltas = [a - b for a, b in zip(e.scores, before[i], strict=True)]
            assert rewards[i].tolist() == [float(deltas[side_of[s]]) for s in range(3)]
            assert bool(terminated[i]) == e.is_over
            if e.is_over:
                finished[i] = True
                assert tuple(np.asarray(state._games.scores)[i].tolist()) == e.scores
            elif e.hand_number != number:
                deal = deal_of(state._games, i)
                engines[i] = Engine.from_state(with_deal(e.to_state(), deal))
    assert all(finished)


def pgx_env_of(rules: str) -> Any:
    from moonrules.engine.batch_pgx import pgx_env

    return pgx_env(rules)


def _pgx_checks(env: Any, state: Any, n: int, *, first: bool) -> None:
    """pgx's own checks of a state (``pgx._src.api_test``), on each game of a batch."""
    host = jax.device_get(state)
    for i in range(n):
        one = jax.tree_util.tree_map(lambda x, i=i: x[i], host)
        assert one.env_id == env.id
        api_test._validate_state(one)
        api_test._validate_legal_actions(one)
        if not bool(one.terminated):
            api_test._validate_current_player(one)
        if first:
            api_test._validate_init_reward(one)
            assert one.legal_action_mask.sum() != 0


def test_pgx_api_test_batch(short_env: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """pgx's own ``api_test_batch``: random games of 4 to their end, then ``state.save_svg``.

    pgx 2.6's single-state ``api_test`` (``api_test_single``) is not run: it fails for every
    game, pgx's own tic-tac-toe included (``pgx.make("tic_tac_toe")``: its ``act_randomly``
    draws ``jax.random.categorical(..., axis=1)`` from a single state's one-dimensional mask:
    ``IndexError: index 1 is out of bounds for axis 0 with size 1``). Its state checks run on
    every step of the lockstep test above instead."""
    monkeypatch.setattr(api_test, "jax", MEMO)
    api_test.api_test_batch(short_env, num=1)


def test_a_moon_state_has_a_picture(short_env: object, tmp_path: Path) -> None:
    """pgx's visualizer draws only pgx's games: a Moon state draws itself (``to_svg``,
    ``save_svg``): each seat's tiles, the widow, the seat to act, the scores; a batch one
    game below the other."""
    import xml.etree.ElementTree as ET

    from moonrules.engine.batch_pgx import state_svg

    env: Any = short_env
    init = MEMO.jit(MEMO.vmap(env.init))
    batch = init(jax.random.split(jax.random.PRNGKey(3), PGX_BATCH))  # type: ignore[operator]
    one = jax.tree_util.tree_map(lambda x: x[0], batch)
    path = tmp_path / "moon.svg"
    one.save_svg(path)
    root = ET.fromstring(path.read_text())
    tiles = [str(g.get("data-tile")) for g in root.iter("{http://www.w3.org/2000/svg}g")]
    dealt = deal_of(batch._games, 0)
    assert sorted(tiles) == sorted(
        [str(t) for hand in dealt.hands for t in hand] + [str(dealt.widow)]
    )
    assert "Seat 1" in one.to_svg() and "▶" in one.to_svg()
    many = ET.fromstring(state_svg(SHORT, batch._games))
    assert len([g for g in many.iter("{http://www.w3.org/2000/svg}g")]) == PGX_BATCH * 22
