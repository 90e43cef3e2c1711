"""Hostile clients: each gets a refusal or a closed connection, the rooms go on, the log
holds no traceback, and nobody learns another client's data.

One server (in a subprocess, with small test limits) takes every attack in turn over
real sockets on 127.0.0.1; after each, a fair client still plays in the same room.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from table_support import Player, Server, connect, next_state, validator

pytest.importorskip("starlette")
websockets = pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed  # noqa: E402

LIMITS = {"max_room_connections": 6, "rate": 50.0, "burst": 20, "max_refused": 30,
          "send_timeout": 2.0, "room_burst": 40, "room_rate": 0.01}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(LIMITS)]
    s = Server(tmp_path_factory.mktemp("hostile") / "table.sqlite3", launcher=launcher)
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def refused_to(ws: Any, frame: str | bytes) -> dict[str, Any]:
    ws.send(frame)
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "refused":
            return msg


def closed_code(ws: Any) -> int:
    with pytest.raises(ConnectionClosed) as e:
        while True:
            ws.recv(timeout=30)
    return e.value.rcvd.code if e.value.rcvd else 1006


def still_plays(server: Server, room: Any) -> None:
    """A fair player of the room still gets its state and may act."""
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        state = next_state(ws)
        assert state["type"] == "state"


def test_tokens_wrong_missing_of_another_room_or_unknown_room(server: Server) -> None:
    room = server.create("standard", {"1": "basic", "2": "basic"})
    other = server.create("standard", {"1": "basic", "2": "basic"})
    with connect(server, room["room"], "x" * 43) as ws:
        assert closed_code(ws) == 4403
    with connect(server, room["room"], other["seats"][0]["token"]) as ws:
        assert closed_code(ws) == 4403
    with connect(server, room["room"], "y" * 5000) as ws:
        assert closed_code(ws) == 4403
    with connect(server, "no-such-room") as ws:
        assert closed_code(ws) == 4404
    with connect(server, "room;drop") as ws:
        assert closed_code(ws) == 4404
    with pytest.raises(websockets.exceptions.InvalidStatus, match="403"):
        connect(server, "../../etc")  # no such route: the handshake itself is refused
    # no token: a spectator, who sees no tiles in hand and may not act
    with connect(server, room["room"]) as ws:
        state = next_state(ws)
        assert state["view"]["hand"] == [] and state["legal"] == []
        msg = refused_to(ws, json.dumps({"type": "act", "action": "pass"}))
        assert msg["code"] == "spectator"
    still_plays(server, room)


def test_tokens_are_long_random_and_compared_in_constant_time(server: Server) -> None:
    tokens = [s["token"] for _ in range(5) for s in server.create("standard")["seats"]]
    assert len(set(tokens)) == len(tokens) == 15
    assert all(len(t) >= 43 for t in tokens)  # 256 random bits, URL-safe
    from moonrules.table.rooms import Room, token_hash
    from moonrules.table.storage import RoomRow

    row = RoomRow("r", 0.0, "standard", ("human",) * 3, tuple(token_hash(t) for t in tokens[:3]),
                  "s", {}, {}, 0, frozenset(), False)  # fmt: skip
    from moonrules import new_game

    r = Room(row, new_game(seed=1))
    with mock.patch("hmac.compare_digest", wraps=hmac.compare_digest) as compare:
        assert r.seat_of(tokens[1]) == 1 and r.seat_of("nope") is None
    assert compare.call_count == 6  # every seat compared, whichever matches


def test_out_of_turn_another_seat_malformed_binary_huge(server: Server) -> None:
    room = server.create("standard", {"2": "basic"})
    a, b = room["seats"][0]["token"], room["seats"][1]["token"]
    with connect(server, room["room"], a) as wa, connect(server, room["room"], b) as wb:
        # a person's turn, the game started (the bot at seat 2 may call first): the other
        # person is not to act, and will not be until the one to act acts
        sa = next_state(wa)
        while not (sa["table"]["started"] and sa["view"]["to_act"] in (0, 1)):
            sa = next_state(wa)
        to_act = sa["view"]["to_act"]
        waiting = wb if to_act == 0 else wa
        msg = refused_to(waiting, json.dumps({"type": "act", "action": "pass"}))
        assert msg["code"] in ("turn", "illegal") and msg["rule"] in ("TURN-1", None)
        # acting for another seat: there is no way to name a seat
        msg = refused_to(wa, json.dumps({"type": "act", "action": "pass", "seat": 1}))
        assert msg["code"] == "bad-frame"
        for frame in ("not json", "[]", '{"type": "hello"}', '{"type": "act"}',
                      "[" * 100 + "]" * 100, '{"type": "act", "action": {"a": 1}}',
                      '{"type":"act","action":1e999}', '{"type":"act","type":"act"}'):  # fmt: skip
            msg = refused_to(wa, frame)
            assert msg["code"] in ("bad-frame", "bad-action", "turn"), (frame, msg)
        msg = refused_to(wa, b"\x00\x01binary")
        assert msg["code"] == "bad-frame"
        wa.send("x" * 100_000)  # a huge frame closes the connection (1009: too big)
        assert closed_code(wa) == 1009
    still_plays(server, room)


def test_a_flood_is_refused_then_closed(server: Server) -> None:
    room = server.create("standard", {"1": "basic", "2": "basic"})
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        for _ in range(200):
            try:
                ws.send('{"type": "act", "action": "pass"}')
            except ConnectionClosed:
                break
        codes = []
        try:
            while True:
                msg = json.loads(ws.recv(timeout=30))
                codes.append(msg.get("code"))
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1008
        assert "too-fast" in codes
    still_plays(server, room)


def test_a_burst_read_in_one_go_is_answered_in_full(server: Server) -> None:
    """Frames a client writes at once (past the burst, within the refusals allowed) are each
    answered, a refusal a frame, and the connection stays open: their answers do not pile
    up unsent while the rest are read."""
    room = server.create("standard", {"1": "basic", "2": "basic"})
    count = LIMITS["burst"] + 25
    with connect(server, room["room"]) as ws:  # a spectator: each act is refused
        next_state(ws)
        for _ in range(count):
            ws.send('{"type": "act", "action": "pass"}')
        codes = [json.loads(ws.recv(timeout=30)).get("code") for _ in range(count)]
        # the burst, and a frame or two more as the bucket refills (50 a second)
        assert LIMITS["burst"] <= codes.count("spectator") < count - 20
        assert codes.count("too-fast") == count - codes.count("spectator")
        ws.ping().wait(10)  # still open


def test_many_connections_are_capped_per_room(server: Server) -> None:
    room = server.create("standard", {"1": "basic", "2": "basic"})
    with contextlib.ExitStack() as stack:  # each connection a context, closed at the end
        opened = [
            stack.enter_context(connect(server, room["room"]))
            for _ in range(LIMITS["max_room_connections"])
        ]
        for ws in opened:
            next_state(ws)
        with connect(server, room["room"]) as extra:
            assert closed_code(extra) == 1013
    still_plays(server, room)


def test_spectators_never_keep_a_player_out_nor_one_players_tabs_another(
    server: Server,
) -> None:
    """Spectators and each seat have caps of their own: with every spectator place taken,
    every seat's link still connects and plays; one seat's link opened too many times is
    refused without taking the other seat's place."""
    room = server.create("standard", {"2": "basic"})
    tokens = [room["seats"][k]["token"] for k in range(2)]
    # The clients kept open read no more than their first state: with the client's own
    # queue unbounded, the frames the room sends them meanwhile never hold up the closing
    # handshake (a full queue would stop the client reading, and each close wait 10 s).
    unread = {"max_queue": None}
    with contextlib.ExitStack() as stack:
        for _ in range(LIMITS["max_room_connections"]):
            next_state(stack.enter_context(connect(server, room["room"], **unread)))
        with connect(server, room["room"]) as extra:
            assert closed_code(extra) == 1013
        tabs = [
            stack.enter_context(connect(server, room["room"], tokens[0], **unread))
            for _ in range(4)
        ]
        for ws in tabs:
            assert next_state(ws)["type"] == "state"
        with connect(server, room["room"], tokens[0]) as fifth:
            assert closed_code(fifth) == 1013
        with connect(server, room["room"], tokens[1]) as other:
            state = next_state(other)
            assert state["type"] == "state" and state["table"]["started"]


