"""An event's pages on the table: its standings, rounds and tables, recomputed from its log.

``GET /events/{event}`` (HTML), ``/events/{event}/standings.json`` and ``.csv``: the event
kept in the table's database (:mod:`moonrules.tournament.store`, the same ``--db``), its
standings computed by :mod:`moonrules.tournament.scoring` from the log alone, each time it is
asked for. Every text an entry gave (names, the event's name) is written escaped: a page
shows it as text, never as HTML. The page reloads itself while boards are being played.

Each board of a round has its traveller: its result at every table side by side (each
seat's name and points, the contract played and its tricks), and, once every table has
played it, its hand record: the tiles dealt to each seat and the widow, and its
**double-dummy values** (:func:`double_dummy`: for each seat and each trump the rule set
offers, the tricks the seat's side takes as the bidder with every hand seen, the widow taken
and a tile discarded as ``moonrules advise`` does; worked out once per deal and kept), with
links to each table's record and its review (:func:`review_page`: the table's own review,
:mod:`moonrules.table.review_at_table`'s samples and seed, as one page). The ratings
(:mod:`moonrules.tournament.ratings`) have a section of the page and ``ratings.json``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Final, Generic, TypeVar

import attrs

from moonrules.analysis.advise import tricks_as_bidder
from moonrules.records.record import JSON, RecordError, RecordViolation
from moonrules.records.replay import from_record
from moonrules.rules.errors import MoonError
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES
from moonrules.table.page_words import N_, _, _n, html_lang, lang_notice, lang_switch, speaking
from moonrules.tournament.log import EventState, Result
from moonrules.tournament.ratings import Ratings, RatingsUnavailable, ratings
from moonrules.tournament.scoring import Standings, standings

__all__ = [
    "REFRESH_SECONDS",
    "Played",
    "board_complete",
    "double_dummy",
    "double_dummy_missing",
    "double_dummy_of",
    "event_html",
    "event_json",
    "event_ratings",
    "no_event_html",
    "remember_double_dummy",
    "review_page",
]

K = TypeVar("K")
V = TypeVar("V")


class _Kept(Generic[K, V]):
    """A bounded map kept across requests (least recently used out first), for threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._d: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._d:
                return None
            self._d.move_to_end(key)
            return self._d[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)


Deal = tuple[int, ...]
"""A deal as the solver takes it: each seat's tiles as a mask, then the widow's index or -1."""

DoubleDummy = tuple[tuple[int, ...], ...]
"""Per seat, per trump the rule set offers (in :attr:`RuleSet.trumps`' order): the tricks."""


@attrs.frozen(slots=True)
class Played:
    """What a board's record says of its hand: the deal, the contract and the tricks."""

    deal: Deal
    first_bidder: int
    bidder: int | None
    bid: int
    trump: int
    tricks: tuple[int, ...]


_PLAYED: _Kept[str, Played | None] = _Kept(4096)
_DOUBLE_DUMMY: _Kept[tuple[RuleSet, Deal], DoubleDummy] = _Kept(4096)
_REVIEWS: _Kept[str, str] = _Kept(256)


