"""The director's console: an event's page for its director, behind a secret link.

``GET /events/{event}/director/{secret}`` shows the event as its log stands (each round,
its tables, each board's result or its absence, the adjustments, whether the round is
approved), what waits for the director (boards without a result, records a ruling went
against, i.e. records the log refused) and the director's forms; ``POST`` to the same
address makes one director's action, an ``action`` entry appended to the event's log
through :meth:`~moonrules.tournament.store.EventStore.append`:

- ``late-entry`` (a new entry from a round not yet seated, with the value stated for each
  board of the rounds it missed), ``withdrawal``, ``substitute`` (a person, or a bot:
  flagged in the standings and never rated), ``forbid`` (two entries who must not share a
  table from a round not yet seated on), ``adjustment`` (average-plus, average-minus,
  60/40, a penalty) and the round's ``approve`` and ``reopen``; each with its reason.

The secret is :func:`secrets.token_urlsafe`'s, made when the event is created in the store
(printed once by ``moonrules tournament run --db``; ``tournament director-link`` makes a
new one) and kept hashed; a wrong secret, or another event's, is answered 404 as an event
that has no console. A form is accepted only from the server's own pages (the same-origin
check of the table's other writes: a page of another site cannot make the director's
browser send it) and carries ``seq``, the number its entry is to have in the log: a form
sent twice, or sent after the log moved on, is refused (409) and nothing is written. Every
refusal (a bad field, an action the log refuses, a form of another origin) is one line on
the page with a 4xx status, and the log is unchanged. A refused action comes back with the
fields as they were filled in. Every text is written escaped.
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any, Final

import attrs

from moonrules.bots.match import BOTS
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.log import ADJUSTMENTS, EventState, fold
from moonrules.tournament.movement import positions_of
from moonrules.tournament.store import EventStore, StoreError, check_event_id, open_store

__all__ = ["FORM_BYTES", "Console", "Page", "console_for"]

FORM_BYTES: Final = 16 * 1024
"""The largest form accepted."""
MAX_FIELD: Final = 500
"""The longest field (a reason)."""
ACTION_NAMES: Final = {
    "late-entry": "Late entry",
    "withdrawal": "Withdrawal",
    "substitute": "Substitute",
    "forbid": "Forbidden pairing",
    "adjustment": "Score adjustment",
    "approve": "Approve a round",
    "reopen": "Re-open a round",
}
_PREFIX: Final = re.compile(r"^event '[^']*', entry \d+(?: \(stored\))?: ")

Played = Mapping[tuple[int, int, int], tuple[str, Mapping[str, Any] | None]]
"""Each board played in a room of the table with no result in the log: its room, and the
room's record if its game is over (else ``None``)."""


@attrs.frozen(slots=True)
class Page:
    """An answer of the console: its status, its HTML, or where to go (303)."""

    status: int
    html: str = ""
    location: str | None = None


class _Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


