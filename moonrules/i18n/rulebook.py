"""The rulebook in every language: ``spec/rules.md``'s clauses, with the same IDs.

The English rulebook stays normative. Its translations are gettext catalogs of their
own (domain ``rules``: ``locale/<lang>/LC_MESSAGES/rules.po``), one entry per heading,
clause title and paragraph, each with a context naming where it is (``FOLLOW-2 title``,
``FOLLOW-2 1``, the first paragraph of FOLLOW-2); the catalogs' check holds them to the
English text of ``spec/rules.md`` as it is now, so a clause changed in English shows as
a missing entry in every translation until it is translated again.

``docs/rules.<lang>.md`` are built from the catalogs (``python -m moonrules.i18n
rulebook``, a test checks they are up to date); :func:`clause_text` quotes a clause in a
language, for a ruling.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import attrs

from moonrules.i18n.catalogs import LANGUAGES, SOURCE_LANGUAGE, checked_language

RULES_DOMAIN: Final = "rules"
"""The rulebook's gettext domain."""

ROOT: Final = Path(__file__).resolve().parents[2]
SPEC: Final = ROOT / "spec" / "rules.md"
"""The normative rulebook (in a source checkout)."""

DOCS: Final = ROOT / "docs"

_HEADING: Final = re.compile(r"^### (?P<id>[A-Z]+-\d+) — (?P<title>.+)$")
_META: Final = re.compile(r"^(?P<label>Sources|Option|Illustrates): (?P<rest>.*)$")

LABELS: Final = ("Sources", "Option", "Illustrates")
"""The labels of a clause's reference lines: translated, what follows kept as it is."""

NOTE: Final = (
    "This is a translation of the rules of Moon, drafted and not yet reviewed by a speaker. "
    "The English rulebook (spec/rules.md) is normative: where the two differ, the English "
    "text decides. Clause IDs, numbers and tile names are the same in every language."
)
"""The note at the top of every translation."""

TITLE: Final = "Moon — the rules"
"""The title of a translated rulebook."""


@attrs.frozen(slots=True)
class Clause:
    """A clause: its ID, title, paragraphs and reference lines (label, rest)."""

    id: str
    title: str
    paragraphs: tuple[str, ...]
    meta: tuple[tuple[str, str], ...]


@attrs.frozen(slots=True)
class Section:
    """A section of the rulebook: its heading and its clauses."""

    heading: str
    clauses: tuple[Clause, ...]


def parse(text: str) -> tuple[Section, ...]:
    """The sections of the rulebook that hold clauses, in order (the introduction and the
    glossary, which hold none, are left to the English)."""
    sections: list[Section] = []
    heading: str | None = None
    clauses: list[Clause] = []
    current: list[str] = []

    def close_section() -> None:
        if heading is not None and clauses:
            sections.append(Section(heading, tuple(clauses)))

    def close_clause() -> None:
        if not current:
            return
        found = _HEADING.match(current[0])
        assert found is not None
        paragraphs: list[str] = []
        meta: list[tuple[str, str]] = []
        para: list[str] = []
        for line in current[1:]:
            m = _META.match(line)
            if m is not None:
                meta.append((m["label"], m["rest"]))
            elif not line.strip():
                if para:
                    paragraphs.append(" ".join(para))
                    para = []
            else:
                para.append(line.strip())
        if para:
            paragraphs.append(" ".join(para))
        clauses.append(Clause(found["id"], found["title"], tuple(paragraphs), tuple(meta)))
        current.clear()

    for line in text.splitlines():
        if line.startswith("## "):
            close_clause()
            close_section()
            heading, clauses = line[3:].strip(), []
        elif line.startswith("### "):
            close_clause()
            current.append(line)
        elif current:
            current.append(line)
    close_clause()
    close_section()
    return tuple(sections)


def entries(sections: tuple[Section, ...]) -> Iterator[tuple[str, str]]:
    """The catalog's entries, ``(context, English text)``, in the rulebook's order."""
    yield "title", TITLE
    yield "note", NOTE
    for label in LABELS:
        yield "label", label
    for section in sections:
        yield "section", section.heading
        for clause in section.clauses:
            yield f"{clause.id} title", clause.title
            for k, paragraph in enumerate(clause.paragraphs, 1):
                yield f"{clause.id} {k}", paragraph


def rule_messages() -> dict[tuple[str, str], bool]:
    """What a ``rules`` catalog must hold: the entries of ``spec/rules.md`` (or, outside a
    source checkout, of the English catalog), none a plural."""
    if SPEC.is_file():
        pairs = list(entries(parse(SPEC.read_text(encoding="utf-8"))))
    else:  # pragma: no cover - an installed package has no spec/
        pairs = list(_catalog(SOURCE_LANGUAGE))
    return dict.fromkeys(pairs, False)


