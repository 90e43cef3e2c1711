"""Persistence: nothing a client was told is lost, a seat's link brings it back, and a
server killed with SIGKILL resumes every game exactly where it was.

A real server in a subprocess plays games over real WebSockets; it is killed with
SIGKILL while bots are moving, and started again on the same database. ``MOONRULES_DEEP=1``
runs 50 bot-only games through the kill (the bench's crash test, ``bench/table.py
--crash``, does the same and prints the count of actions lost).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from depth import DEEP
from table_support import Player, Server, connect, next_state, states_of, stored_actions

from moonrules.conformance.protocol import view_json
from moonrules.records.replay import replay

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

BOT_ROOMS = 50 if DEEP else 6


def wait_until(test: Any, timeout: float = 120, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_sigkill_mid_game_loses_nothing_and_every_game_resumes(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    first = Server(db).start()
    try:
        # games of bots alone, each watched by a spectator who keeps every frame
        rooms = [
            first.create(
                "standard" if i % 2 else "partnership",
                {str(s): "basic" for s in range(3 if i % 2 else 4)},
            )
            for i in range(BOT_ROOMS)
        ]
        watchers = [Player(first, r["room"], None, seed=i) for i, r in enumerate(rooms)]
        for w in watchers:
            w.start()
        # a person's game, left at the person's turn after a few moves
        mine = first.create("standard", {"1": "basic", "2": "random"})
        token = mine["seats"][0]["token"]
        me = Player(first, mine["room"], token, seed=7, mischief=0, stop_after=4)
        me.start()
        me.join(60)
        assert me.error is None and me.acted == 4
        assert me.last_state is not None and me.last_state["legal"]
        # kill the server while the bots' games are going on
        wait_until(lambda: all(len(w.frames) > 5 for w in watchers), what="the games to start")
        first.kill()
    finally:
        first.stop()
    for w in watchers:
        w.join(30)
    seen = {r["room"]: json.loads(w.frames[-1]) for r, w in zip(rooms, watchers, strict=True)}

    # Nothing any client was told is lost: each room's stored game reaches at least the
    # step its spectator last saw, and shows at that step exactly what the spectator saw.
    lost = 0
    for room, last in seen.items():
        states = states_of(db, room)
        stored = len(states) - 1
        lost += max(0, last["seq"] - stored)
        if last["seq"] <= stored:
            state = states[last["seq"]]
            expected = view_json(state, 0) | {"seat": None, "hand": [], "widow": None,
                                              "discard": None}  # fmt: skip
            assert last["view"] == expected, room
    assert lost == 0, f"{lost} actions acknowledged to a client were lost"

    with Server(db) as second:
        # the person's game: the seat's link brings back the same table, same turn
        with connect(second, mine["room"], token) as ws:
            again = next_state(ws)
        before = me.last_state
        assert again["seq"] == before["seq"]
        assert again["view"] == before["view"] and again["legal"] == before["legal"]
        # the bots' games resume by themselves, and end with records that replay as valid
        for room in seen:
            wait_until(
                lambda room=room: second.request("GET", f"/rooms/{room}/record")[0] == 200,
                what=f"room {room} to finish",
            )
            _, record, _ = second.request("GET", f"/rooms/{room}/record")
            assert replay(record).valid
            steps = stored_actions(db, room)
            assert [s for s, _, _ in steps] == list(range(1, len(steps) + 1))
    assert "Traceback" not in second.log()


def test_a_closed_tab_reopened_is_back_at_the_same_point(tmp_path: Path) -> None:
    with Server(tmp_path / "table.sqlite3") as server:
        room = server.create("standard", {"1": "basic", "2": "basic"})
        token = room["seats"][0]["token"]
        me = Player(server, room["room"], token, seed=3, mischief=0, stop_after=3)
        me.start()
        me.join(60)
        assert me.error is None and me.last_state is not None
        with connect(server, room["room"], token) as ws:
            back = next_state(ws)
        assert back["seq"] == me.last_state["seq"] and back["view"] == me.last_state["view"]
        assert back["legal"] == me.last_state["legal"] != []
        # and the game goes on from there to its end
        rest = Player(server, room["room"], token, seed=4, mischief=0)
        rest.start()
        rest.join(120)
        assert rest.error is None
        status, record, headers = server.request("GET", f"/rooms/{room['room']}/record")
        assert status == 200 and "attachment" in headers["content-disposition"]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        check = subprocess.run(
            [sys.executable, "-m", "moonrules", "check", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr


def test_the_record_before_the_end_is_refused_without_a_tile(tmp_path: Path) -> None:
    with Server(tmp_path / "table.sqlite3") as server:
        room = server.create("standard", {"1": "basic"})
        status, answer, _ = server.request("GET", f"/rooms/{room['room']}/record")
        assert status == 409
        assert "not over" in answer["error"]
        assert not any(f"{a}-{b}" in json.dumps(answer) for a in range(7) for b in range(7))
        status, answer, _ = server.request("GET", "/rooms/nosuchroom/record")
        assert status == 404


def test_a_first_schema_database_is_read_and_its_rooms_resume(tmp_path: Path) -> None:
    """A database of schema 1 (the whole record stored with every action) is brought to
    schema 3 in place: each room's record holds all its actions, and the game goes on."""
    import asyncio
    import sqlite3

    from moonrules.table.storage import SCHEMA_VERSION, Storage

    db = tmp_path / "table.sqlite3"
    with Server(db) as server:
        mine = server.create("standard", {"1": "basic", "2": "random"})
        me = Player(server, mine["room"], mine["seats"][0]["token"], seed=3, mischief=0,
                    stop_after=3)  # fmt: skip
        me.start()
        me.join(60)
        assert me.error is None and me.last_state is not None
    seq = me.last_state["seq"]
    # what schema 1 stored: the record after every action, no count of the actions it holds
    states = states_of(db, mine["room"])
    with sqlite3.connect(db) as c:
        from moonrules.records.record import to_record

        c.execute(
            "UPDATE rooms SET record = ? WHERE id = ?",
            (json.dumps(to_record(states[seq])), mine["room"]),
        )
        for column in ("record_seq", "names", "options", "next"):
            c.execute(f"ALTER TABLE rooms DROP COLUMN {column}")
        c.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    storage = Storage(db)
    try:
        row = asyncio.run(storage.load(mine["room"]))
    finally:
        storage.close()
    assert SCHEMA_VERSION == 3
    assert row is not None and row.seq == row.record_seq == seq
    assert row.names == () and row.options == {} and row.next is None
    with Server(db) as again, connect(again, mine["room"], mine["seats"][0]["token"]) as ws:
        state = next_state(ws)
        assert state["seq"] == seq and state["view"] == me.last_state["view"]


