"""The review of a finished hand at the table (``moonrules.table.review_at_table``).

The filter first, a pure function: over random games, a seat's view of a hand's review
(while the game goes on) holds no tile the seat did not see in that hand, by the library's
own :func:`moonrules.view` of the seat at every moment of the hand; its decisions are its
own; nothing double dummy that the deal it has not seen decides.

Then a real server in a subprocess and real WebSocket clients on 127.0.0.1: three people
play a hand, two of them ask for its review at once, each gets its own decisions and not
the other's discard; the review is worked out once (one line of the log, one row of the
store); once the game is over every seat and a spectator get the whole table's; after a
restart the review is read from the store, not worked out again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: F401
from table_support import Server, connect, states_of, validator

from moonrules import STANDARD, GameState, Pass, apply, legal_actions, new_game, view
from moonrules.analysis.review import review, review_json
from moonrules.records.record import to_record
from moonrules.records.values import rules_json
from moonrules.table.review_at_table import finished_hand, played_out, seat_review
from moonrules.table.storage import SCHEMA_VERSION, RoomRow, Storage
from moonrules.table.storage_pg import PgStorage

TILE = re.compile(r"^[0-6]-[0-6]$")


def tiles_in(value: Any) -> set[str]:
    """Every tile named anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if TILE.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(tiles_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    return set()


def seen_tiles(states: list[GameState], seat: int, number: int) -> set[str]:
    """The tiles ``seat`` saw in hand ``number``: in its view at every moment of the hand
    (its tiles, the tricks, the widow and discard for the bidder), and the hand's tricks."""
    out: set[str] = set()
    for s in states:
        if s.hand.number != number:
            continue
        v = view(s, seat)
        out |= {str(t) for t in (*v.hand, *v.trick)}
        out |= {str(t) for tr in v.tricks for t in tr.tiles}
        out |= {str(t) for t in (v.widow, v.discard) if t is not None}
    h = finished_hand(states[-1], number)
    assert h is not None
    out |= {str(t) for tr in h.tricks for t in tr.tiles}
    return out


def play_first_hand(preset: str, seed: int, passes: float) -> list[GameState]:
    """Random legal actions from a new game until its first hand ends (passing with
    chance ``passes`` where a pass is legal): the states on the way."""
    rng = random.Random(seed)
    states = [new_game(preset, seed=seed)]
    while finished_hand(states[-1], 1) is None:
        legal = legal_actions(states[-1])
        pick = Pass() if Pass() in legal and rng.random() < passes else rng.choice(legal)
        states.append(apply(states[-1], pick))
    return states


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "partnership", "no-double-blank", "pagat"]),
    seed=st.integers(0, 2**32 - 1),
    passes=st.sampled_from([0.0, 0.6, 1.0]),
)
def test_a_seats_review_shows_no_tile_it_did_not_see(preset: str, seed: int, passes: float) -> None:
    states = play_first_hand(preset, seed, passes)
    end = states[-1]
    h = finished_hand(end, 1)
    assert h is not None
    whole = review_json(review(end, hand=1, samples=0))
    all_played = played_out(h)
    for seat in range(end.rules.players):
        shown = seat_review(whole, seat, over=False, all_played=all_played)
        assert shown is not None and shown["scope"] == "own"
        assert tiles_in(shown) <= seen_tiles(states, seat, 1)
        decisions = shown["hands"][0]["decisions"]
        assert all(d["seat"] == seat for d in decisions)
        assert [p["seat"] for p in shown["players"]] == [seat]
        for d in decisions:
            withheld = d["kind"] == "call" or not all_played
            assert all((a["double_dummy"] is None) == withheld for a in d["alternatives"])
        if h.bidder >= 0 and h.discard >= 0 and seat != h.bidder:
            # the filter is needed: the whole review names the bidder's discard
            discard = str(_tile(h.discard))
            assert discard in tiles_in(whole) and discard not in tiles_in(shown)
    assert seat_review(whole, None, over=False, all_played=all_played) is None
    assert seat_review(whole, None, over=True, all_played=all_played) == {**whole, "scope": "table"}
    assert seat_review(whole, 0, over=True, all_played=all_played) == {**whole, "scope": "table"}


def _tile(index: int) -> Any:
    from moonrules.rules.tiles import TILES

    return TILES[index]


# ---------------------------------------------------------------------------
# The store: SQLite and PostgreSQL alike


def _room(room: str) -> RoomRow:
    state = new_game("standard", seed=5)
    record = to_record(state)
    return RoomRow(room, 1.0, "standard", ("human",) * 3, ("ab" * 32,) * 3, "5eed", record,
                   record, 0, frozenset(), False)  # fmt: skip


