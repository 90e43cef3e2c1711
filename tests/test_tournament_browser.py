"""The event's page on the table in a real browser: headless Chromium (Debian's ``chromium``,
driven by Playwright) at a desktop's 1366 x 850 and a phone's 390 x 844.

An event of two rounds in the table's database: the bots' tables played, the people's
first round played, its second round's last board still being played in a room. The page
shows the standings as the log gives them, the rounds and tables with the watch links, the
names as text (one has markup in it), fits the width, and reloads itself while a board is
played; each board's hand record once every table has played it (the tiles as the table's
pictures, the double-dummy values the solver gives, each table's contract), the review
linked from it, and the ratings. ``MOONRULES_SCREENSHOTS=DIR`` keeps the screenshots (the
director's guide shows those of ``docs/guides/tournaments/``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from browser_support import WIDTHS, launched, needs_chromium
from table_support import Player, Server

from moonrules.analysis.advise import tricks_as_bidder
from moonrules.records.replay import from_record
from moonrules.rules.tiles import TILES
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.ratings import ratings
from moonrules.tournament.run import BoardJob, play_board, run_event
from moonrules.tournament.scoring import standings
from moonrules.tournament.store import open_store

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium("the event page")

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
    room = str(server.create("standard", {})["room"])
    with open_store(server.db) as store:
        store.create("spring", entries)
        store.add_room("spring", 2, 1, 4, room)
    return room


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from launched(playwright_api)


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
        state = store.state("spring")
    rows = standings(state).rows
    shown = page.locator("#standings-h ~ .scroll table tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [r.entry for r in rows]
    assert "7 of 8 boards played (88%)" in page.locator("main").inner_text()
    assert "Still playing: Ann Lee, Bob, Cy <i>the</i> Third" in page.inner_text("main")
    live = page.locator("a.live")
    assert live.count() == 1 and live.get_attribute("href") == f"/rooms/{event}"
    assert page.locator('meta[http-equiv="refresh"]').count() == 1
    # each board's traveller: every table's result side by side; its deal once all have played
    travellers = page.locator("details.traveller")
    assert travellers.count() == 4
    board1 = page.locator("details.traveller", has_text="Board 1: every table")
    assert board1.locator('a:text-is("record")').count() == 2
    assert board1.locator('a:text-is("review")').count() == 2
    check_hand_record(page, board1, state, 1, 1)
    board4 = page.locator("details.traveller", has_text="Board 4: every table")
    assert "The deal is shown once every table has played it" in board4.text_content()
    assert board4.locator("table.dd, a").count() == 0 and board4.locator("img").count() == 0
    check_ratings(page, server, state)
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


def check_hand_record(page: Any, traveller: Any, state: Any, rnd: int, board: int) -> None:
    """A board's hand record: each seat's tiles and the widow as the table's tile pictures,
    the contract each table played, and the double-dummy values: the solver's own for the
    deal, seat by seat and trump by trump, each seat's best in bold."""
    results = [r for r in state.results if (r.round, r.board) == (rnd, board)]
    game = from_record(dict(results[0].record))
    c = game.history[0].contract if game.history else game.hand.contract
    dealt = [[str(t) for t in TILES if m >> t.index & 1] for m in c.deal]
    shown = traveller.locator(".hands .tiles img").evaluate_all("(es) => es.map(e => e.alt)")
    widow = [] if c.widow is None else [str(TILES[c.widow])]
    assert sorted(shown) == sorted([t for h in dealt for t in h] + widow)
    for img in traveller.locator(".hands img").all()[:3]:  # the table's own tile pictures
        assert img.get_attribute("src") == f"/tiles/{img.get_attribute('alt')}.svg"
        assert img.evaluate("(e) => e.complete && e.naturalWidth > 0")
    deal = (*c.deal, -1 if c.widow is None else c.widow)
    want = [[tricks_as_bidder(state.rules, deal, s, t.value) for t in state.rules.trumps]
            for s in range(state.rules.players)]  # fmt: skip
    rows = traveller.locator("table.dd tbody tr")
    assert rows.count() == state.rules.players
    got = [[int(x) for x in r.locator("td").all_inner_texts()] for r in rows.all()]
    assert got == want
    bold = [[int(x) for x in r.locator("td.best").all_inner_texts()] for r in rows.all()]
    assert bold == [[max(w)] * w.count(max(w)) for w in want]
    text = traveller.inner_text()
    for r in results:
        h = from_record(dict(r.record)).history[0].contract
        if h.bidder is not None:
            assert f"{h.bid} by {r.players[h.bidder]} in " in text


def check_ratings(page: Any, server: Server, state: Any) -> None:
    """The ratings section: the log's ratings in order, provisional marks, bots marked,
    and its JSON export the same."""
    want = ratings(state)
    section = page.locator("section", has=page.locator("#ratings-h"))
    rows = section.locator("tbody tr")
    assert rows.count() == len(want.players)
    for row, r in zip(rows.all(), want.ranked(), strict=True):
        cells = row.locator("td").all_inner_texts()
        bot = "" if r.bot is None else f" bot ({r.bot})"
        assert cells[1] == r.name + bot and cells[2].startswith(str(r.elo))
        assert ("P" in cells[2]) == r.provisional and cells[3] == str(r.games)
    status, data, _ = server.request("GET", "/events/spring/ratings.json")
    assert status == 200 and data["ratings"] == want.to_json()["ratings"]
    assert data["event"] == "spring"


def test_a_boards_review_in_a_browser(server: Server, event: str, browser: Any) -> None:
    """The review link of a board's record: the table's review of that hand, as one page
    (its inline style and script allowed by their hashes, nothing else)."""
    page = browser.new_page(viewport={"width": 1366, "height": 850})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/events/spring")
    link = page.locator("#r1b1 a:text-is('review')").first
    link.click()
    page.wait_for_url("**/events/spring/reviews/1/1/1", timeout=60_000)
    assert page.title().startswith("Spring <cup> & friends: round 1, table 1, board 1")
    assert page.locator("h2", has_text="Players").count() == 1
    # the page's inline script runs (allowed by its hash): a step fills in the counter
    page.locator("#next").click()
    assert page.locator("#counter").inner_text().startswith("1 / ")
    assert errors == []
    status, _, _ = server.request("GET", "/events/spring/reviews/2/2/4")
    assert status == 409  # board 4 is being played at table 1
    for path in ("/events/spring/reviews/9/1/1", "/events/nope/reviews/1/1/1",
                 "/events/spring/reviews/2/1/4", "/events/spring/reviews/1/1/x"):  # fmt: skip
        status, _, _ = server.request("GET", path)
        assert status == 404
    page.close()


def test_a_board_rooms_end_in_a_browser(server: Server, browser: Any, tmp_path: Path) -> None:
    """A tournament's board at its end: the hand's points, no rematch offered."""
    body: dict[str, Any] = {"bots": {"1": "basic", "2": "basic"}, "hints": False}
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
