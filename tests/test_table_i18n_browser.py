"""The table page in the reader's language, in headless Chromium (issue 49).

* The page's own renderer (``static/i18n.js``) against Python's: its plural rule (the
  ``Plural-Forms`` expression, compiled by the page) gives the form gettext gives for every
  count, its lists are CLDR's (Babel's ``format_list``), and a refusal's clause reads as
  ``moonrules.i18n.render`` says it, in each language.
* Two seats of one room in Russian and in Hungarian: each is refused in its own language,
  and no text of one reaches the other; the switch is remembered; a browser language with
  no catalog gets English and a one-line notice.
* A whole game in the pseudo-locale ``en-XA`` at 390x844: on every turn, every text the
  page shows (and every label it gives a screen reader) carries the pseudo-locale's
  accents, but for tile names, numbers, clause IDs, the room's id and the player's name;
  and nothing scrolls sideways; the lobby, and the review of a hand at the table, likewise.
* Punjabi: the page names a font that has Gurmukhi and is installed. The screenshots of
  the page in Russian and in Punjabi at phone width (``docs/guides/table/``) are made with
  ``MOONRULES_SCREENSHOTS=docs/guides/table``.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import attrs
import pytest
from browser_support import PHONE, launched, needs_chromium
from table_support import Server

from moonrules import STANDARD
from moonrules.i18n import render
from moonrules.i18n import table_catalog as tc
from moonrules.i18n.catalogs import LANGUAGES
from moonrules.records.values import rules_json

pytest.importorskip("starlette")
pytest.importorskip("babel")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = needs_chromium("the table page in each language")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with Server(tmp_path_factory.mktemp("i18n") / "table.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from launched(playwright_api)


def ready(page: Any) -> None:
    page.wait_for_function("() => window.MoonI18n && document.getElementById('lang-switch')")


# -- the page's renderer is Python's ------------------------------------------------------

RENDER = """([lang, texts]) => fetch('/i18n/' + lang + '.json').then(r => r.json()).then(c => {
  const f = MoonI18n.compilePlural(c.plural.expr);
  const plurals = [];
  for (let n = 0; n <= 250; n++) plurals.push(f(n));
  let refused = 0;
  for (const bad of ['alert(1)', 'n; fetch()', 'constructor', 'n ? 1', '(n']) {
    try { MoonI18n.compilePlural(bad); } catch (e) { refused++; }
  }
  return {
    plurals: plurals, refused: refused,
    lists: [MoonI18n.list(['6-6', '5-5'], 'and'),
            MoonI18n.list(['6-6', '5-5', '4-4', '3-3'], 'and'),
            MoonI18n.list(['4', '5', '21'], 'or')],
    clauses: texts.map(t => MoonI18n.wire(t, s => 'seat ' + s,
                                         { withAllowed: true, libSeat: s => String(s) })),
  };
})"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_counts_lists_and_rules_as_python_does(
    server: Server, browser: Any, lang: str
) -> None:
    from babel.lists import format_list
    from test_i18n import refusals
    from test_i18n_refusals import preset_refusals

    from moonrules.rules.ruleset import PRESETS

    # every kind of refusal every preset's games raise, but a clause render names with the
    # rulebook's title (the page names it by its ID)
    found = [*refusals(), *(e for p in PRESETS for e in preset_refusals(p))]
    errors = [e for e in found if tc.clause_text(e)["key"] != "This action breaks rule {rule}."]
    assert len({e.rule for e in errors}) >= 14
    page = browser.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    ready(page)
    got = page.evaluate(RENDER, [lang, [tc.clause_text(e) for e in errors]])
    page.close()
    assert got["plurals"] == [tc.plural_index(lang, n) for n in range(251)]
    assert got["refused"] == 5  # no text but a plural expression is compiled
    assert got["lists"] == [
        format_list(["6-6", "5-5"], locale=lang),
        format_list(["6-6", "5-5", "4-4", "3-3"], locale=lang),
        format_list(["4", "5", "21"], style="or", locale=lang),
    ]
    assert got["clauses"] == [render(e, lang) for e in errors]


# -- each seat in its own language -----------------------------------------------------

CYRILLIC = re.compile("[\u0400-\u04ff]")
HUNGARIAN = re.compile("[őűáéíóúöü]", re.IGNORECASE)


def refuse_a_name(page: Any) -> str:
    page.wait_for_selector("#name-form:not([hidden])", timeout=30_000)
    page.fill("#name-input", "Seat 3")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#refusal:not([hidden])", timeout=30_000)
    return str(page.inner_text("#refusal"))


