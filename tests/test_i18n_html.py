"""The HTML pages in the reader's language: ``check --html --lang`` and ``review --html --lang``.

Every example record's HTML report, and a review page, in each language: no sentence
without a catalog entry, and no English word left in the text a reader sees (tags,
styles and scripts stripped; names, tiles, numbers, clause IDs and the record's file
name allowed). The page's ``lang`` is the language's, and its font stack names a
Gurmukhi font. English is as it always was.
"""

from __future__ import annotations

import functools
import html
import re
import string
from pathlib import Path

import pytest

from moonrules.analysis.review import review
from moonrules.arbitration import Report, check, read_record, report_html
from moonrules.arbitration.review_html import review_html
from moonrules.cli.main import main
from moonrules.i18n import LANGUAGES, SOURCE_LANGUAGE, messages
from moonrules.i18n.report import PageWords

OTHER_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

_HIDDEN = re.compile(r"<style>.*?</style>|<script>.*?</script>", re.S)
_TAG = re.compile(r"<[^>]+>")
_CLAUSE = re.compile(r"\b[A-Z]+-\d+\b")
_WORD = re.compile(r"[^\W\d_]{2,}")
ALLOWED = {"moonrules", "json", "check"}
"""Words a page keeps in every language: the program and its option."""


NATIVE = {"hu": {"is", "be", "standard"}}
"""Words of a Latin-script language that are spelt as English ones: Hungarian "is" (also),
"be" (in), "standard" (a standard error: "standard hiba")."""


@functools.cache
def english() -> frozenset[str]:
    """The words of the English sentences a page is made of (their placeholders left out),
    lowercased: a page word among them is English left over."""
    found: set[str] = set()
    for message in messages.PAGE:
        for form in (message,) if isinstance(message, str) else message:
            for literal, _, _, _ in string.Formatter().parse(form):
                found.update(w.lower() for w in _WORD.findall(literal))
    return frozenset(found - ALLOWED)


@functools.cache
def reports() -> tuple[tuple[str, Report], ...]:
    found = []
    for path in sorted(EXAMPLES.iterdir()):
        if path.suffix not in (".json", ".moon") or path.name == "verdicts.json":
            continue
        found.append((path.name, check(read_record(path.read_text(encoding="utf-8")))))
    return tuple(found)


def visible_text(page: str) -> str:
    """What a reader sees of ``page`` (and what a screen reader reads: SVG titles too)."""
    return html.unescape(_TAG.sub(" ", _HIDDEN.sub(" ", page)))


def english_words(page: str, allowed: set[str]) -> set[str]:
    """The words of ``page``'s visible text that are words of its English sentences (the
    Latin-script languages, Azerbaijani and Hungarian, have words of their own)."""
    text = _CLAUSE.sub(" ", visible_text(page))
    return {w for w in _WORD.findall(text) if w.lower() in english() - allowed}


def names_of(name: str, report: Report) -> set[str]:
    """The words of a page that are names: the file's, the rules preset's, the players'."""
    words = {name, report.rules_label, *(report.replay.players or ())}
    return ALLOWED | {w.lower() for x in words if x for w in _WORD.findall(x)}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_example_html_report_has_no_english_left(lang: str) -> None:
    assert len(reports()) >= 8
    for name, report in reports():
        words = PageWords(lang, report)
        page = report_html(report, title=name, say=words, lang=lang)
        assert words.untranslated == [], (name, words.untranslated)
        left = english_words(page, names_of(name, report) | NATIVE.get(lang, set()))
        assert not left, (name, sorted(left))
        assert f'<html lang="{lang}">' in page
        assert '"Noto Sans Gurmukhi"' in page and '"Lohit Gurmukhi"' in page
        if report.ruling is not None:
            assert f"({report.ruling.rule})" in visible_text(page)


def test_the_english_page_is_what_the_check_finds_english() -> None:
    """The test's eye sees English where there is some: the English pages are full of it,
    and a sentence no catalog has is kept in English and counted."""
    name, report = reports()[0]
    english = report_html(report, title=name)
    assert len(english_words(english, names_of(name, report))) > 20
    assert '<html lang="en">' in english and "Gurmukhi" not in english
    words = PageWords("ru", report)
    assert words("No catalog has this sentence.") == "No catalog has this sentence."
    assert words.untranslated == ["No catalog has this sentence."]


def test_english_is_the_page_it_always_was() -> None:
    for name, report in reports():
        words = PageWords("en", report)
        assert report_html(report, title=name, say=words) == report_html(report, title=name)
        assert words.untranslated == []


@functools.cache
def reviewed() -> object:
    report = check(read_record((EXAMPLES / "claim-holds.moon").read_text(encoding="utf-8")))
    return review(report.state, samples=2, seed=0)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_review_page_has_no_english_left(lang: str) -> None:
    result = reviewed()
    words = PageWords(lang)
    page = review_html(result, title="claim-holds.moon", say=words, lang=lang)  # type: ignore[arg-type]
    assert words.untranslated == [], words.untranslated
    assert not english_words(page, ALLOWED | {"claim", "holds", "moon"} | NATIVE.get(lang, set()))
    assert f'<html lang="{lang}">' in page and '"Noto Sans Gurmukhi"' in page
    english = review_html(result)  # type: ignore[arg-type]
    assert english_words(english, ALLOWED)


def test_check_html_lang_writes_the_page_in_that_language(tmp_path: Path) -> None:
    record = str(EXAMPLES / "renege-trump-follows.json")
    for lang in ("pa", "en"):
        out = tmp_path / f"{lang}.html"
        assert main(["check", "--lang", lang, "--html", str(out), record]) == 1
        page = out.read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in page
        assert ("ਮੂਨ ਰਿਕਾਰਡ ਦੀ ਜਾਂਚ" in page) == (lang == "pa")
        assert ("Moon record check" in page) == (lang == "en")
