"""Bench of the table server: N concurrent rooms over real WebSockets on 127.0.0.1.

Latency: for each N of ``--rooms``, a fresh ``moonrules table`` server (a subprocess)
gets N rooms whose seats are all played by this script's clients, which answer every
state instantly with a random legal action. The round trip of an action is the time
from sending ``act`` to receiving the state that includes it (no bot thinks: that is
excluded by construction). Printed: actions, median and p99 round trip, and the
server's peak resident memory (its process alone, and with its bot workers).

Answering at once, every room always has an action in flight, so the clients load the
server as fast as it goes and the round trip is mostly the wait in that queue (about
rooms / actions a second): a figure of the server's capacity. ``--think S`` makes each
player think a random time up to twice ``S`` seconds before acting, as people do, and
the round trip is then that of a server that is not saturated.

Crash (``--crash K``): K games of server bots, each watched by a spectator; the server
is killed with SIGKILL while they play, started again on the same database, and the
actions any spectator saw that the database lacks are counted (target 0); then every
game must resume and end with a record that replays as valid.

    python bench/table.py                      # --rooms 10,50,200 --seconds 20
    python bench/table.py --think 0.5          # players thinking 0.5 s on average
    python bench/table.py --crash 50
    python bench/table.py --paced --rooms 100,250,500,1000 --seconds 30

Paced (``--paced``): rooms played as people play them. In each room an action comes at a
fixed, randomised pace (one every ``--pace`` seconds, 1 to 3 by default, drawn at random),
on a schedule that does not wait for the server: the seat to act sends it at its time, or
as soon as it knows it is its turn when the answer to the room's previous action came late.
The round trip counts from that scheduled time to the state that includes the action, so
that queueing in the server shows in it. Printed for each N of ``--rooms``: actions a
second, the round trip's median, p99 and max, the server's CPU (percent of one core) and
peak memory, and its event loop's lag (``/healthz``: p99 and max over the run). Clients
connect from 127.0.0.x addresses in turn, so that the server's per-address limits hold for
each, as for people at home. ``--profile DIR`` records the server with py-spy while it runs
(``pip install py-spy``) and prints where its time goes.

The paced clients run in several processes (``--client-procs K``; by default one per 250
rooms), so that the figures are the server's and not those of a client's event loop running
late: each process's own loop lag is printed too ("client lag", its largest), as is the
machine's load average. Rooms are created and every connection opened before the measured
window starts.

Knee (``--knee``): the same rooms in a closed loop (each room's next action sent as soon as
the answer to its last one is in, timed from its sending), at increasing room counts
(``--rooms``, by default 25,50,100,150,200,300; 4 to 8 client processes); printed for each as
for ``--paced``, then the knee: the actions a second at which the p99 round trip passes
100 ms, interpolated between the two counts around it.

    python bench/table.py --knee --seconds 15

Flood (``--flood``): a victim room (one person, answering at once, and two ``strong`` bots)
is played for ``--seconds`` alone, then for as long again beside ``--flood-rooms`` rooms (20
by default) created from one client address, whose one person asks for help back to back
(``--flood-with claim``: on each of its turns in play a claim of every count in turn, then a
tile; ``hint``: a hint on each turn, then its action; each asked again as soon as it is
refused too fast), all on one server. Printed for each phase: the victim's wait (from its
action to its next turn: its bots' two moves and the server), median and p90, the help
answered and refused, and the bot workers' peak resident memory (each worker's, and all
together); then the flood's median over the baseline's (target: within 1.5x).

    python bench/table.py --flood --seconds 40
    python bench/table.py --flood --flood-with hint --seconds 40

Clients and server share the machine's cores: the figures include that contention.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Final

import psutil
from websockets.asyncio.client import connect

URL_LINE = re.compile(r"Moon table: (http://\S+)/ ")
STATE_HEAD = re.compile(r'\{"type":"state","seq":(\d+),')


SYNC = ["--sync", "full"]


def start(db: Path, *, quiet: bool = False) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "moonrules",
            "table",
            "--port",
            "0",
            "--db",
            str(db),
            "--bot-pace",
            "0",
            "--log-level",
            "warning",
            *SYNC,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else None,
        text=True,
    )
    assert proc.stdout is not None
    m = URL_LINE.search(proc.stdout.readline())
    if m is None:
        proc.kill()
        raise SystemExit("the server did not start")
    url = m.group(1)
    for _ in range(600):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5):
                return proc, url
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server never answered")


def create(url: str, rules: str, bots: dict[str, str]) -> Any:
    req = urllib.request.Request(
        url + "/api/rooms",
        data=json.dumps({"rules": rules, "bots": bots}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def memory(proc: subprocess.Popen[str]) -> tuple[int, int]:
    """Resident memory of the server process, and of it with its children (bytes)."""
    p = psutil.Process(proc.pid)
    own = p.memory_info().rss
    children = sum(c.memory_info().rss for c in p.children(recursive=True))
    return own, own + children


async def seat(
    url: str,
    room: str,
    token: str,
    stop: float,
    rtts: list[float],
    rng: random.Random,
    think: float = 0.0,
) -> int:
    acted = 0
    async with connect(f"{url}/rooms/{room}/ws?token={token}", max_size=2**20) as ws:
        sent_at: float | None = None
        sent_seq = -1
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(text)
            if msg["type"] != "state":
                sent_at = None
                continue
            if sent_at is not None and msg["seq"] > sent_seq:
                rtts.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["table"]["over"]:
                break
            if msg["legal"] and sent_at is None:
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_seq = msg["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"])}))
                acted += 1
    return acted


async def drive(
    url: str, rooms: list[Any], seconds: float, rtts: list[float], think: float = 0.0
) -> int:
    stop = time.monotonic() + seconds
    rng = random.Random(1)
    tasks = [
        seat(url, r["room"], s["token"], stop, rtts, random.Random(rng.random()), think)
        for r in rooms
        for s in r["seats"]
    ]
    return sum(await asyncio.gather(*tasks))


async def measure(
    proc: subprocess.Popen[str],
    url: str,
    rooms: list[Any],
    seconds: float,
    rtts: list[float],
    peak: list[int],
    think: float = 0.0,
) -> int:
    """Drive the rooms for ``seconds``, sampling the server's memory into ``peak``."""

    async def sample() -> None:
        while True:
            own, total = memory(proc)
            peak[0], peak[1] = max(peak[0], own), max(peak[1], total)
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    try:
        return await drive(url.replace("http", "ws"), rooms, seconds, rtts, think)
    finally:
        sampler.cancel()


