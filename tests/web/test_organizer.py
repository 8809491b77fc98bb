"""The tournament page (/o/<slug>/): what it shows at a glance after a sync, its buttons as jobs
running the CLI's actions (draw with its fairness report, advance, replace), refusals in the
page's language, and the job pages with their JSON status."""

from __future__ import annotations

import re

import openpyxl
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

BAD_FOULS = ("Тур 1 Стол 1", "D10")  # five fouls and more is no value a protocol can have


def press(client, tournament, action, **fields):
    return client.post(reverse("press", args=[tournament.slug, action]), fields)


def page(client, tournament, **params) -> str:
    response = client.get(reverse("tournament", args=[tournament.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def last_job(tournament, action) -> Job:
    return Job.objects.filter(tournament=tournament, action=action).order_by("-pk").first()


def type_into(path, tab, cell, value) -> None:
    wb = openpyxl.load_workbook(path)
    wb[tab][cell] = value
    wb.save(path)


def test_the_page_before_any_sync_says_so_and_offers_the_buttons(signed_in, excel_tournament):
    html = page(signed_in, excel_tournament)
    assert "ещё не было" in html and "ещё не опубликована" in html
    for action in ("sync", "draw", "advance", "replace", "vk", "mwt", "protocols", "seating"):
        assert f'action="/o/gmo/do/{action}/"' in html
    assert "evening" not in re.findall(r'/do/(\w+)/', html)  # evenings are a club season's
    assert html.count("csrfmiddlewaretoken") >= 8  # every button is a POST form with its token


def test_sync_now_counts_the_games_and_lists_the_problems_of_an_excel_workbook(signed_in, excel_tournament):
    type_into(excel_tournament.path, *BAD_FOULS, 9)
    response = press(signed_in, excel_tournament, "sync")
    assert response.status_code == 302 and response["Location"] == "/o/gmo/"
    t = Tournament.objects.get(pk=excel_tournament.pk)
    assert t.last_sync["planned"] >= t.last_sync["games"] > 0
    html = page(signed_in, t)
    assert re.search(rf'id="games">{t.last_sync["games"]} из {t.last_sync["planned"]}<', html)
    assert f"<code>{BAD_FOULS[0]}!{BAD_FOULS[1]}</code>" in html  # an .xlsx: tab!cell as text, no link
    assert "docs.google.com" not in html
    assert 'href="/t/gmo/"' in html  # the public page is there now
    english = page(signed_in, t, lang="en")
    assert "Games counted" in english and "Sync now" in english


def test_a_google_sheets_problems_open_the_sheet_at_the_cell(signed_in, organizer, google_account, fake_server):
    from sheets_sync.example import EXAMPLE_PATH

    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    fake_server.set_values(sid, BAD_FOULS[0], [[9]], start=BAD_FOULS[1], raw=True)
    gids = {title: gid for gid, title in google_backend(fake_server, google_account.key_file, sid).read().token}
    t = member(Tournament.objects.create(slug="gsheet", spreadsheet_id=sid, account=google_account), organizer)
    press(signed_in, t, "sync")
    t.refresh_from_db()
    assert last_job(t, "sync").status == Job.DONE, last_job(t, "sync").message
    problem = next(p for p in t.last_sync["problems"] if (p["tab"], p["cell"]) == BAD_FOULS)
    assert problem["gid"] == gids[BAD_FOULS[0]] and problem["ru"] and problem["en"]
    html = page(signed_in, t)
    link = f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid={gids[BAD_FOULS[0]]}&amp;range={BAD_FOULS[1]}"
    assert link in html


def test_the_problems_kept_are_capped_and_the_rest_counted(excel_tournament):
    from sheets_sync.web.jobs import PROBLEMS_KEPT, problem_rows
    from scoring.problems import Location, Problem, Severity

    many = [Problem(rule=next(iter(__import__("scoring.problems", fromlist=["MESSAGES"]).MESSAGES)),
                    severity=Severity.ERROR, location=Location(sheet="Тур 1 Стол 1", cell=f"A{i}")) for i in range(500)]
    rows = problem_rows(many, None, google=False)
    assert len(rows) == PROBLEMS_KEPT and rows[0]["cell"] == "A0" and rows[0]["gid"] is None


def test_draw_writes_the_seating_shows_its_fairness_report_and_a_sync_follows(signed_in, fresh_tournament):
    response = press(signed_in, fresh_tournament, "draw", seed=3, time_limit=2)
    job = last_job(fresh_tournament, "draw")
    assert response.status_code == 302 and response["Location"] == f"/o/cup/jobs/{job.pk}/"
    assert job.status == Job.DONE, job.message
    assert job.params == {"seed": 3, "time_limit": 2.0}
    assert job.result["games"] > 0 and job.result["lines"]["ru"] and job.result["rows"]["en"]
    html = signed_in.get(response["Location"]).content.decode()
    assert "Отчёт о жеребьёвке" in html and 'id="draw-figures"' in html  # the report as a table (issue 43 §6)
    assert last_job(fresh_tournament, "sync").status == Job.DONE  # the standings followed the draw
    assert Tournament.objects.get(pk=fresh_tournament.pk).last_sync_at is not None


def test_a_refused_draw_is_a_failed_job_explained_in_the_pages_language(signed_in, excel_tournament):
    press(signed_in, excel_tournament, "draw", time_limit=1)
    job = last_job(excel_tournament, "draw")
    assert job.status == Job.FAILED and job.result["refused"]
    russian = signed_in.get(reverse("job", args=["gmo", job.pk])).content.decode()
    english = signed_in.get(reverse("job", args=["gmo", job.pk]), {"lang": "en"}).content.decode()
    assert job.result["messages"]["ru"].split("\n")[0][:40] in russian.replace("&quot;", '"').replace("&#x27;", "'")
    assert "Not done:" in english and "Не выполнено" not in english
    status = signed_in.get(reverse("job_status", args=["gmo", job.pk])).json()
    assert status["status"] == "failed" and status["message"] == job.result["messages"]["en"]


def test_advance_then_replace_a_late_semifinalist(signed_in, qualified_tournament):
    press(signed_in, qualified_tournament, "advance")
    advanced = last_job(qualified_tournament, "advance")
    assert advanced.status == Job.DONE, advanced.message
    assert advanced.result["stage"] == "semifinal" and len(advanced.result["players"]) == 20
    late = advanced.result["players"][0]
    press(signed_in, qualified_tournament, "replace", player=late)
    replaced = last_job(qualified_tournament, "replace")
    assert replaced.status == Job.DONE, replaced.message
    assert replaced.result["old"] == late and replaced.result["new"] not in advanced.result["players"]
    html = signed_in.get(reverse("job", args=["qualified", replaced.pk])).content.decode()
    assert f"{late} заменён на {replaced.result['new']}" in html


def test_a_wrong_field_is_refused_before_any_job(signed_in, excel_tournament):
    response = press(signed_in, excel_tournament, "protocols", round="zero")
    assert response.status_code == 302 and not Job.objects.filter(tournament=excel_tournament).exists()
    assert "Тур" in page(signed_in, excel_tournament)


def test_buttons_need_a_post_and_a_known_action(signed_in, excel_tournament):
    assert signed_in.get(reverse("press", args=["gmo", "sync"])).status_code == 405
    assert press(signed_in, excel_tournament, "format-the-disk").status_code == 404
    assert press(signed_in, excel_tournament, "evening", games=3).status_code == 404  # a tournament has no evenings


def test_a_button_without_the_csrf_token_is_refused(organizer, excel_tournament):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(organizer)
    assert strict.post(reverse("press", args=["gmo", "sync"])).status_code == 403
    assert not Job.objects.filter(tournament=excel_tournament).exists()


def test_another_organizers_tournament_and_its_jobs_are_404(client, excel_tournament):
    from django.contrib.auth import get_user_model

    stranger = get_user_model().objects.create_user("boris@example.org", "boris@example.org", "another password 2")
    job = jobs.enqueue(excel_tournament, "vk")
    job.refresh_from_db()
    client.force_login(stranger)
    for url in (reverse("tournament", args=["gmo"]), reverse("tournament_status", args=["gmo"]),
                reverse("job", args=["gmo", job.pk]), reverse("job_status", args=["gmo", job.pk]),
                reverse("download", args=["gmo", job.result["files"][0]])):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("press", args=["gmo", "sync"])).status_code == 404


def test_the_page_shows_a_lost_share_and_the_last_error(signed_in, excel_tournament):
    Tournament.objects.filter(pk=excel_tournament.pk).update(share_lost=True, last_error="403 The caller does not have permission")
    Job.objects.create(tournament=excel_tournament, action="sync", status=Job.FAILED, message="403 The caller",
                       result={"refused": True, "messages": {"ru": "нет доступа к таблице", "en": "no access"}})
    html = page(signed_in, excel_tournament)
    assert 'id="share-lost"' in html and "Доступ потерян" in html and "нет доступа к таблице" in html
    assert "403 The caller" not in html  # the server's log text, in English: the page says the job's words
    assert "no access" in page(signed_in, excel_tournament, lang="en")


def test_while_jobs_wait_the_page_polls_its_status(signed_in, excel_tournament, monkeypatch):
    monkeypatch.setattr(jobs, "run_job_task", lambda job_id: None)  # a queue nobody consumes yet
    jobs.request_sync(excel_tournament, "button")
    html = page(signed_in, excel_tournament)
    assert 'id="refreshing"' in html and "/o/gmo/status.json" in html
    status = signed_in.get(reverse("tournament_status", args=["gmo"])).json()
    assert [s for _, s in status["active"]] == ["queued"]


def test_a_google_sheets_page_offers_the_push_trigger_with_its_own_hook_and_secret(signed_in, organizer,
                                                                                  google_account, excel_tournament):
    assert 'id="push"' not in page(signed_in, excel_tournament)  # an .xlsx has no Apps Script
    t = member(Tournament.objects.create(slug="gsheet", spreadsheet_id="sheet-1", account=google_account), organizer)
    html = page(signed_in, t)
    t.refresh_from_db()
    assert html.count('id="push"') == 1 and html.count("Мгновенное обновление") == 1
    assert len(t.hook_secret) >= 32 and f"var SHEETS_SYNC_SECRET = '{t.hook_secret}';" in html
    assert "var SHEETS_SYNC_URL = 'http://testserver/hook/sheet-1/';" in html
    assert page(signed_in, t).count(t.hook_secret) == 1  # made once, kept


def test_the_minutes_sweep_is_a_periodic_task_that_syncs_what_is_due(excel_tournament):
    from huey.contrib.djhuey import HUEY

    from sheets_sync.web import keeping

    # the only periodic task: its tick sweeps what is due (no second sweep beside it)
    assert [t.__name__ for t in HUEY._registry._periodic_tasks] == ["keeping_minute"]
    keeping.tick()  # the minute's first step; a new tournament is marked changed: the sweep syncs it
    assert Tournament.objects.get(pk=excel_tournament.pk).last_sync_at is not None
