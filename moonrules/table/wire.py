"""The messages of the table's WebSocket protocol (normative text: ``spec/table.md``).

The server sends ``state`` messages (a seat's view, as the JSON-lines protocol's ``view``
op encodes it, and the seat's legal actions) and ``refused`` messages; a client sends
``act`` messages. An action is written as records write it, and read by the phase of the
hand it is meant for:

>>> from moonrules import Bid, Pass, Phase, Play, Tile, NameTrump, Trump
>>> [action_json(a) for a in (Pass(), Bid(5), Play(Tile(6, 4)), NameTrump(Trump.DOUBLES))]
['pass', 5, '6-4', 'doubles']
>>> parse_action(Phase.TRUMP, 5), parse_action(Phase.BIDDING, 5)
(NameTrump(trump=Trump.FIVE), Bid(amount=5))
>>> read_frame('{"type": "act", "action": "4-6"}')
'4-6'

Nothing here decides a rule: the library's :func:`~moonrules.apply` does.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final

from moonrules.game import Action, Bid, Discard, GameState, Hand, NameTrump, Pass, Phase, Play
from moonrules.i18n.table_catalog import table_text
from moonrules.records.jsontext import JSONTextError, loads, size_text
from moonrules.records.record import (
    JSON,
    RecordError,
    json_kind,
    parse_call_json,
    parse_tile_json,
    parse_trump_json,
)
from moonrules.rules.errors import QUOTE_LENGTH, ArgumentError, MoonError, quote, wrong_type
from moonrules.rules.tiles import tiles_of

MAX_FRAME_BYTES: Final = 4096
"""The largest frame a client may send; a larger one closes the connection (code 1009)."""

REFUSAL_CODES: Final = (
    "illegal",
    "turn",
    "bad-frame",
    "bad-action",
    "spectator",
    "not-started",
    "over",
    "too-fast",
    "unavailable",
    "elsewhere",
    "off",
    "not-now",
    "claim",
    "too-early",
    "bad-name",
)
"""Every ``code`` a ``refused`` message may carry (see ``spec/table.md``)."""


MAX_NAME: Final = 24
"""The longest name a seat's player may choose (characters, after trimming)."""

MESSAGES: Final[Mapping[str, tuple[str, ...]]] = {
    "act": ("action",),
    "name": ("name",),
    "hint": (),
    "claim": ("tricks",),
    "rematch": (),
    "take-seat": (),
    "review": ("hand",),
}
"""Every message a client may send: its ``type`` and its other members (all required but
``claim``'s ``tricks``, absent or ``null`` for every remaining trick)."""


class FrameError(MoonError, ValueError):
    """A frame from a client that is not an ``act`` message the protocol allows.

    ``code`` is ``"bad-frame"`` for a frame that is not a well-formed message, and
    ``"bad-action"`` for a well-formed message whose action names no action of the phase.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[FrameError], tuple[str, str]]:
        return (type(self), (self.code, self.message))


def action_json(action: Action) -> JSON:
    """An action as records write it: ``"pass"``, a bid's number, a tile ``"6-4"`` (for a
    discard or a play), a trump ``0``-``6``, ``"doubles"`` or ``"none"``."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, (Discard, Play)):
        return str(action.tile)
    if isinstance(action, NameTrump):
        return action.trump.to_json()
    raise wrong_type("action", "an Action (Pass, Bid, Discard, NameTrump or Play)", action)


def legal_json(actions: Sequence[Action]) -> list[JSON]:
    """Legal actions as :func:`action_json` writes them, in the library's order."""
    return [action_json(a) for a in actions]


def parse_action(phase: Phase, value: JSON) -> Action:
    """The action ``value`` names in a hand waiting in ``phase``.

    The encodings of the phases overlap (``5`` is a bid in the auction and the trump
    fives once the auction is over; ``"6-4"`` a discard or a play), so the phase
    decides. Raises :class:`FrameError` (code ``bad-action``) for a value that is no
    action of the phase; whether the action is *legal* is for :func:`moonrules.apply`.
    """
    if not isinstance(phase, Phase):
        raise wrong_type("phase", "a Phase", phase)
    try:
        if phase is Phase.BIDDING:
            return parse_call_json(value, "action")
        if phase is Phase.DISCARD:
            return Discard(parse_tile_json(value, "action"))
        if phase is Phase.TRUMP:
            return NameTrump(parse_trump_json(value, "action"))
        if phase is Phase.PLAY:
            return Play(parse_tile_json(value, "action"))
    except RecordError as e:
        raise FrameError("bad-action", f"{e.message} ({_phase_wants(phase)})") from None
    raise FrameError("bad-action", "the hand is over: there is nothing to act on")


