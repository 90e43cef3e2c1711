"""The catalogs' check, as a build runs it: ``python -m moonrules.i18n check``.

Every catalog of every language under ``locale/`` is held to its source: exactly the
message ids the code uses (none missing, none left over), each translated (no empty
string, no fuzzy entry, no fuzzy header), each form with the ``{name}`` placeholders of
its id, a plural entry with as many forms as the language has, and the language's
``Plural-Forms`` those of CLDR (as Babel gives them). A problem is a line naming the
file, the message and what is wrong; the command exits 1 on any, 0 when there is none.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from moonrules.i18n.catalogs import DOMAIN, LANGUAGES
from moonrules.i18n.rulebook import RULES_DOMAIN

if TYPE_CHECKING:
    from babel.messages.catalog import Message

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
"""The catalogs shipped in the package."""


Key = tuple[str | None, str]
"""A catalog entry: its context (``None`` for none) and its id (a plural's singular)."""


def expected_ids(domain: str = DOMAIN) -> dict[Key, bool]:
    """The entries a catalog of ``domain`` must hold, each with whether it is a plural."""
    if domain == DOMAIN:
        from moonrules.i18n.messages import MESSAGES

        return {(None, m if isinstance(m, str) else m[0]): not isinstance(m, str) for m in MESSAGES}
    if domain == RULES_DOMAIN:
        from moonrules.i18n.rulebook import rule_messages

        return {(context, text): plural for (context, text), plural in rule_messages().items()}
    raise ValueError(f"domain: no source for {domain!r}")


def fields(text: str) -> tuple[str, ...] | None:
    """The ``{name}`` placeholders of ``text``, sorted (``None`` if it is malformed)."""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return None
    return tuple(sorted(names))


_NOTATION: Final = re.compile(r"`[^`]+`|[A-Z]+-\d+|\d+-\d+|\d+")


def notation(text: str) -> set[str]:
    """What a translation of the rulebook keeps as it is: clause IDs, tiles, numbers and
    ``code``.

    >>> sorted(notation("the 6-4 wins (TRICK-2); `renege = stop`, 7 tricks"))
    ['6-4', '7', 'TRICK-2', '`renege = stop`']
    """
    return set(_NOTATION.findall(text))


def _forms(value: object) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        return tuple("" if v is None else str(v) for v in value)
    return ("" if value is None else str(value),)


def cldr_plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header CLDR gives ``lang`` (through Babel)."""
    from babel.messages.plurals import get_plural

    return get_plural(lang).plural_forms


def _short(key: str) -> str:
    return key if len(key) <= 60 else key[:57] + "..."


def _check_message(
    where: str, lang: str, nplurals: int, message: Message, wanted: dict[Key, bool]
) -> Iterator[str]:
    """The problems of one entry: not of the source, fuzzy, untranslated, plural forms
    missing, placeholders not the source's."""
    ids = _forms(message.id)
    key: Key = (None if message.context is None else str(message.context), ids[0])
    shown = _short(ids[0]) if key[0] is None else f"{key[0]}: {_short(ids[0])}"
    if key not in wanted:
        yield f"{where}: {shown!r}: not a message of the source (obsolete?)"
        return
    if wanted[key] != (len(ids) > 1):
        yield f"{where}: {shown!r}: plural in one and not in the other"
        return
    if message.fuzzy:
        yield f"{where}: {shown!r}: fuzzy"
    forms = _forms(message.string)
    if len(ids) > 1 and len(forms) != nplurals:
        yield f"{where}: {shown!r}: {len(forms)} plural forms, {lang} has {nplurals}"
    empty = [k for k, f in enumerate(forms) if not f.strip()]
    if len(ids) > 1 and empty and len(empty) < len(forms):
        yield f"{where}: {shown!r}: plural forms {empty} empty ({lang} has {nplurals})"
        return
    if empty:
        yield f"{where}: {shown!r}: not translated"
        return
    if key[0] is not None:  # the rulebook: no placeholders, the notation kept as it is
        for form in forms:
            lost = notation(ids[0]) - notation(form)
            added = notation(form) - notation(ids[0])
            if lost or added:
                yield (
                    f"{where}: {shown!r}: the notation differs from the English "
                    f"(missing {sorted(lost)}, added {sorted(added)})"
                )
        return
    source = fields(ids[0])
    if source is None or any(fields(i) != source for i in ids):
        yield f"{where}: {shown!r}: the id's placeholders are malformed or differ"
        return
    for form in forms:
        got = fields(form)
        if got != source:
            yield (
                f"{where}: {shown!r}: placeholders {list(got or ['<malformed>'])} "
                f"differ from the source's {list(source)}"
            )


def check_catalog(path: Path, lang: str, wanted: dict[Key, bool]) -> Iterator[str]:
    """The problems of one ``.po`` file of ``lang`` whose ids must be ``wanted``."""
    from babel.messages.pofile import read_po

    where = f"{path.parent.parent.name}/{path.name}"
    try:
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang)
    except Exception as e:  # a file Babel cannot read is a problem to report, not a crash
        yield f"{where}: unreadable catalog: {type(e).__name__}: {e}"
        return
    if catalog.fuzzy:
        yield f"{where}: the header is fuzzy"
    header = dict(catalog.mime_headers).get("Plural-Forms", "")
    cldr = cldr_plural_forms(lang)
    if header.replace(" ", "") != cldr.replace(" ", ""):
        yield f"{where}: Plural-Forms is {header!r}, CLDR's is {cldr!r}"
    seen: set[Key] = set()
    for message in catalog:
        if message.id:
            context = None if message.context is None else str(message.context)
            seen.add((context, _forms(message.id)[0]))
            yield from _check_message(where, lang, catalog.num_plurals, message, wanted)
    for message in catalog.obsolete.values():
        yield f"{where}: {_forms(message.id)[0][:60]!r}: obsolete entry left in"
    for context, text in wanted:
        if (context, text) not in seen:
            shown = _short(text) if context is None else f"{context}: {_short(text)}"
            yield f"{where}: {shown!r}: missing"


