"""The judges' links (issue 44 §1): made on the organizer's page in one press, each with its
address, a copy button and a QR code; revoked and renewed there; a revoked, unknown, guessed or
other table's link is the same 404 with no hint."""

from __future__ import annotations

import re

import pytest

from sheets_sync.web.models import JudgeLink
from tests.web.judge_support import api_get, gid, judged, save_form, synced  # noqa: F401 - fixtures
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data, signed_in  # noqa: F401

pytestmark = pytest.mark.django_db


def _page(client, tournament) -> str:
    response = client.get(f"/o/{tournament.slug}/")
    assert response.status_code == 200
    return response.content.decode()


def _press(client, tournament, op, **fields):
    return client.post(f"/o/{tournament.slug}/judges/{op}/", fields)


def test_one_press_makes_every_table_link_of_the_stage_with_address_copy_and_qr(signed_in, judged):
    html = _page(signed_in, judged)
    assert 'id="judges"' in html and "Судьи" in html and 'id="judges-make"' in html
    assert _press(signed_in, judged, "make").status_code == 302
    links = list(JudgeLink.objects.filter(tournament=judged, kind=JudgeLink.TABLE))
    assert sorted(link.table for link in links) == [1, 2] and {link.stage for link in links} == {"qualifying"}
    assert all(len(link.token) == 43 and link.token_hash != link.token for link in links)
    html = _page(signed_in, judged)
    for link in links:
        assert f'value="http://testserver/j/{link.token}/"' in html
        assert f'data-copies="judge-address-{link.pk}"' in html
    assert html.count("<svg") >= 2 and "copy.js" in html
    _press(signed_in, judged, "make")  # again: no second link for a table that has one
    assert JudgeLink.objects.filter(tournament=judged, kind=JudgeLink.TABLE).count() == 2


def test_a_link_opens_its_tables_games_only_and_nothing_else(client, signed_in, judged):
    _press(signed_in, judged, "make")
    one = JudgeLink.objects.get(tournament=judged, table=1)
    answer = api_get(client, one.token)
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    games = answer.json()["games"]
    assert [g["gid"] for g in games] == [gid(r, 1) for r in range(1, 8)]  # table 1 of every round, in order
    assert answer.json()["link"]["title"] == "Отбор · стол 1"
    assert len(games[0]["seats"]) == 10 and games[0]["status"] == "not_started"
    other = api_get(client, one.token, f"games/{gid(1, 2)}/")
    guessed = api_get(client, "A" * 43)
    assert other.status_code == guessed.status_code == 404
    assert other.json() == guessed.json()  # the same body: no hint which
    assert set(other.json()) == {"error", "code"} and other.json()["error"]["ru"]
    saved = save_form(client, one.token, gid(1, 2), {":judge": "Судья"}, base={})
    assert saved.status_code == 404 and saved.json() == guessed.json()


def test_revoked_and_renewed_links_are_dead_at_once(client, signed_in, judged):
    _press(signed_in, judged, "make")
    one = JudgeLink.objects.get(tournament=judged, table=1)
    two = JudgeLink.objects.get(tournament=judged, table=2)
    assert api_get(client, one.token).status_code == 200
    _press(signed_in, judged, "revoke", link=one.pk)
    assert api_get(client, one.token).status_code == 404
    assert client.get(f"/j/{one.token}/").status_code == 404
    _press(signed_in, judged, "renew", link=two.pk)
    assert api_get(client, two.token).status_code == 404
    new = JudgeLink.objects.get(tournament=judged, table=2, revoked_at__isnull=True)
    assert new.token != two.token and api_get(client, new.token).status_code == 200
    html = _page(signed_in, judged)
    assert one.token not in html and two.token not in html and new.token in html


def test_another_organizer_cannot_press_and_a_press_needs_csrf(client, judged, django_user_model):
    from django.test import Client

    stranger = django_user_model.objects.create_user("eve@example.org", "eve@example.org", "a long password 2")
    client.force_login(stranger)
    assert _press(client, judged, "make").status_code == 404
    assert not JudgeLink.objects.exists()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(judged.memberships.get().user)
    assert _press(strict, judged, "make").status_code == 403


def test_the_chief_link_is_one_and_the_page_shows_it(signed_in, judged):
    _press(signed_in, judged, "chief")
    _press(signed_in, judged, "chief")
    chiefs = JudgeLink.objects.filter(tournament=judged, kind=JudgeLink.CHIEF)
    assert chiefs.count() == 2 and chiefs.filter(revoked_at__isnull=True).count() == 1
    live = chiefs.get(revoked_at__isnull=True)
    assert re.search(rf'value="http://testserver/j/{live.token}/chief/"', _page(signed_in, judged))


def test_the_protocol_blanks_carry_each_tables_link_as_a_qr_code(signed_in, judged):
    from sheets_sync.web.models import Job

    blank = signed_in.post(f"/o/{judged.slug}/do/protocols/", {"round": 1})
    assert blank.status_code == 302
    job = Job.objects.filter(tournament=judged, action="protocols").latest("pk")
    before = (judged_out(judged) / job.result["files"][0]).read_text(encoding="utf-8")
    assert 'class="judge-qr"' not in before  # no links yet: the blank as it always was
    _press(signed_in, judged, "make")
    signed_in.post(f"/o/{judged.slug}/do/protocols/", {"round": 1})
    job = Job.objects.filter(tournament=judged, action="protocols").latest("pk")
    after = (judged_out(judged) / job.result["files"][0]).read_text(encoding="utf-8")
    assert after.count('class="judge-qr"') == 2 and after.count("<svg") == 2  # one a table
    link = JudgeLink.objects.get(tournament=judged, table=1)
    assert link.base == "http://testserver" and link.token not in after  # the key only as the code


