"""Peak memory and time of ``moonrules check`` on the largest records within the default limit.

Writes records of several shapes, each as close under 4 MiB (the default ``--max-bytes``)
as whole hands allow, in both forms (JSON and the text notation), and checks each in a
fresh process, with the report, ``--json`` and ``--html``. Prints, for each, its size, its
hands, the peak resident memory (``VmHWM``: the high-water mark of the checking process
itself) and the seconds it took. The promise (``docs/limits.md``): under 200 MB for every
record within the default limits.

Shapes: ``played`` (hands played out, three players), ``thrown`` (every hand thrown in: the
most hands a record holds), ``partnership`` (four players, played out).

    python bench/records.py [--shapes played,thrown] [--forms json,notation] [--extra report]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules as m
from moonrules.records.jsontext import MAX_RECORD_BYTES
from moonrules.records.notation import write_notation
from moonrules.records.record import to_record

ROOT = Path(__file__).resolve().parent.parent

_MEASURED = """
import atexit, os, sys
def _peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["MOONRULES_PEAK_FILE"], "w") as f:
        f.write(peak)
atexit.register(_peak)
from moonrules.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def _hands(shape: str, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` hands of ``shape``, as a record's ``hands`` (a target no one reaches)."""
    preset = "partnership" if shape == "partnership" else "standard"
    rules = attrs.evolve(m.PRESETS[preset], target=10**6, moon=False)
    state = m.new_game(rules, seed=seed)
    rng = random.Random(seed)
    while state.hand_number <= count:
        actions = m.legal_actions(state)
        if shape == "thrown":
            passes = [a for a in actions if isinstance(a, m.Pass)]
            actions = passes or actions
        state = m.apply(state, rng.choice(actions))
    return list(to_record(state)["hands"][:count])


def _text(record: dict[str, Any], form: str) -> str:
    if form == "json":
        return json.dumps(record, separators=(",", ":"))
    return write_notation(record)


def largest(shape: str, form: str, limit: int = MAX_RECORD_BYTES) -> tuple[str, int]:
    """The record of ``shape`` in ``form`` with the most hands within ``limit`` bytes."""
    preset = "partnership" if shape == "partnership" else "standard"
    head = {"rules": {**m.PRESETS[preset].to_json(), "target": 10**6, "moon": False}, "seed": 1}
    sample = _hands(shape, 50)
    per_hand = len(_text({**head, "hands": sample}, form).encode()) / len(sample)
    count = int(limit / per_hand * 1.02)
    hands = _hands(shape, count)
    while True:
        text = _text({**head, "hands": hands}, form)
        size = len(text.encode())
        if size <= limit:
            return text, len(hands)
        hands = hands[: max(1, int(len(hands) * limit / size) - 1)]


def measure(path: Path, extra: list[str]) -> tuple[int, int, float, str]:
    """``moonrules check PATH EXTRA`` in a fresh process: status, peak KB, seconds, stderr."""
    peak_file = path.with_suffix(".peak")
    env = {**os.environ, "MOONRULES_PEAK_FILE": str(peak_file), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", _MEASURED, "check", str(path), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    elapsed = time.monotonic() - started
    return result.returncode, int(peak_file.read_text()), elapsed, result.stderr.decode()[-300:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", default="played,thrown,partnership")
    parser.add_argument("--forms", default="json,notation")
    parser.add_argument("--extra", default="report,json,html")
    args = parser.parse_args()
    extras = {"report": [], "json": ["--json"], "html": ["--html", os.devnull]}
    worst = 0
    with tempfile.TemporaryDirectory() as d:
        for shape in args.shapes.split(","):
            for form in args.forms.split(","):
                text, hands = largest(shape, form)
                path = Path(d) / f"{shape}.{'json' if form == 'json' else 'moon'}"
                path.write_text(text, encoding="utf-8")
                for extra in args.extra.split(","):
                    status, peak, elapsed, err = measure(path, extras[extra])
                    worst = max(worst, peak)
                    print(
                        f"{shape:12} {form:8} {extra:6} {len(text.encode()) / 2**20:5.2f} MiB "
                        f"{hands:6} hands: peak {peak / 1024:6.1f} MB, {elapsed:5.1f} s"
                        + (f", status {status}: {err.strip()}" if status not in (0, 1) else ""),
                        flush=True,
                    )
    print(f"worst peak: {worst / 1024:.1f} MB (the promise: under 200 MB)")


if __name__ == "__main__":
    main()
