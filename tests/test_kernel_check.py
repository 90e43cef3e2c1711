"""The kernel's play rules equal the rulebook's functions, and every mutant of them is caught.

``kernel_mismatches`` (moonrules.kernel.check) is run for every preset and for every
value of each rule-set field that changes the play (tile set with its player count,
first lead; the trumps offered are covered by the rule sets offering all nine). Then
each mutant of the kernel below (a rule deleted, inverted or moved) must make it
report a mismatch, and the game, the solver and the claim search must be shown to
run on the kernel itself: with a mutant patched into every module that holds the
kernel's function, their answers change.
"""

from __future__ import annotations

import ast
import itertools
import random
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import moonrules
from moonrules import PRESETS, Phase, RuleSet, apply, legal_actions, new_game
from moonrules.analysis import solver
from moonrules.analysis.claim import verify_claim
from moonrules.analysis.solver import play_values
from moonrules.game import GameState, legal_play_mask
from moonrules.kernel import masks, tables
from moonrules.kernel.check import Kernel, kernel_mismatches
from moonrules.kernel.compiled import source_form
from moonrules.rules.ruleset import FirstLead
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, rank
from moonrules.rules.tiles import TILES, TileSet

FIELD_VALUES: dict[str, RuleSet] = {
    f"{ts.value}/{lead.value}": RuleSet(
        players=4 if ts is TileSet.DOUBLE_SIX_28 else 3, tile_set=ts, first_lead=lead
    )
    for ts in TileSet
    for lead in FirstLead
}
"""Every tile set (with its player count) with every first-lead rule, all trumps offered."""

RULE_SETS: dict[str, RuleSet] = {**PRESETS, **FIELD_VALUES}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_kernel_equals_the_rules(name: str) -> None:
    assert kernel_mismatches(RULE_SETS[name]) == []


def test_every_trump_a_rule_set_can_offer_is_covered() -> None:
    """The field-value rule sets offer every trump, so a preset offering fewer is covered."""
    for ts in TileSet:
        covered = {t for r in FIELD_VALUES.values() if r.tile_set is ts for t in r.trumps}
        offered = {t for r in PRESETS.values() if r.tile_set is ts for t in r.trumps}
        assert offered <= covered


# ---------------------------------------------------------------------------
# Mutants: the kernel's own code run over altered tables, or a rule deleted


MASKS_SOURCE = source_form("moonrules.kernel.masks")
"""The masks module as Python source (mutants are built from its functions' code)."""

SEARCH_SOURCE = source_form("moonrules.analysis.search")
"""The solver's search as Python source: a compiled search calls ``legal_mask`` directly,
past any patch, so the mutants run the source form."""


def _with_globals(fn: Callable[..., Any], **changes: object) -> Any:
    """``fn``'s code with some of its module's globals replaced (a compiled mutant)."""
    env = {**fn.__globals__, **changes}
    return types.FunctionType(fn.__code__, env, fn.__name__, fn.__defaults__, fn.__closure__)


