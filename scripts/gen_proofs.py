"""Write ``spec/proofs.md`` and ``docs/verification.md`` from the verification catalogue (and
the documentation's table of mutants from ``tests/rule_mutants.toml``).

    python scripts/gen_proofs.py          # write both files
    python scripts/gen_proofs.py --check  # exit 1 if either is stale

``tests/test_verify.py`` fails when either file differs from what this writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from moonrules.verification.document import render_docs, render_proofs  # noqa: E402
from moonrules.verification.mutation import load  # noqa: E402

MUTANTS = load(ROOT / "tests" / "rule_mutants.toml")

TARGETS = {
    ROOT / "spec" / "proofs.md": render_proofs,
    ROOT / "docs" / "verification.md": lambda spec: render_docs(spec, MUTANTS),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether they are stale")
    args = parser.parse_args()
    spec = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    stale = []
    for path, render in TARGETS.items():
        text = render(spec)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
