"""Turn clocks at the table (``"clock": {"turn": T, "bank": B}``; spec/table.md, Clocks).

A real server in a subprocess, real WebSocket clients on 127.0.0.1, short clocks: a seat
whose player walks away is played by the clock's bot and the game goes on; its record says
so (an annotation on each such action) and ``moonrules check`` accepts and shows it; a
player who comes back has the seat again; the clock runs while the seat is disconnected,
and its deadline holds across a restart of the server (SQLite) and on PostgreSQL. Bad
option values are refused with a one-line error, and records keep their annotations
through ``to_record``/``from_record`` (a Hypothesis property).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import ROOT, Server, connect, stored_actions, validator

from moonrules import STANDARD, apply, legal_actions, new_game
from moonrules.records.annotations import Annotation, hand_actions
from moonrules.records.record import (
    RecordError,
    annotations_of,
    load_record,
    rules_json,
    to_record,
)
from moonrules.records.replay import from_record
from moonrules.table.botpool import BotPool
from moonrules.table.rooms import Table
from moonrules.table.storage import Storage

pytest.importorskip("starlette")
pytest.importorskip("websockets")

SERVER_SCHEMA = validator("table/server-message")
REQUEST_SCHEMA = validator("table/room-request")
QUICK = rules_json(attrs.evolve(STANDARD, target=1))
"""A game that ends with the first hand whose contract is made or set."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("clock") / "table.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def create(server: Server, body: dict[str, Any]) -> tuple[int, Any]:
    status, answer, _ = server.request(
        "POST", "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    return status, answer


def clocked_room(server: Server, turn: float, bank: float, rules: Any = QUICK) -> Any:
    body = {
        "rules": rules,
        "bots": {"1": "basic", "2": "basic"},
        "clock": {"turn": turn, "bank": bank},
    }
    REQUEST_SCHEMA.validate(body)
    status, answer = create(server, body)
    assert status == 201, answer
    return answer


def receive(ws: Any, timeout: float = 30) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    SERVER_SCHEMA.validate(msg)
    return msg


def until(ws: Any, test: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = receive(ws, max(0.1, deadline - time.monotonic()))
        if msg["type"] == "state" and test(msg):
            return msg


def wait_until(test: Any, timeout: float = 60, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stored_clock(db: Path, room: str) -> dict[str, Any]:
    with sqlite3.connect(db) as c:
        row = c.execute("SELECT state FROM clocks WHERE room = ?", (room,)).fetchone()
    assert row is not None, "no clock stored"
    value: dict[str, Any] = json.loads(row[0])
    return value


def action_times(db: Path, room: str) -> list[tuple[int, int, float]]:
    with sqlite3.connect(db) as c:
        rows = c.execute(
            "SELECT seq, seat, at FROM actions WHERE room = ? ORDER BY seq", (room,)
        ).fetchall()
    return [(s, seat, at) for s, seat, at in rows]


# -- the option -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ("fast", "clock: an object"),
        ({"turn": "30"}, "clock.turn: a number of seconds, not the text"),
        ({"turn": True}, "clock.turn: a number of seconds"),
        ({"turn": -1}, "clock.turn: 0.1 to 3600 seconds, not -1"),
        ({"turn": 0}, "clock.turn: 0.1 to 3600 seconds, not 0"),
        ({"turn": 1e9}, "clock.turn: 0.1 to 3600 seconds"),
        ({"turn": 30, "bank": -5}, "clock.bank: 0 to 86400 seconds, not -5"),
        ({"turn": 30, "bank": 1e12}, "clock.bank: 0 to 86400 seconds"),
        ({"bank": 30}, "clock.turn: missing"),
        ({"turn": 30, "delay": 2}, "clock: 'delay' is an unknown member"),
    ],
)
def test_a_bad_clock_is_refused_with_a_one_line_error(
    server: Server, clock: Any, message: str
) -> None:
    status, answer = create(server, {"rules": "standard", "clock": clock})
    assert status == 400, answer
    text = answer["error"] if isinstance(answer, dict) else str(answer)
    assert message in text and "\n" not in text, text


def test_a_room_without_the_option_has_no_clock(server: Server) -> None:
    room = server.create("standard", {"1": "basic", "2": "basic"})
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        msg = until(ws, lambda m: True)
    assert "clock" not in msg


# -- a walked-away seat -----------------------------------------------------------------


def test_a_walked_away_seat_is_played_by_the_clock_and_the_record_says_so(
    server: Server, tmp_path: Path
) -> None:
    room = clocked_room(server, 0.3, 0.5)
    rid, token = room["room"], room["seats"][0]["token"]
    with connect(server, rid, token) as ws:
        msg = until(ws, lambda m: m["table"]["started"])
        clock = msg["clock"]
        assert clock["turn"] == 300 and clock["bank"] == 500
        assert [s["bank"] for s in clock["seats"]] == [500, 500, 500]
    # the player walked away: the clock runs on, disconnected, and the bot moves for it
    wait_until(
        lambda: any(seat == 0 for _, seat, _ in stored_actions(server.db, rid)),
        what="the clock's first move for seat 0",
    )
    first = next(s for s, seat, _ in action_times(server.db, rid) if seat == 0)
    times = {s: at for s, _, at in action_times(server.db, rid)}
    # the turn began with the action before (or at the start); turn + bank had to run out
    if first > 1:
        assert times[first] - times[first - 1] >= 0.3 + 0.5 - 0.2
    with connect(server, rid) as spectator:  # the game goes on to its end, seat 0 the bot's
        end = until(spectator, lambda m: m["table"]["over"], timeout=180)
    assert end["clock"]["seats"][0]["auto"] is True
    assert end["clock"]["seats"][0]["bank"] == 0
    assert end["clock"]["running"] is None
    status, record, _ = server.request("GET", f"/rooms/{rid}/record")
    assert status == 200, record
    notes = record["annotations"]
    seat0 = [s for s, seat, _ in stored_actions(server.db, rid) if seat == 0]
    assert len(notes) == len(seat0) > 0  # every seat 0 action was the clock's
    assert all(n["seat"] == 0 and n["by"] == "clock" and n["bot"] == "strong" for n in notes)
    # each annotation names an action of seat 0, by hand and number within the hand
    state = from_record(record)
    assert annotations_of(state) == tuple(Annotation(**n) for n in notes)
    assert to_record(state) == record
    path = tmp_path / "clocked.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "moonrules", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    n = notes[0]
    line = f"hand {n['hand']}, action {n['action']} by seat 0: played by the clock (bot strong)"
    assert line in out.stdout, out.stdout


def test_each_annotation_names_the_seat_s_own_action(server: Server) -> None:
    room = clocked_room(server, 0.2, 0.0)
    rid = room["room"]
    with connect(server, rid, room["seats"][0]["token"]):
        pass
    with connect(server, rid) as spectator:
        until(spectator, lambda m: m["table"]["over"], timeout=180)
    status, record, _ = server.request("GET", f"/rooms/{rid}/record")
    assert status == 200
    # the game as stored, step by step: the annotated actions are exactly seat 0's
    seats: list[tuple[int, int, int]] = []
    steps = stored_actions(server.db, rid)
    states = _states(server.db, rid)
    for (_, seat, _), before in zip(steps, states, strict=False):
        hand = before.hand_number
        seats.append((hand, _number(before), seat))
    annotated = {(n["hand"], n["action"]) for n in record["annotations"]}
    assert annotated == {(h, a) for h, a, seat in seats if seat == 0}


def _states(db: Path, room: str) -> list[Any]:
    from table_support import states_of

    return states_of(db, room)


def _number(state: Any) -> int:
    hands = to_record(state)["hands"]
    return hand_actions(hands[-1]) + 1


# -- coming back -----------------------------------------------------------------------


def test_a_player_who_comes_back_takes_the_seat_over(server: Server) -> None:
    # turns of 2 s: long enough for the player back to act in time on a busy machine
    room = clocked_room(server, 2.0, 0.0, rules=rules_json(STANDARD))
    rid, token = room["room"], room["seats"][0]["token"]
    with connect(server, rid, token):
        pass
    with connect(server, rid) as spectator:
        until(spectator, lambda m: m["clock"]["seats"][0]["auto"], timeout=60)
    with connect(server, rid, token) as ws:
        # back: the seat is the player's (the first state says so, unless a newer one that
        # the clock made meanwhile replaced it before it was sent: then the one after)
        until(ws, lambda m: m["clock"]["seats"][0]["auto"] is False, timeout=30)
        # the player acts in time: that action is theirs, not the clock's
        msg = until(ws, lambda m: bool(m["legal"]), timeout=60)
        before = len(stored_actions(server.db, rid))
        ws.send(json.dumps({"type": "act", "action": msg["legal"][0]}))
        after = until(ws, lambda m: m["seq"] > msg["seq"])
        assert after["clock"]["seats"][0]["auto"] is False
    notes = stored_clock(server.db, rid)["notes"]
    mine = stored_actions(server.db, rid)[before]
    assert mine[1] == 0
    state = _states(server.db, rid)[before]
    hand, number = state.hand_number, _number(state)
    assert {"hand": hand, "action": number} not in [
        {"hand": n["hand"], "action": n["action"]} for n in notes
    ]


class _Tab:
    """A seat's connection held in the test's hand: the last state it was sent."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.last: dict[str, Any] = {}

    def send_state(self, text: str) -> None:
        self.last = json.loads(text)

    def send(self, text: str) -> bool:
        return True

    def disconnect(self, code: int, reason: str) -> None:
        pass


async def _until(test: Any, what: str) -> None:
    deadline = time.monotonic() + 60
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_a_player_back_while_the_clock_moves_for_them_keeps_the_seat(tmp_path: Path) -> None:
    """The player comes back (a new connection) while the clock's bot is still thinking out
    the move of their turn that ran out, and again while that move is being stored: the move
    is still the clock's, annotated, but the seat is theirs again, and the last state they
    are sent says so (a state not yet sent is replaced by a newer one, so the clock's move
    must not put the seat back on the clock)."""
    storage = Storage(tmp_path / "t.db")
    bots = BotPool(quick_workers=1, slow_workers=1)
    table = Table(storage, bots)
    thinking, go, second, storing, stored = (asyncio.Event() for _ in range(5))
    decide, append = bots.decide, storage.append
    rooms: list[Any] = []

    async def gated(level: str, v: Any, seed: str, *, urgent: bool = False) -> Any:
        if "/clock/" in seed:  # the clock's move: held until the player is back
            thinking.set()
            await go.wait()
        return await decide(level, v, seed, urgent=urgent)

    async def held(*args: Any, **kwargs: Any) -> None:
        clock = kwargs.get("clock")
        if second.is_set() and clock and len(clock["notes"]) > len(rooms[0].clock.notes):
            storing.set()  # a move of the clock's, after the first: held while it is stored
            await stored.wait()
        await append(*args, **kwargs)

    async def back_while_thinking(room: Any) -> None:
        await table.join(room, _Tab(0))
        await thinking.wait()  # seat 0's turn ran out; the clock's bot thinks
        seq = room.seq
        back = _Tab(0)
        await table.join(room, back)  # the player is back meanwhile
        assert back.last["clock"]["seats"][0]["auto"] is False
        go.set()
        await _until(lambda: room.seq > seq, "the clock's move")
        assert room.clock.notes and room.clock.notes[-1].seat == 0
        assert 0 not in room.clock.auto
        assert back.last["clock"]["seats"][0]["auto"] is False
        assert stored_clock(tmp_path / "t.db", room.id)["auto"] == []

    async def back_while_storing(room: Any) -> None:
        second.set()
        await storing.wait()  # seat 0's next turn ran out and the clock's move is stored
        seq = room.seq
        again = _Tab(0)
        joining = asyncio.ensure_future(table.join(room, again))
        await asyncio.sleep(0.1)
        stored.set()
        await joining
        await _until(lambda: room.seq > seq, "the clock's move stored")
        assert 0 not in room.clock.auto
        assert again.last["clock"]["seats"][0]["auto"] is False

    async def main() -> None:
        bots.decide = gated  # type: ignore[method-assign]
        storage.append = held  # type: ignore[method-assign]
        try:
            body = {"rules": "standard", "bots": {"1": "basic", "2": "basic"},
                    "clock": {"turn": 0.3, "bank": 0.0}}  # fmt: skip
            room = await table.room((await table.create(body)).room)
            assert room is not None and room.clock is not None
            rooms.append(room)
            await back_while_thinking(room)
            await back_while_storing(room)
        finally:
            await table.close()
            bots.close()
            storage.close()

    asyncio.run(main())


def test_a_seat_in_time_spends_its_bank_only_by_the_excess(server: Server) -> None:
    room = clocked_room(server, 0.3, 30.0, rules=rules_json(STANDARD))
    rid, token = room["room"], room["seats"][0]["token"]
    with connect(server, rid, token) as ws:
        msg = until(ws, lambda m: bool(m["legal"]))
        assert msg["clock"]["running"] == 0
        assert 0 < msg["clock"]["turn_left"] <= 300
        time.sleep(1.0)  # 0.7 s past the turn: the bank pays it
        ws.send(json.dumps({"type": "act", "action": msg["legal"][0]}))
        after = until(ws, lambda m: m["seq"] > msg["seq"])
    bank = after["clock"]["seats"][0]["bank"]
    assert 25_000 <= bank <= 29_400, (
        bank
    )  # 0.7 s or more spent, no more than a loaded machine's delay
    assert after["clock"]["seats"][0]["auto"] is False


# -- a restart -----------------------------------------------------------------------


def _to_seat_zero_turn(ws: Any) -> dict[str, Any]:
    """Play seat 0 until its turn comes after at least one stored action; that state."""
    while True:
        msg = until(ws, lambda m: bool(m["legal"]) or m["table"]["over"], timeout=60)
        if msg["seq"] > 0:
            return msg
        ws.send(json.dumps({"type": "act", "action": msg["legal"][0]}))
        until(ws, lambda m, seq=msg["seq"]: m["seq"] > seq)


@pytest.mark.slow
def test_the_deadline_holds_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    turn = 10.0
    with Server(db) as first:
        room = clocked_room(first, turn, 0.0, rules=rules_json(STANDARD))
        rid = room["room"]
        with connect(first, rid, room["seats"][0]["token"]) as ws:
            msg = _to_seat_zero_turn(ws)
        deadline = time.time() + msg["clock"]["turn_left"] / 1000
        seq = msg["seq"]
    time.sleep(5.0)  # down for a while: a deadline counted again from the restart would be late
    # the server comes back with no one connected: the clock runs out on time
    with Server(db) as second:
        wait_until(lambda: len(stored_actions(db, rid)) > seq, timeout=60, what="the clock's move")
        at = {s: t for s, _, t in action_times(db, rid)}[seq + 1]
        assert deadline - 0.3 <= at <= deadline + 4.0, (at - deadline, second.log()[-2000:])
        assert stored_actions(db, rid)[seq][1] == 0
        assert stored_clock(db, rid)["notes"][-1]["seat"] == 0


# -- PostgreSQL ----------------------------------------------------------------------


from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: E402, F401


@pytest.mark.slow
def test_on_postgresql_the_clock_plays_and_survives_a_takeover(
    postgres_url: str, tmp_path: Path
) -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed: the postgres extra")
    import psycopg

    def pg_server() -> Server:
        s = Server(tmp_path / "pg.sqlite3")
        s.argv[s.argv.index("--db") + 1] = postgres_url
        return s

    turn = 10.0
    with pg_server() as first:
        room = clocked_room(first, turn, 0.0, rules=rules_json(STANDARD))
        rid = room["room"]
        with connect(first, rid, room["seats"][0]["token"]) as ws:
            msg = _to_seat_zero_turn(ws)
        deadline = time.time() + msg["clock"]["turn_left"] / 1000
        seq = msg["seq"]
    time.sleep(5.0)  # no process serves the room for a while

    def stored() -> list[tuple[int, int, float]]:
        with psycopg.connect(postgres_url) as c:
            rows = c.execute(
                "SELECT seq, seat, at FROM actions WHERE room = %s ORDER BY seq", (rid,)
            ).fetchall()
        return [(s, seat, at) for s, seat, at in rows]

    with pg_server() as second:  # another process takes the room over from the database
        wait_until(lambda: len(stored()) > seq, timeout=60, what="the clock's move")
        seat, at = stored()[seq][1:]
        assert seat == 0
        assert deadline - 0.3 <= at <= deadline + 4.0, (at - deadline, second.log()[-2000:])
        with connect(second, rid) as spectator:
            msg = until(spectator, lambda m: True)
        assert msg["clock"]["seats"][0]["auto"] is True
        with psycopg.connect(postgres_url) as c:
            (text,) = c.execute("SELECT state FROM clocks WHERE room = %s", (rid,)).fetchone()
        assert json.loads(text)["notes"][-1]["seat"] == 0


# -- records ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 60),
    pick=st.randoms(use_true_random=False),
)
def test_records_round_trip_with_their_annotations(
    seed: int, steps: int, pick: random.Random
) -> None:
    state = new_game(STANDARD, seed=seed)
    taken: list[tuple[int, int, int]] = []
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        taken.append((state.hand_number, _number(state), seat))
        state = apply(state, pick.choice(legal_actions(state)), seat=seat)
    chosen = sorted(pick.sample(taken, pick.randint(0, len(taken))))
    notes = [Annotation(h, a, s, "clock", pick.choice(["strong", "basic"])) for h, a, s in chosen]
    record = to_record(state, annotations=notes)
    text = json.dumps(record)
    again = from_record(load_record(text))
    assert annotations_of(again) == tuple(notes)
    assert to_record(again) == record
    assert again == state  # annotations are not part of the game
    if notes:
        assert record["annotations"] == [n.to_json() for n in notes]
    else:
        assert "annotations" not in record


def test_a_bad_annotation_is_refused_naming_its_member() -> None:
    state = new_game(STANDARD, seed=3)
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    record = to_record(state)
    cases = [
        (
            [{"hand": 1, "action": 1, "seat": 0, "by": "clock"}],
            "annotations[0]: missing member 'bot'",
        ),
        ([{"hand": 9, "action": 1, "seat": 0, "by": "clock", "bot": "x"}], "annotations[0].hand"),
        (
            [{"hand": 1, "action": 99, "seat": 0, "by": "clock", "bot": "x"}],
            "annotations[0].action",
        ),
        ([{"hand": 1, "action": 1, "seat": 5, "by": "clock", "bot": "x"}], "annotations[0].seat"),
        ([{"hand": 1, "action": 1, "seat": 0, "by": "me", "bot": "x"}], "annotations[0].by"),
        (
            [
                {"hand": 1, "action": 2, "seat": 0, "by": "clock", "bot": "x"},
                {"hand": 1, "action": 1, "seat": 0, "by": "clock", "bot": "x"},
            ],
            "annotations[1]: annotations are in the order",
        ),
        ({"hand": 1}, "annotations: expected a list"),
    ]
    for value, message in cases:
        with pytest.raises(RecordError) as e:
            from_record({**record, "annotations": value})
        assert message in str(e.value), str(e.value)
