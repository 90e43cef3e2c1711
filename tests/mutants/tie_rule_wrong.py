"""Mutant: the game goes on whenever two sides are at or above the target.

A wrong reading of the game-end tie rule: END-1 ends the game when one side has the single
highest score at or above the target, and END-2 plays on only when the highest score is
shared. This engine plays on as soon as two sides have reached the target, tied or not: with
22, 21, 0 it says play on, where seat 0 has won. Breaks END-1 and END-2. Shows in game_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import request_rules

BREAKS = ("END-1", "END-2")
SHOWS_IN = ("game_winner",)


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN:
        return ref
    target = request_rules(request).target
    if sum(s >= target for s in request["scores"]) > 1:
        return _kernel.ok(request, None)
    return ref


if __name__ == "__main__":
    _kernel.main(handle)
