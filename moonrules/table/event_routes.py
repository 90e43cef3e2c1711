"""The table's pages of an event (:mod:`moonrules.tournament`): its page, standings as JSON
and CSV, ratings, each board's record and review, and the director's console. Each is
recomputed from the event's log kept in the table's database (:mod:`moonrules.table.events`,
:mod:`moonrules.table.director`); the routes are :func:`moonrules.table.server.create_app`'s.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from moonrules.table.events import board_complete, event_html, event_json
from moonrules.table.http import HEADERS, ROOM_ID, error_response, page_language
from moonrules.table.rooms import RoomError
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.log import EventState
from moonrules.tournament.scoring import standings, standings_csv
from moonrules.tournament.store import EventStore, StoreError, check_event_id, open_store

if TYPE_CHECKING:
    from moonrules.table.server import TableApp

log = logging.getLogger("moonrules.table")


class EventRoutes:
    """The event pages of ``app`` (:class:`~moonrules.table.server.TableApp`): the event
    logs of its database, opened on first use (read only), and the double-dummy jobs under
    way."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self._events: EventStore | None = None
        self._dd_jobs: dict[Any, asyncio.Task[None]] = {}

    def close(self) -> None:
        """The event logs closed (when the server stops)."""
        if self._events is not None:
            self._events.close()
            self._events = None

    def _read_event(self, event: str) -> tuple[EventState, dict[tuple[int, int, int], str]]:
        """The event as its log stands, and its rooms (in a thread: the store is synchronous)."""
        if self._events is None:
            self._events = open_store(self.app.config.db, create=False, synchronous="NORMAL")
        return self._events.state(event), self._events.rooms(event)

    async def _event(
        self, request: Request
    ) -> tuple[str, EventState, dict[tuple[int, int, int], str]] | Response:
        event = request.path_params["event"]
        try:
            check_event_id(event)
            state, rooms = await asyncio.to_thread(self._read_event, event)
        except StoreError as e:
            if str(e).startswith("no event") or "event id" in str(e):
                return error_response(404, "no such event")
            log.error("events: %s", e)
            return error_response(503, "the event's log cannot be read now; try again")
        except TournamentError as e:
            log.error("event %s: %s", event, e)
            return error_response(500, f"the event's log is refused: {e}")
        return event, state, rooms

    async def event_page(self, request: Request) -> Response:
        got = await self._event(request)
        if isinstance(got, Response):
            from moonrules.table.events import no_event_html

            return HTMLResponse(
                no_event_html(page_language(request)[0]),
                status_code=got.status_code,
                headers=HEADERS,
            )
        await self._event_double_dummy(got[1])
        headers = {**HEADERS, "Cache-Control": "no-store", "Vary": "Cookie, Accept-Language"}
        lang, asked = page_language(request)
        page = await asyncio.to_thread(event_html, *got, lang, asked)
        return HTMLResponse(page, headers=headers)

    async def event_standings_json(self, request: Request) -> Response:
        got = await self._event(request)
        if isinstance(got, Response):
            return got
        await self._event_double_dummy(got[1])
        data = await asyncio.to_thread(event_json, *got)
        return JSONResponse(data, headers={**HEADERS, "Cache-Control": "no-store"})

    async def _event_double_dummy(self, state: EventState, wait: float = 10.0) -> None:
        """Work out, in a worker of the players' help, the double-dummy values of the boards
        every table has played that are not kept yet: one job per deal, started once (a
        second page asking meanwhile waits for the same job), waited for up to ``wait``
        seconds; the page says the values it has not are being worked out."""
        from moonrules.table import events

        jobs = self._dd_jobs
        wanted = events.double_dummy_missing(state)
        if not wanted or self.app.table is None:
            return
        for key in wanted:
            if key not in jobs:
                jobs[key] = asyncio.get_running_loop().create_task(self._event_deal(*key))
        running = [jobs[k] for k in wanted]
        await asyncio.wait(running, timeout=wait)
        for k in wanted:
            if k in jobs and jobs[k].done():
                del jobs[k]

    async def _event_deal(self, rules: Any, deal: tuple[int, ...]) -> None:
        from moonrules.table import events
        from moonrules.table.botpool import HELP, BotFailed

        try:
            (values,) = await self.app._table().bots.run(
                HELP, events.double_dummy_all, ([(rules, deal)],), what="the double-dummy values"
            )
        except BotFailed as e:
            log.warning("events: %s", e)
            return
        events.remember_double_dummy(rules, deal, values)

    async def event_ratings_json(self, request: Request) -> Response:
        from moonrules.table.events import event_ratings

        got = await self._event(request)
        if isinstance(got, Response):
            return got
        event, state, _ = got
        ratings = await asyncio.to_thread(event_ratings, state)
        if isinstance(ratings, str):
            return error_response(501, ratings)
        return JSONResponse(
            {**ratings.to_json(), "event": event}, headers={**HEADERS, "Cache-Control": "no-store"}
        )

    async def event_review(self, request: Request) -> Response:
        """A board's record reviewed (as the table reviews a hand), once every table has
        played the board: worked out once in a worker of the players' help, then kept."""
        from moonrules.table import events
        from moonrules.table.botpool import HELP, BotFailed

        got = await self._event(request)
        if isinstance(got, Response):
            return HTMLResponse(
                f"<!doctype html><title>No review</title><p>{got.status_code}: no such event.",
                status_code=got.status_code,
                headers=HEADERS,
            )
        event, state, _ = got
        try:
            rnd, table, board = (int(request.path_params[k]) for k in ("round", "table", "board"))
        except ValueError:
            rnd = table = board = 0
        result = state.result(rnd, table, board)
        if result is None:
            return HTMLResponse(
                "<!doctype html><title>No review</title><p>No such result.",
                status_code=404,
                headers=HEADERS,
            )
        if not board_complete(state, rnd, board):
            return HTMLResponse(
                "<!doctype html><title>Not yet</title><p>A table of the round is still playing "
                "this board: its review is given once every table has played it.",
                status_code=409,
                headers=HEADERS,
            )
        page = events.review_kept(result.record)
        if page is None:
            title = f"{state.name}: round {rnd}, table {table}, board {board}"
            try:
                page = await self.app._table().bots.run(
                    HELP, events.review_page, (dict(result.record), title), what="the review"
                )
            except BotFailed as e:
                log.warning("event %s: %s", event, e)
                return HTMLResponse(
                    "<!doctype html><title>One moment</title><p>The review cannot be worked "
                    "out now; reload the page in a moment.",
                    status_code=503,
                    headers={**HEADERS, "Retry-After": "5"},
                )
            assert isinstance(page, str)
            events.keep_review(result.record, page)
        policy = {"Content-Security-Policy": events.page_policy(page)}
        return HTMLResponse(page, headers={**HEADERS, **policy})

    async def event_record(self, request: Request) -> Response:
        got = await self._event(request)
        if isinstance(got, Response):
            return got
        event, state, _ = got
        try:
            rnd, table, board = (int(request.path_params[k]) for k in ("round", "table", "board"))
        except ValueError:
            return error_response(404, "no such result")
        result = state.result(rnd, table, board)
        if result is None:
            return error_response(404, "no such result")
        if not board_complete(state, rnd, board):
            message = (
                "a table of the round is still playing this board: its record is given once "
                "every table has played it"
            )
            return error_response(409, message)
        headers = {
            **HEADERS,
            "Content-Disposition": f'attachment; filename="{event}-r{rnd}-t{table}-b{board}.json"',
        }
        return JSONResponse(dict(result.record), headers=headers)

    async def event_standings_csv(self, request: Request) -> Response:
        got = await self._event(request)
        if isinstance(got, Response):
            return got
        event, state, _ = got
        headers = {
            **HEADERS,
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{event}-standings.csv"',
        }
        return Response(
            standings_csv(standings(state)), media_type="text/csv; charset=utf-8", headers=headers
        )

    # -- the director's console (moonrules.table.director) ------------------------------

    async def _director_played(self, event: str, secret: str) -> Any:
        """Each board's room with no result in the log, and its record once its game is over."""
        from moonrules.table.director import console_for

        console = console_for(self.app.config.db, self.app.config.synchronous)
        rooms = await asyncio.to_thread(console.unplayed, event, secret)
        played: dict[tuple[int, int, int], tuple[str, Any]] = {}
        for key, room_id in rooms.items():
            record = None
            try:
                room = await self.app._table().room(room_id) if ROOM_ID.fullmatch(room_id) else None
                if room is not None:
                    record = self.app._table().record(room)
            except RoomError:  # still being played, or moving between processes
                record = None
            played[key] = (room_id, record)
        return played

    async def _director(self, request: Request, body: bytes | None) -> Response:
        from moonrules.table.director import (
            FORM_BYTES,
            Page,
            console_for,
            too_large_html,
            unavailable_html,
        )

        console = console_for(self.app.config.db, self.app.config.synchronous)
        event, secret = request.path_params["event"], request.path_params["secret"]
        # same-origin: a form's POST carries its Origin (no-referrer would make it "null")
        headers = {**HEADERS, "Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
        lang, asked = page_language(request)
        try:
            played = await self._director_played(event, secret)
            if body is None:
                done = request.query_params.get("done")
                page = await asyncio.to_thread(
                    console.view, event, secret, played, done=done, lang=lang, asked=asked
                )
            elif len(body) > FORM_BYTES:
                page = Page(413, too_large_html(lang))
            else:
                same = self.app.origin_allowed(request.headers) or (
                    request.headers.get("origin") == "null"  # a browser's own fetch metadata
                    and request.headers.get("sec-fetch-site") == "same-origin"
                )
                page = await asyncio.to_thread(
                    console.act,
                    event,
                    secret,
                    body,
                    same_origin=same,
                    played=played,
                    lang=lang,
                    asked=asked,
                )
        except (StoreError, TournamentError) as e:
            log.error("director's console %s: %s", event, e)
            return HTMLResponse(unavailable_html(lang), status_code=503, headers=headers)
        if page.location is not None:
            return Response(status_code=303, headers={**headers, "Location": page.location})
        return HTMLResponse(page.html, status_code=page.status, headers=headers)

    async def director_page(self, request: Request) -> Response:
        return await self._director(request, None)

    async def director_act(self, request: Request) -> Response:
        from moonrules.table.director import FORM_BYTES

        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_BYTES:
                break
        return await self._director(request, body)
