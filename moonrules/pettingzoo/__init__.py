"""A PettingZoo environment for Moon: seats as agents, one hand or a whole game per episode.

``moonrules.pettingzoo.env(rules="standard", mode="hand")`` (the extra
``moonrules[pettingzoo]`` installs PettingZoo) is an AEC environment in the style of
PettingZoo's classic games: observations ``{"observation": …, "action_mask": …}`` from
:mod:`moonrules.game.encoding`, ``Discrete`` actions numbered by
:class:`~moonrules.game.encoding.ActionSpace`, ``render_mode="ansi"``. See
:class:`~moonrules.pettingzoo.env.raw_env` for the modes and the rewards.

>>> from moonrules import pettingzoo as moon_zoo
>>> e = moon_zoo.env(rules="partnership", mode="hand")
>>> e.reset(seed=1)
>>> e.agents, e.observe(e.agent_selection)["action_mask"].sum()
(['player_0', 'player_1', 'player_2', 'player_3'], np.int64(6))
"""

from __future__ import annotations

from moonrules.rules.errors import install_extra

try:
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - the extra is not installed
    raise ImportError(
        f"moonrules.pettingzoo needs PettingZoo: {install_extra('pettingzoo')}"
    ) from e

from moonrules.pettingzoo.env import DEFAULT_MAX_HANDS, MODES, env, raw_env

__all__ = ["DEFAULT_MAX_HANDS", "MODES", "env", "raw_env"]
