"""The hosted site ``/t/<slug>/`` of a workbook with games in play (issue 44 §8): every page and file
reachable from its index, crawled through the test client, is byte for byte what the same workbook
with the games in play's secret cells emptied gives — no role, check, best move or extra points."""

from __future__ import annotations

import re
import shutil

import pytest

from sheets_sync.web import jobs
from sheets_sync.web.models import Tournament
from tests.test_secrecy import NOW, secret_workbooks
from tests.web.organizer_support import member, organizer, private_data  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def _crawl(client, slug: str) -> dict[str, bytes]:
    """Every page and file of ``/t/<slug>/`` reachable by its links (and the hall's screen, which no
    page links), through the test client."""
    seen: dict[str, bytes] = {}
    todo = [f"/t/{slug}/", f"/t/{slug}/screen.html"]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content)
        seen[url] = body
        if url.endswith(("/", ".html")):
            folder = url.rsplit("/", 1)[0] + "/"
            for href in re.findall(r'(?:href|src)="([^"#?]+)', body.decode()):
                if re.match(r"^[a-z]+:|^/", href):
                    continue  # another site, or the app's own pages
                parts: list[str] = []
                for part in (folder + href).split("/"):
                    if part == "..":
                        parts.pop()
                    elif part != ".":
                        parts.append(part)
                todo.append("/".join(parts))
    return seen


def test_the_hosted_pages_of_a_game_in_play_are_those_of_its_emptied_secrets(client, organizer, tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, blank, _ = secret_workbooks(tmp_path / "books")
    path = tmp_path / "cup.xlsx"
    shutil.copy(typed, path)
    cup = member(Tournament.objects.create(slug="cup", source=Tournament.EXCEL, path=str(path)), organizer)
    pages = {}
    for name, source in (("typed", typed), ("blank", blank)):
        shutil.copy(source, path)
        jobs.request_sync(cup, "button")
        pages[name] = _crawl(client, "cup")
    assert len(pages["typed"]) > 40 and sum("/games/" in url for url in pages["typed"]) == 28
    assert "/t/cup/screen.html" in pages["typed"]
    assert pages["typed"].keys() == pages["blank"].keys()
    assert [u for u in pages["typed"] if pages["typed"][u] != pages["blank"][u]] == []
