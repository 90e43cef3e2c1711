"""What a person can trust at the table: names that read as a person's, a rematch only for
those who asked, rooms nobody is at played as rooms of bots alone, a rate limit per seat,
and refusals that quote what was sent.

A real server in a subprocess, real WebSocket clients on 127.0.0.1 (and, for the priority
of the moves of a room nobody is at, the table in-process with its bot pool watched).
Every frame the tests receive is valid under the protocol's JSON Schema.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from table_support import Player, Server, connect, validator

from moonrules import STANDARD
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
pytest.importorskip("websockets")

SERVER_SCHEMA = validator("table/server-message")
QUICK = rules_json(attrs.evolve(STANDARD, target=1))
"""A game that ends with the first hand whose contract is made or set."""
JSON_HEADER = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("trust") / "table.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def receive(ws: Any, timeout: float = 30) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    SERVER_SCHEMA.validate(msg)
    return msg


def until(ws: Any, test: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = receive(ws, max(0.1, deadline - time.monotonic()))
        if test(msg):
            return msg


def state_where(ws: Any, test: Any, timeout: float = 60) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and test(m), timeout)


def refusal(ws: Any, timeout: float = 30) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "refused", timeout)


def create(server: Server, body: dict[str, Any]) -> tuple[int, Any]:
    status, answer, _ = server.request("POST", "/api/rooms", json.dumps(body).encode(), JSON_HEADER)
    return status, answer


def made(server: Server, body: dict[str, Any]) -> Any:
    status, answer = create(server, body)
    assert status == 201, answer
    return answer


def play_to_the_end(server: Server, room: Any) -> None:
    """Every seat for a person played (random legal moves, passing often) to the game's end."""
    players = [
        Player(server, room["room"], s["token"], seed=i, mischief=0, pass_rate=0.9)
        for i, s in enumerate(room["seats"])
    ]
    for p in players:
        p.start()
    for p in players:
        p.join(180)
        assert p.error is None, p.error
        assert p.last_state is not None and p.last_state["table"]["over"]


# -- names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164", "U+3164 (HANGUL FILLER) shows as blank"),
        ("\uffa0", "U+FFA0 (HALFWIDTH HANGUL FILLER) shows as blank"),
        ("\u2800", "U+2800 (BRAILLE PATTERN BLANK) shows as blank"),
        ("\u115f\u1160", "U+115F (HANGUL CHOSEONG FILLER) shows as blank"),
        ("Ann\u3164Lee", "U+3164 (HANGUL FILLER) shows as blank"),
        ("\u0301\u0302", "combining mark U+0301 on no letter"),
        ("a \u20dd", "combining mark U+20DD on no letter"),
        ("\ufe0f", "combining mark U+FE0F on no letter"),
        ("\u200b", "U+200B is a control or format character"),
    ],
)
def test_a_name_that_shows_as_blank_or_marks_alone_is_refused(name: str, why: str) -> None:
    from moonrules.table.wire import FrameError, check_name

    with pytest.raises(FrameError) as e:
        check_name(name)
    assert e.value.code == "bad-name" and why in e.value.message, e.value.message
    assert "\n" not in e.value.message


def test_names_in_any_script_with_their_marks_are_taken() -> None:
    from moonrules.table.wire import check_name, name_key, name_refusal

    names = ("José", "Jose\u0301", "Zoë", "김민준", "Đặng Thị Hương", "राहुल", "Ana-María", "Ω 7")
    for name in names:
        assert check_name(name) == name
        assert name_refusal(name, [None, "Bob"], ["random", "basic", "strong"]) is None
    assert name_key("Jose\u0301") == name_key("JOSÉ") == name_key("jose")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Seat 2", "reads as a label the table shows for a seat"),
        ("seat 3 (strong bot)", "reads as a label the table shows for a seat"),
        ("\uff33\uff45\uff41\uff54\u3000\uff11", "reads as a label the table shows for a seat"),
        ("You", "reads as a label the table shows for a seat"),
        ("YOU", "reads as a label the table shows for a seat"),
        ("Team 1", "reads as a label the table shows for a seat"),
        ("Ann (strong bot)", "reads as a bot's"),
        ("Bo (basic bot)", "reads as a bot's"),
        ("strong", "reads as a bot's"),
        ("ann", "is taken in this room"),
        ("ANN", "is taken in this room"),
    ],
)
def test_a_name_that_reads_as_a_seat_a_bot_or_another_seat_is_refused(name: str, why: str) -> None:
    from moonrules.table.wire import check_name, name_refusal

    why_not = name_refusal(check_name(name), ["Ann", None], ["random", "basic", "strong"])
    assert why_not is not None and why in why_not, why_not
    assert repr(check_name(name)) in why_not and "\n" not in why_not


