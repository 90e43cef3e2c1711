"""The words of the pages the server writes itself (the event page, the director's console),
in the reader's language.

The language is chosen as the room page's: ``?lang=`` in the address, else the cookie
``lang`` (the language switch of every table page sets it, as it remembers the choice),
else the browser's ``Accept-Language``; one the table has no catalog for gives English with
a one-line notice (:func:`language_of`). The sentences are the ``table`` gettext domain's
(:mod:`moonrules.i18n.table_catalog`), marked here by ``_("…")``, ``_n("one", "many", n)``
and ``N_("…")`` (looked up later), which the catalog tests read from the sources. Names,
numbers and tiles are not translated, nor a reason a director typed.

A page is written inside :func:`speaking`, which sets the language for the thread (a
context variable), so the helpers that write its parts need no argument for it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from html import escape
from typing import Final

from moonrules.i18n.table_catalog import NAMES, PSEUDO, choose, gettext_for, ngettext_for

__all__ = ["N_", "_", "_n", "lang_notice", "lang_switch", "language_of", "speaking"]

_LANG: ContextVar[str] = ContextVar("moonrules_page_lang", default="en")

_FIELD: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

COOKIE: Final = "lang"
"""The cookie the pages' language switch sets (``i18n.js``) and the server reads."""


def current() -> str:
    """The language of the page being written."""
    return _LANG.get()


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Write a page in ``lang`` (a language :func:`language_of` chose)."""
    token = _LANG.set(lang)
    try:
        yield
    finally:
        _LANG.reset(token)


def _fill(template: str, args: Mapping[str, object]) -> str:
    """The template escaped for HTML, each ``{field}`` replaced by its value as given (the
    caller escapes a text a user gave; numbers and markup of the page go in as they are)."""
    out: list[str] = []
    pos = 0
    for m in _FIELD.finditer(template):
        out.append(_escape(template[pos : m.start()]))
        out.append(str(args[m.group(1)]) if m.group(1) in args else m.group(0))
        pos = m.end()
    out.append(_escape(template[pos:]))
    return "".join(out)


def _escape(text: str) -> str:
    """HTML-escaped for a text or an attribute's value (apostrophes kept as they are)."""
    return escape(text, quote=False).replace('"', "&quot;")


def _(message: str, **args: object) -> str:
    """``message`` in the page's language, as HTML, its fields filled in."""
    return _fill(gettext_for(_LANG.get(), message), args)


def _n(one: str, many: str, n: int, **args: object) -> str:
    """The plural message for ``n`` in the page's language (CLDR's forms), ``{n}`` and the
    fields filled in."""
    return _fill(ngettext_for(_LANG.get(), one, many, n), {"n": n, **args})


def N_(message: str) -> str:
    """A message id looked up later with :func:`_`."""
    return message


def language_of(query: str | None, cookie: str | None, header: str | None) -> tuple[str, str]:
    """The language of a page: ``(lang, asked)``, ``asked`` the language asked for that the
    table does not have (shown in the notice), else ``""``. ``?lang=`` first, then the
    cookie, then ``Accept-Language``; English when none is offered.

    >>> language_of("ru", None, "hu"), language_of(None, "xx", None), language_of(None, None, None)
    (('ru', ''), ('en', 'xx'), ('en', ''))
    """
    for asked in (query, cookie):
        if asked:
            lang, fell_back = choose(asked)
            return lang, asked[:40] if fell_back else ""
    if header:
        lang, fell_back = choose(header)
        if fell_back:
            first = header.split(",")[0].split(";")[0].strip()
            english = first.lower().startswith("en") or first in ("", "*")
            return lang, "" if english else first[:40]
        return lang, ""
    return "en", ""


def lang_notice(asked: str) -> str:
    """The one line that says the language asked is not offered (empty if none was)."""
    if not asked:
        return ""
    return (
        '<p class="lang-notice" role="status">'
        + _("This page is not available in “{lang}”; it is shown in English.", lang=escape(asked))
        + "</p>"
    )


def lang_switch(path: str) -> str:
    """The switch of a page the server writes: a link to it in each language (the choice is
    remembered by the cookie the table's pages set, see ``i18n.js``)."""
    here = _LANG.get()
    items = []
    for code, name in NAMES.items():
        if code == here:
            items.append(f'<li><strong lang="{code}">{escape(name)}</strong></li>')
        else:
            items.append(
                f'<li><a lang="{code}" hreflang="{code}" href="{escape(path)}?lang={code}">'
                f"{escape(name)}</a></li>"
            )
    label = _("Language")
    return f'<nav class="lang-links" aria-label="{label}"><ul>{"".join(items)}</ul></nav>'


def html_lang() -> str:
    """The ``lang`` attribute of the page (English's for the pseudo-locale)."""
    lang = _LANG.get()
    return "en" if lang == PSEUDO else lang
