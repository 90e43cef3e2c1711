"""Arbitration: check a game record, rule on the first illegal step, explain a ruling.

:func:`read_record` reads a record (JSON or the text notation of
:mod:`moonrules.records.notation`); :func:`check` replays it and builds a :class:`Report`:
hand by hand what happened (deal, auction, widow and discard, trump, tricks,
score), and, at the first step the rules forbid, a :class:`Ruling` that says which
hand and step, what was done, why it is illegal, what was allowed instead and the
clause. :func:`format_report` prints a report as text, :func:`report_html` as a
self-contained HTML page.

The ``explain_*`` functions answer one situation with the chain of clauses a
ruling rests on: :func:`explain_play` (does a tile follow, may it be played),
:func:`explain_trick` (who wins a trick), :func:`explain_auction` (is a sequence
of calls legal, and where does it stand) and :func:`explain_score` (what a hand
scores). They are pure functions; ``moonrules explain`` only prints them.

>>> e = explain_play(Trump.SIX, Tile(6, 6), trick=[Tile(3, 2)], hand=tiles("5-3 6-6 1-1"))
>>> e.legal, e.rule
(False, 'FOLLOW-2')
>>> [r.rule for r in e.reasons]
['LEAD-3', 'SUIT-2', 'FOLLOW-2']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import attrs

from moonrules.game.state import GameState, Hand, Phase, Trick, legal_play_mask
from moonrules.records.notation import Notation, looks_like_json, parse_notation
from moonrules.records.record import JSON, RecordError, ReplayResult, Violation, load_record, replay
from moonrules.rules.auction import MOON, PASS, Auction, call_name, check_call, legal_calls
from moonrules.rules.clauses import trump_clause
from moonrules.rules.errors import IllegalAction, ParseError
from moonrules.rules.ruleset import FirstLead, MoonMade, RuleSet, Scoring, WidowTiming
from moonrules.rules.scoring import HandScore, game_winner, is_made, score_hand, side_tricks
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit, rank
from moonrules.rules.tiles import TILES, Tile, tiles, tiles_of
from moonrules.rules.tricks import trick_winner

# ---------------------------------------------------------------------------
# Reading a record


@attrs.frozen(slots=True)
class Source:
    """A record as read: the JSON record, and the notation it came from (if any)."""

    record: JSON
    notation: Notation | None = None

    @property
    def format(self) -> Literal["json", "notation"]:
        return "json" if self.notation is None else "notation"


def read_record(text: str) -> Source:
    """Read record text, JSON or the notation (told apart by the first character).

    Raises :class:`~moonrules.records.record.RecordError` (with the line, or the field)
    for text that is neither.
    """
    if not text.strip():
        raise RecordError("", "the record is empty: expected a JSON record or the notation")
    if looks_like_json(text):
        return Source(load_record(text.lstrip("\ufeff")))
    n = parse_notation(text.lstrip("\ufeff"))
    return Source(n.record, n)


# ---------------------------------------------------------------------------
# Reports


@attrs.frozen(slots=True)
class Reason:
    """One link of a ruling's chain: a clause and what it says about this case."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


@attrs.frozen(slots=True)
class Ruling:
    """The first step of a record the rules forbid, told for people.

    ``hand`` and ``index`` are positions in the record (0-based, as in a
    :class:`~moonrules.records.record.Violation`); ``label`` says it for people ("Hand 2,
    trick 4"); ``why`` is the plain-words reason, ``allowed`` what was legal
    instead (``allowed_kind`` says what they are: plays, calls, …), ``reasons``
    the clause chain, ``line`` the notation line.
    """

    hand: int
    step: str
    index: int | None
    rule: str
    label: str
    seat: int | None
    why: str
    allowed: tuple[str, ...] = ()
    allowed_kind: str = ""
    reasons: tuple[Reason, ...] = ()
    line: int | None = None
    path: str | None = None
    defeating_line: tuple[tuple[int, Tile], ...] = ()
    tile: Tile | None = None
    """The tile played or discarded, for a ruling on a play or a discard."""
    verdict: str = "Illegal"
    """How the ruling ends: "Illegal", or for a claim "The claim fails"."""

    @property
    def text(self) -> str:
        """The ruling as one paragraph."""
        where = f"{self.label}{f' (line {self.line})' if self.line else ''}"
        out = f"{where}: {self.why} {self.verdict} ({self.rule})."
        if self.step == "score" and self.allowed:
            out += f" The correct totals are: {self.allowed[0]}."
        elif self.allowed_kind:
            legal = ", ".join(self.allowed) if self.allowed else "none"
            out += f" Legal {self.allowed_kind} were: {legal}."
        return out

    def to_json(self) -> dict[str, JSON]:
        """The protocol's violation object: ``hand``, ``step``, ``index``, ``rule``, ``message``."""
        return {
            "hand": self.hand,
            "step": self.step,
            "index": self.index,
            "rule": self.rule,
            "message": _cap(self.why),
        }


@attrs.frozen(slots=True)
class TrickReport:
    """A trick as played: number, leader, tiles in play order, winner (``None`` if unfinished)."""

    number: int
    leader: int
    tiles: tuple[Tile, ...]
    winner: int | None
    players: int

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % self.players


@attrs.frozen(slots=True)
class RenegeReport:
    """A renege scored under ``renege = penalty`` (RENEGE-2)."""

    seat: int
    tile: Tile
    trick: TrickReport
    holding: tuple[Tile, ...]
    legal: tuple[Tile, ...]
    rule: str
    bidder_side: bool
    """Whether the bidder's side reneged (then the contract is set; else it is made)."""
    explanation: Explanation


@attrs.frozen(slots=True)
class HandReport:
    """One hand of a checked record, as far as the record goes."""

    number: int
    first_bidder: int
    deal: tuple[tuple[Tile, ...], ...]
    widow: Tile | None
    calls: tuple[tuple[int, int], ...]
    """``(seat, call)``: each call of the auction; a call is 0 for pass."""
    bidder: int | None
    bid: int | None
    thrown_in: bool
    discard: Tile | None
    trump: Trump | None
    trump_first: bool
    tricks: tuple[TrickReport, ...]
    tricks_won: tuple[int, ...]
    finished: bool
    made: bool | None
    deltas: tuple[int, ...] | None
    totals: tuple[int, ...]
    """Running totals after this hand (or so far, for an unfinished one)."""
    renege: RenegeReport | None
    sheet: tuple[int, ...] | None = None
    """The totals the record's ``score`` line gives, if any."""


@attrs.frozen(slots=True)
class ClaimReport:
    """A claim line checked (CLAIM-1)."""

    seat: int
    tricks: int | None
    remaining: int
    holds: bool
    guaranteed: int
    defeating_line: tuple[tuple[int, Tile], ...]


@attrs.frozen(slots=True)
class Report:
    """What :func:`check` found: the game hand by hand, and the ruling, if any."""

    rules: RuleSet
    rules_label: str
    seed: int | None
    hands: tuple[HandReport, ...]
    ruling: Ruling | None
    replay: ReplayResult
    state: GameState
    """The state reached: the end of the record, or just before the ruling's step."""
    end: str
    claim: ClaimReport | None = None
    source_format: str = "json"
    notation_ruling: bool = False

    @property
    def valid(self) -> bool:
        return self.ruling is None

    @property
    def status(self) -> int:
        """The exit status of ``moonrules check``: 0 valid, 1 a rule broken."""
        return 0 if self.ruling is None else 1

    def to_json(self) -> dict[str, JSON]:
        """The protocol's ``replay`` answer; for a ruling only the notation can give
        (a call by the wrong seat, a wrong ``score`` line, a failed ``claim``), the
        same answer shape with that violation."""
        if self.ruling is not None and self.notation_ruling:
            return {"valid": False, "violation": self.ruling.to_json()}
        return self.replay.to_json()


