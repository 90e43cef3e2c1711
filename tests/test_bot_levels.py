"""Each level's approximate strength: ``moonrules/bots/levels.json`` read by
:func:`moonrules.bots.levels.level_ratings` (each rating the Elo-like number of its mu and
sigma, as the tournaments show a player's), and the table's options giving the ratings of
the levels it seats, for the lobby to show beside them."""

from __future__ import annotations

from pathlib import Path

from table_support import Server

from moonrules.bots.levels import level_ratings, levels_record
from moonrules.bots.match import BOTS
from moonrules.tournament.ratings import elo


def test_each_rating_is_the_elo_of_its_mu_and_sigma() -> None:
    record = levels_record()
    ratings = level_ratings()
    assert set(ratings) == set(BOTS)
    for r in record["levels"]:
        assert ratings[r["level"]] == elo(r["mu"], r["sigma"]), r


def test_the_lobby_is_given_the_ratings_of_the_levels_the_table_seats(tmp_path: Path) -> None:
    with Server(tmp_path / "t.db") as server:
        status, options, _ = server.request("GET", "/api/options")
    assert status == 200
    rated = level_ratings()
    assert options["ratings"] == {b: rated[b] for b in options["bots"] if b in rated}
    assert options["ratings"] and set(options["ratings"]) <= set(options["bots"])
