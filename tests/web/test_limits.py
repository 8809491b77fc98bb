"""Rate limits per organizer and address (issue 42 §3), each through the Django test client: the
password reset's letters per e-mail and per client address, invitations per organizer, new claim
codes per organizer and hour, the pause between claim checks, button presses (a burst, then a short
wait) and a second draw/export while the first waits (its page shown, no twin queued). Each limit
is said in Russian (and English) with when to try again, and kept in the database, so two web
processes share it (two real `sheets-sync server` processes on one data folder)."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from sheets_sync.web import throttle
from sheets_sync.web.models import Claim, Invitation, Job, Membership, ServiceAccount, Tournament
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key  # noqa: F401 - fixtures
from tests.web.organizer_support import excel_tournament, organizer, private_data, signed_in  # noqa: F401
from tests.web.test_accounts import example_sheet, google, start_claim  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

PASSWORD = "Korova-2026-mafia"


@pytest.fixture
def later(monkeypatch):
    """The limits' clock, moved by the test instead of waiting."""
    import time

    moment = [time.time()]
    monkeypatch.setattr(throttle, "clock", lambda: moment[0])

    def move(seconds: float) -> None:
        moment[0] += seconds
    return move


def reset(client: Client, email: str, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def alert(response) -> str:
    found = re.search(r'role="alert"[^>]*>(.+?)</p>', response.content.decode(), re.S)
    return found.group(1) if found else ""


def said(response) -> str:
    """The messages of the page a refusal redirected to (Django's messages framework)."""
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


# -- the password reset's letters ---------------------------------------------------------------------
def test_reset_letters_to_one_address_stop_after_three_an_hour_and_say_when(mailoutbox, later):
    get_user_model().objects.create_user("anna@club.ru", "anna@club.ru", PASSWORD)
    client = Client()
    for _ in range(3):
        assert reset(client, "anna@club.ru").status_code == 302
    refused = reset(client, "Anna@Club.ru")  # the same address in another case
    assert refused.status_code == 429 and len(mailoutbox) == 3
    assert "уже отправлялось несколько раз" in alert(refused) and "через 20 минут" in alert(refused)
    english = reset(client, "anna@club.ru", HTTP_ACCEPT_LANGUAGE="en")
    assert "in 20 minutes" in alert(english)
    assert reset(client, "boris@club.ru").status_code == 302  # another address is not held back
    later(20 * 60)
    assert reset(client, "anna@club.ru").status_code == 302 and len(mailoutbox) == 4


def test_an_unknown_address_is_limited_alike_so_the_limit_tells_nothing(mailoutbox, later):
    client = Client()
    answers = [reset(client, "nobody@club.ru").status_code for _ in range(4)]
    assert answers == [302, 302, 302, 429] and not mailoutbox


def test_reset_requests_from_one_client_address_stop_after_ten_an_hour(mailoutbox, later):
    client = Client()
    answers = [reset(client, f"person{n}@club.ru", REMOTE_ADDR="203.0.113.7").status_code for n in range(11)]
    assert answers == [302] * 10 + [429]
    refused = reset(client, "another@club.ru", REMOTE_ADDR="203.0.113.7")
    assert "С вашего адреса в сети слишком часто" in alert(refused) and "через 6 минут" in alert(refused)
    assert reset(client, "another@club.ru", REMOTE_ADDR="198.51.100.1").status_code == 302


# -- invitations -----------------------------------------------------------------------------------
def test_an_organizer_sends_twenty_invitations_an_hour_then_is_told_when_more(signed_in, excel_tournament,
                                                                               mailoutbox, later):
    members = reverse("members", args=[excel_tournament.slug])
    for n in range(20):
        signed_in.post(members, {"action": "invite", "email": f"co{n}@club.ru"})
    refused = signed_in.post(members, {"action": "invite", "email": "co20@club.ru"}, follow=True)
    assert "много приглашений" in said(refused) and "через 3 минуты" in said(refused)
    assert Invitation.objects.count() == len(mailoutbox) == 20
    later(180)
    signed_in.post(members, {"action": "invite", "email": "co20@club.ru"})
    assert Invitation.objects.count() == len(mailoutbox) == 21


# -- claims ------------------------------------------------------------------------------------------
def test_ten_new_claim_codes_an_hour_and_a_started_ones_code_shown_again_at_any_time(signed_in, later):
    ServiceAccount.objects.create(email=SA_EMAIL, key_file="/nonexistent.json")
    sheets = [f"1Sheet{n:02d}" + "x" * 30 for n in range(11)]
    for sid in sheets[:10]:
        assert 'id="claim-code"' in signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{sid}"}).content.decode()
    refused = signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{sheets[10]}"})
    assert "много новых кодов" in alert(refused) and "через 6 минут" in alert(refused)
    assert Claim.objects.count() == 10
    again = signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{sheets[0]}"}).content.decode()
    assert Claim.objects.get(spreadsheet_id=sheets[0]).code in again
    later(360)
    assert 'id="claim-code"' in signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{sheets[10]}"}).content.decode()


def test_the_pause_between_checks_is_kept_in_the_database_not_in_one_process_cache(google, example_sheet):
    from tests.web.test_accounts import signed_in as signed_in_as

    client, _ = signed_in_as("anna@club.ru")
    claim = start_claim(client, example_sheet)
    client.post(reverse("add_sheet"), {"claim": claim.pk})  # the code is not typed yet: refused, counted
    cache.clear()  # another web process has a cache of its own
    google.reset_counts()
    page = client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    assert "подождите 5 секунд" in page and google.request_count == 0


# -- button presses -------------------------------------------------------------------------------------
def press(client, tournament, action, **fields):
    return client.post(reverse("press", args=[tournament.slug, action]), fields)


def test_ten_presses_at_once_then_one_each_six_seconds(signed_in, excel_tournament, later):
    for _ in range(10):
        assert press(signed_in, excel_tournament, "sync").status_code == 302
    jobs_before = Job.objects.count()
    refused = press(signed_in, excel_tournament, "vk")
    assert refused["Location"] == reverse("tournament", args=[excel_tournament.slug])
    page = signed_in.get(refused["Location"])
    assert "Слишком много нажатий подряд" in said(page) and "через 6 секунд" in said(page)
    assert Job.objects.count() == jobs_before  # nothing queued
    english = signed_in.post(reverse("press", args=[excel_tournament.slug, "vk"]) + "?lang=en")
    assert "in 6 seconds" in said(signed_in.get(english["Location"]))
    later(6)
    assert press(signed_in, excel_tournament, "vk")["Location"].startswith(f"/o/{excel_tournament.slug}/jobs/")
    assert Job.objects.filter(action="vk", status=Job.DONE).count() == 1


def test_the_limit_is_the_organizers_across_tournaments_and_others_press_freely(signed_in, organizer,
                                                                                excel_tournament, later):
    other = Tournament.objects.create(slug="other", source=Tournament.EXCEL, path=excel_tournament.path)
    Membership.objects.create(user=organizer, tournament=other)
    for tournament in [excel_tournament, other] * 5:
        press(signed_in, tournament, "sync")
    assert "Слишком много" in said(signed_in.get(press(signed_in, other, "sync")["Location"]))
    boris = get_user_model().objects.create_user("boris@club.ru", "boris@club.ru", PASSWORD)
    Membership.objects.create(user=boris, tournament=excel_tournament)
    client = Client()
    client.force_login(boris)
    assert "Слишком много" not in said(client.get(press(client, excel_tournament, "sync")["Location"]))


def test_a_second_export_while_the_first_waits_shows_that_job(signed_in, excel_tournament, later):
    waiting = Job.objects.create(tournament=excel_tournament, action="protocols", params={"round": 1})
    answer = press(signed_in, excel_tournament, "protocols", round=1)
    assert answer["Location"] == reverse("job", args=[excel_tournament.slug, waiting.pk])
    assert "уже ждёт в очереди" in said(signed_in.get(answer["Location"]))
    assert Job.objects.filter(action="protocols").count() == 1
    other_round = press(signed_in, excel_tournament, "protocols", round=2)  # another round is another export
    assert Job.objects.filter(action="protocols").count() == 2 and other_round["Location"] != answer["Location"]
    Job.objects.filter(pk=waiting.pk).update(status=Job.RUNNING)  # once it runs, a press may want the sheet as now
    press(signed_in, excel_tournament, "protocols", round=1)
    assert Job.objects.filter(action="protocols").count() == 3


def test_a_second_draw_while_the_first_waits_queues_no_twin(signed_in, excel_tournament, later):
    waiting = Job.objects.create(tournament=excel_tournament, action="draw", params={"seed": 4})
    answer = press(signed_in, excel_tournament, "draw", seed=4)
    assert answer["Location"] == reverse("job", args=[excel_tournament.slug, waiting.pk])
    assert Job.objects.filter(action="draw").count() == 1


# -- one limit for every web process ------------------------------------------------------------------
def _reset_through(base: str) -> int:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(base + "password/reset/", timeout=30) as page:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode()).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "email": "anna@club.ru"}).encode()
    request = urllib.request.Request(base + "password/reset/", data=body, headers={"Referer": base + "password/reset/"})
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.slow
def test_two_web_processes_share_one_limit(tmp_path):
    from tests.web.test_server_command import start, stop

    data = tmp_path / "data"
    first, first_url = start("server", "--data", str(data), "--port", "0", "--no-worker")
    try:
        second, second_url = start("server", "--data", str(data), "--port", "0", "--no-worker")
        try:
            answers = [_reset_through(url) for url in (first_url, second_url, first_url, second_url)]
        finally:
            stop(second)
    finally:
        stop(first)
    assert answers == [200, 200, 200, 429]  # the letter's page (redirects followed), then the limit
