"""Turn clocks: a room option that keeps a walked-away seat from stalling the game.

A room made with ``"clock": {"turn": T, "bank": B}`` gives each seat for a person ``T``
seconds for each of its actions, and a bank of ``B`` seconds for the whole game (as a
chess clock's delay and main time): a turn that lasts longer than ``T`` spends the bank
by the excess. When a seat's turn has lasted ``T`` plus what is left of its bank, the
bank is spent (0) and the room's clock bot makes the seat's move, through the bot pool as
a bot seat's move is made; the seat is marked *played by the clock* and every later turn
of it has ``T`` seconds (its bank spent) until its player acts again, or comes back (a
connection of the seat's link), which clears the mark. A seat's clock runs whether its
player is connected or not; a bot's seat has no clock; no clock runs before every seat
has joined nor once the game is over.

The clock is stored with each action, in the same transaction (the deadline as a wall
clock time, so that it holds across a restart of the server or a move of the room to
another process); its messages give the time left in milliseconds, which the page
counts down from when it heard them (no clock of the client's is compared with the
server's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from moonrules import GameState, to_record
from moonrules.records.annotations import Annotation, hand_actions
from moonrules.records.values import JSON, json_kind
from moonrules.rules.errors import quote

MIN_TURN: Final = 0.1
"""The shortest turn, in seconds."""
MAX_TURN: Final = 3600.0
"""The longest turn, in seconds (an hour)."""
MAX_BANK: Final = 86400.0
"""The largest bank, in seconds (a day)."""


class ClockOptionError(ValueError):
    """A room's ``clock`` option that is not one (its message names what is wrong)."""


def parse_clock(value: JSON, bots: Sequence[str] = ()) -> dict[str, JSON] | None:
    """The ``clock`` option of a room request: ``null`` (no clock, the default) or
    ``{"turn": SECONDS, "bank": SECONDS, "bot": LEVEL}`` (``bank`` optional, 0; ``bot``
    optional: the level, one of ``bots``, that plays a seat whose time ran out, else the
    table's :func:`clock_bot`); :class:`ClockOptionError` with a one-line message otherwise."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ClockOptionError(
            f'clock: an object {{"turn": seconds, "bank": seconds}} or null, not {json_kind(value)}'
        )
    for key in value:
        if key not in ("turn", "bank", "bot"):
            raise ClockOptionError(
                f"clock: {quote(key)} is an unknown member; a clock has turn, bank and bot"
            )
    if "turn" not in value:
        raise ClockOptionError("clock.turn: missing; the seconds each turn has")
    turn = _seconds(value["turn"], "clock.turn", MIN_TURN, MAX_TURN)
    bank = _seconds(value.get("bank", 0), "clock.bank", 0.0, MAX_BANK)
    clock: dict[str, JSON] = {"turn": turn, "bank": bank}
    if "bot" in value:
        bot = value["bot"]
        if not isinstance(bot, str):
            raise ClockOptionError(f"clock.bot: a bot level's name, not {json_kind(bot)}")
        if bot not in bots:
            raise ClockOptionError(
                f"clock.bot: {quote(bot)} is no bot of this table; the bots are {', '.join(bots)}"
            )
        clock["bot"] = bot
    return clock


def _seconds(value: JSON, path: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ClockOptionError(f"{path}: a number of seconds, not {json_kind(value)}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ClockOptionError(f"{path}: {low:g} to {high:g} seconds, not {number_text(value)}")
    return float(value)


def number_text(value: float) -> str:
    """A number as a message quotes it: every digit it was sent with (the shortest text
    that reads back as the same number), never rounded.

    >>> number_text(3600.0001), number_text(-1), number_text(1e-7), number_text(2.0)
    ('3600.0001', '-1', '1e-07', '2')
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def action_number(state: GameState) -> tuple[int, int]:
    """The hand (from 1) and the action within it (from 1) of the action to be taken in
    ``state``, as a record's annotations number them."""
    hands = to_record(state)["hands"]
    assert isinstance(hands, list)
    return len(hands), hand_actions(hands[-1]) + 1


