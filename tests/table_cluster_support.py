"""Table server processes on one PostgreSQL database, a proxy in front of them, and clients.

Shared by ``tests/test_table_multiprocess.py`` (processes reached directly),
``tests/test_table_proxy.py`` (through HAProxy or nginx) and ``bench/table_cluster.py``:

- :class:`Process`: one ``moonrules table --db postgresql://…`` process, in a process group
  of its own, killed by the kernel if its parent dies (``PR_SET_PDEATHSIG``);
- :class:`Proxy`: HAProxy or nginx with the configuration of
  ``docs/guides/table-deploy.md``, read from that page's own block (only the listening address,
  the processes' ports and what a process of one's own needs substituted), so that the guide
  and what is checked cannot drift apart;
- :class:`Seat`: a scripted WebSocket client playing a seat (or watching, without a token);
- :func:`play`: the crash scenario (rooms with people and games of bots, one process killed
  with SIGKILL mid-game, everything finished on the other), and :func:`judge`, the database
  as the judge (actions lost or duplicated, records that replay, the time to resume).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs
from postgres_support import _die_with_parent, _free_port

from moonrules import apply
from moonrules.conformance.protocol import view_json
from moonrules.records.record import rules_json, to_record
from moonrules.records.replay import from_record
from moonrules.records.replay import replay as replay_record
from moonrules.rules.ruleset import PRESETS
from moonrules.table.wire import parse_action

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
DEPLOY_GUIDE = ROOT / "docs" / "guides" / "table-deploy.md"
URL_LINE = re.compile(r"Moon table: (http://\S+)/ ")
SHORT = {name: rules_json(attrs.evolve(PRESETS[name], target=7)) for name in PRESETS}
"""Games to 7 points (a hand or two) for the quick cases."""
PASS_RATE = 0.8
"""How often a scripted seat passes when it may: the bots then bid, and bids are made (random
bids are mostly set, and a game of them, even to 7, can run to thousands of actions)."""
HOLD_AT = 4
"""The ``seq`` from which a gated seat (:class:`Seat`) waits for its gate before acting."""
PROXIES = {"haproxy": "HAProxy", "nginx": "nginx"}
"""The proxies the guide configures: program → the guide's section."""


def wait_for(condition: Any, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


class Endpoint:
    """An address clients reach the table at: a process, or a proxy in front of them."""

    url = ""

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    def get(self, path: str) -> Any:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return json.load(r)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None

    def create(self, rules: Any, bots: dict[str, str]) -> Any:
        body = json.dumps({"rules": rules, "bots": bots}).encode()
        req = urllib.request.Request(
            self.url + "/api/rooms", body, {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)


class Process(Endpoint):
    """One ``moonrules table`` process on the database, in a process group of its own."""

    def __init__(
        self, url: str, tmp: Path, name: str, port: int = 0, extra: Sequence[str] = ()
    ) -> None:
        self.name = name
        self.log_path = tmp / f"{name}.{time.monotonic_ns()}.log"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
        argv = [sys.executable, "-m", "moonrules", "table", "--port", str(port), "--db", url]
        argv += ["--bot-pace", "0", *extra]
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env=env,
                cwd=tmp,
                process_group=0,
                preexec_fn=_die_with_parent,
            )
        self.url = ""

    def ready(self) -> Process:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = URL_LINE.search(line)
        if m is None:
            self.kill()
            raise AssertionError(f"{self.name} did not start: {line!r}\n{self.log()}")
        self.url = m.group(1)
        assert wait_for(lambda: self.get("/healthz") is not None, 60), self.log()
        return self

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL to the server process (its bots' workers notice and end by themselves;
        whatever of its group is left is killed too, by :meth:`end`)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def end(self) -> None:
        self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)


# -- the proxies of the guide ---------------------------------------------------------------


def guide_block(section: str) -> str:
    """The first fenced block of the deployment guide's section ``## {section}``."""
    text = DEPLOY_GUIDE.read_text(encoding="utf-8")
    part = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert part is not None, f"{DEPLOY_GUIDE.name}: no section '## {section}'"
    block = re.search(r"^```[a-z]*\n(.*?)^```", part.group(1), re.S | re.M)
    assert block is not None, f"{DEPLOY_GUIDE.name}: no configuration under '## {section}'"
    return block.group(1)


