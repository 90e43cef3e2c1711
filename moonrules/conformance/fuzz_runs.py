"""The fuzzer's runs: the cases each op is given, drawn at random or enumerated.

``_run_random`` draws each op's cases from its own seeded generator (a number of examples
per op, or op after op in turns until a deadline) and notes when a small op's whole space
has been drawn; ``_run_exhaustive`` sends every legal request of the finite ops
(:func:`moonrules.conformance.spaces.exhaustive`). Both hand the cases to the engine
(:mod:`moonrules.conformance.fuzz_engine`) a batch at a time. :func:`iter_requests` draws
an op's requests as a random run does, to look at.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from moonrules.conformance.compare import Request, _dump
from moonrules.conformance.fuzz_engine import _Case, _Engine
from moonrules.conformance.generators import FINITE_OPS, OPS, FuzzError, canonical
from moonrules.conformance.generators import draw as draw_request
from moonrules.conformance.generators import presets as preset_names
from moonrules.conformance.spaces import exhaustive, space_size


def _op_rng(seed: int, op: str) -> random.Random:
    """The generator ``op``'s requests are drawn with: the same seed, the same requests."""
    return random.Random(f"{seed}/{op}")


@attrs.define
class _OpState:
    op: str
    rng: random.Random
    size: int | None
    distinct: set[str] = attrs.Factory(set)
    done: bool = False
    ahead: deque[_Case] = attrs.Factory(deque)
    """Cases drawn ahead of their turn (while the target answered), in the order drawn."""
    answered: set[str] = attrs.Factory(set)
    """The requests (as lines) whose legal answer was counted toward ``distinct``."""


AHEAD: Final = 8
"""Cases drawn ahead at a time while the target answers (see :meth:`_Engine.ask_batch`)."""
MAX_AHEAD: Final = 4096
"""Cases drawn ahead at the most (while a target starts, the reference goes on)."""


def _run_random(
    engine: _Engine,
    names: tuple[str, ...],
    presets: tuple[str, ...],
    seed: int,
    examples: int | None,
    deadline: float | None,
    batch: int,
    valid_only: bool,
) -> None:
    """Draw and run each op's cases: ``examples`` each, one op after the other, or, with a
    ``deadline``, a batch of each op in turn until it passes."""
    faults = False if valid_only else None
    states = [_OpState(op, _op_rng(seed, op), space_size(op, presets)) for op in names]

    def draw(state: _OpState) -> _Case:
        fields, choices = draw_request(state.op, presets, faults, state.rng)
        return _Case(fields, tuple(choices))

    def step(state: _OpState, n: int) -> None:
        cases = [state.ahead.popleft() for _ in range(min(n, len(state.ahead)))]
        cases += [draw(state) for _ in range(n - len(cases))]
        # the cases still to come after these, at the most
        left = MAX_AHEAD if examples is None else examples - engine.cases[state.op] - n

        def ahead() -> bool:
            room = min(MAX_AHEAD, left) - len(state.ahead)
            for _ in range(min(AHEAD, room)):
                case = draw(state)
                state.ahead.append(attrs.evolve(case, line=engine.prefetch(case.fields)))
            return room > AHEAD

        engine.ahead = ahead
        try:
            state.done = engine.run_cases(state.op, cases) or engine.done
        finally:
            engine.ahead = None
        if state.size is not None and not state.done:
            _count_distinct(engine, state, cases)
            if len(state.distinct) >= state.size:
                engine.notes.append(
                    f"{state.op}: all {state.size} legal requests were drawn after "
                    f"{engine.cases[state.op]} cases (its whole space)"
                )
                state.size = None
                state.done = valid_only

    if deadline is None:
        assert examples is not None
        for state in states:
            while not state.done and engine.cases[state.op] < examples and not engine.done:
                step(state, min(batch, examples - engine.cases[state.op]))
        return
    size = min(8, batch)  # short turns first, so that every op is reached in a short run
    first = True  # every op has its first turn, however short the time
    while (first or time.monotonic() < deadline) and not engine.done:
        pending = [s for s in states if not s.done and s.op not in engine.unsupported]
        if not pending:
            break
        for state in pending:
            if (not first and time.monotonic() >= deadline) or engine.done:
                break
            step(state, size)
        first = False
        size = min(batch, size * 2)


def _count_distinct(engine: _Engine, state: _OpState, cases: Sequence[_Case]) -> None:
    """Count the distinct legal requests among ``cases`` toward ``state.distinct``."""
    for case in cases:
        fields = case.fields
        line = _dump(fields) if case.line is None else case.line
        if line in state.answered:
            continue
        if engine.answer(line, fields)[0].get("ok") is True:
            state.answered.add(line)
            state.distinct.add(canonical(fields))


def _run_exhaustive(
    engine: _Engine,
    names: tuple[str, ...],
    presets: tuple[str, ...],
    batch: int,
    deadline: float | None,
) -> None:
    skipped = [op for op in names if op not in FINITE_OPS]
    if skipped:
        engine.notes.append(
            f"not enumerable, skipped: {', '.join(skipped)} (fuzz them without --exhaustive)"
        )
    for op in names:
        if op in skipped or engine.done:
            continue
        it = exhaustive(op, presets)
        while True:
            if deadline is not None and time.monotonic() >= deadline:
                engine.notes.append(f"{op}: the time ran out after {engine.cases[op]} cases")
                return
            chunk = [_Case(fields, None) for fields in _take(it, batch)]
            if not chunk:
                engine.notes.append(f"{op}: every one of its {engine.cases[op]} legal requests")
                break
            if engine.run_cases(op, chunk):
                break


def _take(it: Iterator[Request], n: int) -> list[Request]:
    out = []
    for fields in it:
        out.append(fields)
        if len(out) >= n:
            break
    return out


def iter_requests(
    op: str, rules: Sequence[str] | str | None = None, n: int = 10, seed: int = 0
) -> Iterator[Request]:
    """``n`` requests of ``op`` as the fuzzer draws them with ``seed`` (to look at)."""
    names = preset_names(rules)
    if op not in OPS:
        raise FuzzError(f"unknown op {op!r}; the ops are {', '.join(OPS)}")
    rng = _op_rng(seed, op)
    for _ in range(n):
        yield draw_request(op, names, None, rng)[0]


__all__ = ["iter_requests"]