def side_name(rules: RuleSet, side: int) -> str:
    """``seat N``, or ``team N (seats N and N+2)`` in partnership rules."""
    return f"team {side} (seats {side} and {side + 2})" if rules.partnership else f"seat {side}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith(".") else text + "."


_STEP_ORDER = {"deal": 0, "bid": 1, "discard": 2, "trump": 2, "play": 4, "score": 5, "claim": 6}


def _position(hand: int, step: str, index: int | None) -> tuple[int, int, int]:
    return (hand, _STEP_ORDER.get(step, 3), -1 if index is None else index)


# ---------------------------------------------------------------------------
# Checking


class UnreadableDeal(RecordError):
    """A record whose deal does not divide the tiles (DEAL-1 … DEAL-3): not a game at all."""

    def __init__(self, path: str, message: str, rule: str) -> None:
        super().__init__(path, f"{message} ({rule})")
        self.rule = rule


def check(source: Source | JSON) -> Report:
    """Replay a record and report it hand by hand, with the ruling on its first illegal step.

    Raises :class:`~moonrules.records.record.RecordError` for a record that cannot be
    read, including a deal that does not divide the rule set's tiles
    (:class:`UnreadableDeal`: DEAL-1, DEAL-2, DEAL-3).
    """
    src = source if isinstance(source, Source) else Source(source)
    record = src.record
    result = replay(record)
    v = result.violation
    if v is not None and v.step == "deal" and v.rule.startswith("DEAL-"):
        reason = v.error.reason if v.error is not None else v.message
        raise UnreadableDeal(f"hands[{v.hand}].deal", reason.rstrip("."), v.rule)
    note = src.notation
    candidate = _notation_ruling_position(src, result)
    hands_v = record["hands"]
    if candidate is not None and (
        v is None or _position(*candidate[:3]) < _position(v.hand, v.step, v.index)
    ):
        hand, step, index = candidate[:3]
        state = _replay_prefix(record, hand, step, index, result.state)
        ruling = _notation_ruling(src, state, candidate)
        upto = hand + 1
        return _report(src, result, state, ruling, upto, notation_ruling=True)
    if v is not None:
        state = _replay_prefix(record, v.hand, v.step, v.index, result.state)
        ruling = _ruling(src, state, v)
        upto = v.hand if v.step == "deal" else v.hand + 1
        return _report(src, result, state, ruling, upto)
    state = result.state
    claim: ClaimReport | None = None
    final: Ruling | None = None
    if note is not None and note.claim is not None:
        claim, final = _check_claim(src, state)
    return _report(
        src,
        result,
        state,
        final,
        len(hands_v),
        claim=claim,
        notation_ruling=final is not None,
    )


def _replay_prefix(
    record: JSON, hand: int, step: str, index: int | None, fallback: GameState
) -> GameState:
    """The state just before a step: the record cut there, replayed."""
    if hand == 0 and step == "deal":
        return fallback
    hands = [dict(h) for h in record["hands"][: hand + (0 if step == "deal" else 1)]]
    if step != "deal":
        last = hands[-1]
        keys = list(last)
        drop: tuple[str, ...]
        if step == "bid":
            last["bids"] = list(last.get("bids", []))[: index or 0]
            drop = ("discard", "trump", "plays")
        elif step in ("discard", "trump"):
            after = keys[keys.index(step) + 1 :] if step in keys else ["plays"]
            drop = (step, *after, "plays")
        elif step == "play":
            last["plays"] = list(last.get("plays", []))[: index or 0]
            drop = ()
        else:
            drop = ()
        for key in drop:
            last.pop(key, None)
    result = replay({**record, "hands": hands})
    return fallback if result.violation is not None else result.state


def _notation_ruling_position(
    src: Source, result: ReplayResult
) -> tuple[int, str, int | None, int] | None:
    """The first thing only the notation shows wrong: (hand, step, index, kind)."""
    note = src.notation
    if note is None:
        return None
    record = src.record
    rules = result.state.rules
    n = rules.players
    found: list[tuple[int, str, int | None, int]] = []
    for (i, j), seat in sorted(note.seats.items()):
        hands = record["hands"]
        if i >= len(hands):
            continue
        first = hands[i].get("first_bidder")
        if type(first) is int and seat != (first + j) % n:
            found.append((i, "bid", j, 0))
            break
    # score lines: compare with the totals replay reached
    totals = [0] * rules.sides
    summaries = result.hands
    for sl in note.scores:
        if sl.hand >= len(summaries):
            break
        totals = [0] * rules.sides
        for h in summaries[: sl.hand + 1]:
            totals = [a + b for a, b in zip(totals, h.deltas, strict=True)]
        if list(sl.totals) != totals:
            found.append((sl.hand, "score", None, 1))
            break
    if not found:
        return None
    return min(found, key=lambda f: _position(*f[:3]))


def _notation_ruling(
    src: Source, state: GameState, candidate: tuple[int, str, int | None, int]
) -> Ruling:
    note = src.notation
    assert note is not None
    hand, step, index, _kind = candidate
    rules = state.rules
    line = note.lines.get((hand, step, index))
    if step == "bid":
        assert index is not None
        seat = note.seats[(hand, index)]
        call = src.record["hands"][hand]["bids"][index]
        to_act = state.to_act
        what = "passed" if call == "pass" else f"bid {call}"
        auction = state.auction
        legal = tuple(call_name(c) for c in legal_calls(auction))
        why = (
            f"seat {seat} {what}, but it was seat {to_act}'s turn to call: the calls go "
            f"clockwise from seat {state.hand.first_bidder}, one each (BID-2), and only the "
            "player whose turn it is may act"
        )
        return Ruling(
            hand,
            "bid",
            index,
            "TURN-1",
            f"Hand {hand + 1}, call {index + 1}",
            seat,
            _sentence(why),
            legal,
            f"calls for seat {to_act}",
            (
                Reason("BID-2", "the auction goes clockwise from the first bidder, one call each"),
                Reason("TURN-1", "only the player whose turn it is may act"),
            ),
            line,
            f"hands[{hand}].bids[{index}]",
        )
    # a score line
    sheet = next(s for s in note.scores if s.hand == hand)
    hands = [*state.history, state.hand]
    done = next(h for h in hands if h.number == hand + 1)
    before = tuple(
        s - d for s, d in zip(state.scores, done.deltas or (0,) * rules.sides, strict=True)
    )
    correct = _totals_after(state, hand)
    reasons = _score_reasons(rules, done)
    wrong = [s for s in range(rules.sides) if sheet.totals[s] != correct[s]]
    bidder_side = rules.side_of(done.bidder) if done.bidder >= 0 else None
    if done.bidder < 0:
        rule = "BID-7"
    elif rules.scoring is Scoring.MARKS:
        rule = "SCORE-6"
    elif bidder_side in wrong:
        rule = "SCORE-2"
    else:
        rule = "SCORE-3"
    names = ", ".join(
        f"{side_name(rules, s)} {sheet.totals[s]} (should be {correct[s]})" for s in wrong
    )
    delta = ", ".join(f"{d:+d}" for d in (done.deltas or (0,) * rules.sides))
    why = (
        f"the score sheet gives {' '.join(map(str, sheet.totals))} after hand {hand + 1}; "
        f"the totals are {' '.join(map(str, correct))}: {names}. "
        f"From {' '.join(map(str, before))}, the hand scores {delta}"
    )
    return Ruling(
        hand,
        "score",
        None,
        rule,
        f"Hand {hand + 1}, score",
        None,
        _sentence(why),
        (" ".join(map(str, correct)),),
        "totals",
        reasons,
        sheet.line,
        None,
        verdict="Wrong score",
    )