def _swap(text: str, old: str, new: str) -> str:
    """``old`` (which must be there: the guide changed otherwise) replaced by ``new``."""
    assert old in text, f"{DEPLOY_GUIDE.name} no longer says {old!r}: update {__name__}"
    return text.replace(old, new)


def _backends(text: str, ports: Sequence[int]) -> str:
    """The guide's two processes (127.0.0.1:8001 and :8002) at ``ports``."""
    assert len(ports) == 2, ports
    for guide_port in ("8001", "8002"):
        assert f"127.0.0.1:{guide_port}" in text, f"{DEPLOY_GUIDE.name}: no :{guide_port}"
    return re.sub(
        r"127\.0\.0\.1:800([12])\b", lambda m: f"127.0.0.1:{ports[int(m.group(1)) - 1]}", text
    )


def haproxy_config(listen: int, ports: Sequence[int]) -> str:
    """The guide's HAProxy configuration listening on 127.0.0.1:``listen`` without TLS, in
    front of processes at ``ports``."""
    text = guide_block(PROXIES["haproxy"])
    text = _swap(text, "bind :443 ssl crt /etc/haproxy/moon.pem", f"bind 127.0.0.1:{listen}")
    return _backends(text, ports)


def nginx_config(listen: int, ports: Sequence[int], prefix: Path) -> str:
    """The guide's nginx configuration (an ``http`` block's content) listening on
    127.0.0.1:``listen`` without TLS, in front of processes at ``ports``, in a whole
    ``nginx.conf`` of its own under ``prefix``: one process (``master_process off``, so that
    it dies with its parent), its files in ``prefix``."""
    text = guide_block(PROXIES["nginx"])
    text = _swap(text, "listen 443 ssl;", f"listen 127.0.0.1:{listen};")
    text = _backends(text, ports)
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    body = "\n".join("    " + line if line else line for line in text.splitlines())
    return (
        f"daemon off;\nmaster_process off;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events { worker_connections 8192; }\n"
        f"http {{\n{temp}\n{body}\n}}\n"
    )


def proxy_program(kind: str) -> str | None:
    """Where the proxy's program is (``/usr/sbin`` is not on every user's ``PATH``)."""
    return shutil.which(kind) or shutil.which(kind, path="/usr/sbin:/usr/local/sbin")


class Proxy(Endpoint):
    """HAProxy or nginx on 127.0.0.1:``port`` with the guide's configuration, in front of the
    processes at ``ports``; one process, in a group of its own, dying with its parent."""

    def __init__(self, kind: str, port: int, ports: Sequence[int], tmp: Path) -> None:
        program = proxy_program(kind)
        assert program is not None, f"{kind} is not installed"
        self.kind = kind
        self.dir = tmp / f"{kind}.{time.monotonic_ns()}"
        self.dir.mkdir()
        config = self.dir / f"{kind}.conf"
        if kind == "haproxy":
            config.write_text(haproxy_config(port, ports))
            argv = [program, "-f", str(config), "-db"]
        else:
            config.write_text(nginx_config(port, ports, self.dir))
            argv = [program, "-p", str(self.dir), "-e", str(self.dir / "error.log")]
            argv += ["-c", str(config)]
        self.log_path = self.dir / "proxy.log"
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=self.dir,
                process_group=0,
                preexec_fn=_die_with_parent,
            )
        self.url = f"http://127.0.0.1:{port}"

    def log(self) -> str:
        return "\n".join(
            p.read_text(errors="replace")
            for p in (self.log_path, self.dir / "error.log")
            if p.exists()
        )

    def ready(self) -> Proxy:
        ok = wait_for(lambda: self.proc.poll() is not None or self.get("/healthz"), 20)
        assert ok and self.proc.poll() is None, f"{self.kind} did not start:\n{self.log()}"
        return self

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)


# -- clients ---------------------------------------------------------------------------------


