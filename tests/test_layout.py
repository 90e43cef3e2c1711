"""The package layout: layers whose imports only run downward, each saying what it holds.

``moonrules/`` holds subpackages by concern, stacked in :data:`LAYER`:

    rules <- kernel <- game <- engine, records <- analysis
        <- arbitration, conformance, study, bots, verification <- tournament <- table
        <- cli, openspiel, pettingzoo

A module may import its own subpackage and any subpackage of a lower layer; never a higher
one, and never another subpackage of its own layer (``arbitration`` and ``conformance`` do
not import each other). The imports are read from the source (every ``import`` statement,
those inside functions included), not from what happens to be loaded at run time.

A new subpackage fails :func:`test_every_subpackage_has_a_place_in_the_layers` until it is
given a layer: one line in :data:`LAYER`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import moonrules

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "moonrules"

LAYER: dict[str, int] = {
    "rules": 0,  # the rulebook: pure functions and values
    "kernel": 1,  # bit-mask forms and tables derived from the rulebook
    "support": 1,  # of no rule: workers that end with their parent, the databases' names
    "game": 2,  # the state machine
    "engine": 3,  # fast forms of the game (a compiled game object, a batch), proved equal to it
    "records": 3,  # record formats, notation, replay
    "i18n": 3,  # refusals rendered in the languages of the rules: catalogs (extra [i18n])
    "analysis": 4,  # solver, claims
    "arbitration": 5,  # rulings, reports, pictures
    "conformance": 5,  # protocol, target runner, vectors, fuzzing
    "study": 5,  # bidding studies: many deals solved on a pool or a cluster, tables, plots
    "bots": 5,  # players that see one seat's view: random, basic, strong; matches
    "verification": 5,  # the proof catalogue and its runner
    "tournament": 6,  # tournament files, movements, the event log, scoring, all-bot runs
    "table": 7,  # the web table server and its page, on the public API
    "cli": 8,  # one module per command
    "openspiel": 8,  # the OpenSpiel games (extra [openspiel])
    "pettingzoo": 8,  # the PettingZoo environment (extra [pettingzoo])
}
"""Each subpackage's layer, lowest first. Equal numbers: siblings that do not import each other."""

TOP_LEVEL_FILES = {"__init__.py", "__main__.py", "py.typed"}
"""What may sit at the top of ``moonrules/`` beside the subpackages."""

PUBLIC_API_0_1_0 = """
DOUBLE_SIX_SET MOON MOON_SET NO_DOUBLE_BLANK_SET PARTNERSHIP PASS PRESETS STANDARD TILES
TRUMP_SUIT Action AllPass Auction Bid Contract Deal Discard FirstLead Game GameState Hand
HandScore IllegalAction IllegalDeal MoonError MoonMade NameTrump OutOfTurn ParseError Pass
Phase Play PlayerView Renege RuleSet RulesError Scoring TieRule Tile TileSet Trick Trump
WidowTiming __version__ apply apply_call apply_renege check_deal follows game_winner
illegal_play_reason in_suit is_trump led_suit legal_actions legal_calls legal_plays new_game
play_values preset rank rules_by_name score_hand seeded_deal solve tile tiles trick_winner
view with_deal
"""
"""``moonrules.__all__`` as released in 0.1.0: names may be added, never taken away."""


def subpackages() -> list[str]:
    return sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every ``moonrules`` module that ``source`` (the module ``module``) imports, with the
    line: ``moonrules`` itself for the package's top (the public API), else
    ``moonrules.<subpackage>...``."""
    package = module if is_package else module.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "moonrules":  # `from moonrules import game` names a subpackage
                for a in node.names:
                    sub = a.name in LAYER or (PACKAGE / a.name / "__init__.py").exists()
                    out.append((node.lineno, f"moonrules.{a.name}" if sub else "moonrules"))
            else:
                out.append((node.lineno, target))
    return sorted((line, t) for line, t in out if t == "moonrules" or t.startswith("moonrules."))


def imported(path: Path) -> list[tuple[int, str]]:
    """:func:`imports_of` the module at ``path``."""
    source = path.read_text(encoding="utf-8")
    return imports_of(source, module_name(path), path.name == "__init__.py")


def subpackage_of(module: str) -> str | None:
    """``moonrules.game.state`` -> ``game``; ``moonrules`` (the public API) -> ``None``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def facade_layer() -> int:
    """The highest layer the public API (``moonrules/__init__.py``) imports: a subpackage may
    import ``moonrules`` itself only from a layer above it."""
    subs = {subpackage_of(t) for _, t in imported(PACKAGE / "__init__.py")}
    return max(LAYER[s] for s in subs if s is not None)


