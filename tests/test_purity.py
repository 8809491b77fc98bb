"""The scoring core stays pure: no I/O libraries, no open(), no clock (subpackages included)."""

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parent.parent / "scoring"
FORBIDDEN = {"os", "pathlib", "io", "openpyxl", "gspread", "google", "jinja2", "requests", "subprocess", "shutil",
             "tempfile", "socket", "urllib", "http", "sqlite3", "tomllib", "json", "csv", "sys", "glob", "PIL", "rich", "click"}
FILES = sorted(SCORING.rglob("*.py"))
IDS = [p.relative_to(SCORING).as_posix() for p in FILES]
# Reading the clock makes results depend on when they were computed: time limits and
# elapsed seconds are the edges' business, passed in as a deadline and a clock callable.
CLOCK_MODULES = {"time", "timeit"}
CLOCK_FUNCTIONS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
                   "process_time_ns", "thread_time", "thread_time_ns", "time_ns", "clock_gettime"}
CLOCK_METHODS = {"now", "utcnow", "today"}          # datetime.now(), date.today(): `now` alone is a fine variable


def test_there_are_files_to_check():
    assert len(FILES) >= 8
    assert any(p.parent != SCORING for p in FILES), "subpackages (scoring/draw) are checked too"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_io_in_scoring(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in FORBIDDEN, f"{path.name}:{node.lineno} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] not in FORBIDDEN, f"{path.name}:{node.lineno} imports {node.module}"
            assert not (node.module or "").startswith("sheets_sync"), f"{path.name}:{node.lineno}: the core never imports the edges"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"open", "__import__", "exec", "eval"}:
            raise AssertionError(f"{path.name}:{node.lineno} calls {node.func.id}()")


def test_the_check_catches_an_import():
    bad = ast.parse("import os\nfrom pathlib import Path\nopen('x')")
    names = [n for n in ast.walk(bad) if isinstance(n, (ast.Import, ast.ImportFrom, ast.Call))]
    assert len(names) == 3


def _clock_reads(tree: ast.AST) -> list[str]:
    """Where a module imports a clock module or names a clock-reading function."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] in CLOCK_MODULES]
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in CLOCK_MODULES:
                found.append(f"{node.lineno}: from {node.module} import")
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in CLOCK_FUNCTIONS]
        elif isinstance(node, ast.Attribute) and node.attr in CLOCK_FUNCTIONS | CLOCK_METHODS:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in CLOCK_FUNCTIONS:
            found.append(f"{node.lineno}: {node.id}")
    return found


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_clock_in_scoring(path):
    reads = _clock_reads(ast.parse(path.read_text(encoding="utf-8")))
    assert not reads, f"{path.relative_to(SCORING)} reads the clock at " + ", ".join(reads)


@pytest.mark.parametrize("source", [
    "import time", "import time as t", "from time import perf_counter", "from timeit import default_timer",
    "from datetime import datetime\nx = datetime.now()", "import datetime\nx = datetime.date.today()",
    "x = clock.monotonic()", "from os import times\nfrom time import monotonic_ns",
])
def test_the_clock_check_catches_a_clock_read(source):
    assert _clock_reads(ast.parse(source))


def test_the_clock_check_allows_dates_as_values():
    assert not _clock_reads(ast.parse("from datetime import date, datetime\nisinstance(v, (date, datetime))\nnow = 1"))
