"""Notes on a record's actions: its optional ``annotations`` field.

``"annotations": [{"hand": 2, "action": 14, "seat": 1, "by": "clock", "bot": "strong"}]``
says that the 14th action of the 2nd hand (both counted from 1: a hand's actions are its
calls, trump, discard and plays, in the order they were taken), the action of seat 1, was
not its player's: the seat's time ran out at a table with turn clocks, and the bot named
``bot`` made the move for it. Entries are in the order of the actions, at most one per
action. Annotations are not part of the game: a replay never reads them (the action is
checked as any other), and two games that differ only in annotations are equal.

>>> parse_annotations([{"hand": 1, "action": 2, "seat": 1, "by": "clock", "bot": "strong"}],
...                   3, [3])
(Annotation(hand=1, action=2, seat=1, by='clock', bot='strong'),)
>>> describe(Annotation(2, 14, 1, "clock", "strong"))
'hand 2, action 14 by seat 1: played by the clock (bot strong)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from moonrules.records.players import player_name
from moonrules.records.values import JSON, RecordError, json_kind

KINDS: Final = ("clock",)
"""What an annotation may say of an action: ``"clock"``, played by the clock's bot."""

_KEYS: Final = ("hand", "action", "seat", "by", "bot")


@attrs.frozen(slots=True)
class Annotation:
    """A note on one action of a record (see the module's description)."""

    hand: int
    """The hand, counted from 1."""
    action: int
    """The action within the hand, counted from 1."""
    seat: int
    by: str
    """What made the action: ``"clock"`` (the seat's time ran out)."""
    bot: str
    """The bot that made it."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "hand": self.hand,
            "action": self.action,
            "seat": self.seat,
            "by": self.by,
            "bot": self.bot,
        }


def describe(note: Annotation) -> str:
    """The annotation in a sentence, as ``moonrules check`` shows it."""
    return (
        f"hand {note.hand}, action {note.action} by seat {note.seat}: played by the clock "
        f"(bot {note.bot})"
    )


def hand_actions(hand: JSON) -> int:
    """How many actions a record's hand (as written) holds: calls, trump, discard, plays."""
    if not isinstance(hand, dict):
        return 0
    bids, plays = hand.get("bids"), hand.get("plays")
    return (
        (len(bids) if isinstance(bids, list) else 0)
        + ("trump" in hand)
        + ("discard" in hand)
        + (len(plays) if isinstance(plays, list) else 0)
    )


def _int(value: JSON, path: str, low: int, high: int, what: str) -> int:
    if type(value) is not int:
        raise RecordError(path, f"{what}: a whole number, not {json_kind(value)}")
    if not low <= value <= high:
        raise RecordError(path, f"{what}: {low} to {high} here, not {value}")
    return value


def parse_annotations(
    value: JSON, seats: int, actions: Sequence[int], path: str = "annotations"
) -> tuple[Annotation, ...]:
    """A record's ``annotations``: ``seats`` the rule set's seats, ``actions`` how many
    actions each hand of the record holds; :class:`RecordError` naming the entry and its
    member (``annotations[0].hand: …``) for anything else."""
    if not isinstance(value, list):
        raise RecordError(path, f"expected a list of annotations; got {json_kind(value)}")
    if len(value) > sum(actions):
        raise RecordError(path, f"at most one annotation per action ({sum(actions)} here)")
    out: list[Annotation] = []
    for k, item in enumerate(value):
        where = f"{path}[{k}]"
        if not isinstance(item, dict):
            raise RecordError(where, f"an annotation is an object, not {json_kind(item)}")
        for key in _KEYS:
            if key not in item:
                raise RecordError(where, f"missing member {key!r}")
        for key in item:
            if key not in _KEYS:
                raise RecordError(
                    f"{where}.{key}", "unknown member; an annotation has " + ", ".join(_KEYS)
                )
        hand = _int(item["hand"], f"{where}.hand", 1, len(actions), "the hand, counted from 1")
        action = _int(
            item["action"], f"{where}.action", 1, max(1, actions[hand - 1]),
            f"the action within hand {hand}, counted from 1",
        )  # fmt: skip
        if actions[hand - 1] == 0:
            raise RecordError(f"{where}.action", f"hand {hand} has no action to annotate")
        seat = _int(item["seat"], f"{where}.seat", 0, seats - 1, "the seat")
        if item["by"] not in KINDS:
            raise RecordError(f"{where}.by", "an annotation says 'clock' (its only kind)")
        bot = player_name(item["bot"], f"{where}.bot")
        note = Annotation(hand, action, seat, "clock", bot)
        if out and (out[-1].hand, out[-1].action) >= (hand, action):
            raise RecordError(where, "annotations are in the order of their actions, one each")
        out.append(note)
    return tuple(out)


__all__ = ["KINDS", "Annotation", "describe", "hand_actions", "parse_annotations"]
