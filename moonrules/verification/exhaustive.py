"""Exhaustive checks: every element of a finite domain, against the clause restated directly.

Each check restates its clauses with the plainest primitives (a tile's ends, ``has``,
``is_double``; :mod:`.statements`) rather than the functions under test, walks the whole
domain and stops at the first case where the code and the clause disagree
(:func:`~moonrules.verification.core.require`).
"""

from __future__ import annotations

import functools
import itertools

from moonrules.kernel.check import kernel_mismatches
from moonrules.kernel.masks import legal_mask
from moonrules.kernel.tables import LED_SUIT, STRENGTH, winner_index
from moonrules.rules.auction import MOON, PASS, Auction, apply_call, legal_calls
from moonrules.rules.errors import IllegalAction, ParseError, RulesError
from moonrules.rules.ruleset import (
    PRESETS,
    AllPass,
    FirstLead,
    MoonMade,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
)
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit, rank, suit_tiles
from moonrules.rules.tiles import TILES, Tile, TileSet
from moonrules.rules.tricks import legal_plays, trick_winner
from moonrules.verification import statements as spec
from moonrules.verification.core import Outcome, require

ALL_TRUMPS: tuple[Trump, ...] = tuple(Trump)
SET_SIZES = {TileSet.MOON_22: 22, TileSet.DOUBLE_SIX_28: 28, TileSet.NO_DOUBLE_BLANK_21: 21}


# ---------------------------------------------------------------------------
# Tiles (TILE-1 … TILE-4)


def check_tile_sets(quick: bool) -> Outcome:
    """TILE-1 … TILE-4: names, the 28 tiles and the three sets."""
    cases = 0
    for a, b in itertools.product(range(10), repeat=2):
        cases += 1
        text = f"{a}-{b}"
        if a > 6 or b > 6:
            try:
                Tile.parse(text)
            except ParseError:
                continue
            require(False, f"{text!r} was read as a tile")
        t = Tile.parse(text)
        require(
            (t.high, t.low) == (max(a, b), min(a, b)) and str(t) == f"{max(a, b)}-{min(a, b)}",
            f"{text!r} read as {t!r}, written {t}",
        )
        require(t == Tile.parse(f"{b}-{a}"), f"{text!r} and its reverse name different tiles")
        require(t.is_double == (a == b), f"{t}: double is {t.is_double}")
    pairs = {(h, lo) for h in range(7) for lo in range(h + 1)}
    require(len(TILES) == 28 and {(t.high, t.low) for t in TILES} == pairs, "TILES")
    want = {
        TileSet.DOUBLE_SIX_28: pairs,
        TileSet.MOON_22: {p for p in pairs if p[1] != 0 or p[0] == 0},
        TileSet.NO_DOUBLE_BLANK_21: {p for p in pairs if p[1] != 0},
    }
    for ts, expected in want.items():
        cases += 1
        got = {(t.high, t.low) for t in ts.tiles}
        require(got == expected and len(ts.tiles) == SET_SIZES[ts], f"{ts.value}: {sorted(got)}")
        require(ts.mask == sum(1 << t.index for t in ts.tiles), f"{ts.value}: mask")
    zero = [t for t in TileSet.MOON_22.tiles if t.has(0)]
    require(zero == [Tile(0, 0)], f"moon-22 suit 0 holds {zero}")
    return Outcome(cases, "texts a-b for a, b in 0-9, and the three sets")


# ---------------------------------------------------------------------------
# Rule sets (RULES-1, TRUMP-5, BID-4, DEAL-2, TEAM-1, END-1's targets)


def _numbers_on(ts: TileSet) -> set[int]:
    return {n for t in ts.tiles for n in (t.high, t.low)}


def _consistent(
    players: int,
    ts: TileSet,
    min_bid: int,
    timing: WidowTiming,
    numbers: tuple[int, ...],
    doubles: bool,
    no_trump: bool,
    target: int,
) -> bool:
    """RULES-1 and TRUMP-5, restated."""
    widow = players == 3 and ts is TileSet.MOON_22
    return (
        (players, ts)
        in {(3, TileSet.MOON_22), (3, TileSet.NO_DOUBLE_BLANK_21), (4, TileSet.DOUBLE_SIX_28)}
        and min_bid in (3, 4, 5)
        and (timing is WidowTiming.BEFORE_TRUMP or widow)
        and set(numbers) <= _numbers_on(ts)
        and bool(numbers or doubles or no_trump)
        and target >= 1
    )


