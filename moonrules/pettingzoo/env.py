"""The PettingZoo AEC environment of Moon: one hand or a whole game, seats as agents.

See :mod:`moonrules.pettingzoo`; this module holds :class:`raw_env` and :func:`env`. The
game is an :class:`~moonrules.engine.Engine`, stepped by the agents' action ids; the
observations and the action masks come from it, and its reference
:class:`~moonrules.game.state.GameState` is worked out only when asked for (``state``,
``render``, the observations of a finished hand).
"""

from __future__ import annotations

import random
from operator import attrgetter
from struct import Struct
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from moonrules.engine import Engine
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    legal_action_ids,
    state_string,
)
from moonrules.game.state import GameState, make_state
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


def _finished(state: GameState) -> GameState:
    """The hand just finished, from the state after it (the next hand dealt)."""
    return make_state(state.game, state.history[-1])


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
        self._history = history
        self._size = self.layout.size
        self._floats = Struct(f"={self._size}f")
        self._actions = self.space.size
        self._seats = {a: k for k, a in enumerate(self.possible_agents)}
        self._rng = random.Random()
        self.engine = Engine(self.rules, self._rng.getrandbits(63))
        """The game, stepped by the agents' actions."""
        self._start: tuple[int, ...] = self.engine.scores
        self._number = self.engine.hand_number
        self._state: GameState | None = None
        self._shown: GameState | None = None
        """The finished hand the observations show once the episode is over (``None``
        while they show the engine's position)."""
        self._shown_engine: Engine | None = None
        self._ended = False
        """Whether the episode has ended (every agent terminated or truncated)."""
        self.hands_played = 0

    @property
    def state(self) -> GameState:
        """The reference :class:`~moonrules.game.state.GameState` of the game."""
        state = self._state
        if state is None:
            state = self._state = self.engine.to_state()
        return state

    # -- PettingZoo's interface -------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        shown = self._shown
        mask = bytearray(self._actions)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            for i in self.engine.legal_ids() if shown is None else legal_action_ids(shown):
                mask[i] = 1
        if shown is None:
            values = self.engine.observe(seat, self._history)
        else:  # the finished hand, as an engine (made once)
            if self._shown_engine is None:
                self._shown_engine = Engine.from_state(shown)
            values = self._shown_engine.observe(seat, self._history)
        # 4-byte floats, packed at once, in a buffer of the array's own (writable)
        observation = np.frombuffer(bytearray(self._floats.pack(*values)), np.float32)
        return {"observation": observation, "action_mask": np.frombuffer(mask, np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.engine = Engine(self.rules, self._rng.getrandbits(63))
        self._start = self.engine.scores
        self._number = self.engine.hand_number
        self._state = None
        self._shown = None
        self._shown_engine = None
        self._ended = False
        self.hands_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.engine.seat_to_act()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"action: {agent} is to act, and None is not an action")
        a = int(action)
        if not 0 <= a < self._actions:
            self.space.action_of(a)  # raises what the reference raises for the id
        engine = self.engine
        engine.step(a)
        self._state = None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if engine.hand_number != self._number or engine.is_over:
            self._hand_ended(engine)
        if self._ended:  # the rewards, and the agents' last steps
            self._accumulate_rewards()
            self._deads_step_first()
        else:  # every reward is 0: nothing to add
            self.agent_selection = self.possible_agents[engine.seat_to_act()]
        if self.render_mode == "human":
            self.render()

    def _hand_ended(self, engine: Engine) -> None:
        rules = self.rules
        self.hands_played += 1
        scores = engine.scores
        if self.mode == "hand":
            deltas = [a - b for a, b in zip(scores, self._start, strict=True)]
            values = [float(deltas[rules.side_of(p)]) for p in range(rules.players)]
            self._end(values, truncated=False)
            if not engine.is_over:
                self._shown = _finished(self.state)
        elif engine.is_over:
            won = engine.winner
            winners = tuple(1 if s == won else 0 for s in range(rules.sides))
            self._end(_standings(rules, winners), truncated=False)
        elif self.hands_played >= self.max_hands:
            self._end(_standings(rules, scores), truncated=True)
            self._shown = _finished(self.state)
        self._start = scores
        self._number = engine.hand_number

    def _end(self, values: list[float], *, truncated: bool) -> None:
        self._ended = True
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = values[p]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = state_string(self._shown or self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


_STATE: Final = ("agent_selection", "terminations", "truncations", "rewards", "infos")
"""The attributes the wrappers read at every step that exist only once the env is reset."""


def _read(name: str) -> property:
    """A wrapper's ``name``, read straight from the moonrules env under it (PettingZoo's
    wrappers find it by a failed look-up and a ``getattr`` at each level)."""
    return property(attrgetter(f"_moon.{name}"))


def _agents_after_reset(self: Any) -> list[str]:
    """``agents``, refused before ``reset`` as :class:`OrderEnforcingWrapper` refuses it (the
    env has its agents from the start; the other attributes of :data:`_STATE` it has only
    once reset, and PettingZoo's ``__getattr__`` refuses them until then)."""
    if not self._has_reset:
        raise AttributeError("agents cannot be accessed before reset")
    agents: list[str] = self._moon.agents
    return agents


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the env's state without its look-up chain."""

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._moon = env


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the env's state without its look-up chain; an ``int``
    action is checked against the ``Discrete`` space's bounds directly."""

    def __init__(self, env: _TerminateIllegal) -> None:
        super().__init__(env)
        self._moon = env._moon
        self._actions = env._moon.space.size

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._actions:  # in every agent's Discrete
            self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the env's state without its look-up chain (and
    refusing it before ``reset`` as PettingZoo's does)."""

    def __init__(self, env: _AssertOutOfBounds) -> None:
        super().__init__(env)
        self._moon = env._moon

    def __str__(self) -> str:
        return str(self.env)


for _name in (*_STATE, "agents", "_cumulative_rewards"):
    setattr(_TerminateIllegal, _name, _read(_name))
    setattr(_AssertOutOfBounds, _name, _read(_name))
    setattr(_OrderEnforcing, _name, _read(_name))
_OrderEnforcing.agents = property(_agents_after_reset)


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """:class:`raw_env` wrapped as PettingZoo's classic environments are: an illegal
    action ends the episode with reward -1 for its agent, an action outside the space is
    refused, and the calls must come in order (reset before step).

    The wrappers are PettingZoo's (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
    ``OrderEnforcingWrapper``), each reading the env's state (``agent_selection``,
    ``terminations``, …) straight from :class:`raw_env` rather than through the wrappers
    under it."""
    raw = raw_env(**kwargs)
    return _OrderEnforcing(_AssertOutOfBounds(_TerminateIllegal(raw, illegal_reward=-1)))