def test_names_are_checked_against_the_room_and_frozen_once_the_game_ends(server: Server) -> None:
    room = made(server, {"rules": QUICK, "bots": {"2": "random"}})
    a, b = (s["token"] for s in room["seats"])
    with connect(server, room["room"], a) as wa, connect(server, room["room"], b) as wb:
        for bad, why in (
            ("\u3164", "shows as blank"),
            ("\u2800", "shows as blank"),
            ("\u0301", "on no letter"),
            ("Seat 2", "label the table shows for a seat"),
            ("You", "label the table shows for a seat"),
            ("Seat 3 (strong bot)", "label the table shows for a seat"),
            ("Cy (random bot)", "reads as a bot's"),
        ):
            wa.send(json.dumps({"type": "name", "name": bad}))
            msg = refusal(wa)
            assert msg["code"] == "bad-name" and why in msg["message"], (bad, msg)
            assert "\n" not in msg["message"]
        wa.send(json.dumps({"type": "name", "name": "Ann"}))
        state_where(wb, lambda m: m["table"]["seats"][0]["name"] == "Ann")
        wb.send(json.dumps({"type": "name", "name": " ANN "}))  # another seat's name
        msg = refusal(wb)
        assert msg["code"] == "bad-name" and "'ANN' is taken in this room" in msg["message"], msg
        wb.send(json.dumps({"type": "name", "name": "Bo"}))
        state_where(wa, lambda m: m["table"]["seats"][1]["name"] == "Bo")
    play_to_the_end(server, room)
    with connect(server, room["room"], a) as wa:
        wa.send(json.dumps({"type": "name", "name": "Zed"}))
        msg = refusal(wa)
        assert msg["code"] == "not-now" and "the game is over" in msg["message"], msg
        assert "'Zed'" in msg["message"]
    status, record, _ = server.request("GET", f"/rooms/{room['room']}/record")
    assert status == 200 and record["players"] == ["Ann", "Bo", None]


def test_the_message_rate_is_the_seat_s_whatever_its_connections(tmp_path: Path) -> None:
    """The limit on a seat's messages holds across its connections: a client that
    reconnects does not start it again (415 renames were stored in 2 s that way)."""
    limits = {"rate": 0.01, "burst": 4, "max_refused": 50}
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(limits)]
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s:
        room = made(s, {"rules": "standard", "bots": {"1": "basic", "2": "basic"}})
        token = room["seats"][0]["token"]
        accepted = refused = 0
        for k in range(3):  # three connections in turn, three names each
            with connect(s, room["room"], token) as ws:
                state_where(ws, lambda m: True)
                for i in range(3):
                    name = f"Ann {k}{i}"
                    ws.send(json.dumps({"type": "name", "name": name}))
                    # the name just sent (a bot's move may send a state with an earlier one)
                    msg = until(ws, lambda m, name=name: m["type"] == "refused" or (
                        m["type"] == "state" and m["table"]["seats"][0]["name"] == name
                    ))  # fmt: skip
                    if msg["type"] == "refused":
                        assert msg["code"] == "too-fast", msg
                        refused += 1
                    else:
                        accepted += 1
        assert accepted == limits["burst"] and refused == 9 - limits["burst"]


# -- refusals quote what was sent -------------------------------------------------------


