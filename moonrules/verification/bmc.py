"""Bounded model checks: every state of the game reachable from stated roots within a depth.

The roots of one run are, for every preset and every seed of the run: the first deal of the
game (explored to :data:`DEAL_DEPTH` actions: the whole auction and what follows it), and every
state of one seeded playout of the whole game (each explored to :data:`PLAYOUT_DEPTH` actions),
so that every phase, the end of hands, thrown-in hands and the end of the game are all reached.
Every state found is checked against the invariants below, and every transition out of it
(every legal action, and under ``renege = penalty`` every renege) against the clauses it
applies. Whether the next move is legal is decided by the pure rulebook functions, never by the
code under test.
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
    Discard,
    GameState,
    Hand,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply,
    apply_renege,
    legal_actions,
    new_game,
    view,
)
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.errors import IllegalAction, OutOfTurn
from moonrules.rules.ruleset import PRESETS, FirstLead, Renege, RuleSet
from moonrules.rules.scoring import game_winner, score_hand
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, mask_of, tiles_of
from moonrules.rules.tricks import legal_plays, trick_winner
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
    return rules.name or "custom"


def _where(s: GameState) -> str:
    calls = " ".join(str(c) for c in s.calls)
    return (
        f"[{_name(s.rules)} seed {s.seed} hand {s.hand_number} {s.phase.value}; calls {calls}; "
        f"trump {s.trump}; tricks {len(s.tricks)}; trick {[str(t) for t in s.trick]}]"
    )


# ---------------------------------------------------------------------------
# The roots and the walk


def _playout(rules: RuleSet, seed: int) -> list[GameState]:
    """Every state of one seeded game, first deal to the end (at most 40 hands)."""
    rng = random.Random(f"moonrules/verify/{seed}")
    s = new_game(rules, seed)
    out = [s]
    while not s.is_over and s.hand_number <= 40:
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return out


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
    for name in PRESETS:
        for seed in QUICK_SEEDS if quick else SEEDS:
            states = _playout(PRESETS[name], seed)
            roots.append((states[0], QUICK_DEAL_DEPTH if quick else DEAL_DEPTH))
            if quick:  # the first hand and the last, one action deep
                first = [s for s in states if s.hand_number == 1]
                last = [s for s in states if s.hand_number >= states[-1].hand_number - 1]
                roots.extend((s, 1) for s in first + last)
            else:
                roots.extend((s, PLAYOUT_DEPTH) for s in states)
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
    """Every legal action: the trick's winner (TRICK-2, TRICK-3) and, at a hand's end, the
    score (SCORE-1 … SCORE-6, BID-7), the first bidder of the next hand (BID-1) and the end of
    the game (SCORE-4, END-1 … END-3)."""
    if s.is_over:
        return 0
    rules = s.rules
    n = 0
    for a in legal_actions(s):
        n += 1
        t = apply(s, a)
        if isinstance(a, Play) and len(s.trick) == rules.players - 1:
            trick = (*s.trick, a.tile)
            winner = (s.hand.leader + trick_winner(trick, s.trump or Trump.NONE)) % rules.players
            h = t.hand if t.hand_number == s.hand_number and not t.is_over else _done(s, t)
            require(h.tricks[-1].winner == winner, f"{_where(s)}: {a} won by {h.tricks[-1]}")
            if t.hand_number == s.hand_number and not t.is_over:
                require(t.hand.leader == winner, f"{_where(s)}: the winner does not lead")
        done = _done(s, t) if t.is_over or t.hand_number != s.hand_number else None
        if done is not None:
            _check_hand_end(s, t, done, None)
    return n


def _done(before: GameState, after: GameState) -> Hand:
    """The hand ``before`` was in, finished by the move to ``after``."""
    return after.hand if after.is_over else after.history[-1]


def _check_hand_end(s: GameState, t: GameState, done: Hand, renege_seat: int | None) -> None:
    rules = s.rules
    if done.bidder < 0:
        require(t.scores == s.scores, f"{_where(s)}: a thrown-in hand changed the scores")
        require(not t.is_over, f"{_where(s)}: a thrown-in hand ended the game")
    else:
        made = (
            None
            if renege_seat is None
            else rules.side_of(renege_seat) != rules.side_of(done.bidder)
        )
        want = score_hand(rules, done.bidder, done.bid, done.tricks_won, made=made)
        require(done.deltas == want.deltas, f"{_where(s)}: deltas {done.deltas} not {want.deltas}")
        scores = tuple(a + b for a, b in zip(s.scores, want.deltas, strict=True))
        require(t.scores == scores, f"{_where(s)}: scores {t.scores} not {scores}")
        side = rules.side_of(done.bidder)
        winner = side if want.game_won else game_winner(rules, scores, side)
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
    "check_claims",
    "check_legality",
    "check_reneges",
    "check_state",
    "check_transitions",
    "check_views",
    "explore",
]
