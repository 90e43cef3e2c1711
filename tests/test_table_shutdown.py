"""The table server stops as an operator stops it: SIGTERM or SIGINT, sent to its main
process or to its whole process group (``systemctl stop``, ``docker stop``, Ctrl-C in a
terminal), ends it within 10 s with every acknowledged action stored, every client closed
with code 1012 and told why, and no process of its group left; after a SIGKILL of its main
process, nothing of it survives 5 s.

Each case starts the real server (``moonrules table`` with a ``strong`` bot that thinks
until released, from :mod:`table_support`) in a process group of its own on 127.0.0.1,
with clients playing over real WebSockets in three rooms: one where a person plays two
quick bots, one of two people and two quick bots, and one where a strong bot is thinking
when the signal comes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")

from table_support import ROOT, TESTS, URL_LINE, states_of, stored_actions

STOP_WITHIN = 10.0
KILLED_WITHIN = 5.0


def group_members(pgid: int) -> list[str]:
    """The processes of a process group still running (zombies, already ended, left out):
    each as its pid and command line."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(f"{entry} {cmd[:100]}")
    return found


def wait_for(condition: Any, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


class Client(threading.Thread):
    """A seat (or a spectator) that acts at once with a random legal action, and keeps
    reading until the server closes the connection (it never closes it itself)."""

    def __init__(self, url: str, room: str, token: str | None, seed: int) -> None:
        super().__init__(daemon=True)
        self.url = f"{url}/rooms/{room}/ws" + ("" if token is None else f"?token={token}")
        self.room = room
        self.rng = random.Random(seed)
        self.last: dict[str, Any] | None = None
        """The last state the server sent: what it acknowledged, up to its ``seq``."""
        self.close: tuple[int | None, str | None] | None = None
        self.error: BaseException | None = None
        self.connected = threading.Event()

    @property
    def seq(self) -> int:
        return -1 if self.last is None else int(self.last["seq"])

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        try:
            with connect(self.url, open_timeout=30, close_timeout=1) as ws:
                self.connected.set()
                try:
                    while True:
                        msg = json.loads(ws.recv(timeout=60))
                        if msg["type"] != "state":
                            continue
                        self.last = msg
                        if msg["legal"]:
                            action = self.rng.choice(msg["legal"])
                            ws.send(json.dumps({"type": "act", "action": action}))
                except ConnectionClosed as e:
                    got = e.rcvd
                    self.close = (None, None) if got is None else (got.code, got.reason)
        except BaseException as e:  # reported by the test
            self.error = e
        finally:
            self.connected.set()


class Table:
    """A server in a process group of its own, with rooms and clients playing."""

    def __init__(self, tmp: Path) -> None:
        self.db = tmp / "table.sqlite3"
        self.log_path = tmp / "table.log"
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]),
            MOONRULES_TEST_RELEASE=str(tmp / "never"),  # the strong bot thinks on and on
        )
        limits = json.dumps({"rate": 1000.0, "burst": 1000})
        argv = [sys.executable, "-m", "table_support", "--stuck", "--limits", limits]
        argv += ["--port", "0", "--db", str(self.db), "--bot-pace", "0"]
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env=env,
                cwd=tmp,
                process_group=0,
            )
        self.pgid = self.proc.pid
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = URL_LINE.search(line)
        if m is None:
            self.end()
            raise AssertionError(f"the server did not start: {line!r}\n{self.log()}")
        self.url = m.group(1)
        self.clients: list[Client] = []

    def log(self) -> str:
        return self.log_path.read_text()

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.load(r)

    def create(self, rules: str, bots: dict[str, str]) -> Any:
        body = json.dumps({"rules": rules, "bots": bots}).encode()
        req = urllib.request.Request(
            self.url + "/api/rooms", body, {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)

    def play(self) -> dict[str, Any]:
        """Three rooms with clients playing, one of them watched; returns once actions
        flow in every room and a strong bot is thinking."""
        ws = self.url.replace("http://", "ws://")
        quick = self.create("standard", {"1": "basic", "2": "basic"})
        pair = self.create("partnership", {"1": "basic", "3": "random"})
        stuck = self.create("standard", {"1": "strong", "2": "strong"})
        rooms = {"quick": quick, "pair": pair, "stuck": stuck}
        for n, room in enumerate(rooms.values()):
            for seat in room["seats"]:
                self.clients.append(Client(ws, room["room"], seat["token"], n * 10 + seat["seat"]))
        self.clients.append(Client(ws, quick["room"], None, 99))
        for c in self.clients:
            c.start()
        for c in self.clients:
            assert c.connected.wait(60) and c.error is None, c.error
        by_room = {
            name: [c for c in self.clients if c.room == r["room"]] for name, r in rooms.items()
        }
        assert wait_for(lambda: all(c.seq >= 6 for c in by_room["quick"] + by_room["pair"]), 60)
        assert wait_for(lambda: self.get("/healthz")["bots_thinking"] >= 1, 60), "no bot thinks"
        return rooms

    def end(self) -> None:
        """Whatever happened: nothing of the group left behind."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        for _ in range(50):
            if not group_members(self.pgid):
                break
            try:
                os.killpg(self.pgid, signal.SIGKILL)
            except ProcessLookupError:
                break
            time.sleep(0.1)


def check_stored(table: Table, rooms: dict[str, Any]) -> None:
    """Every action a client was told of is in the database, which replays as a game;
    and what each seat was last told is the stored game's view at that point."""
    from moonrules.conformance.protocol import view_json

    for room in rooms.values():
        rid = room["room"]
        states = states_of(table.db, rid)  # each stored action applied: a valid game
        stored = len(stored_actions(table.db, rid))
        for c in table.clients:
            if c.room != rid or c.last is None:
                continue
            assert c.seq <= stored, f"room {rid}: a client saw action {c.seq}, {stored} stored"
            seat = c.last["view"]["seat"]
            if seat is not None:
                assert c.last["view"] == json.loads(json.dumps(view_json(states[c.seq], seat)))


@pytest.mark.parametrize("target", ["main", "group"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_stop_ends_the_server_cleanly(
    tmp_path: Path, sig: signal.Signals, target: str
) -> None:
    table = Table(tmp_path)
    try:
        rooms = table.play()
        assert len(group_members(table.pgid)) >= 4  # the server and its bot workers
        sent = time.monotonic()
        if target == "group":
            os.killpg(table.pgid, sig)
        else:
            table.proc.send_signal(sig)
        try:
            status = table.proc.wait(STOP_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{sig.name} to the {target}: still running after {STOP_WITHIN:g} s")
        took = time.monotonic() - sent
        # stopped by SIGINT: status 0; by SIGTERM: ended by the signal, as is the convention
        assert status == (0 if sig == signal.SIGINT else -signal.SIGTERM), (status, table.log())
        left = group_members(table.pgid)
        assert not left or wait_for(lambda: not group_members(table.pgid), 1.0), left
        for c in table.clients:
            c.join(10)
            assert not c.is_alive()
            assert c.error is None, c.error
            assert c.close is not None, "the client was not closed by the server"
            code, reason = c.close
            assert code == 1012 and reason is not None and "restarting" in reason, c.close
        check_stored(table, rooms)
        log = table.log()
        assert "Traceback" not in log and "ERROR" not in log, log
        assert took < STOP_WITHIN
    finally:
        table.end()


def test_after_a_sigkill_nothing_of_the_server_survives(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        rooms = table.play()
        workers = [m for m in group_members(table.pgid) if not m.startswith(f"{table.pgid} ")]
        assert len(workers) >= 3, workers  # one quick worker, the strong ones (one thinking)
        table.proc.kill()
        table.proc.wait(10)
        assert wait_for(lambda: not group_members(table.pgid), KILLED_WITHIN), group_members(
            table.pgid
        )
        for c in table.clients:
            c.join(10)
            assert c.error is None, c.error
        check_stored(table, rooms)  # killed, it lost nothing it had told
    finally:
        table.end()