def test_a_refused_option_or_frame_quotes_what_was_sent(server: Server) -> None:
    for clock, said in (
        ({"turn": 3600.0001}, "clock.turn: 0.1 to 3600 seconds, not 3600.0001"),
        ({"turn": 0.09999}, "clock.turn: 0.1 to 3600 seconds, not 0.09999"),
        ({"turn": 30, "bank": 86400.5}, "clock.bank: 0 to 86400 seconds, not 86400.5"),
        ({"turn": 30, "de\nlay": 1}, "clock: 'de\\nlay' is an unknown member"),
    ):
        status, answer = create(server, {"rules": "standard", "clock": clock})
        assert status == 400 and said in answer["error"], answer
        assert "\n" not in answer["error"]
    room = made(server, {"rules": "standard", "bots": {"1": "basic", "2": "basic"}})
    with connect(server, room["room"]) as ws:
        for hand, said in ((0, "not the number 0"), ("x", "not the text 'x'"), (1.5, "1.5")):
            ws.send(json.dumps({"type": "review", "hand": hand}))
            msg = refusal(ws)
            assert msg["code"] == "bad-frame" and said in msg["message"], msg


# -- the rematch ---------------------------------------------------------------------------


def test_a_rematch_takes_only_the_seats_that_asked(server: Server) -> None:
    """One seat's "Play again" makes the next room and takes that seat there; the other
    seat is told who asked, is not sent the new room, and the new game waits for it (no
    clock plays a seat whose player did not ask); once it asks, it goes there too."""
    body = {"rules": QUICK, "bots": {"2": "basic"}, "clock": {"turn": 0.5, "bank": 0}}
    room = made(server, body)
    a, b = (s["token"] for s in room["seats"])
    play_to_the_end(server, room)
    with (
        connect(server, room["room"], a) as wa,
        connect(server, room["room"], b) as wb,
        connect(server, room["room"]) as watcher,
    ):
        wa.send(json.dumps({"type": "rematch"}))
        mine = state_where(wa, lambda m: m["table"]["next"] is not None)
        nxt = mine["table"]["next"]
        assert mine["table"]["rematch"] == [0]
        theirs = state_where(wb, lambda m: m["table"]["rematch"] == [0])
        assert theirs["table"]["next"] is None  # not sent the new room: it did not ask
        followed = state_where(watcher, lambda m: m["table"]["next"] is not None)
        assert followed["table"]["next"] == nxt
        with connect(server, nxt, a) as new_a, connect(server, nxt) as new_watch:
            st = state_where(new_a, lambda m: True)
            assert st["table"]["started"] is False and st["seq"] == 0
            assert st["clock"]["running"] is None
            # nothing moves in the new room while seat 1 has not asked
            wa.send(json.dumps({"type": "rematch"}))  # (asked again: the same room)
            assert state_where(wa, lambda m: True)["table"]["next"] == nxt
            snapshot = state_where(new_watch, lambda m: True)
            assert snapshot["seq"] == 0 and not snapshot["table"]["seats"][1]["joined"]
            wb.send(json.dumps({"type": "rematch"}))
            told = state_where(wb, lambda m: m["table"]["next"] is not None)
            assert told["table"]["next"] == nxt and told["table"]["rematch"] == [0, 1]
            with connect(server, nxt, b) as new_b:
                assert state_where(new_b, lambda m: m["table"]["started"])["seq"] >= 0


# -- rooms nobody is at ----------------------------------------------------------------------


def _clock_log_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "the clock ran out" in line]


