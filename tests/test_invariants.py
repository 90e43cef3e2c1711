"""Invariants of the whole game, checked at every step of many games under every preset.

The tests are parametrized over ``moonrules.PRESETS``, so a new preset is covered without
editing this file (the stateful model runs the standard and partnership presets). Games are
played by a seeded player (mostly a simple greedy strategy, so that games reach their end,
with random moves and timid passes mixed in, and reneges under ``renege = penalty``) and
checked after every action:

- tile conservation: hands, the widow (until taken), the discard, the trick in progress
  and the completed tricks of the hand hold the rule set's tiles exactly once (DEAL-1 …
  DEAL-3, WIDOW-1, WIDOW-2, TRICK-3);
- turn order: exactly one seat to act while the game goes on, none once over (TURN-1,
  SEAT-1, BID-2, LEAD-1, TRICK-3), and the phases in the rule set's order;
- legal actions: never empty while the game goes on, equal to what the readable rule
  functions allow, and each of them applies;
- refusals: every other action (from a fixed universe of 87) raises ``IllegalAction``
  naming a clause of ``spec/rules.md`` that fits the action (TURN-1 for the wrong kind);
- scores change only when a hand ends, by ``score_hand``'s deltas (SCORE-1 … SCORE-6);
  thrown-in hands change no score and pass the first bid on (BID-1, BID-7);
- the end of the game (END-1 … END-3, SCORE-4), also from scores engineered so that a
  hand ends in a tie at the top;
- states are immutable, hashable, reproducible from the seed and actions, and their
  ``repr`` evaluates back to an equal state;
- views (VIEW-1): a seat never sees another seat's tiles, and states differing only in
  tiles hidden from a seat give that seat equal views.

Run longer with ``MOONRULES_HYPOTHESIS_PROFILE=deep`` (see ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import inspect
import os
import random
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs
import pytest
from conftest import PROFILE_ENV
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import moonrules
from moonrules import (
    PRESETS,
    TILES,
    AllPass,
    Bid,
    Deal,
    Discard,
    FirstLead,
    GameState,
    Hand,
    IllegalAction,
    MoonMade,
    NameTrump,
    OutOfTurn,
    Pass,
    Phase,
    Play,
    RuleSet,
    Scoring,
    TieRule,
    Tile,
    Trick,
    Trump,
    WidowTiming,
    apply,
    apply_renege,
    is_trump,
    legal_actions,
    legal_plays,
    new_game,
    score_hand,
    seeded_deal,
    trick_winner,
    view,
    with_deal,
)

ROOT = Path(__file__).resolve().parents[1]
SPEC_TEXT = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
CLAUSE_IDS = frozenset(re.findall(r"^### ([A-Z]+-\d+) — ", SPEC_TEXT, flags=re.MULTILINE))
PRESET_NAMES = tuple(PRESETS)

UNIVERSE: tuple[moonrules.Action, ...] = (
    Pass(),
    *(Bid(n) for n in range(1, 22)),
    *(Discard(t) for t in TILES),
    *(NameTrump(t) for t in Trump),
    *(Play(t) for t in TILES),
)


MAX_HANDS = 40
"""Hands played per game at most (thrown-in hands included); most games end sooner."""

PROFILE_EXAMPLES = settings().max_examples
"""``max_examples`` of the Hypothesis profile loaded by ``conftest.py``."""
DEEP = PROFILE_EXAMPLES >= 500


def test_the_hypothesis_profile_is_the_one_named() -> None:
    """Every test process, each worker of ``pytest -n`` included, loads the Hypothesis profile
    that ``MOONRULES_HYPOTHESIS_PROFILE`` names (``conftest.py``)."""
    wanted = settings.get_profile(os.environ.get(PROFILE_ENV, "default"))
    assert (settings().max_examples, settings().derandomize) == (
        wanted.max_examples,
        wanted.derandomize,
    )
    assert wanted.max_examples == PROFILE_EXAMPLES


def test_spec_has_the_clauses_the_checks_rely_on() -> None:
    """The refusal oracle cites only clauses ``spec/rules.md`` defines, and the universe of
    actions the refusal checks draw from holds every legal action of every preset and
    illegal ones of every kind."""
    expected = set(re.findall(r'"([A-Z]+-\d+)"', inspect.getsource(expected_refusal)))
    assert len(expected) >= 10, expected
    assert expected <= CLAUSE_IDS, f"not clauses of the spec: {expected - CLAUSE_IDS}"
    kinds = {type(a) for a in UNIVERSE}
    assert kinds == set(moonrules.Action.__subclasses__()), "an action kind is missing"
    bids = {a.amount for a in UNIVERSE if isinstance(a, Bid)}
    for rules in PRESETS.values():
        assert set(rules.bids) <= bids
        assert bids - set(rules.bids), "no bid value illegal under every preset (BID-4)"
        for kind in (Discard, Play):
            assert set(rules.tile_set.tiles) <= {a.tile for a in UNIVERSE if isinstance(a, kind)}
        assert set(rules.trumps) <= {a.trump for a in UNIVERSE if isinstance(a, NameTrump)}


# ---------------------------------------------------------------------------
# The player


@attrs.frozen
class RenegeWith:
    """A renege under ``renege = penalty`` (RENEGE-2), played via ``apply_renege``."""

    tile: Tile


Move = moonrules.Action | RenegeWith


def _strength(hand: Iterable[Tile], rules: RuleSet) -> tuple[int, Trump]:
    best = (-1, Trump.NONE)
    for t in rules.trumps:
        if t is not Trump.NONE:
            c = sum(1 for x in hand if is_trump(x, t))
            if c > best[0]:
                best = (c, t)
    return best


def _greedy(state: GameState) -> moonrules.Action:
    """A simple deterministic strategy: bid on long suits, win tricks cheaply."""
    legal = legal_actions(state)
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    rules = state.rules
    if state.phase is Phase.BIDDING:
        count, _ = _strength(hand, rules)
        if rules.players == 4:
            count += 1  # a partner helps
        bids = [a for a in legal if isinstance(a, Bid)]
        if Pass() in legal and (count < 4 or not bids or bids[0].amount > count):
            return Pass()
        return bids[0]
    if state.phase is Phase.TRUMP:
        choice = NameTrump(_strength(hand, rules)[1])
        return choice if choice in legal else legal[0]
    if state.phase is Phase.DISCARD:
        keep = state.trump if state.trump is not None else _strength(hand, rules)[1]
        discards = [a for a in legal if isinstance(a, Discard)]
        spare = [a for a in discards if not is_trump(a.tile, keep)] or discards
        return min(spare, key=lambda a: (a.tile.is_double, a.tile.pips))
    trump = state.trump
    assert trump is not None
    plays: list[Play] = [a for a in legal if isinstance(a, Play)]
    trick = state.trick
    if not trick:
        return max(plays, key=lambda a: (is_trump(a.tile, trump), a.tile.is_double, a.tile.pips))
    n = rules.players
    assert state.leader is not None
    partner_wins = n == 4 and (state.leader + trick_winner(trick, trump)) % n == (seat + 2) % n
    winning = [a for a in plays if trick_winner((*trick, a.tile), trump) == len(trick)]
    if winning and not partner_wins:
        return min(winning, key=lambda a: a.tile.pips)
    return min(plays, key=lambda a: (is_trump(a.tile, trump), a.tile.is_double, a.tile.pips))


def _renege_tiles(state: GameState) -> tuple[Tile, ...]:
    """Tiles the player to act holds but may not play (FOLLOW-1/FOLLOW-2), if following."""
    if state.phase is not Phase.PLAY or not state.trick or state.is_over:
        return ()
    seat = state.to_act
    assert seat is not None
    legal = {a.tile for a in legal_actions(state) if isinstance(a, Play)}
    return tuple(t for t in state.hands[seat] if t not in legal)


def choose(state: GameState, rng: random.Random, randomness: float, timid: float = 0.0) -> Move:
    """The player: in the auction, passes with probability ``timid`` when allowed (so that
    all-pass auctions, BID-7 and BID-8, happen); otherwise random with probability
    ``randomness``, else greedy; under ``renege = penalty``, now and then a renege."""
    timid_pass = state.phase is Phase.BIDDING and timid and rng.random() < timid
    if timid_pass and Pass() in legal_actions(state):
        return Pass()
    if state.rules.renege is moonrules.Renege.PENALTY:
        reneges = _renege_tiles(state)
        if reneges and rng.random() < 0.05:
            return RenegeWith(rng.choice(reneges))
    if rng.random() < randomness:
        return rng.choice(legal_actions(state))
    return _greedy(state)


def perform(state: GameState, move: Move) -> GameState:
    if isinstance(move, RenegeWith):
        return apply_renege(state, move.tile)
    return apply(state, move)


# ---------------------------------------------------------------------------
# Oracles: what the spec says, computed independently of the game module


def phase_order(rules: RuleSet) -> tuple[Phase, ...]:
    """The phases of a hand that is played (WIDOW-1, WIDOW-2, TRUMP-1)."""
    if not rules.has_widow:
        middle: tuple[Phase, ...] = (Phase.TRUMP,)
    elif rules.widow_timing is WidowTiming.BEFORE_TRUMP:
        middle = (Phase.DISCARD, Phase.TRUMP)
    else:
        middle = (Phase.TRUMP, Phase.DISCARD)
    return (Phase.BIDDING, *middle, Phase.PLAY)


def offered_trumps(rules: RuleSet) -> set[Trump]:
    """TRUMP-5, from the rule set's fields."""
    out = {Trump.of_number(n) for n in rules.trump_numbers}
    if rules.doubles_trump:
        out.add(Trump.DOUBLES)
    if rules.no_trump:
        out.add(Trump.NONE)
    return out