def wrong_imports(module: str, found: list[tuple[int, str]], top: int) -> list[str]:
    """The imports of ``module`` that do not run downward, as ``line: why`` texts."""
    here = subpackage_of(module)
    if here is None:
        return []  # moonrules/__init__.py (the public API) and __main__.py sit on top
    wrong: list[str] = []
    for line, target in found:
        there = subpackage_of(target)
        if there is None:
            if LAYER[here] <= top:
                wrong.append(f"{line}: {target}, the public API, which imports up to layer {top}")
        elif there != here and LAYER[there] >= LAYER[here]:
            kind = "a sibling" if LAYER[there] == LAYER[here] else "a higher layer"
            wrong.append(
                f"{line}: {target}, {kind} ({there} is layer {LAYER[there]}, {here} {LAYER[here]})"
            )
    return wrong


def test_every_subpackage_has_a_place_in_the_layers() -> None:
    unplaced = [s for s in subpackages() if s not in LAYER]
    assert not unplaced, (
        f"moonrules/{unplaced[0]}/ has no layer: add it to LAYER in tests/test_layout.py, "
        "above everything it imports and below everything that imports it"
    )
    gone = [s for s in LAYER if s not in subpackages()]
    assert not gone, f"LAYER names subpackages that do not exist: {gone}"
    loose = [p.name for p in PACKAGE.iterdir() if p.is_file() and p.name not in TOP_LEVEL_FILES]
    assert not loose, f"modules at the top of moonrules/ belong in a subpackage: {loose}"


def test_imports_only_run_downward() -> None:
    top = facade_layer()
    wrong = [
        f"{path.relative_to(ROOT)}:{why}"
        for path in modules()
        if path.parent != PACKAGE  # the public API and __main__ sit on top of every layer
        for why in wrong_imports(module_name(path), imported(path), top)
    ]
    assert not wrong, "imports that do not run downward:\n" + "\n".join(wrong)


PROBE = """\
import moonrules.rules.tiles
from moonrules.kernel import tables
from moonrules import records, Tile
from ..analysis.solver import solve
from .state import apply
def f():
    import moonrules.arbitration.rulings
import json
"""


EXTRAS: dict[str, tuple[str, ...]] = {
    "openspiel": ("pyspiel", "open_spiel", "numpy"),
    "pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "moonrules.engine.batch": ("numpy", "jax"),
    "moonrules.engine.batch_tables": ("numpy",),
    "moonrules.engine.batch_jax": ("numpy", "jax"),
    "moonrules.engine.batch_pgx": ("numpy", "jax", "pgx"),
    "moonrules.tournament.ratings": ("openskill",),
    "moonrules.bots.auction_value": ("numpy",),
    "moonrules.bots.train": ("lightgbm", "numpy"),
    "moonrules.bots.hand_choice": ("lightgbm", "numpy"),
    "moonrules.bots.labelled": ("numpy",),
    "i18n": ("babel",),
}
"""The libraries of the optional extras, by the one subpackage (or module: the batched
engine, extra ``[batch]``, and its pgx environment, extra ``[jax]``; the tournament's
ratings, extra ``[ratings]``; the learned auction values and discard and trump and their
training data files, read with numpy, trained with LightGBM, extra ``[train]``) that may
import them."""