def _strength(key: Callable[[Any, int, Trump], int]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """A strength table ``[trump][suit][tile]`` from ``key(tile, suit, trump)`` (-1: never wins)."""
    return tuple(
        tuple(tuple(key(t, suit, trump) for t in TILES) for suit in range(8)) for trump in Trump
    )


def _key(
    trump_offset: int = 16, double_rank: int | None = None, reverse_trumps: bool = False
) -> Callable[[Any, int, Trump], int]:
    """The strength of TRICK-2 (trumps ``trump_offset`` above the suit), optionally altered."""

    def key(t: Any, suit: int, trump: Trump) -> int:
        if is_trump(t, trump):
            r = rank(t, TRUMP_SUIT, trump)
            if reverse_trumps:
                r = 7 - r
            if double_rank is not None and t.is_double and trump.is_number:
                r = double_rank
            return trump_offset + r
        if in_suit(t, suit, trump):
            r = rank(t, suit, trump)
            if double_rank is not None and t.is_double:
                r = double_rank
            return r
        return -1

    return key


def _mutant(
    legal: Callable[..., int] | None = None,
    strength: tuple[tuple[tuple[int, ...], ...], ...] | None = None,
    led: tuple[tuple[int, ...], ...] | None = None,
) -> Kernel:
    live = Kernel.live()
    st = tables.STRENGTH if strength is None else strength
    ls = tables.LED_SUIT if led is None else led
    winner = _with_globals(tables.winner_index, STRENGTH=st, LED_SUIT=ls)
    return attrs.evolve(
        live,
        legal_mask=live.legal_mask if legal is None else legal,
        winner_index=winner,
        strength=st,
        led_suit=ls,
    )


_LEGAL_MASK = masks.legal_mask
"""The live function, kept: a mutant patched over it still calls this one."""


def _lead2_deleted(held: int, led: int, trump: int, rules: RuleSet, done: int) -> int:
    return _LEGAL_MASK(held, led, trump, rules, 1 if done == 0 else done)


def _lead2_every_lead(held: int, led: int, trump: int, rules: RuleSet, done: int) -> int:
    return _LEGAL_MASK(held, led, trump, rules, 0)


def _no_follow3(held: int, led: int, trump: int, rules: RuleSet, done: int) -> int:
    if led >= 0:
        return held & tables.FOLLOW_MASK[trump][led]
    return _LEGAL_MASK(held, led, trump, rules, done)


_INVERTED_FOLLOW = tuple(tuple(~m & ((1 << 28) - 1) for m in row) for row in tables.FOLLOW_MASK)
_TRUMP_FOLLOWS_SUIT = tuple(
    tuple(
        m
        | (
            0
            if tables.LED_SUIT[tv][i] == TRUMP_SUIT
            else sum(
                1 << t.index
                for t in TILES
                if is_trump(t, Trump(tv)) and t.has(tables.LED_SUIT[tv][i])
            )
        )
        for i, m in enumerate(row)
    )
    for tv, row in enumerate(tables.FOLLOW_MASK)
)
_OFF_SUIT_WINS = tuple(
    tuple(
        tuple(
            s if s >= 0 else tables.STRENGTH[tv][tables.LED_SUIT[tv][i]][i]
            for i, s in enumerate(row)
        )
        for row in rows
    )
    for tv, rows in enumerate(tables.STRENGTH)
)
_LOW_END_LEADS = tuple(
    tuple(TRUMP_SUIT if is_trump(t, trump) else t.low for t in TILES) for trump in Trump
)

MUTANTS: dict[str, Callable[[], Kernel]] = {
    "LEAD-2 deleted from the mask": lambda: _mutant(legal=_lead2_deleted),
    "LEAD-2 never binds": lambda: _mutant(
        legal=_with_globals(MASKS_SOURCE.legal_mask, _FIRST_LEAD_TRUMP=FirstLead.ANY)
    ),
    "LEAD-2 binds every lead": lambda: _mutant(legal=_lead2_every_lead),
    "LEAD-2 on the wrong tiles (no trump mask)": lambda: _mutant(
        legal=_with_globals(MASKS_SOURCE.legal_mask, TRUMP_MASK=(0,) * 9)
    ),
    "follow inverted": lambda: _mutant(
        legal=_with_globals(MASKS_SOURCE.legal_mask, FOLLOW_MASK=_INVERTED_FOLLOW)
    ),
    "FOLLOW-3 deleted": lambda: _mutant(legal=_no_follow3),
    "a trump follows its other number's suit": lambda: _mutant(
        legal=_with_globals(MASKS_SOURCE.legal_mask, FOLLOW_MASK=_TRUMP_FOLLOWS_SUIT)
    ),
    "the led suit is the lower end": lambda: _mutant(led=_LOW_END_LEADS),
    "trump ranks from the wrong end": lambda: _mutant(
        strength=_strength(_key(reverse_trumps=True))
    ),
    "the double ranks as the blank": lambda: _mutant(strength=_strength(_key(double_rank=0))),
    "a trump does not beat the suit led": lambda: _mutant(strength=_strength(_key(trump_offset=0))),
    "a tile off the suit led can win": lambda: _mutant(strength=_OFF_SUIT_WINS),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_of_the_kernel_is_caught(name: str) -> None:
    kernel = MUTANTS[name]()
    found = []
    for rules in FIELD_VALUES.values():
        found = kernel_mismatches(rules, kernel, limit=1)
        if found:
            break
    assert found, f"the kernel check misses the mutant: {name}"


# ---------------------------------------------------------------------------
# The game, the solver and the claim search run on the kernel


def _patched_everywhere(monkeypatch: pytest.MonkeyPatch, original: object, mutant: object) -> int:
    """Replace ``original`` by ``mutant`` in every loaded moonrules module; how many places."""
    count = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("moonrules") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attr, mutant)
                count += 1
    return count


def _first_leads(rules: RuleSet) -> Iterator[GameState]:
    """Opening-lead states (seeded random auctions) where the leader holds a trump and
    another tile."""
    for seed in range(500):
        s = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while s.phase is not Phase.PLAY:
            s = apply(s, rng.choice(legal_actions(s)))
        held = s.hand.hands[s.hand.leader]
        if 0 != held & masks.TRUMP_MASK[s.hand.trump] != held:
            yield s


@pytest.mark.parametrize(
    "mutant",
    [_lead2_deleted, _with_globals(MASKS_SOURCE.legal_mask, _FIRST_LEAD_TRUMP=FirstLead.ANY)],
    ids=["LEAD-2 deleted from the mask", "LEAD-2 never binds"],
)
def test_game_solver_and_claims_run_on_the_kernel(
    monkeypatch: pytest.MonkeyPatch, mutant: object
) -> None:
    """With LEAD-2 deleted from the kernel, the game, the solver and the claim search
    all answer differently at some opening lead under ``first_lead = trump``: each of
    them runs on the kernel's copy of the rule, the one the check above proves."""
    rules = PRESETS["lead-trump"]
    states = list(itertools.islice(_first_leads(rules), 12))
    s = states[0]

    def mutated(answer: Callable[[], object]) -> object:
        with monkeypatch.context() as patch:
            patch.setattr(solver, "_impl", SEARCH_SOURCE)
            assert _patched_everywhere(patch, _LEGAL_MASK, mutant) >= 3
            return answer()

    assert mutated(lambda: legal_play_mask(s)) != legal_play_mask(s), "the game"
    assert mutated(lambda: play_values(s)) != play_values(s), "the solver"
    # The defenders' claims: a leader free of LEAD-2 can hold them to fewer tricks.
    claims = [(c, seat) for c in states for seat in range(3) if seat != c.to_act]
    assert any(
        mutated(lambda c=c, seat=seat: verify_claim(c, seat)) != verify_claim(c, seat)
        for c, seat in claims
    ), "the claim search"


def test_no_copy_of_the_play_rules_outside_the_kernel() -> None:
    """The game's moves, the solver, the claim search and the bots' legal plays and
    inferences take the follow and first-lead rules from the kernel only: none of them
    reads the follow table, the trump mask or the first-lead option itself."""
    root = Path(moonrules.__file__).parent
    for path in (
        "game/play.py",
        "analysis/solver.py",
        "analysis/search.py",
        "analysis/claim.py",
        "game/knowledge.py",
        "bots/base.py",
    ):
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not names & {"FOLLOW_MASK", "TRUMP_MASK", "FirstLead", "first_lead"}, path