def _phase_wants(phase: Phase) -> str:
    return {
        Phase.BIDDING: 'the auction wants "pass" or a bid',
        Phase.DISCARD: "the bidder discards a tile",
        Phase.TRUMP: 'the bidder names trump: 0-6, "doubles" or "none"',
        Phase.PLAY: "the play wants a tile",
    }[phase]


def read_message(text: str, *, max_bytes: int = MAX_FRAME_BYTES) -> tuple[str, dict[str, JSON]]:
    """The ``type`` of one client frame and the frame (a JSON object of the members
    :data:`MESSAGES` gives its type; not yet read further: an action, a name, a count).

    Raises :class:`FrameError` (code ``bad-frame``) for text that is longer than
    ``max_bytes`` characters, not strict JSON (limits of
    :mod:`moonrules.records.jsontext`), not an object, of no known type, or with a member
    missing or unknown.
    """
    if not isinstance(text, str):
        raise wrong_type("text", "the frame's text (str)", text)
    if len(text) > max_bytes:
        raise FrameError("bad-frame", f"the frame is longer than {size_text(max_bytes)}")
    try:
        value = loads(text, max_length=max_bytes)
    except JSONTextError as e:
        raise FrameError("bad-frame", f"the frame is not JSON: {e.message}") from None
    if not isinstance(value, dict):
        raise FrameError("bad-frame", f"a message is a JSON object, not {json_kind(value)}")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = quote(kind) if isinstance(kind, str) else json_kind(kind)
        known = ", ".join(f'"{k}"' for k in MESSAGES)
        raise FrameError("bad-frame", f"type: a client sends {known}; not {shown}")
    members = MESSAGES[kind]
    for key in value:
        if key != "type" and key not in members:
            has = ", ".join(("type", *members))
            raise FrameError("bad-frame", f'{quote(key)}: unknown member; "{kind}" has {has}')
    for key in members:
        if key not in value and kind != "claim":
            raise FrameError("bad-frame", f'missing member "{key}" of "{kind}"')
    return kind, value


def read_frame(text: str, *, max_bytes: int = MAX_FRAME_BYTES) -> JSON:
    """The action of one ``act`` frame (its ``action`` member, not yet read as an action).

    Raises :class:`FrameError` (code ``bad-frame``) as :func:`read_message` does, and for
    a message other than ``{"type": "act", "action": …}``.
    """
    kind, value = read_message(text, max_bytes=max_bytes)
    if kind != "act":
        raise FrameError("bad-frame", f'type: an action is an "act" message, not "{kind}"')
    return value["action"]


def check_name(value: JSON) -> str:
    """A seat's name as a player typed it: trimmed, 1 to :data:`MAX_NAME` characters, no
    control or format character (a line break, a tab, a direction override), and shown as
    something a person can read (:func:`visible`). Raises :class:`FrameError` (code
    ``bad-name``) saying what is wrong, quoting the name sent. The name is text: a page
    shows it as text (never as HTML)."""
    if not isinstance(value, str):
        raise FrameError("bad-name", f"name: a name is text, not {json_kind(value)}")
    name = " ".join(value.split())  # trimmed, runs of spaces as one
    if not name:
        raise FrameError("bad-name", "name: a name has at least one letter, not only spaces")
    if len(name) > MAX_NAME:
        raise FrameError(
            "bad-name", f"name: at most {MAX_NAME} characters, not {len(name)} ({quote(name)})"
        )
    based = False  # whether a combining mark here sits on a character shown before it
    for ch in name:
        kind = unicodedata.category(ch)
        if kind[0] == "C":
            raise FrameError(
                "bad-name",
                f"name: U+{ord(ch):04X} is a control or format character; a name is "
                "letters, digits, spaces and signs",
            )
        if kind[0] == "M":
            if not based:
                raise FrameError(
                    "bad-name",
                    f"name: {quote(name)} has the combining mark U+{ord(ch):04X} on no letter; "
                    "a mark goes on the letter before it",
                )
            continue
        if ch != " " and not visible(ch):
            raise FrameError(
                "bad-name",
                f"name: U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')}) shows as blank; "
                "a name is letters, digits, spaces and signs",
            )
        based = ch != " "
    return name


