"""A checked record as one self-contained HTML page: tiles drawn as inline SVG, inline CSS."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from moonrules.arbitration import render
from moonrules.arbitration.explain import side_name
from moonrules.arbitration.report import HandReport, Report
from moonrules.arbitration.report_text import claim_lines, players_line, renege_lines, trump_text
from moonrules.game import Phase, Trick
from moonrules.rules.auction import PASS
from moonrules.rules.contract import check_instance, check_str
from moonrules.rules.errors import wrong_type
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


Words = Callable[[str], str]
"""An English sentence of the page in, the same sentence in the reader's language out."""


def english(text: str) -> str:
    """The words of an English page: each sentence as it is."""
    return text


def page_words(title: str | None, say: Words | None, lang: str) -> Words:
    """The words of a page (``say``, or :func:`english`), once its ``title``, ``say`` and
    ``lang`` are checked."""
    if title is not None:
        check_str(title, "title", "text or None")
    if say is not None and not callable(say):
        raise wrong_type("say", "a function from an English sentence to the reader's, or None", say)
    check_str(lang, "lang", "a language code")
    return say if say is not None else english


FONTS: Final = (
    'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, "Noto Sans", '
    '"Noto Sans Gurmukhi", "Lohit Gurmukhi", "Raavi", sans-serif'
)
"""The font stack of a page in a language other than English: one that draws Gurmukhi
(Punjabi) as well as Latin and Cyrillic."""


def page_head(lang: str) -> str:
    """What a page in ``lang`` adds to its style: a font stack naming Gurmukhi fonts (none
    for English, whose page is as it always was)."""
    return "" if lang == "en" else f"\nbody {{ font-family: {FONTS}; }}\n"


def _said(say: Words, english: str, markup: str) -> str:
    """``markup``, the HTML of the sentence ``english``, or the sentence in the reader's
    language, escaped, when it has one (the bold of the English is lost)."""
    told = say(english)
    return markup if told == english else _esc(told)


