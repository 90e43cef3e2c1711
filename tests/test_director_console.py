"""The director's console over HTTP on a real table server (uvicorn, as the other table
tests): the page behind the event's secret, each director's action kept as one entry of the
log, and every refusal answered with one line and a 4xx while the log stays byte for byte
what it was.

The event: six players, two rounds of two boards; round 1 played (the people's table by
bots for them), round 2 not seated; a room of the table played for round 1's board 1 at
table 1 with the wrong deal stands for a record with a ruling against it.
"""

from __future__ import annotations

import html
import http.client
import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from table_support import Player, Server

from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import fold
from moonrules.tournament.ratings import ratings
from moonrules.tournament.run import BoardJob, play_board, run_event
from moonrules.tournament.store import open_store

pytest.importorskip("starlette")

MARKUP = "Cy <i>the</i> Third"
FILE = f"""\
name = "Club <b>night</b>"
format = "three-seat"
seed = 21
rounds = 2
boards_per_round = 2
players = ["Ann", "Bob", "{MARKUP}", {{name = "Basil", bot = "basic"}},
           {{name = "Rita", bot = "random"}}, {{name = "Bea", bot = "basic"}}]

[[movement]]
tables = [["Ann", "Bob", "{MARKUP}"], ["Basil", "Rita", "Bea"]]

[[movement]]
tables = [["Bob", "{MARKUP}", "Ann"], ["Rita", "Bea", "Basil"]]
"""


def _event_entries() -> list[dict[str, Any]]:
    """Round 1 seated and played at both tables (the people's boards by bots for them)."""
    t = parse_tournament(FILE)
    entries = [e for e in run_event(t).entries if e["type"] == "event" or e.get("round") == 1]
    for board in (1, 2):
        job = BoardJob(t.rules, t.seed, 1, 1, board, ("basic",) * 3, ("Ann", "Bob", MARKUP))
        entries.append(play_board(job))
    return entries


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("director") / "club.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


@pytest.fixture(scope="module")
def secrets(server: Server) -> dict[str, str]:
    """The events 'club' (round 1 played) and 'other', and each director's secret."""
    out = {}
    with open_store(server.db) as store:
        made = store.create("club", _event_entries())
        other = store.create("other", _event_entries()[:1])
        assert made.director is not None and other.director is not None
        out["club"], out["other"] = made.director, other.director
    return out


def _log(server: Server, event: str = "club") -> bytes:
    with open_store(server.db) as store:
        return "".join(store.export(event)).encode()


def _post(
    server: Server, path: str, fields: dict[str, str] | bytes, headers: dict[str, str] | None = None
) -> tuple[int, str, str | None]:
    """A form POSTed as a browser does (no redirect followed): status, page, Location."""
    u = urllib.parse.urlsplit(server.url)
    c = http.client.HTTPConnection(u.hostname or "", u.port, timeout=60)
    body = fields if isinstance(fields, bytes) else urllib.parse.urlencode(fields).encode()
    c.request(
        "POST",
        path,
        body,
        {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})},
    )
    r = c.getresponse()
    return r.status, r.read().decode(), r.getheader("Location")


def _page(server: Server, event: str, secret: str) -> tuple[int, str]:
    status, page, _ = server.request("GET", f"/events/{event}/director/{secret}")
    return status, page if isinstance(page, str) else json.dumps(page)


