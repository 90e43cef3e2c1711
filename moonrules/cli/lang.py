"""``--lang``: the language a command speaks to players in (:mod:`moonrules.i18n`).

Without ``--lang`` the language is the environment's locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, the first set), if it is one we have, else English. A
``--lang`` we have no catalog for is not an error: the command speaks English and says so
in one line on stderr. ``--json`` output stays language-free whatever the language.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping

from moonrules.i18n import LANGUAGES, SOURCE_LANGUAGE
from moonrules.i18n.report import PageWords, page_title
from moonrules.rules import MoonError


def add_lang_argument(
    p: argparse.ArgumentParser, what: str = "the report", *, has_json: bool = True
) -> None:
    """The ``--lang LANG`` option of a command that prints sentences for players (whose
    ``--json``, if ``has_json``, stays language-free)."""
    p.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language of {what}: {', '.join(LANGUAGES)} (default: the environment's "
        "locale, then English)" + ("; --json stays language-free" if has_json else ""),
    )


def language(given: str | None, environ: Mapping[str, str] = os.environ) -> tuple[str, str]:
    """The language to speak, and a one-line notice when ``given`` names none we have
    (``""`` when all is well).

    ``given`` is ``--lang``; without it, the first locale the environment sets (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if it is of a language we have; else English.

    >>> language("ru"), language("ru_RU.UTF-8")
    (('ru', ''), ('ru', ''))
    >>> language(None, {"LANG": "be_BY.UTF-8"}), language(None, {"LANG": "C.UTF-8"})
    (('be', ''), ('en', ''))
    >>> language(None, {"LANGUAGE": "hu:en", "LANG": "ru_RU.UTF-8"})
    ('hu', '')
    >>> language("xx")
    ('en', "no catalog for --lang 'xx'; speaking English (en, az, be, hu, pa, ru)")
    """
    if given is not None:
        lang = _language_of(given)
        if lang is None:
            shown = repr(given)[:40]
            return SOURCE_LANGUAGE, (
                f"no catalog for --lang {shown}; speaking English ({', '.join(LANGUAGES)})"
            )
        return lang, ""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            for part in value.split(":"):
                lang = _language_of(part)
                if lang is not None:
                    return lang, ""
            return SOURCE_LANGUAGE, ""
    return SOURCE_LANGUAGE, ""


def _language_of(locale: str) -> str | None:
    """The language of a locale name (``ru``, ``ru_RU.UTF-8``, ``ru-RU``), if we have it."""
    lang = locale.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return lang if lang in LANGUAGES else None


def chosen_language(args: argparse.Namespace, command: str) -> str:
    """The language of ``args.lang`` (or the environment's), the notice printed on stderr
    as ``moonrules COMMAND: …`` when there is one."""
    lang, notice = language(getattr(args, "lang", None))
    if notice:
        print(f"moonrules {command}: {notice}", file=sys.stderr)
    return lang


def lines_in(lines: list[str], lang: str, command: str) -> list[str]:
    """``lines`` a command prints, in ``lang``: each translated where a catalog entry
    matches it, else kept in English, and then one line on stderr says how many were
    (``moonrules COMMAND: …``)."""
    if lang == SOURCE_LANGUAGE:
        return lines
    from moonrules.i18n.report import line_in

    out = []
    left = 0
    for line in lines:
        said = line_in(line, lang)
        if said is None:
            left += 1
            said = line
        out.append(said)
    if left:
        print(
            f"moonrules {command}: {left} line(s) have no translation yet and stay English",
            file=sys.stderr,
        )
    return out


__all__ = ["add_lang_argument", "chosen_language", "language", "lines_in"]


def page_in(
    lang: str,
    command: str,
    what: str,
    title: str,
    name: str,
    render: Callable[..., str],
    words: Callable[[], PageWords],
) -> str:
    """An HTML page of ``command`` (its ``what``: "report", "review") in ``lang``:
    ``render(title=…, say=…, lang=…)`` with the sentences ``words()`` translates, titled
    ``title`` (a catalog message with ``{name}``). English when ``lang`` is, or Babel is
    missing (said on stderr); a one-line notice on stderr says how many sentences have no
    translation yet and stay English."""
    if lang == SOURCE_LANGUAGE:
        return render(title=title.format(name=name))
    try:
        said = words()
        page = render(title=page_title(title, name, lang), say=said, lang=lang)
    except MoonError as e:  # Babel is not installed
        print(f"moonrules {command}: the HTML {what} is in English: {e}", file=sys.stderr)
        return render(title=title.format(name=name))
    if said.untranslated:
        print(
            f"moonrules {command}: {len(said.untranslated)} sentence(s) of the HTML {what} "
            "have no translation yet and stay English",
            file=sys.stderr,
        )
    return page
