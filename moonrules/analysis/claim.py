"""Claims (CLAIM-1): does a claim of the remaining tricks hold against every defence?

A player in the play phase lays down their tiles and claims all the remaining
tricks (the current one included), or at least ``K`` of them for their side. The
claim holds only if the claimant's side, choosing its plays (with four players
the claimant's partner plays with the claimant), wins at least that many of the
remaining tricks against **every** legal line of play by the other players. That
is a min-max question over all the remaining play, and :func:`verify_claim`
answers it by the game's exhaustive search (:mod:`moonrules.game.claims`, the one
:func:`~moonrules.game.play.apply_claim` settles claims with): every legal play of
every player at every turn (FOLLOW-1 … FOLLOW-3, LEAD-2), the trick winner by TRICK-2.
Positions reached by different orders of play are searched once (a table of positions),
and a branch stops as soon as its answer is known; nothing is estimated.

>>> from moonrules import new_game, apply, legal_actions, Phase
>>> import random
>>> s, rng = new_game(seed=5), random.Random(5)
>>> while s.phase is not Phase.PLAY or len(s.tricks) < 5:
...     s = apply(s, rng.choice(legal_actions(s)))
>>> r = verify_claim(s, s.to_act)
>>> r.holds == (r.guaranteed == 2) and (r.holds or len(r.defeating_line) > 0)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from moonrules.game import GameState, Phase, Play, apply
from moonrules.game.claims import ClaimError, ClaimSearch
from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, IllegalAction, wrong_type
from moonrules.rules.tiles import Tile


@attrs.frozen(slots=True, field_transformer=typed)
class ClaimResult:
    """The answer to a claim.

    ``holds``: the claimant's side is sure of the claimed tricks whatever the
    others do. ``guaranteed``: the most remaining tricks the side can be sure of.
    ``defeating_line``: when the claim fails, one line of play, as ``(seat, tile)``
    pairs to the end of the hand, in which the claimant's side plays as well as it
    can and the others still hold it to ``guaranteed`` tricks; empty when it holds.
    ``claimed`` and ``remaining`` are the tricks claimed and left.
    """

    holds: bool
    guaranteed: int
    defeating_line: tuple[tuple[int, Tile], ...]
    claimed: int = 0
    remaining: int = 0


def verify_claim(state: GameState, seat: int, tricks: int | None = None) -> ClaimResult:
    """Does ``seat``'s claim of all remaining tricks (or ``tricks`` of them) hold (CLAIM-1)?

    The claimant's side (with four players, the claimant and partner) wins at
    least the claimed number of the remaining tricks, the current one included,
    against every legal line of play by the others. Raises :class:`ClaimError`
    outside the play phase, for a seat that does not exist, or for a count that is
    not between 1 and the tricks left; :class:`TypeError` for an argument of the wrong type.
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    if type(seat) is not int:
        raise wrong_type("seat", "a seat number", seat)
    if tricks is not None and type(tricks) is not int:
        raise wrong_type("tricks", "a number of tricks or None (all)", tricks)
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise ClaimError(
            "SEAT-1", f"seats are numbered 0 to {rules.players - 1}; there is no seat {seat!r}"
        )
    h = state.hand
    if state.is_over or h.phase is not Phase.PLAY:
        raise ClaimError(
            "CLAIM-1",
            "a claim is made during play, and the hand is not in play "
            f"({'the game is over' if state.is_over else h.phase.value})",
        )
    done = len(h.tricks)
    remaining = 7 - done
    claimed = remaining if tricks is None else tricks
    if type(claimed) is not int or not 1 <= claimed <= remaining:
        raise ClaimError(
            "CLAIM-1", f"a claim is of 1 to {remaining} tricks (the tricks left), not {tricks!r}"
        )
    search = ClaimSearch(state, seat)
    hands = h.hands
    trick = h.trick
    leader = h.leader
    holds = search.probe(hands, trick, leader, done, claimed)
    if holds:
        k = claimed
        while k < remaining and search.probe(hands, trick, leader, done, k + 1):
            k += 1
        return ClaimResult(True, k, (), claimed, remaining)
    guaranteed = search.value(hands, trick, leader, done)
    line = tuple(search.line(hands, trick, leader, done))
    return ClaimResult(False, guaranteed, line, claimed, remaining)


def describe_line(state: GameState, line: Sequence[tuple[int, Tile]]) -> str:
    """A line of play from ``state`` as text, trick by trick, with each trick's winner.

    ``line`` is ``(seat, tile)`` pairs, as a :class:`ClaimResult`'s ``defeating_line``;
    a play the rules refuse there (TURN-1, TRICK-1, FOLLOW-1 …) raises
    :class:`~moonrules.rules.errors.ArgumentError` naming it.
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    if isinstance(line, (str, bytes)) or not isinstance(line, Sequence):
        raise wrong_type("line", "a sequence of (seat, tile) pairs", line)
    for i, step in enumerate(line):
        if not (
            isinstance(step, tuple)
            and len(step) == 2
            and type(step[0]) is int
            and type(step[1]) is Tile
        ):
            raise wrong_type(f"line[{i}]", "a (seat, Tile) pair", step)
    parts: list[str] = []
    current: list[str] = []
    s = state
    for i, (seat, t) in enumerate(line):
        number = len(s.hand.tricks) + 1
        current.append(f"seat {seat} {t}")
        before = s.hand.number
        try:
            s = apply(s, Play(t), seat=seat)
        except IllegalAction as e:
            raise ArgumentError(f"line[{i}]: seat {seat} cannot play {t} here: {e}") from None
        done = s.history[-1] if s.hand.number != before else s.hand
        if len(done.tricks) >= number:
            winner = done.tricks[number - 1].winner
            parts.append(f"trick {number}: {', '.join(current)} (seat {winner} wins)")
            current = []
    if current:
        parts.append(f"trick {len(s.hand.tricks) + 1}: {', '.join(current)}")
    return "; ".join(parts) + "."


__all__ = ["ClaimError", "ClaimResult", "describe_line", "verify_claim"]
