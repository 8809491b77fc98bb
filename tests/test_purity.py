"""The scoring core stays pure: no I/O libraries, no open()."""

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parent.parent / "scoring"
FORBIDDEN = {"os", "pathlib", "io", "openpyxl", "gspread", "google", "jinja2", "requests", "subprocess", "shutil",
             "tempfile", "socket", "urllib", "http", "sqlite3", "tomllib", "json", "csv", "sys", "glob", "PIL", "rich", "click"}
FILES = sorted(SCORING.glob("*.py"))


def test_there_are_files_to_check():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
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
