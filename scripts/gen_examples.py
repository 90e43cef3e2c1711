"""Generate the example game records of ``examples/`` from seeded games.

Every record is played by simple table players (they bid on their longest suit,
name it trump, and play to win tricks cheaply) through the engine, so everything
up to the disputed step is legal; then the one illegal step of each dispute is
made by hand here. ``examples/verdicts.json`` states the verdict each record must
get (exit status, clause, and where), and ``tests/test_examples.py`` checks it.

Run from the repository root::

    python scripts/gen_examples.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import moonrules as m  # noqa: E402
from moonrules.analysis.claim import verify_claim  # noqa: E402
from moonrules.game import apply_renege, legal_play_mask  # noqa: E402
from moonrules.records.notation import ClaimLine, ScoreLine, write_notation  # noqa: E402
from moonrules.records.record import to_record  # noqa: E402
from moonrules.rules.suits import is_trump, led_suit, rank  # noqa: E402
from moonrules.rules.tiles import tiles_of  # noqa: E402
from moonrules.rules.tricks import trick_winner  # noqa: E402

OUT = ROOT / "examples"

Policy = Callable[[m.GameState], m.Action]


def _strength(hand: tuple[m.Tile, ...], trump: m.Trump) -> float:
    trumps = [t for t in hand if is_trump(t, trump)]
    doubles = [t for t in hand if t.is_double and not is_trump(t, trump)]
    high = sum(1 for t in trumps if t.is_double or t.other_end(trump.value or 0) >= 5)
    return len(trumps) + 0.5 * high + 0.4 * len(doubles) if trump.is_number else len(trumps)


def _best_trump(state: m.GameState, hand: tuple[m.Tile, ...]) -> m.Trump:
    offered = [t for t in state.rules.trumps if t is not m.Trump.NONE]
    return max(offered, key=lambda t: (_strength(hand, t), t.value))


def table_player(state: m.GameState, *, trump: m.Trump | None = None) -> m.Action:
    """A plain, sensible player: enough to make records look like real games."""
    legal = m.legal_actions(state)
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    phase = state.phase
    if phase is m.Phase.BIDDING:
        best = max(_strength(hand, t) for t in state.rules.trumps if t is not m.Trump.NONE)
        want = min(7, int(best)) if best >= 4 else 0
        bids = [a for a in legal if isinstance(a, m.Bid) and a.amount <= want]
        if bids:
            return bids[0]
        return legal[0]  # pass (or, when forced, the lowest bid)
    if phase is m.Phase.DISCARD:
        t = trump or _best_trump(state, hand)
        keep = sorted(hand, key=lambda x: (is_trump(x, t), x.is_double, x.high, x.low))
        return m.Discard(keep[0])
    if phase is m.Phase.TRUMP:
        choice = trump or _best_trump(state, hand)
        return m.NameTrump(choice if choice in state.rules.trumps else state.rules.trumps[0])
    t = state.trump
    assert t is not None
    tiles = [a.tile for a in legal if isinstance(a, m.Play)]
    trick = state.trick
    if not trick:
        trumps = [x for x in tiles if is_trump(x, t)]
        if len(trumps) >= 2:
            return m.Play(max(trumps, key=lambda x: rank(x, 7, t)))
        doubles = [x for x in tiles if x.is_double]
        if doubles:
            return m.Play(max(doubles))
        return m.Play(max(tiles, key=lambda x: (x.high, x.low)))
    winners = [x for x in tiles if trick_winner([*trick, x], t) == len(trick)]
    if winners:
        return m.Play(min(winners, key=lambda x: (is_trump(x, t), x.pips)))
    return m.Play(min(tiles, key=lambda x: (is_trump(x, t), x.pips)))


def play(
    state: m.GameState,
    *,
    until: Callable[[m.GameState], bool] = lambda s: False,
    trump: m.Trump | None = None,
    limit: int = 5000,
) -> m.GameState:
    for _ in range(limit):
        if state.is_over or until(state):
            return state
        state = m.apply(state, table_player(state, trump=trump))
    raise RuntimeError("the game did not end")


def _position(state: m.GameState) -> tuple[int, int]:
    h = state.hand
    return h.number - 1, sum(len(t.tiles) for t in h.tricks) + len(h.trick)


def write(name: str, text: str) -> None:
    (OUT / name).write_text(text, encoding="utf-8")
    if OUT == ROOT / "examples":
        print(f"wrote examples/{name}")


def dump(record: Any) -> str:
    return json.dumps(record, indent=1) + "\n"


def score_lines(state: m.GameState) -> list[ScoreLine]:
    totals = [0] * state.rules.sides
    out = []
    for i, h in enumerate((*state.history, state.hand)):
        if h.deltas is None:
            continue
        totals = [a + b for a, b in zip(totals, h.deltas, strict=True)]
        out.append(ScoreLine(i, tuple(totals), 0))
    return out


Verdicts = dict[str, dict[str, Any]]
"""Each example file's expected verdict, by name (written to ``verdicts.json``)."""


