"""The players' help (hints, claims, reviews) cannot starve play.

The table in-process, its bot pool's real worker processes: the ``strong`` bot (the hints'
in a pool without ``learned``) is one that thinks until the test lets it go
(``table_support.StuckBot``), the other seats' bots think in the same ``slow`` pool, of one
worker. A hint being worked out never holds up a bot's move (help has workers of its own); a
hint whose connection closes is stopped in its worker, which goes on to the next job (it is
not killed); the help asked from one address, and in all, is capped; a seat's interval
between hints holds across its connections. With numpy installed the table's own pool has
``learned``, and a hint is its choice, named, with bidding advice over the trumps it weighs.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import pytest

from moonrules import Phase, legal_actions, view
from moonrules.bots import knowledge
from moonrules.bots.basic import best_trumps
from moonrules.bots.match import BOTS
from moonrules.rules.tiles import mask_of
from moonrules.table.wire import action_json

pytest.importorskip("starlette")


class Tab:
    """A seat's connection held in the test's hand."""

    def __init__(self, seat: int | None, address: str = "") -> None:
        self.seat = seat
        self.address = address
        self.sent: list[str] = []

    def send_state(self, text: str) -> None:
        pass

    def send(self, text: str) -> bool:
        self.sent.append(text)
        return True

    def disconnect(self, code: int, reason: str) -> None:
        pass


async def _until(test: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_the_hints_bot_is_learned_where_the_pool_has_it_else_strong() -> None:
    from moonrules.table.botpool import DEFAULT_BOTS, BotSpec, hint_bot

    without = {k: v for k, v in DEFAULT_BOTS.items() if k != "learned"}
    assert hint_bot(without) == ("strong", DEFAULT_BOTS["strong"])
    assert hint_bot({"basic": BotSpec(BOTS["basic"])}) == ("strong", DEFAULT_BOTS["strong"])
    learned = BotSpec(BOTS["learned"], "slow")
    assert hint_bot({**without, "learned": learned}) == ("learned", learned)
    # the table's own bots: learned when numpy, which reads its models, is installed
    has_numpy = importlib.util.find_spec("numpy") is not None
    assert hint_bot(DEFAULT_BOTS)[0] == ("learned" if has_numpy else "strong")


def test_a_hint_names_the_learned_bot_and_gives_its_advice_in_the_auction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With numpy installed, a real table's hint (its help worker) is the ``learned`` bot's
    choice, named in the message, and in the auction carries bidding advice over the trumps
    ``learned`` weighs (``auction_value.CANDIDATES``)."""
    pytest.importorskip("numpy")
    from moonrules.bots.auction_value import CANDIDATES
    from moonrules.table.botpool import DEFAULT_BOTS, BotPool
    from moonrules.table.rooms import Table, TableLimits
    from moonrules.table.storage import Storage

    assert "learned" in DEFAULT_BOTS
    storage = Storage(tmp_path / "t.db")
    pool = BotPool(DEFAULT_BOTS, quick_workers=1, slow_workers=1)
    table = Table(storage, pool, TableLimits(bot_pace=0.0))

    async def main() -> None:
        try:
            assert await asyncio.to_thread(pool.wait_ready)
            # three people: the others pass until seat 0 is to call, still in the auction
            room = await table.room((await table.create({"rules": "standard"})).room)
            assert room is not None
            for seat in range(3):
                await table.join(room, Tab(seat))
            await _until(lambda: room.started, "the game started")
            while room.state.to_act != 0:
                assert await table.act(room, room.state.to_act, "pass") is None
            assert room.state.phase is Phase.BIDDING
            seq = room.seq
            hint = await table.hint(room, 0)
            assert hint is not None and hint["type"] == "hint", hint
            assert hint["bot"] == "learned" and hint["seq"] == seq
            assert hint["action"] in [action_json(a) for a in legal_actions(room.state)]
            advice = hint["advice"]
            assert isinstance(advice, dict) and advice["samples"] > 0 and advice["bids"]
            assert all(0 <= b["p_make"] <= 1 for b in advice["bids"])
            seen = view(room.state, 0)
            ranked = best_trumps(mask_of(seen.hand), seen.rules, knowledge(seen).unseen)
            weighed = {t.to_json() for _, t in ranked[:CANDIDATES]}
            assert {b["trump"] for b in advice["bids"]} <= weighed
            assert json.dumps(hint)  # as it is sent
        finally:
            await table.close()
            pool.close()
            storage.close()

    asyncio.run(main())


def _table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **limits: Any) -> Any:
    from table_support import StuckBot

    from moonrules.table.botpool import BotPool, BotSpec
    from moonrules.table.rooms import Table, TableLimits
    from moonrules.table.storage import Storage

    monkeypatch.setenv("MOONRULES_TEST_RELEASE", str(tmp_path / "release"))
    bots = {"basic": BotSpec(BOTS["basic"], "slow"), "strong": BotSpec(StuckBot, "slow")}
    storage = Storage(tmp_path / "t.db")
    pool = BotPool(bots, quick_workers=1, slow_workers=1)
    return Table(storage, pool, TableLimits(bot_pace=0.0, **limits)), pool, storage