def domains(locale_dir: Path) -> list[str]:
    """The catalogs' domains found in ``locale_dir`` that have a source here (the web
    table's ``table`` domain is another's, checked by its own test)."""
    found = {p.stem for p in locale_dir.glob("*/LC_MESSAGES/*.po")}
    return sorted(d for d in found if d in (DOMAIN, RULES_DOMAIN))


def check_all(locale_dir: Path = LOCALE_DIR, languages: Iterable[str] = LANGUAGES) -> list[str]:
    """Every problem of every catalog in ``locale_dir``: none for a catalog set to ship."""
    problems: list[str] = []
    langs = tuple(languages)
    for domain in domains(locale_dir):
        for path in sorted(locale_dir.glob(f"*/LC_MESSAGES/{domain}.po")):
            if path.parent.parent.name not in langs:
                problems.append(
                    f"{path.parent.parent.name}/{domain}.po: not a language of LANGUAGES"
                )
        wanted = expected_ids(domain)
        for lang in langs:
            path = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.is_file():
                problems.append(f"{lang}/{domain}.po: missing catalog")
                continue
            problems.extend(check_catalog(path, lang, wanted))
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m moonrules.i18n check [LOCALE_DIR]``: the problems, one a line; exit 1 on
    any. ``python -m moonrules.i18n rulebook [--check]``: build ``docs/rules.<lang>.md``
    from the catalogs (with ``--check``, exit 1 if one is out of date)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["rulebook"] and len(args) <= 2 and args[1:] in ([], ["--check"]):
        from moonrules.i18n.rulebook import write_all

        changed = write_all(check_only=args[1:] == ["--check"])
        for path in changed:
            print(path)
        verb = "out of date" if args[1:] else "written"
        print(f"moonrules.i18n rulebook: {len(changed)} file(s) {verb}", file=sys.stderr)
        return 1 if changed and args[1:] else 0
    if not args or args[0] != "check" or len(args) > 2:
        print(
            "usage: python -m moonrules.i18n check [LOCALE_DIR]\n"
            "       python -m moonrules.i18n rulebook [--check]",
            file=sys.stderr,
        )
        return 2
    locale_dir = Path(args[1]) if len(args) == 2 else LOCALE_DIR
    if not locale_dir.is_dir():
        print(f"moonrules.i18n check: error: no directory {locale_dir}", file=sys.stderr)
        return 2
    problems = check_all(locale_dir)
    for problem in problems:
        print(problem)
    count = len(problems)
    summary = "every catalog is complete" if not count else f"{count} problem(s)"
    print(f"moonrules.i18n check: {summary}", file=sys.stderr)
    return 1 if problems else 0


__all__ = ["LOCALE_DIR", "check_all", "check_catalog", "cldr_plural_forms", "main"]
