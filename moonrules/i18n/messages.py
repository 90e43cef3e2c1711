# ruff: noqa: E501  (a message id is one string, as the catalogs and grep see it)
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
WIDOW_1: Final = "Seat {seat} cannot discard {tile}: it is not in their hand."
TRUMP_5: Final = "Seat {seat} named a trump these rules do not offer: {trump}."
RENEGE_1: Final = "These rules stop the game at a renege: no penalty is scored."
RENEGE_2: Final = "Seat {seat} playing {tile} here is no renege, so no penalty is scored."
SEAT_1: Final = "There is no such seat with these rules."
OTHER: Final = "This action breaks rule {rule}."
OTHER_TITLED: Final = "This action breaks rule {rule}: {title}."
"""A clause without a sentence of its own, named with its title from the rulebook."""
DOUBLES: Final = "doubles"
NO_TRUMP: Final = "no-trump"
ALLOWED: Final = "Allowed: {allowed}."
PASS: Final = "pass"
TRICKS: Final = ("{count} trick", "{count} tricks")


# The report's sentences, and the values in them that are words (moonrules.i18n.sentences)

NONE: Final = "none"
"""What was allowed, when nothing was."""

CLAUSE: Final = "Clause {rule}: {text}"
"""A clause quoted from the rulebook, at the end of a ruling."""

AT_LINE: Final = "(line {line})"
"""The line of the notation a ruling is on."""

SIDES: Final[tuple[Message, ...]] = (
    "seat {seat}",
    "team {team} (seats {a} and {b})",
)
"""A side, as the report names it (``side_name``): a seat, or a team."""

SEEDS: Final[tuple[Message, ...]] = ("(none)",)
"""A record without a seed."""

CALL_ITEMS: Final[tuple[Message, ...]] = (
    "seat {seat} passes",
    "seat {seat} bids {call}",
)
"""A call in the auction's line."""

PLAY_ITEMS: Final[tuple[Message, ...]] = ("seat {seat} {tile}",)
"""A play in a trick's line."""

WHERE: Final[tuple[Message, ...]] = (
    "Hand {hand}, trick {trick}",
    "Hand {hand}, call {k}",
    "Hand {hand}, score",
    "Hand {hand}, claim",
    "Hand {hand}, discard",
    "Hand {hand}, trump",
    "Hand {hand}, deal",
)
"""Where in the record a ruling is (its label)."""

LEADS: Final[tuple[Message, ...]] = (
    "a trump lead",
    "a {n} lead",
)
"""What a lead called, in a renege's line."""

SAID: Final[tuple[Message, ...]] = (
    "passed",
    "bid {call}",
    "passes",
    "bids {call}",
)
"""A call, as a ruling on it says it."""

WRONGS: Final[tuple[Message, ...]] = ("{side} {n} (should be {m})",)
"""A side's wrong total on a score sheet."""

DEFEAT: Final[tuple[Message, ...]] = ("trick {trick}: {plays} ({side} wins)",)
"""A trick of the line of play that defeats a claim."""

SIDE_DELTAS: Final[tuple[Message, ...]] = ("{side} {delta}",)
"""What a side scores."""

ENDS: Final[tuple[Message, ...]] = (
    "after hand {hand}",
    "in hand {hand}, during the auction ({side} to call)",
    "in hand {hand}, before the discard ({side} to discard)",
    "in hand {hand}, before trump is named ({side} to name it)",
    "in hand {hand}, trick {trick} ({side} to play)",
)
"""Where an unfinished record ends."""