class Console:
    """The director's consoles of the events of one database (opened on first use, for
    writing; its calls are synchronous: a server makes them from a thread)."""

    def __init__(self, db: Path | str, synchronous: str = "FULL") -> None:
        self.db = db
        self.synchronous = synchronous
        self._store: EventStore | None = None
        self._lock = threading.Lock()

    def store(self) -> EventStore:
        with self._lock:
            if self._store is None:
                self._store = open_store(self.db, create=False, synchronous=self.synchronous)
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    def allowed(self, event: str, secret: str) -> bool:
        """Whether ``secret`` opens ``event``'s console."""
        try:
            check_event_id(event)
            return self.store().director_allowed(event, secret)
        except StoreError:
            return False

    def unplayed(self, event: str, secret: str) -> dict[tuple[int, int, int], str]:
        """The rooms of ``event``'s boards with no result in the log (empty for a secret
        that is not its director's): their records may be refused ones."""
        if not self.allowed(event, secret):
            return {}
        state = fold(self.entries(event))
        return {k: r for k, r in self.store().rooms(event).items() if state.result(*k) is None}

    def entries(self, event: str) -> list[dict[str, Any]]:
        return self.store().entries(event)

    # -- the page -----------------------------------------------------------------

    def view(
        self,
        event: str,
        secret: str,
        played: Played | None = None,
        *,
        done: str | None = None,
        refused: _Refused | None = None,
        form: Mapping[str, str] | None = None,
    ) -> Page:
        """The console of ``event`` (404 for a secret that is not its director's)."""
        if not self.allowed(event, secret):
            return Page(404, _not_found())
        entries = self.entries(event)
        state = fold(entries)
        status = 200 if refused is None else refused.status
        html = console_html(
            event,
            secret,
            state,
            entries,
            played or {},
            done=done,
            refused=None if refused is None else refused.reason,
            form=form or {},
        )
        return Page(status, html)

    # -- an action ------------------------------------------------------------------

    def act(
        self,
        event: str,
        secret: str,
        body: bytes,
        *,
        same_origin: bool,
        played: Played | None = None,
    ) -> Page:
        """Make the action of the form ``body`` (see the module); 303 to the console on
        success, else the console with the refusal (4xx), the log unchanged."""
        if not self.allowed(event, secret):
            return Page(404, _not_found())
        form: dict[str, str] = {}
        try:
            if not same_origin:
                raise _Refused(403, "a page of another site may not act for the director here")
            form = _form(body)
            state = fold(self.entries(event))
            entry = action_entry(state, form)
            seq = _whole(form, "seq", "the form's number")
            try:
                stored = self.store().append(event, entry, seq=seq)
            except TournamentError as e:
                reason = _PREFIX.sub("", str(e))
                if "is taken" in reason:
                    reason = (
                        "this form was sent already, or the log has moved on since the page "
                        "was drawn: nothing written; the page now shows the log as it stands"
                    )
                raise _Refused(409, reason) from None
        except _Refused as r:
            return self.view(event, secret, played, refused=r, form=form)
        query = urllib.parse.urlencode({"done": f"{stored.seq}:{entry['action']}"})
        return Page(303, location=f"/events/{event}/director/{secret}?{query}")


_CONSOLES: dict[tuple[str, str], Console] = {}
_CONSOLES_LOCK = threading.Lock()


def console_for(db: Path | str, synchronous: str = "FULL") -> Console:
    """The console of the database ``db`` (one a database and process, made on first use)."""
    key = (str(db), synchronous)
    with _CONSOLES_LOCK:
        if key not in _CONSOLES:
            _CONSOLES[key] = Console(db, synchronous)
        return _CONSOLES[key]


def _not_found() -> str:
    return (
        "<!doctype html><title>No such console</title><p>No such console: the link is not "
        "this event's director's (moonrules tournament director-link makes a new one). "
        '<a href="/">Back to the lobby</a>'
    )


# ---------------------------------------------------------------------------
# The form


def _form(body: bytes) -> dict[str, str]:
    if len(body) > FORM_BYTES:
        raise _Refused(413, f"a form is at most {FORM_BYTES // 1024} KiB")
    try:
        text = body.decode("utf-8")
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise _Refused(400, "the form is not URL-encoded UTF-8 text") from None
    out: dict[str, str] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(400, f"{k}: given twice")
        if len(v) > MAX_FIELD:
            raise _Refused(400, f"{k}: at most {MAX_FIELD} characters")
        out[k] = v.strip()
    return out


def _text(form: Mapping[str, str], key: str, what: str) -> str:
    v = form.get(key, "")
    if not v:
        raise _Refused(400, f"{what}: give it")
    if not v.isprintable():
        raise _Refused(400, f"{what}: printable characters only")
    return v


def _whole(form: Mapping[str, str], key: str, what: str) -> int:
    v = form.get(key, "")
    if not v.isdigit() or not 1 <= int(v) <= 10**9:
        raise _Refused(400, f"{what}: a whole number from 1, not {v!r}")
    return int(v)


