"""Players: bots that see only their seat's view, from random to strong.

A bot is any object with a ``name`` and ``act(view, rng) -> Action`` (see
:class:`~moonrules.bots.base.Bot`); :func:`bot_by_name` makes the five shipped here
(``random``, ``basic``, ``pimc`` the search baseline, ``strong``, and ``learned``, which calls
with the learned value of the auction), and
:mod:`moonrules.bots.match` plays them against each other.
"""

from __future__ import annotations

from moonrules.bots.base import Bot, Knowledge, knowledge, view_legal_actions
from moonrules.bots.basic import BasicBot, RandomBot

__all__ = [
    "BasicBot",
    "Bot",
    "Knowledge",
    "RandomBot",
    "knowledge",
    "view_legal_actions",
]
