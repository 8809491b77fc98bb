"""Keeping registered Google sheets synced (issue 35 §4, Safety): the push webhook and its debounce,
the Drive changes feed, a revoked share, the fast lane, the per-account budget, and a 429/500 storm
during a sync — all against the fake Google server."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta, timezone as dt_timezone
from decimal import Decimal

import pytest
from django.utils import timezone

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.keeper.plan import INTERVAL
from sheets_sync.web import jobs, keeping, workbooks
from sheets_sync.web.models import Job, ServiceAccount, Tournament
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key, upload_xlsx  # noqa: F401

pytestmark = pytest.mark.django_db

EDIT_TAB, EDIT_CELL = "Тур 1 Стол 1", "I10"  # a judge's extra points for the player of row 10


class Clock:
    """One simulated clock for the keeper, the budget and the fake server (seconds)."""

    def __init__(self) -> None:
        self.t = timezone.now().timestamp()

    def __call__(self) -> float:
        return self.t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, tz=dt_timezone.utc)

    def sleep(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock(fake_server, monkeypatch):
    c = Clock()
    fake_server.clock = c
    fake_server.drive_delay = 0.0
    monkeypatch.setattr(keeping, "now", c.now)
    monkeypatch.setattr(workbooks, "budget_clock", c)
    monkeypatch.setattr(workbooks, "budget_sleep", c.sleep)
    keeping._BACKENDS.clear()
    workbooks._SYNC_BACKENDS.clear()
    getattr(workbooks, "_FRESH_READS", {}).clear()  # a read a poll of another test left
    yield c
    import time
    fake_server.clock = time.time


@pytest.fixture
def account(settings, fake_server, sa_key) -> ServiceAccount:
    settings.GOOGLE_ENDPOINT = fake_server.url
    return ServiceAccount.objects.create(email=SA_EMAIL, key_file=sa_key)


def _sheet(fake_server, account, tmp_path, slug: str) -> Tournament:
    path = tmp_path / f"{slug}.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    sid = upload_xlsx(fake_server, path)
    fake_server.share(sid, SA_EMAIL)
    return Tournament.objects.create(slug=slug, spreadsheet_id=sid, account=account, needs_sync=False)


def _total(t: Tournament) -> Decimal:
    standings = json.loads((jobs.out_dir(t) / "standings.json").read_text(encoding="utf-8"))["standings"]
    return sum((Decimal(row["total"]) for row in standings), Decimal(0))


def _syncs(t: Tournament) -> int:
    return Job.objects.filter(tournament=t, action=jobs.SYNC).count()


# -- push -----------------------------------------------------------------------------------------
def test_a_wrong_secret_or_an_unknown_sheet_starts_nothing(client, account, clock):
    t = Tournament.objects.create(slug="cup", spreadsheet_id="sheet-1", account=account, needs_sync=False)
    secret = keeping.ensure_hook_secret(t)
    assert len(secret) >= 40 and keeping.ensure_hook_secret(t) == secret
    for sheet, body in (("sheet-1", {"secret": "x" * len(secret)}), ("sheet-1", {}), ("sheet-2", {"secret": secret})):
        assert client.post(f"/hook/{sheet}/", body).status_code == 404
    assert client.get(f"/hook/sheet-1/?secret={secret}").status_code == 405
    clock.t += 60
    assert keeping.start_due_pushes() == [] and Job.objects.count() == 0
    t.refresh_from_db()
    assert t.pushed_at is None and t.fast_until is None


def test_a_thousand_pushes_in_a_minute_start_a_few_syncs(client, account, clock, monkeypatch):
    ran = []
    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, lambda t, params: ran.append(params["reason"]) or {})
    t = Tournament.objects.create(slug="cup", spreadsheet_id="sheet-1", account=account, needs_sync=False)
    secret = keeping.ensure_hook_secret(t)
    next_sweep = clock.t + 1
    for n in range(1000):
        response = client.post("/hook/sheet-1/", json.dumps({"secret": secret}), content_type="application/json")
        assert response.status_code == 200
        clock.t += 0.06  # 1,000 saves in 60 s
        if clock.t >= next_sweep:  # the minute task's one-second sweep
            keeping.start_due_pushes()
            next_sweep += 1
    clock.t += 6
    keeping.start_due_pushes()
    assert 1 <= _syncs(t) <= 14, _syncs(t)  # one per MAX_WAIT (5 s) at most, not 1,000
    assert ran == ["push"] * _syncs(t)
    t.refresh_from_db()
    assert t.fast_until > clock.now() + timedelta(minutes=29)


def test_a_push_syncs_after_the_judges_stop_typing(client, account, clock, monkeypatch):
    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, lambda t, params: {})
    t = Tournament.objects.create(slug="cup", spreadsheet_id="sheet-1", account=account, needs_sync=False)
    secret = keeping.ensure_hook_secret(t)
    client.post("/hook/sheet-1/", {"secret": secret})
    clock.t += 1
    assert keeping.start_due_pushes() == []  # still within the quiet time
    clock.t += 1.5
    assert keeping.start_due_pushes() == [t.pk] and _syncs(t) == 1


# -- the Drive feed ---------------------------------------------------------------------------------
def test_a_judges_edit_seen_in_drive_syncs_and_opens_the_fast_lane(fake_server, account, clock, tmp_path):
    t = _sheet(fake_server, account, tmp_path, "cup")
    keeping.tick()  # the first pass sets the account's cursor
    jobs.request_sync(t, "button")
    before = _total(t)
    fake_server.reset_counts()
    keeping.tick()  # our own write is seen: nothing to read, no lane (issue 42 §4)
    t.refresh_from_db()
    assert _syncs(t) == 1 and t.fast_until is None and fake_server.quota.file_reads == {}
    clock.t += 10
    keeping.tick()
    assert _syncs(t) == 1  # nothing typed: no sync
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    clock.t += 61
    keeping.read_drive(account)
    t.refresh_from_db()
    assert _syncs(t) == 2 and t.fast_until > clock.now() + timedelta(minutes=29)
    assert _total(t) == before + Decimal("0.4")


def test_idle_sheets_cost_no_sheets_request(fake_server, account, clock, tmp_path):
    sheets = [_sheet(fake_server, account, tmp_path, f"cup{n}") for n in range(5)]
    keeping.tick()
    fake_server.reset_counts()
    for _ in range(5):
        clock.t += 60
        keeping.tick()
    assert all(fake_server.quota.file_reads.get(t.spreadsheet_id, 0) == 0 for t in sheets)
    assert sum(fake_server.quota.per_minute.values()) == 0
    drive_calls = [r for r in fake_server.request_log if r["path"].startswith("/drive/v3/changes")]
    assert len(drive_calls) == 5  # one feed call per account and minute covers all five


def test_a_revoked_share_is_marked_and_the_other_sheets_keep_syncing(fake_server, account, clock, tmp_path):
    lost, kept = _sheet(fake_server, account, tmp_path, "lost"), _sheet(fake_server, account, tmp_path, "kept")
    keeping.tick()
    fake_server.unshare(lost.spreadsheet_id, SA_EMAIL)
    fake_server.set_values(kept.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    clock.t += 61
    keeping.tick()
    lost.refresh_from_db(), kept.refresh_from_db()
    assert lost.share_lost and not kept.share_lost
    assert _syncs(lost) == 0 and Job.objects.filter(tournament=kept, status=Job.DONE).exists()
    assert not Job.objects.exclude(status=Job.DONE).exists()
    fake_server.share(lost.spreadsheet_id, SA_EMAIL)  # shared again: the mark goes
    fake_server.set_values(lost.spreadsheet_id, EDIT_TAB, [["0,3"]], start=EDIT_CELL)
    clock.t += 61
    keeping.tick()
    lost.refresh_from_db()
    assert not lost.share_lost and Job.objects.filter(tournament=lost, status=Job.DONE).exists()


# -- the fast lane ----------------------------------------------------------------------------------
def test_the_fast_lane_finds_an_edit_drive_has_not_seen_yet(fake_server, account, clock, tmp_path):
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    assert keeping.poll_fast_lane() == [t.pk] and _syncs(t) == 1  # no baseline yet: one sync
    clock.t += 10
    fake_server.reset_counts()
    assert keeping.poll_fast_lane() == [t.pk] and _syncs(t) == 1  # our own write is not an edit
    assert fake_server.quota.file_reads[t.spreadsheet_id] <= 2 and not fake_server.quota.file_writes
    assert keeping.poll_fast_lane() == []  # not due again within the interval
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    clock.t += 10
    keeping.poll_fast_lane()
    assert _syncs(t) == 2 and _total(t) == before + Decimal("0.4")


# -- the budget -------------------------------------------------------------------------------------
def test_the_budget_keeps_an_account_under_googles_quota(fake_server, account, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(workbooks, "BUDGET_WAIT", 120.0)
    t = _sheet(fake_server, account, tmp_path, "cup")
    fake_server.reset_counts()
    backend = workbooks.open_google_backend(t.spreadsheet_id, account)
    for _ in range(150):  # 150 reads as fast as the code can: the budget waits, Google never refuses
        backend.read()
    assert fake_server.quota.refused == {}
    assert fake_server.quota.busiest_minute("read") <= 60
    assert sum(fake_server.quota.file_reads.values()) >= 150


def test_past_its_wait_the_budget_defers_the_job(fake_server, account, clock, tmp_path, monkeypatch):
    t = _sheet(fake_server, account, tmp_path, "cup")
    store = workbooks.budget_store()
    while store.take(SA_EMAIL, "read", clock(), 55) == 0:
        pass  # another worker used the minute up
    monkeypatch.setattr(workbooks, "BUDGET_WAIT", 1.0)
    job = jobs.request_sync(t, "button")
    job.refresh_from_db()
    t.refresh_from_db()
    # back in the queue, unstarted, saying why (not failed until the minute's sweep)
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET and job.attempts == 0 and t.needs_sync
    clock.t += 70
    assert jobs.sync_due() == []  # the waiting sync is the sheet's: the sweep adds none
    assert jobs.run_job(job.pk).status == Job.DONE  # its next look, the minute freed
    assert not Job.objects.filter(tournament=t, status=Job.FAILED).exists()


# -- a storm --------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [429, 500])
def test_a_storm_during_a_sync_backs_off_and_loses_nothing(fake_server, account, clock, tmp_path, status, caplog,
                                                           private_key_pem):
    caplog.set_level("DEBUG")
    t = _sheet(fake_server, account, tmp_path, "cup")
    jobs.request_sync(t, "button")
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    fake_server.storm(status, 3)
    job = jobs.request_sync(t, "drive")
    job.refresh_from_db()
    assert job.status == Job.DONE, job.message
    assert _total(t) == before + Decimal("0.4")
    tabs = fake_server.tabs(t.spreadsheet_id)
    assert len(tabs) == len(set(tabs))
    assert fake_server.values(t.spreadsheet_id, EDIT_TAB)[9][8] == 0.4  # the judge's value untouched
    key_body = private_key_pem.splitlines()[1]
    assert key_body not in caplog.text and "PRIVATE KEY" not in caplog.text


def test_the_push_block_shows_the_snippet_with_this_sheets_secret(account):
    from django.template.loader import render_to_string

    from sheets_sync.web.words import _Words

    t = Tournament.objects.create(slug="cup", spreadsheet_id="sheet-1", account=account)
    secret = keeping.ensure_hook_secret(t)
    for lang, phrase in (("ru", "installTrigger"), ("en", "Extensions → Apps Script")):
        html = render_to_string("keeping/push.html", {"tournament": t, "w": _Words(lang),
                                                      "hook_url": "https://club.example/hook/sheet-1/"})
        assert phrase in html and secret in html
        assert "ScriptApp.newTrigger('pushEdit').forSpreadsheet(spreadsheet).onEdit().create()" in html
        assert "https://club.example/hook/sheet-1/" in html


def test_a_poll_refused_with_403_marks_the_share_lost_before_drive_says_so(fake_server, account, clock, tmp_path):
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    keeping.poll_fast_lane()
    fake_server.unshare(t.spreadsheet_id, SA_EMAIL)
    clock.t += 10
    keeping.poll_fast_lane()
    t.refresh_from_db()
    assert t.share_lost
    clock.t += 10
    assert keeping.poll_fast_lane() == []  # no more reads of a sheet we may not read


def test_a_storm_longer_than_the_retries_fails_the_sync_and_the_sweep_finishes_it(fake_server, account, clock,
                                                                                  tmp_path):
    t = _sheet(fake_server, account, tmp_path, "cup")
    jobs.request_sync(t, "button")
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    fake_server.storm(500, 20)
    job = jobs.request_sync(t, "drive")
    job.refresh_from_db()
    t.refresh_from_db()
    assert job.status == Job.FAILED and t.needs_sync and _total(t) == before
    fake_server.faults.clear()  # the storm is over
    clock.t += 60
    keeping.tick()
    assert Job.objects.filter(tournament=t, status=Job.DONE).count() == 2
    assert _total(t) == before + Decimal("0.4")
    tabs = fake_server.tabs(t.spreadsheet_id)
    assert len(tabs) == len(set(tabs))


# -- an expired page token ------------------------------------------------------------------------
def test_an_expired_page_token_restarts_the_feed_and_syncs_every_sheet_of_the_account(fake_server, account, clock,
                                                                                    tmp_path, caplog):
    from sheets_sync.web.models import DriveCursor

    sheets = [_sheet(fake_server, account, tmp_path, f"cup{n}") for n in range(3)]
    lost = _sheet(fake_server, account, tmp_path, "lost")
    Tournament.objects.filter(pk=lost.pk).update(share_lost=True)
    keeping.tick()  # the cursor
    stale = DriveCursor.objects.get(account=account).page_token
    fake_server.expire_page_tokens()  # Google forgets the token: 410 Gone from now on
    caplog.set_level("WARNING", logger="sheets_sync.web.keeping")
    clock.t += 61
    keeping.tick()
    cursor = DriveCursor.objects.get(account=account)
    assert cursor.page_token != stale
    # what changed between the old token and the new one is unknown: every shared sheet is synced
    assert all(Job.objects.filter(tournament=t, action=jobs.SYNC, status=Job.DONE).exists() for t in sheets)
    assert _syncs(lost) == 0  # a lost share stays unread
    assert sum("page token" in r.getMessage() for r in caplog.records) == 1
    # the feed works again from the fresh token: a judge's edit is seen the next minute
    fake_server.set_values(sheets[0].spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    before = _syncs(sheets[0])
    clock.t += 61
    keeping.read_drive(account)
    assert _syncs(sheets[0]) == before + 1
    assert sum("page token" in r.getMessage() for r in caplog.records) == 1


def test_the_full_pass_after_an_expired_token_keeps_to_the_budget(fake_server, account, clock, tmp_path,
                                                                   monkeypatch):
    from sheets_sync.keeper.budget import LIMITS

    ran = []
    monkeypatch.setitem(jobs.RUNNERS, jobs.SYNC, lambda t, params: ran.append(t.pk) or {})
    sheets = [Tournament.objects.create(slug=f"cup{n}", spreadsheet_id=f"sheet-{n}", account=account,
                                        needs_sync=False, source=Tournament.GOOGLE) for n in range(80)]
    for t in sheets:
        fake_server.create_spreadsheet(t.slug, {"Турнир": [["Название", t.slug]]}, shared_with={SA_EMAIL},
                                       spreadsheet_id=t.spreadsheet_id)
    keeping.tick()
    fake_server.expire_page_tokens()
    clock.t += 61
    keeping.tick()
    # a sync reads a sheet at least once: no more syncs start in a minute than the account has reads
    assert 0 < len(ran) <= LIMITS["read"]
    assert Tournament.objects.filter(needs_sync=True).count() == len(sheets) - len(ran)
    for _ in range(3):
        clock.t += 61
        keeping.tick()
    assert sorted(ran) == sorted(t.pk for t in sheets) and not Tournament.objects.filter(needs_sync=True).exists()


# -- the fast lane without push: no round skipped for long, no read spent twice ---------------------------
class _Time:
    """``time`` for :func:`keeping.keeping_minute` on the test's clock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def monotonic(self) -> float:
        return self.clock.t

    def sleep(self, seconds: float) -> None:
        self.clock.t += seconds