def test_a_hint_never_holds_up_a_bot_and_a_closed_one_spares_its_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, pool, storage = _table(tmp_path, monkeypatch)

    async def main() -> None:
        try:
            # the workers ready before any bot is asked (as a server waits for them before it
            # serves): wait_ready reads the workers' pipes from a thread, a bot's move from
            # the event loop, and the two must not read one pipe at once
            assert await asyncio.to_thread(pool.wait_ready)
            body = {"rules": "standard", "bots": {"1": "basic", "2": "basic"}}
            room = await table.room((await table.create(body)).room)
            assert room is not None
            await table.join(room, Tab(0))
            await _until(lambda: room.state.to_act == 0, "seat 0's turn")
            bots = set(pool.pids)
            # a hint that thinks until let go, asked as a connection asks it (the help's
            # worker starts with the first help asked)
            hint = asyncio.ensure_future(table.hint(room, 0))
            thinking = tmp_path / "release.thinking"
            await _until(thinking.exists, "the hint being worked out in the help's worker")
            pids = set(pool.pids)
            assert len(pids) == len(bots) + 1 and pool.thinking == 1
            seq = room.seq
            # the seat's call (or, after a bot's 21 closed the auction, its play)
            first = action_json(legal_actions(room.state)[0])
            assert await table.act(room, 0, first) is None
            # the bots of the room move meanwhile, in the slow pool's one worker
            await _until(lambda: room.seq >= seq + 2, "the bots' moves while the hint thinks")
            assert not hint.done()
            # the connection closes: the hint is cancelled in its worker, not killed
            hint.cancel()
            with pytest.raises(asyncio.CancelledError):
                await hint
            await _until(lambda: pool.cancelled == 1, "the cancelled hint's worker back")
            assert set(pool.pids) == pids
            assert table.help.total == 0 and not table.help.by_address
        finally:
            (tmp_path / "release").touch()
            await table.close()
            pool.close()
            storage.close()

    asyncio.run(main())


def test_help_is_capped_per_address_and_in_all_and_hints_keep_their_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, pool, storage = _table(
        tmp_path, monkeypatch, max_address_help=1, max_help=2, hint_every=600.0
    )

    async def main() -> None:
        try:
            rooms = []
            for _ in range(4):
                body = {"rules": "standard", "bots": {"1": "basic", "2": "basic"}}
                room = await table.room((await table.create(body)).room)
                assert room is not None
                await table.join(room, Tab(0))
                rooms.append(room)
            for room in rooms:
                await _until(lambda r=room: r.state.to_act == 0, "seat 0's turn")
            first = asyncio.ensure_future(table.hint(rooms[0], 0, "203.0.113.1"))
            await _until(lambda: table.help.total == 1, "the first hint counted")
            same = await table.hint(rooms[1], 0, "203.0.113.1")
            assert same is not None and same["code"] == "too-fast", same
            assert "from your address" in same["message"]
            other = asyncio.ensure_future(table.hint(rooms[2], 0, "198.51.100.7"))
            await _until(lambda: table.help.total == 2, "the second hint counted")
            full = await table.hint(rooms[3], 0, "192.0.2.9")
            assert full is not None and full["code"] == "unavailable", full
            assert "its most" in full["message"]
            (tmp_path / "release").touch()
            for task in (first, other):
                answer = await task
                assert answer is not None and answer["type"] == "hint", answer
            assert table.help.total == 0
            # the seat's interval holds whatever connection asks next
            again = await table.hint(rooms[0], 0, "203.0.113.1")
            assert again is not None and again["code"] == "too-fast", again
            assert "one hint every 600 s" in again["message"]
        finally:
            (tmp_path / "release").touch()
            await table.close()
            pool.close()
            storage.close()

    asyncio.run(main())


async def _to_play(table: Any, room: Any) -> None:
    """Seat 0 passes (or takes its first legal action) until its turn in play."""
    from moonrules import Phase, legal_actions
    from moonrules.table.wire import action_json

    deadline = time.monotonic() + 120
    while not (room.state.phase is Phase.PLAY and room.state.to_act == 0):
        assert time.monotonic() < deadline, "seat 0 never got a turn in play"
        if room.state.to_act == 0:
            actions = legal_actions(room.state)
            pick = next((a for a in actions if action_json(a) == "pass"), actions[0])
            await table.act(room, 0, action_json(pick))
        await asyncio.sleep(0.02)