def bid_values(rules: RuleSet) -> tuple[int, ...]:
    """BID-4."""
    return (*range(rules.min_bid, 8), *((21,) if rules.moon else ()))


def amounts(calls: Iterable[Pass | Bid]) -> list[int]:
    return [0 if isinstance(c, Pass) else c.amount for c in calls]


def auction_over(rules: RuleSet, calls: list[int]) -> bool:
    """BID-5, BID-6."""
    return len(calls) == rules.players or (bool(calls) and calls[-1] == 21)


def side_of(rules: RuleSet, seat: int) -> int:
    """TEAM-1."""
    return seat % 2 if rules.players == 4 else seat


def expected_deltas(rules: RuleSet, hand: Hand) -> tuple[tuple[int, ...], bool]:
    """SCORE-1 … SCORE-6, RENEGE-2: each side's score change, and whether the game is won."""
    per_seat = Counter(t.winner for t in hand.tricks)
    per_side = [0] * rules.sides
    for seat, k in per_seat.items():
        per_side[side_of(rules, seat)] += k
    bidder_side = side_of(rules, hand.bidder)
    renege = hand.renege
    if renege >= 0:
        made = side_of(rules, renege) != bidder_side
    else:
        made = per_side[bidder_side] >= (7 if hand.bid == 21 else hand.bid)
    if rules.scoring is Scoring.MARKS:
        deltas = tuple(int((s == bidder_side) == made) for s in range(rules.sides))
    else:
        deltas = tuple(
            (hand.bid if made else -hand.bid) if s == bidder_side else per_side[s]
            for s in range(rules.sides)
        )
    game_won = made and hand.bid == 21 and rules.moon and rules.moon_made is MoonMade.WINS_GAME
    return deltas, game_won


