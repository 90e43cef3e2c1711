"""A game review as one self-contained HTML page: the library's tile pictures, inline CSS and
a few lines of script to step through the decisions (``←``/``→``, ``j``/``k``, or a click).

Each hand shows its deal, its auction and its tricks, then its decisions in order: the
chosen action with its mark, and a table of every alternative with both values (double
dummy: tricks and points; single dummy: mean points and standard error). The page needs
nothing from the network.
"""

from __future__ import annotations

from html import escape

from moonrules.analysis.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    NOISE_Z,
    Decision,
    HandReview,
    Review,
    action_json,
)
from moonrules.arbitration import render
from moonrules.arbitration.report_html import Words, english, page_head, page_words
from moonrules.game import Bid, Discard, NameTrump, Pass, Play
from moonrules.rules.auction import PASS
from moonrules.rules.contract import check_instance
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, tiles_of

__all__ = ["review_html"]

_CSS = """
:root { color-scheme: light; --ink: #2b2620; --muted: #6d655a; --line: #d9d0bf;
  --paper: #fffdf7; --bad: #c62828; --mid: #e07b00; --mild: #b59a00; --good: #23964a; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3eee2; color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 20px 16px 48px; }
h1 { font-size: 1.5em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 0 0 8px; }
h3 { font-size: 1em; margin: 12px 0 6px; }
.meta { color: var(--muted); margin: 0 0 14px; }
section.hand { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
  padding: 14px 16px; margin: 0 0 16px; }
.deal { display: flex; flex-wrap: wrap; gap: 6px 22px; align-items: flex-end; }
.seat-tiles { display: flex; flex-direction: column; }
.seat-tiles span { font-size: .85em; color: var(--muted); }
.tricks svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; background: var(--paper); }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; }
th { background: #efe7d6; }
td:first-child, th:first-child { text-align: left; }
.wrap { overflow-x: auto; margin: 0 0 12px; }
ol.decisions { list-style: none; padding: 0; margin: 0; }
ol.decisions > li { border: 1px solid var(--line); border-radius: 8px; margin: 4px 0;
  background: #fff; }
ol.decisions > li.current { outline: 3px solid #3b6fd8; }
button.head { all: unset; cursor: pointer; display: flex; gap: 10px; align-items: center;
  width: 100%; padding: 5px 10px; box-sizing: border-box; }
button.head:focus-visible { outline: 2px solid #3b6fd8; }
.who { color: var(--muted); min-width: 9.5em; }
.act { font-weight: 600; }
.loss { margin-left: auto; color: var(--muted); font-size: .9em; }
.body { display: none; padding: 4px 10px 10px; }
li.open .body { display: block; }
.mark { font-weight: 700; padding: 0 5px; border-radius: 4px; color: #fff; }
.m1 { background: var(--mild); } .m2 { background: var(--mid); } .m3 { background: var(--bad); }
tr.chosen td { font-weight: 700; }
tr.best td:first-child::after { content: " ★"; color: var(--good); }
.nav { position: sticky; top: 0; background: #f3eee2; padding: 6px 0; z-index: 1;
  display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.nav button { font: inherit; padding: 4px 12px; }
.key { color: var(--muted); font-size: .9em; }
@media (max-width: 600px) {
  main { padding: 12px 8px 40px; }
  .who { min-width: 0; }
  button.head { flex-wrap: wrap; gap: 4px 8px; }
  th, td { padding: 2px 4px; }
  table { font-size: .88em; }
}
"""

_SCRIPT = """
(function () {
  var items = Array.prototype.slice.call(document.querySelectorAll('ol.decisions > li'));
  var at = -1;
  function go(i) {
    if (!items.length) return;
    i = Math.max(0, Math.min(items.length - 1, i));
    if (at >= 0) items[at].classList.remove('current', 'open');
    at = i;
    items[at].classList.add('current', 'open');
    items[at].querySelector('button.head').focus({preventScroll: true});
    items[at].scrollIntoView({block: 'nearest'});
    var c = document.getElementById('counter');
    if (c) c.textContent = (at + 1) + ' / ' + items.length;
  }
  items.forEach(function (li, i) {
    li.querySelector('button.head').addEventListener('click', function () {
      if (at === i && li.classList.contains('open')) { li.classList.remove('open'); }
      else { go(i); }
    });
  });
  function step(d) { go(at < 0 ? 0 : at + d); }
  document.getElementById('prev').addEventListener('click', function () { step(-1); });
  document.getElementById('next').addEventListener('click', function () { step(1); });
  document.getElementById('mistake').addEventListener('click', function () {
    for (var k = at + 1; k < items.length; k++) {
      if (items[k].dataset.mark) { go(k); return; }
    }
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight' || e.key === 'j') { step(1); e.preventDefault(); }
    if (e.key === 'ArrowLeft' || e.key === 'k') { step(-1); e.preventDefault(); }
  });
})();
"""

