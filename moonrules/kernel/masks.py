"""The legal-play rule on bit masks: the one executable copy the game, solver and claims use.

:func:`legal_mask` is LEAD-1, LEAD-2 and FOLLOW-1 … FOLLOW-3 of
:func:`moonrules.rules.tricks.legal_plays` on a mask of tiles, by the tables of
:mod:`moonrules.kernel.tables`; :func:`moonrules.kernel.check.kernel_mismatches`
proves it equal to the rule function over every rule set's whole domain.
"""

from __future__ import annotations

from typing import Final

from moonrules.kernel.tables import FOLLOW_MASK, SUIT_MASK
from moonrules.rules.ruleset import FirstLead, RuleSet
from moonrules.rules.suits import TRUMP_SUIT

TRUMP_MASK: Final[tuple[int, ...]] = tuple(row[TRUMP_SUIT] for row in SUIT_MASK)
"""``TRUMP_MASK[trump]``: the trumps under ``trump`` (TRUMP-2 … TRUMP-4)."""

NO_LEAD: Final = -1
"""The ``led`` of :func:`legal_mask` for a player who leads."""


_FIRST_LEAD_TRUMP: Final = FirstLead.TRUMP


def legal_mask(held: int, led: int, trump: int, rules: RuleSet, done: int) -> int:
    """The mask of the tiles of ``held`` that may be played (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3).

    ``led``: the index of the trick's led tile, or :data:`NO_LEAD` for the leader.
    ``trump``: ``Trump.value``. ``done``: the tricks of the hand already completed (read
    only for a lead). Leading, any tile (LEAD-1); but the hand's first lead
    (``done == 0``) under ``first_lead = trump`` must be a trump if the leader holds one
    (LEAD-2). Following, a tile of the suit led if the player holds one (FOLLOW-1,
    FOLLOW-2), else any tile (FOLLOW-3).
    """
    if led >= 0:
        return held & FOLLOW_MASK[trump][led] or held
    if done == 0 and rules.first_lead is _FIRST_LEAD_TRUMP:
        return held & TRUMP_MASK[trump] or held
    return held


__all__ = ["NO_LEAD", "TRUMP_MASK", "legal_mask"]