class Seat(threading.Thread):
    """A seat's client playing a random legal action at once, as the page does (or, without a
    token, a spectator watching): when the connection closes (the room moved, the process
    died) it reconnects, to the endpoints in turn, and resumes; it stops when the game is
    over."""

    def __init__(
        self, servers: Sequence[Endpoint], room: str, seat: int | None, token: str | None,
        seed: int, gate: threading.Event | None = None,
    ) -> None:  # fmt: skip
        super().__init__(daemon=True)
        self.gate = gate
        """Once the game has reached :data:`HOLD_AT`, the seat acts only when this is set (a
        player thinking while the operator kills a process): games stay under way."""
        self.servers: list[Any] = list(servers)
        """The endpoints it tries in turn (``Any``: a test compares them with its processes)."""
        self.at = 0
        self.room = room
        self.seat = seat
        self.token = token
        self.rng = random.Random(seed)
        self.seen: dict[int, Any] = {}
        """Every state the server sent, by ``seq``: the view this seat was shown."""
        self.last = -1
        self.resumed: list[tuple[int, int]] = []
        """On each reconnection: the last ``seq`` seen before, the first after."""
        self.closes: list[tuple[int, str]] = []
        self.over = threading.Event()
        self.ended_on: Any = None
        """The server whose state said the game was over."""
        self.error: BaseException | None = None
        self.stop = False

    def run(self) -> None:
        try:
            self._play()
        except BaseException as e:  # reported by the test
            self.error = e

    def _play(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        first = True
        query = "" if self.token is None else f"?token={self.token}"
        while not self.stop:
            server = self.servers[self.at % len(self.servers)]
            url = f"{server.ws}/rooms/{self.room}/ws{query}"
            try:
                with connect(url, open_timeout=10, close_timeout=1) as ws:
                    before, fresh = self.last, True
                    while not self.stop:
                        msg = json.loads(ws.recv(timeout=30))
                        if msg["type"] != "state":
                            continue
                        seq = int(msg["seq"])
                        if fresh and not first:
                            self.resumed.append((before, seq))
                        first = fresh = False
                        self.seen[seq] = msg["view"]
                        self.last = max(self.last, seq)
                        if msg["table"]["over"]:
                            self.ended_on = server
                            self.over.set()
                            return
                        if msg["legal"] and self.token is not None:
                            if self.gate is not None and seq >= HOLD_AT:
                                while not self.gate.wait(0.1) and not self.stop:
                                    pass
                            action = self.rng.choice(msg["legal"])
                            if "pass" in msg["legal"] and self.rng.random() < PASS_RATE:
                                action = "pass"
                            ws.send(json.dumps({"type": "act", "action": action}))
            except ConnectionClosed as e:
                got = e.rcvd
                self.closes.append((0, "") if got is None else (got.code, got.reason))
                if got is not None and got.code in (1012, 1013):
                    continue  # the room moved, or is moving: the same address again
            except (OSError, InvalidHandshake, TimeoutError):
                pass
            self.at += 1  # the server is gone: the next one (as a proxy would send it)
            time.sleep(0.2)


# -- the database as the judge ---------------------------------------------------------------


def seen_view(state: Any, seat: int | None) -> Any:
    """What a client of ``seat`` is sent of ``state``: the seat's view, or for a spectator
    the public part of seat 0's (as the server's ``Room.view_for`` makes it)."""
    if seat is not None:
        return view_json(state, seat)
    public = view_json(state, 0)
    public.update(seat=None, hand=[], widow=None, discard=None)
    return public


def replay(url: str, room: str) -> tuple[list[Any], Any, Any]:
    """The room's stored actions checked (numbered 1 to n, no gap) and replayed: the states
    after each (index = seq), and the room's row (seq, over, record)."""
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT initial, record, seq, over, record_seq FROM rooms WHERE id = %s", (room,)
        ).fetchone()
        assert row is not None, room
        initial, record, seq, over, record_seq = row
        steps = db.execute(
            "SELECT seq, seat, action FROM actions WHERE room = %s ORDER BY seq", (room,)
        ).fetchall()
    numbers = [s for s, _, _ in steps]
    assert numbers == list(range(1, len(steps) + 1)), f"room {room}: gaps in {numbers}"
    assert seq == len(steps), f"room {room}: at seq {seq} with {len(steps)} actions stored"
    states = [from_record(json.loads(initial))]
    for _, seat, action in steps:
        st = states[-1]
        states.append(apply(st, parse_action(st.phase, json.loads(action)), seat=seat))
    assert to_record(states[record_seq]) == json.loads(record), f"room {room}: record differs"
    return states, over, json.loads(record)


def check_acknowledged(url: str, seats: Sequence[Seat]) -> int:
    """Every state each seat was sent is the stored game's at that seq, as that seat sees
    it (nothing acknowledged lost, nothing applied twice); how many were checked."""
    checked = 0
    by_room: dict[str, list[Seat]] = {}
    for s in seats:
        by_room.setdefault(s.room, []).append(s)
    for room, group in by_room.items():
        states, _, _ = replay(url, room)
        for s in group:
            for seq, seen in s.seen.items():
                assert seq < len(states), f"room {room}: seat {s.seat} saw seq {seq}, not stored"
                assert seen == seen_view(states[seq], s.seat), (room, s.seat, seq)
                checked += 1
    return checked


