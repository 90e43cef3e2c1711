"""Installs of one checkout, plain and compiled, in either order and in several environments.

A copy of the checkout's tracked files is installed editable, as the README and
CONTRIBUTING.md do, into virtual environments of its own: plain in ``first``, then
compiled (``MOONRULES_COMPILE=1``) in ``compiling``, then plain in ``second`` while
``compiling`` stays compiled, then plain again in ``compiling``. After each install,
each environment runs a command (``moonrules check`` on an example record, from a
directory outside the checkout, as a user would) and imports the solver: both must work
and print nothing on stderr, or the one line that says why the compiled modules run from
source. A stale build (a source touched after the compile) and a build whose shared
library is gone (as a checkout compiled by an older layout looks to other installs) must
each say so in exactly one line.

The environments see the packages of the one running the tests (a ``.pth`` file naming
its site-packages; ``--system-site-packages`` would give the base interpreter's, and run
the ``.pth`` hooks of its editable installs), and install with ``--no-build-isolation
--no-deps --no-index``: offline and quick. The sequence runs once per test session,
shared by the pytest-xdist workers through a lock: one compile in all; each test below
checks one step of it. ``MOONRULES_SLOW_BUILDS=1`` (set by ``.ci/run`` in a step of its
own) adds a second compile: a stale build installed again with ``MOONRULES_COMPILE=1``
runs compiled again, silently.
"""

from __future__ import annotations

import fcntl
import importlib.machinery
import json
import os
import shutil
import site
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
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


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in UNSET and not k.startswith("PIP_")}
    env.update(extra)
    return env


def _tracked_files() -> list[str] | None:
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
    files = _tracked_files()
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
    env = _env(MOONRULES_COMPILE="1") if compiled else _env()
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
        env=_env(),
        cwd=cwd,
        check=False,
    )
    probe = subprocess.run(
        [str(python), "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_env(),
        cwd=cwd,
        check=False,
    )
    return {
        "check": [check.returncode, check.stderr, "Verdict: valid" in check.stdout],
        "probe": [probe.returncode, probe.stderr, probe.stdout.split()],
    }


def scenario(base: Path) -> dict[str, Any]:
    """Every install and command of this module, in order; what each command did."""
    checkout = copy_checkout(base / "checkout")
    outside = base / "elsewhere"
    outside.mkdir()
    first, compiling, second = (make_venv(base / name) for name in ("first", "k", "second"))
    runs: dict[str, Any] = {"checkout": str(checkout)}
    timings: dict[str, float] = {}

    def step(name: str, action: Callable[[], None], python: Path) -> None:
        start = time.monotonic()
        action()
        timings[name] = round(time.monotonic() - start, 1)
        runs[name] = run_commands(python, checkout, outside)

    step("plain", lambda: pip_install(first, checkout, compiled=False), first)
    step("then compiled", lambda: pip_install(compiling, checkout, compiled=True), compiling)
    runs["compiled"] = any((checkout / "moonrules").rglob("*" + SUFFIX))
    step("plain after compiled", lambda: None, first)
    step("second venv", lambda: pip_install(second, checkout, compiled=False), second)
    step("first venv still compiled", lambda: None, compiling)
    step("plain again", lambda: pip_install(compiling, checkout, compiled=False), compiling)

    source = checkout / "moonrules" / "rules" / "suits.py"
    before = source.stat()
    os.utime(source)
    step("stale", lambda: None, compiling)
    step("stale, second venv", lambda: None, second)
    if SLOW:
        step("compiled again", lambda: pip_install(compiling, checkout, compiled=True), compiling)
    else:
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))

    library = checkout / LIBRARY
    if library.exists():
        aside = library.rename(base / library.name)
        step("no shared library", lambda: None, second)
        aside.rename(library)
    runs["seconds"] = timings
    return runs


@pytest.fixture(scope="session")
def installs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The outcome of :func:`scenario`, run by the first worker that asks for it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by the workers of this session
    shared = base / "install-orders"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = shared / "results.json"
        if not results.exists():
            try:
                outcome = scenario(shared)
            except pytest.skip.Exception as skipped:
                outcome = {"skip": str(skipped)}
            except Exception as error:
                outcome = {"error": f"{type(error).__name__}: {error}"}
            results.write_text(json.dumps(outcome), encoding="utf-8")
        outcome = json.loads(results.read_text(encoding="utf-8"))
    if "skip" in outcome:
        pytest.skip(outcome["skip"])
    assert "error" not in outcome, outcome["error"]
    yield outcome


def _runs(installs: dict[str, Any], name: str, *, compiled: bool, notice: str | None) -> None:
    """The commands of step ``name`` worked, the solver ran compiled or not, from the copy,
    and stderr held nothing, or exactly the one line that ends as :data:`NOTICE_END` and
    starts with ``notice``."""
    if compiled and not installs["compiled"]:
        pytest.skip("the compiled install built nothing here (no C compiler?)")
    outcome = installs[name]
    expected = [] if notice is None else [f"moonrules: {notice}{NOTICE_END}"]
    check_rc, check_err, valid = outcome["check"]
    assert (check_rc, check_err.splitlines(), valid) == (0, expected, True), outcome
    probe_rc, probe_err, probe_out = outcome["probe"]
    assert (probe_rc, probe_err.splitlines()) == (0, expected), outcome
    form, file = probe_out
    assert form == str(compiled), probe_out
    assert Path(file).is_relative_to(installs["checkout"]), file


def test_a_plain_install_runs_the_source(installs: dict[str, Any]) -> None:
    _runs(installs, "plain", compiled=False, notice=None)


def test_plain_then_compiled_the_compiling_install_runs_compiled(installs: dict[str, Any]) -> None:
    _runs(installs, "then compiled", compiled=True, notice=None)


def test_plain_then_compiled_the_plain_install_finds_the_build(installs: dict[str, Any]) -> None:
    """The issue's failure: the shared library was where only the compiling install looked."""
    _runs(installs, "plain after compiled", compiled=True, notice=None)


def test_compiled_then_plain_in_a_second_venv(installs: dict[str, Any]) -> None:
    _runs(installs, "second venv", compiled=True, notice=None)


def test_compiled_then_plain_elsewhere_the_first_venv_stays_compiled(
    installs: dict[str, Any],
) -> None:
    _runs(installs, "first venv still compiled", compiled=True, notice=None)


def test_compiled_then_plain_in_the_same_venv(installs: dict[str, Any]) -> None:
    _runs(installs, "plain again", compiled=True, notice=None)


@pytest.mark.parametrize("name", ["stale", "stale, second venv"])
def test_a_stale_build_says_so_in_one_line(installs: dict[str, Any], name: str) -> None:
    _runs(
        installs,
        name,
        compiled=False,
        notice="moonrules/rules/suits.py is newer than the compiled modules",
    )


def test_a_build_without_its_shared_library_runs_the_source(installs: dict[str, Any]) -> None:
    """What an older build (its library at the checkout's root) looks like to another install."""
    if "no shared library" not in installs:
        pytest.skip("the compiled install built nothing here (no C compiler?)")
    _runs(installs, "no shared library", compiled=False, notice=f"{LIBRARY} is missing")


@pytest.mark.skipif(not SLOW, reason="compiles a second time: set MOONRULES_SLOW_BUILDS=1")
def test_a_stale_build_compiled_again_runs_compiled(installs: dict[str, Any]) -> None:
    _runs(installs, "compiled again", compiled=True, notice=None)
