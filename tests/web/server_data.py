"""A server's data folder made as a person's server would have it: ``python -m tests.web.server_data
DATA`` migrates the database in ``DATA``, signs up anna@example.org (password :data:`PASSWORD`)
and registers the bundled example (an Excel copy in ``DATA``) as her tournament ``gmo``, synced
once (its public site published). Run in a process of its own: the server's settings, not the
tests'."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

PASSWORD = "a long password 1"
EMAIL = "anna@example.org"


def make(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "sheets_sync.web.settings"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.web.jobs import SYNC, run_job
    from sheets_sync.web.models import Job, Membership, Tournament

    call_command("migrate", interactive=False, verbosity=0)
    user = get_user_model().objects.create_user(EMAIL, EMAIL, PASSWORD)
    workbook = data / "cup.xlsx"
    shutil.copy(EXAMPLE_PATH, workbook)
    tournament = Tournament.objects.create(slug="gmo", source=Tournament.EXCEL, path=str(workbook))
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    job = run_job(Job.objects.create(tournament=tournament, action=SYNC).pk)
    assert job.status == Job.DONE, job.result


if __name__ == "__main__":
    make(Path(sys.argv[1]).resolve())
