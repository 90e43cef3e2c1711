"""A target engine run as a subprocess: one request line in, one answer line out.

:class:`Target` runs a command that speaks the JSON-lines protocol of
``spec/protocol.md`` on its standard input and output; ``moonrules conform`` and
``moonrules fuzz`` both talk to the engine they check through it. The command is
split like a shell would split it, but no shell is run. A thread feeds the
target's input and another reads its output, so that neither a target that never
answers nor one that never reads blocks the caller beyond the per-request
timeout; a third keeps the tail of its error output, for reports.

A request that gets no proper answer raises one of the kinds of
:class:`TargetFault`:

- :class:`TargetTimeout`: no answer line within the timeout;
- :class:`TargetCrash`: the target closed its output (it exited, or died) without
  answering;
- :class:`TargetGarbage`: the answer line is not JSON, or not a JSON object;
- :class:`TargetExtraLine` (a kind of garbage): before a request was sent, the
  target had written a line nobody asked for, most often a second line after the
  previous request's answer (the protocol wants exactly one answer line per
  request). The fault is the previous request's; the current one was not sent. A
  second line that comes only after the next request was sent cannot be told from
  that request's answer: it is taken for it, and the true answer is then the
  extra line.

After any fault the target is stopped (its whole process group, on POSIX), and
the next request starts it again. A target that exited quietly after its last
answer is also started again, without a fault.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import IO, ClassVar, Final, Literal

from moonrules.records.record import JSON

FaultKind = Literal["crash", "timeout", "garbage"]

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a target may take to answer one request, unless told otherwise."""

CLOSE_GRACE: Final = 1.0
"""Seconds :meth:`Target.close` lets the target exit on its own before killing it."""


class TargetFault(Exception):
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
    if it had not exited; ``last_words`` the last line of its error output, or ``""``.
    """

    kind: ClassVar[FaultKind] = "crash"

    def __init__(self, status: int | None, last_words: str) -> None:
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


class TargetGarbage(TargetFault):
    """The answer line is not JSON, or not a JSON object; the target was stopped.

    ``reason`` is the short reason (``"the answer is not JSON"``), ``line`` the
    line itself.
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
    """The argument vector of ``command``: split like a shell would, if it is a string."""
    return shlex.split(command) if isinstance(command, str) else list(command)


class Target:
    """A protocol server run as a subprocess (see the module's documentation).

    ``command`` is a command line (split like a shell would) or an argument
    vector; ``timeout`` the default seconds a request may wait for its answer.
    :meth:`start` raises :class:`OSError` if the command cannot be run. Use it as
    a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        self.command = command
        self.argv = split_command(command)
        self.timeout = timeout
        self.env = None if env is None else dict(env)
        self.cwd = cwd
        self.starts = 0
        """How many times the target was started (1 + restarts)."""
        self.answered = 0
        """How many requests the target answered since it was last started."""
        self.proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=64)
        self._stderr_pump: threading.Thread | None = None

    @property
    def display(self) -> str:
        """The command as one would type it."""
        return self.command if isinstance(self.command, str) else shlex.join(self.command)

    @property
    def running(self) -> bool:
        """Whether the target was started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start the target, unless it runs; :class:`OSError` if it cannot be run."""
        if self.running:
            return
        self.stop()
        proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            start_new_session=os.name == "posix",
        )
        self.starts += 1
        self.answered = 0
        self.proc = proc
        self._lines = queue.Queue()
        self._writes = queue.Queue()
        self._stderr = deque(maxlen=64)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump_lines, args=(proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_pump_writes, args=(proc.stdin, self._writes), daemon=True).start()
        self._stderr_pump = threading.Thread(
            target=_pump_tail, args=(proc.stderr, self._stderr), daemon=True
        )
        self._stderr_pump.start()

    def ask(self, line: str, timeout: float | None = None) -> str:
        """Send one request line (no line feed); the answer line, without its line end.

        Starts the target if it does not run. Raises :class:`TargetExtraLine` (the
        request is not sent), :class:`TargetTimeout` or :class:`TargetCrash`.
        """
        if self.proc is not None:
            with contextlib.suppress(queue.Empty):
                stray = self._lines.get_nowait()
                self.stop()  # it wrote a line out of turn, or exited after its answer
                if stray is not None:
                    raise TargetExtraLine(_text(stray), after_answer=self.answered > 0)
        self.start()
        self._writes.put(line.encode("utf-8") + b"\n")
        wait = self.timeout if timeout is None else timeout
        try:
            answer = self._lines.get(timeout=wait)
        except queue.Empty:
            self.stop()
            raise TargetTimeout(f"no answer within {wait:g} s; the target was stopped") from None
        if answer is None:
            raise self._crashed()
        self.answered += 1
        return _text(answer)

    def ask_object(self, line: str, timeout: float | None = None) -> tuple[dict[str, JSON], str]:
        """:meth:`ask`, and the answer read as a JSON object (with its line as written).

        An answer that is not a JSON object stops the target and raises
        :class:`TargetGarbage`: after a line it cannot read, the caller cannot know
        which answer the target's next line is.
        """
        text = self.ask(line, timeout)
        try:
            value = json.loads(text)
        except ValueError:
            self.stop()
            raise TargetGarbage("the answer is not JSON", text) from None
        if not isinstance(value, dict):
            self.stop()
            raise TargetGarbage("the answer is JSON but not an object", text)
        return value, text

    def _crashed(self) -> TargetCrash:
        proc, pump = self.proc, self._stderr_pump
        status = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = proc.wait(timeout=1.0)
        if pump is not None:
            pump.join(timeout=1.0)  # the rest of its error output
        lines = b"".join(self._stderr).decode("utf-8", errors="replace").strip().splitlines()
        self.stop()
        return TargetCrash(status, clip(lines[-1].strip(), 300) if lines else "")

    def stop(self) -> None:
        """Kill the target if it runs (its whole process group on POSIX)."""
        proc = self.proc
        self.proc = None
        if proc is None:
            return
        self._writes.put(None)
        if proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:  # pragma: no cover
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self, grace: float = CLOSE_GRACE) -> None:
        """End the target's input, give it ``grace`` seconds to exit, then kill it."""
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


def _text(line: bytes) -> str:
    return line.decode("utf-8", errors="replace").rstrip("\r\n")


def _pump_lines(stream: IO[bytes], out: queue.Queue[bytes | None]) -> None:
    try:
        for line in stream:
            out.put(line)
    except (OSError, ValueError):
        pass
    out.put(None)  # the end of its output


def _pump_writes(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    try:
        while (line := lines.get()) is not None:
            stream.write(line)
            stream.flush()
    except (OSError, ValueError):  # it stopped reading: its answer will not come either
        pass
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _pump_tail(stream: IO[bytes], tail: deque[bytes]) -> None:
    try:
        for line in stream:
            tail.append(line[:2000])
    except (OSError, ValueError):
        pass


__all__ = [
    "DEFAULT_TIMEOUT",
    "Target",
    "TargetCrash",
    "TargetExtraLine",
    "TargetFault",
    "TargetGarbage",
    "TargetTimeout",
    "clip",
    "split_command",
]