def _totals_after(state: GameState, hand: int) -> tuple[int, ...]:
    rules = state.rules
    totals = [0] * rules.sides
    for h in (*state.history, state.hand):
        if h.number <= hand + 1 and h.deltas is not None:
            totals = [a + b for a, b in zip(totals, h.deltas, strict=True)]
    return tuple(totals)


def _step_label(rules: RuleSet, hand: int, step: str, index: int | None) -> str:
    if step == "bid":
        return f"Hand {hand + 1}, call {(index or 0) + 1}"
    if step == "play":
        return f"Hand {hand + 1}, trick {(index or 0) // rules.players + 1}"
    return f"Hand {hand + 1}, {step}"


def _path(v: Violation) -> str:
    field = {"bid": "bids", "play": "plays"}.get(v.step, v.step)
    return f"hands[{v.hand}].{field}" + (f"[{v.index}]" if v.index is not None else "")


@attrs.frozen(slots=True)
class _Told:
    """What a ruling says about its step: who, why, what was allowed, the clause chain."""

    why: str
    seat: int | None = None
    allowed: tuple[str, ...] = ()
    kind: str = ""
    reasons: tuple[Reason, ...] = ()
    tile: Tile | None = None


def _ruling(src: Source, state: GameState, v: Violation) -> Ruling:
    """The ruling on a violation replay found, from the error's structured fields."""
    err = v.error if v.error is not None else IllegalAction(v.rule, v.message)
    told = _Told(_sentence(err.reason))
    h = state.hand
    here = h.number == v.hand + 1 and not state.is_over
    record_hand = src.record["hands"][v.hand]
    if v.step == "bid" and here and h.phase is Phase.BIDDING:
        told = _bid_told(state, record_hand, v, err, told.why)
    elif v.step == "bid":
        told = _late_bid_told(src, state.rules, record_hand, v, told.why)
    elif v.step == "discard" and here and h.phase is Phase.DISCARD:
        allowed = err.allowed_tiles or tuple(reversed(tiles_of(h.hands[h.bidder])))
        told = _Told(told.why, h.bidder, tuple(map(str, allowed)), "discards", tile=err.tile)
    elif v.step == "trump" and here and h.phase is Phase.TRUMP:
        why = told.why
        if err.trump is not None:
            why = f"seat {h.bidder} named trump {err.trump}: {why}"
        allowed_trumps = err.allowed_trumps or state.rules.trumps
        told = _Told(why, h.bidder, tuple(map(str, allowed_trumps)), "trumps")
    elif v.step == "play" and here and h.phase is Phase.PLAY:
        told = _play_told(state, err, told.why)
    line = src.notation.lines.get((v.hand, v.step, v.index)) if src.notation else None
    return Ruling(
        v.hand,
        v.step,
        v.index,
        v.rule,
        _step_label(state.rules, v.hand, v.step, v.index),
        told.seat,
        told.why,
        told.allowed,
        told.kind,
        told.reasons,
        line,
        _path(v),
        tile=told.tile,
    )


def _bid_told(
    state: GameState, record_hand: JSON, v: Violation, err: IllegalAction, why: str
) -> _Told:
    """A call the auction refuses (BID-2 … BID-8), made in turn."""
    h = state.hand
    seat = state.to_act
    allowed = err.allowed_calls
    if allowed is None:
        allowed = legal_calls(state.auction)
    bids = record_hand.get("bids", [])
    reasons: tuple[Reason, ...] = ()
    if v.index is not None and v.index < len(bids):
        call = bids[v.index]
        said = "passed" if call == "pass" else f"bid {call}"
        why = f"seat {seat} {said}: {why}"
        calls = [*h.calls, _parse_call_value(call)]
        reasons = explain_auction(state.rules, calls, h.first_bidder).reasons[-1:]
    return _Told(why, seat, tuple(map(call_name, allowed)), "calls", reasons)


def _late_bid_told(src: Source, rules: RuleSet, record_hand: JSON, v: Violation, why: str) -> _Told:
    """A call after the auction was over (BID-2, BID-5)."""
    bids = record_hand.get("bids", [])
    if v.index is None or v.index >= len(bids):
        return _Told(why)
    seat = src.notation.seats.get((v.hand, v.index)) if src.notation is not None else None
    if seat is None:
        seat = (record_hand.get("first_bidder", 0) + v.index) % rules.players
    call = bids[v.index]
    said = "passed" if call == "pass" else f"bid {call}"
    ended_by = " and 21 had ended it (BID-5)" if MOON in bids[: v.index] else ""
    if v.rule in ("BID-2", "BID-5"):
        why = _sentence(f"seat {seat} {said} after the auction was over: {why}")
    else:
        why = _sentence(
            f"seat {seat} {said} after the auction was over: every player had had "
            f"their one call (BID-2){ended_by}; {why.rstrip('.')}"
        )
    reasons = (
        Reason("BID-2", "the auction is one round: each player calls once, clockwise"),
        Reason("TURN-1", "only the player whose turn it is may act, in the current phase"),
    )
    return _Told(why, seat, reasons=reasons)


def _play_told(state: GameState, err: IllegalAction, why: str) -> _Told:
    """A play the rules refuse (TRICK-1, TURN-1, LEAD-2, FOLLOW-1, FOLLOW-2), in play."""
    h = state.hand
    seat = state.to_act
    assert seat is not None
    legal = err.allowed_tiles
    if legal is None:
        legal = tuple(reversed(tiles_of(legal_play_mask(state))))
    reasons: tuple[Reason, ...] = ()
    if err.tile is not None and err.rule in ("FOLLOW-1", "FOLLOW-2", "LEAD-2"):
        e = explain_play(
            Trump(h.trump),
            err.tile,
            trick=[TILES[i] for i in h.trick],
            hand=tiles_of(h.hands[seat]),
            rules=state.rules,
            first_lead=not h.tricks,
        )
        reasons = e.reasons
    kind = "leads" if not h.trick else "plays"
    return _Told(why, seat, tuple(map(str, legal)), kind, reasons, err.tile)


def _parse_call_value(call: JSON) -> int:
    return PASS if call == "pass" else int(call)