def expected_winner(
    rules: RuleSet, scores: tuple[int, ...], bidder_side: int, game_won: bool
) -> int | None:
    """END-1, END-2, END-3, SCORE-4."""
    if game_won:
        return bidder_side
    top = max(scores)
    if top < rules.target:
        return None
    leaders = [s for s, v in enumerate(scores) if v == top]
    if len(leaders) == 1:
        return leaders[0]
    if rules.tie is TieRule.BIDDER_OUT and bidder_side in leaders:
        return bidder_side
    return None


def expected_refusal(state: GameState, action: moonrules.Action) -> set[str]:
    """The clause IDs an illegal ``action`` may be refused with, in ``state``."""
    if state.is_over:
        return {"END-1"}
    phase = state.phase
    kind = {
        Phase.BIDDING: (Pass, Bid),
        Phase.DISCARD: (Discard,),
        Phase.TRUMP: (NameTrump,),
        Phase.PLAY: (Play,),
    }[phase]
    if not isinstance(action, kind):
        return {"TURN-1"}
    rules = state.rules
    if isinstance(action, Pass):
        return {"BID-8"}
    if isinstance(action, Bid):
        return {"BID-4"} if action.amount not in bid_values(rules) else {"BID-3"}
    if isinstance(action, Discard):
        return {"WIDOW-1", "WIDOW-2"}
    if isinstance(action, NameTrump):
        return {"TRUMP-5", "TRUMP-1"}
    assert isinstance(action, Play)
    seat = state.to_act
    assert seat is not None
    if action.tile not in state.hands[seat]:
        return {"TRICK-1"}
    if not state.trick:
        return {"LEAD-2"}
    assert state.trump is not None
    return {"FOLLOW-1"} if is_trump(state.trick[0], state.trump) else {"FOLLOW-2"}


# ---------------------------------------------------------------------------
# Checks of one state


def tiles_everywhere(state: GameState) -> list[Tile]:
    """Every tile of the hand, wherever it lies now."""
    out: list[Tile] = [t for hand in state.hands for t in hand]
    if state.widow is not None and not state.hand.widow_taken:
        out.append(state.widow)
    if state.discard is not None:
        out.append(state.discard)
    out.extend(state.trick)
    for trick in state.tricks:
        out.extend(trick.tiles)
    return out


def check_tiles(state: GameState) -> None:
    rules = state.rules
    everywhere = tiles_everywhere(state)
    dupes = [t for t, k in Counter(everywhere).items() if k > 1]
    assert not dupes, f"tiles in two places at once: {dupes}"
    assert set(everywhere) == set(rules.tile_set.tiles), (
        f"missing {set(rules.tile_set.tiles) - set(everywhere)}, "
        f"extra {set(everywhere) - set(rules.tile_set.tiles)}"
    )
    assert (state.widow is not None) == rules.has_widow
    for hand in state.hands:
        indices = [t.index for t in hand]
        assert indices == sorted(set(indices)), "a hand is not in tile order"


def check_hand_sizes(state: GameState) -> None:
    n = state.rules.players
    sizes = [len(h) for h in state.hands]
    phase = state.phase
    if phase is Phase.DONE:
        if state.hand.renege < 0:
            assert sizes == [0] * n
        return
    expected = [7] * n
    if phase is Phase.DISCARD:
        assert state.bidder is not None
        expected[state.bidder] = 8
    elif phase is Phase.PLAY:
        assert state.leader is not None
        expected = [7 - len(state.tricks)] * n
        for i in range(len(state.trick)):
            expected[(state.leader + i) % n] -= 1
    assert sizes == expected, f"hand sizes {sizes}, expected {expected} in {phase}"


def check_turn_and_auction(state: GameState) -> None:
    """Who acts (SEAT-1, BID-2, LEAD-1, TRICK-3) and who won the auction (BID-6)."""
    rules = state.rules
    n = rules.players
    h = state.hand
    calls = amounts(state.calls)
    assert 0 <= state.first_bidder < n
    assert all(c == 0 or c in bid_values(rules) for c in calls)
    bids = [c for c in calls if c]
    assert bids == sorted(set(bids)), f"bids do not rise: {calls} (BID-3)"
    assert 21 not in calls[:-1], f"calls after a 21: {calls} (BID-5)"
    if state.phase is Phase.BIDDING:
        assert not auction_over(rules, calls)
        assert state.bidder is None and state.bid is None and state.trump is None
        assert state.to_act == (state.first_bidder + len(calls)) % n
        return
    if h.thrown_in:
        assert calls == [0] * n
        return
    assert auction_over(rules, calls)
    high = max(calls)
    assert high > 0
    assert state.bidder == (state.first_bidder + calls.index(high)) % n
    assert state.bid == high
    if state.phase in (Phase.DISCARD, Phase.TRUMP):
        assert state.to_act == state.bidder
    order = phase_order(rules)
    reached = order.index(state.phase) if state.phase in order else len(order)
    assert h.widow_taken == (Phase.DISCARD in order and reached >= order.index(Phase.DISCARD))
    assert (state.trump is not None) == (reached > order.index(Phase.TRUMP))
    assert (state.discard is not None) == (
        Phase.DISCARD in order and reached > order.index(Phase.DISCARD)
    )
    if state.phase in (Phase.PLAY, Phase.DONE):
        leader = state.bidder
        for trick in state.tricks:
            assert trick.leader == leader, "a trick was led by the wrong seat (LEAD-1, TRICK-3)"
            leader = trick.winner
        if state.phase is Phase.PLAY:
            assert state.leader == leader
            assert state.to_act == (leader + len(state.trick)) % n