def main(out: Path | None = None) -> None:
    """Write every example (and ``verdicts.json``) to ``out`` (default ``examples/``)."""
    global OUT
    OUT = out or ROOT / "examples"
    OUT.mkdir(exist_ok=True)
    verdicts: Verdicts = {}
    for example in (
        _clean_game,
        _partnership_game,
        _renege_trump_follows,
        _renege_penalty,
        _doubles_lead_nondouble,
        _bid_twice,
        _bid_out_of_turn,
        _wrong_score,
        _claims,
    ):
        example(verdicts)
    write("verdicts.json", json.dumps(verdicts, indent=1) + "\n")


def _trump_follows(st: m.GameState) -> bool:
    """In play, a trump bears the suit led and the player to act also holds a real follower."""
    if st.phase is not m.Phase.PLAY or not st.trick or st.trump is None:
        return False
    suit = led_suit(st.trick[0], st.trump)
    if suit == 7:
        return False
    seat = st.to_act
    assert seat is not None
    hand = st.hands[seat]
    fake = [t for t in hand if is_trump(t, st.trump) and t.has(suit)]
    real = [t for t in hand if not is_trump(t, st.trump) and t.has(suit)]
    return bool(fake and real)


def _clean_game(verdicts: Verdicts) -> None:
    """A clean three-player game, JSON."""
    s = play(m.new_game("standard", seed=2024))
    write("clean-game.json", dump(to_record(s)))
    verdicts["clean-game.json"] = {"status": 0, "rule": None, "winner": s.winner}


def _partnership_game(verdicts: Verdicts) -> None:
    """A partnership game in the notation, with the score sheet."""
    s = play(m.new_game("partnership", seed=42))
    write(
        "partnership-game.moon",
        write_notation(
            to_record(s),
            scores=score_lines(s),
            comment="A four-player partnership game (seats 0+2 against 1+3), with the score "
            "sheet\nafter each hand. moonrules check examples/partnership-game.moon",
        ),
    )
    verdicts["partnership-game.moon"] = {"status": 0, "rule": None, "winner": s.winner}


def _renege_trump_follows(verdicts: Verdicts) -> None:
    """A renege with a trump tile "following" its other number (FOLLOW-2, SUIT-2)."""

    for seed in range(1, 500):
        s = play(m.new_game("standard", seed=seed), until=_trump_follows)
        if not s.is_over and s.history:  # a dispute in the second hand or later
            break
    assert s.trump is not None and s.to_act is not None
    suit = led_suit(s.trick[0], s.trump)
    fake = next(t for t in s.hands[s.to_act] if is_trump(t, s.trump) and t.has(suit))
    i, j = _position(s)
    record = to_record(s)
    record["hands"][i]["plays"].append(str(fake))
    write("renege-trump-follows.json", dump(record))
    verdicts["renege-trump-follows.json"] = {
        "status": 1,
        "rule": "FOLLOW-2",
        "hand": i,
        "step": "play",
        "index": j,
        "seat": s.to_act,
        "tile": str(fake),
        "legal": sorted(str(t) for t in tiles_of(legal_play_mask(s))),
    }


