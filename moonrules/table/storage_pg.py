"""Rooms and their accepted actions in PostgreSQL, shared by several server processes.

The same interface as :class:`moonrules.table.storage.Storage` (the SQLite store: one
thread owns the connection, the event loop hands it jobs and awaits them, every job waiting
at that moment is committed in one transaction, each in its own savepoint; the thread and the
reads and writes whose SQL differs only by its placeholder are the two stores' shared base,
``_Store``) over ``psycopg`` 3 (the ``postgres`` extra), plus **room leases**, so that
several processes, on one machine or several, can serve one database:

- each room is served by one process at a time, its *owner*: a row of ``leases`` names the
  owner, where it is reached (``address``, for a proxy or a redirect) and until when it
  holds the room. :meth:`PgStorage.acquire` takes a room that is free, whose lease has
  expired or whose owner is gone, :meth:`PgStorage.renew` extends the leases a process holds
  (and tells which it lost), :meth:`PgStorage.release` gives rooms up, and
  :meth:`PgStorage.owner_of` finds a room's owner;
- an owner is *gone* as soon as its database session is: each lease records the server
  process (``pg_backend_pid()`` and its start time) of the owner's connection, so a process
  that dies, even by SIGKILL, frees its rooms at once, without waiting for the expiry; the
  expiry covers a machine that stops answering without closing its connection;
- every write to a room (an action, the seats joined, the names, a rematch) first locks the
  room's lease row (``FOR SHARE``) and checks that this process still owns it, in the same
  transaction: a process that lost a room can store nothing more in it (:class:`NotOwner`),
  and one that takes a room over waits for the previous owner's transaction, then reads
  everything it committed. With the primary key ``(room, seq)`` of ``actions`` and the
  check that the room is at ``seq - 1``, no acknowledged action is lost or stored twice;
- a room is *moved* to the process a reverse proxy sends its connections to (routing by
  room: ``docs/guides/table-deploy.md``): that process asks for it (:meth:`PgStorage.ask`),
  the owner finds it among its :meth:`PgStorage.wanted` rooms when it renews its leases,
  closes the room's connections (they come back through the proxy) and releases it, and the
  asker takes it (:meth:`PgStorage.acquire`).

The errors are the SQLite store's classes (``sqlite3.IntegrityError`` when the room had
moved on, ``sqlite3.OperationalError`` when the database cannot be used), so that the table
handles either store's the same way. Times (``created``, an action's ``at``) are the server
process's ``time.time()``, as in SQLite; lease expiries are the database's clock, the one
clock every process shares. Turn clocks' deadlines are not stored yet.
"""

from __future__ import annotations

import itertools
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import attrs

from moonrules.records.record import JSON
from moonrules.rules.errors import wrong_type
from moonrules.support.databases import describe_postgres, first_line, postgres_driver
from moonrules.table.storage import MAX_BATCH as MAX_BATCH  # the thread's, shared
from moonrules.table.storage import (
    RoomRow,
    Step,
    StorageError,
    _clock_job,
    _dump,
    _Job,
    _settle,
    _Store,
)

