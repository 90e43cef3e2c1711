"""The message ids of the catalogs: the English source sentences, with ``{name}`` placeholders.

Each is a ``str``, or a pair (singular, plural) for a sentence with a ``{count}``. The
catalogs under ``locale/`` hold exactly these ids (a test checks it).
"""

from __future__ import annotations

from typing import Final

Message = str | tuple[str, str]

TRICK_1: Final = "Seat {seat} does not hold the tile {tile}."
LEAD_2: Final = (
    "Seat {seat} led {tile} while holding a trump: the first lead of the hand must be a trump."
)
FOLLOW_1: Final = (
    "Seat {seat} played {tile} on a trump lead while holding {count} trump: "
    "a trump lead must be followed with a trump.",
    "Seat {seat} played {tile} on a trump lead while holding {count} trumps: "
    "a trump lead must be followed with a trump.",
)
FOLLOW_2: Final = (
    "Seat {seat} played {tile} while holding {count} tile of the suit led: "
    "the suit led must be followed.",
    "Seat {seat} played {tile} while holding {count} tiles of the suit led: "
    "the suit led must be followed.",
)
TURN_1_SEAT: Final = (
    "Seat {seat} may not act now: it is not their turn, or not the time for that action."
)
TURN_1: Final = "That action cannot be taken now: it is not its turn or its time."
BID_2: Final = "Every player has had their one turn to call: the auction is over."
BID_3: Final = "A bid of {call} does not beat the highest bid so far."
BID_4: Final = "{call} is not a bid."
BID_5: Final = "The auction ended when 21 was bid (shooting the moon): no more calls."
BID_6: Final = "The auction is not over yet: the hand cannot go on to the widow, trump or play."
BID_7: Final = "Every player passed, so the hand was thrown in."
BID_8: Final = "Everyone before passed, so the last player must bid."
CLAIM_1_HOLD: Final = (
    "The claim of seat {seat} does not hold: the others have a line of play against it, "
    "and play goes on."
)
CLAIM_1: Final = (
    "Seat {seat} cannot make this claim: a claim is made on one's turn during play, "
    "of a number of tricks the rules allow."
)
END_1: Final = "The game is over: no more actions."
OTHER: Final = "This action breaks rule {rule}."
ALLOWED: Final = "Allowed: {allowed}."
PASS: Final = "pass"
TRICKS: Final = ("{count} trick", "{count} tricks")

MESSAGES: Final[tuple[Message, ...]] = (
    TRICK_1,
    LEAD_2,
    FOLLOW_1,
    FOLLOW_2,
    TURN_1_SEAT,
    TURN_1,
    BID_2,
    BID_3,
    BID_4,
    BID_5,
    BID_6,
    BID_7,
    BID_8,
    CLAIM_1_HOLD,
    CLAIM_1,
    END_1,
    OTHER,
    ALLOWED,
    PASS,
    TRICKS,
)
"""Every message id, in the catalogs' order."""

__all__ = ["MESSAGES", "Message"]
