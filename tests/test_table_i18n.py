"""The table's words (issue 49): the ``table`` gettext domain, the catalog the page gets
as JSON, and the refusals and notices the server sends as message ids and fields.

The catalogs are held to the sources: every message id the pages and the server use (read
from the JavaScript with Babel's extractor, from the HTML, from ``wire.py``) is in the
English source catalog and no other, and every language's catalog is complete, none of its
entries fuzzy or empty, each with the source's placeholders and CLDR's plural forms
(``moonrules.i18n.table_catalog.check``, which also runs as a build step:
``python -m moonrules.i18n.table_catalog``); a broken catalog is shown to fail the check.
The server's refusals carry no sentence in a language: each ``text`` is a message id of
the catalogs with its fields.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from table_words import message_ids

from moonrules import IllegalAction
from moonrules.i18n import table_catalog as tc
from moonrules.i18n.catalogs import LANGUAGES
from moonrules.table import wire

pytest.importorskip("babel")


def page_catalog(asked: str) -> Any:
    return tc.catalog_json(asked)


def server_text(code: str, message: str) -> Any:
    return wire.server_text(code, message)


def clause_text(error: IllegalAction) -> Any:
    return tc.clause_text(error)


def source_ids() -> set[Any]:
    catalog: Any = tc.read("en")
    return {m.id for m in catalog if m.id}


def test_the_catalogs_hold_exactly_the_sources_message_ids() -> None:
    ids = set(message_ids())
    have = source_ids()
    assert ids - have == set(), "not in table.po (en): " + repr(sorted(map(str, ids - have)))
    assert have - ids == set(), "in table.po (en), used nowhere: " + repr(
        sorted(map(str, have - ids))
    )
    assert len(ids) > 300


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_is_complete(lang: str) -> None:
    assert tc.check([lang]) == []


def test_the_check_runs_as_a_build_step() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "moonrules.i18n.table_catalog"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "complete" in out.stdout


def _broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, edit: object) -> list[str]:
    """The check's findings on ``lang``'s catalog edited by ``edit`` (in a copy)."""
    for code in ("en", lang):
        dest = tmp_path / code / "LC_MESSAGES"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(tc.po_path(code), dest / "table.po")
    path = tmp_path / lang / "LC_MESSAGES" / "table.po"
    with open(path, "rb") as f:
        catalog = read_po(f, locale=lang, domain="table")
    assert callable(edit)
    edit(catalog)
    with open(path, "wb") as f:
        write_po(f, catalog, width=0)
    monkeypatch.setattr(
        tc,
        "po_path",
        lambda code, domain="table": str(tmp_path / code / "LC_MESSAGES" / f"{domain}.po"),
    )
    return tc.check([lang])


def test_the_check_fails_on_a_missing_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _broken(tmp_path, monkeypatch, "ru", lambda c: c.delete("Sit down"))
    assert found == ["ru: 'Sit down': missing"]


def test_the_check_fails_on_a_fuzzy_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fuzzy(c: Catalog) -> None:
        c["Sit down"].flags.add("fuzzy")

    assert _broken(tmp_path, monkeypatch, "hu", fuzzy) == ["hu: 'Sit down': fuzzy"]


def test_the_check_fails_on_a_wrong_placeholder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def wrong(c: Catalog) -> None:
        c["Seat {n}"].string = "Место {num}"

    found = _broken(tmp_path, monkeypatch, "ru", wrong)
    assert found == ["ru: 'Seat {n}': has ['num'], the source ['n']"]


def test_the_check_fails_on_a_missing_plural_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def short(c: Catalog) -> None:
        m: Any = c["{count} trick"]
        m.string = tuple(m.string)[:2]

    found = _broken(tmp_path, monkeypatch, "be", short)
    assert found == ["be: '{count} trick': form 2 empty"]  # (Babel writes the form empty)


def test_the_check_fails_on_plural_forms_not_cldrs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def by_hand(c: Catalog) -> None:
        made_up: Any = c  # a rule made up by hand
        made_up._num_plurals, made_up._plural_expr = 2, "(n != 1)"

    found = _broken(tmp_path, monkeypatch, "ru", by_hand)
    assert found and found[0].startswith(
        "ru: Plural-Forms 'nplurals=2; plural=(n != 1);' is not CLDR's"
    )


def test_the_plural_rules_are_cldrs() -> None:
    forms = {
        lang: [tc.plural_index(lang, n) for n in (1, 2, 5, 11, 21, 22, 25, 0)] for lang in LANGUAGES
    }
    assert forms["ru"] == forms["be"] == [0, 1, 2, 2, 0, 1, 2, 2]
    assert forms["pa"] == [0, 1, 1, 1, 1, 1, 1, 0]
    assert forms["en"] == forms["hu"] == forms["az"] == [0, 1, 1, 1, 1, 1, 1, 1]
    ru_catalog: Any = tc.read("ru")  # the catalog JSON's expression is the .po header's
    assert page_catalog("ru")["plural"] == {
        "forms": 3,
        "expr": ru_catalog.plural_expr,
    }


# -- the catalog a page gets -----------------------------------------------------------


def test_a_page_gets_its_language_or_english_with_a_notice() -> None:
    ru = page_catalog("ru-RU")
    assert ru["lang"] == "ru" and ru["fallback"] is False
    domains = ru["domains"]
    assert isinstance(domains, dict)
    assert domains["table"]["Sit down"] == "Сесть"
    assert domains["table"]["{count} trick"] == [
        "{count} взятка",
        "{count} взятки",
        "{count} взяток",
    ]
    assert domains["moonrules"]["pass"] == "пас"
    xx = page_catalog("xx-YY")
    assert xx["lang"] == "en" and xx["fallback"] is True and xx["asked"] == "xx-YY"
    header = page_catalog("de-DE,de;q=0.9,hu;q=0.8,en;q=0.5")
    assert header["lang"] == "hu" and header["fallback"] is False
    assert page_catalog("<script>" * 20)["asked"] == ("<script>" * 20)[:40]


def test_the_pseudo_locale_accents_every_letter_and_keeps_placeholders() -> None:
    pseudo = page_catalog("en-XA")
    assert pseudo["lang"] == "en-XA"
    table = pseudo["domains"]["table"]
    for mid, text in table.items():
        forms = text if isinstance(text, list) else [text]
        for form in forms:
            assert form.startswith("⟦") and form.endswith("⟧"), form
            shown = re.sub(r"\{[a-z_]+\}", "", form)
            assert not re.search("[A-Za-z]", shown), (mid, form)
        longest = max(len(f) for f in forms)
        assert longest >= len(mid) * 1.3, (mid, forms)


# -- what the server sends -----------------------------------------------------------


def test_every_server_refusal_is_a_message_id_with_its_fields() -> None:
    ids = source_ids()
    for english, key in wire.SERVER_TEXTS:
        sample = re.sub(
            r"\{(_?[a-z]+)\}", lambda m: {"seats": "seat 1, seat 2"}.get(m.group(1), "7"), english
        )
        text = server_text("not-now", sample)
        assert text["key"] == key and key in ids, (english, text)
        assert set(tc.placeholders(key)) == set(text["args"]), (key, text)
    for code, key in wire.GENERIC_TEXTS.items():
        assert key in ids
        assert server_text(code, "a sentence nobody wrote")["key"] == key
    assert server_text(
        "not-started", "the game starts when every player has joined; waiting for seat 1, seat 2"
    )["args"] == {"seats": [1, 2]}


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 30, "a\u200eb", "ann", "\u0301a", "\u3164", "Seat 2", "strong bot", "You", 3],
)
def test_a_name_refused_is_told_without_english(name: object) -> None:
    try:
        checked = wire.check_name(name)
    except wire.FrameError as e:
        message = e.message
    else:
        why = wire.name_refusal(checked, ["Ann"], ["strong"])
        assert why is not None
        message = why
    text = wire.refused("bad-name", message, [])["text"]
    assert isinstance(text, dict)
    assert text["key"] in source_ids() and text["key"] != wire.GENERIC_TEXTS["bad-name"], message


def test_a_clause_is_sent_as_the_library_message_ids_with_its_fields() -> None:
    from test_i18n import refusals

    source: Any = tc.read("en", "moonrules")
    library = {m.id for m in source if m.id}
    for error in refusals():
        text = clause_text(error)
        key = text["key"]
        assert (tuple(key) if isinstance(key, list) else key) in library, error.rule
        assert text["rule"] == error.rule and text["domain"] == "moonrules"
        sent = wire.refused("illegal", error.message, [], error.rule, error.reason, text)
        assert sent["text"] is text and sent["message"] == error.message  # English stays


def test_a_claim_notice_is_message_ids_with_its_fields() -> None:
    import random

    from moonrules import Phase, apply, apply_claim, legal_actions, new_game

    ids = source_ids()
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(seed=seed)
        while state.phase is not Phase.PLAY or len(state.hand.tricks) < 5 + seed % 2:
            state = apply(state, rng.choice(legal_actions(state)))
        seat = state.to_act
        assert seat is not None
        if state.hand.trick:  # a claim is made before a trick is begun
            continue
        try:
            after = apply_claim(state, seat)
        except Exception:
            continue
        done = after.hand if after.is_over else after.history[-1]
        notice = wire.claim_notice(state, done)
        text = notice["text"]
        assert isinstance(text, dict)
        key = tuple(text["key"]) if isinstance(text["key"], list) else text["key"]
        assert key in ids
        assert set(text["args"]) >= {"seat", "tiles"}
        seen.add(key if isinstance(key, str) else key[0])
        if len(seen) == 2:
            return
    assert seen, "no claim held"
