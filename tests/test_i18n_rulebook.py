"""The rulebook in every language (issue 49): ``spec/rules.md``'s clauses with the same IDs,
translated through the ``rules`` catalogs, built into ``docs/rules.<lang>.md``, on the docs
site behind a language switch, and quoted in each ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

from moonrules.i18n import LANGUAGES, SOURCE_LANGUAGE
from moonrules.i18n.check import check_all, notation
from moonrules.i18n.report import quote_line
from moonrules.i18n.rulebook import (
    NOTE,
    SPEC,
    TRANSLATED,
    clause_text,
    doc_path,
    entries,
    home_path,
    parse,
    write_all,
)

ROOT = Path(__file__).resolve().parents[1]
_CLAUSE = re.compile(r"^### ([A-Z]+-\d+) ", re.MULTILINE)


def _spec_ids() -> list[str]:
    return _CLAUSE.findall(SPEC.read_text(encoding="utf-8"))


def test_the_translations_are_the_other_languages() -> None:
    assert set(TRANSLATED) | {SOURCE_LANGUAGE} == set(LANGUAGES)
    assert len(TRANSLATED) == 5


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_translation_has_exactly_the_clauses_of_the_rulebook_in_order(lang: str) -> None:
    ids = _spec_ids()
    assert len(ids) > 50
    text = doc_path(lang).read_text(encoding="utf-8")
    assert _CLAUSE.findall(text) == ids
    for clause in ids:  # each clause's anchor is its ID, as on the English page
        assert f"{{ #{clause} }}" in text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_translation_says_english_is_normative_at_the_top(lang: str) -> None:
    lines = doc_path(lang).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ") and lines[2].startswith("> ")
    assert "spec/rules.md" in lines[2] and NOTE not in lines[2]
    assert lines[2][2:] in home_path(lang).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_translation_keeps_the_notation_and_is_not_english(lang: str) -> None:
    """Every paragraph keeps the clause IDs, tiles, numbers and code of the English, and
    none is the English left as it was."""
    text = doc_path(lang).read_text(encoding="utf-8")
    for context, english in entries(parse(SPEC.read_text(encoding="utf-8"))):
        if context == "label" or not context[-1].isdigit():
            continue
        clause = context.rsplit(" ", 1)[0]
        said = clause_text(clause, lang)
        assert said is not None, (lang, clause)
        assert english not in text, (lang, context)
    for clause in _spec_ids():
        source = clause_text(clause, SOURCE_LANGUAGE)
        translated = clause_text(clause, lang)
        assert source is not None and translated is not None
        assert notation(translated) == notation(source), (lang, clause)


def test_the_translated_rulebooks_are_built_from_the_catalogs() -> None:
    """``docs/rules.<lang>.md`` are what ``python -m moonrules.i18n rulebook`` writes from
    the catalogs now; a changed paragraph in English leaves every translation's catalog
    lacking it (the catalogs' check fails) until it is translated."""
    assert write_all(check_only=True) == []
    assert check_all() == []
    spec = SPEC.read_text(encoding="utf-8")
    changed = spec.replace("each player must play a trump if they hold one", "each must trump")
    assert changed != spec
    with pytest.raises(KeyError, match="FOLLOW-1 1"):
        write_all(changed, check_only=True)


def test_the_docs_site_switches_between_the_six_languages() -> None:
    """mkdocs.yml: the i18n plugin, English the default (the whole site), each other
    language its home page and rulebook."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!!", ""))
    plugins = {next(iter(p)) if isinstance(p, dict) else p: p for p in config["plugins"]}
    i18n = plugins["i18n"]["i18n"]
    assert i18n["docs_structure"] == "suffix"
    languages = {entry["locale"]: entry for entry in i18n["languages"]}
    assert set(languages) == set(LANGUAGES)
    assert languages[SOURCE_LANGUAGE].get("default") is True
    for lang in TRANSLATED:
        nav = languages[lang]["nav"]
        pages = [p if isinstance(p, str) else next(iter(p.values())) for p in nav]
        assert pages == ["index.md", "rules.md"], (lang, nav)
        assert doc_path(lang).is_file() and home_path(lang).is_file()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_clause_can_be_quoted_in_every_language(lang: str) -> None:
    for clause in _spec_ids():
        line = quote_line(clause, lang)
        assert line is not None and clause in line, (lang, clause)
    assert quote_line("NO-1", lang) is None


def test_a_broken_rulebook_catalog_fails_the_check(tmp_path: Path) -> None:
    """A tile changed in a translated paragraph, or a paragraph left untranslated, is a
    problem the catalogs' check names."""
    from moonrules.i18n.check import LOCALE_DIR

    target = tmp_path / "locale"
    for path in LOCALE_DIR.glob("*/LC_MESSAGES/*.po"):
        dest = target / path.relative_to(LOCALE_DIR)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(path.read_bytes())
    ru = target / "ru" / "LC_MESSAGES" / "rules.po"
    text = ru.read_text(encoding="utf-8")
    ru.write_text(text.replace("(6-4 — старшая", "(6-5 — старшая", 1), encoding="utf-8")
    hu = target / "hu" / "LC_MESSAGES" / "rules.po"
    text = hu.read_text(encoding="utf-8")
    start = text.index('msgctxt "BID-5 1"')
    end = text.index("\n\n", start)
    entry = text[start:end]
    blanked = entry[: entry.index("msgstr ")] + 'msgstr ""'
    hu.write_text(text.replace(entry, blanked), encoding="utf-8")
    problems = check_all(target)
    assert any(p.startswith("ru/rules.po") and "notation differs" in p for p in problems)
    assert any(p.startswith("hu/rules.po") and "BID-5 1" in p for p in problems), problems


def test_the_translators_guide_says_where_things_are_and_the_state_of_each_language() -> None:
    guide = (ROOT / "docs" / "i18n" / "translators.md").read_text(encoding="utf-8")
    for needed in (
        "python -m moonrules.i18n check",
        "python -m moonrules.i18n rulebook",
        "docs/i18n/glossary.md",
        "## Adding a language",
        "not yet reviewed by a speaker",
    ):
        assert needed in guide, needed
    rows = {
        lang: next(
            line for line in guide.splitlines() if line.startswith("| ") and f"(`{lang}`)" in line
        )
        for lang in TRANSLATED
    }
    for lang, row in rows.items():  # honest: drafted, and not reviewed, until a speaker has
        assert "drafted" in row and row.rstrip(" |").endswith("no"), (lang, row)
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "i18n/translators.md" in nav and "i18n/glossary.md" in nav


_GLOSSARY_ROW = re.compile(
    r"^\| (?P<english>[a-z /()]+?) \| \*\*(?P<chosen>[^*]+)\*\*", re.MULTILINE
)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_use_the_glossarys_words(lang: str) -> None:
    """The word the glossary chose for each of the game's main words is the one both
    catalogs of the language use (the rulings and the rulebook)."""
    from moonrules.i18n.check import LOCALE_DIR

    glossary = (ROOT / "docs" / "i18n" / "glossary.md").read_text(encoding="utf-8")
    section = glossary.split(f"(`{lang}`")[1].split("\n## ")[0]
    chosen = {m["english"]: m["chosen"] for m in _GLOSSARY_ROW.finditer(section)}
    assert {"trump", "trick", "suit", "tile", "double", "seat"} <= set(chosen), chosen
    for domain in ("moonrules", "rules"):
        text = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
        msgstrs = " ".join(line for line in text.splitlines() if line.startswith("msgstr")).lower()
        for english in ("trump", "trick", "suit", "tile", "double", "seat", "widow"):
            if english not in chosen:
                continue
            word = chosen[english].split(",")[0].strip().lower()
            stem = word if lang == "pa" else word[: max(3, len(word) - 2)]
            assert stem in msgstrs, (lang, domain, english, word)
