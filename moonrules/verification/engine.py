"""The fast engine held to the reference on the bounded walk: a check of the catalogue.

:func:`check_engine` reads each state of :mod:`.bmc`'s walk into a
:class:`~moonrules.engine.Engine` and holds everything the engine does there to what the
reference (:func:`~moonrules.game.play.apply`) does: the legal ids, the state after every
legal id (and, taken back with ``undo``, the state before), the error of every other id of
the action space (type, clause and sentence), and every seat's observation and information
state. The engine's rules come from the same tables as the reference's, so a mutant of the
rulebook moves both; this check catches a mutant of the engine's own code.
"""

from __future__ import annotations

from moonrules.engine import Engine
from moonrules.game import GameState, apply, view
from moonrules.game.encoding import (
    ActionSpace,
    encode_information_state,
    encode_observation,
    legal_action_ids,
)
from moonrules.rules.errors import MoonError
from moonrules.verification.bmc import reachable
from moonrules.verification.core import Outcome, require


def _where(s: GameState) -> str:
    h = s.hand
    return (
        f"{s.rules.name or 'rules'} seed {s.seed} hand {h.number} {h.phase.value} "
        f"after {len(h.calls)} calls and {sum(len(t.tiles) for t in h.tricks) + len(h.trick)} "
        "tiles"
    )


def _refusal(f: object, *args: object) -> str:
    try:
        f(*args)  # type: ignore[operator]
    except (MoonError, TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"
    return "accepted"


def _refused_ids(space: ActionSpace, legal: tuple[int, ...], every: bool) -> list[int]:
    """The ids to try refused: all of them, or the first and last of the ids that are not
    legal and one in the middle."""
    refused = [i for i in range(space.size) if i not in legal]
    if every or len(refused) <= 3:
        return refused
    return [refused[0], refused[len(refused) // 2], refused[-1]]


def check_engine(s: GameState, every_id: bool = True) -> int:
    """The engine at ``s`` does what the reference does: every legal id, then ``undo``; every
    other id refused alike (three of them unless ``every_id``); every seat's observations.
    The count of ids checked."""
    e = Engine.from_state(s)
    space = ActionSpace(s.rules)
    legal = legal_action_ids(s)
    require(e.legal_ids() == list(legal), f"{_where(s)}: legal ids {e.legal_ids()} not {legal}")
    require(e.to_state() == s, f"{_where(s)}: the engine reads the state as another")
    tried = [*legal, *_refused_ids(space, legal, every_id)]
    for i in tried:
        if i in legal:
            ended = e.step(i)
            after = apply(s, space.actions[i])
            require(e.to_state() == after, f"{_where(s)}: {space.actions[i]} leads elsewhere")
            require(
                ended is (after.is_over or after.hand_number != s.hand_number),
                f"{_where(s)}: step's answer after {space.actions[i]} is {ended}",
            )
            require(
                e.legal_ids() == list(legal_action_ids(after)),
                f"{_where(s)}: after {space.actions[i]} the legal ids differ",
            )
            e.undo()
            require(e.to_state() == s, f"{_where(s)}: undo of {space.actions[i]} differs")
        else:
            want = _refusal(apply, s, space.actions[i])
            got = _refusal(e.step, i)
            require(got == want, f"{_where(s)}: id {i} refused as {got!r}, not {want!r}")
    for seat in range(s.rules.players):
        seen = view(s, seat)
        require(
            e.observe(seat) == list(encode_observation(seen)),
            f"{_where(s)}: seat {seat}'s observation differs",
        )
        require(
            e.observe(seat, True) == list(encode_information_state(seen)),
            f"{_where(s)}: seat {seat}'s information state differs",
        )
    return len(tried)


def check(quick: bool) -> Outcome:
    """The check of the catalogue: :func:`check_engine` on every state of the bounded walk
    (under ``quick``, three refused ids a state)."""
    states = reachable(quick)
    ids = sum(check_engine(s, not quick) for s in states)
    return Outcome(len(states), f"states ({ids} ids stepped and taken back, or refused)")


__all__ = ["check", "check_engine"]
