"""Event logs kept in a database: SQLite (embedded, the default) or PostgreSQL.

The same append-only logs as :mod:`moonrules.tournament.log`'s JSON-lines files, in the
database the web table uses (a SQLite file, or a ``postgresql://`` URL with the
``postgres`` extra), one table of entries::

    event_log (event TEXT, seq INTEGER, entry TEXT, PRIMARY KEY (event, seq))

``event`` is the event's id, ``seq`` the entry's number in its log from 1 (the ``event``
header is 1), ``entry`` the entry's line exactly as a log file holds it
(:func:`~moonrules.tournament.log.dumps_entry`: text, not ``jsonb``, so that its keys keep
their order and :meth:`EventStore.export` gives back the bytes ``tournament run --log``
writes). The version of this layout is the row ``event_log`` of the table's ``meta``
table (created alike if missing).

Beside the log, ``event_rooms (event, round, tbl, board, room)`` keeps the web table's room
of each board played there (:meth:`EventStore.add_room`, written by
``tournament run --table``; created on first use): the event's page links to them. It is
not part of the log (the same log gives the same standings without it). Beside it,
``event_room_links (event, room, links)`` keeps the seats' links ``tournament run --table``
printed for each room (a JSON list, ``null`` for a bot's seat), so that a run resumed finds
them (:meth:`EventStore.room_links`): they hold the seats' tokens, which whoever reads the
database could play; the event's pages never show them.

Beside it too, ``event_directors (event, secret)`` keeps the director's secret of each
event, hashed (SHA-256 of a :func:`secrets.token_urlsafe` of 32 bytes): the key of the
director's console on the web table (``/events/{event}/director/{secret}``). It is made
when the event is created (:attr:`Stored.director`, given once), checked in constant time
(:meth:`EventStore.director_allowed`), and made again by
:meth:`EventStore.new_director_secret` (the old one then stops working); it is not part of
the log either.

Every write is one transaction that reads the event's log, checks the new entries against
it with :func:`~moonrules.tournament.log.fold` and inserts them after it: a refused entry
leaves the log unchanged. Writers race only for a sequence number: the primary key lets
one of two writers store entry *n*; the other (which read the log before entry *n* was
committed) is refused in one line, nothing written, and reads the log again. A write is
acknowledged once committed: SQLite with ``synchronous=FULL`` (as the table: durable
against a power failure too), PostgreSQL's commit.

The store is synchronous (as the command line needs; a server calls it from a thread). It imports
nothing of the table above it: the conventions (WAL, ``synchronous``, the ``meta`` table,
a ``postgresql://`` URL named without its password) are the table storage's, written
again here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from moonrules.rules.errors import MoonError, quote, wrong_type
from moonrules.support.databases import describe_postgres, first_line, is_postgres, postgres_driver
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import Tournament
from moonrules.tournament.log import LINE_KEY, EventState, dumps_entry, fold, header
from moonrules.tournament.movement import Movement

if TYPE_CHECKING:  # the postgres extra: imported when a PostgreSQL store is opened
    import psycopg

__all__ = [
    "STORE_VERSION",
    "EventStore",
    "StoreError",
    "Stored",
    "create_event",
    "event_id_of",
    "is_postgres",
    "open_store",
]

STORE_VERSION: Final = 1
"""The version of the ``event_log`` layout (the ``meta`` row ``event_log``)."""

_META: Final = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_SQLITE_LOG: Final = """
CREATE TABLE IF NOT EXISTS event_log (
    event TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    entry TEXT NOT NULL,
    PRIMARY KEY (event, seq)
) WITHOUT ROWID
"""
_PG_LOG: Final = """
CREATE TABLE IF NOT EXISTS event_log (
    event TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    entry TEXT NOT NULL,
    PRIMARY KEY (event, seq)
)
"""
_ROOMS: Final = """
CREATE TABLE IF NOT EXISTS event_rooms (
    event TEXT NOT NULL,
    round INTEGER NOT NULL,
    tbl INTEGER NOT NULL,
    board INTEGER NOT NULL,
    room TEXT NOT NULL,
    PRIMARY KEY (event, round, tbl, board)
)
"""
_LINKS: Final = """
CREATE TABLE IF NOT EXISTS event_room_links (
    event TEXT NOT NULL,
    room TEXT NOT NULL,
    links TEXT NOT NULL,
    PRIMARY KEY (event, room)
)
"""
_DIRECTORS: Final = """
CREATE TABLE IF NOT EXISTS event_directors (
    event TEXT PRIMARY KEY,
    secret TEXT NOT NULL
)
"""
SECRET_BYTES: Final = 32
"""The director's secret: this many random bytes, URL-safe base64."""
_PG_SCHEMA_LOCK: Final = 0x6D6F6F65  # one process at a time creates the tables
_EVENT_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

