"""Issue 43 §5: the Excel app without dead ends, through the real ``sheets-sync app`` process: «Новый
турнир / сезон» makes a workbook in the folder (the init action, as the CLI), «Добавить таблицу», «Выйти»
and invitations are not offered, a workbook put into the folder while the app runs appears, and
``league.xlsx`` is a league — listed as one, run by its button as a job, never written as a tournament."""

from __future__ import annotations

import html
import http.cookiejar
import re
import shutil
import urllib.parse
import urllib.request
from pathlib import Path

import openpyxl

from sheets_sync.backends.base import STATE_TAB, Patch
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.league.book import league_book_tab
from tests.web.test_phone_address import _get
from tests.web.test_server_command import get, start, stop, wait_for

TOURNAMENT_TABS = {"Итоги", "Статистика", "Проверка", "Журнал", STATE_TAB}  # what a tournament's sync writes


def _league(folder) -> None:
    tab = league_book_tab("ru", settings={"name": "Лига клуба"}, events=[("gmo.xlsx", "tournament", 2, "")])
    ExcelBackend(folder / "league.xlsx", backups=0).apply(Patch(writes=(tab,)), base=None)


def _post(opener, url: str, fields: dict[str, str]) -> tuple[int, str, str]:
    """The form at ``url`` sent with ``fields`` (its CSRF token taken from the page, as a browser does)."""
    status, page = get(url, opener)
    assert status == 200, page[:500]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
    request = urllib.request.Request(url, data=body, headers={"Referer": url})
    with opener.open(request, timeout=60) as response:
        return response.status, response.geturl(), response.read().decode()


def test_the_app_makes_follows_and_leaves_alone_what_applies_to_local_files(tmp_path):
    folder = tmp_path / "клуб"
    folder.mkdir()
    shutil.copy(EXAMPLE_PATH, folder / "gmo.xlsx")
    _league(folder)
    league_tabs = openpyxl.load_workbook(folder / "league.xlsx", read_only=True).sheetnames
    proc, url = start("app", str(folder), "--no-browser")
    try:
        base = url.split("/o/")[0].rstrip("/")
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        assert url.endswith("/o/gmo/")  # the league is no tournament: one workbook left, its page opens
        status, home = get(base + "/app/", opener)
        assert status == 200 and "league.xlsx" in home and 'href="/o/league/"' not in home
        assert "Recount the league" in home or "Пересчитать лигу" in home
        assert 'id="app-tournaments"' in get(base + "/", opener)[1]  # the tournament list is the folder's here
        for page in (home, get(url, opener)[1]):
            assert "/add/" not in page and "/logout/" not in page and "/members/" not in page
        assert get(base + "/add/", opener)[0] == 404
        port = int(base.rsplit(":", 1)[1])
        status, page = _get("127.0.0.1", port, "192.0.2.77")  # a host the app does not answer: its page, in Russian
        assert status == 400 and "Сервер не отвечает на этот адрес" in page and "Bad Request" not in page
        assert get(base + "/o/gmo/members/", opener)[0] == 404

        # «Новый турнир / сезон»: the same form, no Google sheet, a workbook made in the folder
        status, form = get(base + "/new/", opener)
        assert status == 200 and 'name="into"' not in form and "service" not in form.lower()
        players = "\n".join(f"Игрок {i:02d}" for i in range(1, 13))
        status, landed, page = _post(opener, base + "/new/", {
            "name": "Осенний сезон", "kind": "season", "preset": "club-season", "players": players, "language": "ru"})
        landed = wait_for(lambda: (lambda u: u if "/o/" in u else None)(opener.open(landed, timeout=30).geturl()))
        made = folder / "Осенний сезон.xlsx"
        assert made.exists() and "Лига" not in openpyxl.load_workbook(made, read_only=True).sheetnames
        wait_for(lambda: "Осенний сезон" in get(base + "/app/", opener)[1])

        # a workbook put into the folder while the app runs appears, and is synced
        shutil.copy(EXAMPLE_PATH, folder / "второй.xlsx")
        wait_for(lambda: "/o/vtoroi/" in get(base + "/app/", opener)[1])
        wait_for(lambda: get(base + "/t/vtoroi/")[0] == 200)

        # the league: its button runs it as a job; its tabs are the league's, never a tournament's
        assert _post_league(opener, base)[0] == 200
        done = wait_for(lambda: (lambda p: p if "league-done" in p else None)(get(base + "/app/", opener)[1]))
        assert re.search(r"(Counted|Посчитано)", done)
        site = re.search(r'<span class="copy">([^<]+index\.html)</span>', done).group(1)
        # saving the league workbook (as the league run did) registers nothing
        assert "/o/league/" not in get(base + "/app/", opener)[1]
    finally:
        out = stop(proc)
    assert "the server stopped" in out
    tabs = set(openpyxl.load_workbook(folder / "league.xlsx", read_only=True).sheetnames)
    assert not tabs & TOURNAMENT_TABS, tabs
    assert tabs - set(league_tabs) <= {"Рейтинг", "Серия"}, tabs  # the league run's own tabs only
    assert Path(html.unescape(site)).is_file() and Path(html.unescape(site)).is_relative_to(folder)


def _post_league(opener, base: str):
    status, page = get(base + "/app/", opener)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "name": "league.xlsx"}).encode()
    request = urllib.request.Request(base + "/app/league/", data=body, headers={"Referer": base + "/app/"})
    with opener.open(request, timeout=60) as response:
        return response.status, response.geturl(), response.read().decode()
