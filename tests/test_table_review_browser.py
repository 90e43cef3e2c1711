"""The review of a hand on the table page, in a real browser (the helpers and fixtures of
``test_table_browser``: Debian's Chromium driven by Playwright, a real server on 127.0.0.1).

A person plays a short game against two bots by clicking, at a desktop width and a phone
width. When the first hand ends, "Review this hand" on the last hand's panel opens the
review: "reviewing…" while the server works it out, then the person's own decisions only,
each with its mark, the best choice and the points lost, and the person's summary. At the
game's end "Review the game" on the game-over panel shows every player's decisions, and
another hand is picked from the list. Nothing scrolls sideways; no console error. The
phone's width runs always, the desktop's with ``MOONRULES_DEEP=1`` or when the screenshots
are kept, with ``MOONRULES_SCREENSHOTS=DIR`` (``docs/guides/table/review-*.png`` come from
there).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from depth import DEEP
from table_support import Server
from test_table_browser import (  # the same browser and server, as fixtures
    NEXT,
    WIDTHS,
    browser,  # noqa: F401
    playwright_api,
    pytestmark,  # noqa: F401
    server,  # noqa: F401
    shots_dir,
)

from moonrules import STANDARD
from moonrules.records.values import rules_json

SHORT = rules_json(attrs.evolve(STANDARD, target=8, moon=False))
"""A short game that always has a second hand, whose play shows the first hand's review while
the game goes on: without the moon a hand scores at most 7 (a game to 7 could end at once)."""

DIALOG = """() => {
  const d = document.getElementById('review');
  if (!d || !d.open) return null;
  return {status: document.getElementById('review-status').textContent,
          statusShown: !document.getElementById('review-status').hidden,
          scope: (d.querySelector('.rv-scope') || {}).textContent || null,
          lines: Array.from(d.querySelectorAll('.rv-line')).map(e => e.textContent),
          marks: Array.from(d.querySelectorAll('.rv-d .rv-mark')).map(e => e.textContent),
          players: Array.from(d.querySelectorAll('.rv-summary tbody th')).map(e => e.textContent),
          wide: d.scrollWidth > d.clientWidth + 1,
          width: d.getBoundingClientRect().width};
}"""


def open_review(page: Any, button: str) -> dict[str, Any]:
    """Click a Review button: the dialog opens saying "reviewing…" (the first time), and
    draws the review when it comes. What it shows."""
    page.click(button)
    first = page.evaluate(DIALOG)
    assert first is not None
    page.wait_for_function(
        "() => document.querySelector('#review .rv-scope') !== null", timeout=120_000
    )
    shown = page.evaluate(DIALOG)
    shown["first"] = first
    return shown


def play_to_the_end(page: Any, rng: random.Random, shots: Path, width: str) -> dict[str, Any]:
    """Random legal moves (mostly passes: the bots bid) by clicking, to the game's end;
    when the first hand has ended, its review opened from the last hand's panel (what it
    showed is returned) and closed again."""
    own: dict[str, Any] | None = None
    for _ in range(600):
        page.wait_for_function(NEXT, timeout=60_000)
        if not page.locator("#game-over").is_hidden():
            break
        if page.evaluate("() => document.body.dataset.hold") is not None:
            with contextlib.suppress(playwright_api.Error):
                page.click("#trick-area", timeout=5_000)
            continue
        if own is None and page.locator("#review-hand-btn").is_visible():
            own = open_review(page, "#review-hand-btn")
            page.screenshot(path=str(shots / f"review-{width}-own.png"))
            page.click("#review-close")
            continue
        legal = page.locator("#choices button.legal, #hand button.legal")
        n = legal.count()
        if n == 0:
            continue
        target = legal.nth(rng.randrange(n))
        passing = page.locator("#choices button.legal[data-action='\"pass\"']")
        if passing.count() and rng.random() < 0.8:
            target = passing
        with contextlib.suppress(playwright_api.Error):
            target.click(timeout=5_000)
    assert own is not None, "the last hand's panel offered no review"
    return own


BOTH = DEEP or bool(os.environ.get("MOONRULES_SCREENSHOTS"))
"""The desktop width too (half a minute more): with ``MOONRULES_DEEP=1``, or when the
screenshots are kept."""


@pytest.mark.parametrize(
    "width",
    [
        pytest.param(
            w,
            marks=pytest.mark.skipif(
                w != "phone" and not BOTH,
                reason="the review at a desktop width: set MOONRULES_DEEP=1 (the phone's runs)",
            ),
        )
        for w in WIDTHS
    ],
)
def test_a_hand_reviewed_on_the_page(
    server: Server,  # noqa: F811
    browser: Any,  # noqa: F811
    tmp_path: Path,
    width: str,
) -> None:
    shots = shots_dir(tmp_path)
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    room = server.create(SHORT, {"1": "basic", "2": "basic"})
    page.goto(room["seats"][0]["url"])
    page.wait_for_selector("#name-form:not([hidden])")
    page.fill("#name-input", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#name-form", state="hidden")
    own = play_to_the_end(page, random.Random(width), shots, width)
    assert not page.locator("#game-over").is_hidden()
    # while the game went on: "reviewing…", then the person's own decisions alone
    assert own["first"]["status"] == "reviewing…" and own["first"]["statusShown"]
    assert own["scope"].startswith("Your decisions")
    assert own["players"] == ["You"]
    subject = re.compile(r"^(\?\?|\?!|\?|✓|·)(Trick [1-7]: )?(.+?)( played|,| discarded| named)")
    subjects = {m.group(3) for m in map(subject.match, own["lines"]) if m is not None}
    assert own["lines"] and subjects == {"You"}, own["lines"]
    assert not own["wide"], own
    # the game over: everyone's decisions, any hand
    table = open_review(page, "#review-game")
    assert table["scope"].startswith("Every player")
    assert table["players"] == ["You", "Seat 2 (basic bot)", "Seat 3 (basic bot)"]
    assert not table["wide"], table
    page.screenshot(path=str(shots / f"review-{width}-table.png"))
    page.locator("#review details.rv-alts").first.evaluate("d => d.open = true")
    page.screenshot(path=str(shots / f"review-{width}-choices.png"))
    if page.locator("#review-hand option").count() > 1:
        page.select_option("#review-hand", "1")
        page.wait_for_function(
            "() => document.getElementById('review-h').textContent.endsWith('hand 1') && "
            "document.querySelector('#review .rv-scope') !== null",
            timeout=120_000,
        )
    others = page.evaluate(DIALOG)
    lines = others["lines"] + table["lines"]
    matched = [m.group(3) for m in map(subject.match, lines) if m is not None]
    assert len(matched) == len(lines) and set(matched) > {"You"}, lines
    page.keyboard.press("Escape")
    assert page.evaluate(DIALOG) is None
    assert errors == []
    page.close()
