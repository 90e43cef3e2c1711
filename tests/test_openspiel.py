"""The OpenSpiel games moonrules_hand and moonrules_game (moonrules.openspiel).

OpenSpiel's own checks (``pyspiel.random_sim_test``, with serialization) run on both
games for several presets; ``MOONRULES_DEEP=1`` runs more games on every preset.
"""

from __future__ import annotations

import random

import pytest
from depth import DEEP

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
np = pytest.importorskip("numpy", reason="the [openspiel] extra is not installed")


import moonrules.openspiel  # noqa: E402
from moonrules import PRESETS, Pass, apply, view  # noqa: E402
from moonrules.game.encoding import (  # noqa: E402
    ActionSpace,
    ObservationLayout,
    encode_information_state,
    encode_observation,
)
from moonrules.openspiel import MoonrulesBot, MoonState, standings_returns  # noqa: E402

QUICK_PRESETS = ["standard", "partnership", "pagat", "no-double-blank", "partnership-forced"]
PRESET_NAMES = sorted(PRESETS) if DEEP else QUICK_PRESETS


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_sim_test_on_the_hand_game(preset: str) -> None:
    game = pyspiel.load_game(f"moonrules_hand(rules={preset})")
    pyspiel.random_sim_test(game, num_sims=20 if DEEP else 2, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", ["standard", "partnership"] if not DEEP else PRESET_NAMES)
def test_random_sim_test_on_the_whole_game(preset: str) -> None:
    max_hands = 200 if DEEP else 2
    game = pyspiel.load_game(f"moonrules_game(rules={preset},max_hands={max_hands})")
    pyspiel.random_sim_test(game, num_sims=3 if DEEP else 1, serialize=True, verbose=False)


def _random_playthrough(game: object, seed: int) -> list[object]:
    """Every state of one random playthrough of ``game``, the terminal state last."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    line = [state]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            action = rng.choice(actions)
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(action)
        line.append(state)
    return line


@pytest.mark.parametrize("preset", ["standard", "partnership"])
def test_the_game_plays_moonrules_rules(preset: str) -> None:
    """Chance deals the tiles in order; the players' ids are the encoding's; the returns
    are the hand's score changes of moonrules' own replay of the same actions."""
    game = pyspiel.load_game(f"moonrules_hand(rules={preset})")
    rules = PRESETS[preset]
    space = ActionSpace(rules)
    for seed in range(3):
        line = _random_playthrough(game, seed)
        history = line[-1].history()
        tiles = len(rules.tile_set.tiles)
        dealt, moves = history[:tiles], history[tiles:]
        assert sorted(dealt) == sorted(t.index for t in rules.tile_set.tiles)
        state = line[tiles].moon_state
        assert [sorted(t.index for t in h) for h in state.hands] == [
            sorted(dealt[7 * s : 7 * s + 7]) for s in range(rules.players)
        ]
        assert state.first_bidder == 0
        for k, move in enumerate(moves):
            assert line[tiles + k].legal_actions() == [
                space.id_of(a) for a in moonrules.legal_actions(state)
            ]
            state = apply(state, space.action_of(move))
        done = state.history[-1]
        deltas = done.deltas or (0,) * rules.sides
        assert line[-1].returns() == [deltas[rules.side_of(p)] for p in range(rules.players)]


def test_tensors_and_strings_are_the_encodings() -> None:
    game = pyspiel.load_game("moonrules_hand")
    for state in _random_playthrough(game, 4)[30:]:
        s = state.moon_state
        shown = state.position.shown or s
        for p in range(3):
            v = view(shown, p)
            assert state.observation_tensor(p) == pytest.approx(encode_observation(v))
            assert state.information_state_tensor(p) == pytest.approx(encode_information_state(v))
            assert state.information_state_string(p).startswith(f"p{p} hand 1")


@pytest.mark.parametrize(
    "name", ["moonrules_hand(rules=partnership)", "moonrules_game(max_hands=2)"]
)
def test_the_states_own_answers_are_openspiels(name: str) -> None:
    """The state answers ``legal_actions``, ``is_chance_node`` and the tensors itself, from
    its engine: the same lists, float for float, as OpenSpiel's C++ asking the game (its
    observers, ``_legal_actions``), for every player, the one to act by default."""
    game = pyspiel.load_game(name)
    for seed in range(2):
        for state in _random_playthrough(game, seed):
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(game.num_players()):
                assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
                for mine, theirs in (
                    (MoonState.observation_tensor, pyspiel.State.observation_tensor),
                    (MoonState.information_state_tensor, pyspiel.State.information_state_tensor),
                ):
                    assert mine(state, p) == theirs(state, p)
                    if p == state.current_player():
                        assert mine(state) == theirs(state)
            if state.is_chance_node() or state.is_terminal():
                with pytest.raises(pyspiel.SpielError):
                    state.observation_tensor()


def test_the_whole_games_tensors_tell_the_hand_number() -> None:
    """The whole game ends after ``max_hands``: the same deal at hand 1 and at hand 4 (three
    thrown-in hands between them) are different information states, in the tensors as in
    the strings; the last float is the hands finished over ``max_hands``."""
    game = pyspiel.load_game("moonrules_game(max_hands=5)")
    size = ObservationLayout(PRESETS["standard"], history=False).size
    assert game.observation_tensor_shape() == [size + 1]
    s = game.new_initial_state()
    order = [i for i, _ in s.chance_outcomes()]
    states = []
    for _hand in range(4):
        for i in order:
            s.apply_action(i)
        states.append(s.clone())
        for _ in range(3):
            s.apply_action(game.space.id_of(Pass()))  # everyone passes: thrown in
    first, fourth = states[0], states[3]
    assert fourth.position.finished == 3
    for tensor in (pyspiel.State.observation_tensor, pyspiel.State.information_state_tensor):
        a, b = tensor(first, 0), tensor(fourth, 0)
        assert a[:-1] == b[:-1] and (a[-1], b[-1]) == (0.0, pytest.approx(3 / 5))
    assert first.information_state_string(0) != fourth.information_state_string(0)
    observer = game.make_py_observer()
    observer.set_from(fourth, 1)
    assert observer.dict["hands"].tolist() == [pytest.approx(0.6)]
    assert pyspiel.load_game("moonrules_hand").observation_tensor_shape() == [size]


def test_the_whole_game_is_zero_sum_and_truncated_by_the_stated_rule() -> None:
    game = pyspiel.load_game("moonrules_game(max_hands=1)")
    assert game.max_game_length() == 3 + 1 + 1 + 21
    for seed in range(4):
        last = _random_playthrough(game, seed)[-1]
        returns = last.returns()
        assert abs(sum(returns)) < 1e-9
        scores = last.moon_state.scores
        assert returns == pytest.approx(list(standings_returns(PRESETS["standard"], scores)))
    assert standings_returns(PRESETS["standard"], (5, 5, 1)) == (0.25, 0.25, -0.5)
    assert standings_returns(PRESETS["partnership"], (3, 9)) == (-1.0, 1.0, -1.0, 1.0)
    assert standings_returns(PRESETS["standard"], (2, 2, 2)) == (0.0, 0.0, 0.0)


def test_serialization_and_clones_keep_the_state() -> None:
    """A deserialized state and a clone equal the state; a clone holds its own engine: moving
    it on leaves the state as it was."""
    game = pyspiel.load_game("moonrules_game(rules=partnership,max_hands=3)")
    rng = random.Random(9)
    for state in _random_playthrough(game, 2)[::7]:
        copy = game.deserialize_state(state.serialize())
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.position == state.position
        before = (str(state), state.serialize(), state.legal_actions())
        clone = state.clone()
        assert clone.position is not state.position and clone.position == state.position
        assert clone.serialize() == state.serialize()
        if state.is_chance_node() or state.is_terminal():
            assert clone.position.engine is state.position.engine  # it does not change
        else:
            assert clone.position.engine is not state.position.engine
            for p in range(4):
                assert copy.information_state_string(p) == state.information_state_string(p)
                assert clone.observation_tensor(p) == state.observation_tensor(p)
        while not clone.is_terminal() and len(clone.history()) < len(state.history()) + 30:
            clone.apply_action(rng.choice(clone.legal_actions()))
            copy.apply_action(clone.history()[-1])  # a state read back moves on alike
        assert (str(state), state.serialize(), state.legal_actions()) == before
        assert copy.position == clone.position and str(copy) == str(clone)
        again = game.deserialize_state(copy.serialize())
        assert again.position == clone.position and again.history() == clone.history()


@pytest.mark.parametrize("name", ["moonrules_hand", "moonrules_game(max_hands=3)"])
def test_a_resampled_state_has_the_same_information_state(name: str) -> None:
    """``resample_from_infostate`` keeps what the player knows (string, tensor, legal
    actions) and redraws what it does not; OpenSpiel's sampler and a Random both work."""
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    differs = 0
    for k, state in enumerate(_random_playthrough(game, 5)):
        if state.is_terminal():
            continue
        for p in range(game.num_players()):
            sampler = rng if k % 2 else pyspiel.UniformProbabilitySampler(0.0, 1.0)
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.current_player() == state.current_player()
            if state.current_player() == p:
                assert other.legal_actions() == state.legal_actions()
            differs += str(other) != str(state)
    assert differs > 0


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match=r"no rule set is called"):
        pyspiel.load_game("moonrules_hand(rules=chess)")
    with pytest.raises(Exception, match=r"max_hands: at least 1"):
        pyspiel.load_game("moonrules_game(max_hands=0)")
    with pytest.raises(ValueError, match=r"iig_obs_type"):
        pyspiel.load_game("moonrules_hand").make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
        )


