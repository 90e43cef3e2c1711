"""The words of a command in a player's language: a message id of
:mod:`moonrules.i18n.messages` said with its fields, as :func:`moonrules.i18n.render` says
a refusal (``gettext``, or ``ngettext`` with ``{count}`` for a pair, then ``format``).

English needs no catalog (nor Babel): its sentences are the message ids themselves, so a
command's English output is what its code has always printed. :data:`PSEUDO` (``en-XA``)
is the pseudo-locale of :mod:`moonrules.i18n.table_catalog`: every message id of the
catalogs accented and made longer, anything else left as it is, so a test sees a
sentence of a screen that does not come from the catalogs.

>>> say = Words("ru")
>>> say(("{title} after {count} hands: seat {seat} wins; scores {scores}",
...      "{title} after {count} hands: seat {seat} wins; scores {scores}"),
...     title="Конец игры", count=5, seat=1, scores="[21, 3, 7]")
'Конец игры после 5 сдач: побеждает место 1; счёт [21, 3, 7]'
>>> Words()("seat {seat} plays {tile}", seat=2, tile="6-4")
'seat 2 plays 6-4'
"""

from __future__ import annotations

import functools
import gettext
from typing import Final

from moonrules.i18n.catalogs import SOURCE_LANGUAGE, checked_language, translations
from moonrules.i18n.messages import MESSAGES, Message

PSEUDO: Final = "en-XA"
"""The pseudo-locale (:data:`moonrules.i18n.table_catalog.PSEUDO`)."""


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-locale's translations: every message id of :data:`MESSAGES` in its
    pseudo form (:func:`moonrules.i18n.table_catalog.pseudo`); a text that is no id of the
    catalogs comes back as it is, so it shows as English among the accented."""

    def gettext(self, message: str) -> str:
        return _pseudo(message) if message in _IDS else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if (msgid1, msgid2) not in _PAIRS:
            return msgid1 if n == 1 else msgid2
        return _pseudo(msgid1 if n == 1 else msgid2)


_IDS: Final = frozenset(msg for msg in MESSAGES if isinstance(msg, str))
_PAIRS: Final = frozenset(msg for msg in MESSAGES if not isinstance(msg, str))


def _pseudo(text: str) -> str:
    from moonrules.i18n.table_catalog import pseudo

    return pseudo(text)


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang == PSEUDO:
        return PseudoTranslations()
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return translations(checked_language(lang))


class Words:
    """The sentences of the catalogs in ``lang`` (one of
    :data:`~moonrules.i18n.catalogs.LANGUAGES`, or :data:`PSEUDO`): call it with a message
    id and its fields. :class:`~moonrules.rules.errors.MoonError` for a language other than
    English when Babel is not installed."""

    def __init__(self, lang: str = SOURCE_LANGUAGE) -> None:
        self.lang = lang
        self._t = _catalog(lang)

    def template(self, message: Message, count: object = None) -> str:
        """The translation of ``message`` (a pair's form for ``count``), fields unfilled."""
        if isinstance(message, str):
            return self._t.gettext(message)
        if type(count) is not int:
            raise TypeError(f"{message[0]!r} is said with a whole-number count")
        return self._t.ngettext(message[0], message[1], count)

    def __call__(self, message: Message, /, **fields: object) -> str:
        """``message`` in this language, its ``{name}`` placeholders filled from ``fields``
        (a pair's form chosen by ``count``, with CLDR's plural rule of the language)."""
        return self.template(message, fields.get("count")).format(**fields)

    def markup(self, message: Message, /, **fields: object) -> str:
        """As a call, for ``rich`` markup: a ``[`` of the catalog's text escaped (so a
        translation's brackets print as they are), the fields put in as given."""
        return self.template(message, fields.get("count")).replace("[", "\\[").format(**fields)


ENGLISH: Final = Words()
"""The source language's words: the message ids as they are."""


__all__ = ["ENGLISH", "PSEUDO", "PseudoTranslations", "Words"]