LINES: Final[tuple[Message, ...]] = (
    (
        "Moon record check — rules: {label} ({count} player), seed {seed}",
        "Moon record check — rules: {label} ({count} players), seed {seed}",
    ),
    (
        "Moon record check — rules: {label} ({count} player, partnerships), seed {seed}",
        "Moon record check — rules: {label} ({count} players, partnerships), seed {seed}",
    ),
    "Hand {hand} — seat {seat} bids first",
    "Deal:   seat {seat}: {tiles}",
    "seat {seat}: {tiles}",
    "Widow:  {tile}",
    "Auction: {calls}",
    "Every player passed: the hand is thrown in and redealt (BID-7).",
    "Seat {seat} wins the auction with a bid of {bid} (BID-6).",
    "Seat {seat} takes the widow ({tile}) and discards {tile2}.",
    "Trump: {n}s.",
    "Trump: doubles.",
    "Trump: no-trump.",
    "Trick {trick}: seat {seat} leads — {plays} — {side} wins",
    "Trick {trick}: seat {seat} leads — {plays} — (unfinished)",
    (
        "Result: {side} bid {bid} and took {count} trick: made (SCORE-1).",
        "Result: {side} bid {bid} and took {count} tricks: made (SCORE-1).",
    ),
    (
        "Result: {side} bid {bid} and took {count} trick: set (SCORE-1).",
        "Result: {side} bid {bid} and took {count} tricks: set (SCORE-1).",
    ),
    "Tricks: {scores}.",
    "Score: {deltas}; totals {scores} points.",
    "Score: {deltas}; totals {scores} marks.",
    "Score sheet: {scores} — correct.",
    "Score sheet: {scores}",
    "RULING",
    "Why:",
    "Checking stopped at {where}.",
    "Verdict: valid — every step follows the rules.",
    "Verdict: illegal ({rule}).",
    "Verdict: wrong score ({rule}).",
    "Verdict: the claim fails ({rule}).",
    "Game over after hand {hand}: {side} wins, with points {scores} (END-1).",
    "Game over after hand {hand}: {side} wins, with marks {scores} (END-1).",
    "Game over after hand {hand}: {side} wins by making a bid of 21 (SCORE-4), with points {scores} (END-1).",
    "Game over after hand {hand}: {side} wins by making a bid of 21 (SCORE-4), with marks {scores} (END-1).",
    "The record has no hand.",
    "The record ends {ends}; the game is not over.",
    "Points: {scores}.",
    "Marks: {scores}.",
    "Seat {seat} claims all the remaining tricks: the claim holds (CLAIM-1): {side} is sure of {n} of the {m} remaining tricks however the others play.",
    "Seat {seat} claims {n} tricks: the claim holds (CLAIM-1): {side} is sure of {k} of the {m} remaining tricks however the others play.",
    "Renege: seat {seat} played {tile} on {lead} ({led}) while holding {tile2}, which follows ({rule}).",
    "Renege: seat {seat} played {tile} on {lead} ({led}) while holding {tilelist}, which follow ({rule}).",
    "Under renege = penalty the hand ends at once (RENEGE-2): seat {seat} is the bidder's side, so {side}'s contract of {bid} counts as set; the other players score the tricks they took before, and the unfinished trick counts for no one.",
    "Under renege = penalty the hand ends at once (RENEGE-2): seat {seat} is a defender, so {side}'s contract of {bid} counts as made; the other players score the tricks they took before, and the unfinished trick counts for no one.",
    "Claim: seat {seat} lays down their tiles and claims the last trick; the claim holds against every defence (CLAIM-1): the hand ends, and it goes to {side}.",
    "Claim: seat {seat} lays down their tiles and claims all {n} remaining tricks; the claim holds against every defence (CLAIM-1): the hand ends, and they go to {side}.",
    "Claim: seat {seat} lays down their tiles and claims {n} of the {m} remaining tricks; the claim holds against every defence (CLAIM-1): the hand ends, and {k} go to {side} and {r} to {side2}.",
    "Illegal ({rule}).",
    "Wrong score ({rule}).",
    "The claim fails ({rule}).",
    "The correct totals are: {scores}.",
    "Legal calls for seat {seat} were: {allowed}.",
    "Legal calls were: {allowed}.",
    "Legal plays were: {allowed}.",
    "Legal leads were: {allowed}.",
    "Legal discards were: {allowed}.",
    "Legal trumps were: {allowed}.",
    "{side} {said}, but it was seat {seat}'s turn to call: the calls go clockwise from seat {first}, one each (BID-2), and only the player whose turn it is may act.",
    "the score sheet gives {scores} after hand {hand}; the totals are {totals}: {wrongs}.",
    "From {before}, the hand scores {deltalist}.",
    "{side} claimed all {n} of the {m} remaining tricks, but {side2} can be held to {k}: however the claimant's side plays, the others have a defence.",
    "{side} claimed {n} of the {m} remaining tricks, but {side2} can be held to {k}: however the claimant's side plays, the others have a defence.",
    "One line of play that defeats the claim: {defeat}.",
    # moonrules explain, claim and review
    "Illegal: {tile} may not be led (LEAD-2).",
    "Legal: {tile} may be led; it calls trumps.",
    "Legal: {tile} may be led; it calls {n}s.",
    "{tile} follows trumps: it may always be played to this trick ({rule}).",
    "{tile} follows {n}s: it may always be played to this trick ({rule}).",
    "{tile} does not follow trumps: it may be played only by a player who holds no trump (FOLLOW-3).",
    "{tile} does not follow {n}s: it may be played only by a player who holds no {m} (FOLLOW-3).",
    "Legal: {tile} follows trumps ({rule}).",
    "Legal: {tile} follows {n}s ({rule}).",
    "Illegal: {tile} may not be played; the player must follow with {ortiles} ({rule}).",
    "Legal: the player cannot follow trumps, so {tile} may be played (FOLLOW-3).",
    "Legal: the player cannot follow {n}s, so {tile} may be played (FOLLOW-3).",
    "Seat {seat} wins the trick with {tile}.",
    "Seat {seat} is winning the trick so far with {tile} ({k} of {n} tiles).",
    "Illegal: call {k} ({calls}) breaks {rule}.",
    "Legal.",
    "Legal so far.",
    "The auction is over: seat {seat} is the bidder with {bid}.",
    "The auction goes on: seat {seat} to call; no bid yet.",
    "The auction goes on: seat {seat} to call; the high bid is {bid} (seat {first}).",
    "Legal calls: {allowed}.",
    "{side} is made: score {deltas}.",
    "{side} is set: score {deltas}.",
    "Totals {before} → {totals}.",
    "{side} wins the game (SCORE-4).",
    "{side} wins the game (END-1).",
    "A tie at the top: play goes on (END-2).",
    "The game goes on.",
    "Hand {hand}, trick {trick}: seat {seat} claims all {n} remaining tricks.",
    "Hand {hand}, trick {trick}: seat {seat} claims {k} of the {n} remaining tricks.",
    "trick so far: {tiles} (seat {seat} led)",
    "trump: {n}",
    "trump: doubles",
    "trump: none",
    "The claim holds (CLAIM-1): {side} is sure of {k} of the {n} remaining tricks against every line of play by the others.",
    "At the table, with three players, a claim is of every trick left (CLAIM-1): this answers only whether {side} is sure of {k}.",
    "The claim fails (CLAIM-1): against the best defence {side} is sure of only {k} of the {n} remaining tricks.",
    "A line of play that defeats it: {defeat}.",
    "The review of the legal part before the ruling:",
    ("Hand {hand}: {count} decision, {k} marked", "Hand {hand}: {count} decisions, {k} marked"),
    "Review: {n} deals per decision, seed {seed}; marks by expected points lost: ?! {x}, ? {y}, ?? {z} (not within the noise)",
    "seat {seat} trick {trick} {kind} {action}{mark}: loses {x} points (± {y}); best {best}",
    "seat {seat} {kind} {action}{mark}: loses {x} points (± {y}); best {best}",
    "seat  decisions   ?!    ?   ??  points lost  accuracy",
)
"""The report's sentences (``moonrules check``): its lines, the ruling's sentences that no error of the library stands behind, and the verdict."""