def check_rule_sets(quick: bool) -> Outcome:
    """Every combination of the fields RULES-1 constrains; the others over every value."""
    subsets = [
        tuple(n for n in range(7) if m >> n & 1)
        for m in range(128)
        if not quick or m.bit_count() <= 1 or m.bit_count() >= 6
    ]
    cases = 0
    for players, ts, min_bid, timing, doubles, no_trump, target in itertools.product(
        (2, 3, 4, 5),
        TileSet,
        (2, 3, 4, 5, 6),
        WidowTiming,
        (True, False),
        (True, False),
        (-1, 0, 1, 21),
    ):
        for numbers in subsets:
            cases += 1
            ok = _consistent(players, ts, min_bid, timing, numbers, doubles, no_trump, target)
            args = dict(
                players=players,
                tile_set=ts,
                min_bid=min_bid,
                widow_timing=timing,
                trump_numbers=numbers,
                doubles_trump=doubles,
                no_trump=no_trump,
                target=target,
            )
            try:
                r = RuleSet(**args)  # type: ignore[arg-type]
            except RulesError:
                require(not ok, f"RuleSet({args}) was refused")
                continue
            require(ok, f"RuleSet({args}) was accepted")
            _check_accepted(r, numbers)
    base_sets = (
        RuleSet(),
        RuleSet(players=4, tile_set=TileSet.DOUBLE_SIX_28),
        RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21),
    )
    for base in base_sets:
        for moon, all_pass, lead, made, scoring, tie, renege in itertools.product(
            (True, False), AllPass, FirstLead, MoonMade, Scoring, TieRule, Renege
        ):
            cases += 1
            r = RuleSet(
                players=base.players,
                tile_set=base.tile_set,
                moon=moon,
                all_pass=all_pass,
                first_lead=lead,
                moon_made=made,
                scoring=scoring,
                tie=tie,
                renege=renege,
            )
            _check_accepted(r, r.trump_numbers)
            default_target = 7 if scoring is Scoring.MARKS else 21
            require(r.target == default_target, f"{r}: default target {r.target}")
            require(
                r.trump_numbers == tuple(sorted(_numbers_on(r.tile_set))),
                f"{r}: default trump numbers {r.trump_numbers}",
            )
    return Outcome(cases, "rule sets built")


def _check_accepted(r: RuleSet, numbers: tuple[int, ...]) -> None:
    bids = tuple(range(r.min_bid, 8)) + ((MOON,) if r.moon else ())
    require(r.bids == bids, f"{r}: bids {r.bids}")
    trumps = {Trump.of_number(n) for n in numbers}
    trumps |= {Trump.DOUBLES} if r.doubles_trump else set()
    trumps |= {Trump.NONE} if r.no_trump else set()
    require(set(r.trumps) == trumps and len(r.trumps) == len(trumps), f"{r}: trumps {r.trumps}")
    widow = r.players == 3 and r.tile_set is TileSet.MOON_22
    require(r.widow_size == (1 if widow else 0) and r.has_widow == widow, f"{r}: widow")
    require(r.partnership == (r.players == 4), f"{r}: partnership")
    sides = [r.side_of(s) for s in range(r.players)]
    require(sides == ([0, 1, 0, 1] if r.players == 4 else [0, 1, 2]), f"{r}: sides {sides}")
    require(r.sides == len(set(sides)), f"{r}: {r.sides} sides")


# ---------------------------------------------------------------------------
# Trump, suits, ranks, the led suit (TRUMP-2 … TRUMP-4, SUIT-1 … SUIT-4, LEAD-3)