def latency(counts: list[int], seconds: float, think: float = 0.0) -> None:
    print(f"{'rooms':>6} {'actions':>8} {'act/s':>7} {'median ms':>10} {'p99 ms':>8} "
          f"{'server MB':>10} {'+workers MB':>12}")  # fmt: skip
    for n in counts:
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start(Path(tmp) / "bench.sqlite3")
            try:
                rooms = [create(url, "standard" if i % 2 else "partnership", {}) for i in range(n)]
                rtts: list[float] = []
                peak = [0, 0]
                acted = asyncio.run(measure(proc, url, rooms, seconds, rtts, peak, think))
                rtts.sort()
                med = statistics.median(rtts) * 1e3
                p99 = rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))] * 1e3
                print(f"{n:>6} {acted:>8} {acted / seconds:>7.0f} {med:>10.1f} {p99:>8.1f} "
                      f"{peak[0] / 2**20:>10.0f} {peak[1] / 2**20:>12.0f}")  # fmt: skip
            finally:
                proc.send_signal(signal.SIGINT)
                proc.wait(60)


async def watch(url: str, room: str, seen: dict[str, int]) -> None:
    try:
        async with connect(f"{url}/rooms/{room}/ws", max_size=2**20) as ws:
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] == "state":
                    seen[room] = max(seen.get(room, 0), msg["seq"])
    except Exception:
        return  # the server was killed


