"""The server's signal after a sync (sheets_sync.web.signals): sent with what the sync computed, and
a receiver's failure never fails the sync."""

from __future__ import annotations

import pytest

from sheets_sync.web import jobs
from sheets_sync.web.models import Job
from sheets_sync.web.signals import sync_finished
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401


@pytest.mark.django_db
def test_a_sync_tells_its_outcome_and_a_failing_receiver_does_not_fail_it(fresh_tournament, caplog):
    heard = []

    def hear(sender, tournament, outcome, snapshot, **kw):
        heard.append((tournament.slug, len(outcome.results.tournament.players), bool(snapshot.tabs)))

    def fail(sender, **kw):
        raise RuntimeError("a receiver's bug")

    sync_finished.connect(hear, dispatch_uid="test-hear")
    sync_finished.connect(fail, dispatch_uid="test-fail")
    try:
        job = jobs.request_sync(fresh_tournament, "test")
    finally:
        sync_finished.disconnect(dispatch_uid="test-hear")
        sync_finished.disconnect(dispatch_uid="test-fail")
    assert Job.objects.get(pk=job.pk).status == Job.DONE
    assert heard == [("cup", 20, True)]
    assert "a receiver's bug" in caplog.text
