"""SMT proofs of the integer rules, by symbolic execution of the real functions with CrossHair.

CrossHair runs the library's own ``score_hand``, ``is_made`` and ``game_winner`` on symbolic
integers, asks z3 for every feasible branch, and checks the postconditions below on each path.
"Confirmed over all paths" means the tree of paths was explored to its end with no counterexample:
a proof for every integer the preconditions allow (scores and targets are unbounded). The rule
sets are concrete (one path family per rule set, picked by the index ``r``).

Each ``_contract_*`` function below calls the real function and carries its contract as
PEP 316 conditions (``pre:``/``post:`` lines of the docstring), which is what CrossHair reads.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable
from dataclasses import replace
from time import process_time
from typing import Final

import attrs

from moonrules.rules.auction import MOON  # noqa: F401 - read by the contracts' conditions
from moonrules.rules.ruleset import MoonMade, RuleSet, Scoring, TieRule
from moonrules.rules.scoring import HandScore, game_winner, is_made, score_hand
from moonrules.rules.tiles import TileSet
from moonrules.verification import statements as spec
from moonrules.verification.core import Outcome, require


def _rule_sets(
    players: tuple[int, ...] = (3, 4),
    scoring: tuple[Scoring, ...] = tuple(Scoring),
    moon_made: tuple[MoonMade, ...] = tuple(MoonMade),
    tie: tuple[TieRule, ...] = (TieRule.PLAY_ON,),
) -> tuple[RuleSet, ...]:
    return tuple(
        RuleSet(
            players=n,
            tile_set=TileSet.MOON_22 if n == 3 else TileSet.DOUBLE_SIX_28,
            scoring=sc,
            moon_made=mm,
            tie=t,
        )
        for n, sc, mm, t in itertools.product(players, scoring, moon_made, tie)
    )


RULES: tuple[RuleSet, ...] = ()
"""The rule sets a contract ranges over (``r`` indexes it); each proof runs on a copy of its
contract whose ``RULES`` is the tuple of :data:`RULE_SETS` for the contract (see :func:`prove`)."""


def _tricks(rules: RuleSet, t0: int, t1: int, t2: int, t3: int) -> list[int]:
    """The tricks per seat: three or four seats."""
    return [t0, t1, t2, t3] if rules.players == 4 else [t0, t1, t2]


def _side_tricks(rules: RuleSet, tricks: list[int], side: int) -> int:
    """TEAM-1 restated: a team's tricks are its two seats' tricks."""
    if rules.players == 4:
        return tricks[side] + tricks[side + 2]
    return tricks[side]


def _made_ok(rules: RuleSet, bidder: int, bid: int, tricks: list[int], h: HandScore) -> bool:
    """SCORE-1 restated, and the same answer as ``is_made``."""
    won = _side_tricks(rules, tricks, spec.side(rules.players, bidder))
    return h.made == (won >= (7 if bid == spec.MOON_BID else bid)) == is_made(bid, won)


def _points_ok(
    rules: RuleSet, bidder: int, bid: int, tricks: list[int], h: HandScore, by_tricks: bool = True
) -> bool:
    """SCORE-2 … SCORE-5 restated for a hand ``h`` scored in points; with ``by_tricks``, made
    as SCORE-1 says (a renege decides it otherwise, RENEGE-2)."""
    side = spec.side(rules.players, bidder)
    sides = spec.sides(rules.players)
    if len(h.deltas) != sides or (by_tricks and not _made_ok(rules, bidder, bid, tricks, h)):
        return False
    for s in range(sides):
        want = (bid if h.made else -bid) if s == side else _side_tricks(rules, tricks, s)
        if h.deltas[s] != want:
            return False
    won = h.made and bid == spec.MOON_BID and rules.moon_made is MoonMade.WINS_GAME
    return h.game_won == won


def _marks_ok(
    rules: RuleSet, bidder: int, bid: int, tricks: list[int] | None, h: HandScore
) -> bool:
    """SCORE-6 restated: one mark to the bidder's side if made, else one to each other side;
    a made 21 still wins under SCORE-4; with ``tricks``, made as SCORE-1 says."""
    side = spec.side(rules.players, bidder)
    sides = spec.sides(rules.players)
    want = tuple(int(h.made) if s == side else int(not h.made) for s in range(sides))
    won = h.made and bid == spec.MOON_BID and rules.moon_made is MoonMade.WINS_GAME
    made_ok = tricks is None or _made_ok(rules, bidder, bid, tricks, h)
    return made_ok and h.deltas == want and h.game_won == won


def _contract_made(r: int, bidder: int, bid: int, t0: int, t1: int, t2: int, t3: int) -> bool:
    """SCORE-1, TEAM-1: made exactly when the bidder's side took the bid (7 for a 21).

    pre: 0 <= r < len(RULES)
    pre: 0 <= bidder < RULES[r].players
    pre: bid in RULES[r].bids
    pre: min(t0, t1, t2, t3) >= 0 and sum(_tricks(RULES[r], t0, t1, t2, t3)) == 7
    post: _made_ok(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3)))
    """  # noqa: E501
    return score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3)).made


def _contract_points(r: int, bidder: int, bid: int, t0: int, t1: int, t2: int, t3: int) -> int:
    """SCORE-2 … SCORE-5 (points): the bid won or lost, one point a trick for the others, a
    made 21 wins the game only under ``moon_made = wins-game``; a made bid never lowers the
    bidder's score.

    pre: 0 <= r < len(RULES)
    pre: 0 <= bidder < RULES[r].players
    pre: bid in RULES[r].bids
    pre: min(t0, t1, t2, t3) >= 0 and sum(_tricks(RULES[r], t0, t1, t2, t3)) == 7
    post: _points_ok(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3))) and (__return__ > 0 or not score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3)).made)
    """  # noqa: E501
    rules = RULES[r]
    return score_hand(rules, bidder, bid, _tricks(rules, t0, t1, t2, t3)).deltas[
        spec.side(rules.players, bidder)
    ]


def _contract_marks(r: int, bidder: int, bid: int, t0: int, t1: int, t2: int, t3: int) -> bool:
    """SCORE-6: marks; the same hand scored in points and in marks is made or set alike.

    pre: 0 <= r < len(RULES)
    pre: 0 <= bidder < RULES[r].players
    pre: bid in RULES[r].bids
    pre: min(t0, t1, t2, t3) >= 0 and sum(_tricks(RULES[r], t0, t1, t2, t3)) == 7
    post: _marks_ok(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3))) and __return__ == score_hand(attrs.evolve(RULES[r], scoring=Scoring.POINTS), bidder, bid, _tricks(RULES[r], t0, t1, t2, t3)).made
    """  # noqa: E501
    return score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3)).made


def _contract_renege(
    r: int, bidder: int, bid: int, made: bool, t0: int, t1: int, t2: int, t3: int
) -> bool:
    """RENEGE-2: a hand ended by a renege is scored as made or set by the offending side, the
    others scoring the tricks completed before it, whatever those tricks are.

    pre: 0 <= r < len(RULES)
    pre: 0 <= bidder < RULES[r].players
    pre: bid in RULES[r].bids
    pre: min(t0, t1, t2, t3) >= 0 and sum(_tricks(RULES[r], t0, t1, t2, t3)) <= 6
    post: __return__ == made and (_points_ok(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), made=made), False) if RULES[r].scoring is Scoring.POINTS else _marks_ok(RULES[r], bidder, bid, None, score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), made=made)))
    """  # noqa: E501
    return score_hand(RULES[r], bidder, bid, _tricks(RULES[r], t0, t1, t2, t3), made=made).made


def _end_ok(rules: RuleSet, target: int, scores: list[int], bidder_side: int, won: int) -> bool:
    """END-1 … END-3 restated (``won`` is -1 for no winner yet): the single top score at or
    above the target wins; a tie at the top plays on, unless END-3 sends the tied bidder out."""
    top = max(scores)
    leaders = [s for s in range(len(scores)) if scores[s] == top]
    if top < target:
        return won == -1
    if len(leaders) == 1:
        return won == leaders[0]
    if rules.tie is TieRule.BIDDER_OUT and bidder_side in leaders:
        return won == bidder_side
    return won == -1


def _contract_end(r: int, target: int, s0: int, s1: int, s2: int, bidder_side: int) -> int:
    """END-1 … END-3: for every target and every score, the game ends with the single top
    score at or above the target; a tie at the top plays on (END-2) unless the bidder is in it
    under END-3; there is never more than one winner, and a winner has the top score.

    pre: 0 <= r < len(RULES) and target >= 1
    pre: 0 <= bidder_side < RULES[r].sides
    post: _end_ok(RULES[r], target, [s0, s1, s2][: RULES[r].sides], bidder_side, __return__)
    """
    rules = attrs.evolve(RULES[r], target=target)
    won = game_winner(rules, [s0, s1, s2][: rules.sides], bidder_side)
    return -1 if won is None else won


CONTRACTS: Final[dict[str, Callable[..., object]]] = {
    "made": _contract_made,
    "points": _contract_points,
    "marks": _contract_marks,
    "renege": _contract_renege,
    "end": _contract_end,
}
"""The contracts, by name."""

RULE_SETS: Final[dict[str, tuple[RuleSet, ...]]] = {
    "made": _rule_sets(),
    "points": _rule_sets(scoring=(Scoring.POINTS,)),
    "marks": _rule_sets(scoring=(Scoring.MARKS,)),
    "renege": _rule_sets(),
    "end": _rule_sets(
        scoring=(Scoring.POINTS,), moon_made=(MoonMade.WINS_GAME,), tie=tuple(TieRule)
    ),
}
"""Per contract, every combination of the rule-set fields the function reads: ``score_hand``
reads ``players``, ``scoring`` and ``moon_made``; ``game_winner`` reads ``target`` (symbolic
here) and ``tie``."""

QUICK_RULE_SETS: Final[dict[str, tuple[RuleSet, ...]]] = {
    "made": _rule_sets(players=(4,), scoring=(Scoring.POINTS,), moon_made=(MoonMade.WINS_GAME,)),
    "points": _rule_sets(players=(3,), scoring=(Scoring.POINTS,), moon_made=(MoonMade.SCORES_21,)),
    "marks": _rule_sets(players=(3,), scoring=(Scoring.MARKS,), moon_made=(MoonMade.SCORES_21,)),
    "renege": _rule_sets(players=(3,), scoring=(Scoring.POINTS,), moon_made=(MoonMade.WINS_GAME,)),
    "end": (
        *_rule_sets(players=(3,), moon_made=(MoonMade.WINS_GAME,), tie=(TieRule.BIDDER_OUT,))[:1],
        *_rule_sets(players=(4,), moon_made=(MoonMade.WINS_GAME,))[:1],
    ),
}
"""With ``--quick``: a few of each contract's rule sets, chosen so that together the quick
proofs meet three players and four, points and marks, both rules for a made 21 and both tie
rules (see :func:`describe`); the bounded model check's hand ends cover the rest of each
preset family."""


def describe(rules: RuleSet) -> str:
    """The fields of ``rules`` a contract reads, in words."""
    moon = "a made 21 wins" if rules.moon_made is MoonMade.WINS_GAME else "a made 21 scores 21"
    tie = "ties play on" if rules.tie is TieRule.PLAY_ON else "the bidder out on a tie"
    return f"{rules.players} players, {rules.scoring.value}, {moon}, {tie}"


def quick_domain(name: str) -> str:
    """The quick domain of contract ``name``, in words."""
    sets = "; ".join(describe(r) for r in QUICK_RULE_SETS[name])
    return f"the same integers under {len(QUICK_RULE_SETS[name])} of those rule sets ({sets})"


def with_rules(fn: Callable[..., object], rules: tuple[RuleSet, ...]) -> Callable[..., object]:
    """A copy of the contract ``fn`` whose ``RULES`` (in body and conditions) is ``rules``."""
    assert isinstance(fn, types.FunctionType)
    copy = types.FunctionType(
        fn.__code__, {**fn.__globals__, "RULES": rules}, fn.__name__, fn.__defaults__
    )
    copy.__doc__ = fn.__doc__
    copy.__annotations__ = fn.__annotations__
    copy.__module__ = fn.__module__
    copy.__qualname__ = fn.__qualname__
    return copy


def prove(fn: Callable[..., object], timeout: float = 120.0) -> Outcome:
    """Every postcondition of ``fn``, by CrossHair: the paths confirmed, or a counterexample.

    A postcondition that CrossHair neither confirms over all paths nor refutes within
    ``timeout`` seconds of CPU is a failure ("not confirmed"): only a finished proof passes.
    """
    from crosshair.condition_parser import condition_parser
    from crosshair.core import analyze_calltree
    from crosshair.core_and_libs import standalone_statespace  # noqa: F401 - registers the libs
    from crosshair.fnutil import FunctionInfo
    from crosshair.options import DEFAULT_OPTIONS, AnalysisKind, AnalysisOptionSet
    from crosshair.statespace import VerificationStatus

    options = DEFAULT_OPTIONS.overlay(
        AnalysisOptionSet(
            analysis_kind=[AnalysisKind.PEP316],
            per_condition_timeout=timeout,
            per_path_timeout=timeout,
            max_iterations=1_000_000,
        )
    )
    with condition_parser(options.analysis_kind) as parser:
        conditions = parser.get_fn_conditions(FunctionInfo.from_fn(fn))
    require(conditions is not None and bool(conditions.post), f"{fn.__name__} has no contract")
    assert conditions is not None
    paths = 0
    for post in conditions.post:
        opts = replace(options)
        opts.deadline = process_time() + timeout
        with condition_parser(options.analysis_kind):
            analysis = analyze_calltree(opts, replace(conditions, post=[post]))
        status = analysis.verification_status
        if status is not VerificationStatus.CONFIRMED:
            found = "; ".join(m.message for m in analysis.messages) or "no counterexample found"
            what = "refuted" if status is VerificationStatus.REFUTED else "not confirmed in time"
            require(False, f"{fn.__name__}: `{post.expr_source}` {what}: {found}")
        paths += analysis.num_confirmed_paths
    return Outcome(paths, "paths confirmed by CrossHair (z3)")


def proof(name: str) -> Callable[[bool], Outcome]:
    """The check of the catalogue for contract ``name`` over its rule sets: one proof per rule
    set (together, the proof over all of them), each with a time bound of its own, so that a
    proof's bound does not shrink as the rule sets it covers grow in number."""

    def check(quick: bool) -> Outcome:
        sets = (QUICK_RULE_SETS if quick else RULE_SETS)[name]
        paths = sum(prove(with_rules(CONTRACTS[name], (rules,))).cases for rules in sets)
        return Outcome(paths, "paths confirmed by CrossHair (z3)")

    check.__name__ = f"prove_{name}"
    return check


__all__ = [
    "CONTRACTS",
    "QUICK_RULE_SETS",
    "RULE_SETS",
    "describe",
    "proof",
    "prove",
    "quick_domain",
    "with_rules",
]
