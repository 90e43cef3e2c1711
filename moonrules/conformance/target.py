"""A target engine run as a subprocess: request lines in, answer lines out.

:class:`Target` runs a command that speaks the JSON-lines protocol of
``spec/protocol.md`` on its standard input and output; ``moonrules conform`` and
``moonrules fuzz`` both talk to the engine they check through it. The command is
split like a shell would split it, but no shell is run. A thread feeds the
target's input and another reads its output, so that neither a target that never
answers nor one that never reads blocks the caller beyond the per-request
timeout; a third keeps the tail of its error output, for reports.

Memory stays bounded whatever the target writes: an answer line longer than
:data:`MAX_ANSWER_BYTES` is garbage (read no further than that), at most
:data:`MAX_PENDING_CHUNKS` chunks of answers wait to be read, and only the last
:data:`TAIL_LINES` lines of its error output are kept, each clipped.

The target runs in a process group of its own (a new session, on POSIX).
Stopping it (at the end, after a timeout, a crash or garbage, or when the caller
is interrupted) kills the whole group, so a child the target left behind goes
too; every wait is bounded, and a child that holds the target's output open
after the target exited does not make the caller wait for it.

Requests may be pipelined: :meth:`Target.ask_many` writes several requests and
then reads as many answers (the protocol answers in order, one line each).

A request that gets no proper answer raises one of the kinds of
:class:`TargetFault`:

- :class:`TargetTimeout`: no answer line within the timeout;
- :class:`TargetCrash`: the target exited (or closed its output) without
  answering;
- :class:`TargetGarbage`: the answer line is not JSON (``NaN`` and
  ``Infinity`` are not JSON), not a JSON object, nested deeper than
  :data:`MAX_ANSWER_DEPTH`, or longer than :data:`MAX_ANSWER_BYTES`;
- :class:`TargetExtraLine` (a kind of garbage): before a request was sent, the
  target had written a line nobody asked for, most often a second line after the
  previous request's answer (the protocol wants exactly one answer line per
  request). The fault is the previous request's; the current one was not sent. A
  second line that comes only after the next request was sent cannot be told from
  that request's answer: it is taken for it, and the true answer is then the
  extra line.

After any fault the target is stopped, and the next request starts it again. A
target that exited quietly after its last answer is also started again, without
a fault.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import select
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from array import array
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, ClassVar, Final, Literal

from moonrules.records.jsontext import MAX_DEPTH, JSONTextError, loads
from moonrules.records.record import JSON
from moonrules.rules.errors import MoonError, PicklableError

try:
    import fcntl
    import termios

    _FIONREAD: int | None = termios.FIONREAD
except ImportError:  # pragma: no cover - not POSIX
    _FIONREAD = None

FaultKind = Literal["crash", "timeout", "garbage"]

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a target may take to answer one request, unless told otherwise (conform and fuzz)."""

MAX_TIMEOUT: Final = 86_400.0
"""The longest timeout accepted: a day."""

STARTUP_TIMEOUT: Final = 5.0
"""Seconds the first answer of a run may take, at least (the target is loading)."""

CLOSE_GRACE: Final = 1.0
"""Seconds :meth:`Target.close` lets the target exit on its own before killing it."""

MAX_ANSWER_BYTES: Final = 16 * 2**20
"""The longest answer line read (16 MiB); a longer one is garbage."""

MAX_ANSWER_DEPTH: Final = MAX_DEPTH
"""The deepest nesting of arrays and objects accepted in an answer (as in a record)."""

MAX_PENDING_CHUNKS: Final = 256
"""Chunks of output (64 KiB at most, or one long line) read ahead of the caller, at most;
the target waits beyond that."""

TAIL_LINES: Final = 20
"""Lines of the target's error output kept, for reports."""

_TAIL_LINE_BYTES: Final = 2000
_POLL: Final = 0.05
_EXIT_GRACE: Final = 0.3
"""Seconds an answer may still arrive after the target exited (it was in the pipe)."""