def _record_key(record: Mapping[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def played(result: Result) -> Played | None:
    """The hand of ``result``'s record (replayed once, then kept); ``None`` if its record
    cannot be replayed (the log's records are checked as they are kept, so: never)."""
    key = _record_key(result.record)
    if (got := _PLAYED.get(key)) is not None:
        return got
    try:
        state = from_record(dict(result.record))
    except (RecordError, RecordViolation, MoonError):
        return None
    hand = state.history[0] if state.history else state.hand
    c = hand.contract
    out = Played(
        (*c.deal, -1 if c.widow is None else int(c.widow)),
        c.first_bidder,
        c.bidder,
        c.bid,
        c.trump,
        tuple(hand.tricks_won),
    )
    _PLAYED.put(key, out)
    return out


def double_dummy(rules: RuleSet, deal: Deal) -> DoubleDummy:
    """The double-dummy values of ``deal``: for each seat and each trump of ``rules.trumps``,
    the tricks the seat's side takes as the bidder (the others passing), the widow taken and
    a tile discarded by :func:`moonrules.analysis.advise.discard_for`, every hand seen, both
    sides playing their best from the bidder's lead
    (:func:`~moonrules.analysis.advise.tricks_as_bidder`)."""
    return tuple(
        tuple(tricks_as_bidder(rules, deal, seat, t.value) for t in rules.trumps)
        for seat in range(rules.players)
    )


def double_dummy_all(wanted: Sequence[tuple[RuleSet, Deal]]) -> list[DoubleDummy]:
    """:func:`double_dummy` of each (rules, deal): one job for a worker."""
    return [double_dummy(rules, deal) for rules, deal in wanted]


def double_dummy_of(rules: RuleSet, deal: Deal) -> DoubleDummy | None:
    """The values kept for ``deal`` (:func:`remember_double_dummy`), if worked out."""
    return _DOUBLE_DUMMY.get((rules, deal))


def remember_double_dummy(rules: RuleSet, deal: Deal, values: DoubleDummy) -> None:
    _DOUBLE_DUMMY.put((rules, deal), values)


def _board_deal(state: EventState, rnd: int, board: int) -> Played | None:
    """The hand of ``board`` in round ``rnd`` once every table has played it."""
    if not board_complete(state, rnd, board):
        return None
    first = next((r for r in state.results if (r.round, r.board) == (rnd, board)), None)
    return None if first is None else played(first)


def double_dummy_missing(state: EventState) -> list[tuple[RuleSet, Deal]]:
    """The deals of the boards every table has played whose values are not kept yet."""
    out: list[tuple[RuleSet, Deal]] = []
    for rnd in state.seatings:
        for b in rnd.boards:
            p = _board_deal(state, rnd.number, b)
            key = None if p is None else (state.rules, p.deal)
            if key is not None and double_dummy_of(*key) is None and key not in out:
                out.append(key)
    return out


def review_page(record: JSON, title: str) -> str:
    """The review of a board's record as one page: the table's own review of a hand
    (:func:`moonrules.table.review_at_table.compute`'s samples, seed and inference), drawn by
    :func:`moonrules.arbitration.review_html.review_html`. Slow (a second or more): for a
    worker; :func:`review_kept` keeps each page."""
    from moonrules.analysis.review import review
    from moonrules.arbitration.review_html import review_html
    from moonrules.bots.inference import inferred_worlds
    from moonrules.table.review_at_table import REVIEW_SAMPLES, REVIEW_SEED

    state = from_record(record)
    r = review(state, hand=1, samples=REVIEW_SAMPLES, seed=REVIEW_SEED, worlds=inferred_worlds)
    icon = '<link rel="icon" href="/tiles/6-6.svg" type="image/svg+xml">'
    return review_html(r, title=title).replace("</title>", "</title>" + icon, 1)


def page_policy(page: str) -> str:
    """The Content-Security-Policy of a page with inline ``<style>`` and ``<script>`` (the
    review's, which needs nothing from the network): the table's, allowing exactly those
    inline blocks by their SHA-256 hashes."""
    import base64
    import hashlib
    import re

    def hashes(tag: str) -> str:
        found = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.S)
        return " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(x.encode()).digest()).decode() + "'"
            for x in found
        )

    return (
        "default-src 'none'; img-src 'self' data:; "
        f"style-src {hashes('style') or chr(39) + 'none' + chr(39)}; "
        f"script-src {hashes('script') or chr(39) + 'none' + chr(39)}; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def review_kept(record: Mapping[str, Any]) -> str | None:
    return _REVIEWS.get(_record_key(record))


def keep_review(record: Mapping[str, Any], page: str) -> None:
    _REVIEWS.put(_record_key(record), page)


def event_ratings(state: EventState) -> Ratings | str:
    """The event's ratings, or why there are none (openskill not installed: one line)."""
    try:
        return ratings(state)
    except RatingsUnavailable as e:
        return str(e)


REFRESH_SECONDS: Final = 10
"""How often the page reloads itself while a board of a round seated has no result."""

Rooms = Mapping[tuple[int, int, int], str]
"""The room of each (round, table, board) played on the table."""


def _boards(state: EventState) -> tuple[int, int]:
    """(results kept, boards seated) over the rounds seated."""
    seated = sum(len(r.tables) * len(r.boards) for r in state.seatings)
    kept = sum(
        1
        for r in state.seatings
        for t in r.tables
        for b in r.boards
        if state.result(r.number, t.number, b) is not None
    )
    return kept, seated


def _rounds(state: EventState, rooms: Rooms, event: str) -> list[dict[str, Any]]:
    out = []
    for rnd in state.seatings:
        tables = []
        for t in rnd.tables:
            boards = []
            for b in rnd.boards:
                result = state.result(rnd.number, t.number, b)
                room = rooms.get((rnd.number, t.number, b))
                boards.append(
                    {
                        "board": b,
                        "status": "played"
                        if result is not None
                        else ("playing" if room is not None else "waiting"),
                        "points": None if result is None else list(result.points),
                        "room": room,
                    }
                )
            tables.append(
                {
                    "table": t.number,
                    "entries": list(t.entries),
                    "players": list(state.seat_names(rnd.number, t)),
                    "boards": boards,
                }
            )
        travellers = [_traveller(state, rnd.number, b, event) for b in rnd.boards]
        out.append(
            {
                "round": rnd.number,
                "boards": list(rnd.boards),
                "tables": tables,
                "travellers": travellers,
            }
        )
    return out


def board_complete(state: EventState, rnd: int, board: int) -> bool:
    """Whether every table of round ``rnd`` has a result for ``board``: only then are its
    deal and records shown (before, they would tell the tiles to a table still playing)."""
    seated = state.seating(rnd)
    return seated is not None and all(
        state.result(rnd, t.number, board) is not None for t in seated.tables
    )


def _contract(state: EventState, result: Result) -> dict[str, Any] | None:
    """The contract of a result's hand: its bidder, bid and trump, and the tricks taken by
    the bidder's side (``None`` for a hand nobody bid, or a record not replayed)."""
    p = played(result)
    if p is None or p.bidder is None:
        return None
    rules = state.rules
    side = rules.side_of(p.bidder)
    return {
        "bidder": p.bidder,
        "bid": p.bid,
        "trump": Trump(p.trump).to_json(),
        "tricks": sum(w for s, w in enumerate(p.tricks) if rules.side_of(s) == side),
    }


def _traveller(state: EventState, rnd: int, board: int, event: str = "") -> dict[str, Any]:
    """A board's results at every table of its round side by side (with each table's
    contract), and, once every table has played it, its deal (each seat's tiles, the
    widow, the first bidder), the links to each table's record and review, and its
    double-dummy values once worked out (``None`` before)."""
    complete = board_complete(state, rnd, board)
    base = f"/events/{event}"
    results: list[dict[str, Any]] = []
    for r in sorted(state.results, key=lambda x: x.table):
        if (r.round, r.board) != (rnd, board):
            continue
        where = f"{rnd}/{r.table}/{board}"
        results.append(
            {
                "table": r.table,
                "players": list(r.players),
                "points": list(r.points),
                "contract": _contract(state, r),
                "record": f"{base}/records/{where}" if complete else None,
                "review": f"{base}/reviews/{where}" if complete else None,
            }
        )
    deal = None
    dd = None
    p = _board_deal(state, rnd, board) if results else None
    if p is not None:
        deal = {
            "hands": [_tiles(m) for m in p.deal[:-1]],
            "widow": None if p.deal[-1] < 0 else str(TILES[p.deal[-1]]),
            "first_bidder": p.first_bidder,
        }
        values = double_dummy_of(state.rules, p.deal)
        if values is not None:
            dd = {
                "trumps": [t.to_json() for t in state.rules.trumps],
                "tricks": [list(v) for v in values],
            }
    return {
        "board": board,
        "complete": complete,
        "results": results,
        "deal": deal,
        "double_dummy": dd,
    }


def _tiles(mask: int) -> list[str]:
    """A hand's tiles, highest first (as a record writes them)."""
    return [str(TILES[i]) for i in sorted((i for i in range(28) if mask >> i & 1), reverse=True)]


def event_json(event: str, state: EventState, rooms: Rooms) -> dict[str, Any]:
    """``standings.json``: the standings (as ``moonrules tournament standings --json``),
    the boards played of those seated, and each round's tables with each board's state
    (``played`` with each position's points, ``playing`` in ``room``, or ``waiting``)."""
    kept, seated = _boards(state)
    return {
        "event": event,
        **standings(state).to_json(),
        "progress": {
            "played": kept,
            "seated": seated,
            "percent": round(100 * kept / seated, 1) if seated else 0.0,
        },
        "rounds": _rounds(state, rooms, event),
    }


def _points(value: int) -> str:
    return f"+{value}" if value > 0 else ("\N{MINUS SIGN}" + str(-value) if value < 0 else "0")


FORMAT_NAMES: Final[Mapping[str, str]] = {
    "three-seat": N_("three-seat"),
    "mitchell": N_("mitchell"),
    "howell": N_("howell"),
    "swiss": N_("swiss"),
}
"""Each format's name on the page."""

TIE_NAMES: Final[Mapping[str, str]] = {
    "score": N_("score"),
    "head to head": N_("head to head"),
    "count-back": N_("count-back"),
    "ballot": N_("ballot"),
}
"""Each tie-break's name on the page."""

ADJUSTMENT_NAMES: Final[Mapping[str, str]] = {
    "average-plus": N_("average-plus"),
    "average-minus": N_("average-minus"),
    "60/40": N_("60/40"),
    "penalty": N_("penalty"),
}
"""Each kind of score adjustment's name on the page."""


def _named(names: Mapping[str, str], key: str) -> str:
    return _(names[key]) if key in names else escape(key)


def _notes(state: EventState) -> dict[str, list[str]]:
    """Each entry's notes in the page's language (as the standings' flags say them, as
    HTML): a reason a director gave is shown as written."""
    out: dict[str, list[str]] = {}
    for entry in state.entries:
        if entry.all_bots:
            out.setdefault(entry.name, []).append(_("bot"))
    for late, first, stated in state.late:
        out.setdefault(late, []).append(
            _(
                "late entry from round {round} ({value} for rounds missed)",
                round=first,
                value=f"{stated:g}",
            )
        )
    for gone, r in state.withdrawn:
        out.setdefault(gone, []).append(_("withdrew from round {round}", round=r))
    for who, r, player, by in state.substitutes:
        out.setdefault(who, []).append(
            _(
                "substitute {sub} for {player} from round {round}",
                sub=escape(by),
                player=escape(player),
                round=r,
            )
        )
    for a in state.adjustments:
        value = "" if a.value is None else f" {a.value:g}"
        out.setdefault(a.entry, []).append(
            _(
                "{kind} on board {board}: {reason}",
                kind=_named(ADJUSTMENT_NAMES, a.kind) + value,
                board=a.board,
                reason=escape(a.reason),
            )
        )
    for rnd in state.seatings:
        for e in rnd.byes:
            out.setdefault(e, []).append(_("bye in round {round}", round=rnd.number))
    return out


def _standings_rows(s: Standings, state: EventState) -> str:
    pct = s.scoring == "matchpoints"
    notes_of = _notes(state)
    rows = []
    for r in s.rows:
        notes = "; ".join(notes_of.get(r.entry, ()))
        if r.by not in ("", "score"):
            ahead = _("ahead by {tie_break}", tie_break=_named(TIE_NAMES, r.by))
            notes = ahead + (f"; {notes}" if notes else "")
        score = f"{float(r.score):.2f}" + ("%" if pct else "")
        rows.append(
            f"<tr><td class=num>{r.rank}</td><td>{escape(r.entry)}</td>"
            f"<td class=num>{score}</td><td class=num>{r.boards}</td>"
            f"<td class=notes>{notes}</td></tr>"
        )
    return "\n".join(rows)


def event_html(
    event: str, state: EventState, rooms: Rooms, lang: str = "en", asked: str = ""
) -> str:
    """The event's page (see the module) in ``lang`` (``asked``: a language asked for that
    the table does not have, said in one line)."""
    with speaking(lang):
        return _event_html(event, state, rooms, asked)


def _event_html(event: str, state: EventState, rooms: Rooms, asked: str) -> str:
    s = standings(state)
    kept, seated = _boards(state)
    done = bool(state.seatings) and kept == seated and len(state.seatings) == state.rounds
    playing = sorted(
        {
            name
            for rnd in state.seatings
            for t in rnd.tables
            for name in state.seat_names(rnd.number, t)
            if any(state.result(rnd.number, t.number, b) is None for b in rnd.boards)
        }
    )
    name = escape(state.name)
    percent = f"{100 * kept / seated:.0f}%" if seated else "0%"
    head = "%" if s.scoring == "matchpoints" else _("total")
    refresh = "" if done else f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">\n'
    status = (
        _("The event is over: every board is played.")
        if done
        else _("Refreshed every {seconds} s while boards are played.", seconds=REFRESH_SECONDS)
    )
    rounds = _n("{n} round", "{n} rounds", state.rounds)
    boards = _n("{n} board", "{n} boards", state.boards_per_round)
    progress = _n(
        "{kept} of {n} board played ({percent})",
        "{kept} of {n} boards played ({percent})",
        seated,
        kept=kept,
        percent=percent,
    )
    parts = [
        "<!doctype html>",
        f'<html lang="{html_lang()}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        refresh + f"<title>{_('{event} — standings', event=name)}</title>",
        '<link rel="icon" href="/tiles/6-6.svg" type="image/svg+xml">',
        '<link rel="stylesheet" href="/static/table.css">',
        '<link rel="stylesheet" href="/static/event.css">',
        "</head>",
        '<body class="event">',
        '<header class="bar"><h1><a href="/">Moon</a></h1>',
        f'<p class="sub">{name}</p>',
        f'<p class="conn" role="status">{status}</p>',
        lang_switch(f"/events/{event}"),
        "</header>",
        "<main>",
        lang_notice(asked),
        '<section class="panel" aria-labelledby="standings-h">',
        f'<h2 id="standings-h">{_("Standings")}</h2>',
        f'<p class="progress">{_named(FORMAT_NAMES, s.format)} · '
        + _("{rounds} of {boards}", rounds=rounds, boards=boards)
        + " · "
        + _("{n} seated", n=len(state.seatings))
        + f" · <strong>{progress}</strong></p>",
        '<p class="progress"><progress max="'
        + str(max(seated, 1))
        + f'" value="{kept}">{percent}</progress></p>',
    ]
    if playing:
        still = _("Still playing: {names}", names=escape(", ".join(playing)))
        parts.append(f'<p class="playing">{still}</p>')
    ties = _(", then ").join(_named(TIE_NAMES, t) for t in _ties())
    parts += [
        '<div class="scroll"><table class="standings">',
        f"<thead><tr><th class=num>{_('Rank')}</th><th>{_('Entry')}</th>"
        f"<th class=num>{head}</th><th class=num>{_('Boards')}</th><th>{_('Notes')}</th>"
        "</tr></thead>",
        "<tbody>",
        _standings_rows(s, state),
        "</tbody></table></div>",
        f'<p class="export">{_("Ties broken by {ties}.", ties=ties)} {_("Export:")} '
        f'<a href="/events/{escape(event)}/standings.csv">CSV</a> · '
        f'<a href="/events/{escape(event)}/standings.json">JSON</a></p>',
        "</section>",
        _ratings_html(event, state),
    ]
    for rnd in reversed(_rounds(state, rooms, event)):
        numbers = ", ".join(str(b) for b in rnd["boards"])
        title = _("Round {round}", round=rnd["round"])
        parts.append(
            f'<section class="panel round" aria-label="{title}">'
            f"<h2>{title} <span class=sub>{_('boards {boards}', boards=numbers)}</span></h2>"
            '<ul class="tables">'
        )
        for t in rnd["tables"]:
            seats = "".join(f"<li>{escape(p)}</li>" for p in t["players"])
            lines = []
            for b in t["boards"]:
                if b["status"] == "played":
                    pts = " ".join(_points(p) for p in b["points"])
                    what = f'<span class="pts">{pts}</span>'
                    if b["room"] is not None:
                        what += f' <a href="/rooms/{escape(b["room"])}">{_("game")}</a>'
                elif b["status"] == "playing":
                    what = (
                        f'<a class="live" href="/rooms/{escape(b["room"])}">'
                        f"{_('playing — watch')}</a>"
                    )
                else:
                    what = f'<span class="wait">{_("not yet")}</span>'
                board = _("Board {board}", board=b["board"])
                lines.append(f"<li><span class=b>{board}</span> {what}</li>")
            parts.append(
                f'<li class="etable"><h3>{_("Table {table}", table=t["table"])}</h3>'
                f'<ol class="seatnames">{seats}</ol>'
                f'<ul class="results">{"".join(lines)}</ul></li>'
            )
        parts.append("</ul>")
        parts += [_traveller_html(event, rnd["round"], t) for t in rnd["travellers"]]
        parts.append("</section>")
    if not state.seatings:
        parts.append(f'<section class="panel"><p>{_("No round is seated yet.")}</p></section>')
    else:
        parts.append(
            '<section class="panel legend" aria-labelledby="legend-h">'
            f'<h2 id="legend-h">{_("Reading the boards")}</h2><p>{_legend()}</p></section>'
        )
    parts += ["</main>", "</body>", "</html>", ""]
    return "\n".join(parts)


def no_event_html(lang: str = "en") -> str:
    """The page of an event that is not in the database (or cannot be read), in ``lang``."""
    with speaking(lang):
        return (
            f'<!doctype html><html lang="{html_lang()}"><title>{_("No such event")}</title>'
            f"<p>{_('No such event.')} "
            f'<a href="/">{_("Back to the lobby")}</a>'
        )


def _trump_head(t: JSON) -> tuple[str, str]:
    """A trump's column head (short) and its name (the head's title)."""
    if t == "doubles":
        return _("dbl"), _("doubles")
    if t == "none":
        return _("NT"), _("no-trump")
    return str(t), _("{suit}s", suit=t)


def _trump_name(t: JSON) -> str:
    """A trump's name in a contract: a suit's number, doubles or no-trump."""
    if t == "doubles":
        return _("doubles")
    if t == "none":
        return _("no-trump")
    return _("{suit}s", suit=t)


def _contract_text(c: Mapping[str, Any] | None, players: Sequence[str]) -> str:
    if c is None:
        return f'<span class="ctr">{_("no bid")}</span>'
    bidder = int(c["bidder"])
    who = escape(players[bidder]) if bidder < len(players) else _("seat {seat}", seat=bidder + 1)
    bid = _("moon (21)") if c["bid"] == 21 else str(c["bid"])
    tricks = int(c["tricks"])
    text = _n(
        "{bid} by {who} in {trump}: {n} trick",
        "{bid} by {who} in {trump}: {n} tricks",
        tricks,
        bid=bid,
        who=who,
        trump=_trump_name(c["trump"]),
    )
    return f'<span class="ctr">{text}</span>'


def _tile_imgs(tiles: Sequence[str]) -> str:
    return "".join(
        f'<img src="/tiles/{escape(t)}.svg" alt="{escape(t)}" title="{escape(t)}" '
        'width="22" height="40">'
        for t in tiles
    )


def _hand_record_html(t: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The deal (each seat's tiles and the widow) and its double-dummy values."""
    deal = t["deal"]
    first = int(deal.get("first_bidder") or 0)
    rows = []
    for k, hand in enumerate(deal.get("hands") or []):
        label = _("Seat {seat}", seat=k + 1) + (f" · {escape(seats[k])}" if k < len(seats) else "")
        if k == first:
            label += " · " + _("bids first")
        text = " ".join(map(str, hand))
        rows.append(
            f'<li><span class="who">{label}</span>'
            f'<span class="tiles" aria-label="{escape(text)}">{_tile_imgs(hand)}</span></li>'
        )
    widow = deal.get("widow")
    if widow:
        rows.append(
            f'<li><span class="who">{_("Widow")}</span><span class="tiles" '
            f'aria-label="{escape(widow)}">{_tile_imgs([widow])}</span></li>'
        )
    parts = [f'<ul class="hands">{"".join(rows)}</ul>']
    dd = t.get("double_dummy")
    if dd is None:
        parts.append(
            '<p class="dd wait">'
            + _("Double-dummy values: being worked out; reload the page in a moment.")
            + "</p>"
        )
    else:
        heads = [_trump_head(x) for x in dd["trumps"]]
        head = "".join(f'<th scope="col" title="{name}">{short}</th>' for short, name in heads)
        body = []
        for k, values in enumerate(dd["tricks"]):
            best = max(values) if values else 0
            cells = "".join(f"<td{' class=best' if v == best else ''}>{v}</td>" for v in values)
            body.append(f'<tr><th scope="row">{_("Seat {seat}", seat=k + 1)}</th>{cells}</tr>')
        parts.append(
            '<div class="scroll"><table class="dd"><caption>'
            + _("Double dummy: tricks as bidder")
            + f'</caption><thead><tr><th scope="col">{_("Trump")}</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>"
        )
    return f'<div class="handrecord">{"".join(parts)}</div>'


def _positions(players: Sequence[str], positions: int) -> list[str]:
    """The name of each position of a result: a seat's player, or a side's two (seats
    ``p`` and ``p + 2`` of a partnership) joined by ``&``."""
    return [
        " & ".join(n for s, n in enumerate(players) if s % positions == p) for p in range(positions)
    ]


def _traveller_html(event: str, rnd: int, t: Mapping[str, Any]) -> str:
    b = t["board"]
    rows = []
    seats: Sequence[str] = ()
    for r in t["results"]:
        seats = seats or r["players"]
        names = " · ".join(
            f'<span class="sp">{escape(name)} <b>{_points(p)}</b></span>'
            for name, p in zip(_positions(r["players"], len(r["points"])), r["points"], strict=True)
        )
        links = ""
        if r["record"] is not None:
            links = (
                f' <span class="lk"><a href="{escape(r["record"])}">{_("record")}</a> · '
                f'<a href="{escape(r["review"])}">{_("review")}</a></span>'
            )
        rows.append(
            f"<li><span class=b>{_('Table {table}', table=r['table'])}</span> "
            f"<span class=sps>{names}</span> "
            f"{_contract_text(r['contract'], r['players'])}{links}</li>"
        )
    if not t["complete"]:
        rows.append(
            f'<li class="wait">{_("The deal is shown once every table has played it.")}</li>'
        )
    record = "" if t["deal"] is None else _hand_record_html(t, seats)
    return (
        f'<details class="traveller" id="r{rnd}b{b}"{" open" if t["complete"] else ""}>'
        f"<summary>{_('Board {board}: every table', board=b)}</summary>"
        f'<ul class="results">{"".join(rows)}</ul>{record}</details>'
    )


def _ratings_html(event: str, state: EventState) -> str:
    got = event_ratings(state)
    parts = [
        '<section class="panel" aria-labelledby="ratings-h">',
        f'<h2 id="ratings-h">{_("Ratings")}</h2>',
    ]
    if isinstance(got, str):
        why = _("No ratings: openskill is not installed on the server.")
        parts += [f'<p class="progress">{why}</p>', "</section>"]
        return "\n".join(parts)
    from moonrules.tournament.ratings import ELO_BASE, ELO_SCALE, PROVISIONAL_SIGMA

    provisional = _("provisional")
    p_mark = _("P")  # the mark of a provisional rating: the word's first letter
    rows = []
    for k, r in enumerate(got.ranked(), 1):
        bot = ""
        if r.bot is not None:
            bot = f' <span class="lvl">{_("bot ({level})", level=_bot_name(r.bot))}</span>'
        mark = f' <abbr class="prov" title="{provisional}">{p_mark}</abbr>' if r.provisional else ""
        rows.append(
            f"<tr><td class=num>{k}</td><td>{escape(r.name)}{bot}</td>"
            f'<td class=num title="mu {r.mu:.2f}, sigma {r.sigma:.2f}">{r.elo}{mark}</td>'
            f"<td class=num>{r.games}</td></tr>"
        )
    subs = ""
    if got.substitutes:
        subs = (
            '<p class="progress">'
            + _("Substitutes, not rated: {names}", names=escape(", ".join(got.substitutes)))
            + "</p>"
        )
    formula = f"{ELO_BASE} + {ELO_SCALE} &times; (&mu; &minus; 3&sigma;)"
    parts += [
        f'<p class="progress">{escape(got.model)} · '
        + _n("{n} game rated", "{n} games rated", got.games)
        + " · "
        + _("rating {formula};", formula=formula)
        + f" <abbr class=prov>{p_mark}</abbr>: "
        + _(
            "provisional while {sigma} > {limit}.",
            sigma="&sigma;",
            limit=f"{PROVISIONAL_SIGMA:g}",
        )
        + " "
        + _("Bots are rated under their names and marked.")
        + "</p>",
        '<div class="scroll"><table class="standings ratings">',
        f"<thead><tr><th class=num>{_('Rank')}</th><th>{_('Player')}</th>"
        f"<th class=num>{_('Rating')}</th><th class=num>{_('Games')}</th></tr></thead>",
        f"<tbody>{''.join(rows)}</tbody></table></div>",
        subs,
        f'<p class="export">{_("Export:")} '
        f'<a href="/events/{escape(event)}/ratings.json">JSON</a></p>',
        "</section>",
    ]
    return "\n".join(parts)


BOT_NAMES: Final[Mapping[str, str]] = {
    "random": N_("random"),
    "basic": N_("basic"),
    "strong": N_("strong"),
    "pimc": N_("pimc"),
    "learned": N_("learned"),
}
"""Each bot level's name on a page (the lobby's too)."""


def _bot_name(level: str) -> str:
    return _named(BOT_NAMES, level)


def _legend() -> str:
    """The legend of the boards, in the page's language."""
    return " ".join(
        [
            _(
                "Each board's traveller gives its result at every table of the round: each "
                "seat's points and the contract played (the bid, its bidder, the trump, the "
                "tricks the bidder's side took)."
            ),
            _(
                "Once every table has played the board, its hand record follows: the tiles "
                "dealt to each seat and the widow, and the {dd} values: for each seat and each "
                "trump, the tricks (of 7) that seat's side takes as the bidder, the others "
                "passing, with every hand seen: the bidder takes the widow and discards as "
                "{advise} does, leads, and both sides play their best.",
                dd=f"<strong>{_('double-dummy')}</strong>",
                advise="<code>moonrules advise</code>",
            ),
            _("A seat's best trump is in bold."),
            _(
                "Moon has no par contract: a table that bid less than its seat's value, or was "
                "set against it, shows where the board was won or lost."
            ),
            _(
                "Each table's record and its review (every decision graded, as the table's "
                "review does) are linked."
            ),
        ]
    )


def _ties() -> tuple[str, ...]:
    from moonrules.tournament.scoring import TIE_BREAKS

    return tuple(TIE_BREAKS)