def _check_claim(src: Source, state: GameState) -> tuple[ClaimReport | None, Ruling | None]:
    from moonrules.analysis.claim import ClaimError, describe_line, verify_claim

    note = src.notation
    assert note is not None and note.claim is not None
    c = note.claim
    label = f"Hand {c.hand + 1}, claim"
    try:
        result = verify_claim(state, c.seat, c.tricks)
    except ClaimError as e:
        return None, Ruling(
            c.hand, "claim", None, e.rule, label, c.seat, _sentence(e.reason), line=c.line
        )
    remaining = 7 - len(state.hand.tricks)
    report = ClaimReport(
        c.seat, c.tricks, remaining, result.holds, result.guaranteed, result.defeating_line
    )
    if result.holds:
        return report, None
    rules = state.rules
    wanted = remaining if c.tricks is None else c.tricks
    side = side_name(rules, rules.side_of(c.seat))
    line_text = describe_line(state, result.defeating_line)
    why = (
        f"seat {c.seat} claimed {'all ' + str(remaining) if c.tricks is None else wanted} of the "
        f"{remaining} remaining tricks, but {side} can be held to {result.guaranteed}: "
        "however the claimant's side plays, the others have a defence. "
        f"One line of play that defeats the claim: {line_text}"
    )
    return report, Ruling(
        c.hand,
        "claim",
        None,
        "CLAIM-1",
        label,
        c.seat,
        _sentence(why),
        reasons=(
            Reason(
                "CLAIM-1",
                "a claim holds only if the claimant's side wins the claimed tricks against "
                "every legal line of play by the others",
            ),
        ),
        line=c.line,
        defeating_line=result.defeating_line,
        verdict="The claim fails",
    )


def format_line(line: Sequence[tuple[int, Tile]], players: int) -> str:
    """A line of play as text: ``seat 1 6-6, seat 2 6-1, …``."""
    return ", ".join(f"seat {s} {t}" for s, t in line) + "."


# ---------------------------------------------------------------------------
# Building the report


def _hand_report(
    h: Hand, rules: RuleSet, totals_before: tuple[int, ...], *, last: bool
) -> HandReport:
    n = rules.players
    deal = tuple(tuple(reversed(tiles_of(m))) for m in h.deal)
    calls = tuple(((h.first_bidder + j) % n, c) for j, c in enumerate(h.calls))
    tricks = [
        TrickReport(k + 1, tr.leader, tr.tiles, tr.winner, n) for k, tr in enumerate(h.tricks)
    ]
    renege = None
    if h.trick:
        partial = TrickReport(
            len(h.tricks) + 1, h.leader, tuple(TILES[i] for i in h.trick), None, n
        )
        tricks.append(partial)
        if h.renege >= 0:
            renege = _renege_report(h, rules, partial)
    finished = h.phase is Phase.DONE
    deltas = h.deltas if finished else None
    totals = (
        tuple(a + b for a, b in zip(totals_before, deltas, strict=True))
        if deltas is not None
        else totals_before
    )
    made = None
    if finished and h.bidder >= 0 and deltas is not None:
        side = rules.side_of(h.bidder)
        if h.renege >= 0:
            made = rules.side_of(h.renege) != side
        else:
            made = is_made(h.bid, side_tricks(rules, h.tricks_won)[side])
    return HandReport(
        number=h.number,
        first_bidder=h.first_bidder,
        deal=deal,
        widow=None if h.widow < 0 else TILES[h.widow],
        calls=calls,
        bidder=None if h.bidder < 0 else h.bidder,
        bid=None if h.bidder < 0 else h.bid,
        thrown_in=h.thrown_in,
        discard=None if h.discard < 0 else TILES[h.discard],
        trump=None if h.trump < 0 else Trump(h.trump),
        trump_first=rules.widow_timing is WidowTiming.AFTER_TRUMP,
        tricks=tuple(tricks),
        tricks_won=h.tricks_won or (0,) * n,
        finished=finished,
        made=made,
        deltas=deltas,
        totals=totals,
        renege=renege,
    )


def _renege_report(h: Hand, rules: RuleSet, trick: TrickReport) -> RenegeReport:
    seat = h.renege
    tile = trick.tiles[-1]
    holding = tuple(sorted((*tiles_of(h.hands[seat]), tile), reverse=True))
    trump = Trump(h.trump)
    before = list(trick.tiles[:-1])
    e = explain_play(
        trump, tile, trick=before, hand=holding, rules=rules, first_lead=len(h.tricks) == 0
    )
    suit = led_suit(before[0], trump)
    legal = tuple(t for t in holding if in_suit(t, suit, trump))
    return RenegeReport(
        seat,
        tile,
        trick,
        holding,
        legal,
        e.rule or "FOLLOW-2",
        rules.side_of(seat) == rules.side_of(h.bidder),
        e,
    )


def _report(
    src: Source,
    result: ReplayResult,
    state: GameState,
    ruling: Ruling | None,
    upto: int,
    *,
    claim: ClaimReport | None = None,
    notation_ruling: bool = False,
) -> Report:
    rules = state.rules
    hands = [h for h in (*state.history, state.hand) if h.number <= upto]
    sheets = {s.hand: s.totals for s in src.notation.scores} if src.notation else {}
    reports = []
    totals = (0,) * rules.sides
    for h in hands:
        r = _hand_report(h, rules, totals, last=h is hands[-1])
        if h.number - 1 in sheets:
            r = attrs.evolve(r, sheet=sheets[h.number - 1])
        reports.append(r)
        totals = r.totals
    record = src.record
    rv = record.get("rules")
    label = rules.name or "custom rules"
    if isinstance(rv, str) and rules.name and rv != rules.name:
        label = f"{rules.name} (written {rv!r})"
    seed = record.get("seed") if isinstance(record.get("seed"), int) else None
    end = _end_text(state, reports, ruling, claim)
    return Report(
        rules,
        label,
        seed,
        tuple(reports),
        ruling,
        result,
        state,
        end,
        claim,
        src.format,
        notation_ruling,
    )


def _end_text(
    state: GameState,
    hands: Sequence[HandReport],
    ruling: Ruling | None,
    claim: ClaimReport | None,
) -> str:
    rules = state.rules
    unit = "marks" if rules.scoring is Scoring.MARKS else "points"
    if ruling is not None:
        return f"Checking stopped at {ruling.label[0].lower()}{ruling.label[1:]}."
    if state.is_over and state.winner is not None:
        last = hands[-1] if hands else None
        how = ""
        if (
            last is not None
            and last.bid == MOON
            and last.made
            and rules.moon_made is MoonMade.WINS_GAME
        ):
            how = " by making a bid of 21 (SCORE-4)"
        scores = " ".join(map(str, state.scores))
        return (
            f"Game over after hand {state.hand.number}: {side_name(rules, state.winner)} wins"
            f"{how}, with {unit} {scores} (END-1)."
        )
    if not hands:
        return "The record has no hand."
    last = hands[-1]
    scores = " ".join(map(str, last.totals))
    h = state.hand
    if last.finished:
        where = f"after hand {last.number}"
    elif h.phase is Phase.BIDDING:
        where = f"in hand {last.number}, during the auction (seat {state.to_act} to call)"
    elif h.phase is Phase.DISCARD:
        where = f"in hand {last.number}, before the discard (seat {h.bidder} to discard)"
    elif h.phase is Phase.TRUMP:
        where = f"in hand {last.number}, before trump is named (seat {h.bidder} to name it)"
    else:
        where = f"in hand {last.number}, trick {len(h.tricks) + 1} (seat {state.to_act} to play)"
    text = f"The record ends {where}; the game is not over. {unit.capitalize()}: {scores}."
    if claim is not None:
        wanted = "all the remaining tricks" if claim.tricks is None else f"{claim.tricks} tricks"
        text += (
            f" Seat {claim.seat} claims {wanted}: the claim holds (CLAIM-1): "
            f"{side_name(rules, rules.side_of(claim.seat))} is sure of {claim.guaranteed} of "
            f"the {claim.remaining} remaining tricks however the others play."
        )
    return text


