"""The pinned playthroughs: one seeded game per preset, rendered as text, must match
``tests/playthroughs/<preset>.txt``. A difference means the engine's behaviour changed; if
the change is intended, run ``python scripts/gen_playthroughs.py`` and review the diff."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import moonrules

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import gen_playthroughs  # noqa: E402

PRESET_NAMES = tuple(moonrules.PRESETS)


def first_difference(expected: str, actual: str) -> str:
    """Where two texts first differ, as a message naming the line."""
    old, new = expected.splitlines(), actual.splitlines()
    for i, (a, b) in enumerate(zip(old, new, strict=False), 1):
        if a != b:
            return f"line {i} differs:\n  file:      {a}\n  generated: {b}"
    if len(old) != len(new):
        i = min(len(old), len(new)) + 1
        longer, which = (old, "file") if len(old) > len(new) else (new, "generated text")
        return f"line {i} is only in the {which}: {longer[i - 1]}"
    return "the texts differ only in line endings or a final newline"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playthrough_matches_its_file(preset: str) -> None:
    path = gen_playthroughs.path_for(preset)
    if not path.exists():
        pytest.fail(
            f"preset {preset!r} has no playthrough file {path.relative_to(ROOT)}; "
            f"run `{gen_playthroughs.REGENERATE}` to create it"
        )
    expected = path.read_text(encoding="utf-8")
    actual = gen_playthroughs.render_playthrough(preset)
    if actual != expected:
        pytest.fail(
            f"the playthrough of {preset!r} no longer matches {path.relative_to(ROOT)}: "
            f"{first_difference(expected, actual)}\n"
            f"If the change is intended, run `{gen_playthroughs.REGENERATE}` and review the diff."
        )


def test_every_playthrough_file_belongs_to_a_preset() -> None:
    stale = sorted(
        p.name
        for p in gen_playthroughs.PLAYTHROUGH_DIR.glob("*.txt")
        if p.stem not in moonrules.PRESETS
    )
    assert not stale, (
        f"playthroughs of unknown presets: {stale}; run `{gen_playthroughs.REGENERATE}`"
    )


def test_playthrough_text_is_deterministic() -> None:
    preset = PRESET_NAMES[0]
    assert gen_playthroughs.render_playthrough(preset) == gen_playthroughs.render_playthrough(
        preset
    )


def test_playthrough_shows_every_decision() -> None:
    """Each step shows the state and the action taken; a hand's end shows its result."""
    text = gen_playthroughs.render_playthrough("standard")
    steps = text.count("\nstep ")
    assert steps > 3 * 20
    assert text.count("  action: seat ") == steps
    assert text.count("  legal: ") == steps
    for phase in ("bidding", "discard", "trump", "play"):
        assert f"| phase {phase} |" in text
    for seat in range(3):
        assert f"\n  seat {seat}: " in text
    assert "hand 1 over: " in text or "hand 1 thrown in" in text
    assert text.endswith("earlier hands in the history\n")


def test_first_difference_names_the_line() -> None:
    assert first_difference("a\nb\nc\n", "a\nx\nc\n").startswith("line 2 differs")
    assert first_difference("a\nb\n", "a\nb\nc\n").startswith("line 3 is only in the generated")
    assert first_difference("a\nb\nc\n", "a\nb\n").startswith("line 3 is only in the file")