def check_legal_actions(state: GameState) -> tuple[moonrules.Action, ...]:
    """Legal actions are sorted, unique, never empty, and what the rule functions allow."""
    legal = legal_actions(state)
    if state.is_over:
        assert legal == ()
        return legal
    assert legal, "no legal action while the game goes on"
    assert list(legal) == sorted(set(legal))
    rules = state.rules
    seat = state.to_act
    assert seat is not None
    phase = state.phase
    if phase is Phase.BIDDING:
        calls = amounts(state.calls)
        high = max(calls, default=0)
        expected: list[moonrules.Action] = [Bid(b) for b in bid_values(rules) if b > high]
        forced = rules.all_pass is AllPass.FORCE and len(calls) == rules.players - 1 and high == 0
        if not forced:
            expected.insert(0, Pass())
        assert list(legal) == expected
    elif phase is Phase.DISCARD:
        assert legal == tuple(Discard(t) for t in state.hands[seat])
    elif phase is Phase.TRUMP:
        assert {a.trump for a in legal if isinstance(a, NameTrump)} == offered_trumps(rules)
        assert all(isinstance(a, NameTrump) for a in legal)
    else:
        assert phase is Phase.PLAY and state.trump is not None
        lead_trump = rules.first_lead is FirstLead.TRUMP and not state.tricks
        allowed = legal_plays(state.hands[seat], state.trick, state.trump, lead_trump=lead_trump)
        assert legal == tuple(Play(t) for t in sorted(allowed))
    return legal


def check_state(state: GameState) -> tuple[moonrules.Action, ...]:
    rules = state.rules
    assert len(state.scores) == rules.sides
    check_tiles(state)
    check_hand_sizes(state)
    if state.is_over:
        assert state.to_act is None
        assert state.winner in range(rules.sides)
        assert state.phase is Phase.DONE
    else:
        assert state.to_act in range(rules.players)
        assert state.phase in (Phase.BIDDING, Phase.DISCARD, Phase.TRUMP, Phase.PLAY)
    check_turn_and_auction(state)
    return check_legal_actions(state)


def check_refused(state: GameState, action: moonrules.Action) -> None:
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    rule_id = info.value.rule
    assert rule_id in CLAUSE_IDS, f"{action} refused citing {rule_id!r}, not a clause of the spec"
    allowed = expected_refusal(state, action)
    assert rule_id in allowed, f"{action} refused citing {rule_id}, expected one of {allowed}"
    if rule_id == "TURN-1":
        assert isinstance(info.value, OutOfTurn)


def check_refusals(
    state: GameState, legal: tuple[moonrules.Action, ...], rng: random.Random | None, k: int = 3
) -> None:
    """Illegal actions are refused: ``k`` of them drawn by ``rng``, every one of the universe
    when ``rng`` is ``None``, none when ``k`` is 0; and a legal action by the wrong seat."""
    legal_set = set(legal)
    illegal = [a for a in UNIVERSE if a not in legal_set]
    assert len(illegal) == len(UNIVERSE) - len(legal_set)
    if k == 0:
        sample = []
    elif rng is None:
        sample = illegal
    else:
        sample = rng.sample(illegal, min(k, len(illegal)))
    for action in sample:
        check_refused(state, action)
    if legal and state.to_act is not None:
        other = (state.to_act + 1) % state.rules.players
        with pytest.raises(OutOfTurn) as info:
            apply(state, legal[0], seat=other)
        assert info.value.rule == "TURN-1"


# ---------------------------------------------------------------------------
# Checks of one step


def check_step(prev: GameState, move: Move, new: GameState) -> None:
    rules = prev.rules
    n = rules.players
    assert new != prev
    assert new.rules == rules and new.seed == prev.seed
    assert new.hand_number >= prev.hand_number
    if not new.is_over and new.hand_number == prev.hand_number:
        _check_step_within_hand(prev, move, new)
        return
    # The hand ended: it is the last of the history, or the current hand of a finished game.
    done = new.hand if new.is_over else new.history[-1]
    assert done.phase is Phase.DONE and done.number == prev.hand_number
    if new.is_over:
        assert new.history == prev.history
    else:
        assert new.history[:-1] == prev.history
        assert new.hand_number == prev.hand_number + 1, "BID-1: hands are numbered in turn"
        assert new.first_bidder == (prev.first_bidder + 1) % n, "BID-1: first bid moves on"
        assert new.phase is Phase.BIDDING and new.calls == () and new.tricks == ()
        deal = seeded_deal(rules, new.seed, new.hand_number)
        assert new.hands == deal.hands and new.widow == deal.widow
    if done.thrown_in:
        assert isinstance(move, Pass), "only a pass can throw a hand in (BID-7)"
        assert done.calls == (0,) * n
        assert rules.all_pass is AllPass.REDEAL
        assert new.scores == prev.scores, "a thrown-in hand changed the scores (BID-7)"
        assert done.tricks == () and not new.is_over
        return
    renege = done.renege
    if renege >= 0:
        assert isinstance(move, RenegeWith)
        assert rules.renege is moonrules.Renege.PENALTY
        assert len(done.tricks) == len(prev.tricks) and done.tricks == prev.tricks
    else:
        assert isinstance(move, Play)
        assert len(done.tricks) == 7, "a hand is scored after seven tricks (TRICK-3)"
    tricks_won = [sum(1 for t in done.tricks if t.winner == s) for s in range(n)]
    assert list(done.tricks_won) == tricks_won
    deltas, game_won = expected_deltas(rules, done)
    if renege >= 0:
        made = side_of(rules, renege) != side_of(rules, done.bidder)
        official = score_hand(rules, done.bidder, done.bid, tricks_won, made=made)
    else:
        official = score_hand(rules, done.bidder, done.bid, tricks_won)
    assert official.deltas == deltas, f"score_hand gives {official.deltas}, the spec {deltas}"
    assert official.game_won == game_won
    assert done.deltas == deltas
    assert new.scores == tuple(a + d for a, d in zip(prev.scores, deltas, strict=True))
    winner = expected_winner(rules, new.scores, side_of(rules, done.bidder), game_won)
    assert new.winner == winner, f"scores {new.scores}: winner {new.winner}, expected {winner}"


