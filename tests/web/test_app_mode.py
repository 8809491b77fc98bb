"""App mode's pieces (sheets-sync app; end to end in test_server_command.py): the folder's
workbooks registered once each, the local organizer signed in only from this computer and only
in app mode, the start page listing the folder's tournaments, a season found to be one."""

from __future__ import annotations

import shutil

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.test import RequestFactory

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web import app_mode
from sheets_sync.web.models import Membership, Tournament
from tests.web.organizer_support import players_csv, private_data  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def folder(tmp_path, private_data):
    from sheets_sync.actions.init import init_workbook

    shutil.copy(EXAMPLE_PATH, tmp_path / "Кубок 2026.xlsx")
    init_workbook(str(tmp_path / "club.xlsx"), players_csv=players_csv(tmp_path, 12), preset_ref="club-season",
                  name="Клуб", language="ru", season=True)
    (tmp_path / "~$club.xlsx").write_bytes(b"lock")  # Excel's lock file is no workbook
    return tmp_path


def test_every_workbook_of_the_folder_once_with_a_sync(folder):
    first = app_mode.register_folder(folder)
    again = app_mode.register_folder(folder)
    assert sorted(t.slug for t in first) == sorted(t.slug for t in again) == ["club", "kubok-2026"]
    assert Tournament.objects.count() == 2
    user = app_mode.local_organizer()
    assert Membership.objects.filter(user=user).count() == 2 and not user.has_usable_password()
    kinds = {Tournament.objects.get(pk=t.pk).path.rsplit("/", 1)[-1]: Tournament.objects.get(pk=t.pk).kind
             for t in first}
    assert kinds == {"Кубок 2026.xlsx": Tournament.TOURNAMENT, "club.xlsx": Tournament.SEASON}  # found by the sync


def _through_middleware(settings, address: str, mode: str):
    settings.MODE = mode
    request = RequestFactory().get("/app/", REMOTE_ADDR=address)
    SessionMiddleware(lambda r: HttpResponse()).process_request(request)
    request.user = AnonymousUser()
    seen = {}

    def view(req):
        seen["user"] = req.user
        return HttpResponse()

    app_mode.LocalOrganizer(view)(request)
    return seen["user"]


def test_the_local_organizer_only_from_this_computer_and_only_in_app_mode(settings, private_data):
    assert _through_middleware(settings, "127.0.0.1", "app").username == app_mode.LOCAL_ORGANIZER
    assert _through_middleware(settings, "::1", "app").is_authenticated
    assert not _through_middleware(settings, "192.168.1.20", "app").is_authenticated
    assert not _through_middleware(settings, "127.0.0.1", "server").is_authenticated


def test_the_start_page_lists_the_folders_tournaments(client, settings, folder):
    settings.MODE, settings.APP_FOLDER = "app", str(folder)
    app_mode.register_folder(folder)
    client.force_login(app_mode.local_organizer())
    html = client.get("/app/").content.decode()
    assert "/o/kubok-2026/" in html and "/o/club/" in html
    settings.MODE = "server"
    assert client.get("/app/").status_code == 404  # the server has its own list


def test_a_league_workbook_is_no_tournament_and_an_older_registration_of_it_is_dropped(folder):
    from tests.web.test_app_folder import _league

    _league(folder)
    league = folder / "league.xlsx"
    old = Tournament.objects.create(slug="league", title="league", source=Tournament.EXCEL, path=str(league.resolve()))
    registered = app_mode.register_folder(folder)
    assert "league" not in {t.slug for t in registered} and not Tournament.objects.filter(pk=old.pk).exists()
    assert app_mode.leagues_in(folder) == [league]
    assert app_mode.FolderWatch.saw(league) is None  # a save of it (the league's own run) registers nothing
    assert not Tournament.objects.filter(path=str(league.resolve())).exists()


def test_a_new_workbook_seen_in_the_folder_is_registered_once(folder):
    app_mode.register_folder(folder)
    shutil.copy(EXAMPLE_PATH, folder / "Второй кубок.xlsx")
    made = app_mode.FolderWatch.saw(folder / "Второй кубок.xlsx")
    assert made.slug == "vtoroi-kubok" and app_mode.FolderWatch.saw(folder / "Второй кубок.xlsx").pk == made.pk
    assert Membership.objects.filter(user=app_mode.local_organizer(), tournament=made).exists()


def test_the_new_workbooks_file_name_is_the_name_as_written(tmp_path):
    assert app_mode.new_workbook_path(tmp_path, "Кубок: осень/зима?") == tmp_path / "Кубок осень зима.xlsx"
    (tmp_path / "Кубок.xlsx").write_bytes(b"")
    assert app_mode.new_workbook_path(tmp_path, "Кубок") == tmp_path / "Кубок (2).xlsx"
    assert app_mode.new_workbook_path(tmp_path, "...") == tmp_path / "tournament.xlsx"
