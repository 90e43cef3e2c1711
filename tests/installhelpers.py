"""Helpers of the install and packaging tests (imported as ``installhelpers``; ``tests/``
is on the path): copies of the checkout, virtual environments, offline installs.

A virtual environment made here sees the packages of the one running the tests through a
``.pth`` file naming its site-packages: ``--system-site-packages`` would give the base
interpreter's instead, and would run the ``.pth`` hooks of the editable installs there.
pip then installs with ``--no-build-isolation --no-deps --no-index``: offline and quick.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SLOW = os.environ.get("MOONRULES_SLOW_BUILDS", "") not in ("", "0")
EXAMPLE = "examples/clean-game.json"
PROBE = "import moonrules.analysis.solver as s; print(s.COMPILED, s.__file__)"
"""Imports the solver: prints whether its search runs compiled, and where the solver is."""
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
LIBRARY = "moonrules/kernel/native__mypyc" + SUFFIX
NOTICE_END = (
    ": the compiled modules run from source "
    "(install again with MOONRULES_COMPILE=1 to compile them again)"
)
UNSET = ("PYTHONPATH", "MOONRULES_COMPILE", "MOONRULES_PURE_PYTHON", "MOONRULES_SOURCE_NOTICE")
"""Variables of the test run kept from the installs and the commands."""
TIMEOUT = 600
PIP_OFFLINE = (
    "--disable-pip-version-check",
    "-q",
    "--no-index",
    "--no-build-isolation",
    "--no-deps",
)
"""pip installs only what it is given, with the build tools already here."""


def environment(**extra: str) -> dict[str, str]:
    """This process's environment without :data:`UNSET` and pip's settings, with ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET and not k.startswith("PIP_")}
    env.update(extra)
    return env


def tracked_files() -> list[str] | None:
    """The checkout's tracked files, or ``None`` outside a git checkout."""
    if shutil.which("git") is None:
        return None
    result = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if result.returncode != 0:
        return None
    return [name for name in result.stdout.decode().split("\0") if name]


def copy_checkout(target: Path) -> Path:
    """A copy of the checkout's tracked files (as a fresh clone has them) at ``target``."""
    files = tracked_files()
    if files is None:
        pytest.skip("not a git checkout: its tracked files are unknown")
    for name in files:
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def make_venv(path: Path) -> Path:
    """A virtual environment at ``path`` that sees this one's packages; its ``python``."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(path)],
        check=True,
        timeout=TIMEOUT,
        capture_output=True,
    )
    python = path / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    lines = [d for d in ours if Path(d).is_dir()]
    Path(purelib, "outer-environment.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return python


def pip_install(python: Path, checkout: Path, *, compiled: bool) -> None:
    """An editable install of ``checkout`` into ``python``'s environment."""
    env = environment(MOONRULES_COMPILE="1") if compiled else environment()
    result = subprocess.run(
        [str(python), "-m", "pip", "install", *PIP_OFFLINE, "-e", str(checkout)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
        cwd=checkout,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def run_commands(python: Path, checkout: Path, cwd: Path) -> dict[str, Any]:
    """``moonrules check`` on an example and the solver's import, as the environment's user."""
    check = subprocess.run(
        [str(python.parent / "moonrules"), "check", str(checkout / EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
        cwd=cwd,
        check=False,
    )
    probe = subprocess.run(
        [str(python), "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
        cwd=cwd,
        check=False,
    )
    return {
        "check": [check.returncode, check.stderr, "Verdict: valid" in check.stdout],
        "probe": [probe.returncode, probe.stderr, probe.stdout.split()],
    }