REASONS: Final[tuple[Message, ...]] = (
    "the leader may lead any tile",
    "{tile} is a double, and doubles are trump, so leading {tile} calls trumps",
    "{tile} bears a {n}, and {n}s are trump, so leading {tile} calls trumps",
    "no-trump: nothing is trump, so the double {tile} calls its number: {n}s",
    "{tile} is not a trump, so the double {tile} calls its number: {n}s",
    "no-trump: nothing is trump, so it calls the suit of its higher number, whichever end is written first: {n}s",
    "{tile} is not a trump, so it calls the suit of its higher number, whichever end is written first: {n}s",
    "{tile} is a double, and doubles are trump: it belongs to the trump suit and follows",
    "{tile} bears a {n}, and {n}s are trump: it belongs to the trump suit and follows",
    "{tile} is a double, and doubles are trump ({rule}), so it belongs to the trump suit only; it bears a {s}, but a trump is never a {s}: it does not follow {s}s",
    "{tile} bears a {n}, and {n}s are trump ({rule}), so it belongs to the trump suit only; it bears a {s}, but a trump is never a {s}: it does not follow {s}s",
    "{tile} is a double, and doubles are trump ({rule}), so it belongs to the trump suit only; it is not a {s}: it does not follow {s}s",
    "{tile} bears a {n}, and {n}s are trump ({rule}), so it belongs to the trump suit only; it is not a {s}: it does not follow {s}s",
    "{tile} is not a trump: it does not follow a trump lead",
    "the double {tile} belongs to suit {s}: it follows {s}s",
    "{tile} is not a trump and bears a {s}, so it belongs to suit {s} (and suit {o}): it follows {s}s",
    "{tile} bears no {s}: it does not follow {s}s",
    "but the first lead of a hand must be a trump when the leader holds one, and the hand holds {tiles}",
    "{tile} follows, so it may be played",
    "the hand holds {tile}, which is a trump; a player who can follow must",
    "the hand holds {tiles}, which are trumps; a player who can follow must",
    "the hand holds {tile}, which follows suit {s}; a player who can follow must",
    "the hand holds {tiles}, which follow suit {s}; a player who can follow must",
    "the hand holds {tile}, which follows suit {s} ({fake} bears a {s} but is a trump, and does not count); a player who can follow must",
    "the hand holds {tiles}, which follow suit {s} ({fake} bears a {s} but is a trump, and does not count); a player who can follow must",
    "the hand holds {tile}, which follows suit {s} ({fake} bear a {s} but is a trump, and does not count); a player who can follow must",
    "the hand holds {tiles}, which follow suit {s} ({fake} bear a {s} but is a trump, and does not count); a player who can follow must",
    "the hand holds no trump, so any tile may be played",
    "the hand holds no {s}, so any tile may be played",
    "the auction goes clockwise from the first bidder, one call each",
    "only the player whose turn it is may act",
    "the auction is one round: each player calls once, clockwise",
    "only the player whose turn it is may act, in the current phase",
    "a claim holds only if the claimant's side wins the claimed tricks against every legal line of play by the others",
    "a hand thrown in scores nothing",
    "seat {seat} reneged: the hand ended and the offending side is set",
    "partners' tricks count together: team 0 took {a}, team 1 took {b}",
    "{side} bid {bid} and took {n}: made (at least {m})",
    "{side} bid {bid} and took {n}: set (fewer than {m})",
    "{side} bid {bid} (all 7 tricks) and took {n}: made (at least {m})",
    "{side} bid {bid} (all 7 tricks) and took {n}: set (fewer than {m})",
    "marks: a made contract gives the bidder one mark",
    "marks: a set gives every other side one mark",
    "{side} scores the bid: {delta}",
    "{side} loses the bid: {delta}",
    "every other side scores a point a trick: {sidedeltas}",
    "a made 21 wins the game outright for {side}",
    "{side} has reached {n} and leads",
    "a tie at the top: play goes on",
    "call {k}: seat {seat} passes",
    "call {k}: seat {seat} bids {call}: a bid of these rules, the first bid",
    "call {k}: seat {seat} bids {call}: a bid of these rules, higher than the earlier bid of {high}",
    "every player passed: the hand is thrown in",
    "a bid of 21 ends the auction at once",
    "the highest bid wins: {side} with {bid}",
    "everyone before passed, so the last player must bid",
    "{side} claimed all {n} remaining tricks and the claim held against every defence: the hand ended there, {k} to {side2}",
    "{side} claimed {n} of the {m} and the claim held against every defence: the hand ended there, {k} to {side2}, and the other {r} to the other team",
    "{tile} is a double, and doubles are trump: {tile} is a trump",
    "{tile} bears a {n}, and {n}s are trump: {tile} is a trump",
    "{tile} follows {n}s",
    "{tile} neither follows trumps nor is a trump: it cannot win",
    "{tile} neither follows {n}s nor is a trump: it cannot win",
    "among the trumps, doubles rank by number: {order}",
    "among the trumps, the double first, then by the other end: {order}",
    "a trump was played, so the highest trump wins: {tile}",
    "within suit {n}, the double ranks highest, then by the other end: {order}",
    "no trump was played, so the highest {n} wins: {tile}",
    "call {k}: {side} {said}: the auction ended when 21 was bid; no more calls",
    "call {k}: {side} {said}: every player has had their one turn to call; the auction is over",
    "call {k}: {side} {said}: everyone before passed, so the last player must bid at least {m}",
    "call {k}: {side} {said}: {call} is not a bid; a bid is one of {allowed}",
    "call {k}: {side} {said}: a bid of {call} does not beat the earlier bid of {high}",
    "the hand holds no {s} ({fake} bears a {s}, but {tile} bears a {n}, and {n}s are trump: a trump does not count), so any tile may be played",
    "the hand holds no {s} ({fake} bear a {s}, but {tile} bears a {n}, and {n}s are trump: a trump does not count), so any tile may be played",
    "the hand holds no {s} ({fake} bears a {s}, but {tile} is a double, and doubles are trump: a trump does not count), so any tile may be played",
    "the hand holds no {s} ({fake} bear a {s}, but {tile} is a double, and doubles are trump: a trump does not count), so any tile may be played",
)
"""The "why" steps of a ruling or an explanation: the reasons of ``moonrules.arbitration``."""

