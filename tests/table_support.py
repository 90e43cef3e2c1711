"""Helpers of the table tests: a real server in a subprocess on 127.0.0.1, and clients.

:class:`Server` starts ``moonrules table`` (or :func:`main` below, for a server with test
limits or test bots) on a free port, reads the lobby's address from its first line, and
keeps its standard error (the log) for the tests to read. Clients speak the protocol
over real WebSockets (the ``websockets`` package).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

URL_LINE = re.compile(r"Moon table: (http://\S+)/ ")


class Server:
    """A table server process (``with Server(db) as s:``), ended when the block ends."""

    def __init__(self, db: Path, *extra: str, launcher: Sequence[str] | None = None) -> None:
        self.db = db
        argv = [sys.executable, "-m", "moonrules", "table"] if launcher is None else [*launcher]
        self.argv = [*argv, "--port", "0", "--db", str(db), "--bot-pace", "0", *extra]
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.log_path = db.with_suffix(f".{os.getpid()}.{time.monotonic_ns()}.log")

    def start(self) -> Server:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.argv,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env=env,
            cwd=self.db.parent,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = URL_LINE.search(line)
        if m is None:
            self.stop()
            raise AssertionError(f"the server did not start: {line!r}\n{self.log()}")
        self.url = m.group(1)
        self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise AssertionError("the server never answered /healthz")

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to finish anything."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self._reap_workers()

    def stop(self) -> None:
        """Ctrl-C (SIGINT), as a person stops it; SIGKILL if it does not stop."""
        if self.proc is None or self.proc.poll() is not None:
            self._close_log()
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(30)
        self._reap_workers()
        self._close_log()

    def _reap_workers(self) -> None:
        # spawn's workers notice their parent is gone and exit; wait for them briefly
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        self._close_log()

    def _close_log(self) -> None:
        log = getattr(self, "_log", None)
        if log is not None and not log.closed:
            log.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ---------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        req = urllib.request.Request(self.url + path, data=body, method=method)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                data = r.read()
                return r.status, _json_or_text(data), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, _json_or_text(e.read()), dict(e.headers)

    def create(self, rules: Any = "standard", bots: dict[str, str] | None = None) -> Any:
        body = json.dumps({"rules": rules, "bots": bots or {}}).encode()
        status, answer, _ = self.request(
            "POST", "/api/rooms", body, {"Content-Type": "application/json"}
        )
        assert status == 201, answer
        return answer


def _json_or_text(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace")


def ws_url(server: Server, room: str, token: str | None = None) -> str:
    url = f"{server.ws_url}/rooms/{room}/ws"
    return url if token is None else f"{url}?token={token}"


def connect(server: Server, room: str, token: str | None = None, **kw: Any) -> Any:
    from websockets.sync.client import connect as ws_connect

    return ws_connect(ws_url(server, room, token), open_timeout=30, **kw)


def next_state(ws: Any, timeout: float = 60) -> dict[str, Any]:
    """The next ``state`` message (refusals on the way are skipped)."""
    while True:
        msg = json.loads(ws.recv(timeout=timeout))
        if msg["type"] == "state":
            return msg


class Player(threading.Thread):
    """A test client at one seat (or a spectator, without token) playing random legal
    moves, now and then a refused one first; it keeps every frame it receives."""

    def __init__(
        self,
        server: Server,
        room: str,
        token: str | None,
        seed: int,
        *,
        mischief: float = 0.1,
        stop_after: int | None = None,
        pass_rate: float = 0.0,
    ) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.room = room
        self.token = token
        self.rng = random.Random(seed)
        self.mischief = mischief
        self.frames: list[str] = []
        self.error: BaseException | None = None
        self.done = threading.Event()
        self.stop_after = stop_after
        self.pass_rate = pass_rate
        """How often to pass when passing is legal (the bots then bid: shorter games)."""
        self.slowed = 0
        """Actions the server refused as too fast and this client sent again."""
        self.acted = 0
        self.refusals = 0
        """Wrong moves sent, and refused."""
        self.last_state: dict[str, Any] | None = None
        self.last_sent: str | None = None

    def run(self) -> None:
        try:
            with connect(self.server, self.room, self.token) as ws:
                self._play(ws)
        except BaseException as e:  # reported by the test
            self.error = e
        finally:
            self.done.set()

    def _play(self, ws: Any) -> None:
        while True:
            text = ws.recv(timeout=120)
            self.frames.append(text)
            msg = json.loads(text)
            if msg["type"] == "refused" and msg["code"] == "too-fast" and self.last_sent:
                # the server's flood limit: a client that is too quick waits and says it again
                time.sleep(0.25)
                ws.send(self.last_sent)
                self.slowed += 1
                continue
            if msg["type"] != "state":
                continue
            self.last_state = msg
            if msg["table"]["over"]:
                return
            legal = msg["legal"]
            if not legal:
                continue
            if self.stop_after is not None and self.acted >= self.stop_after:
                return
            # a mischievous client tries the first wrong move it can, then one in 1/mischief
            first = self.mischief > 0 and not self.refusals
            if first or self.rng.random() < self.mischief:
                wrong = self._wrong(msg)
                if wrong is not None:
                    ws.send(json.dumps({"type": "act", "action": wrong}))
                    answer = json.loads(ws.recv(timeout=120))
                    self.frames.append(json.dumps(answer))
                    while answer["type"] == "state":  # a state may come first
                        self.last_state = answer
                        answer = json.loads(ws.recv(timeout=120))
                        self.frames.append(json.dumps(answer))
                    assert answer["type"] == "refused", answer
                    self.refusals += 1
            action = self.rng.choice(legal)
            if "pass" in legal and self.rng.random() < self.pass_rate:
                action = "pass"
            self.last_sent = json.dumps({"type": "act", "action": action})
            ws.send(self.last_sent)
            self.acted += 1

    def _wrong(self, msg: dict[str, Any]) -> Any:
        v, legal = msg["view"], msg["legal"]
        if v["phase"] == "play":
            bad = [t for t in v["hand"] if t not in legal]
            return self.rng.choice(bad) if bad else None
        if v["phase"] == "bidding":
            bad = [b for b in msg["table"]["bids"] if b not in legal]
            return self.rng.choice(bad) if bad else None
        return None


def stored_actions(db: Path, room: str) -> list[tuple[int, int, Any]]:
    """The accepted actions of a room as the server stored them: (seq, seat, action)."""
    with sqlite3.connect(db) as c:
        rows = c.execute(
            "SELECT seq, seat, action FROM actions WHERE room = ? ORDER BY seq", (room,)
        ).fetchall()
    return [(s, seat, json.loads(a)) for s, seat, a in rows]


def stored_initial(db: Path, room: str) -> Any:
    with sqlite3.connect(db) as c:
        (text,) = c.execute("SELECT initial FROM rooms WHERE id = ?", (room,)).fetchone()
    return json.loads(text)


def states_of(db: Path, room: str) -> list[Any]:
    """The room's game after each stored action, from the first (before any): replayed
    with the library from the stored deal and actions."""
    from moonrules import apply, apply_claim
    from moonrules.records.replay import from_record
    from moonrules.table.wire import parse_action

    state = from_record(stored_initial(db, room))
    out = [state]
    for _, seat, action in stored_actions(db, room):
        if isinstance(action, dict):  # a claim that held: {"claim": tricks}
            state = apply_claim(state, seat, action["claim"])
        else:
            state = apply(state, parse_action(state.phase, action), seat=seat)
        out.append(state)
    return out


# ---------------------------------------------------------------------------
# A server with test bots or test limits: python -m table_support [options]


class StuckBot:
    """A bot that thinks until the file named by ``MOONRULES_TEST_RELEASE`` exists, then
    plays its first legal move: a strong bot thinking for as long as the test likes. As it
    starts thinking it makes that file's name with ``.thinking`` added."""

    name = "stuck"

    def act(self, view: Any, rng: random.Random) -> Any:
        from moonrules.bots import view_legal_actions

        release = Path(os.environ["MOONRULES_TEST_RELEASE"])
        release.with_name(release.name + ".thinking").touch()
        while not release.exists():
            time.sleep(0.02)
        return view_legal_actions(view)[0]


