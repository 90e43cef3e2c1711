"""The moves nobody types in a room: its bots' and its turn clock's (:class:`RoomTurns`, a
part of :class:`~moonrules.table.rooms.Table`).

A bot's move, and the move of a seat whose time ran out (by the clock's bot, annotated), is
thought out in a worker of the bot pool and then taken as any seat's action is
(:meth:`~moonrules.table.rooms.Table.act`); a room waits, and the server goes on, if either
fails.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from moonrules import GameState, legal_actions, view
from moonrules.records.annotations import Annotation
from moonrules.records.record import JSON
from moonrules.table.botpool import BotFailed, BotPool
from moonrules.table.clock import Clock, action_number, clock_bot
from moonrules.table.room import Room, TableLimits
from moonrules.table.storage import Storage
from moonrules.table.storage_pg import PgStorage
from moonrules.table.wire import action_json

log = logging.getLogger("moonrules.table")

PARKED_CHECK: Final = 1.0
"""Seconds between two looks, by the clock of a room nobody is at that waits for a game of
bots alone to end (:meth:`Table.bot_games`), at whether it may play."""


class RoomTurns:
    """The bots' moves and the turn clocks of :class:`~moonrules.table.rooms.Table`'s rooms
    (a part of it: it shares the table's storage, bots, limits and clock)."""

    storage: Storage | PgStorage
    bots: BotPool
    limits: TableLimits
    clock: Callable[[], float]
    closing: bool

    if TYPE_CHECKING:  # the table's own, used here

        def bot_games(self) -> int: ...

        async def act(
            self, room: Room, seat: int, value: JSON, *, clocked: int | None = None
        ) -> dict[str, JSON] | None: ...

    # -- bots ------------------------------------------------------------------

    def _schedule_bot(self, room: Room) -> None:
        if self.closing or room.gone or room.bot_task is not None or room.bot_to_act() is None:
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))

    async def _bot_turn(self, room: Room) -> None:
        try:
            while not self.closing and not room.gone:
                seat = room.bot_to_act()
                if seat is None:
                    return
                await self._bot_move(room, seat)
        except Exception as e:  # a fault of the server: the room waits, the server goes on
            log.error("room %s: the bot stopped: %s: %s", room.id, type(e).__name__, e)
        finally:
            room.bot_task = None

    async def _bot_move(self, room: Room, seat: int) -> None:
        """One move of the bot at ``seat``: thought out in a worker, then taken as any
        seat's action is."""
        seq = room.seq
        pace = self.limits.bot_pace
        attended = room.attended
        if pace > 0 and attended:
            await asyncio.sleep(pace)
        level = room.seats[seat]
        try:
            action = await self.bots.decide(
                level,
                view(room.state, seat),
                f"{room.row.bot_seed}/{seq}",
                urgent=attended,  # a person waits: before rooms nobody is at
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s; it plays its first legal move", room.id, seat, e)
            action = legal_actions(room.state)[0]
        outcome = await self.act(room, seat, action_json(action))
        if outcome is not None and outcome["code"] != "unavailable":
            log.warning(
                "room %s seat %d: the %s bot's move was refused (%s); it plays its first "
                "legal move",
                room.id,
                seat,
                level,
                outcome["message"],
            )
            await self.act(room, seat, action_json(legal_actions(room.state)[0]))
        elif outcome is not None:
            await asyncio.sleep(1.0)  # storage failed: try again shortly

    # -- turn clocks (moonrules.table.clock) ----------------------------------------

    def _clock_after(
        self,
        room: Room,
        before: GameState,
        seat: int,
        after: GameState,
        seq: int,
        clocked: int | None,
    ) -> Clock | None:
        """The room's clock once ``seat`` took the action that leads from ``before`` to
        ``after`` (action ``seq``): a copy, the room's own replaced once it is stored."""
        if room.clock is None:
            return None
        clock = copy.deepcopy(room.clock)
        if clocked is not None:
            hand, number = action_number(before)
            level = clock_bot(self.bots.names, clock.bot)
            clock.ran_out(seat, Annotation(hand, number, seat, "clock", level))
        else:
            clock.come_back(seat)
        clock.follow(seq, room.clock_seat(after), self.clock())
        return clock

    async def _clock_load(self, room: Room) -> None:
        """The room's clock as stored with its last action."""
        if room.clock is not None:
            room.clock.load(await self.storage.load_clock(room.id))

    def _clock_follow(self, room: Room) -> None:
        """Start the clock of the seat to act if it does not run yet (the game began, or
        the room was loaded), and wait for it to run out."""
        if room.clock is None:
            return
        room.clock.follow(room.seq, room.clock_seat(room.state), self.clock())
        if room.clock_task is None:
            self._clock_schedule(room)

    def _clock_schedule(self, room: Room) -> None:
        """Wait for the running turn to run out (the wait for an earlier turn cancelled)."""
        task = room.clock_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            room.clock_task = None
        if self.closing or room.gone or room.clock is None or room.clock.seat is None:
            return
        if room.clock_task is None:
            room.clock_task = asyncio.get_running_loop().create_task(self._clock_run(room))

    async def _clock_run(self, room: Room) -> None:
        try:
            while not self.closing and not room.gone and room.clock is not None:
                deadline, seat, seq = room.clock.deadline(), room.clock.seat, room.clock.seq
                if deadline is None or seat is None or seq != room.seq:
                    return
                wait = deadline - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                if room.attended:
                    room.autoplay = False
                elif not room.autoplay:  # nobody is at the room: a game of bots alone now
                    if self.bot_games() >= self.limits.max_bot_rooms:
                        if not room.parked:
                            log.info("room %s: nobody is at it, and the table plays its most "
                                     "games of bots alone: its clock waits", room.id)  # fmt: skip
                        room.parked = True
                        await asyncio.sleep(PARKED_CHECK)
                        continue
                    room.autoplay, room.parked = True, False
                await self._clock_move(room, seat, seq)
                return
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a fault of the server: the room waits, the server goes on
            log.error("room %s: the clock stopped: %s: %s", room.id, type(e).__name__, e)
        finally:
            if room.clock_task is asyncio.current_task():
                room.clock_task = None

    async def _clock_move(self, room: Room, seat: int, seq: int) -> None:
        """The seat's time ran out: the clock's bot makes its move (thought out in a
        worker, as a bot seat's move is), stored with an annotation."""
        level = clock_bot(self.bots.names, None if room.clock is None else room.clock.bot)
        first = room.clock is not None and seat not in room.clock.auto
        if room.clock is not None:
            room.clock.moves_for(seat)
        try:
            action = await self.bots.decide(
                level,
                view(room.state, seat),
                f"{room.row.bot_seed}/clock/{seq}",
                urgent=room.attended,  # a room nobody is at: after those where a person waits
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s; the clock plays its first legal move", room.id,
                        seat, e)  # fmt: skip
            action = legal_actions(room.state)[0]
        # one line when a seat goes to the clock, not one a move (a room nobody is at plays
        # itself to its end)
        log.log(
            logging.INFO if first else logging.DEBUG,
            "room %s seat %d: the clock ran out; the %s bot moves",
            room.id,
            seat,
            level,
        )
        outcome = await self.act(room, seat, action_json(action), clocked=seq)
        if outcome is not None and outcome["code"] == "illegal" and room.seq == seq:
            await self.act(room, seat, action_json(legal_actions(room.state)[0]), clocked=seq)