async def _claim(table: Any, room: Any, tab: Tab) -> dict[str, Any]:
    """Seat 0 claims every trick left; the answer its connection is sent."""
    tab.sent.clear()
    await table.receive(room, tab, '{"type": "claim", "tricks": null}')
    await _until(lambda: any('"type":"state"' not in t for t in tab.sent), "the answer")
    answer: dict[str, Any] = json.loads(next(t for t in tab.sent if '"type":"state"' not in t))
    return answer


def _claims_table(tmp_path: Path, every: float) -> Any:
    from moonrules.table.botpool import BotPool
    from moonrules.table.rooms import Table, TableLimits
    from moonrules.table.storage import Storage

    storage = Storage(tmp_path / "t.db")
    pool = BotPool(quick_workers=1, slow_workers=1)
    return Table(storage, pool, TableLimits(bot_pace=0.0, claim_every=every)), pool, storage


def test_a_seat_claims_once_an_interval_whichever_connection_asks(tmp_path: Path) -> None:
    """A seat claims at most once every ``claim_every`` seconds, counted in the room: a
    connection that reconnects to claim again at once is refused."""
    table, pool, storage = _claims_table(tmp_path, 600.0)

    async def main() -> None:
        try:
            body = {"rules": "standard", "bots": {"1": "basic", "2": "basic"}}
            room = await table.room((await table.create(body)).room)
            assert room is not None
            tab = Tab(0, "203.0.113.1")
            await table.join(room, tab)
            await _to_play(table, room)
            first = await _claim(table, room, tab)
            assert first["type"] == "notice" or first["code"] in ("claim", "not-now"), first
            if room.state.to_act == 0 and first["type"] == "refused":
                await table.act(room, 0, room.legal_for(0)[0])  # a new position
            await _to_play(table, room)
            table.leave(room, tab)
            back = Tab(0, "203.0.113.1")  # the seat reconnects
            await table.join(room, back)
            soon = await _claim(table, room, back)
            assert soon["code"] == "too-fast" and "one claim every 600 s" in soon["message"]
        finally:
            await table.close()
            pool.close()
            storage.close()

    asyncio.run(main())


def test_a_claim_refused_at_a_position_is_not_searched_for_again(tmp_path: Path) -> None:
    """Asked again at the same position (seat and count), a refused claim is answered from
    the room's cache: no new search in a worker."""
    table, pool, storage = _claims_table(tmp_path, 0.0)
    searches: list[str] = []
    run = pool.run

    async def counted(where: str, fn: Any, args: Any, **kw: Any) -> Any:
        if fn.__name__ == "claim":
            searches.append(where)
        return await run(where, fn, args, **kw)

    async def main() -> None:
        pool.run = counted
        try:
            body = {"rules": "standard", "bots": {"1": "basic", "2": "basic"}}
            room = await table.room((await table.create(body)).room)
            assert room is not None
            tab = Tab(0, "203.0.113.1")
            await table.join(room, tab)
            for _ in range(8):  # until a claim is refused (most are, early in a hand)
                await _to_play(table, room)
                before = len(searches)
                answer = await _claim(table, room, tab)
                if answer["type"] == "refused" and answer["code"] == "claim":
                    assert len(searches) == before + 1
                    assert await _claim(table, room, tab) == answer
                    assert len(searches) == before + 1  # from the cache
                    assert table.help.total == 0
                    return
            pytest.skip("no claim was refused in eight turns")
        finally:
            await table.close()
            pool.close()
            storage.close()

    asyncio.run(main())


def _sleeps(seconds: float) -> str:
    """A job that works for ``seconds`` (a search that does not end soon), then answers."""
    time.sleep(seconds)
    return "done"


def test_a_job_cancelled_before_its_worker_takes_it_up_is_answered_cancelled() -> None:
    """The server may cancel a job (its number on the cancel pipe, then the signal) before
    the worker has read it: the worker answers it ``cancelled`` as it starts, not after
    working it out (which would cost the worker its life when the grace runs out)."""
    import multiprocessing
    import os

    from moonrules.table import botpool

    if botpool.CANCEL_SIGNAL is None:
        pytest.skip("no signal to cancel a job with on this system")
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    their_cancels, cancels = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=botpool._work, args=(theirs, their_cancels), daemon=True)
    worker.start()
    try:
        assert ours.poll(60) and ours.recv() == "ready"
        assert worker.pid is not None
        cancels.send(1)  # job 1 cancelled before it is sent
        os.kill(worker.pid, botpool.CANCEL_SIGNAL)
        time.sleep(0.2)  # the signal is handled while the worker waits for a job
        ours.send((1, _sleeps, (60.0,)))
        assert ours.poll(20), "the cancelled job was worked out instead of answered at once"
        assert ours.recv() == (False, "cancelled")
        ours.send((2, _sleeps, (0.0,)))  # and the worker takes the next job
        assert ours.poll(20) and ours.recv() == (True, "done")
    finally:
        worker.kill()
        worker.join(5)
