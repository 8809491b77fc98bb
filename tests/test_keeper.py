"""The keeper's pure rules (sheets_sync.keeper): the push debounce, the fast lane's plan and the
per-account budget's rolling minute — tables for the rules, Hypothesis for what must always hold."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_sync.keeper.budget import DRIVE, READ, WRITE, Budget, BudgetExhausted, MemoryStore, request_kind
from sheets_sync.keeper.hook import MAX_WAIT, QUIET, next_due
from sheets_sync.keeper.plan import RESERVE, SLACK, FastSheet, plan_polls

T0 = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)
S = timedelta(seconds=1)


@pytest.mark.parametrize("pending, now, expected", [
    (None, T0, (T0, T0 + QUIET)),                      # the first push: quiet time after it
    (T0, T0 + S, (T0, T0 + S + QUIET)),                # typing on: the quiet time moves
    (T0, T0 + 4 * S, (T0, T0 + MAX_WAIT)),             # but never past MAX_WAIT after the first
    (T0, T0 + 10 * S, (T0, T0 + MAX_WAIT)),
])
def test_next_due(pending, now, expected):
    assert next_due(pending, now) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=0.5, allow_nan=False), min_size=1, max_size=300))
def test_pushes_sync_within_max_wait_and_seldom(gaps):
    """Whatever the rhythm of pushes, each is synced within MAX_WAIT + the one-second sweep, and
    syncs start at most once per MAX_WAIT while pushes keep coming."""
    t, pending, due, syncs, unsynced = 0.0, None, None, [], []
    sweep = 1.0
    for gap in gaps + [MAX_WAIT.total_seconds() + 2]:  # the last gap: the judges stop, the sweeps go on
        while sweep <= t + gap:
            if due is not None and due <= sweep:
                syncs.append(sweep)
                assert all(sweep - p <= MAX_WAIT.total_seconds() + 1.0 for p in unsynced)
                pending, due, unsynced = None, None, []
            sweep += 1.0
        t += gap
        p, d = next_due(None if pending is None else T0 + timedelta(seconds=pending), T0 + timedelta(seconds=t))
        pending, due = (p - T0).total_seconds(), (d - T0).total_seconds()
        unsynced.append(t)
    assert len(syncs) <= sum(gaps) / MAX_WAIT.total_seconds() + 2


@pytest.mark.parametrize("method, url, kind", [
    ("get", "https://sheets.googleapis.com/v4/spreadsheets/abc", READ),
    ("GET", "https://sheets.googleapis.com/v4/spreadsheets/abc/values:batchGet", READ),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets/abc/values:batchGetByDataFilter", READ),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets/abc:batchUpdate", WRITE),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets/abc/values:batchUpdate", WRITE),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets", WRITE),
    ("get", "https://www.googleapis.com/drive/v3/changes", DRIVE),
    ("post", "https://www.googleapis.com/drive/v3/files/abc/permissions", DRIVE),
])
def test_request_kind(method, url, kind):
    assert request_kind(method, url) == kind


def test_plan_polls_due_sheets_oldest_first_within_the_budget():
    sheets = [FastSheet(1, "a", None), FastSheet(2, "a", 100.0), FastSheet(3, "a", 95.0), FastSheet(4, "b", 99.0),
              FastSheet(5, "b", 108.0)]
    assert plan_polls(sheets, {"a": RESERVE + 2, "b": RESERVE + 5}, now=110.0) == [1, 3, 4]  # 5 is not due
    assert plan_polls(sheets, {"a": RESERVE, "b": RESERVE + 1}, now=110.0) == [4]  # a keeps its reads for syncs
    assert plan_polls(sheets, {}, now=110.0) == []
    # polled 9.99… s ago (a time stored rounded): due in this round, not skipped to the next
    assert plan_polls([FastSheet(1, "a", 100.000001)], {"a": RESERVE + 1}, now=110.0) == [1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.one_of(st.none(), st.floats(0, 200))), max_size=40),
       st.dictionaries(st.sampled_from("abc"), st.integers(0, 80)), st.floats(0, 300))
def test_plan_polls_never_spends_the_reserve(rows, left, now):
    sheets = [FastSheet(i, account, polled) for i, (account, polled) in enumerate(rows)]
    chosen = plan_polls(sheets, left, now)
    assert len(chosen) == len(set(chosen))
    for account in "abc":
        mine = [k for k in chosen if sheets[k].account == account]
        assert len(mine) <= max(0, left.get(account, 0) - RESERVE)
    assert all(sheets[k].polled_at is None or now - sheets[k].polled_at >= 10 - SLACK for k in chosen)


class FakeTime:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 3), st.sampled_from([READ, WRITE])), min_size=1, max_size=400))
def test_the_budget_never_lets_more_than_the_limit_into_any_minute(requests):
    clock, store = FakeTime(), MemoryStore()
    budget = Budget(store, "a", clock=clock, sleep=clock.sleep, max_wait=120, limits={READ: 60, WRITE: 60, DRIVE: 1})
    sent: dict[str, list[float]] = {READ: [], WRITE: []}
    for gap, kind in requests:
        clock.t += gap
        budget.acquire(kind)
        sent[kind].append(clock.t)
    for times in sent.values():
        for i, start in enumerate(times):
            assert sum(1 for t in times[i:] if t < start + 60) <= 60


def test_past_max_wait_the_budget_gives_up():
    clock, store = FakeTime(), MemoryStore()
    budget = Budget(store, "a", clock=clock, sleep=clock.sleep, max_wait=5, limits={READ: 2, WRITE: 2, DRIVE: 2})
    budget.acquire(READ), budget.acquire(READ)
    with pytest.raises(BudgetExhausted):
        budget.acquire(READ)
    assert budget.left(READ) == 0 and budget.left(WRITE) == 2
    clock.t += 60
    budget.acquire(READ)


@pytest.mark.parametrize("status, text, stale", [
    (410, "", True),  # Google: a page token gone stale
    (400, '{"error": {"message": "Invalid Value", "errors": [{"location": "pageToken"}]}}', True),
    (400, "Invalid Value: page token '12'", True),
    (400, "Invalid field selection changes(fileId,bogus)", False),  # our own bad request: no full pass each minute
    (403, "pageToken", False),
    (500, "", False),
    (None, "", False),
])
def test_a_refused_page_token_is_told_from_other_errors(status, text, stale):
    from sheets_sync.keeper.drive import is_stale_token_answer

    assert is_stale_token_answer(status, text) is stale


# -- what a change of the Drive feed asks (issue 42 §4) ---------------------------------------------
SERVICE = "keeper@club.iam.gserviceaccount.com"
READ_AT = T0  # the last finished sync read the sheet then


@pytest.mark.parametrize("removed, by, at, last_read, kind", [
    (True, "judge@club.ru", T0 + 60 * S, READ_AT, "removed"),
    (False, SERVICE, T0 + 60 * S, READ_AT, "ours"),               # our write after the read: nothing
    (False, SERVICE.upper(), T0 + 60 * S, READ_AT, "ours"),
    (False, SERVICE, None, None, "ours"),
    (False, "org@club.ru", T0 - 30 * S, READ_AT, "seen"),         # the claim code typed before the first sync
    (False, "judge@club.ru", T0 - 2 * S, READ_AT, "seen"),        # dated the margin before the read
    (False, "judge@club.ru", T0 - S, READ_AT, "edit"),            # within the margin: a sync too many, never one missed
    (False, "judge@club.ru", T0, READ_AT, "edit"),
    (False, "judge@club.ru", T0 + S, READ_AT, "edit"),            # after the read: news
    (False, "judge@club.ru", None, READ_AT, "edit"),              # Drive did not date it
    (False, "judge@club.ru", T0 - 3600 * S, None, "edit"),        # never synced
    (False, None, T0 + S, READ_AT, "edit"),                       # nobody named: not ours
])
def test_change_kind(removed, by, at, last_read, kind):
    from sheets_sync.keeper.drive import Change, change_kind

    assert change_kind(Change("f", removed, by, at), SERVICE, last_read) == kind


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 600_000), st.floats(0, 1))
def test_a_change_after_the_read_is_never_taken_for_seen(after_ms, skew):
    """Our clock ahead of Google's by anything up to the margin: someone's edit made after the
    sync's read (by our clock) is never taken for one that read had."""
    from sheets_sync.keeper.drive import CLOCK_MARGIN, EDIT, Change, change_kind

    made = READ_AT + timedelta(milliseconds=after_ms)
    dated = made - CLOCK_MARGIN * skew  # Google's clock behind ours
    assert change_kind(Change("f", False, "judge@club.ru", dated), SERVICE, READ_AT) == EDIT


@pytest.mark.parametrize("text, expected", [
    ("2026-12-04T12:00:00.000Z", T0),
    ("2026-12-04T12:00:01.500Z", T0 + timedelta(seconds=1.5)),
    ("2026-12-04T15:00:00+03:00", T0),
    ("", None), (None, None), ("yesterday", None),
])
def test_drive_time(text, expected):
    from sheets_sync.keeper.drive import drive_time

    assert drive_time(text) == expected
