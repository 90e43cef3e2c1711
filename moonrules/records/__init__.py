"""Game records: the JSON record format, the text notation, and replaying a record step by step.

:func:`to_record` writes a state's record and :func:`from_record` rebuilds the state
(:mod:`moonrules.records.record`, :mod:`moonrules.records.replay`); :func:`read_record` reads a
record from a file or from its text, in JSON or in the notation (:mod:`moonrules.records.reading`);
:func:`replay` checks a record step by step and says where it first breaks a rule
(:mod:`moonrules.records.replay`); :func:`players_of` gives the names a
record gave its seats (:mod:`moonrules.records.players`). The notation itself is
:mod:`moonrules.records.notation`.
"""

from __future__ import annotations

from moonrules.records.notation import NotationError
from moonrules.records.reading import read_record
from moonrules.records.record import (
    HandSummary,
    RecordViolation,
    ReplayResult,
    Violation,
    load_record,
    players_of,
    to_record,
)
from moonrules.records.replay import from_record, replay
from moonrules.records.values import RecordError, RecordRulesError, UnknownRulesError

__all__ = [
    "HandSummary",
    "NotationError",
    "RecordError",
    "RecordRulesError",
    "RecordViolation",
    "ReplayResult",
    "UnknownRulesError",
    "Violation",
    "from_record",
    "load_record",
    "players_of",
    "read_record",
    "replay",
    "to_record",
]
