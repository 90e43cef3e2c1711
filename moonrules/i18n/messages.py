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


# moonrules play: the game in the terminal (moonrules.cli.play)

PLAY_GAME: Final = "Moon"
"""The game's name, in bold at the head of the screen."""
PLAY_CUSTOM_RULES: Final = "custom rules"
PLAY_HEADER: Final = (
    "{game} ({rules}), seed {seed}, {count} player",
    "{game} ({rules}), seed {seed}, {count} players",
)
PLAY_HEADER_SEAT: Final = (
    "{game} ({rules}), seed {seed}, {count} player; you are seat {seat}",
    "{game} ({rules}), seed {seed}, {count} players; you are seat {seat}",
)
PLAY_HEADER_PARTNER: Final = (
    "{game} ({rules}), seed {seed}, {count} player; you are seat {seat}, your partner seat {partner}",
    "{game} ({rules}), seed {seed}, {count} players; you are seat {seat}, your partner seat {partner}",
)
PLAY_HAND_TITLE: Final = "Hand {hand}"
"""A hand's title, in bold (the HTML report's own words too)."""
PLAY_HAND_HEADER: Final = "{title} — scores {scores}; seat {seat} bids first"
PLAY_YOU_PASS: Final = "you pass"
PLAY_YOU_BID: Final = "you bid {call}"
PLAY_SEAT_PASSES: Final = "seat {seat} passes"
PLAY_SEAT_BIDS: Final = "seat {seat} bids {call}"
PLAY_YOU_DISCARD: Final = "you take the widow and discard"
PLAY_SEAT_DISCARDS: Final = "seat {seat} takes the widow"
PLAY_YOU_NAME: Final = "you name trump: {trump}"
PLAY_SEAT_NAMES: Final = "seat {seat} names trump: {trump}"
PLAY_YOU_NAME_NONE: Final = "you name trump: none"
PLAY_SEAT_NAMES_NONE: Final = "seat {seat} names trump: none"
PLAY_YOU_PLAY: Final = "you play {tile}"
PLAY_SEAT_PLAYS: Final = "seat {seat} plays {tile}"
PLAY_YOU_WIN_TRICK: Final = "you win the trick"
PLAY_SEAT_WINS_TRICK: Final = "seat {seat} wins the trick"
PLAY_THROWN_IN: Final = "Hand {hand}: all pass, thrown in."
PLAY_SUMMARY: Final = "Hand {hand}: seat {seat} bids {bid}{discard}, trump {trump}; tricks {tricks}: {result}; scores {scores}"
PLAY_SUMMARY_NO_TRUMP: Final = "Hand {hand}: seat {seat} bids {bid}{discard}, trump none; tricks {tricks}: {result}; scores {scores}"
PLAY_SUMMARY_DISCARD: Final = ", discards {tile}"
PLAY_MADE: Final = "made"
PLAY_SET: Final = "set"
PLAY_MADE_RENEGE: Final = "made (renege by seat {seat})"
PLAY_SET_RENEGE: Final = "set (renege by seat {seat})"
PLAY_GAME_OVER: Final = "Game over"
PLAY_OVER_SEAT: Final = (
    "{title} after {count} hands: seat {seat} wins; scores {scores}",
    "{title} after {count} hands: seat {seat} wins; scores {scores}",
)
"""The game's end (English says "hands" whatever the count, as it always has)."""
PLAY_OVER_TEAM: Final = (
    "{title} after {count} hands: team {team} (seats {a}+{b}) wins; scores {scores}",
    "{title} after {count} hands: team {team} (seats {a}+{b}) wins; scores {scores}",
)
PLAY_TEAM: Final = "team {team} (seats {a}+{b})"
PLAY_AUCTION: Final = "auction: {calls}"
PLAY_NO_CALLS: Final = "auction: no calls yet"
PLAY_CALL_PASS: Final = "seat {seat} pass"
PLAY_CALL_BID: Final = "seat {seat} bid {call}"
PLAY_CONTRACT: Final = "contract: seat {seat} bid {bid}; trump {trump}"
PLAY_CONTRACT_NO_TRUMP: Final = "contract: seat {seat} bid {bid}; trump none"
PLAY_CONTRACT_NOT_NAMED: Final = "contract: seat {seat} bid {bid}; trump not named yet"
PLAY_WIDOW: Final = "widow: {tile}"
PLAY_WIDOW_DISCARDED: Final = "widow: {tile}, discarded {discard}"
PLAY_TRICKS_WON: Final = "tricks won: {tricks}; scores {scores}"
PLAY_ON_TABLE: Final = "on the table: {plays}"
PLAY_ON_TABLE_ITEM: Final = "seat {seat}: {tile}"
PLAY_PLACE: Final = "{n} for {call}"
PLAY_PLACES: Final = "(or {places})"
PLAY_LEGAL: Final = "legal: {options}"
PLAY_STOPPED: Final = "Stopped."
PLAY_STOPPED_SAVED: Final = "Stopped. The game is saved in {path}."
PLAY_NO_FILE: Final = "no file to save to:"
PLAY_NO_FILE_HOW: Final = "type save FILE, or start with --save FILE"
PLAY_NOT_SAVED: Final = "not saved: cannot save to {path}: {reason}"
PLAY_STILL_SAVED: Final = "; the game is still saved in {path}"
PLAY_SAVED: Final = "saved in {path}"
PLAY_HELP_1: Final = "a tile (6-4) or its number, a call (pass, 5, 21), a trump (6, doubles, none);"
PLAY_HELP_2: Final = "save [FILE], quit"
PLAY_NOT_A_CALL: Final = "not a call: {text} (try pass, or a bid like 5)"
PLAY_NOT_A_TRUMP: Final = "not a trump: {text} (try 0-6, doubles or none)"
PLAY_NOT_A_TILE: Final = "not a tile: {text} (type it like 6-4, or its number)"
PLAY_NO_CALL_NUMBER: Final = "there is no call number {n}"
PLAY_NO_CALL_NUMBER_ONE: Final = "there is no call number {n} (1 is the only one)"
PLAY_NO_CALL_NUMBER_RANGE: Final = "there is no call number {n} (1 to {m})"
PLAY_NO_TILE_NUMBER: Final = "there is no tile number {n}"
PLAY_NO_TILE_NUMBER_ONE: Final = "there is no tile number {n} (1 is the only one)"
PLAY_NO_TILE_NUMBER_RANGE: Final = "there is no tile number {n} (1 to {m})"
PLAY_YOUR_CALL: Final = "Your call"
PLAY_YOUR_DISCARD: Final = "Your discard (you took the widow)"
PLAY_NAME_TRUMP: Final = "Name trump"
PLAY_YOUR_LEAD: Final = "Your lead"
PLAY_YOUR_PLAY: Final = "Your play"
PLAY_HINT_TILE: Final = "tile or number"
PLAY_HINT_TYPE: Final = "type it"
PLAY_PROMPT: Final = "{what} ({hint}, or save / quit): "
PLAY_REFUSED: Final = "refused"
PLAY_NOT_LEGAL: Final = "not legal now"
PLAY_SAVE_WORD: Final = "save"
"""What a player types to save (the English word is always understood too)."""
PLAY_QUIT_WORD: Final = "quit"
PLAY_HELP_WORD: Final = "help"