_MARK_CLASS = {"?!": "m1", "?": "m2", "??": "m3"}


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def _action_text(action: object) -> str:
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Discard):
        return f"discard {action.tile}"
    if isinstance(action, NameTrump):
        return f"trump {_trump_text(action.trump)}"
    if isinstance(action, Play):
        return str(action.tile)
    return str(action)  # pragma: no cover


def _trump_text(t: Trump) -> str:
    j = t.to_json()
    return f"{j}s" if isinstance(j, int) else str(j)


def review_html(
    r: Review, *, title: str | None = None, say: Words | None = None, lang: str = "en"
) -> str:
    """The review as one HTML page (see the module's text).

    ``say`` puts each English sentence of the page in the reader's language ``lang``
    (the page's ``lang`` attribute); without it the page is English.
    """
    check_instance(r, Review, "review")
    w = page_words(title, say, lang)
    name = title or w("Moon game review")
    rules = r.rules
    how = (
        f"{r.samples} deals per decision (seed {r.seed})"
        if r.samples
        else "double dummy only (no samples)"
    )
    players = f"{rules.players} players{' in two teams' if rules.partnership else ''}"
    marks = (
        f"marks by expected points lost: ?! ≥ {INACCURACY}, ? ≥ {MISTAKE}, "
        f"?? ≥ {BLUNDER}, none within {NOISE_Z:g} standard errors"
    )
    meta = " · ".join((w(players), w(how), w(marks)))
    body = [
        f"<h1>{_esc(name)}</h1>",
        f'<p class="meta">{_esc(meta)}</p>',
        f'<div class="nav"><button id="prev" type="button">{_esc(w("← Previous"))}</button>'
        f'<button id="next" type="button">{_esc(w("Next →"))}</button>'
        f'<button id="mistake" type="button">{_esc(w("Next mark"))}</button>'
        '<span id="counter" class="key"></span>'
        f'<span class="key">{_esc(w("keys ← → or j k"))}</span></div>',
        f"<h2>{_esc(w('Players'))}</h2>",
        _players_html(r, w),
    ]
    for h in r.hands:
        body.append(_hand_html(r, h, w))
    return (
        f'<!DOCTYPE html>\n<html lang="{_esc(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(name)}</title><style>{_CSS}{page_head(lang)}</style></head><body><main>"
        + "\n".join(body)
        + f"</main><script>{_SCRIPT}</script></body></html>\n"
    )


def _players_html(r: Review, w: Words) -> str:
    rows = [
        f'<div class="wrap"><table class="players"><tr><th>{_esc(w("Seat"))}</th>'
        f"<th>{_esc(w('Decisions'))}</th><th>?!</th><th>?</th><th>??</th>"
        f"<th>{_esc(w('Points lost'))}</th><th>{_esc(w('Accuracy'))}</th></tr>"
    ]
    for p in r.players:
        acc = "—" if p.accuracy is None else f"{p.accuracy:.1f}%"
        rows.append(
            f"<tr><td>{_esc(w(f'Seat {p.seat}'))}</td><td>{p.decisions}</td><td>{p.marks[0]}</td>"
            f"<td>{p.marks[1]}</td><td>{p.marks[2]}</td><td>{p.points_lost:.2f}</td>"
            f"<td>{acc}</td></tr>"
        )
    rows.append("</table></div>")
    return "".join(rows)


