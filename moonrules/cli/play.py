"""``moonrules play``: a seeded game between random players, printed hand by hand."""

from __future__ import annotations

import argparse
import random

from moonrules.game import (
    Bid,
    Discard,
    GameState,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply,
    legal_actions,
    new_game,
)
from moonrules.rules.ruleset import as_rules

HELP = "play a seeded game between random players and print it hand by hand"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    p.add_argument("--rules", default="standard", help="a preset name (default standard)")
    p.add_argument(
        "--players-seed",
        type=int,
        default=None,
        help="seed of the random players' choices (default: the game's seed)",
    )


def _side_name(state: GameState, side: int) -> str:
    return f"team {side} (seats {side}+{side + 2})" if state.rules.partnership else f"seat {side}"


def play_text(rules: str, seed: int, players_seed: int | None = None) -> list[str]:
    """The lines ``moonrules play`` prints."""
    r = as_rules(rules)
    state = new_game(r, seed)
    rng = random.Random(seed if players_seed is None else players_seed)
    lines = [f"Moon ({r.name or 'custom rules'}), seed {seed}, {r.players} players"]
    while not state.is_over:
        h = state.hand
        if h.phase is Phase.BIDDING and not h.calls:
            lines.append("")
            lines.append(f"Hand {h.number} — first bidder: seat {h.first_bidder}")
            for s, tiles in enumerate(state.hands):
                lines.append(f"  seat {s}: {' '.join(str(t) for t in reversed(tiles))}")
            if state.widow is not None:
                lines.append(f"  widow: {state.widow}")
        seat = state.to_act
        assert seat is not None
        action = rng.choice(legal_actions(state))
        before = state
        state = apply(state, action)
        if isinstance(action, (Pass, Bid)):
            said = "passes" if isinstance(action, Pass) else f"bids {action.amount}"
            lines.append(f"  seat {seat} {said}")
            if (
                state.history
                and state.history[-1] is not before.hand
                and (state.history[-1].thrown_in and before.hand.number != state.hand.number)
            ):
                lines.append("  all pass: the hand is thrown in")
        elif isinstance(action, Discard):
            lines.append(f"  seat {seat} takes the widow and discards {action.tile}")
        elif isinstance(action, NameTrump):
            lines.append(f"  seat {seat} names trump: {action.trump}")
        elif isinstance(action, Play):
            finished = (
                before.hand.tricks
                != (
                    state.history[-1]
                    if state.history and before.hand.number != state.hand.number
                    else state.hand
                ).tricks
            )
            done_hand = state.history[-1] if before.hand.number != state.hand.number else state.hand
            if finished:
                trick = done_hand.tricks[-1]
                plays = ", ".join(
                    f"{trick.seat_of(i, r.players)}:{t}" for i, t in enumerate(trick.tiles)
                )
                lines.append(
                    f"  trick {len(done_hand.tricks)}: seat {trick.leader} leads — {plays} — "
                    f"seat {trick.winner} wins"
                )
            if done_hand.phase is Phase.DONE:
                bidder_side = r.side_of(done_hand.bidder)
                won = done_hand.tricks_won
                side_won = (won[0] + won[2], won[1] + won[3]) if r.partnership else won
                made = done_hand.deltas is not None and done_hand.deltas[bidder_side] > 0
                lines.append(
                    f"  {_side_name(state, bidder_side)} bid {done_hand.bid} and took "
                    f"{side_won[bidder_side]}: {'made' if made else 'set'}; "
                    f"score change {list(done_hand.deltas or ())}; scores {list(state.scores)}"
                )
    lines.append("")
    assert state.winner is not None
    lines.append(
        f"Game over after {state.hand_number} hands: {_side_name(state, state.winner)} wins "
        f"with scores {list(state.scores)}"
    )
    return lines


def run(args: argparse.Namespace) -> int:
    for line in play_text(args.rules, args.seed, args.players_seed):
        print(line)
    return 0
