"""``moonrules table``: the web table server, where people and bots play Moon in rooms.

Starts the server (Starlette on uvicorn, the ``table`` extra: ``pip install
'moonrules[table]'``, or ``pip install -e '.[table]'`` in a checkout) and prints the
lobby's address. Rooms, their seats and every accepted action are kept in an SQLite file
(``--db``, by default ``moonrules-table.sqlite3`` in the current directory), or in a
PostgreSQL database (``--db postgresql://…``, the ``postgres`` extra) that several server
processes share, each room served by one of them at a time
(``docs/guides/table-deploy.md``): stopped and started again, even killed, the server resumes
every game where it was. The WebSocket
protocol is ``spec/table.md``; the limits ``docs/limits.md``; running it behind a reverse
proxy ``docs/guides/table.md``. SIGINT (Ctrl-C) or SIGTERM, sent to it or to its whole
process group, stops it within a few seconds: the actions under way are stored, every client
is closed with code 1012 and told the table is restarting, the bots' workers end. Exit
status 0 when stopped with Ctrl-C (a SIGTERM ends it by that signal, as the convention is),
2 for bad options, a database it cannot use or a missing extra.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from moonrules.cli.options import finite_number, whole_number
from moonrules.rules.errors import MoonError, install_extra
from moonrules.support.databases import is_postgres

if TYPE_CHECKING:  # the table extra is imported only when the command runs
    from moonrules.table.server import TableConfig

HELP = "serve the web table: rooms with a link per seat, bots for empty seats, a browser page"

DEFAULT_DB = "moonrules-table.sqlite3"

EXTRA = ("starlette", "uvicorn", "websockets")
"""The modules of the ``table`` extra."""


class MissingExtra(MoonError):
    """The ``table`` extra is not installed."""


class CannotServe(MoonError):
    """The server cannot listen where it was asked to."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = (
        f"Data goes to the SQLite file given by --db (default ./{DEFAULT_DB}), or to a "
        "postgresql:// database that several processes share: rooms, "
        "seat tokens (hashed), and every accepted action. Needs the table extra: "
        f"{install_extra('table')}. Protocol: spec/table.md; limits: docs/limits.md."
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    p.add_argument(
        "--port",
        type=whole_number,
        default=8000,
        help="the port to listen on (default 8000; 0: any free port)",
    )
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="FILE|URL",
        help=f"the SQLite file rooms and actions are kept in (default ./{DEFAULT_DB}; created), "
        "or a postgresql:// URL that several server processes share (the postgres extra; "
        "docs/guides/table-deploy.md)",
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the address people reach the server at, behind a reverse proxy "
        "(https://moon.example): the links of new rooms start with it",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may create rooms and connect (repeatable)",
    )
    p.add_argument(
        "--bot-pace",
        type=finite_number,
        default=0.6,
        metavar="SECONDS",
        help="how long a bot waits before moving at a table with a person (default 0.6)",
    )
    p.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite's synchronous setting: full (default) survives a power loss, normal "
        "only a crash of the server",
    )
    p.add_argument(
        "--proxy-headers",
        action="store_true",
        help="trust X-Forwarded-For/-Proto from the proxy at --forwarded-allow-ips",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="the proxies whose X-Forwarded headers are trusted (default 127.0.0.1)",
    )
    p.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="how much the server logs to standard error (default info)",
    )


def check_extra() -> None:
    """Raise :class:`MissingExtra`, saying how to install it, when a module is missing."""
    missing = [m for m in EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtra(
            f"moonrules table needs {', '.join(missing)} (the table extra): "
            f"{install_extra('table')}"
        )


def _listen(host: str, port: int) -> socket.socket:
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        family = socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise CannotServe(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def config_from(args: argparse.Namespace) -> TableConfig:
    """The server's configuration from the command line's options."""
    from moonrules.table.rooms import TableLimits
    from moonrules.table.server import TableConfig

    return TableConfig(
        db=args.db if is_postgres(args.db) else Path(args.db),
        limits=TableLimits(bot_pace=args.bot_pace),
        public_url=args.public_url,
        allowed_origins=tuple(args.allow_origin),
        synchronous=args.sync.upper(),
    )


def run(args: argparse.Namespace) -> int:
    check_extra()
    if not 0 <= args.port <= 65535:
        raise CannotServe(f"--port: a port is 0 to 65535, not {args.port}")
    if args.bot_pace < 0 or args.bot_pace > 60:
        raise CannotServe(f"--bot-pace: 0 to 60 seconds, not {args.bot_pace:g}")
    from moonrules.table.server import open_storage, table_server

    # a file that is no table database, or a database that cannot be used, is refused here
    open_storage(args.db if is_postgres(args.db) else Path(args.db)).close()
    config = config_from(args)
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    more = {}
    if args.proxy_headers:
        more = {"proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips}
    else:
        more = {"proxy_headers": False}
    server = table_server(config, host, port, log_level=args.log_level, **more)
    if is_postgres(args.db):
        from moonrules.table.storage_pg import describe

        where = describe(args.db)
    else:
        where = str(Path(args.db).resolve())
    print(f"Moon table: http://{shown}:{port}/  (data in {where}; Ctrl-C stops)")
    sys.stdout.flush()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0
