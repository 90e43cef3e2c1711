"""Dealing: the seeded shuffle, supplied deals and their check, new games (DEAL-1 … DEAL-3).

:func:`new_game` deals a game's first hand, :func:`seeded_deal` the deal of any
hand of a seeded game, :func:`with_deal` replaces the deal of the hand in progress,
and :func:`check_deal` refuses a deal that does not divide the rule set's tiles.
"""

from __future__ import annotations

import random
from typing import Final

from moonrules.game.actions import Phase
from moonrules.game.shuffle import dealt_masks, shuffled
from moonrules.game.shuffle import first_bidder as seeded_first_bidder
from moonrules.game.state import (
    Deal,
    GameState,
    Hand,
    make_contract,
    make_game,
    make_hand,
    make_state,
    with_hand,
)
from moonrules.rules.errors import ArgumentError, IllegalDeal, OutOfTurn, shown, wrong_type
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.tiles import TILES, Tile, mask_of


def _check_types(rules: RuleSet, deal: Deal) -> None:
    if not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet", rules)
    if not isinstance(deal, Deal):
        raise wrong_type("deal", "a Deal (Deal.of reads tile texts)", deal)
    if not isinstance(deal.hands, tuple) or not all(isinstance(h, tuple) for h in deal.hands):
        raise wrong_type("deal.hands", "a tuple of tuples of tiles", deal.hands)
    for seat, hand in enumerate(deal.hands):
        for t in hand:
            if type(t) is not Tile:
                raise wrong_type(f"deal.hands[{seat}]", "Tile values (Deal.of reads text)", t)
    if deal.widow is not None and type(deal.widow) is not Tile:
        raise wrong_type("deal.widow", "a Tile or None", deal.widow)


def check_deal(rules: RuleSet, deal: Deal) -> None:
    """DEAL-3: the deal must divide the rule set's tiles exactly; raise :class:`IllegalDeal`.

    :class:`TypeError` names the argument that is not a rule set or a deal of tiles.
    """
    _check_types(rules, deal)
    if len(deal.hands) != rules.players:
        raise IllegalDeal(
            "DEAL-3", f"a deal has one hand per player ({rules.players}), not {len(deal.hands)}"
        )
    seen: dict[Tile, str] = {}
    allowed = rules.tile_set.mask
    places: list[tuple[int | None, tuple[Tile, ...]]] = list(enumerate(deal.hands))
    if deal.widow is not None:
        places.append((None, (deal.widow,)))
    for seat, ts in places:
        where = "the widow" if seat is None else f"seat {seat}"
        if seat is not None and len(ts) != 7:
            raise IllegalDeal(
                "DEAL-1", f"{where} was dealt {len(ts)} tiles; each player gets 7", seat=seat
            )
        for t in ts:
            if not allowed >> t.index & 1:
                raise IllegalDeal(
                    "DEAL-3",
                    f"{t} ({where}) is not in the {rules.tile_set.value} set",
                    seat=seat,
                    tile=t,
                )
            if t in seen:
                twice = (
                    f"twice to {where}"
                    if seen[t] == where
                    else f"twice: to {seen[t]} and to {where}"
                )
                raise IllegalDeal("DEAL-3", f"{t} was dealt {twice}", seat=seat, tile=t)
            seen[t] = where
    if rules.has_widow and deal.widow is None:
        raise IllegalDeal("DEAL-2", "these rules have a widow, and the deal names none")
    if not rules.has_widow and deal.widow is not None:
        raise IllegalDeal("DEAL-2", f"these rules have no widow, and the deal names {deal.widow}")


SEED_LIMIT: Final = 10**4300
"""Seeds are whole numbers below this in size (at most 4,300 digits: the deals are drawn
from the seed written as decimal text, which Python writes up to that length)."""


def check_seed(seed: object, parameter: str = "seed") -> None:
    """``TypeError`` unless ``seed`` is an ``int``; ``ValueError`` if it has over 4,300 digits."""
    if type(seed) is not int:
        raise wrong_type(parameter, "a whole number", seed)
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ArgumentError(
            f"{parameter}: a whole number of at most 4,300 digits, not {seed.bit_length():,} bits"
        )


def check_hand_number(number: object, parameter: str = "hand_number") -> None:
    """``TypeError`` unless ``number`` is an ``int``; ``ValueError`` unless it is 1 or more
    (the first hand is 1) and at most 4,300 digits long, as a seed."""
    if type(number) is not int:
        raise wrong_type(parameter, "a hand number (the first hand is 1)", number)
    if not 1 <= number < SEED_LIMIT:
        raise ArgumentError(
            f"{parameter}: hands are numbered from 1 (with at most 4,300 digits), "
            f"not {shown(number)}"
        )


