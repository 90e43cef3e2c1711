"""Replaying a game record: the rules applied to it step by step.

:func:`replay` checks a record (:mod:`moonrules.records.record` says its format) step by
step and reports the first thing the rules forbid (hand, step, index, clause, message);
:func:`from_record` rebuilds the exact state it describes, and raises at a rule broken.
The record's types, its writing and its reading are :mod:`moonrules.records.record`.
"""

from __future__ import annotations

from operator import attrgetter

import attrs

from moonrules.game import (
    Bid,
    Deal,
    Discard,
    GameState,
    Hand,
    NameTrump,
    Phase,
    Play,
    apply,
    apply_claim,
    apply_renege,
    check_deal,
    illegal_play_reason,
    new_game,
    with_deal,
)
from moonrules.records.record import (
    HandSummary,
    RecordViolation,
    ReplayResult,
    Step,
    Violation,
    _HandRecord,
    _parse,
)
from moonrules.records.spelling import kept
from moonrules.records.values import JSON
from moonrules.rules.auction import PASS, check_call
from moonrules.rules.errors import IllegalAction, wrong_type
from moonrules.rules.ruleset import Renege, RuleSet, WidowTiming
from moonrules.rules.tiles import Tile

_INDEX = attrgetter("index")
"""A tile's index: sorting by it is sorting tiles (and much quicker than comparing them)."""


class _Stop(Exception):
    """A violation, with the state reached just before the step that broke the rule."""

    def __init__(self, violation: Violation, state: GameState | None) -> None:
        self.violation = violation
        self.state = state


def _fail(
    state: GameState | None, hand: int, step: Step, index: int | None, err: IllegalAction
) -> _Stop:
    return _Stop(Violation(hand, step, index, err.rule, _sentence(err.message), err), state)


def _sentence(message: str) -> str:
    message = message[0].upper() + message[1:] if message else message
    return message if message.endswith(".") else message + "."


def _summary(h: Hand, rules: RuleSet) -> HandSummary:
    return HandSummary(
        None if h.bidder < 0 else h.bidder,
        None if h.bidder < 0 else h.bid,
        h.tricks_won or (0,) * rules.players,
        h.deltas if h.deltas is not None else (0,) * rules.sides,
    )


def replay(record: JSON, *, rules: RuleSet | None = None) -> ReplayResult:
    """Replay a record; stop at the first thing the rules forbid.

    Raises :class:`~moonrules.records.values.RecordError` for a record that is not the shape
    of a record
    (a missing or ill-typed field, a malformed tile); a rule broken is reported
    in the result's ``violation``, never raised. ``rules`` applies when the
    record names none (default: the standard rules).
    """
    if rules is not None and not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet or None", rules)
    rules, seed, players, hands = _parse(record, rules)
    state: GameState | None = None
    summaries: list[HandSummary] = []
    earlier: list[Hand] = []
    try:
        for i, hr in enumerate(hands):
            state = _replay_hand(state, rules, seed, i, hr, last=i == len(hands) - 1)
            h = state.hand if state.hand.number == i + 1 else state.history[-1]
            summaries.append(_summary(h, rules))
            state = _set_aside(state, earlier)
    except _Stop as stop:
        reached = stop.state if stop.state is not None else state
        if reached is None:  # the first hand's deal is broken: no state was reached
            reached = new_game(rules, seed, first_bidder=0)
        return ReplayResult(_whole(reached, earlier), tuple(summaries), stop.violation, players)
    assert state is not None
    state = _whole(state, earlier)
    return ReplayResult(_as_read(state, record, len(hands)), tuple(summaries), None, players)


def _set_aside(state: GameState, earlier: list[Hand]) -> GameState:
    """``state`` keeping only the last of its earlier hands; the others are appended to
    ``earlier``. The game copies its history at the end of each hand: a replay that kept
    it whole would copy every hand once per later hand (quadratic in the hands)."""
    history = state.game.history
    if len(history) <= 1:
        return state
    earlier.extend(history[:-1])
    return GameState(attrs.evolve(state.game, history=history[-1:]), state.hand)


def _whole(state: GameState, earlier: list[Hand]) -> GameState:
    """``state`` with the earlier hands :func:`_set_aside` put back in front of its history."""
    if not earlier:
        return state
    history = (*earlier, *state.game.history)
    return GameState(attrs.evolve(state.game, history=history), state.hand)


def _as_read(state: GameState, record: dict[str, JSON], hands: int) -> GameState:
    """``state`` keeping the record it was read from (see
    :func:`~moonrules.records.record.to_record`)."""
    seed_given = "seed" in record
    g = state.game
    open_hand = state.hand if state.hand.number > hands and g.winner is None else None
    game = attrs.evolve(g, seed_given=seed_given, open_hand=open_hand, source=kept(record))
    return GameState(game, state.hand)