# ---------------------------------------------------------------------------
# Text


def _seat(s: int) -> str:
    return f"seat {s}"


def format_report(report: Report) -> str:
    """The report as ``moonrules check`` prints it."""
    rules = report.rules
    n = rules.players
    out = [
        f"Moon record check — rules: {report.rules_label} ({n} players"
        f"{', partnerships' if rules.partnership else ''}), seed "
        f"{report.seed if report.seed is not None else '(none)'}"
    ]
    unit = "marks" if rules.scoring is Scoring.MARKS else "points"
    ruling = report.ruling
    for h in report.hands:
        out.append("")
        out.append(f"Hand {h.number} — seat {h.first_bidder} bids first")
        for s, ts in enumerate(h.deal):
            label = "Deal:   " if s == 0 else "        "
            out.append(f"  {label}seat {s}: {' '.join(map(str, ts))}")
        if h.widow is not None:
            out.append(f"  Widow:  {h.widow}")
        if h.calls:
            said = ", ".join(
                f"seat {s} {'passes' if c == PASS else f'bids {c}'}" for s, c in h.calls
            )
            out.append(f"  Auction: {said}")
        if h.thrown_in:
            out.append("  Every player passed: the hand is thrown in and redealt (BID-7).")
        elif h.bidder is not None:
            out.append(f"  Seat {h.bidder} wins the auction with a bid of {h.bid} (BID-6).")
        steps = []
        if h.discard is not None:
            steps.append(f"  Seat {h.bidder} takes the widow ({h.widow}) and discards {h.discard}.")
        if h.trump is not None:
            steps.insert(0 if h.trump_first else len(steps), f"  Trump: {_trump_text(h.trump)}.")
        out.extend(steps)
        for t in h.tricks:
            plays = ", ".join(f"seat {t.seat_of(i)} {tl}" for i, tl in enumerate(t.tiles))
            if t.winner is not None:
                out.append(
                    f"  Trick {t.number}: seat {t.leader} leads — {plays} — seat {t.winner} wins"
                )
            else:
                out.append(f"  Trick {t.number}: seat {t.leader} leads — {plays} — (unfinished)")
        if h.renege is not None:
            out.extend(_renege_lines(h, rules))
        if h.finished and h.deltas is not None and not h.thrown_in:
            assert h.bidder is not None
            side = rules.side_of(h.bidder)
            st = side_tricks(rules, h.tricks_won)
            made = "made" if h.made else "set"
            if h.renege is None:
                out.append(
                    f"  Result: {side_name(rules, side)} bid {h.bid} and took {st[side]} "
                    f"trick{'s' if st[side] != 1 else ''}: {made} (SCORE-1). Tricks: "
                    f"{' '.join(map(str, st))}."
                )
            out.append(
                f"  Score: {' '.join(f'{d:+d}' for d in h.deltas)}; totals "
                f"{' '.join(map(str, h.totals))} {unit}."
            )
        if h.sheet is not None:
            ok = tuple(h.sheet) == tuple(h.totals) and h.finished
            out.append(
                f"  Score sheet: {' '.join(map(str, h.sheet))}" + (" — correct." if ok else "")
            )
    out.append("")
    if ruling is not None:
        out.append("RULING")
        out.append(f"  {ruling.text}")
        if ruling.reasons:
            out.append("  Why:")
            for k, r in enumerate(ruling.reasons, 1):
                out.append(f"    {k}. {r}")
        out.append("")
    out.append(report.end)
    out.append(
        "Verdict: "
        + (
            "valid — every step follows the rules."
            if ruling is None
            else f"{ruling.verdict.lower()} ({ruling.rule})."
        )
    )
    return "\n".join(out)


def _renege_lines(h: HandReport, rules: RuleSet) -> list[str]:
    r = h.renege
    assert r is not None and h.bidder is not None
    bidder_side = side_name(rules, rules.side_of(h.bidder))
    legal = ", ".join(map(str, r.legal))
    role = "the bidder's side" if r.bidder_side else "a defender"
    outcome = "counts as set" if r.bidder_side else "counts as made"
    led = r.trick.tiles[0]
    trump = h.trump or Trump.NONE
    suit = led_suit(led, trump)
    lead = "a trump lead" if suit == TRUMP_SUIT else f"a {suit} lead"
    return [
        f"  Renege: seat {r.seat} played {r.tile} on {lead} ({led}) while holding {legal}, "
        f"which {'follows' if len(r.legal) == 1 else 'follow'} ({r.rule}).",
        f"  Under renege = penalty the hand ends at once (RENEGE-2): seat {r.seat} is "
        f"{role}, so {bidder_side}'s contract of {h.bid} {outcome}; the other players "
        "score the tricks they took before, and the unfinished trick counts for no one.",
    ]


def _trump_text(t: Trump) -> str:
    if t is Trump.DOUBLES:
        return "doubles"
    if t is Trump.NONE:
        return "no-trump"
    return f"{t.value}s"


# ---------------------------------------------------------------------------
# Explaining one situation