def _third_party_imports(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports (inside functions too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_the_game_ai_extras_are_imported_only_in_their_subpackages() -> None:
    """pyspiel, PettingZoo, gymnasium and numpy only in moonrules.openspiel,
    moonrules.pettingzoo and the batched engine (numpy, and jax where it installs): the rest
    of the library never needs them."""
    wrong = []
    for path in modules():
        name = module_name(path)
        here = subpackage_of(name)
        allowed = set(EXTRAS.get(here or "", ())) | set(EXTRAS.get(name, ()))
        for lib in _third_party_imports(path) & {x for libs in EXTRAS.values() for x in libs}:
            if lib not in allowed:
                wrong.append(f"{path.relative_to(ROOT)} imports {lib}")
    assert not wrong, "\n".join(wrong)


def test_the_import_reader_sees_every_form() -> None:
    """The checker itself, on a made-up module ``moonrules.game.probe``: absolute, relative,
    nested and ``from moonrules import`` forms are read, and the upward ones refused."""
    found = imports_of(PROBE, "moonrules.game.probe", is_package=False)
    assert [t for _, t in found] == [
        "moonrules.rules.tiles",
        "moonrules.kernel",
        "moonrules",
        "moonrules.records",
        "moonrules.analysis.solver",
        "moonrules.game.state",
        "moonrules.arbitration.rulings",
    ]
    wrong = wrong_imports("moonrules.game.probe", found, facade_layer())
    assert [w.split(",")[0] for w in wrong] == [
        "3: moonrules",
        "3: moonrules.records",
        "4: moonrules.analysis.solver",
        "7: moonrules.arbitration.rulings",
    ]
    # Siblings refuse each other; the top layer may use the public API.
    sibling = wrong_imports("moonrules.conformance.x", [(1, "moonrules.arbitration")], 4)
    assert sibling and "sibling" in sibling[0]
    assert wrong_imports("moonrules.cli.x", [(1, "moonrules"), (2, "moonrules.analysis")], 4) == []


@pytest.mark.parametrize("name", [".", *subpackages()])
def test_each_package_opens_with_one_sentence(name: str) -> None:
    """Each ``__init__`` opens with a docstring whose first line is one sentence saying what
    lives there."""
    path = PACKAGE / name / "__init__.py"
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{path.relative_to(ROOT)} has no docstring"
    first, _, rest = doc.partition("\n")
    assert first.endswith("."), f"{path.relative_to(ROOT)}: {first!r} is not a sentence"
    body = first[:-1]
    assert ". " not in body and "? " not in body, f"{first!r} is more than one sentence"
    assert not rest or rest.startswith("\n"), "the first sentence fits on the first line"
    assert len(body.split()) >= 4, f"{first!r} does not say what lives there"


def test_the_public_api_keeps_its_names() -> None:
    namespace: dict[str, object] = {}
    exec("from moonrules import *", namespace)
    missing = [n for n in PUBLIC_API_0_1_0.split() if n not in namespace]
    assert not missing, f"from moonrules import * lost {missing}"
    assert sorted(moonrules.__all__) == sorted(set(moonrules.__all__)), "a name twice in __all__"
    for name in moonrules.__all__:
        assert namespace[name] is getattr(moonrules, name)


@pytest.mark.parametrize("name", subpackages())
def test_each_subpackage_exports_what_it_names(name: str) -> None:
    module = __import__(f"moonrules.{name}", fromlist=["__all__"])
    for export in getattr(module, "__all__", ()):
        assert hasattr(module, export), f"moonrules.{name}.__all__ names {export!r}, undefined"


def test_the_version_is_defined_once() -> None:
    """``pyproject.toml`` reads the version from ``moonrules.__version__``; the command line
    prints that same version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "the version is written in pyproject.toml"
    assert "version" in project["project"]["dynamic"]
    source = project["tool"]["setuptools"]["dynamic"]["version"]
    assert source == {"attr": "moonrules.__version__"}
    assert isinstance(moonrules.__version__, str)
    assert all(part.isdigit() for part in moonrules.__version__.split("."))
    result = subprocess.run(
        [sys.executable, "-m", "moonrules", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"moonrules {moonrules.__version__}"


def test_the_changelog_has_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## Unreleased" in text
    assert f"## {moonrules.__version__} - " in text, "no CHANGELOG.md entry for this version"
