"""The protocol's serving loop: one request line in, one answer line out, in bounded memory.

:func:`serve` is the loop behind ``moonrules serve`` (the reference's answers) and
:func:`moonrules.conformance.fuzz.serve` (any Python engine's). It keeps the
promises of ``spec/protocol.md`` section 1 whatever arrives:

- every line gets exactly one answer, in order, flushed at once;
- a line is read only up to the limit (``max_line_bytes``, default 4 MiB): a longer
  line is answered ``bad-request`` as soon as the limit is passed, and the rest of
  it is read and dropped a chunk at a time, so memory stays bounded even on
  ``/dev/zero``;
- a line that is not UTF-8 or not JSON gets ``bad-json``; a line nested too deeply
  or with a number too long gets ``bad-request`` (see :mod:`moonrules.records.jsontext`);
- an answer that is not strict JSON (``NaN`` from an engine) becomes an
  ``internal`` answer, so every answer line is valid JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any

from moonrules.conformance.protocol import (
    encode,
    error_answer,
    handle,
    parse_line,
    refusal,
    too_long,
)
from moonrules.records.jsontext import (
    MAX_LINE_BYTES,
    MAX_RAISED_BYTES,
    JSONTextError,
    TooLarge,
    check_limit,
    read_line,
    skip_line,
)
from moonrules.rules.contract import check_arguments

JSON = Any
Handler = Callable[[dict[str, JSON]], dict[str, JSON]]
"""Answers one request (a JSON object) with one answer object."""


def answer_line(line: bytes, handler: Handler = handle) -> str:
    """The answer line to one request line (bytes, line end included or not)."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as e:
        reason = f"byte {e.start} is not UTF-8"
        return encode(error_answer(None, "bad-json", f"the line is not UTF-8 text: {reason}"))
    try:
        request = parse_line(text, max_length=None)
    except JSONTextError as e:
        return refusal(e)
    if not isinstance(request, dict):
        return encode(handle(request))
    answer = handler(request)
    try:
        return encode(answer)
    except (TypeError, ValueError, RecursionError) as e:
        request_id = request.get("id")
        return encode(
            error_answer(
                request_id, "internal", f"the answer is not strict JSON: {type(e).__name__}"
            )
        )


def serve(
    source: IO[bytes],
    sink: IO[bytes],
    handler: Handler = handle,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> int:
    """Answer every line of ``source`` on ``sink`` with ``handler``; the number of lines answered.

    ``handler`` answers each line that is a JSON object (default: the reference,
    :func:`moonrules.conformance.protocol.handle`); every other line gets the
    reference's error answer. Returns at the end of ``source``. ``max_line_bytes`` is from 1
    to :data:`~moonrules.records.jsontext.MAX_RAISED_BYTES` (64 MiB).
    """
    check_arguments(serve, locals())
    check_limit(max_line_bytes, "max_line_bytes", MAX_RAISED_BYTES)
    count = 0
    while True:
        line = read_line(source, max_line_bytes)
        if line is None:
            return count
        if isinstance(line, TooLarge):
            answer = too_long(max_line_bytes)
        else:
            answer = answer_line(line, handler)
        sink.write(answer.encode("ascii") + b"\n")
        sink.flush()
        count += 1
        if isinstance(line, TooLarge):
            skip_line(source)


__all__ = ["Handler", "answer_line", "serve"]
