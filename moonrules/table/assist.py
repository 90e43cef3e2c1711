"""A player's help at the table, computed in the bot pool's workers (never on the event
loop): a hint (what the hints' bot would do, ``learned`` or ``strong``, and in the auction
the chances bidding advice gives) and the check of a claim (CLAIM-1).

A hint is thought out from the seat's own :class:`~moonrules.game.views.PlayerView`
(VIEW-1) alone, as a bot's decision is: it cannot show what the seat may not see. A claim
is settled by the rules themselves (:func:`moonrules.game.apply_claim`), on the whole game
as CLAIM-1 asks (against every legal line of play by the others); no answer to it names a
tile of another hand or a number that depends on one.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Final

from moonrules.analysis.advise import advise
from moonrules.bots import Bot, knowledge
from moonrules.bots.basic import best_trumps
from moonrules.bots.learned import LearnedBot, trained_for
from moonrules.game import (
    Bid,
    ClaimDoesNotHold,
    ClaimError,
    ClaimUndecided,
    GameState,
    Phase,
    PlayerView,
    apply_claim,
)
from moonrules.records.record import JSON
from moonrules.rules.tiles import mask_of

HINT_SAMPLES: Final = 24
"""Deals bidding advice samples for a hint (a few seconds on one core)."""

HINT_TRUMPS: Final = 3
"""Trumps the advice weighs when the bot does not say how many it weighs (``candidates``)."""


def weighed_trumps(bot: Bot, view: PlayerView) -> int:
    """How many trumps ``bot`` weighs for its calls in ``view``: its ``candidates``; for
    ``learned`` (:class:`~moonrules.bots.learned.LearnedBot`), the models'
    :data:`~moonrules.bots.auction_value.CANDIDATES` under the rules they were trained on,
    else its ``strong``'s (which calls there); :data:`HINT_TRUMPS` for a bot that does not
    say."""
    if isinstance(bot, LearnedBot):
        if not trained_for(view.rules):
            return weighed_trumps(bot.strong, view)
        # numpy, which the learned bot needs, is installed when there is one
        from moonrules.bots.auction_value import CANDIDATES

        return CANDIDATES
    return max(1, int(getattr(bot, "candidates", HINT_TRUMPS)))


def advice_seed(seed: str) -> int:
    """The seed of the advice's sample deals for a hint seeded ``seed``: from the whole
    text (each hint of a room its own deals), a whole number below 2**48."""
    return int.from_bytes(hashlib.sha256(f"moonrules/hint/{seed}".encode()).digest()[:6], "big")


def hint(make: Callable[[], Bot], view: PlayerView, seed: str) -> tuple[JSON, JSON]:
    """In a worker: the action the bot ``make`` takes in ``view`` (as records write it),
    and in the auction bidding advice's chances for the seat's tiles (else ``None``):
    ``{"samples", "best": {"bid", "trump", "expected_score"}, "bids": [{"bid", "trump",
    "p_make"}, …]}``, each bid with the trump under which it is likeliest made.

    The advice weighs the trumps the bot weighs: the best by the basic estimate
    (:func:`~moonrules.bots.basic.best_trumps`, as the bots rank them), as many as the
    bot weighs (:func:`weighed_trumps`). Weighing every trump
    the rules offer on a few deals showed, for a bid no trump makes often, whichever of
    nine noisy chances came out highest, ties to the first trump in the rules' order
    (blanks): a trump the hand is short in."""
    from moonrules.table.wire import action_json

    bot = make()
    action = bot.act(view, random.Random(seed))
    if view.phase is not Phase.BIDDING:
        return action_json(action), None
    calls = [c.amount if isinstance(c, Bid) else 0 for c in view.calls]
    ranked = best_trumps(mask_of(view.hand), view.rules, knowledge(view).unseen)
    weighed = weighed_trumps(bot, view)
    a = advise(
        view.hand,
        view.rules,
        calls=calls,
        trumps=[t for _, t in ranked[:weighed]],
        samples=HINT_SAMPLES,
        min_samples=HINT_SAMPLES,
        seed=advice_seed(seed),
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


CLAIM_BUDGET: Final = 250_000
"""Positions a claim's check may search (about half a second of a worker, and the positions it
keeps bounded to as many) before it answers "too early to check, play on"
(:class:`~moonrules.game.claims.ClaimUndecided`). A claim that holds within it is replayed
from the record within it too: the search is the same."""


def claim(
    state: GameState, seat: int, tricks: int | None, budget: int = CLAIM_BUDGET
) -> tuple[str, GameState | None, str | None, str]:
    """In a worker: ``seat``'s claim of all remaining tricks (or ``tricks``) settled by the
    rules (:func:`moonrules.game.apply_claim`, CLAIM-1), the search held to ``budget``
    positions: ``(outcome, state, rule, message)``. ``outcome`` is ``"holds"`` (``state``
    is the game after the claim: the hand ended and scored), ``"fails"`` (the others have a
    defence), ``"undecided"`` (past the budget: too early to check) or ``"refused"`` (a
    claim the rules do not allow here: ``rule`` names the clause). ``message`` is the
    library's sentence; none depends on the tiles the claimant cannot see."""
    try:
        return "holds", apply_claim(state, seat, tricks, budget=budget), "CLAIM-1", ""
    except ClaimDoesNotHold as e:
        return "fails", None, e.rule, e.message
    except ClaimUndecided as e:
        return "undecided", None, "CLAIM-1", str(e)
    except ClaimError as e:
        return "refused", None, e.rule, e.message


__all__ = [
    "CLAIM_BUDGET",
    "HINT_SAMPLES",
    "HINT_TRUMPS",
    "advice_seed",
    "claim",
    "hint",
    "weighed_trumps",
]
