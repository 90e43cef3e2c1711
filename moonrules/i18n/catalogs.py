"""The catalogs: one gettext ``.po`` file per language, shipped in the package and read with
Babel when first needed (no compiled ``.mo`` to build or to go stale).

A catalog is read whole and checked as it is read: a fuzzy entry is left out (it falls
back to nothing: :func:`moonrules.i18n.render` refuses a language whose catalog lacks an
entry it needs, the tests refuse to ship one).
"""

from __future__ import annotations

import functools
import gettext
import io
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final

from moonrules.rules import ArgumentError, MoonError
from moonrules.rules.errors import install_extra

SOURCE_LANGUAGE: Final = "en"
"""The language of the message ids."""

LANGUAGES: Final = ("en", "az", "be", "hu", "pa", "ru")
"""The languages with a finished catalog: English (the source), then the five of the seeds."""

DOMAIN: Final = "moonrules"
"""The gettext domain: the catalogs' file name."""


def checked_language(lang: object) -> str:
    """``lang`` if it names a language of :data:`LANGUAGES`, else a one-line
    :class:`~moonrules.rules.errors.ArgumentError`.

    >>> checked_language("ru")
    'ru'
    >>> try:
    ...     checked_language("xx")
    ... except ArgumentError as e:
    ...     print(e)
    lang: no catalog for 'xx'; the languages are en, az, be, hu, pa, ru
    """
    if isinstance(lang, str) and lang in LANGUAGES:
        return lang
    shown = repr(lang)[:40]
    raise ArgumentError(f"lang: no catalog for {shown}; the languages are {', '.join(LANGUAGES)}")


def catalog_path(lang: str) -> Traversable:
    """The ``.po`` file of ``lang`` inside the installed package."""
    lang = checked_language(lang)
    return resources.files("moonrules.i18n") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The translations of ``lang``: its ``.po`` catalog read by Babel, fuzzy entries left
    out, with the catalog's plural forms (those of CLDR, which the tests hold it to)."""
    lang = checked_language(lang)
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # pragma: no cover - the extra is installed where tests run
        raise MoonError(f"moonrules.i18n needs Babel: {install_extra('i18n')}") from None
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "SOURCE_LANGUAGE",
    "catalog_path",
    "checked_language",
    "translations",
]