def _number(form: Mapping[str, str], key: str, what: str) -> float:
    v = form.get(key, "")
    try:
        x = float(v)
    except ValueError:
        raise _Refused(400, f"{what}: a number, not {v!r}") from None
    if x != x or x in (float("inf"), float("-inf")):
        raise _Refused(400, f"{what}: a number, not {v!r}")
    return int(x) if x.is_integer() else x


def _bot(form: Mapping[str, str], key: str) -> str | None:
    v = form.get(key, "")
    if not v:
        return None
    if v not in BOTS:
        raise _Refused(400, f"bot: one of {', '.join(BOTS)} (or a person), not {v!r}")
    return v


def action_entry(state: EventState, form: Mapping[str, str]) -> dict[str, Any]:
    """The log's ``action`` entry a console form makes (not yet checked against the log:
    :func:`~moonrules.tournament.log.fold` does that); :class:`_Refused` (400) for a field
    that is missing or not of its kind."""
    kind = form.get("action", "")
    if kind not in ACTION_NAMES:
        raise _Refused(400, f"action: one of {', '.join(ACTION_NAMES)}, not {kind!r}")
    rnd = _whole(form, "round", "round")
    reason = _text(form, "reason", "reason")
    entry: dict[str, Any] = {"type": "action", "action": kind, "round": rnd}
    if kind == "late-entry":
        players = [{"name": _text(form, "name", "name"), "bot": _bot(form, "bot")}]
        if positions_of(state.format) == 2:
            players.append(
                {"name": _text(form, "partner", "partner"), "bot": _bot(form, "partner_bot")}
            )
        name = " & ".join(str(p["name"]) for p in players)
        entry["entry"] = {"name": name, "players": players}
        entry["value"] = _number(form, "value", "value")
    elif kind in ("withdrawal", "substitute", "forbid", "adjustment"):
        who = _text(form, "entry", "entry")
        if kind == "forbid":
            entry["entries"] = [who, _text(form, "other", "the other entry")]
        else:
            entry["entry"] = who
        if kind == "substitute":
            member = form.get("player", "")
            if not member:
                found = state.entry(who)
                if found is None or len(found.players) != 1:
                    raise _Refused(400, "player: name the player replaced")
                member = found.players[0].name
            entry["player"] = member
            entry["substitute"] = {
                "name": _text(form, "sub_name", "substitute"),
                "bot": _bot(form, "sub_bot"),
            }
        if kind == "adjustment":
            entry["board"] = _whole(form, "board", "board")
            entry["kind"] = _text(form, "kind", "kind")
            if form.get("value", ""):
                entry["value"] = _number(form, "value", "value")
            if entry["kind"] == "60/40":
                entry["offender"] = _text(form, "offender", "offender")
    entry["reason"] = reason
    return entry


# ---------------------------------------------------------------------------
# The HTML


def _points(value: int) -> str:
    return f"+{value}" if value > 0 else ("\N{MINUS SIGN}" + str(-value) if value < 0 else "0")


def rulings(
    entries: list[dict[str, Any]], state: EventState, played: Played
) -> list[tuple[tuple[int, int, int], str, str]]:
    """The boards played in a room whose record the log refuses: ((round, table, board),
    room, the refusal) — a ruling for the director."""
    out = []
    for key, (room, record) in sorted(played.items()):
        if record is None or state.result(*key) is not None:
            continue
        r, t, b = key
        try:
            fold(
                [*entries, {"type": "result", "round": r, "table": t, "board": b, "record": record}]
            )
        except TournamentError as e:
            out.append((key, room, e.reason))
    return out


def _notice(done: str | None, refused: str | None, entries: list[dict[str, Any]]) -> str:
    if refused is not None:
        return (
            '<p class="notice refused" role="alert"><strong>Refused:</strong> '
            f"{escape(refused)}</p>"
        )
    if done:
        seq, _, kind = done.partition(":")
        name = ACTION_NAMES.get(kind)
        kept = seq.isdigit() and 1 <= int(seq) <= len(entries)
        if kept and name is not None and entries[int(seq) - 1].get("action") == kind:
            return (
                f'<p class="notice done" role="status">{escape(name)}: kept as entry {seq} of '
                "the log.</p>"
            )
    return ""


