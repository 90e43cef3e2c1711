"""A compact text notation for game records, readable and writable by hand.

A record in this notation is a few header lines and then, hand by hand, one
line per step of the game, in the order things happen::

    # a comment runs to the end of its line; blank lines are ignored
    rules standard
    seed 7
    player 0 Ann
    player 1 Bo Lee
    player 2

    hand 1
    first 0
    deal 0: 6-6 6-5 5-5 4-3 3-3 2-1 1-1
    deal 1: 6-4 6-3 6-2 5-4 5-2 4-4 3-1
    deal 2: 6-1 5-3 5-1 4-2 4-1 3-2 0-0
    widow 2-2
    0 bids 5
    1 passes
    2 passes
    discard 2-1
    trump 6
    trick 1: 6-6 6-4 6-1
    trick 2: 5-5 5-4 5-3
    score 5 1 1

Header: ``rules NAME`` (a preset name, or the rule set's fields as one JSON
object: ``rules {"players": 3, "renege": "penalty"}``) and ``seed N``; both
optional (standard rules, seed 0), both before the first hand. Then, optional too,
the players' names (the record's ``players`` field, :mod:`moonrules.records.players`):
``player S NAME``, at most one line per seat, after ``rules``; ``NAME`` is the rest of
the line, or a JSON string (``player 2 "No. \u0023 1"``) for a name that holds ``#``
(which begins a comment), begins with ``"`` or has blanks at either end; ``player S``
with no name, or no line, is a seat without a name. A record has ``players`` when the
notation has at least one ``player`` line, and :func:`write_notation` writes a line for
every seat of a record that has the field, so converting between the notation and JSON
keeps the names exactly.

A hand: ``hand N`` (numbered from 1, thrown-in hands included); ``first S`` (the
seat that bids first); one ``deal S: T T …`` line per seat; ``widow T`` (with a
widow); one line per call, ``S bids N`` or ``S passes``, in the order made;
``discard T`` and ``trump X`` (``X`` is 0-6, ``doubles`` or ``none``), in the order
the rules have them; and one ``trick K: T T …`` line per trick, the tiles in the
order played (the leader is implied: the bidder, then each trick's winner). Only
the last trick of a hand may be unfinished. A record may stop anywhere.

Two lines say what the people at the table asserted, and ``moonrules check``
verifies them: ``score A B C`` after a hand gives the running totals as the score
sheet has them (one per seat, or per team), and ``claim S all`` or ``claim S K``
as a record's last line says that seat *S* laid down their tiles and claimed all
the remaining tricks, or *K* of them for their side (CLAIM-1).

Seats are numbers (``seat 2 passes`` is also accepted); keywords and tiles may be
written in any case, tiles either end first. :func:`parse_notation` reads the
notation (errors name the line and what was expected, as a
:class:`NotationError`, a :class:`~moonrules.records.record.RecordError`);
:func:`write_notation` writes a record (a JSON value as
:func:`~moonrules.records.record.to_record` gives it) and the parser gives the same
record back.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

import attrs

from moonrules.records.jsontext import MAX_NUMBER_LENGTH, JSONTextError, loads
from moonrules.records.players import player_name
from moonrules.records.record import JSON, RecordError, parse_record, rules_from_json
from moonrules.rules.errors import QUOTE_LENGTH, ParseError, quote, wrong_type
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile


class NotationError(RecordError):
    """Notation text that cannot be read; ``line`` is its line number (1 = first)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}", message)
        self.line = line


@attrs.frozen(slots=True)
class ScoreLine:
    """A ``score`` line: the running totals the table wrote down after a hand."""

    hand: int
    """Index of the hand in the record (0 = the first)."""
    totals: tuple[int, ...]
    line: int


@attrs.frozen(slots=True)
class ClaimLine:
    """A ``claim`` line: a seat claims all remaining tricks (``tricks=None``) or some."""

    hand: int
    seat: int
    tricks: int | None
    line: int