Check = Callable[[list[str]], EventState]
"""A write's check: from the lines stored to the event with the new entries (or raise)."""


class StoreError(MoonError):
    """The database cannot be used (not a database, of a newer layout, cannot connect), or
    has no such event: one line."""


@attrs.frozen(slots=True)
class Stored:
    """What a write stored: the event, the number of its last entry, the event after it."""

    event: str
    seq: int
    state: EventState = attrs.field(eq=False, repr=False)
    director: str | None = attrs.field(default=None, eq=False, repr=False)
    """A new event's director's secret (given this once: the store keeps its hash only)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def check_event_id(event: str) -> str:
    """``event`` if it is an event id: 1 to 64 letters, digits, ``.``, ``_``, ``-``, the
    first a letter or digit; else :class:`StoreError`."""
    if not isinstance(event, str) or _EVENT_ID.fullmatch(event) is None:
        raise StoreError(
            f"an event id is 1 to 64 letters, digits, '.', '_' or '-' (the first a letter or "
            f"digit), not {quote(str(event))}"
        )
    return event


def event_id_of(name: str) -> str:
    """The id an event gets by default from its name: ``"Bots' night"`` -> ``bots-night``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    return slug or "event"


def open_store(db: str | Path, *, create: bool = True, synchronous: str = "FULL") -> EventStore:
    """The event store ``db`` names: a ``postgresql://`` URL or a SQLite file. With
    ``create`` false (for reading) a SQLite file that does not exist is refused instead of
    made, and no table is created. :class:`StoreError` if it cannot be used."""
    if is_postgres(db):
        assert isinstance(db, str)
        return _PgStore(db, create=create)
    if not isinstance(db, (str, Path)):
        raise wrong_type("db", "a SQLite file path or a postgresql:// URL", db)
    return _SqliteStore(Path(db), create=create, synchronous=synchronous)