def owner_pid(url: str, room: str) -> int | None:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute("SELECT owner FROM leases WHERE room = %s", (room,)).fetchone()
    return None if row is None else int(row[0].split(":")[1])


def owners(url: str, rooms: Sequence[str]) -> dict[str, int]:
    """The process id holding each of ``rooms`` that has a lease."""
    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT room, owner FROM leases WHERE room = ANY(%s)", (list(rooms),)
        ).fetchall()
    return {r: int(o.split(":")[1]) for r, o in rows}


def stored(url: str, room: str) -> tuple[int, bool]:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute("SELECT seq, over FROM rooms WHERE id = %s", (room,)).fetchone()
    assert row is not None, room
    return int(row[0]), bool(row[1])


def stored_all(url: str, rooms: Sequence[str]) -> dict[str, tuple[int, bool]]:
    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT id, seq, over FROM rooms WHERE id = ANY(%s)", (list(rooms),)
        ).fetchall()
    return {r: (int(s), bool(o)) for r, s, o in rows}


# -- the crash scenario ----------------------------------------------------------------------


@dataclass
class Crash:
    """One process killed with SIGKILL: when, and the rooms it was playing."""

    name: str
    at: float
    """``time.time()`` just before the signal."""
    dead: float
    """``time.time()`` once the process was reaped: every action stored after is another's."""
    exposed: dict[str, int]
    """The rooms under way on it at the kill, with their stored ``seq``."""
    resume: dict[str, float] = field(default_factory=dict)
    """Seconds from the kill to each exposed room's first action stored after it."""


@dataclass
class Outcome:
    """What :func:`play` saw and :func:`judge` found."""

    proxy: str
    rooms: list[str]
    """Rooms with people (scripted clients) and a bot."""
    bot_rooms: list[str]
    """Games of bots alone, each watched by a spectator."""
    seats: list[Seat]
    crashes: list[Crash]
    spread: dict[str, int]
    """How many rooms each process held just before the first kill."""
    moves_before: int
    """Connections closed (a room moving) before the first kill."""
    actions: int = 0
    checked: int = 0
    """States clients were sent, each checked against the database."""
    lost: int = 0
    """States a client was sent that the database lacks or gives otherwise, and gaps in a
    room's numbering."""
    duplicated: int = 0
    """Actions stored twice under one (room, seq), or a room's count not its last seq."""
    finished: int = 0
    """Games over whose record, downloaded through the entry, replays as valid."""
    problems: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.rooms) + len(self.bot_rooms)

    def resume_times(self) -> list[float]:
        return [t for c in self.crashes for t in c.resume.values()]

    def not_resumed(self) -> list[str]:
        return [r for c in self.crashes for r in c.exposed if r not in c.resume]

    def lines(self) -> list[str]:
        times = self.resume_times()
        exposed = sum(len(c.exposed) for c in self.crashes)
        out = [
            f"proxy: {self.proxy}; rooms: {len(self.rooms)} with people and "
            f"{len(self.bot_rooms)} of bots alone; "
            f"rooms per process before the kill: {self.spread}",
            f"actions stored: {self.actions}; states clients were sent, checked: "
            f"{self.checked}; actions lost: {self.lost}; duplicated: {self.duplicated}",
        ]
        for c in self.crashes:
            out.append(
                f"SIGKILL of {c.name}: {len(c.exposed)} games under way on it, "
                f"{len(c.resume)} resumed on the other"
            )
        if times:
            out.append(
                f"time to resume (kill to a room's first action on the other process), "
                f"{len(times)} of {exposed} rooms: median {statistics.median(times):.2f} s, "
                f"max {max(times):.2f} s"
            )
        out.append(f"games finished with a valid record: {self.finished} of {self.games}")
        out += [f"problem: {p}" for p in self.problems]
        return out


