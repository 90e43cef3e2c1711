"""An event with people on the web table: ``moonrules tournament run FILE --db DB --table URL``.

A real table server in a subprocess on 127.0.0.1; the people's seats played by scripted
WebSocket clients (random legal moves). One table of people and one of bots, one round
of two boards: the bots' table is played by the all-bot runner, the people's table in one
room per board, each room dealt the board's seeded deal; each game's record is kept in the
event's log as it ends (checked by ``fold``), a refused one listed for the director.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from table_support import ROOT, Player, Server

from moonrules.analysis.advise import tricks_as_bidder
from moonrules.records.replay import from_record
from moonrules.rules.tiles import TILES
from moonrules.tournament import live
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import dumps_entry, fold
from moonrules.tournament.ratings import ratings
from moonrules.tournament.run import run_event
from moonrules.tournament.store import StoreError, create_event, open_store

pytest.importorskip("starlette")
pytest.importorskip("websockets")

FILE = """\
name = "Club <night> & co"
format = "three-seat"
rules = "standard"
seed = 11
scoring = "matchpoints"
rounds = 1
boards_per_round = 2
players = ["Ann", "Bob", "Cy", {name = "B1", bot = "basic"}, {name = "B2", bot = "random"},
           {name = "B3", bot = "basic"}]

[clocks]
turn = 30
bank = 300

[[movement]]
tables = [["Ann", "Bob", "Cy"], ["B1", "B2", "B3"]]
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("live") / "club.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def play(server: Server, link: str, seed: int) -> Player:
    """A scripted person at the seat of ``link`` (``…/rooms/ID#token=T``)."""
    room, token = link.rsplit("/", 1)[1].split("#token=")
    p = Player(server, room, token, seed, mischief=0.0, pass_rate=0.5)
    p.start()
    return p


def deal_of(record: dict[str, Any]) -> Any:
    hand = record["hands"][0]
    return hand.get("deal"), hand.get("first_bidder")