@attrs.frozen(slots=True)
class Notation:
    """A record read from the notation, with what only the notation can say.

    ``record`` is the JSON record; ``lines`` maps ``(hand, step, index)`` (as in a
    :class:`~moonrules.records.record.Violation`) to the line it came from; ``seats`` the
    seat written on each call, by ``(hand, index)``; ``scores`` the score lines;
    ``claim`` the claim line, if any.
    """

    record: dict[str, JSON]
    lines: Mapping[tuple[int, str, int | None], int] = attrs.field(factory=dict)
    seats: Mapping[tuple[int, int], int] = attrs.field(factory=dict)
    scores: tuple[ScoreLine, ...] = ()
    claim: ClaimLine | None = None


# Stages of a hand, in the order their lines must come.
_FIRST, _DEAL, _WIDOW, _BIDS, _CHOICE, _TRICKS, _SCORE = range(7)
_STAGE_NAME = {
    _FIRST: "'first'",
    _DEAL: "the 'deal' lines",
    _WIDOW: "'widow'",
    _BIDS: "the calls",
    _CHOICE: "'discard' and 'trump'",
    _TRICKS: "the tricks",
    _SCORE: "'score'",
}

_SEAT = r"(?:seat\s+)?([0-9]+)"
_RE = {
    "rules": re.compile(r"^rules\s+(.+)$", re.I),
    "seed": re.compile(r"^seed\s+(-?[0-9]+)$", re.I),
    "player": re.compile(rf"^player\s+{_SEAT}(?:\s+(.*))?$", re.I),
    "hand": re.compile(r"^hand\s+([0-9]+)$", re.I),
    "first": re.compile(rf"^first\s+{_SEAT}$", re.I),
    "deal": re.compile(rf"^deal\s+{_SEAT}\s*:?\s*(.*)$", re.I),
    "widow": re.compile(r"^widow\s+(\S+)$", re.I),
    "bids": re.compile(rf"^{_SEAT}\s+bids\s+(\S+)$", re.I),
    "passes": re.compile(rf"^{_SEAT}\s+pass(?:es)?$", re.I),
    "discard": re.compile(r"^discard\s+(\S+)$", re.I),
    "trump": re.compile(r"^trump\s+(.+)$", re.I),
    "trick": re.compile(r"^trick\s+([0-9]+)\s*:?\s*(.*)$", re.I),
    "score": re.compile(r"^score\s+(.*)$", re.I),
    "claim": re.compile(rf"^claim\s+{_SEAT}\s+(\S+)$", re.I),
}

_EXPECTED_LINE = (
    "expected one of: 'rules NAME', 'seed N', 'hand N', 'first S', 'deal S: TILES', "
    "'widow T', 'S bids N', 'S passes', 'discard T', 'trump X', 'trick K: TILES', "
    "'score A B C', 'claim S all|K'"
)


_DIGITS = re.compile(r"[0-9]+")


def _quoted(text: str) -> str:
    """``text`` quoted for a message, as :func:`moonrules.rules.errors.quote` does, but cut so
    that it prints in at most about :data:`QUOTE_LENGTH` characters, escapes included (forty
    characters no terminal shows are written ``\\U0002ec05`` each)."""
    length = QUOTE_LENGTH
    while length > 1 and len(repr(text[:length])) > QUOTE_LENGTH + 2:
        length //= 2
    return quote(text, length)


def _number(text: str, n: int) -> int:
    """A whole number written with ASCII digits (at most MAX_NUMBER_LENGTH characters)."""
    if len(text) > MAX_NUMBER_LENGTH:
        raise NotationError(
            n, f"a number is written with {len(text)} digits (at most {MAX_NUMBER_LENGTH})"
        )
    return int(text)


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def _tile(text: str, n: int) -> Tile:
    try:
        return Tile.parse(text)
    except ParseError as e:
        raise NotationError(n, str(e)) from None


_TILE_TEXT: Final = tuple(str(t) for t in TILES)
"""Each tile's text, made once: a record's tiles share these strings."""


def _tiles(text: str, n: int) -> list[str]:
    return [_TILE_TEXT[_tile(p, n).index] for p in re.split(r"[\s,]+", text) if p]