def judge(url: str, entry: Endpoint, out: Outcome) -> Outcome:
    """The database as the judge of ``out``'s rooms: counts (not assertions) filled in."""
    import psycopg

    rooms = out.rooms + out.bot_rooms
    with psycopg.connect(url) as db:
        twice = db.execute(
            "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM actions "
            "WHERE room = ANY(%s) GROUP BY room, seq) c",
            (rooms,),
        ).fetchone()
        out.duplicated += int(twice[0]) if twice else 0
        for c in out.crashes:
            for room, first in db.execute(
                "SELECT room, min(at) FROM actions WHERE room = ANY(%s) AND at > %s GROUP BY room",
                (list(c.exposed), c.dead),
            ).fetchall():
                c.resume[room] = float(first) - c.at
    by_room: dict[str, list[Seat]] = {}
    for s in out.seats:
        by_room.setdefault(s.room, []).append(s)
    for room in rooms:
        with psycopg.connect(url) as db:
            row = db.execute(
                "SELECT initial, seq, over FROM rooms WHERE id = %s", (room,)
            ).fetchone()
            steps = db.execute(
                "SELECT seq, seat, action FROM actions WHERE room = %s ORDER BY seq", (room,)
            ).fetchall()
        assert row is not None, room
        numbers = sorted({s for s, _, _ in steps})
        out.actions += len(numbers)
        top = max(numbers, default=0)
        out.lost += top - len(numbers)  # gaps
        if int(row[1]) != top:
            out.duplicated += 1
            out.problems.append(f"room {room}: at seq {row[1]} with {top} actions stored")
        states = [from_record(json.loads(row[0]))]
        try:
            for _, seat, action in steps:
                st = states[-1]
                states.append(apply(st, parse_action(st.phase, json.loads(action)), seat=seat))
        except Exception as e:
            out.problems.append(f"room {room}: its actions do not replay: {e}")
        for s in by_room.get(room, []):
            for seq, view in s.seen.items():
                out.checked += 1
                if seq >= len(states) or view != seen_view(states[seq], s.seat):
                    out.lost += 1
        record = entry.get(f"/rooms/{room}/record")
        if record is not None and replay_record(record).valid and states[-1].is_over:
            out.finished += 1
        else:
            out.problems.append(f"room {room}: no valid record of a finished game")
    return out


def route(room: str, endpoints: Sequence[Endpoint]) -> list[Endpoint]:
    """Without a proxy: the endpoints in the order a client of ``room`` tries them, the same
    for all of a room's clients (a hash of its id), as a proxy routing by room would."""
    k = zlib.crc32(room.encode()) % len(endpoints)
    return [*endpoints[k:], *endpoints[:k]]


def open_rooms(
    proxy: Endpoint | None, processes: Sequence[Process], people: int, bots: int, short: bool,
    gate: threading.Event | None = None,
) -> tuple[list[str], list[str], list[Seat]]:  # fmt: skip
    """``people`` rooms with a bot and scripted clients in the other seats, ``bots`` games of
    bots alone with a spectator each: created through ``proxy`` (or on the processes in
    turn), their clients reaching it (or the processes in the order :func:`route` gives)."""
    rules = [SHORT["standard"], SHORT["partnership"]] if short else ["standard", "partnership"]
    seats: list[Seat] = []
    rooms: list[str] = []
    bot_rooms: list[str] = []
    for n in range(people + bots):
        maker = proxy if proxy is not None else processes[n % len(processes)]
        if n < people:
            made = maker.create(rules[n % 2], {"1": "basic"})
            who = [(s["seat"], s["token"]) for s in made["seats"]]
            rooms.append(made["room"])
        else:
            made = maker.create("standard", {"0": "basic", "1": "basic", "2": "random"})
            who = [(None, None)]
            bot_rooms.append(made["room"])
        ways = [proxy] if proxy is not None else route(made["room"], processes)
        seats += [
            Seat(ways, made["room"], s, t, seed=7 * n + k, gate=gate)
            for k, (s, t) in enumerate(who)
        ]
    return rooms, bot_rooms, seats


