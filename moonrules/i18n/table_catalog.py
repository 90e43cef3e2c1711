"""The table's words: the ``table`` gettext domain, the catalog a page gets as JSON, and the
checks that keep every catalog whole.

The table page (``moonrules/table/static``) renders every sentence itself, from message
ids and fields: the server sends no sentence in a language (a refusal carries a ``text``:
``{"key", "args"}``, see :func:`wire_text`), so each seat reads the room in its own
language and the record stays language-free. The page's catalog is
``GET /i18n/{lang}.json`` (:func:`catalog_json`): the ``table`` domain and the library's
``moonrules`` domain (for a refusal's clause), each from the same ``.po`` files the
library reads, with the language's plural rule (its ``Plural-Forms``, CLDR's through
Babel, as the expression the page compiles) and its list patterns (CLDR's).

``en-XA`` (:data:`PSEUDO`) is a pseudo-locale made from English: every letter accented,
every sentence about 40% longer, so a test sees any text the page shows without a
translation, and any layout that does not make room for longer words.

``python -m moonrules.i18n.table_catalog`` checks every catalog (:func:`check`) and exits 1
on a missing, empty or fuzzy entry, a placeholder not the source's, plural forms not
CLDR's, or a message id of one language absent from another.
"""

from __future__ import annotations

import functools
import gettext
import re
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Final

from moonrules.i18n import messages as m
from moonrules.i18n.catalogs import DOMAIN as LIBRARY_DOMAIN
from moonrules.i18n.catalogs import LANGUAGES, SOURCE_LANGUAGE
from moonrules.rules import IllegalAction

TABLE_DOMAIN: Final = "table"
"""The gettext domain of the table's pages and server texts."""

PSEUDO: Final = "en-XA"
"""The pseudo-locale: English accented and made longer (see :func:`pseudo`)."""

TABLE_LANGUAGES: Final = LANGUAGES
"""The languages the table offers, each with a finished ``table`` catalog."""

NAMES: Final[Mapping[str, str]] = {
    "en": "English",
    "az": "Azərbaycanca",
    "be": "Беларуская",
    "hu": "Magyar",
    "pa": "ਪੰਜਾਬੀ",
    "ru": "Русский",
}
"""Each language's name in itself, for the page's switch."""

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]

_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders of ``text``, sorted (a name as often as it is used).

    >>> placeholders("{who} bids {call}; {who} again")
    ['call', 'who', 'who']
    """
    return sorted(_PLACEHOLDER.findall(text))


def po_path(lang: str, domain: str = TABLE_DOMAIN) -> str:
    """The path of ``lang``'s ``.po`` catalog of ``domain`` inside the installed package."""
    base = resources.files("moonrules.i18n") / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    return str(base)


def read(lang: str, domain: str = TABLE_DOMAIN) -> object:
    """``lang``'s catalog of ``domain``, read by Babel (a ``babel.messages.Catalog``), fuzzy
    entries kept (and flagged) for :func:`check` to find."""
    from babel.messages.pofile import read_po

    with open(po_path(lang, domain), "rb") as f:
        return read_po(f, locale=lang, domain=domain)


def _entries(catalog: object) -> dict[str, str | list[str]]:
    """The finished entries of ``catalog``: no fuzzy, no empty one."""
    out: dict[str, str | list[str]] = {}
    for msg in catalog:  # type: ignore[attr-defined]
        if not msg.id or msg.fuzzy:
            continue
        if isinstance(msg.id, tuple):
            forms = [str(s) for s in msg.string]
            if all(forms):
                out[str(msg.id[0])] = forms
        elif msg.string:
            out[str(msg.id)] = str(msg.string)
    return out


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: letters accented, placeholders kept, about 40% longer.

    >>> pseudo("Seat {seat} bids.")
    '⟦Śéåţ {seat} ƀîðš. ·····⟧'
    """
    pad = "·" * max(1, (len(text) * 2 + 4) // 5 - 2)
    return f"⟦{accented(text)} {pad}⟧"


def accented(text: str) -> str:
    """``text`` with every ASCII letter accented but in its ``{placeholders}``.

    >>> accented("{0} or {1}")
    '{0} öŕ {1}'
    """
    out: list[str] = []
    pos = 0
    for match in _BRACED.finditer(text):
        out.append(text[pos : match.start()].translate(_ACCENTS))
        out.append(match.group(0))
        pos = match.end()
    out.append(text[pos:].translate(_ACCENTS))
    return "".join(out)


_BRACED: Final = re.compile(r"\{[A-Za-z0-9_]+\}")


_ACCENTS: Final = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŚŢÛṼŴẊÝŽ",
)
"""Every ASCII letter made another letter with an accent (the pseudo-locale's)."""

PSEUDO_LETTERS: Final = "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŚŢÛṼŴẊÝŽ⟦⟧"
"""The characters only the pseudo-locale writes (a test looks for them)."""


def choose(asked: object) -> tuple[str, bool]:
    """The language to show for ``asked`` (a code such as ``ru``, ``ru-RU``, ``en-XA``, or
    an ``Accept-Language`` header): ``(lang, fell_back)``, English when nothing asked is
    offered (never an error).

    >>> choose("be-BY"), choose("xx"), choose("de-DE,de;q=0.9,ru;q=0.8"), choose(None)
    (('be', False), ('en', True), ('ru', False), ('en', True))
    """
    if not isinstance(asked, str):
        return SOURCE_LANGUAGE, True
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(asked.split(",")[:20]):
        code, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, code.strip()))
    for _, _, code in sorted(ranked):
        if code.lower() == PSEUDO.lower():
            return PSEUDO, False
        primary = code.split("-")[0].split("_")[0].lower()
        if primary in TABLE_LANGUAGES:
            return primary, False
    return SOURCE_LANGUAGE, True


