"""Which clauses of ``spec/rules.md`` a situation exercises, decided in one place.

The maps from a tile set and from a trump to the clause that defines them live
here, and so do the choices of which clauses a situation brings into play: a led
tile, a play to a trick, a complete trick, an auction, a hand's score, the end of
a game, a whole game's hands, a rule broken. The conformance vectors, the fuzzer
and arbitration all ask this module; none keeps a copy.

>>> from moonrules.rules.ruleset import STANDARD
>>> from moonrules.rules.tiles import tiles
>>> sorted(play_clauses(STANDARD, tiles("5-3 6-6 1-1"), tiles("3-2"), Trump.SIX))
['FOLLOW-2', 'LEAD-3', 'SUIT-2', 'TRICK-1', 'TRUMP-1', 'TRUMP-2']
>>> trump_clause(Trump.NONE), tile_set_clause(TileSet.DOUBLE_SIX_28)
('TRUMP-4', 'TILE-3')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, Protocol

from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.ruleset import (
    AllPass,
    FirstLead,
    MoonMade,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
)
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit
from moonrules.rules.tiles import Tile, TileSet

TILE_SET_CLAUSE: Final[Mapping[TileSet, str]] = MappingProxyType(
    {
        TileSet.MOON_22: "TILE-2",
        TileSet.DOUBLE_SIX_28: "TILE-3",
        TileSet.NO_DOUBLE_BLANK_21: "TILE-4",
    }
)
"""The clause that defines each tile set: a tile outside the set breaks it."""

TRUMP_CLAUSE: Final[Mapping[Trump, str]] = MappingProxyType(
    {
        t: "TRUMP-3" if t is Trump.DOUBLES else "TRUMP-4" if t is Trump.NONE else "TRUMP-2"
        for t in Trump
    }
)
"""The clause that says what a named trump makes trumps: TRUMP-2 for a number,
TRUMP-3 for doubles, TRUMP-4 for no-trump (no tile is a trump)."""

_FOLLOW: Final = frozenset({"FOLLOW-1", "FOLLOW-2"})


def tile_set_clause(tile_set: TileSet) -> str:
    """The clause defining ``tile_set`` (TILE-2, TILE-3 or TILE-4)."""
    return TILE_SET_CLAUSE[tile_set]


def trump_clause(trump: Trump) -> str:
    """The clause saying what ``trump`` makes trumps (TRUMP-2, TRUMP-3 or TRUMP-4)."""
    return TRUMP_CLAUSE[trump]


def trump_clauses(trump: Trump) -> set[str]:
    """Naming ``trump``: TRUMP-1, and the clause saying what it makes trumps."""
    return {"TRUMP-1", TRUMP_CLAUSE[trump]}


def error_clauses(rule: str) -> set[str]:
    """A step the rules refuse under clause ``rule``: that clause, and for a play that
    does not follow (FOLLOW-1, FOLLOW-2), RENEGE-1, which stops the game there."""
    return {rule, "RENEGE-1"} if rule in _FOLLOW else {rule}


def rules_clauses(rules: RuleSet) -> set[str]:
    """Clauses every situation under ``rules`` exercises: TEAM-1 for partnerships."""
    return {"TEAM-1"} if rules.partnership else set()


def tiles_clauses(rules: RuleSet) -> set[str]:
    """The rule set's tiles: TILE-1 and the clause of its tile set."""
    return {"TILE-1", TILE_SET_CLAUSE[rules.tile_set]}


def led_suit_clauses(tile: Tile, trump: Trump) -> set[str]:
    """The suit ``tile`` calls when led: LEAD-3, the trump, and SUIT-2 or SUIT-1."""
    suit = led_suit(tile, trump)
    return {"LEAD-3", "SUIT-2" if suit == TRUMP_SUIT else "SUIT-1"} | trump_clauses(trump)