PLAY: Final[tuple[Message, ...]] = (
    PLAY_GAME,
    PLAY_CUSTOM_RULES,
    PLAY_HEADER,
    PLAY_HEADER_SEAT,
    PLAY_HEADER_PARTNER,
    PLAY_HAND_HEADER,
    PLAY_YOU_PASS,
    PLAY_YOU_BID,
    PLAY_YOU_DISCARD,
    PLAY_SEAT_DISCARDS,
    PLAY_YOU_NAME,
    PLAY_SEAT_NAMES,
    PLAY_YOU_NAME_NONE,
    PLAY_SEAT_NAMES_NONE,
    PLAY_YOU_PLAY,
    PLAY_SEAT_PLAYS,
    PLAY_YOU_WIN_TRICK,
    PLAY_SEAT_WINS_TRICK,
    PLAY_THROWN_IN,
    PLAY_SUMMARY,
    PLAY_SUMMARY_NO_TRUMP,
    PLAY_SUMMARY_DISCARD,
    PLAY_MADE,
    PLAY_SET,
    PLAY_MADE_RENEGE,
    PLAY_SET_RENEGE,
    PLAY_GAME_OVER,
    PLAY_OVER_SEAT,
    PLAY_OVER_TEAM,
    PLAY_TEAM,
    PLAY_AUCTION,
    PLAY_NO_CALLS,
    PLAY_CALL_PASS,
    PLAY_CALL_BID,
    PLAY_CONTRACT,
    PLAY_CONTRACT_NO_TRUMP,
    PLAY_CONTRACT_NOT_NAMED,
    PLAY_WIDOW,
    PLAY_WIDOW_DISCARDED,
    PLAY_TRICKS_WON,
    PLAY_ON_TABLE,
    PLAY_ON_TABLE_ITEM,
    PLAY_PLACE,
    PLAY_PLACES,
    PLAY_LEGAL,
    PLAY_STOPPED,
    PLAY_STOPPED_SAVED,
    PLAY_NO_FILE,
    PLAY_NO_FILE_HOW,
    PLAY_NOT_SAVED,
    PLAY_STILL_SAVED,
    PLAY_SAVED,
    PLAY_HELP_1,
    PLAY_HELP_2,
    PLAY_NOT_A_CALL,
    PLAY_NOT_A_TRUMP,
    PLAY_NOT_A_TILE,
    PLAY_NO_CALL_NUMBER,
    PLAY_NO_CALL_NUMBER_ONE,
    PLAY_NO_CALL_NUMBER_RANGE,
    PLAY_NO_TILE_NUMBER,
    PLAY_NO_TILE_NUMBER_ONE,
    PLAY_NO_TILE_NUMBER_RANGE,
    PLAY_YOUR_CALL,
    PLAY_YOUR_DISCARD,
    PLAY_NAME_TRUMP,
    PLAY_YOUR_LEAD,
    PLAY_YOUR_PLAY,
    PLAY_HINT_TILE,
    PLAY_HINT_TYPE,
    PLAY_PROMPT,
    PLAY_REFUSED,
    PLAY_NOT_LEGAL,
    PLAY_SAVE_WORD,
    PLAY_QUIT_WORD,
    PLAY_HELP_WORD,
)
"""The terminal game's own words (``moonrules play``); it says a seat's pass and bid
(``seat {seat} passes``, ``seat {seat} bids {call}``), a hand's title, a pass, doubles
and "none" with the ids the report has for them already."""