def visible(ch: str) -> bool:
    """Whether the character ``ch`` shows as something: a letter, a digit, a punctuation
    mark or a symbol (Unicode categories L, N, P, S), but not one of those that Unicode
    defines as showing nothing (a *filler*, such as U+3164 HANGUL FILLER, or a *blank*, such
    as U+2800 BRAILLE PATTERN BLANK). Spaces, combining marks, control and format
    characters do not show on their own."""
    if unicodedata.category(ch)[0] not in "LNPS":
        return False
    label = unicodedata.name(ch, "")
    return "FILLER" not in label and "BLANK" not in label


def name_key(name: str) -> str:
    """What a name reads as, to compare names: compatibility forms folded (NFKC: a
    full-width "Seat", U+FF33 and on, is "Seat"), case folded, combining marks dropped, everything
    that shows nothing made a space, runs of spaces one.

    >>> name_key("  \uff33\uff45\uff41\uff54\u3164 2 ") == name_key("seat 2")
    True
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(
        ch if visible(ch) else " " for ch in folded if unicodedata.category(ch)[0] != "M"
    )
    return " ".join(text.split())


_SEAT_LABEL: Final = re.compile(r"(seat|player|team) ?(no\.? ?|#|n°)? ?\d")
_BOT_WORDS: Final = re.compile(r"\bbots?\b")


def name_refusal(name: str, taken: Sequence[str | None], bots: Sequence[str]) -> str | None:
    """Why ``name`` (:func:`check_name`'s) may not be a seat's name in a room whose other
    seats are named ``taken`` (``None``: no name) and whose bots are ``bots``: it reads as
    a label the page shows for a seat (``Seat 2``, ``You``, ``Team 1``), as a bot's
    (``… (strong bot)``, a bot level's name alone), or as another seat's name (compared
    by :func:`name_key`); ``None`` when it may."""
    key = name_key(name)
    if not key:
        return f"name: {quote(name)} shows as blank; a name has at least one letter"
    if key in ("you", "your team", "nobody", "spectator") or _SEAT_LABEL.match(key):
        return f"name: {quote(name)} reads as a label the table shows for a seat; choose another"
    if key in {name_key(b) for b in bots} or _BOT_WORDS.search(key) is not None:
        return f"name: {quote(name)} reads as a bot's; a person's name does not say bot"
    for other in taken:
        if other is not None and name_key(other) == key:
            return f"name: {quote(name)} is taken in this room (by {quote(other)}); choose another"
    return None


def encode(message: dict[str, JSON]) -> str:
    """A message as compact JSON text (ASCII, strict JSON)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def refused(
    code: str,
    message: str,
    legal: Sequence[JSON],
    rule: str | None = None,
    reason: str | None = None,
    text: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """A ``refused`` message: ``rule`` is the clause for ``illegal`` and ``turn``;
    ``reason`` is ``message`` without its closing list of what was allowed (the library's
    :attr:`~moonrules.IllegalAction.reason`), for a page that lists ``legal`` itself;
    ``message`` when not given. ``message`` and ``reason`` are English (logs, tools);
    ``text`` is the sentence as message ids and fields, for a page to render in its reader's
    language (:func:`moonrules.i18n.table_catalog.clause_text` for a clause; when not given,
    :func:`server_text` reads it off ``message``)."""
    if code not in REFUSAL_CODES:
        raise ValueError(f"code: {code!r} is not one of {', '.join(REFUSAL_CODES)}")
    return {
        "type": "refused",
        "code": code,
        "rule": rule,
        "message": message,
        "reason": message if reason is None else reason,
        "legal": [*legal],
        "text": server_text(code, message, rule) if text is None else text,
    }


SERVER_TEXTS: Final[tuple[tuple[str, str], ...]] = (
    # room.py: help
    (
        "the table is working out {_count} hints, claims and reviews, its most; "
        "ask again in a moment",
        "The table is working out as many hints, claims and reviews as it can; "
        "ask again in a moment.",
    ),
    (
        "{_count} hints, claims or reviews asked from your address are being worked out, "
        "the most at once; wait for one to be answered",
        "As many hints, claims or reviews as one address may ask at once are being worked "
        "out; wait for one to be answered.",
    ),
    (
        "hints are turned off in this room (as in a tournament)",
        "Hints are turned off in this room (as in a tournament).",
    ),
    (
        "claims are turned off in this room (as in a tournament)",
        "Claims are turned off in this room (as in a tournament).",
    ),
    (
        "a hint is for your turn; it is not your turn",
        "A hint is for your turn; it is not your turn.",
    ),
    (
        "a claim is for your turn; it is not your turn",
        "A claim is for your turn; it is not your turn.",
    ),
    (
        "your last hint or claim is still being worked out",
        "Your last hint or claim is still being worked out.",
    ),
    (
        "this room moved to another server; reconnect",
        "This room moved to another server; the page reconnects.",
    ),
    # rooms.py
    (
        "a spectator watches: only a seat's link may act",
        "A spectator watches: only a seat's link may act.",
    ),
    (
        "this seat is played in another tab or window; choose “Play here” to play it in this one",
        "This seat is played in another tab or window; choose “Play here” to play it in this one.",
    ),
    ("the seat acted before its clock ran out", "The seat acted before its clock ran out."),
    (
        "the game starts when every player has joined; waiting for {seats}",
        "The game starts when every player has joined; waiting for {seats}.",
    ),
    ("the game is over; no more actions", "The game is over; no more actions."),
    (
        "the game had moved on; here is where it stands",
        "The game had moved on; here is where it stands.",
    ),
    (
        "the server could not store this action; try again",
        "The server could not store this action; try again.",
    ),
    (
        "a tournament's board: the event names its seats",
        "This is a tournament's board: the event names its seats.",
    ),
    (
        "the game is over: its names are those of its record; {name} was not taken",
        "The game is over: its names are those of its record; “{name}” was not taken.",
    ),
    ("name: {name} was just taken in this room", "“{name}” was just taken in this room."),
    (
        "the server could not store the name; try again",
        "The server could not store the name; try again.",
    ),
    ("one hint every {every} s: wait {wait} s", "One hint every {every} s: wait {wait} s."),
    (
        "the hint could not be worked out; try again",
        "The hint could not be worked out; try again.",
    ),
    ("one claim every {every} s: wait {wait} s", "One claim every {every} s: wait {wait} s."),
    ("the claim could not be checked; try again", "The claim could not be checked; try again."),
    (
        "your claim does not hold: the others have a line of play that defeats it (CLAIM-1); "
        "play goes on",
        "Your claim does not hold: the others have a line of play that defeats it; play goes on.",
    ),
    (
        "too early to check this claim (every line of play is too many to search now); "
        "play on, and claim again later",
        "Too early to check this claim (there are too many lines of play to search now); "
        "play on, and claim again later.",
    ),
    (
        "the game moved on while the claim was checked; claim again",
        "The game moved on while the claim was checked; claim again.",
    ),
    (
        "the server could not store the claim; try again",
        "The server could not store the claim; try again.",
    ),
    (
        "a rematch is offered once the game is over",
        "A rematch is offered once the game is over.",
    ),
    (
        "a tournament's board is played once: no rematch",
        "A tournament's board is played once: no rematch.",
    ),
    (
        "the server could not store the rematch; try again",
        "The server could not store the rematch; try again.",
    ),
    # wire.py: names
    ("name: a name is text, not {_kind}", "A name is text."),
    (
        "name: a name has at least one letter, not only spaces",
        "A name has at least one letter, not only spaces.",
    ),
    (
        "name: at most {most} characters, not {count} ({_name})",
        "A name has at most {most} characters, not {count}.",
    ),
    (
        "name: U+{code} is a control or format character; a name is letters, digits, spaces "
        "and signs",
        "U+{code} is a control or format character; a name is letters, digits, spaces and signs.",
    ),
    (
        "name: {_name} has the combining mark U+{code} on no letter; a mark goes on the "
        "letter before it",
        "The combining mark U+{code} is on no letter; a mark goes on the letter before it.",
    ),
    (
        "name: U+{code} ({_uname}) shows as blank; a name is letters, digits, spaces and signs",
        "U+{code} shows as blank; a name is letters, digits, spaces and signs.",
    ),
    (
        "name: {name} shows as blank; a name has at least one letter",
        "“{name}” shows as blank; a name has at least one letter.",
    ),
    (
        "name: {name} reads as a label the table shows for a seat; choose another",
        "“{name}” reads as a label the table shows for a seat; choose another.",
    ),
    (
        "name: {name} reads as a bot's; a person's name does not say bot",
        "“{name}” reads as a bot's name; a person's name does not say bot.",
    ),
    (
        "name: {name} is taken in this room (by {_other}); choose another",
        "“{name}” is taken in this room; choose another.",
    ),
    # wire.py: actions
    (
        '{_detail} (the auction wants "pass" or a bid)',
        "That is not a call: the auction wants a pass or a bid.",
    ),
    ("{_detail} (the bidder discards a tile)", "That is not a tile: the bidder discards a tile."),
    (
        '{_detail} (the bidder names trump: 0-6, "doubles" or "none")',
        "That is not a trump: the bidder names a number, doubles or no trump.",
    ),
    ("{_detail} (the play wants a tile)", "That is not a tile: the play wants a tile."),
    (
        "the hand is over: there is nothing to act on",
        "The hand is over: there is nothing to act on.",
    ),
    # review_at_table.py
    ("hand: a hand's number (1 or more), not {_kind}", "A hand's number is 1 or more."),
    (
        "hand {hand} has not ended: a review comes after",
        "Hand {hand} has not ended: a review comes after.",
    ),
    (
        "a spectator sees the reviews once the game is over",
        "A spectator sees the reviews once the game is over.",
    ),
    (
        "reviews wait for the game's end in this room (hints are off)",
        "Reviews wait for the game's end in this room (hints are off).",
    ),
    (
        "the review could not be worked out; try again",
        "The review could not be worked out; try again.",
    ),
)
"""The server's refusals as their English ``message`` says them (``{name}``: a field, read
off the message; ``{_name}``: a part not shown) and the message id of the ``table`` domain
the page renders instead (:func:`server_text`)."""

GENERIC_TEXTS: Final[Mapping[str, str]] = {
    "illegal": "The rules do not allow that.",
    "turn": "It is not your turn, or not the time for that.",
    "bad-frame": "The table could not read the page's message.",
    "bad-action": "That is no action of this moment of the hand.",
    "spectator": "A spectator watches: only a seat's link may act.",
    "not-started": "The game has not started.",
    "over": "The game is over; no more actions.",
    "too-fast": "Too fast: wait a moment and try again.",
    "unavailable": "The server could not do this now; try again in a moment.",
    "elsewhere": "This seat is played in another tab or window.",
    "off": "That is turned off in this room.",
    "not-now": "Not now.",
    "claim": "The claim was not accepted.",
    "too-early": "Too early to check this claim; play on, and claim again later.",
    "bad-name": "That name cannot be taken; choose another.",
}
"""Each refusal code's sentence, for a refusal :data:`SERVER_TEXTS` does not know."""


def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    for match in re.finditer(r"\{(_?[a-z]+)\}", template):
        parts.append(re.escape(template[pos : match.start()]))
        parts.append(f"(?P<{match.group(1)}>.+?)")
        pos = match.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.DOTALL)


_SERVER_PATTERNS: Final = tuple((_pattern(t), key) for t, key in SERVER_TEXTS)
_SEAT_WORD: Final = re.compile(r"seat (\d+)")


def _field(name: str, value: str) -> JSON:
    if name == "seats":
        return [int(n) for n in _SEAT_WORD.findall(value)]
    if name == "name" and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        try:
            shown = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
        return shown if isinstance(shown, str) else value
    if re.fullmatch(r"\d+", value):
        return int(value)
    return value


def server_text(code: str, message: str, rule: str | None = None) -> dict[str, JSON]:
    """A refusal's sentence as message ids and fields (``table`` domain): the entry of
    :data:`SERVER_TEXTS` whose English the ``message`` is, its fields read off it; else,
    for a refusal citing a clause, the library's "This action breaks rule …"; else the
    code's sentence (:data:`GENERIC_TEXTS`). Never a sentence of one language: a page
    renders it in its reader's.

    >>> server_text("not-now", "hand 3 has not ended: a review comes after")["args"]
    {'hand': 3}
    """
    for pattern, key in _SERVER_PATTERNS:
        match = pattern.fullmatch(message)
        if match is not None:
            fields = {
                k: _field(k, v) for k, v in match.groupdict().items() if not k.startswith("_")
            }
            return table_text(key, **fields)
    if rule is not None and re.fullmatch(r"[A-Z]+-[0-9]+", rule):
        return {
            "domain": "moonrules",
            "key": "This action breaks rule {rule}.",
            "args": {"rule": rule},
            "rule": None,
        }
    return table_text(GENERIC_TEXTS.get(code, GENERIC_TEXTS["unavailable"]))


def sent_text(value: JSON) -> str:
    """A value a client sent, as a refusal quotes it: its JSON text (``1.5``, ``true``,
    ``"3"``, ``[1]``), at most its first 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= QUOTE_LENGTH else f"{text[:QUOTE_LENGTH]}… ({len(text)} characters)"


def claim_notice(before: GameState, done: Hand) -> dict[str, JSON]:
    """The ``notice`` telling every listener of a claim that held (CLAIM-1): ``before`` is
    the game as the claim was made, ``done`` the hand it ended. It shows the tiles the
    claimant laid down (VIEW-1 lets everyone see them) and where the tricks went."""
    claim = done.claim
    if claim is None:
        raise ArgumentError("done: a hand a claim ended")
    rules = before.rules
    left = 7 - len(before.hand.tricks)
    laid = tiles_of(before.hand.hands[claim.seat])
    side = rules.side_of(claim.seat)
    if rules.partnership:
        seats = [s for s in range(rules.players) if rules.side_of(s) == side]
        mine = f"team {side} (seats {seats[0]} and {seats[1]})"
        theirs = f"team {1 - side}"
    else:
        mine, theirs = f"seat {claim.seat}", "the others"
    if claim.tricks == left:
        wanted = "the last trick" if left == 1 else f"all {left} remaining tricks"
        given = f"{'it goes' if left == 1 else 'they go'} to {mine}"
    else:
        wanted = f"{claim.tricks} of the {left} remaining tricks"
        rest = left - claim.tricks
        given = (
            f"{claim.tricks} {'goes' if claim.tricks == 1 else 'go'} to {mine} and {rest} to "
            f"{theirs}"
        )
    tiles = " ".join(str(t) for t in reversed(laid))
    if claim.tricks == left and left == 1:
        text = table_text(
            "{seat} claimed the last trick, laying down {tiles}: the claim holds (CLAIM-1)."
        )
    elif claim.tricks == left:
        text = table_text(
            (
                "{seat} claimed the {count} remaining trick, laying down {tiles}: the claim holds "
                "(CLAIM-1).",
                "{seat} claimed all {count} remaining tricks, laying down {tiles}: the claim "
                "holds (CLAIM-1).",
            ),
            n=left,
        )
    else:
        text = table_text(
            (
                "{seat} claimed {count} of the {left} remaining tricks, laying down {tiles}: "
                "the claim holds (CLAIM-1).",
                "{seat} claimed {count} of the {left} remaining tricks, laying down {tiles}: "
                "the claim holds (CLAIM-1).",
            ),
            n=claim.tricks,
            left=left,
        )
    text["args"] = {**text["args"], "seat": claim.seat, "tiles": tiles}  # type: ignore[dict-item]
    return {
        "type": "notice",
        "kind": "claim",
        "text": text,
        "seat": claim.seat,
        "tricks": claim.tricks,
        "remaining": left,
        "tiles": [str(t) for t in reversed(laid)],
        "message": f"seat {claim.seat} claimed {wanted}, laying down "
        f"{' '.join(str(t) for t in reversed(laid))}: the claim holds (CLAIM-1); the hand "
        f"ends, and {given}",
    }


__all__ = [
    "GENERIC_TEXTS",
    "MAX_FRAME_BYTES",
    "MAX_NAME",
    "MESSAGES",
    "REFUSAL_CODES",
    "SERVER_TEXTS",
    "FrameError",
    "action_json",
    "check_name",
    "claim_notice",
    "encode",
    "legal_json",
    "name_key",
    "name_refusal",
    "parse_action",
    "read_frame",
    "read_message",
    "refused",
    "sent_text",
    "server_text",
    "visible",
]
