"""No page answers 500, and no Russian page shows English (issue 42 §8).

An organizer signs in through the sign-in form, has tournaments of every kind (the example Excel
workbook, a fresh one to draw, one ready for the semifinal, a club season, and a new tournament
made on the fake Google server through «Новый турнир»), presses every button of
:data:`sheets_sync.web.organizer.buttons.BUTTONS` the tournament shows — with valid fields and
with empty ones — and opens every page a press leads to (the job pages of every action, done
and failed), every link of those pages (the crawl of :mod:`tests.web.crawl`), the lists, the
members and an invitation, the public sites, the error pages. Every GET is then opened again in
English. A finding is an answer 5xx, or a Latin word on a Russian page that is neither a name
nor part of an id.
"""

from __future__ import annotations

import itertools
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from sheets_sync.web import jobs, throttle
from sheets_sync.web.models import Invitation, Job, Tournament
from sheets_sync.web.organizer.buttons import BUTTONS, Known, buttons_for
from tests.google_support import fake_server, sa_key  # noqa: F401 - fixtures
from tests.web.crawl import Crawler, english_words
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    excel_tournament,
    google_account,
    member,
    organizer,
    players_csv,
    private_data,
    qualified_tournament,
)

pytestmark = pytest.mark.django_db

PASSWORD = "a long password 1"  # organizer_support's organizer
# a button's fields a person would type (the draw searches a second: the crawl is not about the draw)
VALID = {"sync": {}, "draw": {"seed": "1", "time_limit": "1"}, "advance": {"seed": "1"},
         "replace": {"player": "Игрок 01"}, "evening": {"date": "2026-12-04", "games": "4", "tables": "1"},
         "vk": {}, "mwt": {}, "protocols": {"round": "1"}, "seating": {"round": "1"}}
# a button pressed once more with its box ticked (the judges' QR on the seating posters: off by default)
TICKED = {"seating": {"round": "1", "judge_qr": "1"}}


def names_given() -> set[str]:
    """The words of the tournaments' names (the example is «German Mafia Open») and their addresses
    (a tournament without a title yet is called by it): names, not English."""
    from sheets_sync.presets import known_presets

    given = {word for title, slug in Tournament.objects.values_list("title", "slug") for word in [*title.split(), slug]}
    return given | set(known_presets()) | {"German", "Open"}  # presets by their ids; gmo-2016 is «German Mafia Open»


