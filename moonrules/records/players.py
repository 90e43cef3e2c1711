"""The players' names a record may hold: its optional ``players`` field.

``"players": ["Ann", null, "Bo"]`` names the player at each seat, by seat (SEAT-1): one
entry per seat of the record's rule set, a name or ``null`` for a seat without one. A name
is text of 1 to :data:`MAX_NAME_LENGTH` characters once blanks at either end are trimmed,
with no control or format character (Unicode category C: a line break, a tab, a direction
override, …) nor a line or paragraph separator anywhere in it. Names are not part of the
game: a replay never reads them, and two games that differ only in names are equal.

>>> parse_players(["Ann", None, " Bo "], 3)
('Ann', None, 'Bo')
>>> parse_players(["Ann", None], 3)
Traceback (most recent call last):
...
moonrules.records.values.RecordError: players: one name (or null) per seat: these rules \
have 3 seats, and the list has 2 entries
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from moonrules.records.values import JSON, RecordError, json_kind
from moonrules.rules.errors import quote

MAX_NAME_LENGTH: Final = 40
"""The longest name a record holds, in characters, once trimmed."""

Players = tuple[str | None, ...]
"""The names of a record's players, by seat (``None`` for a seat without a name), trimmed."""

_BREAKING: Final = re.compile("[\t\n\x0b\x0c\r\x1c-\x1f\x85\u2028\u2029]")
"""The blanks :meth:`str.strip` would trim that a name may not hold: control characters and
line or paragraph separators (every other blank is a space). Searched in the whole text at
C speed, so that a name padded with a million blanks is refused as quickly as any other."""


def player_name(value: JSON, path: str) -> str:
    """A seat's name read from a record, trimmed; :class:`RecordError` naming ``path`` (e.g.
    ``players[2]``) for anything else. Bounded time whatever ``value`` is: the text is
    trimmed and searched by C code, and only its at most 40 trimmed characters looked at
    one by one."""
    if not isinstance(value, str):
        raise RecordError(
            path, f"a name is text, or null for a seat without one; got {json_kind(value)}"
        )
    name = value.strip()
    if not name:
        raise RecordError(
            path,
            "a name has at least one character besides blanks; write null for a seat without one",
        )
    if len(name) > MAX_NAME_LENGTH:
        raise RecordError(
            path,
            f"a name has at most {MAX_NAME_LENGTH} characters (blanks at either end not "
            f"counted), not {len(name):,}: {quote(name, 20)}",
        )
    found = _BREAKING.search(value)
    bad = (
        found.group()
        if found is not None
        else next((c for c in name if unicodedata.category(c)[0] == "C"), None)
    )
    if bad is not None:
        raise RecordError(
            path,
            f"U+{ord(bad):04X} is a control or format character or a line break; a name is "
            "letters, digits, spaces and signs on one line",
        )
    return name


def parse_players(value: JSON, seats: int, path: str = "players") -> Players:
    """A record's ``players`` field: one name or ``None`` per seat of ``seats``, each name
    trimmed (:func:`player_name`); :class:`RecordError` naming the field or the entry
    (``players[2]: …``) otherwise. The length is checked first, so that a list of a million
    entries is refused at once."""
    if not isinstance(value, list):
        raise RecordError(
            path, f"expected a list of names (text, or null), one per seat; got {json_kind(value)}"
        )
    if len(value) != seats:
        raise RecordError(
            path,
            f"one name (or null) per seat: these rules have {seats} seats, and the list has "
            f"{len(value):,} entr{'y' if len(value) == 1 else 'ies'}",
        )
    return tuple(None if v is None else player_name(v, f"{path}[{s}]") for s, v in enumerate(value))


__all__ = ["MAX_NAME_LENGTH", "Players", "parse_players", "player_name"]
