"""Bounded model checks: every state of the game reachable from stated roots within a depth.

The roots of one run are, for every rule set of :data:`WALK_RULES` (every preset, and four
players with the variant fields the presets give only three) and every seed of the run: the
first deal of the game (explored to :data:`DEAL_DEPTH` actions: the whole auction and what
follows it), every state of one seeded playout of the whole game (each explored to
:data:`PLAYOUT_DEPTH` actions), and every state of a hand in which seat 0 makes a 21, so that
every phase, the end of hands, thrown-in hands, a made 21 and the end of the game are all
reached. Every state found is checked against the invariants below, and every transition out of
it (every legal action, and under ``renege = penalty`` every renege) against the clauses it
applies. Whether the next move is legal is decided by the pure rulebook functions, never by the
code under test; what a move does (the auction's winner, the widow, the leader, the trick's
winner, the score, the end of the game) by the clauses restated in :mod:`.statements`.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any, Final

import attrs

from moonrules.analysis.claim import verify_claim
from moonrules.game import (
    Action,
    Bid,
    Claim,
    ClaimDoesNotHold,
    ClaimError,
    Deal,
    Discard,
    GameState,
    Hand,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply,
    apply_claim,
    apply_renege,
    legal_actions,
    new_game,
    view,
)
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.errors import IllegalAction, OutOfTurn
from moonrules.rules.ruleset import (
    PRESETS,
    FirstLead,
    MoonMade,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
)
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, TileSet, mask_of, tiles_of
from moonrules.rules.tricks import legal_plays
from moonrules.verification import statements as spec
from moonrules.verification.core import Outcome, require

DEAL_DEPTH: Final = 4
"""Actions explored from each first deal: every auction, and the discard or trump after it."""
PLAYOUT_DEPTH: Final = 2
"""Actions explored from every state of each seeded playout."""
SEEDS: Final = (0,)
"""The seeds of a full run (one game per preset and seed)."""
QUICK_DEAL_DEPTH: Final = 3
"""Actions explored from each first deal in a ``--quick`` run."""
QUICK_SEEDS: Final = (0,)
"""The seeds of a ``--quick`` run."""

_CALLS: Final = tuple([Pass()] + [Bid(b) for b in (3, 4, 5, 6, 7, MOON)])
_ALL_PLAYS: Final = tuple(Play(t) for t in TILES)
_ALL_DISCARDS: Final = tuple(Discard(t) for t in TILES)
_ALL_TRUMPS: Final = tuple(NameTrump(t) for t in Trump)
_UNIVERSE: Final = {
    Phase.BIDDING: _CALLS,
    Phase.DISCARD: _ALL_DISCARDS,
    Phase.TRUMP: _ALL_TRUMPS,
    Phase.PLAY: _ALL_PLAYS,
}
_OTHER_PHASE: Final = {
    Phase.BIDDING: Play(TILES[0]),
    Phase.DISCARD: Pass(),
    Phase.TRUMP: Play(TILES[0]),
    Phase.PLAY: Pass(),
}


def _name(rules: RuleSet) -> str:
    return next((name for name, r in WALK_RULES.items() if r == rules), "custom")


def _where(s: GameState) -> str:
    calls = " ".join(str(c) for c in s.calls)
    return (
        f"[{_name(s.rules)} seed {s.seed} hand {s.hand_number} {s.phase.value}; calls {calls}; "
        f"trump {s.trump}; tricks {len(s.tricks)}; trick {[str(t) for t in s.trick]}]"
    )


# ---------------------------------------------------------------------------
# The roots and the walk


WALK_RULES: Final[dict[str, RuleSet]] = {
    **PRESETS,
    "partnership-variants": RuleSet(
        players=4,
        tile_set=TileSet.DOUBLE_SIX_28,
        doubles_trump=False,
        first_lead=FirstLead.TRUMP,
        moon_made=MoonMade.SCORES_21,
        scoring=Scoring.MARKS,
        tie=TieRule.BIDDER_OUT,
        renege=Renege.PENALTY,
    ),
}
"""The rule sets walked: every preset, and four players with every variant field the
presets give only three players (no doubles trump, trump on the first lead, a made 21
scoring 21, marks, the bidder out on a tie, the renege penalty)."""


def _playout(rules: RuleSet, seed: int) -> list[GameState]:
    """Every state of one seeded game, first deal to the end (at most 40 hands)."""
    rng = random.Random(f"moonrules/verify/{seed}")
    s = new_game(rules, seed)
    out = [s]
    while not s.is_over and s.hand_number <= 40:
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return out


def _moon_hand(rules: RuleSet) -> list[GameState]:
    """Every state of a hand in which seat 0, holding every 6 (and the 5-5 beside six of
    them), bids 21, names 6s trump, leads its trumps and makes all seven tricks: the end of a
    made 21 (SCORE-4, SCORE-5), which random play seldom reaches. In points the hand starts
    with seat 0's side at -2 and every other side at 20 (the scores of a game in which seat 0
    was set), so that only SCORE-4 ends the game after it; in marks from 0."""
    tiles = list(rules.tile_set.tiles)
    mine = [t for t in tiles if t.has(6)]
    if len(mine) < 7:
        mine.append(Tile(5, 5))
    rest = [t for t in tiles if t not in mine]
    hands = [mine] + [rest[7 * k : 7 * k + 7] for k in range(rules.players - 1)]
    widow = rest[-1] if rules.has_widow else None
    s = new_game(rules, 0, first_bidder=0, deal=Deal.of(hands, widow))
    if rules.scoring is Scoring.POINTS:
        scores = (-2,) + (20,) * (len(s.scores) - 1)
        s = attrs.evolve(s, game=attrs.evolve(s.game, scores=scores))
    out = [s]
    for a in (Bid(MOON), *([Discard(widow)] if widow and not _trump_first(rules) else [])):
        s = apply(s, a)
        out.append(s)
    s = apply(s, NameTrump(Trump.SIX))
    out.append(s)
    if widow and _trump_first(rules):
        s = apply(s, Discard(widow))
        out.append(s)
    while s.hand_number == 1 and not s.is_over:
        legal = legal_actions(s)
        s = apply(s, max(legal, key=str) if s.to_act == 0 else legal[0])
        out.append(s)
    return out


def _trump_first(rules: RuleSet) -> bool:
    return rules.widow_timing is WidowTiming.AFTER_TRUMP


def _walk(roots: list[tuple[GameState, int]]) -> Iterator[GameState]:
    """Every state within its root's depth, each once (breadth first from every root)."""
    seen: set[GameState] = set()
    for root, depth in roots:
        layer = [root]
        for d in range(depth + 1):
            nxt: list[GameState] = []
            for s in layer:
                if s in seen:
                    continue
                seen.add(s)
                yield s
                if d < depth:
                    nxt.extend(apply(s, a) for a in legal_actions(s))
            layer = nxt