def _renege_penalty(verdicts: Verdicts) -> None:
    """The same kind of renege under renege = penalty (RENEGE-2): scored, and the game goes on."""
    for seed in range(1, 500):
        s = play(m.new_game("renege-penalty", seed=seed), until=_trump_follows)
        if not s.is_over and s.history:
            break
    assert s.trump is not None and s.to_act is not None
    suit = led_suit(s.trick[0], s.trump)
    fake = next(t for t in s.hands[s.to_act] if is_trump(t, s.trump) and t.has(suit))
    i, j = _position(s)
    reneger = s.to_act
    s = play(apply_renege(s, fake))
    write(
        "renege-penalty.moon",
        write_notation(
            to_record(s),
            scores=score_lines(s),
            comment=f"Under renege = penalty: seat {reneger}'s renege in hand {i + 1} ends the "
            "hand and is scored (RENEGE-2).",
        ),
    )
    verdicts["renege-penalty.moon"] = {
        "status": 0,
        "rule": None,
        "renege": {"hand": i, "index": j, "seat": reneger, "tile": str(fake)},
    }


def _doubles_lead_nondouble(verdicts: Verdicts) -> None:
    """Doubles trump: a double led, answered with a non-double by a player holding a double."""

    def doubles_lead(st: m.GameState) -> bool:
        if st.phase is not m.Phase.PLAY or st.trump is not m.Trump.DOUBLES or not st.trick:
            return False
        if not st.trick[0].is_double:
            return False
        hand = st.hands[st.to_act or 0]
        return any(t.is_double for t in hand) and any(not t.is_double for t in hand)

    for seed in range(1, 500):
        s = play(m.new_game("standard", seed=seed), until=doubles_lead, trump=m.Trump.DOUBLES)
        if not s.is_over:
            break
    seat = s.to_act
    assert seat is not None
    other = min((t for t in s.hands[seat] if not t.is_double), key=lambda t: t.pips)
    i, j = _position(s)
    record = to_record(s)
    record["hands"][i]["plays"].append(str(other))
    write(
        "doubles-lead-nondouble.moon",
        write_notation(
            record,
            comment=f"Doubles are trump; {s.trick[0]} is led and seat {seat}, holding a double, "
            f"plays {other}.",
        ),
    )
    verdicts["doubles-lead-nondouble.moon"] = {
        "status": 1,
        "rule": "FOLLOW-1",
        "hand": i,
        "step": "play",
        "index": j,
        "seat": seat,
        "tile": str(other),
        "legal": sorted(str(t) for t in tiles_of(legal_play_mask(s))),
    }


def _bid_twice(verdicts: Verdicts) -> None:
    """A call after the auction ended: a player calls a second time."""
    s = play(m.new_game("standard", seed=77), until=lambda st: st.hand_number == 2)
    s = play(s, until=lambda st: st.phase is not m.Phase.BIDDING)
    if s.hand_number != 2:
        raise RuntimeError("pick another seed: hand 2 was thrown in")
    record = to_record(s)
    hand = record["hands"][1]
    first = hand["first_bidder"]
    top = max((b for b in hand["bids"] if b != "pass"), default=4)
    again = (first + len(hand["bids"])) % 3
    hand["bids"].append(min(top + 1, 7))
    for key in ("discard", "trump", "plays"):
        hand.pop(key, None)
    write(
        "bid-twice.moon",
        write_notation(
            record,
            comment=f"Hand 2: seat {again} calls a second time after every player has called.",
        ),
    )
    verdicts["bid-twice.moon"] = {
        "status": 1,
        "rule": "BID-2",
        "hand": 1,
        "step": "bid",
        "index": len(hand["bids"]) - 1,
        "seat": again,
    }


