"""The players' help in a room: hints and claims (:class:`RoomHelp`, a part of
:class:`~moonrules.table.rooms.Table`).

Each is worked out in a worker of the help pool, held to the table's limits of help (one
per seat every so many seconds, counted from the last answer; the caps per client address),
and answered to the seat that asked alone; a claim that holds is stored as the room's next
step and every listener told.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from typing import TYPE_CHECKING, Final

from moonrules import GameState, Phase, view
from moonrules.records.record import JSON, to_record
from moonrules.table import assist
from moonrules.table.botpool import HELP, BotFailed, BotPool, hint_bot
from moonrules.table.room import HUMAN, MOVED_REASON, HelpLoad, Room, TableLimits
from moonrules.table.storage import Step, Storage
from moonrules.table.storage_pg import NotOwner, PgStorage
from moonrules.table.wire import claim_notice, refused, sent_text

if TYPE_CHECKING:
    from moonrules.table.clock import Clock

log = logging.getLogger("moonrules.table")

CLAIM_CACHE: Final = 64
"""Claims refused kept per room (its positions, seats and counts; emptied when full)."""


def too_fast(what: str, last: float | None, every: float, now: float) -> dict[str, JSON] | None:
    """The refusal of a seat's ``what`` (a hint, a claim) asked again less than ``every``
    seconds after the answer to its last one (at ``last``, on the monotonic clock), or
    ``None``."""
    wait = (-1e9 if last is None else last) + every - now
    if wait <= 0:
        return None
    return refused("too-fast", f"one {what} every {every:g} s: wait {max(1, round(wait))} s", [])


def claim_refusal(room: Room, seat: int, tricks: JSON) -> dict[str, JSON] | None:
    """Why ``seat`` may not claim ``tricks`` (``null``: all) now, before any check of the
    claim itself: not in play (``not-now``), or a count that is no number of the tricks left
    (``bad-frame``, quoting what was sent); ``None`` if it may."""
    st = room.state
    if st.phase is not Phase.PLAY:
        return refused("not-now", "a claim is made during the play of a hand", [], "CLAIM-1")
    remaining = 7 - len(st.hand.tricks)
    if tricks is not None and (type(tricks) is not int or not 1 <= tricks <= remaining):
        message = f"a claim is of 1 to {remaining} tricks (the tricks left), or of all"
        return refused(
            "bad-frame", f"tricks: {message}, not {sent_text(tricks)}", room.legal_for(seat)
        )
    return None


class RoomHelp:
    """The hints and claims of :class:`~moonrules.table.rooms.Table`'s rooms (a part of it:
    it shares the table's storage, bots, limits and help load)."""

    storage: Storage | PgStorage
    bots: BotPool
    limits: TableLimits
    help: HelpLoad

    if TYPE_CHECKING:  # the table's own, used here

        def _moved(self, room: Room) -> None: ...

        def _clock_after(
            self,
            room: Room,
            before: GameState,
            seat: int,
            after: GameState,
            seq: int,
            clocked: int | None,
        ) -> Clock | None: ...

        def _clock_schedule(self, room: Room) -> None: ...

        def _schedule_bot(self, room: Room) -> None: ...

    async def hint(self, room: Room, seat: int, address: str = "") -> dict[str, JSON] | None:
        """What the hints' bot (:func:`~moonrules.table.botpool.hint_bot`: ``learned`` when
        the table's pool has it, else ``strong``) would do from this seat's view, and in the
        auction bidding advice's chances: thought out in a worker of the help pool (never holding up
        a bot's move), sent to this connection alone. One per seat every
        :attr:`TableLimits.hint_every` seconds, and the help asked from ``address`` (the
        client's) held to :class:`~moonrules.table.room.HelpLoad`'s caps."""
        no = room.help_refusal(seat, "hint")
        if no is not None:
            return no
        now = time.monotonic()
        no = too_fast("hint", room.hint_at.get(seat), self.limits.hint_every, now)
        if no is None:
            no = self.help.refusal(address)
        if no is not None:
            return no
        room.hint_at[seat] = now
        room.helping.add(seat)
        seq = room.seq
        bot, spec = hint_bot(self.bots.bots)
        try:
            with self.help.job(address):
                action, advice = await self.bots.run(
                    HELP,
                    assist.hint,
                    (spec.make, view(room.state, seat), f"{room.row.bot_seed}/hint/{seq}"),
                    urgent=True,
                    what="the hint",
                )
        except BotFailed as e:
            log.warning("room %s seat %d: %s", room.id, seat, e)
            return refused("unavailable", "the hint could not be worked out; try again", [])
        finally:
            room.helping.discard(seat)
            room.hint_at[seat] = time.monotonic()  # the next one counted from this answer
        return {"type": "hint", "seq": seq, "bot": bot, "action": action, "advice": advice}

    async def limited_claim(
        self, room: Room, seat: int, tricks: JSON, address: str = ""
    ) -> dict[str, JSON] | None:
        """A claim (:meth:`claim`) held to the limits of help: one per seat every
        :attr:`TableLimits.claim_every` seconds, counted from the last one's answer in the
        room (whichever of the seat's connections asks); the help caps of ``address``
        (:class:`~moonrules.table.room.HelpLoad`); and a claim refused at a position
        answered again from the room's cache (key: the position, the seat and the count)
        without a new search."""
        no = room.help_refusal(seat, "claim")
        if no is None:
            no = claim_refusal(room, seat, tricks)  # a frame that is no claim costs no interval
        if no is not None:
            return no
        key = (room.seq, seat, tricks if type(tricks) is int else None)
        cached = room.claim_cache.get(key)
        if cached is not None:
            return {**cached, "legal": room.legal_for(seat)}
        now = time.monotonic()
        no = too_fast("claim", room.claim_at.get(seat), self.limits.claim_every, now)
        if no is None:
            no = self.help.refusal(address)
        if no is not None:
            return no
        room.claim_at[seat] = now
        try:
            with self.help.job(address):
                outcome = await self.claim(room, seat, tricks)
        finally:
            room.claim_at[seat] = time.monotonic()  # the next one counted from this answer
        if (
            outcome is not None
            and outcome.get("code") in ("claim", "too-early")
            and room.seq == key[0]
        ):
            if len(room.claim_cache) >= CLAIM_CACHE:
                room.claim_cache.clear()
            room.claim_cache[key] = outcome
        return outcome

    async def claim(self, room: Room, seat: int, tricks: JSON) -> dict[str, JSON] | None:
        """The seat claims the remaining tricks, or ``tricks`` of them (CLAIM-1), settled by
        the rules (:func:`moonrules.game.apply_claim`) in a worker of the help pool, its
        search held to :data:`~moonrules.table.assist.CLAIM_BUDGET` positions. Held, the hand
        ends as the rules say (the claimed tricks to the claimant's side, the rest to the other
        team), the claim is stored as the room's next step and every listener told; refused
        (the others have a defence, the rules do not allow it here, or it is too early to
        check), this seat alone is told, in words that name nothing it cannot see."""
        no = room.help_refusal(seat, "claim") or claim_refusal(room, seat, tricks)
        if no is not None:
            return no
        st = room.state
        room.helping.add(seat)
        seq = room.seq
        try:
            outcome, after, rule, message = await self.bots.run(
                HELP, assist.claim, (st, seat, tricks), urgent=True, what="the claim's check"
            )
        except BotFailed as e:
            log.warning("room %s seat %d: %s", room.id, seat, e)
            return refused("unavailable", "the claim could not be checked; try again", [])
        finally:
            room.helping.discard(seat)
        legal = room.legal_for(seat)
        if outcome == "fails":
            message = (
                "your claim does not hold: the others have a line of play that defeats it "
                "(CLAIM-1); play goes on"
            )
            return refused("claim", message, legal, rule)
        if outcome == "undecided":
            message = (
                "too early to check this claim (every line of play is too many to search "
                "now); play on, and claim again later"
            )
            return refused("too-early", message, legal, rule)
        if outcome == "refused":
            code = "not-now" if rule == "TURN-1" else "claim"
            return refused(code, message, legal, rule)
        assert isinstance(after, GameState)
        return await self._settle_claim(room, seat, seq, after)

    async def _settle_claim(
        self, room: Room, seat: int, seq: int, after: GameState
    ) -> dict[str, JSON] | None:
        """Store a claim that held (the room's next step, and the record with the hand it
        ended) and tell every listener, unless the game moved on meanwhile."""
        async with room.lock:
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            if room.seq != seq:
                message = "the game moved on while the claim was checked; claim again"
                return refused("turn", message, room.legal_for(seat))
            before = room.state
            done = after.hand if after.is_over else after.history[-1]
            claim = done.claim
            assert claim is not None
            step = Step(seq + 1, seat, {"claim": claim.tricks})
            nxt = after.to_act
            bot_turn = nxt is not None and room.seats[nxt] != HUMAN and room.started
            clock = self._clock_after(room, before, seat, after, step.seq, None)
            try:
                await self.storage.append_many(
                    room.id,
                    [step],
                    to_record(after),
                    over=room.ends(after),
                    bot_turn=bot_turn,
                    **({} if clock is None else {"clock": clock.to_json()}),
                )
            except NotOwner:
                self._moved(room)
                return refused("unavailable", MOVED_REASON, [])
            except sqlite3.Error as e:
                log.error("room %s: the claim not stored: %s", room.id, e)
                message = "the server could not store the claim; try again"
                return refused("unavailable", message, room.legal_for(seat))
            room.state = after
            room.seq = step.seq
            room.last_used = time.monotonic()
            room.clock = clock
            self._clock_schedule(room)
            room.tell(claim_notice(before, done))
            room.broadcast()
            self._schedule_bot(room)
        return None