def test_two_seats_of_one_room_each_in_its_language(server: Server, browser: Any) -> None:
    room = server.create("standard", {"2": "basic"})
    ru = browser.new_context(locale="ru-RU", viewport=PHONE).new_page()
    hu = browser.new_context(locale="hu-HU").new_page()
    errors: list[str] = []
    for page in (ru, hu):
        page.on("pageerror", lambda e: errors.append(str(e)))
    ru.goto(room["seats"][0]["url"])  # the browser's language: no ?lang=
    hu.goto(room["seats"][1]["url"])
    said_ru, said_hu = refuse_a_name(ru), refuse_a_name(hu)
    assert said_ru.startswith("Нельзя: «Seat 3» читается как подпись"), said_ru
    assert said_hu.startswith("Nem szabályos: A(z) „Seat 3” úgy hangzik"), said_hu
    body_ru, body_hu = ru.inner_text("body"), hu.inner_text("body")
    assert not HUNGARIAN.search(body_ru.replace("Magyar", "")), body_ru
    assert not CYRILLIC.search(body_hu.replace("Беларуская", "").replace("Русский", "")), body_hu
    assert ru.evaluate("document.documentElement.lang") == "ru"
    assert hu.evaluate("document.documentElement.lang") == "hu"
    # the switch: chosen once, remembered by the browser, on every page of the table
    ru.select_option("#lang-switch", "be")
    ru.wait_for_function("() => document.documentElement.lang === 'be'")
    ready(ru)
    assert "Як гуляць" in ru.inner_text("body")
    again = ru.context.new_page()
    again.goto(server.url + "/")
    ready(again)
    assert again.evaluate("document.documentElement.lang") == "be"
    assert "Новы пакой" in again.inner_text("body")
    # a language without a catalog: English, and one line that says so
    de = browser.new_page(locale="de-DE")
    de.goto(room["seats"][0]["url"])
    ready(de)
    de.wait_for_selector(".lang-notice")
    assert de.inner_text(".lang-notice") == "No translation for “de-DE”: the page is in English."
    assert de.evaluate("document.documentElement.lang") == "en"
    assert errors == []
    for page in (ru, hu, again, de):
        page.close()


# -- the pseudo-locale: nothing left untranslated, nothing too wide ----------------------

UNTRANSLATED = """(words) => {
  const bad = [];
  const exempt = (s) => words.reduce((t, w) => t.split(w).join(''),
    s.replace(/[0-6]-[0-6]/g, '').replace(/\\b[A-Z]+-\\d+\\b/g, ''));
  const seen = (e) => e && e.checkVisibility({ visibilityProperty: true }) &&
    !e.closest('#lang-switch, [hidden]');
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode, e = n.parentElement;
    const text = n.nodeValue.trim();
    if (!text || !e || e.closest('script, style')) continue;
    const shown = seen(e) ||
      (e.closest('.visually-hidden, option') && !e.closest('[hidden], #lang-switch'));
    if (shown && /[A-Za-z]/.test(exempt(text))) bad.push(text);
  }
  for (const e of document.querySelectorAll('[aria-label], [title], img[alt]')) {
    if (!seen(e)) continue;
    for (const a of ['aria-label', 'title', 'alt']) {
      const v = e.getAttribute(a);
      if (v && /[A-Za-z]/.test(exempt(v))) bad.push(a + '=' + v);
    }
  }
  if (/[A-Za-z]/.test(exempt(document.title))) bad.push('title=' + document.title);
  const doc = document.documentElement;
  return { bad: bad, scroll: doc.scrollWidth, width: innerWidth };
}"""

NEXT = """() => !document.getElementById('game-over').hidden ||
  document.querySelector('#choices button.legal, #hand button.legal') !== null ||
  document.body.dataset.hold !== undefined"""


def look(page: Any, room: str, seen: list[str]) -> None:
    got = page.evaluate(UNTRANSLATED, [room, "Ann"])  # the room's id, the player's name
    assert got["bad"] == [], got["bad"]
    assert got["scroll"] <= got["width"], f"the page scrolls sideways: {got}"
    seen.append(page.inner_text("body"))


