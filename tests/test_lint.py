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


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    ruff = shutil.which("ruff")
    return _run(*((ruff,) if ruff else (sys.executable, "-m", "ruff")), *args)


def test_ruff() -> None:
    result = _ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    """Code, and the Python blocks of the docs, are as ``ruff format`` writes them."""
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