def _roots(quick: bool) -> list[tuple[GameState, int]]:
    """The roots of the walk and their depths (see the module's docstring)."""
    roots: list[tuple[GameState, int]] = []
    for rules in WALK_RULES.values():
        for seed in QUICK_SEEDS if quick else SEEDS:
            states = _playout(rules, seed)
            roots.append((states[0], QUICK_DEAL_DEPTH if quick else DEAL_DEPTH))
            if quick:  # the first hand and the last, one action deep
                first = [s for s in states if s.hand_number == 1]
                last = [s for s in states if s.hand_number >= states[-1].hand_number - 1]
                roots.extend((s, 1) for s in first + last)
            else:
                roots.extend((s, PLAYOUT_DEPTH) for s in states)
        roots.extend((s, 1 if quick else PLAYOUT_DEPTH) for s in _moon_hand(rules))
    return roots


@functools.lru_cache(maxsize=2)
def reachable(quick: bool) -> tuple[GameState, ...]:
    """The states of the bounded walk (computed once per run and kept)."""
    return tuple(_walk(_roots(quick)))


def explore(quick: bool, checks: tuple[Callable[[GameState], int], ...]) -> Outcome:
    """Run ``checks`` on every state of the bounded walk; the cases are the states checked."""
    states = reachable(quick)
    extra = 0
    for s in states:
        for c in checks:
            extra += c(s)
    return Outcome(len(states), f"states ({extra} transitions, actions and views checked)")