def _seq(page: str) -> str:
    found = re.search(r'name="seq" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def _notice(page: str) -> str:
    found = re.search(r'<p class="notice[^"]*"[^>]*>(.*?)</p>', page, re.S)
    assert found is not None, page[:2000]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def test_the_console_shows_the_event_behind_its_secret(
    server: Server, secrets: dict[str, str]
) -> None:
    status, page = _page(server, "club", secrets["club"])
    assert status == 200
    assert "<title>Club &lt;b&gt;night&lt;/b&gt; — director's console</title>" in page
    assert "<i>" not in page and "Cy &lt;i&gt;the&lt;/i&gt; Third" in page  # names are text
    assert "every board has a result: waiting for approval" in page
    assert 'id="round-2"' in page and "not seated" in page
    assert page.count('<form class="dform') == 6  # five actions and round 1's approval
    assert _seq(page) == str(len(_log(server).splitlines()) + 1)
    status, page, _ = server.request(
        "GET", f"/events/club/director/{secrets['club']}?done=2:approve"
    )
    assert status == 200 and 'class="notice' not in page  # entry 2 is a seating: no notice
    for event, secret in [
        ("club", secrets["other"]),  # another event's secret
        ("club", "x" * 43),
        ("nope", secrets["club"]),
        ("other", secrets["club"]),
    ]:
        status, page = _page(server, event, secret)
        assert status == 404 and "No such console" in page


def _form(action: str, seq: str, **fields: str) -> dict[str, str]:
    return {"action": action, "seq": seq, "reason": "the director's reason", **fields}


def test_each_action_is_one_entry_of_the_log(server: Server, secrets: dict[str, str]) -> None:
    base = f"/events/club/director/{secrets['club']}"
    steps = [
        ("adjustment", {"round": "1", "entry": "Ann", "board": "2", "kind": "average-plus"}),
        (
            "adjustment",
            {"round": "1", "entry": "Bob", "board": "1", "kind": "penalty", "value": "2"},
        ),
        (
            "adjustment",
            {"round": "1", "entry": "Rita", "board": "1", "kind": "60/40", "offender": "Bea"},
        ),
        ("approve", {"round": "1"}),
        ("reopen", {"round": "1"}),
        ("approve", {"round": "1"}),
        ("forbid", {"round": "2", "entry": "Ann", "other": "Basil"}),
        ("substitute", {"round": "2", "entry": "Bob", "sub_name": "Robo", "sub_bot": "basic"}),
        ("late-entry", {"round": "2", "name": "Lia", "bot": "", "value": "47.5"}),
        ("withdrawal", {"round": "2", "entry": "Lia"}),
    ]
    for action, fields in steps:
        before = _log(server).splitlines()
        _, page = _page(server, "club", secrets["club"])
        status, _, where = _post(server, base, _form(action, _seq(page), **fields))
        assert status == 303, (action, fields)
        assert where == f"{base}?done={len(before) + 1}%3A{action}"
        after = _log(server).splitlines()
        assert after[: len(before)] == before and len(after) == len(before) + 1
        entry = json.loads(after[-1])
        assert entry["type"] == "action" and entry["action"] == action
        assert entry["reason"] == "the director's reason" and entry["round"] == int(fields["round"])
        status, page, _ = server.request("GET", where)
        assert status == 200 and "kept as entry" in _notice(page)
    entries = [json.loads(x) for x in _log(server).splitlines()]
    state = fold(entries)
    assert state.approved == {1}
    assert [(a.entry, a.kind) for a in state.adjustments] == [
        ("Ann", "average-plus"),
        ("Bob", "penalty"),
        ("Rita", "60/40"),
        ("Bea", "40/60"),
    ]
    assert state.forbidden_in(2) == (("Ann", "Basil"),)
    assert state.substitutes == (("Bob", 2, "Bob", "Robo"),)
    assert dict(state.substitute_bots) == {"Robo": "basic"}
    assert state.late == (("Lia", 2, 47.5),) and state.withdrawn == (("Lia", 2),)
    late = next(e for e in entries if e.get("action") == "late-entry")
    assert late["entry"] == {"name": "Lia", "players": [{"name": "Lia", "bot": None}]}
    _, page = _page(server, "club", secrets["club"])
    assert "approved" in page and "Re-open round 1" in page and "Bob: penalty 2" in page
    try:  # a substitute is flagged and never rated (the ratings extra)
        rated = ratings(state)
    except ImportError:
        return
    if not isinstance(rated, str):
        assert "Robo" not in [p.name for p in rated.players]


@pytest.mark.parametrize(
    ("fields", "status", "reason"),
    [
        ({"action": "approve", "round": "x"}, 400, "round: a whole number from 1, not 'x'"),
        ({"action": "launch", "round": "1"}, 400, "action: one of late-entry"),
        ({"action": "approve", "round": "1", "reason": ""}, 400, "reason: give it"),
        (
            {
                "action": "adjustment",
                "round": "1",
                "entry": "Ann",
                "board": "9",
                "kind": "average-plus",
            },
            409,
            "round 1 plays boards [1, 2], not board 9",
        ),
        (
            {
                "action": "adjustment",
                "round": "2",
                "entry": "Ann",
                "board": "3",
                "kind": "average-plus",
            },
            409,
            "round 2 is not seated: there is nothing to adjust",
        ),
        (
            {"action": "adjustment", "round": "1", "entry": "Ann", "board": "1", "kind": "sixty"},
            409,
            "kind: one of average-plus",
        ),
        ({"action": "withdrawal", "round": "1", "entry": "Ann"}, 409, "seated in round 1"),
        (
            {"action": "forbid", "round": "1", "entry": "Ann", "other": "Bob"},
            409,
            "round 1 is seated already",
        ),
        ({"action": "forbid", "round": "2", "entry": "Ann", "other": "Ann"}, 409, "'Ann' twice"),
        (
            {"action": "substitute", "round": "2", "entry": "Bob", "sub_name": "Ann"},
            409,
            "'Ann' plays in the event already",
        ),
        (
            {
                "action": "substitute",
                "round": "2",
                "entry": "Bob",
                "sub_name": "Z",
                "sub_bot": "genius",
            },
            400,
            "bot: one of",
        ),
        (
            {"action": "late-entry", "round": "2", "name": "Zed", "value": "150"},
            409,
            "value: a percentage from 0 to 100",
        ),
        (
            {"action": "late-entry", "round": "2", "name": "Zed", "value": "lots"},
            400,
            "value: a number",
        ),
        ({"action": "reopen", "round": "2"}, 409, "round 2 is not approved"),
        ({"action": "approve", "round": "3"}, 409, "the event has 2 rounds"),
    ],
)
def test_a_refused_action_leaves_the_log_byte_identical(
    server: Server, secrets: dict[str, str], fields: dict[str, str], status: int, reason: str
) -> None:
    base = f"/events/other/director/{secrets['other']}"
    with open_store(server.db) as store:  # 'other': round 1 played, nothing else
        if len(store.lines("other")) == 1:
            store.extend("other", _event_entries()[1:])
    before = _log(server, "other")
    _, page = _page(server, "other", secrets["other"])
    form = {"reason": "why", **fields, "seq": _seq(page)}
    got, page, where = _post(server, base, form)
    assert (got, where) == (status, None), page[:3000]
    shown = _notice(page)
    assert shown.startswith("Refused: ") and reason in shown and "\n" not in shown, shown
    assert _log(server, "other") == before
    # the refused form, and it alone, comes back as it was filled in
    forms = ("adjustment", "withdrawal", "substitute", "forbid", "late-entry")
    assert page.count('value="why"') == (fields["action"] in forms)


def test_forgeries_and_double_submissions_are_refused(
    server: Server, secrets: dict[str, str]
) -> None:
    base = f"/events/other/director/{secrets['other']}"
    with open_store(server.db) as store:
        if len(store.lines("other")) == 1:
            store.extend("other", _event_entries()[1:])
    _, page = _page(server, "other", secrets["other"])
    form = _form("approve", _seq(page), round="1")
    before = _log(server, "other")
    # a page of another site
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        status, page, _ = _post(server, base, form, headers)
        assert status == 403 and "another site" in _notice(page)
    # another event's secret, a wrong one
    for secret in (secrets["club"], "nope"):
        status, page, _ = _post(server, f"/events/other/director/{secret}", form)
        assert status == 404 and "No such console" in page
    # too large, not UTF-8, a field twice
    for body, code in [
        (b"reason=" + b"x" * 20000, 413),
        (b"action=approve&round=1&reason=\xff&seq=9", 400),
        (b"action=approve&action=reopen&round=1&reason=r&seq=9", 400),
    ]:
        status, page, _ = _post(server, base, body)
        assert status == code, (body[:40], page[:500])
    assert _log(server, "other") == before
    # sent once: kept; sent again (the same form, the same number): refused, nothing written
    status, _, _ = _post(server, base, form)
    assert status == 303
    kept = _log(server, "other")
    status, page, _ = _post(server, base, form)
    assert status == 409 and "sent already" in _notice(page)
    assert _log(server, "other") == kept
    # an approved round: no adjustment before it is re-opened
    _, page = _page(server, "other", secrets["other"])
    fields = {"round": "1", "entry": "Ann", "board": "1", "kind": "average-minus"}
    status, page, _ = _post(server, base, _form("adjustment", _seq(page), **fields))
    assert status == 409 and "round 1 is approved: re-open it" in _notice(page)
    assert _log(server, "other") == kept
    # the secret never reaches the server's log
    assert secrets["other"] not in server.log() and "/director/(hidden)" in server.log()


def test_a_record_with_a_ruling_against_it_is_listed(
    server: Server, secrets: dict[str, str], tmp_path: Path
) -> None:
    """A room played for a board of the event with another deal: its record is refused by
    the log, and the console lists it for the director."""
    body = {"bots": {"1": "basic", "2": "basic"}, "hints": False}
    body["board"] = {"seed": 12345, "names": ["Ann", "Bob", MARKUP]}
    status, room, _ = server.request(
        "POST", "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    assert status == 201, room
    (seat,) = room["seats"]
    person = Player(server, room["room"], seat["token"], 3, mischief=0.0, pass_rate=0.5)
    person.start()
    person.join(90)
    assert person.error is None and person.last_state is not None
    with open_store(server.db) as store:
        store.create("ruled", _event_entries()[:2])  # round 1 seated, no result yet
        secret = store.new_director_secret("ruled")
        store.add_room("ruled", 1, 1, 1, room["room"])
    status, page = _page(server, "ruled", secret)
    assert status == 200
    ruling = re.search(r'<li class="ruling">(.*?)</li>', page, re.S)
    assert ruling is not None
    text = html.unescape(re.sub(r"<[^>]+>", "", ruling.group(1)))
    assert "Round 1, table 1, board 1" in text and "its deal is not board 1's" in text
    assert f'href="/rooms/{room["room"]}/record"' in ruling.group(1)
