"""Mutant: partners sit side by side in four-player Moon.

TEAM-1: partners sit opposite, seats 0 and 2 against 1 and 3. This engine pairs neighbours,
seats 0 and 1 against 2 and 3, so the tricks of seat 1 count for the wrong team. Shows in
score_hand (partnership presets), and in the scores of replayed partnership records.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from collections.abc import Sequence

import _kernel

from moonrules.rules.ruleset import RuleSet

BREAKS = ("TEAM-1",)
SHOWS_IN = ("score_hand", "replay")


def _score(
    rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int]
) -> tuple[bool, list[int], bool]:
    teams = (tricks[0] + tricks[1], tricks[2] + tricks[3])  # should be (0 + 2, 1 + 3)
    side = bidder // 2  # should be bidder % 2
    made = teams[side] >= (7 if bid == 21 else bid)
    deltas = [(bid if made else -bid) if s == side else teams[s] for s in range(2)]
    return made, deltas, made and bid == 21 and rules.moon_made.value == "wins-game"


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN:
        return ref
    rules = _kernel.op_rules(request)
    if not rules.partnership:
        return ref
    if request["op"] == "replay":
        return _kernel.rescore_replay(ref, rules, lambda r, s, b, t: _score(r, s, b, t)[1])
    made, deltas, won = _score(rules, request["bidder"], request["bid"], request["tricks"])
    return _kernel.ok(request, {"made": made, "deltas": deltas, "game_won": won})


if __name__ == "__main__":
    _kernel.main(handle)
