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
