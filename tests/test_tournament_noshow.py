"""People who never come, a pimc bot in an event with people, and the file's clock bot.

Real processes, as ``test_tournament_recovery.py``: the table (``moonrules table``) and the
director's run (``moonrules tournament run FILE --db DB --table URL``) on one SQLite database,
the director's actions posted to the director's console as a browser posts its forms.

- **A no-show.** Nobody opens the seats' links of round 1's room: a room starts only when
  every person's seat has joined, so no clock runs and nothing is played (its clock's bot
  does not play for people who never came: the director decides). The director gives each
  entry of the table an adjustment on the board: the run stops waiting for that room, says so
  in one line and seats round 2. There the director adjusts one entry and approves the round:
  the run stops waiting for that room too, and ends. The rooms stay in the database.
- **pimc** sits at the all-bot table of that event: the run plays it itself, and the table
  seats every level anyway (``/api/options``).
- **The file's clock bot.** People who join and never act are played by the clock, by the
  file's ``[clocks] bot`` (``basic``), not by the table's own (``strong``); an unknown clock
  bot is refused by the table in one line.
"""

from __future__ import annotations

import html
import http.client
import json
import re
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from table_support import Player, Server, stored_actions
from test_tournament_recovery import Run, room_of

from moonrules.tournament import live
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import seating_entry
from moonrules.tournament.store import create_event, open_store

pytest.importorskip("starlette")
pytest.importorskip("websockets")

FILE = """\
name = "No shows"
format = "three-seat"
rules = "standard"
seed = 41
rounds = 2
boards_per_round = 1
players = ["Ann", "Bob", "Cy", {name = "B1", bot = "random"}, {name = "B2", bot = "pimc"},
           {name = "B3", bot = "basic"}]

[clocks]
turn = 0.2
bank = 0
bot = "basic"

[[movement]]
tables = [["Ann", "Bob", "Cy"], ["B1", "B2", "B3"]]

[[movement]]
tables = [["Bob", "Cy", "Ann"], ["B2", "B3", "B1"]]
"""

PEOPLE = ("Ann", "Bob", "Cy")


def _post(server: Server, path: str, fields: dict[str, str]) -> tuple[int, str]:
    """A director's form POSTed as a browser does (no redirect followed)."""
    u = urllib.parse.urlsplit(server.url)
    c = http.client.HTTPConnection(u.hostname or "", u.port, timeout=60)
    body = urllib.parse.urlencode(fields).encode()
    c.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    return r.status, r.read().decode()


def director(server: Server, console: str, action: str, **fields: str) -> None:
    """One action on the director's console (its page read first, for the form's number)."""
    path = urllib.parse.urlsplit(console).path
    status, page, _ = server.request("GET", path)
    assert status == 200, page
    found = re.search(r'name="seq" value="(\d+)"', str(page))
    assert found is not None
    form = {"action": action, "seq": found.group(1), "reason": "did not come", **fields}
    status, answer = _post(server, path, form)
    assert status == 303, html.unescape(answer)[:2000]


def links(run: Run, board: int) -> dict[str, str]:
    """The people's links the run prints for ``board``."""
    run.until(f"board {board}: watch ")
    return dict(run.until("#token=").strip().split(": ", 1) for _ in PEOPLE)


