"""The catalogue: every property, the clauses it covers, its method, its domain and its check.

``spec/proofs.md`` and the documentation page "How the rules are verified" are generated from
:data:`CATALOGUE` (``scripts/gen_proofs.py``); a test fails when either is stale, and when a
clause of ``spec/rules.md`` has no property.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from moonrules.rules.contract import check_iterable, check_str
from moonrules.rules.errors import MoonError, quote
from moonrules.verification import bmc, exhaustive, smt
from moonrules.verification import engine as engine_check
from moonrules.verification.core import Method, Property
from moonrules.verification.tested import check_deals, check_first_bidder

_CROSSHAIR = (
    "CrossHair executes the real function on symbolic integers and z3 decides every branch; "
    "the proof passes only when every path is explored and confirmed."
)
_WALK = (
    f"one seeded game (seeds {', '.join(map(str, bmc.SEEDS))}) per preset and for four players "
    "with every variant field the presets give only three (partnership-variants), played to "
    f"its end, and a hand of each in which seat 0 makes a 21; every state within "
    f"{bmc.PLAYOUT_DEPTH} actions of any state of them, and within {bmc.DEAL_DEPTH} actions of "
    "each first deal (every auction and what follows it)"
)
_QUICK_WALK = (
    f"seed {bmc.QUICK_SEEDS[0]} of the same rule sets: every state within "
    f"{bmc.QUICK_DEAL_DEPTH} actions of the first deal, and within 1 action of the states of "
    "the first and last hands and of the made 21"
)
_RESTATED = (
    "Held against the clauses restated directly in moonrules.verification.statements (a plain "
    "reading of spec/rules.md in the tiles' ends and the rule set's fields), never against the "
    "code under test or the functions it is built from."
)

CATALOGUE: Final[tuple[Property, ...]] = (
    Property(
        "tile-sets",
        ("TILE-1", "TILE-2", "TILE-3", "TILE-4"),
        "A tile is read from either order of its ends and written high end first, and the three "
        "tile sets hold exactly the tiles their clauses list.",
        Method.EXHAUSTIVE,
        "every text a-b for a, b in 0-9 (100), the 28 tiles and the three sets",
        exhaustive.check_tile_sets,
        subject="moonrules.rules.tiles (Tile.parse, TILES, TileSet)",
    ),
    Property(
        "rule-sets",
        ("RULES-1", "TRUMP-1", "TRUMP-5", "BID-4", "DEAL-2", "TEAM-1", "END-1"),
        "A rule set is accepted exactly when RULES-1 and TRUMP-5 allow it, and then offers the "
        "bids, trumps, widow, sides and default target its clauses give.",
        Method.EXHAUSTIVE,
        "every combination of players (2-5), tile set, minimum bid (2-6), widow timing, "
        "doubles and no-trump offered, every subset of trump numbers and targets -1, 0, 1, 21 "
        "(245,760 rule sets), and every value of the other seven fields on each consistent "
        "table (384)",
        exhaustive.check_rule_sets,
        quick_domain="the same with the trump-number subsets of at most one or at least six "
        "numbers (31,104 + 384)",
        subject="moonrules.rules.ruleset.RuleSet",
    ),
    Property(
        "suits-and-ranks",
        ("TRUMP-2", "TRUMP-3", "TRUMP-4", "SUIT-1", "SUIT-2", "SUIT-3", "SUIT-4", "LEAD-3"),
        "Under every trump, each tile is a trump or belongs to the numeric suits its clauses "
        "say, every suit is strictly ranked in the stated order, and a led tile calls the "
        "suit of its higher end whichever way it is written.",
        Method.EXHAUSTIVE,
        "9 trumps x 28 tiles x 8 suits (2,016), both writings of each led tile",
        exhaustive.check_suits,
        subject="moonrules.rules.suits (is_trump, in_suit, led_suit, rank, suit_tiles)",
    ),
    Property(
        "trick-winner",
        ("TRICK-2",),
        "Every trick has exactly one winner: the tile whose TRICK-2 key (highest trump, else "
        "highest of the suit led) beats every other, as the kernel's table lookup (the game's "
        "code) and the readable trick_winner both compute.",
        Method.EXHAUSTIVE,
        "every ordered trick of 3 tiles of the 22-, 21- and 28-tile sets and of 4 tiles of the "
        "28-tile set, under each of the 9 trumps (4,754,484); trick_winner on every 3-tile "
        "trick and every 4-tile trick as a set of tiles",
        exhaustive.check_trick_winner,
        quick_domain="the 3-tile tricks only (331,884)",
        subject="moonrules.kernel.tables.winner_index, moonrules.rules.tricks.trick_winner",
    ),
    Property(
        "kernel",
        (
            "LEAD-1",
            "LEAD-2",
            "FOLLOW-1",
            "FOLLOW-2",
            "FOLLOW-3",
            "LEAD-3",
            "SUIT-3",
            "SUIT-4",
            "TRICK-2",
        ),
        "The kernel's one legal-play mask, its trick winner and its tables, which the game, the "
        "solver, the claim search and the bots run on, give what the clauses say, restated "
        "independently; the whole run also proves them equal to the rule functions they are "
        "built from.",
        Method.EXHAUSTIVE,
        "every preset and every tile set under every first-lead rule with all nine trumps "
        "offered (17 rule sets); for each trump offered, every position (a lead after each "
        "number of tricks, a follow of every led tile in the first trick and a later one) and "
        "every hand of one or two tiles, the whole set, the tiles that follow and those that do "
        "not (which covers every hand, as moonrules.kernel.check argues), the led-suit and "
        "strength tables and every ordered trick of two tiles (tricks of three and four: "
        "trick-winner); and moonrules.kernel.check.kernel_mismatches over the same rule sets",
        exhaustive.check_kernel,
        quick_domain="the presets only, against the restated clauses only",
        subject="moonrules.kernel.masks.legal_mask, moonrules.kernel.tables",
        reason=_RESTATED,
    ),
    Property(
        "follow-rules",
        ("LEAD-1", "LEAD-2", "FOLLOW-1", "FOLLOW-2", "FOLLOW-3"),
        "The legal plays are the leader's whole hand (its trumps under LEAD-2 if it holds any), "
        "or the tiles that follow the lead if any do, or else the whole hand.",
        Method.EXHAUSTIVE,
        "every tile set, trump and led tile (or a lead, with and without LEAD-2) and every hand "
        "of up to three other tiles of the set (1,523,925 cases); the game's own hands of "
        "seven are covered by follow-in-play",
        exhaustive.check_follow,
        quick_domain="hands of up to two tiles (197,397 cases)",
        subject="moonrules.rules.tricks.legal_plays",
    ),
    Property(
        "auction",
        ("BID-2", "BID-3", "BID-4", "BID-5", "BID-6", "BID-7", "BID-8", "SEAT-1"),
        "In every auction the legal calls are exactly the pass (unless BID-8 forces a bid) and "
        "the allowed bids above every earlier bid, every other call is refused naming a BID "
        "clause, turns pass clockwise, and the end, winner, contract and redeal are the "
        "clauses'.",
        Method.EXHAUSTIVE,
        "every sequence of the calls -1, 0-8, 20, 21, 22 under 3 and 4 players, minimum bids "
        "3-5, with and without 21, both all-pass rules, from every first bidder (144,732 "
        "auctions and calls)",
        exhaustive.check_auction,
        quick_domain="the same from first bidder 0 only",
        subject="moonrules.rules.auction (Auction, legal_calls, apply_call)",
    ),
    Property(
        "worked-examples",
        ("EX-1", "EX-2", "EX-3", "EX-4", "EX-5", "EX-6"),
        "Each worked example holds in every case it describes.",
        Method.EXHAUSTIVE,
        "EX-1 under every trump but 3 and 5 with every hand of the 5-3 and up to six tiles "
        "bearing neither number; EX-2 with every pair of other tiles; EX-3 to EX-6 as stated "
        "(17,966 cases)",
        exhaustive.check_examples,
        subject="moonrules.rules (legal_plays, trick_winner, suit_tiles, Auction)",
    ),
    Property(
        "score-made",
        ("SCORE-1", "TEAM-1"),
        "For every bidder, bid and distribution of the 7 tricks, the contract is made exactly "
        "when the bidder's side (its two seats, with four players) took the bid, all 7 for a 21.",
        Method.SMT,
        "all integers (tricks, bid) the preconditions allow, under 16 rule sets (3 and 4 "
        "players x points and marks x both 21 rules x both tie rules)",
        smt.proof("made"),
        quick_domain=smt.quick_domain("made"),
        subject="moonrules.rules.scoring.score_hand, is_made",
        reason=_CROSSHAIR,
        needs=("crosshair", "z3"),
    ),
    Property(
        "score-points",
        ("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5"),
        "In points, the bidder's side gains the bid if made (as SCORE-1 says) and loses it if "
        "set, each other side gains its tricks, a made bid never lowers the bidder's score, and "
        "a made 21 wins the game exactly under moon_made = wins-game.",
        Method.SMT,
        "all integers the preconditions allow, under the 8 points rule sets",
        smt.proof("points"),
        quick_domain=smt.quick_domain("points"),
        subject="moonrules.rules.scoring.score_hand",
        reason=_CROSSHAIR,
        needs=("crosshair", "z3"),
    ),
    Property(
        "score-marks",
        ("SCORE-6", "SCORE-4", "SCORE-5"),
        "In marks, a contract made as SCORE-1 says gives the bidder's side one mark and a set "
        "one mark to each other side, a made 21 still wins under SCORE-4, and marks and points "
        "agree on whether the bid was made.",
        Method.SMT,
        "all integers the preconditions allow, under the 8 marks rule sets",
        smt.proof("marks"),
        quick_domain=smt.quick_domain("marks"),
        subject="moonrules.rules.scoring.score_hand",
        reason=_CROSSHAIR,
        needs=("crosshair", "z3"),
    ),
    Property(
        "score-renege",
        ("RENEGE-2",),
        "A hand ended by a renege is scored as set or made by the offending side whatever the "
        "tricks, the other sides scoring the tricks completed before it.",
        Method.SMT,
        "all integers (tricks completed, at most 6) the preconditions allow, made and set, "
        "under 16 rule sets",
        smt.proof("renege"),
        quick_domain=smt.quick_domain("renege"),
        subject="moonrules.rules.scoring.score_hand(made=...)",
        reason=_CROSSHAIR,
        needs=("crosshair", "z3"),
    ),
    Property(
        "game-end",
        ("END-1", "END-2", "END-3"),
        "For every target and all scores, the game is won by the single top score at or above "
        "the target, a tie at the top plays on unless END-3 sends the tied bidder out, seat "
        "order never breaks a tie, and there is never more than one winner.",
        Method.SMT,
        "all integer scores and every target of at least 1, under 3 and 4 players and both "
        "tie rules",
        smt.proof("end"),
        quick_domain=smt.quick_domain("end"),
        subject="moonrules.rules.scoring.game_winner",
        reason=_CROSSHAIR,
        needs=("crosshair", "z3"),
    ),
    Property(
        "state-machine",
        ("TURN-1", "SEAT-1", "DEAL-1", "DEAL-2", "WIDOW-1", "WIDOW-2", "TRICK-1", "TRICK-3"),
        "In every reachable state every tile of the set is in exactly one place, exactly one "
        "seat is to act (the one the clauses name) or the game is over, legal actions are "
        "never empty before the end, and any other seat acting is refused under TURN-1.",
        Method.BOUNDED,
        _WALK,
        bmc.bounded(bmc.check_state),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game (new_game, legal_actions, apply)",
    ),
    Property(
        "follow-in-play",
        (
            "LEAD-1",
            "LEAD-2",
            "FOLLOW-1",
            "FOLLOW-2",
            "FOLLOW-3",
            "BID-2",
            "BID-3",
            "BID-8",
            "WIDOW-1",
            "WIDOW-2",
            "TRUMP-1",
            "TRUMP-5",
            "TURN-1",
        ),
        "In every reachable state the game's legal actions are exactly those the pure rulebook "
        "functions give, every other action of the phase is refused naming a clause, and an "
        "action of another phase is refused under TURN-1.",
        Method.BOUNDED,
        _WALK,
        bmc.bounded(bmc.check_legality),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game (legal_actions, apply) against moonrules.rules",
    ),
    Property(
        "hand-end",
        (
            "BID-5",
            "BID-6",
            "WIDOW-1",
            "WIDOW-2",
            "LEAD-1",
            "TRICK-1",
            "TRICK-2",
            "TRICK-3",
            "TEAM-1",
            "SCORE-1",
            "SCORE-2",
            "SCORE-3",
            "SCORE-4",
            "SCORE-5",
            "SCORE-6",
            "END-1",
            "END-2",
            "END-3",
            "BID-1",
            "BID-7",
        ),
        "Every move does what its clauses say: the auction ends after every player's call or a "
        "21 and goes to the highest bid, the widow goes to the bidder, who leads first, each "
        "trick goes to its TRICK-2 winner, who leads next, and every hand end is scored and ends "
        "the game as the scoring and end clauses say (a made 21 winning outright under "
        "SCORE-4), moves the first bid one seat on, and leaves scores alone after a throw-in.",
        Method.BOUNDED,
        _WALK,
        bmc.bounded(bmc.check_transitions),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game.apply",
        reason=_RESTATED,
    ),
    Property(
        "engine",
        (
            "TURN-1",
            "BID-2",
            "BID-3",
            "BID-5",
            "BID-6",
            "BID-7",
            "BID-8",
            "WIDOW-1",
            "WIDOW-2",
            "TRUMP-1",
            "TRUMP-5",
            "LEAD-1",
            "LEAD-2",
            "FOLLOW-1",
            "FOLLOW-2",
            "FOLLOW-3",
            "TRICK-1",
            "TRICK-2",
            "TRICK-3",
            "SCORE-1",
            "END-1",
            "VIEW-1",
        ),
        "In every reachable state the fast engine (moonrules.engine.Engine) offers the "
        "reference's legal ids, reaches the reference's state by each of them and comes back "
        "by undo, refuses every other id with the reference's error and clause, and writes "
        "each seat's observation and information state as the reference encodes its view.",
        Method.BOUNDED,
        _WALK + "; every id of the action space in each",
        engine_check.check,
        quick_domain=_QUICK_WALK + "; every legal id and three refused ids in each",
        subject="moonrules.engine.Engine",
        reason="Held against the reference (moonrules.game.apply, view, the encoder), which the "
        "other properties hold to the clauses: the engine's tables come from the same rulebook, "
        "so this property catches a mistake of the engine's own code.",
    ),
    Property(
        "renege",
        ("RENEGE-1", "RENEGE-2"),
        "Every renege open in a reachable state is refused under renege = stop (by apply and "
        "apply_renege) and under renege = penalty ends the hand, scored set or made by the "
        "offender's side.",
        Method.BOUNDED,
        _WALK,
        bmc.bounded(bmc.check_reneges),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game (apply, apply_renege)",
    ),
    Property(
        "views",
        ("VIEW-1",),
        "In every reachable state each seat's view shows its own hand, the widow and discard "
        "only to the bidder, and does not change when another seat's tiles or the unseen "
        "widow are exchanged.",
        Method.BOUNDED,
        _WALK,
        bmc.bounded(bmc.check_views),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game.view",
    ),
    Property(
        "claims",
        ("CLAIM-1",),
        "With two tricks or fewer left in a reachable state, verify_claim for every seat and "
        "every count agrees with a min-max search over the game's own legal moves.",
        Method.BOUNDED,
        _WALK + "; the states with at most two tricks left",
        bmc.bounded(bmc.check_claims),
        quick_domain=_QUICK_WALK,
        subject="moonrules.analysis.claim.verify_claim",
    ),
    Property(
        "claim-settlement",
        ("CLAIM-1",),
        "With two tricks or fewer left in a reachable state, a claim of every count by the seat "
        "to play is refused with three players unless it is of every trick left, holds exactly "
        "when a min-max search over the game's own moves gives the side the count, is refused "
        "in words that name no tile, and when it holds ends the hand with the count to the "
        "claimant's side and the rest to the other team, scored by the clauses restated.",
        Method.BOUNDED,
        _WALK + "; the states with at most two tricks left",
        bmc.bounded(bmc.check_claim_settlement),
        quick_domain=_QUICK_WALK,
        subject="moonrules.game.apply_claim",
    ),
    Property(
        "deals",
        ("DEAL-1", "DEAL-2", "DEAL-3"),
        "Seeded deals give each player 7 tiles and the widow where there is one, partitioning "
        "the set, and check_deal accepts a supplied deal exactly when DEAL-3 allows it.",
        Method.TESTED,
        "3 tile sets x seeds 0-299 x hands 1-3 (2,700 deals); every one-tile edit (any tile "
        "put in any place, a tile removed, the widow added or dropped) of seeds 0-9 of each "
        "tile set",
        check_deals,
        quick_domain="seeds 0-29 and edits of seeds 0-1",
        subject="moonrules.game (seeded_deal, check_deal)",
        reason="The seed is an unbounded integer and a supplied deal any sequence of tiles: "
        "neither domain can be enumerated, and a shuffle's randomness is not a provable "
        "property. The edits reach every refusal DEAL-3 lists.",
    ),
    Property(
        "first-bidder",
        ("BID-1",),
        "The first bidder of a game is a seat of the table, and every seat is chosen for some "
        "seed.",
        Method.TESTED,
        "seeds 0-599 under 3 and 4 players",
        check_first_bidder,
        quick_domain="seeds 0-59",
        subject="moonrules.game.new_game",
        reason="Chosen at random from an unbounded seed; the rotation of later hands is proved "
        "by hand-end.",
    ),
)
"""Every property, in the order ``moonrules verify`` runs them."""

_HEADING: Final = re.compile(r"^### ([A-Z]+-\d+) — \S", re.MULTILINE)


def spec_clauses(text: str) -> list[str]:
    """The clause IDs of ``spec/rules.md`` (given as text), in order."""
    check_str(text, "text", "the text of spec/rules.md")
    return _HEADING.findall(text)


class UnknownProperty(MoonError, KeyError):
    """:func:`by_id` of an ID no property has; ``args[0]`` is that ID (a :class:`KeyError`)."""

    def __str__(self) -> str:
        return f"ids: no property is called {quote(str(self.args[0]))}"


def by_id(ids: Iterable[str]) -> tuple[Property, ...]:
    """The properties with these IDs, in catalogue order; :class:`UnknownProperty` (a
    ``KeyError``) names an unknown one."""
    wanted = _texts(ids, "ids", "property IDs")
    known = {p.id: p for p in CATALOGUE}
    for i in wanted:
        if i not in known:
            raise UnknownProperty(i)
    return tuple(p for p in CATALOGUE if p.id in wanted)


def coverage(clauses: Iterable[str]) -> dict[str, tuple[Property, ...]]:
    """For each clause, the properties covering it (empty when none does)."""
    return {
        c: tuple(p for p in CATALOGUE if c in p.clauses)
        for c in _texts(clauses, "clauses", "clause IDs")
    }


def _texts(values: object, parameter: str, what: str) -> list[str]:
    """The items of ``values``, each a ``str``; :class:`TypeError` naming the parameter."""
    items = check_iterable(values, parameter, f"an iterable of {what}")
    for i, v in enumerate(items):
        check_str(v, f"{parameter}[{i}]", what[:-1] if what.endswith("s") else what)
    return items


__all__ = ["CATALOGUE", "UnknownProperty", "by_id", "coverage", "spec_clauses"]