def check_suits(quick: bool) -> Outcome:
    """Every (trump, tile, suit): trump membership, suits, ranks and the led suit."""
    cases = 0
    for trump in ALL_TRUMPS:
        for t in TILES:
            trumped = spec.is_trump(t, trump)
            require(is_trump(t, trump) == trumped, f"is_trump({t}, {trump})")
            for suit in range(8):
                cases += 1
                member = suit == TRUMP_SUIT if trumped else suit < 7 and suit in (t.high, t.low)
                require(in_suit(t, suit, trump) == member, f"in_suit({t}, {suit}, {trump})")
                if not member:
                    try:
                        rank(t, suit, trump)
                    except ValueError:
                        continue
                    require(False, f"rank({t}, {suit}, {trump}) did not refuse a non-member")
            called = TRUMP_SUIT if trumped else t.high
            for written in (f"{t.high}-{t.low}", f"{t.low}-{t.high}"):
                got = led_suit(Tile.parse(written), trump)
                require(got == called, f"led_suit({written}, {trump}) = {got}")
        for suit in range(8):
            order = spec.suit_order(suit, trump, TILES)
            ranks = [rank(t, suit, trump) for t in order]
            require(
                all(a > b for a, b in itertools.pairwise(ranks)),
                f"suit {suit} under trump {trump}: ranks {list(zip(order, ranks, strict=True))}",
            )
            require(list(suit_tiles(suit, trump, TILES)) == order, f"suit_tiles({suit}, {trump})")
            if trump is Trump.DOUBLES and suit < 7:
                require(not any(t.is_double for t in order), f"suit {suit} holds a double")
    return Outcome(cases, "9 trumps x 28 tiles x 8 suits")


# ---------------------------------------------------------------------------
# Winning a trick (TRICK-2)


def check_trick_winner(quick: bool) -> Outcome:
    """Every ordered trick of 3 tiles (22-, 21- and 28-tile sets) and of 4 tiles (28-tile set),
    under every trump: the kernel's ``winner_index`` (the game's code) gives the one tile whose
    TRICK-2 key beats every other; ``trick_winner`` agrees on every 3-tile trick and every
    4-tile trick as a set."""
    cases = 0
    jobs: list[tuple[TileSet, int]] = [
        (TileSet.MOON_22, 3),
        (TileSet.NO_DOUBLE_BLANK_21, 3),
        (TileSet.DOUBLE_SIX_28, 3),
    ]
    if not quick:
        jobs.append((TileSet.DOUBLE_SIX_28, 4))
    for trump in ALL_TRUMPS:
        tv = trump.value
        keys = {led.index: spec.suit_keys(trump, spec.called_suit(led, trump)) for led in TILES}
        for led, key in keys.items():
            won = [k for k in key if k >= 0]
            require(len(won) == len(set(won)), f"two tiles tie for a trick led {TILES[led]}")
            require(key[led] >= 0, f"the led tile {TILES[led]} cannot win its own trick")
        for ts, size in jobs:
            idx = [t.index for t in ts.tiles]
            for led in idx:
                key = keys[led]
                others = [i for i in idx if i != led]
                for rest in itertools.permutations(others, size - 1):
                    cases += 1
                    trick = (led, *rest)
                    ks = [key[i] for i in trick]
                    best = ks.index(max(ks))
                    if winner_index(trick, tv) != best:
                        require(
                            False,
                            f"trick {[str(TILES[i]) for i in trick]} trump {trump}: "
                            f"winner_index {winner_index(trick, tv)}, TRICK-2 {best}",
                        )
                    if size == 3 or rest[0] < rest[1] < rest[2]:
                        tiles = [TILES[i] for i in trick]
                        got = trick_winner(tiles, trump)
                        require(
                            got == best,
                            f"trick_winner({[str(t) for t in tiles]}, {trump}) = {got}, "
                            f"TRICK-2 {best}",
                        )
    return Outcome(cases, "ordered tricks")


# ---------------------------------------------------------------------------
# Following and leading (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3)


def check_follow(quick: bool) -> Outcome:
    """Every tile set, trump and led tile (or a lead, with and without LEAD-2), every hand of up
    to three (two with ``--quick``) other tiles of the set: ``legal_plays`` is the clause."""
    cases = 0
    largest = 2 if quick else 3
    for ts in TileSet:
        for trump in ALL_TRUMPS:
            for led in (None, *ts.tiles):
                pool = [t for t in ts.tiles if t != led]
                for size in range(largest + 1):
                    for hand in itertools.combinations(pool, size):
                        for lead_trump in (False, True) if led is None else (False,):
                            cases += 1
                            trick = [] if led is None else [led]
                            got = legal_plays(hand, trick, trump, lead_trump=lead_trump)
                            want = spec.legal_plays(hand, led, trump, lead_trump)
                            if got != want:
                                require(
                                    False,
                                    f"legal_plays({[str(t) for t in hand]}, led "
                                    f"{led}, trump {trump}, lead_trump={lead_trump}) = "
                                    f"{[str(t) for t in got]}, the clauses give "
                                    f"{[str(t) for t in want]}",
                                )
    return Outcome(cases, "(set, trump, lead, hand) cases")


# ---------------------------------------------------------------------------
# The auction (BID-2 … BID-8)

