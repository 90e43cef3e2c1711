"""Checks over samples of unbounded domains: seeded deals and the random first bidder.

These are deterministic (fixed seeds, fixed edits), so a failure repeats; they are *tested*, not
proved, because the seed and a supplied deal range over domains no enumeration covers.
"""

from __future__ import annotations

from moonrules.game import Deal, check_deal, new_game, seeded_deal
from moonrules.rules.errors import IllegalDeal
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.tiles import TILES, Tile, TileSet
from moonrules.verification.core import Outcome, require

_RULES = (
    RuleSet(),
    RuleSet(players=4, tile_set=TileSet.DOUBLE_SIX_28),
    RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21),
)


def _valid(rules: RuleSet, hands: list[list[Tile]], widow: Tile | None) -> bool:
    """DEAL-1 … DEAL-3 restated."""
    every = [t for h in hands for t in h] + ([] if widow is None else [widow])
    return (
        len(hands) == rules.players
        and all(len(h) == 7 for h in hands)
        and len(set(every)) == len(every)
        and set(every) <= set(rules.tile_set.tiles)
        and (widow is not None) == rules.has_widow
    )


def _edits(rules: RuleSet, deal: Deal) -> list[tuple[list[list[Tile]], Tile | None]]:
    """Every one-tile edit of ``deal``: each place given each tile, a tile removed, the widow
    dropped or (without one) added."""
    hands = [list(h) for h in deal.hands]
    out: list[tuple[list[list[Tile]], Tile | None]] = []
    for s, h in enumerate(hands):
        for i in range(len(h)):
            for t in TILES:
                edited = [list(x) for x in hands]
                edited[s][i] = t
                out.append((edited, deal.widow))
            fewer = [list(x) for x in hands]
            del fewer[s][i]
            out.append((fewer, deal.widow))
    for t in TILES:
        out.append((hands, t))
    out.append((hands, None))
    out.append((hands[:-1], deal.widow))
    return out


def check_deals(quick: bool) -> Outcome:
    """DEAL-1, DEAL-2 on seeded deals; DEAL-3 on every one-tile edit of some of them."""
    cases = 0
    for rules in _RULES:
        for seed in range(30 if quick else 300):
            for number in (1, 2, 3):
                cases += 1
                deal = seeded_deal(rules, seed, number)
                hands = [list(h) for h in deal.hands]
                require(
                    _valid(rules, hands, deal.widow)
                    and {t for h in hands for t in h} | ({deal.widow} if deal.widow else set())
                    == set(rules.tile_set.tiles),
                    f"seeded deal {seed}/{number} under {rules.tile_set.value}: {deal}",
                )
                if seed >= (2 if quick else 10) or number > 1:
                    continue
                for edited, widow in _edits(rules, deal):
                    cases += 1
                    ok = _valid(rules, edited, widow)
                    d = Deal(tuple(tuple(h) for h in edited), widow)
                    try:
                        check_deal(rules, d)
                    except IllegalDeal as e:
                        require(not ok, f"check_deal refused a valid deal {d}: {e}")
                        require(e.rule in ("DEAL-1", "DEAL-2", "DEAL-3"), f"{d}: {e.rule}")
                        continue
                    require(ok, f"check_deal accepted {d}")
    return Outcome(cases, "deals checked")


def check_first_bidder(quick: bool) -> Outcome:
    """BID-1: the seeded first bidder is a seat, and every seat comes up."""
    cases = 0
    for players in (3, 4):
        rules = _RULES[0] if players == 3 else _RULES[1]
        seen = set()
        for seed in range(60 if quick else 600):
            cases += 1
            first = new_game(rules, seed).first_bidder
            require(0 <= first < players, f"seed {seed}: first bidder {first}")
            seen.add(first)
        require(seen == set(range(players)), f"{players} players: first bidders {sorted(seen)}")
    return Outcome(cases, "games dealt")


__all__ = ["check_deals", "check_first_bidder"]