def test_a_poll_the_budget_skipped_runs_as_soon_as_a_read_frees_not_a_round_later(fake_server, account, clock,
                                                                                  tmp_path, monkeypatch):
    import math

    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    keeping.poll_fast_lane()  # the baseline
    clock.t = 10 * math.ceil(clock.t / 10) + 40 + 8  # 8 s into a 10-s slice of the stored budget
    start = clock.t
    store = workbooks.budget_store()
    while store.take(SA_EMAIL, "read", start - 61, 55) == 0:
        pass  # other sheets' syncs used the minute up; their slice leaves the window 2 s after `start`
    monkeypatch.setattr(keeping, "time", _Time(clock))
    real_poll, polled = keeping.poll_fast_lane, []

    def poll_fast_lane(moment=None):
        chosen = real_poll(moment)
        polled.extend(clock.t - start for _ in chosen)
        return chosen

    monkeypatch.setattr(keeping, "poll_fast_lane", poll_fast_lane)
    keeping.keeping_minute(seconds=15)
    assert polled and polled[0] <= 3, polled  # not at the next 10-second round
    assert all(b - a >= INTERVAL - 1 for a, b in zip(polled, polled[1:]))  # and then every interval


def test_a_sync_started_by_a_push_is_not_synced_again_by_the_next_poll(client, fake_server, account, clock, tmp_path):
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    keeping.poll_fast_lane()  # the baseline (and its one sync)
    secret = keeping.ensure_hook_secret(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    client.post(f"/hook/{t.spreadsheet_id}/", {"secret": secret})
    clock.t += 3
    assert keeping.start_due_pushes() == [t.pk] and _syncs(t) == 2
    clock.t += 7
    fake_server.reset_counts()
    assert keeping.poll_fast_lane() == [t.pk]
    assert _syncs(t) == 2  # the push's sync read the edit: the poll finds nothing new to sync
    assert sum(fake_server.quota.file_reads.values()) <= 2



def test_a_push_whose_edit_the_lanes_poll_synced_starts_no_second_sync(client, fake_server, account, clock, tmp_path):
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    keeping.poll_fast_lane()  # the baseline (and its one sync)
    secret = keeping.ensure_hook_secret(t)
    clock.t += 10
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    client.post(f"/hook/{t.spreadsheet_id}/", {"secret": secret})
    clock.t += 1
    assert keeping.poll_fast_lane() == [t.pk] and _syncs(t) == 2  # the poll found the edit first
    clock.t += 2
    assert keeping.start_due_pushes() == [] and _syncs(t) == 2  # its read came after the push: nothing new
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,3"]], start=EDIT_CELL)  # an edit after that read
    client.post(f"/hook/{t.spreadsheet_id}/", {"secret": secret})
    clock.t += 3
    assert keeping.start_due_pushes() == [t.pk] and _syncs(t) == 3
    assert _total(t) == before - Decimal("0.1")


@pytest.mark.parametrize("fresh_for, reads", [(5.0, 1), (0.0, 2)])
def test_the_sync_a_poll_starts_computes_from_the_polls_read_while_it_is_fresh(fake_server, account, clock, tmp_path,
                                                                             monkeypatch, fresh_for, reads):
    monkeypatch.setattr(workbooks, "FRESH_FOR", fresh_for, raising=False)
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    Tournament.objects.filter(pk=t.pk).update(fast_until=clock.now() + timedelta(minutes=30))
    keeping.poll_fast_lane()  # the baseline
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    clock.t += 10
    fake_server.reset_counts()
    assert keeping.poll_fast_lane() == [t.pk] and _syncs(t) == 2
    # one values read for the poll and its sync together (a read older than FRESH_FOR: the sync reads again)
    assert fake_server.quota.file_reads[t.spreadsheet_id] == reads
    assert _total(t) == before + Decimal("0.4")
    assert not getattr(workbooks, "_FRESH_READS", {})  # used once, or dropped


# -- idle costs nothing (issue 42 §4) ------------------------------------------------------------
IDLE_SHEETS = 17  # the finding: 17 sheets nobody touched, read 23–25 times each in 170 s after their first sync


def _added_by_their_organizers(fake_server, clock, count: int) -> list[Tournament]:
    """``count`` organizers each add a sheet of their own as the add-sheet page asks: share it with
    the service, type the page's code into the Tournament tab, press «Проверить» — which registers
    the sheet and runs its first sync."""
    from django.urls import reverse

    from tests.web.test_accounts import signed_in, start_claim

    added = []
    for n in range(count):
        sid = upload_xlsx(fake_server, EXAMPLE_PATH)
        fake_server.share(sid, SA_EMAIL)
        client, user = signed_in(f"organizer{n}@club.ru")
        claim = start_claim(client, sid)
        clock.t += 20  # the organizer finds the tab and types the code
        fake_server.set_values(sid, "Турнир", [[claim.code]], start="D3", raw=True, user=user.email)
        clock.t += 5  # … goes back to the page and presses «Проверить»
        assert client.post(reverse("add_sheet"), {"claim": claim.pk}).status_code == 302
        added.append(Tournament.objects.get(spreadsheet_id=sid))
    return added


def _keeper_minutes(clock, monkeypatch, minutes: int) -> list[int]:
    """The server's periodic task for ``minutes`` simulated minutes (its loop of seconds included);
    returns how many registered sheets each pass of the Drive feed named."""
    monkeypatch.setattr(keeping, "time", _Time(clock))
    real_read, named = keeping.read_drive, []
    monkeypatch.setattr(keeping, "read_drive", lambda account, moment=None: named.append(real_read(account, moment))
                        or named[-1])
    for _ in range(minutes):
        keeping.keeping_minute(seconds=55)
        clock.t += 5
    return named


def _sheets_requests(fake_server, t: Tournament) -> int:
    return fake_server.quota.file_reads.get(t.spreadsheet_id, 0) + fake_server.quota.file_writes.get(t.spreadsheet_id, 0)


def test_idle_sheets_cost_no_sheets_request_after_their_first_sync(fake_server, account, clock, tmp_path, monkeypatch):
    fake_server.drive_delay = 180  # Drive sees a Sheets edit about three minutes late
    keeping.tick()  # the server runs: the account's feed has its cursor before anyone adds a sheet
    sheets = _added_by_their_organizers(fake_server, clock, IDLE_SHEETS)
    assert all(_syncs(t) == 1 and Job.objects.get(tournament=t).status == Job.DONE for t in sheets)
    fake_server.reset_counts()
    named = _keeper_minutes(clock, monkeypatch, 4)
    # the feed did bring every sheet's changes — the claim code typed, the first sync's own write …
    assert sum(named) >= IDLE_SHEETS
    # … and none of them is a reason to read the sheet again
    assert [_sheets_requests(fake_server, t) for t in sheets] == [0] * IDLE_SHEETS
    assert [_syncs(t) for t in sheets] == [1] * IDLE_SHEETS
    assert not Tournament.objects.filter(fast_until__gt=clock.now()).exists()


@pytest.mark.parametrize("push", [False, True])
def test_a_judges_edit_after_the_first_sync_still_reaches_the_site(client, fake_server, account, clock, tmp_path,
                                                                   monkeypatch, push):
    fake_server.drive_delay = 180
    keeping.tick()
    played, idle = _added_by_their_organizers(fake_server, clock, 2)
    _keeper_minutes(clock, monkeypatch, 4)  # the claim codes and the first syncs' writes come through Drive
    before = _total(played)
    fake_server.reset_counts()
    fake_server.set_values(played.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    if push:
        client.post(f"/hook/{played.spreadsheet_id}/", {"secret": keeping.ensure_hook_secret(played)})
    clock.t += 1  # the keeper's next second
    _keeper_minutes(clock, monkeypatch, 4)  # without push, Drive brings it about three minutes later
    assert _total(played) == before + Decimal("0.4")
    # one sync for the edit: the lane's poll or the push, whichever read it first; Drive's late word
    # of it, dated before that read, starts none
    assert _syncs(played) == 2
    played.refresh_from_db()
    assert played.fast_until > clock.now()  # the tournament is being played: its lane is open
    assert _sheets_requests(fake_server, idle) == 0 and _syncs(idle) == 1


def test_a_sheet_being_played_keeps_its_fast_lane(fake_server, account, clock, tmp_path, monkeypatch):
    """Judges type without the push trigger, for longer than one fast lane: Drive's word of each
    edit comes after the lane's poll synced it (seen already: it opens nothing), yet the lane stays
    open while the polls keep finding edits."""
    monkeypatch.setattr(keeping, "FAST_LANE", timedelta(minutes=3))  # the lane's length, shortened for the test
    fake_server.drive_delay = 180
    keeping.tick()
    (t,) = _added_by_their_organizers(fake_server, clock, 1)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,1"]], start=EDIT_CELL)
    _keeper_minutes(clock, monkeypatch, 4)  # Drive brings the first edit: a sync and the lane
    for n, value in enumerate(["0,2", "0,3", "0,4", "0,5", "0,2", "0,3", "0,4", "0,5"]):
        cell = f"I{10 + n % 2}"
        fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [[value]], start=cell)
        syncs = _syncs(t)
        _keeper_minutes(clock, monkeypatch, 1)
        assert _syncs(t) == syncs + 1  # the lane's poll found it (Drive is still three minutes behind)
    t.refresh_from_db()
    assert t.fast_until > clock.now()


def _a_judge_types_during_the_next_sync(fake_server, monkeypatch, clock, t: Tournament, value: str) -> None:
    """The race: a judge's save lands after the next sync's read and just before its write, so
    Drive's one entry for the file names our write as its last change."""
    from sheets_sync.loop import sync as sync_module

    real_write, typed = sync_module._write, []

    def write(*args, **kwargs):
        if not typed:
            clock.t += 0.3
            fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [[value]], start="I11")
            typed.append(clock.t)
            clock.t += 0.3
        return real_write(*args, **kwargs)

    monkeypatch.setattr(sync_module, "_write", write)


