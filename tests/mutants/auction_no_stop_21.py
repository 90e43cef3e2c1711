"""Mutant: a bid of 21 does not end the auction.

Digest, "Mistakes seen": "An auction ... that does not stop at 21." Here the players after a
21 still get their turn (they can only pass). Breaks BID-5. Shows in legal_bids and auction:
after a single call of 21 the auction is over and no one may call.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import request_rules
from moonrules.rules.auction import MOON, PASS

BREAKS = ("BID-5",)
SHOWS_IN = ("legal_bids", "auction")


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN:
        return ref
    rules = request_rules(request)
    calls = [PASS if c == "pass" else c for c in request["bids"]]
    if MOON not in calls or len(calls) >= rules.players:
        return ref
    if request["op"] == "auction":  # should be over, won by the 21
        return _kernel.ok(request, {"over": False, "winner": None, "bid": None, "redeal": False})
    return _kernel.ok(request, ["pass"])  # should be []


if __name__ == "__main__":
    _kernel.main(handle)
