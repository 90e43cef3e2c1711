"""Rooms and their accepted actions in SQLite, written by one thread in group commits.

Every accepted action is one row of ``actions``, written in the same transaction as the
room's state (the number of actions, whose turn it is, and at the end of each hand the game's
record: a room is its last record and the actions after it, so that storing an action costs
the same early and late in a game); the server
tells no client of an action before that transaction has committed, so nothing a client
was told can be lost by a crash of the server. One thread owns the connection: the
event loop hands it jobs and awaits them, and the thread commits every job waiting at
that moment in one transaction (a group commit: one ``fsync`` for many rooms), each job
in its own savepoint, so that a failing job fails alone.

``synchronous=FULL`` (the default) makes a commit durable against a power failure too;
``NORMAL`` only against a crash of the server process, and is faster.

The thread, its queue of jobs and the reads and writes whose SQL differs only by its
placeholder are ``_Store``'s, which the PostgreSQL store (:mod:`moonrules.table.storage_pg`)
shares; each store keeps its own transactions (``_commit``) and errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

import attrs

from moonrules.records.record import JSON
from moonrules.rules.errors import MoonError, wrong_type

SCHEMA_VERSION: Final = 3

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    bot_seed TEXT NOT NULL,
    initial TEXT NOT NULL,
    record TEXT NOT NULL,
    seq INTEGER NOT NULL,
    joined TEXT NOT NULL,
    over INTEGER NOT NULL,
    bot_turn INTEGER NOT NULL,
    record_seq INTEGER NOT NULL,
    names TEXT NOT NULL DEFAULT '[]',
    options TEXT NOT NULL DEFAULT '{}',
    next TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_moving ON rooms(over, bot_turn);
"""

_CLOCK_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS clocks (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    running INTEGER NOT NULL,
    state TEXT NOT NULL
) WITHOUT ROWID;
"""
"""The turn clocks of the rooms that have them (``moonrules.table.clock``), one row a room,
written with each action. A table of its own, made whatever the schema's version: a
database without it simply has no clocks yet, and an older server ignores it."""

MAX_BATCH: Final = 512
"""At most this many jobs in one transaction."""

T = TypeVar("T")


class StorageError(MoonError):
    """The database cannot be used: not a table server's database, or of a newer schema."""


@attrs.frozen(slots=True)
class RoomRow:
    """One room as stored: what the server needs to rebuild it."""

    id: str
    created: float
    rules: JSON
    seats: tuple[str, ...]
    """Per seat: ``"human"`` or the bot's name."""
    tokens: tuple[str | None, ...]
    """Per seat: the SHA-256 (hex) of the seat's token, ``None`` for a bot."""
    bot_seed: str
    initial: JSON
    """The record of the game as dealt, before any action."""
    record: JSON
    """The record of the game after its first ``record_seq`` actions (stored at the end of
    each hand); the actions after them are the room's :meth:`Storage.steps`."""
    seq: int
    """How many actions were accepted."""
    joined: frozenset[int]
    over: bool
    record_seq: int = 0
    """How many actions ``record`` holds."""
    names: tuple[str | None, ...] = ()
    """Per seat: the name its player chose, or ``None`` (``()``: none chosen yet)."""
    options: JSON = attrs.field(factory=dict)
    """The room's options: ``{"hints": bool, "claims": bool}`` (missing: on)."""
    next: str | None = None
    """The room of the rematch, once a player asked for one."""


@attrs.frozen(slots=True)
class Step:
    """One accepted action, as stored."""

    seq: int
    seat: int
    action: JSON


