"""The organizer's page as a new organizer reads it (issue 43 §6): no command-line words, choices
where the answer is one of a few (the stage, the late player, the preset), the fairness report as
a table, the automatic syncs named as such, and no «таблица не менялась» beside a synced edit."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from tests.google_support import fake_server, google_backend, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    fresh_tournament,
    fresh_workbook,
    google_account,
    member,
    organizer,
    private_data,
    qualified_tournament,
    signed_in,
)

pytestmark = pytest.mark.django_db

FLAG = re.compile(r"(?<![\w-])--[a-z]")


def press(client, tournament, action, **fields):
    return client.post(reverse("press", args=[tournament.slug, action]), fields)


def page(client, tournament, **params) -> str:
    response = client.get(reverse("tournament", args=[tournament.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def last_job(tournament, action) -> Job:
    return Job.objects.filter(tournament=tournament, action=action).order_by("-pk").first()


def text_of(html: str) -> str:
    """What a reader sees: the tags and the scripts gone, entities read."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def section(html: str, element_id: str) -> str:
    match = re.search(rf'<(\w+)[^>]*\bid="{element_id}".*?</\1>', html, flags=re.S)
    assert match, f"no #{element_id} on the page"
    return match.group(0)


# -- the fairness report ---------------------------------------------------------------------------
def test_the_draws_fairness_report_is_a_table_not_the_command_lines_text(signed_in, fresh_tournament):
    press(signed_in, fresh_tournament, "draw", seed=3, time_limit=2)
    job = last_job(fresh_tournament, "draw")
    assert job.status == Job.DONE, job.message
    html = signed_in.get(reverse("job", args=[fresh_tournament.slug, job.pk])).content.decode()
    assert '<pre class="report">' not in html  # no monospace dump
    figures = section(html, "draw-figures")
    assert re.search(r"<th[^>]*>Нижняя граница</th><td>\d+</td>", figures)
    histogram = section(html, "draw-histogram")
    assert "<th scope=\"col\">Пар</th>" in histogram and histogram.count("<tr>") >= 2
    players = section(html, "draw-players")
    assert players.count("<tr>") == 1 + 20  # the header and a row per player
    assert "Игрок 01" in players and "Клуб 1" in players
    english = signed_in.get(reverse("job", args=[fresh_tournament.slug, job.pk]), {"lang": "en"}).content.decode()
    assert "Lower bound" in section(english, "draw-figures") and "Нижняя" not in english


# -- the job list and the last sync -----------------------------------------------------------------
def type_into(path, tab, cell, value) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(path)
    wb[tab][cell] = value
    wb.save(path)


def test_automatic_syncs_are_named_by_what_started_them_not_sync_now(signed_in, excel_tournament):
    for reason in ("push", "poll", "changed during the sync", "due", "draw"):
        jobs.request_sync(excel_tournament, reason)
    press(signed_in, excel_tournament, "sync")
    recent = text_of(section(page(signed_in, excel_tournament), "recent"))
    assert recent.count("Обновить сейчас") == 1  # the one the organizer pressed
    for words in ("Обновление после правки в таблице", "Обновление автоматически: таблица изменилась",
                  "Обновление автоматически: правка во время прошлого", "Обновление автоматически (повтор)",
                  "Обновление после жеребьёвки"):
        assert words in recent, words
    pushed = Job.objects.filter(tournament=excel_tournament, params__reason="push").get()
    job_page = signed_in.get(reverse("job", args=[excel_tournament.slug, pushed.pk])).content.decode()
    assert "<h1>Обновление после правки в таблице</h1>" in job_page
    english = text_of(section(page(signed_in, excel_tournament, lang="en"), "recent"))
    assert "Update after an edit in the sheet" in english and english.count("Sync now") == 1


