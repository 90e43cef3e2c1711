"""Bots thinking in worker processes, so that no bot ever holds up the event loop.

A bot sees only its seat's :class:`~moonrules.game.views.PlayerView` (VIEW-1), exactly
as in :mod:`moonrules.bots`: the view and a seed for its random generator are sent to a
worker process, which answers with the bot's action. Quick bots (``random``, ``basic``)
share one pool and the searching bots (``pimc``, ``strong``, ``learned``) have their own, so
a strong bot thinking (for whole seconds) delays neither the server nor the quick bots of
other rooms; searching bots of different rooms share the slow pool's workers (one per core
by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import random
import signal
import time
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from importlib.util import find_spec
from typing import Any, Final

import attrs

from moonrules.bots import Bot
from moonrules.bots.match import BOTS
from moonrules.game import Action, PlayerView
from moonrules.rules.errors import MoonError, wrong_type
from moonrules.support.processes import end_with_parent


@attrs.frozen(slots=True)
class BotSpec:
    """A bot level of the table: how to make the bot, and which pool it thinks in.

    ``make`` must be picklable (a class or a function of a module, or a
    :func:`functools.partial` of one): it is called in the worker process.
    """

    make: Callable[[], Bot]
    pool: str = "quick"
    """``"quick"`` or ``"slow"``."""


DEFAULT_BOTS: Final[Mapping[str, BotSpec]] = {
    "random": BotSpec(BOTS["random"], "quick"),
    "basic": BotSpec(BOTS["basic"], "quick"),
    "pimc": BotSpec(BOTS["pimc"], "slow"),
    "strong": BotSpec(BOTS["strong"], "slow"),
    **({"learned": BotSpec(BOTS["learned"], "slow")} if find_spec("numpy") is not None else {}),
}
"""The bots a room may seat: every level of :data:`moonrules.bots.match.BOTS` (``learned``
when numpy, which reads its models, is installed). The searching levels (``pimc``,
``strong``, ``learned``) think in the slow pool: each decision is bounded by its bot's
node budget (some 0.3 s of CPU for ``pimc``, under 1.5 s for the others, the bots guide's
figures), and a worker that does not answer within the pool's ``timeout`` is killed."""


HINT_BOTS: Final = ("learned", "strong")
"""The bots of the hints, the strongest first (measured in the bots guide: ``learned`` is
the strongest level, and faster than ``strong``): a hint is what the first of them the
table's pool has would do (:func:`hint_bot`)."""


def hint_bot(bots: Mapping[str, BotSpec]) -> tuple[str, BotSpec]:
    """The hints' bot of a table whose pool seats ``bots``: its level and spec, the first of
    :data:`HINT_BOTS` it has (``learned`` when numpy is installed), else ``strong`` as
    :data:`DEFAULT_BOTS` makes it."""
    for name in HINT_BOTS:
        if name in bots:
            return name, bots[name]
    return "strong", DEFAULT_BOTS["strong"]


HELP: Final = "help"
"""The pool of the players' help (hints, claims' checks, reviews): workers of its own, so
that help never holds up a bot's move, run at a lower priority (:data:`HELP_NICENESS`)."""

HELP_NICENESS: Final = 10
"""How much lower the help pool's workers run with the system's scheduler (``nice``)."""

CANCEL_GRACE: Final = 30.0
"""Seconds a worker has to answer a job it was told to cancel before it is killed."""


class BotFailed(MoonError):
    """A bot's worker failed or did not answer: the table falls back to another move."""


_BOT_CACHE: dict[Callable[[], Bot], Bot] = {}


def _decide(make: Callable[[], Bot], view: PlayerView, seed: str) -> Action:
    """In the worker: the bot's action for ``view``, its generator seeded by ``seed``."""
    bot = _BOT_CACHE.get(make)
    if bot is None:
        bot = _BOT_CACHE[make] = make()
    return bot.act(view, random.Random(seed))


