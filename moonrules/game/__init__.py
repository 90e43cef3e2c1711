"""The game: hands and games as immutable states, moved on by legal actions via the kernel.

A ``GameState`` is dealt by ``new_game``, its legal moves are ``legal_actions`` and ``apply``
returns the next state or raises an ``IllegalAction`` naming its clause; ``view`` is what one
seat may see.
"""

from __future__ import annotations

from moonrules.game.actions import (
    Action,
    Bid,
    Discard,
    GameAction,
    NameTrump,
    Pass,
    Phase,
    Play,
    call_action,
)
from moonrules.game.claims import ClaimDoesNotHold, ClaimError, ClaimUndecided
from moonrules.game.deal import check_deal, new_game, seeded_deal, with_deal
from moonrules.game.play import (
    apply,
    apply_claim,
    apply_renege,
    illegal_play_reason,
    legal_actions,
    legal_play_mask,
)
from moonrules.game.state import Claim, Contract, Deal, Game, GameState, Hand, Trick
from moonrules.game.views import PlayerView, view

__all__ = [
    "Action",
    "Bid",
    "Claim",
    "ClaimDoesNotHold",
    "ClaimError",
    "ClaimUndecided",
    "Contract",
    "Deal",
    "Discard",
    "Game",
    "GameAction",
    "GameState",
    "Hand",
    "NameTrump",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Trick",
    "apply",
    "apply_claim",
    "apply_renege",
    "call_action",
    "check_deal",
    "illegal_play_reason",
    "legal_actions",
    "legal_play_mask",
    "new_game",
    "seeded_deal",
    "view",
    "with_deal",
]