def play_a_game(
    page: Any, room: str, rng: random.Random, done: dict[str, int], seen: list[str]
) -> None:
    """The seat's page plays random legal moves to the game's end, looking at every text on
    every turn; once (in all the games) a refused tile and a hint."""
    for _ in range(400):
        page.wait_for_function(NEXT, timeout=60_000)
        look(page, room, seen)
        if not page.locator("#game-over").is_hidden():
            return
        if page.evaluate("() => document.body.dataset.hold") is not None:
            done["held"] += 1
            with contextlib.suppress(playwright_api.Error):
                page.click("#trick-area", timeout=5_000)
            continue
        wrong = page.locator("#hand button.not-legal")
        if not done["refused"] and wrong.count() and page.locator("#trick li").count():
            wrong.first.click()
            page.wait_for_selector("#refusal:not([hidden])", timeout=30_000)
            look(page, room, seen)
            assert "⟦Ýöû þļåýéð" in page.inner_text("#refusal"), page.inner_text("#refusal")
            done["refused"] = 1
            continue
        if not done["hint"] and page.locator("#choices button.legal").count():
            page.click("#hint")
            page.wait_for_function(
                "() => document.getElementById('hint-box').textContent.includes('ƀöţ')",
                timeout=60_000,
            )
            look(page, room, seen)
            done["hint"] = 1
        legal = page.locator("#choices button.legal, #hand button.legal")
        passing = page.locator("#choices button.legal[data-action='\"pass\"']")
        target = (
            passing
            if passing.count() and rng.random() < 0.8
            else legal.nth(rng.randrange(max(1, legal.count())))
        )
        before = page.evaluate(
            "() => document.body.dataset.seq + '/' + document.body.dataset.refusals"
        )
        try:
            target.click(timeout=5_000)
        except playwright_api.Error:
            continue
        page.wait_for_function(
            "b => document.body.dataset.seq + '/' + document.body.dataset.refusals !== b",
            arg=before,
            timeout=60_000,
        )
    raise AssertionError("the game does not end")


def test_a_whole_game_in_the_pseudo_locale_on_a_phone(server: Server, browser: Any) -> None:
    rules = rules_json(attrs.evolve(STANDARD, target=7))
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    rng = random.Random(49)
    done = {"refused": 0, "hint": 0, "held": 0}
    seen: list[str] = []
    # a short game can end before the seat had a tile to refuse or a call to ask a hint for
    for game in range(4):
        room = server.create(rules, {"1": "basic", "2": "basic"})
        page.goto(room["seats"][0]["url"].replace("#", "?lang=en-XA#"))
        if game == 0:
            page.wait_for_selector("#name-form:not([hidden])", timeout=30_000)
            look(page, room["room"], seen)
            page.fill("#name-input", "Ann")
            page.click("#name-form button[type=submit]")
        play_a_game(page, room["room"], rng, done, seen)
        if done["refused"] and done["hint"] and done["held"] >= 3:
            break
    assert not page.locator("#game-over").is_hidden(), "the game did not end"
    # the lobby too, but for the rules' preset names (identifiers, as records write them)
    page.goto(server.url + "/?lang=en-XA")
    page.wait_for_function("() => document.querySelectorAll('#rules option').length > 1")
    presets = page.evaluate(
        "() => Array.from(document.querySelectorAll('#rules option'), o => o.value)"
    )
    for choice in ("partnership", "standard"):
        page.select_option("#rules", choice)
        got = page.evaluate(UNTRANSLATED, [*sorted(presets, key=len, reverse=True), "pimc"])
        assert got["bad"] == [] and got["scroll"] <= got["width"], got
    assert done == {"refused": 1, "hint": 1, "held": done["held"]} and done["held"] >= 3, done
    assert errors == [], errors
    assert len(seen) > 10
    page.close()


def test_the_review_at_the_table_in_the_pseudo_locale(server: Server, browser: Any) -> None:
    """A spectator of bots opens the review of the last hand: every text of the dialog is
    translated, and it fits a phone."""
    rules = rules_json(attrs.evolve(STANDARD, target=7))
    room = server.create(rules, {"0": "basic", "1": "basic", "2": "basic"})
    page = browser.new_page(viewport=PHONE)
    page.goto(room["watch"] + "?lang=en-XA")
    page.wait_for_selector("#game-over:not([hidden])", timeout=120_000)
    page.click("#review-game")
    page.wait_for_function(
        "() => document.querySelector('#review-body .rv-summary')", timeout=120_000
    )
    got = page.evaluate(UNTRANSLATED, [room["room"]])
    assert got["bad"] == [] and got["scroll"] <= got["width"], got
    assert "⟦Ŕéṽîéŵ öƒ ĥåñð" in page.inner_text("#review-h")
    page.close()


# -- Gurmukhi, and the screenshots of the docs ----------------------------------------------


def gurmukhi_fonts() -> set[str]:
    fc = shutil.which("fc-list")
    if fc is None:
        pytest.skip("fontconfig's fc-list is not installed")
    out = subprocess.run([fc, ":lang=pa", "family"], capture_output=True, text=True, check=True)
    return {f.strip() for line in out.stdout.splitlines() for f in line.split(",") if f.strip()}


