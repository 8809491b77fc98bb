"""Nothing typed is longer than its column (issue 42 §8): PostgreSQL refuses such a value (a 500)
where SQLite keeps it, so every form refuses it first, with a message in the page's language.

The walk: every text column of the server's models (Django's user and django-axes' records too)
is either typed into a form field — no longer than the column, and one character more is refused
— or checked by a view (a spreadsheet's link: its id is at most :data:`sheets_sync.refs.ID_LENGTH`),
or not typed by a person at all (said why). A new column without a decision fails the walk."""

from __future__ import annotations

import pytest
from django import forms
from django.apps import apps
from django.db import models
from django.test import Client
from django.urls import reverse

from sheets_sync.refs import ID_LENGTH
from sheets_sync.web.accounts.forms import SignupForm
from sheets_sync.web.accounts.members import InviteForm
from sheets_sync.web.accounts.new import NewTournamentForm
from sheets_sync.web.models import Claim, Tournament
from sheets_sync.web.registration.forms import ApplyForm
from tests.google_support import fake_server, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    google_account,
    organizer,
    private_data,
    signed_in,
)

pytestmark = pytest.mark.django_db

# a column → the form and field a person types it into
TYPED: dict[tuple[str, str], tuple[type[forms.Form], str]] = {
    ("web.tournament", "title"): (NewTournamentForm, "name"),
    ("auth.user", "username"): (SignupForm, "email"),
    ("auth.user", "email"): (SignupForm, "email"),
    ("web.invitation", "email"): (InviteForm, "email"),
    ("axes.accessattempt", "username"): (SignupForm, "email"),  # the sign-in's e-mail (AuthenticationForm: 150)
    ("axes.accessfailurelog", "username"): (SignupForm, "email"),
    ("axes.accesslog", "username"): (SignupForm, "email"),
    # the registration form (issue 45): what a player types on /apply/<slug>/
    **{("web.application", name): (ApplyForm, name)
       for name in ("nickname", "club", "city", "telegram", "vk", "email", "phone", "rating")},
}
# typed as a link, checked by the view: the id in it is at most ID_LENGTH
LINKS = {("web.tournament", "spreadsheet_id"), ("web.claim", "spreadsheet_id")}
NOT_TYPED = {
    ("web.tournament", "slug"): "made by claims.unique_slug (at most 60 + a number)",
    ("web.tournament", "kind"): "a choice",
    ("web.tournament", "source"): "a choice",
    ("web.tournament", "language"): "a choice of the new tournament's form (ru, en)",
    ("web.tournament", "path"): "app mode: a file of the organizer's folder, found by the server",
    ("web.tournament", "hook_secret"): "secrets.token_urlsafe(24)",
    ("web.tournament", "poll_fingerprint"): "a SHA-256 in hex",
    ("web.membership", "role"): "a choice",
    ("web.invitation", "token"): "secrets.token_urlsafe(24)",
    ("web.claim", "code"): "claims.new_code: SS-XXXX-XXXX",
    ("web.job", "action"): "a name of BUTTONS (press refuses any other with 404)",
    ("web.job", "status"): "a choice",
    ("web.job", "waiting"): "a reason of jobs.py's rules (lease, share, thread, budget)",
    ("web.worker", "name"): "workers.py: the host's name and the process id",
    ("web.throttle", "key"): "throttle.py: a limit's name and a SHA-256 of who",
    ("web.serviceaccount", "email"): "a key file's client_email",
    ("web.serviceaccount", "key_file"): "the key's path on the server",
    ("web.drivecursor", "page_token"): "Google's page token",
    ("web.requesttally", "account"): "a service account's e-mail",
    ("web.requesttally", "kind"): "read / write / drive",
    ("web.judgelink", "kind"): "a choice", ("web.judgelink", "stage"): "a preset's stage key (the games file's)",
    ("web.judgelink", "judge"): "cut to the column by links.py (no form names a judge yet)",
    ("web.judgelink", "token"): "secrets.token_urlsafe(32)", ("web.judgelink", "token_hash"): "a SHA-256 in hex",
    ("web.judgelink", "base"): "the request's own address, cut to the column by links.py",
    ("web.judgegame", "gid"): "a game of the games file (the link's: any other is a 404)",
    ("web.judgegame", "mode"): "form / live",
    ("web.judgesave", "gid"): "a game of the games file (the link's: any other is a 404)",
    ("web.judgesave", "save_id"): "the page's id of a save: the API refuses one over 100 characters",
    ("web.application", "state"): "an ApplicationState value", ("web.application", "token"): "secrets.token_urlsafe(32)",
    ("web.application", "token_hash"): "a SHA-256 in hex", ("web.application", "start_code"): "secrets.token_urlsafe(16)",
    ("web.tournament", "checkin_code"): "six digits made by the check-in page",
    ("web.registrationwrite", "nickname"): "a nickname of an application or of the sheet's rows (MAX_TEXT)",
    ("auth.user", "password"): "Django's hash",
    ("auth.user", "first_name"): "not asked",
    ("auth.user", "last_name"): "not asked",
    ("auth.permission", "name"): "Django's", ("auth.permission", "codename"): "Django's",
    ("auth.group", "name"): "not used",
    ("contenttypes.contenttype", "app_label"): "Django's", ("contenttypes.contenttype", "model"): "Django's",
    ("sessions.session", "session_key"): "Django's",
    ("web.outboxmessage", "kind"): "the messaging code's word (state / seat / through / final / linked)",
    ("web.outboxmessage", "channel"): "a choice", ("web.outboxmessage", "state"): "a choice",
    ("web.outboxmessage", "key"): "made by the messaging code from ids and a preset's stage key, cut to the column",
    ("web.outboxmessage", "error"): "the sender's reason with Telegram's description, cut to the column",
    ("web.botstate", "lease_owner"): "the bot's loop: bot-<12 hex digits>",
    ("axes.accesslog", "session_hash"): "django-axes' hash",
    **{(log, name): "django-axes cuts it to the column itself" for log in
       ("axes.accessattempt", "axes.accessfailurelog", "axes.accesslog") for name in ("user_agent", "path_info",
                                                                                     "http_accept")},
}


