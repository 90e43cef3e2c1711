"""The pages the server writes itself — an event's page and the director's console — in the
reader's language (issue 49).

Each is rendered in the pseudo-locale ``en-XA``: every text node and label outside the
names, numbers and tiles must carry the pseudo-locale's marks, so a sentence left in
English is found. In each of the five other languages no English text of the page is left.
The language is chosen as the room page's: ``?lang=``, the cookie ``lang`` the switch sets,
``Accept-Language``; one the table has not gives English and one line that says so. A
reason the director typed is shown as written.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from moonrules.i18n import table_catalog as tc
from moonrules.table import director, events
from moonrules.table.page_words import language_of
from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import EventState, fold
from moonrules.tournament.run import run_event

pytest.importorskip("babel")

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
FILE = """\
name = "Spring <cup>"
format = "three-seat"
rules = "standard"
seed = 21
scoring = "matchpoints"
rounds = 3
boards_per_round = 1
players = [{name = "Ann", bot = "basic"}, {name = "Bob", bot = "random"},
           {name = "Cy", bot = "basic"}, {name = "Dee", bot = "basic"},
           {name = "Eve", bot = "random"}, {name = "Fay", bot = "basic"}]

[[movement]]
tables = [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]

[[movement]]
tables = [["Bob", "Cy", "Ann"], ["Eve", "Fay", "Dee"]]

