"""The table's web application: Starlette over uvicorn, WebSockets for the game.

Routes (the protocol is ``spec/table.md``, the limits ``docs/limits.md``):

- ``GET /`` the lobby page; ``POST /api/rooms`` creates a room (JSON in, 201 and the
  seats' links out); ``GET /api/rooms/{room}`` who sits where (nothing secret);
- ``GET /rooms/{room}`` the table page (a seat's link carries its token after ``#``, so
  the token never reaches a log or a ``Referer``); ``WS /rooms/{room}/ws?token=…`` the
  game (no token: a spectator); ``GET /rooms/{room}/record`` the game record, once over;
- ``GET /events/{event}`` an event's page (standings, rounds, tables, hand records,
  ratings), ``/events/{event}/standings.json`` and ``.csv``, ``ratings.json``, each
  board's record and review (``records/…``, ``reviews/…``): recomputed from the event's
  log kept in the same database (:mod:`moonrules.table.events`);
- ``GET/POST /events/{event}/director/{secret}`` the director's console
  (:mod:`moonrules.table.director`);
- ``GET /i18n/{lang}.json`` the page's words in a language (the ``table`` catalog);
- ``GET /tiles/{tile}.svg`` the library's own picture of a tile
  (:func:`moonrules.arbitration.render.tile_svg`); ``/static/…`` the page's script and style.

This module, :mod:`moonrules.table.event_routes` (the event's pages) and
:mod:`moonrules.table.http` are the only ones of :mod:`moonrules.table` that import the
``table`` extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from moonrules.arbitration.render import tile_svg
from moonrules.bots.levels import level_ratings
from moonrules.i18n.table_catalog import catalog_json
from moonrules.records.jsontext import JSONTextError, loads, size_text
from moonrules.records.record import JSON
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import PRESETS
from moonrules.rules.tiles import DOUBLE_SIX_SET, Tile
from moonrules.table.botpool import BotPool, BotSpec
from moonrules.table.event_routes import EventRoutes
from moonrules.table.http import HEADERS, ROOM_ID, error_response
from moonrules.table.room import Bucket
from moonrules.table.rooms import MOVING_CODE, Room, RoomError, Table, TableLimits
from moonrules.table.storage import Storage
from moonrules.table.storage_pg import PgStorage
from moonrules.table.wire import encode, refused

log = logging.getLogger("moonrules.table")

_MAX_TOKEN: Final = 128
_TOKEN_IN_TEXT: Final = re.compile(r"(token=)[^&\s\"']+")
_SECRET_IN_PATH: Final = re.compile(r"(/director/)[^/?#\s\"']+")

RESTART_CODE: Final = 1012
"""The WebSocket close code every client gets when the server stops (RFC 6455's "service
restart"): the page reconnects, and finds the game where it was."""
RESTART_REASON: Final = "the table is restarting; reconnect in a moment"
DRAIN_SECONDS: Final = 4.0
"""At most this long, when the server stops, for the actions under way to be stored and
every client to hear the close; the connections left are then cut (a signal to stop is
answered in well under 10 s)."""
LEASE_TICK: Final = 0.25
"""On PostgreSQL, how often a process looks for rooms another one asked for (it hands them
over at once: the asker waits about this long)."""
TAKEOVER_EVERY: Final = 1.0
"""On PostgreSQL, how often a process looks for games with a bot to move whose owner is gone
(a process killed: its rooms' clients come back by themselves, its bots' games do not)."""
GC_THRESHOLDS: Final = (10_000, 20, 10)
"""The cycle collector's thresholds in the server process (Python's are ``(700, 10, 10)``).
A server holds thousands of connections' objects, long-lived, and allocates many short-lived
ones per message: at Python's defaults the collector went through all of them every few
seconds under load, for hundreds of milliseconds each time, with the event loop stopped
(the bench's p99); counted in ten thousands, those full passes are minutes apart."""


def settle_gc() -> None:
    """Once the server has started: the objects of its start (modules, classes, the
    application) moved out of the cycle collector's reach (:func:`gc.freeze`: they live as
    long as the process), and the collector run less often (:data:`GC_THRESHOLDS`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@attrs.frozen(slots=True)
class TableConfig:
    """How a table server runs: where it stores, its limits, bots and origins."""

    db: Path | str = Path("moonrules-table.sqlite3")
    """The SQLite file (created if missing), or a ``postgresql://`` URL: several processes
    then share the database, each room served by one of them at a time (its lease)."""
    limits: TableLimits = attrs.field(factory=TableLimits)
    bots: Mapping[str, BotSpec] | None = None
    """The bot levels rooms may seat (default: ``random``, ``basic``, ``strong``)."""
    public_url: str | None = None
    """The address people reach the server at (``https://moon.example``): the links of a
    new room start with it. Default: the address each request came to."""
    allowed_origins: tuple[str, ...] = ()
    """Origins, besides the server's own, whose pages may create rooms and connect."""
    synchronous: str = "FULL"
    """SQLite's ``synchronous``: ``FULL`` (durable against power loss) or ``NORMAL``."""
    quick_workers: int = 1
    slow_workers: int | None = None
    help_workers: int = 1
    """Workers of the players' help (hints, claims, reviews): their own, so that help never
    holds up a bot's move."""
    bot_timeout: float = 300.0


def _static(name: str) -> bytes:
    return resources.files("moonrules.table").joinpath("static", name).read_bytes()


class _LoopLag:
    """How late the event loop runs a timer: a sample every :attr:`every` seconds, the last
    :attr:`window` seconds kept (the figure of a server too busy to answer on time)."""

    every: Final = 0.05
    window: Final = 10.0

    def __init__(self) -> None:
        self.samples: deque[float] = deque(maxlen=int(self.window / self.every))

    async def run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.every)
            self.samples.append(max(0.0, time.perf_counter() - start - self.every))

    def summary(self) -> dict[str, float]:
        """The median, 99th percentile and largest lag of the window, in milliseconds."""
        ranked = sorted(self.samples) or [0.0]
        pick = ranked[min(len(ranked) - 1, int(len(ranked) * 0.99))]
        mid = ranked[len(ranked) // 2]
        return {
            "median_ms": round(mid * 1e3, 2),
            "p99_ms": round(pick * 1e3, 2),
            "max_ms": round(ranked[-1] * 1e3, 2),
        }


class _Connection:
    """One WebSocket: its seat, and the messages waiting for it (a bounded outbox)."""

    def __init__(
        self, ws: WebSocket, seat: int | None, limits: TableLimits, address: str = ""
    ) -> None:
        self.ws = ws
        self._seat = seat
        self.address = address
        """The client's address (its help is counted by address)."""
        self.limits = limits
        self.outbox: deque[tuple[bool, str]] = deque()
        self.wake = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.sending: float | None = None
        """When the message being sent was handed to the socket (the loop's clock), or
        ``None`` between messages."""
        self.task: asyncio.Task[None] | None = None
        """The :meth:`sender` task (cancelled when a send waits too long)."""

    @property
    def seat(self) -> int | None:
        return self._seat

    def send_state(self, text: str) -> None:
        if self.outbox and self.outbox[-1][0]:
            self.outbox.pop()  # an older state not sent yet: only the newest matters
        self.outbox.append((True, text))
        self.wake.set()

    def send(self, text: str) -> bool:
        if len(self.outbox) >= self.limits.max_pending:
            self.disconnect(1008, "too many messages wait for this connection to read them")
            return False
        self.outbox.append((False, text))
        self.wake.set()
        return True

    def disconnect(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()

    async def sender(self) -> None:
        """Send what waits, in order; stop when asked to close. A send that waits (the
        client does not read: its socket's buffer is full) is timed by :attr:`sending`,
        which :meth:`TableApp._watch_sends` checks (no timer per message)."""
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                _, text = self.outbox.popleft()
                self.sending = loop.time()
                await self.ws.send_text(text)
                self.sending = None
            if self.closing is not None:
                code, reason = self.closing
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(code, reason), 5)
                return


def open_storage(db: Path | str, synchronous: str = "FULL") -> Storage | PgStorage:
    """The store ``db`` names: a ``postgresql://`` URL or an SQLite file."""
    if isinstance(db, str) and db.startswith(("postgresql://", "postgres://")):
        return PgStorage(db)
    return Storage(db, synchronous=synchronous)


class TableApp:
    """The application's state: the :class:`Table` and what serves it."""

    def __init__(self, config: TableConfig) -> None:
        if not isinstance(config, TableConfig):
            raise wrong_type("config", "a TableConfig", config)
        self.config = config
        self.table: Table | None = None
        self.by_address: dict[str, int] = {}
        """WebSocket connections open, by client address."""
        self.open: set[_Connection] = set()
        """The game's WebSocket connections (told to close when the server stops)."""
        self.stopping = False
        """Set when the server stops: no new connection or action is taken."""
        self.lag = _LoopLag()
        self._tiles: dict[str, bytes] = {}
        self._creators: dict[str, Bucket] = {}
        self._pages = {name: _static(name) for name in ("lobby.html", "room.html")}
        self.events = EventRoutes(self)
        """The event pages and the director's console (their logs opened on first use)."""

    # -- life -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        c = self.config
        storage = open_storage(c.db, c.synchronous)
        pool: BotPool | None = None
        try:
            pool = BotPool(
                c.bots,
                quick_workers=c.quick_workers,
                slow_workers=c.slow_workers,
                help_workers=c.help_workers,
                timeout=c.bot_timeout,
            )
            if not await asyncio.to_thread(pool.wait_ready):
                log.warning("the bots' workers did not all start within 60 s")
            self.table = Table(storage, pool, c.limits)
            sweeper = asyncio.get_running_loop().create_task(self._sweep())
            lag = asyncio.get_running_loop().create_task(self.lag.run())
            sends = asyncio.get_running_loop().create_task(self._watch_sends())
            leases = None
            if isinstance(storage, PgStorage):
                leases = asyncio.get_running_loop().create_task(self._leases(storage))
            try:
                resumed = await self.table.start()
                if resumed:
                    log.info("resumed %d game(s) with a bot to move", resumed)
                yield
            finally:
                sweeper.cancel()
                lag.cancel()
                sends.cancel()
                if leases is not None:
                    leases.cancel()
                self.stopping = True
                await self.table.close()
                if isinstance(storage, PgStorage):  # the others may take the rooms at once
                    with contextlib.suppress(sqlite3.Error):
                        await storage.release()
        finally:
            if pool is not None:
                pool.close()
            storage.close()
            self.events.close()

    async def stop(self, timeout: float = DRAIN_SECONDS) -> None:
        """Stop serving, before the server closes the connections and the lifespan ends:
        no new action is taken (a frame that arrives is refused ``unavailable``), the bots
        stop (their workers are killed), the actions under way are stored (each room's
        lock waited for), then every connection is sent what waits for it and closed with
        :data:`RESTART_CODE`. Returns within ``timeout`` seconds (what is left then is cut
        by the server)."""
        self.stopping = True
        table = self.table
        try:
            async with asyncio.timeout(timeout):
                if table is not None:
                    await table.close()  # cancels the bots' turns (an action being stored goes on)
                    table.bots.close()
                    for room in list(table.rooms.values()):
                        async with room.lock:  # the actions under way, stored and told
                            pass
                for conn in list(self.open):
                    conn.disconnect(RESTART_CODE, RESTART_REASON)
                while self.open:
                    await asyncio.sleep(0.02)
        except TimeoutError:
            log.warning(
                "stopping: %d connection(s) did not close within %g s; they are cut",
                len(self.open),
                timeout,
            )

    async def _leases(self, storage: PgStorage) -> None:
        """This process's share of the rooms, on PostgreSQL: every :data:`LEASE_TICK`, the
        rooms another process asked for are handed over; every :data:`TAKEOVER_EVERY`, the
        games with a bot to move whose owner is gone are taken over; every third of a lease,
        the leases of the rooms it serves are renewed (a room whose lease another process
        took is dropped, its clients sent on) and those of the rooms it no longer serves
        (forgotten when idle) given up. The rooms being loaded, created or taken over are
        kept (:meth:`Table.pinned`, read just before the database is asked)."""
        table = self._table()
        renewed = taken = time.monotonic()
        while not self.stopping:
            await asyncio.sleep(LEASE_TICK)
            try:
                for room_id in await storage.wanted():
                    if await table.hand_over(room_id, release=True):
                        log.info("room %s: handed over to the process that asked for it", room_id)
                now = time.monotonic()
                if now - renewed >= storage.lease_seconds / 3:
                    renewed = now
                    serving = list(table.rooms)
                    held = await storage.renew(table.pinned())
                    for room_id in serving:
                        if room_id not in held and await table.hand_over(room_id, release=False):
                            log.warning("room %s: its lease was lost to another process", room_id)
                    await storage.release_others(table.pinned())
                if now - taken >= TAKEOVER_EVERY:
                    taken = now
                    resumed = await table.start()
                    if resumed:
                        log.info("took over %d game(s) with a bot to move", resumed)
            except sqlite3.Error as e:
                log.warning("leases: %s", e)

    async def _watch_sends(self) -> None:
        """Cut every connection whose message has waited longer than the send timeout for
        its client to read (checked a few times per timeout, at most every second)."""
        timeout = self._table().limits.send_timeout
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(1.0, timeout / 4))
            now = loop.time()
            for conn in list(self.open):
                since = conn.sending
                if since is not None and now - since > timeout and conn.task is not None:
                    log.info("a client did not read for %g s: disconnected", timeout)
                    conn.task.cancel()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(60)
            if self.table is not None:
                self.table.evict_idle()

    def _table(self) -> Table:
        assert self.table is not None, "the table runs inside the application's lifespan"
        return self.table

    # -- checks -------------------------------------------------------------------

    def origin_allowed(self, headers: Mapping[str, str]) -> bool:
        """Whether a request may change state: a browser's request comes from the
        server's own pages (or an allowed origin); a request without ``Origin``
        (a program, not a page) may."""
        site = headers.get("sec-fetch-site")
        origin = headers.get("origin")
        if origin is None:
            return site in (None, "same-origin", "none")
        if origin in self.config.allowed_origins:
            return True
        host = headers.get("host", "")
        return urlsplit(origin).netloc.lower() == host.lower() and site != "cross-site"

    def base_url(self, request: Request) -> str:
        if self.config.public_url:
            return self.config.public_url.rstrip("/")
        return str(request.base_url).rstrip("/")

    # -- HTTP -----------------------------------------------------------------------

    async def catalog(self, request: Request) -> Response:
        """``GET /i18n/{lang}.json``: the page's words in ``lang``
        (:func:`moonrules.i18n.table_catalog.catalog_json`); a language without a catalog
        gets English, marked ``fallback`` (the page says so), never an error."""
        asked = request.path_params["lang"]
        try:
            body = catalog_json(asked)
        except ImportError:  # Babel (the extra [i18n]) is not installed: English as written
            body = {"lang": "en", "fallback": True, "asked": asked[:40], "domains": {}}
        return JSONResponse(body, headers={**HEADERS, "Cache-Control": "max-age=300"})

    async def lobby(self, request: Request) -> Response:
        return HTMLResponse(self._pages["lobby.html"], headers=HEADERS)

    async def options(self, request: Request) -> Response:
        table = self._table()
        presets = [
            {"name": name, "players": r.players, "partnership": r.partnership}
            for name, r in PRESETS.items()
        ]
        rated = level_ratings()
        ratings = {b: rated[b] for b in table.bots.names if b in rated}
        body = {"presets": presets, "bots": list(table.bots.names), "ratings": ratings}
        return JSONResponse(body, headers=HEADERS)

    async def create_room(self, request: Request) -> Response:
        table = self._table()
        if not self.origin_allowed(request.headers):
            return error_response(403, "a page of another site may not create rooms here")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return error_response(415, "send the room as JSON (Content-Type: application/json)")
        client = request.client.host if request.client else "?"
        limits = table.limits
        bucket = self._creators.get(client)
        if bucket is None:
            if len(self._creators) > 10_000:
                self._creators.clear()
            bucket = self._creators[client] = Bucket(limits.room_rate, limits.room_burst)
        if not bucket.take():
            return error_response(429, "too many rooms created from this address; wait a little")
        try:
            async with asyncio.timeout(limits.request_timeout):
                body = await _read_body(request, limits.max_body_bytes)
        except TimeoutError:
            return error_response(
                408, f"the request body took more than {limits.request_timeout:g} s"
            )
        if isinstance(body, Response):
            return body
        try:
            created = await table.create(body)
        except RoomError as e:
            return error_response(e.status, e.message)
        base = self.base_url(request)
        room_url = f"{base}/rooms/{created.room}"
        return JSONResponse(
            {
                "room": created.room,
                "seats": [
                    {"seat": s, "url": f"{room_url}#token={t}", "token": t}
                    for s, t in sorted(created.tokens.items())
                ],
                "watch": room_url,
            },
            status_code=201,
            headers=HEADERS,
        )

    async def _room_orerror_response(self, request: Request) -> Room | Response:
        room_id = request.path_params["room"]
        if not ROOM_ID.fullmatch(room_id):
            return error_response(404, "no such room")
        try:
            room = await self._table().room(room_id)
        except RoomError as e:  # the room is moving between processes
            return error_response(e.status, e.message)
        if room is None:
            return error_response(404, "no such room")
        return room

    async def room_info(self, request: Request) -> Response:
        room = await self._room_orerror_response(request)
        if isinstance(room, Response):
            return room
        return JSONResponse(room.table_json(None), headers=HEADERS)

    async def room_page(self, request: Request) -> Response:
        room = await self._room_orerror_response(request)
        if isinstance(room, Response) and room.status_code == 503:
            return HTMLResponse(
                "<!doctype html><title>One moment</title><p>This room is moving between "
                "servers; reload the page in a moment.",
                status_code=503,
                headers={**HEADERS, "Retry-After": "1"},
            )
        if isinstance(room, Response):
            return HTMLResponse(
                "<!doctype html><title>No such room</title><p>No such room. "
                '<a href="/">Back to the lobby</a>',
                status_code=404,
                headers=HEADERS,
            )
        return HTMLResponse(self._pages["room.html"], headers=HEADERS)

    async def record(self, request: Request) -> Response:
        room = await self._room_orerror_response(request)
        if isinstance(room, Response):
            return room
        try:
            record = self._table().record(room)
        except RoomError as e:
            return error_response(e.status, e.message)
        headers = dict(HEADERS)
        headers["Content-Disposition"] = f'attachment; filename="moon-{room.id}.json"'
        return JSONResponse(record, headers=headers)

    async def tile(self, request: Request) -> Response:
        name = request.path_params["tile"]
        svg = self._tiles.get(name)
        if svg is None:
            try:
                t = Tile.parse(name)
            except ValueError:
                return error_response(404, "no such tile")
            if t not in DOUBLE_SIX_SET or str(t) != name:
                return error_response(404, "no such tile")
            svg = tile_svg(t, size=48, title=f"{t}").encode()
            self._tiles[name] = svg
        headers = dict(HEADERS)
        headers["Cache-Control"] = "public, max-age=86400"
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def health(self, request: Request) -> Response:
        table = self._table()
        return JSONResponse(
            {
                "rooms": len(table.rooms),
                "connections": table.connections,
                "bots_thinking": table.bots.thinking,
                "loop_lag": self.lag.summary(),
            }
        )

    # -- the game -------------------------------------------------------------------

    async def game(self, ws: WebSocket) -> None:
        table = self._table()
        limits = table.limits
        if self.stopping:
            await ws.accept()
            await ws.close(RESTART_CODE, RESTART_REASON)
            return
        if not self.origin_allowed(ws.headers):
            await ws.accept()  # (accepted, to say why in the close frame)
            await ws.close(4403, "a page of another site may not connect here")
            return
        if table.connections >= limits.max_connections:
            await ws.accept()
            await ws.close(1013, "the server has too many connections; try again later")
            return
        address = ws.client.host if ws.client is not None else ""
        if self.by_address.get(address, 0) >= limits.max_address_connections:
            await ws.accept()
            await ws.close(1013, "too many connections from this address; close some first")
            return
        table.connections += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        try:
            await self._game(ws, table, limits)
        finally:
            table.connections -= 1
            left = self.by_address.pop(address) - 1
            if left:
                self.by_address[address] = left

    async def _game(self, ws: WebSocket, table: Table, limits: TableLimits) -> None:
        room_id = ws.path_params["room"]
        try:
            room = await table.room(room_id) if ROOM_ID.fullmatch(room_id) else None
        except RoomError as e:  # the room is moving between processes: try again
            await ws.accept()
            await ws.close(MOVING_CODE, e.message)
            return
        await ws.accept()
        if room is None:
            await ws.close(4404, "no such room")
            return
        token = ws.query_params.get("token")
        seat = None
        if token is not None:
            seat = room.seat_of(token) if len(token) <= _MAX_TOKEN else None
            if seat is None:
                await ws.close(4403, "this link's token is not a seat of this room")
                return
        # spectators and each seat counted apart: watchers cannot keep a player out, nor
        # one player's tabs another player
        alike = sum(1 for x in room.listeners if x.seat == seat)
        if seat is None and alike >= limits.max_room_connections:
            await ws.close(1013, "this room has too many spectators; try again later")
            return
        if seat is not None and alike >= limits.max_seat_connections:
            await ws.close(1013, "this seat has too many connections open; close one first")
            return
        conn = _Connection(ws, seat, limits, ws.client.host if ws.client is not None else "")
        self.open.add(conn)
        try:
            if self.stopping:  # (stopped while the room was loaded)
                await ws.close(RESTART_CODE, RESTART_REASON)
                return
            await table.join(room, conn)
            sender = conn.task = asyncio.get_running_loop().create_task(conn.sender())
            receiver = asyncio.get_running_loop().create_task(self._receive(ws, table, room, conn))
            try:
                await asyncio.wait((sender, receiver), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sender, receiver):
                    task.cancel()
                with contextlib.suppress(BaseException):  # the socket closed under it
                    await sender
                try:
                    await receiver
                except (asyncio.CancelledError, WebSocketDisconnect, OSError):
                    pass
                except Exception:  # a fault of the server's in a frame: logged, never hidden
                    log.exception("room %s: a frame could not be handled", room.id)
                table.leave(room, conn)
        finally:
            self.open.discard(conn)

    async def _receive(self, ws: WebSocket, table: Table, room: Room, conn: _Connection) -> None:
        limits = table.limits
        # a seat's messages are counted for the seat (its tabs and reconnections together),
        # a spectator's for its connection
        bucket = (
            Bucket(limits.rate, limits.burst)
            if conn.seat is None
            else room.bucket(conn.seat, limits)
        )
        too_fast = 0
        while conn.closing is None:
            # the sender's turn before the next frame: frames a client sent at once are all
            # read without waiting, and their answers must not pile up unsent meanwhile
            await asyncio.sleep(0)
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not bucket.take():
                too_fast += 1
                if too_fast > limits.max_refused:
                    conn.disconnect(1008, "too many messages, too fast")
                    return
                conn.send(encode(refused("too-fast", "too many messages: slow down", [])))
                continue
            if text is None:
                note = "a frame is JSON text; binary frames are refused"
                conn.send(encode(refused("bad-frame", note, room.legal_for(conn.seat))))
                continue
            if self.stopping:  # the server stops: nothing more is taken (nor lost)
                conn.send(encode(refused("unavailable", RESTART_REASON, [])))
                continue
            await table.receive(room, conn, text)


async def _read_body(request: Request, limit: int) -> JSON | Response:
    """The request's JSON body, read up to ``limit`` bytes, or the error response."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        return error_response(413, f"the request body is larger than {size_text(limit)}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return error_response(413, f"the request body is larger than {size_text(limit)}")
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
        return loads(text, max_length=limit)
    except UnicodeDecodeError:
        return error_response(400, "the request body is not UTF-8 text")
    except JSONTextError as e:
        return error_response(400, f"the request body is not JSON: {e.message}")


def create_app(config: TableConfig | None = None) -> Starlette:
    """The table's ASGI application (serve it with :func:`serve`, or any ASGI server
    that runs the application's lifespan)."""
    tapp = TableApp(TableConfig() if config is None else config)
    static = StaticFiles(packages=[("moonrules.table", "static")])
    routes = [
        Route("/", tapp.lobby),
        Route("/api/options", tapp.options),
        Route("/api/rooms", tapp.create_room, methods=["POST"]),
        Route("/api/rooms/{room}", tapp.room_info),
        Route("/rooms/{room}", tapp.room_page),
        Route("/rooms/{room}/record", tapp.record),
        WebSocketRoute("/rooms/{room}/ws", tapp.game),
        Route("/events/{event}", tapp.events.event_page),
        Route("/events/{event}/standings.json", tapp.events.event_standings_json),
        Route("/events/{event}/standings.csv", tapp.events.event_standings_csv),
        Route("/events/{event}/records/{round}/{table}/{board}", tapp.events.event_record),
        Route("/events/{event}/director/{secret}", tapp.events.director_page, methods=["GET"]),
        Route("/events/{event}/director/{secret}", tapp.events.director_act, methods=["POST"]),
        Route("/events/{event}/reviews/{round}/{table}/{board}", tapp.events.event_review),
        Route("/events/{event}/ratings.json", tapp.events.event_ratings_json),
        Route("/tiles/{tile}.svg", tapp.tile),
        Route("/healthz", tapp.health),
        Route("/i18n/{lang}.json", tapp.catalog),
        Mount("/static", app=static, name="static"),
    ]
    app = Starlette(routes=routes, lifespan=tapp.lifespan)
    app.state.table_app = tapp
    return app


class RedactTokens(logging.Filter):
    """Writes ``token=…`` in any log line as ``token=(hidden)``: a seat's token is a
    secret, and a WebSocket's address carries it; likewise a director's console address as
    ``/director/(hidden)`` (its path carries the director's secret). An exception logged
    with its traceback (uvicorn's, for a frame of text that is not UTF-8) is written on the
    same line, as its type and message, so that a client cannot fill the log with
    tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token=" in text:
            text = _TOKEN_IN_TEXT.sub(r"\1(hidden)", text)
            record.msg, record.args = text, ()
        if "/director/" in text:
            record.msg, record.args = _SECRET_IN_PATH.sub(r"\1(hidden)", text), ()
        if record.exc_info and record.exc_info[1] is not None:  # one line: no traceback
            e = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(e).__name__}: {e})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's logging, with every token hidden and one line per event."""
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "plain",
        "filters": ["redact"],
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": RedactTokens}},
        "formatters": {"plain": {"format": fmt}},
        "handlers": {"stderr": handler},
        "loggers": {
            name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "moonrules.table")
        },
    }


