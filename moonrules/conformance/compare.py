"""Comparing a target's answers with the reference's, and the clauses a difference involves."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from typing import Final, Literal

from moonrules.conformance.target import (
    clip,
)
from moonrules.records.record import JSON
from moonrules.rules import clauses
from moonrules.rules.auction import PASS
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile

Request = dict[str, JSON]
Response = dict[str, JSON]
CompareLevel = Literal["strict", "code", "outcome"]
"""How much of an answer is compared (see :func:`comparable`)."""


# ---------------------------------------------------------------------------
# Comparing answers


def _dump(value: JSON) -> str:
    return _ENCODE(value)


_ENCODE: Final = json.JSONEncoder(separators=(",", ":"), sort_keys=False).encode
"""``json.dumps(value, separators=(",", ":"), sort_keys=False)``, its encoder made once."""


def _shape_error(answer: JSON) -> str | None:
    """Why ``answer`` is not a protocol answer, or ``None`` if it is one."""
    if not isinstance(answer, dict):
        return "the answer is not a JSON object"
    ok = answer.get("ok")
    if ok is True:
        return None if "result" in answer else 'the answer has "ok": true and no "result"'
    if ok is False:
        err = answer.get("error")
        if not isinstance(err, dict) or not isinstance(err.get("code"), str):
            return 'the answer has "ok": false and no "error" object with a "code"'
        return None
    return 'the answer has no "ok": true or false'


def comparable(op: str, answer: Response, level: CompareLevel = "strict") -> dict[str, JSON]:
    """The part of an answer that must agree at ``level`` (see :data:`COMPARE_LEVELS`).

    Always the ``id`` and ``ok``; the ``result``, or for a refusal the error's ``code``
    (not at ``outcome``) and ``rule`` (only at ``strict``). Messages are free text and
    never compared (nor is a replay violation's ``message``; nor its ``rule`` below
    ``strict``).
    """
    out: dict[str, JSON] = {"id": answer.get("id"), "ok": answer.get("ok")}
    if answer.get("ok") is True:
        result = answer.get("result")
        if (
            op == "replay"
            and isinstance(result, dict)
            and isinstance(result.get("violation"), dict)
        ):
            dropped = ("message",) if level == "strict" else ("message", "rule")
            violation = {k: v for k, v in result["violation"].items() if k not in dropped}
            result = {**result, "violation": violation}
        out["result"] = result
    elif level != "outcome":
        err = answer.get("error")
        err = err if isinstance(err, dict) else {}
        out["error"] = {"code": err.get("code")}
        if level == "strict":
            out["error"]["rule"] = err.get("rule")
    return out


def _is_number(value: JSON) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(a: JSON, b: JSON) -> bool:
    """Equality of JSON scalars: ``1`` and ``1.0`` are one number, ``true`` is no number."""
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


def first_difference(a: JSON, b: JSON, path: str = "") -> str | None:
    """Where JSON values ``a`` (expected) and ``b`` (actual) first differ, or ``None``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            sub = f"{path}.{key}" if path else key
            if key not in b:
                return f"{sub}: expected {clip(_dump(a[key]))}, missing"
            found = first_difference(a[key], b[key], sub)
            if found:
                return found
        for key in b:
            if key not in a:
                sub = f"{path}.{key}" if path else key
                return f"{sub}: not expected, got {clip(_dump(b[key]))}"
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if _same(a, b):
        return None
    return f"{path or 'answer'}: expected {clip(_dump(a))}, got {clip(_dump(b))}"


def compare(
    op: str, expected: Response, actual: Response, level: CompareLevel = "strict"
) -> str | None:
    """``None`` if the target's answer agrees with the reference's at ``level``, else where
    it differs."""
    return first_difference(comparable(op, expected, level), comparable(op, actual, level))


# ---------------------------------------------------------------------------
# The clauses a request involves


def _add(out: list[str], ids: Iterable[str]) -> None:
    for i in sorted(ids):
        if i not in out:
            out.append(i)


def clauses_involved(
    request: Request, expected: Response, actual: Response | None = None
) -> list[str]:
    """The clauses of ``spec/rules.md`` a request exercises, the ones the answers cite first.

    A request the reference refuses cites the clause it breaks; a legal one the
    clauses that decide its answer (:mod:`moonrules.rules.clauses` says which).
    """
    out: list[str] = []
    for answer in (expected, actual):
        if not isinstance(answer, dict):
            continue
        err = answer.get("error")
        if isinstance(err, dict) and isinstance(err.get("rule"), str):
            _add(out, [err["rule"]])
        result = answer.get("result")
        if isinstance(result, dict) and isinstance(result.get("violation"), dict):
            rule = result["violation"].get("rule")
            if isinstance(rule, str):
                _add(out, [rule])
    # a malformed request: the error's clause (if any) is all there is
    with contextlib.suppress(Exception):
        _add(out, _situation_clauses(request, expected, actual))
    return out


def _situation_clauses(request: Request, expected: Response, actual: Response | None) -> set[str]:
    from moonrules.conformance.protocol import request_rules

    rules = request_rules(request)
    op = request.get("op")
    trump = Trump.parse(request["trump"]) if "trump" in request else None
    if op == "tiles":
        return clauses.tiles_clauses(rules)
    if op == "led_suit" and trump is not None:
        return clauses.led_suit_clauses(Tile.parse(request["tile"]), trump)
    if op == "legal_plays" and trump is not None:
        hand = [Tile.parse(x) for x in request["hand"]]
        trick = [Tile.parse(x) for x in request["trick"]]
        return clauses.play_clauses(rules, hand, trick, trump)
    if op == "trick_winner" and trump is not None:
        return clauses.trick_clauses([Tile.parse(x) for x in request["trick"]], trump)
    if op in ("legal_bids", "auction"):
        calls = [PASS if b == "pass" else b for b in request["bids"]]
        return clauses.auction_clauses(rules, calls, asks_legal=op == "legal_bids")
    if op == "score_hand":
        return clauses.score_clauses(rules, request["bid"]) | clauses.rules_clauses(rules)
    if op == "game_winner":
        return clauses.game_end_clauses(rules, request["scores"]) | clauses.rules_clauses(rules)
    if op == "view":
        return {"VIEW-1"}
    if op == "replay" and actual is not None:
        return _replay_clauses(rules, compare("replay", expected, actual) or "")
    return set()


def _replay_clauses(rules: RuleSet, where: str) -> set[str]:
    """The clauses behind the first difference of two replays' results."""
    out: set[str] = set()
    if "deltas" in where or "scores" in where:
        out |= clauses.score_clauses(rules, 0) | clauses.rules_clauses(rules)
    if ".tricks" in where:
        out.add("TRICK-2")
    if "winner" in where:
        out |= clauses.game_end_clauses(rules, [rules.target, rules.target])
    if ".bidder" in where or ".bid" in where:
        out.add("BID-6")
    return out
