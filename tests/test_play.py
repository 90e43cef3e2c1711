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
from hypothesis import given
from hypothesis import strategies as st

import moonrules as m
from moonrules.bots import BasicBot
from moonrules.cli import play
from moonrules.cli.main import main
from moonrules.cli.play import Screen, Session, parse_choice, save
from moonrules.game import Bid, Discard, NameTrump, Pass, Phase, Play
from moonrules.records import files
from moonrules.records.replay import from_record, replay

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
    calls = (Pass(), Bid(6), Bid(7), Bid(21))
    assert parse_choice("1", calls, Phase.BIDDING) == Pass()  # 1 and 2: places in the list
    assert parse_choice("2", calls, Phase.BIDDING) == Bid(6)
    assert parse_choice("3", calls, Phase.BIDDING) == Bid(3)  # 3 or more: the bid itself
    assert parse_choice("4", calls, Phase.BIDDING) == Bid(4)
    assert parse_choice(" 1 ", (Bid(4), Bid(5)), Phase.BIDDING) == Bid(4)  # forced: no pass
    assert (
        parse_choice("2", (Bid(21),), Phase.BIDDING)
        == "there is no call number 2 (1 is the only one)"
    )
    assert parse_choice("2", legal, Phase.TRUMP) == NameTrump(m.Trump.TWO)
    assert isinstance(parse_choice("banana", legal, Phase.PLAY), str)
    assert isinstance(parse_choice("7-7", legal, Phase.PLAY), str)
    assert isinstance(parse_choice("sevens", (), Phase.TRUMP), str)


def test_input_ending_mid_game_is_one_line_exit_2_and_the_game_is_kept(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    r = _play("--seed", "4", "--save", str(saved), stdin="pass\n")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(
        "moonrules play: error: the input ended"
    )
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

    monkeypatch.setattr(files.os, "fsync", broken)
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
    assert err.count("\n") == 1 and err.startswith("moonrules play: error: ") and message in err


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


def test_the_bots_guide_piped_example_takes_the_first_action_listed() -> None:
    """``yes 1 | moonrules play --seed 4`` (docs/guides/bots.md): 1 is the first action listed
    in every phase: a pass in the auction, the first tile when playing."""
    r = _play("--seed", "4", stdin="1\n" * 5000)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "Game over" in r.stdout and "refused" not in r.stdout and "not a " not in r.stdout
    assert "you pass" not in r.stdout  # a human's call is not told back; the bots' are
    assert "(or 1 for pass, 2 for " in r.stdout


@pytest.mark.parametrize("answer", ["banana", "7-7", "", "help", "save", "0"])
def test_answers_that_take_no_action_from_a_pipe_stop_the_game(answer: str, tmp_path: Path) -> None:
    """Off a terminal, MAX_RETRIES answers in a row that do nothing end the game: exit 2, one
    line on stderr, the game kept; never an endless loop of refusals."""
    saved = tmp_path / "g.json"
    r = _play("--seed", "4", "--save", str(saved), stdin=f"{answer}\n" * 100_000, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(
        f"moonrules play: error: {play.MAX_RETRIES} answers in a row took no action"
    )
    assert str(saved) in r.stderr and not _valid_record(saved).is_over
    assert r.stdout.count("Your call") == play.MAX_RETRIES


def test_at_a_terminal_refusals_are_not_counted() -> None:
    """A person may get it wrong any number of times: no limit without ``retries``."""
    answers = iter(["banana"] * 50 + ["quit"])
    out = io.StringIO()
    session = Session(
        m.new_game("standard", 4),
        {1: BasicBot(), 2: BasicBot()},
        0,
        Screen(out),
        lambda _p: next(answers),
        None,
        1,
    )
    session.run()
    assert out.getvalue().count("not a call: 'banana'") == 50 and "Stopped." in out.getvalue()


def test_a_bad_save_path_typed_in_play_keeps_the_game_where_it_was_saved(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    answers = iter([f"save {tmp_path / 'no' / 'x.json'}", f"save {tmp_path}", "pass", "1", "quit"])
    out = io.StringIO()
    session = Session(
        m.new_game("standard", 4),
        {1: BasicBot(), 2: BasicBot()},
        0,
        Screen(out),
        lambda _p: next(answers),
        str(good),
        1,
    )
    session.run()
    text = out.getvalue()
    assert text.count(f"the game is still saved in {good}") == 2
    assert "it is a directory" in text and "No such file or directory" in text
    assert session.save_path == str(good)
    state = _valid_record(good)  # kept up to date after the refused saves
    assert state == session.state and len(state.hand.calls) >= 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json"]


def test_save_file_typed_in_play_moves_the_game_there(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    answers = iter([f"save {second}", "pass", "quit"])
    out = io.StringIO()
    session = Session(
        m.new_game("standard", 4),
        {1: BasicBot(), 2: BasicBot()},
        0,
        Screen(out),
        lambda _p: next(answers),
        str(first),
        1,
    )
    session.run()
    assert _valid_record(second) == session.state
    assert _valid_record(first) != session.state  # the old file keeps what it had
    assert f"The game is saved in {second}" in out.getvalue()


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_saved_game_follows_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        save(m.new_game("standard", 1), str(tmp_path / "g.json"))
    finally:
        os.umask(old)
    assert (tmp_path / "g.json").stat().st_mode & 0o777 == mode


def test_a_save_file_that_cannot_be_written_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old.json").write_text("kept")
    assert main(["play", "--seed", "1", "--save", str(tmp_path)]) == 2
    err = capsys.readouterr()
    assert err.err == f"moonrules play: error: cannot save to '{tmp_path}': it is a directory\n"
    assert err.out == ""  # no game was started
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]


@given(st.text(max_size=30), st.sampled_from(list(Phase)))
def test_parse_choice_answers_any_text_with_an_action_of_the_list_or_a_message(
    text: str, phase: Phase
) -> None:
    legal = (Pass(), Bid(6), Bid(7), Bid(21)) if phase is Phase.BIDDING else (Play(m.tile("6-4")),)
    choice = parse_choice(text, legal, phase)
    assert isinstance(choice, str | m.Action)  # never an exception
    if isinstance(choice, Play | Discard) and text.strip().isdigit():
        assert choice in legal  # a number picks from the list
