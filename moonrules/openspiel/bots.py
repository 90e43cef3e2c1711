"""moonrules' bots as OpenSpiel bots, to play OpenSpiel's algorithms through ``evaluate_bots``."""

from __future__ import annotations

import random

import pyspiel

from moonrules.bots.base import Bot
from moonrules.bots.match import bot_by_name
from moonrules.openspiel.games import MoonGame, MoonState
from moonrules.rules.errors import wrong_type


class MoonrulesBot(pyspiel.Bot):  # type: ignore[misc]
    """A moonrules :class:`~moonrules.bots.base.Bot` (or its name: ``random``, ``basic``,
    ``strong``) playing ``player`` in a ``moonrules_hand`` or ``moonrules_game`` state.

    The bot sees only the player's view, and draws on its own ``random.Random(seed)``.
    """

    def __init__(self, bot: Bot | str, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(bot, str):
            bot = bot_by_name(bot)
        if not isinstance(bot, Bot):
            raise wrong_type("bot", "a moonrules Bot or a bot name", bot)
        if type(player) is not int or player < 0:
            raise wrong_type("player", "a player number", player)
        self.bot = bot
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)

    def restart_at(self, state: MoonState) -> None:
        self.rng = random.Random(self.seed)

    def inform_action(self, state: MoonState, player_id: int, action: int) -> None:
        pass

    def step(self, state: MoonState) -> int:
        v = state.moon_view(self.player)
        if v is None or v.to_act != self.player:
            raise ValueError(f"state: it is not player {self.player}'s turn")
        action = self.bot.act(v, self.rng)
        game: MoonGame = state.get_game()
        return game.space.id_of(action)