@pytest.fixture
def crawler(organizer) -> Crawler:
    """The organizer signed in through the sign-in form, in Russian (the browser's default here)."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    crawl = Crawler(client, names=names_given)
    crawl.open(reverse("login"))
    crawl.post(reverse("login"), {"username": "Anna@Example.org", "password": PASSWORD})
    assert "_auth_user_id" in client.session
    return crawl


def test_the_crawlers_english_check_tells_a_sentence_from_names_and_ids():
    words = ("Ошибка: spreadsheet 1AbC_dEf does not exist · Google · anna@x.org · vk-post.png · 12:30 · "
             "sheets-sync · Excel-файл").split()
    assert english_words(words) == ["spreadsheet", "does", "not", "exist"]


def chosen(tournament: Tournament, action: str) -> dict:
    """A button's valid fields; the late player one of those the page offers (issue 43 §6: a list of
    the seated, not a name typed), as a person picks."""
    offered = Known.of(Tournament.objects.get(pk=tournament.pk), "ru").late_players
    return {"player": offered[0]} if action == "replace" and offered else VALID[action]


def press_every_button(crawl: Crawler, tournament: Tournament) -> set[str]:
    """Every button the tournament shows, with valid fields and with empty ones (and its box ticked), and what follows
    each press; the statuses its jobs ended in."""
    crawl.open(reverse("tournament", args=[tournament.slug]))
    for button in buttons_for(tournament):
        ticked = [TICKED[button.action]] if button.action in TICKED else []
        for fields in (chosen(tournament, button.action), {}, *ticked):
            crawl.post(reverse("press", args=[tournament.slug, button.action]), fields)
    for job in Job.objects.filter(tournament=tournament):  # each job page and its status, done or failed
        crawl.open(reverse("job", args=[tournament.slug, job.pk]))
        crawl.open(reverse("job_status", args=[tournament.slug, job.pk]))
    crawl.open(reverse("tournament_status", args=[tournament.slug]))
    crawl.open(reverse("tournament", args=[tournament.slug]))
    return set(Job.objects.filter(tournament=tournament).values_list("status", flat=True))


def again_in_english(crawl: Crawler) -> None:
    """Every page opened so far, in English (no 500 in either language)."""
    pages = [url for url in crawl.seen if not url.startswith("POST ")]
    crawl.client.get("/?lang=en")
    crawl.language = "en"
    for url in pages:
        crawl.check(url, crawl.client.get(url))


def new_workbook(folder, organizer, slug: str, *, season: bool = False) -> Tournament:
    """A tournament (20 players) or a club season (12) just made by ``init``, nothing typed."""
    from sheets_sync.actions.init import init_workbook

    folder.mkdir()
    path = folder / f"{slug}.xlsx"
    init_workbook(str(path), players_csv=players_csv(folder, 12 if season else 20),
                  preset_ref="club-season" if season else "gmo-2016", name="Клуб" if season else "Кубок",
                  language="ru", season=season)
    kind = Tournament.SEASON if season else Tournament.TOURNAMENT
    return member(Tournament.objects.create(slug=slug, kind=kind, source=Tournament.EXCEL, path=str(path)), organizer)


def test_every_button_of_every_excel_tournament_and_every_page_it_leads_to(crawler, organizer, excel_tournament,
                                                                           qualified_tournament, tmp_path,
                                                                           monkeypatch):
    monkeypatch.setattr(throttle, "clock", itertools.count(time.time(), 60.0).__next__)  # a minute between
    # presses: the press limit (test_limits.py) would refuse the walk's 11th press in a row
    fresh_tournament = new_workbook(tmp_path / "fresh", organizer, "cup")
    season = new_workbook(tmp_path / "season", organizer, "club", season=True)
    statuses = set()
    for tournament in (excel_tournament, fresh_tournament, qualified_tournament, season):
        statuses |= press_every_button(crawler, tournament)
    crawler.open(reverse("tournaments"))
    assert {Job.DONE, Job.FAILED} <= statuses  # pages of jobs done and of jobs refused were both opened
    assert set(BUTTONS) <= {j.action for j in Job.objects.all()}  # every button was pressed somewhere
    assert any(url.startswith("/t/gmo/") and status == 200 for url, status in crawler.seen.items())
    again_in_english(crawler)
    assert crawler.findings == [], "\n".join(crawler.findings)


def test_a_new_google_tournament_its_buttons_and_pages(crawler, google_account, fake_server, settings):
    settings.SERVICE_ACCOUNTS = google_account.key_file
    crawler.open(reverse("new_tournament"))
    crawler.post(reverse("new_tournament"), {})  # every field empty
    players = "\n".join(f"Игрок {n:02d}" for n in range(1, 21))
    crawler.post(reverse("new_tournament"), {"name": "Кубок осени", "kind": "tournament", "preset": "gmo-2016",
                                             "language": "ru", "players": players})
    tournament = Tournament.objects.get(source=Tournament.GOOGLE)
    statuses = press_every_button(crawler, tournament)
    assert {Job.DONE, Job.FAILED} <= statuses
    again_in_english(crawler)
    assert crawler.findings == [], "\n".join(crawler.findings)


def test_the_lists_members_invitations_and_adding_a_sheet(crawler, organizer, excel_tournament, google_account,
                                                          fake_server):
    crawler.open(reverse("tournaments"))
    crawler.open(reverse("add_sheet"))
    for link in ("", "not a link", "https://docs.google.com/spreadsheets/d/" + "x" * 201 + "/edit",
                 "gsheet:" + "1" * 44):
        crawler.post(reverse("add_sheet"), {"link": link})
    members = reverse("members", args=[excel_tournament.slug])
    crawler.open(members)
    crawler.post(members, {"action": "invite", "email": ""})
    crawler.post(members, {"action": "invite", "email": "boris@example.org"})
    crawler.post(members, {"action": "nothing"})
    invitation = Invitation.objects.get()
    guest = get_user_model().objects.create_user("boris@example.org", "boris@example.org", PASSWORD)
    crawler.client.force_login(guest)
    crawler.open(reverse("accept_invitation", args=[invitation.token]))
    crawler.post(reverse("accept_invitation", args=[invitation.token]), {})
    crawler.post(reverse("accept_invitation", args=[invitation.token]), {})  # used up: says so
    crawler.open(reverse("tournaments"))
    again_in_english(crawler)
    assert crawler.findings == [], "\n".join(crawler.findings)


def test_the_pages_before_signing_in_and_the_error_pages(db, excel_tournament):
    crawl = Crawler(Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru"), names=names_given)
    for name in ("login", "signup", "password_reset", "password_reset_done", "password_reset_complete"):
        crawl.open(reverse(name))
    crawl.post(reverse("signup"), {})
    crawl.post(reverse("login"), {})
    crawl.post(reverse("password_reset"), {"email": ""})
    crawl.open(reverse("password_reset_confirm", args=["MQ", "nothing-here"]))
    crawl.open(reverse("tournaments"))  # to the sign-in
    crawl.open("/no/such/page/")
    crawl.open(reverse("public_site", args=["no-such-tournament"]))
    crawl.open(reverse("public_site", args=[excel_tournament.slug]))  # not synced yet
    crawl.open(reverse("accept_invitation", args=["no-such-token"]))
    stale = Client(enforce_csrf_checks=True, raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    crawl.check("POST /login/ without its token", stale.post(reverse("login"), {"username": "x", "password": "y"}))
    crawl.check("POST /hook/ without a secret", crawl.client.post(reverse("hook", args=["x" * 44]), {}))
    assert {code for url, code in crawl.seen.items() if url.startswith("POST /login/ without")} == {403}
    assert crawl.seen["/no/such/page/"] == 404
    again_in_english(crawl)
    assert crawl.findings == [], "\n".join(crawl.findings)



def test_a_finished_syncs_job_page_shows_its_counts(crawler, excel_tournament):
    """«Последние задачи» links every sync's page; a sync's result counts files and warnings."""
    crawler.post(reverse("press", args=[excel_tournament.slug, "sync"]), {})
    job = Job.objects.get(tournament=excel_tournament, action="sync", status=Job.DONE)
    assert isinstance(job.result["warnings"], int) and isinstance(job.result["files"], int)
    html = crawler.client.get(reverse("job", args=[excel_tournament.slug, job.pk])).content.decode()
    assert f"замечания: {job.result['warnings']}" in html
    assert crawler.findings == [], "\n".join(crawler.findings)


def test_registrations_pages_every_press_and_every_page_it_leads_to(crawler, organizer, tmp_path, monkeypatch):
    """Issue 45's pages: the organizer's applications and check-in (every state button, the code,
    a tick, a deletion), the public form (filled, empty, a near-duplicate), the player's own page
    (the excused round, a bad round, withdrawing) and the self check-in (right and wrong code) —
    no 500, no English on a Russian page, in both languages."""
    from sheets_sync.actions.init import init_workbook
    from sheets_sync.web.models import Application
    from tests.web.registration_support import FORM, open_form

    monkeypatch.setattr(throttle, "clock", itertools.count(time.time(), 3600.0).__next__)  # the form's limit
    path = tmp_path / "open.xlsx"
    init_workbook(str(path), players_csv=players_csv(tmp_path, 10), preset_ref="gmo-2016", name="Кубок", language="ru",
                  registration=True, places=12)
    tournament = open_form(member(Tournament.objects.create(slug="open", source=Tournament.EXCEL, path=str(path)),
                                  organizer))
    public = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    crawler.open(reverse("apply", args=["open"]))
    for n, fields in enumerate(({**FORM}, {}, {**FORM, "nickname": "Пумa"}, {**FORM, "nickname": "Рысь", "telegram": "",
                                                                                 "email": "lynx@example.org"})):
        crawler.post(reverse("apply", args=["open"]), fields, REMOTE_ADDR=f"10.0.0.{n + 1}")
    jobs.request_sync(tournament, "test")
    puma = Application.objects.get(tournament=tournament, nickname="Пума")
    crawler.open(reverse("tournament", args=["open"]))
    applications, checkin = reverse("applications", args=["open"]), reverse("checkin_list", args=["open"])
    crawler.open(applications)
    for state in ("confirmed", "paid", "waiting", "withdrawn", "submitted", "no such state"):
        crawler.post(applications, {"action": "state", "application": puma.pk, "state": state})
    crawler.post(applications, {"action": "close"})
    crawler.post(applications, {"action": "open"})
    crawler.post(checkin, {"action": "code"})
    crawler.post(checkin, {"action": "arrived", "nickname": "Игрок 01"})
    crawler.post(checkin, {"action": "arrived", "nickname": "никто"})
    me = reverse("my_application", args=[puma.token])
    crawler.client = public  # the player's pages as the player opens them: no organizer signed in
    crawler.open(me)
    for fields in ({"action": "excuse", "round": "2"}, {"action": "excuse", "round": "99"}, {"action": "withdraw"}):
        crawler.post(me, fields)
    code = Tournament.objects.get(pk=tournament.pk).checkin_code
    for fields in ({"nickname": "Игрок 02", "code": code}, {"nickname": "Игрок 02", "code": "000000"}, {}):
        crawler.post(reverse("self_checkin", args=["open"]), fields)
    crawler.open(reverse("my_application", args=["not-a-token"]))
    again_in_english(crawler)
    crawler.client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    crawler.client.force_login(organizer)
    crawler.language = "ru"
    crawler.post(applications, {"action": "delete", "application": puma.pk})
    assert not Application.objects.filter(pk=puma.pk).exists()
    assert crawler.seen[me] == 200 and crawler.seen[f"POST {applications}"] in (200, 302)
    assert crawler.findings == [], "\n".join(crawler.findings)