def stored(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT room, COUNT(*) FROM actions GROUP BY room").fetchall())


def crash(games: int, after: float) -> int:
    from moonrules.records.replay import replay

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "crash.sqlite3"
        proc, url = start(db)
        rooms = [
            create(url, "standard", {"0": "basic", "1": "basic", "2": "basic"})["room"]
            for _ in range(games)
        ]
        seen: dict[str, int] = {}

        async def run() -> None:
            tasks = [asyncio.create_task(watch(url.replace("http", "ws"), r, seen)) for r in rooms]
            await asyncio.sleep(after)
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            await asyncio.gather(*tasks)

        asyncio.run(run())
        have = stored(db)
        lost = sum(max(0, seen.get(r, 0) - have.get(r, 0)) for r in rooms)
        running = sum(1 for r in rooms if seen.get(r, 0) > 0)
        print(f"SIGKILL after {after:g} s: {running} of {games} games running, "
              f"{sum(have.values())} actions stored, {sum(seen.values())} seen by spectators; "
              f"actions lost: {lost}")  # fmt: skip
        proc2, url2 = start(db)
        try:
            valid = 0
            deadline = time.monotonic() + 600
            pending = set(rooms)
            while pending and time.monotonic() < deadline:
                for r in list(pending):
                    try:
                        with urllib.request.urlopen(f"{url2}/rooms/{r}/record", timeout=30) as a:
                            valid += replay(json.loads(a.read())).valid
                            pending.discard(r)
                    except urllib.error.HTTPError:
                        pass
                time.sleep(0.5)
            print(f"after the restart: {valid} of {games} games resumed and ended with a "
                  "valid record")  # fmt: skip
        finally:
            proc2.send_signal(signal.SIGINT)
            proc2.wait(60)
        return lost


# -- paced: rooms played at a person's pace ------------------------------------------------


def local_address(i: int) -> str:
    """The i-th client's source address: 127.0.0.2 to 127.0.0.201 in turn."""
    return f"127.0.0.{2 + i % 200}"


def create_from(url: str, source: str, rules: str) -> Any:
    import http.client
    from urllib.parse import urlsplit

    u = urlsplit(url)
    c = http.client.HTTPConnection(u.hostname or "", u.port, timeout=60, source_address=(source, 0))
    try:
        body = json.dumps({"rules": rules, "bots": {}})
        c.request("POST", "/api/rooms", body, {"Content-Type": "application/json"})
        r = c.getresponse()
        answer = json.loads(r.read())
        if r.status != 201:
            raise SystemExit(f"creating a room: {r.status} {answer}")
        return answer
    finally:
        c.close()


def health(url: str) -> Any:
    with urllib.request.urlopen(url + "/healthz", timeout=30) as r:
        return json.loads(r.read())


class PacedRoom:
    """One room's seats, each connected; its actions at a person's pace (or, ``closed``,
    each as soon as the answer to the room's last one is in: a closed loop)."""

    def __init__(
        self, url: str, room: Any, source: str, pace: tuple[float, float], closed: bool = False
    ) -> None:
        self.url = url
        self.room = room
        self.source = source
        self.pace = pace
        self.closed = closed
        self.rng = random.Random(room["room"])
        self.latest: dict[str, Any] | None = None  # the newest state with a seat to act
        self.turn: int | None = None
        self.seq = -1  # the newest seq any seat has been told
        self.over = False
        self.changed = asyncio.Event()
        self.conns: list[Any] = []

    async def open(self) -> None:
        ws = self.url.replace("http", "ws")
        for s in self.room["seats"]:
            c = await connect(
                f"{ws}/rooms/{self.room['room']}/ws?token={s['token']}",
                max_size=2**20,
                compression=None,
                local_addr=(self.source, 0),
                open_timeout=120,
                ping_interval=None,
            )
            self.conns.append(c)

    async def read(self, seat: int, ws: Any) -> None:
        try:
            async for text in ws:
                # read whole only when it matters (the seat to act, the game's end): the
                # client's CPU is the server's too on one machine
                head = STATE_HEAD.match(text)
                if head is None:
                    if '"type":"state"' not in text:
                        continue
                    seq = json.loads(text)["seq"]
                else:
                    seq = int(head.group(1))
                self.seq = max(self.seq, seq)
                if '"over":true' in text:
                    self.over = self.over or json.loads(text)["table"]["over"]
                if '"legal":[]' not in text and (self.latest is None or seq >= self.latest["seq"]):
                    msg = json.loads(text)
                    if msg["legal"]:
                        self.latest, self.turn = msg, seat
                self.changed.set()
        except Exception:
            return

    async def wait(self, stop: float) -> bool:
        """Until a state comes, or ``stop``: false then."""
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), max(0.0, stop - time.monotonic()))
        except TimeoutError:
            return False
        return True

    async def play(self, start: float, stop: float, rtts: list[float], counts: list[int]) -> None:
        """Act until ``stop`` (``time.monotonic``), the first action at ``start`` or up to
        one pace later; the round trip of each action that ends before ``stop`` counted."""
        readers = [asyncio.create_task(self.read(i, c)) for i, c in enumerate(self.conns)]
        try:
            due = start + (0.0 if self.closed else self.rng.uniform(0, self.pace[1]))
            while due < stop:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                # the seat to act, once the answer to the room's last action is in
                while self.latest is None or self.turn is None:
                    if self.over or not await self.wait(stop):
                        return
                msg, seat = self.latest, self.turn
                self.latest = self.turn = None
                sent_seq = msg["seq"]
                action = self.rng.choice(msg["legal"])
                if self.closed:  # counted from the moment it is sent
                    due = time.monotonic()
                await self.conns[seat].send(json.dumps({"type": "act", "action": action}))
                # the answer: a state of a later seq, on any of the room's connections
                while self.seq <= sent_seq:
                    if not await self.wait(stop):
                        return  # no answer (a refusal) before the end: not counted
                now = time.monotonic()
                if now < stop:
                    rtts.append(now - due)
                    counts[0] += 1
                due = now if self.closed else due + self.rng.uniform(*self.pace)
        finally:
            for t in readers:
                t.cancel()