def _hand_html(r: Review, hr: HandReview, w: Words) -> str:
    h = hr.hand
    n = r.rules.players
    out = [
        f'<section class="hand" id="hand-{hr.number}">',
        f"<h2>{_esc(w(f'Hand {hr.number}'))}</h2>",
    ]
    deal = ['<div class="deal">']
    for s in range(n):
        ts = tiles_of(h.deal[s])
        ring = (
            {TILES[h.discard]: render.HIGHLIGHT_COLOUR} if h.discard >= 0 and s == h.bidder else {}
        )
        svg = render.hand_svg(ts, size=18, highlight=ring, title=w(f"Seat {s} was dealt"))
        deal.append(f'<div class="seat-tiles"><span>{_esc(w(f"Seat {s}"))}</span>{svg}</div>')
    if h.widow >= 0:
        svg = render.hand_svg([TILES[h.widow]], size=18, title=w("The widow"))
        deal.append(f'<div class="seat-tiles"><span>{_esc(w("Widow"))}</span>{svg}</div>')
    deal.append("</div>")
    out.append("".join(deal))
    calls = ", ".join(
        f"seat {(h.first_bidder + k) % n} {'passes' if c == PASS else f'bids {c}'}"
        for k, c in enumerate(h.calls)
    )
    facts = [f"Auction: {calls or 'no call'}."]
    if h.bidder >= 0:
        facts.append(f"Seat {h.bidder} bid {h.bid}.")
    if h.discard >= 0:
        facts.append(f"Discard {TILES[h.discard]} (ringed).")
    if h.trump >= 0:
        facts.append(f"Trump {_trump_text(next(t for t in Trump if t.value == h.trump))}.")
    out.append(f'<p class="meta">{_esc(" ".join(w(f) for f in facts))}</p>')
    if h.tricks:
        out.append(f'<h3>{_esc(w("Tricks"))}</h3><div class="tricks">')
        seats = None if w is english else [w(f"Seat {s}") for s in range(n)]
        out.append(render.hand_tricks_svg(h.tricks, n, seat_names=seats, size=20, words=w))
        out.append("</div>")
    out.append(f"<h3>{_esc(w(f'Decisions ({len(hr.decisions)})'))}</h3>")
    out.append('<ol class="decisions">')
    out.extend(_decision_html(d, w) for d in hr.decisions)
    out.append("</ol></section>")
    return "\n".join(out)


def _decision_html(d: Decision, w: Words) -> str:
    where = w(f"trick {d.trick}, {d.kind}") if d.trick is not None else w(d.kind)
    mark = (
        f'<span class="mark {_MARK_CLASS[d.mark]}">{_esc(d.mark)}</span>'
        if d.mark is not None
        else ""
    )
    values = [a.dd_points if a.sd_points is None else a.sd_points for a in d.alternatives]
    best = max(values)
    rows = [
        f"<tr><th>{_esc(w('Action'))}</th><th>{_esc(w('DD tricks'))}</th>"
        f"<th>{_esc(w('DD points'))}</th><th>{_esc(w('SD points'))}</th>"
        f"<th>{_esc(w('± se'))}</th></tr>"
    ]
    for a, v in zip(d.alternatives, values, strict=True):
        cls = " ".join(c for c, on in (("chosen", a.action == d.chosen), ("best", v == best)) if on)
        sd = "—" if a.sd_points is None else f"{a.sd_points:.2f}"
        se = "—" if a.sd_se is None else f"{a.sd_se:.2f}"
        rows.append(
            f'<tr class="{cls}"><td>{_esc(w(_action_text(a.action)))}</td><td>{a.dd_tricks}</td>'
            f"<td>{a.dd_points}</td><td>{sd}</td><td>{se}</td></tr>"
        )
    picture = ""
    if isinstance(d.chosen, (Play, Discard)):
        named = w(f"Tile {d.chosen.tile}")
        picture = render.tile_svg(
            d.chosen.tile,
            size=14,
            orientation="horizontal",
            title=None if named == f"Tile {d.chosen.tile}" else named,
        )
    advice = ""
    if d.advice:
        best_chances = sorted(d.advice, key=lambda c: -c.p_make)[:6]
        advice = (
            f'<p class="key">{_esc(w("Bidding advice (chance of making):"))} '
            + ", ".join(
                _esc(w(f"{c.bid} in {_trump_text(c.trump)} {100 * c.p_make:.0f}%"))
                for c in best_chances
            )
            + "</p>"
        )
    loss = w(f"loses {d.loss:.2f} ± {d.noise:.2f}" if d.loss > 0 else "best")
    return (
        f'<li data-mark="{_esc(d.mark or "")}" data-action="{_esc(action_json(d.chosen))}">'
        f'<button class="head" type="button"><span class="who">{_esc(w(f"Seat {d.seat}"))} · '
        f'{_esc(where)}</span>{picture}<span class="act">{_esc(w(_action_text(d.chosen)))}'
        f'</span>{mark}<span class="loss">{_esc(loss)}</span></button>'
        f'<div class="body"><div class="wrap"><table>{"".join(rows)}</table></div>'
        f"{advice}</div></li>"
    )
