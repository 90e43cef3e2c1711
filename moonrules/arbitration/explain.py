"""Explaining one situation: the verdict, and the chain of clauses it rests on.

:func:`explain_play` (does a tile follow, may it be played), :func:`explain_trick`
(who wins a trick), :func:`explain_auction` (is a sequence of calls legal, and where
does it stand) and :func:`explain_score` (what a hand scores) are pure functions;
``moonrules explain`` only prints them, and rulings quote their reasons.

>>> from moonrules.rules.tiles import tiles
>>> e = explain_play(Trump.SIX, Tile(6, 6), trick=[Tile(3, 2)], hand=tiles("5-3 6-6 1-1"))
>>> e.legal, e.rule
(False, 'FOLLOW-2')
>>> [r.rule for r in e.reasons]
['LEAD-3', 'SUIT-2', 'FOLLOW-2']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from moonrules.rules import positions
from moonrules.rules.auction import MOON, PASS, Auction, call_name, check_call, legal_calls
from moonrules.rules.clauses import trump_clause
from moonrules.rules.contract import (
    check_arguments,
    check_bool,
    check_instance,
    check_int,
    check_sequence,
    check_str,
    typed,
)
from moonrules.rules.errors import IllegalAction, ParseError, quote, shown, wrong_type
from moonrules.rules.ruleset import FirstLead, RuleSet, Scoring
from moonrules.rules.scoring import HandScore, game_winner, score_hand, side_tricks
from moonrules.rules.suits import (
    TRUMP_SUIT,
    Trump,
    check_tile_and_trump,
    in_suit,
    is_trump,
    led_suit,
    rank,
)
from moonrules.rules.tiles import Tile, check_tiles
from moonrules.rules.tricks import trick_winner


@attrs.frozen(slots=True, field_transformer=typed)
class Reason:
    """One link of a ruling's chain: a clause and what it says about this case."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


def side_name(rules: RuleSet, side: int) -> str:
    """``seat N``, or ``team N (seats N and N+2)`` in partnership rules (TEAM-1)."""
    check_instance(rules, RuleSet, "rules")
    check_int(side, "side", 0, rules.sides - 1, "a side number")
    return f"team {side} (seats {side} and {side + 2})" if rules.partnership else f"seat {side}"