def _plural(lang: str) -> dict[str, JSON]:
    """The plural rule of ``lang``'s catalog: its number of forms and its C expression."""
    catalog = read(lang)
    return {"forms": catalog.num_plurals, "expr": catalog.plural_expr}  # type: ignore[attr-defined]


def _lists(lang: str) -> dict[str, JSON]:
    """CLDR's list patterns of ``lang``: ``and`` (standard) and ``or``."""
    from babel import Locale

    patterns = Locale.parse(lang).list_patterns
    out: dict[str, JSON] = {}
    for name, key in (("and", "standard"), ("or", "or")):
        p = patterns[key]
        out[name] = {k: str(p[k]) for k in ("start", "middle", "end", "2")}
    return out


def _pseudo_lists(lists: dict[str, JSON]) -> dict[str, JSON]:
    """CLDR's list patterns, their words accented (the pseudo-locale's)."""
    return {
        kind: {k: accented(str(v)) for k, v in patterns.items()}
        for kind, patterns in lists.items()
        if isinstance(patterns, dict)
    }


def _titles(lang: str) -> dict[str, str]:
    """Each clause's title in ``lang``, from the rulebook's ``rules`` catalog (for a clause
    without a sentence of its own, which the page names with its title, as
    :func:`moonrules.i18n.render` does)."""
    from moonrules.i18n.rulebook import clause_title, rule_messages

    out: dict[str, str] = {}
    try:
        contexts = [context for context, _english in rule_messages()]
    except OSError:  # the rulebook's source not installed: the clause is named by its ID
        return out
    for context in contexts:
        rule = context.removesuffix(" title")
        if rule != context and _CLAUSE.fullmatch(rule):
            title = clause_title(rule, lang)
            if title:
                out[rule] = title
    return out


@functools.cache
def _catalog_json(lang: str) -> dict[str, JSON]:
    source = PSEUDO if lang == PSEUDO else lang
    base = SOURCE_LANGUAGE if lang == PSEUDO else lang
    domains: dict[str, JSON] = {}
    for domain in (TABLE_DOMAIN, LIBRARY_DOMAIN):
        entries = _entries(read(base, domain))
        if lang == PSEUDO:
            entries = {
                k: [pseudo(f) for f in v] if isinstance(v, list) else pseudo(v)
                for k, v in entries.items()
            }
        domains[domain] = dict(entries)  # type: ignore[arg-type]
    titles = _titles(base)
    if lang == PSEUDO:
        titles = {k: accented(v) for k, v in titles.items()}
    return {
        "lang": source,
        "html_lang": "en" if lang == PSEUDO else lang,
        "titles": dict(titles),
        "plural": _plural(base),
        "list": _pseudo_lists(_lists(base)) if lang == PSEUDO else _lists(base),
        "names": dict(NAMES),
        "domains": domains,
    }


def catalog_json(asked: object) -> dict[str, JSON]:
    """The catalog a page gets for ``asked`` (:func:`choose`): ``lang``, ``fallback`` (the
    language asked has no catalog: the page says so in one line and shows English),
    ``asked``, ``plural`` (``forms`` and the Plural-Forms ``expr``), ``list`` (CLDR's
    ``and`` and ``or`` list patterns), ``titles`` (each clause's title in the language, from
    the rulebook's catalog), ``names`` (each offered language's own name) and
    ``domains`` (``table`` and ``moonrules``: message id to its translation, a list of
    forms for a plural)."""
    lang, fell_back = choose(asked)
    shown = asked[:40] if isinstance(asked, str) else ""
    return {**_catalog_json(lang), "fallback": fell_back, "asked": shown}