DECISION_KINDS: Final[tuple[Message, ...]] = (
    "play",
    "call",
    "discard",
    "trump",
    "lead",
)
"""What a reviewed decision was."""

HTML: Final[tuple[Message, ...]] = (
    "Moon game record",
    "Moon game review",
    "Rules: {label}",
    ("{count} player", "{count} players"),
    ("{count} player in two teams", "{count} players in two teams"),
    "seed {seed}",
    "checked by moonrules",
    "Valid.",
    "Every step follows the rules.",
    "Scores",
    "Hand",
    "Bidder",
    "Bid",
    "thrown in",
    "(unfinished)",
    "score sheet",
    "{n} hands not in dispute are summarised in the score table above; the page shows in full the last {m} hands and the hand in dispute (moonrules check --json gives every hand).",
    "Hand {hand}",
    "Seat {seat} bids first.",
    "Auction",
    ("Seat {seat} was dealt {count} tile", "Seat {seat} was dealt {count} tiles"),
    "The widow: {tile}",
    "Widow",
    "the disputed call (see the ruling)",
    "no call yet",
    "Tricks",
    "Trick {trick}",
    "Won by",
    "Tiles: {tiles}",
    "Trick {trick} (unfinished)",
    "Seat {seat} led",
    "Seat {seat} — renege",
    "Seat {seat} led — renege",
    "Claim",
    "Trick {trick}: a renege, penalised (RENEGE-2)",
    "The trick",
    "Seat {seat} held (green: the tiles that followed)",
    "{side} bid {bid} and took {n}: made. Score {deltas}; totals {totals} points.",
    "{side} bid {bid} and took {n}: made. Score {deltas}; totals {totals} marks.",
    "{side} bid {bid} and took {n}: set. Score {deltas}; totals {totals} points.",
    "{side} bid {bid} and took {n}: set. Score {deltas}; totals {totals} marks.",
    "illegal",
    "wrong score",
    "the claim fails",
    "The ruling",
    "Ruling",
    "Trick {trick} as played",
    "Go to hand {hand}",
    "Seat {seat}'s tiles",
    "Seat {seat} held these tiles; ringed green: the legal plays",
    "Seat {seat} held these tiles; ringed green: the legal leads",
    "One line of play that defeats the claim:",
    "{n} deals per decision (seed {seed})",
    "double dummy only (no samples)",
    "marks by expected points lost: ?! ≥ {x}, ? ≥ {y}, ?? ≥ {z}, none within {noise} standard errors",
    "← Previous",
    "Next →",
    "Next mark",
    "keys ← → or j k",
    "Players",
    "Seat",
    "Decisions",
    "Points lost",
    "Accuracy",
    "Seat {seat} was dealt",
    "The widow",
    "Auction: {calls}.",
    "Auction: no call.",
    "Seat {seat} bid {bid}.",
    "Discard {tile} (ringed).",
    "Trump {n}s.",
    "Trump doubles.",
    "Trump none.",
    "Decisions ({n})",
    "trick {trick}, {kind}",
    "Tile {tile}",
    "discard {tile}",
    "trump {n}s",
    "trump doubles",
    "trump none",
    "loses {x} ± {y}",
    "best",
    "Action",
    "DD tricks",
    "DD points",
    "SD points",
    "± se",
    "Bidding advice (chance of making):",
    "{bid} in {n}s {k}%",
    "{bid} in doubles {k}%",
    "{bid} in none {k}%",
)
"""The HTML report's and the review page's own words (``check --html``, ``review --html``)."""


