"""Each bot level's approximate strength: the ratings of a seeded all-bot round robin.

``moonrules/bots/levels.json`` is written by ``python bench/learned.py levels``: every three
of the levels play the same deals in every seating; each deal is one game between the three,
ranked by their points over its six seatings (duplicate: the cards dealt cancel out), rated
with openskill's Plackett-Luce, as the tournaments rate people
(:mod:`moonrules.tournament.ratings`). Its command, hands, games and seconds are kept with
it. :func:`level_ratings` reads it: the lobby shows the numbers beside the levels, the bots
guide the whole table.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

__all__ = ["level_ratings", "levels_record"]


@functools.cache
def levels_record() -> dict[str, Any]:
    """The round robin's record as shipped (its command, hands, model and each level's
    rating, mu and sigma); ``{}`` if the file is missing."""
    try:
        text = resources.files("moonrules.bots").joinpath("levels.json").read_text("utf-8")
    except FileNotFoundError:
        return {}
    record = json.loads(text)
    return record if isinstance(record, dict) else {}


def level_ratings() -> dict[str, int]:
    """Each rated level's Elo-like rating (:func:`moonrules.tournament.ratings.elo` of its
    mu), by name."""
    return {
        str(r["level"]): int(r["rating"])
        for r in levels_record().get("levels", [])
        if isinstance(r, dict) and isinstance(r.get("rating"), int)
    }
