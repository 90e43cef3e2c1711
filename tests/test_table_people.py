"""The people at a table: names, a seat open in two tabs, hints, claims and the rematch.

A real server in a subprocess, real WebSocket clients on 127.0.0.1. Every frame the tests
receive is valid under the protocol's JSON Schema; a claim's outcome is the rules' own
settlement (:func:`moonrules.apply_claim` on the game as the server stored it).
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from table_support import Player, Server, connect, states_of, validator

from moonrules import STANDARD, apply_claim
from moonrules.analysis.claim import verify_claim
from moonrules.arbitration import check
from moonrules.records import replay
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
pytest.importorskip("websockets")

SERVER_SCHEMA = validator("table/server-message")
CLIENT_SCHEMA = validator("table/client-message")
SHORT = rules_json(attrs.evolve(STANDARD, target=7))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("people") / "table.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def say(ws: Any, message: dict[str, Any]) -> None:
    CLIENT_SCHEMA.validate(message)
    ws.send(json.dumps(message))


def receive(ws: Any, timeout: float = 30) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    SERVER_SCHEMA.validate(msg)
    return msg


def until(ws: Any, test: Any, timeout: float = 30) -> dict[str, Any]:
    """The first message from ``ws`` that passes ``test``."""
    deadline = time.monotonic() + timeout
    while True:
        msg = receive(ws, max(0.1, deadline - time.monotonic()))
        if test(msg):
            return msg


def state_where(ws: Any, test: Any, timeout: float = 30) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and test(m), timeout)


def refusal(ws: Any) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "refused")


def test_a_name_per_seat_checked_stored_and_shown(server: Server) -> None:
    room = server.create("standard", {"2": "basic"})
    a, b = (s["token"] for s in room["seats"])
    with connect(server, room["room"], a) as wa, connect(server, room["room"], b) as wb:
        say(wa, {"type": "name", "name": "  Ann   <b>Lee</b> "})
        st = state_where(wb, lambda m: m["table"]["seats"][0]["name"] is not None)
        # trimmed, runs of spaces as one; markup is kept as text (the page shows it as text)
        assert st["table"]["seats"][0]["name"] == "Ann <b>Lee</b>"
        assert st["table"]["seats"][1]["name"] is None
        for bad, why in (("a\u0007b", "control"), ("x" * 25, "at most 24"), ("   ", "letter"),
                         (7, "text"), ("a\u202eb", "control")):  # fmt: skip
            ws_send = {"type": "name", "name": bad}
            wa.send(json.dumps(ws_send))
            msg = refusal(wa)
            assert msg["code"] == "bad-name" and why in msg["message"], (bad, msg)
        say(wb, {"type": "name", "name": "Bo"})
        state_where(wa, lambda m: m["table"]["seats"][1]["name"] == "Bo")
    status, info, _ = server.request("GET", f"/api/rooms/{room['room']}")
    assert status == 200 and [x["name"] for x in info["seats"]] == ["Ann <b>Lee</b>", "Bo", None]
    with sqlite3.connect(server.db) as c:
        (names,) = c.execute("SELECT names FROM rooms WHERE id = ?", (room["room"],)).fetchone()
    assert json.loads(names) == ["Ann <b>Lee</b>", "Bo", None]


def test_a_seat_open_in_two_tabs_is_played_in_one(server: Server) -> None:
    """The newest tab plays the seat; the older is told and only watches, until it takes
    the seat back; when the playing tab closes, the other plays again."""
    room = server.create("standard", {"1": "basic", "2": "basic"})
    token = room["seats"][0]["token"]
    with connect(server, room["room"], token) as old:
        first = state_where(old, lambda m: True)
        assert first["active"] is True and first["tabs"] == 1
        with connect(server, room["room"], token) as new:
            st = state_where(new, lambda m: True)
            assert st["active"] is True and st["tabs"] == 2
            told = state_where(old, lambda m: not m["active"])
            assert told["tabs"] == 2 and told["legal"] == []
            # the older tab may not act, hint or claim
            for message in ({"type": "act", "action": "pass"}, {"type": "hint"},
                            {"type": "claim"}):  # fmt: skip
                say(old, message)
                msg = refusal(old)
                assert msg["code"] == "elsewhere" and "another tab" in msg["message"], msg
            # it takes the seat back: the newer one now watches
            say(old, {"type": "take-seat"})
            state_where(old, lambda m: m["active"])
            back = state_where(new, lambda m: not m["active"])
            assert back["legal"] == []
            say(new, {"type": "act", "action": "pass"})
            assert refusal(new)["code"] == "elsewhere"
        # the newer tab closed: the older plays, alone
        alone = state_where(old, lambda m: m["tabs"] == 1)
        assert alone["active"] is True


def to_my_turn(ws: Any, phase: str | None = None, timeout: float = 60) -> dict[str, Any]:
    """The next state in which the seat is to act (in ``phase``, if given): a turn in another
    phase is played (its first legal action) so that the game reaches one, as when a bot's
    21 ends the auction before the seat calls."""
    deadline = time.monotonic() + timeout
    while True:
        st = state_where(ws, lambda m: bool(m["legal"]), max(0.1, deadline - time.monotonic()))
        if phase is None or st["view"]["phase"] == phase:
            return st
        say(ws, {"type": "act", "action": st["legal"][0]})


def test_a_hint_on_the_players_turn_rate_limited_and_refused_where_off(server: Server) -> None:
    room = server.create("standard", {"1": "basic", "2": "basic"})
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        st = to_my_turn(ws, "bidding")
        say(ws, {"type": "hint"})
        hint = until(ws, lambda m: m["type"] in ("hint", "refused"), 60)
        assert hint["type"] == "hint", hint
        assert hint["seq"] == st["seq"] and hint["action"] in st["legal"]
        advice = hint["advice"]  # bidding advice's chances, for a call
        assert advice is not None and advice["samples"] > 0 and advice["bids"]
        assert all(0 <= b["p_make"] <= 1 for b in advice["bids"])
        assert {b["bid"] for b in advice["bids"]} <= set(st["table"]["bids"])
        say(ws, {"type": "hint"})  # at once again: too soon
        msg = refusal(ws)
        assert msg["code"] == "too-fast" and "one hint every" in msg["message"], msg
        say(ws, {"type": "claim"})  # a claim is made in play, not in the auction
        msg = refusal(ws)
        assert msg["code"] == "not-now" and msg["rule"] == "CLAIM-1", msg
    off = create(server, "standard", {"1": "basic", "2": "basic"}, hints=False, claims=False)
    with connect(server, off["room"], off["seats"][0]["token"]) as ws:
        st = to_my_turn(ws)
        assert st["table"]["hints"] is False and st["table"]["claims"] is False
        for message, what in (({"type": "hint"}, "hints"), ({"type": "claim"}, "claims")):
            say(ws, message)
            msg = refusal(ws)
            assert msg["code"] == "off", msg
            assert msg["message"] == f"{what} are turned off in this room (as in a tournament)"


def create(server: Server, rules: Any, bots: dict[str, str], **options: bool) -> Any:
    body = json.dumps({"rules": rules, "bots": bots, **options}).encode()
    status, answer, _ = server.request(
        "POST", "/api/rooms", body, {"Content-Type": "application/json"}
    )
    assert status == 201, answer
    return answer


@pytest.fixture(scope="module")
def claims_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose seats may claim again at once (no interval between claims)."""
    launcher = [sys.executable, "-m", "table_support", "--limits", '{"claim_every": 0}']
    s = Server(tmp_path_factory.mktemp("claims") / "table.sqlite3", launcher=launcher)
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def test_claims_are_ruled_as_the_library_rules_them(claims_server: Server) -> None:
    server = claims_server
    """The seat claims on its turn in play: the server's answer is the rules' own settlement
    of the claim on the stored game (:func:`moonrules.apply_claim`). A claim that holds ends
    the hand with the claimed tricks to the claimant's side and the rest to the other team,
    every listener told; the stored record checks and scores it. One that does not is
    refused with CLAIM-1 in words that name no tile and no count, and play goes on.
    Partnership hands are played until both outcomes (and a claim of some tricks) were seen."""
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    partial = 0
    rooms = 0
    while not (seen[True] >= 2 and seen[False] and partial):
        rooms += 1
        assert rooms <= 6, (seen, partial)
        room = server.create("partnership", {"1": "random", "2": "random", "3": "random"})
        with connect(server, room["room"], room["seats"][0]["token"]) as ws:
            while not (seen[True] >= 2 and seen[False] and partial):
                st = until(
                    ws, lambda m: m["type"] == "state" and (m["legal"] or m["table"]["over"]), 90
                )
                if st["table"]["over"]:
                    break
                v = st["view"]
                if v["phase"] != "play" or len(v["tricks"]) < 2:
                    action = "pass" if "pass" in st["legal"] else rng.choice(st["legal"])
                    say(ws, {"type": "act", "action": action})
                    continue
                left = 7 - len(v["tricks"])
                # some of the tricks left until such a claim has held (one of them nearly
                # always holds), then any claim: the deals and the bots' moves differ from run
                # to run, so what is claimed must not wait on luck
                # (a claim is of 1 to the tricks left)
                tricks = rng.choice([*([] if not partial else [None]), 1, max(1, left - 1)])
                state = states_of(server.db, room["room"])[st["seq"]]
                k = left if tricks is None else tricks
                holds = verify_claim(state, 0, k).holds
                say(ws, {"type": "claim", "tricks": tricks})
                answer = until(ws, lambda m: m["type"] in ("notice", "refused"), 90)
                if holds:
                    want = apply_claim(state, 0, tricks)
                    assert answer["type"] == "notice" and answer["kind"] == "claim", answer
                    assert answer["seat"] == 0 and "the claim holds (CLAIM-1)" in answer["message"]
                    assert (answer["tricks"], answer["remaining"]) == (k, left)
                    assert answer["tiles"] == [str(t) for t in reversed(state.hands[0])]
                    after = state_where(ws, lambda m, seq=st["seq"]: m["seq"] > seq, 90)
                    assert after["seq"] == st["seq"] + 1  # the claim is one step
                    ended = after["last_hand"]
                    assert ended is not None and ended["number"] == st["hand_number"]
                    done = want.hand if want.is_over else want.history[-1]
                    assert ended["tricks_won"] == list(done.tricks_won)
                    assert after["view"]["scores"] == list(want.scores)
                    # the stored steps replay to the rules' state, and the record checks
                    assert states_of(server.db, room["room"])[after["seq"]] == want
                    with sqlite3.connect(server.db) as db:  # the record the server stored
                        (text,) = db.execute(
                            "SELECT record FROM rooms WHERE id = ?", (room["room"],)
                        ).fetchone()
                    record = json.loads(text)
                    assert record["hands"][st["hand_number"] - 1]["claim"] == {
                        "seat": 0,
                        "tricks": k,
                    }
                    assert check(record).valid and replay(record).state.scores == want.scores
                    partial += k < left
                    seen[holds] += 1
                    if after["table"]["over"]:  # the claim ended the game: no state follows
                        break
                    if after["legal"]:  # the seat's turn already (the next auction): take it
                        action = "pass" if "pass" in after["legal"] else after["legal"][0]
                        say(ws, {"type": "act", "action": action})
                    continue
                else:
                    assert answer["type"] == "refused" and answer["code"] == "claim", answer
                    assert answer["rule"] == "CLAIM-1" and answer["legal"] == st["legal"]
                    assert answer["message"] == (
                        "your claim does not hold: the others have a line of play that defeats "
                        "it (CLAIM-1); play goes on"
                    )
                    say(ws, {"type": "act", "action": rng.choice(st["legal"])})
                    seen[holds] += 1


