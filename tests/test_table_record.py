"""The record a room gives for download holds the seats' names as its ``players``.

A real server in a subprocess, real WebSocket clients on 127.0.0.1: the people name their
seats, the game is played to its end, the record is downloaded over HTTP and read back with
:func:`moonrules.read_record`: the names are there, and the game is the one the server
stored.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from table_support import Player, Server, connect, states_of

import moonrules
from moonrules import STANDARD
from moonrules.records.record import players_of
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
pytest.importorskip("websockets")

SHORT = rules_json(attrs.evolve(STANDARD, target=7))


def _name(server: Server, room: str, token: str, name: str, seat: int) -> None:
    with connect(server, room, token) as ws:
        ws.send(json.dumps({"type": "name", "name": name}))
        deadline = time.monotonic() + 30
        while True:
            msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if msg["type"] == "state" and msg["table"]["seats"][seat]["name"] is not None:
                return


def test_the_downloaded_record_names_the_seats_and_reads_back(tmp_path: Path) -> None:
    with Server(tmp_path / "table.sqlite3") as server:
        room = server.create(SHORT, {"2": "basic"})
        rid = room["room"]
        a, b = (s["token"] for s in room["seats"][:2])
        _name(server, rid, a, "  Ann   <b>Lee</b> ", 0)
        _name(server, rid, b, "Bo # 1", 1)
        status, answer, _ = server.request("GET", f"/rooms/{rid}/record")
        assert status == 409 and "not over" in answer["error"]
        players = [
            Player(server, rid, token, seed=k, mischief=0, pass_rate=0.9)
            for k, token in enumerate((a, b))
        ]
        for p in players:
            p.start()
        for p in players:
            p.join(180)
            assert p.error is None and p.last_state is not None, p.error
            assert p.last_state["table"]["over"]
        status, record, _ = server.request("GET", f"/rooms/{rid}/record")
        assert status == 200, record
        # the names as the table stored them (trimmed, runs of spaces as one), by seat
        assert record["players"] == ["Ann <b>Lee</b>", "Bo # 1", None]
        assert list(record) == ["rules", "seed", "players", "hands"]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        game = moonrules.read_record(path)
        stored = states_of(server.db, rid)[-1]
        assert game == stored and game.is_over
        assert players_of(game) == ("Ann <b>Lee</b>", "Bo # 1", None)
        assert moonrules.to_record(game) == record
        # and in the notation, as `moonrules check` reads it
        from moonrules.records.notation import write_notation

        text = write_notation(record)
        assert "player 0 Ann <b>Lee</b>\n" in text and 'player 1 "Bo \\u0023 1"\n' in text
        again = moonrules.read_record(text)
        assert again == stored and players_of(again) == players_of(game)
        # a room where no one gave a name gives a record without names
        bots = server.create(SHORT, {"0": "basic", "1": "random", "2": "basic"})
        deadline = time.monotonic() + 120
        info: Any = None
        while time.monotonic() < deadline:
            status, info, _ = server.request("GET", f"/api/rooms/{bots['room']}")
            if status == 200 and info["over"]:
                break
            time.sleep(0.2)
        assert info is not None and info["over"], info
        status, plain, _ = server.request("GET", f"/rooms/{bots['room']}/record")
        assert status == 200 and "players" not in plain
        assert moonrules.read_record(json.dumps(plain)) == states_of(server.db, bots["room"])[-1]
    log = server.log()
    assert "Traceback" not in log, log[-3000:]
