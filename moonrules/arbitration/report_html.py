"""A checked record as one self-contained HTML page: tiles drawn as inline SVG, inline CSS."""

from __future__ import annotations

from typing import Final

from moonrules.arbitration import render
from moonrules.arbitration.explain import side_name
from moonrules.arbitration.report import HandReport, Report
from moonrules.arbitration.report_text import claim_lines, players_line, renege_lines, trump_text
from moonrules.game import Phase, Trick
from moonrules.rules.auction import PASS
from moonrules.rules.contract import check_instance, check_str
from moonrules.rules.ruleset import RuleSet, Scoring
from moonrules.rules.scoring import side_tricks
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of
from moonrules.rules.tricks import trick_winner

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
    check_instance(report, Report, "report")
    if title is not None:
        check_str(title, "title", "text or None")
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
    players = players_line(report)
    if players is not None:
        body.append(f'<p class="meta players">{_esc(players)}</p>')
    if ruling is None:
        body.append(
            '<div class="verdict valid"><strong>Valid.</strong> Every step follows the rules. '
            f"{_esc(report.end)}</div>"
        )
    else:
        in_hand = any(ruling.hand == h.number - 1 and ruling.step != "deal" for h in report.hands)
        here = next((h for h in report.hands if h.number == ruling.hand + 1), None)
        body.append(_violation_html(report, here if in_hand else None))
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
    full = _hands_in_full(report)
    if len(full) < len(report.hands):
        body.append(
            f'<p class="meta">{len(report.hands) - len(full)} hands not in dispute are '
            "summarised in the score table above; the page shows in full the last "
            f"{FULL_HANDS} hands and the hand in dispute (moonrules check --json gives every hand)."
            "</p>"
        )
    for h in report.hands:
        if h.number in full:
            body.append(_hand_html(report, h, seat_names, unit))
    body.append(f"<footer>{_esc(report.end)}</footer>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(name)}</title><style>{_CSS}</style></head><body><main>"
        + "\n".join(body)
        + "</main></body></html>\n"
    )


FULL_HANDS: Final = 40
"""A record of more hands shows in full only its last ``FULL_HANDS`` and the one in dispute:
the page of a record of thousands of hands stays small."""


def _hands_in_full(report: Report) -> set[int]:
    """The numbers of the hands the page shows in full."""
    numbers = [h.number for h in report.hands]
    full = set(numbers[-FULL_HANDS:])
    if report.ruling is not None:
        full.add(report.ruling.hand + 1)
    return full


def _hand_html(report: Report, h: HandReport, seat_names: list[str], unit: str) -> str:
    """One hand's section; the disputed step, if it is in this hand, where it happened."""
    rules = report.rules
    ruling = report.ruling
    step = ruling.step if ruling is not None and ruling.hand == h.number - 1 else None

    def disputed(*steps: str) -> list[str]:
        return [_step_html(report)] if step in steps else []

    out = [
        f'<section class="hand" id="hand-{h.number}">',
        f"<h2>Hand {h.number}</h2>",
        f'<p class="meta">Seat {h.first_bidder} bids first.</p>',
        _deal_html(h),
        "<h3>Auction</h3>",
        _auction_html(h, disputed=step == "bid"),
        *disputed("bid"),
    ]
    facts = _facts(h)
    if facts:
        out.append(f'<p class="facts">{" ".join(facts)}</p>')
    out.extend(disputed("discard", "trump"))
    out.extend(_tricks_html(h, rules, seat_names, show_unfinished=step != "play"))
    out.extend(disputed("play", "claim"))
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
    out.extend(disputed("score"))
    out.append("</section>")
    return "\n".join(out)


def _deal_html(h: HandReport) -> str:
    """Each seat's tiles as dealt, the discard ringed, and the widow."""
    out = ['<div class="deal">']
    for s, ts in enumerate(h.deal):
        ring = {h.discard: render.HIGHLIGHT_COLOUR} if h.discard in ts and s == h.bidder else {}
        svg = render.hand_svg(
            ts, size=22, highlight=ring, title=f"Seat {s} was dealt {len(ts)} tiles"
        )
        out.append(f'<div class="seat-tiles"><span>Seat {s}</span>{svg}</div>')
    if h.widow is not None:
        svg = render.hand_svg([h.widow], size=22, title=f"The widow: {h.widow}")
        out.append(f'<div class="seat-tiles"><span>Widow</span>{svg}</div>')
    out.append("</div>")
    return "\n".join(out)


