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
from moonrules.table.events import ADJUSTMENT_NAMES
from moonrules.table.page_words import N_, _, html_lang, lang_notice, lang_switch, speaking
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.log import ADJUSTMENTS, EventState, fold
from moonrules.tournament.movement import positions_of
from moonrules.tournament.store import EventStore, StoreError, check_event_id, open_store

__all__ = ["FORM_BYTES", "Console", "Page", "console_for", "too_large_html", "unavailable_html"]

FORM_BYTES: Final = 16 * 1024
"""The largest form accepted."""
MAX_FIELD: Final = 500
"""The longest field (a reason)."""
ACTION_NAMES: Final = {
    "late-entry": N_("Late entry"),
    "withdrawal": N_("Withdrawal"),
    "substitute": N_("Substitute"),
    "forbid": N_("Forbidden pairing"),
    "adjustment": N_("Score adjustment"),
    "approve": N_("Approve a round"),
    "reopen": N_("Re-open a round"),
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
    """A refusal of the console's own: its status, its message id and fields (``what``, a
    field's label, is itself a message id), and its English ``reason`` (for the log). A
    refusal of the event's log (``key`` ``None``) is shown as the log words it."""

    def __init__(self, status: int, key: str, *, log: bool = False, **args: str) -> None:
        self.status = status
        self.key = None if log else key
        self.fields = args
        self.reason = key if log else key.format(**args)

    def html(self) -> str:
        """The refusal in the page's language, as HTML."""
        if self.key is None:
            return escape(self.reason)
        args = {k: _(v) if k == "what" else escape(v) for k, v in self.fields.items()}
        return _(self.key, **args)


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
        lang: str = "en",
        asked: str = "",
    ) -> Page:
        """The console of ``event`` (404 for a secret that is not its director's), in
        ``lang`` (``asked``: a language asked for the table does not have)."""
        if not self.allowed(event, secret):
            return Page(404, _not_found(lang))
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
            refused=refused,
            form=form or {},
            lang=lang,
            asked=asked,
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
        lang: str = "en",
        asked: str = "",
    ) -> Page:
        """Make the action of the form ``body`` (see the module); 303 to the console on
        success, else the console with the refusal (4xx), the log unchanged."""
        if not self.allowed(event, secret):
            return Page(404, _not_found(lang))
        form: dict[str, str] = {}
        try:
            if not same_origin:
                raise _Refused(403, N_("a page of another site may not act for the director here"))
            form = _form(body)
            state = fold(self.entries(event))
            entry = action_entry(state, form)
            seq = _whole(form, "seq", N_("the form's number"))
            try:
                stored = self.store().append(event, entry, seq=seq)
            except TournamentError as e:
                reason = _PREFIX.sub("", str(e))
                if "is taken" in reason:
                    raise _Refused(
                        409,
                        N_(
                            "this form was sent already, or the log has moved on since the "
                            "page was drawn: nothing written; the page now shows the log as "
                            "it stands"
                        ),
                    ) from None
                raise _Refused(409, reason, log=True) from None
        except _Refused as r:
            return self.view(event, secret, played, refused=r, form=form, lang=lang, asked=asked)
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


def too_large_html(lang: str = "en") -> str:
    """The page of a form larger than :data:`FORM_BYTES`, in ``lang``."""
    with speaking(lang):
        return (
            f'<!doctype html><html lang="{html_lang()}"><title>{_("Too large")}</title>'
            f"<p>{_('The form is too large.')}"
        )


def unavailable_html(lang: str = "en") -> str:
    """The page of a console whose event's log cannot be read now, in ``lang``."""
    with speaking(lang):
        return (
            f'<!doctype html><html lang="{html_lang()}"><title>{_("Try again")}</title>'
            + "<p>"
            + _("The event's log cannot be read now; try again.")
        )


def _not_found(lang: str = "en") -> str:
    with speaking(lang):
        return (
            f'<!doctype html><html lang="{html_lang()}"><title>{_("No such console")}</title>'
            "<p>"
            + _(
                "No such console: the link is not this event's director's ({command} makes "
                "a new one).",
                command="moonrules tournament director-link",
            )
            + f' <a href="/">{_("Back to the lobby")}</a>'
        )


# ---------------------------------------------------------------------------
# The form