def test_people_on_the_table_bots_here_each_record_kept(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = parse_tournament(FILE)
    db = server.db  # the table's own database: its event pages read the log there
    players: list[Player] = []
    during: list[Any] = []
    opened: list[live.BoardRoom] = []
    real = live.room_record

    def tampered(base: str, room: str) -> Any:  # board 2's record: an illegal first call
        if not during:  # the event's page while the people play: the bots' boards are in
            during.append(server.request("GET", "/events/club/standings.json")[1])
        record = real(base, room)
        if record is not None and any(r.room == room and r.board == 2 for r in opened):
            record["hands"][0]["bids"][0] = 3  # no such bid: a ruling against the record
        return record

    monkeypatch.setattr(live, "room_record", tampered)

    def opened_room(room: live.BoardRoom) -> None:
        opened.append(room)
        for k, (_, link) in enumerate(room.seats):
            assert link is not None
            players.append(play(server, link, 100 * room.board + k))

    said: list[str] = []
    with open_store(db) as store:
        live.check_table(server.url, t)
        create_event(store, t, "club")
        outcome = live.run_live(
            t, store, "club", server.url, poll=0.1, say=said.append, rooms_opened=opened_room
        )
        entries = store.entries("club")
    for p in players:
        p.join(60)
        assert p.error is None, p.error
    assert [(r.table, r.board) for r in outcome.rooms] == [(1, 1), (1, 2)]
    assert outcome.results == 3  # the bots' two boards and the people's first
    (refusal,) = outcome.refused
    assert "round 1, table 1, board 2" in refusal and "for the director" in refusal
    assert "the director rules on it" in refusal
    assert "\n" not in refusal and refusal in said
    state = fold(entries)
    kept = {(r.table, r.board): r for r in state.results}
    assert sorted(kept) == [(1, 1), (2, 1), (2, 2)]
    assert kept[1, 1].players == ("Ann", "Bob", "Cy")
    # every table of the round played the board's seeded deal: the all-bot run's own
    assert deal_of(dict(kept[1, 1].record)) == deal_of(dict(kept[2, 1].record))
    bots_only = run_event(t).entries
    for e in bots_only:
        if e["type"] == "result":
            assert dumps_entry(e) in [dumps_entry(x) for x in entries]  # the same entry
            if e["board"] == 1:
                assert deal_of(e["record"]) == deal_of(dict(kept[1, 1].record))
    # the board's room gives the board's hand alone, and is over with it
    (first,) = [r for r in opened if r.board == 1]
    status, record, _ = server.request("GET", f"/rooms/{first.room}/record")
    assert status == 200 and len(record["hands"]) == 1
    status, info, _ = server.request("GET", f"/api/rooms/{first.room}")
    assert info["over"] is True and [s["name"] for s in info["seats"]] == ["Ann", "Bob", "Cy"]
    check_pages(server, db, opened, during)


def check_pages(server: Server, db: Path, opened: list[live.BoardRoom], during: list[Any]) -> None:
    """The event's pages: recomputed from the log, live while the round is played."""
    (seen,) = during
    assert seen["progress"] == {"played": 2, "seated": 4, "percent": 50.0}
    people = seen["rounds"][0]["tables"][0]
    assert people["players"] == ["Ann", "Bob", "Cy"]
    assert [(b["status"], b["room"]) for b in people["boards"]] == [  # one board after another
        ("playing", opened[0].room),
        ("waiting", None),
    ]
    status, now, headers = server.request("GET", "/events/club/standings.json")
    assert status == 200 and now["progress"]["played"] == 3
    assert now["standings"] == json.loads(_cli("standings", "--db", str(db), "--json"))["standings"]
    check_hand_record_and_ratings(server, db, now)
    status, text, headers = server.request("GET", "/events/club/standings.csv")
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert text == _cli("standings", "--db", str(db), "--csv")
    status, page, headers = server.request("GET", "/events/club")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "Club &lt;night&gt; &amp; co" in page and "<night>" not in page
    assert all(f'href="/rooms/{r.room}"' in page for r in opened)
    assert 'http-equiv="refresh"' in page  # board 2 of table 1 has no result: refreshed
    for path in ("/events/nope", "/events/nope/standings.json", "/events/a..b/standings.csv"):
        status, answer, _ = server.request("GET", path)
        assert status == 404, (path, answer)
        assert "no such event" in (answer if isinstance(answer, str) else answer["error"]).lower()


def check_hand_record_and_ratings(server: Server, db: Path, now: Any) -> None:
    """Board 1, played at both tables: its hand record's double-dummy values (the solver's,
    seat by seat and trump by trump), each table's contract, its record and review links;
    board 2 (refused at the people's table): no deal, no links. The ratings' export."""
    with open_store(db) as store:
        state = store.state("club")
    travellers = {t["board"]: t for t in now["rounds"][0]["travellers"]}
    one, two = travellers[1], travellers[2]
    game = from_record(dict(state.result(1, 1, 1).record))  # type: ignore[union-attr]
    c = game.history[0].contract if game.history else game.hand.contract
    deal = (*c.deal, -1 if c.widow is None else c.widow)
    want = [
        [tricks_as_bidder(state.rules, deal, seat, t.value) for t in state.rules.trumps]
        for seat in range(3)
    ]
    assert one["complete"] and one["double_dummy"]["tricks"] == want
    assert one["double_dummy"]["trumps"] == [0, 1, 2, 3, 4, 5, 6, "doubles", "none"]
    assert one["deal"]["widow"] == (None if c.widow is None else str(TILES[c.widow]))
    assert [r["contract"]["bidder"] if r["contract"] else None for r in one["results"]] == [
        (from_record(dict(r.record)).history[0].contract.bidder)
        for r in sorted(state.results, key=lambda r: r.table)
        if r.board == 1
    ]
    assert not two["complete"] and two["deal"] is None and two["double_dummy"] is None
    assert all(r["record"] is None and r["review"] is None for r in two["results"])
    status, page, headers = server.request("GET", one["results"][0]["review"])
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "round 1, table 1, board 1" in page and "'sha256-" in headers["content-security-policy"]
    status, again, _ = server.request("GET", one["results"][0]["review"])
    assert again == page  # worked out once, then kept
    status, _, _ = server.request("GET", "/events/club/reviews/1/1/2")
    assert status == 404  # refused: not in the log
    status, rated, _ = server.request("GET", "/events/club/ratings.json")
    assert status == 200 and rated["ratings"] == ratings(state).to_json()["ratings"]
    assert {r["player"]: r["bot"] for r in rated["ratings"]}["B2"] == "random"


def _cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "moonrules", "tournament", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


def test_the_command_prints_a_link_per_seat_and_keeps_the_results(
    server: Server, tmp_path: Path
) -> None:
    f = tmp_path / "club.toml"
    f.write_text(FILE.replace("seed = 11", "seed = 12"))
    db = tmp_path / "event.sqlite3"
    cmd = [sys.executable, "-m", "moonrules", "tournament", "run", str(f), "--db", str(db)]
    proc = subprocess.Popen(
        [*cmd, "--table", server.url], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    players: list[Player] = []
    lines: list[str] = []
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("  ") and "#token=" in line:
                players.append(play(server, line.split(": ", 1)[1].strip(), len(players)))
        assert proc.wait(60) == 0, "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    for p in players:
        p.join(60)
        assert p.error is None, p.error
    text = "".join(lines)
    assert len(players) == 6  # three seats, two boards
    assert "4 board(s) kept, 2 room(s) played" in text
    out = subprocess.run(
        [sys.executable, "-m", "moonrules", "tournament", "standings", "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    rows = json.loads(out.stdout)["standings"]
    assert sorted(r["entry"] for r in rows) == ["Ann", "B1", "B2", "B3", "Bob", "Cy"]
    assert all(r["boards"] == 2 for r in rows)


@pytest.mark.parametrize(
    ("extra", "needs_db", "message"),
    [
        (["--table", "http://127.0.0.1:9"], False, "--table goes with --db"),
        (["--table", "ftp://x"], True, "--table: an http:// or https:// address"),
        (["--table", "http://127.0.0.1:9"], True, "cannot be reached"),
        (["--resume"], True, "--resume goes with --db and --table"),
    ],
)
def test_bad_tables_refused_in_one_line_nothing_written(
    tmp_path: Path, extra: list[str], needs_db: bool, message: str
) -> None:
    f = tmp_path / "club.toml"
    f.write_text(FILE)
    db = tmp_path / "event.sqlite3"
    where = ["--db", str(db)] if needs_db else ["--log", str(tmp_path / "x.jsonl")]
    done = subprocess.run(
        [sys.executable, "-m", "moonrules", "tournament", "run", str(f), *where, *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2 and "Traceback" not in done.stderr
    if db.exists():
        with open_store(db) as store:
            assert store.events() == []


def test_a_board_room_is_one_hand_of_its_seed_with_fixed_names(server: Server) -> None:
    from moonrules import new_game

    body: dict[str, Any] = {
        "rules": "standard",
        "bots": {"2": "basic"},
        "hints": False,
        "board": {"seed": 5, "names": ["Ann", "Bob", "Robo"]},
    }
    status, room, _ = server.request(
        "POST", "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    assert status == 201, room
    players = [
        play(server, s["url"], k) for k, s in enumerate(room["seats"])
    ]  # the two people's seats
    deadline = time.monotonic() + 60
    while any(not p.done.is_set() for p in players) and time.monotonic() < deadline:
        time.sleep(0.05)
    for p in players:
        assert p.error is None, p.error
    status, record, _ = server.request("GET", f"/rooms/{room['room']}/record")
    assert (
        status == 200 and len(record["hands"]) == 1 and record["players"] == body["board"]["names"]
    )
    assert deal_of(record)[1] == new_game("standard", 5).hand.contract.first_bidder
    for bad, why in [
        ({"seed": -1, "names": ["A", "B", "C"]}, "board.seed"),
        ({"seed": 1, "names": ["A", "B"]}, "board.names"),
        ({"seed": 1, "names": ["A", " B", "C"]}, "board.names[1]"),
        ({"seed": 1}, "board:"),
    ]:
        status, answer, _ = server.request(
            "POST",
            "/api/rooms",
            json.dumps({"board": bad}).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 400 and why in answer["error"], answer


def test_a_room_only_for_a_seated_board_and_once(tmp_path: Path) -> None:
    t = parse_tournament(FILE)
    with open_store(tmp_path / "e.sqlite3") as store:
        create_event(store, t, "club")
        assert store.rooms("club") == {}
        with pytest.raises(TournamentError, match="is not seated"):
            store.add_room("club", 1, 1, 1, "abc")
        store.append("club", run_event(t).entries[1])  # round 1's seating
        for rnd, table, board in [(1, 3, 1), (1, 1, 3), (2, 1, 1)]:
            with pytest.raises(TournamentError, match="is not seated"):
                store.add_room("club", rnd, table, board, "abc")
        store.add_room("club", 1, 1, 2, "abc")
        with pytest.raises(TournamentError, match="has a room already"):
            store.add_room("club", 1, 1, 2, "xyz")
        assert store.rooms("club") == {(1, 1, 2): "abc"}
        assert store.room_links("club") == {}  # kept without its links
        store.add_room("club", 1, 2, 1, "def", ["http://t/rooms/def#token=x", None, "y"])
        with pytest.raises(TournamentError, match="has a room already"):
            store.add_room("club", 1, 2, 1, "ghi", ["z", None, None])
        assert store.room_links("club") == {"def": ("http://t/rooms/def#token=x", None, "y")}
        assert store.rooms("club") == {(1, 1, 2): "abc", (1, 2, 1): "def"}
        with pytest.raises(StoreError, match="no event"):
            store.add_room("other", 1, 1, 2, "abc")


class _Stopped(Exception):
    """The director's command stopped (here: after it opened its first room)."""


def test_a_run_stopped_mid_round_resumes_where_its_log_stands(server: Server) -> None:
    t = parse_tournament(FILE.replace("seed = 11", "seed = 13"))
    players: list[Player] = []
    first: list[live.BoardRoom] = []

    def stop(room: live.BoardRoom) -> None:
        first.append(room)
        raise _Stopped

    with open_store(server.db) as store:
        create_event(store, t, "again")
        with pytest.raises(_Stopped):
            live.run_live(t, store, "again", server.url, poll=0.1, say=print, rooms_opened=stop)
        assert [e["type"] for e in store.entries("again")] == ["event", "seating"]
        (room,) = first
        assert store.rooms("again") == {(1, 1, 1): room.room}
        with pytest.raises(TournamentError, match="has begun already"):
            live.run_live(t, store, "again", server.url)
        other = parse_tournament(FILE.replace("seed = 11", "seed = 14"))
        with pytest.raises(TournamentError, match="not this tournament file's event"):
            live.run_live(other, store, "again", server.url, resume=True)
        # the people play the room opened before, with the links they were given
        players += [play(server, link or "", k) for k, (_, link) in enumerate(room.seats)]

        def opened_room(new: live.BoardRoom) -> None:  # board 2: board 1's links go on to it
            for k, (_, link) in enumerate(room.seats):
                assert link is not None
                moved = link.replace(f"/rooms/{room.room}#", f"/rooms/{new.room}#")
                assert new.seats[k][1] == moved  # this run found board 1's links, kept
                players.append(play(server, moved, 10 + k))

        said: list[str] = []
        outcome = live.run_live(
            t,
            store,
            "again",
            server.url,
            poll=0.1,
            say=said.append,
            rooms_opened=opened_room,
            resume=True,
        )
        state = store.state("again")
    for p in players:
        p.join(60)
        assert p.error is None, p.error
    assert any("board 1: being played (the links given before)" in line for line in said)
    for name, link in room.seats:  # printed again: the links kept with the room
        assert f"  {name}: {link}" in said
    assert [(r.table, r.board) for r in outcome.rooms] == [(1, 2)]  # board 1's room reused
    assert outcome.results == 4 and outcome.refused == ()
    assert sorted((r.table, r.board) for r in state.results) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert len(state.seatings) == 1
