"""The table's HTTP/1.1 protocol: uvicorn's, with a deadline for a request's headers and a
cap of connections per client address (uvicorn itself has neither: without them, one
client holding thousands of half-sent requests fills every connection slot).

Imported only by :func:`moonrules.table.server.uvicorn_config` (uvicorn is the server this
module guards; the ASGI application does not need it).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from moonrules.table.rooms import TableLimits


class GuardedH11(H11Protocol):
    """One HTTP connection: it has ``limits.request_timeout`` seconds to send a request's
    headers, from its start and again after each response; with ``per_address``, a client
    address has at most ``limits.max_address_requests`` connections open before their
    upgrade to a WebSocket (a further one is closed at once)."""

    limits: ClassVar[TableLimits] = TableLimits()
    per_address: ClassVar[bool] = True
    open_by_address: ClassVar[dict[str, int]] = {}
    _counted: str | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.per_address and self.client is not None:
            host = self.client[0]
            counts = self.open_by_address
            if counts.get(host, 0) >= self.limits.max_address_requests:
                transport.close()
                return
            counts[host] = counts.get(host, 0) + 1
            self._counted = host
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.limits.request_timeout, self._late, self.cycle)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self, cycle: object) -> None:
        """No new request's headers since the deadline was set: the connection ends
        (unless it became a WebSocket, which is no longer this protocol's)."""
        if self in self.connections and self.cycle is cycle and not self.transport.is_closing():
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self.transport.close()

    def _uncount(self) -> None:
        host, self._counted = self._counted, None
        if host is not None:
            left = self.open_by_address.pop(host) - 1
            if left:
                self.open_by_address[host] = left

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


def guarded_http(limits: TableLimits, *, per_address: bool) -> type[asyncio.Protocol]:
    """The protocol class for one server: its limits, and counts of its own."""
    namespace = {"limits": limits, "per_address": per_address, "open_by_address": {}}
    return type("GuardedH11", (GuardedH11,), namespace)


__all__ = ["GuardedH11", "guarded_http"]
