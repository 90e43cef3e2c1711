"""How deep the tests go: ``MOONRULES_DEEP=1`` (any value but empty or ``0``) asks for the
larger domains, more games and the slow checks that the README's test command leaves out
(CI runs some of them in steps of their own; ``.ci/run``). The Hypothesis profiles are
``conftest.py``'s, chosen by ``MOONRULES_HYPOTHESIS_PROFILE``."""

from __future__ import annotations

import os
from typing import Final

DEEP: Final = os.environ.get("MOONRULES_DEEP", "") not in ("", "0")
"""Whether ``MOONRULES_DEEP`` asks for the deep tests."""
