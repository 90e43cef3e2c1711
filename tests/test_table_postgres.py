"""The table's PostgreSQL store (:mod:`moonrules.table.storage_pg`) against a real server.

A throwaway PostgreSQL (``tests/postgres_support.py``; skipped, with the reason, when
Debian's server programs or ``psycopg`` are missing) holds the rooms of real games. The store
answers as the SQLite store does, refuses an action stored twice, lets one process own a
room at a time and another take it over after a release, an expiry or the owner's death,
and loses nothing an owner had acknowledged when it is killed with SIGKILL while writing.
The "processes" are real ones: this file run as a script (:func:`main`) plays a room's game
against the database and prints each action once it is stored.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: F401

from moonrules import GameState, apply, legal_actions, new_game
from moonrules.records.record import rules_json, to_record
from moonrules.records.replay import from_record
from moonrules.rules.ruleset import PRESETS
from moonrules.table.storage import RoomRow, Step, Storage

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed: the postgres extra")

from moonrules.table.storage_pg import NotOwner, PgStorage, SeqTaken  # noqa: E402
from moonrules.table.wire import action_json, parse_action  # noqa: E402

HERE = Path(__file__).resolve()


# -- games ---------------------------------------------------------------------


def new_row(room: str, seed: int, rules: str = "standard") -> RoomRow:
    """A room of a fresh game (a fixed deal), as the table would store it."""
    state = new_game(PRESETS[rules], seed=seed)
    record = to_record(state)
    players = PRESETS[rules].players
    return RoomRow(
        id=room,
        created=1_700_000_000.5,
        rules=rules_json(PRESETS[rules]),
        seats=("human",) + ("basic",) * (players - 1),
        tokens=("ab" * 32,) + (None,) * (players - 1),
        bot_seed="5eed",
        initial=record,
        record=record,
        seq=0,
        joined=frozenset(),
        over=False,
    )


def next_step(state: GameState, seq: int, rng: random.Random) -> tuple[Step, GameState, bool]:
    """A legal action of the seat to act, as the room stores it; the game after it; whether
    a hand (or the game) ended with it (the record is stored then, as the table does)."""
    action = rng.choice(legal_actions(state))
    seat = state.to_act
    assert seat is not None
    new = apply(state, action, seat=seat)
    ended = new.is_over or new.hand_number != state.hand_number
    return Step(seq, seat, action_json(action)), new, ended


async def rebuild(store: Storage | PgStorage, room: str) -> tuple[RoomRow, GameState]:
    """The room's game from the store: its last record, then the actions after it."""
    row = await store.load(room)
    assert row is not None
    state = from_record(row.record)
    for step in await store.steps(room, after=row.record_seq):
        state = apply(state, parse_action(state.phase, step.action), seat=step.seat)
    return row, state


def replay_all(url: str, room: str) -> tuple[list[int], GameState]:
    """Every stored action's number, and the game they make from the deal (each checked by
    the rules as it is applied)."""
    with psycopg.connect(url) as db:
        (initial,) = db.execute("SELECT initial FROM rooms WHERE id = %s", (room,)).fetchone()
        rows = db.execute(
            "SELECT seq, seat, action FROM actions WHERE room = %s ORDER BY seq", (room,)
        ).fetchall()
    state = from_record(json.loads(initial))
    for _, seat, action in rows:
        state = apply(state, parse_action(state.phase, json.loads(action)), seat=seat)
    return [r[0] for r in rows], state


def stored_seq(url: str, room: str) -> int:
    with psycopg.connect(url) as db:
        (seq,) = db.execute("SELECT seq FROM rooms WHERE id = %s", (room,)).fetchone()
    return int(seq)


# -- the same answers as SQLite --------------------------------------------------------


def test_the_interface_is_the_sqlite_store_s() -> None:
    """Every public method of the SQLite store is the PostgreSQL store's too, with the same
    parameters (a method added to one and not the other fails here)."""
    for name, method in inspect.getmembers(Storage, inspect.isfunction):
        if name.startswith("_"):
            continue
        other = getattr(PgStorage, name, None)
        assert other is not None, f"PgStorage has no {name}"
        assert inspect.signature(other) == inspect.signature(method), name
        assert inspect.iscoroutinefunction(other) == inspect.iscoroutinefunction(method), name


