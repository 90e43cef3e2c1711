"""``moonrules play``: a human seat on stdin, bots, watching, saving, and bad input."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import moonrules as m
from moonrules.bots import BasicBot
from moonrules.cli import play
from moonrules.cli.main import main
from moonrules.cli.play import Screen, Session, parse_choice, save
from moonrules.game import Bid, Discard, NameTrump, Pass, Phase, Play
from moonrules.records.record import from_record, replay

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _play(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moonrules", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def _valid_record(path: Path) -> m.GameState:
    record = json.loads(path.read_text())
    result = replay(record)
    assert result.violation is None
    return from_record(record)


def test_watching_bots_prints_a_line_a_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    assert main(["play", "--seed", "3", "--bots", "basic,random,basic", "--save", str(saved)]) == 0
    lines = capsys.readouterr().out.splitlines()
    state = _valid_record(saved)
    assert state.is_over
    hand_lines = [x for x in lines if x.startswith("Hand ")]
    assert len(hand_lines) == state.hand_number
    assert lines[-1].startswith("Game over") and str(list(state.scores)) in lines[-1]
    assert len(lines) == state.hand_number + 2  # concise: a header, a line a hand, the end


def test_a_game_played_through_stdin_to_the_end(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    # "pass" answers a call, "1" the first tile (and names trump 1 if ever asked)
    r = _play("--seed", "4", "--save", str(saved), stdin="pass\n1\n" * 2000)
    assert r.returncode == 0, r.stderr
    assert "Game over" in r.stdout and "Your call" in r.stdout and "legal: 1)" in r.stdout
    assert "not a tile: 'pass'" in r.stdout  # a call where a tile is wanted is only refused
    assert _valid_record(saved).is_over
    check = subprocess.run(
        [sys.executable, "-m", "moonrules", "check", str(saved)],
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert check.returncode == 0 and "valid" in check.stdout


def test_an_illegal_choice_is_refused_with_its_clause_and_the_game_goes_on() -> None:
    out = io.StringIO()
    refused: list[str] = []
    session: Session

    def read(prompt: str) -> str | None:
        s = session.state
        if s.phase is Phase.BIDDING:
            return "pass"
        if s.phase is Phase.PLAY and not refused:
            legal = {a.tile for a in m.legal_actions(s) if isinstance(a, Play)}
            wrong = [t for t in s.hands[0] if t not in legal]
            if wrong:
                refused.append(str(wrong[0]))
                return str(wrong[0])
        if refused and s.phase is Phase.PLAY and s.to_act == 0 and len(refused) == 1:
            refused.append("then legal")
            return "1"
        if len(refused) == 2 and s.hand.number > 1:
            return "quit"
        return "1"

    state = m.new_game("standard", 8)
    bots = {1: BasicBot(), 2: BasicBot()}
    session = Session(state, bots, 0, Screen(out), read, None, 1)
    session.run()
    text = out.getvalue()
    assert refused, "no illegal tile came up"
    assert "refused — FOLLOW-" in text or "refused — LEAD-" in text
    after = text.split("refused —", 1)[1]
    assert "legal: 1)" in after and "Stopped." in text


@pytest.mark.parametrize(
    ("text", "phase", "action"),
    [
        ("6-4", Phase.PLAY, Play(m.tile("6-4"))),
        ("4-6", Phase.PLAY, Play(m.tile("6-4"))),
        ("play 6-4", Phase.PLAY, Play(m.tile("6-4"))),
        ("5-5", Phase.DISCARD, Discard(m.tile("5-5"))),
        ("pass", Phase.BIDDING, Pass()),
        ("bid 5", Phase.BIDDING, Bid(5)),
        ("6", Phase.BIDDING, Bid(6)),
        ("moon", Phase.BIDDING, Bid(21)),
        ("doubles", Phase.TRUMP, NameTrump(m.Trump.DOUBLES)),
        ("trump 6", Phase.TRUMP, NameTrump(m.Trump.SIX)),
    ],
)
def test_parse_choice(text: str, phase: Phase, action: m.Action) -> None:
    assert parse_choice(text, (), phase) == action


def test_parse_choice_by_number_and_nonsense() -> None:
    legal = (Play(m.tile("6-4")), Play(m.tile("5-5")))
    assert parse_choice("2", legal, Phase.PLAY) == legal[1]
    assert isinstance(parse_choice("3", legal, Phase.PLAY), str)
    assert parse_choice("1", legal, Phase.BIDDING) == Bid(1)  # a number in the auction is a bid
    assert parse_choice("2", legal, Phase.TRUMP) == NameTrump(m.Trump.TWO)
    assert isinstance(parse_choice("banana", legal, Phase.PLAY), str)
    assert isinstance(parse_choice("7-7", legal, Phase.PLAY), str)
    assert isinstance(parse_choice("sevens", (), Phase.TRUMP), str)


def test_input_ending_mid_game_is_one_line_exit_2_and_the_game_is_kept(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    r = _play("--seed", "4", "--save", str(saved), stdin="pass\n")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("moonrules: error: the input ended")
    state = _valid_record(saved)
    assert not state.is_over and len(state.hand.calls) >= 1


def test_ctrl_c_saves_without_a_traceback(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    p = subprocess.Popen(
        [sys.executable, "-m", "moonrules", "play", "--seed", "4", "--save", str(saved)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert p.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    os.set_blocking(p.stdout.fileno(), False)
    while b"or save / quit)" not in seen and time.monotonic() < deadline:
        chunk = p.stdout.read()
        seen += chunk or b""
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert b"Traceback" not in err and b"interrupted" in err and str(saved).encode() in err
    assert not _valid_record(saved).is_over


def test_save_replaces_the_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    s = m.new_game("standard", 1)
    save(s, str(path))
    before = path.read_text()
    s2 = m.apply(s, m.legal_actions(s)[0])

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(play.os, "fsync", broken)
    with pytest.raises(play.SaveError, match=f"cannot save to '{path}': No space left"):
        save(s2, str(path))
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "3"], "there is no seat 3"),
        (["--rules", "partnership", "--seat", "-1"], "there is no seat -1"),
        (["--bots", "clever"], "no bot is called 'clever'"),
        (["--bots", "basic,basic,basic,basic"], "--bots names 4 bots"),
        (["--rules", "chess"], "no rule set is called 'chess'"),
        (["--save", "/nonexistent/dir/g.json"], "cannot save to"),
    ],
)
def test_play_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("moonrules: error: ") and message in err


def test_bots_in_play_use_their_own_seeded_generators() -> None:
    out1, out2 = io.StringIO(), io.StringIO()
    for out in (out1, out2):
        Session(
            m.new_game("standard", 9),
            {s: BasicBot() for s in range(3)},
            None,
            Screen(out),
            lambda _p: None,
            None,
            2,
        ).run()
    assert out1.getvalue() == out2.getvalue() and "Game over" in out1.getvalue()
