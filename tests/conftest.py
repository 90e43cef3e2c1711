"""Shared test configuration: Hypothesis profiles.

Profiles (choose with the environment variable ``MOONRULES_HYPOTHESIS_PROFILE``):

- ``default``: quick, for every test run (a few dozen examples per property);
- ``ci``: the default profile, derandomized so that CI runs are reproducible;
- ``deep``: a thousand examples per property, for a long soak run::

      MOONRULES_HYPOTHESIS_PROFILE=deep python -m pytest tests/test_invariants.py

Under ``pytest -n`` (pytest-xdist) every worker imports this file and loads the same
profile; ``tests/test_invariants.py`` checks it.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so that plain `pytest` finds the package without installing it
    sys.path.insert(0, str(ROOT))

# Bytecode caches. Under PYTHONDONTWRITEBYTECODE (set in many container images) every
# worker of ``pytest -n`` and every command the tests start (``python -m moonrules``, a
# target engine, the table server) compiles the package and rewrites the tests afresh:
# about a sixth of a run on two cores. The test run writes them, to ``__pycache__``
# (ignored by git), as Python does by default; the workers and the commands the tests
# start inherit this environment.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False

PROFILE_ENV = "MOONRULES_HYPOTHESIS_PROFILE"

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "default",
    max_examples=40,
    deadline=None,
    suppress_health_check=_QUIET,
    print_blob=True,
)
settings.register_profile("ci", settings.get_profile("default"), derandomize=True)
settings.register_profile(
    "deep",
    max_examples=1000,
    deadline=None,
    suppress_health_check=_QUIET,
    print_blob=True,
)

_profile = os.environ.get(PROFILE_ENV, "default")
if _profile not in ("default", "ci", "deep"):
    raise RuntimeError(f"{PROFILE_ENV}={_profile!r}: use default, ci or deep")
settings.load_profile(_profile)


# A shell that starts the tests in the background (``cmd &`` without job control) leaves
# SIGINT ignored, and an ignored signal stays ignored in every process started from here:
# the tests of Ctrl-C would then test nothing. Python's own handler is put back (a handled
# signal is reset to the default in a child at exec).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_report_header() -> str:
    return f"hypothesis profile: {_profile} (set {PROFILE_ENV} to change)"


def pytest_xdist_auto_num_workers(config: object) -> int:
    """``-n auto``: two workers per core. Much of the suite waits on the processes it
    starts (servers, targets, browsers, installs), so a core per worker would sit idle
    (on two cores: 3 minutes with four workers, 4 with two). ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides when it is set."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen:
        return int(chosen)
    return 2 * (os.cpu_count() or 1)


# The suite's longest tests (5-50 s each on two cores), collected first. pytest-xdist's load
# scheduling hands the first quarter of the tests out in turn and the rest as workers free
# up, in collection order: these, alphabetically late most of them (``test_table_*``), would
# otherwise start near the end and the run would wait on the last of them alone.
LONG_FIRST = (
    "tests/test_lint.py::test_mypy_strict",
    "tests/test_table_review.py",
    "tests/test_docs.py::test_mkdocs_build_strict",
    "tests/test_table_clock.py",
    "tests/test_html_report.py",
    "tests/test_table_browser.py",
    "tests/test_table_review_browser.py",
    "tests/test_hostile.py",
    "tests/test_target.py",
    "tests/test_conform.py",
)


BROWSER_ENV = "MOONRULES_BROWSER"
"""``MOONRULES_BROWSER=1``: run the tests that drive pages in headless Chromium."""

BROWSER_SKIP = (
    "drives a page in headless Chromium (the slowest tests, up to half a minute each): CI "
    f"runs them in a step of their own; set {BROWSER_ENV}=1 (python -m pytest -n auto -m browser)"
)


SLOW_ENV = "MOONRULES_SLOW"
"""``MOONRULES_SLOW=1``: run the tests marked ``slow`` (CI's step of its own runs them alone:
``MOONRULES_SLOW=1 python -m pytest -n auto -m slow``)."""

SLOW_SKIP = (
    "a slow check (a whole-game lockstep, a proxy or database server, a cluster, a long "
    f"command of the docs): CI runs it in a step of its own; set {SLOW_ENV}=1 "
    "(python -m pytest -n auto -m slow)"
)


def _in_browser(item: pytest.Item) -> bool:
    """A test that opens Chromium: the files named ``*_browser.py``, the HTML reports'
    test, and any test whose name says it opens in Chromium."""
    name = Path(str(item.fspath)).name
    return (
        name.endswith("_browser.py")
        or name == "test_html_report.py"
        or "chromium" in item.name.lower()
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a page in headless Chromium")
    config.addinivalue_line(
        "markers", f"slow: left out of the README's test command; CI runs it ({SLOW_ENV}=1)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`LONG_FIRST` first, in their order; the others as collected. The
    tests that drive Chromium are marked ``browser``, and skipped, with the reason, unless
    :data:`BROWSER_ENV` is set; those marked ``slow`` are skipped unless :data:`SLOW_ENV`
    is."""
    browsers = os.environ.get(BROWSER_ENV) == "1"
    slow = os.environ.get(SLOW_ENV, "") not in ("", "0")
    for item in items:
        if _in_browser(item):
            item.add_marker(pytest.mark.browser)
            if not browsers:
                item.add_marker(pytest.mark.skip(reason=BROWSER_SKIP))
        if not slow and item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.skip(reason=SLOW_SKIP))
    rank = {prefix: k for k, prefix in enumerate(LONG_FIRST)}

    def key(item: pytest.Item) -> int:
        for prefix, k in rank.items():
            if item.nodeid.startswith(prefix):
                return k
        return len(LONG_FIRST)

    items.sort(key=key)
