"""Claims (CLAIM-1): the exhaustive search agrees with a brute-force enumeration.

The brute force walks every legal line of play to the end of the hand with the
engine's own ``legal_actions`` and ``apply`` (a plain min-max over the whole
tree: the claimant's side picks its best play, every other player the play worst
for the claimant), so it shares no code with :mod:`moonrules.analysis.claim`'s search.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from depth import DEEP
from gamehelpers import play_until
from hypothesis import given, settings
from hypothesis import strategies as st

import moonrules as m
from moonrules.analysis.claim import ClaimError, describe_line, verify_claim
from moonrules.cli.main import main
from moonrules.records.notation import ClaimLine, write_notation
from moonrules.records.record import to_record


def _ending(preset: str | m.RuleSet, seed: int, tricks_left: int, extra: int) -> m.GameState | None:
    """A random legal game stopped in play with ``tricks_left`` tricks to go, ``extra`` plays
    into the current trick."""

    def there(s: m.GameState) -> bool:
        h = s.hand
        return (
            s.phase is m.Phase.PLAY and 7 - len(h.tricks) == tricks_left and len(h.trick) == extra
        )

    return play_until(m.new_game(preset, seed=seed), random.Random(seed), there, max_steps=2000)


def _brute(s: m.GameState, number: int, side: frozenset[int]) -> int:
    """Tricks the side takes from here to the end of the hand under min-max, by enumeration."""
    values = []
    for a in m.legal_actions(s):
        nxt = m.apply(s, a)
        done = nxt.hand if nxt.hand.number == number else nxt.history[-1]
        won = 0
        if len(done.tricks) > len(s.hand.tricks):
            won = 1 if done.tricks[-1].winner in side else 0
        rest = 0 if done.phase is m.Phase.DONE else _brute(nxt, number, side)
        values.append(won + rest)
    return max(values) if s.to_act in side else min(values)


def _side(rules: m.RuleSet, seat: int) -> frozenset[int]:
    return frozenset(s for s in range(rules.players) if rules.side_of(s) == rules.side_of(seat))


THREE = [p for p in sorted(m.PRESETS) if m.PRESETS[p].players == 3]
FOUR = [p for p in sorted(m.PRESETS) if m.PRESETS[p].players == 4]


@st.composite
def endings(draw: st.DrawFn) -> tuple[m.GameState, int]:
    four = draw(st.booleans())
    preset = draw(st.sampled_from(FOUR if four else THREE))
    players = 4 if four else 3
    left = draw(st.integers(2, 2 if four else 3))
    extra = draw(st.integers(0, players - 1))
    for _ in range(20):
        s = _ending(preset, draw(st.integers(0, 2**32)), left, extra)
        if s is not None:
            return s, draw(st.integers(0, players - 1))
    s = _ending(preset, 1, 2, 0)
    assert s is not None
    return s, 0


@settings(max_examples=max(150, settings().max_examples), deadline=None)
@given(endings())
def test_claims_agree_with_brute_force(case: tuple[m.GameState, int]) -> None:
    s, seat = case
    rules = s.rules
    side = _side(rules, seat)
    truth = _brute(s, s.hand.number, side)
    left = 7 - len(s.hand.tricks)
    for k in range(1, left + 1):
        r = verify_claim(s, seat, k)
        assert r.holds == (truth >= k)
        assert r.guaranteed == truth
        assert (r.claimed, r.remaining) == (k, left)
        if not r.holds:
            _check_defeating_line(s, seat, r.defeating_line, truth)
        else:
            assert r.defeating_line == ()
    assert verify_claim(s, seat).holds == (truth == left)


def _check_defeating_line(
    s: m.GameState, seat: int, line: tuple[tuple[int, m.Tile], ...], truth: int
) -> None:
    """The line is legal play to the end of the hand, and the side takes ``truth`` tricks."""
    side = _side(s.rules, seat)
    number = s.hand.number
    before = len(s.hand.tricks)
    cur = s
    for who, t in line:
        assert cur.to_act == who
        cur = m.apply(cur, m.Play(t), seat=who)
    done = cur.hand if cur.hand.number == number else cur.history[-1]
    assert done.phase is m.Phase.DONE and len(done.tricks) == 7
    assert sum(1 for tr in done.tricks[before:] if tr.winner in side) == truth
    text = describe_line(s, line)
    assert text.count("wins)") == 7 - before


def test_claim_errors() -> None:
    s = m.new_game(seed=1)
    with pytest.raises(ClaimError, match="during play") as info:
        verify_claim(s, 0)
    assert info.value.rule == "CLAIM-1"
    e = _ending("standard", 3, 3, 0)
    assert e is not None
    with pytest.raises(ClaimError, match="no seat 3"):
        verify_claim(e, 3)
    with pytest.raises(ClaimError, match="1 to 3 tricks"):
        verify_claim(e, 0, 4)
    with pytest.raises(ClaimError, match="1 to 3 tricks"):
        verify_claim(e, 0, 0)


def _by_first_lead(s: m.GameState, seat: int) -> int:
    """The tricks ``seat``'s side is sure of from the first lead, one ply by hand: the best
    (for the leader's side) or worst (for the others) of the claims after each lead the
    game allows, so the first-lead rule (LEAD-1, LEAD-2) comes from ``legal_actions``."""
    after = [verify_claim(m.apply(s, a), seat).guaranteed for a in m.legal_actions(s)]
    return max(after) if s.to_act in _side(s.rules, seat) else min(after)


FIRST_LEADS = (
    [(p, seed) for p in sorted(m.PRESETS) for seed in range(3)]
    if DEEP
    else [("standard", 5), ("no-double-blank", 0), ("lead-trump", 1)]
)
"""(preset, seed) of the first-lead positions: by default one per tile set and first-lead
rule, at seeds whose search is quick (any seed is valid); every preset, four-player ones
included (tens of seconds each), with ``MOONRULES_DEEP=1``."""


@pytest.mark.parametrize(("preset", "seed"), FIRST_LEADS)
def test_a_claim_from_the_first_lead_is_searched_in_full(preset: str, seed: int) -> None:
    """A claim at the first lead of a hand, by the leader and by another side, equals the
    claims one lead later, combined over the leads the rules allow."""
    s = _ending(preset, seed, 7, 0)
    assert s is not None and s.to_act is not None
    for seat in (s.to_act, (s.to_act + 1) % s.rules.players):
        assert verify_claim(s, seat).guaranteed == _by_first_lead(s, seat), seat


def test_the_first_lead_rule_changes_a_claim() -> None:
    """Under ``first_lead = trump`` (LEAD-2) a claim is searched over trump leads only: in
    this deal it differs from the claim of the same position with any first lead, so a
    search that forgot LEAD-2 would give the other value."""
    free = m.RuleSet(first_lead="any")
    trump = m.RuleSet(first_lead="trump")
    s, f = _ending(trump, 2, 7, 0), _ending(free, 2, 7, 0)
    assert s is not None and f is not None and s.hands == f.hands and s.trump == f.trump
    assert len(m.legal_actions(s)) < len(m.legal_actions(f))
    seat = (s.to_act + 1) % 3 if s.to_act is not None else 0
    held = verify_claim(s, seat).guaranteed
    assert held == _by_first_lead(s, seat)
    assert held != verify_claim(f, seat).guaranteed == _by_first_lead(f, seat)


def _claim_file(tmp_path: Path, *, holds: bool) -> tuple[Path, m.GameState, int]:
    for seed in range(500):
        e = _ending("standard", seed, 3, 0)
        if e is None:
            continue
        seat = e.to_act or 0
        r = verify_claim(e, seat)
        if r.holds == holds:
            f = tmp_path / "claim.moon"
            f.write_text(write_notation(to_record(e), claim=ClaimLine(0, seat, None, 0)))
            return f, e, seat
    raise AssertionError("no such ending")


def test_claim_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f, e, seat = _claim_file(tmp_path, holds=False)
    assert main(["claim", str(f)]) == 1
    out = capsys.readouterr().out
    assert "The claim fails (CLAIM-1)" in out and "A line of play that defeats it: trick 5" in out
    assert main(["check", str(f)]) == 1
    assert "The claim fails (CLAIM-1)." in capsys.readouterr().out
    best = verify_claim(e, seat).guaranteed
    if best:
        assert main(["claim", str(f), "--seat", str(seat), "--tricks", str(best)]) == 0
        assert "The claim holds" in capsys.readouterr().out
    assert main(["claim", str(f), "--seat", "7"]) == 2
    assert "no seat 7" in capsys.readouterr().err
    g, _, _ = _claim_file(tmp_path, holds=True)
    assert main(["check", str(g)]) == 0
    assert "the claim holds (CLAIM-1)" in capsys.readouterr().out
    fresh = tmp_path / "fresh.json"
    import json

    fresh.write_text(json.dumps(to_record(m.new_game(seed=2))))
    assert main(["claim", str(fresh), "--seat", "0"]) == 2
    assert "during play" in capsys.readouterr().err