def text_columns() -> set[tuple[str, str]]:
    return {(m._meta.label_lower, f.name) for m in apps.get_models() for f in m._meta.get_fields()
            if isinstance(f, models.CharField)}


def column(label: str, name: str) -> models.CharField:
    return apps.get_model(label)._meta.get_field(name)


def test_every_text_column_is_typed_through_a_form_checked_or_not_typed():
    decided = set(TYPED) | LINKS | set(NOT_TYPED)
    assert text_columns() - decided == set(), "a new text column: which form fills it, or why none"
    assert decided - text_columns() == set(), "a column that is no more"


def form_of(form_class: type[forms.Form], data: dict | None = None) -> forms.Form:
    speaks = form_class in (SignupForm, NewTournamentForm, ApplyForm)  # the forms whose refusals a page shows word for word
    return form_class(data, lang="ru") if speaks else form_class(data)


@pytest.mark.parametrize("where", sorted(TYPED))
def test_each_form_field_is_no_longer_than_its_column_and_refuses_one_more(where):
    form_class, name = TYPED[where]
    limit = column(*where).max_length
    field = form_of(form_class).fields[name]
    assert field.max_length is not None and field.max_length <= limit, (where, field.max_length, limit)
    too_long = "б" * (field.max_length + 1)
    if isinstance(field, forms.EmailField):
        too_long = "a" * (field.max_length - 11) + "@example.org"
    form = form_of(form_class, {name: too_long})
    assert not form.is_valid() and name in form.errors
    if form_class is not InviteForm:  # the members page says «members.bad_email» for any refusal
        assert "Не длиннее" in " ".join(form.errors[name]), form.errors[name]


def test_a_link_with_an_id_longer_than_googles_is_refused_and_no_claim_stored(signed_in, google_account, settings):
    settings.SERVICE_ACCOUNTS = google_account.key_file
    for sid in ("x" * (ID_LENGTH + 1), "x" * 201):
        page = signed_in.post(reverse("add_sheet"), {"link": f"https://docs.google.com/spreadsheets/d/{sid}/edit"})
        assert page.status_code == 200 and "не похоже на ссылку Google-таблицы" in page.content.decode()
    assert not Claim.objects.exists()
    ours = signed_in.post(reverse("add_sheet"), {"link": "gsheet:" + "x" * 44})  # the length of Google's
    said = ours.content.decode()  # taken as a link: the sheet is looked at (no such sheet: share it first)
    assert ours.status_code == 200 and "не похоже на ссылку" not in said and "Сервис пока не видит" in said
    form = NewTournamentForm({"into": "https://docs.google.com/spreadsheets/d/" + "x" * 201}, lang="ru")
    assert not form.is_valid() and "into" in form.errors


def test_a_sheets_name_longer_than_the_column_is_cut_when_the_sheet_is_added_and_synced(signed_in, google_account,
                                                                                         fake_server, settings):
    """The name comes from the sheet («Название»), not from a form: cut, never a refused INSERT."""
    import re

    from sheets_sync.example import EXAMPLE_PATH

    settings.SERVICE_ACCOUNTS = google_account.key_file
    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    tab = next(t for t in fake_server.tabs(sid) if t in ("Турнир", "Tournament"))
    rows = fake_server.values(sid, tab)
    name_row = next(i for i, row in enumerate(rows) if row and str(row[0]).strip() in ("Название", "Name"))
    long_name = "Кубок " * 100
    fake_server.set_values(sid, tab, [[long_name]], start=f"B{name_row + 1}", raw=True)
    page = signed_in.post(reverse("add_sheet"), {"link": f"gsheet:{sid}"}).content.decode()
    code = re.search(r'id="claim-code">([^<]+)<', page).group(1)
    fake_server.set_values(sid, tab, [[code]], start="D3", raw=True)
    answer = signed_in.post(reverse("add_sheet"), {"claim": Claim.objects.get().pk})
    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    limit = Tournament._meta.get_field("title").max_length
    assert len(tournament.title) == limit and tournament.title.startswith("Кубок Кубок") and tournament.last_sync_at


def test_the_form_checks_its_limits_before_any_request(client):
    """Sign-up's e-mail one character over the user name's column: refused on the page, in Russian."""
    email = "a" * 140 + "@example.org"  # 152 > 150
    page = Client().post(reverse("signup"), {"email": email, "password1": "x", "password2": "x"}).content.decode()
    assert "Не длиннее 150 знаков" in page
