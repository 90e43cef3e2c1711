"""Helpers shared by the tests (imported as ``gamehelpers``; ``tests/`` is on the path)."""

from __future__ import annotations

import random

import moonrules as m


def random_game(preset: str, seed: int, steps: int) -> m.GameState:
    """The game ``seed`` of ``preset`` after at most ``steps`` uniformly random actions."""
    s = m.new_game(preset, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s = m.apply(s, rng.choice(m.legal_actions(s)))
    return s
