"""A sheet shared with the service as «Viewer» instead of «Editor» (issue 35 §1, §4): refused at the
claim with what to do, and a share later lowered to viewer marked on the tournament's page at the
next sync — nothing else stops, and raising it back to editor resumes syncing by itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web import jobs, keeping
from sheets_sync.web.models import Job, Membership, Tournament
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key, upload_xlsx  # noqa: F401
from tests.web.test_accounts import google, signed_in, start_claim, type_code  # noqa: F401
from tests.web.test_keeping import EDIT_CELL, EDIT_TAB, _sheet, account, clock  # noqa: F401

pytestmark = pytest.mark.django_db


def _files_get_calls(server) -> list[dict]:
    return [r for r in server.request_log if r["method"] == "GET" and r["path"].startswith("/drive/v3/files/")
            and "/permissions" not in r["path"]]


@pytest.mark.parametrize("lang, says", [
    ("ru", ["доступ «Редактор»", "«Читатель»"]),
    ("en", ["«Editor» access", "«Viewer»"]),
])
def test_a_sheet_shared_as_viewer_is_refused_at_the_claim_with_what_to_do(google, lang, says):
    sid = upload_xlsx(google, EXAMPLE_PATH)
    google.share(sid, SA_EMAIL, role="reader")
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, sid)
    type_code(google, sid, claim.code)
    google.reset_counts()
    page = client.post(reverse("add_sheet") + f"?lang={lang}", {"claim": claim.pk}, follow=True).content.decode()
    assert all(s in page for s in says) and SA_EMAIL in page, page
    assert not Tournament.objects.exists()
    assert len(_files_get_calls(google)) == 1  # one Drive call tells it, no write tried


def test_the_same_sheet_shared_again_as_editor_registers(google, monkeypatch):
    sid = upload_xlsx(google, EXAMPLE_PATH)
    google.share(sid, SA_EMAIL, role="reader")
    client, user = signed_in("anna@club.ru")
    claim = start_claim(client, sid)
    type_code(google, sid, claim.code)
    assert "Редактор" in client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    google.share(sid, SA_EMAIL, role="writer")
    import time

    from sheets_sync.web import throttle

    later = time.time() + throttle.CHECK_PAUSE
    monkeypatch.setattr(throttle, "clock", lambda: later)  # the pause between two checks has passed
    assert client.post(reverse("add_sheet"), {"claim": claim.pk}).status_code == 302
    tournament = Tournament.objects.get(spreadsheet_id=sid)
    assert Membership.objects.filter(user=user, tournament=tournament).exists()
    assert not tournament.share_view_only and tournament.last_sync.get("games"), tournament.last_error


def test_the_fake_refuses_a_readers_writes_and_tells_its_capabilities(fake_server, account, tmp_path):
    from sheets_sync.keeper.drive import can_edit
    from sheets_sync.web.workbooks import account_http

    t = _sheet(fake_server, account, tmp_path, "cup")
    http = account_http(account)
    assert can_edit(http, t.spreadsheet_id) is True
    fake_server.share(t.spreadsheet_id, SA_EMAIL, role="reader")
    assert can_edit(http, t.spreadsheet_id) is False
    permissions = http.request("get", f"https://www.googleapis.com/drive/v3/files/{t.spreadsheet_id}/permissions")
    assert {"emailAddress": SA_EMAIL, "role": "reader"}.items() <= next(
        p for p in permissions.json()["permissions"] if p.get("emailAddress") == SA_EMAIL).items()
    tabs = fake_server.tabs(t.spreadsheet_id)
    job = jobs.request_sync(t, "button")
    job.refresh_from_db()
    assert job.status == Job.FAILED  # the sync read the sheet, its first write was refused with 403
    assert fake_server.quota.file_reads.get(t.spreadsheet_id) and fake_server.quota.file_writes[t.spreadsheet_id] == 1
    assert fake_server.tabs(t.spreadsheet_id) == tabs  # nothing written


def test_a_share_lowered_to_viewer_is_marked_at_the_next_sync_and_raising_it_resumes(fake_server, account, clock,
                                                                                     tmp_path):
    t, other = _sheet(fake_server, account, tmp_path, "cup"), _sheet(fake_server, account, tmp_path, "other")
    keeping.tick()  # the cursor
    jobs.request_sync(t, "button")
    user_client, user = signed_in("anna@club.ru")
    Membership.objects.create(user=user, tournament=t, role=Membership.OWNER)
    fake_server.share(t.spreadsheet_id, SA_EMAIL, role="reader")  # the organizer lowers the share
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    fake_server.set_values(other.spreadsheet_id, EDIT_TAB, [["0,3"]], start=EDIT_CELL)
    clock.t += 61
    keeping.tick()  # Drive: both changed; the sync of «cup» is refused its write
    t.refresh_from_db(), other.refresh_from_db()
    assert t.share_view_only and not t.share_lost and not other.share_view_only
    assert Job.objects.filter(tournament=other, status=Job.DONE).exists()  # nothing else stops
    page = user_client.get(reverse("tournament", args=[t.slug])).content.decode()
    assert 'id="share-view-only"' in page and "«Редактор»" in page and SA_EMAIL in page
    listing = user_client.get(reverse("tournaments")).content.decode()
    assert "только чтение" in listing
    # marked: neither the sweep nor the fast lane spends a Sheets request on it
    fake_server.reset_counts()
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    clock.t += 61
    keeping.tick()
    assert not fake_server.quota.file_reads.get(t.spreadsheet_id) and not fake_server.quota.file_writes
    assert t.pk not in keeping.poll_fast_lane()
    # another judge's save while still a viewer: one Drive call, no Sheets request
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,2"]], start=EDIT_CELL)
    clock.t += 61
    keeping.tick()
    assert not fake_server.quota.file_reads.get(t.spreadsheet_id)
    t.refresh_from_db()
    assert t.share_view_only
    # the organizer makes the service an editor again: Drive sees the share change, the sync resumes
    fake_server.share(t.spreadsheet_id, SA_EMAIL, role="writer")
    clock.t += 61
    keeping.tick()
    t.refresh_from_db()
    assert not t.share_view_only and not t.needs_sync and t.last_error == ""
    assert fake_server.values(t.spreadsheet_id, EDIT_TAB)[9][8] == 0.2  # the judge's value untouched