# ---------------------------------------------------------------------------
# Invariants of one state


def _tiles_in_play(s: GameState) -> int:
    """Every tile the hand accounts for: hands, the trick, tricks taken, discard, unseen widow."""
    h = s.hand
    masks = list(h.hands) + [mask_of(t.tiles) for t in h.tricks] + [mask_of(s.trick)]
    if h.discard >= 0:
        masks.append(1 << h.discard)
    if h.widow >= 0 and not h.widow_taken:
        masks.append(1 << h.widow)
    total = 0
    for m in masks:
        require(total & m == 0, f"{_where(s)}: a tile is in two places ({tiles_of(total & m)})")
        total |= m
    return total


def check_state(s: GameState) -> int:
    """Tile conservation, one seat to act (or the game over), and legal actions never empty."""
    rules = s.rules
    require(_tiles_in_play(s) == rules.tile_set.mask, f"{_where(s)}: tiles not conserved")
    legal = legal_actions(s)
    if s.is_over:
        require(s.to_act is None and legal == (), f"{_where(s)}: a move after the end")
        require(0 <= (s.winner or 0) < rules.sides, f"{_where(s)}: winner {s.winner}")
        return 0
    h = s.hand
    seat = s.to_act
    require(seat is not None and 0 <= seat < rules.players, f"{_where(s)}: to_act {seat}")
    require(len(legal) > 0, f"{_where(s)}: no legal action before the end")
    if s.phase is Phase.BIDDING:
        want = (h.first_bidder + len(h.calls)) % rules.players
    elif s.phase is Phase.PLAY:
        want = (h.leader + len(h.trick)) % rules.players
        sizes = [m.bit_count() for m in h.hands]
        played = [
            len(h.tricks) + (1 if (p - h.leader) % rules.players < len(h.trick) else 0)
            for p in range(rules.players)
        ]
        require(all(a + b == 7 for a, b in zip(sizes, played, strict=True)), f"{_where(s)}: sizes")
    else:
        want = h.bidder
    require(seat == want, f"{_where(s)}: seat {seat} to act, the clauses say {want}")
    for other in range(rules.players):
        if other != seat:
            try:
                apply(s, legal[0], seat=other)
            except OutOfTurn as e:
                require(e.rule == "TURN-1", f"{_where(s)}: out of turn refused as {e.rule}")
                continue
            require(False, f"{_where(s)}: seat {other} acted out of turn")
    return rules.players - 1


def _rulebook_legal(s: GameState) -> set[Action]:
    """The legal actions by the pure rulebook functions."""
    h = s.hand
    rules = s.rules
    if s.phase is Phase.BIDDING:
        calls = legal_calls(Auction(h.calls, h.first_bidder, rules))
        return {Pass() if c == PASS else Bid(c) for c in calls}
    if s.phase is Phase.DISCARD:
        return {Discard(t) for t in s.hands[h.bidder]}
    if s.phase is Phase.TRUMP:
        return {NameTrump(t) for t in rules.trumps}
    assert s.trump is not None and s.to_act is not None
    first = not h.tricks and not h.trick and rules.first_lead is FirstLead.TRUMP
    plays = legal_plays(s.hands[s.to_act], s.trick, s.trump, lead_trump=first)
    return {Play(t) for t in plays}


def check_legality(s: GameState) -> int:
    """Legal actions are the rulebook's; every other action of the phase, and an action of
    another phase, is refused naming a clause."""
    if s.is_over:
        return 0
    legal = set(legal_actions(s))
    want = _rulebook_legal(s)
    require(
        legal == want, f"{_where(s)}: legal {sorted(map(str, legal))} not {sorted(map(str, want))}"
    )
    n = 0
    for a in _UNIVERSE[s.phase]:
        if a in legal:
            continue
        n += 1
        try:
            apply(s, a)
        except IllegalAction as e:
            require(e.rule != "TURN-1", f"{_where(s)}: {a} refused as out of turn")
            continue
        require(False, f"{_where(s)}: illegal {a} accepted")
    try:
        apply(s, _OTHER_PHASE[s.phase])
    except OutOfTurn as e:
        require(e.rule == "TURN-1", f"{_where(s)}: an action of another phase refused as {e.rule}")
        return n + 1
    require(False, f"{_where(s)}: an action of another phase accepted")
    return n