def report_html(
    report: Report, *, title: str | None = None, say: Words | None = None, lang: str = "en"
) -> str:
    """The report as one self-contained HTML page: tiles drawn as inline SVG, inline CSS.

    The offending step of a ruling is the element with id ``violation`` (class
    ``violation``), holding the ruling, the clause chain and the legal
    alternatives, drawn.

    ``say`` puts each English sentence of the page in the reader's language ``lang``
    (the page's ``lang`` attribute); without it the page is English.
    """
    check_instance(report, Report, "report")
    w = page_words(title, say, lang)
    rules = report.rules
    n = rules.players
    seat_names = [w(f"Seat {s}") for s in range(n)]
    unit = "marks" if rules.scoring is Scoring.MARKS else "points"
    ruling = report.ruling
    name = title or w("Moon game record")
    players_n = f"{n} players{' in two teams' if rules.partnership else ''}"
    seed = report.seed if report.seed is not None else "(none)"
    meta = " · ".join(
        (
            w(f"Rules: {report.rules_label}"),
            w(players_n),
            w(f"seed {seed}"),
            w("checked by moonrules"),
        )
    )
    body: list[str] = [f"<h1>{_esc(name)}</h1>", f'<p class="meta">{_esc(meta)}</p>']
    players = players_line(report)
    if players is not None:
        body.append(f'<p class="meta players">{_esc(w(players))}</p>')
    if ruling is None:
        body.append(
            f'<div class="verdict valid"><strong>{_esc(w("Valid."))}</strong> '
            f"{_esc(w('Every step follows the rules.'))} {_esc(w(report.end))}</div>"
        )
    else:
        in_hand = any(ruling.hand == h.number - 1 and ruling.step != "deal" for h in report.hands)
        here = next((h for h in report.hands if h.number == ruling.hand + 1), None)
        body.append(_violation_html(report, here if in_hand else None, w))
    # score table
    body.append(f"<h2>{_esc(w('Scores'))}</h2>")
    sides = [side_name(rules, s) for s in range(rules.sides)]
    head = "".join(f"<th>{_esc(w(s.capitalize()))}</th>" for s in sides)
    rows = [
        f'<table class="scores"><tr><th>{_esc(w("Hand"))}</th><th>{_esc(w("Bidder"))}</th>'
        f"<th>{_esc(w('Bid'))}</th>{head}</tr>"
    ]
    for h in report.hands:
        bad = ruling is not None and ruling.step == "score" and ruling.hand == h.number - 1
        if h.thrown_in:
            cells = "".join("<td>—</td>" for _ in sides)
            rows.append(
                f"<tr><td>{h.number}</td><td colspan=2>{_esc(w('thrown in'))}</td>{cells}</tr>"
            )
            continue
        bidder = "—" if h.bidder is None else _esc(w(f"seat {h.bidder}"))
        bid = "—" if h.bid is None else str(h.bid)
        if h.deltas is not None:
            cells = "".join(
                f"<td>{d:+d} → <strong>{t}</strong></td>"
                for d, t in zip(h.deltas, h.totals, strict=True)
            )
        else:
            cells = "".join(f"<td>{t} {_esc(w('(unfinished)'))}</td>" for t in h.totals)
        rows.append(
            f"<tr{' class=bad' if bad else ''}><td>{h.number}</td><td>{bidder}</td>"
            f"<td>{bid}</td>{cells}</tr>"
        )
        if h.sheet is not None:
            sheet = "".join(f"<td>{v}</td>" for v in h.sheet)
            rows.append(
                f"<tr{' class=bad' if bad else ''}><td colspan=3>{_esc(w('score sheet'))}</td>"
                f"{sheet}</tr>"
            )
    rows.append("</table>")
    body.append("".join(rows))
    full = _hands_in_full(report)
    if len(full) < len(report.hands):
        summary = w(
            f"{len(report.hands) - len(full)} hands not in dispute are "
            "summarised in the score table above; the page shows in full the last "
            f"{FULL_HANDS} hands and the hand in dispute (moonrules check --json gives every hand)."
        )
        body.append(f'<p class="meta">{_esc(summary)}</p>')
    for h in report.hands:
        if h.number in full:
            body.append(_hand_html(report, h, seat_names, unit, w))
    body.append(f"<footer>{_esc(w(report.end))}</footer>")
    return (
        f'<!DOCTYPE html>\n<html lang="{_esc(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(name)}</title><style>{_CSS}{page_head(lang)}</style></head><body><main>"
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


def _hand_html(report: Report, h: HandReport, seat_names: list[str], unit: str, w: Words) -> str:
    """One hand's section; the disputed step, if it is in this hand, where it happened."""
    rules = report.rules
    ruling = report.ruling
    step = ruling.step if ruling is not None and ruling.hand == h.number - 1 else None

    def disputed(*steps: str) -> list[str]:
        return [_step_html(report, w)] if step in steps else []

    out = [
        f'<section class="hand" id="hand-{h.number}">',
        f"<h2>{_esc(w(f'Hand {h.number}'))}</h2>",
        f'<p class="meta">{_esc(w(f"Seat {h.first_bidder} bids first."))}</p>',
        _deal_html(h, w),
        f"<h3>{_esc(w('Auction'))}</h3>",
        _auction_html(h, w, disputed=step == "bid"),
        *disputed("bid"),
    ]
    facts = _facts(h, w)
    if facts:
        out.append(f'<p class="facts">{" ".join(facts)}</p>')
    out.extend(disputed("discard", "trump"))
    out.extend(_tricks_html(h, rules, seat_names, w, show_unfinished=step != "play"))
    out.extend(disputed("play", "claim"))
    if h.finished and h.deltas is not None and not h.thrown_in and h.bidder is not None:
        side = rules.side_of(h.bidder)
        st = side_tricks(rules, h.tricks_won)
        deltas = " ".join(f"{d:+d}" for d in h.deltas)
        totals = " ".join(map(str, h.totals))
        result = w(
            f"{side_name(rules, side).capitalize()} bid {h.bid} and took "
            f"{st[side]}: {'made' if h.made else 'set'}. Score {deltas}; totals {totals} "
            f"{unit}."
        )
        out.append(f'<p class="result">{_esc(result)}</p>')
    out.extend(disputed("score"))
    out.append("</section>")
    return "\n".join(out)


def _deal_html(h: HandReport, w: Words) -> str:
    """Each seat's tiles as dealt, the discard ringed, and the widow."""
    out = ['<div class="deal">']
    for s, ts in enumerate(h.deal):
        ring = {h.discard: render.HIGHLIGHT_COLOUR} if h.discard in ts and s == h.bidder else {}
        svg = render.hand_svg(
            ts, size=22, highlight=ring, title=w(f"Seat {s} was dealt {len(ts)} tiles")
        )
        out.append(f'<div class="seat-tiles"><span>{_esc(w(f"Seat {s}"))}</span>{svg}</div>')
    if h.widow is not None:
        svg = render.hand_svg([h.widow], size=22, title=w(f"The widow: {h.widow}"))
        out.append(f'<div class="seat-tiles"><span>{_esc(w("Widow"))}</span>{svg}</div>')
    out.append("</div>")
    return "\n".join(out)


def _auction_html(h: HandReport, w: Words, *, disputed: bool) -> str:
    """The calls in order; a disputed call is marked at the end."""
    items = [f"<li>{_esc(w(f'Seat {s} {_call_html(c)}'))}</li>" for s, c in h.calls]
    if disputed:
        items.append(f'<li class="bad">{_esc(w("the disputed call (see the ruling)"))}</li>')
    none = f"<li>{_esc(w('no call yet'))}</li>"
    return f'<ol class="auction">{"".join(items) or none}</ol>'


def _facts(h: HandReport, w: Words) -> list[str]:
    """The auction's outcome, then widow and trump in the order the rules take them."""
    facts = []
    if h.thrown_in:
        facts.append(_esc(w("Every player passed: the hand is thrown in and redealt (BID-7).")))
    elif h.bidder is not None:
        facts.append(_esc(w(f"Seat {h.bidder} wins the auction with a bid of {h.bid} (BID-6).")))
    trump = (
        []
        if h.trump is None
        else [
            _said(
                w,
                f"Trump: {trump_text(h.trump)}.",
                f"Trump: <strong>{_esc(trump_text(h.trump))}</strong>.",
            )
        ]
    )
    if h.trump_first:
        facts.extend(trump)
    if h.discard is not None:
        facts.append(
            _esc(w(f"Seat {h.bidder} takes the widow ({h.widow}) and discards {h.discard}."))
        )
    if not h.trump_first:
        facts.extend(trump)
    return facts


def _tricks_html(
    h: HandReport, rules: RuleSet, seat_names: list[str], w: Words, *, show_unfinished: bool
) -> list[str]:
    """The finished tricks as a table, then a renege or the unfinished trick."""
    out = []
    tricks = [Trick(t.leader, t.tiles, t.winner) for t in h.tricks if t.winner is not None]
    if tricks:
        out.append(f"<h3>{_esc(w('Tricks'))}</h3>")
        out.append(
            '<div class="tricks">'
            + render.hand_tricks_svg(tricks, rules.players, seat_names=seat_names, size=20, words=w)
            + "</div>"
        )
    unfinished = [t for t in h.tricks if t.winner is None]
    if h.renege is not None:
        out.append(_renege_html(h, rules, w))
    elif unfinished and show_unfinished and h.claim is None:
        t = unfinished[0]
        labels = [
            w(f"Seat {t.seat_of(i)}" + (" led" if i == 0 else "")) for i in range(len(t.tiles))
        ]
        out.append(f"<h3>{_esc(w(f'Trick {t.number} (unfinished)'))}</h3>")
        out.append(render.hand_svg(t.tiles, size=30, labels=labels, title=_tiles_title(t.tiles, w)))
    if h.claim is not None:
        lines = "".join(f"<li>{_esc(w(x.strip()))}</li>" for x in claim_lines(h, rules))
        out.append(
            f'<div class="claim" id="claim-{h.number}"><h3>{_esc(w("Claim"))}</h3>'
            f"<ul>{lines}</ul></div>"
        )
    return out


def _tiles_title(tiles: Iterable[Tile], w: Words) -> str | None:
    """A picture's title naming its tiles, in the reader's language (``None``: the
    picture's own English title, as the English page always had)."""
    english = "Tiles: " + " ".join(map(str, tiles))
    said = w(english)
    return None if said == english else said


def _renege_html(h: HandReport, rules: RuleSet, w: Words) -> str:
    r = h.renege
    assert r is not None
    t = r.trick
    labels = [f"Seat {t.seat_of(i)}" + (" led" if i == 0 else "") for i in range(len(t.tiles))]
    labels[-1] += " — renege"
    labels = [w(x) for x in labels]
    trick = render.hand_svg(
        t.tiles,
        size=30,
        labels=labels,
        highlight={r.tile: BAD_COLOUR},
        title=_tiles_title(t.tiles, w),
    )
    holding = render.hand_svg(
        r.holding,
        size=26,
        highlight={**dict.fromkeys(r.legal, render.WINNER_COLOUR), r.tile: BAD_COLOUR},
        dim=[x for x in r.holding if x not in r.legal and x != r.tile],
        title=_tiles_title(r.holding, w),
    )
    lines = "".join(f"<li>{_esc(w(x))}</li>" for x in renege_lines(h, rules))
    reasons = "".join(f"<li>{_esc(w(x.text))} ({_esc(x.rule)})</li>" for x in r.explanation.reasons)
    heading = w(f"Trick {t.number}: a renege, penalised (RENEGE-2)")
    held = w(f"Seat {r.seat} held (green: the tiles that followed)")
    return (
        f'<div class="renege" id="renege-{h.number}"><h3>{_esc(heading)}</h3><ul>{lines}</ul>'
        f'<div class="row"><div>{trick}<div class="caption">{_esc(w("The trick"))}</div></div>'
        f'<div>{holding}<div class="caption">{_esc(held)}</div></div></div>'
        f'<ol class="clauses">{reasons}</ol></div>'
    )


def _heading(report: Report, w: Words) -> str:
    """A ruling's heading: where, what the verdict is and the clause."""
    ruling = report.ruling
    assert ruling is not None
    return f"{w(ruling.label)}: {w(ruling.verdict.lower())} ({ruling.rule})"


def _step_html(report: Report, w: Words) -> str:
    """The disputed step where it happened, marked, pointing to the ruling at the top."""

    ruling = report.ruling
    assert ruling is not None
    out = ['<div class="violation-step">']
    out.append(f"<h3>{_esc(_heading(report, w))}</h3>")
    picture = _trick_picture(report, w, size=28)
    if picture:
        out.append(picture)
    out.append(
        f'<p>{_esc(w(ruling.why))} <a href="#violation">{_esc(w("The ruling"))}</a></p></div>'
    )
    return "".join(out)


def _trick_picture(report: Report, w: Words, *, size: float) -> str:
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
        w(f"Seat {(hand.leader + i) % n}" + (" led" if i == 0 else "")) for i in range(len(shown))
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
            title=w(f"Trick {number} as played"),
        )
        + f'<div class="caption">{_esc(w(f"Trick {number} as played"))}</div></div>'
    )


