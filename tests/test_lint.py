"""The type checker and the linter run as part of the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict() -> None:
    result = _run(sys.executable, "-m", "mypy", "--strict", "moonrules")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff() -> None:
    ruff = shutil.which("ruff")
    cmd = (ruff, "check", ".") if ruff else (sys.executable, "-m", "ruff", "check", ".")
    result = _run(*cmd)
    assert result.returncode == 0, result.stdout + result.stderr