_OVERLONG: Final = b"\0overlong"


class TargetError(MoonError, ValueError):
    """A target cannot be set up as asked: an empty command, an unusable timeout."""


class TargetFault(PicklableError):
    """The target did not answer a request with one answer line.

    ``kind`` names the fault for reports (``"crash"``, ``"timeout"`` or
    ``"garbage"``); ``detail`` says what happened, and is the exception's text.
    """

    kind: ClassVar[FaultKind] = "crash"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class TargetTimeout(TargetFault):
    """No answer within the timeout; the target was stopped."""

    kind: ClassVar[FaultKind] = "timeout"


class TargetCrash(TargetFault):
    """The target closed its output without answering (it exited, or was killed).

    ``status`` is its exit status (negative: the signal that killed it), ``None``
    if it had not exited; ``last_words`` the last line of its error output, or
    ``""``; ``tail`` the last lines of its error output (at most :data:`TAIL_LINES`).
    """

    kind: ClassVar[FaultKind] = "crash"

    def __init__(self, status: int | None, last_words: str, tail: Sequence[str] = ()) -> None:
        if status is None:
            how = "closed its output"
        elif status < 0:
            how = f"was killed by signal {-status}"
        else:
            how = f"exited with status {status}"
        detail = f"the target {how} without answering"
        if last_words:
            detail += f"; its last error output: {last_words}"
        super().__init__(detail)
        self.status = status
        self.last_words = last_words
        self.tail = tuple(tail)


class TargetGarbage(TargetFault):
    """The answer line is not a readable JSON object; the target was stopped.

    ``reason`` is the short reason (``"the answer is not JSON"``), ``line`` the
    line itself (clipped when it was too long to read).
    """

    kind: ClassVar[FaultKind] = "garbage"

    def __init__(self, reason: str, line: str) -> None:
        super().__init__(f"{reason}: {clip(line)!r}")
        self.reason = reason
        self.line = line


class TargetExtraLine(TargetGarbage):
    """A line the target wrote before a request was sent; the request was not sent.

    ``after_answer``: the target had answered a request since it was started, so
    the line is a second one after that answer, the previous request's fault;
    otherwise the line came before any request (a banner, say).
    """

    def __init__(self, line: str, *, after_answer: bool) -> None:
        reason = (
            "an extra line after the previous answer"
            if after_answer
            else "a line written before any request"
        )
        super().__init__(reason, line)
        self.after_answer = after_answer


def clip(text: str, n: int = 120) -> str:
    """``text``, cut to ``n`` characters at the most (an ellipsis marks the cut)."""
    return text if len(text) <= n else text[: n - 1] + "…"


def split_command(command: str | Sequence[str]) -> list[str]:
    """The argument vector of ``command``: split like a shell would, if it is a string.

    Raises :class:`TargetError` for a string a shell could not split (an
    unclosed quote) and for an empty command.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise TargetError(f"--target: cannot split {clip(command, 60)!r}: {e}") from None
    else:
        argv = list(command)
    if not argv:
        raise TargetError("--target: give the command that starts the engine")
    return argv


def check_timeout(value: float, what: str = "the timeout") -> float:
    """``value`` if it is a usable number of seconds (finite, above 0, at most a day)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TargetError(f"{what} must be a number of seconds, not {value!r}")
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise TargetError(
            f"{what} must be more than 0 and at most {MAX_TIMEOUT:g} seconds, not {value:g}"
        )
    return float(value)


