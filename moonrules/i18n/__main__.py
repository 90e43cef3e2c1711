"""``python -m moonrules.i18n check``: the catalogs' check (:mod:`moonrules.i18n.check`)."""

from __future__ import annotations

import sys

from moonrules.i18n.check import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