def _replay_hand(
    state: GameState | None, rules: RuleSet, seed: int, i: int, hr: _HandRecord, *, last: bool
) -> GameState:
    """Hand ``i`` of a record, step by step: the deal, the auction, the widow and trump in
    the rules' order, the plays. Raises :class:`_Stop` at the first step the rules forbid."""
    state = _replay_deal(state, rules, seed, i, hr)
    number = state.hand.number
    state = _replay_bids(state, i, hr, number)
    order: tuple[Step, ...] = (
        ("trump", "discard")
        if rules.widow_timing is WidowTiming.AFTER_TRUMP
        else ("discard", "trump")
    )
    present: dict[Step, bool] = {
        "discard": hr.has_discard,
        "trump": hr.trump is not None,
        "play": hr.plays is not None or hr.claim is not None,
    }
    sequence: tuple[Step, ...] = (*order, "play")
    later = [st for st in sequence if present[st]]
    if _hand_ended(state, number):  # every player passed: thrown in (BID-7)
        if later:
            what = "play" if later[0] == "play" else later[0]
            raise _fail(
                state,
                i,
                later[0],
                None if later[0] != "play" else 0,
                IllegalAction(
                    "BID-7",
                    f"every player passed, so the hand was thrown in: there is no {what}",
                ),
            )
        return state
    if state.hand.phase is Phase.BIDDING:
        if later or not last:
            step: Step = later[0] if later else "bid"
            n = len(hr.bids or ())
            raise _fail(
                state,
                i,
                step,
                n if step == "bid" else None,
                IllegalAction(
                    "BID-6", f"the auction is not over after {n} call(s), and the record goes on"
                ),
            )
        return state
    for step in order:
        reached = _replay_contract_step(state, i, hr, step, sequence, present, last)
        if reached is None:  # the record stops before this step
            return state
        state = reached
    return _replay_plays(state, i, hr, number, last=last)


def _hand_ended(state: GameState, number: int) -> bool:
    """Whether hand ``number`` is over: the game ended, or the next hand was dealt."""
    return state.is_over or state.hand.number != number


def _replay_deal(
    state: GameState | None, rules: RuleSet, seed: int, i: int, hr: _HandRecord
) -> GameState:
    """The deal of hand ``i`` (END-1, SEAT-1, BID-1, DEAL-1 … DEAL-3)."""
    if state is not None and state.is_over:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "END-1", f"the game was over after hand {i}; a record has no hand after that"
            ),
        )
    if not 0 <= hr.first_bidder < rules.players:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "SEAT-1",
                f"seats are numbered 0 to {rules.players - 1}; there is no seat {hr.first_bidder}",
            ),
        )
    if state is not None and hr.first_bidder != state.hand.first_bidder:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "BID-1",
                f"seat {state.hand.first_bidder} bids first in hand {i + 1}, one seat on "
                f"from the hand before, not seat {hr.first_bidder}",
                seat=hr.first_bidder,
            ),
        )
    if hr.has_widow and not rules.has_widow:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "DEAL-2",
                f"these rules have no widow, and the record names {hr.widow} as one",
                tile=hr.widow,
            ),
        )
    deal = Deal(tuple(tuple(sorted(h, key=_INDEX)) for h in hr.deal), hr.widow)
    try:
        check_deal(rules, deal)
    except IllegalAction as e:
        raise _fail(state, i, "deal", None, e) from None
    if state is None:
        return new_game(rules, seed, first_bidder=hr.first_bidder, deal=deal)
    return with_deal(state, deal)


def _replay_bids(state: GameState, i: int, hr: _HandRecord, number: int) -> GameState:
    """The calls of hand ``i`` (BID-2 … BID-8)."""
    for j, call in enumerate(hr.bids or ()):
        if _hand_ended(state, number):
            raise _fail(
                state,
                i,
                "bid",
                j,
                IllegalAction(
                    "BID-2",
                    "every player has had their one turn to call; the auction is over",
                    call=call.amount if isinstance(call, Bid) else PASS,
                    allowed_calls=(),
                ),
            )
        try:
            if state.hand.phase is not Phase.BIDDING:
                # a call after the auction ended: BID-5 after a 21, else BID-2
                check_call(state.auction, call.amount if isinstance(call, Bid) else PASS)
            state = apply(state, call)
        except IllegalAction as e:
            raise _fail(state, i, "bid", j, e) from None
    return state


