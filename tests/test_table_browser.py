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

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from browser_support import WIDTHS, launched, needs_chromium
from depth import DEEP
from table_support import Server

from moonrules import STANDARD
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium("the table page")


NEXT = """() => {
  const over = !document.getElementById('game-over').hidden;
  const legal = document.querySelector('#choices button.legal, #hand button.legal');
  return over || legal !== null || document.body.dataset.hold !== undefined;
}"""

LAYOUT = """() => {
  const hand = document.getElementById('mine').getBoundingClientRect();
  const doc = document.documentElement;
  return {scroll: doc.scrollWidth, width: innerWidth, height: innerHeight,
          top: hand.top, bottom: hand.bottom, left: hand.left, right: hand.right,
          focus: document.activeElement && (document.activeElement.dataset.tile ||
                 document.activeElement.dataset.action || document.activeElement.tagName),
          first: (document.querySelector('#choices button.legal, #hand button.legal') || {})
                 .dataset};
}"""

HEARD = """window.heard = [];
window.said = new Set();
document.addEventListener('DOMContentLoaded', () => {
  const live = document.getElementById('announce');
  if (live) new MutationObserver(() => window.heard.push(live.textContent))
    .observe(live, {childList: true, characterData: true, subtree: true});
  // every sentence the page shows or says, for the grammar check
  const ids = ['status', 'prompt', 'announce', 'refusal', 'trick-note', 'contract', 'auction',
    'last-body', 'over-text', 'seats', 'notice', 'hint-box', 'elsewhere-text', 'who'];
  const look = () => ids.forEach(id => {
    const e = document.getElementById(id);
    if (e && !e.hidden && e.innerText) window.said.add(e.innerText);
  });
  new MutationObserver(look).observe(document.body,
    {childList: true, characterData: true, subtree: true});
});"""

BAD_GRAMMAR = [
    (r"\bYou (calls|bids|passes|plays|wins|leads|names|is|was|has)\b", "you + -s"),
    (r"\b1 (tricks|tiles|points)\b", "1 + a plural"),
    (r"(?<![-\d])\b([02-9]|[1-9][0-9]) (trick|tile)\b", "a plural without -s"),
    (r"\b[Ss]eat 0\b", "a seat numbered from 0"),
    (r"\b([A-Za-z]+) \1\b", "a doubled word"),
    (r"\b(Seat [1-4]|Ann) (call|bid|win|lead|play|pass|name)\b(?! \d)", "a seat + no -s"),
    (r"\.\.(?!\.)", "a doubled full stop"),
]


def check_grammar(texts: list[str]) -> None:
    """Every message of the game in plain English: no "You calls", "1 tricks", "Seat 0" or
    doubled word."""
    import re

    wrong = [
        (why, line)
        for text in texts
        for line in text.splitlines()
        for pattern, why in BAD_GRAMMAR
        if re.search(pattern, line)
    ]
    assert wrong == [], wrong[:10]


LABELS = """() => [
  ...Array.from(document.querySelectorAll('#hand button')).filter(
      b => !/^(Play |Discard )?[0-6]-[0-6]/.test(b.getAttribute('aria-label') || '')),
  ...Array.from(document.querySelectorAll('#trick img')).filter(
      i => !/^[0-6]-[0-6], played by /.test(i.alt)),
].map(e => e.outerHTML)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with Server(tmp_path_factory.mktemp("browser") / "table.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from launched(playwright_api)


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
    page.add_init_script(HEARD)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(width)
    taken: set[str] = set()
    done = {"moves": 0, "refused": 0, "keyboard": 0, "tricks": 0, "sevenths": 0, "waited": 0,
            "hints": 0, "claims": 0}  # fmt: skip
    said: list[str] = []
    # The bots' play is the server's: a short game can end before the person had a tile
    # that does not follow to try (or a tile to play by keyboard, or a call to ask a hint
    # for: a bot's 21 before the person's turn closes the auction). Then another game.
    for game in range(GAMES_FOR_EVERY_MOVE):
        room = server.create(game_rules(), {"1": "basic", "2": "basic"})
        page.goto(room["seats"][0]["url"])
        if game == 0:
            choose_a_name(page, shots, width, taken)
        else:  # the name is remembered: the page gives it to the new seat by itself
            page.wait_for_function("() => document.getElementById('who').textContent"
                                   ".includes('(Ann <i>')")  # fmt: skip
        play_the_game(page, rng, shots, width, taken, done)
        shot(page, shots, width, "game-over", taken)
        check_the_end(page, tmp_path)
        said += page.evaluate("() => Array.from(window.said)")
        if done["refused"] and done["keyboard"] and done["sevenths"] and done["hints"]:
            break
    assert done["refused"] == 1 and done["keyboard"] == 1 and done["moves"] > 5, done
    assert done["tricks"] >= 7 and done["sevenths"] >= 1, done
    assert done["hints"] == 1 and done["claims"] <= 1, done  # (a claim when a game allows)
    heard = " ".join(page.evaluate("() => window.heard"))
    assert " plays " in heard and "trick" in heard, heard  # others' plays, tricks' winners
    check_grammar(said)
    assert len(said) > 50, said  # (the check saw the game's messages)
    play_again(page, room, shots, width)
    assert errors == []
    page.close()


def choose_a_name(page: Any, shots: Path, width: str, taken: set[str]) -> None:
    """The seat's page asks for a name; markup typed in it is shown as text."""
    page.wait_for_selector("#name-form:not([hidden])")
    shot(page, shots, width, "name", taken)
    page.fill("#name-input", "  Ann <i>Lee</i> ")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#name-form", state="hidden")
    page.wait_for_function(
        "() => document.getElementById('who').textContent.includes('(Ann <i>Lee</i>)')"
    )
    assert page.locator("#who i").count() == 0  # not made into markup