class JobCancelled(BaseException):
    """Raised in a worker, inside the job it is working out, when the server cancels that
    job (a :class:`BaseException`: a job's own ``except Exception`` does not swallow it)."""


CANCEL_SIGNAL: Final = getattr(signal, "SIGUSR1", None)
"""The signal that tells a worker to look at its cancel pipe (POSIX; without it a cancelled
job's worker is killed instead)."""


class _Job:
    """In a worker: the job being worked out (its number), and the pipe the server names
    the jobs it cancels on."""

    number: int | None = None
    cancels: multiprocessing.connection.Connection | None = None
    named: set[int] = set()  # noqa: RUF012 - the one worker's state, never an instance's
    """The jobs the server named on the cancel pipe that have not started or are running: a
    cancel can come before the worker takes the job up (it is then answered at once)."""


def _read_cancels() -> None:
    """The job numbers waiting on the cancel pipe, into :attr:`_Job.named`."""
    pipe = _Job.cancels
    while pipe is not None and pipe.poll():
        _Job.named.add(pipe.recv())


def _cancel_here(signum: int, frame: object) -> None:
    """In a worker, on :data:`CANCEL_SIGNAL`: the job being worked out stops (raising
    :class:`JobCancelled` inside it) if the server named it on the cancel pipe; a job named
    before it started is stopped as it starts; a signal about a job already answered is
    ignored."""
    _read_cancels()
    if _Job.number is not None and _Job.number in _Job.named:
        _Job.named.discard(_Job.number)
        _Job.number = None
        raise JobCancelled


def _start_job(number: int) -> None:
    """In a worker, as job ``number`` starts: :class:`JobCancelled` at once if the server
    cancelled it already (its signal may have come before the job did)."""
    _Job.named = {n for n in _Job.named if n >= number}  # those answered are done with
    _Job.number = number
    _read_cancels()
    if number in _Job.named:
        _Job.named.discard(number)
        _Job.number = None
        raise JobCancelled


def _work(
    conn: multiprocessing.connection.Connection,
    cancels: multiprocessing.connection.Connection | None = None,
    niceness: int = 0,
) -> None:
    """A worker process: answer each ``(number, function, arguments)`` it is sent (a bot's
    decision is ``(n, _decide, (make, view, seed))``) with ``(True, result)`` or ``(False,
    "Error: message")``, until its pipe closes or its parent ends. A job the server
    cancels (its number sent on ``cancels``, then :data:`CANCEL_SIGNAL`) is answered
    ``(False, "cancelled")`` at once, and the worker takes the next.

    SIGINT and SIGTERM are ignored: a signal to the server's whole process group (Ctrl-C in
    a terminal, ``systemctl stop``, ``docker stop``) is the server's to handle, and the
    server ends its workers itself (or they end with it, when it is killed). ``niceness``
    lowers the worker's priority with the system's scheduler (the help pool's: a hint or a
    claim gets a core only when no bot's move wants it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(niceness)
    _Job.cancels = cancels
    if cancels is not None and CANCEL_SIGNAL is not None:
        signal.signal(CANCEL_SIGNAL, _cancel_here)
    end_with_parent()
    try:
        conn.send(_READY)
    except (OSError, ValueError):
        return
    while True:
        try:
            number, fn, args = conn.recv()
        except (EOFError, OSError):
            return
        answer: tuple[bool, Any]
        try:
            try:
                _start_job(number)
                answer = (True, fn(*args))
            finally:
                _Job.number = None
        except JobCancelled:
            answer = (False, _CANCELLED)
        except Exception as e:  # the bot's fault, reported to the server
            answer = (False, f"{type(e).__name__}: {e}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


_CANCELLED: Final = "cancelled"


_READY: Final = "ready"
"""A worker's first message: its signals are set, it takes jobs."""


