"""The server's safety rules, checked over the whole URL map rather than a list of pages:

* every address of a tournament answers 404 to a signed-in organizer of *another* tournament
  (a view that forgets :func:`sheets_sync.web.access.tournament_for` fails here the day it lands);
* every POST needs a CSRF token;
* sign-in locks after repeated failures (django-axes);
* the session cookie is HttpOnly and SameSite=Lax, Secure behind HTTPS;
* the service account's private key is in no page, no database dump and no log line.
"""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, include, path

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web import urls as real_urls
from sheets_sync.web.access import tournament_for  # noqa: F401 - what every organizer view must call
from sheets_sync.web.models import Invitation, Job, Membership, Tournament
from sheets_sync.web.service_accounts import load_service_accounts
from tests.google_support import upload_xlsx

pytestmark = pytest.mark.django_db

PASSWORD = "Korova-2026-mafia"
PUBLIC_ROUTES = "sheets_sync.web.routes.public"  # the hosted read-only site: public by design
# the players' registration form and self check-in: public by design, and show no contact (test_registration_safety)
PLAYER_ROUTES = "sheets_sync.web.routes.registration"
SECRET_ROUTES = "sheets_sync.web.routes.keeping"  # the push webhook: proved by its per-sheet secret, not a session
JUDGE_ROUTES = "sheets_sync.web.routes.judge"  # the judges' links: the token in the address is the key, no cookie
CAPABILITIES = {"token", "uidb64"}  # a secret in the address is the proof (an invitation, a reset link)


@dataclass(frozen=True)
class Route:
    route: str  # the joined pattern, e.g. "o/<slug:slug>/members/"
    converters: dict
    module: str  # the routes module that included it
    pattern: URLPattern

    @property
    def params(self) -> list[str]:
        return re.findall(r"<(?:\w+:)?(\w+)>", self.route)

    def url(self, values: dict) -> str:
        def fill(m: re.Match) -> str:
            name = m.group(1)
            converter = self.converters.get(name)
            return str(converter.to_url(values[name])) if converter else str(values[name])  # <str:…> keeps an int
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", fill, self.route)


def walk(resolver=None, prefix: str = "", module: str = "", converters: dict | None = None) -> Iterator[Route]:
    """Every address the app answers, with the routes module it came from."""
    resolver = resolver or get_resolver()
    converters = dict(converters or {})
    for entry in resolver.url_patterns:
        joined = prefix + str(entry.pattern)
        found = {**converters, **getattr(entry.pattern, "converters", {})}
        if isinstance(entry, URLResolver):
            # include("dotted.path") holds the imported module; a list of patterns keeps the parent's
            conf = entry.urlconf_name
            name = conf if isinstance(conf, str) else getattr(conf, "__name__", module)
            yield from walk(entry, joined, name, found)
        else:
            yield Route(joined, found, module, entry)


def fillers(t: Tournament) -> dict[str, object]:
    """Path values naming objects of tournament ``t``: its slug and the ids of what belongs to it."""
    job = Job.objects.filter(tournament=t).first()
    member = Membership.objects.filter(tournament=t).first()
    invitation = Invitation.objects.filter(tournament=t).first()
    return {"slug": t.slug, "tournament_id": t.pk, "pk": t.pk, "id": t.pk, "job": job.pk, "job_id": job.pk,
            "member": member.pk, "member_id": member.pk, "membership_id": member.pk,
            "invitation": invitation.pk, "invitation_id": invitation.pk, "token": invitation.token, "uidb64": "MQ",
            "action": "sync", "op": "make", "path": "exports/vk/vk-post.txt", "spreadsheet_id": t.spreadsheet_id}


def user(email: str):
    return get_user_model().objects.create_user(username=email, email=email, password=PASSWORD)


def tournament_of(owner, slug: str) -> Tournament:
    t = Tournament.objects.create(slug=slug, title=slug, spreadsheet_id=f"sheet-{slug}-0000000000")
    Membership.objects.create(user=owner, tournament=t, role=Membership.OWNER)
    Job.objects.create(tournament=t, action="sync", status=Job.DONE)
    Invitation.objects.create(tournament=t, email="guest@club.ru", token=f"token-{slug}", invited_by=owner)
    return t


@pytest.fixture
def two_organizers():
    """Anna organizes «ours»; Boris organizes «theirs» and is signed in."""
    anna, boris = user("anna@club.ru"), user("boris@club.ru")
    ours, theirs = tournament_of(anna, "ours"), tournament_of(boris, "theirs")
    client = Client()
    client.force_login(boris, backend="django.contrib.auth.backends.ModelBackend")
    return client, ours, theirs


