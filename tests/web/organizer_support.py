"""Fixtures of the organizer pages' tests: an organizer signed in, a tournament of theirs on the
bundled example (Excel) or on the fake Google server, a fresh tournament to draw."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from sheets_sync.web.models import Membership, ServiceAccount, Tournament

__all__ = ["private_data", "organizer", "signed_in", "excel_tournament", "fresh_workbook", "fresh_tournament", "member",
           "google_account", "players_csv", "qualified_workbook", "qualified_tournament"]


@pytest.fixture
def private_data(settings, tmp_path):
    """A data folder of the test's own: the outputs live in DATA/sites/<pk>, and a rolled-back
    test database gives the next test's tournament the same pk."""
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    return settings.DATA_DIR


@pytest.fixture
def organizer(db, private_data):
    return get_user_model().objects.create_user("anna@example.org", "anna@example.org", "a long password 1")


@pytest.fixture
def signed_in(client, organizer):
    client.force_login(organizer)
    return client


def member(tournament: Tournament, user) -> Tournament:
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    return tournament


@pytest.fixture
def excel_tournament(example, organizer) -> Tournament:
    return member(Tournament.objects.create(slug="gmo", source=Tournament.EXCEL, path=str(example)), organizer)


def players_csv(folder: Path, n: int) -> Path:
    path = folder / "players.csv"
    path.write_text("Ник,Клуб\n" + "".join(f"Игрок {i:02d},Клуб {i % 5}\n" for i in range(1, n + 1)), encoding="utf-8")
    return path


@pytest.fixture
def fresh_workbook(tmp_path) -> Path:
    """A tournament just created by ``init`` (20 players, nothing typed): a draw may be made again."""
    from sheets_sync.actions.init import init_workbook

    path = tmp_path / "cup.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 20), preset_ref="gmo-2016", name="Кубок",
                  language="ru")
    return path


@pytest.fixture
def fresh_tournament(fresh_workbook, organizer) -> Tournament:
    return member(Tournament.objects.create(slug="cup", source=Tournament.EXCEL, path=str(fresh_workbook)), organizer)


@pytest.fixture
def google_account(sa_key, fake_server, settings, monkeypatch) -> ServiceAccount:
    """The service account of the fake server; the web app and the exports both talk to the fake."""
    settings.GOOGLE_ENDPOINT = fake_server.url
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", fake_server.url)
    from tests.google_support import SA_EMAIL

    return ServiceAccount.objects.create(email=SA_EMAIL, key_file=sa_key)


def qualified_workbook(path: Path, players: int = 40, seed: int = 1) -> Path:
    """A tournament whose 7 qualifying rounds are all typed: the semifinal can be seated."""
    import random

    from scoring.model import Player
    from scoring.simulate import simulate_game
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.workbook.layout import protocol_title
    from sheets_sync.presets import load_preset
    from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch

    preset, _ = load_preset("gmo-2016")
    names = [f"Игрок {i:02d}" for i in range(1, players + 1)]
    seating = simple_seating(names, "qualifying", 7)
    rng = random.Random(seed)
    protocols = [simulate_game(list(e.players), stage=e.stage, round_no=e.round, table=e.table, preset=preset, rng=rng,
                               sheet=protocol_title(preset, e.stage, e.round, e.table, "ru")) for e in seating]
    patch = workbook_patch(name="Кубок города", preset=preset, language="ru", players=[Player(nickname=n) for n in names],
                           seating=seating, protocols=protocols)
    ExcelBackend(path).apply(patch, base=None)
    return path


@pytest.fixture
def qualified_tournament(tmp_path, organizer) -> Tournament:
    path = qualified_workbook(tmp_path / "qualified.xlsx")
    return member(Tournament.objects.create(slug="qualified", source=Tournament.EXCEL, path=str(path)), organizer)