# -- the server's pages (the event page, the director's console) --------------------


@functools.cache
def _server_entries(lang: str) -> Mapping[str, str | list[str]]:
    """The finished ``table`` entries of ``lang`` (the pseudo-locale's made from English);
    none when Babel is not installed (the pages then stay English)."""
    try:
        entries = _entries(read(SOURCE_LANGUAGE if lang == PSEUDO else lang))
    except ImportError:
        return {}
    if lang == PSEUDO:
        return {
            k: [pseudo(f) for f in v] if isinstance(v, list) else pseudo(v)
            for k, v in entries.items()
        }
    return entries


@functools.cache
def _server_plural(lang: str) -> object:
    try:
        return gettext.c2py(str(_plural(SOURCE_LANGUAGE if lang == PSEUDO else lang)["expr"]))
    except ImportError:
        return lambda n: int(n != 1)


def gettext_for(lang: str, message: str) -> str:
    """``message`` (a ``table`` message id) in ``lang`` for a page the server writes; the
    English when the catalog lacks it or Babel is not installed."""
    if lang == SOURCE_LANGUAGE:
        return message
    found = _server_entries(lang).get(message)
    return found if isinstance(found, str) else message


def ngettext_for(lang: str, one: str, many: str, n: int) -> str:
    """The plural message ``(one, many)`` in ``lang`` for ``n`` (the language's CLDR rule)."""
    found = _server_entries(lang).get(one) if lang != SOURCE_LANGUAGE else None
    if isinstance(found, list) and found:
        index = int(_server_plural(lang)(n))  # type: ignore[operator]
        return found[min(index, len(found) - 1)]
    return one if n == 1 else many


# -- a refusal's clause, as message ids and fields (the page renders it) -------------

_CLAUSE: Final = re.compile(r"[A-Z]+-[0-9]+")


def _call_json(call: int | None) -> JSON:
    return None if call is None else "pass" if call == 0 else call


def clause_text(error: IllegalAction) -> dict[str, JSON]:
    """An :class:`~moonrules.rules.IllegalAction` as the page renders it, in the
    ``moonrules`` domain: ``{"domain", "key", "n", "args", "allowed", "allowed_kind",
    "rule"}`` — the message ids and fields :func:`moonrules.i18n.render` builds its sentence
    from, chosen by the same tables (the page's sentence is render's: a browser test holds
    them together). ``allowed`` is the tiles, calls (``"pass"`` for a pass) or trumps
    (``allowed_kind``) the rules allowed, for a list in CLDR's pattern. A clause without a
    sentence of its own is named by its ID alone (render adds the rulebook's title in the
    reader's language; the page has no rulebook)."""
    from moonrules.game import ClaimDoesNotHold
    from moonrules.i18n.render import _COUNTED, _FIXED

    rule = error.rule
    n: int | None = None
    key: str | list[JSON]
    if rule in _COUNTED:
        n = len(error.allowed_tiles or ())
        key = [*_COUNTED[rule]]
    elif rule == "TURN-1":
        key = m.TURN_1 if error.seat is None else m.TURN_1_SEAT
    elif rule == "CLAIM-1":
        key = m.CLAIM_1_HOLD if isinstance(error, ClaimDoesNotHold) else m.CLAIM_1
    elif rule in _FIXED:
        key = _FIXED[rule]
    else:
        return {
            "domain": LIBRARY_DOMAIN,
            "key": m.OTHER,
            "args": {"rule": rule if _CLAUSE.fullmatch(rule) else "?"},
            "allowed": [],
            "rule": rule if _CLAUSE.fullmatch(rule) else None,
        }
    allowed: list[JSON]
    kind = "tiles"
    if error.allowed_tiles:
        allowed = [str(t) for t in error.allowed_tiles]
    elif error.allowed_calls:
        allowed, kind = [_call_json(c) for c in error.allowed_calls], "calls"
    elif error.allowed_trumps:
        allowed, kind = [str(t) for t in error.allowed_trumps], "trumps"
    else:
        allowed = []
    args: dict[str, JSON] = {
        "seat": error.seat,
        "tile": None if error.tile is None else str(error.tile),
        "call": _call_json(error.call),
        "trump": None if error.trump is None else str(error.trump),
    }
    out: dict[str, JSON] = {
        "domain": LIBRARY_DOMAIN,
        "key": key,
        "args": args,
        "allowed": allowed,
        "allowed_kind": kind,
        "rule": rule,
    }
    if n is not None:
        out["n"] = n
    return out


