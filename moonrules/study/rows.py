"""One row per (deal, seat, trump): the bidder's hand's features and its double-dummy tricks.

Deal ``k`` of a study with seed ``s`` is :func:`moonrules.game.seeded_deal`
``(rules, s, k)``: the ``k``-th hand of the game ``new_game(rules, seed=s)``
would deal, so deal ``k`` of a seed is always the same deal. For each seat as
bidder and each trump the rule set offers (TRUMP-5), the others pass, the bidder
takes the widow and discards by :func:`moonrules.analysis.advise.discard_for`
(WIDOW-1, WIDOW-2), leads (LEAD-1), and the hand is solved double-dummy.

The features describe the bidder's seven tiles **as dealt, before the widow**
(what the bidder knows when bidding), except ``trumps_after``.

>>> from moonrules.rules.ruleset import STANDARD
>>> cols = chunk_rows(STANDARD, 1, 1, 1)
>>> len(cols["deal"]) == 3 * len(STANDARD.trumps), set(cols) == set(COLUMNS)
(True, True)
"""

from __future__ import annotations

from typing import Final

from moonrules.analysis.advise import discard_for, tricks_as_bidder
from moonrules.game import seeded_deal
from moonrules.game.deal import check_hand_number, check_seed
from moonrules.kernel.tables import STRENGTH, SUIT_MASK
from moonrules.rules.contract import check_instance, check_int
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import TRUMP_SUIT
from moonrules.rules.tiles import TILES, mask_of

__all__ = ["COLUMNS", "chunk_rows", "deal_masks", "top_trumps"]

COLUMNS: Final[dict[str, str]] = {
    "deal": "the deal number k (deal k of the seed, 1 = first)",
    "seat": "the bidder's seat",
    "trump": "the trump named: Trump.value (0-6 a number, 7 doubles, 8 no-trump)",
    "trumps": "trumps among the bidder's 7 dealt tiles (0 under no-trump)",
    "doubles": "doubles among the bidder's 7 dealt tiles",
    "top_trumps": "how many of the highest trumps of the set the bidder holds in an unbroken "
    "run from the top (0 under no-trump)",
    "trumps_after": "trumps the bidder holds after taking the widow and discarding",
    "widow": "the widow's tile index (-1 without a widow)",
    "discard": "the bidder's discard's tile index (-1 without a widow)",
    "tricks": "the bidder's side's double-dummy tricks (0-7)",
}
"""The columns of a study, in order, each a small whole number."""

_DOUBLES: Final = sum(1 << t.index for t in TILES if t.is_double)


def deal_masks(rules: RuleSet, seed: int, k: int) -> tuple[int, ...]:
    """Deal ``k`` of ``seed``: each seat's tiles as masks, then the widow's index or -1."""
    d = seeded_deal(rules, seed, k)
    return (*(mask_of(h) for h in d.hands), -1 if d.widow is None else d.widow.index)


def top_trumps(hand: int, trump: int, rules: RuleSet) -> int:
    """How many of the set's highest trumps (TRUMP-2 … TRUMP-4, SUIT-3) ``hand`` holds in an
    unbroken run from the top."""
    trumps = SUIT_MASK[trump][TRUMP_SUIT] & rules.tile_set.mask
    st = STRENGTH[trump][TRUMP_SUIT]
    order = sorted((i for i in range(28) if trumps >> i & 1), key=lambda i: -st[i])
    run = 0
    for i in order:
        if not hand >> i & 1:
            break
        run += 1
    return run


def chunk_rows(rules: RuleSet, seed: int, first: int, count: int) -> dict[str, list[int]]:
    """The rows of deals ``first`` … ``first + count - 1``, as columns (:data:`COLUMNS`):
    deal by deal, seat by seat, trump by trump in the rule set's order."""
    check_instance(rules, RuleSet, "rules")
    check_seed(seed)
    check_hand_number(first, "first")
    check_int(count, "count", 0, what="a number of deals")
    cols: dict[str, list[int]] = {name: [] for name in COLUMNS}
    trumps = tuple(t.value for t in rules.trumps)
    for k in range(first, first + count):
        deal = deal_masks(rules, seed, k)
        widow = deal[rules.players]
        for seat in range(rules.players):
            hand = deal[seat]
            for t in trumps:
                trump_mask = SUIT_MASK[t][TRUMP_SUIT]
                after = hand
                discard = -1
                if widow >= 0:
                    eight = hand | 1 << widow
                    discard = discard_for(eight, t, rules)
                    after = eight & ~(1 << discard)
                values = (
                    k,
                    seat,
                    t,
                    (hand & trump_mask).bit_count(),
                    (hand & _DOUBLES).bit_count(),
                    top_trumps(hand, t, rules),
                    (after & trump_mask).bit_count(),
                    widow,
                    discard,
                    tricks_as_bidder(rules, deal, seat, t),
                )
                for name, v in zip(COLUMNS, values, strict=True):
                    cols[name].append(v)
    return cols