def test_a_claim_of_some_tricks_with_three_players_is_refused(server: Server) -> None:
    """With three players a claim is of every trick left (CLAIM-1)."""
    rng = random.Random(3)
    room = server.create("standard", {"1": "random", "2": "random"})
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        while True:
            st = until(ws, lambda m: m["type"] == "state" and (m["legal"] or m["table"]["over"]))
            assert not st["table"]["over"]
            if st["view"]["phase"] == "play" and len(st["view"]["tricks"]) < 6:
                break
            action = "pass" if "pass" in st["legal"] else rng.choice(st["legal"])
            say(ws, {"type": "act", "action": action})
        say(ws, {"type": "claim", "tricks": 1})
        answer = until(ws, lambda m: m["type"] in ("notice", "refused"), 60)
        assert answer["type"] == "refused" and answer["code"] == "claim", answer
        assert answer["rule"] == "CLAIM-1"
        assert "with three players a claim is of all the remaining tricks" in answer["message"]


def test_play_again_makes_a_room_with_the_same_seats_and_takes_everyone_there(
    server: Server,
) -> None:
    room = create(server, SHORT, {"1": "random", "2": "basic"}, hints=False)
    token = room["seats"][0]["token"]
    with connect(server, room["room"], token) as ws:
        say(ws, {"type": "name", "name": "Ann"})
        state_where(ws, lambda m: m["table"]["seats"][0]["name"] == "Ann")
        say(ws, {"type": "rematch"})
        msg = refusal(ws)
        assert msg["code"] == "not-now" and "once the game is over" in msg["message"]
    me = Player(server, room["room"], token, seed=3, mischief=0, pass_rate=0.9)
    me.start()
    me.join(120)
    assert me.error is None and me.last_state is not None and me.last_state["table"]["over"]
    with connect(server, room["room"]) as watcher, connect(server, room["room"], token) as ws:
        say(ws, {"type": "rematch"})
        st = state_where(ws, lambda m: m["table"]["next"] is not None)
        nxt = st["table"]["next"]
        assert (
            state_where(watcher, lambda m: m["table"]["next"] is not None)["table"]["next"] == nxt
        )
        say(ws, {"type": "rematch"})  # asked again: the same room
        assert state_where(ws, lambda m: True)["table"]["next"] == nxt
    # the new room: the same rules, seats, names and options; the same link's token plays it
    with connect(server, nxt, token) as ws:
        st = state_where(ws, lambda m: True)
        t = st["table"]
        assert t["seat"] == 0 and t["rules"] == SHORT and st["seq"] == 0 and not t["over"]
        assert [(x["player"], x["name"]) for x in t["seats"]] == [
            ("human", "Ann"), ("random", None), ("basic", None)
        ]  # fmt: skip
        assert t["hints"] is False and t["claims"] is True and t["next"] is None
    status, info, _ = server.request("GET", f"/api/rooms/{room['room']}")
    assert status == 200 and info["next"] == nxt