_CANDIDATES = (-1, PASS, 1, 2, 3, 4, 5, 6, 7, 8, 20, MOON, 22)


def _auction_rules() -> list[RuleSet]:
    out = []
    for players, min_bid, moon, all_pass in itertools.product(
        (3, 4), (3, 4, 5), (True, False), AllPass
    ):
        ts = TileSet.MOON_22 if players == 3 else TileSet.DOUBLE_SIX_28
        out.append(
            RuleSet(players=players, tile_set=ts, min_bid=min_bid, moon=moon, all_pass=all_pass)
        )
    return out


def check_auction(quick: bool) -> Outcome:
    """Every call sequence (every candidate call at every turn) under every combination of
    players, minimum bid, moon and all-pass rule, from every first bidder."""
    cases = 0
    for rules in _auction_rules():
        for first in range(rules.players) if not quick else (0,):
            stack = [Auction((), first, rules)]
            while stack:
                a = stack.pop()
                cases += 1
                cases += _check_auction_node(a, rules, first, stack)
    return Outcome(cases, "auctions and calls")


def _check_auction_node(a: Auction, rules: RuleSet, first: int, stack: list[Auction]) -> int:
    calls = a.calls
    bids_made = [c for c in calls if c != PASS]
    over = len(calls) == rules.players or MOON in calls
    where = f"{rules.players}p min {rules.min_bid} moon={rules.moon} {rules.all_pass}: {calls}"
    require(a.is_over == over, f"{where}: is_over {a.is_over}")
    if over:
        require(legal_calls(a) == () and a.to_call is None, f"{where}: calls after the end")
        if bids_made:
            high = max(bids_made)
            seat = (first + calls.index(high)) % rules.players
            require((a.winner, a.bid, a.redeal) == (seat, high, False), f"{where}: winner")
        else:
            require(rules.all_pass is AllPass.REDEAL, f"{where}: all passed under force")
            require((a.winner, a.bid, a.redeal) == (None, None, True), f"{where}: redeal")
    else:
        require(a.to_call == (first + len(calls)) % rules.players, f"{where}: to_call")
    high = max(bids_made, default=PASS)
    forced = rules.all_pass is AllPass.FORCE and len(calls) == rules.players - 1 and not bids_made
    bids = set(range(rules.min_bid, 8)) | ({MOON} if rules.moon else set())
    legal = sorted(
        c
        for c in _CANDIDATES
        if not over and ((c == PASS and not forced) or (c in bids and c > high))
    )
    require(list(legal_calls(a)) == legal, f"{where}: legal_calls {legal_calls(a)} not {legal}")
    for c in _CANDIDATES:
        try:
            nxt = apply_call(a, c)
        except IllegalAction as e:
            require(c not in legal, f"{where}: {c} refused ({e})")
            require(e.rule.startswith("BID-"), f"{where}: {c} refused under {e.rule}")
            continue
        require(c in legal, f"{where}: {c} accepted")
        stack.append(nxt)
    return len(_CANDIDATES)


# ---------------------------------------------------------------------------
# The worked examples (EX-1 … EX-6)


