"""A checked record's report (what ``moonrules check`` prints) in a player's language.

The report is told line by line: each line of its English text
(:func:`moonrules.arbitration.format_report`) is translated with
:func:`moonrules.i18n.sentences.translate`, the ruling's "why" steps from the reasons'
own message ids, and the ruling itself from the library's error
(:func:`moonrules.i18n.render`) where replay raised one, or from its sentences where
only the notation can be wrong (a call by the wrong seat, a wrong score line, a failed
claim). Each ruling ends with its clause quoted from the rulebook in that language
(:mod:`moonrules.i18n.rulebook`). A line no message id matches stays English and is
named in :attr:`Told.untranslated`: the tests hold the examples' reports to none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, Protocol

import attrs

from moonrules.i18n import messages as m
from moonrules.i18n.catalogs import SOURCE_LANGUAGE, checked_language, translations
from moonrules.i18n.render import render
from moonrules.i18n.rulebook import clause_text
from moonrules.i18n.sentences import translate
from moonrules.rules.errors import IllegalAction


class _Ruling(Protocol):
    """What of a :class:`moonrules.arbitration.report.Ruling` is told again."""

    @property
    def label(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def rule(self) -> str: ...
    @property
    def text(self) -> str: ...


class _Violation(Protocol):
    @property
    def error(self) -> IllegalAction | None: ...


class _Replay(Protocol):
    @property
    def violation(self) -> _Violation | None: ...


class Checked(Protocol):
    """What of a :class:`moonrules.arbitration.report.Report` is told again (this layer
    sits below the arbitration: it reads the report, it does not import it)."""

    @property
    def ruling(self) -> _Ruling | None: ...
    @property
    def replay(self) -> _Replay: ...
    @property
    def notation_ruling(self) -> bool: ...


_WHY_STEP: Final = re.compile(r"(?P<indent>\s*)(?P<k>\d+)\. (?P<text>.*) \((?P<rule>[A-Z]+-\d+)\)")
_INDENT: Final = re.compile(r"\s*")
_WORD: Final = re.compile(r"[^\W\d_]")


@attrs.frozen(slots=True)
class Told:
    """A report in a language: its text, and the lines left in English (none, when every
    sentence of the report has a message id)."""

    text: str
    untranslated: tuple[str, ...] = ()


def quote_line(rule: str, lang: str) -> str | None:
    """The clause ``rule`` quoted from the rulebook in ``lang``, as the line a ruling ends
    with (``None`` for a clause the rulebook has not)."""
    text = clause_text(rule, lang)
    if text is None:
        return None
    label = translations(checked_language(lang)).gettext(m.CLAUSE)
    return label.format(rule=rule, text=text)


def ruling_text(report: Checked, lang: str) -> str | None:
    """The report's ruling, one paragraph in ``lang`` (``None`` for a valid record, or a
    ruling none of whose sentences can be told in ``lang``)."""
    ruling = report.ruling
    if ruling is None:
        return None
    t = translations(checked_language(lang))
    where = translate(ruling.label, lang, m.WHERE)
    if where is None:
        return None
    if ruling.line:
        where += " " + t.gettext(m.AT_LINE).format(line=ruling.line)
    violation = report.replay.violation
    error = violation.error if violation is not None else None
    if error is not None and not report.notation_ruling and error.rule == ruling.rule:
        return f"{where}: {render(error, lang)}"
    english = ruling.text
    prefix = ruling.label + (f" (line {ruling.line})" if ruling.line else "") + ": "
    body = translate(english.removeprefix(prefix), lang)
    return None if body is None else f"{where}: {body}"


def report_in(report: Checked, english: str, lang: str) -> Told:
    """The report as ``moonrules check`` prints it, in ``lang``: ``english`` is its text
    (:func:`moonrules.arbitration.format_report`)."""
    lang = checked_language(lang)
    if lang == SOURCE_LANGUAGE:
        return Told(english)
    out: list[str] = []
    left: list[str] = []
    lines = english.splitlines()
    ruling_line = f"  {report.ruling.text}" if report.ruling is not None else None
    for k, line in enumerate(lines):
        said: str | None
        if not line.strip():
            said = line
        elif line == ruling_line and k > 0 and lines[k - 1] == "RULING":
            said = ruling_text(report, lang)
            if said is not None:
                said = "  " + said
                assert report.ruling is not None
                quoted = quote_line(report.ruling.rule, lang)
                if quoted is not None:
                    said += "\n  " + quoted
        else:
            said = _line(line, lang)
        if said is None:
            left.append(line)
            said = line
        out.append(said)
    return Told("\n".join(out), tuple(left))


def line_in(line: str, lang: str) -> str | None:
    """One line a command prints, in ``lang`` (its indentation kept; a numbered "why"
    step from the reasons' ids); ``None`` if no message id matches it."""
    if not _WORD.search(line):  # numbers, tiles and signs only: the same in every language
        return line
    return _line(line, checked_language(lang))


def _line(line: str, lang: str) -> str | None:
    step = _WHY_STEP.fullmatch(line)
    if step is not None:
        text = translate(step["text"], lang, m.REASONS)
        if text is None:
            return None
        return f"{step['indent']}{step['k']}. {text} ({step['rule']})"
    found = _INDENT.match(line)
    indent = found.group() if found else ""
    said = translate(line[len(indent) :], lang)
    if said is None:
        return None
    return indent[:2] + said if len(indent) > 4 else indent + said


@attrs.define(slots=True)
class PageWords:
    """The words of a page (the HTML report, the review) in ``lang``: call it with an
    English sentence of the page, get it back in ``lang``; a sentence no message id
    matches comes back in English and is kept in :attr:`untranslated`.

    With a checked report, its ruling's paragraph is told as :func:`ruling_text` tells
    it, the clause quoted after it, and its "why" as the error's sentence.
    """

    lang: str
    report: Checked | None = None
    untranslated: list[str] = attrs.field(factory=list)

    def __call__(self, text: str) -> str:
        lang = checked_language(self.lang)
        if lang == SOURCE_LANGUAGE or not _WORD.search(text):
            return text
        said = self._ruling(text, lang)
        if said is None:
            said = translate(text.strip(), lang, m.PAGE)
        if said is None:
            self.untranslated.append(text)
            return text
        return said

    def _ruling(self, text: str, lang: str) -> str | None:
        ruling = self.report.ruling if self.report is not None else None
        if ruling is None:
            return None
        if text == ruling.text:
            said = ruling_text(self.report, lang) if self.report is not None else None
            quoted = quote_line(ruling.rule, lang)
            if said is not None and quoted is not None:
                said += " " + quoted
            return said
        why = getattr(ruling, "why", None)
        if text == why and self.report is not None:
            violation = self.report.replay.violation
            error = violation.error if violation is not None else None
            if error is not None and not self.report.notation_ruling and error.rule == ruling.rule:
                return render(error, lang)
        return None


Translate = Callable[[str], str]


def page_title(message: str, name: str, lang: str) -> str:
    """A page's title, ``message`` (one of :data:`moonrules.i18n.messages.TITLES`) with the
    file's ``name``, in ``lang``."""
    return translations(checked_language(lang)).gettext(message).format(name=name)


__all__ = [
    "Checked",
    "PageWords",
    "Told",
    "Translate",
    "line_in",
    "page_title",
    "quote_line",
    "report_in",
    "ruling_text",
]
