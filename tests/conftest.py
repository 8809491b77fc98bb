"""Fixtures shared by the test modules.

* ``example``: a private copy of the bundled example workbook (40 players, 38 games), for
  tests that sync, edit or break it;
* ``example_snapshot``: the example as one read returns it (read once per run: do not mutate);
* ``example_tabs``: the example's tabs as fresh, mutable lists of rows;
* ``fake_server``, ``sa_key``, ``private_key_pem``: the fake Google Sheets server and a
  service-account key pointing at it (tests/google_support.py);
* every test runs with an English system locale (``LANG=C.UTF-8``), so messages said before
  a tournament is read are English whatever the machine (a test wanting Russian sets it).

``make test-fast`` sets ``HYPOTHESIS_PROFILE=fast``: every property runs a few examples
(``make test`` runs each test's own number).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from tests.google_support import fake_server, private_key_pem, sa_key  # noqa: F401  (fixtures for every module)

settings.register_profile("fast", max_examples=5)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def english_system(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def example(tmp_path) -> Path:
    path = tmp_path / "cup.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    return path


@pytest.fixture(scope="session")
def example_snapshot(tmp_path_factory):
    path = tmp_path_factory.mktemp("example") / "example.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    return ExcelBackend(path).read()


@pytest.fixture
def example_tabs(example_snapshot) -> dict[str, list[list]]:
    return {title: [list(row) for row in rows] for title, rows in example_snapshot.tabs.items()}
