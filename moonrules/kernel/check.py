"""The proof that the kernel's fast copies of the play rules equal the rulebook's functions.

:func:`kernel_mismatches` compares, for one rule set, every kernel function the game,
the solver and the claim search run on with the pure rule functions of
:mod:`moonrules.rules.tricks` and :mod:`moonrules.rules.suits`, over a finite domain
that covers every position of a real hand (the argument is below). An empty list is
the proof; each :class:`Mismatch` names the case that differs.

What is compared, and why the domain covers every real hand
-------------------------------------------------------------
Let ``S`` be the rule set's tiles and ``T`` the trumps it offers.

*Legal plays* (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3): ``legal_mask(held, led, trump,
rules, done)`` against :func:`~moonrules.rules.tricks.legal_plays` for every trump of
``T``, every position (leading after each number ``done`` of tricks from 0 to 6, where
the rule asks a trump of the hand's first lead, ``done == 0``, under
``first_lead = trump``; following a led tile ``L`` of ``S``, in the first trick and in
a later one) and every hand of one or
two tiles of ``S`` (without ``L``), plus
the hands "every other tile of ``S``", "the tiles that follow" and "the tiles that do
not". Only the led tile of a trick matters to either function (FOLLOW-1: the suit
*led*), so the trick's other tiles are not varied. Both functions have one shape:
keep the tiles of ``H`` in a set ``M`` fixed by the position (the suit led, or the
trumps under LEAD-2), or all of ``H`` when none is in ``M`` (``held & M or held`` in
the kernel's code; ``following or hand`` in the rule's). Two functions ``f_M`` and
``f_P`` of that shape agree on every hand ``H ⊆ S'`` as soon as they agree on every
hand of two tiles: ``f({a, b}) = {a}`` exactly when ``a ∈ M`` and ``b ∉ M``; if some
pair is split that way by ``M`` it is split the same way by ``P``, and then every
other tile ``c`` is placed alike (pair it with ``b`` if ``c ∈ M``, with ``a`` if not),
so ``M ∩ S' = P ∩ S'``; if no pair is split, ``M ∩ S'`` is empty or all of ``S'``,
so is ``P ∩ S'``, and both functions return ``H`` whole. Every real hand is a subset
of ``S`` (of up to eight tiles, with the widow), so it is covered.

*Trick winner* (TRICK-2): ``winner_index(trick, trump)`` against
:func:`~moonrules.rules.tricks.trick_winner` for every trump of ``T`` and every
ordered trick of two and of three distinct tiles of ``S``. With three players that
is every trick there is. With four, both functions have one shape (by their code):
the first tile with the highest key, the key fixed by the trump, the led tile and the
tile, a later tile replacing the best so far only when its key is strictly higher. The
winner of ``(L, a, b, c)`` is found by comparing the best so far (``L`` or an earlier
tile that beat it) with each later tile, and each such comparison is the answer to the
trick ``(L, x)`` or ``(L, x, y)``; so agreement on two- and three-tile tricks is
agreement on four-tile tricks.

*Tables*: the led suit of every tile under every trump (LEAD-3) against
:func:`~moonrules.rules.suits.led_suit`, and, in each suit, the order of the strength
table against :func:`~moonrules.rules.suits.rank` and trumps above the suit (SUIT-3,
SUIT-4, TRICK-2): the tables the solver derives its own from.

The kernel compared is a :class:`Kernel` value, the live one by default, so that the
tests can check that every mutant of it is caught.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator

import attrs

from moonrules.kernel import masks, tables
from moonrules.rules.contract import check_instance, check_int, typed
from moonrules.rules.ruleset import FirstLead, RuleSet
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit, rank
from moonrules.rules.tiles import TILES, Tile, TileSet
from moonrules.rules.tricks import legal_plays, trick_winner


@attrs.frozen(slots=True, field_transformer=typed)
class Kernel:
    """The kernel's play rules, as the game, the solver and the claim search call them."""

    legal_mask: Callable[[int, int, int, RuleSet, int], int]
    winner_index: Callable[[tuple[int, ...], int], int]
    led_suit: tuple[tuple[int, ...], ...]
    strength: tuple[tuple[tuple[int, ...], ...], ...]

    @staticmethod
    def live() -> Kernel:
        """The kernel as its modules hold it now."""
        return Kernel(
            masks.legal_mask,
            tables.winner_index,
            tables.LED_SUIT,
            tables.STRENGTH,
        )


