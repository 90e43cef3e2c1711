"""Every refusal of every preset, in every language (issue 49).

The kinds of refusal are found, not listed: every clause ID the rules and the game raise
an error with is read from their source, and every preset's seeded games are probed with
every action a player could try at each step (every call, discard, trump, tile, a claim,
an action out of turn or after the end, a renege). Each refusal found is rendered in each
language: a sentence of its own for every refusal a game can raise, in the language asked
(never the English one), every placeholder filled, its clause at the end; and ``str``
of the error still English.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from moonrules import (
    TILES,
    Bid,
    Discard,
    IllegalAction,
    NameTrump,
    Pass,
    Phase,
    Play,
    Trump,
    apply,
    apply_claim,
    apply_renege,
    illegal_play_reason,
    legal_actions,
    new_game,
)
from moonrules.i18n import LANGUAGES, SOURCE_LANGUAGE, render
from moonrules.i18n.rulebook import clause_title
from moonrules.rules.ruleset import PRESETS

ROOT = Path(__file__).resolve().parents[1]
_RAISED = re.compile(
    r"(?:IllegalAction|ClaimError|ClaimDoesNotHold|OutOfTurn|illegal)\(\s*\"([A-Z]+-\d+)\""
)
_ID = re.compile(r"^### ([A-Z]+-\d+) ", re.MULTILINE)


def _raised_in_source() -> set[str]:
    found: set[str] = set()
    for package in ("rules", "game"):
        for path in (ROOT / "moonrules" / package).glob("*.py"):
            found |= set(_RAISED.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_clause_the_rules_raise_is_a_clause_with_a_title_in_every_language() -> None:
    raised = _raised_in_source()
    assert {"TRICK-1", "FOLLOW-2", "BID-3", "WIDOW-1", "TRUMP-5", "DEAL-3"} <= raised
    clauses = set(_ID.findall((ROOT / "spec" / "rules.md").read_text(encoding="utf-8")))
    assert raised <= clauses, raised - clauses
    for rule in sorted(raised):
        english = render(IllegalAction(rule, "x", seat=1, tile=TILES[0]), SOURCE_LANGUAGE)
        for lang in LANGUAGES:
            assert clause_title(rule, lang), (rule, lang)
            text = render(IllegalAction(rule, "x", seat=1, tile=TILES[0]), lang)
            assert rule in text and "{" not in text
            if lang != SOURCE_LANGUAGE:
                assert text != english, (rule, lang)


def _refused(thunk: object) -> IllegalAction | None:
    assert callable(thunk)
    try:
        thunk()
    except IllegalAction as e:
        return e
    return None


def _kind(e: IllegalAction) -> tuple[object, ...]:
    return (
        type(e).__name__,
        e.rule,
        e.seat is None,
        e.tile is None,
        e.call is None,
        e.trump is None,
        bool(e.allowed_tiles),
        bool(e.allowed_calls),
        bool(e.allowed_trumps),
    )


def _probe(state: object, found: dict[tuple[object, ...], IllegalAction]) -> None:
    """Every action a player could try in ``state``, refused or not; the refusals kept."""
    from moonrules import GameState

    assert isinstance(state, GameState)
    tries: list[object] = []
    to_act = state.to_act
    other = 0 if to_act != 0 else 1
    if state.is_over:
        tries += [lambda: apply(state, Pass()), lambda: apply(state, Play(TILES[0]))]
    elif state.phase is Phase.BIDDING:
        tries += [lambda c=c: apply(state, Bid(c)) for c in (1, 2, 3, 4, 8, 20, 21, 22)]
        tries += [lambda: apply(state, Pass(), seat=other), lambda: apply(state, Play(TILES[0]))]
        tries += [lambda: apply_claim(state, other)]
    elif state.phase is Phase.DISCARD:
        tries += [lambda t=t: apply(state, Discard(t)) for t in TILES[::3]]
    elif state.phase is Phase.TRUMP:
        tries += [lambda t=t: apply(state, NameTrump(t)) for t in Trump]
    else:
        tries += [lambda t=t: apply(state, Play(t)) for t in TILES if illegal_play_reason(state, t)]
        tries += [lambda: apply_claim(state, other), lambda: apply_claim(state, 9)]
        tries += [lambda t=t: apply_renege(state, t) for t in TILES[:8]]
        if len(state.hand.tricks) >= 5 and to_act is not None:  # a cheap claim to solve
            tries += [lambda: apply_claim(state, to_act)]
    for thunk in tries:
        e = _refused(thunk)
        if e is not None:
            found.setdefault(_kind(e), e)


@functools.cache
def preset_refusals(preset: str) -> tuple[IllegalAction, ...]:
    """One refusal of each kind the games of ``preset`` raise, from seeded games."""
    found: dict[tuple[object, ...], IllegalAction] = {}
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(preset, seed=seed)
        while not state.is_over and state.hand_number <= 2:
            _probe(state, found)
            state = apply(state, rng.choice(legal_actions(state)))
        for _ in range(3000):  # random play ends most games (END-1); not every one
            if state.is_over:
                _probe(state, found)
                break
            state = apply(state, rng.choice(legal_actions(state)))
    return tuple(found.values())


SPECIFIC = {
    "TRICK-1",
    "LEAD-2",
    "FOLLOW-1",
    "FOLLOW-2",
    "TURN-1",
    "BID-2",
    "BID-3",
    "BID-4",
    "BID-5",
    "BID-6",
    "BID-7",
    "BID-8",
    "CLAIM-1",
    "END-1",
    "WIDOW-1",
    "TRUMP-5",
    "RENEGE-1",
    "RENEGE-2",
    "SEAT-1",
}
"""The clauses a game refuses with a sentence of their own."""


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_refusal_of_every_preset_in_every_language(preset: str) -> None:
    refusals = preset_refusals(preset)
    rules = {e.rule for e in refusals}
    assert {"TURN-1", "BID-4", "END-1"} <= rules, rules
    assert rules & {"FOLLOW-1", "FOLLOW-2", "TRICK-1"}, rules
    assert rules <= SPECIFIC, rules - SPECIFIC
    if PRESETS[preset].has_widow:
        assert "WIDOW-1" in rules
    for e in refusals:
        english = render(e, SOURCE_LANGUAGE)
        message = str(e)
        for lang in LANGUAGES:
            text = render(e, lang)
            assert text.endswith(f"({e.rule})"), (lang, text)
            assert "\n" not in text and "{" not in text and " ? " not in text, (lang, text)
            if e.seat is not None and e.rule not in ("BID-2", "BID-3", "BID-4", "BID-5"):
                assert str(e.seat) in text, (lang, text)
            if lang != SOURCE_LANGUAGE:
                assert text != english and e.message not in text, (lang, text)
        assert str(e) == message  # the error stays English