SCHEMA_VERSION: Final = 1
"""The PostgreSQL schema's version (its own numbering; the SQLite file has another)."""

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    bot_seed TEXT NOT NULL,
    initial TEXT NOT NULL,
    record TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    joined TEXT NOT NULL,
    over BOOLEAN NOT NULL,
    bot_turn BOOLEAN NOT NULL,
    record_seq INTEGER NOT NULL,
    names TEXT NOT NULL DEFAULT '[]',
    options TEXT NOT NULL DEFAULT '{}',
    next TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL CHECK (seq > 0),
    seat SMALLINT NOT NULL,
    action TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (room, seq)
);
CREATE TABLE IF NOT EXISTS leases (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    owner TEXT NOT NULL,
    address TEXT,
    expires TIMESTAMPTZ NOT NULL,
    backend_pid INTEGER NOT NULL,
    backend_start TIMESTAMPTZ NOT NULL,
    wanted_by TEXT
);
CREATE INDEX IF NOT EXISTS rooms_moving ON rooms(id) WHERE NOT over AND bot_turn;
CREATE INDEX IF NOT EXISTS leases_owner ON leases(owner);
CREATE TABLE IF NOT EXISTS clocks (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    running INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""

_REVIEWS: Final = """
CREATE TABLE IF NOT EXISTS reviews (
    room TEXT NOT NULL REFERENCES rooms(id),
    hand INTEGER NOT NULL CHECK (hand > 0),
    review TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (room, hand)
);
"""
"""The reviews of finished hands, one row a hand: created when missing on any version of
the schema (a server without reviews ignores the table), so the version is unchanged."""

_SCHEMA_LOCK: Final = 0x6D6F6F6E  # "moon": one process at a time creates the tables

LEASE_SECONDS: Final = 15.0
"""How long a lease lasts unless renewed (a process renews its leases every few seconds)."""

_LIVE: Final = (
    "EXISTS (SELECT 1 FROM pg_stat_activity a "
    "WHERE a.pid = leases.backend_pid AND a.backend_start = leases.backend_start)"
)
"""Whether a lease's owner still has its database session."""

_HELD: Final = f"(leases.expires > now() AND {_LIVE})"
"""Whether a lease still holds its room."""

if TYPE_CHECKING:  # the postgres extra: imported when a PgStorage is made
    import psycopg


def _driver() -> Any:
    """``psycopg``, or :class:`StorageError` saying how to install it."""
    return postgres_driver(StorageError)


class NotOwner(sqlite3.OperationalError):
    """This process does not own the room (any longer): it may not write to it. The room is
    to be dropped from memory and its clients sent to its owner (:meth:`PgStorage.owner_of`)."""

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self.room = room

    def __str__(self) -> str:
        return f"room {self.room} is not this process's: another owns it now"


class Unavailable(sqlite3.OperationalError):
    """The database could not be used for this job (connection lost, a timeout)."""


class SeqTaken(sqlite3.IntegrityError):
    """The room already has an action of this number, or is not at the one before."""


@attrs.frozen(slots=True)
class Lease:
    """Who serves a room: the owner's id and address, and whether the asker holds it."""

    room: str
    owner: str
    address: str | None
    expires: float
    """When the lease ends unless renewed (seconds since the epoch, the database's clock)."""
    mine: bool
    """Whether the process that asked is the owner."""


def new_owner_id() -> str:
    """A process's owner id: host, process id and a random part (unique across restarts)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def describe(url: str) -> str:
    """The database a URL names, without its password (for messages and logs)."""
    return describe_postgres(url, StorageError)


class PgStorage(_Store["psycopg.Connection[Any]"]):
    """The table's PostgreSQL database (its tables created if missing), used from the
    event loop by one server process among several.

    ``url`` is a libpq connection string or ``postgresql://`` URL. ``owner`` names this
    process in the leases (default :func:`new_owner_id`); ``address`` is where it is
    reached (``http://10.0.0.2:8001``), told to whoever asks for a room it owns.
    """

    _mark = "%s"

    def __init__(
        self,
        url: str,
        *,
        owner: str | None = None,
        address: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        connect_timeout: float = 10.0,
    ) -> None:
        if not isinstance(url, str):
            raise wrong_type("url", "a postgresql:// URL (str)", url)
        _driver()
        import psycopg

        if not isinstance(lease_seconds, (int, float)) or not 0.1 <= lease_seconds <= 3600:
            raise ValueError(f"lease_seconds: 0.1 to 3600, not {lease_seconds!r}")
        self.url = url
        self.where = describe(url)
        self.owner = new_owner_id() if owner is None else owner
        self.address = address
        self.lease_seconds = float(lease_seconds)
        self._connect_timeout = connect_timeout
        self._db: psycopg.Connection[Any] | None = None
        try:
            db = self._connect()
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                db.execute(_SCHEMA)
                db.execute(_REVIEWS)
                self._check_version(db)
        except psycopg.Error as e:
            if self._db is not None:
                self._db.close()
            raise StorageError(f"{self.where}: cannot use the database ({first_line(e)})") from None
        self._start("moonrules-table-pg")

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        db: psycopg.Connection[Any] = psycopg.connect(
            self.url,
            autocommit=True,
            connect_timeout=max(1, round(self._connect_timeout)),
            application_name="moonrules-table",
            # a peer that vanishes without closing the connection is noticed within ~20 s
            keepalives=1,
            keepalives_idle=10,
            keepalives_interval=5,
            keepalives_count=2,
        )
        # a job never waits long for another's lock: it fails and the table retries
        db.execute("SET lock_timeout = '5s'")
        db.execute("SET statement_timeout = '30s'")
        self._db = db
        return db

    @staticmethod
    def _check_version(db: psycopg.Connection[Any]) -> None:
        import psycopg

        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', %s)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise psycopg.DataError(f"schema version {row[0]}, this server reads {SCHEMA_VERSION}")

    # -- the database thread ---------------------------------------------

    def _disconnect(self) -> None:
        if self._db is not None:
            self._db.close()

    def _wake(
        self, batch: list[_Job[psycopg.Connection[Any]]], results: list[tuple[bool, Any]]
    ) -> None:
        """Settle each waiter of ``batch`` by a wake-up of its own."""
        for (_, (loop, future)), (ok, value) in zip(batch, results, strict=True):
            loop.call_soon_threadsafe(_settle, future, ok, value)

    def _commit(self, batch: list[_Job[psycopg.Connection[Any]]]) -> list[tuple[bool, Any]]:
        import psycopg

        results: list[tuple[bool, Any]] = []
        db = self._db
        try:
            if db is None or db.closed or db.broken:
                if db is not None:
                    db.close()
                self._db = None
                db = self._connect()
            single = len(batch) == 1
            db.execute("BEGIN")
            for fn, _ in batch:
                if single:  # no savepoint needed: the job's failure is the transaction's
                    try:
                        results.append((True, fn(db)))
                    except Exception as e:
                        db.execute("ROLLBACK")
                        return [(False, _translate(e))]
                    continue
                db.execute("SAVEPOINT job")
                try:
                    results.append((True, fn(db)))
                    db.execute("RELEASE job")
                except Exception as e:
                    if isinstance(e, psycopg.OperationalError) or db.broken:
                        raise
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                    results.append((False, _translate(e)))
            db.execute("COMMIT")
            self.commits += 1
            self.jobs_done += len(batch)
        except psycopg.Error as e:
            if db is not None and not db.broken and not db.closed:
                try:
                    db.execute("ROLLBACK")
                except psycopg.Error:
                    db.close()
            failure = Unavailable(f"{self.where}: {first_line(e)}")
            return [(False, failure)] * len(batch)
        return results

    def close(self) -> None:
        """Finish the jobs already handed over, then close the connection (the leases stay:
        :meth:`release` them first to hand the rooms over at once)."""
        super().close()

    # -- leases -------------------------------------------------------------

    def _fence(self, db: psycopg.Connection[Any], room: str) -> None:
        """Lock the room's lease and check that this process holds it (every write's first
        step: a takeover waits for this transaction, and is seen by it if first)."""
        row = db.execute("SELECT owner FROM leases WHERE room = %s FOR SHARE", (room,)).fetchone()
        if row is None or row[0] != self.owner:
            raise NotOwner(room)

    def _take(self, db: psycopg.Connection[Any], room: str) -> Lease | None:
        """Take or keep ``room``'s lease if it is free, expired, its owner gone, or ours;
        the lease as it stands after (``None``: no such room)."""
        row = db.execute(
            "INSERT INTO leases AS leases "
            "(room, owner, address, expires, backend_pid, backend_start) "
            "SELECT r.id, %(owner)s, %(address)s, now() + make_interval(secs => %(ttl)s), "
            "pg_backend_pid(), a.backend_start "
            "FROM rooms r, pg_stat_activity a WHERE r.id = %(room)s AND a.pid = pg_backend_pid() "
            "ON CONFLICT (room) DO UPDATE SET owner = excluded.owner, address = excluded.address, "
            "expires = excluded.expires, backend_pid = excluded.backend_pid, "
            "backend_start = excluded.backend_start, "
            "wanted_by = CASE WHEN leases.owner = excluded.owner THEN leases.wanted_by END "
            "WHERE leases.owner = excluded.owner "
            f"OR NOT {_HELD} "
            "RETURNING owner, address, extract(epoch FROM expires)",
            {"owner": self.owner, "address": self.address, "ttl": self.lease_seconds, "room": room},
        ).fetchone()
        if row is not None:
            return Lease(room, row[0], row[1], float(row[2]), True)
        return self._holder(db, room)

    def _holder(self, db: psycopg.Connection[Any], room: str) -> Lease | None:
        row = db.execute(
            f"SELECT owner, address, extract(epoch FROM expires), {_HELD} FROM leases "
            "WHERE room = %s",
            (room,),
        ).fetchone()
        if row is None or not row[3]:
            return None
        return Lease(room, row[0], row[1], float(row[2]), row[0] == self.owner)

    async def acquire(self, room: str) -> Lease | None:
        """Take ``room`` for this process if nobody holds it (free, expired, or its owner's
        session gone), or renew it if this process holds it. The lease as it stands:
        ``mine`` says whether this process now owns the room; ``None`` if there is no such
        room. A room taken over is to be loaded afresh (:meth:`load`, :meth:`steps`): every
        action the previous owner stored is there."""

        def job(db: psycopg.Connection[Any]) -> Lease | None:
            lease = self._take(db, room)
            if lease is None and self._exists(db, room):  # pragma: no cover - a lost race
                raise Unavailable(f"room {room}: its lease changed hands meanwhile; try again")
            return lease

        return await self._call(job)

    @staticmethod
    def _exists(db: psycopg.Connection[Any], room: str) -> bool:
        return db.execute("SELECT 1 FROM rooms WHERE id = %s", (room,)).fetchone() is not None

    async def renew(self, rooms: Iterable[str] | None = None) -> set[str]:
        """Extend this process's leases (of ``rooms``, or all of them); the rooms it still
        holds. A room it held and is not among them was taken over: drop it."""
        wanted = None if rooms is None else sorted(set(rooms))

        def job(db: psycopg.Connection[Any]) -> set[str]:
            rows = db.execute(
                "UPDATE leases SET expires = now() + make_interval(secs => %s), "
                "address = %s, backend_pid = pg_backend_pid(), backend_start = "
                "(SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) "
                "WHERE owner = %s AND (%s::text[] IS NULL OR room = ANY(%s::text[])) "
                "RETURNING room",
                (self.lease_seconds, self.address, self.owner, wanted, wanted),
            ).fetchall()
            return {r[0] for r in rows}

        return await self._call(job)

    async def release(self, rooms: Iterable[str] | None = None) -> int:
        """Give up this process's leases (of ``rooms``, or all of them, as a server does
        when it stops): another process may take them at once. How many were released."""
        wanted = None if rooms is None else sorted(set(rooms))

        def job(db: psycopg.Connection[Any]) -> int:
            cur = db.execute(
                "DELETE FROM leases WHERE owner = %s "
                "AND (%s::text[] IS NULL OR room = ANY(%s::text[]))",
                (self.owner, wanted, wanted),
            )
            return cur.rowcount

        return await self._call(job)

    async def release_others(self, keep: Iterable[str]) -> int:
        """Give up this process's leases of every room but those of ``keep`` (the rooms it
        serves or is loading, read just before: the job runs after any lease taken before
        it); how many were released."""
        kept = sorted(set(keep))

        def job(db: psycopg.Connection[Any]) -> int:
            cur = db.execute(
                "DELETE FROM leases WHERE owner = %s AND NOT (room = ANY(%s::text[]))",
                (self.owner, kept),
            )
            return cur.rowcount

        return await self._call(job)

    async def ask(self, room: str) -> Lease | None:
        """Ask ``room``'s owner to hand it over to this process (it will find the room
        among its :meth:`wanted` ones); or take it at once if nobody holds it. The lease as
        it stands (``mine``: taken), ``None`` if there is no such room."""

        def job(db: psycopg.Connection[Any]) -> Lease | None:
            lease = self._take(db, room)
            if lease is not None and not lease.mine:
                db.execute(
                    "UPDATE leases SET wanted_by = %s WHERE room = %s AND owner <> %s",
                    (self.owner, room, self.owner),
                )
            return lease

        return await self._call(job)

    async def wanted(self) -> list[str]:
        """The rooms this process holds that another process asked for (:meth:`ask`): to
        be handed over, once the action under way is stored, by :meth:`release`."""

        def job(db: psycopg.Connection[Any]) -> list[str]:
            rows = db.execute(
                "SELECT room FROM leases WHERE owner = %s AND wanted_by IS NOT NULL ORDER BY room",
                (self.owner,),
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    async def owner_of(self, room: str) -> Lease | None:
        """Who holds ``room`` now (``None``: nobody; any process may take it)."""
        return await self._call(lambda db: self._holder(db, room))

    async def held(self) -> list[str]:
        """The rooms this process holds, by the database."""

        def job(db: psycopg.Connection[Any]) -> list[str]:
            rows = db.execute(
                "SELECT room FROM leases WHERE owner = %s ORDER BY room", (self.owner,)
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    # -- what the table asks ----------------------------------------------

    async def create_room(self, row: RoomRow, *, bot_turn: bool) -> None:
        """Store a new room, owned by this process."""
        insert = self._insert(row, bot_turn=bot_turn)

        def job(db: psycopg.Connection[Any]) -> None:
            insert(db)
            self._take(db, row.id)

        await self._call(job)

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
        ``record``, if given, is the game's record after this action (at the end of a hand).

        Raises :class:`SeqTaken` (a ``sqlite3.IntegrityError``) when the room already has an
        action numbered ``step.seq`` (the room moved on meanwhile), :class:`NotOwner` when
        this process no longer owns the room.
        """
        await self.append_many(room, [step], record, over=over, bot_turn=bot_turn, clock=clock)

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
        state after them, in one transaction: all of them or none (``clock``: the room's
        turn clocks after them, if it has any)."""
        if not steps:
            raise ValueError("steps: at least one action")
        for a, b in itertools.pairwise(steps):
            if b.seq != a.seq + 1:
                raise ValueError(f"steps: numbered one after another, not {a.seq} then {b.seq}")
        now = time.time()
        rows = [(room, st.seq, st.seat, _dump(st.action), now) for st in steps]
        text = None if record is None else _dump(record)
        first, last = steps[0].seq, steps[-1].seq
        clock_job = _clock_job(room, clock)

        def job(db: psycopg.Connection[Any]) -> None:
            self._fence(db, room)
            cur = db.execute(
                "UPDATE rooms SET record = coalesce(%s, record), "
                "record_seq = CASE WHEN %s::text IS NULL THEN record_seq ELSE %s END, "
                "seq = %s, over = %s, bot_turn = %s WHERE id = %s AND seq = %s",
                (text, text, last, last, over, bot_turn, room, first - 1),
            )
            if cur.rowcount != 1:
                raise SeqTaken(f"room {room} is not at action {first - 1}")
            with db.cursor() as c:
                c.executemany("INSERT INTO actions VALUES (%s, %s, %s, %s, %s)", rows)
            clock_job(db)

        await self._call(job)

    async def create_rematch(self, room: str, row: RoomRow, *, bot_turn: bool) -> bool:
        """Store ``row``, the rematch of ``room``, and mark it as ``room``'s next, in one
        transaction (this process owns the new room); false (nothing stored) when ``room``
        already has its rematch."""
        create = self._insert(row, bot_turn=bot_turn)

        def job(db: psycopg.Connection[Any]) -> bool:
            self._fence(db, room)
            cur = db.execute(
                "UPDATE rooms SET next = %s WHERE id = %s AND next IS NULL", (row.id, room)
            )
            if cur.rowcount != 1:
                return False
            create(db)
            self._take(db, row.id)
            return True

        return await self._call(job)

    async def moving(self) -> list[str]:
        """The rooms whose game goes on with a bot to act and that no other process holds:
        this process may take them over (:meth:`acquire`) and resume them."""

        def job(db: psycopg.Connection[Any]) -> list[str]:
            rows = db.execute(
                "SELECT r.id FROM rooms r LEFT JOIN leases ON leases.room = r.id "
                f"WHERE NOT r.over AND r.bot_turn AND (leases.room IS NULL "
                f"OR leases.owner = %s OR NOT {_HELD}) ORDER BY r.id",
                (self.owner,),
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    async def clocked(self) -> list[str]:
        """The rooms whose game goes on with a seat's clock running and that no other
        process holds: this process may take them over and run their clocks."""

        def job(db: psycopg.Connection[Any]) -> list[str]:
            rows = db.execute(
                "SELECT r.id FROM clocks c JOIN rooms r ON r.id = c.room "
                "LEFT JOIN leases ON leases.room = r.id "
                f"WHERE c.running = 1 AND NOT r.over AND (leases.room IS NULL "
                f"OR leases.owner = %s OR NOT {_HELD}) ORDER BY r.id",
                (self.owner,),
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(job)

    async def store_review(self, room: str, hand: int, review: JSON) -> None:
        """Store the review of a room's hand; a second one for the same hand is ignored (a
        review depends only on the hand: whichever process worked it out, it is the same),
        so no lease is needed to store it."""
        text = _dump(review)

        def job(db: psycopg.Connection[Any]) -> None:
            db.execute(
                "INSERT INTO reviews VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (room, hand, text, time.time()),
            )

        await self._call(job)


def _translate(e: Exception) -> Exception:
    """A job's failure as the table sees it: the SQLite store's exception classes."""
    import psycopg
    from psycopg import errors

    if isinstance(e, (NotOwner, SeqTaken, Unavailable)):
        return e
    if isinstance(e, errors.UniqueViolation):
        return SeqTaken(first_line(e))
    if isinstance(e, psycopg.IntegrityError):  # a foreign key: no such room
        return sqlite3.IntegrityError(first_line(e))
    if isinstance(e, psycopg.Error):
        return Unavailable(first_line(e))
    return e


__all__ = [
    "LEASE_SECONDS",
    "SCHEMA_VERSION",
    "Lease",
    "NotOwner",
    "PgStorage",
    "SeqTaken",
    "Unavailable",
    "describe",
    "new_owner_id",
]