def play(
    url: str,
    tmp: Path,
    proxy: str | None,
    *,
    people: int,
    bots: int,
    short: bool = True,
    restart: bool = False,
    settle: float = 60.0,
    finish: float = 180.0,
    say: Callable[[str], None] = lambda _: None,
    started: list[Any] | None = None,
) -> Outcome:
    """Two processes on the database at ``url``, behind ``proxy`` (``"haproxy"``,
    ``"nginx"``, or ``None``: clients route by room themselves); ``people`` rooms played by
    scripted clients (and a bot), ``bots`` games of bots alone each watched by a spectator,
    all created and played through the entry; once every game is under way (the scripted
    seats then hold their moves, :data:`HOLD_AT`, until the kill), the process holding the
    most rooms with people is killed with SIGKILL; with ``restart``, it is
    started again on its port and then the other one is killed too. Every game must finish on
    what is left; the outcome is judged by :func:`judge`. Everything started is appended to
    ``started`` (for the caller to end, whatever happens) and ended before returning."""
    mine: list[Any] = [] if started is None else started
    proxy_port = _free_port()
    public = [] if proxy is None else [
        "--public-url", f"http://127.0.0.1:{proxy_port}", "--proxy-headers"
    ]  # fmt: skip

    def start(name: str, port: int = 0) -> Process:
        p = Process(url, tmp, name, port=port, extra=["--log-level", "warning", *public])
        mine.append(p)
        return p

    processes = [start("a"), start("b")]
    for p in processes:
        p.ready()
    entry: Endpoint
    if proxy is None:
        entry = processes[0]
    else:
        px = Proxy(proxy, proxy_port, [p.port for p in processes], tmp)
        mine.append(px)
        entry = px.ready()
    say(f"processes at {[p.url for p in processes]}, entry {entry.url}")
    # the people's seats hold their moves from HOLD_AT until the first kill: their games are
    # under way when it comes, however fast they would have played (games to 7 take seconds)
    gate = threading.Event()
    rooms, bot_rooms, seats = open_rooms(
        entry if proxy else None, processes, people, bots, short, gate
    )
    begun = time.monotonic()
    for s in seats:
        s.start()
    out = Outcome(proxy or "none", rooms, bot_rooms, seats, [], {}, 0)
    try:
        # every game under way, each room held by the process its clients reach: every
        # client (the bot rooms' spectators too) sent a state by it, so that no room is still
        # moving to the process its first connection reached when the snapshot of the owners
        # is taken (a room a process held then, and gave away before it was killed, would be
        # counted as exposed while its clients never lost it)
        every = rooms + bot_rooms
        ok = wait_for(
            lambda: (
                all(s.last >= (4 if s.token is not None else 0) for s in seats)
                and all(seq >= 10 for seq, _ in stored_all(url, bot_rooms).values())
                and len(owners(url, every)) == len(every)
            ),
            settle,
            0.1,
        )
        assert ok, ([s.last for s in seats], stored_all(url, bot_rooms), owners(url, every))
        out.moves_before = sum(len(s.closes) for s in seats)
        say(f"every game under way after {time.monotonic() - begun:.1f} s")
        held = owners(url, every)
        out.spread = {p.name: sum(1 for o in held.values() if o == p.proc.pid) for p in processes}
        live = {r for r, (_, over) in stored_all(url, rooms).items() if not over}
        target = max(processes, key=lambda p: sum(1 for r in live if held[r] == p.proc.pid))
        out.crashes.append(kill(url, target, every, held))
        gate.set()
        say(f"killed {target.name}: {len(out.crashes[-1].exposed)} games under way on it")
        if restart:
            again = start(target.name + "2", port=target.port).ready()
            other = next(p for p in processes if p is not target)
            # the proxy takes the process back: HAProxy after two good checks a second apart,
            # nginx once its fail_timeout (10 s) is over
            time.sleep({"haproxy": 3.0, "nginx": 11.0}.get(proxy or "", 1.0))
            held = owners(url, every)
            out.crashes.append(kill(url, other, every, held))
            say(f"killed {other.name} after {target.name} came back as {again.name}")
        for s in seats:
            if not s.over.wait(finish):
                out.problems.append(
                    f"room {s.room} seat {s.seat}: not over at seq {s.last} (its last closes: "
                    f"{s.closes[-3:]}, at endpoint {s.at % len(s.servers)}, error {s.error!r})"
                )
            elif s.error is not None:
                out.problems.append(f"room {s.room} seat {s.seat}: {s.error!r}")
    finally:
        gate.set()
        for s in seats:
            s.stop = True
    return judge(url, entry, out)


def kill(url: str, target: Process, rooms: Sequence[str], held: dict[str, int]) -> Crash:
    """SIGKILL to ``target``; the rooms under way it held (``held``: room → owner's pid)."""
    mine = [r for r in rooms if held.get(r) == target.proc.pid]
    at = time.time()
    target.kill()
    dead = time.time()
    now = stored_all(url, mine)
    return Crash(target.name, at, dead, {r: s for r, (s, over) in now.items() if not over})