def play_again(page: Any, room: Any, shots: Path, width: str) -> None:
    """At the game's end "Play again" takes the page to a new room: the same seat, name,
    bots and rules."""
    page.click("#rematch")
    page.wait_for_function("r => !location.pathname.endsWith('/' + r)", arg=room["room"])
    page.wait_for_function("() => document.getElementById('who').textContent.includes('Ann')")
    assert "#token=" + room["seats"][0]["token"] in page.url
    assert page.locator("#game-over").is_hidden()
    names = page.inner_text("#seats")
    assert "Seat 2 (basic bot)" in names and "Seat 3 (basic bot)" in names, names


GAMES_FOR_EVERY_MOVE = 5
"""Games a browser test plays at most until the person has tried every kind of move."""


def play_the_game(
    page: Any, rng: random.Random, shots: Path, width: str, taken: set[str], done: dict[str, int]
) -> None:
    """The person's seat plays random legal moves to the end of the game, once (in all the
    games of a test) a tile that does not follow (refused, with its clause) and once a tile
    by the keyboard; ``done`` counts the moves of each kind, the finished tricks seen, and
    the hands whose seventh trick showed before the next deal.

    On every turn: nothing scrolls sideways, the player's tiles and choices are inside the
    screen, the keyboard focus is on the first legal choice, every tile is labelled."""
    moves = 0
    while True:
        page.wait_for_function(NEXT, timeout=60_000)
        if not page.locator("#game-over").is_hidden():
            break
        held = page.evaluate("() => document.body.dataset.hold")
        if held is not None:
            look_at_a_finished_trick(page, int(held), shots, width, taken, done)
            continue
        check_the_turn(page, width)
        phase_tiles = page.locator("#hand button.legal").count() > 0
        wrong = page.locator("#hand button.not-legal")
        trick_on = page.locator("#trick li").count()
        if trick_on >= 2 and phase_tiles and page.locator("#refusal").is_hidden():
            shot(page, shots, width, "play", taken)
        if phase_tiles and not done["refused"] and wrong.count() > 0 and trick_on:
            refuse_a_tile(page, wrong.first, shots, width, taken)
            done["refused"] += 1
            continue
        if not done["hints"] and page.locator("#choices button.legal").count():
            ask_for_a_hint(page, shots, width, taken)
            done["hints"] += 1
        tricks = page.evaluate("() => document.querySelectorAll('#last-trick').length && "
                               "Number((document.getElementById('trick-h').textContent"
                               ".match(/\\d+/) || [0])[0])")  # fmt: skip
        if not done["claims"] and phase_tiles and tricks in (5, 6) and trick_on == 0:
            if claim_the_rest(page, shots, width, taken):
                done["claims"] += 1
                continue
            done["claims"] += 1
        legal = page.locator("#choices button.legal, #hand button.legal")
        n = legal.count()
        if n == 0:
            continue
        if page.locator("#choices button.legal").count():
            shot(page, shots, width, "auction", taken)
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
                # the focus is already on the first legal tile: the keys alone play it
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


