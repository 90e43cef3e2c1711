"""The small all-bot event several tournament tests play: six bots, two rounds of two tables
and two boards, its movement given."""

from __future__ import annotations

SIX_BOTS = """\
name = "Six bots"
format = "three-seat"
seed = 11
scoring = "matchpoints"
rounds = 2
boards_per_round = 2
players = [
  {name = "R1", bot = "random"}, {name = "R2", bot = "random"}, {name = "R3", bot = "random"},
  {name = "B1", bot = "basic"}, {name = "B2", bot = "basic"}, {name = "B3", bot = "basic"},
]

[[movement]]
tables = [["R1", "B1", "R2"], ["B2", "R3", "B3"]]

[[movement]]
tables = [["B3", "R2", "B1"], ["R3", "B2", "R1"]]
"""
