"""The game's moves: the legal actions of a state, and the state after an action.

:func:`new_game` deals the first hand; :func:`legal_actions` lists what the
player to act may do; :func:`apply` returns the next state or raises
:class:`~moonrules.rules.errors.IllegalAction` naming the clause broken. A state holds
everything: the rule set, the seed its deals come from, the scores, the hands
already played and the hand in progress. Nothing is mutated, nothing is global.

>>> from moonrules import new_game, legal_actions, apply
>>> import random
>>> s = new_game(seed=7)
>>> rng = random.Random(1)
>>> for _ in range(10_000):   # random players can drift below zero for a long time
...     if s.is_over:
...         break
...     s = apply(s, rng.choice(legal_actions(s)))
>>> s.is_over, s.winner is not None and max(s.scores) >= 21 or s.hand.bid == 21
(True, True)
"""

from __future__ import annotations

from typing import Final

import attrs

from moonrules.game.actions import (
    DISCARD_ACTIONS,
    PLAY_ACTIONS,
    TRUMP_ACTIONS,
    Action,
    Bid,
    Discard,
    NameTrump,
    Pass,
    Phase,
    Play,
    call_action,
)
from moonrules.game.claims import ClaimDoesNotHold, ClaimError, claim_holds
from moonrules.game.deal import next_hand
from moonrules.game.state import (
    TRUMP_BY_VALUE,
    Claim,
    Contract,
    Game,
    GameState,
    Hand,
    Trick,
    make_contract,
    make_game,
    make_hand,
    make_state,
    make_trick,
    seat_to_act,
    with_hand,
)
from moonrules.kernel.actions import mask_items
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.memo import auction_end, calls_after, offered, per_calls, per_trump, scored
from moonrules.kernel.tables import LED_SUIT, SUIT_MASK, winner_index
from moonrules.rules.auction import PASS, check_call, legal_calls
from moonrules.rules.errors import ArgumentError, IllegalAction, OutOfTurn, wrong_type
from moonrules.rules.ruleset import Renege, WidowTiming
from moonrules.rules.scoring import decided_winner, game_winner, score_hand
from moonrules.rules.suits import TRUMP_SUIT, Trump, suit_name
from moonrules.rules.tiles import TILES, Tile, tiles_of

# The phases as module constants: the hot paths compare against these.
_BIDDING: Final = Phase.BIDDING
_DISCARDING: Final = Phase.DISCARD
_NAMING: Final = Phase.TRUMP
_PLAYING: Final = Phase.PLAY
_DONE: Final = Phase.DONE

# ---------------------------------------------------------------------------
# Legal actions

_plays: Final = mask_items(PLAY_ACTIONS)
"""The Play actions of the tiles of a mask, in tile order."""
_discards: Final = mask_items(DISCARD_ACTIONS)
"""The Discard actions of the tiles of a mask, in tile order."""
_call_actions: Final = per_calls(call_action)
"""The actions of the legal calls after a tuple of calls (memoised)."""
_trump_actions: Final = per_trump(TRUMP_ACTIONS.__getitem__)
"""The NameTrump actions of the trumps the rules offer (memoised)."""
_TILE_AT: Final = TILES.__getitem__


def legal_play_mask(state: GameState) -> int:
    """Mask of the tiles the player to act may play (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3).

    ``ValueError`` for a state that is not in the play phase (no tile is played then).
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    h = state.hand
    if h.phase is not _PLAYING or state.game.winner is not None:
        raise ArgumentError(
            f"state: tiles are played in the play phase, not the {h.phase.value} phase"
        )
    trick = h.trick
    return legal_mask(
        h.hands[(h.leader + len(trick)) % len(h.hands)],
        trick[0] if trick else NO_LEAD,
        h.contract.trump,
        state.game.rules,
        len(h.tricks),
    )


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The actions the player to act may take, sorted; ``()`` once the game is over.

    Never empty while the game goes on.
    """
    try:
        game = state.game
    except AttributeError:
        raise wrong_type("state", "a GameState", state) from None
    if game.winner is not None:
        return ()
    h = state.hand
    p = h.phase
    if p is _PLAYING:  # legal_play_mask, inline on the hot path
        trick = h.trick
        return _plays(
            legal_mask(
                h.hands[(h.leader + len(trick)) % len(h.hands)],
                trick[0] if trick else NO_LEAD,
                h.contract.trump,
                state.game.rules,
                len(h.tricks),
            )
        )
    if p is _BIDDING:
        return _call_actions(state.game.rules, h.contract.calls)
    if p is _DISCARDING:
        return _discards(h.hands[h.contract.bidder])
    if p is _NAMING:
        return _trump_actions(state.game.rules)
    return ()  # pragma: no cover - a DONE hand never stays current in a live game