def read_answer(text: str) -> dict[str, JSON]:
    """An answer line read as a JSON object; :class:`TargetGarbage` if it is not one.

    Strict JSON, read as a record is (:func:`moonrules.records.jsontext.loads`: ``NaN`` and
    ``Infinity`` refused, nested at most :data:`MAX_ANSWER_DEPTH` deep, numbers of at most
    100 characters, a member named once), in time linear in its length.
    """
    try:
        value = loads(text)
    except JSONTextError as e:
        if "nested" in e.message:
            raise TargetGarbage(
                f"the answer is nested more than {MAX_ANSWER_DEPTH} deep", text
            ) from None
        raise TargetGarbage("the answer is not JSON", text) from None
    if not isinstance(value, dict):
        raise TargetGarbage("the answer is JSON but not an object", text)
    return value


_KEEPER: Final = Path(__file__).resolve().with_name("keeper.py")
"""The script that runs a target as a child subreaper's child (see :mod:`.keeper`)."""

KEEPER_START_TIMEOUT: Final = 60.0
"""Seconds the keeper may take to start the target and say so (a loaded machine)."""


def _kept() -> bool:
    """Whether targets run under the keeper: on Linux, from a Python that can run it."""
    return sys.platform.startswith("linux") and bool(sys.executable) and _KEEPER.is_file()


