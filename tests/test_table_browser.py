"""The table page in a real browser: a whole game against bots, played by clicking.

Headless Chromium (Debian's ``/usr/bin/chromium``, driven by Playwright) opens a seat's
link, at a desktop width and at a phone width, and plays every move of a whole game
against two bots by clicking the ringed (legal) tiles and calls, one move with the
keyboard alone, and one refused move (a tile that does not follow), whose refusal must
show its clause. At the end it downloads the record, which ``moonrules check`` accepts.
The page must log no console error. Set ``MOONRULES_SCREENSHOTS=DIR`` to keep the
screenshots (they are taken in any case). The game is played to 7 (a hand or a few) unless
screenshots are kept or ``MOONRULES_DEEP=1`` is set: then to the preset's 21.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from table_support import Server

from moonrules import STANDARD
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (Debian package 'chromium'): the table page is "
    "played in a real browser; install it with apt-get install -y chromium",
)

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

NEXT = """() => {
  const over = !document.getElementById('game-over').hidden;
  const legal = document.querySelector('#choices button.legal, #hand button.legal');
  return over || legal !== null;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with Server(tmp_path_factory.mktemp("browser") / "table.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Any:
    with playwright_api.sync_playwright() as p:
        # (Playwright gives the browser an empty profile of its own)
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


def game_rules() -> Any:
    """A game to 21 when screenshots are kept or with ``MOONRULES_DEEP=1``; else to 7,
    which lasts a hand or a few."""
    whole = os.environ.get("MOONRULES_SCREENSHOTS") or os.environ.get("MOONRULES_DEEP", "0") != "0"
    return "standard" if whole else rules_json(attrs.evolve(STANDARD, target=7))


def shots_dir(tmp_path: Path) -> Path:
    keep = os.environ.get("MOONRULES_SCREENSHOTS")
    out = Path(keep) if keep else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_whole_game_in_the_browser(
    server: Server, browser: Any, tmp_path: Path, width: str
) -> None:
    shots = shots_dir(tmp_path)
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h}, accept_downloads=True)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(width)
    taken: set[str] = set()
    done = {"moves": 0, "refused": 0, "keyboard": 0}
    # The bots' play is the server's: a short game can end before the person had a tile
    # that does not follow to try (or a tile to play by keyboard). Then another game.
    for _ in range(GAMES_FOR_EVERY_MOVE):
        room = server.create(game_rules(), {"1": "basic", "2": "basic"})
        page.goto(room["seats"][0]["url"])
        play_the_game(page, rng, shots, width, taken, done)
        shot(page, shots, width, "game-over", taken)
        check_the_end(page, tmp_path)
        if done["refused"] and done["keyboard"]:
            break
    assert done["refused"] == 1 and done["keyboard"] == 1 and done["moves"] > 5, done
    assert errors == []
    page.close()


GAMES_FOR_EVERY_MOVE = 5
"""Games a browser test plays at most until the person has tried every kind of move."""


def play_the_game(
    page: Any, rng: random.Random, shots: Path, width: str, taken: set[str], done: dict[str, int]
) -> None:
    """The person's seat plays random legal moves to the end of the game, once (in all the
    games of a test) a tile that does not follow (refused, with its clause) and once a tile
    by the keyboard; ``done`` counts the moves of each kind."""
    moves = 0
    while True:
        page.wait_for_function(NEXT, timeout=60_000)
        if not page.locator("#game-over").is_hidden():
            break
        phase_tiles = page.locator("#hand button.legal").count() > 0
        wrong = page.locator("#hand button.not-legal")
        trick_on = page.locator("#trick li").count()
        if phase_tiles and not done["refused"] and wrong.count() > 0 and trick_on:
            # a tile that does not follow: refused, with its clause
            shot(page, shots, width, "before-refusal", taken)
            wrong.first.click()
            page.wait_for_selector("#refusal:not([hidden])", timeout=30_000)
            text = page.inner_text("#refusal")
            assert "Refused" in text and ("FOLLOW-" in text or "LEAD-" in text), text
            shot(page, shots, width, "refusal", taken)
            done["refused"] += 1
            continue
        legal = page.locator("#choices button.legal, #hand button.legal")
        n = legal.count()
        if n == 0:
            continue
        if page.locator("#choices button.legal").count():
            shot(page, shots, width, "auction", taken)
        elif page.locator("#trick li").count() >= 1:
            shot(page, shots, width, "play", taken)
        if not page.locator("#last-hand").is_hidden():
            shot(page, shots, width, "hand-over", taken)
        target = legal.nth(rng.randrange(n))
        passing = page.locator("#choices button.legal[data-action='\"pass\"']")
        if passing.count() and rng.random() < 0.8:  # mostly pass: the bots bid, shorter games
            target = passing
        before = page.evaluate(
            "() => document.body.dataset.seq + '/' + document.body.dataset.refusals"
        )
        try:
            if not done["keyboard"] and phase_tiles:
                target.focus()
                page.keyboard.press("ArrowRight")  # the arrow keys move along the hand
                page.keyboard.press("ArrowLeft")
                page.keyboard.press("Enter")
                done["keyboard"] += 1
            else:
                target.click(timeout=5_000)
        except playwright_api.Error:
            continue  # the page was redrawn under the click: look again
        page.wait_for_function(
            "b => document.body.dataset.seq + '/' + document.body.dataset.refusals !== b",
            arg=before,
            timeout=60_000,
        )
        moves += 1
        done["moves"] += 1
        assert moves < 400, "the game does not end"


def check_the_end(page: Any, tmp_path: Path) -> None:
    """The end of the game: who won, the record downloaded and checked, and every control
    named for a screen reader."""
    over = page.inner_text("#over-text")
    assert "wins the game" in over or "win the game" in over
    with page.expect_download() as got:
        page.click("#record-link")
    path = tmp_path / "record.json"
    got.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["hands"]
    check = subprocess.run(
        [sys.executable, "-m", "moonrules", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    # every control has a name a screen reader can say; every picture a text
    unnamed = page.evaluate(
        """() => Array.from(document.querySelectorAll('button, a'))
             .filter(e => !e.hidden && !(e.getAttribute('aria-label') || e.textContent.trim()))
             .map(e => e.outerHTML)"""
    )
    assert unnamed == []
    assert page.evaluate("() => document.querySelectorAll('img:not([alt])').length") == 0
    assert page.evaluate("() => document.documentElement.lang") == "en"


def shot(page: Any, shots: Path, width: str, name: str, taken: set[str]) -> None:
    """One screenshot of each kind of moment, per width."""
    if name in taken:
        return
    taken.add(name)
    page.screenshot(path=str(shots / f"table-{width}-{name}.png"), full_page=True)


def test_the_lobby_creates_a_room_and_shows_its_links(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-1")
    page.select_option("#rules", "partnership")
    page.wait_for_selector("#seat-3")
    page.select_option("#seat-1", "human")
    page.click("button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator("#seat-links a")
    urls = [links.nth(i).get_attribute("href") for i in range(links.count())]
    seats = [u for u in urls if u and "#token=" in u]
    assert len(seats) == 2 and len({u.split("#token=")[1] for u in seats}) == 2
    page.screenshot(path=str(shots / "table-lobby.png"), full_page=True)
    page.goto(seats[1])
    page.wait_for_selector("#hand li")
    assert "you are seat 1" in page.inner_text("#who")
    page.close()
