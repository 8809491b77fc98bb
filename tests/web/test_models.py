"""The web app's database: the migrations build it, and a service account keeps a path, not a key."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from sheets_sync.web.models import ServiceAccount, Tournament


@pytest.mark.django_db
def test_the_migrations_are_complete():
    """A model changed without its migration fails here (makemigrations --check)."""
    call_command("makemigrations", "web", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_a_tournament_keeps_its_sheet_and_account(tmp_path):
    account = ServiceAccount.objects.create(email="sa@x.iam.gserviceaccount.com", key_file=str(tmp_path / "key.json"))
    t = Tournament.objects.create(slug="cup-2026", title="Кубок", spreadsheet_id="abc", account=account)
    assert Tournament.objects.get(slug="cup-2026").account.email == "sa@x.iam.gserviceaccount.com"
    assert t.needs_sync and not t.share_lost