def uvicorn_config(
    config: TableConfig, host: str, port: int, *, log_level: str = "info", **more: Any
) -> Any:
    """The :class:`uvicorn.Config` serving the table (WebSocket limits included)."""
    import uvicorn

    from moonrules.table.guard import guarded_http

    limits = config.limits
    return uvicorn.Config(
        create_app(config),
        host=host,
        port=port,
        http=guarded_http(limits, per_address=not more.get("proxy_headers", False)),
        ws="websockets-sansio",
        ws_max_size=limits.max_frame_bytes,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        limit_concurrency=limits.max_connections + 256,
        # after TableApp.stop: the requests and connections left get this long, then are cut
        timeout_graceful_shutdown=3,
        h11_max_incomplete_event_size=16 * 1024,
        timeout_keep_alive=5,
        server_header=False,
        log_config=log_config(log_level),
        log_level=log_level,
        **more,
    )


def table_server(
    config: TableConfig, host: str, port: int, *, log_level: str = "info", **more: Any
) -> Any:
    """The :class:`uvicorn.Server` of the table (options as :func:`uvicorn_config`).

    Stopped (SIGTERM or SIGINT, which uvicorn catches), it first closes its listening
    sockets and runs :meth:`TableApp.stop` (actions under way stored, every client told
    :data:`RESTART_CODE` and why), then uvicorn's own shutdown (what is left cut after
    3 s) and the application's end (bot workers killed, the database closed)."""
    import uvicorn

    uconfig = uvicorn_config(config, host, port, log_level=log_level, **more)
    tapp: TableApp = uconfig.app.state.table_app

    class TableServer(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            settle_gc()

        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            for server in self.servers:
                server.close()  # no new connection while the others are told
            for sock in sockets or []:
                sock.close()
            if not self.force_exit:
                await tapp.stop()
            await super().shutdown(sockets)

    return TableServer(uconfig)


def serve(
    config: TableConfig,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "info",
    sockets: Sequence[Any] | None = None,
) -> None:
    """Run the table server until interrupted (SIGINT or SIGTERM: see :func:`table_server`)."""
    server = table_server(config, host, port, log_level=log_level)
    server.run(sockets=list(sockets) if sockets else None)


__all__ = [
    "RedactTokens",
    "TableApp",
    "TableConfig",
    "create_app",
    "log_config",
    "serve",
    "table_server",
    "uvicorn_config",
]
