"""A player's help at the table, computed in the bot pool's workers (never on the event
loop): a hint (what the ``strong`` bot would do, and in the auction the chances bidding
advice gives) and the check of a claim (CLAIM-1).

A hint is thought out from the seat's own :class:`~moonrules.game.views.PlayerView`
(VIEW-1) alone, as a bot's decision is: it cannot show what the seat may not see. A claim
is checked on the whole game (every hand), as the rules ask (against every legal line of
play by the others); the answer names no tile of another hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from moonrules.analysis.advise import advise
from moonrules.analysis.claim import verify_claim
from moonrules.bots import Bot
from moonrules.game import Bid, GameState, Phase, Play, PlayerView, apply, legal_actions
from moonrules.records.record import JSON

HINT_SAMPLES: Final = 24
"""Deals bidding advice samples for a hint (a few seconds on one core)."""


def hint(make: Callable[[], Bot], view: PlayerView, seed: str) -> tuple[JSON, JSON]:
    """In a worker: the action the bot ``make`` takes in ``view`` (as records write it),
    and in the auction bidding advice's chances for the seat's tiles (else ``None``):
    ``{"samples", "best": {"bid", "trump", "expected_score"}, "bids": [{"bid", "trump",
    "p_make"}, …]}``, each bid with the trump under which it is likeliest made."""
    from moonrules.table.wire import action_json

    action = make().act(view, random.Random(seed))
    if view.phase is not Phase.BIDDING:
        return action_json(action), None
    calls = [c.amount if isinstance(c, Bid) else 0 for c in view.calls]
    a = advise(
        view.hand,
        view.rules,
        calls=calls,
        samples=HINT_SAMPLES,
        min_samples=HINT_SAMPLES,
        seed=int.from_bytes(seed.encode()[:6].ljust(6, b"\0"), "big"),
    )
    bids: list[JSON] = []
    for amount in sorted({b.bid for t in a.trumps for b in t.bids}):
        best = max(
            ((t.trump, t.bid(amount)) for t in a.trumps),
            key=lambda pair: pair[1].p_make,
        )
        bids.append({"bid": amount, "trump": best[0].to_json(), "p_make": round(best[1].p_make, 3)})
    advice: JSON = {
        "samples": HINT_SAMPLES,
        "best": {
            "bid": a.best.bid,
            "trump": None if a.best.trump is None else a.best.trump.to_json(),
            "expected_score": round(a.best.expected_score, 2),
        },
        "bids": bids,
    }
    return action_json(action), advice


def claim(state: GameState, seat: int, tricks: int | None) -> tuple[bool, int, int, int, JSON]:
    """In a worker: ``seat``'s claim of all remaining tricks (or ``tricks``) checked
    against every line of play (:func:`moonrules.analysis.claim.verify_claim`):
    ``(holds, guaranteed, claimed, remaining, line)``. When it holds, ``line`` is the rest
    of the hand played out along a line the check proves: ``[[seat, tile], …]``, the
    claimant's side choosing at each of its turns a play after which the claim still holds
    (checked again), the others their first legal play (the claim holds against every one
    of them); ``[]`` when it does not hold (a defeating line would show the others' tiles).
    Raises the library's :class:`~moonrules.analysis.claim.ClaimError` for a claim that
    cannot be made (not in play, a bad count)."""
    result = verify_claim(state, seat, tricks)
    if not result.holds:
        return False, result.guaranteed, result.claimed, result.remaining, []
    rules = state.rules
    side = rules.side_of(seat)
    number = state.hand.number
    need = result.claimed
    line: list[JSON] = []
    s = state
    while s.hand.number == number and not s.is_over and s.hand.phase is Phase.PLAY:
        actor = s.to_act
        assert actor is not None
        done = len(s.hand.tricks)
        options = [a for a in legal_actions(s) if isinstance(a, Play)]
        pick = options[0]
        if rules.side_of(actor) == side and need > 0:
            for play in options:
                nxt = apply(s, play, seat=actor)
                if nxt.hand.number != number or nxt.is_over:
                    pick = play  # the hand's last tile: the claim holds, so it is won
                    break
                won = (
                    1
                    if len(nxt.hand.tricks) > done
                    and rules.side_of(nxt.hand.tricks[-1].winner) == side
                    else 0
                )
                left = need - won
                if left <= 0 or verify_claim(nxt, seat, left).holds:
                    pick = play
                    break
        nxt = apply(s, pick, seat=actor)
        if (
            nxt.hand.number == number
            and len(nxt.hand.tricks) > len(s.hand.tricks)
            and rules.side_of(nxt.hand.tricks[-1].winner) == side
        ):
            need -= 1
        line.append([actor, str(pick.tile)])
        s = nxt
    return True, result.guaranteed, result.claimed, result.remaining, line


__all__ = ["HINT_SAMPLES", "claim", "hint"]