@pytest.mark.parametrize("lang", ["ru", "pa"])
def test_the_page_in_russian_and_punjabi_on_a_phone(
    server: Server, browser: Any, tmp_path: Path, lang: str
) -> None:
    keep = os.environ.get("MOONRULES_SCREENSHOTS")
    out = Path(keep) if keep else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    room = server.create("standard", {"1": "basic", "2": "basic"})
    page = browser.new_page(viewport=PHONE, locale=lang)
    page.goto(room["seats"][0]["url"])
    page.wait_for_selector("#name-form:not([hidden])", timeout=30_000)
    page.fill("#name-input", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_function(NEXT, timeout=60_000)
    assert page.evaluate("document.documentElement.lang") == lang
    body = page.inner_text("body")
    script = "[\u0400-\u04ff]" if lang == "ru" else "[\u0a00-\u0a7f]"
    assert len(re.findall(script, body)) > 200, body
    left = re.sub(
        r"[0-6]-[0-6]|Ann|English|Magyar|Azərbaycanca|CLAIM-1|Tab|Enter|Space|pimc", "", body
    )
    left = left.replace(room["room"], "")
    assert not re.search("[A-Za-z]{2,}", left), re.findall("[A-Za-z]{2,}", left)
    if lang == "pa":
        family = page.evaluate("getComputedStyle(document.body).fontFamily")
        named = {f.strip().strip('"') for f in family.split(",")}
        have = gurmukhi_fonts()
        assert named & have, (
            f"no font the page names for Punjabi ({family}) is installed with Gurmukhi "
            f"({sorted(have) or 'none'}): install Debian's fonts-lohit-guru or fonts-noto-core"
        )
    page.screenshot(path=str(out / f"table-{lang}-phone.png"))
    page.close()


# -- the pages the server writes: an event's, in the reader's language ----------------------

EVENT = """\
name = "Весенний кубок"
format = "three-seat"
rules = "standard"
seed = 21
scoring = "matchpoints"
rounds = 2
boards_per_round = 2
players = [{name = "Аня", bot = "basic"}, {name = "Bob", bot = "random"},
           {name = "Cy", bot = "basic"}, {name = "Dee", bot = "basic"},
           {name = "Eve", bot = "random"}, {name = "Fay", bot = "basic"}]

[[movement]]
tables = [["Аня", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]

[[movement]]
tables = [["Bob", "Cy", "Аня"], ["Eve", "Fay", "Dee"]]
"""


def test_the_event_page_in_the_readers_language_on_a_phone(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """The browser's language (Accept-Language) gives Russian; the cookie the room pages'
    switch sets beats it; a link of the page's own switch gives its language. The Russian
    page on a phone is a screenshot of the tournament guide (``docs/guides/tournaments``
    with ``MOONRULES_SCREENSHOTS``)."""
    from moonrules.tournament.event import parse_tournament
    from moonrules.tournament.run import run_event
    from moonrules.tournament.store import open_store

    with open_store(server.db) as store:
        store.create("vesna", list(run_event(parse_tournament(EVENT)).entries))
    context = browser.new_context(viewport=PHONE, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{server.url}/events/vesna")
    for _ in range(30):  # the hand records' double-dummy values are worked out on a first visit
        if page.locator(".dd.wait").count() == 0:
            break
        page.wait_for_timeout(500)
        page.reload()
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.title() == "Весенний кубок — турнирная таблица"
    main = page.inner_text("main")
    assert "сыграно 8 из 8 сдач (100%)" in main and "Как читать сдачи" in main
    left = re.sub(r"Bob|Cy|Dee|Eve|Fay|CSV|JSON|openskill|PlackettLuce|moonrules advise", "", main)
    assert not re.search("[A-Za-z]{2,}", left), re.findall("[A-Za-z]{2,}", left)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width  # no sideways scroll
    keep = os.environ.get("MOONRULES_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / "event-ru-phone.png"))
    # the page's own switch: a link in each language
    page.click('.lang-links a[lang="hu"]')
    assert page.evaluate("document.documentElement.lang") == "hu"
    assert "Állás" in page.inner_text("main")
    # the room pages' switch sets the cookie the server reads, which beats the browser's
    lobby = context.new_page()
    lobby.goto(f"{server.url}/")
    ready(lobby)
    lobby.select_option("#lang-switch", "be")
    lobby.wait_for_function("() => document.documentElement.lang === 'be'")
    assert {c["name"]: c["value"] for c in context.cookies()}.get("lang") == "be"
    page.goto(f"{server.url}/events/vesna")
    assert page.evaluate("document.documentElement.lang") == "be"
    context.close()