@attrs.frozen(slots=True)
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
    say the first lead must be a trump). Raises :class:`ParseError` for an
    impossible situation (the tile not in the hand, a tile twice).
    """
    from moonrules.rules.ruleset import STANDARD

    r = rules or STANDARD
    tr = list(trick)
    if hand is not None:
        hs = list(hand)
        if len(set(hs)) != len(hs):
            twice = next(t for t in hs if hs.count(t) > 1)
            raise ParseError(f"{twice} appears twice in the hand; there is one of each tile")
        if play not in hs:
            raise ParseError(f"{play} is not in the hand ({' '.join(map(str, hs))})")
        both = set(hs) & set(tr)
        if both:
            raise ParseError(f"{min(both)} is both in the hand and in the trick")
    if len(set(tr)) != len(tr):
        raise ParseError("a tile appears twice in the trick")
    if len(tr) >= r.players:
        raise ParseError(f"the trick already has {len(tr)} tiles: it is complete")
    reasons: list[Reason] = []
    if not tr:
        suit = led_suit(play, trump)
        reasons.append(Reason("LEAD-1", "the leader may lead any tile"))
        reasons.append(_led_reason(play, trump))
        if first_lead and r.first_lead is FirstLead.TRUMP and trump is not Trump.NONE:
            trumps = [t for t in (hand or ()) if is_trump(t, trump)]
            if hand is not None and trumps and not is_trump(play, trump):
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
        return Explanation(
            f"Legal: {play} may be led; it calls {_suit_word(suit)}.",
            tuple(reasons),
            True,
            "LEAD-1",
        )
    led = tr[0]
    suit = led_suit(led, trump)
    follow_rule = "FOLLOW-1" if suit == TRUMP_SUIT else "FOLLOW-2"
    reasons.append(_led_reason(led, trump))
    follows = in_suit(play, suit, trump)
    reasons.append(_membership(play, suit, trump))
    if hand is None:
        if follows:
            return Explanation(
                f"{play} follows {_suit_word(suit)}: it may always be played to this trick "
                f"({follow_rule}).",
                tuple(reasons),
                True,
                follow_rule,
            )
        return Explanation(
            f"{play} does not follow {_suit_word(suit)}: it may be played only by a player "
            f"who holds no {_suit_word(suit)[:-1] if suit != TRUMP_SUIT else 'trump'} "
            "(FOLLOW-3).",
            tuple(reasons),
            None,
            follow_rule,
        )
    following = [t for t in sorted(hand, reverse=True) if in_suit(t, suit, trump)]
    allowed = tuple(str(t) for t in (following or sorted(hand, reverse=True)))
    if follows:
        reasons.append(Reason(follow_rule, f"{play} follows, so it may be played"))
        return Explanation(
            f"Legal: {play} follows {_suit_word(suit)} ({follow_rule}).",
            tuple(reasons),
            True,
            follow_rule,
            allowed=allowed,
        )
    if following:
        names = " ".join(map(str, following))
        which = (
            "is a trump"
            if suit == TRUMP_SUIT and len(following) == 1
            else (
                "are trumps"
                if suit == TRUMP_SUIT
                else (f"follows suit {suit}" if len(following) == 1 else f"follow suit {suit}")
            )
        )
        fake = [t for t in hand if suit != TRUMP_SUIT and is_trump(t, trump) and t.has(suit)]
        note = (
            f" ({' '.join(map(str, fake))} bear{'s' if len(fake) == 1 else ''} a {suit} but "
            "is a trump, and does not count)"
            if fake
            else ""
        )
        reasons.append(
            Reason(
                follow_rule,
                f"the hand holds {names}, which {which}{note}; a player who can follow must",
            )
        )
        return Explanation(
            f"Illegal: {play} may not be played; the player must follow with "
            f"{' or '.join(map(str, following))} ({follow_rule}).",
            tuple(reasons),
            False,
            follow_rule,
            allowed=allowed,
        )
    fake = [t for t in hand if suit != TRUMP_SUIT and is_trump(t, trump) and t.has(suit)]
    note = (
        f" ({' '.join(map(str, fake))} bear{'s' if len(fake) == 1 else ''} a {suit}, but "
        f"{_trump_why(fake[0], trump)}: a trump does not count)"
        if fake
        else ""
    )
    reasons.append(
        Reason(
            "FOLLOW-3",
            f"the hand holds no {_suit_word(suit)[:-1] if suit != TRUMP_SUIT else 'trump'}{note}, "
            "so any tile may be played",
        )
    )
    return Explanation(
        f"Legal: the player cannot follow {_suit_word(suit)}, so {play} may be played (FOLLOW-3).",
        tuple(reasons),
        True,
        "FOLLOW-3",
        allowed=allowed,
    )


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def explain_trick(
    trump: Trump, trick: Sequence[Tile], *, leader: int = 0, players: int | None = None
) -> Explanation:
    """Who wins a trick (led tile first), and why (LEAD-3, SUIT-1 … SUIT-4, TRICK-2).

    ``players`` defaults to the number of tiles; ``leader`` is the seat that led.
    """
    ts = list(trick)
    if not ts:
        raise ParseError("a trick needs at least the led tile")
    if len(set(ts)) != len(ts):
        raise ParseError("a tile appears twice in the trick")
    n = players or len(ts)
    if len(ts) > n:
        raise ParseError(f"a trick has at most {n} tiles, one per player")
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
    if t.isdigit():
        return int(t)
    raise ParseError(f"{text!r} is not a call: write 'pass' or a number of tricks")


def parse_calls(text: str) -> list[int]:
    """``"5,pass,6"`` as calls (0 for pass)."""
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    return [_parse_call(p) for p in parts]


def explain_auction(rules: RuleSet, calls: Sequence[int], first_bidder: int = 0) -> Explanation:
    """Are these calls (0 = pass) legal in order, and where does the auction stand?

    BID-2 (one call each, clockwise), BID-3 (each bid above the earlier ones),
    BID-4 (bid values), BID-5 (21 ends it), BID-6 (the winner), BID-7/BID-8 (all pass).
    """
    n = rules.players
    if not 0 <= first_bidder < n:
        raise ParseError(f"seats are numbered 0 to {n - 1}, not {first_bidder}")
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
    (END-1 … END-3, SCORE-4).
    """
    n = rules.players
    if len(tricks) != n:
        raise ParseError(f"give the tricks of each of the {n} seats, not {len(tricks)} numbers")
    if any(t < 0 for t in tricks) or sum(tricks) != 7:
        raise ParseError(f"the tricks of a hand add up to 7, not {sum(tricks)}")
    if not 0 <= bidder < n:
        raise ParseError(f"seats are numbered 0 to {n - 1}, not {bidder}")
    if bid not in rules.bids:
        raise ParseError(f"{bid} is not a bid of these rules ({', '.join(map(str, rules.bids))})")
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
        if len(totals) != rules.sides:
            raise ParseError(f"give {rules.sides} totals, one per side, not {len(totals)}")
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


def _score_reasons(rules: RuleSet, h: Hand) -> tuple[Reason, ...]:
    if h.bidder < 0:
        return (Reason("BID-7", "a hand thrown in scores nothing"),)
    if h.renege >= 0:
        return (
            Reason(
                "RENEGE-2",
                f"seat {h.renege} reneged: the hand ended and the offending side is set",
            ),
        )
    return explain_score(rules, h.bidder, h.bid, h.tricks_won).reasons


# ---------------------------------------------------------------------------
# HTML

_CSS = """
:root { color-scheme: light; --ink: #2b2620; --muted: #6d655a; --line: #d9d0bf;
  --paper: #fffdf7; --bad: #c62828; --bad-bg: #fdecea; --good: #23964a; --good-bg: #e8f5ec; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3eee2; color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 0 0 10px; }
h3 { font-size: 1.05em; margin: 14px 0 6px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.verdict { border-radius: 8px; padding: 12px 16px; margin: 0 0 18px; font-size: 1.05em; }
.verdict.valid { background: var(--good-bg); border: 2px solid var(--good); }
.verdict.invalid { background: var(--bad-bg); border: 2px solid var(--bad); }
.verdict a { color: inherit; font-weight: 600; }
section.hand { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
  padding: 16px 18px; margin: 0 0 18px; }
.deal { display: flex; flex-wrap: wrap; gap: 6px 24px; align-items: flex-end; }
.seat-tiles { display: flex; flex-direction: column; }
.seat-tiles span, .caption { font-size: .85em; color: var(--muted); }
ol.auction { margin: 4px 0; padding-left: 1.4em; }
ol.auction li.bad { color: var(--bad); font-weight: 600; }
.facts { margin: 6px 0; }
.tricks svg { max-width: 100%; height: auto; }
.result { font-weight: 600; margin: 8px 0 0; }
.violation { border: 3px solid var(--bad); background: var(--bad-bg); border-radius: 10px;
  padding: 12px 14px; margin: 12px 0; }
.violation h3 { color: var(--bad); margin-top: 0; }
.violation .ruling { font-size: 1.05em; font-weight: 600; }
.violation-step { border: 3px dashed var(--bad); border-radius: 10px; padding: 10px 14px;
  margin: 12px 0; background: #fff7f6; }
.violation-step h3 { color: var(--bad); margin-top: 0; }
.renege { border: 3px solid #e89a00; background: #fff4dc; border-radius: 10px;
  padding: 12px 14px; margin: 12px 0; }
.row { display: flex; flex-wrap: wrap; gap: 8px 28px; align-items: flex-start; }
.clauses { margin: 6px 0 0; padding-left: 1.4em; }
code, .clause { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: .92em; }
table.scores { border-collapse: collapse; margin: 8px 0 22px; background: var(--paper); }
table.scores th, table.scores td { border: 1px solid var(--line); padding: 4px 10px;
  text-align: right; }
table.scores th { background: #efe7d6; }
table.scores td:first-child, table.scores th:first-child { text-align: left; }
table.scores tr.bad td { background: var(--bad-bg); }
footer { color: var(--muted); margin-top: 24px; }
"""