def _violation_html(report: Report, h: HandReport | None, w: Words) -> str:
    ruling = report.ruling
    assert ruling is not None
    state = report.state
    n = report.rules.players
    out = ['<div class="violation" id="violation">']
    out.append(f"<h3>{_esc(w('Ruling'))} — {_esc(_heading(report, w))}</h3>")
    out.append(f'<p class="ruling">{_esc(w(ruling.text))}</p>')
    if h is not None:
        out.append(f'<p><a href="#hand-{h.number}">{_esc(w(f"Go to hand {h.number}"))}</a></p>')
    hand = state.hand
    pictures = []
    if ruling.step == "play" and h is not None and hand.phase is Phase.PLAY:
        bad = ruling.tile
        picture = _trick_picture(report, w, size=34)
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
                    title=w(f"Seat {seat}'s tiles"),
                )
                + '<div class="caption">'
                + _esc(
                    w(
                        f"Seat {seat} held these tiles; ringed green: the legal "
                        f"{ruling.allowed_kind}"
                    )
                )
                + "</div></div>"
            )
    elif ruling.allowed:
        what = (
            "The correct totals are"
            if ruling.step == "score"
            else f"Legal {_esc(ruling.allowed_kind)} were"
        )
        listed = ", ".join(ruling.allowed)
        pictures.append(
            "<p>"
            + _said(
                w,
                f"{what}: {listed}.",
                f"{what}: <strong>{_esc(listed)}</strong>.",
            )
            + "</p>"
        )
    if ruling.defeating_line:
        out.append(f"<p>{_esc(w('One line of play that defeats the claim:'))}</p>")
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
            labels = [w(f"Seat {s}") for s, _ in chunk]
            if len(whole) == n:
                win = trick_winner(whole, trump) - len(before)
                if win >= 0:
                    labels[win] += " \u2605"
            chunk_tiles = [t for _, t in chunk]
            pictures.append(
                render.hand_svg(
                    chunk_tiles, size=24, labels=labels, title=_tiles_title(chunk_tiles, w)
                )
            )
    if pictures:
        out.append('<div class="row">' + "".join(pictures) + "</div>")
    if ruling.reasons:
        out.append(f"<p>{_esc(w('Why:'))}</p>")
        out.append(
            '<ol class="clauses">'
            + "".join(
                f'<li>{_esc(w(r.text))} (<span class="clause">{_esc(r.rule)}</span>)</li>'
                for r in ruling.reasons
            )
            + "</ol>"
        )
    out.append("</div>")
    return "".join(out)


BAD_COLOUR = "#c62828"
"""The ring round an illegal tile in the HTML report."""


__all__ = ["BAD_COLOUR", "FONTS", "Words", "page_head", "report_html"]