def test_a_sync_after_the_synced_edit_says_when_the_edit_was_counted_not_that_nothing_changed(
        signed_in, excel_tournament):
    type_into(excel_tournament.path, "Тур 1 Стол 1", "D10", 9)  # a judge's edit
    jobs.request_sync(excel_tournament, "push")
    edited = Tournament.objects.get(pk=excel_tournament.pk)
    assert edited.last_sync["skipped"] is False and edited.last_sync["errors"] > 0
    jobs.request_sync(excel_tournament, "poll")  # the keeper looks again: nothing new
    assert Tournament.objects.get(pk=excel_tournament.pk).last_sync["skipped"] is True
    glance = text_of(section(page(signed_in, excel_tournament), "glance"))
    assert "не менялась" not in glance
    counted = re.search(r"последние правки учтены в (\d\d:\d\d:\d\d)", glance)
    assert counted, glance
    english = text_of(section(page(signed_in, excel_tournament, lang="en"), "glance"))
    assert f"the last ones were counted at {counted.group(1)}" in english


# -- choices, not free text ---------------------------------------------------------------------------
def options(html: str, select_id: str) -> list[str]:
    select = section(html, select_id)
    return [text_of(o).strip() for o in re.findall(r"<option\b.*?</option>", select, flags=re.S)]


def test_the_stage_is_chosen_from_the_presets_stages_by_their_names(signed_in, excel_tournament):
    before = page(signed_in, excel_tournament)
    assert options(before, "advance-stage") == ["следующий по порядку"]  # no sync yet: nothing else is known
    assert re.search(r'id="replace-player" type="text"', before)  # nor who is seated: the name is typed meanwhile
    press(signed_in, excel_tournament, "sync")
    html = page(signed_in, excel_tournament)
    assert 'type="text" name="stage"' not in html  # no free-text stage anywhere
    assert options(html, "advance-stage") == ["следующий по порядку", "Полуфинал", "Финал"]
    assert options(html, "protocols-stage") == ["тот, что рассажен в этом туре", "Отбор", "Полуфинал", "Финал"]
    assert options(html, "seating-stage")[1:] == ["Отбор", "Полуфинал", "Финал"]
    assert 'value="semifinal">Полуфинал<' in html  # the key is the value, the name what one reads
    assert options(page(signed_in, excel_tournament, lang="en"), "advance-stage") == ["the next one", "Semifinal",
                                                                                       "Final"]


def test_a_stage_typed_by_hand_is_refused_in_the_pages_words_before_any_job(signed_in, excel_tournament):
    press(signed_in, excel_tournament, "sync")
    for action, fields in (("protocols", {"round": 1, "stage": "полу"}), ("advance", {"stage": "полу"})):
        response = press(signed_in, excel_tournament, action, **fields)
        assert response.status_code == 302 and last_job(excel_tournament, action) is None
        said = text_of(signed_in.get(response["Location"]).content.decode())
        assert "Проверьте поля: Этап" in said
        assert "unknown stage" not in said and "known:" not in said and not FLAG.search(said)


def test_the_late_player_is_chosen_from_those_seated_in_the_stage(signed_in, qualified_tournament):
    press(signed_in, qualified_tournament, "sync")
    html = page(signed_in, qualified_tournament)
    assert 'id="replace-nobody"' in html and 'name="player"' not in html  # nobody seated after the qualifying yet
    press(signed_in, qualified_tournament, "advance")
    advanced = last_job(qualified_tournament, "advance")
    assert advanced.status == Job.DONE, advanced.message
    html = page(signed_in, qualified_tournament)
    assert "Кто опоздал (Полуфинал)" in text_of(html)
    assert "Who is late (Semifinal)" in text_of(page(signed_in, qualified_tournament, lang="en"))
    assert options(html, "replace-player") == ["— выберите игрока —", *advanced.result["players"]]
    outsider = next(f"Игрок {i:02d}" for i in range(1, 41) if f"Игрок {i:02d}" not in advanced.result["players"])
    refused = press(signed_in, qualified_tournament, "replace", player=outsider)
    assert refused.status_code == 302 and last_job(qualified_tournament, "replace") is None
    late = advanced.result["players"][3]
    press(signed_in, qualified_tournament, "replace", player=late)
    replaced = last_job(qualified_tournament, "replace")
    assert replaced.status == Job.DONE, replaced.message
    assert replaced.params == {"player": late, "stage": "semifinal"}
    after = options(page(signed_in, qualified_tournament), "replace-player")
    assert late not in after and replaced.result["new"] in after  # the list follows the sync after the replacement