class EventStore:
    """Event logs in a database (:func:`open_store`): read them, write them only through
    :func:`~moonrules.tournament.log.fold`'s checks, export them as JSON lines."""

    where: str
    """The database, for messages (a URL without its password)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    # -- what each backend gives --------------------------------------------

    def _read(self, event: str) -> list[str]:
        raise NotImplementedError

    def _events(self) -> list[str]:
        raise NotImplementedError

    def _write(
        self, event: str, first: int | None, lines: Sequence[str], check: Check
    ) -> EventState:
        """In one transaction: read ``event``'s lines, ``check`` them (it raises to refuse),
        insert ``lines`` numbered from ``first``; a writer that stored ``first`` meanwhile
        makes it :class:`TournamentError` (:func:`_taken`)."""
        raise NotImplementedError

    def _add_room(
        self, key: tuple[str, int, int, int], room: str, links: str | None = None
    ) -> bool:
        """Insert the room of ``key`` (event, round, table, board), and its seats' ``links``
        (JSON) if given, in one transaction; false if it has one."""
        raise NotImplementedError

    def _links(self, event: str) -> list[tuple[str, str]]:
        """(room, links) of each room of ``event`` kept with its links."""
        raise NotImplementedError

    def _rooms(self, event: str) -> list[tuple[int, int, int, str]]:
        raise NotImplementedError

    def _set_director(self, event: str, digest: str) -> None:
        """Keep ``digest`` as ``event``'s director's secret (replacing any)."""
        raise NotImplementedError

    def _director(self, event: str) -> str | None:
        """``event``'s director's secret's digest, or ``None``."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------

    def events(self) -> list[str]:
        """The ids of the events stored, in order."""
        with self._lock:
            return self._events()

    def lines(self, event: str) -> list[str]:
        """The entries of ``event``'s log as their lines (no line break), in order;
        :class:`StoreError` if there is no such event."""
        check_event_id(event)
        with self._lock:
            lines = self._read(event)
            if not lines:
                raise StoreError(self._unknown(event))
        return lines

    def entries(self, event: str) -> list[dict[str, Any]]:
        """The entries of ``event``'s log, in order (as :func:`~moonrules.tournament.log.read_log`
        gives a file's, each with its number as its line)."""
        out = []
        for seq, line in enumerate(self.lines(event), 1):
            value = json.loads(line)
            value[LINE_KEY] = seq
            out.append(value)
        return out

    def state(self, event: str) -> EventState:
        """The event as its log stands (folded)."""
        return fold(self.entries(event))

    def export(self, event: str) -> Iterator[str]:
        """The log as JSON lines, each ending with a line break: the bytes a log file of
        the same entries holds (:func:`~moonrules.tournament.log.write_log`)."""
        for line in self.lines(event):
            yield line + "\n"

    def only_event(self) -> str:
        """The one event stored (for commands given no ``--event``); else
        :class:`StoreError` saying which there are."""
        found = self.events()
        if len(found) == 1:
            return found[0]
        if not found:
            raise StoreError(f"{self.where} holds no event")
        return _pick(self.where, found)

    def _unknown(self, event: str) -> str:
        found = self._events()
        listed = ", ".join(found[:10]) + (", …" if len(found) > 10 else "")
        return f"no event {quote(event)} in {self.where}" + (
            f" (its events: {listed})" if found else " (it holds no event)"
        )

    def rooms(self, event: str) -> dict[tuple[int, int, int], str]:
        """The web table's room of each (round, table, board) of ``event`` played there
        (:meth:`add_room`); empty if none."""
        check_event_id(event)
        with self._lock:
            return {(r, t, b): room for r, t, b, room in self._rooms(event)}

    def room_links(self, event: str) -> dict[str, tuple[str | None, ...]]:
        """The seats' links kept with each room of ``event`` (:meth:`add_room`), by room."""
        check_event_id(event)
        with self._lock:
            rows = self._links(event)
        return {room: tuple(json.loads(text)) for room, text in rows}

    def add_room(
        self,
        event: str,
        rnd: int,
        table: int,
        board: int,
        room: str,
        links: Sequence[str | None] | None = None,
    ) -> None:
        """Keep the room of the web table where ``board`` is played at ``table`` in round
        ``rnd`` (its spectators' address, on the event's page), and its seats' ``links`` if
        given (:meth:`room_links`): refused in one line for a table or board the log has not
        seated, or one that has a room already."""
        state = self.state(event)
        seated = state.seating(rnd)
        if seated is None or seated.table(table) is None or board not in seated.boards:
            raise TournamentError(
                f"event {quote(event)}: round {rnd}, table {table}, board {board} is not seated"
            )
        with self._lock:
            text = None if links is None else json.dumps(list(links))
            if not self._add_room((event, rnd, table, board), room, text):
                raise TournamentError(
                    f"event {quote(event)}: round {rnd}, table {table}, board {board} has a "
                    "room already"
                )

    # -- the director's secret ---------------------------------------------------

    def new_director_secret(self, event: str) -> str:
        """A new director's secret for ``event`` (an event of the store): kept hashed, the
        one before it no longer accepted; the secret itself is returned, this once."""
        self.lines(event)  # StoreError if there is no such event
        secret = secrets.token_urlsafe(SECRET_BYTES)
        with self._lock:
            self._set_director(event, _digest(secret))
        return secret

    def director_allowed(self, event: str, secret: str) -> bool:
        """Whether ``secret`` is ``event``'s director's secret (compared in constant time);
        false for an event without one, or an event id that is not one."""
        try:
            check_event_id(event)
        except StoreError:
            return False
        with self._lock:
            kept = self._director(event)
        return kept is not None and hmac.compare_digest(kept, _digest(secret))

    # -- writing ---------------------------------------------------------------

    def create(self, event: str, entries: Sequence[Mapping[str, Any]]) -> Stored:
        """Store a new event: its log ``entries`` (the ``event`` header first, then any
        others), checked by :func:`~moonrules.tournament.log.fold`, in one transaction;
        refused if the event exists (nothing written)."""
        check_event_id(event)
        entries = [dict(e) for e in entries]
        if not entries or entries[0].get("type") != "event":
            raise TournamentError("a log begins with its event entry (type event)", 1)
        lines = [dumps_entry(e) for e in entries]

        def check(stored: list[str]) -> EventState:
            if stored:
                raise TournamentError(f"event {quote(event)} exists already in {self.where}")
            return _fold_at(event, entries, 1)

        with self._lock:
            state = self._write(event, 1, lines, check)
        return Stored(event, len(lines), state, self.new_director_secret(event))

    def append(self, event: str, entry: Mapping[str, Any], *, seq: int | None = None) -> Stored:
        """Append ``entry`` to ``event``'s log if the log with it folds, in one transaction;
        else the :class:`TournamentError` of the refusal, and the log is unchanged.

        ``seq``, if given, is the number the entry is to have (the writer read the log up
        to ``seq - 1``): if the log has moved on meanwhile, the entry is refused.
        """
        return self.extend(event, [entry], seq=seq)

    def extend(
        self, event: str, entries: Sequence[Mapping[str, Any]], *, seq: int | None = None
    ) -> Stored:
        """Append several entries at once: all of them, checked in order, or none
        (``seq``: the number the first is to have, as for :meth:`append`)."""
        check_event_id(event)
        if not entries:
            raise ValueError("entries: at least one")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 2):
            raise ValueError(f"seq: a whole number from 2 (1 is the header), not {seq!r}")
        new = [dict(e) for e in entries]
        lines = [dumps_entry(e) for e in new]
        first = 0

        def check(stored: list[str]) -> EventState:
            nonlocal first
            if not stored:
                raise StoreError(self._unknown(event))
            if seq is not None and seq != len(stored) + 1:
                raise _taken(event, seq, len(stored))
            first = len(stored) + 1
            return _fold_at(event, [*(json.loads(s) for s in stored), *new], first)

        with self._lock:
            state = self._write(event, seq, lines, check)
        return Stored(event, first + len(lines) - 1, state)


