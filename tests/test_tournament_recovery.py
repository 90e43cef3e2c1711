"""A table server killed mid-round loses no game, and a resumed run finds the rooms it opened.

Real processes: the table (``moonrules table``) and the director's run (``moonrules
tournament run FILE --db DB --table URL``) on one SQLite database. The people (scripted
WebSocket clients) make a move each in board 1's room and leave; the bots' table is played
and kept. Then the table is killed (SIGKILL: nothing finished, nothing flushed but what was
committed) while the room's game is under way; the run waits for it and says so. The table
is started again on the same database and port; the run sees it answer. Then the run is
killed too, and started again with ``--resume``: it opens no room for board 1, prints the
seats' links kept with the room (the same links), the people play on, board 2 is opened after
it, and the run ends. Every game is in the log: board 1's game goes on from the moves made
before the kill, and every record passes ``moonrules check``.
"""

from __future__ import annotations

import contextlib
import io
import json
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest
from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: F401
from table_support import ROOT, Player, Server, stored_actions

from moonrules.cli.main import main as moonrules_main
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.run import run_event
from moonrules.tournament.store import create_event, open_store

pytest.importorskip("starlette")
pytest.importorskip("websockets")

FILE = """\
name = "Night owls"
format = "three-seat"
rules = "standard"
seed = 31
rounds = 1
boards_per_round = 2
players = ["Ann", "Bob", {name = "R1", bot = "random"}, {name = "B1", bot = "random"},
           {name = "B2", bot = "random"}, {name = "B3", bot = "basic"}]

[[movement]]
tables = [["Ann", "Bob", "R1"], ["B1", "B2", "B3"]]
"""


class Run:
    """The director's command in a subprocess, its output read line by line as it comes."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moonrules", "tournament", "run", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
        )
        self.lines: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, out: IO[str]) -> None:
        for line in out:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def until(self, wanted: str, timeout: float = 60) -> str:
        """The next line holding ``wanted`` (the lines before it kept in ``lines``)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {wanted!r} in:\n" + "\n".join(self.lines)) from None
            if line is None:
                raise AssertionError(f"ended without {wanted!r}:\n" + "\n".join(self.lines))
            self.lines.append(line)
            if wanted in line:
                return line

    def links(self, board: int) -> dict[str, str]:
        """The people's links printed for ``board`` (after its ``board N`` line)."""
        self.until(f"board {board}: ")
        return dict(self.until(f"  {name}: ").strip().split(": ", 1) for name in ("Ann", "Bob"))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)


class _Bids(random.Random):
    """A person's choices that never pass while a bid is legal."""

    def choice(self, seq: Any) -> Any:
        bids = [x for x in seq if x != "pass"]
        return bids[0] if bids else seq[0]


def play(
    server: Server, link: str, seed: int, stop_after: int | None = None, *, bid: bool = False
) -> Player:
    room, token = link.rsplit("/", 1)[1].split("#token=")
    p = Player(server, room, token, seed, mischief=0.0, pass_rate=0.0 if bid else 0.5,
               stop_after=stop_after)  # fmt: skip
    if bid:
        p.rng = _Bids(seed)
    p.start()
    return p


def room_of(link: str) -> str:
    return link.rsplit("/", 1)[1].split("#")[0]


def test_a_table_killed_mid_round_loses_no_game_and_the_run_resumes(tmp_path: Path) -> None:
    f = tmp_path / "owls.toml"
    f.write_text(FILE)
    db = tmp_path / "owls.sqlite3"
    table = Server(db).start()
    port = table.url.rsplit(":", 1)[1]
    runs: list[Run] = []
    again: Server | None = None
    try:
        first = Run(str(f), "--db", str(db), "--table", table.url)
        runs.append(first)
        links = first.links(1)
        room = room_of(links["Ann"])
        # each person bids (never a pass: a board all pass is over at once) and leaves when
        # next to act: the game waits for them
        people = [
            play(table, links[n], k, stop_after=1, bid=True) for k, n in enumerate(("Ann", "Bob"))
        ]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open_store(db) as store:
                kept = len(store.state("night-owls").results)
            if kept == 2 and all(p.acted for p in people):
                break
            time.sleep(0.05)
        assert all(p.error is None for p in people)
        assert kept == 2, "the bots' table was not kept"  # its two boards, in the log
        before = stored_actions(db, room)
        assert before, "nobody moved in board 1's room"

        table.kill()  # mid-round: board 1's game under way, board 2 not opened
        first.until("cannot be reached")
        again = Server(db, "--port", port).start()
        assert again.url == table.url
        first.until("answers again")
        first.kill()  # the director's command is lost too

        second = Run(str(f), "--db", str(db), "--table", again.url, "--resume")
        runs.append(second)
        assert second.links(1) == links  # the links kept with the room, not a new room's
        assert "board 1: being played (the links given before)" in second.lines[-3]
        players = [play(again, links[n], 10 + k) for k, n in enumerate(("Ann", "Bob"))]
        moved = second.links(2)
        assert set(map(room_of, moved.values())) != {room}
        players += [play(again, moved[n], 20 + k) for k, n in enumerate(("Ann", "Bob"))]
        assert second.proc.wait(60) == 0, "\n".join(second.lines)
        for p in players:
            p.join(60)
            assert p.error is None, p.error
    finally:
        for r in runs:
            r.kill()
        if again is not None:
            again.stop()
        table.stop()
    assert "Traceback" not in again.log() + "\n".join(x for run in runs for x in run.lines)
    with open_store(db) as store:
        state = store.state("night-owls")
        rooms = store.rooms("night-owls")
    assert rooms[1, 1, 1] == room  # board 1 was played on in its room, never opened again
    assert sorted((r.table, r.board) for r in state.results) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert stored_actions(db, room)[: len(before)] == before  # the moves before the kill
    for res in state.results:  # each record passes moonrules check (the command, in-process)
        path = tmp_path / f"t{res.table}b{res.board}.json"
        path.write_text(json.dumps(dict(res.record)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = moonrules_main(["check", str(path)])
        assert status == 0, out.getvalue()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind: a SQLite path, a ``postgresql://`` URL."""
    if request.param == "sqlite":
        return str(tmp_path / "events.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_a_rooms_seat_links_are_kept_with_it(database: str) -> None:
    """The links a run printed for a room, kept with it in one write (both kinds of
    database); a second room for the same board refused, its links not kept."""
    t = parse_tournament(FILE)
    with open_store(database) as store:
        create_event(store, t, "owls")
        store.append("owls", run_event(t).entries[1])  # round 1's seating
        assert store.room_links("owls") == {}
        store.add_room("owls", 1, 1, 1, "r1", ["http://t/rooms/r1#token=a", "b", None])
        with pytest.raises(TournamentError, match="has a room already"):
            store.add_room("owls", 1, 1, 1, "r2", ["c", "d", None])
        store.add_room("owls", 1, 1, 2, "r3")  # without links
        assert store.room_links("owls") == {"r1": ("http://t/rooms/r1#token=a", "b", None)}
        assert store.rooms("owls") == {(1, 1, 1): "r1", (1, 1, 2): "r3"}