def seeded_deal(rules: RuleSet, seed: int, hand_number: int) -> Deal:
    """The deal of hand ``hand_number`` (1 = first) of the game with ``seed`` (DEAL-1, DEAL-2).

    The tiles, in tile order, are shuffled by a Fisher-Yates shuffle drawing
    from the SHA-512 byte stream of the game's seed and the hand number
    (:mod:`moonrules.game.shuffle` says how, as any language can reproduce it); seat 0
    gets the first 7, seat 1 the next 7, and so on, and the widow is the last tile. The
    deal is the same on every machine and Python version.
    """
    if not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet", rules)
    check_seed(seed)
    check_hand_number(hand_number)
    pool = shuffled(rules, seed, hand_number)
    hands = tuple(
        tuple(TILES[i] for i in sorted(pool[7 * s : 7 * s + 7])) for s in range(rules.players)
    )
    widow = TILES[pool[-1]] if rules.has_widow else None
    return Deal(hands, widow)


def _seeded_hand(rules: RuleSet, seed: int, number: int, first_bidder: int) -> Hand:
    """The hand :func:`seeded_deal` deals, built straight from tile indices."""
    masks, widow = dealt_masks(rules, seed, number)
    return _dealt(rules, number, first_bidder, tuple(masks), widow)


def _new_hand(rules: RuleSet, number: int, first_bidder: int, deal: Deal) -> Hand:
    masks = tuple(mask_of(h) for h in deal.hands)
    return _dealt(
        rules, number, first_bidder, masks, -1 if deal.widow is None else deal.widow.index
    )


def _dealt(
    rules: RuleSet, number: int, first_bidder: int, masks: tuple[int, ...], widow: int
) -> Hand:
    """A new hand, waiting for its first call: ``masks`` per seat, the widow's index or -1.

    Built by the positional builders (the arguments are the dealer's own, checked)."""
    contract = make_contract(number, first_bidder, masks, widow, (), -1, 0, -1, -1, False)
    return make_hand(
        contract, masks, Phase.BIDDING, -1, (), (), (0,) * rules.players, None, -1, None
    )


def game_start(rules: object, seed: object, first_bidder: object) -> tuple[RuleSet, int, int]:
    """:func:`new_game`'s rule set, seed and first bidder, checked (each error naming its
    argument): a fresh random seed for ``None``, BID-1's seeded draw for no first bidder.
    The fast engine starts its games from these too."""
    r = as_rules(rules)  # type: ignore[arg-type]  # as_rules names a wrong type itself
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    check_seed(seed)
    assert isinstance(seed, int)
    if first_bidder is None:
        return r, seed, seeded_first_bidder(seed, r.players)
    if type(first_bidder) is not int:
        raise wrong_type("first_bidder", "a seat number or None", first_bidder)
    if not 0 <= first_bidder < r.players:
        raise OutOfTurn(
            "SEAT-1",
            f"first_bidder: seats are numbered 0 to {r.players - 1}, not {shown(first_bidder)}",
        )
    return r, seed, first_bidder


def new_game(
    rules: RuleSet | str | None = None,
    seed: int | None = None,
    *,
    first_bidder: int | None = None,
    deal: Deal | None = None,
) -> GameState:
    """A new game, its first hand dealt and waiting for the first call.

    ``rules``: a :class:`~moonrules.rules.ruleset.RuleSet` or a preset name (default
    ``"standard"``). ``seed``: the game's seed; the same seed gives the same
    game (a fresh random seed when ``None``, kept in ``state.game.seed``).
    ``first_bidder``: default chosen at random from the seed (BID-1).
    ``deal``: the first hand's deal, instead of the seeded shuffle.
    """
    r, seed, first_bidder = game_start(rules, seed, first_bidder)
    if deal is not None and not isinstance(deal, Deal):
        raise wrong_type("deal", "a Deal (Deal.of reads tile texts) or None", deal)
    if deal is None:
        hand = _seeded_hand(r, seed, 1, first_bidder)
    else:
        check_deal(r, deal)
        hand = _new_hand(r, 1, first_bidder, deal)
    return make_state(make_game(r, seed, (0,) * r.sides, (), None, True, None, None), hand)


def with_deal(state: GameState, deal: Deal) -> GameState:
    """The state with the hand in progress dealt from ``deal`` instead (the caller's shuffle).

    Only before the hand's first call; raises :class:`IllegalDeal` (DEAL-3) for a
    deal that does not divide the rule set's tiles exactly.
    """
    if not isinstance(state, GameState):
        raise wrong_type("state", "a GameState", state)
    _check_types(state.game.rules, deal)
    h = state.hand
    if state.is_over or h.phase is not Phase.BIDDING or h.calls:
        raise OutOfTurn("TURN-1", "a hand can be redealt only before its first call")
    check_deal(state.game.rules, deal)
    return with_hand(state, _new_hand(state.game.rules, h.number, h.first_bidder, deal))


def next_hand(state: GameState, done: Hand, scores: tuple[int, ...]) -> GameState:
    """BID-1, BID-7: deal the next hand from the seed; the first bid moves one seat on.

    ``done`` is the hand that ended, ``scores`` the scores after it.
    """
    g = state.game
    rules = g.rules
    number = done.contract.number + 1
    first = (done.contract.first_bidder + 1) % rules.players
    hand = _seeded_hand(rules, g.seed, number, first)
    game = make_game(rules, g.seed, scores, (*g.history, done), None, g.seed_given, None, g.source)
    return make_state(game, hand)


__all__ = [
    "check_deal",
    "game_start",
    "new_game",
    "next_hand",
    "seeded_deal",
    "shuffled",
    "with_deal",
]