# ---------------------------------------------------------------------------
# Applying actions


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after the player to act takes ``action``.

    With ``seat``, the action is refused unless that seat is to act (TURN-1).
    Raises :class:`~moonrules.rules.errors.IllegalAction` (with the clause ID) for any
    action the rules forbid; the state given is never changed.
    """
    try:
        game = state.game
    except AttributeError:
        raise wrong_type("state", "a GameState", state) from None
    if seat is not None and type(seat) is not int:
        raise wrong_type("seat", "a seat number or None", seat)
    if game.winner is not None:
        _check_action(action)
        raise IllegalAction("END-1", "the game is over; no more actions")
    if seat is not None and seat != seat_to_act(state):
        _check_action(action)
        raise OutOfTurn(
            "TURN-1", f"it is seat {seat_to_act(state)}'s turn, not seat {seat}'s", seat=seat
        )
    h = state.hand
    p = h.phase
    # isinstance, not ``match``: a class pattern costs more on this path, the game's hottest.
    if isinstance(action, Play):
        if p is _PLAYING:
            return _play(state, h, action.tile)
    elif p is _BIDDING:
        if isinstance(action, Pass):
            return _call(state, PASS)
        if isinstance(action, Bid):
            amount = action.amount
            if type(amount) is not int or amount <= PASS:
                raise IllegalAction(
                    "BID-4",
                    f"{amount!r} is not a bid; to pass, pass",
                    seat=seat_to_act(state),
                    call=amount if type(amount) is int else None,
                    allowed_calls=legal_calls(state.auction),
                )
            return _call(state, amount)
    elif isinstance(action, Discard):
        if p is _DISCARDING:
            return _discard(state, action.tile)
    elif isinstance(action, NameTrump) and p is _NAMING:
        return _name_trump(state, action.trump)
    _check_action(action)
    wanted = {
        Phase.BIDDING: "a call (pass or bid)",
        Phase.DISCARD: "the bidder's discard",
        Phase.TRUMP: "the bidder naming trump",
        Phase.PLAY: "a tile played to the trick",
    }[p]
    raise OutOfTurn(
        "TURN-1",
        f"the game waits for {wanted} by seat {seat_to_act(state)}, not {action}",
        seat=seat_to_act(state),
    )


def _check_action(action: object) -> None:
    """:class:`TypeError` naming ``action`` unless it is an :class:`Action`."""
    if not isinstance(action, Action):
        raise wrong_type("action", "an Action (Pass, Bid, Discard, NameTrump or Play)", action)


def _call(state: GameState, call: int) -> GameState:
    """BID-2 … BID-8 (the auction's rules are those of :mod:`moonrules.rules.auction`)."""
    h = state.hand
    c = h.contract
    rules = state.game.rules
    if call not in calls_after(rules, c.calls):
        check_call(state.auction, call)
        raise AssertionError(f"check_call let {call!r} through")  # pragma: no cover
    calls = (*c.calls, call)
    over, winner, bid = auction_end(rules, calls, c.first_bidder)
    if not over:
        return with_hand(state, _settled(h, _BIDDING, _amended(c, calls=calls)))
    if winner < 0:
        done = _settled(h, _DONE, _amended(c, calls=calls))
        return next_hand(state, done, state.game.scores)
    if rules.has_widow and rules.widow_timing is WidowTiming.BEFORE_TRUMP:
        hands = list(h.hands)
        hands[winner] |= 1 << c.widow
        contract = _amended(c, calls=calls, bidder=winner, bid=bid, widow_taken=True)
        return with_hand(state, _settled(h, _DISCARDING, contract, tuple(hands)))
    contract = _amended(c, calls=calls, bidder=winner, bid=bid)
    return with_hand(state, _settled(h, _NAMING, contract))


def _amended(
    c: Contract,
    *,
    calls: tuple[int, ...] | None = None,
    bidder: int | None = None,
    bid: int | None = None,
    discard: int | None = None,
    trump: int | None = None,
    widow_taken: bool | None = None,
) -> Contract:
    """``c`` with the fields given changed (the fast ``attrs.evolve``)."""
    return make_contract(
        c.number,
        c.first_bidder,
        c.deal,
        c.widow,
        c.calls if calls is None else calls,
        c.bidder if bidder is None else bidder,
        c.bid if bid is None else bid,
        c.discard if discard is None else discard,
        c.trump if trump is None else trump,
        c.widow_taken if widow_taken is None else widow_taken,
    )


def _settled(
    h: Hand,
    phase: Phase,
    contract: Contract,
    hands: tuple[int, ...] | None = None,
    leader: int | None = None,
) -> Hand:
    """``h`` with a new phase and contract, and changes to its hands or leader."""
    return make_hand(
        contract,
        h.hands if hands is None else hands,
        phase,
        h.leader if leader is None else leader,
        h.trick,
        h.tricks,
        h.tricks_won,
        h.deltas,
        h.renege,
        h.claim,
    )


def _discard(state: GameState, tile: Tile) -> GameState:
    """WIDOW-1, WIDOW-2: the bidder discards one tile of the eight."""
    h = state.hand
    c = h.contract
    bit = 1 << _index_of(tile)
    if not h.hands[c.bidder] & bit:
        raise IllegalAction(
            "WIDOW-1",
            f"seat {c.bidder} cannot discard {tile}: it is not in their hand",
            seat=c.bidder,
            tile=tile,
            allowed_tiles=tuple(reversed(tiles_of(h.hands[c.bidder]))),
        )
    hands = list(h.hands)
    hands[c.bidder] &= ~bit
    contract = _amended(c, discard=tile._index)
    if state.game.rules.widow_timing is WidowTiming.AFTER_TRUMP:
        return with_hand(state, _settled(h, _PLAYING, contract, tuple(hands), c.bidder))
    return with_hand(state, _settled(h, _NAMING, contract, tuple(hands), -1))


def _name_trump(state: GameState, trump: Trump) -> GameState:
    """TRUMP-1, TRUMP-5, WIDOW-2."""
    rules = state.game.rules
    if trump not in offered(rules):
        names = ", ".join(str(t) for t in rules.trumps)
        raise IllegalAction(
            "TRUMP-5",
            f"trump {trump} is not offered by these rules; choose one of {names}",
            seat=state.hand.bidder,
            trump=trump,
            allowed_trumps=rules.trumps,
        )
    h = state.hand
    c = h.contract
    if rules.has_widow and rules.widow_timing is WidowTiming.AFTER_TRUMP:
        hands = list(h.hands)
        hands[c.bidder] |= 1 << c.widow
        contract = _amended(c, trump=trump.value, widow_taken=True)
        return with_hand(state, _settled(h, _DISCARDING, contract, tuple(hands)))
    contract = _amended(c, trump=trump.value)
    return with_hand(state, _settled(h, _PLAYING, contract, leader=c.bidder))


def _index_of(tile: Tile) -> int:
    """The index of ``tile``; :class:`TypeError` for anything that is not a tile."""
    if type(tile) is not Tile:
        raise wrong_type("tile", "a Tile (Tile.parse reads '6-4')", tile)
    return tile._index


def illegal_play_reason(state: GameState, tile: Tile) -> IllegalAction | None:
    """Why the player to act may not play ``tile`` now, or ``None`` if they may.

    The error names the clause (TRICK-1, LEAD-2, FOLLOW-1, FOLLOW-2) and says
    what was allowed instead.
    """
    if not isinstance(state, GameState):
        raise wrong_type("state", "a GameState", state)
    bit = 1 << _index_of(tile)
    if state.hand.phase is not Phase.PLAY or state.game.winner is not None:
        raise OutOfTurn("TURN-1", "tiles are played only while a hand is being played")
    h = state.hand
    n = state.game.rules.players
    seat = (h.leader + len(h.trick)) % n
    hand = h.hands[seat]
    legal = legal_play_mask(state)
    if hand & bit and legal & bit:
        return None
    legal_tiles = tuple(reversed(tiles_of(legal)))
    if not hand & bit:
        return IllegalAction(
            "TRICK-1",
            f"seat {seat} does not hold {tile}",
            seat=seat,
            tile=tile,
            allowed_tiles=legal_tiles,
        )
    allowed = ", ".join(str(t) for t in legal_tiles)
    one = len(legal_tiles) == 1
    trump = TRUMP_BY_VALUE[h.trump]

    def illegal(rule: str, reason: str, kind: str) -> IllegalAction:
        return IllegalAction(
            rule,
            f"{reason} Legal {kind} were: {allowed}.",
            reason=reason,
            seat=seat,
            tile=tile,
            allowed_tiles=legal_tiles,
        )

    if not h.trick:
        return illegal(
            "LEAD-2",
            f"seat {seat} led {tile} while holding a trump; the first lead of the hand must be "
            "a trump.",
            "leads",
        )
    led = TILES[h.trick[0]]
    suit = LED_SUIT[h.trump][h.trick[0]]
    if suit == TRUMP_SUIT:
        return illegal(
            "FOLLOW-1",
            f"seat {seat} played {tile} on a trump lead ({led}, trump {trump}) while holding "
            f"{allowed}, which {'is a trump' if one else 'are trumps'}.",
            "plays",
        )
    note = ""
    if SUIT_MASK[h.trump][TRUMP_SUIT] & bit and tile.has(suit):
        note = f" ({tile} is a trump, and a trump never follows another suit)"
    return illegal(
        "FOLLOW-2",
        f"seat {seat} played {tile} on a {suit_name(suit)} lead ({led}) while holding "
        f"{allowed}, which follow{'s' if one else ''} suit {suit}{note}.",
        "plays",
    )


def apply_renege(state: GameState, tile: Tile) -> GameState:
    """RENEGE-2: the player to act reneges with ``tile``; the hand ends and is scored.

    Only under ``renege = penalty`` rules, and only for a play that breaks
    FOLLOW-1 or FOLLOW-2 (a tile the player holds). If the bidder's side
    reneged, the bidder is set; if a defender reneged, the bidder makes the bid.
    The other sides score the tricks they took before the renege.
    """
    if not isinstance(state, GameState):
        raise wrong_type("state", "a GameState", state)
    _index_of(tile)
    if state.game.rules.renege is not Renege.PENALTY:
        raise IllegalAction(
            "RENEGE-1", "these rules stop at a renege; no penalty is scored", tile=tile
        )
    if state.game.winner is not None or state.hand.phase is not Phase.PLAY:
        raise OutOfTurn("TURN-1", "a renege can only happen while tiles are being played")
    err = illegal_play_reason(state, tile)
    if err is None or err.rule not in ("FOLLOW-1", "FOLLOW-2"):
        raise IllegalAction(
            "RENEGE-2",
            f"playing {tile} is {'legal' if err is None else 'not a renege'} here",
            seat=state.to_act,
            tile=tile,
        )
    h = state.hand
    rules = state.game.rules
    seat = (h.leader + len(h.trick)) % rules.players
    hands = list(h.hands)
    hands[seat] &= ~(1 << tile.index)
    made = rules.side_of(seat) != rules.side_of(h.bidder)
    result = score_hand(rules, h.bidder, h.bid, h.tricks_won, made=made)
    scores = tuple(s + d for s, d in zip(state.game.scores, result.deltas, strict=True))
    hand = attrs.evolve(
        h,
        hands=tuple(hands),
        trick=(*h.trick, tile.index),
        phase=Phase.DONE,
        deltas=result.deltas,
        renege=seat,
    )
    bidder_side = rules.side_of(h.bidder)
    winner = bidder_side if result.game_won else game_winner(rules, scores, bidder_side)
    if winner is not None:
        g = state.game
        return GameState(
            Game(rules, g.seed, scores, g.history, winner, g.seed_given, None, g.source), hand
        )
    return next_hand(state, hand, scores)


def apply_claim(
    state: GameState,
    seat: int,
    tricks: int | None = None,
    *,
    budget: int | None = None,
) -> GameState:
    """CLAIM-1: ``seat``, to play, lays down their tiles and claims all the remaining tricks
    (``tricks=None``) or ``tricks`` of them; the state after the claim is settled.

    The claim holds only if the claimant's side, choosing its plays, wins at least the
    claimed number of the remaining tricks (the one in progress included) against every
    legal line of play by the others (:mod:`moonrules.game.claims`). A claim that holds
    ends the hand: the claimant's side is credited with the claimed tricks and, with four
    players, the other team with the rest (counted to the claimant and to the seat on the
    claimant's left); the hand is scored as if those tricks had been played (SCORE-1 …
    SCORE-6) and the game goes on as after any hand. With three players a claim is of all
    the remaining tricks: each other player scores for themselves, so tricks not claimed
    would have no one to go to.

    Raises :class:`~moonrules.game.claims.ClaimError` (an
    :class:`~moonrules.rules.errors.IllegalAction`) for a claim that cannot be made (not
    in play, not the seat's turn, a count the rules do not allow),
    :class:`~moonrules.game.claims.ClaimDoesNotHold` for a claim the others can defeat (its
    message says nothing of the tiles the claimant cannot see), and
    :class:`~moonrules.game.claims.ClaimUndecided` when the search passes ``budget``
    positions (``None``: no limit) before it knows.
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    if type(seat) is not int:
        raise wrong_type("seat", "a seat number", seat)
    if tricks is not None and type(tricks) is not int:
        raise wrong_type("tricks", "a number of tricks, or None for all of them", tricks)
    if budget is not None and (type(budget) is not int or budget < 1):
        raise wrong_type("budget", "a number of positions from 1, or None", budget)
    rules = state.game.rules
    n = rules.players
    if not 0 <= seat < n:
        raise ClaimError("SEAT-1", f"seats are numbered 0 to {n - 1}; there is no seat {seat}")
    h = state.hand
    if state.game.winner is not None or h.phase is not _PLAYING:
        what = "the game is over" if state.game.winner is not None else f"the {h.phase.value}"
        raise ClaimError(
            "CLAIM-1", f"a claim is made during the play of a hand, not now ({what})", seat=seat
        )
    to_act = (h.leader + len(h.trick)) % n
    if seat != to_act:
        raise ClaimError(
            "TURN-1",
            f"a claim is made on one's turn to play: it is seat {to_act}'s turn",
            seat=seat,
        )
    remaining = 7 - len(h.tricks)
    claimed = remaining if tricks is None else tricks
    if not 1 <= claimed <= remaining:
        raise ClaimError(
            "CLAIM-1",
            f"a claim is of 1 to {remaining} tricks (the tricks left), not {claimed}",
            seat=seat,
        )
    if not rules.partnership and claimed != remaining:
        raise ClaimError(
            "CLAIM-1",
            f"with three players a claim is of all the remaining tricks ({remaining}), "
            f"not {claimed}: the tricks not claimed would have no one side to go to",
            seat=seat,
        )
    if not claim_holds(state, seat, claimed, budget):
        wanted = (
            "all the remaining tricks"
            if claimed == remaining
            else (f"{claimed} of the {remaining} remaining tricks")
        )
        side = "their team" if rules.partnership else "they"
        raise ClaimDoesNotHold(
            "CLAIM-1",
            f"seat {seat}'s claim of {wanted} does not hold: the others have a line of play "
            f"against which {side} would win fewer; play goes on",
            seat=seat,
        )
    return _settle_claim(state, h, seat, claimed, remaining)


def _settle_claim(state: GameState, h: Hand, seat: int, claimed: int, remaining: int) -> GameState:
    """A claim that holds ends the hand (CLAIM-1): the tricks credited, the hand scored."""
    rules = state.game.rules
    counts = list(h.tricks_won)
    counts[seat] += claimed
    if remaining > claimed:  # four players: the rest to the other team (the claimant's left)
        counts[(seat + 1) % rules.players] += remaining - claimed
    return _hand_over(
        state, h.hands, h.leader, h.trick, h.tricks, tuple(counts), Claim(seat, claimed)
    )


def _play(state: GameState, h: Hand, tile: Tile) -> GameState:
    """TRICK-1 … TRICK-3, FOLLOW-1 … FOLLOW-3, then scoring at the end of the hand.

    ``h`` is ``state.hand``. This is the game's hot path: it builds the next
    values positionally and runs on the tables of :mod:`moonrules.kernel.tables`.
    """
    try:  # _index_of, inline on the hot path
        index = tile._index
    except AttributeError:
        raise wrong_type("tile", "a Tile (Tile.parse reads '6-4')", tile) from None
    bit = 1 << index
    trick = h.trick
    n = len(h.hands)
    leader = h.leader
    seat = (leader + len(trick)) % n
    held = h.hands[seat]
    led = trick[0] if trick else NO_LEAD
    if not legal_mask(held, led, h.contract.trump, state.game.rules, len(h.tricks)) & bit:
        err = illegal_play_reason(state, tile)
        assert err is not None
        raise err
    after = list(h.hands)
    after[seat] = held ^ bit
    hands = tuple(after)
    trick += (index,)
    if len(trick) < n:
        hand = make_hand(
            h.contract, hands, _PLAYING, leader, trick, h.tricks, h.tricks_won, None, -1, None
        )
        return make_state(state.game, hand)
    c = h.contract
    win = (leader + winner_index(trick, c.trump)) % n
    counts = list(h.tricks_won)
    counts[win] += 1
    won = tuple(counts)
    done = make_trick(leader, tuple(map(_TILE_AT, trick)), win)
    tricks = h.tricks + (done,)  # noqa: RUF005 - faster than unpacking
    if len(tricks) < 7:
        hand = make_hand(c, hands, _PLAYING, win, (), tricks, won, None, -1, None)
        return make_state(state.game, hand)
    return _hand_over(state, hands, win, (), tricks, won, None)


def _hand_over(
    state: GameState,
    hands: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
    tricks: tuple[Trick, ...],
    won: tuple[int, ...],
    claim: Claim | None,
) -> GameState:
    """The hand of ``state`` over, with ``won`` tricks per seat (played, or given by a
    ``claim``): scored (SCORE-1 … SCORE-6), then the game won (END-1 … END-3, SCORE-4) or
    the next hand dealt (BID-1)."""
    g = state.game
    rules = g.rules
    c = state.hand.contract
    result = scored(rules, c.bidder, c.bid, won)
    scores = tuple([s + d for s, d in zip(g.scores, result.deltas, strict=True)])
    hand = make_hand(c, hands, _DONE, leader, trick, tricks, won, result.deltas, -1, claim)
    bidder_side = rules.side_of(c.bidder)
    # decided_winner: game_winner without its checks of arguments built here
    winner = bidder_side if result.game_won else decided_winner(rules, scores, bidder_side)
    if winner is not None:
        return make_state(
            make_game(rules, g.seed, scores, g.history, winner, g.seed_given, None, g.source),
            hand,
        )
    return next_hand(state, hand, scores)


__all__ = [
    "apply",
    "apply_claim",
    "apply_renege",
    "illegal_play_reason",
    "legal_actions",
    "legal_play_mask",
]