def leaks(client: Client, target: Tournament) -> list[str]:
    """Every (method, address) of a tournament that does not answer 404 to an organizer of another one."""
    values, found = fillers(target), []
    for route in walk():
        params = route.params
        if not params or route.module in (PUBLIC_ROUTES, PLAYER_ROUTES) or CAPABILITIES & set(params):
            continue
        missing = [p for p in params if p not in values]
        assert not missing, f"{route.route}: teach fillers() what {missing} name for a tournament"
        address, nowhere = route.url(values), route.url({**values, "slug": "no-such-tournament"})
        for method in ("get", "post"):
            status = getattr(client, method)(address).status_code
            # 405: the address takes no such method for any tournament — the same answer as for none
            if status == 404 or (status == 405 and getattr(client, method)(nowhere).status_code == 405):
                continue
            found.append(f"{method.upper()} {address} -> {status}")
    return found


def test_every_address_of_a_tournament_is_404_to_an_organizer_of_another(two_organizers):
    client, ours, theirs = two_organizers
    assert client.get(f"/o/{theirs.slug}/").status_code == 200  # the check can tell a page from a 404
    assert sum(1 for r in walk() if "slug" in r.params and r.module != PUBLIC_ROUTES) >= 2
    assert leaks(client, ours) == []
    ours.refresh_from_db()
    assert Tournament.objects.filter(pk=ours.pk).exists() and ours.memberships.count() == 1  # nothing changed


def _leaky(request, slug):
    return HttpResponse(Tournament.objects.get(slug=slug).title)  # forgets tournament_for


# the real map plus one view that forgets tournament_for: what the walk must catch
urlpatterns = [*real_urls.urlpatterns, path("", include(([path("o/<slug:slug>/leaky/", _leaky)], "leaky")))]


def test_the_walk_catches_a_view_that_forgets_tournament_for(two_organizers):
    client, ours, _ = two_organizers
    with override_settings(ROOT_URLCONF=__name__):
        assert any("/o/ours/leaky/" in leak for leak in leaks(client, ours))


def test_a_path_parameter_the_walk_does_not_know_fails_loudly(two_organizers):
    client, ours, _ = two_organizers
    with override_settings(ROOT_URLCONF="tests.web.unknown_param_urls"), pytest.raises(AssertionError, match="fillers"):
        leaks(client, ours)


# -- CSRF ---------------------------------------------------------------------------------------------------
def test_every_post_without_a_csrf_token_is_refused(two_organizers):
    _, _, theirs = two_organizers
    client = Client(enforce_csrf_checks=True)
    client.force_login(theirs.memberships.get().user, backend="django.contrib.auth.backends.ModelBackend")
    values = {**fillers(theirs), "token": "token-theirs"}
    accepted = []
    for route in walk():
        if route.module == SECRET_ROUTES and getattr(route.pattern.callback, "csrf_exempt", False):
            continue  # the push webhook: Apps Script has no session; its per-sheet secret is the proof
        if route.module == JUDGE_ROUTES and "token" in route.params and getattr(route.pattern.callback, "csrf_exempt", False):
            continue  # a judge's phone: no session, no cookie is trusted; the link's token is the proof
        address = route.url({p: values.get(p, 1) for p in route.params})
        status = client.post(address, {"action": "invite", "email": "x@club.ru"}).status_code
        if status != 403:
            accepted.append(f"POST {address} -> {status}")
    assert accepted == []
    assert not Invitation.objects.filter(email="x@club.ru").exists()


# -- sign-in ------------------------------------------------------------------------------------------------
def test_sign_in_locks_after_five_failures_and_says_so(settings):
    user("anna@club.ru")
    client = Client()
    for n in range(5):
        page = client.post("/login/", {"username": "anna@club.ru" if n % 2 else "ANNA@club.ru", "password": "wrong"})
        assert page.status_code in (200, 429)
    locked = client.post("/login/", {"username": "anna@club.ru", "password": PASSWORD})  # even the right one now
    assert locked.status_code == 429 and "Вход временно закрыт" in locked.content.decode()
    assert client.get("/").status_code == 302  # not signed in
    other = Client().post("/login/", {"username": "other@club.ru", "password": "wrong"})
    assert other.status_code == 200  # another e-mail is not locked


def test_the_session_cookie_is_httponly_and_samesite_lax():
    user("anna@club.ru")
    answer = Client().post("/login/", {"username": "anna@club.ru", "password": PASSWORD})
    cookie = answer.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    with override_settings(SESSION_COOKIE_SECURE=True):
        assert Client().post("/login/", {"username": "anna@club.ru", "password": PASSWORD}).cookies["sessionid"]["secure"]