def _die_with_parent() -> None:
    """Linux: this process gets SIGKILL when the bench that started it dies."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def client_process(
    url: str, rooms: list[tuple[Any, str]], pace: tuple[float, float], closed: bool, pipe: Any
) -> None:
    """One client process: its share of the rooms connected, then (told when) played; its
    round trips, actions and own event loop's lag sent back through ``pipe``."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bench stops it
    asyncio.run(_client(url, rooms, pace, closed, pipe))


async def _client(
    url: str, given: list[tuple[Any, str]], pace: tuple[float, float], closed: bool, pipe: Any
) -> None:
    rooms = [PacedRoom(url, room, source, pace, closed) for room, source in given]
    for i in range(0, len(rooms), 25):  # connect 25 rooms at a time
        await asyncio.gather(*(r.open() for r in rooms[i : i + 25]))
    pipe.send("ready")
    start, stop = await asyncio.to_thread(pipe.recv)
    rtts: list[float] = []
    counts = [0]
    lag = [0.0]

    async def own_lag() -> None:  # this process's: late, it would spoil the figures
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        while True:
            at = time.monotonic()
            await asyncio.sleep(0.05)
            lag[0] = max(lag[0], time.monotonic() - at - 0.05)

    meter = asyncio.create_task(own_lag())
    await asyncio.gather(*(r.play(start, stop, rtts, counts) for r in rooms))
    meter.cancel()
    pipe.send({"rtts": rtts, "actions": counts[0], "client_lag": lag[0]})
    await asyncio.gather(*(c.close() for r in rooms for c in r.conns), return_exceptions=True)


def paced_run(
    url: str,
    n: int,
    seconds: float,
    pace: tuple[float, float],
    proc: subprocess.Popen[str],
    procs: int,
    closed: bool = False,
) -> dict[str, Any]:
    """N rooms created, then connected by ``procs`` client processes; once all are
    connected (setup is not measured), every room played for ``seconds``."""
    import multiprocessing

    created = [
        (create_from(url, local_address(i), "standard" if i % 2 else "partnership"),
         local_address(i))
        for i in range(n)
    ]  # fmt: skip
    ctx = multiprocessing.get_context("fork")
    pipes, children = [], []
    for k in range(procs):
        mine, theirs = ctx.Pipe()
        child = ctx.Process(
            target=client_process,
            args=(url, created[k::procs], pace, closed, theirs),
            daemon=True,
        )
        child.start()
        pipes.append(mine)
        children.append(child)
    try:
        for pipe in pipes:
            if not pipe.poll(300) or pipe.recv() != "ready":
                raise SystemExit("a client process did not connect its rooms")
        server = psutil.Process(proc.pid)
        time.sleep(1.0)  # the joins' broadcasts sent
        t0 = time.monotonic() + 0.2
        stop = t0 + seconds
        for pipe in pipes:
            pipe.send((t0, stop))
        peak = [0, 0]
        lags: list[Any] = []
        time.sleep(max(0.0, t0 - time.monotonic()))
        cpu0 = server.cpu_times()
        while time.monotonic() < stop:
            own, total = memory(proc)
            peak[0], peak[1] = max(peak[0], own), max(peak[1], total)
            time.sleep(min(1.0, max(0.0, stop - time.monotonic())))
            # the server's lag over its last 10 s: once they are all within the run
            if time.monotonic() >= t0 + min(10.0, seconds - 1.0):
                lags.append(health(url))
        cpu1 = server.cpu_times()
        elapsed = time.monotonic() - t0
        results = []
        for pipe in pipes:
            if not pipe.poll(60):
                raise SystemExit("a client process did not report within 60 s of the end")
            results.append(pipe.recv())
    finally:
        for child in children:
            child.join(30)
            if child.is_alive():
                child.kill()
    cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / elapsed
    return {"rtts": [x for r in results for x in r["rtts"]],
            "actions": sum(r["actions"] for r in results), "elapsed": elapsed, "cpu": cpu,
            "peak": peak,
            "lag_p99": max((h["loop_lag"]["p99_ms"] for h in lags), default=0.0),
            "lag_max": max((h["loop_lag"]["max_ms"] for h in lags), default=0.0),
            "client_lag": max(r["client_lag"] for r in results) * 1e3}  # fmt: skip


