"""A record's values as JSON: tiles, calls, trumps and rule sets written and read.

The pieces :mod:`moonrules.records.record` builds records from, and the errors
that name where a record cannot be read (``path``, e.g. ``hands[1].plays[4]``).
The protocol reads requests with the same functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

import attrs

from moonrules.game import Bid, Pass
from moonrules.rules.auction import PASS
from moonrules.rules.errors import ParseError, RulesError, quote
from moonrules.rules.ruleset import (
    PRESETS,
    AllPass,
    FirstLead,
    MoonMade,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
    rules_by_name,
)
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, TileSet

JSON = Any
"""A JSON value as :mod:`json` reads it (the one definition; other modules import it)."""


class RecordError(ParseError):
    """A record that cannot be read: not the shape of a record (before any rule applies).

    ``path`` says where, e.g. ``hands[1].plays[4]``.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


class UnknownRulesError(RecordError):
    """A record (or request) names a rule set that matches no preset or alias."""


class RecordRulesError(RecordError):
    """A record's rule set is well formed but cannot be played (RULES-1, TRUMP-5, BID-4).

    ``rule`` is the clause the rule set breaks.
    """

    def __init__(self, path: str, message: str, rule: str) -> None:
        super().__init__(path, message)
        self.rule = rule


def tile_json(t: Tile) -> str:
    return str(t)


def tiles_json(ts: Sequence[Tile]) -> list[str]:
    """A tile list as the protocol writes it: sorted high first (as tiles order)."""
    return [str(t) for t in sorted(ts, key=_tile_order, reverse=True)]


def _tile_order(t: Tile) -> tuple[int, int]:
    """The order of tiles (``Tile``'s own, by ``high`` then ``low``), as a key: cheaper than
    comparing the tiles themselves."""
    return (t.high, t.low)


def call_json(call: int) -> str | int:
    return "pass" if call == PASS else call


def rules_json(rules: RuleSet) -> str | dict[str, JSON]:
    """A preset's name, or every field of a rule set that is no preset."""
    name = rules.name
    return name if name is not None else rules.to_json()


_ENUM_FIELDS: dict[str, type[Any]] = {
    "tile_set": TileSet,
    "all_pass": AllPass,
    "widow_timing": WidowTiming,
    "first_lead": FirstLead,
    "moon_made": MoonMade,
    "scoring": Scoring,
    "tie": TieRule,
    "renege": Renege,
}


_INT_FIELDS = ("players", "min_bid", "target")
_BOOL_FIELDS = ("moon", "doubles_trump", "no_trump")


def rules_from_json(value: JSON, path: str = "rules") -> RuleSet:
    """A rule set from a preset name (or alias) or an object of rule-set fields.

    ``None`` gives the standard rules. Raises :class:`UnknownRulesError` for a
    name that matches no preset, :class:`RecordError` for an unknown field or a
    value of the wrong type, and :class:`RecordRulesError` (with the clause) for
    a rule set whose fields contradict each other (RULES-1, TRUMP-5, BID-4).
    """
    if value is None:
        return PRESETS["standard"]
    if isinstance(value, str):
        try:
            return rules_by_name(value)
        except ParseError as e:
            raise UnknownRulesError(path, str(e)) from None
    if not isinstance(value, dict):
        raise RecordError(
            path, f"expected a preset name or an object of rule-set fields, got {json_kind(value)}"
        )
    known = [f.name for f in attrs.fields(RuleSet)]
    kwargs: dict[str, Any] = {}
    for key, v in value.items():
        where = f"{path}.{key}"
        if key not in known:
            raise RecordError(where, f"unknown rule-set field; the fields are {', '.join(known)}")
        if key in _ENUM_FIELDS:
            choices = [e.value for e in _ENUM_FIELDS[key]]
            if not isinstance(v, str) or v not in choices:
                raise RecordError(where, f"expected one of {choices}, got {json_kind(v)}")
            kwargs[key] = _ENUM_FIELDS[key](v)
        elif key == "trump_numbers":
            if not isinstance(v, list) or any(type(n) is not int for n in v):
                raise RecordError(where, f"expected a list of numbers 0-6, got {json_kind(v)}")
            kwargs[key] = tuple(v)
        elif key in _INT_FIELDS:
            kwargs[key] = expect_int(v, where, "a whole number")
        else:
            assert key in _BOOL_FIELDS
            if not isinstance(v, bool):
                raise RecordError(where, f"expected true or false, got {json_kind(v)}")
            kwargs[key] = v
    try:
        return RuleSet(**kwargs)
    except RulesError as e:
        raise RecordRulesError(path, e.message, e.rule) from None