@attrs.frozen(slots=True, field_transformer=typed)
class Mismatch:
    """One case where the kernel and the rule functions differ."""

    clause: str
    """The clause the case exercises, e.g. ``"LEAD-2"``."""
    case: str
    """The case, as text."""
    expected: str
    """What the rule function gives."""
    got: str
    """What the kernel gives."""

    def __str__(self) -> str:
        return f"{self.clause}: {self.case}: the rules give {self.expected}, the kernel {self.got}"


def kernel_mismatches(
    rules: RuleSet, kernel: Kernel | None = None, *, limit: int = 20
) -> list[Mismatch]:
    """Every case (up to ``limit``) where ``kernel`` (default: the live kernel) differs
    from the pure rule functions under ``rules``; empty when they agree everywhere.

    The rule functions' answers are computed once per tile set and trump (a few
    seconds for the 28-tile set, less for the others) and kept; checking another rule
    set or another kernel over them then takes a fraction of a second. ``limit`` is 1 or more.
    """
    check_instance(rules, RuleSet, "rules")
    if kernel is not None:
        check_instance(kernel, Kernel, "kernel", "a Kernel or None")
    check_int(limit, "limit", 1)
    k = Kernel.live() if kernel is None else kernel
    out: list[Mismatch] = []
    for part in _parts(rules, k):
        for mismatch in part:
            out.append(mismatch)
            if len(out) >= limit:
                return out
    return out


def _parts(rules: RuleSet, k: Kernel) -> Iterator[Iterable[Mismatch]]:
    for trump in rules.trumps:
        yield _tables(k, trump)
    for trump in rules.trumps:
        for done in range(7):
            yield _leads(k, rules, trump, done)
    for trump in rules.trumps:
        yield _follows(k, rules, trump)
    for trump in rules.trumps:
        yield _winners(k, rules.tile_set, trump)


