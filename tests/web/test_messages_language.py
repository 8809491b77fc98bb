"""Every message a page shows is in the page's language, with no command-line flag (issue 42 §8).

Google's answers (a sheet that does not exist, one not shared, a storm of 503s, no connection)
come from the backend in both languages; the web says an action's refusal in its own words — the
field to tick, not ``--force``; the server's full disk, not ``--out ПАПКА`` — and a form refuses
what was typed in the page's language, not in Django's English."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.errors import SheetsSyncError
from sheets_sync.backends.base import PermissionDenied, TransientError, WorkbookLocked, WorkbookNotFound
from sheets_sync.messages import MESSAGES
from sheets_sync.web.models import Job
from sheets_sync.web.refusals import said
from sheets_sync.web.words import WORDS
from tests.google_support import fake_server, google_backend, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    google_account,
    member,
    organizer,
    players_csv,
    private_data,
    signed_in,
)

pytestmark = pytest.mark.django_db

FLAG = re.compile(r"(?<![\w-])--[a-z]")
COMMAND = re.compile(r"sheets-sync (init|sync|evening|watch|league|export)\b")
# messages only the command line says (a page never reaches them), with why
CLI_ONLY = {
    "ref.not_xlsx": "WORKBOOK typed on the command line",
    "init.exists": "the web makes a new spreadsheet, or fills a proved empty one with force",
    "init.share_with_file": "the web's tournaments are Google's, shared by the server",
    "init.season_created": "the web says «new.done»",
    "init.reserves_added": "init's report to the terminal",
    "init.name_default": "the command line's init without --name; the web's form asks for the name",
    "init.owner_note": "the web shares the new sheet with the organizer",
    "init.not_empty": "the web fills a proved empty sheet with force",
    "init.players_or_registration": "the web's form refuses first: «new.no_players» (players or registration)",
    "report.locked": None,  # has its twin: refusal.report.locked
    "serve.cannot_listen": "watch --serve",
    "report.strict": "sync --strict's exit code",
    "league.created": "sheets-sync league --init",
}


def test_every_message_that_names_a_flag_has_the_webs_own_words_or_is_the_command_lines_only():
    with_flags = {key for key, (ru, en) in MESSAGES.items() if FLAG.search(ru + en) or COMMAND.search(ru + en)}
    without = {key for key in with_flags if f"refusal.{key}" not in WORDS and not CLI_ONLY.get(key)}
    assert without == set(), f"say these on the web without a flag (wording/refusals.py) or list them: {without}"
    for key in WORDS:
        if key.startswith("refusal.") and not key.startswith("refusal.kind."):
            ru, en = WORDS[key]
            assert not FLAG.search(ru + en) and not COMMAND.search(ru + en), key


def test_googles_answers_come_in_russian_too(fake_server, sa_key):
    from tests.google_support import fake_http_client

    missing = google_backend(fake_server, sa_key, "1" * 44)
    with pytest.raises(WorkbookNotFound) as gone:
        missing.read()
    assert "не найдена" in gone.value.message("ru") and "does not exist" in str(gone.value)

    sid = fake_server.create_spreadsheet("Чужая", tabs={"Лист1": [["x"]]}, shared_with={"owner@example.com"})
    with pytest.raises(PermissionDenied) as refused:
        google_backend(fake_server, sa_key, sid).read()
    assert "нет доступа к таблице" in refused.value.message("ru") and "«Редактор»" in refused.value.message("ru")

    ours = fake_server.create_spreadsheet("Наша", tabs={"Лист1": [["x"]]})
    fake_server.storm(503, 10)
    with pytest.raises(TransientError) as busy:
        google_backend(fake_server, sa_key, ours, max_retries=1).read()
    assert "заняты или сбоят (HTTP 503" in busy.value.message("ru") and "retries exhausted" in str(busy.value)

    from sheets_sync.backends.google import GoogleBackend

    client = fake_http_client(fake_server, sa_key, max_retries=0)
    client.session.endpoint = "http://127.0.0.1:9"  # nothing listens there
    with pytest.raises(TransientError) as unreachable:
        GoogleBackend(f"gsheet:{ours}", http_client=client).read()
    assert "нет связи с Google Таблицами" in unreachable.value.message("ru")


@pytest.mark.parametrize("exc, ru, en", [
    (PermissionDenied("no access to spreadsheet 1x: open it in Google Sheets (Google said: The caller does not have "
                      "permission)", ru="нет доступа к таблице 1x: … (ответ Google: The caller does not have permission)"),
     None, None),
    (WorkbookLocked("another program kept cup.xlsx locked for 10 s"), "открыта в другой программе", "another program"),
    (SheetsSyncError("something new and English"), "не выполнено", "something new and English"),
])
def test_a_page_never_shows_english_on_a_russian_page(exc, ru, en):
    """An error that came without Russian words is said in Russian by its kind."""
    if ru is None:
        assert said(exc, "ru") == exc.ru
        return
    assert ru in said(exc, "ru") and en in said(exc, "en")


def test_a_refused_draw_names_the_field_to_tick_not_the_flag(signed_in, excel_tournament):
    signed_in.post(reverse("press", args=[excel_tournament.slug, "draw"]), {"seed": 1, "time_limit": 1})
    job = Job.objects.get(tournament=excel_tournament, action="draw")
    assert job.status == Job.FAILED
    for lang, field in (("ru", "даже если протоколы уже заполнены"), ("en", "even if protocols are filled")):
        html = signed_in.get(reverse("job", args=["gmo", job.pk]), {"lang": lang}).content.decode()
        failure = re.search(r'id="job-failure">(.+?)</div>', html, re.S).group(1)
        assert f"«{field}»" in failure and "--force" not in failure


def test_an_evening_already_there_says_to_choose_another_date(signed_in, organizer, tmp_path):
    from sheets_sync.actions.init import init_workbook
    from sheets_sync.web.models import Tournament

    path = tmp_path / "club.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 12), preset_ref="club-season", name="Клуб",
                  language="ru", season=True)
    season = member(Tournament.objects.create(slug="club", kind=Tournament.SEASON, source=Tournament.EXCEL,
                                              path=str(path)), organizer)
    for _ in range(2):
        signed_in.post(reverse("press", args=["club", "evening"]), {"date": "2026-12-04", "games": 4})
    refused = Job.objects.filter(tournament=season, action="evening", status=Job.FAILED).get()
    assert "выберите другую дату" in refused.result["messages"]["ru"] and "--date" not in str(refused.result)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, said_", [("ru", "Заполните это поле"), ("en", "Fill in this field")])
def test_djangos_own_form_messages_are_in_the_pages_language(lang, said_):
    client = Client()
    for name in ("login", "password_reset", "signup"):
        html = client.post(reverse(name) + f"?lang={lang}", {"email": ""}).content.decode()  # every field empty
        assert said_ in html and "This field is required" not in html, name
