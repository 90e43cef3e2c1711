"""The batched engine (moonrules.engine.batch) in lockstep with Engine, game by game.

Every game of a batch is stepped beside an :class:`~moonrules.engine.Engine` on the same
deals (DEAL-1's for ``deals="seeded"``; the batch's own, put in by ``with_deal``, for
``deals="fast"``): after every step the legal ids, the seat to act, the observation, the
scores, the hand number and the reference state of the hand are equal, the rewards are the
engine's score changes, and a game ends (``done``) exactly when the engine's does, then
starts again from the next unused seed. Deeper runs (more games, more steps, every preset)
behind ``MOONRULES_DEEP``.
"""

from __future__ import annotations

import itertools
import os

import pytest

np = pytest.importorskip("numpy", reason="the batched engine needs numpy (extra [batch])")

from moonrules.engine import Engine  # noqa: E402
from moonrules.engine.batch import Batch, batch_tables, decided_winners  # noqa: E402
from moonrules.engine.batch_tables import decided_columns, decided_sides  # noqa: E402
from moonrules.engine.tables import PLAY  # noqa: E402
from moonrules.game.deal import new_game, with_deal  # noqa: E402
from moonrules.rules.ruleset import PRESETS, rules_by_name  # noqa: E402
from moonrules.rules.scoring import decided_winner  # noqa: E402

DEEP = bool(os.environ.get("MOONRULES_DEEP"))

LOCKSTEP_PRESETS = [
    "standard",
    "partnership",
    "pagat",  # the widow after trump
    "lead-trump",
    "partnership-forced",  # all pass: the last caller is forced
    "marks",
    "bidder-out",
]


def _engine(b: Batch, i: int) -> Engine:
    """The engine of game ``i`` of ``b`` as it was dealt (a new game)."""
    seed = b.seeds[i]
    if b.deals == "seeded":
        return Engine(b.rules, seed=seed)
    state = new_game(b.rules, seed=seed, first_bidder=int(b.first_bidder[i]))
    return Engine.from_state(with_deal(state, b.deal(i)))


def _check(b: Batch, engines: list[Engine], full: bool) -> None:
    """Everything the batch says of each game equals its engine's."""
    mask = b.legal_mask()
    assert mask.shape == (b.n, b.num_actions) and mask.dtype == np.bool_
    obs = b.observe()
    assert obs.shape == (b.n, b.observation_size) and obs.dtype == np.float32
    for i, e in enumerate(engines):
        assert np.flatnonzero(mask[i]).tolist() == e.legal_ids(), i
        assert int(b.to_act[i]) == e.to_act
        assert tuple(int(x) for x in b.scores[i]) == e.scores
        assert int(b.hand_number[i]) == e.hand_number
        assert b.seeds[i] == e.seed or b.deals == "fast"
        expected = np.array(e.observe(int(b.to_act[i])), dtype=np.float32)
        assert np.array_equal(obs[i], expected), (i, np.flatnonzero(obs[i] != expected))
        if full:
            state = e.to_state()
            mine = b.state(i)
            assert mine.hand == state.hand
            assert mine.scores == state.scores


def lockstep(preset: str, n: int, seed: int, deals: str, steps: int) -> list[int]:
    """Step a batch and its engines ``steps`` times; the steps at which some game ended."""
    b = Batch(preset, n, seed, deals=deals)
    engines = [_engine(b, i) for i in range(n)]
    rng = np.random.default_rng(seed + 99)
    ended = []
    for k in range(steps):
        _check(b, engines, full=k % 3 == 0)
        actions = b.random_actions(rng)
        before = [e.scores for e in engines]
        b.step(actions)
        for i, e in enumerate(engines):
            number = e.hand_number
            e.step(int(actions[i]))
            after = e.scores
            assert [float(x) for x in b.rewards[i]] == [
                a - z for a, z in zip(after, before[i], strict=True)
            ]
            assert bool(b.done[i]) == e.is_over
            if e.is_over:
                assert int(b.winner[i]) == e.winner
                ended.append(k)
                engines[i] = _engine(b, i)  # the next unused seed
                assert b.seeds[i] == seed + n + len(ended) - 1 or len(set(ended)) < len(ended)
            else:
                assert int(b.winner[i]) == -1
                if e.hand_number != number and deals == "fast":
                    engines[i] = Engine.from_state(with_deal(e.to_state(), b.deal(i)))
    _check(b, engines, full=True)
    assert b.hands_played > 0
    return ended