@pytest.mark.parametrize("https, secure", [("1", True), ("", False)])
def test_cookies_are_secure_exactly_behind_https(tmp_path, https, secure):
    """The settings read the environment at import: a process of its own."""
    env = {**os.environ, "SHEETS_SYNC_HTTPS": https, "SHEETS_SYNC_DATA": str(tmp_path),
           "DJANGO_SETTINGS_MODULE": "sheets_sync.web.settings", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, s.SESSION_COOKIE_SAMESITE)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(secure), str(secure), "True", "Lax"]


# -- the service account's key -------------------------------------------------------------------------------
def test_the_private_key_is_in_no_page_dump_or_log_after_adding_a_sheet(settings, fake_server, sa_key, private_key_pem,
                                                                        caplog):
    settings.GOOGLE_ENDPOINT, settings.SERVICE_ACCOUNTS = fake_server.url, sa_key
    anna = user("anna@club.ru")
    client = Client()
    client.force_login(anna, backend="django.contrib.auth.backends.ModelBackend")
    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    pages = []
    with caplog.at_level(logging.DEBUG):
        load_service_accounts()
        pages.append(client.get("/add/"))
        pages.append(client.post("/add/", {"link": f"gsheet:{sid}"}))
        code = re.search(r'id="claim-code">([^<]+)<', pages[-1].content.decode()).group(1)
        fake_server.set_values(sid, "Турнир", [[code]], start="E5", raw=True)
        claim = pages[-1].context["claim"]
        pages.append(client.post("/add/", {"claim": claim.pk}, follow=True))
        pages.append(client.get("/"))
        slug = Tournament.objects.get().slug
        pages.append(client.get(f"/o/{slug}/"))
        pages.append(client.get(f"/o/{slug}/members/"))
    assert Tournament.objects.get().last_sync.get("games"), "the flow ran through a sync"
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    secret_lines = [line for line in private_key_pem.splitlines() if "PRIVATE KEY" not in line]
    seen = {"pages": "\n".join(p.content.decode() for p in pages), "dump": dump.getvalue(), "logs": caplog.text}
    for where, text in seen.items():
        assert "PRIVATE KEY" not in text and not [line for line in secret_lines if line in text], where
    assert '"private_key"' not in dump.getvalue()  # no JSON of a key stored anywhere


# -- the error pages speak the organizer's language ------------------------------------------------------
@pytest.mark.parametrize("lang, says", [("ru", "Страница устарела — обновите её и повторите"),
                                        ("en", "The page is out of date: reload it and try again")])
def test_a_post_without_its_token_gets_a_page_saying_to_reload_with_a_link_back(lang, says):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en" if lang == "en" else "ru")
    client.force_login(user("anna@club.ru"), backend="django.contrib.auth.backends.ModelBackend")
    page = client.post("/add/", {"link": "x"}, HTTP_REFERER="http://testserver/add/?step=2")
    text = page.content.decode()
    assert page.status_code == 403 and says in text
    assert 'href="/add/?step=2"' in text and "<header>" in text  # the site's own page (base.html), a way back
    foreign = client.post("/add/", {"link": "x"}, HTTP_REFERER="https://evil.example/phish").content.decode()
    assert "evil.example" not in foreign and 'href="/"' in foreign


def test_an_unknown_address_gets_the_sites_404_page_in_russian():
    page = Client().get("/no/such/page/")
    assert page.status_code == 404
    text = page.content.decode()
    assert "Страница не найдена" in text and "<header>" in text
    assert "Page not found" in Client(HTTP_ACCEPT_LANGUAGE="en").get("/no/such/page/").content.decode()


def test_another_organizers_tournament_gets_the_same_404_page(two_organizers):
    boris, annas, _ = two_organizers
    page = boris.get(f"/o/{annas.slug}/")
    assert page.status_code == 404 and "Страница не найдена" in page.content.decode()


def test_a_failure_of_the_server_gets_a_500_page_in_russian_even_when_its_template_fails(monkeypatch):
    from django.test import RequestFactory

    from sheets_sync.web import errors

    assert real_urls.handler500 == "sheets_sync.web.errors.server_error"
    request = RequestFactory().get("/o/cup/")
    page = errors.server_error(request)
    assert page.status_code == 500 and "Ошибка на сервере" in page.content.decode()

    def broken(*args, **kwargs):
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(errors, "render_to_string", broken)
    page = errors.server_error(request)
    assert page.status_code == 500 and "Ошибка на сервере" in page.content.decode()
    assert "Server error" in page.content.decode()  # the plain page says it in both languages