def _replay_contract_step(
    state: GameState,
    i: int,
    hr: _HandRecord,
    step: Step,
    sequence: tuple[Step, ...],
    present: dict[Step, bool],
    last: bool,
) -> GameState | None:
    """The discard (WIDOW-1, WIDOW-2, DEAL-2) or the naming of trump (TRUMP-1, TRUMP-5).

    ``None`` when the record stops before this step and nothing follows it.
    """
    rules = state.rules
    if step == "discard" and not rules.has_widow:
        if hr.has_discard:
            raise _fail(
                state,
                i,
                "discard",
                None,
                IllegalAction(
                    "DEAL-2",
                    "these rules have no widow, so the bidder discards nothing",
                    seat=state.hand.bidder,
                    tile=hr.discard,
                ),
            )
        return state
    action: Discard | NameTrump
    if step == "discard":
        if hr.discard is None:
            return _missing(state, i, "discard", "WIDOW-1", sequence, present, last)
        action = Discard(hr.discard)
    else:
        if hr.trump is None:
            return _missing(state, i, "trump", "TRUMP-1", sequence, present, last)
        action = NameTrump(hr.trump)
    try:
        return apply(state, action)
    except IllegalAction as e:
        raise _fail(state, i, step, None, e) from None


def _replay_plays(
    state: GameState, i: int, hr: _HandRecord, number: int, *, last: bool
) -> GameState:
    """The plays of hand ``i``, to its end (TRICK-1 … TRICK-3, FOLLOW-*, RENEGE-*), and the
    claim that ended it (CLAIM-1)."""
    plays = hr.plays or ()
    if hr.plays is None and hr.claim is None and not last:
        raise _fail(
            state,
            i,
            "play",
            0,
            IllegalAction(
                "TRICK-3", "the hand has no plays, and the record goes on to another hand"
            ),
        )
    for j, t in enumerate(plays):
        if _hand_ended(state, number):
            reneged = bool(state.history) and state.history[-1].renege >= 0
            why = "the hand ended at the renege" if reneged else "seven tricks make a hand"
            raise _fail(
                state,
                i,
                "play",
                j,
                IllegalAction(
                    "RENEGE-2" if reneged else "TRICK-3",
                    f"the hand was over after {j} plays ({why}); {t} was played after it",
                    tile=t,
                ),
            )
        state = _replay_play(state, i, j, t)
    if hr.claim is not None:
        return _replay_claim(state, i, hr.claim, number, len(plays))
    if not _hand_ended(state, number) and not last:
        raise _fail(
            state,
            i,
            "play",
            len(plays),
            IllegalAction(
                "TRICK-3",
                f"the hand has only {len(plays)} plays; seven tricks make a hand, and "
                "the record goes on to another hand",
            ),
        )
    return state


def _replay_claim(
    state: GameState, i: int, claim: tuple[int, int], number: int, plays: int
) -> GameState:
    """The claim after hand ``i``'s plays (CLAIM-1): settled, or the violation it is."""
    seat, tricks = claim
    if _hand_ended(state, number):
        raise _fail(
            state,
            i,
            "claim",
            None,
            IllegalAction(
                "CLAIM-1",
                f"the hand was over after its {plays} plays; seat {seat} claimed after it",
                seat=seat,
            ),
        )
    try:
        return apply_claim(state, seat, tricks)
    except IllegalAction as e:
        raise _fail(state, i, "claim", None, e) from None


def _missing(
    state: GameState,
    i: int,
    step: Step,
    rule: str,
    sequence: tuple[Step, ...],
    present: dict[Step, bool],
    last: bool,
) -> GameState | None:
    """A discard or trump the record does not name: ``None`` if the record stops there,
    else a violation of ``rule``."""
    after = sequence[sequence.index(step) + 1 :]
    if last and not any(present[st] for st in after):
        return None
    raise _fail(
        state, i, step, None, IllegalAction(rule, f"the record names no {step}, and goes on")
    )


def _replay_play(state: GameState, i: int, j: int, t: Tile) -> GameState:
    err = illegal_play_reason(state, t)
    if err is None:
        return apply(state, Play(t))
    to_act = state.to_act
    if err.rule == "TRICK-1":
        owner = next((s for s, m in enumerate(state.hand.hands) if m >> t.index & 1), None)
        if owner is not None and owner != to_act:
            err = IllegalAction(
                "TURN-1",
                f"seat {to_act} is to play, and {t} is seat {owner}'s tile: played out of turn",
                seat=to_act,
                tile=t,
                allowed_tiles=err.allowed_tiles,
            )
        elif owner is None:
            err = IllegalAction(
                "TRICK-1",
                f"seat {to_act} played {t}, which no one holds now "
                "(it was dealt elsewhere, discarded or already played)",
                seat=to_act,
                tile=t,
                allowed_tiles=err.allowed_tiles,
            )
    if err.rule in ("FOLLOW-1", "FOLLOW-2") and state.rules.renege is Renege.PENALTY:
        return apply_renege(state, t)
    raise _fail(state, i, "play", j, err)


def from_record(record: JSON) -> GameState:
    """Rebuild the exact state a record describes.

    Raises :class:`~moonrules.records.values.RecordError` for a malformed record and
    :class:`RecordViolation` (an :class:`~moonrules.rules.errors.IllegalAction` with
    the clause) for one that breaks a rule.
    """
    result = replay(record)
    if result.violation is not None:
        raise RecordViolation(result.violation)
    return result.state


__all__ = ["from_record", "replay"]