def ask_for_a_hint(page: Any, shots: Path, width: str, taken: set[str]) -> None:
    """A hint on the player's turn in the auction: the hints' bot's call (``learned``'s when
    numpy is installed, else ``strong``'s), named and marked, and the chance of making each
    bid."""
    page.click("#hint")
    page.wait_for_function(
        "() => { const b = document.getElementById('hint-box');"
        " return !b.hidden && b.textContent.startsWith('Hint:'); }",
        timeout=60_000,
    )
    text = page.inner_text("#hint-box")
    bot = "learned" if importlib.util.find_spec("numpy") is not None else "strong"
    assert f"the {bot} bot would " in text and "Chance of making each bid" in text, text
    assert page.locator("#choices button.hinted").count() == 1
    shot(page, shots, width, "hint", taken)


def claim_the_rest(page: Any, shots: Path, width: str, taken: set[str]) -> bool:
    """A claim of every trick left, at the lead: it holds (the hand ends, everyone told) or
    is refused with CLAIM-1 (play goes on). Whether it held."""
    seq = page.evaluate("() => document.body.dataset.seq")
    page.select_option("#claim-n", "all")
    page.click("#claim")
    page.wait_for_function(
        "s => !document.getElementById('refusal').hidden || "
        "!document.getElementById('notice').hidden",
        arg=seq,
        timeout=60_000,
    )
    if not page.locator("#refusal").is_hidden():
        text = page.inner_text("#refusal")
        assert text.startswith("Not allowed (CLAIM-1)") and "does not hold" in text, text
        shot(page, shots, width, "claim-refused", taken)
        return False
    text = page.inner_text("#notice")
    assert text.startswith("You claimed ") and "the claim holds (CLAIM-1)" in text, text
    shot(page, shots, width, "claim", taken)
    return True


def check_the_turn(page: Any, width: str) -> None:
    """It is the player's turn: the layout and the focus as a person needs them."""
    box = page.evaluate(LAYOUT)
    assert box["scroll"] <= box["width"], f"the page scrolls sideways: {box}"
    assert box["top"] >= 0 and box["bottom"] <= box["height"] + 1, f"the hand is off screen: {box}"
    assert box["left"] >= 0 and box["right"] <= box["width"], f"the hand is off screen: {box}"
    first = box["first"] or {}
    if not page.locator("#refusal").is_hidden():
        return  # the focus stays on the tile refused
    assert box["focus"] in (first.get("tile"), first.get("action")), (
        f"the focus is not on the first legal choice: {box}"
    )
    assert page.evaluate(LABELS) == []
    if width == "phone" and page.locator("#choices button.legal").count():
        # calls before tiles: the first legal call has the focus, not a tile
        assert box["focus"] == first.get("action"), box


def look_at_a_finished_trick(
    page: Any, number: int, shots: Path, width: str, taken: set[str], done: dict[str, int]
) -> None:
    """A finished trick stays on the table, its winner marked, until the player clicks (or
    1.5 s pass: the first time the test waits for it); the seventh before the next deal."""
    hand = page.evaluate("() => document.body.dataset.hand")
    note = page.inner_text("#trick-note")
    assert "Won by" in note, note
    assert page.locator("#trick li.winner").count() == 1
    assert page.locator("#trick li").count() >= 3
    assert page.evaluate(LABELS) == []
    done["tricks"] += 1
    if number == 7:
        # the hand's last trick: still on the hand it ended, its tiles all played
        assert page.locator("#hand li").count() == 0
        shot(page, shots, width, "seventh-trick", taken)
        done["sevenths"] += 1
    else:
        shot(page, shots, width, "trick-won", taken)
    try:
        if not done["waited"]:
            done["waited"] = 1
            page.wait_for_function("() => document.body.dataset.hold === undefined", timeout=4_000)
        else:
            page.click("#trick-area", timeout=5_000)  # a click lets it go at once
    except playwright_api.Error:
        pass  # it went by itself meanwhile
    if number == 7:
        page.wait_for_function(
            "h => document.body.dataset.hold !== undefined || document.body.dataset.hand !== h "
            "|| !document.getElementById('game-over').hidden",
            arg=hand,
            timeout=30_000,
        )


