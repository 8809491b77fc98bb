"""The buttons that make files (the VK post, the MWT archive, printable protocols and seating) and
the club season's «add an evening»: each a job on the example (Excel) or the fake Google server,
its files downloaded through the tournament's members-only view."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.urls import reverse

from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from tests.google_support import fake_server, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    google_account,
    member,
    organizer,
    players_csv,
    private_data,
    signed_in,
)

pytestmark = pytest.mark.django_db


def run(client, tournament, action, **fields) -> Job:
    response = client.post(reverse("press", args=[tournament.slug, action]), fields)
    assert response.status_code == 302
    job = Job.objects.filter(tournament=tournament, action=action).order_by("-pk").first()
    assert job.status == Job.DONE, (job.message, job.result)
    return job


def fetch(client, tournament, path):
    response = client.get(reverse("download", args=[tournament.slug, path]))
    assert response.status_code == 200, path
    return response, b"".join(response.streaming_content)


def test_the_vk_post_text_to_copy_and_its_picture_to_download(signed_in, excel_tournament, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_PUBLIC_URL", "https://mafia.example.org")
    job = run(signed_in, excel_tournament, "vk")
    assert "https://mafia.example.org/t/gmo/" in job.result["text"]
    html = signed_in.get(reverse("job", args=["gmo", job.pk])).content.decode()
    assert 'id="vk-text"' in html and 'id="copy"' in html
    assert job.result["files"] and all(f.startswith("exports/vk/") for f in job.result["files"])
    response, picture = fetch(signed_in, excel_tournament, job.result["files"][0])
    assert response["Content-Type"] == "image/png" and picture.startswith(b"\x89PNG")


def test_the_mwt_export_is_an_archive_of_one_file_per_counted_game(signed_in, excel_tournament):
    job = run(signed_in, excel_tournament, "mwt")
    response, archive = fetch(signed_in, excel_tournament, job.result["files"][0])
    assert response["Content-Disposition"].startswith("attachment")
    with zipfile.ZipFile(io.BytesIO(archive)) as zf:
        names = zf.namelist()
        assert len(names) == job.result["games"] > 0
        assert json.loads(zf.read(names[0]))
    assert job.result["warnings"]["ru"]  # the example has no MWT ids: the federation will miss them, said


@pytest.mark.parametrize("action", ["protocols", "seating"])
def test_printable_pages_open_in_the_browser(signed_in, excel_tournament, action):
    job = run(signed_in, excel_tournament, action, round=2)
    response, page = fetch(signed_in, excel_tournament, job.result["files"][0])
    assert response["Content-Type"] == "text/html; charset=utf-8" and "attachment" not in response.get("Content-Disposition", "")
    assert b"<html" in page.lower()


def test_downloads_stay_inside_the_exports(signed_in, excel_tournament):
    run(signed_in, excel_tournament, "vk")
    for path in ("standings.json", "exports/../standings.json", "exports/vk/../../standings.json", "exports/",
                 "site/index.html", "exports/nothing.png"):
        assert signed_in.get(reverse("download", args=["gmo", path])).status_code == 404, path


def test_a_new_export_replaces_the_last(signed_in, excel_tournament):
    first = run(signed_in, excel_tournament, "protocols", round=1)
    second = run(signed_in, excel_tournament, "protocols", round=2)
    assert first.result["files"] != second.result["files"]
    assert signed_in.get(reverse("download", args=["gmo", first.result["files"][0]])).status_code == 404


def test_a_club_season_adds_an_evening_and_a_sync_follows(signed_in, organizer, tmp_path):
    from sheets_sync.actions.init import init_workbook

    path = tmp_path / "club.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 12), preset_ref="club-season", name="Клуб",
                  language="ru", season=True)
    season = member(Tournament.objects.create(slug="club", kind=Tournament.SEASON, source=Tournament.EXCEL,
                                              path=str(path)), organizer)
    html = signed_in.get(reverse("tournament", args=["club"])).content.decode()
    assert "/o/club/do/evening/" in html and "/o/club/do/draw/" not in html
    job = run(signed_in, season, "evening", date="2026-12-04", games=4, tables=2)
    assert job.result["games"] == 4 and job.result["title"]
    assert Job.objects.get(tournament=season, action="sync").status == Job.DONE
    again = signed_in.post(reverse("press", args=["club", "evening"]), {"date": "2026-12-04", "games": 4})
    refused = Job.objects.filter(tournament=season, action="evening").order_by("-pk").first()
    assert again.status_code == 302 and refused.status == Job.FAILED
    assert "уже есть" in refused.result["messages"]["ru"] and "already" in refused.result["messages"]["en"]


def test_the_runners_act_on_a_google_sheet_too(signed_in, organizer, google_account, fake_server, tmp_path):
    from sheets_sync.actions.init import init_workbook

    sid = fake_server.create_spreadsheet("Кубок", tabs={"Лист1": []})
    init_workbook(f"gsheet:{sid}", players_csv=players_csv(tmp_path, 20), preset_ref="gmo-2016", name="Кубок",
                  language="ru", credentials=google_account.key_file)
    cup = member(Tournament.objects.create(slug="gcup", spreadsheet_id=sid, account=google_account), organizer)
    draw = run(signed_in, cup, "draw", seed=5, time_limit=2)
    assert draw.result["games"] > 0
    assert Job.objects.get(tournament=cup, action="sync").status == Job.DONE
    seating = run(signed_in, cup, "seating", round=1)
    _, page = fetch(signed_in, cup, seating.result["files"][0])
    assert "Игрок 01".encode() in page or "Игрок".encode() in page
    assert run(signed_in, cup, "vk").result["text"]
    assert jobs.out_dir(cup).joinpath("site", "index.html").exists()
