"""Checking a record: replay it, rule on its first illegal step, report every hand.

:func:`check` replays a :class:`~moonrules.arbitration.report.Source` and builds a
:class:`~moonrules.arbitration.report.Report`. A ruling is told from the structured
fields of the library's :class:`~moonrules.rules.errors.IllegalAction` (the seat, the
tile or call, what was allowed), never from its message; what only the notation can
get wrong (a call by the wrong seat, a wrong ``score`` line, a failed ``claim``) is
ruled on here too.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from moonrules.arbitration.explain import (
    Reason,
    explain_auction,
    explain_play,
    explain_score,
    side_name,
)
from moonrules.arbitration.report import (
    ClaimReport,
    HandReport,
    RenegeReport,
    Report,
    Ruling,
    Source,
    TrickReport,
)
from moonrules.game import GameState, Hand, Phase, legal_play_mask
from moonrules.records.record import JSON, RecordError, ReplayResult, Violation
from moonrules.records.replay import replay
from moonrules.rules.auction import MOON, PASS, call_name, legal_calls
from moonrules.rules.errors import IllegalAction
from moonrules.rules.ruleset import MoonMade, RuleSet, Scoring, WidowTiming
from moonrules.rules.scoring import is_made, side_tricks
from moonrules.rules.suits import Trump, in_suit, led_suit
from moonrules.rules.tiles import TILES, Tile, tiles_of


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith(".") else text + "."


_STEP_ORDER = {"deal": 0, "bid": 1, "discard": 2, "trump": 2, "play": 4, "score": 5, "claim": 6}


def _position(hand: int, step: str, index: int | None) -> tuple[int, int, int]:
    return (hand, _STEP_ORDER.get(step, 3), -1 if index is None else index)


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
            drop = ("claim",)
        elif step == "claim":
            drop = ("claim",)
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
    from moonrules.game import apply_claim

    note = src.notation
    assert note is not None and note.claim is not None
    c = note.claim
    label = f"Hand {c.hand + 1}, claim"
    try:
        result = verify_claim(state, c.seat, c.tricks)
        if result.holds:
            apply_claim(state, c.seat, c.tricks)  # a claim the rules refuse (TURN-1, CLAIM-1)
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
        claim=h.claim,
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
    reasons = explain_score(rules, h.bidder, h.bid, h.tricks_won).reasons
    if h.claim is None:
        return reasons
    c = h.claim
    left = 7 - len(h.tricks)
    side = side_name(rules, rules.side_of(c.seat))
    wanted = f"all {left} remaining tricks" if c.tricks == left else f"{c.tricks} of the {left}"
    rest = "" if c.tricks == left else f", and the other {left - c.tricks} to the other team"
    why = (
        f"seat {c.seat} claimed {wanted} and the claim held against every defence: the hand "
        f"ended there, {c.tricks} to {side}{rest}"
    )
    return (Reason("CLAIM-1", why), *reasons)


__all__ = ["UnreadableDeal", "check"]