def play_clauses(
    rules: RuleSet, hand: Sequence[Tile], trick: Sequence[Tile], trump: Trump
) -> set[str]:
    """What ``hand`` may play to ``trick`` (led tile first).

    A lead: LEAD-1, and LEAD-2 for a leader of seven tiles under ``first_lead =
    trump``. A follow: LEAD-3, TRICK-1, FOLLOW-1 or FOLLOW-2 by the suit led,
    SUIT-2 if the hand holds a trump (else SUIT-1), FOLLOW-3 if it cannot follow.
    """
    out = trump_clauses(trump)
    if not trick:
        out.add("LEAD-1")
        if rules.first_lead is FirstLead.TRUMP and len(hand) == 7:
            out.add("LEAD-2")
        return out
    out |= {"LEAD-3", "TRICK-1"}
    suit = led_suit(trick[0], trump)
    out.add("FOLLOW-1" if is_trump(trick[0], trump) else "FOLLOW-2")
    out.add("SUIT-2" if any(is_trump(t, trump) for t in hand) else "SUIT-1")
    if not any(in_suit(t, suit, trump) for t in hand):
        out.add("FOLLOW-3")
    return out


def trick_clauses(trick: Sequence[Tile], trump: Trump) -> set[str]:
    """Who wins ``trick``: TRICK-1, TRICK-2, LEAD-3, the trump, SUIT-4 or SUIT-3."""
    ranked = "SUIT-4" if any(is_trump(t, trump) for t in trick) else "SUIT-3"
    return {"TRICK-1", "TRICK-2", "LEAD-3", ranked} | trump_clauses(trump)


def auction_clauses(rules: RuleSet, calls: Sequence[int], *, asks_legal: bool = False) -> set[str]:
    """An auction after ``calls`` (first bidder first; 0 is a pass).

    BID-2 … BID-4 always; BID-5 when 21 was bid (or, with ``asks_legal``, may be
    bid next); BID-6 once a bidder is known, BID-7 for a hand thrown in, BID-8
    when ``all_pass = force`` binds the last caller; SEAT-1 while the turn goes on.
    """
    auction = Auction(tuple(calls), 0, rules)
    out = {"BID-2", "BID-3", "BID-4"}
    if MOON in calls or (asks_legal and MOON in legal_calls(auction)):
        out.add("BID-5")
    if auction.is_over and auction.winner is not None:
        out.add("BID-6")
    if auction.redeal:
        out.add("BID-7")
    forced = rules.all_pass is AllPass.FORCE and len(calls) >= rules.players - 1
    if forced and all(c == PASS for c in calls[: rules.players - 1]):
        out.add("BID-8")
    if not auction.is_over:
        out.add("SEAT-1")
    return out


def _moon_clause(rules: RuleSet) -> str:
    return "SCORE-4" if rules.moon_made is MoonMade.WINS_GAME else "SCORE-5"


def _tie_clause(rules: RuleSet) -> str:
    return "END-3" if rules.tie is TieRule.BIDDER_OUT else "END-2"


def score_clauses(rules: RuleSet, bid: int) -> set[str]:
    """A hand's score: SCORE-1, then SCORE-6 (marks) or SCORE-2 and SCORE-3; a bid
    of 21 adds SCORE-4 or SCORE-5 by the rule set."""
    out = {"SCORE-1"} | ({"SCORE-6"} if rules.scoring is Scoring.MARKS else {"SCORE-2", "SCORE-3"})
    if bid == MOON:
        out.add(_moon_clause(rules))
    return out


def game_end_clauses(rules: RuleSet, scores: Sequence[int]) -> set[str]:
    """Whether the game is over at ``scores``: END-1, and END-2 or END-3 for a tie at
    the top at or past the target."""
    top = max(scores)
    if top >= rules.target and list(scores).count(top) > 1:
        return {"END-1", _tie_clause(rules)}
    return {"END-1"}


def widow_clause(rules: RuleSet) -> str:
    """The clause of the widow's timing: WIDOW-1 (before trump) or WIDOW-2 (after)."""
    return "WIDOW-2" if rules.widow_timing is WidowTiming.AFTER_TRUMP else "WIDOW-1"


