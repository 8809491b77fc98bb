"""The judges' links and the chief judge's page in a real browser at 390 px (issue 44 §1, §7): the
organizer makes the stage's links on a phone-sized page (address, copy, QR code, nothing wider
than the phone); the chief judge sees every table of the round and confirms a submitted game —
screenshots in tests/artifacts/web/."""

from __future__ import annotations

import os
import re

import pytest

from sheets_sync.web.models import JudgeLink
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.judge_support import api_get, cell, confirmation_on, gid, save_form, synced, whole_game
from tests.web.organizer_support import (fresh_tournament, fresh_workbook, organizer, private_data,  # noqa: F401
                                         qualified_tournament)
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "web"
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _fits(page) -> None:
    wide = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)"
                         ".map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)")
    assert not wide, wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_organizer_makes_links_and_the_chief_confirms_on_a_phone(transactional_db, live_server, phone, organizer,
                                                                     fresh_tournament):
    from django.test import Client

    SHOTS.mkdir(parents=True, exist_ok=True)
    confirmation_on(fresh_tournament.path)
    synced(fresh_tournament)
    sign_in(phone, live_server, organizer)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.goto(f"{live_server.url}/o/cup/")
    phone.click("#judges-make")
    phone.wait_for_selector(".judge-link")
    assert phone.locator(".judge-link svg").count() == 2
    phone.click("#judges-chief")
    phone.wait_for_selector(".judge-link >> nth=2")
    _fits(phone)
    phone.locator("#judges").screenshot(path=str(SHOTS / "judges-links.png"))
    addresses = phone.locator(".judge-link .address").evaluate_all("els => els.map(e => e.value)")
    assert all(re.fullmatch(rf"{live_server.url}/j/[\w-]{{43}}/(chief/)?", a) for a in addresses), addresses

    client = Client()
    table = JudgeLink.objects.get(tournament=fresh_tournament, table=1).token
    seats = api_get(client, table, f"games/{gid(1, 1)}/").json()["seats"]
    save_form(client, table, gid(1, 1), {**whole_game(seats), ":judge": "Судья Анна"}, submit=True)
    chief = next(a for a in addresses if a.endswith("/chief/"))
    phone.goto(chief)
    phone.wait_for_selector("#table-qualifying-1-1")
    assert "сдана" in phone.inner_text("#table-qualifying-1-1").lower()
    assert "не начата" in phone.inner_text("#table-qualifying-1-2").lower()
    _fits(phone)
    phone.fill("#name-qualifying-1-1", "Главный Борис")
    phone.click("#confirm-qualifying-1-1")
    phone.wait_for_selector("#table-qualifying-1-1.status-confirmed")
    assert "Главный Борис" in phone.inner_text("#table-qualifying-1-1")
    assert cell(fresh_tournament.path, "Тур 1 Стол 1", "B7") == "Главный Борис"
    _fits(phone)
    phone.screenshot(path=str(SHOTS / "chief-judge.png"), full_page=True)


def test_the_chief_sees_every_table_of_every_stage_and_confirms_one_of_an_earlier_round(
        transactional_db, live_server, phone, qualified_tournament):
    """Not only the current round: the qualifying's seven rounds (typed: «сдана») and the semifinal
    just seated («не начата») on one page, a round's states counted in its heading; a game of an
    earlier round confirmed there writes «Проверил» into its tab."""
    from sheets_sync.actions.draw import advance_workbook
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.web.judge.state import games_of
    from tests.web.judge_support import chief_token

    path = qualified_tournament.path
    confirmation_on(path)
    advance_workbook(ExcelBackend(path))  # the semifinal seated: the current stage is no longer the qualifying
    synced(qualified_tournament)
    games = games_of(qualified_tournament)
    stages = {g["stage"] for g in games["games"]}
    assert {"qualifying"} < stages and games["current_stage"] != "qualifying"
    phone.goto(f"{live_server.url}/j/{chief_token(qualified_tournament)}/chief/")
    shown = phone.locator(".table").evaluate_all("els => els.map(e => e.id)")
    assert shown == [f"table-{g['gid']}" for g in games["games"]]  # every table, in playing order
    sections = phone.locator("details.round > summary h2").all_text_contents()
    assert "Отбор · тур 1" in sections and "Отбор · тур 7" in sections and any("тур 1" in s and "Отбор" not in s
                                                                                for s in sections)
    later = [g for g in games["games"] if g["stage"] != "qualifying"]
    assert all("не начата" in phone.locator(f"#table-{g['gid']}").text_content() for g in later)
    round3 = phone.locator("details.round", has=phone.locator("#table-qualifying-3-2"))
    assert "сдана: 4" in round3.locator("summary").text_content()  # 40 players: four tables a round, all typed
    assert round3.get_attribute("open") is not None  # its submitted games wait for the chief: shown open
    _fits(phone)
    phone.fill("#name-qualifying-3-2", "Главный Борис")
    phone.click("#confirm-qualifying-3-2")
    phone.wait_for_selector("#table-qualifying-3-2.status-confirmed")
    assert "Главный Борис" in phone.locator("#table-qualifying-3-2").text_content()
    assert cell(path, "Тур 3 Стол 2", "B7") == "Главный Борис"
    assert "подтверждена: 1" in round3.locator("summary").text_content()
    phone.screenshot(path=str(SHOTS / "chief-every-stage.png"))
