"""The table server's capacity work, checked for what it must not change: a broadcast's
texts (the shared parts encoded once) are those of the whole message encoded, and the
database thread's batch without savepoints still lets a failing job fail alone.

Speed itself is measured by ``bench/table.py --paced`` and ``--knee``, never here.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import attrs
import pytest

from moonrules import apply, legal_actions, new_game
from moonrules.records.record import rules_json, to_record
from moonrules.rules.ruleset import PRESETS
from moonrules.table.room import Room, SharedParts
from moonrules.table.storage import RoomRow, Step, Storage
from moonrules.table.wire import encode


class Seat:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send_state(self, text: str) -> None:
        self.texts.append(text)

    def send(self, text: str) -> bool:
        return True

    def disconnect(self, code: int, reason: str) -> None:
        pass


def room_of(preset: str, target: int | None = None, seed: int | None = None) -> Room:
    rules = PRESETS[preset]
    if target is not None:
        rules = attrs.evolve(rules, target=target)
    state = new_game(rules, seed=seed)
    record = to_record(state)
    row = RoomRow(
        id="r",
        created=0.0,
        rules=rules_json(rules),
        seats=("human",) * rules.players,
        tokens=(None,) * rules.players,
        bot_seed="seed",
        initial=record,
        record=record,
        seq=0,
        joined=frozenset(range(rules.players)),
        over=False,
    )
    return Room(row, state)


@pytest.mark.parametrize("preset", ["standard", "partnership"])
def test_every_broadcast_text_is_its_message_encoded_whole(preset: str) -> None:
    room = room_of(preset, target=7, seed=3)  # a game to 7: a few hands to its end
    seats = [Seat(s) for s in range(room.rules.players)] + [Seat(None)]
    for x in seats:
        room.listeners.add(x)
        if x.seat is not None:
            room.active[x.seat] = x
    rng = random.Random(preset)
    hands_seen = set()
    while not room.state.is_over:
        st = room.state
        room.state = apply(st, rng.choice(legal_actions(st)), seat=st.to_act)
        room.seq += 1
        room.broadcast()
        hands_seen.add(room.state.hand_number)
        for x in seats:
            want = encode(room.state_message(x.seat, x.seat is not None))
            assert x.texts[-1] == want
            assert json.loads(x.texts[-1])["sheet"] == room.sheet_json()
    assert len(hands_seen) > 1  # sheets and last hands that changed along the way


def test_a_shared_part_is_not_spliced_where_its_mark_occurs_twice() -> None:
    parts = SharedParts()
    message = {"type": "state", "view": {"x": "\x00sheet\x00"}, "sheet": [1, {"a": "é"}]}
    assert parts.encode(message) == encode(message)
    again = {"type": "state", "view": {}, "sheet": message["sheet"], "last_hand": None}
    assert parts.encode(again) == encode(again)


def test_a_job_that_fails_in_a_batch_fails_alone(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "t.sqlite3", synchronous="NORMAL")
    try:
        room = room_of("standard")

        async def run() -> list[BaseException | None]:
            await storage.create_room(room.row, bot_turn=False)
            # one batch: actions 1 to 5, and a second action 3 that the room is past
            steps = [Step(k, 0, "pass") for k in (1, 2, 3, 4, 5)]
            calls = [storage.append("r", s, None, over=False, bot_turn=False) for s in steps]
            calls.insert(3, storage.append("r", Step(3, 1, "pass"), None, over=False,
                                           bot_turn=False))  # fmt: skip
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
            return [o if isinstance(o, BaseException) else None for o in outcomes]

        outcomes = asyncio.run(run())
        assert [type(o) for o in outcomes] == [
            type(None), type(None), type(None), sqlite3.IntegrityError, type(None), type(None)
        ]  # fmt: skip
        with sqlite3.connect(tmp_path / "t.sqlite3") as db:
            rows = db.execute("SELECT seq, seat FROM actions ORDER BY seq").fetchall()
            assert rows == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]
            assert db.execute("SELECT seq FROM rooms").fetchone() == (5,)
    finally:
        storage.close()
