"""Arbitration: rulings on records and single situations, as text, HTML and SVG pictures.

:func:`read_record` reads a record (JSON or the text notation) and :func:`check`
replays it into a :class:`Report` with the :class:`Ruling` on its first illegal step
(:mod:`~moonrules.arbitration.check`, :mod:`~moonrules.arbitration.report`);
:func:`format_report` prints a report as text (:mod:`~moonrules.arbitration.report_text`),
:func:`report_html` as a self-contained page (:mod:`~moonrules.arbitration.report_html`).
The ``explain_*`` functions answer one situation with its clause chain
(:mod:`~moonrules.arbitration.explain`); :mod:`~moonrules.arbitration.render` draws SVG.
"""

from __future__ import annotations

from moonrules.arbitration.check import UnreadableDeal, check
from moonrules.arbitration.explain import (
    Explanation,
    Reason,
    explain_auction,
    explain_play,
    explain_score,
    explain_trick,
    parse_calls,
    side_name,
)
from moonrules.arbitration.report import (
    ClaimReport,
    HandReport,
    RenegeReport,
    Report,
    Ruling,
    Source,
    TrickReport,
    read_record,
)
from moonrules.arbitration.report_html import report_html
from moonrules.arbitration.report_text import format_report

__all__ = [
    "ClaimReport",
    "Explanation",
    "HandReport",
    "Reason",
    "RenegeReport",
    "Report",
    "Ruling",
    "Source",
    "TrickReport",
    "UnreadableDeal",
    "check",
    "explain_auction",
    "explain_play",
    "explain_score",
    "explain_trick",
    "format_report",
    "parse_calls",
    "read_record",
    "report_html",
    "side_name",
]
