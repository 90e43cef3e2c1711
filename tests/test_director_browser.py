"""The director's console in a real browser: headless Chromium (Debian's ``chromium``, driven
by Playwright) at a desktop's 1366 x 850 and a phone's 390 x 844.

The director opens the console from its secret link, makes a score adjustment with the
form, sees a refused one (a board the round does not play) said in one line, and approves
the round; the page fits the width. ``MOONRULES_SCREENSHOTS=DIR`` keeps the screenshots (the
director's guide shows those of ``docs/guides/tournaments/``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from browser_support import WIDTHS, launched, needs_chromium
from table_support import Server

from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import fold
from moonrules.tournament.run import BoardJob, play_board, run_event
from moonrules.tournament.store import open_store

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium("the director's console")

MARKUP = "Cy <i>the</i> Third"

FILE = f"""\
name = "Spring <cup> & friends"
format = "three-seat"
seed = 21
rounds = 2
boards_per_round = 2
players = ["Ann Lee", "Bob", "{MARKUP}", {{name = "Basil", bot = "basic"}},
           {{name = "Rita", bot = "random"}}, {{name = "Bea", bot = "basic"}}]
forbidden = [["Ann Lee", "Basil"]]
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("director-browser") / "club.sqlite3")
    with s:
        yield s
    log = s.log()
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def _event(server: Server, event: str) -> str:
    """Round 1 played but the people's board 2 (to be adjusted); its director's secret."""
    t = parse_tournament(FILE)
    entries = [e for e in run_event(t).entries if e["type"] == "event" or e.get("round") == 1]
    state = fold(entries)
    for tb in state.seatings[0].tables:  # the people's boards played by bots for them
        for board in (1, 2):
            if state.result(1, tb.number, board) is None and ("Bob", board) not in [
                (e, 2) for e in tb.entries
            ]:
                names = state.seat_names(1, tb)
                job = BoardJob(t.rules, t.seed, 1, tb.number, board, ("basic",) * 3, names)
                entries.append(play_board(job))
    with open_store(server.db) as store:
        made = store.create(event, entries)
    assert made.director is not None
    return made.director


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from launched(playwright_api)


def _fits(page: Any, w: int) -> None:
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= w, scroll


@pytest.mark.parametrize("width", list(WIDTHS))
def test_an_adjustment_and_an_approval_in_a_browser(
    server: Server, browser: Any, width: str, tmp_path: Path
) -> None:
    event = f"spring-{width}"
    secret = _event(server, event)
    with open_store(server.db) as store:
        people = next(t for t in store.state(event).seatings[0].tables if "Bob" in t.entries)
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    shots = Path(os.environ.get("MOONRULES_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    base = f"{server.url}/events/{event}/director/{secret}"
    page.goto(base)
    assert page.title() == "Spring <cup> & friends — director's console"
    assert page.locator("main i").count() == 0  # names are text
    waiting = page.locator("#wait-h + ul").inner_text()
    assert f"table {people.number} board 2" in waiting and "no result yet" in waiting
    _fits(page, w)

    _refused_adjustment(server, page, event, shots if width == "phone" else None)

    # the adjustment, with the fields kept as they were filled in
    form = page.locator("details#adjustment[open] form")
    assert form.locator('input[name="reason"]').input_value() == "the table was moved"
    form.locator('input[name="board"]').fill("2")
    form.locator("button").click()
    page.wait_for_url("**?done=*")
    assert "Score adjustment: kept as entry" in page.locator(".notice.done").inner_text()
    assert "Bob: average-plus" in page.locator("#round-1").inner_text()
    waiting = page.locator("#wait-h + ul").inner_text()
    assert "waiting for approval" in waiting

    # the approval
    approve = page.locator("#round-1 form")
    approve.locator('input[name="reason"]').fill("results checked")
    approve.locator("button").click()
    page.wait_for_url("**?done=*approve")
    assert "Approve a round: kept as entry" in page.locator(".notice.done").inner_text()
    assert "approved" in page.locator("#round-1 h3").inner_text()
    assert page.locator("#round-1 button").inner_text() == "Re-open round 1"
    _fits(page, w)
    with open_store(server.db) as store:
        state = store.state(event)
        kinds = [json.loads(x).get("action") for x in store.lines(event)[-2:]]
    assert state.approved == {1} and kinds == ["adjustment", "approve"]
    assert [(a.entry, a.board, a.kind, a.reason) for a in state.adjustments] == [
        ("Bob", 2, "average-plus", "the table was moved")
    ]
    page.screenshot(path=str(shots / f"director-{width}.png"), full_page=True)
    # the refusal's own status is the only error the browser reports
    assert errors == [
        "Failed to load resource: the server responded with a status of 409 (Conflict)"
    ]
    page.close()


def _refused_adjustment(server: Server, page: Any, event: str, shots: Path | None) -> None:
    """A refused adjustment (a board the round does not play): one line, nothing written."""
    with open_store(server.db) as store:
        before = "".join(store.export(event))
    adjust = page.locator("details#adjustment")
    adjust.locator("summary").click()
    form = adjust.locator("form")
    form.locator('input[name="round"]').fill("1")
    form.locator('select[name="entry"]').select_option("Bob")
    form.locator('input[name="board"]').fill("7")
    form.locator('select[name="kind"]').select_option("average-plus")
    form.locator('input[name="reason"]').fill("the table was moved")
    form.locator("button").click()
    page.wait_for_load_state()
    notice = page.locator(".notice.refused")
    assert notice.inner_text() == "Refused: round 1 plays boards [1, 2], not board 7"
    with open_store(server.db) as store:
        assert "".join(store.export(event)) == before
    if shots is not None:
        page.screenshot(path=str(shots / "director-refused-phone.png"), full_page=False)
        adjusting = page.locator("details#adjustment")
        adjusting.scroll_into_view_if_needed()
        adjusting.screenshot(path=str(shots / "director-adjustment-phone.png"))
