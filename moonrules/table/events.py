"""An event's pages on the table: its standings, rounds and tables, recomputed from its log.

``GET /events/{event}`` (HTML), ``/events/{event}/standings.json`` and ``.csv``: the event
kept in the table's database (:mod:`moonrules.tournament.store`, the same ``--db``), its
standings computed by :mod:`moonrules.tournament.scoring` from the log alone, each time it is
asked for. Every text an entry gave (names, the event's name) is written escaped: a page
shows it as text, never as HTML. The page reloads itself while boards are being played.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any, Final

from moonrules.tournament.log import EventState
from moonrules.tournament.scoring import Standings, standings

__all__ = ["REFRESH_SECONDS", "board_complete", "event_html", "event_json"]

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


def _rounds(state: EventState, rooms: Rooms) -> list[dict[str, Any]]:
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
        travellers = [_traveller(state, rnd.number, b) for b in rnd.boards]
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


def _traveller(state: EventState, rnd: int, board: int) -> dict[str, Any]:
    """A board's results at every table of its round side by side, and, once every table has
    played it, its deal (each seat's tiles, the widow, the first bidder)."""
    complete = board_complete(state, rnd, board)
    results: list[dict[str, Any]] = [
        {"table": r.table, "players": list(r.players), "points": list(r.points)}
        for r in sorted(state.results, key=lambda x: x.table)
        if (r.round, r.board) == (rnd, board)
    ]
    deal = None
    if complete and results:
        first = state.result(rnd, results[0]["table"], board)
        assert first is not None
        hands = first.record.get("hands")
        if isinstance(hands, list) and hands and isinstance(hands[0], dict):
            hand = hands[0]
            deal = {
                "hands": hand.get("deal"),
                "widow": hand.get("widow"),
                "first_bidder": hand.get("first_bidder"),
            }
    return {"board": board, "complete": complete, "results": results, "deal": deal}


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
        "rounds": _rounds(state, rooms),
    }


def _points(value: int) -> str:
    return f"+{value}" if value > 0 else ("\N{MINUS SIGN}" + str(-value) if value < 0 else "0")


def _standings_rows(s: Standings) -> str:
    pct = s.scoring == "matchpoints"
    rows = []
    for r in s.rows:
        notes = "; ".join(r.flags)
        if r.by not in ("", "score"):
            notes = f"ahead by {r.by}" + (f"; {notes}" if notes else "")
        score = f"{float(r.score):.2f}" + ("%" if pct else "")
        rows.append(
            f"<tr><td class=num>{r.rank}</td><td>{escape(r.entry)}</td>"
            f"<td class=num>{score}</td><td class=num>{r.boards}</td>"
            f"<td class=notes>{escape(notes)}</td></tr>"
        )
    return "\n".join(rows)


def event_html(event: str, state: EventState, rooms: Rooms) -> str:
    """The event's page (see the module)."""
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
    head = "%" if s.scoring == "matchpoints" else "total"
    refresh = "" if done else f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">\n'
    status = (
        "The event is over: every board is played."
        if done
        else f"Refreshed every {REFRESH_SECONDS} s while boards are played."
    )
    parts = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        refresh + f"<title>{name} — standings</title>",
        '<link rel="icon" href="/tiles/6-6.svg" type="image/svg+xml">',
        '<link rel="stylesheet" href="/static/table.css">',
        '<link rel="stylesheet" href="/static/event.css">',
        "</head>",
        '<body class="event">',
        '<header class="bar"><h1><a href="/">Moon</a></h1>',
        f'<p class="sub">{name}</p>',
        f'<p class="conn" role="status">{status}</p></header>',
        "<main>",
        '<section class="panel" aria-labelledby="standings-h">',
        '<h2 id="standings-h">Standings</h2>',
        f'<p class="progress">{s.format} · {state.rounds} round(s) of '
        f"{state.boards_per_round} board(s) · {len(state.seatings)} seated · "
        f"<strong>{kept} of {seated} board(s) played ({percent})</strong></p>",
        '<p class="progress"><progress max="'
        + str(max(seated, 1))
        + f'" value="{kept}">{percent}</progress></p>',
    ]
    if playing:
        parts.append(f'<p class="playing">Still playing: {escape(", ".join(playing))}</p>')
    parts += [
        '<div class="scroll"><table class="standings">',
        f"<thead><tr><th class=num>Rank</th><th>Entry</th><th class=num>{head}</th>"
        "<th class=num>Boards</th><th>Notes</th></tr></thead>",
        "<tbody>",
        _standings_rows(s),
        "</tbody></table></div>",
        f'<p class="export">Ties broken by {escape(", then ".join(_ties()))}. Export: '
        f'<a href="/events/{escape(event)}/standings.csv">CSV</a> · '
        f'<a href="/events/{escape(event)}/standings.json">JSON</a></p>',
        "</section>",
    ]
    for rnd in reversed(_rounds(state, rooms)):
        boards = ", ".join(str(b) for b in rnd["boards"])
        parts.append(
            f'<section class="panel round" aria-label="Round {rnd["round"]}">'
            f"<h2>Round {rnd['round']} <span class=sub>boards {boards}</span></h2>"
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
                        what += f' <a href="/rooms/{escape(b["room"])}">game</a>'
                elif b["status"] == "playing":
                    what = f'<a class="live" href="/rooms/{escape(b["room"])}">playing — watch</a>'
                else:
                    what = '<span class="wait">not yet</span>'
                lines.append(f"<li><span class=b>Board {b['board']}</span> {what}</li>")
            parts.append(
                f'<li class="etable"><h3>Table {t["table"]}</h3>'
                f'<ol class="seatnames">{seats}</ol>'
                f'<ul class="results">{"".join(lines)}</ul></li>'
            )
        parts.append("</ul>")
        parts += [_traveller_html(event, rnd["round"], t) for t in rnd["travellers"]]
        parts.append("</section>")
    if not state.seatings:
        parts.append('<section class="panel"><p>No round is seated yet.</p></section>')
    parts += ["</main>", "</body>", "</html>", ""]
    return "\n".join(parts)


def _traveller_html(event: str, rnd: int, t: Mapping[str, Any]) -> str:
    b = t["board"]
    rows = []
    for r in t["results"]:
        seats = " · ".join(
            f"{escape(name)} {_points(p)}"
            for name, p in zip(r["players"], r["points"], strict=False)
        )
        record = ""
        if t["complete"]:
            href = f"/events/{escape(event)}/records/{rnd}/{r['table']}/{b}"
            record = f' <a href="{href}">record</a>'
        rows.append(f"<li><span class=b>Table {r['table']}</span> {seats}{record}</li>")
    if t["deal"] is not None:
        deal = t["deal"]
        hands = deal.get("hands") or []
        shown = "; ".join(
            f"seat {k + 1}: {escape(' '.join(map(str, h)))}" for k, h in enumerate(hands)
        )
        rows.append(
            f'<li class="deal"><span class=b>Deal</span> {shown}; widow '
            f"{escape(str(deal.get('widow') or '—'))}; first bid: seat "
            f"{int(deal.get('first_bidder') or 0) + 1}</li>"
        )
    elif not t["complete"]:
        rows.append('<li class="wait">The deal is shown once every table has played it.</li>')
    return (
        f'<details class="traveller"{" open" if t["complete"] else ""}>'
        f"<summary>Board {b}: every table</summary>"
        f'<ul class="results">{"".join(rows)}</ul></details>'
    )


def _ties() -> tuple[str, ...]:
    from moonrules.tournament.scoring import TIE_BREAKS

    return tuple(TIE_BREAKS)