def _check_step_within_hand(prev: GameState, move: Move, new: GameState) -> None:
    rules = prev.rules
    n = rules.players
    assert new.scores == prev.scores, "scores changed in the middle of a hand"
    assert new.history == prev.history
    assert new.first_bidder == prev.first_bidder
    order = phase_order(rules)
    if prev.phase is Phase.BIDDING:
        assert isinstance(move, (Pass, Bid))
        assert amounts(new.calls) == [*amounts(prev.calls), amounts([move])[0]]
        over = auction_over(rules, amounts(new.calls))
        assert new.phase is (order[1] if over else Phase.BIDDING)
        if new.phase is Phase.DISCARD:
            assert prev.widow is not None and new.bidder is not None
            assert set(new.hands[new.bidder]) == {*prev.hands[new.bidder], prev.widow}
        return
    if prev.phase is Phase.PLAY:
        assert new.phase is Phase.PLAY
    else:
        assert new.phase is order[order.index(prev.phase) + 1]
    if prev.phase is Phase.DISCARD:
        assert isinstance(move, Discard) and new.discard == move.tile
        return
    if prev.phase is Phase.TRUMP:
        assert isinstance(move, NameTrump) and new.trump is move.trump
        if new.phase is Phase.DISCARD:
            assert prev.widow is not None and prev.bidder is not None
            assert set(new.hands[prev.bidder]) == {*prev.hands[prev.bidder], prev.widow}
        return
    assert isinstance(move, Play)
    assert prev.leader is not None and prev.trump is not None
    played = (*prev.trick, move.tile)
    if len(played) < n:
        assert new.trick == played and new.tricks == prev.tricks
        return
    win = (prev.leader + trick_winner(played, prev.trump)) % n
    assert new.trick == ()
    assert new.tricks == (*prev.tricks, Trick(prev.leader, played, win)), "TRICK-2"
    assert new.leader == win


# ---------------------------------------------------------------------------
# Views (VIEW-1)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def tiles_in(obj: object, out: set[Tile] | None = None) -> set[Tile]:
    """Every tile anywhere inside ``obj`` (attrs classes, tuples, lists, sets)."""
    if out is None:
        out = set()
    kind = type(obj)
    if kind is Tile:
        out.add(obj)  # type: ignore[arg-type]
    elif kind in (tuple, list, set, frozenset):
        for x in obj:  # type: ignore[attr-defined]
            tiles_in(x, out)
    else:
        names = _FIELD_NAMES.get(kind)
        if names is None:
            names = tuple(f.name for f in attrs.fields(kind)) if attrs.has(kind) else ()
            _FIELD_NAMES[kind] = names
        for name in names:
            tiles_in(getattr(obj, name), out)
    return out


def hidden_places(state: GameState, seat: int) -> dict[Tile, object]:
    """The tiles ``seat`` may not see (VIEW-1), each with where it lies now."""
    places: dict[Tile, object] = {
        t: s for s, hand in enumerate(state.hands) if s != seat for t in hand
    }
    if state.widow is not None and not state.hand.widow_taken:
        places[state.widow] = "widow"
    if state.discard is not None and seat != state.bidder:
        places[state.discard] = "discard"
    return places


def hidden_from(state: GameState, seat: int) -> set[Tile]:
    return set(hidden_places(state, seat))


def check_views(state: GameState, *, walk: bool = True) -> None:
    """Each seat's view shows the public state and its own tiles; with ``walk``, every tile
    anywhere in the view (whatever its fields) is checked not to be hidden from the seat."""
    n = state.rules.players
    for seat in range(n):
        v = view(state, seat)
        if walk:
            leaked = tiles_in(v) & hidden_from(state, seat)
            assert not leaked, f"seat {seat} sees hidden tiles {leaked}"
        assert v.seat == seat and v.hand == state.hands[seat]
        is_bidder = seat == state.bidder
        assert v.widow == (state.widow if is_bidder and state.hand.widow_taken else None)
        assert v.discard == (state.discard if is_bidder else None)
        assert v.hand_sizes == tuple(len(h) for h in state.hands)
        public = (
            state.hand_number,
            state.scores,
            state.phase,
            state.to_act,
            state.first_bidder,
            state.calls,
            state.bidder,
            state.bid,
            state.trump,
            state.leader,
            state.trick,
            state.tricks,
            state.tricks_won,
            state.is_over,
            state.winner,
        )
        seen = (
            v.hand_number,
            v.scores,
            v.phase,
            v.to_act,
            v.first_bidder,
            v.calls,
            v.bidder,
            v.bid,
            v.trump,
            v.leader,
            v.trick,
            v.tricks,
            v.tricks_won,
            v.is_over,
            v.winner,
        )
        assert seen == public


def _deal_of(hand: Hand) -> Deal:
    return Deal(
        tuple(tuple(t for t in TILES if m >> t.index & 1) for m in hand.deal),
        None if hand.widow < 0 else TILES[hand.widow],
    )


def relabelled(start: GameState, moves: list[Move], sigma: dict[Tile, Tile]) -> GameState | None:
    """Replay a hand from ``start`` (before its first call) with its deal's tiles renamed by
    ``sigma``, and the same moves (renamed likewise); ``None`` if a move becomes illegal."""
    deal = _deal_of(start.hand)
    swapped = Deal(
        tuple(tuple(sorted(sigma.get(t, t) for t in h)) for h in deal.hands),
        None if deal.widow is None else sigma.get(deal.widow, deal.widow),
    )
    state = with_deal(start, swapped)
    for move in moves:
        if isinstance(move, (Discard, Play, RenegeWith)):
            move = attrs.evolve(move, tile=sigma.get(move.tile, move.tile))
        try:
            state = perform(state, move)
        except IllegalAction:
            return None
    return state