async def _reviews_stored(store: Storage | PgStorage) -> list[Any]:
    try:
        await store.create_room(_room("r1"), bot_turn=False)
        out: list[Any] = [await store.load_review("r1", 1)]
        await store.store_review("r1", 1, {"hands": [{"number": 1}], "n": 0.5})
        await store.store_review("r1", 1, {"hands": [], "n": 2})  # worked out once: ignored
        await store.store_review("r1", 2, {"hands": [{"number": 2}]})
        out += [await store.load_review("r1", k) for k in (1, 2, 3)]
        out.append(await store.load_review("r2", 1))
        return out
    finally:
        store.close()


def test_reviews_are_stored_once_a_hand_in_sqlite_and_postgresql(
    tmp_path: Path, postgres_url: str
) -> None:
    lite = asyncio.run(_reviews_stored(Storage(tmp_path / "t.sqlite3")))
    assert lite == [None, {"hands": [{"number": 1}], "n": 0.5}, {"hands": [{"number": 2}]}, None,
                    None]  # fmt: skip
    assert asyncio.run(_reviews_stored(PgStorage(postgres_url))) == lite


def test_a_database_without_reviews_gains_the_table_and_keeps_its_version(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    Storage(path).close()
    with sqlite3.connect(path) as db:  # as a server before reviews left it
        db.execute("DROP TABLE reviews")
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "reviews" not in names
    store = Storage(path)
    try:
        asyncio.run(_reviews_stored(store))
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        (version,) = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        (count,) = db.execute("SELECT count(*) FROM reviews").fetchone()
    assert version == str(SCHEMA_VERSION) and count == 2


# ---------------------------------------------------------------------------
# A real server

pytest.importorskip("starlette")
pytest.importorskip("websockets")

SERVER_SCHEMA = validator("table/server-message")
CLIENT_SCHEMA = validator("table/client-message")
SHORT = rules_json(attrs.evolve(STANDARD, target=7))


def receive(ws: Any, timeout: float) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    SERVER_SCHEMA.validate(msg)
    return msg


def say(ws: Any, message: dict[str, Any]) -> None:
    CLIENT_SCHEMA.validate(message)
    ws.send(json.dumps(message))


class Table:
    """Three people at one room, one connection each, playing random legal moves (seat 0
    bids the lowest bid it may in the first hand, the others pass: seat 0 is its bidder)."""

    def __init__(
        self, conns: list[Any], seed: int, server: Server, watchers: tuple[Any, ...] = ()
    ) -> None:
        self.conns = conns
        self.server = server
        self.watchers = watchers
        """Spectators' connections, read (and what they get dropped) while the game goes on:
        a client that does not read is cut by the server."""
        self.latest: list[dict[str, Any] | None] = [None] * len(conns)
        self.others: list[list[dict[str, Any]]] = [[] for _ in conns]
        self.acted: set[tuple[int, int]] = set()
        self.rng = random.Random(seed)

    def poll(self) -> None:
        for ws in self.watchers:
            with contextlib.suppress(TimeoutError):
                while True:
                    ws.recv(timeout=0)
        for i, ws in enumerate(self.conns):
            while True:
                try:
                    msg = receive(ws, 0.02)
                except TimeoutError:
                    break
                if msg["type"] != "state":
                    if msg["type"] == "refused" and msg["code"] in ("unavailable", "too-fast"):
                        # the server could not take the move now (storage slow on a busy
                        # machine, or a burst): the seat says it again, as a page does
                        time.sleep(0.25)
                        self.acted = {(s, q) for s, q in self.acted if s != i}
                    self.others[i].append(msg)
                    continue
                old = self.latest[i]
                if old is None or msg["seq"] >= old["seq"]:
                    self.latest[i] = msg

    def play_until(self, done: Any, timeout: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.poll()
            first = self.latest[0]
            if first is not None and all(m is not None for m in self.latest) and done(first):
                return first
            for i, m in enumerate(self.latest):
                if m is None or not m["legal"] or (i, m["seq"]) in self.acted:
                    continue
                legal = m["legal"]
                action = self.rng.choice(legal)
                if m["view"]["phase"] == "bidding" and m["hand_number"] == 1:
                    bids = [x for x in legal if x != "pass"]
                    action = min(bids) if i == 0 and bids else "pass" if "pass" in legal else action
                say(self.conns[i], {"type": "act", "action": action})
                self.acted.add((i, m["seq"]))
        where = [(m["seq"], m["legal"]) if m else None for m in self.latest]
        refusals = [[m for m in got if m["type"] == "refused"][-3:] for got in self.others]
        log = self.server.log()[-3000:]
        raise AssertionError(
            f"the game did not get there in time: seats at {where}, refusals {refusals}, "
            f"the server said: {log}"
        )

    def review(self, i: int, hand: int, timeout: float = 120) -> list[dict[str, Any]]:
        """The review messages connection ``i`` gets for ``hand`` until one is ready (or a
        refusal), the states on the way kept."""
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.poll()
            for msg in self.others[i]:
                if msg["type"] == "refused" or (msg["type"] == "review" and msg["hand"] == hand):
                    got.append(msg)
            self.others[i] = []
            if got and (got[-1]["type"] == "refused" or got[-1]["status"] == "ready"):
                return got
        raise AssertionError(f"no review of hand {hand} came: {got}")


def reviewed_lines(server: Server, hand: int) -> int:
    return len(re.findall(rf"hand {hand} reviewed in", server.log()))


def two_seats_ask_at_once(server: Server, table: Table, rid: str) -> tuple[str, dict[int, Any]]:
    """Seats 1 and 0 ask for hand 1's review at once: one job, each its own decisions, the
    bidder's (seat 0's) discard in its own review only. The discard and the reviews."""
    db = server.db
    # two seats ask at once: one job, each its own decisions
    say(table.conns[1], {"type": "review", "hand": 1})
    say(table.conns[0], {"type": "review", "hand": 1})
    got = {i: table.review(i, 1) for i in (0, 1)}
    assert any(g[0]["status"] == "computing" for g in got.values())
    states = states_of(db, rid)
    h = finished_hand(states[-1], 1)
    assert h is not None and h.bidder == 0 and h.discard >= 0
    discard = str(_tile(h.discard))
    shown: dict[int, Any] = {}
    for i, msgs in got.items():
        ready = msgs[-1]
        assert ready["status"] == "ready" and ready["scope"] == "own"
        decisions = ready["review"]["hands"][0]["decisions"]
        assert decisions and all(d["seat"] == i for d in decisions)
        assert tiles_in(ready["review"]) <= seen_tiles(states, i, 1)
        shown[i] = ready["review"]
    kinds = {d["kind"] for d in shown[0]["hands"][0]["decisions"]}
    assert "discard" in kinds and discard in tiles_in(shown[0])
    assert discard not in tiles_in(shown[1])  # the bidder's discard stays hidden
    assert reviewed_lines(server, 1) == 1
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT hand FROM reviews WHERE room = ?", (rid,)).fetchall()
    assert rows == [(1,)]
    return discard, shown


@pytest.mark.slow
def test_each_seat_reviews_its_own_decisions_worked_out_once_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    with Server(db) as server:
        room = server.create(SHORT)
        rid = room["room"]
        tokens = [s["token"] for s in room["seats"]]
        with contextlib.ExitStack() as stack:
            conns = [stack.enter_context(connect(server, rid, t)) for t in tokens]
            watcher = stack.enter_context(connect(server, rid))
            table = Table(conns, 7, server, (watcher,))
            table.play_until(lambda m: m["hand_number"] == 2)
            # a hand not yet ended, and a spectator while the game goes on: refused
            say(conns[1], {"type": "review", "hand": 2})
            assert table.review(1, 2)[-1]["code"] == "not-now"
            conns[1].send(json.dumps({"type": "review", "hand": 0}))
            assert table.review(1, 0)[-1]["code"] == "bad-frame"
            say(watcher, {"type": "review", "hand": 1})
            msg = json.loads(watcher.recv(timeout=30))
            while msg["type"] != "refused":
                msg = json.loads(watcher.recv(timeout=30))
            assert msg["code"] == "not-now" and "spectator" in msg["message"]
            discard, shown = two_seats_ask_at_once(server, table, rid)
            # asked again: ready at once, the same
            say(conns[1], {"type": "review", "hand": 1})
            again = table.review(1, 1)
            assert len(again) == 1 and again[0]["review"] == shown[1]
            # the game's end: the whole table's review, for seats and spectators alike
            table.play_until(lambda m: m["table"]["over"], timeout=300)
            say(conns[1], {"type": "review", "hand": 1})
            whole = table.review(1, 1)[-1]
            assert whole["scope"] == "table"
            seats = {d["seat"] for d in whole["review"]["hands"][0]["decisions"]}
            assert {0, 1} <= seats and discard in tiles_in(whole["review"])
            assert len(whole["review"]["players"]) == 3
            say(watcher, {"type": "review", "hand": 1})
            msg = json.loads(watcher.recv(timeout=30))
            while msg["type"] != "review":
                msg = json.loads(watcher.recv(timeout=30))
            assert msg["scope"] == "table" and msg["review"] == whole["review"]
            assert reviewed_lines(server, 1) == 1
        assert "Traceback" not in server.log()
    # a restart: the review is read from the store, not worked out again
    with Server(db) as server:
        with connect(server, rid) as ws:
            say(ws, {"type": "review", "hand": 1})
            msg = json.loads(ws.recv(timeout=30))
            while msg["type"] != "review":
                msg = json.loads(ws.recv(timeout=30))
        assert msg["status"] == "ready" and msg["review"] == whole["review"]  # at once
        assert reviewed_lines(server, 1) == 0