def kept(db: Path, results: int) -> None:
    """Wait until the event's log holds ``results`` results."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open_store(db) as store:
            if len(store.state("no-shows").results) >= results:
                return
        time.sleep(0.1)
    raise AssertionError(f"fewer than {results} result(s) kept")


def test_a_no_show_is_adjusted_and_the_event_goes_on(tmp_path: Path) -> None:
    f = tmp_path / "noshow.toml"
    f.write_text(FILE)
    db = tmp_path / "noshow.sqlite3"
    table = Server(db).start()
    run: Run | None = None
    try:
        status, options, _ = table.request("GET", "/api/options")
        assert status == 200 and {"random", "basic", "pimc", "strong"} <= set(options["bots"])
        run = Run(str(f), "--db", str(db), "--table", table.url)
        console = run.until("director's console: ").split(": ", 1)[1].split(" ")[0]
        first = links(run, 1)
        room1 = room_of(first["Ann"])
        kept(db, 1)  # the all-bot table (pimc at it) is played by the run and kept
        time.sleep(1.0)  # five turns of the clock: it does not run before the people join
        assert stored_actions(db, room1) == []
        status, info, _ = table.request("GET", f"/api/rooms/{room1}")
        assert status == 200 and info["started"] is False and info["over"] is False
        for name in PEOPLE:  # the director adjusts every seat of the board
            director(table, console, "adjustment", round="1", entry=name, board="1",
                     kind="average-minus")  # fmt: skip
        line = run.until("no longer waited for")
        assert line.startswith(f"round 1, table 1, board 1 (room {room1}): ")
        assert "every seat at the table has an adjustment on it" in line
        second = links(run, 2)  # round 2 is seated and opened
        room2 = room_of(second["Ann"])
        assert room2 != room1
        director(table, console, "adjustment", round="2", entry="Bob", board="2",
                 kind="average-minus")  # fmt: skip
        kept(db, 2)  # round 2's all-bot table: then the round can be approved
        director(table, console, "approve", round="2")
        line = run.until("no longer waited for")
        assert line.startswith(f"round 2, table 1, board 2 (room {room2}): ")
        assert "round 2 is approved" in line
        assert run.proc.wait(60) == 0, "\n".join(run.lines)
        summary = run.until("board(s) kept")
        assert "0 room(s) played on the table, 2 left unplayed" in summary, summary
    finally:
        if run is not None:
            run.kill()
        table.stop()
    assert "Traceback" not in table.log() + "\n".join(run.lines if run else [])
    with open_store(db) as store:
        state = store.state("no-shows")
        rooms = store.rooms("no-shows")
    assert rooms == {(1, 1, 1): room1, (2, 1, 2): room2}  # kept, never deleted
    assert sorted((r.round, r.table) for r in state.results) == [(1, 2), (2, 2)]
    assert len(state.seatings) == 2 and state.approved == frozenset({2})
    assert stored_actions(db, room2) == []  # nobody came, nothing was played for them


def test_the_table_seats_only_what_it_must() -> None:
    t = parse_tournament(FILE)
    assert live.table_bots(t) == ["basic"]  # the clock's bot; pimc sits with bots alone
    mixed = FILE.replace('tables = [["Bob", "Cy", "Ann"]', 'tables = [["Bob", "Cy", "B2"]')
    mixed = mixed.replace('["B2", "B3", "B1"]]', '["Ann", "B3", "B1"]]')
    assert live.table_bots(parse_tournament(mixed)) == ["basic", "pimc", "random"]
    robots = ", ".join(f'{{name = "{n}", bot = "pimc"}}' for n in PEOPLE)
    bots_only = FILE.replace('players = ["Ann", "Bob", "Cy",', f"players = [{robots},")
    assert live.table_bots(parse_tournament(bots_only)) == []


def test_a_table_without_a_needed_level_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = {"bots": ["random", "basic", "strong"]}
    monkeypatch.setattr(live, "_http", lambda url, body=None: (200, answer))
    live.check_table("http://t", parse_tournament(FILE))  # pimc at the bots' table alone
    mixed = FILE.replace('tables = [["Bob", "Cy", "Ann"]', 'tables = [["Bob", "Cy", "B2"]')
    mixed = mixed.replace('["B2", "B3", "B1"]]', '["Ann", "B3", "B1"]]')
    with pytest.raises(TournamentError, match="seats no pimc bot") as e:
        live.check_table("http://t", parse_tournament(mixed))
    assert "\n" not in str(e.value)


def _body(clock: Any) -> bytes:
    return json.dumps({"rules": "standard", "hints": False, "clock": clock}).encode()


def test_the_files_clock_bot_plays_a_timed_out_seat(tmp_path: Path) -> None:
    t = parse_tournament(FILE)
    with open_store(tmp_path / "e.sqlite3") as store:
        create_event(store, t, "x")
        state = store.append("x", seating_entry(t.movement().rounds[0])).state
    body = live.board_request(state, 1, state.seatings[0].tables[0], 1)
    assert body["clock"] == {"turn": 0.2, "bank": 0, "bot": "basic"}
    with Server(tmp_path / "t.sqlite3") as server:
        headers = {"Content-Type": "application/json"}
        for clock, why in [
            ({"turn": 1, "bot": "expert"}, "clock.bot: 'expert' is no bot of this table"),
            ({"turn": 1, "bot": 3}, "clock.bot: a bot level's name, not the number 3"),
            ({"turn": 1, "delay": 3}, "a clock has turn, bank and bot"),
        ]:
            status, answer, _ = server.request("POST", "/api/rooms", _body(clock), headers)
            assert status == 400 and why in answer["error"], answer
            assert "\n" not in answer["error"]
        status, room, _ = server.request("POST", "/api/rooms", json.dumps(body).encode(), headers)
        assert status == 201, room
        # each person joins, and leaves when first to act: the clock plays for them
        people = [
            Player(server, room["room"], s["token"], k, mischief=0.0, stop_after=0)
            for k, s in enumerate(room["seats"])
        ]
        for p in people:
            p.start()
        deadline = time.monotonic() + 90
        status, record = 409, None
        while status == 409 and time.monotonic() < deadline:
            time.sleep(0.2)
            status, record, _ = server.request("GET", f"/rooms/{room['room']}/record")
        assert status == 200, record
        log = server.log()
    notes = record["annotations"]
    assert notes and {(n["by"], n["bot"]) for n in notes} == {("clock", "basic")}
    assert "the clock ran out; the basic bot moves" in log, log[-2000:]


def adjustment(name: str) -> dict[str, Any]:
    """The log's entry of the console's average-minus for ``name`` on round 1's board 1."""
    return {"type": "action", "action": "adjustment", "round": 1, "entry": name, "board": 1,
            "kind": "average-minus", "reason": "did not come"}  # fmt: skip