def _note(text: str) -> None:
    """``hypothesis.note`` inside a Hypothesis test, nothing outside one."""
    with contextlib.suppress(InvalidArgument):
        note(text)


def check_hidden_swap(
    state: GameState, start: GameState, moves: list[Move], seat: int, rng: random.Random
) -> bool:
    """Rename tiles hidden from ``seat`` in the hand's deal and replay: ``seat``'s view must not
    change, while the state (and the view of each seat whose tiles moved) does.

    Tries a shuffle of all the hidden tiles, then swaps of two hidden tiles lying in
    different places; returns whether one replayed legally (a renaming can make an
    earlier play a renege)."""
    places = hidden_places(state, seat)
    hidden = sorted(places)
    if len(set(places.values())) < 2:
        return False
    candidates: list[dict[Tile, Tile]] = []
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    candidates.append(dict(zip(hidden, shuffled, strict=True)))
    for _ in range(8):
        a = rng.choice(hidden)
        b = rng.choice([t for t in hidden if places[t] != places[a]])
        candidates.append({a: b, b: a})
    for sigma in candidates:
        if all(places[k] == places[v] for k, v in sigma.items()):
            continue  # nothing moves from one place to another
        other = relabelled(start, moves, sigma)
        if other is None:
            continue
        _note(f"renamed {sigma}, hidden from seat {seat}")
        assert other != state
        assert view(other, seat) == view(state, seat), f"seat {seat} sees a hidden difference"
        for s in range(state.rules.players):
            if other.hands[s] != state.hands[s]:
                assert view(other, s) != view(state, s)
        return True
    return False


# ---------------------------------------------------------------------------
# State properties: immutability, hashing, repr


REPR_NAMESPACE: dict[str, object] = {name: getattr(moonrules, name) for name in moonrules.__all__}
"""The public names of moonrules (which include its enums: ``Phase``, ``Trump``, ``TileSet``,
the rule-set options)."""


def _attrs_parts(obj: Any) -> list[Any]:
    """``obj`` and every attrs instance held directly in its fields, recursively (not tuples)."""
    out = [obj]
    for f in attrs.fields(type(obj)):
        value = getattr(obj, f.name)
        if attrs.has(type(value)):  # the rule set, the hand, the hand's contract, ...
            out.extend(_attrs_parts(value))
    return out


def check_value_semantics(state: GameState) -> None:
    """Immutable (the state and every part of it), hashable, equal by value."""
    for part in _attrs_parts(state):
        for f in attrs.fields(type(part)):
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(part, f.name, getattr(part, f.name))
    copy = attrs.evolve(state, hand=attrs.evolve(state.hand))
    assert copy == state and hash(copy) == hash(state) and copy.hand is not state.hand
    if state.hand_number > 1 or state.scores != (0,) * state.rules.sides:
        higher = attrs.evolve(state.game, scores=tuple(x + 1 for x in state.scores))
        assert attrs.evolve(state, game=higher) != state


def check_repr_round_trip(state: GameState) -> None:
    text = repr(state)
    try:
        again = eval(text, dict(REPR_NAMESPACE))
    except NameError as err:
        pytest.fail(
            f"repr(state) names {err.name!r}, which is not a public name of moonrules, so the "
            f"repr does not evaluate back to a state (export it from moonrules/__init__.py)"
        )
    assert again == state and hash(again) == hash(state)
    assert repr(again) == text


# ---------------------------------------------------------------------------
# Playing a game with every check


class CheckedGame:
    """A game in progress that checks every step; keeps what replays need."""

    def __init__(self, start: GameState) -> None:
        self.start = start
        self.state = start
        self.moves: list[Move] = []
        self.hand_start = start
        self.hand_moves: list[Move] = []
        self.legal = check_state(start)

    def step(self, move: Move, rng: random.Random | None, k: int = 3) -> None:
        prev = self.state
        new = perform(prev, move)
        check_step(prev, move, new)
        self.legal = check_state(new)
        check_refusals(new, self.legal, rng, k)
        self.state = new
        self.moves.append(move)
        if new.hand_number != prev.hand_number:
            self.hand_start, self.hand_moves = new, []
        else:
            self.hand_moves.append(move)

    def replay(self) -> GameState:
        state = self.start
        for move in self.moves:
            state = perform(state, move)
        return state


def start_state(rules: RuleSet, seed: int, head_start: list[int] | None) -> GameState:
    """A new game; with ``head_start``, scores set just below the target (each side's offset)
    so that the end of the game (END-1 … END-3) is reached within a few hands."""
    state = new_game(rules, seed=seed)
    if head_start is not None:
        scores = tuple(rules.target + d for d in head_start[: rules.sides])
        state = attrs.evolve(state, game=attrs.evolve(state.game, scores=scores))
    return state


def play_checked_game(
    preset: str,
    seed: int,
    rng: random.Random,
    randomness: float,
    head_start: list[int] | None,
    *,
    timid: float = 0.0,
    full_universe: bool = False,
) -> CheckedGame:
    rules = PRESETS[preset]
    game = CheckedGame(start_state(rules, seed, head_start))
    check_value_semantics(game.state)
    check_refusals(game.state, game.legal, None if full_universe else rng)
    swap_steps = {rng.randrange(400) for _ in range(3)}
    semantics_steps = {rng.randrange(400)}
    while not game.state.is_over and game.state.hand_number <= MAX_HANDS:
        move = choose(game.state, rng, randomness, timid)
        game.step(move, None if full_universe else rng)
        i = len(game.moves)
        check_views(game.state, walk=i % 5 == 0 or game.state.is_over)
        if i in swap_steps:
            seat = rng.randrange(rules.players)
            check_hidden_swap(game.state, game.hand_start, game.hand_moves, seat, rng)
        if i in semantics_steps:
            check_value_semantics(game.state)
    check_value_semantics(game.state)
    if game.state.is_over:
        # nothing more can happen once the game is over
        check_refusals(game.state, (), None)
    # the same seed and moves give an equal state with an equal hash
    again = game.replay()
    assert again == game.state and hash(again) == hash(game.state)
    return game


