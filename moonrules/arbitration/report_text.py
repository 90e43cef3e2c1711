"""A checked record as text: what ``moonrules check`` prints."""

from __future__ import annotations

from moonrules.arbitration.explain import side_name
from moonrules.arbitration.report import HandReport, Report
from moonrules.rules.auction import PASS
from moonrules.rules.contract import check_instance
from moonrules.rules.ruleset import RuleSet, Scoring
from moonrules.rules.scoring import side_tricks
from moonrules.rules.suits import TRUMP_SUIT, Trump, led_suit


def format_report(report: Report) -> str:
    """The report as ``moonrules check`` prints it."""
    check_instance(report, Report, "report")
    rules = report.rules
    out = [
        f"Moon record check — rules: {report.rules_label} ({rules.players} players"
        f"{', partnerships' if rules.partnership else ''}), seed "
        f"{report.seed if report.seed is not None else '(none)'}"
    ]
    players = players_line(report)
    if players is not None:
        out.append(players)
    for h in report.hands:
        out.append("")
        out.extend(_hand_lines(h, rules))
    out.append("")
    ruling = report.ruling
    if ruling is not None:
        out.append("RULING")
        out.append(f"  {ruling.text}")
        if ruling.reasons:
            out.append("  Why:")
            out.extend(f"    {k}. {r}" for k, r in enumerate(ruling.reasons, 1))
        out.append("")
    out.append(report.end)
    verdict = (
        "valid — every step follows the rules."
        if ruling is None
        else f"{ruling.verdict.lower()} ({ruling.rule})."
    )
    out.append(f"Verdict: {verdict}")
    return "\n".join(out)


def players_line(report: Report) -> str | None:
    """The record's players, ``Players: seat 0 Ann, seat 1 (no name), …``; ``None`` for a
    record without names."""
    names = report.replay.players
    if names is None:
        return None
    return "Players: " + ", ".join(
        f"seat {s} {'(no name)' if name is None else name}" for s, name in enumerate(names)
    )


def _hand_lines(h: HandReport, rules: RuleSet) -> list[str]:
    """One hand of the report: deal, auction, widow and trump, tricks, result, score."""
    out = [f"Hand {h.number} — seat {h.first_bidder} bids first"]
    for s, ts in enumerate(h.deal):
        label = "Deal:   " if s == 0 else "        "
        out.append(f"  {label}seat {s}: {' '.join(map(str, ts))}")
    if h.widow is not None:
        out.append(f"  Widow:  {h.widow}")
    if h.calls:
        said = ", ".join(f"seat {s} {'passes' if c == PASS else f'bids {c}'}" for s, c in h.calls)
        out.append(f"  Auction: {said}")
    if h.thrown_in:
        out.append("  Every player passed: the hand is thrown in and redealt (BID-7).")
    elif h.bidder is not None:
        out.append(f"  Seat {h.bidder} wins the auction with a bid of {h.bid} (BID-6).")
    steps = []
    if h.discard is not None:
        steps.append(f"  Seat {h.bidder} takes the widow ({h.widow}) and discards {h.discard}.")
    if h.trump is not None:
        steps.insert(0 if h.trump_first else len(steps), f"  Trump: {trump_text(h.trump)}.")
    out.extend(steps)
    for t in h.tricks:
        plays = ", ".join(f"seat {t.seat_of(i)} {tl}" for i, tl in enumerate(t.tiles))
        end = "(unfinished)" if t.winner is None else f"seat {t.winner} wins"
        out.append(f"  Trick {t.number}: seat {t.leader} leads — {plays} — {end}")
    if h.renege is not None:
        out.extend(renege_lines(h, rules))
    if h.claim is not None:
        out.extend(claim_lines(h, rules))
    out.extend(_score_lines(h, rules))
    return out


def claim_lines(h: HandReport, rules: RuleSet) -> list[str]:
    """The lines telling a claim that held and ended the hand (CLAIM-1)."""
    c = h.claim
    assert c is not None
    left = 7 - sum(1 for t in h.tricks if t.winner is not None)
    side = side_name(rules, rules.side_of(c.seat))
    if c.tricks == left:
        wanted = "the last trick" if left == 1 else f"all {left} remaining tricks"
        given = f"{'it goes' if left == 1 else 'they go'} to {side}"
    else:
        other = side_name(rules, 1 - rules.side_of(c.seat))
        wanted = f"{c.tricks} of the {left} remaining tricks"
        given = f"{c.tricks} go to {side} and {left - c.tricks} to {other}"
    return [
        f"  Claim: seat {c.seat} lays down their tiles and claims {wanted}; the claim holds "
        f"against every defence (CLAIM-1): the hand ends, and {given}."
    ]


def _score_lines(h: HandReport, rules: RuleSet) -> list[str]:
    """A finished hand's result (SCORE-1) and score, and the record's score sheet line."""
    out = []
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
        unit = "marks" if rules.scoring is Scoring.MARKS else "points"
        out.append(
            f"  Score: {' '.join(f'{d:+d}' for d in h.deltas)}; totals "
            f"{' '.join(map(str, h.totals))} {unit}."
        )
    if h.sheet is not None:
        ok = tuple(h.sheet) == tuple(h.totals) and h.finished
        out.append(f"  Score sheet: {' '.join(map(str, h.sheet))}" + (" — correct." if ok else ""))
    return out


def renege_lines(h: HandReport, rules: RuleSet) -> list[str]:
    """The lines telling a renege scored under ``renege = penalty`` (RENEGE-2)."""
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


def trump_text(t: Trump) -> str:
    """A trump as a report says it: ``6s``, ``doubles`` or ``no-trump``."""
    if t is Trump.DOUBLES:
        return "doubles"
    if t is Trump.NONE:
        return "no-trump"
    return f"{t.value}s"


__all__ = ["claim_lines", "format_report", "players_line", "renege_lines", "trump_text"]