def test_an_action_whose_connection_closes_while_it_is_stored_still_moves_the_room(
    tmp_path: Path,
) -> None:
    """A seat's connection closes (its task cancelled) while its action is being written:
    the write goes on, and so does the rest of the action (the room moved on, every listener
    told), so that the room never falls behind its database. A room that has fallen behind
    anyway (a write refused as a duplicate) is read again from storage."""
    import asyncio
    import sqlite3

    from moonrules.table.botpool import BotPool
    from moonrules.table.rooms import Table
    from moonrules.table.storage import Storage

    class Quiet:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.states = 0

        def send_state(self, text: str) -> None:
            self.states += 1

        def send(self, text: str) -> bool:
            return True

        def disconnect(self, code: int, reason: str) -> None:
            pass

    def stored_seq(room_id: str) -> int:
        with sqlite3.connect(tmp_path / "t.db") as db:
            (seq,) = db.execute("SELECT seq FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return int(seq)

    async def main() -> None:
        storage = Storage(tmp_path / "t.db")
        bots = BotPool(quick_workers=1, slow_workers=1)
        table = Table(storage, bots)
        try:
            created = await table.create({"rules": "standard"})
            room = await table.room(created.room)
            assert room is not None
            listeners = [Quiet(s) for s in range(3)]
            for listener in listeners:
                await table.join(room, listener)
            real_append = storage.append

            async def slow_append(*args: Any, **kwargs: Any) -> None:
                job = asyncio.ensure_future(real_append(*args, **kwargs))  # under way
                await asyncio.sleep(0.3)
                await job

            storage.append = slow_append  # type: ignore[method-assign]
            first = room.state.to_act
            assert first is not None
            told = [x.states for x in listeners]
            caller = asyncio.ensure_future(table.act(room, first, "pass"))
            await asyncio.sleep(0.1)
            caller.cancel()  # the connection closed mid-write
            await asyncio.sleep(0.6)
            assert caller.cancelled()
            assert room.seq == stored_seq(room.id) == 1
            assert all(x.states > t for x, t in zip(listeners, told, strict=True))
            storage.append = real_append  # type: ignore[method-assign]
            second = room.state.to_act
            assert second is not None and second != first
            # a room behind its database: the next write is refused as a duplicate, and the
            # room is read again rather than refusing every action from then on
            behind = room.state
            assert await table.act(room, second, "pass") is None
            room.state, room.seq = behind, 1
            outcome = await table.act(room, second, "pass")
            assert outcome is not None and outcome["code"] == "turn"
            assert room.seq == stored_seq(room.id) == 2
            third = room.state.to_act
            assert third is not None and third not in (first, second)
            assert await table.act(room, third, 7) is None
            assert room.seq == stored_seq(room.id) == 3
        finally:
            await table.close()
            bots.close()
            storage.close()

    asyncio.run(main())
