"""A throwaway PostgreSQL server for the tests that need a real one.

:class:`PostgresServer` runs Debian's ``initdb`` into a temporary directory and starts
``postgres`` on 127.0.0.1 (a free port) and a Unix socket in that directory, with trust
authentication for a superuser ``moon``; :meth:`PostgresServer.stop` stops it and removes the
directory. Nothing it starts outlives the test run: the server is a child of the test process
in a process group of its own, stopped at the end of the session, at interpreter exit
(``atexit``) if the session ends early, and killed by the kernel if the test process is killed
(``PR_SET_PDEATHSIG``). PostgreSQL refuses to run as root: as root, the server runs as the
``postgres`` user that Debian's package creates.

The fixtures: ``postgres_server`` (one server per test process, i.e. per pytest-xdist worker)
and ``postgres_url`` (a fresh, empty database on it for each test, as a ``postgresql://`` URL);
a test module uses them by importing ``postgres_server_fixture`` and ``postgres_url_fixture``.
Without the programs they skip, saying how to install them (``bash scripts/postgres.sh``);
without ``psycopg`` they skip, saying which extra to install.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

MISSING = "PostgreSQL is not installed; bash scripts/postgres.sh installs it"
NO_DRIVER = "psycopg is not installed; pip install -e '.[postgres]' installs it"
SUPERUSER = "moon"
_PR_SET_PDEATHSIG = 1


def bindir() -> Path | None:
    """The directory of PostgreSQL's server programs (``initdb``, ``postgres``), or ``None``:
    ``MOONRULES_PG_BIN`` if set, else Debian's newest ``/usr/lib/postgresql/<major>/bin``,
    else wherever ``initdb`` is on the ``PATH``."""
    candidates: list[Path] = []
    if os.environ.get("MOONRULES_PG_BIN"):
        candidates.append(Path(os.environ["MOONRULES_PG_BIN"]))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        majors = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(majors, key=lambda p: int(p.name), reverse=True)]
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    for c in candidates:
        if (c / "initdb").is_file() and (c / "postgres").is_file():
            return c
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class PostgresServer:
    """One PostgreSQL server in a temporary directory (see the module's docstring)."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.root = Path(tempfile.mkdtemp(prefix="moonrules-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._names = itertools.count()
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:  # postgres will not run as root: Debian's postgres user
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.root, ignore_errors=True)
                raise RuntimeError(
                    "running as root and there is no postgres user to run PostgreSQL as"
                ) from None
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            self._as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 30) -> PostgresServer:
        atexit.register(self.stop)
        subprocess.run(
            [
                str(self.programs / "initdb"),
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            **self._as,
        )
        for _ in range(5):  # a free port may be taken between its choice and the bind
            self.port = _free_port()
            if self._launch(timeout):
                return self
        raise RuntimeError(f"PostgreSQL did not start; its log:\n{self.log.read_text()}")

    def _launch(self, timeout: float) -> bool:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    str(self.programs / "postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.root),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "fsync=off",  # the tests kill clients, not the database server
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=60",
                    "-c",
                    "shared_buffers=16MB",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                preexec_fn=_die_with_parent,
                **self._as,
            )
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                return False
            try:
                with psycopg.connect(self.url(), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"PostgreSQL did not answer within {timeout:g} s:\n{self.log_text()}")

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")
        return ""

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (a fast shutdown, then SIGKILL to its group after 10 s) and remove
        its directory. Safe to call twice."""
        proc, self.proc = self.proc, None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            # the backends leave with the postmaster; anything of the group left is killed
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)
        atexit.unregister(self.stop)


@pytest.fixture(scope="session", name="postgres_server")
def postgres_server_fixture() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this test process (skips, with the reason, without one)."""
    programs = bindir()
    if programs is None:
        pytest.skip(MISSING)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip(NO_DRIVER)
    server = PostgresServer(programs)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(name="postgres_url")
def postgres_url_fixture(postgres_server: PostgresServer) -> str:
    """A fresh, empty database for this test, as a ``postgresql://`` URL."""
    return postgres_server.new_database()
