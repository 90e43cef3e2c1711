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

Clients and server share the machine's cores: the figures include that contention.
"""

from __future__ import annotations

import argparse
import asyncio
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
from typing import Any

import psutil
from websockets.asyncio.client import connect

URL_LINE = re.compile(r"Moon table: (http://\S+)/ ")


SYNC = ["--sync", "full"]


def start(db: Path) -> tuple[subprocess.Popen[str], str]:
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
    from moonrules.records.record import replay

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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", default="10,50,200", help="numbers of rooms, comma-separated")
    p.add_argument("--seconds", type=float, default=20.0, help="how long each N runs")
    p.add_argument("--crash", type=int, metavar="K", help="the crash test with K games instead")
    p.add_argument("--after", type=float, default=3.0, help="seconds before the SIGKILL")
    p.add_argument("--sync", choices=("full", "normal"), default="full", help="the server's --sync")
    p.add_argument(
        "--think", type=float, default=0.0, metavar="S", help="players think up to 2S s (mean S)"
    )
    args = p.parse_args()
    if args.crash is not None:
        from moonrules.table.rooms import TableLimits

        cap = TableLimits().max_bot_rooms  # rooms of bots alone playing at once
        if not 1 <= args.crash <= cap:
            p.error(f"--crash: from 1 to {cap} games (the server's bot rooms), not {args.crash}")
    SYNC[1] = args.sync
    print(f"moonrules table bench: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"--sync {args.sync}, think {args.think:g} s")  # fmt: skip
    if args.crash:
        return 1 if crash(args.crash, args.after) else 0
    latency([int(x) for x in args.rooms.split(",")], args.seconds, args.think)
    return 0


if __name__ == "__main__":
    sys.exit(main())