@pytest.mark.parametrize("deals", ["seeded", "fast"])
@pytest.mark.parametrize("preset", LOCKSTEP_PRESETS)
def test_every_game_of_a_batch_in_lockstep_with_engine(preset: str, deals: str) -> None:
    n, steps = (32, 1500) if DEEP else (20, 320)
    ended = lockstep(preset, n, 1, deals, steps)
    assert len(set(ended)) >= 2, "games should end (and be reset) at different steps"


@pytest.mark.skipif(not DEEP, reason="every preset in lockstep: set MOONRULES_DEEP=1")
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_in_lockstep_deep(preset: str) -> None:
    for deals in ("seeded", "fast"):
        lockstep(preset, 16, 31, deals, 1000)


def test_seeds_of_the_games_and_of_their_resets() -> None:
    """Game i starts with seed + i; each reset takes the next unused seed, in game order."""
    b = Batch("marks", 5, 100)
    assert b.seeds == [100, 101, 102, 103, 104]
    rng = np.random.default_rng(3)
    expected = list(b.seeds)
    nxt = 105
    for _ in range(400):
        b.step(b.random_actions(rng))
        for i in np.flatnonzero(b.done).tolist():  # ascending: game order
            expected[i] = nxt
            nxt += 1
        assert b.seeds == expected
    assert nxt > 106 and b.games_played == nxt - 105


@pytest.mark.parametrize("deals", ["seeded", "fast"])
def test_the_random_choice_is_reproducible_and_as_documented(deals: str) -> None:
    runs = []
    for _ in range(2):
        b = Batch("standard", 50, 5, deals=deals)
        rng = np.random.default_rng(11)
        chosen = []
        for _ in range(60):
            mask = b.legal_mask()
            copy = np.random.default_rng()
            copy.bit_generator.state = rng.bit_generator.state
            draws = copy.random(b.n)  # the documented rule, written out game by game
            a = b.random_actions(rng)
            for i in range(b.n):
                legal = np.flatnonzero(mask[i])
                assert a[i] == legal[int(draws[i] * len(legal))]
            chosen.append(a.copy())
            b.step(a)
        runs.append((np.array(chosen), b.scores.copy(), b.observe()))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])
    assert np.array_equal(runs[0][2], runs[1][2])


def _arrays(b: Batch) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in vars(b).items():
        if isinstance(v, np.ndarray):
            out[k] = v.copy()
        elif isinstance(v, (int, str)):
            out[k] = v
    return out


def _same(x: dict[str, object], y: dict[str, object]) -> bool:
    if x.keys() != y.keys():
        return False
    for k, v in x.items():
        w = y[k]
        if isinstance(v, np.ndarray):
            assert isinstance(w, np.ndarray)
            if not np.array_equal(v, w):
                return False
        elif v != w:
            return False
    return True


