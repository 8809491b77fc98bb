"""The judges' phones and `sheets-sync app --lan` (issue 44 §1, §2, app mode), as people start it: a
process on a free port listening on the network; the organizer's page on 127.0.0.1 makes the
links, which carry the computer's LAN address (never 127.0.0.1); a phone on that address opens its
link and saves a whole game, which lands in the .xlsx and on the public page; the organizer's
pages are not open to the phone."""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
import uuid

import openpyxl
import pytest

from sheets_sync.web.addresses import phone_address
from tests.web.judge_support import whole_game
from tests.web.organizer_support import players_csv
from tests.web.test_server_command import get, start, stop


def _post(opener, url: str, fields: dict, referer: str) -> tuple[int, str]:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), headers={"Referer": referer})
    with opener.open(request, timeout=30) as response:
        return response.status, response.read().decode()


def _json(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _wait(check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError("never happened")


@pytest.mark.slow
def test_a_phone_on_the_venues_network_saves_a_game_into_the_apps_workbook(tmp_path):
    lan = phone_address("0.0.0.0")
    if lan is None:
        pytest.skip("this machine has no network address")
    from sheets_sync.actions.init import init_workbook

    folder = tmp_path / "турниры"
    folder.mkdir()
    workbook = folder / "cup.xlsx"
    init_workbook(str(workbook), players_csv=players_csv(tmp_path, 20), preset_ref="gmo-2016", name="Кубок",
                  language="ru")
    proc, url = start("app", str(folder), "--no-browser", "--lan")
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        _wait(lambda: 'id="judges-make"' in get(url, opener)[1])  # synced at start: the stage's tables known
        html = get(url, opener)[1]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        _post(opener, url + "judges/make/", {"csrfmiddlewaretoken": token}, url)
        html = get(url, opener)[1]
        port = url.split(":")[2].split("/")[0]
        addresses = re.findall(r'class="address" readonly value="([^"]+)"', html)
        assert len(addresses) == 2 and all(a.startswith(f"http://{lan}:{port}/j/") for a in addresses), addresses
        phone = addresses[0]
        assert get(phone)[0] == 200
        status, organizer = get(f"http://{lan}:{port}/o/cup/")  # the phone is no organizer
        assert status in (200, 404) and 'id="judges"' not in organizer
        status, body = get(phone + "api/")
        games = json.loads(body)["games"]
        first = games[0]
        cells = {**whole_game(first["seats"]), ":judge": "Судья с телефона"}
        code, answer = _json(phone + f"api/games/{first['gid']}/form/",
                             {"id": str(uuid.uuid4()), "cells": cells, "base": first["cells"], "submit": True})
        assert code == 200, answer
        tab = first["tab"]

        def in_workbook():
            try:
                return openpyxl.load_workbook(workbook, read_only=True)[tab]["B5"].value == "Судья с телефона"
            except Exception:  # noqa: BLE001 - the app is writing it right now
                return False
        _wait(in_workbook)
        game = _wait(lambda: (g := json.loads(get(phone + f"api/games/{first['gid']}/")[1]))["pending"] == 0 and g)
        assert game["status"] == "submitted" and game["saved_at"]

        def counted():
            found = next((folder / ".sheets-sync" / "sites").rglob("standings.json"))
            return json.loads(found.read_text("utf-8")).get("games_counted") == 1
        _wait(counted)  # the standings follow
        assert get(f"http://127.0.0.1:{port}/t/cup/")[0] == 200
    finally:
        stop(proc)
