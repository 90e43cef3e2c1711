"""The fuzzer's targets: the engine under test, as a process or as a Python callable.

:class:`ProcessTarget` runs a protocol server as a subprocess (a per-request timeout,
restarted after a crash, a hang or garbage output, requests pipelined in batches); an
in-process callable taking a request ``dict`` and returning the response ``dict`` is
wrapped so that its exceptions are crashes and its non-JSON answers garbage. Either way a
request that gets no protocol answer raises :class:`TargetFailure`. :func:`serve` puts
such a callable behind a command line (``moonrules fuzz --target``).
"""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from moonrules.conformance.compare import Request, Response
from moonrules.conformance.findings import FindingKind
from moonrules.conformance.generators import FuzzError
from moonrules.conformance.target import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    Target,
    TargetError,
    TargetFault,
    TargetTimeout,
    clip,
    read_answer,
)
from moonrules.rules.errors import PicklableError

Handler = Callable[[Request], Response]


class TargetFailure(PicklableError):
    """The target did not answer a request with a protocol response.

    ``kind`` is ``"crash"`` (it exited, or an in-process target raised), ``"timeout"``
    (no answer within the per-request timeout) or ``"garbage"`` (a line that is not a
    JSON object); ``detail`` says what happened; ``tail`` the last lines of its error
    output, when known.
    """

    def __init__(self, kind: FindingKind, detail: str, tail: Sequence[str] = ()) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: FindingKind = kind
        self.detail = detail
        self.tail = tuple(tail)


class ProcessTarget(Target):
    """A protocol server run as a subprocess (a :class:`moonrules.conformance.target.Target`).

    The command is split like a shell would split it (no shell is run). Each request
    waits at most ``timeout`` seconds for its answer. A target that exits, hangs,
    prints something that is not a JSON object or more than one line raises
    :class:`TargetFailure` for that request and is started afresh for the next one. Use
    it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        try:
            super().__init__(
                command, timeout=timeout, cwd=cwd, env=env, startup_timeout=startup_timeout
            )
        except TargetError as e:
            raise FuzzError(str(e)) from None

    def start(self) -> None:
        """Start the target now (it is started on the first request otherwise)."""
        try:
            super().start()
        except OSError as e:
            raise FuzzError(f"cannot start the target {self.display!r}: {e}") from None

    def __call__(self, request: Request) -> Response:
        try:
            answer, _ = self.ask_object(json.dumps(request, separators=(",", ":")))
        except TargetTimeout as e:
            raise TargetFailure(e.kind, e.detail) from None
        except TargetFault as e:
            tail = getattr(e, "tail", ())
            raise TargetFailure(e.kind, f"{e.detail}; the target was restarted", tail) from None
        return answer

    def many(self, lines: Sequence[str]) -> tuple[list[Response], TargetFailure | None]:
        """Pipeline ``lines``; the answers read (as objects) and the failure that ended them."""
        fault = self.send_many(lines)
        return self.collect(len(lines)) if fault is None else ([], _failure(fault))

    def collect(self, n: int) -> tuple[list[Response], TargetFailure | None]:
        """The answers (as objects) to ``n`` requests sent with :meth:`send_many`."""
        texts, fault = self.receive_many(n)
        answers: list[Response] = []
        for text in texts:
            try:
                answers.append(read_answer(text))
            except TargetFault as e:
                self.stop()
                return answers, _failure(e)
        return answers, None if fault is None else _failure(fault)


def _failure(fault: TargetFault) -> TargetFailure:
    return TargetFailure(fault.kind, fault.detail, getattr(fault, "tail", ()))


class _CallableTarget:
    """An in-process target: exceptions become crashes, non-dict answers garbage."""

    def __init__(self, handle: Handler) -> None:
        self.handle = handle

    def __call__(self, request: Request) -> Response:
        try:
            answer = self.handle(json.loads(json.dumps(request)))
        except Exception as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            raise TargetFailure(
                "crash",
                f"{type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno})",
            ) from None
        if not isinstance(answer, dict):
            raise TargetFailure("garbage", f"the answer is not a dict: {clip(repr(answer))}")
        try:
            return dict(json.loads(json.dumps(answer, allow_nan=False)))
        except (TypeError, ValueError, RecursionError) as e:
            raise TargetFailure("garbage", f"the answer is not JSON-serialisable: {e}") from None


def serve(handle: Handler, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve ``handle`` as a protocol server: a request per input line, an answer per line.

    A line that is not a JSON object gets the reference's ``bad-json`` answer (a line
    over a limit ``bad-request``, as :func:`moonrules.conformance.serve.serve` has it);
    every other line goes to ``handle``, whose answer is written as one line and flushed.
    Returns 0 at the end of input. This is the quickest way to put a Python engine
    behind ``moonrules fuzz --target`` or ``moonrules conform --target``.
    """
    import sys

    from moonrules.conformance.serve import serve as serve_lines

    serve_lines(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, handle)
    return 0


def _callable_command(handle: object) -> str:
    """``module.name`` of an in-process target that can be imported by that name (for a
    reproduction that serves it), else ``""``."""
    module = getattr(handle, "__module__", None)
    name = getattr(handle, "__qualname__", None)
    if not module or not name or module == "__main__" or "<" in name or "." in name:
        return ""
    return f"{module}.{name}"


__all__ = ["Handler", "ProcessTarget", "TargetFailure", "serve"]
