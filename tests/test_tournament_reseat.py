"""A run seats each round as the log stands (:func:`moonrules.tournament.run.next_seating`):
the movement's round while it fits, else seated again around the director's forbidden
pairings, late entries and withdrawals; a Swiss event keeps the file's forbidden pairs apart
in every round it pairs."""

from __future__ import annotations

import itertools
from typing import Any

from moonrules.tournament.event import parse_tournament
from moonrules.tournament.log import fold, header, seating_entry
from moonrules.tournament.run import next_seating, run_event

SIX = """\
name = "Six bots"
format = "{fmt}"
seed = 4
scoring = "{scoring}"
rounds = 3
boards_per_round = 1
players = [
  {{name = "R1", bot = "random"}}, {{name = "R2", bot = "random"}}, {{name = "R3", bot = "random"}},
  {{name = "R4", bot = "random"}}, {{name = "R5", bot = "random"}}, {{name = "R6", bot = "random"}},
]
{extra}
"""


def _pairs(entries: Any) -> set[frozenset[str]]:
    return {frozenset(p) for p in itertools.combinations(entries, 2)}


def test_a_swiss_event_keeps_the_files_forbidden_pairs_apart_in_every_round() -> None:
    for a, b in [("R1", "R2"), ("R3", "R6"), ("R2", "R5")]:
        t = parse_tournament(
            SIX.format(fmt="swiss", scoring="points", extra=f'forbidden = [["{a}", "{b}"]]')
        )
        state = fold(run_event(t).entries)
        assert len(state.seatings) == 3
        for rnd in state.seatings:
            for table in rnd.tables:
                assert frozenset((a, b)) not in _pairs(table.entries), (a, b, rnd)


def test_a_pairing_forbidden_by_the_director_reseats_the_rounds_not_yet_seated() -> None:
    t = parse_tournament(SIX.format(fmt="three-seat", scoring="matchpoints", extra=""))
    planned = t.movement()
    entries: list[dict[str, Any]] = [header(t, planned)]
    entries.append(seating_entry(next_seating(t, fold(entries), 1)))
    assert fold(entries).seating(1) == planned.rounds[0]  # the movement, while it fits
    # the first pair planned to meet in round 2, forbidden after round 1 is seated
    a, b = sorted(planned.rounds[1].tables[0].entries)[:2]
    entries.append(
        {"type": "action", "action": "forbid", "round": 2, "entries": [a, b], "reason": "kin"}
    )
    state = fold(entries)
    second = next_seating(t, state, 2)
    assert second != planned.rounds[1]
    assert all(frozenset((a, b)) not in _pairs(tb.entries) for tb in second.tables)
    assert sorted(e for tb in second.tables for e in tb.entries) == sorted(t.entry_names)
    entries.append(seating_entry(second))
    fold(entries)  # the log takes the round seated again


def test_a_withdrawal_and_a_late_entry_are_seated_in_the_next_round() -> None:
    t = parse_tournament(SIX.format(fmt="three-seat", scoring="matchpoints", extra=""))
    entries: list[dict[str, Any]] = [header(t, t.movement())]
    entries.append(seating_entry(next_seating(t, fold(entries), 1)))
    entries.append(
        {"type": "action", "action": "withdrawal", "round": 2, "entry": "R4", "reason": "ill"}
    )
    entries.append(
        {
            "type": "action",
            "action": "late-entry",
            "round": 2,
            "entry": {"name": "Zed", "players": [{"name": "Zed", "bot": "random"}]},
            "value": 50,
            "reason": "arrived",
        }
    )
    state = fold(entries)
    second = next_seating(t, state, 2)
    seated = {e for tb in second.tables for e in tb.entries}
    assert "R4" not in seated and "Zed" in seated and len(seated) == 6
    entries.append(seating_entry(second))
    fold(entries)
