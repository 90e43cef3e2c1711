"""Time ``import moonrules`` in a fresh interpreter.

Runs ``python -X importtime -c "import moonrules"`` in a subprocess several
times and reads the cumulative time of the ``moonrules`` package from the
report on standard error (the package and everything it imports, the standard
library included). Prints each run and the median. Target: under 100 ms.

    python bench/importtime.py [--runs 7] [--module moonrules]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cumulative_us(module: str) -> int:
    """The cumulative import time of ``module`` in microseconds, from one fresh interpreter."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    # Lines look like: "import time:       self [us] |  cumulative | imported package"
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line[len("import time:") :].split("|")
        if len(parts) == 3 and parts[2].strip() == module:
            return int(parts[1])
    raise RuntimeError(f"no import time reported for {module!r}:\n{proc.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--module", default="moonrules")
    args = parser.parse_args()
    cumulative_us(args.module)  # warm-up: writes the bytecode caches
    times = [cumulative_us(args.module) / 1000 for _ in range(args.runs)]
    print(f"python {sys.version.split()[0]}: python -X importtime -c 'import {args.module}'")
    print("runs (ms): " + ", ".join(f"{t:.1f}" for t in times))
    print(
        f"import {args.module}: median {statistics.median(times):.1f} ms, "
        f"min {min(times):.1f} ms, max {max(times):.1f} ms (target < 100 ms)"
    )


if __name__ == "__main__":
    main()