@pytest.mark.parametrize("preset", ["standard", "partnership", "lead-trump"])
def test_an_illegal_id_is_refused_in_one_line_before_anything_changes(preset: str) -> None:
    b = Batch(preset, 8, 2)
    rng = np.random.default_rng(4)
    for k in range(120):
        a = b.random_actions(rng)
        if k % 10 == 9:
            mask = b.legal_mask()
            i = k % b.n
            illegal = np.flatnonzero(~mask[i])
            bad = a.copy()
            bad[i] = illegal[k % len(illegal)]
            before = _arrays(b)
            with pytest.raises(ValueError) as info:
                b.step(bad)
            message = str(info.value)
            assert "\n" not in message
            assert message.startswith(f"actions[{i}]: id {bad[i]} ")
            assert f"game {i}" in message and message.endswith(")")
            # the reference's clause, in brackets at the end (e.g. FOLLOW-2, TURN-1, BID-3)
            assert message.rsplit("(", 1)[1][:-1].split("-")[0].isupper()
            assert _same(before, _arrays(b))
            bad[i] = b.num_actions
            with pytest.raises(ValueError, match=rf"^actions\[{i}\]: ids run from 0 to"):
                b.step(bad)
            assert _same(before, _arrays(b))
        b.step(a)


def test_drawn_ids_changed_in_place_are_checked_again() -> None:
    """The step takes ``random_actions``' ids for the state as legal without the full check,
    but only while they are unchanged: the same array with an illegal id put in is refused."""
    b = Batch("standard", 6, 3)
    twin = Batch("standard", 6, 3)  # stepped by the same ids, never drawn by itself
    rng = np.random.default_rng(8)
    for k in range(60):
        a = b.random_actions(rng)
        kept = a.copy()
        mask = b.legal_mask()
        i = k % b.n
        illegal = np.flatnonzero(~mask[i])
        a[i] = illegal[k % len(illegal)]
        with pytest.raises(ValueError, match=rf"^actions\[{i}\]: id {a[i]} "):
            b.step(a)
        b.step(kept)
        twin.step(kept)
        assert np.array_equal(b.hands, twin.hands) and np.array_equal(b.scores, twin.scores)
        assert np.array_equal(b.legal_ids(), twin.legal_ids())


def test_the_clause_of_a_refusal_is_the_reference_one() -> None:
    """A play that does not follow the suit led is refused with the reference's clause."""
    b = Batch("standard", 40, 9)
    rng = np.random.default_rng(1)
    found = False
    for _ in range(200):
        mask = b.legal_mask()
        for i in range(b.n):
            st = b.state(i)
            h = st.hand
            if h.phase.name == "PLAY" and h.trick and not mask[i].all():
                e = Engine.from_state(st)
                held = [x for x in range(b.num_actions) if not mask[i, x]]
                plays = [x for x in held if x >= b.bt.play_base]
                playable = [
                    x for x in plays if int(b.hands[i, int(b.to_act[i])]) >> int(b.bt.arg[x]) & 1
                ]
                if playable:
                    bad = b.random_actions(np.random.default_rng(0))
                    bad[i] = playable[0]
                    with pytest.raises(ValueError) as info:
                        b.step(bad)
                    with pytest.raises(Exception) as ref:
                        e.step(playable[0])
                    assert f"({ref.value.rule})" in str(info.value)  # type: ignore[attr-defined]
                    found = True
                    break
        if found:
            break
        b.step(b.random_actions(rng))
    assert found