def check_transitions(s: GameState) -> int:
    """Every legal action does what its clauses say, restated here (:mod:`.statements`) rather
    than computed by the library: a call (BID-5, BID-6, BID-7, WIDOW-1), the discard and
    naming trump (WIDOW-1, WIDOW-2, LEAD-1), a play (TRICK-1 … TRICK-3, TRICK-2's winner
    leading next) and, at a hand's end, the score (SCORE-1 … SCORE-6, TEAM-1), the first
    bidder of the next hand (BID-1) and the end of the game (SCORE-4, END-1 … END-3)."""
    if s.is_over:
        return 0
    n = 0
    for a in legal_actions(s):
        n += 1
        t = apply(s, a)
        ended = t.is_over or t.hand_number != s.hand_number
        after = _done(s, t) if ended else t.hand
        if isinstance(a, Play):
            _check_play(s, t, a.tile, after, ended)
        elif isinstance(a, (Pass, Bid)):
            _check_call(s, t, PASS if isinstance(a, Pass) else a.amount, after, ended)
        else:
            require(not ended, f"{_where(s)}: {a} ended the hand")
            _check_contract(s, a, after)
        if ended:
            _check_hand_end(s, t, after, None)
    return n


def _has_widow(rules: RuleSet) -> bool:
    """DEAL-2: a widow with three players and the 22-tile set only."""
    return rules.players == 3 and rules.tile_set is TileSet.MOON_22


def _check_call(s: GameState, t: GameState, call: int, after: Hand, ended: bool) -> None:
    """BID-5, BID-6, BID-7: the auction ends after every player's call or a 21; the highest
    bid wins it, the bidder takes the widow (WIDOW-1) or names trump; all passing throws the
    hand in."""
    rules = s.rules
    h = s.hand
    calls = (*h.calls, call)
    require(after.calls == calls, f"{_where(s)}: calls {after.calls} after {call}")
    over = len(calls) == rules.players or MOON in calls
    if not over:
        require(not ended and after.phase is Phase.BIDDING, f"{_where(s)}: the auction ended")
        return
    if max(calls) == PASS:
        require(ended and after.bidder < 0, f"{_where(s)}: all passed and the hand goes on")
        return
    high = max(calls)
    seat = (h.first_bidder + calls.index(high)) % rules.players
    require(
        (after.bidder, after.bid) == (seat, high),
        f"{_where(s)}: bidder {after.bidder} at {after.bid}, the clauses say {seat} at {high}",
    )
    widow_now = _has_widow(rules) and rules.widow_timing is WidowTiming.BEFORE_TRUMP
    want = Phase.DISCARD if widow_now else Phase.TRUMP
    require(after.phase is want, f"{_where(s)}: {after.phase.value} after the auction")
    held = h.hands[seat] | (1 << h.widow if widow_now else 0)
    require(after.hands[seat] == held, f"{_where(s)}: the bidder's hand after the auction")


def _check_contract(s: GameState, a: Action, after: Hand) -> None:
    """WIDOW-1, WIDOW-2, TRUMP-1, LEAD-1: the discard leaves the bidder's hand, the trump named
    is the hand's, the widow comes to the bidder after trump under WIDOW-2, and when play
    starts the bidder leads."""
    rules = s.rules
    h = s.hand
    bidder = h.bidder
    trump_first = rules.widow_timing is WidowTiming.AFTER_TRUMP and _has_widow(rules)
    if isinstance(a, Discard):
        held = h.hands[bidder] & ~(1 << a.tile.index)
        require(after.discard == a.tile.index, f"{_where(s)}: discard {after.discard}")
        want = Phase.PLAY if trump_first else Phase.TRUMP
    else:
        assert isinstance(a, NameTrump)
        require(after.trump == a.trump.value, f"{_where(s)}: trump {after.trump} after {a}")
        held = h.hands[bidder] | (1 << h.widow if trump_first else 0)
        want = Phase.DISCARD if trump_first else Phase.PLAY
    require(after.hands[bidder] == held, f"{_where(s)}: the bidder's hand after {a}")
    require(after.phase is want, f"{_where(s)}: {after.phase.value} after {a}")
    if want is Phase.PLAY:
        require(after.leader == bidder, f"{_where(s)}: seat {after.leader} leads, not the bidder")