def _esc(text: object) -> str:
    from html import escape

    return escape(str(text), quote=True)


def _call_html(call: int) -> str:
    return "passes" if call == PASS else f"bids {call}"


def report_html(report: Report, *, title: str | None = None) -> str:
    """The report as one self-contained HTML page: tiles drawn as inline SVG, inline CSS.

    The offending step of a ruling is the element with id ``violation`` (class
    ``violation``), holding the ruling, the clause chain and the legal
    alternatives, drawn.
    """
    from moonrules.arbitration import render

    rules = report.rules
    n = rules.players
    seat_names = [f"Seat {s}" for s in range(n)]
    unit = "marks" if rules.scoring is Scoring.MARKS else "points"
    ruling = report.ruling
    name = title or "Moon game record"
    body: list[str] = [
        f"<h1>{_esc(name)}</h1>",
        f'<p class="meta">Rules: {_esc(report.rules_label)} · {n} players'
        f"{' in two teams' if rules.partnership else ''} · seed "
        f"{_esc(report.seed if report.seed is not None else '(none)')} · "
        f"checked by moonrules</p>",
    ]
    if ruling is None:
        body.append(
            '<div class="verdict valid"><strong>Valid.</strong> Every step follows the rules. '
            f"{_esc(report.end)}</div>"
        )
    else:
        in_hand = any(ruling.hand == h.number - 1 and ruling.step != "deal" for h in report.hands)
        here = next((h for h in report.hands if h.number == ruling.hand + 1), None)
        body.append(_violation_html(report, here if in_hand else None, render))
    # score table
    body.append("<h2>Scores</h2>")
    sides = [side_name(rules, s) for s in range(rules.sides)]
    head = "".join(f"<th>{_esc(s.capitalize())}</th>" for s in sides)
    rows = [f'<table class="scores"><tr><th>Hand</th><th>Bidder</th><th>Bid</th>{head}</tr>']
    for h in report.hands:
        bad = ruling is not None and ruling.step == "score" and ruling.hand == h.number - 1
        if h.thrown_in:
            cells = "".join("<td>—</td>" for _ in sides)
            rows.append(f"<tr><td>{h.number}</td><td colspan=2>thrown in</td>{cells}</tr>")
            continue
        bidder = "—" if h.bidder is None else f"seat {h.bidder}"
        bid = "—" if h.bid is None else str(h.bid)
        if h.deltas is not None:
            cells = "".join(
                f"<td>{d:+d} → <strong>{t}</strong></td>"
                for d, t in zip(h.deltas, h.totals, strict=True)
            )
        else:
            cells = "".join(f"<td>{t} (unfinished)</td>" for t in h.totals)
        rows.append(
            f"<tr{' class=bad' if bad else ''}><td>{h.number}</td><td>{bidder}</td>"
            f"<td>{bid}</td>{cells}</tr>"
        )
        if h.sheet is not None:
            sheet = "".join(f"<td>{v}</td>" for v in h.sheet)
            rows.append(
                f"<tr{' class=bad' if bad else ''}><td colspan=3>score sheet</td>{sheet}</tr>"
            )
    rows.append("</table>")
    body.append("".join(rows))
    for h in report.hands:
        body.append(_hand_html(report, h, seat_names, unit, render))
    body.append(f"<footer>{_esc(report.end)}</footer>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(name)}</title><style>{_CSS}</style></head><body><main>"
        + "\n".join(body)
        + "</main></body></html>\n"
    )


def _hand_html(
    report: Report, h: HandReport, seat_names: list[str], unit: str, render: object
) -> str:
    from moonrules.arbitration import render as rd

    rules = report.rules
    ruling = report.ruling
    here = ruling if ruling is not None and ruling.hand == h.number - 1 else None
    out = [f'<section class="hand" id="hand-{h.number}">']
    out.append(f"<h2>Hand {h.number}</h2>")
    out.append(f'<p class="meta">Seat {h.first_bidder} bids first.</p>')
    out.append('<div class="deal">')
    for s, ts in enumerate(h.deal):
        ring = {h.discard: rd.HIGHLIGHT_COLOUR} if h.discard in ts and s == h.bidder else {}
        svg = rd.hand_svg(ts, size=22, highlight=ring, title=f"Seat {s} was dealt {len(ts)} tiles")
        out.append(f'<div class="seat-tiles"><span>Seat {s}</span>{svg}</div>')
    if h.widow is not None:
        svg = rd.hand_svg([h.widow], size=22, title=f"The widow: {h.widow}")
        out.append(f'<div class="seat-tiles"><span>Widow</span>{svg}</div>')
    out.append("</div>")
    # auction
    out.append("<h3>Auction</h3>")
    items = []
    for s, c in h.calls:
        items.append(f"<li>Seat {s} {_call_html(c)}</li>")
    if here is not None and here.step == "bid":
        items.append('<li class="bad">the disputed call (see the ruling)</li>')
    out.append(f'<ol class="auction">{"".join(items) or "<li>no call yet</li>"}</ol>')
    if here is not None and here.step == "bid":
        out.append(_step_html(report, rd))
    facts = []
    if h.thrown_in:
        facts.append("Every player passed: the hand is thrown in and redealt (BID-7).")
    elif h.bidder is not None:
        facts.append(f"Seat {h.bidder} wins the auction with a bid of {h.bid} (BID-6).")
    if h.trump is not None and h.trump_first:
        facts.append(f"Trump: <strong>{_esc(_trump_text(h.trump))}</strong>.")
    if h.discard is not None:
        facts.append(f"Seat {h.bidder} takes the widow ({h.widow}) and discards {h.discard}.")
    if h.trump is not None and not h.trump_first:
        facts.append(f"Trump: <strong>{_esc(_trump_text(h.trump))}</strong>.")
    if facts:
        out.append(f'<p class="facts">{" ".join(facts)}</p>')
    if here is not None and here.step in ("discard", "trump"):
        out.append(_step_html(report, rd))
    complete = [t for t in h.tricks if t.winner is not None]
    if complete:
        tricks = [Trick(t.leader, t.tiles, t.winner) for t in complete if t.winner is not None]
        out.append("<h3>Tricks</h3>")
        out.append(
            '<div class="tricks">'
            + rd.hand_tricks_svg(tricks, rules.players, seat_names=seat_names, size=20)
            + "</div>"
        )
    unfinished = [t for t in h.tricks if t.winner is None]
    if h.renege is not None:
        out.append(_renege_html(h, rules, rd))
    elif unfinished and not (here is not None and here.step == "play"):
        t = unfinished[0]
        labels = [f"Seat {t.seat_of(i)}" + (" led" if i == 0 else "") for i in range(len(t.tiles))]
        out.append(f"<h3>Trick {t.number} (unfinished)</h3>")
        out.append(rd.hand_svg(t.tiles, size=30, labels=labels))
    if here is not None and here.step in ("play", "claim"):
        out.append(_step_html(report, rd))
    if h.finished and h.deltas is not None and not h.thrown_in and h.bidder is not None:
        side = rules.side_of(h.bidder)
        st = side_tricks(rules, h.tricks_won)
        deltas = " ".join(f"{d:+d}" for d in h.deltas)
        totals = " ".join(map(str, h.totals))
        out.append(
            f'<p class="result">{_esc(side_name(rules, side).capitalize())} bid {h.bid} and took '
            f"{st[side]}: {'made' if h.made else 'set'}. Score {deltas}; totals {totals} "
            f"{unit}.</p>"
        )
    if here is not None and here.step == "score":
        out.append(_step_html(report, rd))
    out.append("</section>")
    return "\n".join(out)