def console_html(
    event: str,
    secret: str,
    state: EventState,
    entries: list[dict[str, Any]],
    played: Played,
    *,
    done: str | None = None,
    refused: str | None = None,
    form: Mapping[str, str] | None = None,
) -> str:
    """The console's page (see the module)."""
    form = form or {}
    action = f"/events/{escape(event)}/director/{escape(secret)}"
    seq = len(entries) + 1
    name = escape(state.name)
    parts = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{name} — director's console</title>",
        '<link rel="icon" href="/tiles/6-6.svg" type="image/svg+xml">',
        '<link rel="stylesheet" href="/static/table.css">',
        '<link rel="stylesheet" href="/static/event.css">',
        '<link rel="stylesheet" href="/static/director.css">',
        "</head>",
        '<body class="event director">',
        '<header class="bar"><h1><a href="/">Moon</a></h1>',
        f'<p class="sub">{name} · director\'s console</p>',
        f'<p class="conn"><a href="/events/{escape(event)}">the event\'s page</a></p></header>',
        "<main>",
        _notice(done, refused, entries),
        _waiting(state, entries, played),
        _rounds_html(state, action, seq),
        _forms(state, action, seq, form),
        _actions_list(entries),
        "</main>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(p for p in parts if p)


def _waiting(state: EventState, entries: list[dict[str, Any]], played: Played) -> str:
    items = []
    for key, room, reason in rulings(entries, state, played):
        r, tn, bn = key
        items.append(
            f'<li class="ruling"><span class=b>Round {r}, table {tn}, board {bn}</span> the record '
            f'of room <a href="/rooms/{escape(room)}/record">{escape(room)}</a> is refused: '
            f"{escape(reason)} — rule on it (moonrules check) and adjust the board</li>"
        )
    adjusted = {(a.round, a.entry, a.board) for a in state.adjustments if a.kind != "penalty"}
    for rnd in state.seatings:
        if rnd.number in state.approved:
            continue
        missing = []
        for t in rnd.tables:
            for b in rnd.boards:
                if state.result(rnd.number, t.number, b) is None and not any(
                    (rnd.number, e, b) in adjusted for e in t.entries
                ):
                    missing.append(f"table {t.number} board {b}")
        if missing:
            items.append(
                f"<li><span class=b>Round {rnd.number}</span> no result yet: "
                f"{escape(', '.join(missing))}</li>"
            )
        else:
            items.append(
                f"<li><span class=b>Round {rnd.number}</span> every board has a result: "
                "waiting for approval</li>"
            )
    if not items:
        items.append("<li>Nothing waits for the director.</li>")
    return (
        '<section class="panel" aria-labelledby="wait-h"><h2 id="wait-h">For the director</h2>'
        f'<ul class="results waiting">{"".join(items)}</ul></section>'
    )


def _hidden(action: str, seq: int) -> str:
    return (
        f'<input type="hidden" name="action" value="{escape(action)}">'
        f'<input type="hidden" name="seq" value="{seq}">'
    )


def _round_status(state: EventState, n: int) -> str:
    if n in state.approved:
        return '<span class="tag ok">approved</span>'
    if state.seating(n) is None:
        return '<span class="tag">not seated</span>'
    return '<span class="tag open">open</span>'