def _check_play(s: GameState, t: GameState, tile: Tile, after: Hand, ended: bool) -> None:
    """TRICK-1 … TRICK-3: the tile leaves its player's hand for the trick; a trick of one tile
    per player goes to its TRICK-2 winner, who leads next; the seventh ends the hand."""
    rules = s.rules
    h = s.hand
    seat = (h.leader + len(h.trick)) % rules.players
    want_hand = h.hands[seat] & ~(1 << tile.index)
    require(after.hands[seat] == want_hand, f"{_where(s)}: seat {seat}'s hand after {tile}")
    trick = (*s.trick, tile)
    if len(trick) < rules.players:
        require(not ended, f"{_where(s)}: the hand ended in the middle of a trick")
        require(
            after.trick == (*h.trick, tile.index) and after.leader == h.leader,
            f"{_where(s)}: the trick after {tile}",
        )
        return
    trump = Trump(h.trump)
    winner = (h.leader + spec.trick_winner(trick, trump)) % rules.players
    done = after.tricks[-1] if after.tricks else None
    require(
        len(after.tricks) == len(h.tricks) + 1
        and done is not None
        and (done.leader, done.tiles, done.winner) == (h.leader, trick, winner),
        f"{_where(s)}: the trick {[str(x) for x in trick]} recorded as {done}, won by seat "
        f"{winner} by TRICK-2",
    )
    won = tuple(c + (p == winner) for p, c in enumerate(h.tricks_won))
    require(after.tricks_won == won, f"{_where(s)}: tricks won {after.tricks_won}, not {won}")
    require(ended == (len(after.tricks) == 7), f"{_where(s)}: {len(after.tricks)} tricks")
    if not ended:
        require(after.leader == winner and after.trick == (), f"{_where(s)}: the winner leads")


def _done(before: GameState, after: GameState) -> Hand:
    """The hand ``before`` was in, finished by the move to ``after``."""
    return after.hand if after.is_over else after.history[-1]


def _check_hand_end(
    s: GameState,
    t: GameState,
    done: Hand,
    renege_seat: int | None,
    taken: list[int] | None = None,
) -> None:
    """The hand's score and the game's end by the clauses restated (:mod:`.statements`), not by
    the library's scoring functions. ``taken``: the tricks per seat a claim gave (CLAIM-1),
    else those of the hand's completed tricks."""
    rules = s.rules
    if done.bidder < 0:
        require(renege_seat is None and max(done.calls) == PASS, f"{_where(s)}: thrown in")
        require(t.scores == s.scores, f"{_where(s)}: a thrown-in hand changed the scores")
        require(not t.is_over, f"{_where(s)}: a thrown-in hand ended the game")
    else:
        if taken is None:
            taken = [sum(1 for x in done.tricks if x.winner == p) for p in range(rules.players)]
        require(list(done.tricks_won) == taken, f"{_where(s)}: tricks won {done.tricks_won}")
        want = spec.score(rules, done.bidder, done.bid, taken, renege_seat)
        require(done.deltas == want.deltas, f"{_where(s)}: deltas {done.deltas} not {want.deltas}")
        scores = tuple(a + b for a, b in zip(s.scores, want.deltas, strict=True))
        require(t.scores == scores, f"{_where(s)}: scores {t.scores} not {scores}")
        side = spec.side(rules.players, done.bidder)
        winner = side if want.wins_game else spec.game_winner(rules, scores, side)
        require(t.winner == winner, f"{_where(s)}: winner {t.winner}, the clauses say {winner}")
    if not t.is_over:
        nxt = (done.first_bidder + 1) % rules.players
        require(t.first_bidder == nxt, f"{_where(s)}: next first bidder {t.first_bidder}")
        require(t.hand_number == done.number + 1 and t.phase is Phase.BIDDING, f"{_where(s)}: next")


def _refusal(fn: Callable[[GameState, Any], GameState], s: GameState, arg: object) -> str:
    """The clause ``fn(s, arg)`` is refused under, or ``"accepted"``."""
    try:
        fn(s, arg)
    except IllegalAction as e:
        return e.rule
    return "accepted"


