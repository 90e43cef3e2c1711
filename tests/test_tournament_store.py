"""Event logs kept in a database (``moonrules.tournament.store``), on SQLite and on a
throwaway PostgreSQL (``tests/postgres_support.py``; those cases skip, with the reason, when
PostgreSQL's programs or psycopg are missing): appends checked by the fold and refused with
nothing written, two writers racing for one number, an acknowledged entry surviving a killed
writer, and the commands ``run --db``, ``export --db`` and ``standings --db`` agreeing with
the log file byte for byte."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from postgres_support import postgres_server_fixture, postgres_url_fixture  # noqa: F401
from tournament_support import SIX_BOTS

from moonrules.cli.main import main
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import dumps_entry, fold, read_log, write_log
from moonrules.tournament.run import run_event
from moonrules.tournament.scoring import standings
from moonrules.tournament.store import (
    EventStore,
    Stored,
    StoreError,
    create_event,
    event_id_of,
    open_store,
)

ROOT = Path(__file__).resolve().parents[1]

EVENT = SIX_BOTS

Log = list[dict[str, Any]]


@pytest.fixture(scope="module")
def log() -> Log:
    """The event played: header, two seatings, eight results."""
    return list(run_event(parse_tournament(EVENT)).entries)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind: a SQLite path, a ``postgresql://`` URL."""
    if request.param == "sqlite":
        return str(tmp_path / "events.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def _log_bytes(entries: Log) -> bytes:
    return "".join(dumps_entry(e) + "\n" for e in entries).encode("utf-8")


def test_an_event_is_created_from_its_file_and_appended_to(db: str, log: Log) -> None:
    with open_store(db) as store:
        made = create_event(store, parse_tournament(EVENT))
        assert (made.event, made.seq) == ("six-bots", 1)
        assert made.state.name == "Six bots"
        assert store.lines("six-bots") == [dumps_entry(log[0])]
        for seq, entry in enumerate(log[1:], 2):
            stored = store.append("six-bots", entry)
            assert stored.seq == seq
            assert stored.state == fold(log[:seq])
        assert store.events() == ["six-bots"]
        assert b"".join(x.encode() for x in store.export("six-bots")) == _log_bytes(log)
        assert store.state("six-bots") == fold(log)
    with open_store(db, create=False) as again:  # another connection, read only
        assert [dumps_entry(e) for e in again.entries("six-bots")] == [dumps_entry(e) for e in log]


def _refusals(log: Log) -> list[tuple[dict[str, Any], str]]:
    twice = log[2]
    other_deal = json.loads(json.dumps(log[2]))
    other_deal["board"] = 2
    broken = json.loads(json.dumps(log[3]))
    broken["record"]["hands"][0]["plays"] = broken["record"]["hands"][0]["plays"][:-3]
    return [
        (twice, "given twice"),
        (other_deal, "its deal is not board 2's"),
        (log[0], "a second event entry"),
        ({"type": "result", "round": 9, "table": 1, "board": 1, "record": {}}, "does not exist"),
        ({"type": "nonsense"}, "type: one of"),
        (broken, "record:"),
    ]


def test_a_refused_entry_leaves_the_log_unchanged(db: str, log: Log) -> None:
    with open_store(db) as store:
        store.create("club", log[:3])
        before = store.lines("club")
        for entry, reason in _refusals(log):
            with pytest.raises(TournamentError) as e:
                store.append("club", entry)
            assert reason in str(e.value) and "\n" not in str(e.value)
            assert str(e.value).startswith("event 'club', entry 4: ")
            assert store.lines("club") == before
        # several at once: all or none
        with pytest.raises(TournamentError, match=r"entry 5: .*given twice"):
            store.extend("club", [log[3], log[3]])
        assert store.lines("club") == before
        assert store.extend("club", log[3:5]).seq == 5


def test_unknown_events_ids_and_a_second_creation_are_refused(db: str, log: Log) -> None:
    with open_store(db) as store:
        with pytest.raises(StoreError, match="holds no event"):
            store.only_event()
        store.create("a", log[:1])
        with pytest.raises(StoreError, match=r"^no event 'b' in .* \(its events: a\)$"):
            store.append("b", log[1])
        with pytest.raises(StoreError, match="no event 'b'"):
            store.lines("b")
        with pytest.raises(TournamentError, match=r"^event 'a' exists already"):
            store.create("a", log[:1])
        with pytest.raises(TournamentError, match="begins with its event entry"):
            store.create("c", log[1:2])
        with pytest.raises(StoreError, match="an event id is 1 to 64"):
            store.create("no spaces", log[:1])
        with pytest.raises(TournamentError, match="entry 3 is taken"):
            store.append("a", log[1], seq=3)  # the writer's view is wrong: nothing written
        assert store.events() == ["a"]
        assert len(store.lines("a")) == 1
        store.create("b", log[:1])
        with pytest.raises(StoreError, match=r"holds 2 events: give --event \(one of a, b\)"):
            store.only_event()
    assert event_id_of("Bots' night") == "bots-night"
    assert event_id_of("!!!") == "event"


def _race(db: str, event: str, entry: dict[str, Any], seq: int | None) -> list[object]:
    """Two writers, each with its own connection, append ``entry`` at once."""
    stores = [open_store(db), open_store(db)]
    start = threading.Barrier(2)
    out: list[object] = []

    def write(store: EventStore) -> None:
        start.wait()
        try:
            out.append(store.append(event, entry, seq=seq))
        except TournamentError as e:
            out.append(e)

    threads = [threading.Thread(target=write, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for s in stores:
        s.close()
    return out


def test_two_writers_racing_for_one_number_one_wins(db: str, log: Log) -> None:
    with open_store(db) as store:
        store.create("race", log[:2])
    for seq in range(3, len(log) + 1):
        entry = log[seq - 1]
        # the same number asked for (each read the log up to seq - 1), or simply the next
        out = _race(db, "race", entry, seq if seq % 2 else None)
        won = [o for o in out if isinstance(o, Stored)]
        lost = [o for o in out if isinstance(o, TournamentError)]
        assert len(won) == 1 and len(lost) == 1, out
        assert won[0].seq == seq
        reason = str(lost[0])
        assert "\n" not in reason
        # lost the race for the number, or came second and the fold saw the result given twice
        assert f"entry {seq} is taken" in reason or "given twice" in reason, reason
    with open_store(db, create=False) as store:
        assert store.lines("race") == [dumps_entry(e) for e in log]


_WRITER = """
import sys
from moonrules.tournament.store import open_store
from moonrules.tournament.log import read_log, LINE_KEY

db, source = sys.argv[1], sys.argv[2]
entries = [{k: v for k, v in e.items() if k != LINE_KEY} for e in read_log(source)]
store = open_store(db)
k = 0
while True:  # until killed: event after event, entry by entry
    event = f"e{k}"
    store.create(event, entries[:1])
    print(event, 1, flush=True)
    for seq, entry in enumerate(entries[1:], 2):
        store.append(event, entry)
        print(event, seq, flush=True)  # acknowledged: committed
    k += 1
"""


def test_an_acknowledged_entry_survives_a_killed_writer(db: str, log: Log, tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    write_log(source, log)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, db, str(source)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    acknowledged: dict[str, int] = {}
    try:
        assert proc.stdout is not None
        while len(acknowledged) < 3 or sum(acknowledged.values()) < 2 * len(log) + 5:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "the writer ended"
            event, seq = line.split()
            acknowledged[event] = int(seq)
    finally:
        proc.send_signal(signal.SIGKILL)  # in the middle of a write, most likely
        proc.wait(30)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    expected = [dumps_entry(e) for e in log]
    with open_store(db) as store:
        stored = store.events()
        for event, seq in acknowledged.items():
            assert event in stored
            lines = store.lines(event)
            assert len(lines) >= seq, (event, seq, len(lines))
        for event in stored:  # whatever was committed is whole: a prefix of the log
            lines = store.lines(event)
            assert lines == expected[: len(lines)]
            fold(store.entries(event))
        # and the store takes writes again after the crash
        last = max(stored, key=lambda e: int(e[1:]))
        more = store.lines(last)
        if len(more) < len(log):
            assert store.append(last, log[len(more)]).seq == len(more) + 1


# ---------------------------------------------------------------------------
# The commands


@pytest.fixture
def event_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.toml"
    path.write_text(EVENT, encoding="utf-8")
    return path


def test_run_db_export_is_the_log_file_byte_for_byte(
    db: str, event_file: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "event.jsonl"
    assert main(["tournament", "run", str(event_file), "--log", str(out)]) == 0
    assert main(["tournament", "run", str(event_file), "--db", db]) == 0
    said = capsysbinary.readouterr().out.decode()
    assert "the log is event 'six-bots' in " in said
    assert main(["tournament", "export", "--db", db]) == 0
    exported = capsysbinary.readouterr().out
    assert exported == out.read_bytes()
    assert main(["tournament", "export", "--db", db, "--event", "six-bots"]) == 0
    assert capsysbinary.readouterr().out == exported
    # a second event in the same database, under its own id
    assert main(["tournament", "run", str(event_file), "--db", db, "--event", "again"]) == 0
    capsysbinary.readouterr()
    assert main(["tournament", "export", "--db", db, "--event", "again"]) == 0
    assert capsysbinary.readouterr().out == exported


@pytest.mark.parametrize("form", [[], ["--json"], ["--csv"]])
def test_standings_db_equal_standings_log_of_the_export(
    db: str,
    form: list[str],
    event_file: Path,
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["tournament", "run", str(event_file), "--db", db]) == 0
    capsysbinary.readouterr()
    assert main(["tournament", "export", "--db", db]) == 0
    exported = tmp_path / "exported.jsonl"
    exported.write_bytes(capsysbinary.readouterr().out)
    assert main(["tournament", "standings", "--db", db, *form]) == 0
    from_db = capsysbinary.readouterr().out
    assert main(["tournament", "standings", "--log", str(exported), *form]) == 0
    assert capsysbinary.readouterr().out == from_db
    assert standings(fold(read_log(exported))).rows[0].entry.encode() in from_db


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens on it now


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    try:
        status = main(args)
    except SystemExit as e:  # a usage error, said by argparse
        status = e.code if isinstance(e.code, int) else 1
    assert status == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert captured.out == ""
    return err


def test_bad_databases_and_events_are_refused_in_one_line(
    tmp_path: Path, event_file: Path, log: Log, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.sqlite3"
    with open_store(good) as store:
        store.create("one", log)
        store.create("two", log[:3])
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, not at all\n" * 100)
    missing = tmp_path / "missing.sqlite3"
    nowhere = f"postgresql://moon@127.0.0.1:{_closed_port()}/events"
    cases = [
        (["export", "--db", str(good), "--event", "three"], "no event 'three' in "),
        (["export", "--db", str(good)], "holds 2 events: give --event (one of one, two)"),
        (["standings", "--db", str(good), "--event", "nope"], "no event 'nope'"),
        (["export", "--db", str(good), "--event", "../x"], "an event id is 1 to 64"),
        (["export", "--db", str(garbage)], "not a database of event logs"),
        (["standings", "--db", str(garbage)], "not a database of event logs"),
        (["run", str(event_file), "--db", str(garbage)], "not a database of event logs"),
        (["export", "--db", str(missing)], "no such database"),
        (["export", "--db", str(tmp_path)], "it is a directory"),
        (["run", str(event_file), "--db", str(good), "--event", "one"], "exists already"),
        (["standings", "--log", str(tmp_path / "x.jsonl"), "--event", "one"], "goes with --db"),
        (["run", str(event_file), "--log", str(tmp_path / "x.jsonl"), "--db", str(good)], "not"),
    ]
    if _has_psycopg():
        cases += [
            (["export", "--db", nowhere], "cannot connect"),
            (["standings", "--db", nowhere, "--csv"], "cannot connect"),
            (["run", str(event_file), "--db", nowhere], "cannot connect"),
            (["export", "--db", "postgresql://moon@127.0.0.1:notaport/x"], "cannot connect"),
        ]
    for args, reason in cases:
        err = _refused(["tournament", *args], capsys)
        assert reason in err, (args, err)
        assert err.startswith(f"moonrules tournament {args[0]}: error: ")
    assert not missing.exists()  # reading never makes a database
    with open_store(good, create=False) as store:  # and nothing was written
        assert store.events() == ["one", "two"]
        assert len(store.lines("two")) == 3


def _has_psycopg() -> bool:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True


def test_an_empty_postgresql_database_holds_no_event(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refused(["tournament", "export", "--db", postgres_url], capsys)
    assert "holds no event" in err and "@" not in err  # the URL is shown without its user
    with open_store(postgres_url, create=False) as store:
        assert store.events() == []


def test_an_events_rooms_kept_beside_its_log(db: str, log: Log) -> None:
    with open_store(db) as store:
        assert store.rooms("six-bots") == {}  # (no room table yet: none)
        store.create("six-bots", log[:2])  # the header and round 1's seating
        with pytest.raises(TournamentError, match="is not seated"):
            store.add_room("six-bots", 2, 1, 1, "r1")
        store.add_room("six-bots", 1, 1, 1, "r1")
        store.add_room("six-bots", 1, 2, 1, "r2")
        with pytest.raises(TournamentError, match="has a room already"):
            store.add_room("six-bots", 1, 1, 1, "r3")
        assert store.rooms("six-bots") == {(1, 1, 1): "r1", (1, 2, 1): "r2"}
        assert store.lines("six-bots") == [dumps_entry(e) for e in log[:2]]  # the log as it was
