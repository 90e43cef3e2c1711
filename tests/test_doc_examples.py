"""Every shell example of the docs runs as written.

The ```sh, ```bash and ```console blocks of ``README.md`` and ``docs/**/*.md`` are read line
by line (a ``$`` prompt is dropped, ``#`` comments are left to the shell). Each command runs
in a temporary directory holding a copy of ``examples/``, through ``sh`` (so pipes work as a
reader types them), with ``moonrules`` the checkout's, a timeout, and an answer of ``quit``
on standard input for a game. It must end with the status its line documents, a comment
``# exit status N`` (0 when it says none), and never with a traceback.

A line ``pip install … && COMMAND`` runs its COMMAND (the checkout is installed already).
The commands that cannot run here are skipped, each with its reason in the skip list
(``pytest -rs`` shows it): installing packages, the suite itself, runs of minutes, a Dask
cluster, an engine the guide has the reader write, a placeholder. A few take seconds to tens of
seconds: they are marked ``slow`` and run in CI's step of slow checks (``MOONRULES_SLOW=1``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TIMEOUT = 120.0
"""Seconds a command may take: far more than any that runs here needs (a few seconds)."""

_BLOCK = re.compile(r"^```(sh|bash|console)[ \t]*\n(.*?)^```", re.S | re.M)
_STATUS = re.compile(r"#.*\bexit status (\d+)")

_INSTALLED = re.compile(r"^(MOONRULES_COMPILE=1 )?pip install [^&]*&& ")
"""``pip install … && COMMAND``: the package is installed already; the COMMAND runs."""

SKIP: tuple[tuple[str, str], ...] = (
    (r"\bpip install\b", "installs packages"),
    (r"\bpytest\b", "runs the test suite itself"),
    (r"^dask\b", "starts a Dask cluster"),
    (r"--scheduler tcp://", "needs a Dask cluster"),
    (r"\bRECORD\b", "RECORD is a placeholder for a record file"),
    (
        r"--target \"(python adapter\.py|node adapter\.js|\./engine|\./my-engine)",
        "needs the engine adapter the reader writes",
    ),
    (
        r"^(python -m )?moonrules verify( |$)(?!.*--(quick|only))",
        "the whole proof catalogue takes minutes",
    ),
    (r"moonrules match .*--games 300", "300 games of the strong bot take about 7 minutes"),
    (
        r"moonrules match --duplicate .*--deals 1000",
        "1,000 duplicate deals of strong against pimc take over an hour",
    ),
    (r"moonrules study run .*--deals 20000", "20,000 deals take about 14 minutes"),
    (r"moonrules study report runs/standard", "reports the 20,000-deal study, which is skipped"),
    (r"^moonrules table( |$)", "starts a table server, which runs until it is stopped"),
    (r"^moonrules tournament run .*--table ", "needs a table server and people at its links"),
)
"""A pattern of the command, and why a command matching it does not run here."""

SLOW: tuple[tuple[str, str], ...] = (
    (r"moonrules verify --quick", "about 30 s"),
    (r"moonrules verify --only game-end,score-points", "about 16 s"),
    (r"^moonrules advise ", "about 7 s at the default 384 samples"),
    (r"^moonrules tournament run examples/tournament-bots\.toml", "3 to 4 s of a core"),
)
"""Commands marked ``slow``: CI's step of slow checks runs them (``MOONRULES_SLOW=1``), the
README's test command does not (the suite stays within its time)."""


@attrs.frozen
class Example:
    """One command of a shell block: where it is written, the line, the status it documents."""

    path: Path
    line: int
    command: str
    status: int

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def examples() -> list[Example]:
    """Every command of every shell block of the docs, in order."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in _BLOCK.finditer(text):
            first = text.count("\n", 0, block.start(2)) + 1
            for k, raw in enumerate(block.group(2).splitlines()):
                line = raw.strip()
                if block.group(1) == "console":
                    if not line.startswith("$ "):
                        continue  # what the console printed
                    line = line[2:]
                if not line or line.startswith("#"):
                    continue
                line = _INSTALLED.sub("", line)
                found = _STATUS.search(line)
                status = int(found.group(1)) if found else 0
                out.append(Example(path, first + k, line, status))
    return out


EXAMPLES = examples()


def _reason(command: str, table: tuple[tuple[str, str], ...]) -> str | None:
    code = re.sub(r"\s+#.*$", "", command)  # the command without its comment
    for pattern, why in table:
        if re.search(pattern, code):
            return why
    return None


def test_the_docs_have_shell_examples_and_every_guide_is_read() -> None:
    where = {e.path.relative_to(ROOT).as_posix() for e in EXAMPLES}
    guides = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "docs" / "guides").glob("*.md")
        if _BLOCK.search(p.read_text(encoding="utf-8"))
    }
    assert guides <= where and "README.md" in where and "docs/getting-started.md" in where
    assert any(e.command == "yes 1 | moonrules play --seed 4" for e in EXAMPLES)  # bots guide
    ran = [e for e in EXAMPLES if _reason(e.command, SKIP) is None]
    assert len(ran) >= 10  # the skip list is short: most examples run


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory like the checkout's top, for the relative paths of the examples."""
    d = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "examples", d / "examples")
    return d


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    python = sys.executable
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "MOONRULES_EXAMPLE_PYTHON": python,
    }
    # `moonrules` and `python` are this checkout's, whatever is on the PATH
    prelude = (
        'moonrules() { "$MOONRULES_EXAMPLE_PYTHON" -m moonrules "$@"; }\n'
        'python() { "$MOONRULES_EXAMPLE_PYTHON" "$@"; }\n'
    )
    with subprocess.Popen(
        ["sh", "-c", prelude + command],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: all of it is stopped below
    ) as p:
        try:
            out, err = p.communicate("quit\n", timeout=TIMEOUT)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)  # whatever it left running (a timeout)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


@pytest.mark.parametrize(
    "example",
    [pytest.param(e, marks=pytest.mark.slow) if _reason(e.command, SLOW) else e for e in EXAMPLES],
    ids=lambda e: e.id,
)
def test_a_shell_example_of_the_docs_runs_as_written(example: Example, workdir: Path) -> None:
    why = _reason(example.command, SKIP)
    if why is not None:
        pytest.skip(f"{why}: {example.command}")
    result = _shell(example.command, workdir)
    said = f"{example.id}: {example.command}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, said
    assert result.returncode == example.status, said
