"""Playwright for Python driving the system's Chromium (``executable_path``: nothing downloads a
browser), for the tests that use the web app as a person does.

``chromium`` (one browser per test module) and ``phone`` (a fresh 390 px page with its own
cookies) are fixtures; import them into a test module. The flags are the ones a closed network
needs: without the background-networking ones Chromium keeps trying to reach Google.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["CHROMIUM", "chromium", "phone", "ARTIFACTS"]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (.ci/system-deps.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(chromium) -> Iterator[object]:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1,
                                   locale="ru-RU", timezone_id="Europe/Moscow")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()
