"""The event's page on the table in a real browser: headless Chromium (Debian's ``chromium``,
driven by Playwright) at a desktop's 1366 x 850 and a phone's 390 x 844.

An event of two rounds in the table's database: the bots' tables played, the people's
first round played, its second round's last board still being played in a room. The page
shows the standings as the log gives them, the rounds and tables with the watch links, the
names as text (one has markup in it), fits the width, and reloads itself while a board is
played. ``MOONRULES_SCREENSHOTS=DIR`` keeps the screenshots (the director's guide shows
those of ``docs/guides/tournaments/``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from table_support import Player, Server

from moonrules.tournament.event import parse_tournament
from moonrules.tournament.run import BoardJob, play_board, run_event
from moonrules.tournament.scoring import standings
from moonrules.tournament.store import open_store

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (Debian package 'chromium'): the event page is "
    "checked in a real browser; install it with apt-get install -y chromium",
)

WIDTHS = {"desktop": (1366, 850), "phone": (390, 844)}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
MARKUP = "Cy <i>the</i> Third"

FILE = f"""\
name = "Spring <cup> & friends"
format = "three-seat"
rules = "standard"
seed = 21
scoring = "matchpoints"
rounds = 2
boards_per_round = 2
players = ["Ann Lee", "Bob", "{MARKUP}", {{name = "Basil", bot = "basic"}},
           {{name = "Rita", bot = "random"}}, {{name = "Bea", bot = "basic"}}]

[[movement]]
tables = [["Ann Lee", "Bob", "{MARKUP}"], ["Basil", "Rita", "Bea"]]

[[movement]]
tables = [["Bob", "{MARKUP}", "Ann Lee"], ["Rita", "Bea", "Basil"]]
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("event-page") / "club.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


@pytest.fixture(scope="module")
def event(server: Server) -> str:
    """The event in the table's database: everything played but round 2's board 4 at the
    people's table, which is being played in a room."""
    t = parse_tournament(FILE)
    entries = list(run_event(t).entries)  # the bots' tables
    people = {1: ("Ann Lee", "Bob", MARKUP), 2: ("Bob", MARKUP, "Ann Lee")}
    for rnd, board in [(1, 1), (1, 2), (2, 3)]:  # played by people (here, by bots for them)
        job = BoardJob(t.rules, t.seed, rnd, 1, board, ("basic",) * 3, people[rnd])
        entries.append(play_board(job))
    room = server.create("standard", {})["room"]
    with open_store(server.db) as store:
        store.create("spring", entries)
        store.add_room("spring", 2, 1, 4, room)
    return room