def main(argv: list[str]) -> int:
    """``moonrules table`` with test limits (``--limits JSON``) and, with ``--stuck``, a
    ``strong`` bot that is a :class:`StuckBot`."""
    import argparse

    import attrs

    import moonrules.cli.table as cli
    from moonrules.table import botpool, rooms

    p = argparse.ArgumentParser()
    p.add_argument("--limits", default="{}")
    p.add_argument("--stuck", action="store_true")
    ours, rest = p.parse_known_args(argv)
    limits = json.loads(ours.limits)
    original = cli.config_from

    def config(args: Any) -> Any:
        c = original(args)
        c = attrs.evolve(c, limits=rooms.TableLimits(**{"bot_pace": 0.0, **limits}))
        if ours.stuck:
            from table_support import StuckBot as stuck  # by its module's name, not __main__

            spec = botpool.BotSpec(stuck, "slow")
            c = attrs.evolve(c, bots={**botpool.DEFAULT_BOTS, "strong": spec})
        return c

    cli.config_from = config  # type: ignore[assignment]
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(rest))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def validator(name: str) -> Any:
    """The validator of ``spec/schema/<name>.schema.json``, every reference resolved locally."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    docs = [json.loads(p.read_text()) for p in sorted((ROOT / "spec" / "schema").rglob("*.json"))]
    registry: Any = Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs)
    (schema,) = [d for d in docs if d["$id"].endswith(f"/{name}.schema.json")]
    return Draft202012Validator(schema, registry=registry)