async def scenario(store: Storage | PgStorage) -> list[Any]:
    """What a table asks of its store in a game's life, and every answer."""
    out: list[Any] = []
    row = new_row("r1", seed=11)
    await store.create_room(row, bot_turn=False)
    out.append(await store.load("r1"))
    out.append(await store.load("nope"))
    await store.set_joined("r1", frozenset({0}), bot_turn=True)
    await store.set_names("r1", ("Ann", None, None))
    out.append(await store.moving())
    state, seq, rng, ended_once = from_record(row.record), 0, random.Random(3), False
    while seq < 60 or not ended_once:  # past the end of the first hand: a record is stored
        seq += 1
        step, state, ended = next_step(state, seq, rng)
        ended_once |= ended
        await store.append(
            "r1", step, to_record(state) if ended else None, over=state.is_over, bot_turn=False
        )
    claim = []
    for _ in range(3):
        seq += 1
        step, state, ended = next_step(state, seq, rng)
        claim.append(step)
    await store.append_many("r1", claim, to_record(state), over=False, bot_turn=True)
    out.append(await store.load("r1"))
    out.append(await store.steps("r1"))
    out.append(await store.steps("r1", after=seq - 2))
    out.append(await store.moving())
    _, rebuilt = await rebuild(store, "r1")
    out.append(to_record(rebuilt) == to_record(state))
    out.append(await store.create_rematch("r1", new_row("r2", seed=12), bot_turn=False))
    out.append(await store.create_rematch("r1", new_row("r3", seed=13), bot_turn=False))
    out.append(await store.load("r2"))
    out.append(await store.load("r3"))
    out.append((await store.load("r1") or row).next)
    for bad in (
        Step(seq, 0, "pass"),  # a number taken
        Step(seq + 2, 0, "pass"),  # a number skipped
    ):
        try:
            await store.append("r1", bad, None, over=False, bot_turn=False)
            out.append("stored")
        except sqlite3.IntegrityError:  # the class the table catches, for either store
            out.append("refused")
    out.append([s.seq for s in await store.steps("r1")] == list(range(1, seq + 1)))
    return out


def test_rooms_and_actions_round_trip_as_in_sqlite(postgres_url: str, tmp_path: Path) -> None:
    async def run(store: Storage | PgStorage) -> list[Any]:
        try:
            return await scenario(store)
        finally:
            store.close()

    lite = asyncio.run(run(Storage(tmp_path / "t.sqlite3")))
    pg = asyncio.run(run(PgStorage(postgres_url)))
    assert pg == lite
    loaded = pg[0]
    assert isinstance(loaded, RoomRow) and loaded == new_row("r1", seed=11)
    assert pg[2] == ["r1"] == pg[6]  # a bot to move
    assert pg[7] is True  # the game rebuilt from the store is the game played
    assert pg[8:10] == [True, False]  # one rematch, not two
    assert pg[11] is None and pg[12] == "r2"
    assert pg[13:15] == ["refused", "refused"]
    assert pg[15] is True


def test_a_second_store_on_the_database_reads_the_first_s_schema(postgres_url: str) -> None:
    """Tables created once: a second process opening the database finds them, and a
    database of another schema version is refused in one line."""

    async def main() -> None:
        a = PgStorage(postgres_url)
        try:
            await a.create_room(new_row("x", seed=1), bot_turn=True)
        finally:
            a.close()
        b = PgStorage(postgres_url)
        try:
            # its owner's session is gone: free to take (once the server has seen it end)
            for _ in range(100):
                moving = await b.moving()
                if moving:
                    break
                await asyncio.sleep(0.1)
            assert moving == ["x"]
        finally:
            b.close()

    asyncio.run(main())
    with psycopg.connect(postgres_url) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    from moonrules.table.storage import StorageError

    with pytest.raises(StorageError, match=r"database \(schema version 99, this server reads 1\)$"):
        PgStorage(postgres_url)
    with pytest.raises(StorageError, match=r"^postgresql://127\.0\.0\.1:1/x: cannot use"):
        PgStorage("postgresql://moon:secret@127.0.0.1:1/x", connect_timeout=2)