def check_examples(quick: bool) -> Outcome:
    """Each worked example over every case it describes."""
    cases = 0
    t = Tile.parse
    # EX-1: neither 5 nor 3 trump; the holder of 5-3 and no other 5 or 3 must play it on 3-2 or 5-1.
    pool = [x for x in TileSet.MOON_22.tiles if not x.has(3) and not x.has(5)]
    for trump in ALL_TRUMPS:
        if trump in (Trump.THREE, Trump.FIVE):
            continue
        for led in (t("3-2"), t("5-1")):
            if spec.is_trump(led, trump):
                continue  # the example leads a non-trump
            for size in range(7):
                for rest in itertools.combinations([x for x in pool if x != led], size):
                    cases += 1
                    hand = (t("5-3"), *rest)
                    got = legal_plays(hand, [led], trump)
                    require(got == (t("5-3"),), f"EX-1: {led} led, trump {trump}, {hand}: {got}")
    # EX-2: doubles trump, 4-2 led: calls 4s, the 6-4 is highest; 4-4 cannot follow.
    d = Trump.DOUBLES
    require(led_suit(t("4-2"), d) == 4, "EX-2: 4-2 calls 4s")
    require(suit_tiles(4, d, TileSet.MOON_22.tiles)[0] == t("6-4"), "EX-2: 6-4 is the top 4")
    others = [x for x in TileSet.MOON_22.tiles if not x.has(4) or x.is_double]
    for rest in itertools.combinations([x for x in others if x != t("4-4")], 2):
        cases += 1
        hand = (t("4-4"), *rest)
        require(
            set(legal_plays(hand, [t("4-2")], d)) == set(hand), f"EX-2: {hand} may play anything"
        )
    for x in TileSet.MOON_22.tiles:
        if x.has(4) and not x.is_double and x != t("4-2"):
            cases += 1
            win = trick_winner([t("4-2"), x, t("1-0")], d)
            top = max(x, t("4-2"), key=lambda y: rank(y, 4, d))
            require([t("4-2"), x][win] == top, f"EX-2: 4-2, {x}")
    # EX-3, EX-4, EX-5: counts and orders of trumps and of suit 2.
    for n in range(7):
        cases += 1
        trumps = suit_tiles(TRUMP_SUIT, Trump.of_number(n), TileSet.MOON_22.tiles)
        require(len(trumps) == (1 if n == 0 else 6), f"EX-3: trump {n} gives {len(trumps)}")
    three = suit_tiles(TRUMP_SUIT, Trump.THREE, TileSet.MOON_22.tiles)
    require([str(x) for x in three] == ["3-3", "6-3", "5-3", "4-3", "3-2", "3-1"], "EX-3 order")
    dbl = suit_tiles(TRUMP_SUIT, Trump.DOUBLES, TileSet.MOON_22.tiles)
    require([str(x) for x in dbl] == [f"{n}-{n}" for n in range(6, -1, -1)], "EX-4 order")
    twos = ["2-2", "6-2", "5-2", "4-2", "3-2", "2-1"]
    for trump in (Trump.NONE, Trump.ZERO):  # the trumps that leave suit 2 whole
        names = [str(x) for x in suit_tiles(2, trump, TileSet.MOON_22.tiles)]
        require(names == twos, f"EX-5 with trump {trump}: {names}")
    got2 = [str(x) for x in suit_tiles(TRUMP_SUIT, Trump.TWO, TileSet.MOON_22.tiles)]
    require(got2 == twos, f"EX-5 with 2s trump: {got2}")
    # EX-6: 4, 5, 6 makes the third seat the bidder at 6; 4, 21 ends it at once.
    for first in range(3):
        cases += 1
        a = Auction((), first).call(4).call(5).call(6)
        require((a.is_over, a.winner, a.bid) == (True, (first + 2) % 3, 6), "EX-6 rising")
        b = Auction((), first).call(4).call(MOON)
        require((b.is_over, b.winner, b.bid) == (True, (first + 1) % 3, MOON), "EX-6 moon")
        require(legal_calls(b) == (), "EX-6: no call after 21")
    return Outcome(cases, "cases of the six examples")


__all__ = [
    "check_auction",
    "check_examples",
    "check_follow",
    "check_rule_sets",
    "check_suits",
    "check_tile_sets",
    "check_trick_winner",
]


# ---------------------------------------------------------------------------
# The kernel (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3, LEAD-3, SUIT-3, SUIT-4, TRICK-2)


def kernel_rule_sets() -> dict[str, RuleSet]:
    """Every preset, and every tile set (with its player count) under every first-lead rule
    with all nine trumps offered: every value of each rule-set field that changes the play."""
    out: dict[str, RuleSet] = dict(PRESETS)
    for ts in TileSet:
        for lead in FirstLead:
            players = 4 if ts is TileSet.DOUBLE_SIX_28 else 3
            out[f"{ts.value}/{lead.value}"] = RuleSet(players=players, tile_set=ts, first_lead=lead)
    return out


