"""Tournaments: the tournament file, movements, the event log, scoring and all-bot runs.

Below the table and the command line: it imports the rules, the game, records, bots and
arbitration, and nothing imports it but the layers above.
"""
