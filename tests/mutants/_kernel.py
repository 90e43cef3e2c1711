"""A readable re-implementation of the protocol ops that the mutants break, one rule at a time.

Every mutant in this directory is a protocol server that wraps the reference
(:func:`moonrules.conformance.protocol.handle`) and breaks exactly one rule. The reference
checks each request first: whatever it refuses, the mutant refuses the same way
(unless refusing is the rule the mutant breaks). For a request it accepts, the
mutant computes the answer here, from small rule functions: :class:`Kernel`
follows ``spec/rules.md``; a mutant subclasses it and overrides one function.
``tests/test_fuzz.py`` checks that the unmutated kernel agrees with the reference,
so each mutant's only difference is its own broken rule.

Run a mutant as a server: ``python tests/mutants/<name>.py`` (requests on stdin).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: use this checkout's moonrules
    sys.path.insert(0, str(ROOT))

from moonrules.conformance.protocol import handle as reference  # noqa: E402
from moonrules.conformance.protocol import request_rules  # noqa: E402
from moonrules.records.record import rules_from_json  # noqa: E402
from moonrules.rules.ruleset import FirstLead, RuleSet  # noqa: E402
from moonrules.rules.scoring import score_hand  # noqa: E402
from moonrules.rules.suits import TRUMP_SUIT, Trump  # noqa: E402
from moonrules.rules.tiles import Tile  # noqa: E402

JSON = Any
Request = dict[str, JSON]


class Kernel:
    """The rules of suits, following and winning, as ``spec/rules.md`` states them."""

    def is_trump(self, t: Tile, trump: Trump) -> bool:
        """TRUMP-2, TRUMP-3, TRUMP-4."""
        if trump is Trump.NONE:
            return False
        if trump is Trump.DOUBLES:
            return t.is_double
        return t.has(trump.value)

    def in_suit(self, t: Tile, suit: int, trump: Trump) -> bool:
        """SUIT-1, SUIT-2: a trump is in the trump suit only."""
        if self.is_trump(t, trump):
            return suit == TRUMP_SUIT
        return suit != TRUMP_SUIT and t.has(suit)

    def led_suit(self, t: Tile, text: str, trump: Trump) -> int:
        """LEAD-3: trump, or the higher number (``text`` is the tile as the request wrote it)."""
        return TRUMP_SUIT if self.is_trump(t, trump) else t.high

    def rank(self, t: Tile, suit: int, trump: Trump) -> int:
        """SUIT-3, SUIT-4: the double first, then by the other end; doubles trump by number."""
        if suit == TRUMP_SUIT:
            if trump is Trump.DOUBLES:
                return t.high
            suit = trump.value
        if t.is_double:
            return 7
        return t.other_end(suit)

    def legal_plays(
        self,
        hand: Sequence[Tile],
        trick: Sequence[Tile],
        texts: Sequence[str],
        trump: Trump,
        first_lead: bool,
    ) -> list[Tile]:
        """LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3."""
        if not trick:
            trumps = [t for t in hand if self.is_trump(t, trump)]
            return trumps if first_lead and trumps else list(hand)
        suit = self.led_suit(trick[0], texts[0], trump)
        following = [t for t in hand if self.in_suit(t, suit, trump)]
        return following or list(hand)

    def trick_winner(self, trick: Sequence[Tile], texts: Sequence[str], trump: Trump) -> int:
        """TRICK-2: the highest trump, else the highest tile of the suit led."""
        led = self.led_suit(trick[0], texts[0], trump)
        best, best_key = 0, (led == TRUMP_SUIT, self.rank(trick[0], led, trump))
        for i, t in enumerate(trick[1:], 1):
            if self.is_trump(t, trump):
                key = (True, self.rank(t, TRUMP_SUIT, trump))
            elif self.in_suit(t, led, trump):
                key = (False, self.rank(t, led, trump))
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        return best

    # -- the protocol ops -------------------------------------------------

    def answer(self, request: Request) -> JSON:
        """The result of an op the reference accepted."""
        rules = request_rules(request)
        op = request["op"]
        trump = Trump.parse(request["trump"]) if "trump" in request else Trump.NONE
        if op == "led_suit":
            suit = self.led_suit(Tile.parse(request["tile"]), request["tile"], trump)
            return "trump" if suit == TRUMP_SUIT else suit
        if op == "legal_plays":
            hand = [Tile.parse(x) for x in request["hand"]]
            trick = [Tile.parse(x) for x in request["trick"]]
            first = not trick and len(hand) == 7 and rules.first_lead is FirstLead.TRUMP
            plays = self.legal_plays(hand, trick, request["trick"], trump, first)
            return [str(t) for t in sorted(plays, reverse=True)]
        if op == "trick_winner":
            trick = [Tile.parse(x) for x in request["trick"]]
            return self.trick_winner(trick, request["trick"], trump)
        raise KeyError(op)

    OPS = ("led_suit", "legal_plays", "trick_winner")

    def handle(self, request: JSON) -> dict[str, JSON]:
        """The reference's answer, with the result recomputed by this kernel."""
        ref = reference(request)
        if not ref.get("ok") or request.get("op") not in self.OPS:
            return ref
        return {"id": ref["id"], "ok": True, "result": self.answer(request)}


def ok(request: Request, result: JSON) -> dict[str, JSON]:
    """A success answer to ``request``."""
    return {"id": request.get("id"), "ok": True, "result": result}


def rescore_replay(
    answer: dict[str, JSON],
    rules: RuleSet,
    score: Callable[[RuleSet, int, int, Sequence[int]], Sequence[int]],
) -> dict[str, JSON]:
    """A valid replay's answer with every played-out hand scored by ``score`` instead."""
    result = answer.get("result")
    if not answer.get("ok") or not isinstance(result, dict) or not result.get("valid"):
        return answer
    hands = []
    totals = [0] * rules.sides
    for h in result["hands"]:
        h = dict(h)
        if h["bidder"] is not None and sum(h["tricks"]) == 7:
            h["deltas"] = list(score(rules, h["bidder"], h["bid"], h["tricks"]))
        totals = [a + b for a, b in zip(totals, h["deltas"], strict=True)]
        hands.append(h)
    return {**answer, "result": {**result, "scores": totals, "hands": hands}}


def op_rules(request: Request) -> RuleSet:
    """The rules a request is asked under: a replayed record's own, else the request's."""
    record = request.get("record")
    if request.get("op") == "replay" and isinstance(record, dict) and "rules" in record:
        return rules_from_json(record["rules"])
    return request_rules(request)


def reference_deltas(rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int]) -> Sequence[int]:
    return score_hand(rules, bidder, bid, tricks).deltas


def main(handle: Callable[[JSON], dict[str, JSON]]) -> None:
    """Serve ``handle`` on stdin/stdout (the protocol's transport)."""
    from moonrules.conformance.fuzz import serve

    sys.exit(serve(handle))


if __name__ == "__main__":
    main(Kernel().handle)