def _bid_out_of_turn(verdicts: Verdicts) -> None:
    """A call out of turn: the seat after the next calls before it."""
    s = m.new_game("standard", seed=31)
    first = s.first_bidder
    text = write_notation(to_record(s), comment="Hand 1: a call out of turn.")
    lines = text.rstrip("\n").split("\n")
    lines.append(f"{first} passes")
    lines.append(f"{(first + 2) % 3} bids 5")
    lines.append(f"{(first + 1) % 3} passes")
    write("bid-out-of-turn.moon", "\n".join(lines) + "\n")
    verdicts["bid-out-of-turn.moon"] = {
        "status": 1,
        "rule": "TURN-1",
        "hand": 0,
        "step": "bid",
        "index": 1,
    }


def _wrong_score(verdicts: Verdicts) -> None:
    """A wrong score: the score sheet credits a set bidder with the bid."""
    for seed in range(5, 500):
        s = play(m.new_game("standard", seed=seed))
        hands = (*s.history, s.hand)
        sets = [
            n
            for n, h in enumerate(hands)
            if h.deltas is not None and h.bidder >= 0 and h.deltas[h.bidder] < 0 and h.number > 1
        ]
        if sets:
            k = sets[0]
            break
    sheet = score_lines(s)
    wrong = list(sheet)
    pos = next(n for n, sl in enumerate(wrong) if sl.hand == k)
    bad = list(wrong[pos].totals)
    bidder = hands[k].bidder
    bad[bidder] += 2 * hands[k].bid  # the sheet added the bid instead of taking it off
    wrong[pos] = ScoreLine(k, tuple(bad), 0)
    # later totals as the sheet carried them on from the wrong one
    for n in range(pos + 1, len(wrong)):
        t = list(wrong[n].totals)
        t[bidder] += 2 * hands[k].bid
        wrong[n] = ScoreLine(wrong[n].hand, tuple(t), 0)
    write(
        "wrong-score.moon",
        write_notation(
            to_record(s),
            scores=wrong,
            comment=f"The score sheet after hand {k + 1} credits the set bidder (seat {bidder}) "
            f"with the bid of {hands[k].bid}\ninstead of taking it off.",
        ),
    )
    verdicts["wrong-score.moon"] = {
        "status": 1,
        "rule": "SCORE-2",
        "hand": k,
        "step": "score",
        "index": None,
    }


def _claims(verdicts: Verdicts) -> None:
    """A failed claim, and a claim that holds."""

    def ending(st: m.GameState) -> bool:
        return (
            st.hand_number >= 2
            and st.phase is m.Phase.PLAY
            and len(st.tricks) == 4
            and not st.trick
        )

    found = {}
    for seed in range(1, 800):
        s = play(m.new_game("standard", seed=seed), until=ending)
        if s.is_over or not s.history:
            continue
        seat = s.to_act
        assert seat is not None
        r = verify_claim(s, seat)
        # a claim that looks good: the claimant leads and is sure of all but one
        key = "holds" if r.holds else "fails"
        if key == "fails" and r.guaranteed != r.remaining - 1:
            continue
        found.setdefault(key, (s, seat, r))
        if len(found) == 2:
            break
    for key, name in (("fails", "failed-claim.moon"), ("holds", "claim-holds.moon")):
        s, seat, r = found[key]
        i = s.hand_number - 1
        write(
            name,
            write_notation(
                to_record(s),
                claim=ClaimLine(i, seat, None, 0),
                scores=score_lines(s),
                comment=f"Seat {seat} lays down their tiles and claims the last "
                f"{r.remaining} tricks.",
            ),
        )
        verdicts[name] = {
            "status": 0 if r.holds else 1,
            "rule": None if r.holds else "CLAIM-1",
            "hand": i,
            "step": "claim",
            "index": None,
            "seat": seat,
            "guaranteed": r.guaranteed,
        }


if __name__ == "__main__":
    main()
