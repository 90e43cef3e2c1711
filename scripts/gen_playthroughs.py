"""Write the pinned playthroughs: tests/playthroughs/<preset>.txt for every preset.

A playthrough is one seeded game under a preset, its actions chosen at random by
``random.Random(SEED)`` (see :func:`choose_action`), printed as plain text: the state
before each action (hand, phase, scores, every seat's tiles, the widow, the
auction, trump, the trick in progress, the legal actions), the action taken, each
hand's result, and the final result. The game is played to its end, or until
``HANDS`` hands (thrown-in hands included) have been completed.

``tests/test_playthroughs.py`` regenerates every playthrough in memory and compares
it with the file, so any change in the rules engine's behaviour shows up as a diff.
When a change is intended, regenerate the files and review the diff::

    python scripts/gen_playthroughs.py
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import moonrules  # noqa: E402
from moonrules import GameState, Phase, RuleSet, Tile, Trick  # noqa: E402

SEED = 1
"""The game's seed and the seed of the random player."""
HANDS = 3
"""Hands to play at most (the game may end sooner)."""
PLAYTHROUGH_DIR = ROOT / "tests" / "playthroughs"
REGENERATE = "python scripts/gen_playthroughs.py"


def path_for(preset: str) -> Path:
    """The playthrough file of a preset."""
    return PLAYTHROUGH_DIR / f"{preset}.txt"


def _tiles(ts: Iterable[Tile]) -> str:
    """Tiles highest first, as "6-6 6-4 3-1"; "-" for none."""
    text = " ".join(str(t) for t in sorted(ts, reverse=True))
    return text or "-"


def _side(rules: RuleSet, side: int) -> str:
    if rules.partnership:
        return f"team {side} (seats {side} and {side + 2})"
    return f"seat {side}"


def _scores(rules: RuleSet, scores: Sequence[int]) -> str:
    label = "team" if rules.partnership else "seat"
    return " ".join(f"{label}{i}={s}" for i, s in enumerate(scores))


def _opt(value: object) -> str:
    return "-" if value is None else str(value)


def _trick(trick: Trick, players: int) -> str:
    plays = ", ".join(f"seat {trick.seat_of(i, players)} {t}" for i, t in enumerate(trick.tiles))
    return f"{plays} -> won by seat {trick.winner}"


def rules_text(rules: RuleSet) -> str:
    """Every field of a rule set, one line."""
    return " ".join(f"{k}={v}" for k, v in rules.to_json().items())


def state_text(state: GameState) -> list[str]:
    """The state of a game before an action, as lines."""
    rules = state.rules
    n = rules.players
    lines = [
        f"hand {state.hand_number} | phase {state.phase.value} | "
        f"scores {_scores(rules, state.scores)}",
        f"  first bidder: seat {state.first_bidder} | to act: seat {_opt(state.to_act)}",
    ]
    for seat, hand in enumerate(state.hands):
        lines.append(f"  seat {seat}: {_tiles(hand)}")
    if state.widow is not None:
        where = "taken by the bidder" if state.hand.widow_taken else "face down"
        lines.append(f"  widow: {state.widow} ({where})")
    calls = ", ".join(f"seat {(state.first_bidder + i) % n} {c}" for i, c in enumerate(state.calls))
    lines.append(f"  calls: {calls or '-'}")
    if state.bidder is not None:
        discard = f" | discard: {_opt(state.discard)}" if rules.has_widow else ""
        lines.append(
            f"  bidder: seat {state.bidder} | bid: {state.bid} | trump: {_opt(state.trump)}"
            + discard
        )
    if state.phase is Phase.PLAY:
        for i, trick in enumerate(state.tricks, 1):
            lines.append(f"  trick {i}: {_trick(trick, n)}")
        assert state.leader is not None
        current = ", ".join(f"seat {(state.leader + i) % n} {t}" for i, t in enumerate(state.trick))
        lines.append(
            f"  trick {len(state.tricks) + 1} (led by seat {state.leader}): {current or '-'}"
        )
        lines.append(f"  tricks won: {' '.join(map(str, state.tricks_won))}")
    legal = ", ".join(str(a) for a in moonrules.legal_actions(state))
    lines.append(f"  legal: {legal}")
    return lines