class _Input:
    """The target's standard input, as the writer thread fills it, and how much of it the
    target has read: the bytes written less those still in the pipe (``FIONREAD``, which
    Linux answers on the writing end too)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.fd = stream.fileno()
        self.lock = threading.Lock()
        self.written = 0
        self.closed = False
        self.counting = _FIONREAD is not None

    def write(self, data: memoryview) -> int:
        """Write what the pipe takes now (the descriptor does not block)."""
        with self.lock:
            if self.closed:
                raise ValueError("closed")
            n = os.write(self.fd, data)
            self.written += n
            return n

    def close(self) -> None:
        with self.lock:
            self.closed = True
            with contextlib.suppress(OSError, ValueError):
                self.stream.close()

    def consumed(self) -> int | None:
        """How many bytes of the input the target has read; ``None`` if that cannot be told."""
        with self.lock:
            if self.closed or not self.counting or _FIONREAD is None:
                return None
            unread = array("i", [0])
            try:
                fcntl.ioctl(self.fd, _FIONREAD, unread)
            except OSError:
                self.counting = False
                return None
            return self.written - unread[0]


Chunk = list[tuple[bytes, int | None]]
"""Lines of the target's output read at once, each with :meth:`_Input.consumed` as it was
just after they were read."""


class Target:
    """A protocol server run as a subprocess (see the module's documentation).

    ``command`` is a command line (split like a shell would) or an argument
    vector; ``timeout`` the default seconds a request may wait for its answer once
    the target has read it; ``startup_timeout``, if given, how long a target just
    started may take to read its first request (and the first answer of the first
    start may take, at least), if that is longer (it is loading; see
    :data:`STARTUP_TIMEOUT`). :meth:`start` raises :class:`OSError` if the command
    cannot be run. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        startup_timeout: float | None = None,
    ) -> None:
        self.command = command
        self.argv = split_command(command)
        self.timeout = check_timeout(timeout)
        self.startup_timeout = None if startup_timeout is None else check_timeout(startup_timeout)
        self.env = None if env is None else dict(env)
        self.cwd = cwd
        self.starts = 0
        """How many times the target was started (1 + restarts)."""
        self.answered = 0
        """How many requests the target answered since it was last started."""
        self.proc: subprocess.Popen[bytes] | None = None
        """The process started: the keeper (see :mod:`.keeper`) on Linux, else the target."""
        self.pid: int | None = None
        """The target's process id."""
        self._lines: queue.Queue[Chunk | None] = queue.Queue(MAX_PENDING_CHUNKS)
        self._ready: deque[tuple[bytes, int | None]] = deque()
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=TAIL_LINES)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._exited_at: float | None = None
        self._input: _Input | None = None
        self._control: socket.socket | None = None
        self._queued = 0
        self._pending: deque[tuple[int, bytes]] = deque()
        """The requests sent and not answered yet: where each ends in the input, its bytes."""

    @property
    def display(self) -> str:
        """The command as one would type it."""
        return self.command if isinstance(self.command, str) else shlex.join(self.command)

    @property
    def running(self) -> bool:
        """Whether the target was started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines of the target's error output (at most :data:`TAIL_LINES`)."""
        return [_text(b).strip() for b in self._stderr if b.strip()]

    def start(self) -> None:
        """Start the target, unless it runs; :class:`OSError` if it cannot be run."""
        if self.running:
            return
        self.stop()
        if _kept():
            proc, pid = self._start_kept()
        else:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
                start_new_session=os.name == "posix",
            )
            pid = proc.pid
        self.starts += 1
        self.answered = 0
        self.proc = proc
        self.pid = pid
        self._exited_at = None
        self._lines = queue.Queue(MAX_PENDING_CHUNKS)
        self._ready = deque()
        self._writes = queue.Queue()
        self._stderr = deque(maxlen=TAIL_LINES)
        self._stop = threading.Event()
        self._queued = 0
        self._pending = deque()
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._input = _Input(proc.stdin)
        stop = self._stop
        self._threads = [
            threading.Thread(
                target=_pump_lines,
                args=(proc.stdout.fileno(), self._lines, stop, self._input),
                daemon=True,
            ),
            threading.Thread(
                target=_pump_writes, args=(self._input, self._writes, stop), daemon=True
            ),
            threading.Thread(
                target=_pump_tail, args=(proc.stderr.fileno(), self._stderr, stop), daemon=True
            ),
        ]
        for t in self._threads:
            t.start()

    def _start_kept(self) -> tuple[subprocess.Popen[bytes], int]:
        """Start the target under a keeper (see :mod:`.keeper`); the keeper and the target's pid."""
        ours, theirs = socket.socketpair()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(_KEEPER), str(theirs.fileno()), *self.argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
                pass_fds=(theirs.fileno(),),
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        reply = b""
        ours.settimeout(KEEPER_START_TIMEOUT)
        with contextlib.suppress(OSError):
            while not reply.endswith(b"\n") and len(reply) < 4096:
                part = ours.recv(4096)
                if not part:
                    break
                reply += part
        ours.settimeout(None)
        words = reply.decode("utf-8", "replace").split(" ", 2)
        if words[0] == "ok" and len(words) == 2 and words[1].strip().isdigit():
            self._control = ours
            return proc, int(words[1])
        ours.close()
        _kill_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if words[0] == "error" and len(words) == 3 and words[1].isdigit():
            raise OSError(int(words[1]), words[2].strip(), self.argv[0])
        raise OSError(
            f"the target {self.argv[0]!r} could not be started (its keeper did not start)"
        )

    def _check_stray(self) -> None:
        """Stop the target if it wrote a line out of turn (raised) or exited after answering."""
        if self.proc is None:
            return
        stray: bytes | None = None
        if self._ready:
            stray = self._ready[0][0]
        else:
            with contextlib.suppress(queue.Empty):
                chunk = self._lines.get_nowait()
                if chunk is None:
                    self.stop()
                    return
                stray = chunk[0][0]
        if stray is not None:
            self.stop()
            raise _garbage_line(stray, after_answer=self.answered > 0)
        if self.proc is not None and self.proc.poll() is not None:
            self.stop()  # it exited quietly after its last answer

    def _queue(self, lines: Sequence[str]) -> None:
        """Hand request lines (no line feeds) to the writer, noting where each ends."""
        data = []
        for line in lines:
            raw = line.encode("utf-8", errors="surrogatepass") + b"\n"
            self._queued += len(raw)
            self._pending.append((self._queued, raw))
            data.append(raw)
        self._writes.put(b"".join(data))

    def send(self, line: str) -> None:
        """Write one request line (no line feed), starting the target if it does not run."""
        self.start()
        self._queue([line])

    def _read(self, end: int) -> bool | None:
        """Whether the target has read the request whose line ends at ``end`` in its input
        (its line feed aside); ``None`` if that cannot be told."""
        consumed = self._input.consumed() if self._input is not None else None
        return None if consumed is None else consumed >= end - 1

    def _left_unread(self) -> bool:
        """Whether the target, which answered since it was started, ended without reading
        any of the next request: it exited after its last answer, and is not at fault."""
        if self.answered == 0 or not self._pending:
            return False
        consumed = self._input.consumed() if self._input is not None else None
        end, raw = self._pending[0]
        return consumed is not None and consumed <= end - len(raw)

    def _restart_with_pending(self) -> None:
        """Start the target again and send it the requests not answered yet."""
        lines = [raw[:-1].decode("utf-8", errors="surrogatepass") for _, raw in self._pending]
        self.stop()
        self.start()
        self._queue(lines)

    def receive(self, timeout: float | None = None) -> str:
        """The next answer line, without its line end; a :class:`TargetFault` if none comes.

        The timeout counts from the moment the target has read the request (a target just
        started may take ``startup_timeout`` to read it); where that cannot be told, from
        the call. A target that exits after its last answer without reading the request is
        started again and sent it, once.
        """
        wait = self.timeout if timeout is None else check_timeout(timeout)
        self._await_line(wait)
        end = self._pending[0][0] if self._pending else None  # (after any restart)
        answer, consumed = self._ready.popleft()
        if answer == _OVERLONG:
            self.stop()
            raise TargetGarbage(f"the answer is longer than {MAX_ANSWER_BYTES} bytes", "(not read)")
        if end is not None and consumed is not None and consumed < end - 1:
            # read before the target had read the request: not its answer, a line too many
            self.stop()
            raise TargetExtraLine(_text(answer), after_answer=self.answered > 0)
        if self._pending:
            self._pending.popleft()
        self.answered += 1
        return _text(answer)

    def _await_line(self, wait: float) -> None:
        """Wait until a line of output is ready; a :class:`TargetFault` if none comes."""
        started = time.monotonic()
        read_at: float | None = None
        restarted = False
        while not self._ready:
            try:
                chunk = self._lines.get(timeout=_POLL)
            except queue.Empty:
                chunk = []
            if chunk:
                self._ready.extend(chunk)
                return
            now = time.monotonic()
            if chunk is None or self._exited(now):
                if not restarted and self._left_unread():
                    self._restart_with_pending()
                    restarted, started, read_at = True, now, None
                    continue
                raise self._crashed()
            if read_at is None:
                read = self._read(self._pending[0][0]) if self._pending else None
                if read is None or read:
                    read_at = now
            late = self._late(now, started, read_at, wait)
            if late is not None:
                self.stop()
                raise TargetTimeout(f"no answer within {late}; the target was stopped")

    def _exited(self, now: float) -> bool:
        """Whether the target exited a while ago (its output may be held open by a child
        it left, where no keeper kills those)."""
        proc = self.proc
        if proc is None:
            raise TargetCrash(None, "")
        if proc.poll() is None:
            return False
        if self._exited_at is None:
            self._exited_at = now
        return now - self._exited_at > _EXIT_GRACE

    def _late(self, now: float, started: float, read_at: float | None, wait: float) -> str | None:
        """How long the answer was waited for, if that is past its time; else ``None``."""
        startup = max(wait, self.startup_timeout or 0.0)
        first = self.answered == 0
        if read_at is None:  # not read yet: the target is starting, or stuck on the last one
            limit = startup if first else wait
            return f"{limit:g} s (it did not read the request)" if now - started > limit else None
        deadline = read_at + wait
        within = f"{wait:g} s"
        if first and self.starts == 1 and startup > wait:
            deadline = max(deadline, started + startup)
            within = f"{startup:g} s (the first answer; {within} after)"
        return within if now > deadline else None

    def ask(self, line: str, timeout: float | None = None) -> str:
        """Send one request line (no line feed); the answer line, without its line end.

        Starts the target if it does not run. Raises :class:`TargetExtraLine` (the
        request is not sent, or not answered), :class:`TargetTimeout`,
        :class:`TargetCrash` or :class:`TargetGarbage` (an answer too long to read).
        """
        self._check_stray()
        self.send(line)
        return self.receive(timeout)

    def ask_object(self, line: str, timeout: float | None = None) -> tuple[dict[str, JSON], str]:
        """:meth:`ask`, and the answer read as a JSON object (with its line as written).

        An answer that is not a JSON object stops the target and raises
        :class:`TargetGarbage`: after a line it cannot read, the caller cannot know
        which answer the target's next line is.
        """
        text = self.ask(line, timeout)
        try:
            return read_answer(text), text
        except TargetGarbage:
            self.stop()
            raise

    def ask_many(self, lines: Sequence[str]) -> tuple[list[str], TargetFault | None]:
        """Pipeline ``lines``: write them all, then read as many answer lines.

        The answers so far and the fault that ended the batch (``None`` if every
        request was answered). After a fault the target is stopped; which request
        caused it is not known (ask them one at a time to tell).
        """
        fault = self.send_many(lines)
        if fault is not None:
            return [], fault
        return self.receive_many(len(lines))

    def send_many(self, lines: Sequence[str]) -> TargetFault | None:
        """Write ``lines`` without waiting (read the answers with :meth:`receive_many`);
        a fault if a line the target wrote out of turn stopped it first."""
        try:
            self._check_stray()
        except TargetFault as fault:
            return fault
        self.start()
        self._queue(lines)
        return None

    def answer_ready(self) -> bool:
        """Whether a line of the target's output (or its end) is in, to be received now."""
        return bool(self._ready) or not self._lines.empty()

    def receive_many(self, n: int) -> tuple[list[str], TargetFault | None]:
        """The next ``n`` answer lines, or those that came and the fault that ended them."""
        answers: list[str] = []
        try:
            for _ in range(n):
                answers.append(self.receive())
        except TargetFault as fault:
            self.stop()
            return answers, fault
        return answers, None

    def _crashed(self) -> TargetCrash:
        proc = self.proc
        status = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = proc.wait(timeout=0.5)  # (one that closed its output may live on)
        if len(self._threads) == 3:
            self._threads[2].join(timeout=0.5)  # the rest of its error output
        tail = self.stderr_tail
        self.stop()
        return TargetCrash(status, clip(tail[-1], 300) if tail else "", tail)

    def stop(self) -> None:
        """Kill the target if it runs, with every process it started; every wait is bounded.

        Under the keeper, the keeper kills them all (those that left the target's process
        group included) and exits; otherwise the target's process group is killed.
        """
        proc = self.proc
        self.proc = None
        if proc is None:
            return
        self._stop.set()
        if self.pid is not None and self.pid != proc.pid:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)  # the target's own group, at once
        control, self._control = self._control, None
        if control is not None:
            control.close()  # the keeper kills whatever is left under it, and exits
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        _kill_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for t in self._threads:
            t.join(timeout=1.0)
        if self._input is not None:
            self._input.close()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self, grace: float = CLOSE_GRACE) -> None:
        """End the target's input, give it ``grace`` seconds to exit, then kill what is left."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            self._writes.put(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
        self.stop()

    def __enter__(self) -> Target:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group of ``proc`` (and ``proc``, if that fails)."""
    if os.name != "posix":  # pragma: no cover
        with contextlib.suppress(OSError):
            proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the group outlives its leader while members live
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(OSError):
            proc.kill()