@pytest.mark.parametrize(
    ("call", "kind", "text"),
    [
        (lambda: Batch("standard", 0, 1), ValueError, "n: a batch holds 1 game or more"),
        (lambda: Batch("standard", -3, 1), ValueError, "n: a batch holds 1 game or more"),
        (
            lambda: Batch("standard", 2.0, 1),  # type: ignore[arg-type]
            TypeError,
            "n: expected a whole number",
        ),
        (
            lambda: Batch("standard", 2, "1"),  # type: ignore[arg-type]
            TypeError,
            "seed: expected a whole number",
        ),
        (lambda: Batch("standard", 2, 1, deals="mine"), ValueError, "deals: 'seeded' or 'fast'"),
        (lambda: Batch("nonesuch", 2, 1), ValueError, "no rule set is called"),
        (
            lambda: Batch("standard", 3).step([0, 0, 0]),  # type: ignore[arg-type]
            TypeError,
            "actions: expected a numpy",
        ),
        (
            lambda: Batch("standard", 3).step(np.zeros(3, dtype=np.float64)),
            TypeError,
            "actions: expected an integer array",
        ),
        (
            lambda: Batch("standard", 3).step(np.zeros(4, dtype=np.int64)),
            ValueError,
            r"actions: expected shape \(3,\)",
        ),
        (
            lambda: Batch("standard", 3).step(np.zeros((3, 1), dtype=np.int64)),
            ValueError,
            r"actions: expected shape \(3,\)",
        ),
        (
            lambda: Batch("standard", 3).random_actions(np.random.RandomState(1)),
            TypeError,
            "generator: expected a numpy.random.Generator",
        ),
        (lambda: Batch("standard", 3).state(3), ValueError, "game: games are numbered 0 to 2"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(call: object, kind: type, text: str) -> None:
    with pytest.raises(kind, match=text) as info:
        call()  # type: ignore[operator]
    assert "\n" not in str(info.value)


def test_int32_and_unsigned_ids_are_taken() -> None:
    for dtype in (np.int32, np.uint8, np.int16):
        b = Batch("standard", 4, 1)
        a = b.random_actions(np.random.default_rng(2)).astype(dtype)
        b.step(a)


@pytest.mark.parametrize("name", ["standard", "bidder-out", "partnership", "marks"])
def test_decided_winners_is_decided_winner_over_a_grid(name: str) -> None:
    """Exhaustive over every score of each side from -3 to target + 3, every bidder side."""
    rules = rules_by_name(name)
    values = range(-3, rules.target + 4)
    grid = list(itertools.product(values, repeat=rules.sides))
    for side in range(rules.sides):
        expected = [decided_winner(rules, s, side) for s in grid]
        got = decided_winners(rules, np.array(grid), np.full(len(grid), side))
        assert [-1 if w is None else w for w in expected] == got.tolist()


@pytest.mark.parametrize("name", ["standard", "partnership", "bidder-out"])
def test_the_step_s_decided_sides_is_decided_columns(name: str) -> None:
    """The step's form over ``[sides, m]`` and the column form agree over a grid of scores."""
    rules = rules_by_name(name)
    values = range(-3, rules.target + 4)
    grid = np.array(list(itertools.product(values, repeat=rules.sides)))
    for side in range(rules.sides):
        sides = np.full(len(grid), side)
        by_columns = decided_columns(rules, list(grid.T), sides)
        assert np.array_equal(decided_sides(rules, grid.T, sides), by_columns)


def test_the_tables_are_built_once_per_rule_set() -> None:
    rules = rules_by_name("pagat")
    assert batch_tables(rules) is batch_tables(rules)
    assert batch_tables(rules).size == Batch(rules, 1).num_actions == 58


def test_the_select_table_gives_the_kth_set_bit_of_every_chunk() -> None:
    """Exhaustive: ``random_actions`` finds the k-th legal id through this table."""
    from moonrules.engine.batch import _SELECT14

    for chunk in range(1 << 14):
        bits = [j for j in range(14) if chunk >> j & 1]
        assert _SELECT14[chunk * 16 : chunk * 16 + len(bits)].tolist() == bits, chunk


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_play_step_tables_of_every_preset(name: str) -> None:
    """The play step's tables by action id: each play id's tile bit and, under every trump
    and suit led, its strength (8 times); the strengths that can win a trick differ (the
    table's build refuses equal ones), so a trick's largest strength plus position is its
    winner's."""
    rules = rules_by_name(name)
    bt = batch_tables(rules)
    t = bt.engine_tables
    for a in range(bt.size):
        plays = t.kind[a] == PLAY
        assert bt.play_bit[a] == (1 << t.arg[a] if plays else 0)
        for ctx in range(72):
            value = int(bt.strength_of_id[ctx * bt.size + a])
            if plays:
                assert value == 8 * t.strength[ctx * 28 + t.arg[a]]
            else:
                assert value < -(1 << 16)