def test_presets_are_offered_by_their_names_grouped_as_tournament_or_season(signed_in, google_account):
    html = signed_in.get(reverse("new_tournament")).content.decode()
    select = section(html, "id_preset")
    groups = dict(re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, flags=re.S))
    assert list(groups) == ["Турнир", "Клубный сезон"]
    tournament = [text_of(o).strip() for o in re.findall(r"<option\b.*?</option>", groups["Турнир"], flags=re.S)]
    season = [text_of(o).strip() for o in re.findall(r"<option\b.*?</option>", groups["Клубный сезон"], flags=re.S)]
    assert "German Mafia Open 2016 (ФИИМ, 2016)" in tournament
    assert any(name.startswith("Клубный сезон (") for name in season)
    assert not any(name.startswith("Клубный") for name in tournament)
    for shown in tournament + season:  # a name, never an id like team-asymmetric
        assert not re.fullmatch(r"[a-z0-9-]+", shown), shown
    assert re.search(r'<option value="gmo-2016" selected>', select)  # the value is still the id
    assert "team-asymmetric" not in text_of(html) and "gmo-2016" not in text_of(html)
    english = section(signed_in.get(reverse("new_tournament"), {"lang": "en"}).content.decode(), "id_preset")
    assert '<optgroup label="Tournament">' in english and '<optgroup label="Club season">' in english


# -- the MWT export ---------------------------------------------------------------------------------------
def test_the_mwt_export_names_who_lacks_an_mwt_id_plainly_in_one_line(signed_in, excel_tournament):
    press(signed_in, excel_tournament, "mwt")
    job = last_job(excel_tournament, "mwt")
    assert job.status == Job.DONE, job.message
    html = signed_in.get(reverse("job", args=[excel_tournament.slug, job.pk])).content.decode()
    said = text_of(html)
    assert "null" not in said and "tournament_id" not in said and "referee_user_id" not in said
    missing = job.result["missing"]
    assert missing["tournament_id"] and len(missing["players"]) > 10  # the example has no MWT ids at all
    assert "Не указан «ID турнира MWT»" in text_of(section(html, "mwt-no-tournament"))
    players = section(html, "mwt-players")
    assert f"Нет «ID MWT» у игроков: {len(missing['players'])}" in text_of(players)  # a count, the names folded
    assert ", ".join(missing["players"]) in unescape(players)
    assert said.count("ID MWT") <= 3  # no line per player
    assert "Players without an «MWT ID»" in text_of(
        signed_in.get(reverse("job", args=[excel_tournament.slug, job.pk]), {"lang": "en"}).content.decode())


# -- copy buttons ----------------------------------------------------------------------------------------
def copies(html: str) -> dict[str, str]:
    """Each copy button's target id -> the text of that element."""
    found = {}
    for target in re.findall(r'<button type="button"[^>]*data-copies="([^"]+)"', html):
        found[target] = text_of(section(html, target)).strip()
    return found