def _garbage_line(line: bytes, *, after_answer: bool) -> TargetGarbage:
    if line == _OVERLONG:
        return TargetGarbage(f"a line longer than {MAX_ANSWER_BYTES} bytes", "(not read)")
    return TargetExtraLine(_text(line), after_answer=after_answer)


def _text(line: bytes) -> str:
    return line.decode("utf-8", errors="replace").rstrip("\r\n")


def _put(out: queue.Queue[Chunk | None], item: Chunk | None, stop: threading.Event) -> bool:
    """Put ``item``, waiting while the queue is full; False when told to stop."""
    while not stop.is_set():
        try:
            out.put(item, timeout=_POLL)
            return True
        except queue.Full:
            continue
    return False


def _readable(fd: int, stop: threading.Event) -> bytes | None:
    """The next chunk of ``fd`` (``b""`` at its end), or ``None`` when told to stop."""
    while not stop.is_set():
        try:
            ready, _, _ = select.select([fd], [], [], _POLL)
        except (OSError, ValueError):
            return b""
        if ready:
            try:
                return os.read(fd, 1 << 16)
            except OSError:
                return b""
    return None


def _pump_lines(
    fd: int, out: queue.Queue[Chunk | None], stop: threading.Event, source: _Input
) -> None:
    """Split the target's output into lines, none longer than :data:`MAX_ANSWER_BYTES`;
    the lines of each chunk read are queued together, with how much of its input the
    target had read by then (an answer cannot come before its request was read)."""
    buf = bytearray()
    skipping = False  # the rest of an overlong line
    while (chunk := _readable(fd, stop)) is not None:
        consumed = source.consumed()
        lines: Chunk = []
        if not chunk:
            if buf:
                lines.append((bytes(buf), consumed))
            if lines and not _put(out, lines, stop):
                return
            _put(out, None, stop)
            return
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            piece = chunk[start:] if nl < 0 else chunk[start:nl]
            if not skipping:
                buf += piece
                if len(buf) > MAX_ANSWER_BYTES:
                    buf.clear()
                    skipping = True
                    lines.append((_OVERLONG, consumed))
            if nl < 0:
                break
            if not skipping:
                lines.append((bytes(buf), consumed))
            buf.clear()
            skipping = False
            start = nl + 1
        if lines and not _put(out, lines, stop):
            return


