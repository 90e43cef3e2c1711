"""Mutant: the auction ignores the one-turn rule when checking calls.

Each player has exactly one turn (BID-2), so a list of calls longer than the number of
players is no auction at all; this engine checks only that every bid beats the last, and
accepts "pass", "pass", "pass", "pass" with three players as an auction that is over. Only
refusals show it: it answers where the reference says illegal (BID-2). Shows in legal_bids
and auction.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import request_rules
from moonrules.rules.auction import MOON, PASS

BREAKS = ("BID-2",)
SHOWS_IN = ("legal_bids", "auction")


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    error = ref.get("error") or {}
    if ref.get("ok") or request.get("op") not in SHOWS_IN or error.get("rule") != "BID-2":
        return ref
    rules = request_rules(request)
    calls = [PASS if c == "pass" else c for c in request["bids"]]
    high = PASS
    for c in calls:  # every call checked, but never "has this player called already?"
        if type(c) is not int or (c != PASS and (c not in rules.bids or c <= high)):
            return ref
        if high == MOON:
            return ref
        high = max(high, c)
    if request["op"] == "legal_bids":
        return _kernel.ok(request, [])
    winner = calls.index(high) % rules.players if high != PASS else None
    result = {
        "over": True,
        "winner": winner,
        "bid": high if high != PASS else None,
        "redeal": high == PASS,
    }
    return _kernel.ok(request, result)


if __name__ == "__main__":
    _kernel.main(handle)
