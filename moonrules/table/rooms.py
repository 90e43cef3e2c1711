"""The rooms of the table, independent of any web framework.

A :class:`Table` creates rooms, rebuilds them from storage, takes actions from seats and
bots, and tells each listener of a room what it may see. It holds the rules of the
server:

- a seat's messages are built from :func:`moonrules.view` of that seat alone (encoded by
  the JSON-lines protocol's one view encoder), a spectator's from what every seat sees;
- an action is applied by :func:`moonrules.apply` and stored with the room's new state
  before any listener hears of it; a refused action changes nothing;
- the actions of one room are taken one at a time, in order; rooms never wait for each
  other, nor for a listener that does not read (its messages are dropped or coalesced,
  never queued without bound).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable

from moonrules import (
    GameState,
    IllegalAction,
    OutOfTurn,
    RuleSet,
    apply,
    apply_claim,
    new_game,
)
from moonrules.i18n.table_catalog import clause_text
from moonrules.records.record import (
    JSON,
    rules_json,
    to_record,
)
from moonrules.records.replay import from_record
from moonrules.rules.errors import quote, wrong_type
from moonrules.table import assist
from moonrules.table.botpool import BotPool
from moonrules.table.review_at_table import Reviews
from moonrules.table.room import (
    HANDOVER_SECONDS,
    HUMAN,
    MOVED_CODE,
    MOVED_REASON,
    MOVING_CODE,
    MOVING_REASON,
    CreatedRoom,
    HelpLoad,
    Listener,
    Room,
    RoomError,
    TableLimits,
    _clock_option,
    new_id,
    new_token,
    parse_board,
    parse_options,
    parse_request,
    rematch_seats,
    token_hash,
)
from moonrules.table.room_help import RoomHelp
from moonrules.table.room_turns import RoomTurns
from moonrules.table.storage import RoomRow, Step, Storage
from moonrules.table.storage_pg import NotOwner, PgStorage
from moonrules.table.wire import (
    FrameError,
    action_json,
    check_name,
    encode,
    name_refusal,
    parse_action,
    read_message,
    refused,
)

log = logging.getLogger("moonrules.table")


class Table(RoomHelp, RoomTurns):
    """Every room of a server: created, loaded from storage, played, listened to."""

    def __init__(
        self,
        storage: Storage | PgStorage,
        bots: BotPool,
        limits: TableLimits | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not isinstance(storage, (Storage, PgStorage)):
            raise wrong_type("storage", "a Storage or a PgStorage", storage)
        if not isinstance(bots, BotPool):
            raise wrong_type("bots", "a BotPool", bots)
        self.storage = storage
        self.bots = bots
        self.limits = TableLimits() if limits is None else limits
        if not isinstance(self.limits, TableLimits):
            raise wrong_type("limits", "a TableLimits", limits)
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._taking: set[str] = set()
        """Rooms being created or taken over, not yet in :attr:`rooms`."""
        self.connections = 0
        self.closing = False
        self.help = HelpLoad(self.limits)
        """The players' help being worked out, by client address (hints, claims, reviews)."""
        self.reviews = Reviews(storage, bots, self.help)
        """The reviews of finished hands (:mod:`moonrules.table.review_at_table`)."""

    # -- rooms ----------------------------------------------------------------

    async def start(self) -> int:
        """Resume every stored game in which a bot is to act; returns how many were not in
        memory yet. On PostgreSQL, the games of no process (their owner gone) are taken
        over, never another's (run again every second by the server's lease task)."""
        ids = await self.storage.moving()
        ids += [r for r in await self.storage.clocked() if r not in ids]
        resumed = 0
        for room_id in ids:
            if self.closing:
                break
            fresh = room_id not in self.rooms
            self._taking.add(room_id)
            try:
                if isinstance(self.storage, PgStorage) and fresh:
                    lease = await self.storage.acquire(room_id)
                    if lease is None or not lease.mine:  # another process took it first
                        continue
                room = await self.room(room_id)
            except (RoomError, sqlite3.Error) as e:
                log.warning("room %s: not resumed: %s", room_id, e)
                continue
            finally:
                self._taking.discard(room_id)
            if room is not None:
                self._schedule_bot(room)
                self._clock_follow(room)
                resumed += fresh
        return resumed

    def pinned(self) -> set[str]:
        """The rooms this process serves or is about to serve (in memory, being loaded,
        created or taken over): their leases are kept."""
        return set(self.rooms) | set(self._loading) | self._taking

    async def close(self) -> None:
        """Stop every bot task (the workers are the :class:`BotPool`'s to end)."""
        self.closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        tasks += [r.clock_task for r in self.rooms.values() if r.clock_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.reviews.close()

    def parse_request(self, body: JSON) -> tuple[RuleSet, tuple[str, ...]]:
        """Read a ``POST /api/rooms`` body (:func:`~moonrules.table.room.parse_request`)."""
        return parse_request(body, self.bots.names)

    def parse_options(self, body: JSON) -> dict[str, JSON]:
        """The options of a ``POST /api/rooms`` body
        (:func:`~moonrules.table.room.parse_options`; a clock's bot one the table seats)."""
        return parse_options(body, self.bots.names)

    async def create(self, body: JSON) -> CreatedRoom:
        """Create a room from a ``POST /api/rooms`` body (see :meth:`parse_request`)."""
        rules, seats = self.parse_request(body)
        options = self.parse_options(body)
        board = parse_board(body, rules.players)
        if HUMAN not in seats:
            playing = self.bot_games()
            if playing >= self.limits.max_bot_rooms:
                raise RoomError(
                    503,
                    f"the table is playing {playing} games of bots alone, its most; wait for "
                    "one to end, or give a seat to a person",
                )
        # a fresh secret seed: it never leaves the server mid-game; a board's, its event's
        state = new_game(rules) if board is None else new_game(rules, board[0])
        if board is not None:
            options["board"] = {"seed": board[0]}
        after = None if board is None or board[2] is None else await self._board_before(board[2])
        if after is not None and (after.seats != seats or after.rules != rules):
            raise RoomError(400, "board.after: a board of the same table (its rules and seats)")
        tokens = {s: new_token() for s, p in enumerate(seats) if p == HUMAN and after is None}
        hashes = tuple(token_hash(tokens[s]) if s in tokens else None for s in range(len(seats)))
        record = to_record(state)
        row = RoomRow(
            id=new_id(),
            created=self.clock(),
            rules=rules_json(rules),
            seats=seats,
            tokens=hashes if after is None else after.row.tokens,
            bot_seed=secrets.token_hex(16),
            initial=record,
            record=record,
            seq=0,
            joined=frozenset(),
            over=False,
            options=options,
            names=() if board is None else board[1],
        )
        room = Room(row, state)
        if after is not None:
            await self._next_board(after, room)
            return CreatedRoom(row.id, tokens)
        self._taking.add(row.id)
        try:
            await self.storage.create_room(row, bot_turn=room.bot_to_act() is not None)
            self.rooms[row.id] = room
        finally:
            self._taking.discard(row.id)
        self._schedule_bot(room)
        return CreatedRoom(row.id, tokens)

    async def _board_before(self, room_id: str) -> Room:
        """The board room ``board.after`` names: over, without a next board yet."""
        before = await self.room(room_id)
        if before is None or not before.board:
            raise RoomError(400, f"board.after: {quote(room_id)} is no board's room")
        if not before.over:
            raise RoomError(409, "board.after: that board is still being played")
        if before.next is not None:
            raise RoomError(409, "board.after: that board has its next board already")
        return before

    async def _next_board(self, before: Room, room: Room) -> None:
        """Store ``room`` as the board after ``before`` (its seats' links the same) and send
        every seat of ``before`` on to it (``table.next``: the page goes there)."""
        async with before.lock:
            self._taking.add(room.id)
            try:
                made = await self.storage.create_rematch(before.id, room.row, bot_turn=False)
                if not made:
                    raise RoomError(409, "board.after: that board has its next board already")
                self.rooms[room.id] = room
                before.next = room.id
                asked = frozenset(before.humans)
                await self.storage.set_rematch(before.id, asked)
                before.asked = set(asked)
            except (NotOwner, sqlite3.Error) as e:
                log.error("room %s: the next board not stored: %s", before.id, e)
                raise RoomError(503, "the next board could not be stored; try again") from None
            finally:
                self._taking.discard(room.id)
        before.broadcast()

    def bot_games(self) -> int:
        """The games going on with no person at them (:attr:`Room.plays_itself`): games of
        bots alone, and games whose people are all away and played by the clock. At most
        :attr:`TableLimits.max_bot_rooms`: a further room of bots alone is refused, and the
        clock of a further room nobody is at waits (it does not play the room)."""
        return sum(1 for r in self.rooms.values() if r.plays_itself)

    async def room(self, room_id: str) -> Room | None:
        """The room with this id, loaded from storage on first use; ``None`` if none."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        pending = self._loading.get(room_id)
        if pending is not None:
            return await pending
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Room | None] = loop.create_future()
        self._loading[room_id] = future
        try:
            row = await self.storage.load(room_id)
            if row is not None and isinstance(self.storage, PgStorage):
                await self._own(self.storage, room_id)
                row = await self.storage.load(room_id)  # as its last owner left it
                assert row is not None
            room = None if row is None else Room(row, await self._rebuild(row))
            if room is not None:
                self.rooms[room_id] = room
                await self._clock_load(room)
            future.set_result(room)
            return room
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: a later caller sees it, none warns of it
            raise
        finally:
            del self._loading[room_id]

    async def _own(self, storage: PgStorage, room_id: str) -> None:
        """Take the room's lease: at once if nobody holds it, else by asking its owner, who
        hands it over within a second; :class:`RoomError` (503) if it has not within
        :data:`HANDOVER_SECONDS`."""
        deadline = time.monotonic() + HANDOVER_SECONDS
        lease = await storage.ask(room_id)
        while lease is not None and not lease.mine:
            if time.monotonic() > deadline or self.closing:
                raise RoomError(503, MOVING_REASON)
            await asyncio.sleep(0.05)
            lease = await storage.acquire(room_id)

    async def hand_over(self, room_id: str, *, release: bool) -> bool:
        """Stop serving a room another process owns or asked for: the action under way is
        stored (the room's lock waited for), its bot stops, every listener is closed with
        :data:`MOVED_CODE` (they reconnect, through the proxy, to the room's new owner);
        ``release`` gives up its lease too. False (nothing done) for a room being loaded,
        created or taken over here: it is handed over once it is in memory."""
        if room_id in self._loading or room_id in self._taking:
            return False
        room = self.rooms.get(room_id)
        if room is not None:
            async with room.lock:
                self._moved(room)
        if release and isinstance(self.storage, PgStorage):
            await self.storage.release([room_id])
        return True

    def _moved(self, room: Room) -> None:
        """The room is another process's now: dropped from memory, its bot stopped, its
        listeners sent on (closed with :data:`MOVED_CODE`)."""
        room.gone = True
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if room.bot_task is not None and room.bot_task is not asyncio.current_task():
            room.bot_task.cancel()
        if room.clock_task is not None and room.clock_task is not asyncio.current_task():
            room.clock_task.cancel()
        for listener in list(room.listeners):
            listener.disconnect(MOVED_CODE, MOVED_REASON)

    async def _reload(self, room: Room) -> None:
        """The room's game and sequence number read again from storage (under its lock),
        every listener told."""
        row = await self.storage.load(room.id)
        if row is None:  # pragma: no cover - rooms are never deleted
            return
        room.state = await self._rebuild(row)
        room.seq = row.seq
        room.next = row.next
        room.asked = rematch_seats(row.options)
        await self._clock_load(room)
        self._clock_schedule(room)
        room.broadcast()
        self._schedule_bot(room)

    async def _rebuild(self, row: RoomRow) -> GameState:
        """The game of a stored room: its last record, then the actions after it."""
        state = from_record(row.record)
        for step in await self.storage.steps(row.id, after=row.record_seq):
            if isinstance(step.action, dict):  # a claim that held: {"claim": tricks}
                tricks = step.action["claim"]
                assert isinstance(tricks, int)
                state = apply_claim(state, step.seat, tricks, budget=assist.CLAIM_BUDGET)
                continue
            state = apply(state, parse_action(state.phase, step.action), seat=step.seat)
        return state

    def evict_idle(self) -> int:
        """Forget rooms nobody listens to and no bot moves (they reload from storage)."""
        gone = [
            r.id
            for r in self.rooms.values()
            if not r.listeners
            and r.bot_task is None
            and r.clock_task is None
            and not r.lock.locked()
        ]
        for room_id in gone:
            del self.rooms[room_id]
        return len(gone)

    # -- listeners -------------------------------------------------------------

    async def join(self, room: Room, listener: Listener) -> None:
        """Add a listener; a seat joining for the first time may start the game."""
        room.listeners.add(listener)
        room.order.append(listener)
        seat = listener.seat
        if seat is not None:
            room.active[seat] = listener  # the newest tab plays; the others watch
        if seat is not None and seat not in room.joined:
            async with room.lock:
                if room.gone:
                    listener.disconnect(MOVED_CODE, MOVED_REASON)
                    return
                if seat not in room.joined:
                    joined = frozenset(room.joined | {seat})
                    nxt = room.state.to_act
                    bot_turn = (
                        nxt is not None
                        and room.seats[nxt] != HUMAN
                        and all(s in joined for s in room.humans)
                    )
                    try:
                        await self.storage.set_joined(room.id, joined, bot_turn=bot_turn)
                    except NotOwner:  # another process took the room: the seat goes there
                        log.warning("room %s: another process owns it now", room.id)
                        self._moved(room)
                        return
                    except sqlite3.Error as e:
                        log.error("room %s: seat %d's joining not stored: %s", room.id, seat, e)
                        listener.disconnect(MOVING_CODE, "the server could not store this; "
                                            "try again in a moment")  # fmt: skip
                        return
                    room.joined = set(joined)
        if room.gone:
            listener.disconnect(MOVED_CODE, MOVED_REASON)
            return
        if seat is not None and room.clock is not None:
            async with room.lock:  # after an action being stored: its clock is the room's next
                if room.clock is not None:
                    room.clock.come_back(seat)  # the player is back: the seat is theirs again
                    if room.parked and room.clock.seat is not None:
                        room.clock.start = self.clock()  # the turn the room waited in, afresh
        if room.attended:
            room.autoplay = room.parked = False
        self._clock_follow(room)
        room.broadcast()
        self._schedule_bot(room)

    def leave(self, room: Room, listener: Listener) -> None:
        room.listeners.discard(listener)
        with contextlib.suppress(ValueError):
            room.order.remove(listener)
        seat = listener.seat
        if seat is not None and room.active.get(seat) is listener:
            others = [x for x in room.order if x.seat == seat]
            if others:
                room.active[seat] = others[-1]  # the seat's newest tab left plays it
            else:
                del room.active[seat]
        room.last_used = time.monotonic()
        if not self.closing:
            room.broadcast()

    # -- actions ---------------------------------------------------------------

    async def receive(self, room: Room, listener: Listener, text: str) -> None:
        """One frame from a listener: its message carried out, or a refusal sent back."""
        seat = listener.seat
        try:
            kind, message = read_message(text, max_bytes=self.limits.max_frame_bytes)
        except FrameError as e:
            listener.send(encode(refused(e.code, e.message, room.legal_for(seat))))
            return
        address = str(getattr(listener, "address", ""))  # the client's, for the help caps
        if kind == "review":  # any listener, any tab: filtered for what its seat may see
            answer = await self.reviews.request(room, listener, message["hand"], address)
            if answer is not None:
                listener.send(encode(answer))
            return
        if seat is None:
            note = "a spectator watches: only a seat's link may act"
            listener.send(encode(refused("spectator", note, [])))
            return
        outcome: dict[str, JSON] | None = None
        if kind == "name":
            outcome = await self.rename(room, seat, message["name"])
        elif kind == "rematch":
            outcome = await self.rematch(room, seat)
        elif kind == "take-seat":
            room.active[seat] = listener
            room.broadcast()
        elif not room.is_active(listener):
            note = (
                "this seat is played in another tab or window; choose “Play here” to play it "
                "in this one"
            )
            outcome = refused("elsewhere", note, [])
        elif kind == "act":
            outcome = await self.act(room, seat, message["action"])
        elif kind == "hint":
            outcome = await self.hint(room, seat, address)
        elif kind == "claim":
            outcome = await self.limited_claim(room, seat, message.get("tricks"), address)
        if outcome is not None:
            listener.send(encode(outcome))

    async def act(
        self, room: Room, seat: int, value: JSON, *, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        """Take ``seat``'s action ``value`` (as records write it): ``None`` once it is stored
        and every listener told, else the ``refused`` message for that seat.

        Shielded: when the caller is cancelled (its connection closed) while the action is
        being stored, the action still ends as it would have (stored, the room moved on,
        every listener told), so that the room never falls behind its database.

        ``clocked``: the move the clock's bot makes for a seat whose time ran out at action
        ``clocked`` (refused if the room has moved on since)."""
        return await asyncio.shield(self._act_locked(room, seat, value, clocked))

    async def _act_locked(
        self, room: Room, seat: int, value: JSON, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        async with room.lock:
            return await self._act(room, seat, value, clocked)

    async def _act(
        self, room: Room, seat: int, value: JSON, clocked: int | None = None
    ) -> dict[str, JSON] | None:
        st = room.state
        if room.gone:  # moved to another process while this action waited
            return refused("unavailable", MOVED_REASON, [])
        if clocked is not None and (room.clock is None or clocked != room.seq):
            return refused("turn", "the seat acted before its clock ran out", [])
        if not room.started:
            waiting = [f"seat {s}" for s in room.humans if s not in room.joined]
            message = "the game starts when every player has joined; waiting for " + ", ".join(
                waiting
            )
            return refused("not-started", message, [])
        if room.over:
            return refused("over", "the game is over; no more actions", [], "END-1")
        try:
            action = parse_action(st.phase, value)
        except FrameError as e:
            return refused(e.code, e.message, room.legal_for(seat))
        try:
            new = apply(st, action, seat=seat)
        except OutOfTurn as e:
            code = "turn" if e.seat == seat and st.to_act != seat else "illegal"
            return refused(code, e.message, room.legal_for(seat), e.rule, e.reason, clause_text(e))
        except IllegalAction as e:
            return refused(
                "illegal", e.message, room.legal_for(seat), e.rule, e.reason, clause_text(e)
            )
        step = Step(room.seq + 1, seat, action_json(action))
        nxt = new.to_act
        bot_turn = (
            nxt is not None and room.seats[nxt] != HUMAN and room.started and not room.ends(new)
        )
        # the record at the end of each hand (and of the game); between, the action alone
        ended = room.ends(new) or new.hand_number != st.hand_number
        clock = self._clock_after(room, st, seat, new, step.seq, clocked)
        try:
            await self.storage.append(
                room.id,
                step,
                to_record(new) if ended else None,
                over=room.ends(new),
                bot_turn=bot_turn,
                **({} if clock is None else {"clock": clock.to_json()}),
            )
        except NotOwner:  # another process took the room: its listeners go there
            log.warning("room %s: another process owns it now; its listeners are sent on", room.id)
            self._moved(room)
            return refused("unavailable", MOVED_REASON, [])
        except sqlite3.IntegrityError as e:  # the database is ahead: the room is read again
            log.error(
                "room %s: action %d not stored: %s; the room is reloaded", room.id, step.seq, e
            )
            await self._reload(room)
            message = "the game had moved on; here is where it stands"
            return refused("turn", message, room.legal_for(seat))
        except sqlite3.Error as e:
            log.error("room %s: action %d not stored: %s", room.id, step.seq, e)
            message = "the server could not store this action; try again"
            return refused("unavailable", message, room.legal_for(seat))
        room.state = new
        room.seq = step.seq
        room.last_used = time.monotonic()
        room.clock = clock
        self._clock_schedule(room)
        room.broadcast()
        self._schedule_bot(room)
        return None

    # -- names, help, rematch ----------------------------------------------------

    async def rename(self, room: Room, seat: int, value: JSON) -> dict[str, JSON] | None:
        """The seat's player chose a name: checked (:func:`~moonrules.table.wire.check_name`,
        and :func:`~moonrules.table.wire.name_refusal`: no seat's label, no bot's, no other
        seat's name), stored with the room, shown to everyone; refused once the game is over
        (the record's ``players`` are the names as it ended)."""
        try:
            name = check_name(value)
        except FrameError as e:
            return refused(e.code, e.message, [])
        others = [n for s, n in enumerate(room.names) if s != seat]
        why = name_refusal(name, others, self.bots.names)
        if why is not None:
            return refused("bad-name", why, [])
        if room.board:
            return refused("not-now", "a tournament's board: the event names its seats", [])
        async with room.lock:
            if room.over:  # the record's players are the names as the game ended
                message = (
                    f"the game is over: its names are those of its record; {quote(name)} "
                    "was not taken"
                )
                return refused("not-now", message, [])
            if room.names[seat] == name:
                return None
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            if name_refusal(name, [n for s, n in enumerate(room.names) if s != seat], ()):
                return refused("bad-name", f"name: {quote(name)} was just taken in this room", [])
            names = list(room.names)
            names[seat] = name
            try:
                await self.storage.set_names(room.id, tuple(names))
            except NotOwner:
                self._moved(room)
                return refused("unavailable", MOVED_REASON, [])
            except sqlite3.Error as e:
                log.error("room %s: seat %d's name not stored: %s", room.id, seat, e)
                return refused("unavailable", "the server could not store the name; try again", [])
            room.names = names
        room.broadcast()
        return None

    async def rematch(self, room: Room, seat: int) -> dict[str, JSON] | None:
        """At the game's end, the seat's player asks for another game: the first to ask
        makes a new room with the same seats (people, with their names and links' tokens,
        and bots), rules and options; each seat that asks is told its id (``table.next``)
        and goes there, and every listener is told which seats asked (``table.rematch``).
        A seat whose player did not ask is not moved: the new game starts once every seat
        for a person has joined it, as any game does. Asked again, the same room."""
        if not room.over:
            return refused("not-now", "a rematch is offered once the game is over", [])
        if room.board:
            return refused("not-now", "a tournament's board is played once: no rematch", [])
        async with room.lock:
            if room.gone:
                return refused("unavailable", MOVED_REASON, [])
            if room.next is None:
                state = new_game(room.rules)
                record = to_record(state)
                row = RoomRow(
                    id=new_id(),
                    created=self.clock(),
                    rules=rules_json(room.rules),
                    seats=room.seats,
                    tokens=room.row.tokens,  # the same links' tokens: each page knows its own
                    bot_seed=secrets.token_hex(16),
                    initial=record,
                    record=record,
                    seq=0,
                    joined=frozenset(),
                    over=False,
                    names=tuple(room.names),
                    options={**room.options, **_clock_option(room.row.options)},
                )
                new = Room(row, state)
                self._taking.add(row.id)
                try:
                    made = await self.storage.create_rematch(room.id, row, bot_turn=False)
                    if made:
                        self.rooms[row.id] = new
                        room.next = row.id
                except NotOwner:
                    self._moved(room)
                    return refused("unavailable", MOVED_REASON, [])
                except sqlite3.Error as e:
                    log.error("room %s: the rematch not stored: %s", room.id, e)
                    message = "the server could not store the rematch; try again"
                    return refused("unavailable", message, [])
                finally:
                    self._taking.discard(row.id)
                if not made:  # another process made it first: the room read again
                    await self._reload(room)
            if seat not in room.asked:
                asked = frozenset(room.asked | {seat})
                try:
                    await self.storage.set_rematch(room.id, asked)
                except NotOwner:
                    self._moved(room)
                    return refused("unavailable", MOVED_REASON, [])
                except sqlite3.Error as e:
                    log.error("room %s: seat %d's rematch not stored: %s", room.id, seat, e)
                    message = "the server could not store the rematch; try again"
                    return refused("unavailable", message, [])
                room.asked = set(asked)
        room.broadcast()
        return None

    # -- the record ------------------------------------------------------------

    def record(self, room: Room) -> JSON:
        """The game's record, once it is over (:meth:`Room.record`)."""
        return room.record()


__all__ = [
    "HANDOVER_SECONDS",
    "HUMAN",
    "MOVED_CODE",
    "MOVED_REASON",
    "MOVING_CODE",
    "MOVING_REASON",
    "CreatedRoom",
    "Listener",
    "Room",
    "RoomError",
    "Table",
    "TableLimits",
    "new_id",
    "new_token",
    "token_hash",
]
