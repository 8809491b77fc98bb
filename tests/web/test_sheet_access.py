"""A co-organizer can open the sheet (issue 43 §1), through the fake Google: accepting an invitation
shares the sheet with them as an editor (Drive ``permissions.create``) and adds their e-mail to
«Организаторы» on the Tournament tab, after what was typed there, so the next sync lets them into the
protected tabs; removing them undoes both, and only what accepting did. Where the service may not
share, the members page says exactly what the owner does by hand.

Before: accepting made a row in the server's database only — «Открыть таблицу» led to Google's «нет
доступа», the protected tabs refused them, and nothing said the owner had to share by hand."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from sheets_sync.keeper.budget import BudgetExhausted
from sheets_sync.web.accounts import sheet_access
from sheets_sync.web.models import Invitation, Job, Membership, Tournament
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key  # noqa: F401
from tests.web.test_accounts import signed_in
from tests.web.test_keeping import _sheet, account  # noqa: F401

pytestmark = pytest.mark.django_db

TAB = "Турнир"


def _owned_by_anna(fake_server, account, tmp_path, slug="kubok"):  # noqa: F811
    tournament = _sheet(fake_server, account, tmp_path, slug)
    owner, anna = signed_in("anna@club.ru")
    Membership.objects.create(user=anna, tournament=tournament, role=Membership.OWNER)
    return owner, tournament


def _carol_accepts(owner, tournament, email="carol@club.ru"):
    owner.post(reverse("members", args=[tournament.slug]), {"action": "invite", "email": email})
    invitation = Invitation.objects.get(tournament=tournament, email=email)
    carol, _ = signed_in(email)
    answer = carol.post(reverse("accept_invitation", args=[invitation.token]))
    assert answer.status_code == 302
    return carol


def client_of(email: str):
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(email=email), backend="django.contrib.auth.backends.ModelBackend")
    return client


def _permissions(fake_server, sid) -> dict[str, str]:
    """e-mail -> role, as Drive's permissions.list gives them."""
    from tests.fake_sheets import _permission_list

    return {p["emailAddress"]: p["role"] for p in _permission_list(fake_server.spreadsheets[sid]) if p.get("emailAddress")}


def _organizers_cell(fake_server, sid) -> str:
    for row in fake_server.values(sid, TAB):
        if row and row[0] == "Организаторы":
            return str(row[1]) if len(row) > 1 else ""
    return ""


def _protected_editors(fake_server, sid) -> set[frozenset]:
    book = fake_server.spreadsheets[sid]
    return {frozenset(u.lower() for u in p.get("editors", {}).get("users", ())) for sh in book.sheets for p in sh.protected}


def _access_jobs(tournament) -> list[Job]:
    return list(Job.objects.filter(tournament=tournament, action=sheet_access.ACCESS).order_by("pk"))