def default_procs(n: int, closed: bool) -> int:
    """Client processes for N rooms: enough that each one's event loop stays on time."""
    if closed:  # every room always busy: at least 4, one per 50 rooms, at most 8
        return max(4, min(8, -(-n // 50)))
    return max(1, min(8, -(-n // 250)))  # rooms a client process plays without falling behind


def percentile(rtts: list[float], q: float) -> float:
    ranked = sorted(rtts) or [float("nan")]
    return ranked[min(len(ranked) - 1, int(len(ranked) * q))]


def paced(
    counts: list[int],
    seconds: float,
    pace: tuple[float, float],
    profile: Path | None,
    procs: int | None = None,
    closed: bool = False,
) -> list[tuple[int, float, float]]:
    """Each N of ``counts`` on a fresh server; returns (N, actions/s, p99 s) for each."""
    print(f"{'rooms':>6} {'conns':>6} {'procs':>5} {'act/s':>7} {'median ms':>10} {'p99 ms':>8} "
          f"{'max ms':>8} {'CPU %':>6} {'server MB':>10} {'+workers MB':>12} {'lag p99 ms':>11} "
          f"{'lag max ms':>11} {'client lag':>10} {'load':>5}")  # fmt: skip
    out = []
    for n in counts:
        k = procs or default_procs(n, closed)
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start(Path(tmp) / "bench.sqlite3", quiet=True)
            spy = None
            try:
                if profile is not None:
                    profile.mkdir(parents=True, exist_ok=True)
                    out_file = profile / f"server-{n}-rooms{'-closed' if closed else ''}.txt"
                    argv = ["py-spy", "record", "--pid", str(proc.pid), "--format", "raw"]
                    argv += ["--rate", "50", "--output", str(out_file)]
                    argv += ["--duration", str(int(seconds) + 20)]
                    spy = subprocess.Popen(
                        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                    )
                r = paced_run(url, n, seconds, pace, proc, k, closed)
                rtts = sorted(r["rtts"]) or [float("nan")]
                med = statistics.median(rtts) * 1e3
                p99 = percentile(rtts, 0.99)
                conns = sum(4 if i % 2 == 0 else 3 for i in range(n))
                rate = r["actions"] / r["elapsed"]
                print(f"{n:>6} {conns:>6} {k:>5} {rate:>7.0f} {med:>10.1f} "
                      f"{p99 * 1e3:>8.1f} {rtts[-1] * 1e3:>8.1f} {r['cpu'] * 100:>6.0f} "
                      f"{r['peak'][0] / 2**20:>10.0f} {r['peak'][1] / 2**20:>12.0f} "
                      f"{r['lag_p99']:>11.1f} {r['lag_max']:>11.1f} {r['client_lag']:>10.1f} "
                      f"{os.getloadavg()[0]:>5.2f}", flush=True)  # fmt: skip
                out.append((n, rate, p99))
            finally:
                if spy is not None:
                    spy.send_signal(signal.SIGINT)
                    spy.wait(120)
                proc.send_signal(signal.SIGINT)
                proc.wait(60)
            if profile is not None:
                top(profile / f"server-{n}-rooms{'-closed' if closed else ''}.txt")
    return out


# -- flood: help asked back to back beside a victim room ----------------------------------


def create_body(url: str, body: dict[str, Any], source: str | None = None) -> Any:
    """A room made from ``body`` (from the address ``source``, if given)."""
    import http.client
    from urllib.parse import urlsplit

    u = urlsplit(url)
    c = http.client.HTTPConnection(
        u.hostname or "", u.port, timeout=60, source_address=None if source is None else (source, 0)
    )
    try:
        c.request("POST", "/api/rooms", json.dumps(body), {"Content-Type": "application/json"})
        r = c.getresponse()
        answer = json.loads(r.read())
        if r.status != 201:
            raise SystemExit(f"creating a room: {r.status} {answer}")
        return answer
    finally:
        c.close()


async def victim(url: str, body: dict[str, Any], stop: float, waits: list[float]) -> None:
    """The victim's seat, in a room made from ``body`` (and another when its game ends, so
    that both phases wait as long): acts at once on each of its turns (a random legal
    action); each wait, from its action to its next turn, counted (the one still open at
    ``stop`` too, as long as it lasted: a victim starved to the end waits that long at
    least)."""
    rng = random.Random(5)
    ws_url = url.replace("http", "ws")
    while time.monotonic() < stop:
        room = await asyncio.to_thread(create_body, url, body)
        token = room["seats"][0]["token"]
        address = f"{ws_url}/rooms/{room['room']}/ws?token={token}"
        async with connect(address, max_size=2**22) as ws:
            sent_at: float | None = None
            sent_seq = -1
            over = False
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    break
                msg = json.loads(text)
                if msg["type"] != "state" or msg["seq"] <= sent_seq:
                    continue
                if msg["table"]["over"]:
                    over = True
                    break
                if not msg["legal"]:
                    continue
                now = time.monotonic()
                if sent_at is not None:
                    waits.append(now - sent_at)
                legal = msg["legal"]
                action = "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal)
                sent_seq, sent_at = msg["seq"], time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": action}))
            if sent_at is not None and not over:
                waits.append(max(0.0, min(stop, time.monotonic()) - sent_at))


class Asker:
    """One flood room's person: what it asks next (``claim``: every count in turn on each
    of its turns in play, then a tile; ``hint``: one on each turn, then the action)."""

    def __init__(self, kind: str, seed: str, counts: dict[str, int]) -> None:
        self.kind = kind
        self.rng = random.Random(seed)
        self.counts = counts
        self.state: dict[str, Any] | None = None
        self.asks: list[Any] = []  # what is left to ask at this turn
        self.waiting = False

    async def hear(self, msg: dict[str, Any]) -> bool:
        """Take in one message; false once the game is over."""
        kind = msg["type"]
        if kind == "state":
            if msg["table"]["over"]:
                return False
            if self.state is None or msg["seq"] != self.state["seq"]:
                self.state, self.waiting = msg, False
                view = msg["view"]
                if self.kind == "claim" and view["phase"] == "play":
                    self.asks = [None, *range(1, 8 - len(view["tricks"]))]
                else:
                    self.asks = ["hint"] if self.kind == "hint" else []
            return True
        self.waiting = False
        if kind in ("hint", "notice") or (kind == "refused" and msg["code"] == "claim"):
            self.counts["answered"] += 1
        elif kind == "refused" and msg["code"] in ("too-fast", "unavailable"):
            self.counts["refused"] += 1
            await asyncio.sleep(0.2)  # asked again at once, or nearly
            return True
        if kind != "refused" or msg["code"] != "elsewhere":
            self.asks = self.asks[1:]
        return True

    def frame(self) -> dict[str, Any] | None:
        """What to send now, if anything."""
        if self.state is None or not self.state["legal"] or self.waiting:
            return None
        self.waiting = True
        if self.asks:
            ask = self.asks[0]
            return {"type": "hint"} if ask == "hint" else {"type": "claim", "tricks": ask}
        legal = self.state["legal"]
        return {"type": "act", "action": "pass" if "pass" in legal else self.rng.choice(legal)}


async def attacker(
    url: str, room: Any, source: str, stop: float, kind: str, counts: dict[str, int]
) -> None:
    """One flood room's person, asking as :class:`Asker` says until ``stop``."""
    asker = Asker(kind, room["room"], counts)
    ws_url = url.replace("http", "ws")
    token = room["seats"][0]["token"]
    address = f"{ws_url}/rooms/{room['room']}/ws?token={token}"
    try:
        async with connect(address, max_size=2**22, local_addr=(source, 0)) as ws:
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    return
                if not await asker.hear(json.loads(text)):
                    return
                frame = asker.frame()
                if frame is not None:
                    await ws.send(json.dumps(frame))
    except Exception as e:  # the flood's client: counted, the bench goes on
        counts["errors"] += 1
        print(f"  (a flood client ended: {type(e).__name__}: {e})", file=sys.stderr)


def worker_memory(proc: subprocess.Popen[str]) -> tuple[int, int]:
    """The bot workers' resident memory: the largest one's and all together (bytes)."""
    rss = []
    for c in psutil.Process(proc.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            rss.append(c.memory_info().rss)
    return max(rss, default=0), sum(rss)


def flood(seconds: float, rooms: int, kind: str) -> None:
    """The victim alone, then beside the flood, on one server (see the module's text)."""
    victim_body = {"rules": "standard", "bots": {"1": "strong", "2": "strong"}}
    flood_body = {"rules": "partnership", "bots": {"1": "basic", "2": "basic", "3": "basic"}}
    source = local_address(7)
    print(f"flood: {rooms} rooms from {source} asking for {kind}s back to back, beside a room "
          f"of one person and two strong bots; {seconds:g} s a phase")  # fmt: skip
    print(f"{'phase':>9} {'turns':>6} {'median s':>9} {'p90 s':>7} {'answered':>9} "
          f"{'refused':>8} {'worker MB':>10} {'workers MB':>11}")  # fmt: skip
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(Path(tmp) / "bench.sqlite3", quiet=True)
        try:
            for phase in ("baseline", "flood"):
                counts = {"answered": 0, "refused": 0, "errors": 0}
                peak = [0, 0]
                waits: list[float] = []
                flooding = [create_body(url, flood_body, source) for _ in range(rooms)]

                async def run(
                    flooding: list[Any] = flooding,
                    counts: dict[str, int] = counts,
                    peak: list[int] = peak,
                    waits: list[float] = waits,
                    phase: str = phase,
                ) -> None:
                    stop = time.monotonic() + seconds

                    async def sample() -> None:
                        while True:
                            one, every = worker_memory(proc)
                            peak[0], peak[1] = max(peak[0], one), max(peak[1], every)
                            await asyncio.sleep(0.5)

                    sampler = asyncio.create_task(sample())
                    tasks = [victim(url, victim_body, stop, waits)]
                    if phase == "flood":
                        tasks += [attacker(url, r, source, stop, kind, counts) for r in flooding]
                    await asyncio.gather(*tasks)
                    sampler.cancel()

                asyncio.run(run())
                ranked = sorted(waits) or [float("nan")]
                med = statistics.median(ranked)
                figures[phase] = med
                print(f"{phase:>9} {len(waits):>6} {med:>9.2f} {percentile(ranked, 0.9):>7.2f} "
                      f"{counts['answered']:>9} {counts['refused']:>8} "
                      f"{peak[0] / 2**20:>10.0f} {peak[1] / 2**20:>11.0f}", flush=True)  # fmt: skip
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
    ratio = figures["flood"] / figures["baseline"]
    verdict = "within" if ratio <= 1.5 else "NOT within"
    print(f"the victim's median wait under the flood: {ratio:.2f}x its baseline ({verdict} 1.5x)")


KNEE_MS: Final = 100.0


def knee(counts: list[int], seconds: float, profile: Path | None, procs: int | None) -> None:
    """Closed loop at increasing room counts: the knee is the actions/s at which the
    round trip's p99 passes :data:`KNEE_MS` (interpolated between the two counts around it)."""
    rows = paced(counts, seconds, (0.0, 0.0), profile, procs, closed=True)
    below = [(rate, p99) for _, rate, p99 in rows if p99 * 1e3 <= KNEE_MS]
    above = [(rate, p99) for _, rate, p99 in rows if p99 * 1e3 > KNEE_MS]
    if not below:
        print(f"knee: p99 above {KNEE_MS:g} ms from the first count on")
    elif not above:
        best = max(rate for rate, _ in below)
        print(f"knee: not reached; {best:.0f} actions/s with p99 under {KNEE_MS:g} ms")
    else:
        (r0, p0), (r1, p1) = max(below), min(above, key=lambda x: x[1])
        # past the best rate under the line, more rooms only wait longer: the knee is that rate
        at = r0 + (r1 - r0) * (KNEE_MS / 1e3 - p0) / (p1 - p0) if r1 > r0 and p1 > p0 else r0
        print(f"knee: p99 passes {KNEE_MS:g} ms at about {at:.0f} actions/s ({r0:.0f}/s at "
              f"p99 {p0 * 1e3:.0f} ms, {r1:.0f}/s at p99 {p1 * 1e3:.0f} ms)")  # fmt: skip


def top(raw: Path, lines: int = 25) -> None:
    """Where the server's time went: each function's share of the samples, in it or below
    (inclusive) and in it alone (self), from py-spy's collapsed stacks."""
    if not raw.exists():
        print(f"  (no profile: {raw} not written; is py-spy installed and allowed to attach?)")
        return
    total = 0
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        k = int(count)
        total += k
        frames = [f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].split("/")[-1] + ")"
                  for f in stack.split(";")[1:]]  # fmt: skip
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + k
        if frames:
            own[frames[-1]] = own.get(frames[-1], 0) + k
    print(f"  profile ({total} samples of threads at work, setup included): by self time")
    for f, k in sorted(own.items(), key=lambda x: -x[1])[:lines]:
        print(f"  {100 * k / total:6.1f}% self {100 * inclusive[f] / total:6.1f}% incl  {f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", default="10,50,200", help="numbers of rooms, comma-separated")
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="how long each N runs (default 20; a --flood phase 40)",
    )
    p.add_argument("--crash", type=int, metavar="K", help="the crash test with K games instead")
    p.add_argument("--after", type=float, default=3.0, help="seconds before the SIGKILL")
    p.add_argument("--sync", choices=("full", "normal"), default="full", help="the server's --sync")
    p.add_argument(
        "--think", type=float, default=0.0, metavar="S", help="players think up to 2S s (mean S)"
    )
    p.add_argument("--paced", action="store_true", help="rooms played at a person's pace")
    p.add_argument(
        "--pace", default="1,3", metavar="LO,HI", help="--paced: seconds between a room's actions"
    )
    p.add_argument("--profile", type=Path, metavar="DIR", help="--paced, --knee: py-spy the server")
    p.add_argument(
        "--client-procs",
        type=int,
        metavar="K",
        help="--paced, --knee: client processes (default: one per 250 rooms paced; 4 to 8 closed)",
    )
    p.add_argument(
        "--knee",
        action="store_true",
        help="closed loop at increasing --rooms (default 25,50,100,150,200,300): the actions/s "
        "at which p99 passes 100 ms",
    )
    p.add_argument(
        "--flood", action="store_true", help="a victim room beside rooms asking for help"
    )
    p.add_argument("--flood-rooms", type=int, default=20, help="--flood: rooms of the flood")
    p.add_argument(
        "--flood-with", choices=("claim", "hint"), default="claim", help="--flood: what they ask"
    )
    args = p.parse_args()
    if args.client_procs is not None and not 1 <= args.client_procs <= 64:
        p.error(f"--client-procs: from 1 to 64, not {args.client_procs}")
    if args.crash is not None:
        from moonrules.table.rooms import TableLimits

        cap = TableLimits().max_bot_rooms  # rooms of bots alone playing at once
        if not 1 <= args.crash <= cap:
            p.error(f"--crash: from 1 to {cap} games (the server's bot rooms), not {args.crash}")
    SYNC[1] = args.sync
    print(f"moonrules table bench: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"--sync {args.sync}, think {args.think:g} s, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    if args.crash:
        return 1 if crash(args.crash, args.after) else 0
    if args.flood:
        flood(40.0 if args.seconds is None else args.seconds, args.flood_rooms, args.flood_with)
        return 0
    if args.seconds is None:
        args.seconds = 20.0
    if args.knee:
        rooms = "25,50,100,150,200,300" if args.rooms == "10,50,200" else args.rooms
        knee([int(x) for x in rooms.split(",")], args.seconds, args.profile, args.client_procs)
        return 0
    if args.paced:
        lo, hi = (float(x) for x in args.pace.split(","))
        rooms = "100,250,500,1000" if args.rooms == "10,50,200" else args.rooms
        paced(
            [int(x) for x in rooms.split(",")],
            args.seconds,
            (lo, hi),
            args.profile,
            args.client_procs,
        )
        return 0
    latency([int(x) for x in args.rooms.split(",")], args.seconds, args.think)
    return 0


if __name__ == "__main__":
    sys.exit(main())
