"""``moonrules table`` on the command line: the extra is imported only when it runs, and
a missing extra or a file that is no table database is one clear line, status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from moonrules.cli import table as cli

ROOT = Path(__file__).resolve().parents[1]


def test_the_command_line_does_not_import_the_extra() -> None:
    code = (
        "import sys, importlib; importlib.import_module('moonrules.cli.main').build_parser(); "
        "import moonrules.table; "
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_missing_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli.importlib.util.find_spec
    monkeypatch.setattr(
        cli.importlib.util, "find_spec", lambda n, *a: None if n == "uvicorn" else real(n, *a)
    )
    with pytest.raises(cli.MissingExtra, match=r"pip install 'moonrules\[table\]'") as e:
        cli.check_extra()
    assert "uvicorn" in str(e.value) and "pip install -e '.[table]'" in str(e.value)


def test_help_says_where_the_data_goes_and_a_bad_database_is_one_line(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "moonrules", "table"]
    helped = subprocess.run([*run, "--help"], capture_output=True, text=True, check=False)
    assert helped.returncode == 0 and "moonrules-table.sqlite3" in helped.stdout
    bad = tmp_path / "not-a-db"
    bad.write_text("hello, this is not SQLite" * 100)
    done = subprocess.run(
        [*run, "--db", str(bad), "--port", "0"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "error: " in done.stderr and "not a table database" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    for place in (tmp_path / "no-such-dir" / "t.sqlite3", tmp_path):  # no directory; a directory
        done = subprocess.run(
            [*run, "--db", str(place), "--port", "0"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "cannot open the database" in lines[0], done.stderr