def test_accepting_shares_the_sheet_as_an_editor_and_lists_the_co_organizer(client, fake_server, account, tmp_path,
                                                                              mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    fake_server.set_values(t.spreadsheet_id, TAB, [["Организаторы", "anna@club.ru;  ivan@club.ru"]], start="A8")
    fake_server.reset_counts()
    _carol_accepts(owner, t)
    job, = _access_jobs(t)
    assert job.status == Job.DONE, job.result
    assert _permissions(fake_server, t.spreadsheet_id)["carol@club.ru"] == "writer"
    created = [r for r in fake_server.request_log if r["method"] == "POST" and r["path"].endswith("/permissions")]
    assert len(created) == 1 and created[0]["query"]["sendNotificationEmail"] == ["true"]  # Google mails the link
    # what was typed stays, as typed; the new address after it
    assert _organizers_cell(fake_server, t.spreadsheet_id) == "anna@club.ru;  ivan@club.ru, carol@club.ru"
    # the sync the job asked for put carol among the protected tabs' editors
    assert any("carol@club.ru" in editors for editors in _protected_editors(fake_server, t.spreadsheet_id))
    page = owner.get(reverse("members", args=[t.slug])).content.decode()
    assert "редактор Google-таблицы, в «Организаторах» на вкладке «Турнир»" in page
    assert 'id="my-access"' not in client_of("carol@club.ru").get(reverse("tournament", args=[t.slug])).content.decode()


def test_a_tab_without_the_row_gets_one_and_removing_undoes_both(client, fake_server, account, tmp_path, mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    _carol_accepts(owner, t)
    assert _organizers_cell(fake_server, t.spreadsheet_id) == "carol@club.ru"  # a row below the last filled one
    member = Membership.objects.get(tournament=t, user__email="carol@club.ru")
    owner.post(reverse("members", args=[t.slug]), {"action": "remove", "member": member.pk})
    removal = _access_jobs(t)[-1]
    assert removal.status == Job.DONE and (removal.params["email"], removal.params["add"]) == ("carol@club.ru", False)
    assert "carol@club.ru" not in _permissions(fake_server, t.spreadsheet_id)
    assert _organizers_cell(fake_server, t.spreadsheet_id) == ""
    assert not any("carol@club.ru" in editors for editors in _protected_editors(fake_server, t.spreadsheet_id))


def test_removing_leaves_what_was_there_before_the_invitation(client, fake_server, account, tmp_path, mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    fake_server.share(t.spreadsheet_id, "carol@club.ru")  # Anna had shared it by hand and listed her
    fake_server.set_values(t.spreadsheet_id, TAB, [["Организаторы", "carol@club.ru"]], start="A8")
    _carol_accepts(owner, t)
    assert _access_jobs(t)[0].result["shared"] == "already"
    member = Membership.objects.get(tournament=t, user__email="carol@club.ru")
    owner.post(reverse("members", args=[t.slug]), {"action": "remove", "member": member.pk})
    assert _permissions(fake_server, t.spreadsheet_id)["carol@club.ru"] == "writer"
    assert _organizers_cell(fake_server, t.spreadsheet_id) == "carol@club.ru"


@pytest.mark.parametrize("lang, says", [
    ("ru", "Откройте таблицу → «Настройки доступа» (кнопка «Поделиться») → добавьте carol@club.ru как редактора."),
    ("en", "Open the sheet → «Share» → add carol@club.ru as an editor."),
])
def test_where_the_service_may_not_share_the_page_says_what_to_do(client, fake_server, account, tmp_path, mailoutbox,
                                                                  lang, says):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    fake_server.forbid_sharing(t.spreadsheet_id)
    _carol_accepts(owner, t)
    assert "carol@club.ru" not in _permissions(fake_server, t.spreadsheet_id)
    assert "carol@club.ru" in _organizers_cell(fake_server, t.spreadsheet_id)  # the cell is written all the same
    page = owner.get(reverse("members", args=[t.slug]) + f"?lang={lang}").content.decode()
    assert says in page.replace("&quot;", '"'), page
    # and Carol, before she meets Google's «нет доступа», reads why on her own page and whom to ask
    hers = client_of("carol@club.ru").get(reverse("tournament", args=[t.slug]) + f"?lang={lang}").content.decode()
    assert ("Google-таблица вам ещё не открыта" if lang == "ru" else "not shared with you yet") in hers
    assert not [r for r in fake_server.request_log if r["method"] == "POST" and r["path"].endswith("/permissions")]
    # removing: the service may not take the share back either — the page says to remove by hand
    member = Membership.objects.get(tournament=t, user__email="carol@club.ru")
    fake_server.share(t.spreadsheet_id, "carol@club.ru")  # Anna did as told
    owner.post(reverse("members", args=[t.slug]), {"action": "remove", "member": member.pk})
    page = owner.get(reverse("members", args=[t.slug]) + f"?lang={lang}").content.decode()
    assert ("уберите carol@club.ru" if lang == "ru" else "remove carol@club.ru") in page


def test_a_spent_budget_holds_the_job_in_the_queue_not_the_page(client, fake_server, account, tmp_path, mailoutbox,
                                                                monkeypatch):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)

    def spent(*args, **kwargs):
        raise BudgetExhausted("drive")

    monkeypatch.setattr(sheet_access.sharing, "capabilities", spent)
    _carol_accepts(owner, t)
    job, = _access_jobs(t)
    assert job.status == Job.QUEUED and job.waiting == Job.FOR_BUDGET and job.attempts == 0
    page = owner.get(reverse("members", args=[t.slug])).content.decode()
    assert "открываем доступ к таблице" in page
    assert "Открываем вам Google-таблицу" in client_of("carol@club.ru").get(reverse("tournament", args=[t.slug])).content.decode()


def test_the_job_page_says_what_was_done_in_the_pages_language(client, fake_server, account, tmp_path, mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    carol = _carol_accepts(owner, t)
    job, = _access_jobs(t)
    page = carol.get(reverse("job", args=[t.slug, job.pk])).content.decode()
    assert "Таблица открыта для carol@club.ru (редактор)" in page and "Доступ к таблице" in page
    english = carol.get(reverse("job", args=[t.slug, job.pk]) + "?lang=en").content.decode()
    assert "The sheet is shared with carol@club.ru (editor)" in english
    assert json.loads(json.dumps(job.result))["lines"]["ru"]


def test_an_excel_tournament_has_no_share_job(client, tmp_path, mailoutbox):
    owner, anna = signed_in("anna@club.ru")
    t = Tournament.objects.create(slug="kubok", title="Кубок", source=Tournament.EXCEL, path=str(tmp_path / "k.xlsx"))
    Membership.objects.create(user=anna, tournament=t, role=Membership.OWNER)
    _carol_accepts(owner, t)
    assert not _access_jobs(t)
    assert "Настройки доступа" not in owner.get(reverse("members", args=[t.slug])).content.decode()


def test_the_organizers_cell_keeps_every_other_word_as_typed():
    from sheets_sync.workbook.organizers import ABSENT, ALREADY, organizers_edit

    tabs = {"Турнир": (("Название", "Кубок"), ("Организаторы", "a@x.ru,\nCarol@Club.ru; b@y.ru"))}
    edit = organizers_edit(tabs, "carol@club.ru", add=False)
    assert edit.write.rows[1] == (None, "a@x.ru; b@y.ru") and edit.cell == "B2"
    assert organizers_edit(tabs, "CAROL@club.ru", add=True).outcome == ALREADY
    assert organizers_edit(tabs, "dan@club.ru", add=False).outcome == ABSENT
    added = organizers_edit(tabs, "dan@club.ru", add=True).write.rows[1][1]
    assert added == "a@x.ru,\nCarol@Club.ru; b@y.ru, dan@club.ru"
    english = organizers_edit({"Tournament": (("Name", "Cup"), (), ("Date", "1.1"))}, "dan@club.ru", add=True,
                              language="en")
    assert english.write.rows == ((), (), (), ("Organizers", "dan@club.ru")) and english.cell == "B4"
    assert re.fullmatch(r"B\d+", english.cell)


def test_shared_by_hand_as_told_the_owner_asks_to_check_and_removing_takes_it_back(client, fake_server, account,
                                                                                   tmp_path, mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    fake_server.forbid_sharing(t.spreadsheet_id)
    _carol_accepts(owner, t)
    member = Membership.objects.get(tournament=t, user__email="carol@club.ru")
    fake_server.share(t.spreadsheet_id, "carol@club.ru")  # Anna did as the page said
    owner.post(reverse("members", args=[t.slug]), {"action": "recheck", "member": member.pk})
    page = owner.get(reverse("members", args=[t.slug])).content.decode()
    assert "редактор Google-таблицы" in page and "добавьте carol@club.ru" not in page
    fake_server.forbid_sharing(t.spreadsheet_id, False)
    owner.post(reverse("members", args=[t.slug]), {"action": "remove", "member": member.pk})
    assert "carol@club.ru" not in _permissions(fake_server, t.spreadsheet_id)  # shared for the invitation: taken back


def test_a_service_that_only_reads_the_sheet_says_both_steps_are_the_owners(client, fake_server, account, tmp_path,
                                                                            mailoutbox):
    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    fake_server.share(t.spreadsheet_id, SA_EMAIL, role="reader")  # shared with the service as «Viewer»
    _carol_accepts(owner, t)
    job, = _access_jobs(t)
    assert job.status == Job.DONE and job.result["shared"] == "by-hand" and job.result["listed"] == "refused"
    page = owner.get(reverse("members", args=[t.slug])).content.decode()
    assert "добавьте carol@club.ru как редактора" in page
    assert "Впишите carol@club.ru в ячейку «Организаторы» на вкладке «Турнир»" in page


def test_a_job_the_budget_sent_back_half_way_keeps_the_share_it_gave_as_its_own(client, fake_server, account,
                                                                                tmp_path, mailoutbox, monkeypatch):
    from sheets_sync.web import jobs

    owner, t = _owned_by_anna(fake_server, account, tmp_path)
    real_list = sheet_access._list

    def spent(*args, **kwargs):
        raise BudgetExhausted("read")

    monkeypatch.setattr(sheet_access, "_list", spent)
    _carol_accepts(owner, t)
    job, = _access_jobs(t)
    assert job.status == Job.QUEUED and job.params["done"] == {"shared": "created"}
    assert _permissions(fake_server, t.spreadsheet_id)["carol@club.ru"] == "writer"
    monkeypatch.setattr(sheet_access, "_list", real_list)
    job = jobs.run_job(job.pk)  # the minute after: the share is not asked again, nor taken for an old one
    assert job.status == Job.DONE and job.result["shared"] == "created" and job.result["listed"] == "added"
    member = Membership.objects.get(tournament=t, user__email="carol@club.ru")
    owner.post(reverse("members", args=[t.slug]), {"action": "remove", "member": member.pk})
    assert "carol@club.ru" not in _permissions(fake_server, t.spreadsheet_id)