def test_the_service_address_the_code_the_invitation_link_and_the_snippet_each_have_a_copy_button(
        signed_in, organizer, google_account, excel_tournament):
    from sheets_sync.web.models import Membership

    add = signed_in.get(reverse("add_sheet")).content.decode()
    assert copies(add) == {"service-account": google_account.email}
    new = signed_in.get(reverse("new_tournament")).content.decode()
    assert copies(new) == {"service-account": google_account.email}
    assert "copy.js" in add  # the script that makes them work is on the page

    sheet = Tournament.objects.create(slug="gsheet", spreadsheet_id="sheet-1", account=google_account)
    Membership.objects.create(user=organizer, tournament=sheet, role=Membership.OWNER)
    snippet = copies(page(signed_in, sheet))["push-code"]
    assert "SHEETS_SYNC_URL" in snippet and "/hook/sheet-1/" in snippet

    signed_in.post(reverse("members", args=["gsheet"]), {"action": "invite", "email": "carol@club.ru"})
    members = signed_in.get(reverse("members", args=["gsheet"])).content.decode()
    assert re.fullmatch(r"http://testserver/invite/\S+/", copies(members)["invite-link"])

    Tournament.objects.filter(pk=sheet.pk).update(share_lost=True)  # «add the service's address again»: which one
    assert copies(page(signed_in, sheet))["service-account"] == google_account.email


# -- «Добавить таблицу» ------------------------------------------------------------------------------------
def test_add_a_sheet_hands_out_no_code_for_a_sheet_without_the_tournament_tab(signed_in, google_account, fake_server):
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.web.models import Claim
    from tests.google_support import upload_tabs

    sid = upload_tabs(fake_server, {"Лист1": [["Ник", "Клуб"], ["Игрок 01", "Клуб 1"]]}, title="Просто список")
    page = signed_in.post(reverse("add_sheet"), {"link": f"https://docs.google.com/spreadsheets/d/{sid}/edit"})
    said = text_of(page.content.decode())
    assert 'id="claim-code"' not in page.content.decode() and not Claim.objects.exists()
    assert "В таблице нет вкладки «Турнир»" in said and "Новый турнир / сезон" in said
    tournament_sheet = upload_xlsx(fake_server, EXAMPLE_PATH)  # a tournament's sheet: its code at once
    page = signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{tournament_sheet}"}).content.decode()
    assert 'id="claim-code"' in page and Claim.objects.get().spreadsheet_id == tournament_sheet


@pytest.mark.parametrize("action", ["protocols", "seating"])
def test_a_round_nobody_is_seated_in_is_refused_in_russian_with_the_stages_name(signed_in, fresh_tournament, action):
    press(signed_in, fresh_tournament, "sync")
    press(signed_in, fresh_tournament, action, round=2, stage="final")  # a fresh tournament: no final yet
    job = last_job(fresh_tournament, action)
    assert job.status == Job.FAILED
    said = text_of(signed_in.get(reverse("job", args=[fresh_tournament.slug, job.pk])).content.decode())
    assert "Финал, тур 2: никто не рассажен" in said, said[-600:]
    assert "final" not in said.replace("finalize", "") and "действие не выполнено" not in said
    english = text_of(signed_in.get(reverse("job", args=[fresh_tournament.slug, job.pk]), {"lang": "en"}).content.decode())
    assert "no seating for Final, round 2" in english


# -- the refusals a newcomer met (issue 43 §6: «укажите другую --date», «добавьте --force») ---------------
def test_an_evening_added_twice_and_a_draw_over_typed_games_say_the_pages_way_out(signed_in, organizer, tmp_path,
                                                                                  excel_tournament):
    from tests.web.test_every_page import new_workbook

    season = new_workbook(tmp_path / "season", organizer, "club", season=True)
    for _ in range(2):
        press(signed_in, season, "evening", date="2026-12-04", games=4, tables=1)
    refused = last_job(season, "evening")
    assert refused.status == Job.FAILED
    said = text_of(signed_in.get(reverse("job", args=[season.slug, refused.pk])).content.decode())
    assert "выберите другую дату" in said and not FLAG.search(said)
    press(signed_in, excel_tournament, "draw", time_limit=1)  # the example's protocols are typed
    draw = last_job(excel_tournament, "draw")
    said = text_of(signed_in.get(reverse("job", args=[excel_tournament.slug, draw.pk])).content.decode())
    assert "отметьте «даже если протоколы уже заполнены»" in said and not FLAG.search(said)