def _mask(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(1 << t.index for t in tiles)


def _names(mask: int) -> str:
    return " ".join(str(t) for t in TILES if mask >> t.index & 1) or "nothing"


def _kernel_hands(tiles: list[Tile], must: list[Tile]) -> list[tuple[Tile, ...]]:
    """Every hand of one or two of ``tiles``, all of them, those in ``must`` and the others:
    the domain on which two rules of the shape "the tiles of ``must`` held, or else the whole
    hand" agree only if they agree on every hand (the argument of moonrules.kernel.check)."""
    out: list[tuple[Tile, ...]] = [(t,) for t in tiles]
    out += list(itertools.combinations(tiles, 2))
    rest = [t for t in tiles if t not in must]
    out += [tuple(part) for part in (tiles, must, rest) if part]
    return out


@functools.lru_cache(maxsize=64)
def _spec_plays(ts: TileSet, trump: Trump) -> tuple[tuple[int, int, int, int], ...]:
    """(led tile index or -1, LEAD-2 applies, hand, legal plays) as masks, by the clauses
    restated, for every position and hand of the kernel's domain."""
    tiles = list(ts.tiles)
    out = []
    trumps = [t for t in tiles if spec.is_trump(t, trump)]
    for hand in _kernel_hands(tiles, trumps):
        for lead_trump in (False, True):
            want = spec.legal_plays(hand, None, trump, lead_trump)
            out.append((-1, int(lead_trump), _mask(hand), _mask(want)))
    for led in tiles:
        others = [t for t in tiles if t != led]
        must = spec.legal_plays(others, led, trump, False)
        for hand in _kernel_hands(others, list(must) if len(must) < len(others) else []):
            want = spec.legal_plays(hand, led, trump, False)
            out.append((led.index, 0, _mask(hand), _mask(want)))
    return tuple(out)


def _check_kernel_plays(name: str, rules: RuleSet, trump: Trump) -> int:
    """The kernel's legal-play mask in every position: a lead after each number of tricks done
    (LEAD-2 on the hand's first lead under ``first_lead = trump``), and a follow of every led
    tile in the first trick and a later one."""
    cases = 0
    first = rules.first_lead is FirstLead.TRUMP
    for led, lead_trump, hand, want in _spec_plays(rules.tile_set, trump):
        positions = (
            [d for d in range(7) if (d == 0 and first) == bool(lead_trump)] if led < 0 else [0, 1]
        )
        for done in positions:
            cases += 1
            got = legal_mask(hand, led, trump.value, rules, done)
            if got != want:
                where = "leading" if led < 0 else f"following {TILES[led]}"
                require(
                    False,
                    f"rule set {name}, trump {trump}: {where} after {done} trick(s) from "
                    f"{_names(hand)}, the kernel allows {_names(got)}, the clauses "
                    f"{_names(want)}",
                )
    return cases


def _check_kernel_tables(trump: Trump, ts: TileSet) -> int:
    """The led-suit table (LEAD-3), the strength table's order in every suit (SUIT-3, SUIT-4,
    TRICK-2) and ``winner_index`` on every ordered trick of two tiles of the set."""
    cases = 0
    tv = trump.value
    for t in TILES:
        cases += 1
        want = spec.called_suit(t, trump)
        require(LED_SUIT[tv][t.index] == want, f"LED_SUIT: {t} led under trump {trump}")
    for suit in range(8):
        keys = spec.suit_keys(trump, suit)
        st = STRENGTH[tv][suit]
        for a in TILES:
            cases += 1
            require(
                (st[a.index] < 0) == (keys[a.index] < 0),
                f"STRENGTH: {a} on a lead of suit {suit}, trump {trump}: {st[a.index]}",
            )
            for b in TILES:
                if keys[a.index] > keys[b.index] >= 0 and not st[a.index] > st[b.index]:
                    require(False, f"STRENGTH: {b} beats {a} on suit {suit}, trump {trump}")
    for a, b in itertools.permutations(ts.tiles, 2):
        cases += 1
        want = spec.trick_winner((a, b), trump)
        got = winner_index((a.index, b.index), tv)
        require(got == want, f"winner_index of the trick {a} {b}, trump {trump}: {got}, not {want}")
    return cases


def check_kernel(quick: bool) -> Outcome:
    """The kernel's legal-play mask, tables and trick winner against the clauses restated, for
    every rule set of :func:`kernel_rule_sets` (the presets only with ``--quick``); the whole
    run also proves the kernel equal to the rule functions
    (:func:`moonrules.kernel.check.kernel_mismatches`)."""
    sets = dict(PRESETS) if quick else kernel_rule_sets()
    cases = 0
    tables_done: set[tuple[Trump, TileSet]] = set()
    for name, rules in sorted(sets.items()):
        for trump in rules.trumps:
            cases += _check_kernel_plays(name, rules, trump)
            if (trump, rules.tile_set) not in tables_done:
                tables_done.add((trump, rules.tile_set))
                cases += _check_kernel_tables(trump, rules.tile_set)
        if not quick:
            found = kernel_mismatches(rules, limit=1)
            require(not found, f"rule set {name}: {found[0] if found else ''}")
    return Outcome(cases, "positions, hands, table entries and tricks")
