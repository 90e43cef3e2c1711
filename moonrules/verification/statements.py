"""The clauses of ``spec/rules.md`` restated directly, for the checks to hold the code against.

Each function here is a plain reading of its clauses, written with the plainest primitives (a
tile's two ends, the fields of a rule set) and never with the library function it is compared
with: whether a tile is a trump (TRUMP-2 … TRUMP-4), the order of a suit (SUIT-3, SUIT-4), the
tiles a player may play (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3), the winner of a trick (TRICK-2),
a seat's side (TEAM-1), the score of a hand (SCORE-1 … SCORE-6, RENEGE-2) and the end of the game
(SCORE-4, END-1 … END-3). They are slow and obvious on purpose.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs

from moonrules.rules.ruleset import MoonMade, RuleSet, Scoring, TieRule
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import TILES, Tile

MOON_BID = 21
"""The bid of 21 (BID-4), a contract to win all seven tricks (SCORE-1)."""


# ---------------------------------------------------------------------------
# Trumps, suits and ranks (TRUMP-2 … TRUMP-4, SUIT-1 … SUIT-4, LEAD-3)


def is_trump(t: Tile, trump: Trump) -> bool:
    """TRUMP-2 … TRUMP-4: a tile bearing the number named, every double, or nothing."""
    if trump is Trump.NONE:
        return False
    if trump is Trump.DOUBLES:
        return t.high == t.low
    return trump.value in (t.high, t.low)


def suit_order(suit: int, trump: Trump, among: tuple[Tile, ...] = TILES) -> list[Tile]:
    """SUIT-1 … SUIT-4: the tiles of ``among`` in ``suit`` (7 for trump), highest first."""
    if suit == TRUMP_SUIT:
        members = [t for t in among if is_trump(t, trump)]
        if trump is Trump.DOUBLES:
            return sorted(members, key=lambda t: -t.high)
        suit = trump.value
    else:
        members = [t for t in among if not is_trump(t, trump) and suit in (t.high, t.low)]
    doubles = [t for t in members if t.high == t.low]
    others = [t for t in members if t.high != t.low]
    return doubles + sorted(others, key=lambda t: -(t.high + t.low - suit))


def called_suit(led: Tile, trump: Trump) -> int:
    """LEAD-3: a led trump calls trumps (7), any other tile the suit of its higher number."""
    return TRUMP_SUIT if is_trump(led, trump) else max(led.high, led.low)


@functools.cache
def suit_keys(trump: Trump, suit: int) -> tuple[int, ...]:
    """TRICK-2 keys of the 28 tiles on a lead calling ``suit``: trumps above the suit led, each
    by its rank; a tile that neither follows nor trumps -1 (never wins)."""
    trumps = suit_order(TRUMP_SUIT, trump)
    members = suit_order(suit, trump) if suit != TRUMP_SUIT else []
    out = []
    for t in TILES:
        if t in trumps:
            out.append(100 + len(trumps) - trumps.index(t))
        elif t in members:
            out.append(len(members) - members.index(t))
        else:
            out.append(-1)
    return tuple(out)


def trick_key(t: Tile, led: Tile, trump: Trump) -> int:
    """TRICK-2: the key of ``t`` in a trick led by ``led``; the highest key wins, -1 never does."""
    return suit_keys(trump, called_suit(led, trump))[t.index]


def trick_winner(trick: Sequence[Tile], trump: Trump) -> int:
    """TRICK-2: the position in ``trick`` (led tile first) of the tile that wins it."""
    keys = [trick_key(t, trick[0], trump) for t in trick]
    return keys.index(max(keys))


# ---------------------------------------------------------------------------
# Leading and following (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3)


def legal_plays(
    hand: Sequence[Tile], led: Tile | None, trump: Trump, lead_trump: bool
) -> tuple[Tile, ...]:
    """LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3: the tiles of ``hand`` that may be played.

    ``led`` is the trick's led tile, ``None`` for the leader; ``lead_trump`` says LEAD-2 applies.
    """
    if led is None:
        trumps = tuple(t for t in hand if is_trump(t, trump))
        return trumps if lead_trump and trumps else tuple(hand)
    if is_trump(led, trump):
        must = tuple(t for t in hand if is_trump(t, trump))
    else:
        number = max(led.high, led.low)
        must = tuple(t for t in hand if not is_trump(t, trump) and number in (t.high, t.low))
    return must or tuple(hand)


# ---------------------------------------------------------------------------
# Sides, scores and the end of the game (TEAM-1, SCORE-1 … SCORE-6, RENEGE-2, END-1 … END-3)


def side(players: int, seat: int) -> int:
    """TEAM-1: with four players seats 0 and 2 are team 0, seats 1 and 3 team 1; else the seat."""
    if players == 4:
        return 0 if seat in (0, 2) else 1
    return seat


def sides(players: int) -> int:
    """TEAM-1: how many scores there are: two teams with four players, else one per player."""
    return 2 if players == 4 else players


@attrs.frozen(slots=True)
class Score:
    """A hand scored by the clauses."""

    made: bool
    deltas: tuple[int, ...]
    """The change of each side's score."""
    wins_game: bool
    """Whether the hand wins the game outright (SCORE-4)."""


def score(
    rules: RuleSet,
    bidder: int,
    bid: int,
    tricks: Sequence[int],
    renege: int | None = None,
) -> Score:
    """SCORE-1 … SCORE-6, TEAM-1 and RENEGE-2: the hand's score.

    ``tricks`` are the tricks taken per seat (those completed before a renege); ``renege`` is the
    seat whose renege ended the hand, if one did.
    """
    n = rules.players
    mine = side(n, bidder)
    taken = [sum(tricks[p] for p in range(n) if side(n, p) == s) for s in range(sides(n))]
    if renege is None:
        made = taken[mine] >= (7 if bid == MOON_BID else bid)  # SCORE-1
    else:
        made = side(n, renege) != mine  # RENEGE-2: the offending side is set
    deltas = []
    for s in range(sides(n)):
        if rules.scoring is Scoring.MARKS:  # SCORE-6
            deltas.append(int(made) if s == mine else int(not made))
        elif s == mine:  # SCORE-2
            deltas.append(bid if made else -bid)
        else:  # SCORE-3
            deltas.append(taken[s])
    wins = made and bid == MOON_BID and rules.moon_made is MoonMade.WINS_GAME  # SCORE-4, SCORE-5
    return Score(made, tuple(deltas), wins)


def game_winner(rules: RuleSet, scores: Sequence[int], bidder_side: int) -> int | None:
    """END-1 … END-3: the side that wins after a hand with these scores, or ``None``."""
    top = max(scores)
    if top < rules.target:
        return None
    leaders = [s for s in range(len(scores)) if scores[s] == top]
    if len(leaders) == 1:
        return leaders[0]
    if rules.tie is TieRule.BIDDER_OUT and bidder_side in leaders:
        return bidder_side
    return None


__all__ = [
    "MOON_BID",
    "Score",
    "called_suit",
    "game_winner",
    "is_trump",
    "legal_plays",
    "score",
    "side",
    "sides",
    "suit_keys",
    "suit_order",
    "trick_key",
    "trick_winner",
]
