"""The values a check produces: the record read, each hand as played, the ruling.

:func:`read_record` reads a record (JSON or the text notation of
:mod:`moonrules.records.notation`) as a :class:`Source`; :func:`~moonrules.arbitration.check.check`
turns it into a :class:`Report`: hand by hand what happened, and at the first step the
rules forbid, a :class:`Ruling` saying which hand and step, what was done, why it is
illegal, what was allowed instead and the clause.
"""

from __future__ import annotations

from typing import Literal

import attrs

from moonrules.arbitration.explain import Explanation, Reason
from moonrules.game import Claim, GameState
from moonrules.records.jsontext import MAX_RECORD_BYTES
from moonrules.records.notation import Notation, looks_like_json, parse_notation
from moonrules.records.record import JSON, RecordError, ReplayResult, load_record
from moonrules.rules.contract import check_int, check_str, typed
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile


@attrs.frozen(slots=True, field_transformer=typed)
class Source:
    """A record as read: the JSON record, and the notation it came from (if any)."""

    record: JSON
    notation: Notation | None = None

    @property
    def format(self) -> Literal["json", "notation"]:
        return "json" if self.notation is None else "notation"


def read_record(text: str, *, max_length: int | None = MAX_RECORD_BYTES) -> Source:
    """Read record text, JSON or the notation (told apart by the first character).

    Raises :class:`~moonrules.records.record.RecordError` (with the line, or the field)
    for text that is neither; JSON longer than ``max_length`` characters is refused.
    (``moonrules.read_record`` reads a file or text into the game's state.)
    """
    check_str(text, "text", "the record's text (a str)")
    if max_length is not None:
        check_int(max_length, "max_length", 1, what="a length in characters")
    if not text.strip():
        raise RecordError("", "the record is empty: expected a JSON record or the notation")
    if looks_like_json(text):
        return Source(load_record(text.lstrip("\ufeff"), max_length=max_length))
    n = parse_notation(text.lstrip("\ufeff"))
    return Source(n.record, n)


@attrs.frozen(slots=True, field_transformer=typed)
class Ruling:
    """The first step of a record the rules forbid, told for people.

    ``hand`` and ``index`` are positions in the record (0-based, as in a
    :class:`~moonrules.records.record.Violation`); ``label`` says it for people ("Hand 2,
    trick 4"); ``why`` is the plain-words reason, ``allowed`` what was legal
    instead (``allowed_kind`` says what they are: plays, calls, …), ``reasons``
    the clause chain, ``line`` the notation line.
    """

    hand: int
    step: str
    index: int | None
    rule: str
    label: str
    seat: int | None
    why: str
    allowed: tuple[str, ...] = ()
    allowed_kind: str = ""
    reasons: tuple[Reason, ...] = ()
    line: int | None = None
    path: str | None = None
    defeating_line: tuple[tuple[int, Tile], ...] = ()
    tile: Tile | None = None
    """The tile played or discarded, for a ruling on a play or a discard."""
    verdict: str = "Illegal"
    """How the ruling ends: "Illegal", or for a claim "The claim fails"."""

    @property
    def text(self) -> str:
        """The ruling as one paragraph."""
        where = f"{self.label}{f' (line {self.line})' if self.line else ''}"
        out = f"{where}: {self.why} {self.verdict} ({self.rule})."
        if self.step == "score" and self.allowed:
            out += f" The correct totals are: {self.allowed[0]}."
        elif self.allowed_kind:
            legal = ", ".join(self.allowed) if self.allowed else "none"
            out += f" Legal {self.allowed_kind} were: {legal}."
        return out

    def to_json(self) -> dict[str, JSON]:
        """The protocol's violation object: ``hand``, ``step``, ``index``, ``rule``, ``message``."""
        return {
            "hand": self.hand,
            "step": self.step,
            "index": self.index,
            "rule": self.rule,
            "message": _cap(self.why),
        }


@attrs.frozen(slots=True, field_transformer=typed)
class TrickReport:
    """A trick as played: number, leader, tiles in play order, winner (``None`` if unfinished)."""

    number: int
    leader: int
    tiles: tuple[Tile, ...]
    winner: int | None
    players: int

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % self.players


@attrs.frozen(slots=True, field_transformer=typed)
class RenegeReport:
    """A renege scored under ``renege = penalty`` (RENEGE-2)."""

    seat: int
    tile: Tile
    trick: TrickReport
    holding: tuple[Tile, ...]
    legal: tuple[Tile, ...]
    rule: str
    bidder_side: bool
    """Whether the bidder's side reneged (then the contract is set; else it is made)."""
    explanation: Explanation


@attrs.frozen(slots=True, field_transformer=typed)
class HandReport:
    """One hand of a checked record, as far as the record goes."""

    number: int
    first_bidder: int
    deal: tuple[tuple[Tile, ...], ...]
    widow: Tile | None
    calls: tuple[tuple[int, int], ...]
    """``(seat, call)``: each call of the auction; a call is 0 for pass."""
    bidder: int | None
    bid: int | None
    thrown_in: bool
    discard: Tile | None
    trump: Trump | None
    trump_first: bool
    tricks: tuple[TrickReport, ...]
    tricks_won: tuple[int, ...]
    finished: bool
    made: bool | None
    deltas: tuple[int, ...] | None
    totals: tuple[int, ...]
    """Running totals after this hand (or so far, for an unfinished one)."""
    renege: RenegeReport | None
    sheet: tuple[int, ...] | None = None
    """The totals the record's ``score`` line gives, if any."""
    claim: Claim | None = None
    """The claim that ended the hand (CLAIM-1), if one did."""


@attrs.frozen(slots=True, field_transformer=typed)
class ClaimReport:
    """A claim line checked (CLAIM-1)."""

    seat: int
    tricks: int | None
    remaining: int
    holds: bool
    guaranteed: int
    defeating_line: tuple[tuple[int, Tile], ...]


@attrs.frozen(slots=True, field_transformer=typed)
class Report:
    """What :func:`check` found: the game hand by hand, and the ruling, if any."""

    rules: RuleSet
    rules_label: str
    seed: int | None
    hands: tuple[HandReport, ...]
    ruling: Ruling | None
    replay: ReplayResult
    state: GameState
    """The state reached: the end of the record, or just before the ruling's step."""
    end: str
    claim: ClaimReport | None = None
    source_format: str = "json"
    notation_ruling: bool = False

    @property
    def valid(self) -> bool:
        return self.ruling is None

    @property
    def status(self) -> int:
        """The exit status of ``moonrules check``: 0 valid, 1 a rule broken."""
        return 0 if self.ruling is None else 1

    def to_json(self) -> dict[str, JSON]:
        """The protocol's ``replay`` answer; for a ruling only the notation can give
        (a call by the wrong seat, a wrong ``score`` line, a failed ``claim``), the
        same answer shape with that violation."""
        if self.ruling is not None and self.notation_ruling:
            return {"valid": False, "violation": self.ruling.to_json()}
        return self.replay.to_json()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


__all__ = [
    "ClaimReport",
    "HandReport",
    "RenegeReport",
    "Report",
    "Ruling",
    "Source",
    "TrickReport",
    "read_record",
]