# moonrules tournament plan, standings and ratings (moonrules.cli.tournament)

FORMATS: Final[tuple[Message, ...]] = ("three-seat", "mitchell", "howell", "swiss")
"""The formats of an event, by name."""
TIE_BREAK_NAMES: Final[tuple[Message, ...]] = ("score", "head to head", "count-back", "ballot")
"""The tie-breaks, by name (``moonrules.tournament.scoring.TIE_BREAKS``)."""
ADJUSTMENT_NAMES: Final[tuple[Message, ...]] = ("average-plus", "average-minus", "penalty")
"""The kinds of a director's adjustment that are words (``60/40`` and ``40/60`` are not)."""

T_ENTRIES: Final = ("{count} entry", "{count} entries")
T_ROUNDS: Final = ("{count} round(s)", "{count} round(s)")
T_BOARDS_EACH: Final = ("{count} board(s)", "{count} board(s)")
"""How many boards each round has, after :data:`T_ROUNDS` in the plan's first line."""
T_PLAN_HEAD: Final = "{name}: {format}, {entries}, {rounds} of {boards}, seed {seed}"
T_ROUND: Final = "round {round}: boards {boards}"
T_TABLE: Final = "table {table}: {seats}"
T_SEAT_ENTRY: Final = "seat {seat}: {entry}"
T_SIDE_ENTRY: Final = "side {side}: {entry}"
T_SITTING_OUT: Final = "sitting out: {entries}"
T_SWISS_LATER: Final = "later rounds are paired from the standings as the event goes"
T_KEPT_APART: Final = "kept apart (never at one table): {pairs}"
T_PAIR: Final = "{a} and {b}"
T_CHECK: Final = "check:"
T_ENTRY: Final = "entry"
T_SEATS_HELD: Final = "seats held"
T_SIDES_HELD: Final = "sides held"
T_BOARDS: Final = "boards"
T_MEET: Final = ("{a} and {b} meet {count} time", "{a} and {b} meet {count} times")
T_NO_BOARD_TWICE: Final = "no board is played twice by anyone"
T_SEATS_COUNTED: Final[tuple[Message, ...]] = ("seat {seat}: {k}", "side {seat}: {k}")
"""How often an entry held a seat, in a note of the plan's check."""
T_NOTES: Final[tuple[Message, ...]] = (
    "a Mitchell: each pair keeps its side; two fields, two winners",
    "every entry holds every seat equally often",
    "every entry holds every side equally often",
    "seats cannot be balanced: {r} rounds are not a multiple of {places}, so an entry holds some seat once more than another (e.g. {entry}: {counts})",
    "sides cannot be balanced: {r} rounds are not a multiple of {places}, so an entry holds some side once more than another (e.g. {entry}: {counts})",
    "seats are not balanced: {entry} holds {counts}",
    "sides are not balanced: {entry} holds {counts}",
    "no two players meet twice (table-mates never repeat)",
    (
        "{count} repeated meeting(s) of table-mates; a Kirkman design of {n} players would have none, but none is built in here for that number",
        "{count} repeated meeting(s) of table-mates; a Kirkman design of {n} players would have none, but none is built in here for that number",
    ),
    (
        "{count} repeated meeting(s) of table-mates: with {n} players, at most {m} round(s) can all be new meetings",
        "{count} repeated meeting(s) of table-mates: with {n} players, at most {m} round(s) can all be new meetings",
    ),
    (
        "{count} repeated meeting(s) of table-mates (the fewest found)",
        "{count} repeated meeting(s) of table-mates (the fewest found)",
    ),
    "no two pairs meet twice",
    ("{count} repeated meeting(s) of pairs", "{count} repeated meeting(s) of pairs"),
)
"""The notes of a movement's check (``moonrules.tournament.movement``), matched as the
report's lines are (:func:`moonrules.i18n.sentences.translate`)."""
T_SEATED: Final = ("{count} round(s) seated", "{count} round(s) seated")
T_RESULTS: Final = ("{count} result(s)", "{count} result(s)")
T_STANDINGS_HEAD: Final = "{name}: {format}, {seated}, {results}; approved: {approved}"
T_STANDINGS_HEAD_NONE: Final = "{name}: {format}, {seated}, {results}; approved: none"
T_TIES: Final = "ties broken by {ties}"
T_THEN: Final = "{a}, then {b}"
T_FIELD_ALL: Final = "all"
T_FIELD_SIDE: Final = "side {side}"
T_RANK: Final = "rank"
T_TOTAL: Final = "total"
T_PERCENT: Final = "%"
"""The heading of the standings' column of matchpoints (a percentage of the top): a
language may name the matchpoints in it (the glossary's word)."""
T_NOTES_HEAD: Final = "notes"
T_AHEAD_BY: Final = "(ahead by {tie_break})"
T_BOT: Final = "bot"
T_LATE: Final = "late entry from round {round} ({value} for rounds missed)"
T_WITHDREW: Final = "withdrew from round {round}"
T_SUBSTITUTE: Final = "substitute {sub} for {player} from round {round}"
T_ADJUSTED: Final = "{kind} on board {board}: {reason}"
T_BYE: Final = "bye in round {round}"
T_RATED: Final = (
    "{event}: {count} game(s) rated; {model}",
    "{event}: {count} game(s) rated; {model}",
)
T_RATING_FORMULA: Final = "rating = 1000 + 30 * (mu - 3 * sigma); provisional while sigma > {sigma}"
T_NOT_RATED: Final = "substitutes, not rated: {names}"
T_PLAYER: Final = "player"
T_RATING: Final = "rating"
T_GAMES: Final = "games"
T_PROVISIONAL: Final = "provisional"
T_BOT_NAMED: Final = "bot ({bot})"

