"""Mutant: a contract is made only with more tricks than the bid.

An off-by-one in SCORE-1: the bidder makes the contract with at least as many tricks as bid;
here it takes one more (a bid of 4 with exactly 4 tricks is set). Shows in score_hand, and in
the scores of replayed records.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from collections.abc import Sequence

import _kernel

from moonrules.rules.ruleset import RuleSet
from moonrules.rules.scoring import score_hand, side_tricks

BREAKS = ("SCORE-1",)
SHOWS_IN = ("score_hand", "replay")


def _score(
    rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int]
) -> tuple[bool, Sequence[int], bool]:
    won = side_tricks(rules, tricks)[rules.side_of(bidder)]
    made = won > bid  # should be won >= bid (all 7 for 21)
    result = score_hand(rules, bidder, bid, tricks, made=made)
    return result.made, result.deltas, result.game_won


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    ref = _kernel.reference(request)
    if not ref.get("ok") or request.get("op") not in SHOWS_IN:
        return ref
    rules = _kernel.op_rules(request)
    if request["op"] == "replay":
        return _kernel.rescore_replay(ref, rules, lambda r, s, b, t: _score(r, s, b, t)[1])
    made, deltas, won = _score(rules, request["bidder"], request["bid"], request["tricks"])
    return _kernel.ok(request, {"made": made, "deltas": list(deltas), "game_won": won})


if __name__ == "__main__":
    _kernel.main(handle)
