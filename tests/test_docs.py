"""The documentation site: it builds cleanly, covers every rule, and its examples run."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_PY_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _clause_ids() -> list[str]:
    text = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    return re.findall(r"^### ([A-Z]+-\d+) ", text, re.MULTILINE)


def test_rules_page_explains_every_clause() -> None:
    ids = _clause_ids()
    assert len(ids) > 50, "spec/rules.md should list the clauses as '### ID — title'"
    page = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [i for i in ids if not re.search(rf"\*\*{re.escape(i)}\*\*\{{", page)]
    assert not missing, f"docs/rules.md has no paragraph for {', '.join(missing)}"


@pytest.mark.parametrize("page", ["getting-started.md", "guides/app.md"])
def test_python_examples_run(page: str) -> None:
    """Every ```python block of the page runs, in order, in one namespace."""
    blocks = _PY_BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))
    assert blocks, f"{page} has no python examples"
    namespace: dict[str, object] = {"__name__": f"docs_{page}"}
    sys.path.insert(0, str(ROOT))
    try:
        for block in blocks:
            if (
                "moonrules.records.record" in block
                and importlib.util.find_spec("moonrules.records.record") is None
            ):
                continue  # documented ahead of the module
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(block, f"{page} example", "exec"), namespace)
    finally:
        sys.path.remove(str(ROOT))


@pytest.mark.skipif(
    os.environ.get("MOONRULES_SLOW_BUILDS", "") in ("", "0"),
    reason="builds the whole site, in six languages (about 20 s): CI's build step runs it; "
    "set MOONRULES_SLOW_BUILDS=1",
)
def test_mkdocs_build_strict(tmp_path: Path) -> None:
    """``mkdocs build --strict`` succeeds: no warning from any page, picture or docstring."""
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(
                f"{module} is not installed; install the documentation tools with "
                "pip install mkdocs mkdocs-material 'mkdocstrings[python]'"
            )
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr}"
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "MOONFIGURE" not in rules, "a picture token was left in the page"
    assert rules.count('class="tile"') > 300, "the rules page should be full of tiles"
    assert 'class="play winner"' in rules
    for clause in _clause_ids():
        assert f'id="{clause}"' in rules or f">{clause}<" in rules, clause
    reference = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for name in ("moonrules.game.deal.new_game", "moonrules.arbitration.render.tile_svg"):
        assert f'id="{name}"' in reference, name