def test_is_mcts_plays_moonrules_bots_through_evaluate_bots() -> None:
    """OpenSpiel's Python IS-MCTS, with the resampler, against two ``basic`` bots; the match
    reported in the guide is ``examples/gameai_ismcts.py`` with more hands and simulations."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("moonrules_hand")
    low, high = game.min_utility(), game.max_utility()
    for seed in range(2):
        seat = seed % 3
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        searcher = ismcts.ISMCTSBot(
            game, evaluator, 2.0, 8, random_state=np.random.RandomState(seed)
        )
        bots = [searcher if p == seat else MoonrulesBot("basic", p, seed) for p in range(3)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert len(returns) == 3 and all(low <= r <= high for r in returns)


def test_the_moonrules_bot_refuses_a_turn_not_its_own() -> None:
    game = pyspiel.load_game("moonrules_hand")
    state = _random_playthrough(game, 1)[22]  # the first call, by seat 0
    assert state.current_player() == 0
    with pytest.raises(ValueError, match=r"not player 1's turn"):
        MoonrulesBot("random", 1).step(state)
    with pytest.raises(TypeError, match=r"^bot: "):
        MoonrulesBot(3, 0)  # type: ignore[arg-type]
    assert MoonrulesBot("random", 0).step(state) in state.legal_actions()


def test_the_guides_example_runs_as_written() -> None:
    """``examples/gameai_ismcts.py`` (the worked example of docs/guides/game-ai.md), tiny,
    twice: the same figures."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    outputs = []
    for _run in range(2):  # every draw is seeded: the same figures each time
        result = subprocess.run(
            [sys.executable, "examples/gameai_ismcts.py", "--hands", "3", "--simulations", "8"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert "IS-MCTS (8 simulations) vs basic, 3 deals of standard" in result.stdout
        assert "gain " in result.stdout and "95% interval" in result.stdout
        outputs.append(result.stdout.splitlines()[:-1])  # all but the seconds taken
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("page", ["guides/game-ai.md"])
def test_the_guides_python_blocks_run(page: str) -> None:
    """Every ```python block of the guide runs, in order, in one namespace."""
    import contextlib
    import io
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {"__name__": "docs_game_ai"}
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{page} example", "exec"), namespace)


def test_the_speed_bench_runs_and_prints_its_table() -> None:
    """``bench/gameai.py`` (the figures of the guide's speed section), with tiny runs:
    one row per preset, every column filled, the ratios positive."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    argv = [sys.executable, "bench/gameai.py", "--seconds", "0.05", "--repeat", "1"]
    argv += ["--presets", "standard,partnership", "--form", "this"]
    result = subprocess.run(
        argv, cwd=root, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    main, costs = result.stdout.split("µs a hand")
    rows = {line.split()[0]: line.split() for line in main.splitlines() if line.strip()}
    assert rows["preset"][1:5] == ["API", "hands/s", "loop", "hands/s"]
    cost_rows = {line.split()[0]: line.split() for line in costs.splitlines()[1:] if line}
    for preset in ("standard", "partnership"):
        row = rows[preset]
        assert len(row) == 10, row
        assert all(float(x.rstrip("x")) > 0 for x in row[1:]), row
        api, _loop, seeded, deal, caller, steps = map(float, cost_rows[preset][1:])
        assert 0 < deal < seeded and 0 < caller < api and steps > 20, cost_rows[preset]


def test_the_seeded_reference_loop_deals_the_games_deals() -> None:
    """The bench's seeded loop deals as the API does: DEAL-1's shuffle of the game's seed."""
    import sys
    from pathlib import Path

    from moonrules import new_game
    from moonrules.game.deal import seeded_deal
    from moonrules.rules.tiles import TILES

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import gameai
    finally:
        sys.path.pop(0)
    state = new_game("standard", seed=12345)
    rules = state.rules
    pool = gameai.shuffled(rules, 12345, 1)
    assert tuple(tuple(sorted(TILES[i] for i in pool[7 * s : 7 * s + 7])) for s in range(3)) == (
        state.hands
    )
    assert seeded_deal(rules, 12345, 2).widow == TILES[gameai.shuffled(rules, 12345, 2)[-1]]
    played, thrown, seconds = gameai.loop_playouts("standard", 0.02, seeded=True)
    assert played + thrown > 0 and seconds > 0