@attrs.frozen(slots=True, field_transformer=typed)
class Explanation:
    """An answer to one situation: a verdict, and the clause chain it rests on.

    ``legal`` is ``True``/``False`` for a question of legality (``None`` when
    the question is not one); ``rule`` the deciding clause; ``verdict`` one line.
    """

    verdict: str
    reasons: tuple[Reason, ...]
    legal: bool | None = None
    rule: str | None = None
    winner: int | None = None
    allowed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dictionary: what ``moonrules explain --json`` prints."""
        return {
            "verdict": self.verdict,
            "legal": self.legal,
            "rule": self.rule,
            "winner": self.winner,
            "allowed": list(self.allowed),
            "reasons": [{"rule": r.rule, "text": r.text} for r in self.reasons],
        }

    def lines(self) -> list[str]:
        """The explanation as text lines."""
        out = [self.verdict]
        if self.reasons:
            out.append("Why:")
            out.extend(f"  {k}. {r}" for k, r in enumerate(self.reasons, 1))
        return out


def _trump_why(t: Tile, trump: Trump) -> str:
    if trump is Trump.DOUBLES:
        return f"{t} is a double, and doubles are trump"
    return f"{t} bears a {trump.value}, and {trump.value}s are trump"


def _suit_word(suit: int) -> str:
    return "trumps" if suit == TRUMP_SUIT else f"{suit}s"


def _led_reason(led: Tile, trump: Trump) -> Reason:
    if is_trump(led, trump):
        return Reason("LEAD-3", f"{_trump_why(led, trump)}, so leading {led} calls trumps")
    if trump is Trump.NONE:
        pre = "no-trump: nothing is trump"
    elif led.is_double:
        pre = f"{led} is not a trump"
    else:
        pre = f"{led} is not a trump"
    if led.is_double:
        return Reason("LEAD-3", f"{pre}, so the double {led} calls its number: {led.high}s")
    return Reason(
        "LEAD-3",
        f"{pre}, so it calls the suit of its higher number, whichever end is written "
        f"first: {led.high}s",
    )


def _membership(t: Tile, suit: int, trump: Trump) -> Reason:
    if is_trump(t, trump):
        if suit == TRUMP_SUIT:
            return Reason(
                "SUIT-2", f"{_trump_why(t, trump)}: it belongs to the trump suit and follows"
            )
        extra = (
            f"; it bears a {suit}, but a trump is never a {suit}"
            if t.has(suit)
            else f"; it is not a {suit}"
        )
        return Reason(
            "SUIT-2",
            f"{_trump_why(t, trump)} ({trump_clause(trump)}), so it belongs to the trump suit "
            f"only{extra}: it does not follow {suit}s",
        )
    if suit == TRUMP_SUIT:
        return Reason("SUIT-1", f"{t} is not a trump: it does not follow a trump lead")
    if t.has(suit):
        kind = (
            f"the double {t} belongs to suit {suit}"
            if t.is_double
            else f"{t} is not a trump and bears a {suit}, so it belongs to suit {suit} "
            f"(and suit {t.other_end(suit)})"
        )
        return Reason("SUIT-1", f"{kind}: it follows {suit}s")
    return Reason("SUIT-1", f"{t} bears no {suit}: it does not follow {suit}s")


def explain_play(
    trump: Trump,
    play: Tile,
    *,
    trick: Sequence[Tile] = (),
    hand: Sequence[Tile] | None = None,
    rules: RuleSet | None = None,
    first_lead: bool = False,
) -> Explanation:
    """May ``play`` be played to ``trick`` (led tile first) from ``hand``, and why?

    Without ``hand``, says only whether the tile follows the suit led. With an
    empty ``trick`` it is a lead (LEAD-1; LEAD-2 when ``first_lead`` and the rules
    say the first lead must be a trump). A situation that cannot arise is refused
    as ``moonrules serve`` refuses it, with :class:`IllegalAction` naming the clause
    and the parameter: a trump the rules do not offer (TRUMP-5), a tile not of
    their set (TILE-2 … TILE-4), a tile twice (DEAL-3), more than seven tiles in
    the hand, or other than seven in the first trick (DEAL-1), a complete trick or a
    tile not in the hand (TRICK-1).
    """
    from moonrules.rules.ruleset import STANDARD

    check_tile_and_trump(play, trump, "play")
    check_tiles(trick, "trick", distinct=False)
    if hand is not None:
        check_tiles(hand, "hand", distinct=False)
    if rules is not None:
        check_instance(rules, RuleSet, "rules", "a RuleSet or None")
    check_bool(first_lead, "first_lead")
    r = rules or STANDARD
    tr = list(trick)
    _check_situation(trump, play, tr, hand, r, first_lead)
    if not tr:
        return _explain_lead(trump, play, hand, first_lead and r.first_lead is FirstLead.TRUMP)
    led = tr[0]
    suit = led_suit(led, trump)
    reasons = [_led_reason(led, trump), _membership(play, suit, trump)]
    if hand is None:
        return _explain_follows(trump, play, suit, reasons)
    return _explain_from_hand(trump, play, suit, hand, reasons)


def _check_situation(
    trump: Trump,
    play: Tile,
    trick: list[Tile],
    hand: Sequence[Tile] | None,
    r: RuleSet,
    first_lead: bool,
) -> None:
    """:class:`IllegalAction` unless ``play`` to ``trick`` from ``hand`` can happen (the
    checks of :mod:`moonrules.rules.positions`, as the protocol's)."""
    positions.check_offered(r, trump)
    positions.check_in_set(r, "play", play)
    positions.check_in_set(r, "trick", trick)
    hs = list(hand) if hand is not None else []
    positions.check_in_set(r, "hand", hs)
    positions.check_distinct((("trick", trick), ("hand", hs)))
    positions.check_trick_open(r, trick)
    if play in trick:
        raise IllegalAction(
            "DEAL-3", f"play: {play} is already in the trick; there is one of each tile", tile=play
        )
    if hand is not None:
        positions.check_hand(hs)
        if play not in hs:
            raise IllegalAction(
                "TRICK-1",
                f"play: {play} is not in the hand ({' '.join(map(str, hs))}); "
                "a player plays a tile they hold",
                tile=play,
            )
    if first_lead and hand is not None and len(hs) != positions.MAX_HAND:
        raise IllegalAction(
            "DEAL-1",
            f"first_lead: in the first trick of a hand a player holds {positions.MAX_HAND} "
            f"tiles, not {len(hs)}",
        )


def _explain_lead(
    trump: Trump, play: Tile, hand: Sequence[Tile] | None, lead_trump: bool
) -> Explanation:
    """A lead (LEAD-1, LEAD-3), and under ``lead_trump`` the first lead's LEAD-2."""
    reasons = [Reason("LEAD-1", "the leader may lead any tile"), _led_reason(play, trump)]
    trumps = [t for t in (hand or ()) if is_trump(t, trump)]
    if lead_trump and trump is not Trump.NONE and trumps and not is_trump(play, trump):
        reasons.append(
            Reason(
                "LEAD-2",
                f"but the first lead of a hand must be a trump when the leader holds "
                f"one, and the hand holds {' '.join(map(str, trumps))}",
            )
        )
        return Explanation(
            f"Illegal: {play} may not be led (LEAD-2).",
            tuple(reasons),
            False,
            "LEAD-2",
            allowed=tuple(map(str, trumps)),
        )
    suit = led_suit(play, trump)
    return Explanation(
        f"Legal: {play} may be led; it calls {_suit_word(suit)}.", tuple(reasons), True, "LEAD-1"
    )


def _follow_rule(suit: int) -> str:
    return "FOLLOW-1" if suit == TRUMP_SUIT else "FOLLOW-2"


def _one_of(suit: int) -> str:
    """One tile of ``suit``: ``trump`` or ``5``."""
    return "trump" if suit == TRUMP_SUIT else _suit_word(suit)[:-1]


def _explain_follows(trump: Trump, play: Tile, suit: int, reasons: list[Reason]) -> Explanation:
    """Whether ``play`` follows ``suit``, the hand unknown (FOLLOW-1, FOLLOW-2, FOLLOW-3)."""
    rule = _follow_rule(suit)
    if in_suit(play, suit, trump):
        return Explanation(
            f"{play} follows {_suit_word(suit)}: it may always be played to this trick ({rule}).",
            tuple(reasons),
            True,
            rule,
        )
    return Explanation(
        f"{play} does not follow {_suit_word(suit)}: it may be played only by a player "
        f"who holds no {_one_of(suit)} (FOLLOW-3).",
        tuple(reasons),
        None,
        rule,
    )


def _explain_from_hand(
    trump: Trump, play: Tile, suit: int, hand: Sequence[Tile], reasons: list[Reason]
) -> Explanation:
    """May ``play`` follow ``suit`` from ``hand`` (FOLLOW-1, FOLLOW-2, FOLLOW-3)?"""
    rule = _follow_rule(suit)
    following = [t for t in sorted(hand, reverse=True) if in_suit(t, suit, trump)]
    allowed = tuple(str(t) for t in (following or sorted(hand, reverse=True)))
    # trumps bearing the number led, which do not follow it (SUIT-2)
    fake = [t for t in hand if suit != TRUMP_SUIT and is_trump(t, trump) and t.has(suit)]
    bear = f"{' '.join(map(str, fake))} bear{'s' if len(fake) == 1 else ''} a {suit}"
    if in_suit(play, suit, trump):
        reasons.append(Reason(rule, f"{play} follows, so it may be played"))
        verdict = f"Legal: {play} follows {_suit_word(suit)} ({rule})."
        return Explanation(verdict, tuple(reasons), True, rule, allowed=allowed)
    if following:
        names = " ".join(map(str, following))
        one = len(following) == 1
        if suit == TRUMP_SUIT:
            which = "is a trump" if one else "are trumps"
        else:
            which = f"follows suit {suit}" if one else f"follow suit {suit}"
        note = f" ({bear} but is a trump, and does not count)" if fake else ""
        reasons.append(
            Reason(
                rule, f"the hand holds {names}, which {which}{note}; a player who can follow must"
            )
        )
        return Explanation(
            f"Illegal: {play} may not be played; the player must follow with "
            f"{' or '.join(map(str, following))} ({rule}).",
            tuple(reasons),
            False,
            rule,
            allowed=allowed,
        )
    note = f" ({bear}, but {_trump_why(fake[0], trump)}: a trump does not count)" if fake else ""
    reasons.append(
        Reason("FOLLOW-3", f"the hand holds no {_one_of(suit)}{note}, so any tile may be played")
    )
    return Explanation(
        f"Legal: the player cannot follow {_suit_word(suit)}, so {play} may be played (FOLLOW-3).",
        tuple(reasons),
        True,
        "FOLLOW-3",
        allowed=allowed,
    )


def explain_trick(
    trump: Trump,
    trick: Sequence[Tile],
    *,
    leader: int = 0,
    players: int | None = None,
    rules: RuleSet | None = None,
) -> Explanation:
    """Who wins a trick (led tile first), and why (LEAD-3, SUIT-1 … SUIT-4, TRICK-2).

    ``leader`` is the seat that led. With ``rules``, the trick is one of theirs: a trump
    they offer (TRUMP-5), tiles of their set (TILE-2 … TILE-4), at most one per player
    (TRICK-1); without, ``players`` (3 or 4; default 4 for a trick of 4 tiles, else 3)
    bounds the trick. A
    trick that cannot arise is refused as ``moonrules serve`` refuses it, with
    :class:`IllegalAction`: no tile or more than one per player (TRICK-1), a tile twice
    (DEAL-3), a leader who is no seat (SEAT-1).
    """
    from moonrules.rules.ruleset import PARTNERSHIP, STANDARD

    check_arguments(explain_trick, locals())
    ts = list(trick)
    if rules is None:
        n = players if players is not None else 4 if len(ts) == 4 else 3
        if n not in (3, 4) or type(n) is not int:
            raise ValueError(f"players: Moon has 3 or 4 players, not {shown(players)}")
        seats = STANDARD if n == 3 else PARTNERSHIP  # only the number of seats counts here
    else:
        if players is not None and players != rules.players:
            raise ValueError(f"players: {shown(players)}, but the rules have {rules.players}")
        positions.check_offered(rules, trump)
        positions.check_in_set(rules, "trick", ts)
        seats = rules
    n = seats.players
    positions.check_distinct((("trick", ts),))
    positions.check_trick_size(seats, ts, complete=False)
    if type(leader) is not int:
        raise wrong_type("leader", "a seat number", leader)
    positions.check_seat(seats, leader, "leader")
    led = ts[0]
    suit = led_suit(led, trump)
    reasons = [_led_reason(led, trump)]
    trumps = [t for t in ts if is_trump(t, trump)]
    for t in ts[1:]:
        if is_trump(t, trump):
            reasons.append(Reason(trump_clause(trump), f"{_trump_why(t, trump)}: {t} is a trump"))
        elif suit != TRUMP_SUIT and in_suit(t, suit, trump):
            reasons.append(Reason("SUIT-1", f"{t} follows {suit}s"))
        else:
            reasons.append(
                Reason(
                    "TRICK-2",
                    f"{t} neither follows {_suit_word(suit)} nor is a trump: it cannot win",
                )
            )
    if trumps:
        ranked = sorted(trumps, key=lambda t: rank(t, TRUMP_SUIT, trump), reverse=True)
        order = " > ".join(map(str, ranked))
        rule_rank = "SUIT-4"
        how = (
            "doubles rank by number"
            if trump is Trump.DOUBLES
            else "the double first, then by the other end"
        )
        if len(ranked) > 1:
            reasons.append(Reason(rule_rank, f"among the trumps, {how}: {order}"))
        best = ranked[0]
        reasons.append(Reason("TRICK-2", f"a trump was played, so the highest trump wins: {best}"))
    else:
        members = [t for t in ts if in_suit(t, suit, trump)]
        ranked = sorted(members, key=lambda t: rank(t, suit, trump), reverse=True)
        if len(ranked) > 1:
            reasons.append(
                Reason(
                    "SUIT-3",
                    f"within suit {suit}, the double ranks highest, then by the other end: "
                    + " > ".join(map(str, ranked)),
                )
            )
        best = ranked[0]
        reasons.append(
            Reason("TRICK-2", f"no trump was played, so the highest {suit} wins: {best}")
        )
    idx = ts.index(best)
    assert idx == trick_winner(ts, trump)
    seat = (leader + idx) % n
    complete = len(ts) == n
    verdict = (
        f"Seat {seat} wins the trick with {best}."
        if complete
        else f"Seat {seat} is winning the trick so far with {best} ({len(ts)} of {n} tiles)."
    )
    return Explanation(verdict, tuple(reasons), None, "TRICK-2", winner=seat)


def _parse_call(text: str) -> int:
    t = text.strip().lower()
    if t in ("pass", "p", "0", "-"):
        return PASS
    if t == "moon":
        return MOON
    if t.isascii() and t.isdigit() and len(t) <= 3:
        return int(t)
    raise ParseError(f"{quote(text)} is not a call: write 'pass' or a number of tricks")


def parse_calls(text: str) -> list[int]:
    """``"5,pass,6"`` as calls (0 for pass; ``moon`` for 21); a word that is not a call,
    or a number of more than three digits, raises :class:`ParseError`."""
    check_str(text, "text", "calls written as text, like 'pass 5 6'")
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    return [_parse_call(p) for p in parts]


def _call_type(value: object, parameter: str) -> None:
    check_int(value, parameter, what="a call: 0 (pass) or a bid")


def explain_auction(rules: RuleSet, calls: Sequence[int], first_bidder: int = 0) -> Explanation:
    """Are these calls (0 = pass) legal in order, and where does the auction stand?

    BID-2 (one call each, clockwise), BID-3 (each bid above the earlier ones),
    BID-4 (bid values), BID-5 (21 ends it), BID-6 (the winner), BID-7/BID-8 (all pass).
    """
    check_instance(rules, RuleSet, "rules")
    check_sequence(calls, "calls", "a sequence of calls (0 is a pass)", _call_type)
    check_int(first_bidder, "first_bidder", what="a seat number")
    n = rules.players
    positions.check_seat(rules, first_bidder, "first_bidder")
    a = Auction((), first_bidder, rules)
    reasons: list[Reason] = []
    for j, c in enumerate(calls):
        seat = (first_bidder + j) % n
        said = "passes" if c == PASS else f"bids {c}"
        try:
            check_call(a, c)
        except IllegalAction as e:
            legal = tuple(call_name(x) for x in legal_calls(a))
            reasons.append(Reason(e.rule, f"call {j + 1}: seat {seat} {said}: {e.message}"))
            return Explanation(
                f"Illegal: call {j + 1} ({'seat ' + str(seat) + ' ' + said}) breaks {e.rule}."
                + (f" Legal calls were: {', '.join(legal)}." if legal else ""),
                tuple(reasons),
                False,
                e.rule,
                allowed=legal,
            )
        if c == PASS:
            reasons.append(Reason("BID-3", f"call {j + 1}: seat {seat} passes"))
        else:
            high = a.high_bid
            why = f"higher than the earlier bid of {high}" if high else "the first bid"
            reasons.append(
                Reason(
                    "BID-3" if high else "BID-4",
                    f"call {j + 1}: seat {seat} bids {c}: a bid of these rules, {why}",
                )
            )
        a = a.call(c)
    if a.is_over:
        if a.redeal:
            reasons.append(Reason("BID-7", "every player passed: the hand is thrown in"))
            verdict = "Legal. Every player passed: the hand is thrown in and redealt (BID-7)."
        else:
            if MOON in a.calls:
                reasons.append(Reason("BID-5", "a bid of 21 ends the auction at once"))
            reasons.append(Reason("BID-6", f"the highest bid wins: seat {a.winner} with {a.bid}"))
            verdict = f"Legal. The auction is over: seat {a.winner} is the bidder with {a.bid}."
        return Explanation(verdict, tuple(reasons), True, "BID-6")
    legal = tuple(call_name(x) for x in legal_calls(a))
    standing = "no bid yet"
    if a.high_bid:
        top = (first_bidder + a.calls.index(a.high_bid)) % n
        standing = f"the high bid is {a.high_bid} (seat {top})"

    verdict = (
        f"Legal so far. The auction goes on: seat {a.to_call} to call; {standing}. "
        f"Legal calls: {', '.join(legal)}."
    )
    if PASS not in legal_calls(a):
        reasons.append(Reason("BID-8", "everyone before passed, so the last player must bid"))
    return Explanation(verdict, tuple(reasons), True, "BID-2", allowed=legal)


def explain_score(
    rules: RuleSet,
    bidder: int,
    bid: int,
    tricks: Sequence[int],
    *,
    totals: Sequence[int] | None = None,
) -> Explanation:
    """What a hand scores: ``tricks`` per seat, ``bidder`` a seat (SCORE-1 … SCORE-6, TEAM-1).

    With ``totals`` (per side, before the hand) it also says whether the game ends
    (END-1 … END-3, SCORE-4). A result no hand can have is refused as ``moonrules
    serve`` refuses it, with :class:`IllegalAction`: a bidder who is no seat, a bid
    the rules do not have, tricks that are not one number per seat adding up to 7
    (SEAT-1, BID-4, TRICK-3), totals that are not one per side (SEAT-1, TEAM-1).
    """
    check_arguments(explain_score, locals())
    positions.check_hand_result(rules, bidder, bid, tricks)
    if totals is not None:
        positions.check_scores(rules, totals, "totals")
    side = rules.side_of(bidder)
    per_side = side_tricks(rules, tricks)
    result: HandScore = score_hand(rules, bidder, bid, tricks)
    reasons: list[Reason] = []
    who = side_name(rules, side)
    if rules.partnership:
        reasons.append(
            Reason(
                "TEAM-1",
                f"partners' tricks count together: team 0 took {per_side[0]}, "
                f"team 1 took {per_side[1]}",
            )
        )
    need = 7 if bid == MOON else bid
    reasons.append(
        Reason(
            "SCORE-1",
            f"{who} bid {bid}{' (all 7 tricks)' if bid == MOON else ''} and took "
            f"{per_side[side]}: {'made' if result.made else 'set'} "
            f"({'at least' if result.made else 'fewer than'} {need})",
        )
    )
    if rules.scoring is Scoring.MARKS:
        reasons.append(
            Reason(
                "SCORE-6",
                "marks: a made contract gives the bidder one mark"
                if result.made
                else "marks: a set gives every other side one mark",
            )
        )
    else:
        reasons.append(
            Reason(
                "SCORE-2",
                f"{who} {'scores' if result.made else 'loses'} the bid: {result.deltas[side]:+d}",
            )
        )
        others = ", ".join(
            f"{side_name(rules, s)} {result.deltas[s]:+d}" for s in range(rules.sides) if s != side
        )
        reasons.append(Reason("SCORE-3", f"every other side scores a point a trick: {others}"))
    if result.game_won:
        reasons.append(Reason("SCORE-4", f"a made 21 wins the game outright for {who}"))
    deltas = " ".join(f"{d:+d}" for d in result.deltas)
    verdict = f"{who.capitalize()} is {'made' if result.made else 'set'}: score {deltas}."
    if totals is not None:
        after = [a + d for a, d in zip(totals, result.deltas, strict=True)]
        verdict += f" Totals {' '.join(map(str, totals))} → {' '.join(map(str, after))}."
        if result.game_won:
            verdict += f" {who.capitalize()} wins the game (SCORE-4)."
        else:
            w = game_winner(rules, after, side)
            if w is not None:
                reasons.append(
                    Reason("END-1", f"{side_name(rules, w)} has reached {rules.target} and leads")
                )
                verdict += f" {side_name(rules, w).capitalize()} wins the game (END-1)."
            elif max(after) >= rules.target:
                reasons.append(Reason("END-2", "a tie at the top: play goes on"))
                verdict += " A tie at the top: play goes on (END-2)."
            else:
                verdict += " The game goes on."
    return Explanation(verdict, tuple(reasons), None, "SCORE-1")


__all__ = [
    "Explanation",
    "Reason",
    "explain_auction",
    "explain_play",
    "explain_score",
    "explain_trick",
    "parse_calls",
    "side_name",
]
