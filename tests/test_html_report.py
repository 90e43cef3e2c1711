"""The HTML report of ``moonrules check --html`` opens in a real browser.

For each example record the page is written, then loaded by headless Chromium
(Debian's ``chromium`` package), which takes a screenshot and dumps the DOM. The
page must load with no console message at all (it has no script, so any message
is an error: a failed load, a parse error), draw its tiles, and, for a dispute,
highlight the offending step: the element with id ``violation`` and class
``violation`` holds the ruling and the legal alternatives.

Set ``MOONRULES_SCREENSHOTS=DIR`` to keep the screenshots in ``DIR``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest
from browser_support import command_line, needs_chromium

from moonrules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
VERDICTS = json.loads((EXAMPLES / "verdicts.json").read_text())
pytestmark = needs_chromium("the HTML report")

_CONSOLE = re.compile(r"CONSOLE[^\]]*\]\s*(.*)|(Uncaught .*)")


@attrs.frozen
class Loaded:
    dom: str
    console: list[str]
    screenshot: Path
    returncode: int
    stderr: str


def load(page: Path, screenshot: Path, *, height: int = 1600) -> Loaded:
    """Load ``page`` in headless Chromium: its DOM after load, console messages, a screenshot."""
    with tempfile.TemporaryDirectory(prefix="moonrules-chromium-") as profile:
        result = subprocess.run(
            command_line(
                Path(profile),
                "--hide-scrollbars",
                f"--window-size=1280,{height}",
                f"--screenshot={screenshot}",
                "--dump-dom",
                page.resolve().as_uri(),
            ),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    console = [m.group(1) or m.group(2) for m in _CONSOLE.finditer(result.stderr)]
    return Loaded(result.stdout, console, screenshot, result.returncode, result.stderr)


def test_the_console_check_catches_errors(tmp_path: Path) -> None:
    """The way errors are detected works: a page with a broken script is caught."""
    page = tmp_path / "broken.html"
    page.write_text(
        '<!DOCTYPE html><html><body><p id="x">hi</p>'
        "<script>console.error('boom'); notDefined();</script></body></html>"
    )
    got = load(page, tmp_path / "broken.png", height=400)
    assert got.returncode == 0, got.stderr[-2000:]
    assert any("boom" in c for c in got.console)
    assert any("Uncaught ReferenceError" in c for c in got.console)
    assert 'id="x"' in got.dom and got.screenshot.stat().st_size > 0


NAMES = sorted(VERDICTS)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Loaded]]:
    """Every example's report, written and loaded (several browsers at once)."""
    out = tmp_path_factory.mktemp("reports")
    pages = {}
    for name in NAMES:
        page = out / f"{name}.html"
        status = main(["check", str(EXAMPLES / name), "--html", str(page)])
        assert status == VERDICTS[name]["status"]
        pages[name] = page

    def one(name: str) -> tuple[str, tuple[Path, Loaded]]:
        shot = out / f"{name}.png"
        return name, (pages[name], load(pages[name], shot))

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(pool.map(one, NAMES))
    keep = os.environ.get("MOONRULES_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for name, (_page, got) in results.items():
            shutil.copy(got.screenshot, Path(keep) / f"{name}.png")
    return results


@pytest.mark.parametrize("name", NAMES)
def test_report_opens_in_chromium(name: str, loaded: dict[str, tuple[Path, Loaded]]) -> None:
    page, got = loaded[name]
    html = page.read_text(encoding="utf-8")
    # self-contained: no script, no external resource of any kind
    assert "<script" not in html
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!#)""", html)
    assert not re.search(r"url\(", html)
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.console == [], got.console
    # the browser built the page: tiles drawn, the score table, one section per hand
    assert got.dom.count('class="tile') > 20
    assert '<table class="scores">' in got.dom
    assert got.dom.count('<section class="hand"') >= 1
    png = got.screenshot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    stated = VERDICTS[name]
    marked = re.findall(r'<div class="violation" id="violation">', got.dom)
    if stated["rule"] is None:
        assert marked == [] and 'class="verdict valid"' in got.dom
        return
    assert len(marked) == 1
    violation = got.dom[got.dom.index('id="violation"') :]
    violation = violation[: violation.index("<h2>Scores</h2>")]
    assert f"({stated['rule']})" in violation and 'class="ruling"' in violation
    # the ruling comes first on the page, before the scores and the hands
    assert got.dom.index('id="violation"') < got.dom.index('<section class="hand"')
    # and the disputed step is marked in the hand it concerns
    step = got.dom.index('class="violation-step"')
    section = got.dom.rfind('<section class="hand"', 0, step)
    hand_id = re.match(r'<section class="hand" id="hand-(\d+)"', got.dom[section:])
    assert hand_id is not None and int(hand_id.group(1)) == stated["hand"] + 1
    assert got.dom.count('class="violation-step"') == 1
    if "tile" in stated:
        # the offending tile is ringed in red, the legal plays in green, in the ruling
        assert re.search(
            rf'data-tile="{stated["tile"]}"[^>]*>\s*<rect class="highlight"[^>]*stroke="#c62828"',
            violation,
        ), "the offending tile is not ringed in red"
        for legal in stated["legal"]:
            assert re.search(
                rf'data-tile="{legal}"[^>]*>\s*<rect class="highlight"[^>]*stroke="#23964a"',
                violation,
            ), f"the legal play {legal} is not ringed in green"
        assert "Legal plays were: " in violation
    if stated["rule"] == "CLAIM-1":
        assert "One line of play that defeats the claim" in violation