def table_text(key: str | tuple[str, str], n: int | None = None, **args: JSON) -> dict[str, JSON]:
    """A sentence of the ``table`` domain as the wire carries it: its message id (a pair for
    a plural, with ``n``) and its fields."""
    out: dict[str, JSON] = {
        "domain": TABLE_DOMAIN,
        "key": list(key) if isinstance(key, tuple) else key,
        "args": dict(args),
    }
    if n is not None:
        out["n"] = n
    return out


# -- the checks ------------------------------------------------------------------------


def check(languages: Sequence[str] = TABLE_LANGUAGES, domain: str = TABLE_DOMAIN) -> list[str]:
    """Every problem of the ``domain`` catalogs of ``languages`` (``[]``: none): each
    language has every message id of the source (English) and no other, none empty or
    fuzzy, each form with the source's placeholders, as many plural forms as CLDR gives the
    language (Babel's), and a ``Plural-Forms`` header that is CLDR's."""
    from babel.messages.catalog import Catalog

    problems: list[str] = []
    source = {msg.id: msg for msg in read(SOURCE_LANGUAGE, domain) if msg.id}  # type: ignore[attr-defined]
    for lang in languages:
        try:
            catalog = read(lang, domain)
        except OSError as e:
            problems.append(f"{lang}: no {domain}.po ({e.strerror})")
            continue
        cldr = Catalog(locale=lang)
        if catalog.plural_forms != cldr.plural_forms:  # type: ignore[attr-defined]
            problems.append(
                f"{lang}: Plural-Forms {catalog.plural_forms!r} is not CLDR's "  # type: ignore[attr-defined]
                f"{cldr.plural_forms!r}"
            )
        have = {msg.id: msg for msg in catalog if msg.id}  # type: ignore[attr-defined]
        for mid in have.keys() - source.keys():
            problems.append(f"{lang}: {_short(mid)}: not a message of the source")
        for mid, src in source.items():
            msg = have.get(mid)
            if msg is None:
                problems.append(f"{lang}: {_short(mid)}: missing")
                continue
            if msg.fuzzy:
                problems.append(f"{lang}: {_short(mid)}: fuzzy")
            if isinstance(mid, tuple):
                forms = list(msg.string) if isinstance(msg.string, (tuple, list)) else []
                want = placeholders(mid[1])
                if len(forms) != cldr.num_plurals:
                    problems.append(
                        f"{lang}: {_short(mid)}: {len(forms)} plural forms, CLDR has "
                        f"{cldr.num_plurals}"
                    )
                for i, form in enumerate(forms):
                    if not form:
                        problems.append(f"{lang}: {_short(mid)}: form {i} empty")
                    elif placeholders(form) != want:
                        problems.append(
                            f"{lang}: {_short(mid)}: form {i} has {placeholders(form)}, the "
                            f"source {want}"
                        )
                del src
            else:
                text = msg.string if isinstance(msg.string, str) else ""
                if not text:
                    problems.append(f"{lang}: {_short(mid)}: empty")
                elif placeholders(text) != placeholders(mid):
                    problems.append(
                        f"{lang}: {_short(mid)}: has {placeholders(text)}, the source "
                        f"{placeholders(mid)}"
                    )
    return problems


def _short(mid: object) -> str:
    text = mid[0] if isinstance(mid, tuple) else str(mid)
    return repr(text if len(text) <= 50 else text[:50] + "…")


def plural_index(lang: str, n: int) -> int:
    """The plural form ``lang``'s ``table`` catalog uses for ``n`` (Python's reading of its
    ``Plural-Forms``, for the tests to hold the page's against)."""
    return int(gettext.c2py(str(_plural(lang)["expr"]))(n))


def main(argv: Sequence[str] | None = None) -> int:
    """Check every ``table`` catalog; print the problems and return 1 if there are any."""
    del argv
    problems = check()
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"table catalogs: {', '.join(TABLE_LANGUAGES)}: complete")
    return 1 if problems else 0


__all__ = [
    "NAMES",
    "PSEUDO",
    "PSEUDO_LETTERS",
    "TABLE_DOMAIN",
    "TABLE_LANGUAGES",
    "accented",
    "catalog_json",
    "check",
    "choose",
    "clause_text",
    "gettext_for",
    "ngettext_for",
    "placeholders",
    "plural_index",
    "po_path",
    "pseudo",
    "read",
    "table_text",
]

if __name__ == "__main__":
    raise SystemExit(main())
