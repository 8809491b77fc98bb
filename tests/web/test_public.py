"""The hosted public site /t/<slug>/: the files the syncs wrote, read-only, nothing outside the
folder, the right content types, the public filter applied (a hidden final stays hidden), and a
friendly «ещё не опубликовано» page until a sync published it or when the tournament is private."""

from __future__ import annotations

import openpyxl
import pytest

from sheets_sync.web import jobs
from sheets_sync.web.models import Tournament
from tests.web.organizer_support import excel_tournament, organizer, private_data  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def synced(excel_tournament) -> Tournament:
    jobs.request_sync(excel_tournament, "button")
    return Tournament.objects.get(pk=excel_tournament.pk)


def test_nothing_synced_yet_is_a_friendly_404(client, excel_tournament):
    response = client.get("/t/gmo/")
    assert response.status_code == 404
    assert "Ещё не опубликовано" in response.content.decode()
    assert "Not published yet" in client.get("/t/gmo/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert client.get("/t/nobody/").status_code == 404


def test_the_site_the_sync_wrote_is_served_with_its_content_types(client, synced):
    index = client.get("/t/gmo/")
    assert index.status_code == 200 and index["Content-Type"] == "text/html; charset=utf-8"
    body = b"".join(index.streaming_content).decode()
    assert synced.last_sync["name"] in body
    for name in ("screen.html", "seating.html"):
        assert client.get(f"/t/gmo/{name}").status_code == 200, name
    css = next(p for p in jobs.site_dir(synced).rglob("*.css"))
    assert client.get(f"/t/gmo/{css.relative_to(jobs.site_dir(synced)).as_posix()}")["Content-Type"].startswith("text/css")
    assert client.get("/t/gmo/screen.html")["Cache-Control"] == "no-cache"
    etag = client.get("/t/gmo/").headers["ETag"]
    assert client.get("/t/gmo/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get("/t/gmo/no-such-page.html").status_code == 404


def test_a_folder_without_its_slash_is_redirected_and_never_listed(client, synced):
    folder = next(p for p in jobs.site_dir(synced).iterdir() if p.is_dir())
    response = client.get(f"/t/gmo/{folder.name}")
    if (folder / "index.html").exists():
        assert response.status_code == 301 and response["Location"] == f"/t/gmo/{folder.name}/"
    else:
        assert response.status_code == 404  # no listing of a folder without a page


@pytest.mark.parametrize("path", ["../standings.json", "..%2Fstandings.json", "%2e%2e/%2e%2e/secret_key",
                                  "players/../../standings.json", "..\\standings.json", "C:/Windows/win.ini",
                                  "/etc/passwd", "link-out"])
def test_no_way_out_of_the_site(client, synced, path):
    (jobs.site_dir(synced) / "link-out").symlink_to(jobs.out_dir(synced) / "standings.json")
    assert (jobs.out_dir(synced) / "standings.json").exists()
    assert client.get(f"/t/gmo/{path}").status_code in (404, 400)


def test_the_site_is_read_only(client, synced):
    assert client.post("/t/gmo/").status_code in (403, 405)
    assert client.put("/t/gmo/index.html").status_code == 405


def test_a_private_tournament_is_not_served(client, synced):
    Tournament.objects.filter(pk=synced.pk).update(public=False)
    response = client.get("/t/gmo/")
    assert response.status_code == 404 and "Ещё не опубликовано" in response.content.decode()
    assert client.get("/t/gmo/screen.html").status_code == 404


def test_a_hidden_final_stays_hidden_on_the_hosted_site(client, excel_tournament):
    wb = openpyxl.load_workbook(excel_tournament.path)
    wb["Турнир"].append(["скрытый.финал", "да"])
    wb.save(excel_tournament.path)
    jobs.request_sync(excel_tournament, "button")
    index = b"".join(client.get("/t/gmo/").streaming_content).decode()
    assert "финал скрыт" in index.lower()
    assert client.get("/t/gmo/stage-final.html").status_code == 404
    seating = b"".join(client.get("/t/gmo/seating.html").streaming_content).decode()
    assert "Финал" not in seating.split("<main>")[1]
    assert "Финал 1" not in index  # no final game's tab named anywhere on the front page


def test_the_vk_post_of_a_server_sync_links_the_hosted_site(settings, excel_tournament, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_PUBLIC_URL", "https://mafia.example.org/")
    jobs.request_sync(excel_tournament, "button")
    post = (jobs.out_dir(excel_tournament) / "vk-post.txt").read_text(encoding="utf-8")
    assert "https://mafia.example.org/t/gmo/" in post


def test_without_a_public_address_the_post_keeps_the_clis_behaviour(excel_tournament, monkeypatch):
    monkeypatch.delenv("SHEETS_SYNC_PUBLIC_URL", raising=False)
    jobs.request_sync(excel_tournament, "button")
    post = (jobs.out_dir(excel_tournament) / "vk-post.txt").read_text(encoding="utf-8")
    assert "/t/gmo/" not in post and "[вставьте ссылку]" not in post
