"""The JAX batch as a pgx environment, and a picture of its games (extra ``[jax]``; pgx
for :func:`pgx_env`).

:func:`pgx_env` gives a ``pgx.Env`` of one game of :mod:`moonrules.engine.batch_jax`'s
functions (``init(key)``, ``step(state, action, key)``, ``state.legal_action_mask``,
``state.observation``, ``state.rewards`` per *player*, ``state.terminated``), for pgx's own
``jax.vmap(env.step)``: the same functions, without the automatic reset (pgx's convention:
a game that ends is terminal). Its states draw themselves (``to_svg``, ``save_svg``) with
:func:`state_svg`, which draws the games of a batch (pgx's own visualizer draws only pgx's
games). ``tests/test_engine_jax.py`` holds the environment to
:class:`~moonrules.engine.Engine` step by step and runs pgx's own checks on it.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import jax.numpy as jnp
import numpy as np
from jax import Array

from moonrules.engine.batch import BIDDING, DISCARDING, DONE, NAMING, PLAYING
from moonrules.engine.batch_jax import Games, _as_key, _Core
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES

_PHASES: Final = {
    BIDDING: "bidding",
    DISCARDING: "discard",
    NAMING: "trump",
    PLAYING: "play",
    DONE: "game over",
}

# The picture's geometry, in pixels (times ``scale``).
_TILE_W: Final = 46.0
_TILE_H: Final = 26.0
_GAP: Final = 6.0
_ROW: Final = 34.0
_LABEL: Final = 96.0


def _tile_rect(x: float, y: float, index: int, cls: str) -> str:
    """One tile at (x, y): a rounded ivory face with its two ends as numbers, high end first."""
    t = TILES[index]
    return (
        f'<g class="tile {cls}" data-tile="{t}">'
        f'<rect x="{x:g}" y="{y:g}" width="{_TILE_W:g}" height="{_TILE_H:g}" rx="5" '
        f'fill="#fbf6e4" stroke="#5a5245" stroke-width="1.5"/>'
        f'<line x1="{x + _TILE_W / 2:g}" y1="{y + 4:g}" x2="{x + _TILE_W / 2:g}" '
        f'y2="{y + _TILE_H - 4:g}" stroke="#5a5245" stroke-width="1.5"/>'
        f'<text x="{x + _TILE_W / 4:g}" y="{y + 18:g}" text-anchor="middle" font-size="15" '
        f'fill="#1d1a16">{t.high}</text>'
        f'<text x="{x + 3 * _TILE_W / 4:g}" y="{y + 18:g}" text-anchor="middle" font-size="15" '
        f'fill="#1d1a16">{t.low}</text></g>'
    )


def _game_picture(rules: RuleSet, g: dict[str, np.ndarray], i: int, y0: float) -> list[str]:
    """The SVG elements of game ``i`` of the numpy fields ``g``, from height ``y0``; the
    height used is ``(players + 2) * _ROW``."""

    def num(name: str) -> int:
        return int(g[name][i])

    phase = num("phase")
    trump = num("trump")
    bidder = num("bidder")
    head = [f"hand {num('hand_number')}", _PHASES.get(phase, str(phase))]
    if bidder >= 0:
        head.append(f"bid {num('bid')} by seat {bidder + 1}")
    if trump >= 0:
        head.append(f"trump {Trump(trump)}")
    head.append("scores " + " ".join(str(int(v)) for v in g["scores"][i]))
    out = [
        f'<text x="8" y="{y0 + 20:g}" font-size="15" font-weight="bold">{", ".join(head)}</text>'
    ]
    to_act = num("to_act")
    won = g["won"][i]
    trick = num("trick_mask")
    for s in range(rules.players):
        y = y0 + _ROW * (s + 1)
        mark = " ▶" if s == to_act and phase != DONE else ""
        out.append(
            f'<text x="8" y="{y + 18:g}" font-size="14">Seat {s + 1}{mark} ({int(won[s])})</text>'
        )
        held = int(g["hands"][i][s])
        x = _LABEL
        for k in range(28):
            if held >> k & 1:
                out.append(_tile_rect(x, y, k, f"seat-{s}"))
                x += _TILE_W + _GAP
    y = y0 + _ROW * (rules.players + 1)
    x = 8.0
    widow = num("widow")
    if widow >= 0 and not num("widow_taken"):
        out.append(f'<text x="{x:g}" y="{y + 18:g}" font-size="14">widow</text>')
        out.append(_tile_rect(x + 52, y, widow, "widow"))
        x += 52 + _TILE_W + 3 * _GAP
    if trick:
        out.append(f'<text x="{x:g}" y="{y + 18:g}" font-size="14">trick</text>')
        x += 40
        for k in range(28):
            if trick >> k & 1:
                out.append(_tile_rect(x, y, k, "trick"))
                x += _TILE_W + _GAP
    return out


def state_svg(rules: RuleSet | str, games: Games, *, scale: float = 1.0, title: str = "") -> str:
    """A picture of one game of Moon (``games`` of one game, as the pgx state holds it) or of
    a batch of them (one below the other): each seat's tiles, the seat to act (▶) and its
    tricks won, the widow while no one holds it, the trick on the table, the contract and
    the scores. The whole state, not a seat's observation (pgx's ``save_svg`` draws the
    state). Tiles are drawn with their two ends as numbers: the tile pictures with pips,
    :mod:`moonrules.arbitration.render`, sit in a layer above the engine (draw a hand of
    game ``i`` with them from :func:`deal_of`)."""
    r = as_rules(rules)
    g = {name: np.asarray(getattr(games, name)) for name in Games._fields if name != "key"}
    hands = g["hands"]
    lead = hands.shape[:-1]
    count = int(np.prod(lead)) if lead else 1
    flat = {name: v.reshape((count, *v.shape[len(lead) :])) for name, v in g.items()}
    panel = _ROW * (r.players + 2) + _GAP * 2
    width = _LABEL + 8 * (_TILE_W + _GAP) + 8
    body: list[str] = []
    for i in range(count):
        body.extend(_game_picture(r, flat, i, i * panel))
    height = panel * count
    name = title or f"Moon, {r.name or 'custom rules'}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="moon-state" '
        f'width="{width * scale:g}" height="{height * scale:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{name}" '
        f'font-family="system-ui, sans-serif"><title>{name}</title>'
        f'<rect width="100%" height="100%" fill="#ffffff"/>' + "".join(body) + "</svg>"
    )


@functools.lru_cache(maxsize=16)
def _pgx_classes(env_id: str) -> tuple[type, type]:
    """pgx's State and Env subclasses for the environment ``env_id`` (pgx imported only when
    asked for). Each id has its own state class, whose ``env_id`` is the env's ``id``."""
    import pgx.core  # type: ignore[import-untyped]
    from pgx._src.struct import dataclass  # type: ignore[import-untyped]

    @dataclass
    class MoonState(pgx.core.State):  # type: ignore[misc]
        """pgx's state of one game of Moon: pgx's fields, and the game as :class:`Games`.

        ``save_svg(filename)`` and ``to_svg()`` draw it (:func:`state_svg`): pgx's own
        visualizer draws only pgx's games, so these two are the state's own."""

        current_player: Array
        observation: Array
        rewards: Array
        terminated: Array
        truncated: Array
        legal_action_mask: Array
        _step_count: Array
        _games: Games

        @property
        def env_id(self) -> str:
            return env_id

        def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
            """The state as an SVG document (:func:`state_svg`; one light theme)."""
            rules = rules_by_env_id(env_id)
            return state_svg(rules, self._games, scale=scale or 1.0, title=f"Moon, {env_id}")

        def save_svg(
            self, filename: Any, *, color_theme: str | None = None, scale: float | None = None
        ) -> None:
            """Write :meth:`to_svg` to ``filename`` (pgx's ``state.save_svg``)."""
            with open(filename, "w", encoding="utf-8") as f:
                f.write(self.to_svg(color_theme=color_theme, scale=scale))

    class MoonEnv(pgx.core.Env):  # type: ignore[misc]
        """One game of Moon of a rule set as a pgx environment (see :func:`pgx_env`)."""

        def __init__(self, rules: RuleSet) -> None:
            super().__init__()
            self.rules = rules
            self.core = _Core(rules)

        def _state(self, g: Games, step_count: Array) -> Any:
            core = self.core
            return MoonState(
                current_player=g.to_act,
                observation=jnp.zeros(core.observation_size, jnp.float32),
                rewards=g.rewards[core.side_of],
                terminated=g.phase == DONE,
                truncated=jnp.bool_(False),
                legal_action_mask=core.mask_one(g),
                _step_count=step_count,
                _games=g,
            )

        def _init(self, key: Array) -> Any:
            return self._state(self.core.init_one(_as_key(key)), jnp.int32(0))

        def _step(self, state: Any, action: Array, key: Array | None) -> Any:
            g = state._games
            if key is not None:
                g = g._replace(key=_as_key(key))
            g = self.core.step_one(g, jnp.asarray(action), auto_reset=False)
            return self._state(g, state._step_count)

        def _observe(self, state: Any, player_id: Array) -> Array:
            return self.core.observe_one(state._games, player_id)

        @property
        def id(self) -> str:
            return env_id

        @property
        def version(self) -> str:
            return "v0"

        @property
        def num_players(self) -> int:
            return self.core.players

    return MoonState, MoonEnv