def _rounds_html(state: EventState, action: str, seq: int) -> str:
    parts = ['<section class="panel" aria-labelledby="rounds-h"><h2 id="rounds-h">Rounds</h2>']
    for n in range(1, state.rounds + 1):
        rnd = state.seating(n)
        boards = rnd.boards if rnd is not None else ()
        shown = f" <span class=sub>boards {', '.join(map(str, boards))}</span>" if boards else ""
        parts.append(
            f'<div class="dround" id="round-{n}">'
            f"<h3>Round {n}{shown} {_round_status(state, n)}</h3>"
        )
        if rnd is not None:
            parts.append('<ul class="tables">')
            for t in rnd.tables:
                seats = "".join(f"<li>{escape(p)}</li>" for p in state.seat_names(n, t))
                lines = []
                for b in rnd.boards:
                    res = state.result(n, t.number, b)
                    what = (
                        '<span class="wait">no result</span>'
                        if res is None
                        else f'<span class="pts">{" ".join(_points(p) for p in res.points)}</span>'
                    )
                    adj = [
                        f"{escape(a.entry)}: {escape(a.kind)}"
                        + ("" if a.value is None else f" {a.value:g}")
                        for a in state.adjustments
                        if a.round == n and a.board == b and a.entry in t.entries
                    ]
                    if adj:
                        what += f' <span class="adj">({"; ".join(adj)})</span>'
                    lines.append(f"<li><span class=b>Board {b}</span> {what}</li>")
                parts.append(
                    f'<li class="etable"><h4>Table {t.number}</h4><ol class="seatnames">{seats}'
                    f'</ol><ul class="results">{"".join(lines)}</ul></li>'
                )
            parts.append("</ul>")
            verb = "reopen" if n in state.approved else "approve"
            label = "Re-open" if verb == "reopen" else "Approve"
            note = (
                "Re-open it to correct it; its results are final until then."
                if verb == "reopen"
                else "Approve it once its results are checked: they are then final."
            )
            parts.append(
                f'<form class="dform inline" method="post" action="{action}">{_hidden(verb, seq)}'
                f'<input type="hidden" name="round" value="{n}">'
                f'<label>Reason <input name="reason" required maxlength="{MAX_FIELD}" '
                f'placeholder="e.g. results checked"></label>'
                f'<button type="submit">{label} round {n}</button>'
                f'<span class="hint">{note}</span></form>'
            )
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


def _options(values: list[str], chosen: str, blank: str | None = None) -> str:
    out = [] if blank is None else [f'<option value="">{escape(blank)}</option>']
    for v in values:
        sel = " selected" if v == chosen else ""
        out.append(f'<option value="{escape(v)}"{sel}>{escape(v)}</option>')
    return "".join(out)


def _field(label: str, control: str) -> str:
    return f"<label>{escape(label)} {control}</label>"


def _blocks(state: EventState, form: Mapping[str, str]) -> dict[str, str]:
    """Each action's fields (its reason last), filled in from ``form``."""
    names = list(state.entry_names)
    unseated = next((n for n in range(1, state.rounds + 1) if state.seating(n) is None), None)
    latest = state.seatings[-1].number if state.seatings else 1
    kind = form.get("action", "")

    def val(key: str, default: str = "") -> str:
        return escape(form.get(key, default) if kind else default)

    def rnd(default: int | None) -> str:
        d = "" if default is None else str(default)
        return _field(
            "Round",
            f'<input name="round" type="number" min="1" max="{state.rounds}" required '
            f'value="{val("round", d)}">',
        )

    def entry(key: str = "entry", label: str = "Entry") -> str:
        return _field(
            label,
            f'<select name="{key}" required>{_options(names, form.get(key, ""), "—")}</select>',
        )

    def bot(key: str) -> str:
        return _field(
            "Played by",
            f'<select name="{key}">{_options(list(BOTS), form.get(key, ""), "a person")}</select>',
        )

    reason = _field(
        "Reason", f'<input name="reason" required maxlength="{MAX_FIELD}" value="{val("reason")}">'
    )
    pairs = positions_of(state.format) == 2
    missed = "50" if state.scoring == "matchpoints" else "0"
    value_label = (
        "Value of each board missed (%)"
        if state.scoring == "matchpoints"
        else "Value of each board missed (points)"
    )
    blocks = {
        "late-entry": [
            rnd(unseated),
            _field("Name", f'<input name="name" required maxlength="40" value="{val("name")}">'),
            bot("bot"),
            *(
                [
                    _field(
                        "Partner",
                        f'<input name="partner" required maxlength="40" value="{val("partner")}">',
                    ),
                    bot("partner_bot"),
                ]
                if pairs
                else []
            ),
            _field(
                value_label,
                f'<input name="value" inputmode="decimal" required value="{val("value", missed)}">',
            ),
        ],
        "withdrawal": [rnd(unseated), entry()],
        "substitute": [
            rnd(unseated),
            entry(),
            *(
                [
                    _field(
                        "Player replaced",
                        f'<input name="player" maxlength="40" value="{val("player")}">',
                    )
                ]
                if pairs
                else []
            ),
            _field(
                "Substitute's name",
                f'<input name="sub_name" required maxlength="40" value="{val("sub_name")}">',
            ),
            bot("sub_bot"),
        ],
        "forbid": [rnd(unseated), entry("entry", "Entry"), entry("other", "Must not sit with")],
        "adjustment": [
            rnd(latest),
            entry(),
            _field(
                "Board",
                f'<input name="board" type="number" min="1" required value="{val("board")}">',
            ),
            _field(
                "Kind",
                f'<select name="kind">{_options(list(ADJUSTMENTS), form.get("kind", ""))}</select>',
            ),
            _field(
                "Value (a penalty; points with points scoring)",
                f'<input name="value" inputmode="decimal" value="{val("value")}">',
            ),
            _field(
                "Offender (60/40)",
                '<select name="offender">'
                f"{_options(names, form.get('offender', ''), '—')}</select>",
            ),
        ],
    }
    return {k: "".join(fields) + reason for k, fields in blocks.items()}