def _fold_at(event: str, entries: Sequence[Mapping[str, Any]], first: int) -> EventState:
    """``fold`` the whole log; a refusal names the event and the entry's number (the
    entries before ``first`` are the stored ones: a refusal among them is the database's)."""
    try:
        return fold(entries)
    except TournamentError as e:
        where = f"entry {e.line}" if e.line is not None else "its log"
        if e.line is not None and e.line < first:
            where += " (stored)"
        raise TournamentError(f"event {quote(event)}, {where}: {e.reason}") from None


def _taken(event: str, seq: int, length: int | None) -> TournamentError:
    """The refusal of a writer that lost the race for entry ``seq`` (``length``: the log's
    length as it read it, when it saw the log had moved on)."""
    if seq == 1:
        return TournamentError(f"event {quote(event)} exists already (another writer made it)")
    seen = "" if length is None else f"the log has {length} entries; "
    return TournamentError(
        f"event {quote(event)}: entry {seq} is taken ({seen}another writer stored it first): "
        "nothing written, read the log again"
    )


def _pick(where: str, found: list[str]) -> str:
    listed = ", ".join(found[:10]) + (", …" if len(found) > 10 else "")
    raise StoreError(f"{where} holds {len(found)} events: give --event (one of {listed})")


def create_event(
    store: EventStore, t: Tournament, event: str | None = None, *, movement: Movement | None = None
) -> Stored:
    """Create the event of tournament file ``t`` in ``store``: its header entry
    (:func:`~moonrules.tournament.log.header`), under ``event`` (default: from its name,
    :func:`event_id_of`)."""
    return store.create(event or event_id_of(t.name), [header(t, movement)])


