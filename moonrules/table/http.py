"""What every answer of the table's web application carries: its security headers, the
JSON of an error, the language of a page the server writes, and the form of a room's id.
Shared by :mod:`moonrules.table.server` and :mod:`moonrules.table.event_routes` (with them,
the only modules of :mod:`moonrules.table` that import the ``table`` extra)."""

from __future__ import annotations

import re
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A room's id as the table makes them (a path's id of another form is no room)."""

HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def page_language(request: Request) -> tuple[str, str]:
    """The language of a page the server writes (the event page, the director's console):
    ``?lang=``, else the cookie ``lang`` the pages' switch sets, else ``Accept-Language``
    (:func:`moonrules.table.page_words.language_of`)."""
    from moonrules.table.page_words import language_of

    return language_of(
        request.query_params.get("lang"),
        request.cookies.get("lang"),
        request.headers.get("accept-language"),
    )


def error_response(status: int, message: str) -> JSONResponse:
    """An error's answer: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)
