"""The example event's shipped log is what ``moonrules tournament run`` writes for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_example_log_is_the_runs_own(tmp_path: Path) -> None:
    out = tmp_path / "event.jsonl"
    event = str(ROOT / "examples" / "tournament-bots.toml")
    done = subprocess.run(
        [sys.executable, "-m", "moonrules", "tournament", "run", event, "--log", str(out)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shipped = ROOT / "examples" / "tournament-bots.jsonl"
    assert out.read_bytes() == shipped.read_bytes(), (
        "examples/tournament-bots.jsonl is not the example's log: make it again with moonrules "
        "tournament run examples/tournament-bots.toml --log examples/tournament-bots.jsonl"
    )
