"""Helpers shared by the tests (imported as ``gamehelpers``; ``tests/`` is on the path).

Random games are played here, once: a uniformly random player draws each action with
``rng.choice(legal_actions(state))``, so a seed gives the same game everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import moonrules as m


def random_step(state: m.GameState, rng: random.Random) -> m.GameState:
    """``state`` after one uniformly random legal action."""
    return m.apply(state, rng.choice(m.legal_actions(state)))


def random_line(state: m.GameState, rng: random.Random, steps: int) -> list[m.GameState]:
    """The states of a random line of at most ``steps`` actions from ``state``: ``state``
    first, the last state last (the line stops early when the game ends)."""
    line = [state]
    for _ in range(steps):
        if line[-1].is_over:
            break
        line.append(random_step(line[-1], rng))
    return line


def play_until(
    state: m.GameState,
    rng: random.Random,
    done: Callable[[m.GameState], bool],
    max_steps: int = 10_000,
) -> m.GameState | None:
    """Random legal actions from ``state`` until ``done`` holds (``state`` itself may do);
    ``None`` if the game ends, or ``max_steps`` actions pass, first."""
    for _ in range(max_steps):
        if done(state):
            return state
        if state.is_over:
            return None
        state = random_step(state, rng)
    return None


def random_game(preset: str, seed: int, steps: int) -> m.GameState:
    """The game ``seed`` of ``preset`` after at most ``steps`` uniformly random actions."""
    return random_line(m.new_game(preset, seed=seed), random.Random(seed), steps)[-1]