def view_clauses(rules: RuleSet, *, widow_seen: bool) -> set[str]:
    """What one seat may see: VIEW-1, SEAT-1, and the widow clause when it shows."""
    return {"VIEW-1", "SEAT-1", widow_clause(rules)} if widow_seen else {"VIEW-1", "SEAT-1"}


class PlayedTrick(Protocol):
    """A finished trick, as :func:`game_clauses` reads it."""

    @property
    def tiles(self) -> tuple[Tile, ...]: ...


class PlayedHand(Protocol):
    """A hand as far as it went, as :func:`game_clauses` reads it (a game's ``Hand``).

    Seats, tiles and trump are numbers, ``-1`` for none.
    """

    @property
    def calls(self) -> tuple[int, ...]: ...
    @property
    def thrown_in(self) -> bool: ...
    @property
    def bidder(self) -> int: ...
    @property
    def bid(self) -> int: ...
    @property
    def discard(self) -> int: ...
    @property
    def trump(self) -> int: ...
    @property
    def tricks(self) -> Sequence[PlayedTrick]: ...
    @property
    def trick(self) -> tuple[int, ...]: ...
    @property
    def renege(self) -> int: ...
    @property
    def deltas(self) -> tuple[int, ...] | None: ...


def _hand_clauses(rules: RuleSet, h: PlayedHand) -> set[str]:
    out: set[str] = set()
    if MOON in h.calls:
        out.add("BID-5")
    if h.thrown_in:
        out.add("BID-7")
    if h.bidder >= 0:
        out.add("BID-6")
        if rules.all_pass is AllPass.FORCE and all(c == PASS for c in h.calls[:-1]):
            out.add("BID-8")
    if h.discard >= 0:
        out.add(widow_clause(rules))
    if h.trump >= 0:
        out |= trump_clauses(Trump(h.trump))
    if h.tricks or h.trick:
        trump = Trump(h.trump)
        out |= {"TURN-1", "TRICK-1", "LEAD-1", "LEAD-3"}
        if rules.first_lead is FirstLead.TRUMP:
            out.add("LEAD-2")
        for trick in h.tricks:
            out.add("TRICK-2")
            out.add("SUIT-4" if any(is_trump(t, trump) for t in trick.tiles) else "SUIT-3")
            out.add("FOLLOW-1" if is_trump(trick.tiles[0], trump) else "FOLLOW-2")
    if h.renege >= 0:
        out.add("RENEGE-2")
    if len(h.tricks) == 7:
        out.add("TRICK-3")
    return out


def game_clauses(rules: RuleSet, hands: Sequence[PlayedHand]) -> set[str]:
    """A valid game record's hands, in order: every step they take, and how each ends.

    The deal (DEAL-1, DEAL-3, the tile set, DEAL-2 with a widow), the auction, the
    widow, trump, every trick, reneges scored, each hand's score and the end of the
    game as the totals stand after it.
    """
    out = {"DEAL-1", "DEAL-3", "SEAT-1", "BID-2", "BID-3", "BID-4", TILE_SET_CLAUSE[rules.tile_set]}
    out |= rules_clauses(rules)
    if len(hands) > 1:
        out.add("BID-1")
    if rules.has_widow:
        out.add("DEAL-2")
    scores = [0] * rules.sides
    for h in hands:
        out |= _hand_clauses(rules, h)
        if h.deltas is not None:
            out |= score_clauses(rules, h.bid) | {"END-1"}
            scores = [s + d for s, d in zip(scores, h.deltas, strict=True)]
            out |= game_end_clauses(rules, scores)
    return out


__all__ = [
    "TILE_SET_CLAUSE",
    "TRUMP_CLAUSE",
    "PlayedHand",
    "PlayedTrick",
    "auction_clauses",
    "error_clauses",
    "game_clauses",
    "game_end_clauses",
    "led_suit_clauses",
    "play_clauses",
    "rules_clauses",
    "score_clauses",
    "tile_set_clause",
    "tiles_clauses",
    "trick_clauses",
    "trump_clause",
    "trump_clauses",
    "view_clauses",
    "widow_clause",
]
