"""Bench of the table on several processes: a SIGKILL mid-game, behind the guide's proxy.

``--db postgresql`` (the default): two ``moonrules table`` processes on one throwaway
PostgreSQL server (Debian's programs: ``bash scripts/postgres.sh``; the test suite's
``tests/postgres_support.py`` starts it), behind HAProxy or nginx with the configuration of
``docs/guides/table-deploy.md`` read from the guide itself (``--proxy none``: the clients
route by room themselves, to the processes directly). ``--rooms N`` rooms with people (a
bot in one seat, this script's WebSocket clients in the others, playing a random legal
action at once) and ``--bots K`` games of bots alone, each watched by a spectator, all
created and played through the proxy. Once every game is under way, the process holding the
most rooms with people is killed with SIGKILL (``--restart``: then started again on its
port, and the other one killed too). Every game must finish on what is left. Printed: rooms,
actions stored, actions lost (a state a client was sent that the database lacks or gives
otherwise, or a gap in a room's numbering) and duplicated (two rows of one ``(room, seq)``,
or a room's count not its last ``seq``), the time from the kill to each of the killed
process's rooms' first action on the other (median, max), and the games finished with a
record that, downloaded through the proxy, replays as valid (the shared code:
``tests/table_cluster_support.py``, which ``tests/test_table_proxy.py`` runs too).

``--db sqlite``: one process on an SQLite file, killed with SIGKILL and started again, as
``python bench/table.py --crash K`` does (the same code, called from there) with
``--rooms`` games of bots.

    python bench/table_cluster.py --rooms 40 --bots 20 --proxy haproxy
    python bench/table_cluster.py --rooms 40 --bots 20 --proxy nginx
    python bench/table_cluster.py --db sqlite --rooms 50

Clients, proxy, processes and database share the machine's cores.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))  # the shared cluster code and the throwaway PostgreSQL
sys.path.insert(0, str(ROOT))


def table_bench() -> ModuleType:
    """``bench/table.py``, for its single-process crash bench."""
    spec = importlib.util.spec_from_file_location("moonrules_bench_table", HERE / "table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_sqlite(games: int, after: float) -> int:
    bench = table_bench()
    print(f"SQLite, one process: {games} games of bots, SIGKILL after {after:g} s, restarted")
    lost: int = bench.crash(games, after)
    return 1 if lost else 0


def on_postgres(args: argparse.Namespace) -> int:
    # tests/ is on sys.path (above), not on mypy's
    from postgres_support import (  # type: ignore[import-not-found, unused-ignore]
        PostgresServer,
        bindir,
    )
    from table_cluster_support import (  # type: ignore[import-not-found, unused-ignore]
        play,
        proxy_program,
    )

    programs = bindir()
    if programs is None:
        raise SystemExit("PostgreSQL is not installed: bash scripts/postgres.sh installs it")
    proxy = None if args.proxy == "none" else args.proxy
    if proxy is not None and proxy_program(proxy) is None:
        raise SystemExit(f"{proxy} is not installed: apt-get install -y {proxy}")
    server = PostgresServer(programs).start()
    started: list[Any] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            begun = time.monotonic()
            out = play(
                server.new_database(),
                Path(tmp),
                proxy,
                people=args.rooms,
                bots=args.bots,
                short=not args.whole,
                restart=args.restart,
                settle=120 + args.rooms,
                finish=600,
                say=lambda text: print("  " + text, flush=True),
                started=started,
            )
            for thing in reversed(started):
                thing.end()
            started.clear()
            for line in out.lines():
                print(line)
            print(f"(the whole run: {time.monotonic() - begun:.1f} s)")
    finally:
        for thing in reversed(started):
            thing.end()
        server.stop()
    bad = out.lost or out.duplicated or out.finished != out.games or out.not_resumed()
    return 1 if bad else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=20, help="rooms with people (sqlite: games)")
    p.add_argument("--bots", type=int, default=10, help="games of bots alone (postgresql)")
    p.add_argument("--proxy", choices=("haproxy", "nginx", "none"), default="haproxy")
    p.add_argument("--db", choices=("postgresql", "sqlite"), default="postgresql")
    p.add_argument("--whole", action="store_true", help="whole games, not games to 7 points")
    p.add_argument("--restart", action="store_true", help="the killed one back, the other killed")
    p.add_argument("--after", type=float, default=3.0, help="sqlite: seconds before the SIGKILL")
    args = p.parse_args()
    if args.rooms < 1 or args.bots < 0:
        p.error("--rooms: at least 1; --bots: at least 0")
    print(f"moonrules table cluster bench: {os.cpu_count()} cores, Python "
          f"{sys.version.split()[0]}, --db {args.db}")  # fmt: skip
    if args.db == "sqlite":
        return on_sqlite(args.rooms, args.after)
    return on_postgres(args)


if __name__ == "__main__":
    sys.exit(main())
