"""What the tests that open a page in headless Chromium share: Debian's ``chromium`` (no
browser is downloaded), the flags it runs with, the widths pages are checked at, the skip
when it is missing, and a browser driven by Playwright for a test module.

A test module writes its fixture as ``yield from launched(playwright_api)`` after
``playwright_api = pytest.importorskip("playwright.sync_api")``; pages loaded with
Chromium's own command line (``--dump-dom``, ``--screenshot``) take
:func:`command_line`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium, or ``None`` when it is not installed."""

FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
"""Every launch's flags: no sandbox (a container's root), no GPU, nothing fetched from the
network on its own, no first-run pages."""

WIDTHS = {"desktop": (1366, 850), "phone": (390, 844)}
"""The widths every page is checked at: a laptop's and a phone's."""

PHONE = {"width": WIDTHS["phone"][0], "height": WIDTHS["phone"][1]}


def needs_chromium(what: str) -> pytest.MarkDecorator:
    """Skip, saying why, where Chromium is not installed; ``what`` is the page checked."""
    return pytest.mark.skipif(
        CHROMIUM is None,
        reason=f"Chromium is not installed (Debian package 'chromium'): {what} is checked "
        "in a real browser; install it with apt-get install -y chromium",
    )


def launched(playwright_api: Any) -> Iterator[Any]:
    """A headless Chromium driven by Playwright (a profile of its own, made empty), closed
    when the generator is."""
    assert CHROMIUM is not None
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=list(FLAGS))
        yield chromium
        chromium.close()


def command_line(profile: Path, *extra: str) -> list[str]:
    """Chromium's own command line, headless with :data:`FLAGS`, its console on stderr and
    a profile in ``profile``; ``extra`` then (the window's size, ``--screenshot``, the page)."""
    assert CHROMIUM is not None
    return [
        CHROMIUM,
        "--headless",
        *FLAGS,
        "--enable-logging=stderr",
        "--v=0",
        f"--user-data-dir={profile}",
        *extra,
    ]