def test_a_boards_room_given_up_the_next_board_has_new_links(tmp_path: Path) -> None:
    """Two boards a round: board 1 adjusted for the whole table (nobody came), board 2 gets a
    room of its own with new links (board 1's room never ended: its links cannot go on), and
    is played there; the run ends with board 2's result kept."""
    one_round = FILE.split('\n[[movement]]\ntables = [["Bob"')[0]
    t = parse_tournament(
        one_round.replace("rounds = 2", "rounds = 1")
        .replace("per_round = 1", "per_round = 2")
        .replace("turn = 0.2", "turn = 60")  # the people's own moves, not the clock's
    )
    opened: list[live.BoardRoom] = []
    players: list[Player] = []
    with Server(tmp_path / "t.sqlite3") as server, open_store(server.db) as store:
        create_event(store, t, "two")

        def rooms_opened(room: live.BoardRoom) -> None:
            opened.append(room)
            if room.board == 1:  # nobody comes: the director adjusts the board instead
                for name in PEOPLE:
                    store.append("two", adjustment(name))
                return
            for k, (_, link) in enumerate(room.seats):
                assert link is not None
                who, token = link.rsplit("/", 1)[1].split("#token=")
                p = Player(server, who, token, k, mischief=0.0, pass_rate=0.5)
                p.start()
                players.append(p)

        said: list[str] = []
        outcome = live.run_live(
            t, store, "two", server.url, poll=0.1, say=said.append, rooms_opened=rooms_opened
        )
        state = store.state("two")
        for p in players:
            p.join(60)
            assert p.error is None, p.error
    first, second = opened
    assert (first.board, second.board) == (1, 2)
    (line,) = outcome.given_up
    assert line.startswith(f"round 1, table 1, board 1 (room {first.room}): no longer waited")
    assert line in said and "\n" not in line
    tokens = {link.split("#token=")[1] for _, link in first.seats if link}
    assert tokens.isdisjoint(link.split("#token=")[1] for _, link in second.seats if link)
    assert sorted((r.table, r.board) for r in state.results) == [(1, 2), (2, 1), (2, 2)]
    assert outcome.refused == ()