def hand_result_text(rules: RuleSet, hand: moonrules.Hand, scores: Sequence[int]) -> list[str]:
    """How a finished hand ended, and the scores after it."""
    if hand.thrown_in:
        return [f"hand {hand.number} thrown in: everyone passed | scores {_scores(rules, scores)}"]
    made = hand.deltas is not None and hand.deltas[rules.side_of(hand.bidder)] > 0
    return [
        f"hand {hand.number} over: seat {hand.bidder} bid {hand.bid}, "
        f"tricks won {' '.join(map(str, hand.tricks_won))}, "
        f"{'made' if made else 'set'} | deltas {' '.join(map(str, hand.deltas or ()))} | "
        f"scores {_scores(rules, scores)}"
    ]


def choose_action(state: GameState, rng: random.Random) -> moonrules.Action:
    """A random legal action. In the auction a player passes half the time (and whenever
    only 21 is left to bid) if allowed, shoots the moon one time in fifty, and otherwise
    bids a random legal bid below 21; other actions are chosen uniformly."""
    legal = moonrules.legal_actions(state)
    if state.phase is not Phase.BIDDING:
        return rng.choice(legal)
    r = rng.random()
    bids = [a for a in legal if isinstance(a, moonrules.Bid)]
    low = [b for b in bids if b.amount != 21]
    if r > 0.98 and bids:
        return bids[-1]
    if moonrules.Pass() in legal and (r < 0.5 or not low):
        return moonrules.Pass()
    return rng.choice(low or bids)


def render_playthrough(preset: str, seed: int = SEED, hands: int = HANDS) -> str:
    """The playthrough of ``preset`` as text: deterministic for a given engine."""
    rules = moonrules.PRESETS[preset]
    rng = random.Random(seed)
    state = moonrules.new_game(rules, seed=seed)
    out = [
        f"# moonrules playthrough: preset {preset}, game seed {seed}, "
        f"actions chosen by random.Random({seed}), at most {hands} hands",
        f"# regenerate with: {REGENERATE}",
        f"rules: {rules_text(rules)}",
        "",
    ]
    step = 0
    while not state.is_over and state.hand_number <= hands:
        step += 1
        out.append(f"step {step}")
        out.extend(state_text(state))
        action = choose_action(state, rng)
        out.append(f"  action: seat {state.to_act} {action}")
        before = state.hand_number
        state = moonrules.apply(state, action)
        if state.is_over:
            out.extend(hand_result_text(rules, state.hand, state.scores))
        elif state.hand_number != before:
            out.extend(hand_result_text(rules, state.history[-1], state.scores))
        out.append("")
    if state.is_over:
        assert state.winner is not None
        out.append(
            f"game over after hand {state.hand_number}: {_side(rules, state.winner)} wins | "
            f"scores {_scores(rules, state.scores)}"
        )
    else:
        out.append(
            f"stopped after {state.hand_number - 1} hands, the game not over | "
            f"scores {_scores(rules, state.scores)}"
        )
    out.append(f"{step} actions, {len(state.history)} earlier hands in the history")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    """Write every preset's playthrough; remove files of presets that no longer exist."""
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    for preset in moonrules.PRESETS:
        path = path_for(preset)
        text = render_playthrough(preset)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, encoding="utf-8")
            print(f"{'updated' if old is not None else 'created'} {path.relative_to(ROOT)}")
    for path in sorted(PLAYTHROUGH_DIR.glob("*.txt")):
        if path.stem not in moonrules.PRESETS:
            path.unlink()
            print(f"removed {path.relative_to(ROOT)} (no such preset)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