def _auction_html(h: HandReport, *, disputed: bool) -> str:
    """The calls in order; a disputed call is marked at the end."""
    items = [f"<li>Seat {s} {_call_html(c)}</li>" for s, c in h.calls]
    if disputed:
        items.append('<li class="bad">the disputed call (see the ruling)</li>')
    return f'<ol class="auction">{"".join(items) or "<li>no call yet</li>"}</ol>'


def _facts(h: HandReport) -> list[str]:
    """The auction's outcome, then widow and trump in the order the rules take them."""
    facts = []
    if h.thrown_in:
        facts.append("Every player passed: the hand is thrown in and redealt (BID-7).")
    elif h.bidder is not None:
        facts.append(f"Seat {h.bidder} wins the auction with a bid of {h.bid} (BID-6).")
    trump = [] if h.trump is None else [f"Trump: <strong>{_esc(trump_text(h.trump))}</strong>."]
    if h.trump_first:
        facts.extend(trump)
    if h.discard is not None:
        facts.append(f"Seat {h.bidder} takes the widow ({h.widow}) and discards {h.discard}.")
    if not h.trump_first:
        facts.extend(trump)
    return facts


def _tricks_html(
    h: HandReport, rules: RuleSet, seat_names: list[str], *, show_unfinished: bool
) -> list[str]:
    """The finished tricks as a table, then a renege or the unfinished trick."""
    out = []
    tricks = [Trick(t.leader, t.tiles, t.winner) for t in h.tricks if t.winner is not None]
    if tricks:
        out.append("<h3>Tricks</h3>")
        out.append(
            '<div class="tricks">'
            + render.hand_tricks_svg(tricks, rules.players, seat_names=seat_names, size=20)
            + "</div>"
        )
    unfinished = [t for t in h.tricks if t.winner is None]
    if h.renege is not None:
        out.append(_renege_html(h, rules))
    elif unfinished and show_unfinished and h.claim is None:
        t = unfinished[0]
        labels = [f"Seat {t.seat_of(i)}" + (" led" if i == 0 else "") for i in range(len(t.tiles))]
        out.append(f"<h3>Trick {t.number} (unfinished)</h3>")
        out.append(render.hand_svg(t.tiles, size=30, labels=labels))
    if h.claim is not None:
        lines = "".join(f"<li>{_esc(x.strip())}</li>" for x in claim_lines(h, rules))
        out.append(f'<div class="claim" id="claim-{h.number}"><h3>Claim</h3><ul>{lines}</ul></div>')
    return out


def _renege_html(h: HandReport, rules: RuleSet) -> str:
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
    lines = "".join(f"<li>{_esc(x)}</li>" for x in renege_lines(h, rules))
    reasons = "".join(f"<li>{_esc(x)}</li>" for x in r.explanation.reasons)
    return (
        f'<div class="renege" id="renege-{h.number}"><h3>Trick {t.number}: a renege, '
        f"penalised (RENEGE-2)</h3><ul>{lines}</ul>"
        f'<div class="row"><div>{trick}<div class="caption">The trick</div></div>'
        f'<div>{holding}<div class="caption">Seat {r.seat} held (green: the tiles that '
        f'followed)</div></div></div><ol class="clauses">{reasons}</ol></div>'
    )


def _step_html(report: Report) -> str:
    """The disputed step where it happened, marked, pointing to the ruling at the top."""

    ruling = report.ruling
    assert ruling is not None
    out = ['<div class="violation-step">']
    out.append(
        f"<h3>{_esc(ruling.label)}: {_esc(ruling.verdict.lower())} ({_esc(ruling.rule)})</h3>"
    )
    picture = _trick_picture(report, size=28)
    if picture:
        out.append(picture)
    out.append(f'<p>{_esc(ruling.why)} <a href="#violation">The ruling</a></p></div>')
    return "".join(out)


def _trick_picture(report: Report, *, size: float) -> str:
    """The trick of a ruling on a play, as played, the offending tile ringed in red."""

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
        + render.hand_svg(
            shown,
            size=size,
            labels=labels,
            highlight={bad: BAD_COLOUR} if bad is not None else {},
            title=f"Trick {number} as played",
        )
        + f'<div class="caption">Trick {number} as played</div></div>'
    )


def _violation_html(report: Report, h: HandReport | None) -> str:
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
        picture = _trick_picture(report, size=34)
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


__all__ = ["BAD_COLOUR", "report_html"]
