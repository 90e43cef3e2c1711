"""A record kept by the game it was read from, and written back in its own spellings.

A state read by :func:`~moonrules.records.replay.from_record` keeps the record as
:func:`kept` stores it; :func:`~moonrules.records.record.to_record` then gives it
back exactly through :func:`as_written`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from moonrules.records.values import JSON, RecordError, rules_from_json

_ABSENT: Final[Mapping[str, JSON]] = MappingProxyType(
    {"rules": "standard", "bids": (), "plays": ()}
)
"""What a record means by leaving a field out: the standard rules, no calls, no plays."""


def as_written(value: JSON, source: JSON, key: str) -> JSON:
    """``value``, a part of a record :func:`to_record` wrote, in the spellings of ``source``,
    the same part of the record the game was read from; ``key`` names the part (``""`` for
    the whole record, ``"hand"`` for one hand, else the field's name).

    The two are walked in parallel, and wherever the source's value means the same as the
    written one, the source's is kept: the same tile with either end first (TILE-1), the
    same tiles dealt to a seat in any order, the same rule set named by an alias, in other
    letters, or as an object of fields. A field the source left out stays out while the
    written value is what leaving it out means (:data:`_ABSENT`); fields keep the source's
    order. Whatever the game added after it was read (calls, plays, hands) and whatever
    differs is written as :func:`to_record` writes it, so the result is always a record of
    the state, and the record read is given back exactly while the state is the one read.
    """
    if key in ("", "hand") and isinstance(value, dict) and isinstance(source, dict):
        out = {k: as_written(value[k], v, k) for k, v in source.items() if k in value}
        absent = object()
        for k, v in value.items():
            if k not in source and _ABSENT.get(k, absent) != (
                tuple(v) if isinstance(v, list) else v
            ):
                out[k] = v
        return out
    if key in ("hands", "plays", "deal") and isinstance(value, list) and isinstance(source, list):
        part = "hand" if key == "hands" else "tile" if key == "plays" else "seat"
        done = [as_written(v, s, part) for v, s in zip(value, source, strict=False)]
        return done + value[len(done) :]
    if key in ("tile", "widow", "discard") and isinstance(value, str) and isinstance(source, str):
        return source if source in (value, value[::-1]) else value
    if key == "seat" and isinstance(value, list) and isinstance(source, list):
        if not all(isinstance(t, str) for t in source):
            return value
        spelt = sorted(max(t, t[::-1]) for t in source)  # each tile high end first
        return list(source) if spelt == sorted(value) else value
    if key == "rules" and source != value:
        try:
            return source if rules_from_json(source) == rules_from_json(value) else value
        except RecordError:
            return value
    return value


def kept(record: dict[str, JSON]) -> object:
    """A record as a :class:`Game` keeps it: its JSON text, or, for a record with a number
    of more digits than Python writes as text, the record frozen (:func:`_frozen`)."""
    try:
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError):
        return _frozen(record)


@attrs.frozen(slots=True)
class _Object:
    """A JSON object frozen, its members in order."""

    members: tuple[tuple[str, object], ...]


def _frozen(value: JSON) -> object:
    """A JSON value as an immutable value (objects as :class:`_Object`, lists as tuples)."""
    if isinstance(value, dict):
        return _Object(tuple(zip(map(str, value), map(_frozen, value.values()), strict=True)))
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    return value


def thawed(value: object) -> JSON:
    """The JSON value :func:`_frozen` froze, as new dicts and lists."""
    if isinstance(value, _Object):
        return {k: thawed(v) for k, v in value.members}
    if isinstance(value, tuple):
        return [thawed(v) for v in value]
    return value


__all__ = ["as_written", "kept", "thawed"]