def _pump_writes(target: _Input, lines: queue.Queue[bytes | None], stop: threading.Event) -> None:
    """Write the queued request lines; the input is closed at ``None``. A target that
    stopped reading ends the writing, but its input stays open (to tell what it read)."""
    with contextlib.suppress(OSError, ValueError):
        os.set_blocking(target.fd, False)
    try:
        while not stop.is_set():
            try:
                line = lines.get(timeout=_POLL)
            except queue.Empty:
                continue
            if line is None:
                target.close()
                return
            view = memoryview(line)
            while view and not stop.is_set():
                _, ready, _ = select.select([], [target.fd], [], _POLL)
                if ready:
                    try:
                        view = view[target.write(view) :]
                    except BlockingIOError:
                        continue
    except (OSError, ValueError):  # it stopped reading: its answer will not come either
        pass


def _pump_tail(fd: int, tail: deque[bytes], stop: threading.Event) -> None:
    """Keep the last lines of the target's error output, each clipped; the rest is dropped."""
    partial = bytearray()
    while chunk := _readable(fd, stop):
        *complete, rest = chunk.split(b"\n")
        for piece in complete:
            partial += piece[: max(0, _TAIL_LINE_BYTES - len(partial))]
            tail.append(bytes(partial))
            partial.clear()
        partial += rest[: max(0, _TAIL_LINE_BYTES - len(partial))]
    if partial:
        tail.append(bytes(partial))


__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_ANSWER_BYTES",
    "MAX_ANSWER_DEPTH",
    "Target",
    "TargetCrash",
    "TargetError",
    "TargetExtraLine",
    "TargetFault",
    "TargetGarbage",
    "TargetTimeout",
    "check_timeout",
    "clip",
    "read_answer",
    "split_command",
]