TOURNAMENT: Final[tuple[Message, ...]] = (
    *FORMATS,
    *TIE_BREAK_NAMES,
    *ADJUSTMENT_NAMES,
    T_ENTRIES,
    T_ROUNDS,
    T_BOARDS_EACH,
    T_PLAN_HEAD,
    T_ROUND,
    T_TABLE,
    T_SEAT_ENTRY,
    T_SIDE_ENTRY,
    T_SITTING_OUT,
    T_SWISS_LATER,
    T_KEPT_APART,
    T_PAIR,
    T_CHECK,
    T_ENTRY,
    T_SEATS_HELD,
    T_SIDES_HELD,
    T_BOARDS,
    T_MEET,
    T_NO_BOARD_TWICE,
    *T_SEATS_COUNTED,
    *T_NOTES,
    T_SEATED,
    T_RESULTS,
    T_STANDINGS_HEAD,
    T_STANDINGS_HEAD_NONE,
    T_TIES,
    T_THEN,
    T_FIELD_ALL,
    T_FIELD_SIDE,
    T_RANK,
    T_TOTAL,
    T_PERCENT,
    T_NOTES_HEAD,
    T_AHEAD_BY,
    T_BOT,
    T_LATE,
    T_WITHDREW,
    T_SUBSTITUTE,
    T_ADJUSTED,
    T_BYE,
    T_RATED,
    T_RATING_FORMULA,
    T_NOT_RATED,
    T_PLAYER,
    T_RATING,
    T_GAMES,
    T_PROVISIONAL,
    T_BOT_NAMED,
)
"""The words of ``moonrules tournament plan``, ``standings`` and ``ratings`` as text."""


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
    *PLAY,
    *TOURNAMENT,
)
"""Every message id, in the catalogs' order."""

__all__ = ["MESSAGES", "Message"]