def check_reneges(s: GameState) -> int:
    """RENEGE-1, RENEGE-2: every renege open to the player to act."""
    if s.is_over or s.phase is not Phase.PLAY or not s.trick:
        return 0
    assert s.to_act is not None
    seat = s.to_act
    legal = {a.tile for a in legal_actions(s) if isinstance(a, Play)}
    n = 0
    for tile in s.hands[seat]:
        if tile in legal:
            continue
        n += 1
        if s.rules.renege is Renege.PENALTY:
            t = apply_renege(s, tile)
            done = _done(s, t)
            require(
                done.renege == seat, f"{_where(s)}: renege by seat {seat} recorded as {done.renege}"
            )
            _check_hand_end(s, t, done, seat)
        else:
            require(
                _refusal(apply, s, Play(tile)) in ("FOLLOW-1", "FOLLOW-2"),
                f"{_where(s)}: renege {tile} not refused under FOLLOW-1 or FOLLOW-2",
            )
            require(
                _refusal(apply_renege, s, tile) == "RENEGE-1",
                f"{_where(s)}: apply_renege({tile}) not refused under RENEGE-1",
            )
    return n


def _swap(s: GameState, a: int, b: int | None, ta: int, tb: int) -> GameState:
    """``s`` with tile ``ta`` of seat ``a`` and tile ``tb`` of seat ``b`` (the widow if ``None``)
    exchanged, in the hands now and as dealt."""
    h = s.hand
    c = h.contract
    hands, deal = list(h.hands), list(c.deal)
    swap = (1 << ta) | (1 << tb)
    for masks in (hands, deal):
        masks[a] ^= swap
        if b is not None:
            masks[b] ^= swap
    widow = tb if b is None else c.widow
    widow = ta if b is None else widow
    contract = attrs.evolve(c, deal=tuple(deal), widow=widow)
    return attrs.evolve(s, hand=attrs.evolve(h, contract=contract, hands=tuple(hands)))


def check_views(s: GameState) -> int:
    """VIEW-1: each seat sees its own hand and nothing hidden; changing hidden tiles (another
    seat's tile, or the widow before the bidder takes it) never changes what it sees."""
    rules = s.rules
    h = s.hand
    n = 0
    for seat in range(rules.players):
        v = view(s, seat)
        n += 1
        require(v.hand == s.hands[seat], f"{_where(s)}: seat {seat} sees {v.hand} as its hand")
        bidder = seat == h.bidder
        require(v.widow is None or (bidder and h.widow_taken), f"{_where(s)}: widow to seat {seat}")
        require(v.discard is None or bidder, f"{_where(s)}: discard shown to seat {seat}")
        others = [o for o in range(rules.players) if o != seat and h.hands[o]]
        for a, b in itertools.pairwise(others):
            ta = (h.hands[a] & -h.hands[a]).bit_length() - 1
            tb = (h.hands[b] & -h.hands[b]).bit_length() - 1
            n += 1
            require(
                view(_swap(s, a, b, ta, tb), seat) == v,
                f"{_where(s)}: seat {seat} sees seat {a}'s or {b}'s tiles",
            )
        if h.widow >= 0 and not h.widow_taken and others:
            a = others[0]
            ta = (h.hands[a] & -h.hands[a]).bit_length() - 1
            n += 1
            require(
                view(_swap(s, a, None, ta, h.widow), seat) == v,
                f"{_where(s)}: seat {seat} sees the widow",
            )
    return n


def _minimax(s: GameState, side: int, tricks_left: int) -> int:
    """The tricks ``side`` is sure of in the rest of the hand, its seats choosing (CLAIM-1),
    by the game's own moves."""
    if tricks_left == 0:
        return 0
    assert s.to_act is not None
    mine = s.rules.side_of(s.to_act) == side
    best: int | None = None
    for a in legal_actions(s):
        t = apply(s, a)
        value = 0
        left = tricks_left
        if len(s.trick) == s.rules.players - 1:
            h = t.hand if t.hand_number == s.hand_number and not t.is_over else _done(s, t)
            value = int(s.rules.side_of(h.tricks[-1].winner) == side)
            left -= 1
        if left:
            value += _minimax(t, side, left)
        if best is None or (value > best if mine else value < best):
            best = value
    assert best is not None
    return best