def test_a_client_that_never_reads_stalls_nothing(server: Server) -> None:
    """A spectator that stops reading (a tiny receive buffer, never read) while a game
    is played to its end: the game ends all the same, and the server lets the reader go."""
    room = server.create("standard", {"1": "basic", "2": "basic"})
    host, port = server.url.removeprefix("http://").split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.connect((host, int(port)))
    raw.sendall(
        f"GET /rooms/{room['room']}/ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    try:
        me = Player(server, room["room"], room["seats"][0]["token"], seed=5, mischief=0)
        me.start()
        me.join(180)
        assert me.error is None and me.last_state is not None
        assert me.last_state["table"]["over"]
    finally:
        raw.close()


def test_a_text_frame_not_utf8_is_closed_and_logged_in_one_line(server: Server) -> None:
    """A text frame whose bytes are not UTF-8 closes the connection (1007); the server's
    log has one line for it, never a traceback (a client could fill the log with them)."""
    room = server.create("standard", {"1": "basic", "2": "basic"})
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        raw.sendall(
            f"GET /rooms/{room['room']}/ws HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        raw.settimeout(30)
        stream = raw.makefile("rb")
        assert stream.readline().startswith(b"HTTP/1.1 101")
        while stream.readline() not in (b"\r\n", b""):
            pass
        payload, mask = b"\xff\xfe not text", b"\x01\x02\x03\x04"
        masked = bytes(b ^ mask[k % 4] for k, b in enumerate(payload))
        raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        while True:  # the server's frames (unmasked): the room's state, then the close
            head = stream.read(2)
            assert len(head) == 2, "the server closed without a close frame"
            size = head[1] & 0x7F
            if size >= 126:
                size = int.from_bytes(stream.read(2 if size == 126 else 8), "big")
            body = stream.read(size)
            if head[0] & 0x0F == 0x8:
                break
        assert int.from_bytes(body[:2], "big") == 1007, body
    deadline = time.monotonic() + 10
    while "UTF-8" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = server.log()
    assert "UTF-8" in log and "Traceback" not in log


def test_http_origin_type_and_size_limits(server: Server) -> None:
    good = json.dumps({"rules": "standard"}).encode()
    json_type = {"Content-Type": "application/json"}
    status, answer, _ = server.request(
        "POST", "/api/rooms", good, {**json_type, "Origin": "http://evil.example"}
    )
    assert status == 403
    status, answer, _ = server.request(
        "POST",
        "/api/rooms",
        good,
        {**json_type, "Origin": server.url, "Sec-Fetch-Site": "same-origin"},
    )
    assert status == 201
    validator("table/room-response").validate(answer)
    validator("table/room-request").validate(json.loads(good))
    validator("table/client-message").validate({"type": "act", "action": "6-4"})
    status, _, _ = server.request("POST", "/api/rooms", good, {"Content-Type": "text/plain"})
    assert status == 415
    status, _, _ = server.request("POST", "/api/rooms", b"x" * 100_000, json_type)
    assert status == 413
    for body, want in ((b"{", 400), (b"\xff", 400), (b"[]", 400),
                       (b'{"rules": "no-such"}', 400), (b'{"bots": {"9": "basic"}}', 400),
                       (b'{"bots": {"1": "genius"}}', 400), (b'{"rules": {"players": 4}}', 422),
                       (b'{"rules": "standard", "x": 1}', 400)):  # fmt: skip
        status, answer, _ = server.request("POST", "/api/rooms", body, json_type)
        assert status == want, (body, answer)
        assert "error" in answer and "Traceback" not in json.dumps(answer)
    # a page of another site may not connect either
    room = server.create("standard")
    from websockets.sync.client import connect as ws_connect

    url = f"{server.ws_url}/rooms/{room['room']}/ws"
    with ws_connect(url, origin="http://evil.example", open_timeout=30) as ws:  # type: ignore[arg-type]
        assert closed_code(ws) == 4403


def test_room_creation_is_rate_limited(tmp_path: Path) -> None:
    limits = {"room_burst": 3, "room_rate": 0.001}
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(limits)]
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s:
        body = json.dumps({"rules": "standard"}).encode()
        statuses = [
            s.request("POST", "/api/rooms", body, {"Content-Type": "application/json"})[0]
            for _ in range(5)
        ]
    assert statuses == [201, 201, 201, 429, 429]


def test_games_of_bots_alone_are_capped_and_rooms_for_people_are_not(tmp_path: Path) -> None:
    """``max_bot_rooms``: a room of bots alone past the cap is refused (503) while the games
    go on; a room with a seat for a person is still created."""
    launcher = [sys.executable, "-m", "table_support", "--limits", '{"max_bot_rooms": 2}']
    # random bots: a whole game of them lasts dozens of hands, longer than this test
    bots = json.dumps({"rules": "standard", "bots": dict.fromkeys("012", "random")}).encode()
    person = json.dumps({"rules": "standard", "bots": {"1": "random"}}).encode()
    header = {"Content-Type": "application/json"}
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s:
        answers = [s.request("POST", "/api/rooms", bots, header) for _ in range(3)]
        statuses = [status for status, _, _ in answers]
        with_person = s.request("POST", "/api/rooms", person, header)[0]
    assert statuses == [201, 201, 503], answers
    assert "games of bots alone" in answers[2][1]["error"]
    assert with_person == 201


def _ended(sock: socket.socket) -> bool:
    """Whether the server ends the connection (closed, or reset: it had unread bytes)."""
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True


def test_half_sent_requests_are_capped_per_address_and_timed_out(tmp_path: Path) -> None:
    """Slowloris: connections that send part of a request's headers and wait. One address
    may hold ``max_address_requests`` of them (a further one is closed at once), each for
    ``request_timeout`` at most; a body sent too slowly is answered 408. Meanwhile, and
    after, the server answers: it is never left with no connection to give."""
    limits = {"max_address_requests": 8, "request_timeout": 1.0}
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(limits)]
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s:
        host, port = s.url.removeprefix("http://").split(":")
        with contextlib.ExitStack() as stack:
            held = []
            for _ in range(8):
                sock = stack.enter_context(socket.create_connection((host, int(port)), 10))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                held.append(sock)
            time.sleep(0.3)
            extra = stack.enter_context(socket.create_connection((host, int(port)), 10))
            extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            assert _ended(extra)  # closed at once: this address holds 8 already
            started = time.monotonic()
            for sock in held:  # each ended by the server once its second is up
                assert _ended(sock)
            assert time.monotonic() - started < 5
            status, _, _ = s.request("GET", "/healthz", None, {})
            assert status == 200
            slow = stack.enter_context(socket.create_connection((host, int(port)), 10))
            slow.sendall(
                b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
            answer = slow.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer


def test_websockets_are_capped_per_address(tmp_path: Path) -> None:
    """One address may hold ``max_address_connections`` WebSockets, over every room: it
    cannot take the whole server's."""
    limits = {"max_address_connections": 3}
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(limits)]
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s, contextlib.ExitStack() as st:
        rooms = [s.create("standard", {"1": "basic", "2": "basic"})["room"] for _ in range(2)]
        for room in (rooms[0], rooms[1], rooms[1]):
            next_state(st.enter_context(connect(s, room)))
        with connect(s, rooms[0]) as extra:
            assert closed_code(extra) == 1013
        st.close()  # the three closed: the address may connect again
        time.sleep(0.5)
        with connect(s, rooms[0]) as again:
            assert next_state(again)["type"] == "state"