# ---------------------------------------------------------------------------
# SQLite


class _SqliteStore(EventStore):
    def __init__(self, path: Path, *, create: bool, synchronous: str) -> None:
        super().__init__()
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous: 'FULL' or 'NORMAL', not {synchronous!r}")
        self.where = str(path)
        if not create and not path.exists():
            raise StoreError(f"{path}: no such database")
        if path.is_dir():
            raise StoreError(f"{path}: cannot open the database (it is a directory)")
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        except sqlite3.Error as e:  # no such directory, no permission
            raise StoreError(f"{path}: cannot open the database ({e})") from None
        self._db = db
        try:
            db.execute("PRAGMA busy_timeout = 30000")
            if create:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous}")
            has_log = self._has_log()
            if create and not has_log:
                db.execute("BEGIN IMMEDIATE")
                try:
                    db.execute(_META)
                    db.execute(_SQLITE_LOG)
                    db.execute(
                        "INSERT OR IGNORE INTO meta VALUES ('event_log', ?)", (str(STORE_VERSION),)
                    )
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                has_log = True
            self._has = has_log
            if has_log:
                self._check_version()
        except sqlite3.DatabaseError as e:
            db.close()
            raise StoreError(f"{path}: not a database of event logs ({first_line(e)})") from None

    def _has_log(self) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'event_log'"
        ).fetchone()
        return row is not None

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'event_log'").fetchone()
        if row is not None and row[0] != str(STORE_VERSION):
            raise sqlite3.DatabaseError(
                f"event log layout {row[0]}, this version reads {STORE_VERSION}"
            )

    def _events(self) -> list[str]:
        if not self._has:
            return []
        try:
            rows = self._db.execute(
                "SELECT DISTINCT event FROM event_log ORDER BY event"
            ).fetchall()
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [r[0] for r in rows]

    def _read(self, event: str) -> list[str]:
        if not self._has:
            return []
        try:
            return _select(self._db, event, "?")
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None

    def _write(
        self, event: str, first: int | None, lines: Sequence[str], check: Check
    ) -> EventState:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")  # one writer at a time: the read is the last word
            try:
                stored = _select(db, event, "?")
                state: EventState = check(stored)
                start = len(stored) + 1
                db.executemany(
                    "INSERT INTO event_log (event, seq, entry) VALUES (?, ?, ?)",
                    [(event, start + k, line) for k, line in enumerate(lines)],
                )
            except sqlite3.IntegrityError:  # not while BEGIN IMMEDIATE holds the writers off
                db.execute("ROLLBACK")
                raise _taken(event, first or len(stored) + 1, None) from None
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return state

    def _add_room(
        self, key: tuple[str, int, int, int], room: str, links: str | None = None
    ) -> bool:
        db = self._db
        try:
            db.execute(_ROOMS)
            db.execute(_LINKS)
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO event_rooms (event, round, tbl, board, room) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (*key, room),
                )
                if links is not None:
                    db.execute(
                        "INSERT INTO event_room_links (event, room, links) VALUES (?, ?, ?)",
                        (key[0], room, links),
                    )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.IntegrityError:
            return False
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return True

    def _links(self, event: str) -> list[tuple[str, str]]:
        try:
            rows = self._db.execute(
                "SELECT room, links FROM event_room_links WHERE event = ?", (event,)
            ).fetchall()
        except sqlite3.OperationalError:  # no link was ever kept: no table
            return []
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [(str(a), str(b)) for a, b in rows]

    def _rooms(self, event: str) -> list[tuple[int, int, int, str]]:
        try:
            rows = self._db.execute(
                "SELECT round, tbl, board, room FROM event_rooms WHERE event = ?", (event,)
            ).fetchall()
        except sqlite3.OperationalError:  # no room was ever kept: no table
            return []
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [(int(a), int(b), int(c), str(d)) for a, b, c, d in rows]

    def _set_director(self, event: str, digest: str) -> None:
        try:
            self._db.execute(_DIRECTORS)
            self._db.execute(
                "INSERT INTO event_directors (event, secret) VALUES (?, ?) "
                "ON CONFLICT (event) DO UPDATE SET secret = excluded.secret",
                (event, digest),
            )
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None

    def _director(self, event: str) -> str | None:
        try:
            row = self._db.execute(
                "SELECT secret FROM event_directors WHERE event = ?", (event,)
            ).fetchone()
        except sqlite3.OperationalError:  # no secret was ever made: no table
            return None
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return None if row is None else str(row[0])

    def close(self) -> None:
        self._db.close()


