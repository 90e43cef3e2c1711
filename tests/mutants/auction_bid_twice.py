"""Mutant: the auction goes round again, so players bid more than once.

Digest, "Mistakes seen": "An auction that lets players bid more than once." This engine runs
an open auction: it ends only when every other player has passed after the highest bid, so
after "pass", "pass", 4 the first bidder is asked again. Breaks BID-2 (one turn each) and
BID-6 (the auction ends when every player has called). Shows in legal_bids and auction.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import request_rules
from moonrules.rules.auction import MOON, PASS
from moonrules.rules.ruleset import AllPass

BREAKS = ("BID-2", "BID-6")
SHOWS_IN = ("legal_bids", "auction")


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN:
        return ref
    rules = request_rules(request)
    n = rules.players
    calls = [PASS if c == "pass" else c for c in request["bids"]]
    high = max(calls, default=PASS)
    if MOON in calls or (len(calls) >= n and high == PASS):
        return ref  # 21, or a round of passes, ends it as it should
    if len(calls) >= n:
        last_bid = max(i for i, c in enumerate(calls) if c == high)
        if len(calls) - 1 - last_bid >= n - 1:
            return ref  # every other player passed after the highest bid: over
    elif len(calls) < n:
        return ref  # the first round is played as it should
    if request["op"] == "auction":
        return _kernel.ok(request, {"over": False, "winner": None, "bid": None, "redeal": False})
    forced = rules.all_pass is AllPass.FORCE and len(calls) == n - 1 and high == PASS
    bids = [b for b in rules.bids if b > high]
    return _kernel.ok(request, bids if forced else ["pass", *bids])


if __name__ == "__main__":
    _kernel.main(handle)
