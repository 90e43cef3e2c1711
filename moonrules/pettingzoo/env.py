"""The PettingZoo AEC environment of Moon: one hand or a whole game, seats as agents.

See :mod:`moonrules.pettingzoo`; this module holds :class:`raw_env` and :func:`env`.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from moonrules.game.deal import new_game
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    legal_action_ids,
    state_string,
)
from moonrules.game.play import apply
from moonrules.game.state import GameState
from moonrules.game.views import view
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import RuleSet, rules_by_name

MODES: Final = ("hand", "game")
"""``hand``: one hand per episode; ``game``: a whole game."""
RENDER_MODES: Final = ("ansi", "human")
"""``ansi``: :meth:`raw_env.render` returns the table as text; ``human``: it prints it."""
DEFAULT_MAX_HANDS: Final = 100
"""``max_hands`` of the ``game`` mode when not given: the episode is truncated after it."""


def _rules(rules: object) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return rules_by_name(rules)
    raise wrong_type("rules", "a RuleSet or a preset name", rules)


def _standings(rules: RuleSet, scores: tuple[int, ...]) -> list[float]:
    """Each player's share of the win among the sides at the top (the OpenSpiel rule)."""
    sides = rules.sides
    top = max(scores)
    w = sum(1 for s in scores if s == top)
    win = (sides - w) / (w * (sides - 1))
    lose = -1 / (sides - 1)
    return [win if scores[rules.side_of(p)] == top else lose for p in range(rules.players)]


class raw_env(AECEnv[str, dict[str, np.ndarray], int], EzPickle):  # type: ignore[misc]
    """Moon as a PettingZoo AEC environment (agents ``player_0`` … ``player_{n-1}``).

    ``rules``: a :class:`~moonrules.rules.ruleset.RuleSet` or a preset name;
    ``mode``: ``"hand"`` (an episode is one hand; rewards are the hand's score changes,
    each player its side's; an all-pass hand ends with 0) or ``"game"`` (a whole game;
    the winning side's players get 1 and the others ``-1 / (sides - 1)`` at the end;
    after ``max_hands`` hands without a winner the episode is truncated, and the sides at
    the top of the scores share the win); ``render_mode``: ``"ansi"`` (``render()``
    returns the table as text) or ``"human"`` (prints it).

    Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``:
    the seat's :class:`~moonrules.game.encoding.ObservationLayout` vector (with
    ``history=True``, the information state) and its legal action ids, all zeros when
    it is not the seat's turn.
    """

    metadata: Final = {
        "render_modes": list(RENDER_MODES),
        "name": "moonrules_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: RuleSet | str = "standard",
        mode: str = "hand",
        *,
        max_hands: int = DEFAULT_MAX_HANDS,
        history: bool = False,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(
            self, rules, mode, max_hands=max_hands, history=history, render_mode=render_mode
        )
        super().__init__()
        self.rules = _rules(rules)
        if not isinstance(mode, str):
            raise wrong_type("mode", "'hand' or 'game'", mode)
        if mode not in MODES:
            raise ValueError(f"mode: 'hand' or 'game', not {mode!r}")
        if type(max_hands) is not int:
            raise wrong_type("max_hands", "a whole number", max_hands)
        if max_hands < 1:
            raise ValueError(f"max_hands: at least 1 hand, not {max_hands}")
        if type(history) is not bool:
            raise wrong_type("history", "True or False", history)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: 'ansi', 'human' or None, not {render_mode!r}")
        self.mode = mode
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.space = ActionSpace(self.rules)
        self.layout = ObservationLayout(self.rules, history=history)
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        low = np.zeros(self.layout.size, np.float32)
        low[self.layout.section("scores").start : self.layout.section("scores").stop] = -1.0
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=low, high=1.0, shape=(self.layout.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState = new_game(self.rules, self._rng.getrandbits(63))
        self._shown: GameState = self.state
        self.hands_played = 0

    # -- PettingZoo's interface -------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        v = view(self._shown, seat)
        mask = np.zeros(self.space.size, np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            for i in legal_action_ids(self._shown):  # a few ids: quicker one by one
                mask[i] = 1
        size = self.layout.size
        observation = np.fromiter(self.layout.encode(v), np.float32, size)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = new_game(self.rules, self._rng.getrandbits(63))
        self._shown = self.state
        self.hands_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of(self.state)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"action: {agent} is to act, and None is not an action")
        before = self.state
        after = apply(before, self.space.action_of(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state = after
        self._shown = after
        if after.game is not before.game:
            self._hand_ended(after)
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self.agent_selection = self._agent_of(after)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _hand_ended(self, after: GameState) -> None:
        rules = self.rules
        self.hands_played += 1
        done = after.hand if after.is_over else after.history[-1]
        if self.mode == "hand":
            deltas = done.deltas or (0,) * rules.sides
            values = [float(deltas[rules.side_of(p)]) for p in range(rules.players)]
            self._end(values, truncated=False)
            self._shown = after if after.is_over else GameState(after.game, done)
        elif after.is_over:
            assert after.winner is not None
            won = tuple(1 if s == after.winner else 0 for s in range(rules.sides))
            self._end(_standings(rules, won), truncated=False)
        elif self.hands_played >= self.max_hands:
            self._end(_standings(rules, after.scores), truncated=True)
            self._shown = GameState(after.game, done)

    def _end(self, values: list[float], *, truncated: bool) -> None:
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = values[p]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True

    def _agent_of(self, state: GameState) -> str:
        seat = state.to_act
        assert seat is not None
        return self.possible_agents[seat]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = state_string(self._shown)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """:class:`raw_env` wrapped as PettingZoo's classic environments are: an illegal
    action ends the episode with reward -1 for its agent, an action outside the space is
    refused, and the calls must come in order (reset before step)."""
    e: Any = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
