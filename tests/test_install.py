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

The environments see the packages of the one running the tests and install offline
(``installhelpers``). The sequence runs once per test session, shared by the
pytest-xdist workers through a lock: one compile in all; each test below checks one
step of it. The sequence takes over a minute, so it runs with ``MOONRULES_SLOW_BUILDS=1``
(set by ``.ci/run`` in a step of its own), which also adds a second compile: a stale build
installed again with ``MOONRULES_COMPILE=1`` runs compiled again, silently.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from installhelpers import (
    LIBRARY,
    NOTICE_END,
    SLOW,
    SUFFIX,
    copy_checkout,
    make_venv,
    pip_install,
    run_commands,
)


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
    if not SLOW:
        pytest.skip(
            "installs and compiles in fresh environments (about 80 s): "
            "MOONRULES_SLOW_BUILDS=1, as CI's step of its own does"
        )
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
