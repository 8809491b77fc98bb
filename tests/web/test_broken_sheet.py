"""A broken sheet through the server (issue 42 §5): the web app's sync job against the fake Google
server (and an .xlsx), as an organizer meets it — the tournament's page, the job, the public site.

* the Tournament tab renamed: the job fails with the reason, the page says at the top which tab is
  missing and which looks like it (in the page's language), the sheet's owned tabs are as the last
  good sync left them and the public site's files are unchanged byte for byte;
* a counted game's tab deleted: the page keeps «37 из 38» and names the tab;
* thousands of garbage rows: every write request stays far under Google's 10 MB, the marks few.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import openpyxl
import pytest
from django.urls import reverse

from sheets_sync.backends.google.planner import MAX_REQUEST_BYTES
from sheets_sync.loop.sync import MARKS_MAX
from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from tests.google_support import fake_server, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    google_account,
    member,
    organizer,
    private_data,
    signed_in,
)

pytestmark = pytest.mark.django_db

OWNED = ("Итоги", "Отбор", "Полуфинал", "Финал", "Статистика", "Журнал")


def press_sync(client, tournament) -> Job:
    client.post(reverse("press", args=[tournament.slug, "sync"]))
    return Job.objects.filter(tournament=tournament, action="sync").order_by("-pk").first()


def page(client, tournament, **params) -> str:
    response = client.get(reverse("tournament", args=[tournament.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def site_files(tournament) -> dict[str, bytes]:
    folder = jobs.out_dir(tournament)
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def google_tournament(signed_in, organizer, google_account, fake_server) -> Tournament:
    """The example on the fake Google server, registered and synced once (38 of 38, published)."""
    from sheets_sync.example import EXAMPLE_PATH

    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    fake_server.quota.enabled = False  # a few syncs in a row: the budget is not what is tested here
    t = member(Tournament.objects.create(slug="gsheet", spreadsheet_id=sid, account=google_account), organizer)
    assert press_sync(signed_in, t).status == Job.DONE
    t.refresh_from_db()
    assert (t.last_sync["games"], t.last_sync["planned"]) == (38, 38)
    yield t
    fake_server.quota.enabled = True


def test_a_renamed_tournament_tab_fails_the_job_says_so_and_publishes_nothing(signed_in, google_tournament,
                                                                                fake_server, client):
    t, sid = google_tournament, google_tournament.spreadsheet_id
    published, owned = site_files(t), {tab: fake_server.values(sid, tab) for tab in OWNED}
    public_before = b"".join(client.get("/t/gsheet/").streaming_content)
    fake_server.rename_tab(sid, "Турнир", "Турнир (копия)")

    job = press_sync(signed_in, t)

    assert job.status == Job.FAILED and job.result["refused"]
    assert "«Турнир (копия)»" in job.result["messages"]["ru"] and "'Турнир (копия)'" in job.result["messages"]["en"]
    assert site_files(t) == published  # standings.json, the site, the VK post: the last good ones, byte for byte
    assert b"".join(client.get("/t/gsheet/").streaming_content) == public_before
    assert {tab: fake_server.values(sid, tab) for tab in OWNED} == owned  # Итоги, Отбор… not rewritten empty
    listed = [row[3] for row in fake_server.values(sid, "Проверка")[3:] if len(row) > 3]
    assert any("Похоже, это вкладка «Турнир (копия)»" in line for line in listed)
    html = page(signed_in, t)
    stopped = html[html.index('id="stopped"'):html.index('id="glance"')]
    assert "Синхронизация остановлена" in stopped and "Похоже, это вкладка «Турнир (копия)»" in stopped
    gid = next(gid for gid, title in google_tournament_tabs(fake_server, sid) if title == "Турнир (копия)")
    assert f"#gid={gid}&amp;range=A1" in stopped  # the look-alike tab opens from the page
    assert 'id="games">38 из 38<' in html  # what the site still shows
    english = html_text(page(signed_in, t, lang="en"))
    assert "The sync stopped" in english and "Tab 'Турнир (копия)' looks like it" in english

    fake_server.rename_tab(sid, "Турнир (копия)", "Турнир")  # the organizer renames it back
    assert press_sync(signed_in, t).status == Job.DONE
    assert 'id="stopped"' not in page(signed_in, t)


def html_text(html: str) -> str:
    import html as html_module

    return html_module.unescape(html)


def google_tournament_tabs(server, sid) -> list[tuple[int, str]]:
    return [(sheet.id, sheet.title) for sheet in server.spreadsheets[sid].sheets]


def test_a_deleted_game_tab_keeps_the_count_of_games_and_is_named(signed_in, excel_tournament):
    assert press_sync(signed_in, excel_tournament).status == Job.DONE
    wb = openpyxl.load_workbook(excel_tournament.path)
    del wb["Тур 3 Стол 2"]
    wb.save(excel_tournament.path)
    assert press_sync(signed_in, excel_tournament).status == Job.DONE
    html = page(signed_in, Tournament.objects.get(pk=excel_tournament.pk))
    assert 'id="games">37 из 38<' in html
    assert "Вкладки «Тур 3 Стол 2» больше нет" in html


def garbage(n: int) -> list[list[str]]:
    rng = random.Random(5)
    return [["".join(rng.choice(string.ascii_letters) for _ in range(8)) for _ in range(12)] for _ in range(n)]


def test_garbage_rows_keep_every_write_far_under_googles_limit(signed_in, google_tournament, fake_server):
    t, sid = google_tournament, google_tournament.spreadsheet_id
    typed = fake_server.values(sid, "Рассадка")
    fake_server.set_values(sid, "Рассадка", garbage(8000), start=f"A{len(typed) + 2}", raw=True)
    fake_server.reset_counts()

    job = press_sync(signed_in, t)

    assert job.status == Job.DONE, job.message
    writes = [r["bytes"] for r in fake_server.request_log if r["path"].endswith(":batchUpdate")]
    assert writes and max(writes) <= MAX_REQUEST_BYTES
    marks = [c for tab in fake_server.tabs(sid) for c in fake_server.cells(sid, tab).values() if c.note]
    assert len(marks) <= MARKS_MAX
    assert fake_server.values(sid, "Рассадка")[len(typed) + 1][0] == garbage(1)[0][0]  # the garbage stays as typed
    assert Path(jobs.site_dir(t) / "index.html").is_file()