def test_a_v2_database_gains_names_options_and_rematches(tmp_path: Path) -> None:
    """A database of schema 2 (before names) is brought to schema 3 in place: its rooms
    have no names and every option on, and take a name."""
    import asyncio

    from moonrules.table.storage import Storage

    db = tmp_path / "table.sqlite3"
    Storage(db).close()
    with sqlite3.connect(db) as c:
        for column in ("names", "options", "next"):
            c.execute(f"ALTER TABLE rooms DROP COLUMN {column}")
        c.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    with Server(db) as s:
        room = s.create("standard", {"1": "basic", "2": "basic"})
        with connect(s, room["room"], room["seats"][0]["token"]) as ws:
            st = state_where(ws, lambda m: True)
            assert st["table"]["hints"] is True and st["table"]["seats"][0]["name"] is None
            say(ws, {"type": "name", "name": "Cy"})
            state_where(ws, lambda m: m["table"]["seats"][0]["name"] == "Cy")
    storage = Storage(db)
    try:
        row = asyncio.run(storage.load(room["room"]))
    finally:
        storage.close()
    assert row is not None and row.names == ("Cy", None, None)


def test_a_claim_of_no_number_of_tricks_is_refused_quoting_it(server: Server) -> None:
    """A claim whose ``tricks`` is no count of the tricks left is refused ``bad-frame``
    quoting the JSON that was sent, with the seat's legal actions; the connection stays
    open, and it costs no claim interval (a claim right after it is checked)."""
    rng = random.Random(5)
    room = server.create("partnership", {"1": "random", "2": "random", "3": "random"})
    with connect(server, room["room"], room["seats"][0]["token"]) as ws:
        while True:
            st = until(ws, lambda m: m["type"] == "state" and (m["legal"] or m["table"]["over"]))
            assert not st["table"]["over"]
            if st["view"]["phase"] == "play":
                break
            action = "pass" if "pass" in st["legal"] else rng.choice(st["legal"])
            say(ws, {"type": "act", "action": action})
        left = 7 - len(st["view"]["tricks"])
        sent = {
            "0": 0,
            str(left + 1): left + 1,
            "-1": -1,
            "1.5": 1.5,
            "1e+300": 1e300,
            "true": True,
            '"3"': "3",
            "[1]": [1],
            '{"a": 1}': {"a": 1},
        }
        for text, value in sent.items():
            ws.send(json.dumps({"type": "claim", "tricks": value}))
            answer = until(ws, lambda m: m["type"] == "refused", 30)
            assert answer["code"] == "bad-frame", answer
            assert answer["message"].endswith(f", not {text}"), answer
            assert answer["legal"] == st["legal"]
        say(ws, {"type": "claim", "tricks": None})
        answer = until(ws, lambda m: m["type"] in ("notice", "refused"), 60)
        assert answer["type"] == "notice" or answer["code"] in ("claim", "too-early"), answer