[[movement]]
tables = [["Cy", "Ann", "Bob"], ["Fay", "Dee", "Eve"]]
"""
REASON = "slow play"

# What a page shows as it is, in every language: names, the brand, file formats, the
# ratings' model and formula, a command, the languages' own names, the director's reason.
KEPT = {
    *NAMES,
    "Spring <cup>",
    "Moon",
    "CSV",
    "JSON",
    "moonrules advise",
    REASON,
    *tc.NAMES.values(),
}
KEPT_PATTERN = re.compile(
    r"^(?:[\d\s%.,:·+\-−×()&;#/]|mu|sigma|μ|σ|openskill|PlackettLuce|[0-6]-[0-6]|—)*$"  # noqa: RUF001
)


class _Texts(HTMLParser):
    """Every text node and label (title, aria-label, placeholder, alt) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for k, v in attrs:
            if k in ("title", "aria-label", "placeholder", "alt") and v:
                self.found.append(" ".join(v.split()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self.skip and text:
            self.found.append(text)


def texts(page: str) -> list[str]:
    p = _Texts()
    p.feed(page)
    return p.found


def kept(text: str) -> bool:
    """A text shown as it is in every language (a name, a number, a tile, a model)."""
    rest = text
    for word in sorted(KEPT, key=len, reverse=True):
        rest = rest.replace(word, " ")
    rest = re.sub(r"openskill \S+ PlackettLuce", " ", rest)
    return bool(KEPT_PATTERN.fullmatch(rest.strip()))


@pytest.fixture(scope="module")
def log() -> list[dict[str, Any]]:
    entries = list(run_event(parse_tournament(FILE)).entries)
    entries.append(
        {
            "type": "action",
            "action": "adjustment",
            "round": 1,
            "entry": "Ann",
            "board": 1,
            "kind": "penalty",
            "value": 1,
            "reason": REASON,
        }
    )
    entries.append({"type": "action", "action": "approve", "round": 1, "reason": REASON})
    return entries


@pytest.fixture(scope="module")
def state(log: list[dict[str, Any]]) -> EventState:
    s = fold(log)
    for rules, deal in events.double_dummy_missing(s):  # the hand records' tables too
        events.remember_double_dummy(rules, deal, events.double_dummy(rules, deal))
    return s


def event_page(state: EventState, lang: str, asked: str = "") -> str:
    return events.event_html("spring", state, {}, lang, asked)


def console_pages(state: EventState, log: list[dict[str, Any]], lang: str) -> list[str]:
    """The console as it is drawn, after an action kept, and with a refusal of its own."""
    refused = director._Refused(400, "{what}: a number, not {value}", what="value", value="'x'")
    return [
        director.console_html("spring", "s3cr3t", state, log, {}, lang=lang),
        director.console_html(
            "spring", "s3cr3t", state, log, {}, done=f"{len(log) - 1}:adjustment", lang=lang
        ),
        director.console_html(
            "spring", "s3cr3t", state, log, {}, refused=refused, lang=lang, form={}
        ),
        director._not_found(lang),
        director.too_large_html(lang),
        director.unavailable_html(lang),
        events.no_event_html(lang),
    ]


def pages(state: EventState, log: list[dict[str, Any]], lang: str) -> list[str]:
    return [event_page(state, lang), *console_pages(state, log, lang)]


def test_the_pages_in_the_pseudo_locale_leave_no_text_untranslated(
    state: EventState, log: list[dict[str, Any]]
) -> None:
    marks = set(tc.PSEUDO_LETTERS)
    for page in pages(state, log, tc.PSEUDO):
        assert '<html lang="en">' in page
        left = [t for t in texts(page) if not kept(t) and not marks & set(t)]
        assert left == [], left
    # the parts the test relies on are there: a hand record, the ratings, a refusal, a notice
    page = event_page(state, tc.PSEUDO)
    assert 'class="dd"' in page and "ratings" in page and REASON in page
    refused = console_pages(state, log, tc.PSEUDO)[2]
    assert 'class="notice refused"' in refused and "&#x27;x&#x27;" in refused


@pytest.mark.parametrize("lang", [x for x in tc.TABLE_LANGUAGES if x != "en"])
def test_each_language_leaves_no_english_sentence(
    state: EventState, log: list[dict[str, Any]], lang: str
) -> None:
    # a word the language writes as English does ("bot", "Partner" in Hungarian) is its own
    same = {v for v in tc._entries(tc.read(lang)).values() if isinstance(v, str)}
    for english, page in zip(pages(state, log, "en"), pages(state, log, lang), strict=True):
        assert f'<html lang="{lang}">' in page
        left = (set(texts(english)) & set(texts(page))) - {t for t in texts(page) if kept(t)}
        assert left - same == set(), (lang, sorted(left))


def test_english_stays_as_it_was(state: EventState) -> None:
    page = event_page(state, "en")
    assert '<html lang="en">' in page
    assert "6 of 6 boards played (100%)" in page and "Reading the boards" in page
    assert "lang-notice" not in page


def test_an_unknown_language_is_english_with_one_line(state: EventState) -> None:
    lang, asked = language_of("xx-YY", None, None)
    page = event_page(state, lang, asked)
    assert lang == "en" and page.count('class="lang-notice"') == 1
    assert "This page is not available in “xx-YY”; it is shown in English." in page
    assert "<script" not in event_page(state, "en", "<script>")


def test_the_language_is_chosen_as_the_room_pages() -> None:
    assert language_of("ru", "hu", "be") == ("ru", "")  # ?lang= first
    assert language_of(None, "hu", "be") == ("hu", "")  # then the switch's cookie
    assert language_of(None, None, "de-DE,pa;q=0.8") == ("pa", "")  # then the browser's
    assert language_of(None, None, "en-GB,en;q=0.9") == ("en", "")  # English asked: no notice
    assert language_of(None, None, "de-DE") == ("en", "de-DE")
    assert language_of(None, None, None) == ("en", "")
    assert language_of(None, "en-XA", None) == ("en-XA", "")


def test_plurals_are_cldrs_on_the_page(state: EventState) -> None:
    page = event_page(state, "ru")
    assert "3 тура по 1 сдача" in page  # 3 → "тура", 1 → "сдача"
    assert re.search(r"учтен[аоы] \d+ игр", page)


def test_the_switch_sets_the_cookie_the_server_reads() -> None:
    from pathlib import Path

    js = (Path(events.__file__).parent / "static" / "i18n.js").read_text(encoding="utf-8")
    assert 'document.cookie = "lang="' in js


def test_a_clause_without_a_sentence_is_named_with_its_title_in_the_page_catalog() -> None:
    """The page names such a clause as render does: its title from the rulebook's catalog."""
    from moonrules.i18n.rulebook import clause_title

    for lang in tc.TABLE_LANGUAGES:
        titles = tc.catalog_json(lang)["titles"]
        assert isinstance(titles, dict) and len(titles) > 20
        assert all(titles[rule] == clause_title(rule, lang) for rule in titles)
        other_titled = "This action breaks rule {rule}: {title}."
        domains: Any = tc.catalog_json(lang)["domains"]
        assert other_titled in domains["moonrules"]
    assert tc.catalog_json("ru")["titles"] != tc.catalog_json("en")["titles"]