def test_without_psycopg_the_store_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    from moonrules.table.storage import StorageError

    with pytest.raises(StorageError, match=r"needs psycopg \(the postgres extra\): pip install"):
        PgStorage("postgresql://127.0.0.1/moonrules")


def test_a_duplicate_room_and_seq_is_refused_by_the_key(postgres_url: str) -> None:
    """Besides the store's own check that the room is at ``seq - 1``, the primary key
    ``(room, seq)`` refuses a second action of the same number from anyone."""

    async def main() -> None:
        store = PgStorage(postgres_url)
        try:
            row = new_row("d", seed=2)
            await store.create_room(row, bot_turn=False)
            step, _, _ = next_step(from_record(row.record), 1, random.Random(0))
            await store.append("d", step, None, over=False, bot_turn=False)
            with pytest.raises(SeqTaken, match="not at action 0"):
                await store.append("d", step, None, over=False, bot_turn=False)
            assert [s.seq for s in await store.steps("d")] == [1]
        finally:
            store.close()

    asyncio.run(main())
    with psycopg.connect(postgres_url) as db, pytest.raises(psycopg.errors.UniqueViolation):
        db.execute("INSERT INTO actions VALUES ('d', 1, 0, '\"pass\"', 0)")


# -- owners --------------------------------------------------------------------


def test_one_owner_at_a_time_then_a_release_or_an_expiry_hands_the_room_over(
    postgres_url: str,
) -> None:
    async def main() -> None:
        a = PgStorage(postgres_url, owner="A", address="http://a:1", lease_seconds=0.6)
        b = PgStorage(postgres_url, owner="B", address="http://b:2", lease_seconds=0.6)
        try:
            row = new_row("o", seed=3)
            await a.create_room(row, bot_turn=False)  # the creator owns it
            state, rng = from_record(row.record), random.Random(1)
            step, state, _ = next_step(state, 1, rng)
            await a.append("o", step, None, over=False, bot_turn=False)
            lease = await b.acquire("o")
            assert lease is not None and not lease.mine
            assert (lease.owner, lease.address) == ("A", "http://a:1")
            assert await b.acquire("nope") is None
            step2, _, _ = next_step(state, 2, rng)
            with pytest.raises(NotOwner):  # B may not write to A's room
                await b.append("o", step2, None, over=False, bot_turn=False)
            with pytest.raises(NotOwner):
                await b.set_joined("o", frozenset({0}), bot_turn=False)
            assert await b.moving() == []

            assert await a.release(["o"]) == 1  # A gives it up: B takes it at once
            lease = await b.acquire("o")
            assert lease is not None and lease.mine and lease.owner == "B"
            assert (await a.owner_of("o")) == lease.__class__(
                "o", "B", "http://b:2", lease.expires, False
            )
            _, resumed = await rebuild(b, "o")
            assert to_record(resumed) == to_record(state)
            await b.append("o", step2, None, over=False, bot_turn=False)
            with pytest.raises(NotOwner):
                await a.append("o", step2, None, over=False, bot_turn=False)

            # B renews for a while: A cannot take it; then B stops renewing and it expires
            for _ in range(3):
                await asyncio.sleep(0.3)
                assert await b.renew() == {"o"}
                taken = await a.acquire("o")
                assert taken is not None and not taken.mine
            await asyncio.sleep(0.8)
            taken = await a.acquire("o")
            assert taken is not None and taken.mine and taken.owner == "A"
            assert await b.renew() == set()  # B learns it lost the room
            with pytest.raises(NotOwner):  # and can store nothing more in it
                await b.append("o", step2, None, over=False, bot_turn=False)
            assert await b.held() == [] and await a.held() == ["o"]
            assert [s.seq for s in await a.steps("o")] == [1, 2]
        finally:
            a.close()
            b.close()

    asyncio.run(main())


