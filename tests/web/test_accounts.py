"""The organizer's account pages as a person uses them (Django's test client, the fake Google
Sheets server): signing up and in, the password reset through the server's log, the tournament
list, adding a sheet proved by a one-time code, a new tournament, co-organizers by invitation."""

from __future__ import annotations

import json
import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from scoring.parse.settings import CLAIM_CODE_ALPHABET, is_claim_code, read_settings
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web import claims
from sheets_sync.web.models import Claim, Invitation, Job, Membership, ServiceAccount, Tournament
from sheets_sync.web.service_accounts import load_service_accounts, pick_account
from tests.google_support import SA_EMAIL, upload_xlsx, write_key_file

pytestmark = pytest.mark.django_db

PASSWORD = "Korova-2026-mafia"


def signed_in(email: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username=email, email=email, password=PASSWORD)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client, user


@pytest.fixture
def log_mail(settings):
    """The server's mail without a mail server (pytest-django swaps in its in-memory outbox)."""
    settings.EMAIL_BACKEND = "sheets_sync.web.mail.LogEmailBackend"


@pytest.fixture
def google(settings, fake_server, sa_key):
    """The server's settings aimed at the fake Sheets server, with one service account."""
    settings.GOOGLE_ENDPOINT = fake_server.url
    settings.SERVICE_ACCOUNTS = sa_key
    load_service_accounts()
    return fake_server


@pytest.fixture
def example_sheet(google) -> str:
    return upload_xlsx(google, EXAMPLE_PATH)


def tournament_tab(server, sid: str) -> str:
    return next(t for t in server.tabs(sid) if t in ("Турнир", "Tournament"))


def type_code(server, sid: str, code: str, cell: str = "D3", tab: str | None = None) -> None:
    server.set_values(sid, tab or tournament_tab(server, sid), [[code]], start=cell, raw=True)


