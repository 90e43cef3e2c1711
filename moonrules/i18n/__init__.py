"""Refusals in the languages of Moon's rules: catalogs, and errors rendered from their fields.

``render(error, lang)`` is the sentence of an :class:`~moonrules.rules.errors.IllegalAction`
in ``lang`` (one of :data:`LANGUAGES`), built from its clause ID and fields, never by
translating its English message; ``str(error)`` stays English. The catalogs are the
``.po`` files under ``locale/``, read with Babel (extra ``[i18n]``), with the plural
forms of CLDR.
"""

from __future__ import annotations

from moonrules.i18n.catalogs import LANGUAGES, SOURCE_LANGUAGE, catalog_path, translations
from moonrules.i18n.render import render, tricks

__all__ = ["LANGUAGES", "SOURCE_LANGUAGE", "catalog_path", "render", "translations", "tricks"]