class _Worker:
    """One worker process, the server's end of its pipe, and of the pipe it names the jobs
    it cancels on."""

    def __init__(
        self, ctx: multiprocessing.context.SpawnContext, name: str, niceness: int = 0
    ) -> None:
        self.conn, theirs = ctx.Pipe()
        their_cancels, self.cancels = ctx.Pipe(duplex=False)
        self.process = ctx.Process(
            target=_work, args=(theirs, their_cancels, niceness), name=name, daemon=True
        )
        self.process.start()
        theirs.close()
        their_cancels.close()
        self.ready = False
        self.jobs = 0
        """Jobs sent so far (each job's number)."""
        self.busy = False
        """Whether a job was sent and its answer not yet read."""

    def started(self) -> bool:
        """Whether the worker said it is ready (reading its first message if it came)."""
        if not self.ready and self.conn.poll():
            self.ready = self.conn.recv() == _READY
        return self.ready

    async def ask(self, job: tuple[Callable[..., Any], tuple[Any, ...]]) -> tuple[bool, Any]:
        """Send one job and wait (without blocking the event loop) for its answer."""
        if not self.ready:
            await self._readable()
            if not self.started():
                raise EOFError("the worker did not start")
        self.jobs += 1
        self.conn.send((self.jobs, *job))  # a view is a few hundred bytes: taken at once
        self.busy = True
        return await self.answer()

    async def answer(self) -> tuple[bool, Any]:
        """The answer to the job sent last (EOFError when the worker died)."""
        await self._readable()
        answer: tuple[bool, Any] = self.conn.recv()
        self.busy = False
        return answer

    def cancel(self) -> bool:
        """Ask the worker to stop the job sent last (it then answers it at once); false
        when it cannot be asked (no signal for it here, or the worker is gone)."""
        if CANCEL_SIGNAL is None or self.process.pid is None:
            return False
        try:
            self.cancels.send(self.jobs)
            os.kill(self.process.pid, CANCEL_SIGNAL)
        except (OSError, ValueError):
            return False
        return True

    async def _readable(self) -> None:
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
        try:
            await readable
        finally:
            loop.remove_reader(fd)

    def kill(self) -> None:
        """End the process at once (SIGKILL: it may be deep in a bot's thought)."""
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.cancels.close()

    def reap(self, timeout: float) -> None:
        with contextlib.suppress(Exception):
            self.process.join(timeout)
            if self.process.exitcode is not None:
                self.process.close()


class _Slots:
    """The workers of one pool, handed out in turn: a decision for a room where a person
    sits before any for a room of bots alone (which could otherwise queue by the hundred
    ahead of it), each kind in the order asked."""

    def __init__(self, workers: int) -> None:
        self.free = workers
        self.waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )

    async def acquire(self, urgent: bool) -> None:
        if self.free > 0 and not (self.waiting[0] or self.waiting[1]):
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self.waiting[0 if urgent else 1]
        queue.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release()  # handed a worker just as it gave up: the next one has it
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(turn)
            raise

    def release(self) -> None:
        for queue in self.waiting:
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self.free += 1