def check_claims(s: GameState) -> int:
    """CLAIM-1: with two tricks or fewer left, ``verify_claim`` of every seat and every count
    agrees with a min-max search over the game's own legal moves."""
    if s.is_over or s.phase is not Phase.PLAY or len(s.tricks) < 5:
        return 0
    n = 0
    left = 7 - len(s.tricks)
    for seat in range(s.rules.players):
        sure = _minimax(s, s.rules.side_of(seat), left)
        for k in range(1, left + 1):
            n += 1
            r = verify_claim(s, seat, k)
            require(
                r.guaranteed == sure and r.holds == (sure >= k),
                f"{_where(s)}: claim of {k} by seat {seat}: {r.holds}, {r.guaranteed}; "
                f"min-max {sure}",
            )
    return n


def check_claim_settlement(s: GameState) -> int:
    """CLAIM-1: with two tricks or fewer left, the claim of the seat to play, of every count,
    is settled as the clause says: refused with three players unless it is of every trick
    left; held exactly when a min-max search over the game's own moves gives the side the
    count; refused in words that name no tile; held, the hand ends with the count to the
    claimant's side and the rest to the other team, scored by the clauses restated
    (:mod:`.statements`), and the game goes on (or ends) as after any hand."""
    if s.is_over or s.phase is not Phase.PLAY or len(s.tricks) < 5:
        return 0
    rules = s.rules
    seat = s.to_act
    assert seat is not None
    left = 7 - len(s.tricks)
    side = rules.side_of(seat)
    sure = _minimax(s, side, left)
    tiles_named = {str(t) for t in TILES} | {f"{t.low}-{t.high}" for t in TILES}
    n = 0
    for k in range(1, left + 1):
        n += 1
        try:
            t = apply_claim(s, seat, k)
        except ClaimDoesNotHold as e:
            require(
                (rules.partnership or k == left) and sure < k,
                f"{_where(s)}: claim of {k} by seat {seat} refused; min-max gives {sure}",
            )
            require(
                not any(name in e.message for name in tiles_named),
                f"{_where(s)}: the refusal names a tile: {e.message}",
            )
            continue
        except ClaimError as e:
            require(
                not rules.partnership and k < left and e.rule == "CLAIM-1",
                f"{_where(s)}: claim of {k} by seat {seat} refused under {e.rule}: {e.message}",
            )
            continue
        require(
            (rules.partnership or k == left) and sure >= k,
            f"{_where(s)}: claim of {k} by seat {seat} held; min-max gives {sure}",
        )
        done = _done(s, t)
        require(
            done.claim == Claim(seat, k) and done.tricks == s.tricks and done.trick == s.hand.trick,
            f"{_where(s)}: the claimed hand is {done.claim}, {len(done.tricks)} tricks",
        )
        taken = [sum(1 for x in s.tricks if x.winner == p) for p in range(rules.players)]
        by_side = [0] * rules.sides
        for p in range(rules.players):
            by_side[rules.side_of(p)] += taken[p]
        want_side = list(by_side)
        want_side[side] += k
        if left > k:
            want_side[1 - side] += left - k
        got_side = [0] * rules.sides
        for p in range(rules.players):
            got_side[rules.side_of(p)] += done.tricks_won[p]
        require(
            got_side == want_side,
            f"{_where(s)}: claim of {k} by seat {seat}: tricks by side {got_side}, not {want_side}",
        )
        _check_hand_end(s, t, done, None, list(done.tricks_won))
    return n


def bounded(*checks: Callable[[GameState], int]) -> Callable[[bool], Outcome]:
    """A check of the catalogue running ``checks`` on the bounded walk."""

    def check(quick: bool) -> Outcome:
        return explore(quick, checks)

    check.__name__ = "bmc_" + "_".join(c.__name__ for c in checks)
    return check


__all__ = [
    "DEAL_DEPTH",
    "PLAYOUT_DEPTH",
    "SEEDS",
    "bounded",
    "check_claim_settlement",
    "check_claims",
    "check_legality",
    "check_reneges",
    "check_state",
    "check_transitions",
    "check_views",
    "explore",
]
