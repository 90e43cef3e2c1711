"""Scoring a hand and ending the game (SCORE-1 … SCORE-6, END-1 … END-3, TEAM-1)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from moonrules.rules.auction import MOON
from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, shown, wrong_type
from moonrules.rules.ruleset import MoonMade, RuleSet, Scoring, TieRule


@attrs.frozen(slots=True, field_transformer=typed)
class HandScore:
    """The result of one hand: whether the contract was made, the score change of
    each side (seat, or team in partnership rules), and whether it won the game."""

    made: bool
    deltas: tuple[int, ...]
    game_won: bool


def side_tricks(rules: RuleSet, tricks: Sequence[int]) -> tuple[int, ...]:
    """Tricks per side: per seat, or per team when playing partnerships (TEAM-1)."""
    if rules.partnership:
        return (tricks[0] + tricks[2], tricks[1] + tricks[3])
    return tuple(tricks)


def is_made(bid: int, tricks_won: int) -> bool:
    """Whether a contract of ``bid`` is made with ``tricks_won`` tricks (SCORE-1)."""
    return tricks_won >= (7 if bid == MOON else bid)


def _check_hand(
    rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int], made: bool | None
) -> None:
    """:class:`TypeError` or :class:`ValueError` for an argument :func:`score_hand` cannot use:
    the bidder a seat, the bid one the rules allow (BID-4), the tricks one count per seat of
    the seven a hand has (TRICK-3)."""
    if not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet", rules)
    if type(bidder) is not int:
        raise wrong_type("bidder", "a seat number", bidder)
    if type(bid) is not int:
        raise wrong_type("bid", "a bid, a whole number of tricks", bid)
    if isinstance(tricks, (str, bytes)) or not isinstance(tricks, Sequence):
        raise wrong_type("tricks", "a sequence of tricks won per seat", tricks)
    for i, t in enumerate(tricks):
        if type(t) is not int:
            raise wrong_type(f"tricks[{i}]", "a whole number of tricks", t)
    if made is not None and type(made) is not bool:
        raise wrong_type("made", "True, False or None", made)
    if not 0 <= bidder < rules.players:
        raise ArgumentError(
            f"bidder: seats are numbered 0 to {rules.players - 1}, not {shown(bidder)}"
        )
    if bid not in rules.bids:
        allowed = ", ".join(map(str, rules.bids))
        raise ArgumentError(f"bid: these rules allow the bids {allowed}, not {shown(bid)}")
    if len(tricks) != rules.players or any(t < 0 for t in tricks) or sum(tricks) > 7:
        raise ArgumentError(
            f"tricks: {rules.players} counts of tricks won, one per seat, none below 0 and "
            f"7 at most in all (a hand has 7 tricks), not {shown(list(tricks))}"
        )


def score_hand(
    rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int], *, made: bool | None = None
) -> HandScore:
    """Score a hand: ``bidder`` is a seat, ``tricks`` the tricks won per seat.

    SCORE-1 made or set; SCORE-2 the bid won or lost; SCORE-3 one point a trick
    for the others; SCORE-4/SCORE-5 a made 21; SCORE-6 marks; TEAM-1 teams.
    ``made`` overrides SCORE-1 for a hand ended by a renege penalty (RENEGE-2).

    >>> from moonrules.rules.ruleset import STANDARD
    >>> score_hand(STANDARD, 0, 5, [4, 2, 1])
    HandScore(made=False, deltas=(-5, 2, 1), game_won=False)
    """
    _check_hand(rules, bidder, bid, tricks, made)
    side = rules.side_of(bidder)
    per_side = side_tricks(rules, tricks)
    if made is None:
        made = is_made(bid, per_side[side])
    game_won = made and bid == MOON and rules.moon_made is MoonMade.WINS_GAME
    if rules.scoring is Scoring.MARKS:
        deltas = tuple(
            (1 if s == side else 0) if made else (0 if s == side else 1) for s in range(rules.sides)
        )
    else:
        deltas = tuple(
            (bid if made else -bid) if s == side else per_side[s] for s in range(rules.sides)
        )
    return HandScore(made, deltas, game_won)


def game_winner(
    rules: RuleSet, scores: Sequence[int], bidder_side: int | None = None
) -> int | None:
    """The winning side after a hand, or ``None`` while play goes on (END-1 … END-3).

    ``scores`` per side; ``bidder_side`` is the side of the last hand's bidder
    (used by ``tie = bidder-out``). A made 21 that wins outright is decided by
    :func:`score_hand`, not here.

    >>> from moonrules.rules.ruleset import STANDARD
    >>> game_winner(STANDARD, [21, 22, 3]), game_winner(STANDARD, [22, 22, 3])
    (1, None)
    """
    if not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet", rules)
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise wrong_type("scores", "a sequence of scores, one per side", scores)
    for i, v in enumerate(scores):
        if type(v) is not int:
            raise wrong_type(f"scores[{i}]", "a whole number", v)
    if len(scores) != rules.sides:
        raise ArgumentError(
            f"scores: {rules.sides} scores, one per {'team' if rules.partnership else 'seat'}, "
            f"not {len(scores)}"
        )
    if bidder_side is not None:
        if type(bidder_side) is not int:
            raise wrong_type("bidder_side", "a side number or None", bidder_side)
        if not 0 <= bidder_side < rules.sides:
            raise ArgumentError(
                f"bidder_side: sides are numbered 0 to {rules.sides - 1}, not {shown(bidder_side)}"
            )
    return decided_winner(rules, scores, bidder_side)


def decided_winner(
    rules: RuleSet, scores: Sequence[int], bidder_side: int | None = None
) -> int | None:
    """:func:`game_winner` without its checks of the arguments, for callers that built them
    (END-1 … END-3): the bots' rollouts of games ask it thousands of times a decision."""
    top = max(scores)
    if top < rules.target:
        return None
    leaders = [i for i, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return leaders[0]
    if rules.tie is TieRule.BIDDER_OUT and bidder_side in leaders:
        return bidder_side
    return None


__all__ = ["HandScore", "game_winner", "is_made", "score_hand", "side_tricks"]
