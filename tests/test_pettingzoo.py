"""The PettingZoo environment (moonrules.pettingzoo): PettingZoo's own tests, and the rewards."""

from __future__ import annotations

import functools
import random

import pytest
from depth import DEEP

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")
np = pytest.importorskip("numpy", reason="the [pettingzoo] extra is not installed")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from moonrules import PRESETS, legal_actions, view  # noqa: E402
from moonrules.game.encoding import ActionSpace, ObservationLayout  # noqa: E402
from moonrules.pettingzoo import env, raw_env  # noqa: E402

# PettingZoo's api_test warns about every dict observation (its classic games get the same
# two warnings): the {"observation", "action_mask"} form is the one the classic games use.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]

CYCLES = 2000 if DEEP else 150
CASES = [
    (rules, mode)
    for rules in (
        ["standard", "partnership", "pagat", "no-double-blank"]
        if DEEP
        else ["standard", "partnership"]
    )
    for mode in ("hand", "game")
]


@pytest.mark.parametrize(("rules", "mode"), CASES)
def test_pettingzoo_api_test(rules: str, mode: str) -> None:
    api_test(env(rules=rules, mode=mode), num_cycles=CYCLES)


@pytest.mark.parametrize(("rules", "mode"), CASES)
def test_pettingzoo_seed_test(rules: str, mode: str) -> None:
    seed_test(functools.partial(env, rules=rules, mode=mode), num_cycles=CYCLES)


@pytest.mark.parametrize(("rules", "mode"), CASES)
def test_pettingzoo_render_test(rules: str, mode: str) -> None:
    render_test(functools.partial(env, rules=rules, mode=mode))


def _play(e: object, seed: int) -> dict[str, float]:
    """One episode of uniformly random legal actions; each agent's total reward."""
    rng = random.Random(seed)
    e.reset(seed=seed)  # type: ignore[attr-defined]
    totals: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
            continue
        assert obs["observation"].dtype == np.float32
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(list(legal))))  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize("rules", ["standard", "partnership", "marks"])
def test_a_hand_episode_rewards_the_hands_score_changes(rules: str) -> None:
    for seed in range(4):
        e = raw_env(rules=rules, mode="hand")
        totals = _play(e, seed)
        r = PRESETS[rules]
        done = e.state.history[-1] if not e.state.is_over else e.state.hand
        deltas = done.deltas or (0,) * r.sides
        assert totals == {f"player_{p}": float(deltas[r.side_of(p)]) for p in range(r.players)}
        assert e.hands_played == 1


def test_a_game_episode_is_zero_sum_and_truncated_after_max_hands() -> None:
    for seed in range(3):
        e = raw_env(rules="partnership", mode="game", max_hands=2)
        totals = _play(e, seed)
        assert sum(totals.values()) == pytest.approx(0.0)
        assert e.hands_played <= 2
        assert all(e.truncations.values()) == (not e.state.is_over)


def test_the_observation_is_the_encoding_of_the_seats_view() -> None:
    e = raw_env(rules="standard", mode="hand", history=True, render_mode="ansi")
    e.reset(seed=3)
    layout = ObservationLayout("standard", history=True)
    space = ActionSpace("standard")
    state = e.state
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        obs = e.observe(agent)
        assert obs["observation"].tolist() == pytest.approx(layout.encode(view(state, seat)))
        mask = obs["action_mask"]
        if seat == state.to_act:
            assert [space.action_of(int(i)) for i in np.flatnonzero(mask)] == list(
                legal_actions(state)
            )
        else:
            assert not mask.any()
    assert "p0: " in e.render()


def test_the_seed_decides_the_deals() -> None:
    a, b = raw_env(mode="game"), raw_env(mode="game")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state == b.state
    b.reset(seed=12)
    assert a.state != b.state


def test_bad_arguments_name_the_parameter() -> None:
    with pytest.raises(ValueError, match=r"^mode: "):
        raw_env(mode="match")
    with pytest.raises(TypeError, match=r"^rules: "):
        raw_env(rules=4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^max_hands: "):
        raw_env(mode="game", max_hands=0)
    with pytest.raises(ValueError, match=r"^render_mode: "):
        raw_env(render_mode="rgb_array")
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"^action: "):
        e.step(None)
    wrapped = env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    illegal = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    wrapped.step(illegal)  # PettingZoo's wrapper ends the episode, the culprit scores -1
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_the_wrappers_are_pettingzoos_and_behave_as_theirs() -> None:
    """``env()`` wraps in PettingZoo's three wrappers (subclassed to read the env's state
    straight from the env): the order is enforced, the bounds asserted, the name kept."""
    from pettingzoo.utils import wrappers

    e = env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(e.unwrapped, raw_env) and str(e) == "moonrules_v0"
    for name in ("agent_selection", "terminations", "truncations", "rewards", "infos", "agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(e, name)
    e.reset(seed=2)
    raw = e.unwrapped
    for w in (e, e.env, e.env.env):
        assert w.agent_selection == raw.agent_selection and w.agents == raw.agents
        assert (
            w.terminations is raw.terminations and w._cumulative_rewards is raw._cumulative_rewards
        )
    size = raw.space.size
    for bad in (size, -1, 2.0):
        with pytest.raises(AssertionError, match="action is not in action space"):
            e.step(bad)
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    before = e.agent_selection
    e.step(legal[0])  # a numpy integer is an action too
    assert e.agent_selection != before and raw.state.hand.calls


@pytest.mark.parametrize(
    ("rules", "mode", "history"), [("standard", "hand", True), ("partnership", "game", False)]
)
def test_every_observation_is_the_reference_encoding_to_the_end(
    rules: str, mode: str, history: bool
) -> None:
    """Every agent's observation at every step, the last ones (a finished hand's, or the
    game's end) included, is the encoding of the seat's view of the reference state shown."""
    from moonrules.game.state import make_state

    layout = ObservationLayout(rules, history=history)
    for seed in range(2):
        e = raw_env(rules=rules, mode=mode, history=history, max_hands=2)
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            state = e.state
            ended = any(e.terminations.values()) or any(e.truncations.values())
            if ended and not state.is_over:
                state = make_state(state.game, state.history[-1])  # the hand just finished
            for seat, a in enumerate(e.possible_agents):
                obs = e.observe(a)["observation"]
                assert obs.dtype == np.float32 and obs.flags.writeable  # the caller's own
                assert obs.tolist() == pytest.approx(layout.encode(view(state, seat)))
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
            else:
                e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