def _mask(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(1 << t.index for t in tiles)


def _text(mask: int) -> str:
    return " ".join(str(t) for t in TILES if mask >> t.index & 1) or "nothing"


def _tables(k: Kernel, trump: Trump) -> tuple[Mismatch, ...]:
    out = []
    tv = trump.value
    for t in TILES:
        if k.led_suit[tv][t.index] != led_suit(t, trump):
            out.append(
                Mismatch(
                    "LEAD-3",
                    f"the suit {t} calls when led, trump {trump}",
                    str(led_suit(t, trump)),
                    str(k.led_suit[tv][t.index]),
                )
            )
    for suit in range(8):
        st = k.strength[tv][suit]
        trumps = [t for t in TILES if is_trump(t, trump)]
        members = [t for t in TILES if in_suit(t, suit, trump) and not is_trump(t, trump)]
        for t in TILES:
            if t not in trumps and t not in members and st[t.index] >= 0:
                out.append(
                    Mismatch(
                        "TRICK-2",
                        f"{t} on a lead of suit {suit}, trump {trump}",
                        "never wins",
                        f"strength {st[t.index]}",
                    )
                )
        for a, b in itertools.permutations(trumps + members, 2):
            a_trump, b_trump = a in trumps, b in trumps
            if a_trump != b_trump:
                want = a_trump
            else:
                sv = TRUMP_SUIT if a_trump else suit
                want = rank(a, sv, trump) > rank(b, sv, trump)
            if (st[a.index] > st[b.index]) != want:
                out.append(
                    Mismatch(
                        "SUIT-3",
                        f"{a} against {b} on a lead of suit {suit}, trump {trump}",
                        f"{a} {'beats' if want else 'loses to'} {b}",
                        f"{a} {'loses to' if want else 'beats'} {b}",
                    )
                )
    return tuple(out)


def _hands(tiles: list[Tile], follow: list[Tile]) -> Iterator[list[Tile]]:
    """Every hand of one or two of ``tiles``, all of them, and the following and other tiles."""
    for t in tiles:
        yield [t]
    for pair in itertools.combinations(tiles, 2):
        yield list(pair)
    yield tiles
    rest = [t for t in tiles if t not in follow]
    for part in (follow, rest):
        if part:
            yield part


# The rule functions' answers, computed once per tile set and trump whatever kernel is checked.


@functools.lru_cache(maxsize=64)
def _lead_cases(tile_set: TileSet, trump: Trump, lead_trump: bool) -> tuple[tuple[int, int], ...]:
    """(hand, legal plays) as masks, for every hand of the domain, leading."""
    tiles = list(tile_set.tiles)
    trumps = [t for t in tiles if is_trump(t, trump)]
    return tuple(
        (_mask(hand), _mask(list(legal_plays(hand, [], trump, lead_trump=lead_trump))))
        for hand in _hands(tiles, trumps)
    )


@functools.lru_cache(maxsize=64)
def _follow_cases(tile_set: TileSet, trump: Trump) -> tuple[tuple[int, int, int], ...]:
    """(led tile, hand, legal plays), for every led tile and hand of the domain."""
    out = []
    for led in tile_set.tiles:
        tiles = [t for t in tile_set.tiles if t != led]
        follow = [t for t in tiles if in_suit(t, led_suit(led, trump), trump)]
        for hand in _hands(tiles, follow):
            out.append((led.index, _mask(hand), _mask(list(legal_plays(hand, [led], trump)))))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _winner_cases(tile_set: TileSet, trump: Trump) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(trick, winning position) for every ordered trick of two and three tiles."""
    return tuple(
        (tuple(t.index for t in trick), trick_winner(trick, trump))
        for size in (2, 3)
        for trick in itertools.permutations(tile_set.tiles, size)
    )


def _leads(k: Kernel, rules: RuleSet, trump: Trump, done: int) -> Iterator[Mismatch]:
    lead_trump = done == 0 and rules.first_lead is FirstLead.TRUMP
    clause = "LEAD-2" if lead_trump else "LEAD-1"
    where = f"a lead after {done} trick(s), first_lead = {rules.first_lead}"
    legal = k.legal_mask
    for hand, want in _lead_cases(rules.tile_set, trump, lead_trump):
        got = legal(hand, masks.NO_LEAD, trump.value, rules, done)
        if got != want:
            yield Mismatch(
                clause, f"{where}, from {_text(hand)}, trump {trump}", _text(want), _text(got)
            )


def _follows(k: Kernel, rules: RuleSet, trump: Trump) -> Iterator[Mismatch]:
    legal = k.legal_mask
    tv = trump.value
    for led, hand, want in _follow_cases(rules.tile_set, trump):
        got = legal(hand, led, tv, rules, 0)
        if got == want:  # in the first trick; and in a later one
            got = legal(hand, led, tv, rules, 1)
        if got != want:
            clause = "FOLLOW-1" if is_trump(TILES[led], trump) else "FOLLOW-2"
            if want == hand and not hand & sum(
                1 << t.index for t in TILES if in_suit(t, led_suit(TILES[led], trump), trump)
            ):
                clause = "FOLLOW-3"
            yield Mismatch(
                clause,
                f"following {TILES[led]} from {_text(hand)}, trump {trump}",
                _text(want),
                _text(got),
            )


def _winners(k: Kernel, tile_set: TileSet, trump: Trump) -> Iterator[Mismatch]:
    winner = k.winner_index
    tv = trump.value
    for trick, want in _winner_cases(tile_set, trump):
        got = winner(trick, tv)
        if got != want:
            text = " ".join(str(TILES[i]) for i in trick)
            yield Mismatch(
                "TRICK-2",
                f"the trick {text}, trump {trump}",
                f"{TILES[trick[want]]} wins",
                f"{TILES[trick[got]]} wins" if 0 <= got < len(trick) else f"position {got}",
            )


__all__ = ["Kernel", "Mismatch", "kernel_mismatches"]