_TILE_TEXT = re.compile(r"[0-9]-[0-9]")
_TILE_TEXTS: Final[dict[str, Tile]] = {
    text: t for t in TILES for text in (f"{t.high}-{t.low}", f"{t.low}-{t.high}")
}
"""Every tile's two writings (TILE-1), read once: what :func:`parse_tile_json` reads most.
Any other text goes through the checks below, so its error stays the same."""


def parse_tile_json(value: JSON, path: str) -> Tile:
    """A tile written as the protocol and records write it: ``"a-b"``, either order (TILE-1).

    Exactly two digits 0-6 joined by ``-``, nothing around them; anything else
    raises :class:`RecordError` naming ``path``.
    """
    if type(value) is str:
        known = _TILE_TEXTS.get(value)
        if known is not None:
            return known
    elif not isinstance(value, str):
        raise RecordError(path, f'expected a tile like "6-4", got {json_kind(value)}')
    if _TILE_TEXT.fullmatch(value) is None:
        raise RecordError(
            path, f'{quote(value)} is not a tile: write two numbers 0-6 joined by "-", like "6-4"'
        )
    try:
        return Tile.parse(value)
    except ParseError as e:
        raise RecordError(path, str(e)) from None


_BIG: Final = 10**40


def json_kind(value: JSON) -> str:
    """A JSON value described for an error message: ``'the text "x"'``, ``'a list'``, …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int) and not -_BIG < value < _BIG:
        return "a number of more than 40 digits"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}, not a JSON value"  # a Python value passed by mistake


def expect_int(value: JSON, path: str, what: str) -> int:
    """``value`` if it is a whole number, else :class:`RecordError` naming ``path``."""
    if type(value) is not int:
        raise RecordError(path, f"expected {what}, got {json_kind(value)}")
    return value


def expect_list(value: JSON, path: str, what: str) -> list[JSON]:
    """``value`` if it is a list, else :class:`RecordError` naming ``path``."""
    if not isinstance(value, list):
        raise RecordError(path, f"expected {what}, got {json_kind(value)}")
    return value


def parse_call_json(value: JSON, path: str) -> Pass | Bid:
    """A call: ``"pass"`` or a whole number, a bid the rules then judge (BID-4).

    ``0`` and negative numbers are read as bids, which no rule set allows; only
    ``"pass"`` is a pass.
    """
    if value == "pass" and isinstance(value, str):
        return Pass()
    if type(value) is int:
        return Bid(value)
    raise RecordError(path, f'expected "pass" or a bid (a whole number), got {json_kind(value)}')


def parse_trump_json(value: JSON, path: str) -> Trump:
    """A trump as records and the protocol write it: 0-6, ``"doubles"``, ``"none"`` (TRUMP-1)."""
    if type(value) is int and 0 <= value <= 6:
        return Trump.of_number(value)
    if value == "doubles" and isinstance(value, str):
        return Trump.DOUBLES
    if value == "none" and isinstance(value, str):
        return Trump.NONE
    raise RecordError(path, f'expected a trump: 0-6, "doubles" or "none", got {json_kind(value)}')


__all__ = [
    "JSON",
    "RecordError",
    "RecordRulesError",
    "UnknownRulesError",
    "call_json",
    "expect_int",
    "expect_list",
    "json_kind",
    "parse_call_json",
    "parse_tile_json",
    "parse_trump_json",
    "rules_from_json",
    "rules_json",
    "tile_json",
    "tiles_json",
]
