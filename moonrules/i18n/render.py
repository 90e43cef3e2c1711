"""An :class:`~moonrules.rules.errors.IllegalAction` as a sentence in a player's language.

The sentence is built from the error's clause ID and fields (seat, tile, call, what was
allowed), never from its English message, which stays as it is (``str(error)``).

>>> import moonrules
>>> s = moonrules.apply(moonrules.new_game(seed=1, first_bidder=0), moonrules.Bid(5))
>>> try:
...     moonrules.apply(s, moonrules.Bid(4))
... except moonrules.IllegalAction as e:
...     print(render(e, "ru"))
Ставка 4 не выше самой высокой ставки до неё. Разрешено: пас, 6, 7 и 21. (BID-3)
"""

from __future__ import annotations

import re
from typing import Final

from moonrules.game import ClaimDoesNotHold
from moonrules.i18n import messages as m
from moonrules.i18n.catalogs import checked_language, translations
from moonrules.i18n.rulebook import clause_title
from moonrules.rules import IllegalAction
from moonrules.rules.errors import quote, wrong_type

_FIXED: Final[dict[str, str]] = {
    "TRICK-1": m.TRICK_1,
    "LEAD-2": m.LEAD_2,
    "BID-2": m.BID_2,
    "BID-3": m.BID_3,
    "BID-4": m.BID_4,
    "BID-5": m.BID_5,
    "BID-6": m.BID_6,
    "BID-7": m.BID_7,
    "BID-8": m.BID_8,
    "END-1": m.END_1,
    "WIDOW-1": m.WIDOW_1,
    "TRUMP-5": m.TRUMP_5,
    "RENEGE-1": m.RENEGE_1,
    "RENEGE-2": m.RENEGE_2,
    "SEAT-1": m.SEAT_1,
}
"""The clauses whose refusal is one sentence without a count."""

_COUNTED: Final[dict[str, tuple[str, str]]] = {"FOLLOW-1": m.FOLLOW_1, "FOLLOW-2": m.FOLLOW_2}
"""The clauses whose refusal counts the tiles that were allowed (a plural of CLDR)."""

_CLAUSE: Final = re.compile(r"[A-Z]+-[0-9]+")
"""A clause ID; anything else an error might carry as its rule is quoted."""

UNKNOWN: Final = "?"
"""What stands for a field the error does not carry."""


def render(error: IllegalAction, lang: str) -> str:
    """The refusal ``error`` as a sentence in ``lang``, with its clause ID at the end.

    Covered by a sentence of its own: TRICK-1, LEAD-2, FOLLOW-1, FOLLOW-2, TURN-1,
    BID-2 … BID-8, CLAIM-1, END-1, WIDOW-1, TRUMP-5, RENEGE-1, RENEGE-2, SEAT-1; any
    other clause is named in a general sentence with its title from the rulebook in
    ``lang`` (:func:`moonrules.i18n.rulebook.clause_title`).
    :class:`~moonrules.rules.errors.ArgumentError` for a language without a catalog.
    """
    if not isinstance(error, IllegalAction):
        raise wrong_type("error", "an IllegalAction", error)
    t = translations(checked_language(lang))
    rule = error.rule
    if rule in _COUNTED:
        count = len(error.allowed_tiles or ())
        singular, plural = _COUNTED[rule]
        sentence = t.ngettext(singular, plural, count)
    elif rule == "TURN-1":
        sentence = t.gettext(m.TURN_1 if error.seat is None else m.TURN_1_SEAT)
        count = 0
    elif rule == "CLAIM-1":
        sentence = t.gettext(m.CLAIM_1_HOLD if isinstance(error, ClaimDoesNotHold) else m.CLAIM_1)
        count = 0
    elif rule in _FIXED:
        sentence = t.gettext(_FIXED[rule])
        count = 0
    else:
        title = clause_title(rule, lang) if _CLAUSE.fullmatch(rule) else None
        if title is not None:
            return t.gettext(m.OTHER_TITLED).format(rule=rule, title=title)
        return t.gettext(m.OTHER).format(rule=rule if _CLAUSE.fullmatch(rule) else quote(rule))
    pass_word = t.gettext(m.PASS)
    text = sentence.format(
        seat=UNKNOWN if error.seat is None else error.seat,
        tile=UNKNOWN if error.tile is None else error.tile,
        call=_call(error.call, pass_word),
        count=count,
        trump=UNKNOWN if error.trump is None else _trump(error.trump, lang),
    )
    allowed = _allowed(error, pass_word, lang)
    if allowed:
        text += " " + t.gettext(m.ALLOWED).format(allowed=allowed)
    return f"{text} ({rule})"


def tricks(count: int, lang: str) -> str:
    """A number of tricks in ``lang``, with the plural form CLDR gives that number.

    >>> ", ".join(tricks(n, "ru") for n in (1, 2, 5, 21))
    '1 взятка, 2 взятки, 5 взяток, 21 взятка'
    """
    if type(count) is not int:
        raise wrong_type("count", "a number of tricks", count)
    singular, plural = m.TRICKS
    return (
        translations(checked_language(lang)).ngettext(singular, plural, count).format(count=count)
    )


def _trump(trump: object, lang: str) -> str:
    """A trump as a player says it: a number, doubles or no-trump, in ``lang``."""
    t = translations(lang)
    said = str(trump)
    if said == "doubles":
        return t.gettext(m.DOUBLES)
    if said == "none":
        return t.gettext(m.NO_TRUMP)
    return said


def _call(call: int | None, pass_word: str) -> str:
    """A call as a player says it: a number, or the word for a pass."""
    if call is None:
        return UNKNOWN
    return pass_word if call == 0 else str(call)


def _allowed(error: IllegalAction, pass_word: str, lang: str) -> str:
    """What the rules allowed instead, as a list in ``lang`` (CLDR's list pattern), or ``""``."""
    from babel.lists import format_list

    if error.allowed_tiles:
        items = [str(tile) for tile in error.allowed_tiles]
    elif error.allowed_calls:
        items = [_call(call, pass_word) for call in error.allowed_calls]
    elif error.allowed_trumps:
        items = [_trump(trump, lang) for trump in error.allowed_trumps]
    else:
        return ""
    return format_list(items, locale=lang)


__all__ = ["UNKNOWN", "render", "tricks"]