# Where each step came from, a compact array of line numbers per hand:
# [calls, plays, the 'hand' line, first, widow, discard, trump, one deal line per seat,
#  then one line per call, then one per trick]; -1 where the hand has no such line.
_CALLS, _PLAYS, _HAND_LINE, _FIRST_LINE, _WIDOW_LINE, _DISCARD_LINE, _TRUMP_LINE = range(7)
_DEAL_LINE: Final = 7
_SINGLE: Final = {
    "first": _FIRST_LINE,
    "widow": _WIDOW_LINE,
    "discard": _DISCARD_LINE,
    "trump": _TRUMP_LINE,
}

LineKey = tuple[int, str, int | None]


class _Lines(Mapping[LineKey, int]):
    """``(hand, step, index)`` → the line it came from (see :class:`Notation`), kept as one
    array of line numbers per hand rather than a dictionary entry per step."""

    __slots__ = ("_hands", "_players")

    def __init__(self, hands: Sequence[array[int]], players: int) -> None:
        self._hands = hands
        self._players = players

    def _tricks_at(self, a: array[int]) -> int:
        return _DEAL_LINE + self._players + a[_CALLS]

    def __getitem__(self, key: LineKey) -> int:
        try:
            hand, step, index = key
            a = self._hands[hand] if type(hand) is int and hand >= 0 else None
        except (TypeError, ValueError, IndexError):
            raise KeyError(key) from None
        line = -1
        if a is None:
            pass
        elif index is None:
            slot = (
                _HAND_LINE if step == "deal" else _SINGLE.get(step, -1) if type(step) is str else -1
            )
            line = -1 if slot < 0 else a[slot]
        elif type(index) is not int or index < 0:
            pass
        elif step == "deal" and index < self._players:
            line = a[_DEAL_LINE + index]
        elif step == "bid" and index < a[_CALLS]:
            line = a[_DEAL_LINE + self._players + index]
        elif step == "trick" and index < len(a) - self._tricks_at(a):
            line = a[self._tricks_at(a) + index]
        elif step == "play" and index < a[_PLAYS]:
            line = a[self._tricks_at(a) + index // self._players]
        if line < 0:
            raise KeyError(key)
        return line

    def __iter__(self) -> Iterator[LineKey]:
        for hand, a in enumerate(self._hands):
            keys: list[LineKey] = [(hand, "deal", None), (hand, "first", None)]
            keys += [(hand, "deal", s) for s in range(self._players)]
            keys.append((hand, "widow", None))
            keys += [(hand, "bid", j) for j in range(a[_CALLS])]
            keys += [(hand, "discard", None), (hand, "trump", None)]
            keys += [(hand, "trick", k) for k in range(len(a) - self._tricks_at(a))]
            keys += [(hand, "play", i) for i in range(a[_PLAYS])]
            yield from (k for k in keys if k in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Seats(Mapping[tuple[int, int], int]):
    """``(hand, index)`` → the seat written on each call, one byte per call."""

    __slots__ = ("_hands",)

    def __init__(self, hands: Sequence[bytes]) -> None:
        self._hands = hands

    def __getitem__(self, key: tuple[int, int]) -> int:
        try:
            hand, index = key
            if type(hand) is int and type(index) is int and hand >= 0 and index >= 0:
                return self._hands[hand][index]
        except (TypeError, ValueError, IndexError):
            pass
        raise KeyError(key)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for hand, seats in enumerate(self._hands):
            for index in range(len(seats)):
                yield hand, index

    def __len__(self) -> int:
        return sum(len(s) for s in self._hands)


class _HandBuilder:
    """One hand as its lines are read; :meth:`_Parser.close` turns it into the record's hand."""

    __slots__ = (
        "bids",
        "deal",
        "dealt",
        "discard",
        "first",
        "index",
        "last_trick",
        "line",
        "lines",
        "order",
        "plays",
        "seats",
        "stage",
        "tricks",
        "trump",
        "widow",
    )

    def __init__(self, index: int, line: int, players: int) -> None:
        self.index = index
        self.line = line
        self.stage = _FIRST - 1
        self.first: int | None = None
        self.deal: list[list[str] | None] = [None] * players
        self.dealt = 0
        self.widow: str | None = None
        self.bids: list[JSON] = []
        self.discard: str | None = None
        self.trump: JSON = None
        self.plays: list[str] = []
        self.tricks = 0
        self.last_trick = 0
        """Tiles in the last trick read."""
        self.order: list[str] = []
        self.lines = array("q", [0, 0, line] + [-1] * (4 + players))
        self.seats = bytearray()


class _Parser:
    def __init__(self) -> None:
        self.rules_value: JSON = None
        self.has_rules = False
        self.seed: int | None = None
        self.current: _HandBuilder | None = None
        self.hands: list[dict[str, JSON]] = []
        """The hands read before the current one, as the record has them."""
        self.hand_lines: list[array[int]] = []
        self.hand_seats: list[bytes] = []
        self.scores: list[ScoreLine] = []
        self.claim: ClaimLine | None = None
        self.players = 3
        self.has_widow = True
        self.names: dict[int, str | None] = {}
        """The ``player`` lines read: seat → the name as written (``None``: no name)."""
        self.first_player_line = 0

    # -- helpers -----------------------------------------------------------

    def hand(self, n: int, what: str) -> _HandBuilder:
        if self.claim is not None:
            raise NotationError(n, f"nothing may follow the claim (line {self.claim.line})")
        if self.current is None:
            raise NotationError(n, f"{what} belongs to a hand: expected 'hand 1' first")
        return self.current

    def stage(self, h: _HandBuilder, stage: int, n: int, what: str) -> None:
        if stage < h.stage:
            raise NotationError(
                n, f"{what} comes before {_STAGE_NAME[h.stage]} in a hand; expected it earlier"
            )
        if stage > _FIRST and h.first is None:
            raise NotationError(n, f"expected 'first S' (the seat that bids first) before {what}")
        if stage > _DEAL and h.dealt < self.players:
            missing = h.deal.index(None)
            raise NotationError(
                n, f"expected 'deal {missing}: …' (one deal line per seat) before {what}"
            )
        h.stage = stage

    def seat(self, text: str, n: int) -> int:
        s = _number(text, n)
        if not 0 <= s < self.players:
            raise NotationError(
                n, f"there is no seat {s}: seats are numbered 0 to {self.players - 1}"
            )
        return s

    # -- lines -------------------------------------------------------------

    def feed(self, n: int, text: str) -> None:
        for kind, regex in _RE.items():
            m = regex.match(text)
            if m is not None:
                getattr(self, f"on_{kind}")(n, m)
                return
        word = text.split()[0].lower()
        hints = {
            "rules": "expected 'rules NAME' or 'rules {JSON object}'",
            "seed": "expected 'seed N' with a whole number",
            "player": "expected 'player S NAME' (a seat, then the player's name)",
            "hand": "expected 'hand N' with the hand's number",
            "first": "expected 'first S' with a seat number",
            "deal": "expected 'deal S: T T T T T T T' (a seat, then its tiles)",
            "widow": "expected 'widow T' with one tile",
            "discard": "expected 'discard T' with one tile",
            "trump": "expected 'trump X' with 0-6, 'doubles' or 'none'",
            "trick": "expected 'trick K: T T T' (the trick's number, then its tiles)",
            "score": "expected 'score A B C' (the running totals, one per side)",
            "claim": "expected 'claim S all' or 'claim S K'",
        }
        if word in hints:
            raise NotationError(n, f"{hints[word]}; got {_quoted(text)}")
        if re.match(rf"^{_SEAT}\s+\S+", text, re.I):
            raise NotationError(
                n, f"a call is written 'S bids N' or 'S passes'; got {_quoted(text)}"
            )
        raise NotationError(n, f"{_EXPECTED_LINE}; got {_quoted(text)}")

    def on_rules(self, n: int, m: re.Match[str]) -> None:
        if self.current is not None or self.has_rules:
            raise NotationError(n, "'rules' is a header line: once, before the first hand")
        if self.names:
            raise NotationError(
                n,
                f"'rules' comes before the 'player' lines (line {self.first_player_line}): "
                "the rule set says which seats there are",
            )
        text = m.group(1).strip()
        value: JSON
        if text.startswith("{"):
            try:
                value = loads(text)
            except JSONTextError as e:
                raise NotationError(
                    n, f"the rule set is not a valid JSON object: {e.message}"
                ) from None
        else:
            value = text
        try:
            rules = rules_from_json(value)
        except RecordError as e:
            raise NotationError(n, e.message if e.path == "rules" else str(e)) from None
        self.rules_value = value
        self.has_rules = True
        self.players = rules.players
        self.has_widow = rules.has_widow

    def on_seed(self, n: int, m: re.Match[str]) -> None:
        if self.current is not None or self.seed is not None:
            raise NotationError(n, "'seed' is a header line: once, before the first hand")
        self.seed = _number(m.group(1), n)

    def on_player(self, n: int, m: re.Match[str]) -> None:
        if self.current is not None:
            raise NotationError(n, "'player' is a header line: before the first hand")
        s = self.seat(m.group(1), n)
        if s in self.names:
            raise NotationError(n, f"seat {s} already has a 'player' line")
        text = (m.group(2) or "").strip()
        value: JSON = None
        if text.startswith('"'):
            try:
                value = loads(text)
            except JSONTextError as e:
                raise NotationError(
                    n, f"a name that begins with '\"' is a JSON string: {e.message}"
                ) from None
            if not isinstance(value, str):
                raise NotationError(
                    n, f"a name that begins with '\"' is a JSON string: {_quoted(text)}"
                )
        elif text:
            value = text
        if value is not None:
            try:
                player_name(value, "name")
            except RecordError as e:
                raise NotationError(n, f"the name of seat {s}: {e.message}") from None
        self.names[s] = value
        self.first_player_line = self.first_player_line or n

    def on_hand(self, n: int, m: re.Match[str]) -> None:
        if self.claim is not None:
            raise NotationError(n, f"nothing may follow the claim (line {self.claim.line})")
        number = _number(m.group(1), n)
        count = len(self.hands) + (self.current is not None)
        if number != count + 1:
            raise NotationError(n, f"expected 'hand {count + 1}' (hands are numbered in order)")
        if self.current is not None:
            self.close(self.current, n)
        self.current = _HandBuilder(count, n, self.players)

    def on_first(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'first'")
        if h.first is not None:
            raise NotationError(n, "a hand has one 'first' line")
        self.stage(h, _FIRST, n, "'first'")
        h.first = self.seat(m.group(1), n)
        h.lines[_FIRST_LINE] = n

    def on_deal(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'deal'")
        self.stage(h, _DEAL, n, "'deal'")
        s = self.seat(m.group(1), n)
        if h.deal[s] is not None:
            raise NotationError(n, f"seat {s} already has a deal line in this hand")
        h.deal[s] = _tiles(m.group(2), n)
        h.dealt += 1
        h.lines[_DEAL_LINE + s] = n

    def on_widow(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'widow'")
        if h.widow is not None:
            raise NotationError(n, "a hand has one 'widow' line")
        self.stage(h, _WIDOW, n, "'widow'")
        h.widow = _TILE_TEXT[_tile(m.group(1), n).index]
        h.lines[_WIDOW_LINE] = n

    def _call(self, n: int, seat_text: str, call: JSON) -> None:
        h = self.hand(n, "a call")
        self.stage(h, _BIDS, n, "a call")
        s = self.seat(seat_text, n)
        h.bids.append(call)
        h.seats.append(s)
        h.lines.append(n)  # the calls come before any trick (stage order)
        h.lines[_CALLS] += 1

    def on_bids(self, n: int, m: re.Match[str]) -> None:
        amount = m.group(2)
        if amount.lower() == "pass":
            self._call(n, m.group(1), "pass")
            return
        if _DIGITS.fullmatch(amount) is None or _number(amount, n) < 1:
            raise NotationError(
                n, f"expected 'S bids N' with a whole number of tricks, got {_quoted(amount)}"
            )
        self._call(n, m.group(1), _number(amount, n))

    def on_passes(self, n: int, m: re.Match[str]) -> None:
        self._call(n, m.group(1), "pass")

    def on_discard(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'discard'")
        if h.discard is not None:
            raise NotationError(n, "a hand has one 'discard' line")
        self.stage(h, _CHOICE, n, "'discard'")
        h.discard = _TILE_TEXT[_tile(m.group(1), n).index]
        h.order.append("discard")
        h.lines[_DISCARD_LINE] = n

    def on_trump(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'trump'")
        if h.trump is not None:
            raise NotationError(n, "a hand has one 'trump' line")
        self.stage(h, _CHOICE, n, "'trump'")
        try:
            h.trump = Trump.parse(m.group(1)).to_json()
        except ParseError:
            raise NotationError(
                n, f"expected 'trump X' with 0-6, 'doubles' or 'none', got {_quoted(m.group(1))}"
            ) from None
        h.order.append("trump")
        h.lines[_TRUMP_LINE] = n

    def on_trick(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "a trick")
        self.stage(h, _TRICKS, n, "a trick")
        k = _number(m.group(1), n)
        if k != h.tricks + 1:
            raise NotationError(n, f"expected 'trick {h.tricks + 1}' (tricks in order)")
        if h.tricks and h.last_trick < self.players:
            raise NotationError(
                n,
                f"trick {k - 1} (line {h.lines[-1]}) "
                f"has {h.last_trick} tiles; a trick has {self.players}, and only the last "
                "trick of a hand may be unfinished",
            )
        ts = _tiles(m.group(2), n)
        if not ts:
            raise NotationError(n, f"trick {k} has no tiles: expected 'trick {k}: T T …'")
        if len(ts) > self.players:
            raise NotationError(
                n, f"trick {k} has {len(ts)} tiles; a trick has one per player ({self.players})"
            )
        h.plays += ts
        h.tricks += 1
        h.last_trick = len(ts)
        h.lines.append(n)
        h.lines[_PLAYS] += len(ts)

    def on_score(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'score'")
        if h.stage == _SCORE:
            raise NotationError(n, "a hand has one 'score' line")
        self.stage(h, _SCORE, n, "'score'")
        parts = [p for p in re.split(r"[\s,]+", m.group(1)) if p]
        sides = 2 if self.players == 4 else self.players
        if len(parts) != sides or not all(re.fullmatch(r"[+-]?[0-9]+", p) for p in parts):
            raise NotationError(
                n,
                f"expected 'score' and {sides} whole numbers (the running totals, one per "
                f"{'team' if sides == 2 else 'seat'}), got {_quoted(m.group(1))}",
            )
        self.scores.append(ScoreLine(h.index, tuple(_number(p, n) for p in parts), n))

    def on_claim(self, n: int, m: re.Match[str]) -> None:
        h = self.hand(n, "'claim'")
        s = self.seat(m.group(1), n)
        what = m.group(2).lower()
        if what == "all":
            k = None
        elif _DIGITS.fullmatch(what) and 1 <= _number(what, n) <= 7:
            k = int(what)
        else:
            raise NotationError(
                n, f"expected 'claim S all' or 'claim S K' (K from 1 to 7), got {_quoted(what)}"
            )
        self.claim = ClaimLine(h.index, s, k, n)

    # -- building ----------------------------------------------------------

    def close(self, h: _HandBuilder, n: int) -> None:
        """Check that hand ``h`` is whole enough, and keep it as the record's hand."""
        if h.first is None:
            raise NotationError(n, f"hand {h.index + 1} (line {h.line}) has no 'first S' line")
        if h.dealt < self.players:
            missing = h.deal.index(None)
            raise NotationError(
                n, f"hand {h.index + 1} (line {h.line}) has no 'deal {missing}: …' line"
            )
        out: dict[str, JSON] = {"first_bidder": h.first, "deal": h.deal}
        if h.widow is not None:
            out["widow"] = h.widow
        out["bids"] = h.bids
        for step in h.order:
            out[step] = h.discard if step == "discard" else h.trump
        if h.tricks or (h.trump is not None and (h.discard is not None or not self.has_widow)):
            out["plays"] = h.plays
        self.hands.append(out)
        self.hand_lines.append(h.lines)
        self.hand_seats.append(bytes(h.seats))

    def build(self, n: int) -> Notation:
        if self.current is None:
            raise NotationError(n, "the record has no hand: expected 'hand 1'")
        self.close(self.current, n)
        record: dict[str, JSON] = {}
        if self.has_rules:
            record["rules"] = self.rules_value
        if self.seed is not None:
            record["seed"] = self.seed
        if self.names:
            record["players"] = [self.names.get(s) for s in range(self.players)]
        record["hands"] = self.hands
        return Notation(
            record,
            _Lines(self.hand_lines, self.players),
            _Seats(self.hand_seats),
            tuple(self.scores),
            self.claim,
        )


_BLOCK: Final = 1 << 16
_LINE_END: Final = re.compile("[\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]|\r(?!\n)")


def _lines_of(text: str) -> Iterator[str]:
    """The lines of ``text`` as :meth:`str.splitlines` gives them, a block at a time (so that
    the list of every line of a long record is never made)."""
    start, size = 0, len(text)
    while start < size:
        m = _LINE_END.search(text, start + _BLOCK) if start + _BLOCK < size else None
        end = size if m is None else m.end()
        yield from text[start:end].splitlines()
        start = end


def parse_notation(text: str) -> Notation:
    """Read a record written in the notation; :class:`NotationError` names the line."""
    if not isinstance(text, str):
        raise wrong_type("text", "the record's text (str)", text)
    p = _Parser()
    n = 0
    for n, raw in enumerate(_lines_of(text), start=1):
        line = _strip(raw)
        if line:
            p.feed(n, line)
    return p.build(n + 1)


def _seat_of_call(first: int, index: int, players: int) -> int:
    return (first + index) % players


def write_notation(
    record: JSON,
    *,
    scores: Sequence[ScoreLine] = (),
    claim: ClaimLine | None = None,
    comment: str | None = None,
) -> str:
    """The record in the notation; :func:`parse_notation` reads the same record back.

    ``scores`` and ``claim`` add ``score`` and ``claim`` lines. Each call is written
    with the seat whose turn it was. Raises :class:`~moonrules.records.record.RecordError`
    for a value that is not the shape of a record.
    """
    rules, _seed, _hands = parse_record(record)
    players = rules.players
    out: list[str] = []
    if comment:
        out.extend(f"# {c}".rstrip() for c in comment.splitlines())
    if "rules" in record:
        rv = record["rules"]
        out.append(
            f"rules {rv if isinstance(rv, str) else json.dumps(rv, separators=(', ', ': '))}"
        )
    if "seed" in record:
        out.append(f"seed {record['seed']}")
    for s, name in enumerate(record.get("players", ())):
        out.append(f"player {s}" if name is None else f"player {s} {_name_text(name)}")
    by_hand = {s.hand: s for s in scores}
    for i, h in enumerate(record["hands"]):
        out.append("")
        out.append(f"hand {i + 1}")
        first = h["first_bidder"]
        out.append(f"first {first}")
        for s, ts in enumerate(h["deal"]):
            out.append(f"deal {s}: {' '.join(str(Tile.parse(t)) for t in ts)}")
        if "widow" in h:
            out.append(f"widow {Tile.parse(h['widow'])}")
        for j, c in enumerate(h.get("bids", ())):
            seat = _seat_of_call(first, j, players)
            out.append(f"{seat} passes" if c == "pass" else f"{seat} bids {c}")
        for key in h:
            if key == "discard":
                out.append(f"discard {Tile.parse(h['discard'])}")
            elif key == "trump":
                out.append(f"trump {Trump.parse(h['trump'])}")
        plays = [str(Tile.parse(t)) for t in h.get("plays", ())]
        for k in range(0, len(plays), players):
            out.append(f"trick {k // players + 1}: {' '.join(plays[k : k + players])}")
        if i in by_hand:
            out.append("score " + " ".join(str(v) for v in by_hand[i].totals))
    if claim is not None:
        out.append(f"claim {claim.seat} {'all' if claim.tricks is None else claim.tricks}")
    return "\n".join(out) + "\n"


def _name_text(name: str) -> str:
    """A name as a ``player`` line writes it: as it is, or as a JSON string (``#`` written
    ``\\u0023``) when the bare text would not read back the same."""
    if name != name.strip() or name.startswith('"') or "#" in name:
        return json.dumps(name, ensure_ascii=False).replace("#", "\\u0023")
    return name


def looks_like_json(text: str) -> bool:
    """Whether record text is JSON (it opens with ``{`` or ``[``) rather than the notation."""
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


__all__ = [
    "ClaimLine",
    "Notation",
    "NotationError",
    "ScoreLine",
    "looks_like_json",
    "parse_notation",
    "write_notation",
]