def test_an_edit_hidden_behind_our_write_is_found_by_the_lane_its_sync_started(fake_server, account, clock, tmp_path,
                                                                                monkeypatch):
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    keeping.tick()
    jobs.request_sync(t, "added")
    _keeper_minutes(clock, monkeypatch, 4)
    before = _total(t)
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)
    clock.t += 200  # Drive tells of the edit …
    _a_judge_types_during_the_next_sync(fake_server, monkeypatch, clock, t, "0,3")  # … and a second one races its sync
    keeping.read_drive(account)
    assert _total(t) == before + Decimal("0.4")  # the sync Drive started read only the first
    _keeper_minutes(clock, monkeypatch, 1)  # the lane that sync opened: its poll finds the second
    assert _total(t) == before + Decimal("0.7")


def test_an_edit_hidden_behind_the_write_of_a_sync_out_of_the_lane_waits_for_the_next_edit(
        fake_server, account, clock, tmp_path, monkeypatch):
    """What remains of the race (docs/decisions.md, 2026-12-05): a sync no edit started — the
    organizer's button — leaves no lane; the hidden edit reaches the site with the next edit (not
    bought back with reads of idle sheets)."""
    fake_server.drive_delay = 180
    t = _sheet(fake_server, account, tmp_path, "cup")
    keeping.tick()
    jobs.request_sync(t, "added")
    _keeper_minutes(clock, monkeypatch, 4)
    before = _total(t)
    # the organizer's button writes into the sheet as the service (as a draw or an evening does) and
    # asks for a sync, whose write then has something to write
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,2"]], start="I12", user=SA_EMAIL)
    _a_judge_types_during_the_next_sync(fake_server, monkeypatch, clock, t, "0,3")
    jobs.request_sync(t, "button")
    assert _total(t) == before + Decimal("0.2")
    fake_server.reset_counts()
    _keeper_minutes(clock, monkeypatch, 4)  # Drive names our write: nothing read
    assert _total(t) == before + Decimal("0.2") and fake_server.quota.file_reads == {}
    fake_server.set_values(t.spreadsheet_id, EDIT_TAB, [["0,4"]], start=EDIT_CELL)  # the next edit
    _keeper_minutes(clock, monkeypatch, 4)
    assert _total(t) == before + Decimal("0.9")