HEAD_STARTS = st.none() | st.lists(st.integers(-8, -1), min_size=4, max_size=4)


GAME_EXAMPLES = max(5, PROFILE_EXAMPLES // 4)
"""Whole games per preset: a quarter of the profile's examples (10 by default, 250 deep)."""


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=GAME_EXAMPLES)
@given(
    seed=st.integers(0, 2**32 - 1),
    rng=st.randoms(use_true_random=True),
    randomness=st.sampled_from([0.1, 0.3, 1.0]),
    timid=st.sampled_from([0.0, 0.5, 0.8]),
    head_start=HEAD_STARTS,
)
def test_every_step_of_random_games(
    preset: str,
    seed: int,
    rng: random.Random,
    randomness: float,
    timid: float,
    head_start: list[int] | None,
) -> None:
    play_checked_game(preset, seed, rng, randomness, head_start, timid=timid)


FULL_UNIVERSE_SEEDS = range(1, 6) if DEEP else range(1, 2)


@pytest.mark.parametrize("seed", FULL_UNIVERSE_SEEDS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_illegal_action_refused_in_whole_games(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    game = play_checked_game(preset, seed, rng, 0.1, None, timid=0.3, full_universe=True)
    assert game.state.is_over, "the greedy player's game should reach its end"


SCENARIOS = ("tie with the bidder", "tie without the bidder", "one side on top", "below target")


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(
    seed=st.integers(0, 2**32 - 1),
    player=st.integers(0, 2**32 - 1),
    scenario=st.sampled_from(SCENARIOS),
    data=st.data(),
)
def test_end_of_game_on_engineered_scores(
    preset: str, seed: int, player: int, scenario: str, data: st.DataObject
) -> None:
    """END-1, END-2, END-3, SCORE-4: play a hand, then replay it from scores chosen so that
    it ends in the scenario drawn (a tie at the top at or above the target that includes
    the bidder or not, a single side on top, everyone below the target), and check the
    game ends, or goes on, as the spec says."""
    rules = PRESETS[preset]
    first = new_game(rules, seed=seed)
    state, moves, rng = first, [], random.Random(player)
    while state.hand_number == 1 and not state.is_over:
        move = choose(state, rng, 0.2)
        moves.append(move)
        state = perform(state, move)
    done = state.hand if state.is_over else state.history[-1]
    if done.thrown_in:
        return
    deltas, game_won = expected_deltas(rules, done)
    bidder_side = side_of(rules, done.bidder)
    others = [s for s in range(rules.sides) if s != bidder_side]
    top = rules.target + data.draw(st.integers(0, 3), label="top above target")
    below = [top - 1 - data.draw(st.integers(0, 5), label="gap") for _ in range(rules.sides)]
    final = list(below)
    if scenario == "tie with the bidder":
        final[bidder_side] = final[data.draw(st.sampled_from(others), label="tied with")] = top
    elif scenario == "tie without the bidder":
        if len(others) < 2:
            return
        for s in others[:2]:
            final[s] = top
    elif scenario == "one side on top":
        final[data.draw(st.integers(0, rules.sides - 1), label="top side")] = top
    else:
        final = [min(x, rules.target - 1) for x in below]
    start_scores = tuple(f - d for f, d in zip(final, deltas, strict=True))
    game = CheckedGame(attrs.evolve(first, game=attrs.evolve(first.game, scores=start_scores)))
    for move in moves:
        game.step(move, None, 0)
    end = game.state
    assert end.scores == tuple(final)
    if game_won:
        assert end.winner == bidder_side, "a made 21 wins the game outright (SCORE-4)"
    elif scenario == "tie with the bidder":
        expected = bidder_side if rules.tie is TieRule.BIDDER_OUT else None
        assert end.winner == expected, "END-2 / END-3"
    elif scenario == "tie without the bidder":
        assert end.winner is None, "a tie at the top plays on (END-2, END-3)"
    elif scenario == "one side on top":
        assert end.winner == final.index(top), "END-1"
    else:
        assert end.winner is None, "no side reached the target (END-1)"
    if end.winner is None:
        assert end.hand_number == 2 and end.phase is Phase.BIDDING


def test_repr_evaluates_back_to_an_equal_state() -> None:
    """``repr`` of states at several points of a game, under every preset, evaluates (with
    moonrules' public names) to an equal state."""
    for preset in PRESET_NAMES:
        rng = random.Random(preset)
        state = new_game(PRESETS[preset], seed=5)
        check_repr_round_trip(state)
        for i in range(1, 400):
            if state.is_over:
                break
            state = perform(state, choose(state, rng, 0.1))
            if i % 37 == 0:
                check_repr_round_trip(state)
        check_repr_round_trip(state)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_games_reach_every_phase_and_end(preset: str) -> None:
    """The players used above really exercise the game: every phase is reached, games end
    with a winner, and timid players make all-pass auctions (so the checks of the end of the
    game, BID-7 and BID-8 are not vacuous)."""
    rules = PRESETS[preset]
    n = rules.players
    phases: set[Phase] = set()
    ended = all_passed = reneges = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over and state.hand_number <= MAX_HANDS:
            phases.add(state.phase)
            if state.phase is Phase.BIDDING and state.calls == (Pass(),) * (n - 1):
                all_passed += 1
                assert (Pass() in legal_actions(state)) == (rules.all_pass is AllPass.REDEAL)
            state = perform(state, choose(state, rng, 0.1, timid=0.7 if seed % 2 else 0.0))
        ended += state.is_over
        reneges += sum(h.renege >= 0 for h in (*state.history, state.hand))
    assert phases == set(phase_order(rules))
    assert ended >= 4
    assert all_passed >= 3
    if rules.renege is moonrules.Renege.PENALTY:
        assert reneges >= 3


# ---------------------------------------------------------------------------
# Views: different hidden tiles, equal views


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=True), data=st.data())
def test_views_ignore_hidden_tiles(
    preset: str, seed: int, rng: random.Random, data: st.DataObject
) -> None:
    rules = PRESETS[preset]
    state = new_game(rules, seed=seed)
    # play the first hand to a random point (or into the next hand)
    stop = data.draw(st.integers(0, 3 + 7 * rules.players + 3), label="actions")
    moves: list[Move] = []
    start = state
    for _ in range(stop):
        move = choose(state, rng, 0.3)
        new = perform(state, move)
        if new.hand_number != state.hand_number:
            start, moves = new, []
        else:
            moves.append(move)
        state = new
        if state.is_over:
            break
    seat = data.draw(st.integers(0, rules.players - 1), label="seat")
    found = check_hidden_swap(state, start, moves, seat, rng)
    if state.phase is Phase.BIDDING:
        # calls do not depend on tiles: every renaming of hidden tiles replays
        assert found


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_views_of_a_seat_keep_its_hand_in_another_deal(preset: str) -> None:
    """A different deal that gives a seat the same hand gives it the same view, through the
    auction; a deal that changes its hand changes its view."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for seed in range(20):
        state = new_game(rules, seed=seed)
        deal = _deal_of(state.hand)
        seat = seed % rules.players
        others = [t for s, h in enumerate(deal.hands) if s != seat for t in h]
        if deal.widow is not None:
            others.append(deal.widow)
        rng.shuffle(others)
        hands = []
        for s, h in enumerate(deal.hands):
            if s == seat:
                hands.append(h)
            else:
                hands.append(tuple(sorted(others[:7])))
                others = others[7:]
        other_deal = Deal(tuple(hands), others[0] if others else None)
        assert other_deal != deal
        a, b = state, with_deal(state, other_deal)
        while a.phase is Phase.BIDDING and not a.is_over:
            assert view(a, seat) == view(b, seat)
            move = choose(a, rng, 0.5)
            a, b = perform(a, move), perform(b, move)
        if a.phase is not Phase.BIDDING and a.bidder != seat:
            assert view(a, seat) == view(b, seat)
        if b.hands != a.hands:
            assert any(view(a, s) != view(b, s) for s in range(rules.players) if s != seat)


# ---------------------------------------------------------------------------
# A stateful model: any interleaving of moves, refusals, views and replays


class GameMachine(RuleBasedStateMachine):
    preset = "standard"

    def __init__(self) -> None:
        super().__init__()
        self.game: CheckedGame | None = None

    @initialize(seed=st.integers(0, 2**32 - 1), head_start=HEAD_STARTS)
    def start(self, seed: int, head_start: list[int] | None) -> None:
        self.game = CheckedGame(start_state(PRESETS[self.preset], seed, head_start))

    @property
    def g(self) -> CheckedGame:
        assert self.game is not None
        return self.game

    @precondition(lambda self: self.game is not None and not self.game.state.is_over)
    @rule(data=st.data())
    def take_any_legal_action(self, data: st.DataObject) -> None:
        action = data.draw(st.sampled_from(self.g.legal), label="action")
        self.g.step(action, None, 0)

    @precondition(lambda self: self.game is not None and not self.game.state.is_over)
    @rule(rng=st.randoms(use_true_random=True), count=st.integers(1, 80))
    def play_on(self, rng: random.Random, count: int) -> None:
        for _ in range(count):
            if self.g.state.is_over:
                break
            self.g.step(choose(self.g.state, rng, 0.2, timid=0.4), rng, 1)

    @precondition(lambda self: self.game is not None)
    @rule(action=st.sampled_from(UNIVERSE))
    def try_any_action(self, action: moonrules.Action) -> None:
        if action in self.g.legal:
            new = apply(self.g.state, action)
            check_step(self.g.state, action, new)
            check_state(new)
        else:
            check_refused(self.g.state, action)

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data(), rng=st.randoms(use_true_random=True))
    def hidden_tiles_do_not_show(self, data: st.DataObject, rng: random.Random) -> None:
        seat = data.draw(st.integers(0, PRESETS[self.preset].players - 1), label="seat")
        check_views(self.g.state)
        check_hidden_swap(self.g.state, self.g.hand_start, self.g.hand_moves, seat, rng)

    @precondition(lambda self: self.game is not None)
    @rule()
    def replay_gives_an_equal_state(self) -> None:
        again = self.g.replay()
        assert again == self.g.state and hash(again) == hash(self.g.state)
        check_value_semantics(self.g.state)

    @invariant()
    def consistent(self) -> None:
        if self.game is not None:
            assert check_state(self.game.state) == self.game.legal


STATEFUL_PRESETS = ("standard", "partnership")
_stateful_settings = settings(
    max_examples=max(10, PROFILE_EXAMPLES // 2),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

for _preset in STATEFUL_PRESETS:
    _machine: type[GameMachine] = type(
        f"GameMachine_{_preset.replace('-', '_')}", (GameMachine,), {"preset": _preset}
    )
    _case = _machine.TestCase
    _case.settings = _stateful_settings
    globals()[f"TestGameMachine_{_preset.replace('-', '_')}"] = _case
del _preset, _machine, _case