def start_claim(client: Client, sid: str) -> Claim:
    page = client.post(reverse("add_sheet"), {"link": f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid=0"})
    assert page.status_code == 200
    code = re.search(r'id="claim-code">([^<]+)<', page.content.decode()).group(1)
    return Claim.objects.get(code=code)


# -- sign-up, sign-in, sign-out -----------------------------------------------------------------------
def test_sign_up_takes_the_email_as_the_user_name_in_any_case():
    client = Client()
    answer = client.post(reverse("signup"), {"email": " Anna@Club.RU ", "password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == reverse("tournaments")
    user = get_user_model().objects.get()
    assert user.username == user.email == "anna@club.ru" and user.check_password(PASSWORD)
    assert not user.password.startswith(PASSWORD[:4])  # a hash, not the password
    again = Client().post(reverse("signup"), {"email": "ANNA@club.ru", "password1": PASSWORD, "password2": PASSWORD})
    assert "уже зарегистрировались" in again.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("password, said", [
    ("12345678901", "одних цифр"),
    ("short1!", "слишком короткий"),
    ("password123", "самых частых"),
])
def test_sign_up_refuses_a_weak_password_in_the_pages_language(password, said):
    page = Client().post(reverse("signup"), {"email": "b@club.ru", "password1": password, "password2": password})
    assert page.status_code == 200 and said in page.content.decode()
    assert not get_user_model().objects.exists()


def test_sign_up_says_when_the_two_passwords_differ_in_english():
    page = Client().post(reverse("signup") + "?lang=en", {"email": "b@club.ru", "password1": PASSWORD, "password2": PASSWORD + "x"})
    assert "The two passwords differ." in page.content.decode()


def test_sign_in_with_the_email_typed_in_another_case_and_sign_out_by_post_only():
    get_user_model().objects.create_user(username="anna@club.ru", email="anna@club.ru", password=PASSWORD)
    client = Client()
    answer = client.post(reverse("login"), {"username": "ANNA@Club.ru", "password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == reverse("tournaments")
    page = client.get(reverse("tournaments")).content.decode()
    assert "anna@club.ru" in page and 'action="/logout/"' in page  # the header: who, and «Выйти» as a form
    assert client.get(reverse("logout")).status_code == 405  # a link or an image cannot sign anybody out
    assert client.get(reverse("tournaments")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("tournaments"))["Location"].startswith(reverse("login"))


def test_a_wrong_password_says_so_in_russian():
    get_user_model().objects.create_user(username="anna@club.ru", email="anna@club.ru", password=PASSWORD)
    page = Client().post(reverse("login"), {"username": "anna@club.ru", "password": "wrong"})
    assert page.status_code == 200 and "Неверная почта или пароль" in page.content.decode()


def test_the_language_switch_keeps_the_page_and_the_choice():
    client = Client()
    page = client.get(reverse("login") + "?lang=en").content.decode()
    assert "Sign in" in page and 'href="/login/?lang=ru"' in page
    assert "Forgot the password?" in client.get(reverse("login")).content.decode()  # kept in the session


# -- password reset ------------------------------------------------------------------------------------
def test_without_a_mail_server_the_reset_link_goes_to_the_servers_log_and_works(log_mail, caplog):
    get_user_model().objects.create_user(username="anna@club.ru", email="anna@club.ru", password=PASSWORD)
    client = Client()
    with caplog.at_level(logging.INFO, logger="sheets_sync.web.mail"):
        answer = client.post(reverse("password_reset"), {"email": "Anna@club.ru"})
    assert answer.status_code == 302
    logged = [r for r in caplog.records if r.name == "sheets_sync.web.mail"]
    assert len(logged) == 1 and "anna@club.ru" in logged[0].getMessage()
    link = re.search(r"http://testserver(/password/reset/\S+/)", logged[0].getMessage()).group(1)
    form = client.get(link, follow=True)
    assert "Новый пароль" in form.content.decode()
    weak = client.post(form.redirect_chain[-1][0], {"new_password1": "12345678901", "new_password2": "12345678901"})
    assert "Пароль не может состоять из одних цифр" in weak.content.decode()
    differ = client.post(form.redirect_chain[-1][0], {"new_password1": "Novyi-parol-2027", "new_password2": "Novyi-parol-2028"})
    assert "Пароли не совпадают" in differ.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Novyi-parol-2027", "new_password2": "Novyi-parol-2027"})
    assert done.status_code == 302
    assert get_user_model().objects.get().check_password("Novyi-parol-2027")


def test_an_unknown_email_gets_the_same_answer_and_no_mail(log_mail, caplog):
    with caplog.at_level(logging.INFO, logger="sheets_sync.web.mail"):
        answer = Client().post(reverse("password_reset"), {"email": "nobody@club.ru"})
    assert answer.status_code == 302 and not [r for r in caplog.records if r.name == "sheets_sync.web.mail"]


@pytest.mark.parametrize("url, expected", [
    (None, {"EMAIL_BACKEND": "sheets_sync.web.mail.LogEmailBackend"}),
    ("smtp://club%40mail.ru:p%40ss@smtp.mail.ru:587", {"EMAIL_HOST": "smtp.mail.ru", "EMAIL_PORT": 587,
                                                       "EMAIL_HOST_USER": "club@mail.ru", "EMAIL_HOST_PASSWORD": "p@ss",
                                                       "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False}),
    ("smtps://u:p@smtp.yandex.ru", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False}),
    ("smtp://localhost:25", {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False, "EMAIL_HOST_USER": ""}),
])
def test_the_mail_server_comes_from_one_url(monkeypatch, url, expected):
    from sheets_sync.web.settings import _mail

    if url is None:
        monkeypatch.delenv("SHEETS_SYNC_SMTP_URL", raising=False)
    else:
        monkeypatch.setenv("SHEETS_SYNC_SMTP_URL", url)
    mail = _mail()
    assert {k: mail[k] for k in expected} == expected


# -- service accounts -------------------------------------------------------------------------------------
def test_service_accounts_are_read_from_a_folder_of_keys_and_the_key_stays_in_the_file(tmp_path, private_key_pem):
    (tmp_path / "keys").mkdir()
    write_key_file(tmp_path / "keys" / "a.json", "http://127.0.0.1:1/token", "a@p.iam.gserviceaccount.com")
    write_key_file(tmp_path / "keys" / "b.json", "http://127.0.0.1:1/token", "b@p.iam.gserviceaccount.com")
    (tmp_path / "keys" / "notes.json").write_text("{not json")
    found = load_service_accounts(tmp_path / "keys")
    assert sorted(a.email for a in found) == ["a@p.iam.gserviceaccount.com", "b@p.iam.gserviceaccount.com"]
    assert load_service_accounts(tmp_path / "keys") and ServiceAccount.objects.count() == 2  # updated, not doubled
    body = private_key_pem.splitlines()[1]
    assert all(body not in json.dumps([a.email, a.key_file]) for a in ServiceAccount.objects.all())


def test_a_new_sheet_goes_to_the_account_with_the_fewest_tournaments():
    busy = ServiceAccount.objects.create(email="busy@p.iam.gserviceaccount.com", key_file="/k/busy.json")
    idle = ServiceAccount.objects.create(email="idle@p.iam.gserviceaccount.com", key_file="/k/idle.json")
    for n in range(3):
        Tournament.objects.create(slug=f"t{n}", account=busy)
    assert pick_account() == idle
    for n in range(4):
        Tournament.objects.create(slug=f"u{n}", account=idle)
    assert pick_account() == busy


# -- the claim code ----------------------------------------------------------------------------------------
def test_new_codes_have_no_letters_to_mistake_and_do_not_repeat():
    codes = [claims.new_code() for _ in range(2000)]
    assert all(is_claim_code(c) for c in codes) and len(set(codes)) == len(codes)
    assert set("".join(c[3:7] + c[8:] for c in codes)) == set(CLAIM_CODE_ALPHABET)  # every sign used
    assert not set("".join(codes)) & set("IO01L")


_GROUP = st.text(alphabet=CLAIM_CODE_ALPHABET, min_size=4, max_size=4)


@given(_GROUP, _GROUP, st.booleans(), st.sampled_from(["", " ", "\t"]))
def test_a_code_is_recognised_in_any_case_and_spacing(first, second, lower, pad):
    code = f"SS-{first}-{second}"
    assert is_claim_code(pad + (code.lower() if lower else code) + pad)


@given(_GROUP, st.integers(min_value=0, max_value=3), st.sampled_from("IO01L"))
def test_a_code_with_a_sign_to_mistake_is_no_code(group, where, wrong):
    typed = group[:where] + wrong + group[where + 1:]
    assert not is_claim_code(f"SS-{typed}-{group}") and not is_claim_code(f"SS-{group}-{typed}")


@pytest.mark.parametrize("value, is_code", [
    ("SS-7KQ2-9XMD", True), ("ss-7kq2-9xmd", True), ("SS-7KQ2-9XM", False), ("SS-7KQ2-9XMO", False),
    ("Формат", False), ("SS-7KQ2-9XMD extra", False), (12, False),
])
def test_the_code_pattern(value, is_code):
    assert is_claim_code(value) is is_code


def test_a_code_left_in_the_tournament_tab_is_no_unknown_setting():
    grid = [("Параметр", "Значение"), ("Название", "Кубок"), ("SS-7KQ2-9XMD", None), ("Непонятно", "x")]
    problems = read_settings({"Турнир": grid}).problems
    assert [p.location.cell for p in problems if p.rule == "read.unknown_setting"] == ["A4"]


# -- adding a sheet --------------------------------------------------------------------------------------------
def test_add_a_sheet_shows_the_account_then_a_code_and_the_typed_code_registers_it(google, example_sheet):
    client, user = signed_in("anna@club.ru")
    page = client.get(reverse("add_sheet")).content.decode()
    assert SA_EMAIL in page
    claim = start_claim(client, example_sheet)
    assert claim.user == user and claim.spreadsheet_id == example_sheet and claim.proved_at is None
    assert start_claim(client, example_sheet) == claim  # a second visit shows the same code
    type_code(google, example_sheet, claim.code.lower())  # in any case
    answer = client.post(reverse("add_sheet"), {"claim": claim.pk})
    tournament = Tournament.objects.get(spreadsheet_id=example_sheet)
    # the check is a job the next page follows; done, it lands on the tournament
    job = Job.objects.get(action="check", owner=user)
    assert answer.status_code == 302 and answer["Location"] == reverse("account_job", args=[job.pk])
    answer = client.get(answer["Location"])
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament", args=[tournament.slug])
    assert Membership.objects.get(tournament=tournament).user == user
    assert Membership.objects.get(tournament=tournament).role == Membership.OWNER
    assert Claim.objects.get(pk=claim.pk).proved_at is not None
    tournament.refresh_from_db()
    # the slug from the tournament's name in the sheet, transliterated («(пример)» → «primer»)
    assert tournament.slug == "german-mafia-open-2016-primer" and tournament.account.email == SA_EMAIL
    # the sync ran (the queue is immediate in tests); the code left in the tab is no problem of the sheet's
    assert tournament.last_sync["games"] > 0, tournament.last_error
    followed = client.get(answer["Location"])
    assert followed.status_code == 200
    assert claim.code in str([m.message for m in followed.context["messages"]])  # «you may now delete the code»


def test_the_code_in_the_tab_adds_no_warning_to_the_sync(google, example_sheet):
    from sheets_sync.loop.sync import sync_once
    from sheets_sync.web.workbooks import open_google_backend

    account = ServiceAccount.objects.get()
    before = sync_once(open_google_backend(example_sheet, account), out_dir=None).outcome.problems
    type_code(google, example_sheet, "SS-7KQ2-9XMD", cell="A40")
    after = sync_once(open_google_backend(example_sheet, account), out_dir=None).outcome.problems
    assert len(after) == len(before)
    assert not [p for p in after if p.location is not None and p.location.cell == "A40"]


def test_another_persons_code_never_proves_yours(google, example_sheet):
    anna, _ = signed_in("anna@club.ru")
    boris, _ = signed_in("boris@club.ru")
    annas, boriss = start_claim(anna, example_sheet), start_claim(boris, example_sheet)
    assert annas.code != boriss.code
    type_code(google, example_sheet, annas.code)  # only Anna can edit the sheet: her code is in it
    refused = boris.post(reverse("add_sheet"), {"claim": boriss.pk}, follow=True).content.decode()
    assert f"Код {boriss.code} не найден" in refused
    assert not Tournament.objects.exists()
    assert boris.post(reverse("add_sheet"), {"claim": annas.pk}).status_code == 404  # not his claim
    assert anna.post(reverse("add_sheet"), {"claim": annas.pk}).status_code == 302
    # once registered, nobody else can start or finish a claim on it
    assert "уже зарегистрирована" in boris.post(reverse("add_sheet"), {"claim": boriss.pk}, follow=True).content.decode()
    page = boris.post(reverse("add_sheet"), {"link": f"gsheet:{example_sheet}"}).content.decode()
    assert "уже зарегистрирована" in page and 'id="claim-code"' not in page
    assert Tournament.objects.count() == 1


def test_checks_a_moment_apart_wait_and_spend_no_quota(google, example_sheet):
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)
    assert "не найден" in client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    google.reset_counts()
    type_code(google, example_sheet, claim.code)
    page = client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    assert "подождите 5 секунд" in page and google.request_count == 0 and not Tournament.objects.exists()


def test_a_code_expires_after_a_day(google, example_sheet):
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)
    type_code(google, example_sheet, claim.code)
    Claim.objects.filter(pk=claim.pk).update(created_at=timezone.now() - claims.CODE_LIFETIME - timezone.timedelta(minutes=1))
    page = client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    assert "Код устарел" in page and not Tournament.objects.exists()
    assert start_claim(client, example_sheet).code != claim.code  # a new visit gives a new code


def test_a_sheet_not_shared_with_the_service_says_whom_to_share_it_with(google, example_sheet):
    google.share(example_sheet, "somebody@else.ru")  # shared with a person, not with the service: Google says 403
    client, user = signed_in("anna@club.ru")
    page = client.post(reverse("add_sheet"), {"link": f"gsheet:{example_sheet}"}).content.decode()
    assert 'id="claim-code"' not in page and not Claim.objects.exists()  # no code before the sheet can be read
    assert "Сервис пока не видит эту таблицу" in page and SA_EMAIL in page and not Tournament.objects.exists()
    claim = Claim.objects.create(user=user, spreadsheet_id=example_sheet, account=ServiceAccount.objects.get(),
                                 code="SS-AAAA-BBBB")
    page = client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    assert "нет доступа" in page and SA_EMAIL in page  # a share taken away after the code: the check says it


def test_a_sheet_that_does_not_exist_says_so(google):
    client, _ = signed_in("anna@club.ru")
    page = client.post(reverse("add_sheet"), {"link": "gsheet:1NoSuchSpreadsheetExistsHere000000000000000"})  # 404
    assert "Сервис пока не видит эту таблицу" in page.content.decode() and SA_EMAIL in page.content.decode()
    assert not Claim.objects.exists()


def test_a_wrong_code_says_so_and_a_bad_link_says_what_to_paste(google, example_sheet):
    client, _ = signed_in("anna@club.ru")
    claim = start_claim(client, example_sheet)
    type_code(google, example_sheet, "SS-AAAA-BBBB")
    assert f"Код {claim.code} не найден во вкладке «Турнир»" in client.post(reverse("add_sheet"), {"claim": claim.pk}, follow=True).content.decode()
    page = client.post(reverse("add_sheet") + "?lang=en", {"link": "https://example.com/not-a-sheet"}).content.decode()
    assert "does not look like a Google Sheets link" in page


def test_without_a_service_account_the_page_says_who_to_ask(settings):
    settings.SERVICE_ACCOUNTS = None
    client, _ = signed_in("anna@club.ru")
    page = client.get(reverse("add_sheet"))
    assert page.status_code == 503 and "SHEETS_SYNC_SERVICE_ACCOUNTS" in page.content.decode()


# -- the tournament list ----------------------------------------------------------------------------------------
def test_an_empty_list_explains_the_two_ways_in():
    client, _ = signed_in("anna@club.ru")
    page = client.get(reverse("tournaments")).content.decode()
    assert "двумя способами" in page and 'href="/add/"' in page and 'href="/new/"' in page


def test_the_list_shows_ones_own_tournaments_with_their_state():
    client, user = signed_in("anna@club.ru")
    mine = Tournament.objects.create(slug="kubok", title="Кубок Москвы", last_sync={"games": 38, "errors": 2},
                                     last_sync_at=timezone.now(), share_lost=True)
    season = Tournament.objects.create(slug="sezon", title="Сезон клуба", kind=Tournament.SEASON)
    theirs = Tournament.objects.create(slug="chuzhoi", title="Чужой турнир")
    Membership.objects.create(user=user, tournament=mine)
    Membership.objects.create(user=user, tournament=season, role=Membership.CO_ORGANIZER)
    Membership.objects.create(user=signed_in("boris@club.ru")[1], tournament=theirs)
    page = client.get(reverse("tournaments")).content.decode()
    assert 'href="/o/kubok/"' in page and 'href="/o/sezon/"' in page and "Чужой" not in page
    assert ">38" in page and "ошибок: 2" in page and "доступ к таблице потерян" in page and "клубный сезон" in page
    assert "ещё не обновлялся" in page


# -- a new tournament or season -------------------------------------------------------------------------------
NEW = {"name": "Кубок осени", "kind": "tournament", "preset": "gmo-2016", "language": "ru",
       "players": "\n".join(f"Игрок {n}" for n in range(1, 21))}


def test_a_new_tournament_is_created_shared_with_the_organizer_and_registered(google, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)  # init_workbook finds Google from the environment
    client, user = signed_in("anna@club.ru")
    answer = client.post(reverse("new_tournament"), NEW)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.title == "Кубок осени" and tournament.memberships.get().user == user
    book = google.spreadsheets[tournament.spreadsheet_id]
    assert "anna@club.ru" in {p.get("emailAddress") for p in book.permissions}
    assert "Турнир" in google.tabs(tournament.spreadsheet_id)
    assert "anna@club.ru" in str(google.values(tournament.spreadsheet_id, "Турнир"))  # «Организаторы»
    assert tournament.last_sync.get("name") == "Кубок осени", tournament.last_error


def test_a_new_season_from_an_uploaded_csv(google, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    client, _ = signed_in("anna@club.ru")
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv_file = SimpleUploadedFile("players.csv", "Игрок;Клуб\nАлхимик;Сова\nБарон;Сова\nВоланд;Кот\n".encode("cp1251"))
    data = {**NEW, "name": "Сезон 2027", "kind": "season", "preset": "club-season", "players": "", "players_csv": csv_file}
    assert client.post(reverse("new_tournament"), data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.kind == Tournament.SEASON
    assert "Алхимик" in str(google.values(tournament.spreadsheet_id, next(
        t for t in google.tabs(tournament.spreadsheet_id) if t in ("Игроки", "Players"))))


@pytest.mark.parametrize("page_language, said, option", [
    ("ru", "одно и то же целое число игр", "игр у каждого: 8, столов: 2"),
    ("en", "the same whole number of games", "games per player: 8, tables: 2"),
])
def test_a_refused_format_is_shown_on_the_form_in_the_pages_language(google, monkeypatch, page_language, said, option):
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    client, _ = signed_in("anna@club.ru")
    sheets_before = len(google.spreadsheets)
    players = "\n".join(f"Игрок {n}" for n in range(1, 26))  # 25 players at 2 tables cannot all play 7 games
    page = client.post(reverse("new_tournament") + f"?lang={page_language}",
                       {**NEW, "players": players, "games": 7, "tables": 2}, follow=True)  # a Russian sheet either way
    error = re.search(r'<p class="card error" role="alert">(.+?)</p>', page.content.decode(), re.S).group(1)
    assert page.status_code == 200 and said in error and option in error, error  # the nearest, as the form's fields
    assert not Tournament.objects.exists() and len(google.spreadsheets) == sheets_before  # no sheet left behind


def test_no_players_says_what_to_type():
    ServiceAccount.objects.create(email=SA_EMAIL, key_file="/nonexistent.json")
    client, _ = signed_in("anna@club.ru")
    page = client.post(reverse("new_tournament"), {**NEW, "players": ""}).content.decode()
    assert "Впишите игроков" in page


def test_init_into_an_empty_sheet_of_ones_own_is_proved_by_the_code(google, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    sid = google.create_spreadsheet("Пустая", tabs={"Лист1": []})
    client, _ = signed_in("anna@club.ru")
    data = {**NEW, "into": f"https://docs.google.com/spreadsheets/d/{sid}/edit"}
    shown = client.post(reverse("new_tournament"), data).content.decode()
    code = re.search(r'id="claim-code">([^<]+)<', shown).group(1)
    assert not Tournament.objects.exists()
    google.set_values(sid, "Лист1", [[code]], start="B2", raw=True)
    answer = client.post(reverse("new_tournament"), {**data, "code_typed": code})
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert Tournament.objects.get().spreadsheet_id == sid and "Турнир" in google.tabs(sid)


# -- co-organizers -------------------------------------------------------------------------------------------------
@pytest.fixture
def owned() -> tuple[Client, Tournament]:
    client, user = signed_in("anna@club.ru")
    tournament = Tournament.objects.create(slug="kubok", title="Кубок")
    Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    return client, tournament


def test_an_invitation_link_is_shown_mailed_and_works_once_for_the_invited_address(owned, log_mail, caplog):
    owner, tournament = owned
    with caplog.at_level(logging.INFO, logger="sheets_sync.web.mail"):
        owner.post(reverse("members", args=["kubok"]), {"action": "invite", "email": "Boris@Club.ru"})
    page = owner.get(reverse("members", args=["kubok"])).content.decode()
    assert "Приглашение для boris@club.ru готово" in page and "приглашён, ещё не принял" in page
    link = re.search(r'id="invite-link">http://testserver(/invite/[^<]+/)<', page).group(1)
    assert link in caplog.text and "boris@club.ru" in caplog.text
    other, other_user = signed_in("boris.other@mail.ru")  # another e-mail: a forwarded link is no proof
    assert other.post(link).status_code == 403 and not Membership.objects.filter(user=other_user).exists()
    guest, guest_user = signed_in("boris@club.ru")
    assert guest.get(link).status_code == 200 and not Membership.objects.filter(user=guest_user).exists()
    assert guest.post(link)["Location"] == reverse("tournament", args=["kubok"])
    assert Membership.objects.get(user=guest_user).role == Membership.CO_ORGANIZER
    assert guest.post(link).status_code == 410  # used once
    assert Invitation.objects.get().accepted_at is not None


def test_only_the_owner_invites_removes_and_unregisters(owned, google, example_sheet):
    owner, tournament = owned
    co, co_user = signed_in("co@club.ru")
    member = Membership.objects.create(user=co_user, tournament=tournament, role=Membership.CO_ORGANIZER)
    assert co.get(reverse("members", args=["kubok"])).status_code == 200
    for action in ({"action": "invite", "email": "x@club.ru"}, {"action": "unregister"},
                   {"action": "remove", "member": member.pk}):
        assert co.post(reverse("members", args=["kubok"]), action).status_code == 404
    assert not Invitation.objects.exists()
    owner.post(reverse("members", args=["kubok"]), {"action": "remove", "member": member.pk})
    assert not Membership.objects.filter(pk=member.pk).exists()
    assert co.get(reverse("tournament", args=["kubok"])).status_code == 404
    Tournament.objects.filter(pk=tournament.pk).update(spreadsheet_id=example_sheet)
    before = {tab: google.values(example_sheet, tab) for tab in google.tabs(example_sheet)}
    requests = google.request_count
    assert owner.post(reverse("members", args=["kubok"]), {"action": "unregister"})["Location"] == reverse("tournaments")
    assert not Tournament.objects.exists()
    assert google.request_count == requests  # the sheet itself is never touched
    assert {tab: google.values(example_sheet, tab) for tab in google.tabs(example_sheet)} == before


@pytest.mark.parametrize("names, slugs", [
    (["Кубок Москвы"], ["kubok-moskvy"]),
    (["Кубок Москвы", "Кубок  москвы!"], ["kubok-moskvy", "kubok-moskvy-2"]),
    (["Щёлково Open 2026", "", "«»"], ["shchelkovo-open-2026", "tournament", "x"]),
])
def test_a_tournaments_address_is_its_name_transliterated_and_unique(names, slugs):
    made = []
    for name in names:
        made.append(claims.unique_slug(name))
        Tournament.objects.create(slug=made[-1], title=name)
    assert made == slugs


# -- words ------------------------------------------------------------------------------------------------------
def test_every_word_the_account_pages_ask_for_exists():
    """A template reads ``w.a_b`` for the key ``a.b``; a missing key would render as nothing."""
    from pathlib import Path

    from sheets_sync.web.words import WORDS

    folder = Path(__file__).resolve().parents[2] / "templates" / "web"
    asked = {key for page in [*folder.glob("accounts/*.html"), folder / "base.html"]
             for key in re.findall(r"\bw\.([a-z0-9_]+)", page.read_text(encoding="utf-8"))}
    assert asked and not [k for k in asked if k not in WORDS and k.replace("_", ".") not in WORDS]


@pytest.mark.parametrize("lang, said", [("ru", "Мои турниры"), ("en", "My tournaments")])
def test_the_account_pages_answer_in_either_language(lang, said):
    ServiceAccount.objects.create(email=SA_EMAIL, key_file="/nonexistent.json")
    client, _ = signed_in("anna@club.ru")
    assert said in client.get(f"/?lang={lang}").content.decode()
    for name in ("add_sheet", "new_tournament", "tournaments"):
        page = client.get(reverse(name))
        assert page.status_code == 200 and f'<html lang="{lang}">' in page.content.decode()
    anonymous = Client()
    for name in ("signup", "login", "password_reset"):
        assert anonymous.get(reverse(name) + f"?lang={lang}").status_code == 200
