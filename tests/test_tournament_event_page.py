"""The event page's hand records without a server: a partnership (Howell) event of bots.

Each board's traveller names each side by its two players with the side's points; the hand
record gives the four seats' tiles and the double-dummy values the solver gives each seat's
side as bidder under each trump; a board is shown only once every table has played it.
"""

from __future__ import annotations

import re

import pytest

from moonrules.analysis.advise import tricks_as_bidder
from moonrules.records.replay import from_record
from moonrules.table import events
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import EventState, fold
from moonrules.tournament.run import run_event

FILE = """\
name = "Pairs <night>"
format = "howell"
rules = "partnership"
seed = 3
scoring = "matchpoints"
rounds = 3
boards_per_round = 1
players = [{name = "A1", bot = "random"}, {name = "A2", bot = "random"},
           {name = "B1", bot = "basic"}, {name = "B2", bot = "basic"},
           {name = "C1", bot = "random"}, {name = "C2", bot = "basic"},
           {name = "D1", bot = "basic"}, {name = "D2", bot = "random"}]
pairs = [["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]]
"""


@pytest.fixture(scope="module")
def state() -> EventState:
    return fold(run_event(parse_tournament(FILE)).entries)


def test_a_partnership_boards_traveller_and_hand_record(state: EventState) -> None:
    missing = events.double_dummy_missing(state)
    assert len(missing) == 3  # each board, played at both tables
    html = events.event_html("pairs", state, {})
    assert html.count("being worked out") == 3  # not worked out yet: said, nothing made up
    rules, deal = missing[0]  # board 1's (a partnership deal takes seconds: one is enough)
    events.remember_double_dummy(rules, deal, events.double_dummy(rules, deal))
    assert events.double_dummy_missing(state) == missing[1:]
    data = events.event_json("pairs", state, {})
    html = events.event_html("pairs", state, {})
    assert html.count("being worked out") == 2 and "Pairs &lt;night&gt;" in html
    (t,) = data["rounds"][0]["travellers"]
    first = state.result(1, 1, 1)
    assert first is not None
    c = from_record(dict(first.record)).history[0].contract
    assert deal == (*c.deal, -1 if c.widow is None else c.widow)
    tricks = t["double_dummy"]["tricks"]
    assert len(tricks) == 4 and all(len(row) == len(state.rules.trumps) for row in tricks)
    for seat, k in [(0, 0), (1, 7), (2, 8), (3, 4)]:  # the solver's own, seat and trump
        assert tricks[seat][k] == tricks_as_bidder(rules, deal, seat, state.rules.trumps[k].value)
    assert len(t["deal"]["hands"]) == 4 and all(len(h) == 7 for h in t["deal"]["hands"])
    for rnd in data["rounds"]:
        for r in rnd["travellers"][0]["results"]:
            a, b = r["players"][0::2], r["players"][1::2]
            shown = f"{' &amp; '.join(a)} <b>{events._points(r['points'][0])}</b>"
            assert shown in html, shown  # a side: its two players and its points
            assert f"{' &amp; '.join(b)} <b>{events._points(r['points'][1])}</b>" in html
    section = html[html.index('id="r1b1"') :]
    section = section[: section.index("</details>")]
    assert len(re.findall(r'<tr><th scope="row">Seat \d</th>', section)) == 4
    assert len(re.findall(r"<img ", section)) == 28  # four hands, no widow


def test_a_board_not_played_everywhere_shows_no_deal(state: EventState) -> None:
    entries = run_event(parse_tournament(FILE)).entries
    last = next(k for k, e in enumerate(entries) if e["type"] == "result")
    partial = fold([e for k, e in enumerate(entries) if k != last])  # one table's board 1 out
    data = events.event_json("pairs", partial, {})
    (t,) = data["rounds"][0]["travellers"]
    assert not t["complete"] and t["deal"] is None and t["double_dummy"] is None
    assert all(r["record"] is None and r["review"] is None for r in t["results"])
    html = events.event_html("pairs", partial, {})
    section = html[html.index('id="r1b1"') :]
    section = section[: section.index("</details>")]
    assert "<img " not in section and "record</a>" not in section