@pytest.mark.slow
def test_a_room_nobody_is_at_counts_as_a_game_of_bots_alone(tmp_path: Path) -> None:
    """A room of people with a short clock, each seat connected once and gone, plays
    itself: it is counted among the games of bots alone (a room of bots alone past the cap
    is refused; a second such room waits for the first, its clock stopped), and its clock's
    moves are not logged one line each."""
    limits = {"max_bot_rooms": 1}
    launcher = [sys.executable, "-m", "table_support", "--limits", json.dumps(limits)]
    people = {
        "rules": "standard",
        "bots": {},
        "clock": {"turn": 0.1, "bank": 0},
    }
    bots = {"rules": "standard", "bots": dict.fromkeys("012", "random")}
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as s:
        first = made(s, people)
        for seat in first["seats"]:
            with connect(s, first["room"], seat["token"]) as ws:
                state_where(ws, lambda m: True)
        with connect(s, first["room"]) as watch:
            state_where(watch, lambda m: m["seq"] >= 8, timeout=300)
        status, answer = create(s, bots)
        assert status == 503 and "games of bots alone" in answer["error"], answer
        second = made(s, people)
        for seat in second["seats"]:
            with connect(s, second["room"], seat["token"]) as ws:
                state_where(ws, lambda m: True)
        deadline = time.monotonic() + 60
        while "its clock waits" not in s.log():
            assert time.monotonic() < deadline, s.log()[-2000:]
            time.sleep(0.1)
        assert second["room"] in next(
            line for line in s.log().splitlines() if "its clock waits" in line
        )
        with connect(s, second["room"]) as watch:
            assert state_where(watch, lambda m: True)["seq"] == 0
        with connect(s, first["room"]) as watch:
            state_where(watch, lambda m: m["seq"] >= 12, timeout=300)
        log = s.log()
    lines = _clock_log_lines(log)
    # one line as each seat went to the clock, not one a move
    assert len([x for x in lines if first["room"] in x]) <= 3, lines
    assert not re.search(r"Traceback|Exception in ASGI", log), log[-3000:]


def test_the_moves_of_a_room_nobody_is_at_wait_for_those_where_a_person_waits(
    tmp_path: Path,
) -> None:
    """In-process: every decision asked of the bot pool is marked urgent (a person waits)
    only while a person is at the room: a room whose people all left, played by the clock,
    asks for its moves as a room of bots alone does, and its bots keep no pace."""
    from moonrules.table.botpool import BotPool
    from moonrules.table.rooms import Table, TableLimits
    from moonrules.table.storage import Storage

    class Tab:
        def __init__(self, seat: int | None) -> None:
            self.seat = seat

        def send_state(self, text: str) -> None:
            pass

        def send(self, text: str) -> bool:
            return True

        def disconnect(self, code: int, reason: str) -> None:
            pass

    storage = Storage(tmp_path / "t.db")
    bots = BotPool(quick_workers=1, slow_workers=1)
    table = Table(storage, bots, TableLimits(bot_pace=0.0))
    asked: list[tuple[str, bool]] = []
    decide = bots.decide

    async def watched(level: str, v: Any, seed: str, *, urgent: bool = False) -> Any:
        asked.append((seed, urgent))
        return await decide("basic", v, seed, urgent=urgent)

    async def main() -> None:
        bots.decide = watched  # type: ignore[method-assign,assignment]
        try:
            body = {"rules": "standard", "bots": {"2": "basic"},
                    "clock": {"turn": 0.1, "bank": 0.0}}  # fmt: skip
            room = await table.room((await table.create(body)).room)
            assert room is not None
            tabs = [Tab(0), Tab(1)]
            for tab in tabs:
                await table.join(room, tab)
            deadline = time.monotonic() + 60
            while not any("/clock/" in seed for seed, _ in asked):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
            assert all(urgent for _, urgent in asked)  # the people were there
            for tab in tabs:
                table.leave(room, tab)
            gone = len(asked)
            while len(asked) < gone + 8:
                assert time.monotonic() < deadline + 240
                await asyncio.sleep(0.02)
            later = asked[gone + 1 :]  # (one move may have been asked as they left)
            assert later and not any(urgent for _, urgent in later), later
            assert table.bot_games() == 1 and room.plays_itself
            await table.join(room, Tab(0))  # a person back: urgent again
            assert room.attended and not room.plays_itself
        finally:
            await table.close()
            bots.close()
            storage.close()

    asyncio.run(main())
