"""``moonrules solve``: the double-dummy value of each legal play of a record's position."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from gamehelpers import play_until

import moonrules as m
from moonrules.analysis.solver import play_values, solve
from moonrules.cli.main import main
from moonrules.records.record import to_record


def _mid_hand(seed: int, tricks: int) -> m.GameState:
    s = play_until(
        m.new_game(seed=seed),
        random.Random(seed),
        lambda s: s.phase is m.Phase.PLAY and len(s.tricks) >= tricks,
    )
    assert s is not None
    return s


def test_solve_prints_the_value_of_every_legal_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _mid_hand(11, 3)
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(to_record(state)))
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"takes {solve(state)} trick(s)" in out
    values = play_values(state)
    assert set(values) == {a.tile for a in m.legal_actions(state)}  # type: ignore[attr-defined]
    for tile, value in values.items():
        assert f"  {tile}: {value}\n" in out


def test_solve_refuses_a_record_not_in_the_play_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "start.json"
    path.write_text(json.dumps(to_record(m.new_game(seed=2))))
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "while tiles are being played" in err and "bidding phase" in err


def test_solve_refuses_an_unreadable_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"rules": "standard", "hands": [')
    assert main(["solve", str(path)]) == 2
    assert "unreadable record" in capsys.readouterr().err
