"""The director's console's forms without a server: whatever a form holds, the console
either refuses it in one line (a 4xx, nothing written) or makes the action's log entry, and
the log folds it or refuses it in one line; never another exception. The page escapes every
text the log gives it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moonrules.table.director import Console, action_entry, console_html
from moonrules.tournament.errors import TournamentError
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import fold
from moonrules.tournament.run import run_event
from moonrules.tournament.store import open_store

EVENT = """\
name = "Night <script>alert(1)</script>"
format = "three-seat"
seed = 2
rounds = 2
boards_per_round = 1
players = [{name = "A<b>", bot = "random"}, {name = "B&C", bot = "random"},
           {name = "C\\"D", bot = "random"}]
"""

KEYS = ["action", "round", "reason", "entry", "other", "board", "kind", "value", "offender",
        "name", "bot", "partner", "player", "sub_name", "sub_bot", "seq"]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(["approve", "reopen", "adjustment", "forbid", "late-entry", "withdrawal",
                     "substitute", "1", "2", "0", "-1", "1e999", "nan", "A<b>", "B&C", 'C"D',
                     "penalty", "60/40", "average-plus", "basic", "", " "]),
    st.text(max_size=12),
)  # fmt: skip


@pytest.fixture(scope="module")
def entries() -> list[dict[str, Any]]:
    return list(run_event(parse_tournament(EVENT)).entries)[:3]  # round 1 seated and played


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=9))
def test_any_form_is_an_entry_or_a_one_line_refusal(
    entries: list[dict[str, Any]], form: dict[str, str]
) -> None:
    state = fold(entries)
    try:
        entry = action_entry(state, {k: v.strip() for k, v in form.items()})
    except Exception as e:  # the console's refusal: a 4xx and one line
        assert type(e).__name__ == "_Refused"
        assert 400 <= e.status < 500 and "\n" not in e.reason  # type: ignore[attr-defined]
        return
    assert entry["type"] == "action" and entry["reason"]
    try:
        fold([*entries, entry])
    except TournamentError as e:
        assert "\n" not in str(e)


@pytest.fixture(scope="module")
def console(entries: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("forms") / "e.sqlite3"
    with open_store(db, synchronous="NORMAL") as store:
        secret = store.create("night", entries).director
    c = Console(db, synchronous="NORMAL")
    yield c, secret
    c.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=300))
def test_any_body_is_answered_and_a_refusal_writes_nothing(console: Any, body: bytes) -> None:
    c, secret = console
    before = list(c.store().lines("night"))
    page = c.act("night", secret, body, same_origin=True)
    after = list(c.store().lines("night"))
    if page.status == 303:
        assert len(after) == len(before) + 1 and after[: len(before)] == before
    else:
        assert 400 <= page.status < 500 and after == before
        assert 'class="notice refused"' in page.html


def test_the_page_escapes_every_text(entries: list[dict[str, Any]]) -> None:
    state = fold(entries)
    entry = action_entry(
        state,
        {"action": "forbid", "round": "2", "entry": "A<b>", "other": 'C"D',
         "reason": "<script>x</script> & more"},
    )  # fmt: skip
    log = [*entries, entry]
    page = console_html("night", "s3cr3t", fold(log), log, {}, refused="<img src=x>")
    for raw in ("<script>", "<b>", "<img", 'C"D'):
        assert raw not in page
    assert "A&lt;b&gt;" in page and "&lt;script&gt;x&lt;/script&gt; &amp; more" in page
    assert "&lt;img src=x&gt;" in page
