"""pimc and strong decide as they did when their shared search was moved into one place.

The decisions of :class:`~moonrules.bots.pimc.PimcBot` (the baseline every bot is measured
against, defaults and a cheaper variant) and :class:`~moonrules.bots.strong.StrongBot` on
seeded positions of every phase were recorded from the code before the move
(``tests/search_pins.json``); any change to what either decides shows here.

Record again (only when a change of decisions is meant)::

    python tests/test_search_pins.py --record
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

import moonrules as m
from moonrules.bots import BasicBot, view_legal_actions
from moonrules.bots.base import Bot
from moonrules.bots.pimc import PimcBot
from moonrules.bots.strong import StrongBot
from moonrules.game import GameState, Phase, view

PINS = Path(__file__).with_name("search_pins.json")
GAMES = (("standard", 1), ("standard", 2), ("partnership", 3), ("marks", 4), ("pagat", 5))
BOTS: dict[str, Bot] = {
    "pimc": PimcBot(),
    "pimc-fast": PimcBot(samples=3, bid_samples=2, node_budget=3000),
    "strong-fast": StrongBot(samples=3, bid_samples=4, node_budget=6000),
}


def _positions() -> list[tuple[str, int, int, GameState]]:
    """States of two hands of basic bots' games where the seat to act has a choice: every
    call, discard and trump, and every sixth action of the play."""
    out = []
    for preset, seed in GAMES:
        s = m.new_game(preset, seed)
        rng = random.Random(seed)
        k = 0
        while not s.is_over and s.hand_number <= 2:
            seat = s.to_act
            assert seat is not None
            v = view(s, seat)
            if len(view_legal_actions(v)) > 1 and (v.phase is not Phase.PLAY or k % 6 == 0):
                out.append((preset, seed, k, s))
            s = m.apply(s, BasicBot().act(v, rng))
            k += 1
    return out


def _decisions(bot: Bot) -> list[str]:
    out = []
    for preset, seed, k, s in _positions():
        assert s.to_act is not None
        rng = random.Random(f"pins/{preset}/{seed}/{k}")
        out.append(f"{preset}/{seed}/{k} {bot.act(view(s, s.to_act), rng)}")
    return out


DEEP = os.environ.get("MOONRULES_DEEP", "") not in ("", "0")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n,
            marks=pytest.mark.skipif(
                n == "pimc" and not DEEP,
                reason="pimc at its full budget (about 8 s; the cheaper pimc runs here): "
                "CI's deep step runs it; MOONRULES_DEEP=1",
            ),
        )
        for n in sorted(BOTS)
    ],
)
def test_decisions_are_the_recorded_ones(name: str) -> None:
    pins = json.loads(PINS.read_text())
    got = _decisions(BOTS[name])
    assert len(got) >= 60
    assert {line.split()[1] for line in got} >= {"bid", "pass", "discard", "trump", "play"}
    assert got == pins[name]


if __name__ == "__main__" and "--record" in sys.argv:
    PINS.write_text(json.dumps({n: _decisions(b) for n, b in BOTS.items()}, indent=1) + "\n")