class BotPool:
    """Worker processes for the table's bots (started at once; the help's on the first help
    asked; all ended by :meth:`close`).

    Each worker answers one decision at a time through its own pipe: a worker that fails,
    dies or does not answer in time is killed (a fresh one takes its place), so that no
    worker stays busy with a decision nobody waits for; :meth:`close` kills every worker
    and waits for them (no lock, queue or thread of the server is shared with a worker, so
    that a worker killed by anyone never blocks the server's end)."""

    def __init__(
        self,
        bots: Mapping[str, BotSpec] | None = None,
        *,
        quick_workers: int = 1,
        slow_workers: int | None = None,
        help_workers: int = 1,
        timeout: float = 300.0,
        cancel_grace: float = CANCEL_GRACE,
    ) -> None:
        self.bots: Mapping[str, BotSpec] = DEFAULT_BOTS if bots is None else dict(bots)
        for name, spec in self.bots.items():
            if not isinstance(spec, BotSpec):
                raise wrong_type(f"bots[{name!r}]", "a BotSpec", spec)
            if spec.pool not in ("quick", "slow"):
                raise ValueError(f"bots[{name!r}].pool: 'quick' or 'slow', not {spec.pool!r}")
        if slow_workers is None:
            slow_workers = max(1, os.cpu_count() or 1)
        for name, n in (
            ("quick_workers", quick_workers),
            ("slow_workers", slow_workers),
            ("help_workers", help_workers),
        ):
            if type(n) is not int:
                raise wrong_type(name, "a number of processes (int)", n)
            if n < 1:
                raise ValueError(f"{name}: at least 1 process, not {n}")
        self.timeout = timeout
        self.cancel_grace = cancel_grace
        self._ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._workers: dict[str, list[_Worker]] = {}
        self._idle: dict[str, list[_Worker]] = {}
        self._closed = False
        # a pool never closed is closed when collected, or at the interpreter's exit
        # (before multiprocessing's own exit, whose SIGTERM the workers ignore)
        self._end = weakref.finalize(self, _end_workers, self._workers)
        try:
            for pool, n in (("quick", quick_workers), ("slow", slow_workers)):
                self._idle[pool] = [self._start(pool) for _ in range(n)]
            self._idle[HELP] = []  # started on the first help asked: most rooms ask none
        except BaseException:
            self.close()
            raise
        self._slots = {
            "quick": _Slots(quick_workers),
            "slow": _Slots(slow_workers),
            HELP: _Slots(help_workers),
        }
        self.thinking = 0
        """Decisions sent to the workers and not yet answered."""
        self.cancelled = 0
        """Jobs cancelled in a worker that went on to the next (not killed)."""
        self._draining: set[asyncio.Task[None]] = set()

    def _start(self, pool: str) -> _Worker:
        """A fresh worker (it takes the place of one that failed when a decision needs it,
        so that none is started while the server stops)."""
        worker = _Worker(self._ctx, f"moonrules-bot-{pool}", HELP_NICENESS if pool == HELP else 0)
        self._workers.setdefault(pool, []).append(worker)
        return worker

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Wait (blocking: from a thread) until every worker has started, at most
        ``timeout`` seconds: a server is ready once its bots are, and a worker that has
        started ignores the signals meant for the server. Whether all have."""
        deadline = time.monotonic() + timeout
        waiting = [w for ws in list(self._workers.values()) for w in ws]
        while waiting and time.monotonic() < deadline:
            multiprocessing.connection.wait(
                [w.conn for w in waiting], max(0.0, deadline - time.monotonic())
            )
            try:
                waiting = [w for w in waiting if not w.started()]
            except (EOFError, OSError):  # one died: the next decision replaces it
                waiting = [w for w in waiting if w.process.is_alive() and not w.ready]
        return not waiting

    @property
    def names(self) -> tuple[str, ...]:
        """The bot levels a room may seat."""
        return tuple(self.bots)

    @property
    def pids(self) -> tuple[int, ...]:
        """The process ids of the workers (for a server's health check and its tests)."""
        return tuple(
            w.process.pid for ws in self._workers.values() for w in ws if w.process.pid is not None
        )

    async def decide(
        self, level: str, view: PlayerView, seed: str, *, urgent: bool = False
    ) -> Action:
        """The action the bot ``level`` takes in ``view``, thought out in a worker process.

        ``urgent`` (a room where a person waits): it goes to the first free worker before
        every decision not urgent. Raises :class:`BotFailed` when the worker raises, dies or
        does not answer within :attr:`timeout` seconds (waiting for a worker included), and
        once the pool is closed. Cancelled, it kills the worker thinking for it (a fresh one
        takes its place).
        """
        spec = self.bots[level]
        value = await self.run(
            spec.pool, _decide, (spec.make, view, seed), urgent=urgent, what=f"the {level} bot"
        )
        if not isinstance(value, Action):
            raise BotFailed(f"the {level} bot answered {type(value).__name__}, no action")
        return value

    async def run(
        self,
        pool: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        urgent: bool = False,
        what: str = "the job",
    ) -> Any:
        """``fn(*args)`` computed in a worker of ``pool`` (``"quick"``, ``"slow"`` or
        :data:`HELP`), as :meth:`decide` computes a bot's decision (the same queue, timeout
        and failures): a hint, a claim's check or a review, which must not hold up the event
        loop, in the help pool's own workers (at a lower priority with the system's
        scheduler: they never hold up a bot's move). ``fn`` and ``args`` must be picklable
        (a function of a module).

        Cancelled while a worker works it out, the job is stopped in the worker, which then
        takes the next job (:meth:`_drain`): the caller is not held up meanwhile."""
        slots = self._slots[pool]
        self.thinking += 1
        try:
            if self._closed:
                raise BotFailed("the table is stopping: its bots are gone")
            async with asyncio.timeout(self.timeout):
                await slots.acquire(urgent)
                idle = self._idle[pool]
                worker: _Worker | None = idle.pop() if idle else self._start(pool)
                assert worker is not None
                healthy = False
                try:
                    ok, value = await worker.ask((fn, args))
                    healthy = True
                except asyncio.CancelledError:
                    if not worker.busy:  # cancelled before the job was sent
                        healthy = True
                    elif not self._closed and worker.cancel():
                        task = asyncio.get_running_loop().create_task(
                            self._drain(pool, worker, slots)
                        )
                        self._draining.add(task)
                        task.add_done_callback(self._draining.discard)
                        worker = None  # the drain gives it back
                    raise
                finally:
                    if worker is not None:
                        self._give_back(pool, worker, healthy)
                        slots.release()
            if not ok:
                raise BotFailed(f"{what} failed: {value}")
            return value
        except TimeoutError:
            raise BotFailed(f"{what} did not answer in {self.timeout:g} s") from None
        except (EOFError, OSError) as e:
            raise BotFailed(f"{what}'s worker ended: {type(e).__name__}: {e}") from None
        finally:
            self.thinking -= 1

    async def _drain(self, pool: str, worker: _Worker, slots: _Slots) -> None:
        """A cancelled job's worker: its answer (``cancelled``, or the result if it came
        first) read within :attr:`cancel_grace` seconds, and the worker idle again; killed
        if it did not answer (a search that does not look at signals)."""
        healthy = False
        try:
            async with asyncio.timeout(self.cancel_grace):
                await worker.answer()
            healthy = True
            self.cancelled += 1
        except (TimeoutError, EOFError, OSError, asyncio.CancelledError):
            pass
        finally:
            self._give_back(pool, worker, healthy)
            slots.release()

    def _give_back(self, pool: str, worker: _Worker, healthy: bool) -> None:
        """A worker done with a decision: idle again, or (it failed, was interrupted or
        the pool is closed) killed; a fresh one takes its place when next needed."""
        if healthy and not self._closed:
            self._idle[pool].append(worker)
            return
        worker.kill()
        worker.reap(1.0)
        workers = self._workers.get(pool, [])
        if worker in workers:
            workers.remove(worker)

    def close(self) -> None:
        """End every worker at once, thinking or not, and wait for them (a second at most
        each: a killed process ends at once). Idempotent; :meth:`decide` fails after it."""
        self._closed = True
        for task in list(self._draining):
            task.cancel()
        self._end()
        self._idle.clear()


def _end_workers(pools: dict[str, list[_Worker]]) -> None:
    workers = [w for ws in pools.values() for w in ws]
    for w in workers:
        w.kill()
    for w in workers:
        w.reap(1.0)
    pools.clear()


__all__ = [
    "CANCEL_GRACE",
    "DEFAULT_BOTS",
    "HELP",
    "HELP_NICENESS",
    "HINT_BOTS",
    "BotFailed",
    "BotPool",
    "BotSpec",
    "JobCancelled",
    "hint_bot",
]
