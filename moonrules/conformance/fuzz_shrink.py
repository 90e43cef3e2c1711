"""The fuzzer's shrinker: a failing case made smaller by replaying smaller choices.

A drawn case is built from a sequence of choices (:mod:`moonrules.conformance.generators`);
``_shrink_choices`` drops runs of them and lowers each one while the case built again still
fails the same way, and ``_smaller`` is the order it shrinks by. What "fails the same way"
means is the engine's business (:mod:`moonrules.conformance.fuzz_engine`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


def _smaller(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether choices ``a`` are simpler than ``b``: shorter, or as long and smaller."""
    if len(a) != len(b):
        return len(a) < len(b)
    return [(abs(x), x < 0) for x in a] < [(abs(x), x < 0) for x in b]


def _shrink_choices(
    best: list[int], attempt: Callable[[list[int], list[int]], list[int] | None], deadline: float
) -> list[int]:
    """Shrink a choice sequence while ``attempt`` accepts the change (it returns the
    choices used, or ``None``): drop runs of choices, then lower each choice."""
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for size in (8, 4, 3, 2, 1):
            i = 0
            while i + size <= len(best) and time.monotonic() < deadline:
                used = attempt(best[:i] + best[i + size :], best)
                if used is not None:
                    best, improved = used, True
                else:
                    i += 1
        for i in range(len(best)):
            if time.monotonic() >= deadline or i >= len(best) or best[i] == 0:
                continue
            # the smallest value accepted, by halving (as if the smaller ones failed alike)
            v = best[i]
            used = attempt([*best[:i], 0, *best[i + 1 :]], best)
            if used is not None:
                best, improved = used, True
                continue
            low, high = 0, abs(v)
            sign = 1 if v > 0 else -1
            while high - low > 1 and time.monotonic() < deadline:
                mid = (low + high) // 2
                used = attempt([*best[:i], sign * mid, *best[i + 1 :]], best)
                if used is not None:
                    best, improved, high = used, True, mid
                    if i >= len(best) or abs(best[i]) != mid:
                        break  # the change moved the choices: start again from here
                else:
                    low = mid
    return best