def _renege_html(h: HandReport, rules: RuleSet, rd: object) -> str:
    from moonrules.arbitration import render

    r = h.renege
    assert r is not None
    t = r.trick
    labels = [f"Seat {t.seat_of(i)}" + (" led" if i == 0 else "") for i in range(len(t.tiles))]
    labels[-1] += " — renege"
    trick = render.hand_svg(t.tiles, size=30, labels=labels, highlight={r.tile: BAD_COLOUR})
    holding = render.hand_svg(
        r.holding,
        size=26,
        highlight={**dict.fromkeys(r.legal, render.WINNER_COLOUR), r.tile: BAD_COLOUR},
        dim=[x for x in r.holding if x not in r.legal and x != r.tile],
    )
    lines = "".join(f"<li>{_esc(x)}</li>" for x in _renege_lines(h, rules))
    reasons = "".join(f"<li>{_esc(x)}</li>" for x in r.explanation.reasons)
    return (
        f'<div class="renege" id="renege-{h.number}"><h3>Trick {t.number}: a renege, '
        f"penalised (RENEGE-2)</h3><ul>{lines}</ul>"
        f'<div class="row"><div>{trick}<div class="caption">The trick</div></div>'
        f'<div>{holding}<div class="caption">Seat {r.seat} held (green: the tiles that '
        f'followed)</div></div></div><ol class="clauses">{reasons}</ol></div>'
    )


def _step_html(report: Report, rd: object) -> str:
    """The disputed step where it happened, marked, pointing to the ruling at the top."""
    from moonrules.arbitration import render

    ruling = report.ruling
    assert ruling is not None
    out = ['<div class="violation-step">']
    out.append(
        f"<h3>{_esc(ruling.label)}: {_esc(ruling.verdict.lower())} ({_esc(ruling.rule)})</h3>"
    )
    picture = _trick_picture(report, render, size=28)
    if picture:
        out.append(picture)
    out.append(f'<p>{_esc(ruling.why)} <a href="#violation">The ruling</a></p></div>')
    return "".join(out)


def _trick_picture(report: Report, render: object, *, size: float) -> str:
    """The trick of a ruling on a play, as played, the offending tile ringed in red."""
    from moonrules.arbitration import render as rd

    ruling = report.ruling
    hand = report.state.hand
    if ruling is None or ruling.step != "play" or hand.phase is not Phase.PLAY:
        return ""
    n = report.rules.players
    bad = ruling.tile
    shown = [TILES[i] for i in hand.trick] + ([bad] if bad is not None else [])
    if not shown:
        return ""
    labels = [
        f"Seat {(hand.leader + i) % n}" + (" led" if i == 0 else "") for i in range(len(shown))
    ]
    if bad is not None:
        labels[-1] += " \u2717"
    number = len(hand.tricks) + 1
    return (
        '<div class="trick violation-trick">'
        + rd.hand_svg(
            shown,
            size=size,
            labels=labels,
            highlight={bad: BAD_COLOUR} if bad is not None else {},
            title=f"Trick {number} as played",
        )
        + f'<div class="caption">Trick {number} as played</div></div>'
    )


def _violation_html(report: Report, h: HandReport | None, rd: object) -> str:
    from moonrules.arbitration import render

    ruling = report.ruling
    assert ruling is not None
    state = report.state
    n = report.rules.players
    out = ['<div class="violation" id="violation">']
    out.append(
        f"<h3>Ruling — {_esc(ruling.label)}: {_esc(ruling.verdict.lower())} "
        f"({_esc(ruling.rule)})</h3>"
    )
    out.append(f'<p class="ruling">{_esc(ruling.text)}</p>')
    if h is not None:
        out.append(f'<p><a href="#hand-{h.number}">Go to hand {h.number}</a></p>')
    hand = state.hand
    pictures = []
    if ruling.step == "play" and h is not None and hand.phase is Phase.PLAY:
        bad = ruling.tile
        picture = _trick_picture(report, render, size=34)
        if picture:
            pictures.append(picture)
        seat = ruling.seat
        if seat is not None:
            holding = tuple(reversed(tiles_of(hand.hands[seat])))
            legal = {Tile.parse(x) for x in ruling.allowed}
            rings: dict[Tile, str] = dict.fromkeys(legal, render.WINNER_COLOUR)
            if bad is not None and bad in holding:
                rings[bad] = BAD_COLOUR
            pictures.append(
                "<div>"
                + render.hand_svg(
                    holding,
                    size=30,
                    highlight=rings,
                    dim=[x for x in holding if x not in legal and x != bad],
                    title=f"Seat {seat}'s tiles",
                )
                + f'<div class="caption">Seat {seat} held these tiles; ringed green: the legal '
                f"{_esc(ruling.allowed_kind)}</div></div>"
            )
    elif ruling.allowed:
        what = (
            "The correct totals are"
            if ruling.step == "score"
            else f"Legal {_esc(ruling.allowed_kind)} were"
        )
        pictures.append(f"<p>{what}: <strong>{_esc(', '.join(ruling.allowed))}</strong>.</p>")
    if ruling.defeating_line:
        out.append("<p>One line of play that defeats the claim:</p>")
        first = n - len(hand.trick) if hand.phase is Phase.PLAY else n
        chunks = []
        line = list(ruling.defeating_line)
        size = first
        while line:
            chunks.append(line[:size])
            line = line[size:]
            size = n
        trump = Trump(hand.trump) if hand.trump >= 0 else Trump.NONE
        for k, chunk in enumerate(chunks):
            before = [TILES[i] for i in hand.trick] if k == 0 else []
            whole = [*before, *(t for _, t in chunk)]
            labels = [f"Seat {s}" for s, _ in chunk]
            if len(whole) == n:
                win = trick_winner(whole, trump) - len(before)
                if win >= 0:
                    labels[win] += " \u2605"
            pictures.append(render.hand_svg([t for _, t in chunk], size=24, labels=labels))
    if pictures:
        out.append('<div class="row">' + "".join(pictures) + "</div>")
    if ruling.reasons:
        out.append("<p>Why:</p>")
        out.append(
            '<ol class="clauses">'
            + "".join(
                f'<li>{_esc(r.text)} (<span class="clause">{_esc(r.rule)}</span>)</li>'
                for r in ruling.reasons
            )
            + "</ol>"
        )
    out.append("</div>")
    return "".join(out)


BAD_COLOUR = "#c62828"
"""The ring round an illegal tile in the HTML report."""

__all__ = [
    "ClaimReport",
    "Explanation",
    "HandReport",
    "Reason",
    "Report",
    "Ruling",
    "Source",
    "TrickReport",
    "UnreadableDeal",
    "check",
    "explain_auction",
    "explain_play",
    "explain_score",
    "explain_trick",
    "format_line",
    "format_report",
    "parse_calls",
    "read_record",
    "report_html",
    "side_name",
    "tiles",
]