def test_a_room_asked_for_is_handed_over_by_its_owner(postgres_url: str) -> None:
    """The process a proxy sends a room's connections to asks its owner for it; the owner
    sees the request when it renews, releases the room, and the asker takes it."""

    async def main() -> None:
        a = PgStorage(postgres_url, owner="A")
        b = PgStorage(postgres_url, owner="B")
        try:
            await a.create_room(new_row("h", seed=7), bot_turn=False)
            await a.create_room(new_row("i", seed=8), bot_turn=False)
            assert await a.wanted() == []
            lease = await b.ask("h")
            assert lease is not None and not lease.mine and lease.owner == "A"
            assert await a.wanted() == ["h"]
            assert await a.renew() == {"h", "i"}  # asked for, still A's until released
            assert await a.wanted() == ["h"]
            assert await a.release(await a.wanted()) == 1
            lease = await b.acquire("h")
            assert lease is not None and lease.mine
            assert await b.wanted() == [] and await a.wanted() == []  # the request is done
            assert await a.held() == ["i"] and await b.held() == ["h"]
            await b.release()
            lease = await a.ask("h")  # a free room is taken at once
            assert lease is not None and lease.mine
        finally:
            a.close()
            b.close()

    asyncio.run(main())


class Seen:
    """A listener of a room that notes how it was closed."""

    def __init__(self, seat: int | None) -> None:
        self._seat = seat
        self.closed: tuple[int, str] | None = None

    @property
    def seat(self) -> int | None:
        return self._seat

    def send_state(self, text: str) -> None:
        pass

    def send(self, text: str) -> bool:
        return True

    def disconnect(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_the_leases_of_rooms_being_loaded_or_created_are_kept(postgres_url: str) -> None:
    """The server gives up the leases of the rooms it no longer serves (forgotten when idle),
    but never of one it is loading or creating: a room whose lease it has taken and which
    is not yet in memory is pinned, and is handed over only once it is."""
    from moonrules.table.botpool import BotPool
    from moonrules.table.rooms import Table

    async def main() -> None:
        a = PgStorage(postgres_url, owner="A")
        b = PgStorage(postgres_url, owner="B")
        bots = BotPool(quick_workers=1, slow_workers=1)
        table = Table(a, bots)
        try:
            await b.create_room(new_row("x", seed=3), bot_turn=False)
            await b.release()
            real_steps, real_create = a.steps, a.create_room

            async def slow_steps(room: str, after: int = 0) -> list[Step]:
                await asyncio.sleep(0.3)  # the lease taken, the room not yet rebuilt
                return await real_steps(room, after)

            async def slow_create(row: RoomRow, *, bot_turn: bool) -> None:
                await real_create(row, bot_turn=bot_turn)
                await asyncio.sleep(0.3)  # stored and leased, not yet in memory

            a.steps = slow_steps  # type: ignore[method-assign]
            a.create_room = slow_create  # type: ignore[method-assign]
            loading = asyncio.ensure_future(table.room("x"))
            creating = asyncio.ensure_future(table.create({"rules": "standard"}))
            await asyncio.sleep(0.15)
            assert "x" not in table.rooms and not table.rooms
            assert await a.release_others(table.pinned()) == 0
            assert not await table.hand_over("x", release=True)  # handed over once loaded
            assert len(await a.held()) == 2
            room = await loading
            created = await creating
            assert room is not None and set(table.rooms) == {"x", created.room}
            assert await a.renew(table.pinned()) == {"x", created.room}
            # forgotten when idle: their leases go, and another process may take them
            assert table.evict_idle() == 2
            assert await a.release_others(table.pinned()) == 2
            assert await a.held() == []
            lease = await b.acquire("x")
            assert lease is not None and lease.mine
        finally:
            await table.close()
            bots.close()
            a.close()
            b.close()

    asyncio.run(main())


def test_a_room_another_process_took_sends_its_seats_on(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat joining, or acting in, a room whose lease another process has taken meanwhile
    is not an error of the server: the room is dropped from memory and its connections are
    closed with 1012 (they reconnect to its owner); asked for again, the room is asked of its
    owner, and a room that does not come within the hand-over time is refused with 503."""
    from moonrules.table import rooms
    from moonrules.table.botpool import BotPool
    from moonrules.table.rooms import RoomError, Table

    async def main() -> None:
        a = PgStorage(postgres_url, owner="A")
        b = PgStorage(postgres_url, owner="B")
        bots = BotPool(quick_workers=1, slow_workers=1)
        table = Table(a, bots)
        try:
            created = await table.create({"rules": "standard"})
            room = await table.room(created.room)
            assert room is not None
            first = Seen(0)
            await table.join(room, first)
            assert first.closed is None
            await a.release([room.id])  # (its lease expired, say) and B took it
            lease = await b.acquire(room.id)
            assert lease is not None and lease.mine
            second = Seen(1)
            await table.join(room, second)  # storing the seat's joining: NotOwner
            assert second.closed == (rooms.MOVED_CODE, rooms.MOVED_REASON)
            assert first.closed == (rooms.MOVED_CODE, rooms.MOVED_REASON)
            assert room.gone and room.id not in table.rooms
            outcome = await table.act(room, 0, "pass")
            assert outcome is not None and outcome["code"] == "unavailable"
            assert await b.steps(room.id) == []
            monkeypatch.setattr(rooms, "HANDOVER_SECONDS", 0.3)
            with pytest.raises(RoomError) as e:  # B's owner never hands it over
                await table.room(room.id)
            assert e.value.status == 503
            assert await b.wanted() == [room.id]
            await b.release(await b.wanted())  # handed over: A has it on asking
            again = await table.room(room.id)
            assert again is not None and again is not room and not again.gone
            third = Seen(1)
            await table.join(again, third)
            assert third.closed is None and again.joined == {0, 1}
        finally:
            await table.close()
            bots.close()
            a.close()
            b.close()

    asyncio.run(main())


def test_a_lost_connection_fails_a_job_and_the_store_reconnects(postgres_url: str) -> None:
    """The database ends the store's session (a restart, a network cut): the job under way
    fails as the table expects (``sqlite3.OperationalError``: "try again"), the next one
    reconnects, and the renewal moves the leases to the new session, keeping the rooms."""

    async def main() -> None:
        store = PgStorage(postgres_url, owner="A")
        try:
            row = new_row("l", seed=6)
            await store.create_room(row, bot_turn=False)
            with psycopg.connect(postgres_url, autocommit=True) as db:
                db.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = 'moonrules-table'"
                )
            step, _, _ = next_step(from_record(row.record), 1, random.Random(2))
            with pytest.raises(sqlite3.OperationalError):
                await store.append("l", step, None, over=False, bot_turn=False)
            assert await store.renew() == {"l"}
            other = PgStorage(postgres_url, owner="B")
            try:
                lease = await other.acquire("l")
                assert lease is not None and not lease.mine  # A's new session holds it
            finally:
                other.close()
            await store.append("l", step, None, over=False, bot_turn=False)
            assert [s.seq for s in await store.steps("l")] == [1]
        finally:
            store.close()

    asyncio.run(main())


# -- other processes: this file as a script ---------------------------------------------


def worker(url: str, room: str, owner: str, mode: str, target: int, seed: int) -> None:
    """Play ``room``'s game as its owner, printing ``ack N`` once action N is stored.

    ``write``: take the room, then store actions one after another without end (the test
    kills the process). ``race``: until the room reaches action ``target``, take the room
    when free, play a few actions from what is stored, and give it up again.
    """

    async def run() -> None:
        store = PgStorage(url, owner=owner, lease_seconds=30)
        rng = random.Random(seed)
        print("ready", flush=True)
        while True:
            lease = await store.acquire(room)
            assert lease is not None
            if not lease.mine:
                await asyncio.sleep(0.005)
                continue
            row, state = await rebuild(store, room)
            seq = row.seq
            if seq >= target:
                await store.release([room])
                break
            for _ in range(rng.randint(1, 6) if mode == "race" else 10**9):
                if seq >= target or state.is_over:
                    break
                step, new, ended = next_step(state, seq + 1, rng)
                try:
                    await store.append(
                        room,
                        step,
                        to_record(new) if ended else None,
                        over=new.is_over,
                        bot_turn=False,
                    )
                except (NotOwner, SeqTaken) as e:  # pragma: no cover - never, by the lease
                    print(f"refused {step.seq} {type(e).__name__}", flush=True)
                    break
                print(f"ack {step.seq}", flush=True)
                state, seq = new, step.seq
            await store.release([room])
            await asyncio.sleep(rng.random() * 0.01)
        store.close()

    asyncio.run(run())


class Worker:
    """:func:`worker` in a process of its own; its output read as it comes."""

    def __init__(self, url: str, room: str, owner: str, mode: str, target: int = 10**9) -> None:
        self.acks: list[int] = []
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE), url, room, owner, mode, str(target), owner],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())
            if line.startswith("ack "):
                self.acks.append(int(line.split()[1]))
            elif line.startswith("ready"):
                self.ready.set()

    def wait_for(self, acks: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acks) < acks:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"worker: {self.lines} {self.stderr()}")
            time.sleep(0.002)

    def finish(self, timeout: float = 20) -> None:
        self.proc.wait(timeout)
        self._reader.join(5)
        assert self.proc.returncode == 0, self.stderr()

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self._reader.join(5)

    def stderr(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        return self.proc.stderr.read()


@pytest.fixture
def workers() -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for w in started:  # nothing outlives the test
        if w.proc.poll() is None:
            w.kill()


def test_an_owner_killed_mid_write_loses_nothing_and_another_resumes_at_once(
    postgres_url: str, workers: list[Worker]
) -> None:
    """A process storing actions as fast as it can is killed with SIGKILL: every action
    it had acknowledged is stored, exactly once and in order; its room is free as soon as
    its session is gone (long before its 30 s lease ends), and another process resumes the
    game from the last stored action."""
    asyncio.run(_create(postgres_url, "k", seed=4))
    first = Worker(postgres_url, "k", "first", "write")
    workers.append(first)
    first.wait_for(40)
    first.kill()
    killed = time.monotonic()
    acked = first.acks
    assert acked == list(range(1, len(acked) + 1))

    seqs, _ = replay_all(postgres_url, "k")  # every stored action valid, from the deal
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) in (len(acked), len(acked) + 1)  # at most one stored, unheard of
    assert stored_seq(postgres_url, "k") == len(seqs)

    async def take_over() -> float:
        store = PgStorage(postgres_url, owner="second")
        try:
            while True:
                lease = await store.acquire("k")
                assert lease is not None
                if lease.mine:
                    return time.monotonic() - killed
                assert lease.owner == "first"
                await asyncio.sleep(0.02)
        finally:
            store.close()

    waited = asyncio.run(take_over())
    assert waited < 5, f"the dead owner's room was taken {waited:.1f} s after its death"
    target = len(seqs) + 25
    second = Worker(postgres_url, "k", "second", "race", target)
    workers.append(second)
    second.finish()
    assert second.acks == list(range(len(seqs) + 1, target + 1))  # from the last seq on
    final, _ = replay_all(postgres_url, "k")
    assert final == list(range(1, target + 1))


def test_two_processes_competing_for_a_room_store_each_action_once(
    postgres_url: str, workers: list[Worker]
) -> None:
    """Two processes take a room in turns (each plays a few actions from what is stored,
    then lets it go): together they store every action once, none twice, none lost, and
    never write while the other owns the room."""
    asyncio.run(_create(postgres_url, "c", seed=5))
    target = 150
    pair = [Worker(postgres_url, "c", name, "race", target) for name in ("left", "right")]
    workers.extend(pair)
    for w in pair:
        w.finish()
    left, right = pair[0].acks, pair[1].acks
    assert not [line for w in pair for line in w.lines if line.startswith("refused")]
    assert left and right, "both processes owned the room at some point"
    assert not set(left) & set(right)
    assert sorted(left + right) == list(range(1, target + 1))
    seqs, _ = replay_all(postgres_url, "c")
    assert seqs == list(range(1, target + 1))


async def _create(url: str, room: str, seed: int) -> None:
    store = PgStorage(url, owner="creator")
    try:
        await store.create_room(new_row(room, seed=seed), bot_turn=False)
        await store.release()
    finally:
        store.close()


def main(argv: list[str]) -> int:
    url, room, owner, mode, target, seed = argv
    worker(url, room, owner, mode, int(target), zlib.crc32(seed.encode()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