@pytest.fixture(scope="module")
def browser() -> Any:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_event_page_in_a_browser(
    server: Server, event: str, browser: Any, width: str, tmp_path: Path
) -> None:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/events/spring")
    assert page.title() == "Spring <cup> & friends — standings"
    # names are text: the markup in one is shown, never made an element
    assert page.locator("main i").count() == 0
    assert page.get_by_text(MARKUP, exact=True).count() >= 3  # standings and two tables
    # the standings as the log gives them, in order
    with open_store(server.db) as store:
        rows = standings(store.state("spring")).rows
    shown = page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [r.entry for r in rows]
    assert "7 of 8 board(s) played (88%)" in page.locator("main").inner_text()
    assert "Still playing: Ann Lee, Bob, Cy <i>the</i> Third" in page.inner_text("main")
    live = page.locator("a.live")
    assert live.count() == 1 and live.get_attribute("href") == f"/rooms/{event}"
    assert page.locator('meta[http-equiv="refresh"]').count() == 1
    # each board's traveller: every table's result side by side; its deal once all have played
    travellers = page.locator("details.traveller")
    assert travellers.count() == 4
    board1 = page.locator("details.traveller", has_text="Board 1: every table")
    assert "Deal seat 1:" in board1.inner_text() and board1.locator("a").count() == 2
    board4 = page.locator("details.traveller", has_text="Board 4: every table")
    assert "The deal is shown once every table has played it" in board4.text_content()
    # the export links answer
    for kind in ("csv", "json"):
        href = page.locator(f'a[href$="standings.{kind}"]').get_attribute("href")
        status, _, _ = server.request("GET", href)
        assert status == 200
    # nothing wider than the screen
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= w, (width, scroll)
    shots = Path(os.environ.get("MOONRULES_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"event-{width}.png"), full_page=True)
    assert errors == []
    page.close()


def test_a_board_rooms_end_in_a_browser(server: Server, browser: Any, tmp_path: Path) -> None:
    """A tournament's board at its end: the hand's points, no rematch offered."""
    body = {"bots": {"1": "basic", "2": "basic"}, "hints": False}
    body["board"] = {"seed": 9, "names": ["Ann Lee", "Basil", "Bea"]}
    status, room, _ = server.request(
        "POST", "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    assert status == 201, room
    (seat,) = room["seats"]
    person = Player(server, room["room"], seat["token"], 1, mischief=0.0, pass_rate=0.5)
    person.start()
    person.join(60)
    assert person.error is None and person.last_state is not None
    assert person.last_state["table"]["board"] is True and person.last_state["table"]["over"]
    w, h = WIDTHS["phone"]
    page = browser.new_page(viewport={"width": w, "height": h})
    page.goto(seat["url"])
    over = page.locator("#over-text")
    over.wait_for(state="visible", timeout=30_000)
    assert over.inner_text().startswith("The board is played (one hand")
    assert "You " in over.inner_text() and "Basil" in over.inner_text()
    assert page.locator("#rematch").is_hidden()
    assert page.locator("section.board").is_hidden()  # the next hand is never played
    shots = Path(os.environ.get("MOONRULES_SCREENSHOTS", tmp_path))
    page.screenshot(path=str(shots / "board-over-phone.png"), full_page=False)
    # the table's next board: the same links, and the page goes there by itself
    body["board"] = {**body["board"], "seed": 10, "after": room["room"]}
    status, nxt, _ = _post(server, body)
    assert status == 201 and nxt["seats"] == [], nxt  # no new link: the seat's own goes on
    page.wait_for_url(f"**/rooms/{nxt['room']}#token={seat['token']}", timeout=30_000)
    page.wait_for_function("() => document.body.dataset.turn === '1'", timeout=30_000)
    for after, code in [(room["room"], 409), ("nope", 400), (nxt["room"], 409)]:
        body["board"] = {**body["board"], "after": after}
        status, answer, _ = _post(server, body)
        assert status == code, answer  # has its next board already; no room; still played
    page.close()


def _post(server: Server, body: Any) -> Any:
    return server.request(
        "POST", "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )


def test_a_boards_records_once_every_table_has_played_it(server: Server, event: str) -> None:
    with open_store(server.db) as store:
        state = store.state("spring")
    status, record, _ = server.request("GET", "/events/spring/records/1/1/1")
    assert status == 200 and record == dict(state.result(1, 1, 1).record)  # type: ignore[union-attr]
    status, answer, _ = server.request("GET", "/events/spring/records/2/2/4")
    assert status == 409 and "still playing this board" in answer["error"]  # table 1 plays it
    for path in ("/events/spring/records/2/1/4", "/events/spring/records/1/1/x",
                 "/events/spring/records/9/1/1", "/events/nope/records/1/1/1"):  # fmt: skip
        status, answer, _ = server.request("GET", path)
        assert status == 404, (path, answer)
    status, data, _ = server.request("GET", "/events/spring/standings.json")
    (r2,) = [r for r in data["rounds"] if r["round"] == 2]
    assert [(t["board"], t["complete"], t["deal"] is not None) for t in r2["travellers"]] == [
        (3, True, True),
        (4, False, False),
    ]