@functools.cache
def _catalog(lang: str) -> dict[tuple[str, str], str]:
    """The ``rules`` catalog of ``lang``: ``(context, English) -> translation``, fuzzy and
    empty entries left out."""
    from importlib import resources

    from babel.messages.pofile import read_po

    path = resources.files("moonrules.i18n") / "locale" / lang / "LC_MESSAGES" / "rules.po"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        catalog = read_po(io.BytesIO(f.read()), locale=lang)
    out: dict[tuple[str, str], str] = {}
    for message in catalog:
        if message.id and not message.fuzzy and message.string and message.context:
            out[(str(message.context), str(message.id))] = str(message.string)
    return out


def _say(lang: str, context: str, english: str) -> str | None:
    return _catalog(lang).get((context, english))


def clause_text(rule: str, lang: str) -> str | None:
    """Clause ``rule`` of the rulebook in ``lang``, its paragraphs as one (``None`` for a
    clause the catalog has not, or not translated)."""
    lang = checked_language(lang)
    pattern = re.compile(rf"{re.escape(rule)} (\d+)")
    found = []
    for (context, _), text in _catalog(lang).items():
        m = pattern.fullmatch(context)
        if m is not None:
            found.append((int(m[1]), text))
    return " ".join(text for _, text in sorted(found)) or None


def clause_title(rule: str, lang: str) -> str | None:
    """The title of clause ``rule`` in ``lang`` (``None`` for a clause the catalog has not)."""
    context = f"{rule} title"
    for (c, _), text in _catalog(checked_language(lang)).items():
        if c == context:
            return text
    return None


def build(lang: str, spec_text: str) -> str:
    """The rulebook in ``lang``, as ``docs/rules.<lang>.md``: the note that English is
    normative, then every section and clause of ``spec_text`` with its ID, translated;
    :class:`KeyError` names an entry the catalog lacks."""
    lang = checked_language(lang)

    def say(context: str, english: str) -> str:
        text = _say(lang, context, english)
        if text is None:
            raise KeyError(f"{lang}/rules.po has no {context!r}: {english[:60]!r}")
        return text

    label = {name: say("label", name) for name in LABELS}
    out = [f"# {say('title', TITLE)}", "", f"> {say('note', NOTE)}", ""]
    for section in parse(spec_text):
        out += [f"## {say('section', section.heading)}", ""]
        for clause in section.clauses:
            title = say(f"{clause.id} title", clause.title)
            out.append(f"### {clause.id} — {title} {{ #{clause.id} }}")
            out.append("")
            for k, paragraph in enumerate(clause.paragraphs, 1):
                out += [say(f"{clause.id} {k}", paragraph), ""]
            for name, rest in clause.meta:
                shown = f"`{rest}`" if name == "Option" else rest
                out += [f"*{label[name]}:* {shown}", ""]
    return "\n".join(out).rstrip() + "\n"


def build_home(lang: str) -> str:
    """The docs site's home page in ``lang`` (``docs/index.<lang>.md``): the rulebook's
    title, the note that English is normative, and the way to the rulebook."""
    lang = checked_language(lang)
    title = _say(lang, "title", TITLE)
    note = _say(lang, "note", NOTE)
    if title is None or note is None:
        raise KeyError(f"{lang}/rules.po has no title or note")
    return f"# {title}\n\n> {note}\n\n[{title}](rules.md)\n"


def home_path(lang: str) -> Path:
    """Where the home page in ``lang`` is on the docs site."""
    return DOCS / f"index.{checked_language(lang)}.md"


def doc_path(lang: str) -> Path:
    """Where the rulebook in ``lang`` is on the docs site."""
    return DOCS / f"rules.{checked_language(lang)}.md"


def write_all(spec_text: str | None = None, *, check_only: bool = False) -> list[str]:
    """Build ``docs/rules.<lang>.md`` for every translated language from the catalogs
    (``check_only``: write nothing); the files that were, or would be, changed."""
    text = SPEC.read_text(encoding="utf-8") if spec_text is None else spec_text
    changed = []
    for lang in TRANSLATED:
        for path, built in (
            (doc_path(lang), build(lang, text)),
            (home_path(lang), build_home(lang)),
        ):
            if not path.is_file() or path.read_text(encoding="utf-8") != built:
                changed.append(str(path.relative_to(ROOT)))
                if not check_only:
                    path.write_text(built, encoding="utf-8")
    return changed


TRANSLATED: Final = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)
"""The languages the rulebook is translated into."""

__all__ = [
    "NOTE",
    "RULES_DOMAIN",
    "TRANSLATED",
    "Clause",
    "Section",
    "build",
    "build_home",
    "clause_text",
    "clause_title",
    "doc_path",
    "entries",
    "home_path",
    "parse",
    "rule_messages",
    "write_all",
]
