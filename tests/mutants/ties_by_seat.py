"""Mutant: a tie at the top is broken by seat order.

Digest, "Mistakes seen": "Ties at the end broken by seat order instead of playing on." With
scores 21, 21, 0 the game goes on (END-2); here seat 0 wins. Breaks END-2. Shows in
game_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import request_rules

BREAKS = ("END-2",)
SHOWS_IN = ("game_winner",)


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN or ref["result"] is not None:
        return ref
    scores = request["scores"]
    top = max(scores)
    if top >= request_rules(request).target:
        return _kernel.ok(request, scores.index(top))  # the lowest seat among the leaders
    return ref


if __name__ == "__main__":
    _kernel.main(handle)