def _seating_print(client, tournament, **fields) -> str:
    from sheets_sync.web.models import Job

    assert client.post(f"/o/{tournament.slug}/do/seating/", {"round": 1, **fields}).status_code == 302
    job = Job.objects.filter(tournament=tournament, action="seating").latest("pk")
    assert job.status == Job.DONE, job.result
    return (judged_out(tournament) / job.result["files"][0]).read_text(encoding="utf-8")


def test_the_seating_posters_carry_the_judges_qr_only_when_the_box_is_ticked(signed_in, judged):
    page = _page(signed_in, judged)
    box = re.search(r'<input[^>]*name="judge_qr"[^>]*>', page)
    assert box and "checked" not in box.group(0) and "QR-код судьи на листе стола" in page  # opt-in, off
    _press(signed_in, judged, "make")
    plain = _seating_print(signed_in, judged)
    assert "<svg" not in plain and 'class="judge-qr"' not in plain  # not ticked: the seating as it always was
    ticked = _seating_print(signed_in, judged, judge_qr="on")
    overview, *posters = ticked.split('<section class="sheet poster">')
    assert len(posters) == 2 and "<svg" not in overview and "Для судьи стола" not in overview
    for poster in posters:  # one QR a table's poster, small in its corner, with the caption
        assert poster.count("<svg") == 1 and poster.count('class="judge-qr"') == 1 and "Для судьи стола" in poster
    assert posters[0].split("<svg")[1] != posters[1].split("<svg")[1]  # each table its own link
    assert not any(link.token in ticked for link in JudgeLink.objects.filter(tournament=judged))


def test_the_box_ticked_before_any_link_says_so_on_the_jobs_page(signed_in, judged):
    from sheets_sync.web.models import Job

    html = _seating_print(signed_in, judged, judge_qr="on")
    assert "<svg" not in html  # no links yet: nothing to print
    job = Job.objects.filter(tournament=judged, action="seating").latest("pk")
    page = signed_in.get(f"/o/{judged.slug}/jobs/{job.pk}/").content.decode()
    assert 'id="seating-no-qr"' in page and "Сделать ссылки для столов этапа" in page
    _press(signed_in, judged, "make")
    _seating_print(signed_in, judged, judge_qr="on")
    job = Job.objects.filter(tournament=judged, action="seating").latest("pk")
    assert 'id="seating-no-qr"' not in signed_in.get(f"/o/{judged.slug}/jobs/{job.pk}/").content.decode()


@pytest.mark.browser
def test_a_seating_poster_with_the_qr_is_one_a4_page(signed_in, judged, tmp_path):
    import shutil
    import subprocess
    from pathlib import Path

    from sheets_sync.render.protocols import find_chromium, html_to_pdf

    if find_chromium() is None or shutil.which("pdfinfo") is None:
        pytest.skip("needs Chromium and pdfinfo")
    _press(signed_in, judged, "make")
    html = tmp_path / "seating.html"
    html.write_text(_seating_print(signed_in, judged, judge_qr="on"), encoding="utf-8")
    pdf = tmp_path / "seating.pdf"
    assert html_to_pdf(html, pdf)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+3$", info, re.M), info  # the overview and two posters: the QR spills nothing
    assert "(A4)" in info
    artifacts = Path(__file__).parent.parent / "artifacts" / "judge"
    artifacts.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", "-f", "2", "-l", "2", str(pdf),
                    str(artifacts / "seating-poster-qr")], check=True)
    assert (artifacts / "seating-poster-qr.png").stat().st_size > 1000


def judged_out(tournament):
    from sheets_sync.web.jobs import out_dir

    return out_dir(tournament)


def test_the_page_its_service_worker_and_manifest_are_served_by_the_link(client, judged, tmp_path, monkeypatch):
    from sheets_sync.web.judge import pages
    from tests.web.judge_support import table_links

    token = table_links(judged)[1]
    page = client.get(f"/j/{token}/")
    assert page.status_code == 200 and page["Cache-Control"] == "no-store" and page["Referrer-Policy"] == "no-referrer"
    assert client.get("/j/" + "B" * 43 + "/").status_code == 404
    folder = tmp_path / "judge"
    folder.mkdir()
    (folder / "sw.js").write_text("self.addEventListener('fetch', () => {});", encoding="utf-8")
    (folder / "manifest.webmanifest").write_text('{"name": "Судья"}', encoding="utf-8")
    (folder / "judge.js").write_text("export {};", encoding="utf-8")
    monkeypatch.setattr(pages, "JUDGE_ASSETS", folder)
    sw = client.get("/j/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/j/" and sw["Cache-Control"] == "no-cache"
    assert client.get("/j/manifest.webmanifest")["Content-Type"] == "application/manifest+json"
    assert client.get("/assets/judge/judge.js")["Content-Type"].startswith("text/javascript")
    assert client.get("/assets/judge/..%2Fweb.css").status_code == 404


def test_a_judges_link_lists_his_tables_games_in_playing_order(client, signed_in, judged):
    from tests.web.judge_support import api_get as get

    _press(signed_in, judged, "judge", name="Судья Анна", tables=["2", "1", "99"])
    link = JudgeLink.objects.get(tournament=judged, kind=JudgeLink.JUDGE)
    assert link.judge == "Судья Анна" and link.tables == [1, 2]  # a table the stage lacks is left out
    games = get(client, link.token).json()["games"]
    assert [g["gid"] for g in games][:4] == [gid(1, 1), gid(1, 2), gid(2, 1), gid(2, 2)]
    assert "Отбор · Судья Анна" in _page(signed_in, judged)
    _press(signed_in, judged, "judge", name="", tables=["1"])
    assert JudgeLink.objects.filter(kind=JudgeLink.JUDGE).count() == 1
