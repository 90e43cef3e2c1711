"""The report's sentences in a player's language: each English sentence the arbitration
prints is a message id of :mod:`moonrules.i18n.messages` with ``{name}`` placeholders,
and a printed sentence is matched against those ids, its values taken out and put into
the translation.

The values keep their notation (tiles ``6-4``, numbers, clause IDs); a value that is
itself words (a side, ``seat 2`` or ``team 0 (seats 0 and 2)``; an auction's calls; a
trick's plays; where a check stopped) is translated the same way, from its own pool of
message ids. What the placeholder holds is told by its name (:data:`KINDS`). A sentence
no id matches is not guessed at: :func:`translate` answers ``None`` and the caller keeps
the English and can say so (the tests hold every report of the examples to having none).

>>> translate("Trick 2: seat 0 leads — seat 0 4-4 — (unfinished)", "ru")
'Взятка 2: ходит место 0 — место 0 4-4 — (не закончена)'
>>> translate("Score: +0 +5 +0; totals 0 5 0 points.", "be")
'Лік: +0 +5 +0; усяго 0 5 0 ачкоў.'
>>> translate("No such sentence.", "ru") is None
True
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping
from typing import Final

from moonrules.i18n import messages as m
from moonrules.i18n.catalogs import checked_language, translations
from moonrules.i18n.messages import Message

_NUMBER: Final = r"-?\d+"
_TILE: Final = r"\d+-\d+"

KINDS: Final[Mapping[str, str]] = {
    **dict.fromkeys(
        (
            "seat",
            "winner",
            "first",
            "hand",
            "trick",
            "k",
            "count",
            "bid",
            "call",
            "high",
            "n",
            "m",
            "r",
            "a",
            "b",
            "s",
            "o",
            "team",
            "places",
        ),
        _NUMBER,
    ),
    **dict.fromkeys(("tile", "tile2", "led"), _TILE),
    "tiles": rf"{_TILE}(?: {_TILE})*",
    "fake": rf"{_TILE}(?: {_TILE})*",
    "tilelist": rf"{_TILE}(?:, {_TILE})*",
    "ortiles": rf"{_TILE}(?: or {_TILE})*",
    "order": rf"{_TILE}(?: > {_TILE})*",
    **dict.fromkeys(("scores", "totals", "before"), r"-?\d+(?: -?\d+)*"),
    "deltas": r"[+-]\d+(?: [+-]\d+)*",
    "deltalist": r"[+-]\d+(?:, [+-]\d+)*",
    "delta": r"[+-]\d+",
    "rule": r"[A-Z]+-\d+",
    "label": r".+?",
    **dict.fromkeys(("x", "y", "z", "noise"), r"-?\d+(?:\.\d+)?"),
    **dict.fromkeys(("action", "best"), r"\S+?"),
    "mark": r"\?\?|\?!|\?",
    "entry": r"'[^']*'|\"[^\"]*\"",
}
"""The values a placeholder holds, by its name, kept as they are written: a pattern each."""

POOLS: Final[Mapping[str, tuple[tuple[Message, ...], str]]] = {
    "side": (m.SIDES, ""),
    "side2": (m.SIDES, ""),
    "seed": ((*m.SEEDS, "{n}"), ""),
    "calls": (m.CALL_ITEMS, ", "),
    "plays": (m.PLAY_ITEMS, ", "),
    "where": (m.WHERE, ""),
    "lead": (m.LEADS, ""),
    "said": (m.SAID, ""),
    "wrongs": (m.WRONGS, ", "),
    "defeat": (m.DEFEAT, "; "),
    "sidedeltas": (m.SIDE_DELTAS, ", "),
    "ends": (m.ENDS, ""),
    "kind": (m.DECISION_KINDS, ""),
    "allowed": ((m.PASS, m.NONE, "{tile}", "{n}"), ", "),
    "counts": (m.T_SEATS_COUNTED, ", "),
}
"""The placeholders whose value is words: the message ids it is one of (or, with a
separator, a list of), translated in turn."""

_SENTENCE_END: Final = re.compile(r"(?<=\.) (?=[A-Z(])")


def _names(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


@functools.cache
def _pattern(text: str, named: bool) -> str:
    """The regular expression of a message id: its literal text, and at each placeholder
    what that placeholder holds (a group named after it when ``named``; the same value
    again where a name comes back)."""
    out = []
    seen: set[str] = set()
    for k, (literal, name, _, _) in enumerate(string.Formatter().parse(text)):
        lit = re.escape(literal)
        if k == 0 and literal[:1].isalpha():  # a sentence may start lowercase mid-line
            lit = f"(?i:{re.escape(literal[0])})" + re.escape(literal[1:])
        out.append(lit)
        if not name:
            continue
        inner = _value_pattern(name)
        if named and name in seen:
            out.append(f"(?P={name})")
        elif named:
            out.append(f"(?P<{name}>{inner})")
            seen.add(name)
        else:
            out.append(f"(?:{inner})")
    return "".join(out)


@functools.cache
def _value_pattern(name: str) -> str:
    if name in KINDS:
        return KINDS[name]
    if name in POOLS:
        ids, sep = POOLS[name]
        one = "|".join(f"(?:{_pattern(f, False)})" for msg in ids for f in _forms(msg))
        return f"(?:{one})(?:{re.escape(sep)}(?:{one}))*" if sep else f"(?:{one})"
    raise KeyError(f"no kind for the placeholder {{{name}}}")


def _forms(message: Message) -> tuple[str, ...]:
    return (message,) if isinstance(message, str) else message


@functools.cache
def _compiled(message: Message) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(_pattern(f, True)) for f in _forms(message))


def _one(text: str, ids: tuple[Message, ...], lang: str) -> str | None:
    """``text`` as the first of ``ids`` it is, translated; ``None`` if it is none."""
    t = translations(lang)
    for message in ids:
        for regex in _compiled(message):
            found = regex.fullmatch(text)
            if found is None:
                continue
            values = found.groupdict()
            converted: dict[str, str] = {}
            for name, value in values.items():
                if name == "ortiles":  # "4-2 or 5-2": CLDR's "or" list of the language
                    converted[name] = _or_list(value.split(" or "), lang)
                elif name in POOLS:
                    said = _pooled(value, name, lang)
                    if said is None:
                        break
                    converted[name] = said
                else:
                    converted[name] = value
            else:
                if isinstance(message, str):
                    out = t.gettext(message)
                else:
                    out = t.ngettext(message[0], message[1], int(values["count"]))
                return out.format(**converted)
    return None


def _or_list(items: list[str], lang: str) -> str:
    from babel.lists import format_list

    return format_list(items, style="or", locale=lang)


def _pooled(value: str, name: str, lang: str) -> str | None:
    ids, sep = POOLS[name]
    items = value.split(sep) if sep else [value]
    said = [_one(item, ids, lang) for item in items]
    if any(s is None for s in said):
        return None
    return (sep or "").join(s for s in said if s is not None)


def translate(text: str, lang: str, ids: tuple[Message, ...] = m.LINES) -> str | None:
    """``text``, an English sentence of the report (or several, each ending with a full
    stop), in ``lang``; ``None`` if a sentence of it is none of ``ids``.

    The first letter keeps its case: a sentence that starts with a value (a side) starts
    with a capital when the English does.
    """
    lang = checked_language(lang)
    whole = _one(text, ids, lang)
    if whole is None:
        parts = _SENTENCE_END.split(text)
        if len(parts) == 1:
            return None
        said = [_one(p, ids, lang) for p in parts]
        if any(s is None for s in said):
            return None
        whole = " ".join(s for s in said if s is not None)
    if text[:1].isupper():
        whole = whole[:1].upper() + whole[1:]
    return whole


__all__ = ["KINDS", "POOLS", "translate"]