def refuse_a_tile(page: Any, wrong: Any, shots: Path, width: str, taken: set[str]) -> None:
    """A tile that does not follow: refused, with its clause, in the second person, the
    allowed plays listed once, beside the hand without moving it."""
    shot(page, shots, width, "before-refusal", taken)
    before = page.locator("#hand").bounding_box()
    wrong.click()
    page.wait_for_selector("#refusal:not([hidden])", timeout=30_000)
    text = page.inner_text("#refusal")
    assert text.startswith("Not allowed (FOLLOW-") or text.startswith("Not allowed (LEAD-"), text
    assert "You played" in text or "You led" in text, text
    assert text.count("You may play") == 1 and "Legal plays were" not in text, text
    assert "seat 0" not in text.lower(), text  # the page's own seat is "you"
    assert page.locator("#hand").bounding_box() == before  # the hand did not move
    box = page.locator("#refusal").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box
    shot(page, shots, width, "refusal", taken)


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
    # a phone's screen as the player sees it (the hand pinned at its bottom); a desktop's page
    page.screenshot(path=str(shots / f"table-{width}-{name}.png"), full_page=width != "phone")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_lobby_creates_a_room_and_shows_its_links(
    server: Server, browser: Any, tmp_path: Path, width: str
) -> None:
    shots = shots_dir(tmp_path)
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-1")
    assert "22 tiles" in page.inner_text("#rules-desc")  # the preset, described
    page.select_option("#rules", "partnership")
    page.wait_for_selector("#seat-3")
    assert "two teams" in page.inner_text("#rules-desc")
    assert page.inner_text("label[for=seat-0]") == "Seat 1 (team 1)"
    bots = page.evaluate("() => Array.from(document.querySelectorAll('#bot-help dt, #bot-help dd'))"
                         ".map(e => e.textContent)")  # fmt: skip
    assert "strong bot" in bots and all(bots), bots  # every bot level described
    page.select_option("#seat-1", "human")
    page.click("button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    # nothing scrolls sideways, the links included
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    links = page.locator("#seat-links a")
    urls = [links.nth(i).get_attribute("href") for i in range(links.count())]
    seats = [u for u in urls if u and "#token=" in u]
    assert len(seats) == 2 and len({u.split("#token=")[1] for u in seats}) == 2
    page.evaluate("() => scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"table-lobby-{width}.png"), full_page=True)
    page.goto(seats[1])
    page.wait_for_selector("#hand li")
    assert "you are seat 2" in page.inner_text("#who")  # the protocol's seat 1, from 1 here
    assert "Seat 1" in page.inner_text("#seats") and "(your partner)" in page.inner_text("#seats")
    page.close()


@pytest.mark.parametrize("back", [False, True], ids=["told", "reconnects"])
def test_a_restart_is_said_with_its_reason_and_the_page_reconnects(
    tmp_path: Path, browser: Any, back: bool
) -> None:
    """The server stops (code 1012): the page says why ("the table is restarting"), not
    "connection lost", and connects again once it is back (the same database, the same
    port: a second server start, with ``MOONRULES_DEEP=1``)."""
    if back and not DEEP:
        pytest.skip("a second server start: set MOONRULES_DEEP=1 to see the page reconnect")
    import socket

    with socket.socket() as probe:  # a free port, for the server to come back on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "table.sqlite3"
    first = Server(db)
    first.argv[first.argv.index("--port") + 1] = str(port)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    with first:
        room = first.create("standard", {"1": "basic", "2": "basic"})
        page.goto(room["seats"][0]["url"])
        page.wait_for_selector("#hand li")
        first.stop()
        page.wait_for_function(
            "() => document.getElementById('conn').textContent.startsWith("
            "'The table is restarting')",
            timeout=15_000,
        )
        assert "connection lost" not in page.inner_text("#conn")
        assert page.locator("#conn.down").count() == 1
    if not back:
        page.close()
        return
    again = Server(db)
    again.argv[again.argv.index("--port") + 1] = str(port)
    with again:
        page.wait_for_function(
            "() => document.getElementById('conn').textContent === 'connected'", timeout=30_000
        )
    page.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_turn_clock_counts_down_on_the_page(
    server: Server, browser: Any, tmp_path: Path, width: str
) -> None:
    """A room made in the lobby with a turn clock: the seat to act shows its time counting
    down and its bank, a bot's seat no clock, and a phone's page does not scroll sideways."""
    import re

    shots = shots_dir(tmp_path)
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-1")
    page.select_option("#opt-clock", "30/180")
    page.click("button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator("#seat-links a")
    urls = [links.nth(i).get_attribute("href") for i in range(links.count())]
    seat = next(u for u in urls if u and "#token=" in u)
    page.goto(seat)
    page.wait_for_selector("#seats .clock.running", timeout=30_000)
    clocks = page.locator("#seats .clock")
    assert clocks.count() == 3
    first = page.inner_text("#seats .clock.running")
    page.wait_for_timeout(1500)
    later = page.inner_text("#seats .clock.running")
    assert re.fullmatch(r"0:[0-3]\d \+ 3:00", first) and later != first, (first, later)
    banks = [clocks.nth(i).inner_text() for i in range(3)]
    assert banks[1:] == ["", ""], banks  # the bots' seats have no clock
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    page.screenshot(path=str(shots / f"table-clock-{width}.png"), full_page=width != "phone")
    assert errors == [], errors
    page.close()
