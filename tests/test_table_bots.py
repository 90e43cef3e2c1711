"""Bots think off the event loop: a strong bot thinking never holds up another room.

The server's ``strong`` bot is replaced by one that thinks until the test lets it stop
(``table_support.StuckBot``: no clock involved). While it thinks in one room, a whole
game is played in another room (a person against quick bots) over real WebSockets, and
the first room is still waiting for its bot; let go, the bot moves. The other room's game
is played to a target of 7, so that it lasts a hand or a few.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import attrs
import pytest
from table_support import Player, Server, connect, next_state

from moonrules import STANDARD
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def test_a_strong_bot_thinking_delays_no_other_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = tmp_path / "release"
    monkeypatch.setenv("MOONRULES_TEST_RELEASE", str(release))
    launcher = [sys.executable, "-m", "table_support", "--stuck"]
    with Server(tmp_path / "table.sqlite3", launcher=launcher) as server:
        thinking = server.create("standard", {"0": "strong", "1": "strong", "2": "strong"})
        with connect(server, thinking["room"]) as watch:
            first = next_state(watch)
            assert first["seq"] == 0 and first["table"]["started"]
            _, health, _ = server.request("GET", "/healthz")
            assert health["bots_thinking"] == 1
            # meanwhile a whole game in another room, against quick bots
            short = rules_json(attrs.evolve(STANDARD, target=7))
            other = server.create(short, {"1": "basic", "2": "random"})
            me = Player(server, other["room"], other["seats"][0]["token"], seed=1)
            me.start()
            me.join(120)
            assert me.error is None
            assert me.last_state is not None and me.last_state["table"]["over"]
            # the strong bot is still thinking: its room has not moved
            _, health, _ = server.request("GET", "/healthz")
            assert health["bots_thinking"] == 1
            with connect(server, thinking["room"]) as again:
                assert next_state(again)["seq"] == 0
            release.touch()
            moved = next_state(watch)
            while moved["seq"] == 0:  # (the states of spectators coming and going first)
                moved = next_state(watch)
            assert moved["seq"] == 1
    assert "Traceback" not in server.log()
    assert json.loads(me.frames[-1])["table"]["over"]


def test_a_room_where_a_person_waits_gets_the_next_worker_first() -> None:
    """With every worker busy, decisions queue: those for rooms where a person sits go
    before every one for rooms of bots alone (each kind in the order asked), so that
    hundreds of bot-only rooms cannot hold up a player; one that gives up leaves its place."""
    import asyncio

    from moonrules.table.botpool import _Slots

    async def main() -> None:
        slots = _Slots(1)
        await slots.acquire(False)  # the one worker, busy
        order: list[str] = []

        async def ask(name: str, urgent: bool) -> None:
            await slots.acquire(urgent)
            order.append(name)
            await asyncio.sleep(0.01)
            slots.release()

        tasks = []
        for name, urgent in [("bots0", False), ("bots1", False), ("person", True)]:
            tasks.append(asyncio.ensure_future(ask(name, urgent)))
            await asyncio.sleep(0)
        gone = asyncio.ensure_future(ask("gone", True))
        await asyncio.sleep(0)
        gone.cancel()
        tasks.append(asyncio.ensure_future(ask("person2", True)))
        await asyncio.sleep(0)
        slots.release()  # the busy worker is free
        await asyncio.gather(*tasks)
        assert order == ["person", "person2", "bots0", "bots1"]
        assert slots.free == 1 and not any(slots.waiting)

    asyncio.run(main())