class Clock:
    """The clocks of one room (mutable, owned by the room; taken under the room's lock)."""

    def __init__(self, turn: float, bank: float, seats: int) -> None:
        self.turn = turn
        self.bank = bank
        self.bot: str | None = None
        """The room's clock bot (its ``clock.bot``), or ``None``: the table's own."""
        self.banks: list[float] = [bank] * seats
        """Per seat, the seconds of bank left (as at the start of its running turn)."""
        self.seat: int | None = None
        """The seat whose clock runs, or ``None``."""
        self.seq = -1
        """The room's action count when the running turn began."""
        self.start = 0.0
        """When the running turn began (wall clock, seconds since the epoch)."""
        self.auto: set[int] = set()
        """Seats played by the clock (until their player acts or comes back)."""
        self.notes: list[Annotation] = []
        """The record's annotations: the actions the clock's bot made."""
        self.moving: int | None = None
        """The seat whose turn ran out while the clock's bot thinks out its move (not stored):
        a player who comes back meanwhile clears it, so that the move, which is still the
        clock's (the time did run out), does not take the seat away from them again."""

    @classmethod
    def of(cls, options: JSON, seats: int) -> Clock | None:
        """The clock a room's stored options ask for, or ``None``."""
        given = options.get("clock") if isinstance(options, dict) else None
        if not isinstance(given, dict):
            return None
        turn, bank, bot = given.get("turn"), given.get("bank", 0.0), given.get("bot")
        if not isinstance(turn, (int, float)) or not isinstance(bank, (int, float)):
            return None
        clock = cls(float(turn), float(bank), seats)
        clock.bot = bot if isinstance(bot, str) else None
        return clock

    def deadline(self) -> float | None:
        """When the running turn runs out (wall clock), or ``None``."""
        if self.seat is None:
            return None
        return self.start + self.turn + self.banks[self.seat]

    def follow(self, seq: int, seat: int | None, now: float) -> None:
        """The room is at action ``seq`` with ``seat`` (a person's, or ``None``) to act:
        the turn that was running is charged to its seat, and a new one begins."""
        if seq == self.seq and seat == self.seat:
            return
        if self.seat is not None:
            used = now - self.start
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - max(0.0, used - self.turn))
        self.seat, self.seq, self.start = seat, seq, now

    def moves_for(self, seat: int) -> None:
        """The running turn of ``seat`` ran out: the clock's bot starts on its move."""
        self.moving = seat

    def ran_out(self, seat: int, note: Annotation) -> None:
        """The running turn of ``seat`` ran out: its bank spent, the move the bot's, and the
        seat the clock's from now on unless its player came back while the move was thought
        out (:meth:`come_back`)."""
        self.banks[seat] = 0.0
        if self.moving == seat:
            self.auto.add(seat)
        self.moving = None
        self.notes.append(note)

    def message(self, now: float) -> dict[str, JSON]:
        """The clock as a state message carries it: milliseconds left, no time of day."""
        running = self.seat
        turn_left = bank_left = None
        if running is not None:
            spent = max(0.0, now - self.start)
            turn_left = max(0, round((self.turn - spent) * 1000))
            over = max(0.0, spent - self.turn)
            bank_left = max(0, round((self.banks[running] - over) * 1000))
        return {
            "turn": round(self.turn * 1000),
            "bank": round(self.bank * 1000),
            "running": running,
            "turn_left": turn_left,
            "bank_left": bank_left,
            "seats": [
                {"bank": round(b * 1000), "auto": s in self.auto} for s, b in enumerate(self.banks)
            ],
        }

    def to_json(self) -> dict[str, JSON]:
        """What is stored with each action (:meth:`from_json` reads it back)."""
        return {
            "banks": list(self.banks),
            "seat": self.seat,
            "seq": self.seq,
            "start": self.start,
            "auto": sorted(self.auto),
            "notes": [n.to_json() for n in self.notes],
        }

    def load(self, value: JSON) -> None:
        """The clock as stored (a value :meth:`to_json` wrote; anything else is ignored)."""
        if not isinstance(value, dict):
            return
        banks, seat, seq, start = (value.get(k) for k in ("banks", "seat", "seq", "start"))
        if isinstance(banks, list) and len(banks) == len(self.banks):
            self.banks = [float(b) if isinstance(b, (int, float)) else 0.0 for b in banks]
        if (seat is None or isinstance(seat, int)) and isinstance(seq, int):
            self.seat, self.seq = seat, seq
        if isinstance(start, (int, float)):
            self.start = float(start)
        auto = value.get("auto")
        if isinstance(auto, list):
            self.auto = {s for s in auto if isinstance(s, int)}
        notes = value.get("notes")
        if isinstance(notes, list):
            self.notes = [_note(n) for n in notes if isinstance(n, dict)]

    def come_back(self, seat: int) -> bool:
        """The seat's player is back (connected, or acted): no longer played by the clock,
        nor by a move the clock's bot is still thinking out for it; whether it was."""
        if self.moving == seat:
            self.moving = None
        if seat in self.auto:
            self.auto.discard(seat)
            return True
        return False


def _note(value: dict[str, JSON]) -> Annotation:
    hand, action, seat, bot = (value.get(k) for k in ("hand", "action", "seat", "bot"))
    assert isinstance(hand, int) and isinstance(action, int) and isinstance(seat, int)
    return Annotation(hand, action, seat, "clock", str(bot))


def clock_bot(names: Sequence[str], chosen: str | None = None) -> str:
    """The bot that plays for a seat whose time ran out: the room's own (``chosen``, its
    ``clock.bot``) while the table seats it, else ``strong`` when the table has it (the
    hints' bot), else the table's first."""
    if chosen is not None and chosen in names:
        return chosen
    return "strong" if "strong" in names else names[0]


__all__ = [
    "MAX_BANK",
    "MAX_TURN",
    "MIN_TURN",
    "Clock",
    "ClockOptionError",
    "action_number",
    "clock_bot",
    "number_text",
    "parse_clock",
]