def _forms(state: EventState, action: str, seq: int, form: Mapping[str, str]) -> str:
    """The actions' forms: the one refused given back as it was filled in."""
    kind = form.get("action", "")
    blank = _blocks(state, {})
    filled = _blocks(state, form) if kind in blank else blank
    notes = {
        "late-entry": "From a round not yet seated; each board of the rounds missed counts "
        "the value stated.",
        "withdrawal": "From a round not yet seated: the entry is not seated from it on.",
        "substitute": "From a round not yet seated; the substitute is flagged and never rated.",
        "forbid": "The two never share a table from that round on; the rounds not yet "
        "seated are planned around them.",
        "adjustment": "Average-plus/minus, 60/40 (the offender gets 40) or a penalty, on "
        "one board of a round not approved.",
    }
    parts = [
        '<section class="panel" aria-labelledby="act-h"><h2 id="act-h">Director\'s actions</h2>'
    ]
    for k in blank:
        opened = " open" if kind == k else ""
        fields = filled[k] if kind == k else blank[k]
        parts.append(
            f'<details class="daction" id="{k}"{opened}>'
            f"<summary>{escape(ACTION_NAMES[k])}</summary>"
            f'<p class="hint">{escape(notes[k])}</p>'
            f'<form class="dform" method="post" action="{action}">{_hidden(k, seq)}'
            + fields
            + f'<button type="submit">{escape(ACTION_NAMES[k])}</button></form></details>'
        )
    parts.append("</section>")
    return "".join(parts)


def _actions_list(entries: list[dict[str, Any]]) -> str:
    rows = []
    for k, e in enumerate(entries, 1):
        if e.get("type") != "action":
            continue
        kind = str(e.get("action"))
        who = e.get("entry")
        if isinstance(who, dict):
            who = who.get("name")
        if kind == "forbid" and isinstance(e.get("entries"), list):
            who = " and ".join(map(str, e["entries"]))
        what = ACTION_NAMES.get(kind, kind)
        detail = [f"round {e.get('round')}"]
        if who:
            detail.append(str(who))
        if "board" in e:
            detail.append(f"board {e['board']}")
        if "kind" in e:
            detail.append(str(e["kind"]))
        rows.append(
            f"<li><span class=b>#{k}</span> {escape(what)}: {escape(', '.join(detail))} — "
            f'<span class="why">{escape(str(e.get("reason", "")))}</span></li>'
        )
    if not rows:
        rows.append("<li>No director's action yet.</li>")
    return (
        '<section class="panel" aria-labelledby="log-h"><h2 id="log-h">Actions in the log</h2>'
        f'<ul class="results">{"".join(rows)}</ul></section>'
    )