def _form(body: bytes) -> dict[str, str]:
    if len(body) > FORM_BYTES:
        raise _Refused(413, N_("a form is at most {kib} KiB"), kib=str(FORM_BYTES // 1024))
    try:
        text = body.decode("utf-8")
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise _Refused(400, N_("the form is not URL-encoded UTF-8 text")) from None
    out: dict[str, str] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(400, N_("{field}: given twice"), field=k)
        if len(v) > MAX_FIELD:
            raise _Refused(
                400, N_("{field}: at most {most} characters"), field=k, most=str(MAX_FIELD)
            )
        out[k] = v.strip()
    return out


def _text(form: Mapping[str, str], key: str, what: str) -> str:
    v = form.get(key, "")
    if not v:
        raise _Refused(400, N_("{what}: give it"), what=what)
    if not v.isprintable():
        raise _Refused(400, N_("{what}: printable characters only"), what=what)
    return v


def _whole(form: Mapping[str, str], key: str, what: str) -> int:
    v = form.get(key, "")
    if not v.isdigit() or not 1 <= int(v) <= 10**9:
        raise _Refused(
            400, N_("{what}: a whole number from 1, not {value}"), what=what, value=repr(v)
        )
    return int(v)


def _number(form: Mapping[str, str], key: str, what: str) -> float:
    v = form.get(key, "")
    try:
        x = float(v)
    except ValueError:
        raise _Refused(400, N_("{what}: a number, not {value}"), what=what, value=repr(v)) from None
    if x != x or x in (float("inf"), float("-inf")):
        raise _Refused(400, N_("{what}: a number, not {value}"), what=what, value=repr(v))
    return int(x) if x.is_integer() else x


def _bot(form: Mapping[str, str], key: str) -> str | None:
    v = form.get(key, "")
    if not v:
        return None
    if v not in BOTS:
        raise _Refused(
            400,
            N_("bot: one of {bots} (or a person), not {value}"),
            bots=", ".join(BOTS),
            value=repr(v),
        )
    return v


def action_entry(state: EventState, form: Mapping[str, str]) -> dict[str, Any]:
    """The log's ``action`` entry a console form makes (not yet checked against the log:
    :func:`~moonrules.tournament.log.fold` does that); :class:`_Refused` (400) for a field
    that is missing or not of its kind."""
    kind = form.get("action", "")
    if kind not in ACTION_NAMES:
        raise _Refused(
            400,
            N_("action: one of {actions}, not {value}"),
            actions=", ".join(ACTION_NAMES),
            value=repr(kind),
        )
    rnd = _whole(form, "round", N_("round"))
    reason = _text(form, "reason", N_("reason"))
    entry: dict[str, Any] = {"type": "action", "action": kind, "round": rnd}
    if kind == "late-entry":
        players = [{"name": _text(form, "name", N_("name")), "bot": _bot(form, "bot")}]
        if positions_of(state.format) == 2:
            players.append(
                {"name": _text(form, "partner", N_("partner")), "bot": _bot(form, "partner_bot")}
            )
        name = " & ".join(str(p["name"]) for p in players)
        entry["entry"] = {"name": name, "players": players}
        entry["value"] = _number(form, "value", N_("value"))
    elif kind in ("withdrawal", "substitute", "forbid", "adjustment"):
        who = _text(form, "entry", N_("entry"))
        if kind == "forbid":
            entry["entries"] = [who, _text(form, "other", N_("the other entry"))]
        else:
            entry["entry"] = who
        if kind == "substitute":
            member = form.get("player", "")
            if not member:
                found = state.entry(who)
                if found is None or len(found.players) != 1:
                    raise _Refused(400, N_("player: name the player replaced"))
                member = found.players[0].name
            entry["player"] = member
            entry["substitute"] = {
                "name": _text(form, "sub_name", N_("substitute")),
                "bot": _bot(form, "sub_bot"),
            }
        if kind == "adjustment":
            entry["board"] = _whole(form, "board", N_("board"))
            entry["kind"] = _text(form, "kind", N_("kind"))
            if form.get("value", ""):
                entry["value"] = _number(form, "value", N_("value"))
            if entry["kind"] == "60/40":
                entry["offender"] = _text(form, "offender", N_("offender"))
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
            f'<p class="notice refused" role="alert"><strong>{_("Refused:")}</strong> {refused}</p>'
        )
    if done:
        seq, _sep, kind = done.partition(":")
        name = ACTION_NAMES.get(kind)
        kept = seq.isdigit() and 1 <= int(seq) <= len(entries)
        if kept and name is not None and entries[int(seq) - 1].get("action") == kind:
            return (
                '<p class="notice done" role="status">'
                + _("{action}: kept as entry {seq} of the log.", action=_(name), seq=seq)
                + "</p>"
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
    refused: str | _Refused | None = None,
    form: Mapping[str, str] | None = None,
    lang: str = "en",
    asked: str = "",
) -> str:
    """The console's page (see the module) in ``lang``; ``refused``: the refusal of the
    form sent (a text is shown as written)."""
    with speaking(lang):
        shown = (
            refused.html()
            if isinstance(refused, _Refused)
            else (None if refused is None else escape(refused))
        )
        return _console_html(event, secret, state, entries, played, done, shown, form, asked)


def _console_html(
    event: str,
    secret: str,
    state: EventState,
    entries: list[dict[str, Any]],
    played: Played,
    done: str | None,
    refused: str | None,
    form: Mapping[str, str] | None,
    asked: str,
) -> str:
    form = form or {}
    action = f"/events/{escape(event)}/director/{escape(secret)}"
    seq = len(entries) + 1
    name = escape(state.name)
    title = _("{event} — director's console", event=name)
    sub = _("{event} · director's console", event=name)
    back = _("the event's page")
    parts = [
        "<!doctype html>",
        f'<html lang="{html_lang()}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        '<link rel="icon" href="/tiles/6-6.svg" type="image/svg+xml">',
        '<link rel="stylesheet" href="/static/table.css">',
        '<link rel="stylesheet" href="/static/event.css">',
        '<link rel="stylesheet" href="/static/director.css">',
        "</head>",
        '<body class="event director">',
        '<header class="bar"><h1><a href="/">Moon</a></h1>',
        f'<p class="sub">{sub}</p>',
        f'<p class="conn"><a href="/events/{escape(event)}">{back}</a></p>',
        lang_switch(f"/events/{escape(event)}/director/{escape(secret)}"),
        "</header>",
        "<main>",
        lang_notice(asked),
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
        where = _("Round {round}, table {table}, board {board}", round=r, table=tn, board=bn)
        link = f'<a href="/rooms/{escape(room)}/record">{escape(room)}</a>'
        said = _(
            "the record of room {room} is refused: {reason} — rule on it ({command}) and "
            "adjust the board",
            room=link,
            reason=escape(reason),
            command="moonrules check",
        )
        items.append(f'<li class="ruling"><span class=b>{where}</span> {said}</li>')
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
                    missing.append(_("table {table} board {board}", table=t.number, board=b))
        title = _("Round {round}", round=rnd.number)
        if missing:
            said = _("no result yet: {boards}", boards=", ".join(missing))
        else:
            said = _("every board has a result: waiting for approval")
        items.append(f"<li><span class=b>{title}</span> {said}</li>")
    if not items:
        items.append(f"<li>{_('Nothing waits for the director.')}</li>")
    return (
        '<section class="panel" aria-labelledby="wait-h">'
        f'<h2 id="wait-h">{_("For the director")}</h2>'
        f'<ul class="results waiting">{"".join(items)}</ul></section>'
    )


def _hidden(action: str, seq: int) -> str:
    return (
        f'<input type="hidden" name="action" value="{escape(action)}">'
        f'<input type="hidden" name="seq" value="{seq}">'
    )


def _round_status(state: EventState, n: int) -> str:
    if n in state.approved:
        return f'<span class="tag ok">{_("approved")}</span>'
    if state.seating(n) is None:
        return f'<span class="tag">{_("not seated")}</span>'
    return f'<span class="tag open">{_("open")}</span>'


def _adjustment(kind: str) -> str:
    return _(ADJUSTMENT_NAMES[kind]) if kind in ADJUSTMENT_NAMES else escape(kind)


def _rounds_html(state: EventState, action: str, seq: int) -> str:
    parts = [
        f'<section class="panel" aria-labelledby="rounds-h"><h2 id="rounds-h">{_("Rounds")}</h2>'
    ]
    for n in range(1, state.rounds + 1):
        rnd = state.seating(n)
        boards = rnd.boards if rnd is not None else ()
        numbers = ", ".join(map(str, boards))
        shown = f" <span class=sub>{_('boards {boards}', boards=numbers)}</span>" if boards else ""
        parts.append(
            f'<div class="dround" id="round-{n}">'
            f"<h3>{_('Round {round}', round=n)}{shown} {_round_status(state, n)}</h3>"
        )
        if rnd is not None:
            parts.append('<ul class="tables">')
            for t in rnd.tables:
                seats = "".join(f"<li>{escape(p)}</li>" for p in state.seat_names(n, t))
                lines = []
                for b in rnd.boards:
                    res = state.result(n, t.number, b)
                    what = (
                        f'<span class="wait">{_("no result")}</span>'
                        if res is None
                        else f'<span class="pts">{" ".join(_points(p) for p in res.points)}</span>'
                    )
                    adj = [
                        f"{escape(a.entry)}: {_adjustment(a.kind)}"
                        + ("" if a.value is None else f" {a.value:g}")
                        for a in state.adjustments
                        if a.round == n and a.board == b and a.entry in t.entries
                    ]
                    if adj:
                        what += f' <span class="adj">({"; ".join(adj)})</span>'
                    lines.append(
                        f"<li><span class=b>{_('Board {board}', board=b)}</span> {what}</li>"
                    )
                parts.append(
                    f'<li class="etable"><h4>{_("Table {table}", table=t.number)}</h4>'
                    f'<ol class="seatnames">{seats}'
                    f'</ol><ul class="results">{"".join(lines)}</ul></li>'
                )
            parts.append("</ul>")
            verb = "reopen" if n in state.approved else "approve"
            label = (
                _("Re-open round {round}", round=n)
                if verb == "reopen"
                else _("Approve round {round}", round=n)
            )
            note = (
                _("Re-open it to correct it; its results are final until then.")
                if verb == "reopen"
                else _("Approve it once its results are checked: they are then final.")
            )
            parts.append(
                f'<form class="dform inline" method="post" action="{action}">{_hidden(verb, seq)}'
                f'<input type="hidden" name="round" value="{n}">'
                f'<label>{_("Reason")} <input name="reason" required maxlength="{MAX_FIELD}" '
                f'placeholder="{_("e.g. results checked")}"></label>'
                f'<button type="submit">{label}</button>'
                f'<span class="hint">{note}</span></form>'
            )
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


def _options(
    values: list[str],
    chosen: str,
    blank: str | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """A select's options; ``blank``: the empty choice's words (HTML); ``names``: each
    value's message id (a value without one is shown as it is: a name)."""
    out = [] if blank is None else [f'<option value="">{blank}</option>']
    for v in values:
        sel = " selected" if v == chosen else ""
        shown = _(names[v]) if names and v in names else escape(v)
        out.append(f'<option value="{escape(v)}"{sel}>{shown}</option>')
    return "".join(out)


def _field(label: str, control: str) -> str:
    """A labelled control (``label``: the words, already in the page's language, as HTML)."""
    return f"<label>{label} {control}</label>"


def _blocks(state: EventState, form: Mapping[str, str]) -> dict[str, str]:
    """Each action's fields (its reason last), filled in from ``form``."""
    from moonrules.table.events import BOT_NAMES

    names = list(state.entry_names)
    unseated = next((n for n in range(1, state.rounds + 1) if state.seating(n) is None), None)
    latest = state.seatings[-1].number if state.seatings else 1
    kind = form.get("action", "")

    def val(key: str, default: str = "") -> str:
        return escape(form.get(key, default) if kind else default)

    def rnd(default: int | None) -> str:
        d = "" if default is None else str(default)
        return _field(
            _("Round"),
            f'<input name="round" type="number" min="1" max="{state.rounds}" required '
            f'value="{val("round", d)}">',
        )

    def entry(key: str = "entry", label: str = N_("Entry")) -> str:
        return _field(
            _(label),
            f'<select name="{key}" required>{_options(names, form.get(key, ""), "—")}</select>',
        )

    def bot(key: str) -> str:
        options = _options(list(BOTS), form.get(key, ""), _("a person"), BOT_NAMES)
        return _field(_("Played by"), f'<select name="{key}">{options}</select>')

    reason = _field(
        _("Reason"),
        f'<input name="reason" required maxlength="{MAX_FIELD}" value="{val("reason")}">',
    )
    pairs = positions_of(state.format) == 2
    missed = "50" if state.scoring == "matchpoints" else "0"
    value_label = (
        _("Value of each board missed (%)")
        if state.scoring == "matchpoints"
        else _("Value of each board missed (points)")
    )
    blocks = {
        "late-entry": [
            rnd(unseated),
            _field(_("Name"), f'<input name="name" required maxlength="40" value="{val("name")}">'),
            bot("bot"),
            *(
                [
                    _field(
                        _("Partner"),
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
                        _("Player replaced"),
                        f'<input name="player" maxlength="40" value="{val("player")}">',
                    )
                ]
                if pairs
                else []
            ),
            _field(
                _("Substitute's name"),
                f'<input name="sub_name" required maxlength="40" value="{val("sub_name")}">',
            ),
            bot("sub_bot"),
        ],
        "forbid": [
            rnd(unseated),
            entry("entry", N_("Entry")),
            entry("other", N_("Must not sit with")),
        ],
        "adjustment": [
            rnd(latest),
            entry(),
            _field(
                _("Board"),
                f'<input name="board" type="number" min="1" required value="{val("board")}">',
            ),
            _field(
                _("Kind"),
                '<select name="kind">'
                f"{_options(list(ADJUSTMENTS), form.get('kind', ''), None, ADJUSTMENT_NAMES)}"
                "</select>",
            ),
            _field(
                _("Value (a penalty; points with points scoring)"),
                f'<input name="value" inputmode="decimal" value="{val("value")}">',
            ),
            _field(
                _("Offender (60/40)"),
                '<select name="offender">'
                f"{_options(names, form.get('offender', ''), '—')}</select>",
            ),
        ],
    }
    return {k: "".join(fields) + reason for k, fields in blocks.items()}


_NOTES: Final = {
    "late-entry": N_(
        "From a round not yet seated; each board of the rounds missed counts the value stated."
    ),
    "withdrawal": N_("From a round not yet seated: the entry is not seated from it on."),
    "substitute": N_("From a round not yet seated; the substitute is flagged and never rated."),
    "forbid": N_(
        "The two never share a table from that round on; the rounds not yet seated are "
        "planned around them."
    ),
    "adjustment": N_(
        "Average-plus/minus, 60/40 (the offender gets 40) or a penalty, on one board of a "
        "round not approved."
    ),
}


def _forms(state: EventState, action: str, seq: int, form: Mapping[str, str]) -> str:
    """The actions' forms: the one refused given back as it was filled in."""
    kind = form.get("action", "")
    blank = _blocks(state, {})
    filled = _blocks(state, form) if kind in blank else blank
    parts = [
        '<section class="panel" aria-labelledby="act-h">'
        + '<h2 id="act-h">'
        + _("Director's actions")
        + "</h2>"
    ]
    for k in blank:
        opened = " open" if kind == k else ""
        fields = filled[k] if kind == k else blank[k]
        parts.append(
            f'<details class="daction" id="{k}"{opened}>'
            f"<summary>{_(ACTION_NAMES[k])}</summary>"
            f'<p class="hint">{_(_NOTES[k])}</p>'
            f'<form class="dform" method="post" action="{action}">{_hidden(k, seq)}'
            + fields
            + f'<button type="submit">{_(ACTION_NAMES[k])}</button></form></details>'
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
            who = _(" and ").join(escape(str(x)) for x in e["entries"])
        elif who:
            who = escape(str(who))
        what = _(ACTION_NAMES[kind]) if kind in ACTION_NAMES else escape(kind)
        detail = [_("round {round}", round=escape(str(e.get("round"))))]
        if who:
            detail.append(str(who))
        if "board" in e:
            detail.append(_("board {board}", board=escape(str(e["board"]))))
        if "kind" in e:
            detail.append(_adjustment(str(e["kind"])))
        rows.append(
            f"<li><span class=b>#{k}</span> {what}: {', '.join(detail)} — "
            f'<span class="why">{escape(str(e.get("reason", "")))}</span></li>'
        )
    if not rows:
        rows.append("<li>" + _("No director's action yet.") + "</li>")
    return (
        '<section class="panel" aria-labelledby="log-h">'
        f'<h2 id="log-h">{_("Actions in the log")}</h2>'
        f'<ul class="results">{"".join(rows)}</ul></section>'
    )