_ENV_RULES: dict[str, RuleSet] = {}
"""The rule set of each pgx environment id made so far (a state finds its rules by its id)."""


def env_id_of(rules: RuleSet) -> str:
    """The pgx environment id of ``rules``: ``moonrules-<preset>`` (``moonrules-custom`` for
    rules of no preset's name)."""
    return f"moonrules-{rules.name or 'custom'}"


def rules_by_env_id(env_id: str) -> RuleSet:
    """The rule set of an environment made by :func:`pgx_env` with the id ``env_id``."""
    return _ENV_RULES[env_id]


def pgx_env(rules: RuleSet | str) -> Any:
    """A ``pgx.Env`` of one game of ``rules`` (needs pgx): ``env.init(key)`` deals a new
    game as :meth:`JaxFunctions.init` deals game ``i`` from its key; ``env.step(state,
    action, key)`` takes the action (with ``key``: the next deal, if the step deals one, is
    drawn from ``key`` instead of the game's own key). ``state.current_player`` is the seat
    to act, ``state.observation`` its observation, ``state.legal_action_mask`` the legal
    ids, ``state.rewards`` ``[players]`` each seat's side's score change at the step, and
    ``state.terminated`` says the game is over (pgx's convention, no automatic reset: use
    pgx's ``auto_reset`` or ``init`` again; a terminal state's mask is all ``True``, as pgx
    makes it, and pgx ends a game on an illegal action with its own penalty)."""
    r = as_rules(rules)
    env_id = env_id_of(r)
    _ENV_RULES[env_id] = r
    _state, env = _pgx_classes(env_id)
    return env(r)


__all__ = ["env_id_of", "pgx_env", "rules_by_env_id", "state_svg"]
