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