TITLES: Final[tuple[Message, ...]] = (
    "Moon record check: {name}",
    "Moon game review: {name}",
)
"""A page's title with the file it is of (``{name}``: told with gettext, never matched)."""

PAGE: Final[tuple[Message, ...]] = (
    *HTML,
    *LINES,
    *REASONS,
    *SIDES,
    *CALL_ITEMS,
    *WHERE,
    TRICKS,
    PASS,
    *SAID,
    *DECISION_KINDS,
)
"""The ids a sentence of an HTML page is matched against (:class:`moonrules.i18n.report.PageWords`)."""


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
    WIDOW_1,
    TRUMP_5,
    RENEGE_1,
    RENEGE_2,
    SEAT_1,
    OTHER,
    OTHER_TITLED,
    DOUBLES,
    NO_TRUMP,
    ALLOWED,
    PASS,
    TRICKS,
    NONE,
    CLAUSE,
    AT_LINE,
    *SIDES,
    *SEEDS,
    *CALL_ITEMS,
    *PLAY_ITEMS,
    *WHERE,
    *LEADS,
    *SAID,
    *WRONGS,
    *DEFEAT,
    *SIDE_DELTAS,
    *ENDS,
    *LINES,
    *REASONS,
    *DECISION_KINDS,
    *HTML,
    *TITLES,
)
"""Every message id, in the catalogs' order."""

__all__ = ["MESSAGES", "Message"]
