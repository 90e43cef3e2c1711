"""The library's error types.

Every error raised on purpose by moonrules is a :class:`MoonError`. Errors about
something the rules forbid carry the ID of the clause of ``spec/rules.md`` that
forbids it, and a sentence a player understands.
"""

from __future__ import annotations


class MoonError(Exception):
    """Base class of every error moonrules raises on purpose."""


class ParseError(MoonError, ValueError):
    """Text that should name a tile, trump, call, rule set or record does not."""


class RulesError(MoonError, ValueError):
    """A rule set that cannot be played: its options contradict each other (RULES-1)."""

    rule: str

    def __init__(self, message: str, rule: str = "RULES-1") -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class IllegalAction(MoonError):
    """Well-formed, but the rules forbid it.

    ``rule`` is the clause ID (e.g. ``"FOLLOW-2"``); ``message`` a sentence a player
    understands.
    """

    rule: str
    message: str

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class OutOfTurn(IllegalAction):
    """A player acted when it was not their turn, or out of the current phase (TURN-1)."""


class IllegalDeal(IllegalAction):
    """A supplied deal does not divide the rule set's tiles exactly (DEAL-3)."""


__all__ = ["IllegalAction", "IllegalDeal", "MoonError", "OutOfTurn", "ParseError", "RulesError"]