def _select(db: Any, event: str, mark: str) -> list[str]:
    rows = db.execute(
        f"SELECT seq, entry FROM event_log WHERE event = {mark} ORDER BY seq", (event,)
    ).fetchall()
    for k, (seq, _) in enumerate(rows, 1):
        if seq != k:
            raise StoreError(f"event {quote(event)}: its log has no entry {k} (a gap)")
    return [r[1] for r in rows]


# ---------------------------------------------------------------------------
# PostgreSQL


def _driver() -> Any:
    """``psycopg``, or :class:`StoreError` saying how to install it."""
    return postgres_driver(StoreError)


def describe(url: str) -> str:
    """The database a URL names, without its password (for messages)."""
    return describe_postgres(url, StoreError)


class _PgStore(EventStore):
    def __init__(self, url: str, *, create: bool, connect_timeout: float = 10.0) -> None:
        super().__init__()
        pg = _driver()
        self.where = describe(url)
        try:
            db: psycopg.Connection[Any] = pg.connect(
                url,
                autocommit=True,
                connect_timeout=max(1, round(connect_timeout)),
                application_name="moonrules-tournament",
            )
        except pg.Error as e:
            raise StoreError(f"{self.where}: cannot connect ({first_line(e)})") from None
        except ValueError as e:  # a malformed URL
            raise StoreError(f"{self.where}: cannot connect ({first_line(e)})") from None
        self._db = db
        try:
            db.execute("SET lock_timeout = '5s'")
            db.execute("SET statement_timeout = '30s'")
            if create:
                with db.transaction():
                    db.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_SCHEMA_LOCK,))
                    db.execute(_META)
                    db.execute(_PG_LOG)
                    db.execute(
                        "INSERT INTO meta VALUES ('event_log', %s) ON CONFLICT DO NOTHING",
                        (str(STORE_VERSION),),
                    )
            self._has = (
                db.execute("SELECT to_regclass('event_log') IS NOT NULL").fetchone() or [False]
            )[0]
            if self._has:
                row = db.execute("SELECT value FROM meta WHERE key = 'event_log'").fetchone()
                if row is not None and row[0] != str(STORE_VERSION):
                    raise StoreError(
                        f"{self.where}: event log layout {row[0]}, this version reads "
                        f"{STORE_VERSION}"
                    )
        except pg.Error as e:
            db.close()
            raise StoreError(f"{self.where}: cannot use the database ({first_line(e)})") from None
        except StoreError:
            db.close()
            raise

    def _events(self) -> list[str]:
        if not self._has:
            return []
        psycopg = _driver()
        try:
            rows = self._db.execute(
                "SELECT DISTINCT event FROM event_log ORDER BY event"
            ).fetchall()
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [r[0] for r in rows]

    def _read(self, event: str) -> list[str]:
        if not self._has:
            return []
        psycopg = _driver()
        try:
            return _select(self._db, event, "%s")
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None

    def _write(
        self, event: str, first: int | None, lines: Sequence[str], check: Check
    ) -> EventState:
        psycopg = _driver()
        from psycopg import errors

        stored: list[str] = []
        try:
            with self._db.transaction():
                stored = _select(self._db, event, "%s")
                state: EventState = check(stored)
                start = len(stored) + 1
                with self._db.cursor() as c:
                    c.executemany(
                        "INSERT INTO event_log (event, seq, entry) VALUES (%s, %s, %s)",
                        [(event, start + k, line) for k, line in enumerate(lines)],
                    )
        except errors.UniqueViolation:
            # another writer committed this number after the read: one of the two wins
            raise _taken(event, first or len(stored) + 1, None) from None
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return state

    def _add_room(
        self, key: tuple[str, int, int, int], room: str, links: str | None = None
    ) -> bool:
        psycopg = _driver()
        try:
            with self._db.transaction():
                self._db.execute(_ROOMS)
                self._db.execute(_LINKS)
                row = self._db.execute(
                    "INSERT INTO event_rooms (event, round, tbl, board, room) "
                    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1",
                    (*key, room),
                ).fetchone()
                if row is not None and links is not None:
                    self._db.execute(
                        "INSERT INTO event_room_links (event, room, links) VALUES (%s, %s, %s) "
                        "ON CONFLICT DO NOTHING",
                        (key[0], room, links),
                    )
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return row is not None

    def _links(self, event: str) -> list[tuple[str, str]]:
        psycopg = _driver()
        try:
            if not (
                self._db.execute("SELECT to_regclass('event_room_links') IS NOT NULL").fetchone()
                or [False]
            )[0]:
                return []
            rows = self._db.execute(
                "SELECT room, links FROM event_room_links WHERE event = %s", (event,)
            ).fetchall()
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [(str(a), str(b)) for a, b in rows]

    def _rooms(self, event: str) -> list[tuple[int, int, int, str]]:
        psycopg = _driver()
        try:
            if not (
                self._db.execute("SELECT to_regclass('event_rooms') IS NOT NULL").fetchone()
                or [False]
            )[0]:
                return []
            rows = self._db.execute(
                "SELECT round, tbl, board, room FROM event_rooms WHERE event = %s", (event,)
            ).fetchall()
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return [(int(a), int(b), int(c), str(d)) for a, b, c, d in rows]

    def _set_director(self, event: str, digest: str) -> None:
        psycopg = _driver()
        try:
            with self._db.transaction():
                self._db.execute(_DIRECTORS)
                self._db.execute(
                    "INSERT INTO event_directors (event, secret) VALUES (%s, %s) "
                    "ON CONFLICT (event) DO UPDATE SET secret = excluded.secret",
                    (event, digest),
                )
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None

    def _director(self, event: str) -> str | None:
        psycopg = _driver()
        try:
            if not (
                self._db.execute("SELECT to_regclass('event_directors') IS NOT NULL").fetchone()
                or [False]
            )[0]:
                return None
            row = self._db.execute(
                "SELECT secret FROM event_directors WHERE event = %s", (event,)
            ).fetchone()
        except psycopg.Error as e:
            raise StoreError(f"{self.where}: {first_line(e)}") from None
        return None if row is None else str(row[0])

    def close(self) -> None:
        self._db.close()