class _Connection(Protocol):
    """What the shared jobs use of a connection (``sqlite3`` and ``psycopg`` alike)."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


_C = TypeVar("_C", bound=_Connection)
_Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]"]
_Job = tuple[Callable[[_C], Any], _Waiter]
"""A job for the database thread and who awaits it."""


class _Store(Generic[_C]):
    """What the two stores do alike, :class:`Storage` and the PostgreSQL one
    (:class:`moonrules.table.storage_pg.PgStorage`): a thread owns the connection and runs
    the jobs the event loop hands it (:meth:`_call`), every job waiting at that moment in one
    transaction, by each store's own ``_commit`` (their transactions and errors differ); and
    the reads and writes whose SQL differs only by its placeholder (``_mark``)."""

    _mark: ClassVar[str]
    """The driver's SQL placeholder: ``?`` (sqlite3) or ``%s`` (psycopg)."""

    def _start(self, name: str) -> None:
        """Start the database thread, once the connection is open and the schema checked."""
        self._jobs: queue.SimpleQueue[_Job[_C] | None] = queue.SimpleQueue()
        self.commits = 0
        """Transactions committed (a figure for the bench: jobs per commit)."""
        self.jobs_done = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # -- the database thread ---------------------------------------------

    def _run(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._jobs.put(None)  # stop after this batch
                    break
                batch.append(job)
            self._wake(batch, self._commit(batch))
        self._disconnect()

    def _commit(self, batch: list[_Job[_C]]) -> list[tuple[bool, Any]]:
        """Run the jobs of ``batch`` in one transaction: per job, ``(True, result)`` or
        ``(False, exception)``."""
        raise NotImplementedError

    def _disconnect(self) -> None:
        """Close the connection (the thread's last step)."""
        raise NotImplementedError

    def _wake(self, batch: list[_Job[_C]], results: list[tuple[bool, Any]]) -> None:
        """Settle the futures of ``batch``'s waiters with ``results``."""
        # every waiter of the batch woken at once: one wake-up of the event loop
        settled: dict[asyncio.AbstractEventLoop, list[tuple[Any, bool, Any]]] = {}
        for (_, (loop, future)), (ok, value) in zip(batch, results, strict=True):
            settled.setdefault(loop, []).append((future, ok, value))
        for loop, outcomes in settled.items():
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile
                loop.call_soon_threadsafe(_settle_all, outcomes)

    async def _call(self, fn: Callable[[_C], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, (loop, future)))
        return await future

    def close(self) -> None:
        """Finish the jobs already handed over, then close the database."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()

    # -- what the table asks, in SQL that differs only by the placeholder ----

    def _fence(self, db: _C, room: str) -> None:
        """A write's first step: nothing here (one process writes an SQLite file); the
        PostgreSQL store checks that this process still holds the room's lease."""

    def _insert(self, row: RoomRow, *, bot_turn: bool) -> Callable[[_C], None]:
        values = (
            row.id,
            row.created,
            _dump(row.rules),
            _dump(list(row.seats)),
            _dump(list(row.tokens)),
            row.bot_seed,
            _dump(row.initial),
            _dump(row.record),
            row.seq,
            _dump(sorted(row.joined)),
            row.over,
            bot_turn,
            row.record_seq,
            _dump(list(row.names)),
            _dump(row.options),
            row.next,
        )
        sql = f"INSERT INTO rooms ({_COLUMNS_IN}) VALUES ({', '.join([self._mark] * 16)})"

        def job(db: _C) -> None:
            db.execute(sql, values)

        return job

    async def set_names(self, room: str, names: tuple[str | None, ...]) -> None:
        """Store the names the seats' players chose."""
        text = _dump(list(names))
        m = self._mark

        def job(db: _C) -> None:
            self._fence(db, room)
            db.execute(f"UPDATE rooms SET names = {m} WHERE id = {m}", (text, room))

        await self._call(job)

    async def set_rematch(self, room: str, seats: frozenset[int]) -> None:
        """Store which seats' players asked for a rematch of ``room`` (a member
        ``"rematch"`` of its options: the rematch's room itself is ``next``)."""
        m = self._mark

        def job(db: _C) -> None:
            self._fence(db, room)
            row = db.execute(f"SELECT options FROM rooms WHERE id = {m}", (room,)).fetchone()
            options = _rematch_options(None if row is None else row[0], seats)
            db.execute(f"UPDATE rooms SET options = {m} WHERE id = {m}", (options, room))

        await self._call(job)

    async def set_joined(self, room: str, joined: frozenset[int], *, bot_turn: bool) -> None:
        """Store which seats have joined the room."""
        text = _dump(sorted(joined))
        m = self._mark

        def job(db: _C) -> None:
            self._fence(db, room)
            db.execute(
                f"UPDATE rooms SET joined = {m}, bot_turn = {m} WHERE id = {m}",
                (text, bot_turn, room),
            )

        await self._call(job)

    async def load(self, room: str) -> RoomRow | None:
        """The stored room, or ``None``."""
        m = self._mark

        def job(db: _C) -> RoomRow | None:
            r = db.execute(f"SELECT {_COLUMNS} FROM rooms WHERE id = {m}", (room,)).fetchone()
            return None if r is None else _row(r)

        return await self._call(job)

    async def steps(self, room: str, after: int = 0) -> list[Step]:
        """The accepted actions of a room after the first ``after``, in order."""
        m = self._mark

        def job(db: _C) -> list[Step]:
            rows = db.execute(
                f"SELECT seq, seat, action FROM actions WHERE room = {m} AND seq > {m} "
                "ORDER BY seq",
                (room, after),
            ).fetchall()
            return [Step(s, seat, json.loads(a)) for s, seat, a in rows]

        return await self._call(job)

    async def load_clock(self, room: str) -> JSON:
        """The room's turn clocks as last stored (``None``: none stored)."""
        m = self._mark

        def job(db: _C) -> JSON:
            r = db.execute(f"SELECT state FROM clocks WHERE room = {m}", (room,)).fetchone()
            return None if r is None else json.loads(r[0])

        return await self._call(job)

    async def load_review(self, room: str, hand: int) -> JSON:
        """The stored review of a room's hand (:mod:`moonrules.table.review_at_table`), or
        ``None``."""
        m = self._mark

        def job(db: _C) -> JSON:
            r = db.execute(
                f"SELECT review FROM reviews WHERE room = {m} AND hand = {m}", (room, hand)
            ).fetchone()
            return None if r is None else json.loads(r[0])

        return await self._call(job)


class Storage(_Store[sqlite3.Connection]):
    """The table's SQLite database (created if missing), used from the event loop."""

    _mark = "?"

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        if not isinstance(path, (str, Path)):
            raise wrong_type("path", "a file path (str or Path)", path)
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous: 'FULL' or 'NORMAL', not {synchronous!r}")
        self.path = Path(path)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:  # no such directory, a directory, no permission
            raise StorageError(f"{self.path}: cannot open the database ({e})") from None
        self._db = db
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._db.executescript(_REVIEWS)
            self._check_version()
            self._db.executescript(_CLOCK_SCHEMA)
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StorageError(f"{self.path}: not a table database ({e})") from None
        self._start("moonrules-table-db")

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        version = row[0]
        if version == "1":  # every action stored the whole record: it holds them all
            with self._db:
                self._db.execute(
                    "ALTER TABLE rooms ADD COLUMN record_seq INTEGER NOT NULL DEFAULT 0"
                )
                self._db.execute("UPDATE rooms SET record_seq = seq")
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", ("2",))
            version = "2"
        if version == "2":  # names, options and the rematch: rooms before them have none
            with self._db:
                for column in (
                    "names TEXT NOT NULL DEFAULT '[]'",
                    "options TEXT NOT NULL DEFAULT '{}'",
                    "next TEXT",
                ):
                    self._db.execute(f"ALTER TABLE rooms ADD COLUMN {column}")
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", ("3",))
            version = "3"
        if version != str(SCHEMA_VERSION):
            raise sqlite3.DatabaseError(
                f"schema version {row[0]}, this server reads {SCHEMA_VERSION} and older"
            )

    # -- the database thread ---------------------------------------------

    def _disconnect(self) -> None:
        self._db.close()

    def _commit(self, batch: list[_Job[sqlite3.Connection]]) -> list[tuple[bool, Any]]:
        """Run the jobs of ``batch`` in one transaction: first all together (two statements
        a batch besides the jobs' own); if one fails, the transaction is rolled back and
        run again with each job in its own savepoint, so that it fails alone."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                fast = [(True, fn(db)) for fn, _ in batch]
            except Exception:
                db.execute("ROLLBACK")
            else:
                db.execute("COMMIT")
                self.commits += 1
                self.jobs_done += len(batch)
                return fast
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            return [(False, e)] * len(batch)
        results: list[tuple[bool, Any]] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for fn, _ in batch:
                db.execute("SAVEPOINT job")
                try:
                    results.append((True, fn(db)))
                    db.execute("RELEASE job")
                except Exception as e:
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                    results.append((False, e))
            db.execute("COMMIT")
            self.commits += 1
            self.jobs_done += len(batch)
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            return [(False, e)] * len(batch)
        return results

    # -- what the table asks ----------------------------------------------

    async def create_room(self, row: RoomRow, *, bot_turn: bool) -> None:
        """Store a new room."""
        await self._call(self._insert(row, bot_turn=bot_turn))

    async def append(
        self,
        room: str,
        step: Step,
        record: JSON | None,
        *,
        over: bool,
        bot_turn: bool,
        clock: JSON = None,
    ) -> None:
        """Store an accepted action and the room's state after it, in one transaction;
        ``record``, if given, is the game's record after this action (at the end of a hand);
        ``clock``, if given, the room's turn clocks after it.

        Raises :class:`sqlite3.IntegrityError` when the room already has an action
        numbered ``step.seq`` (the room moved on meanwhile).
        """
        action = _dump(step.action)
        text = None if record is None else _dump(record)
        clock_job = _clock_job(room, clock)

        def job(db: sqlite3.Connection) -> None:
            clock_job(db)
            db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                (room, step.seq, step.seat, action, time.time()),
            )
            if text is None:
                cur = db.execute(
                    "UPDATE rooms SET seq = ?, over = ?, bot_turn = ? WHERE id = ? AND seq = ?",
                    (step.seq, int(over), int(bot_turn), room, step.seq - 1),
                )
            else:
                cur = db.execute(
                    "UPDATE rooms SET record = ?, record_seq = ?, seq = ?, over = ?, "
                    "bot_turn = ? WHERE id = ? AND seq = ?",
                    (text, step.seq, step.seq, int(over), int(bot_turn), room, step.seq - 1),
                )
            if cur.rowcount != 1:
                raise sqlite3.IntegrityError(f"room {room} is not at action {step.seq - 1}")

        await self._call(job)

    async def append_many(
        self,
        room: str,
        steps: list[Step],
        record: JSON | None,
        *,
        over: bool,
        bot_turn: bool,
        clock: JSON = None,
    ) -> None:
        """Store several actions taken at once (a claim's tricks played out) and the room's
        state after them, in one transaction: all of them or none."""
        if not steps:
            raise ValueError("steps: at least one action")
        rows = [(room, st.seq, st.seat, _dump(st.action)) for st in steps]
        text = None if record is None else _dump(record)
        first, last = steps[0].seq, steps[-1].seq
        clock_job = _clock_job(room, clock)

        def job(db: sqlite3.Connection) -> None:
            clock_job(db)
            now = time.time()
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", [(*r, now) for r in rows])
            cur = db.execute(
                "UPDATE rooms SET record = coalesce(?, record), "
                "record_seq = CASE WHEN ? IS NULL THEN record_seq ELSE ? END, "
                "seq = ?, over = ?, bot_turn = ? WHERE id = ? AND seq = ?",
                (text, text, last, last, int(over), int(bot_turn), room, first - 1),
            )
            if cur.rowcount != 1:
                raise sqlite3.IntegrityError(f"room {room} is not at action {first - 1}")

        await self._call(job)

    async def create_rematch(self, room: str, row: RoomRow, *, bot_turn: bool) -> bool:
        """Store ``row``, the rematch of ``room``, and mark it as ``room``'s next, in one
        transaction; false (nothing stored) when ``room`` already has its rematch."""
        create = self._insert(row, bot_turn=bot_turn)

        def job(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE rooms SET next = ? WHERE id = ? AND next IS NULL", (row.id, room)
            )
            if cur.rowcount != 1:
                return False
            create(db)
            return True

        return await self._call(job)

    async def moving(self) -> list[str]:
        """The rooms whose game goes on with a bot to act: they resume at start."""

        def job(db: sqlite3.Connection) -> list[str]:
            rows = db.execute("SELECT id FROM rooms WHERE over = 0 AND bot_turn = 1").fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    async def clocked(self) -> list[str]:
        """The rooms whose game goes on with a seat's clock running: they resume at start
        (the clock runs out whether anyone is connected or not)."""

        def job(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "SELECT c.room FROM clocks c JOIN rooms r ON r.id = c.room "
                "WHERE c.running = 1 AND r.over = 0"
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    async def store_review(self, room: str, hand: int, review: JSON) -> None:
        """Store the review of a room's hand (a second one for the same hand is ignored:
        a hand's review is worked out once)."""
        text = _dump(review)

        def job(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO reviews VALUES (?, ?, ?, ?)", (room, hand, text, time.time())
            )

        await self._call(job)


_REVIEWS: Final = """
CREATE TABLE IF NOT EXISTS reviews (
    room TEXT NOT NULL REFERENCES rooms(id),
    hand INTEGER NOT NULL,
    review TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (room, hand)
) WITHOUT ROWID;
"""
"""The reviews of finished hands (:mod:`moonrules.table.review_at_table`), one row a hand.
A table added to a database of any version when it is opened (``IF NOT EXISTS``), which a
server without reviews ignores: the schema's version is unchanged by it."""


def _clock_job(room: str, clock: JSON) -> Callable[[Any], None]:
    """Store a room's clocks (``None``: nothing to store), as part of another job; for
    SQLite and PostgreSQL alike (the placeholders are adapted)."""
    if clock is None:
        return lambda db: None
    running = int(isinstance(clock, dict) and clock.get("seat") is not None)
    text = _dump(clock)

    def job(db: Any) -> None:
        mark = "%s" if not isinstance(db, sqlite3.Connection) else "?"
        db.execute(
            f"INSERT INTO clocks (room, running, state) VALUES ({mark}, {mark}, {mark}) "
            "ON CONFLICT (room) DO UPDATE SET running = excluded.running, state = excluded.state",
            (room, running, text),
        )

    return job


def _rematch_options(stored: str | None, seats: frozenset[int]) -> str:
    """A room's stored options (their text) with the seats that asked for a rematch."""
    try:
        options = json.loads(stored) if stored else {}
    except ValueError:
        options = {}
    if not isinstance(options, dict):
        options = {}
    options["rematch"] = sorted(seats)
    return _dump(options)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _settle_all(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in outcomes:
        _settle(future, ok, value)


def _dump(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


_COLUMNS: Final = (
    "id, created, rules, seats, tokens, bot_seed, initial, record, seq, joined, over, "
    "record_seq, names, options, next"
)

_COLUMNS_IN: Final = (
    "id, created, rules, seats, tokens, bot_seed, initial, record, seq, joined, over, "
    "bot_turn, record_seq, names, options, next"
)


def _row(r: tuple[Any, ...]) -> RoomRow:
    return RoomRow(
        id=r[0],
        created=r[1],
        rules=json.loads(r[2]),
        seats=tuple(json.loads(r[3])),
        tokens=tuple(json.loads(r[4])),
        bot_seed=r[5],
        initial=json.loads(r[6]),
        record=json.loads(r[7]),
        seq=r[8],
        joined=frozenset(json.loads(r[9])),
        over=bool(r[10]),
        record_seq=r[11],
        names=tuple(json.loads(r[12])),
        options=json.loads(r[13]),
        next=r[14],
    )


__all__ = ["SCHEMA_VERSION", "RoomRow", "Step", "Storage", "StorageError"]
