"""The one error of the tournament package: a one-line reason, with the line at fault."""

from __future__ import annotations

from moonrules.rules.errors import MoonError


class TournamentError(MoonError, ValueError):
    """A tournament file, movement, log entry or director action that cannot be accepted.

    ``line`` is the line of the tournament file (or of the event log) at fault when it is
    known; the message then begins with it (``line 12: players[3].bot: …``).
    """

    line: int | None
    reason: str

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line
