"""Who may write where in a Google Sheet (issue 25, part 1), against the fake Sheets server.

The sync protects its own tabs and the hidden state tab (editors: its service account and the
organizers of «Организаторы») and, with «Подтверждение протоколов = да», each protocol's
«Проверил» cell (editors: the sync and the chief judges of «Главные судьи»).  Requests are made
as a judge's account, as the chief judge's and as the organizer's, each with a key of its own:
the fake knows who sends each request from the bearer token, as Google does.
"""

from __future__ import annotations

import shutil

import pytest
from gspread.exceptions import APIError

from scoring.problems import Severity
from sheets_sync.backends.base import STATE_TAB, Protection
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.workbook.protection import protection_changes, restored_problems
from sheets_sync.loop.sync import sync_once
from tests.fake_sheets import PROTECTED_MESSAGE
from tests.google_support import OWNED, SA_EMAIL, fake_http_client, google_backend, upload_xlsx, write_key_file

ORGANIZER, CHIEF, JUDGE = "org@example.com", "chief@example.com", "judge@example.com"
PROTOCOL = "Тур 1 Стол 1"
B7 = (2, 7, 1, 6)  # the bounds of «Проверил»'s cell, by key: endColumnIndex, endRowIndex, startColumnIndex, startRowIndex


@pytest.fixture
def book(fake_server, sa_key, tmp_path):
    """The example tournament in the fake, organizers and chief judges named, confirmation on,
    synced once by the service account; plus a transport per person."""
    path = tmp_path / "t.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    sid = upload_xlsx(fake_server, path)
    fake_server.set_values(sid, "Турнир", [["Организаторы", ORGANIZER], ["Главные судьи", f"{CHIEF}, {SA_EMAIL}"],
                                           ["Подтверждение протоколов", "да"]], start="A9")
    backend = google_backend(fake_server, sa_key, sid)
    people = {who: fake_http_client(fake_server, write_key_file(tmp_path / f"{who}.json", fake_server.token_uri, who))
              for who in (ORGANIZER, CHIEF, JUDGE)}
    report = sync_once(backend, out_dir=None)
    assert report.written
    return sid, backend, people, report


def _ranges(server, sid: str) -> dict[tuple[str, tuple], dict]:
    """(tab, bounds) -> the protected range as stored (bounds () for a whole tab)."""
    out = {}
    for sheet in server.spreadsheets[sid].sheets:
        for p in sheet.protected:
            bounds = tuple(v for k, v in sorted(p["range"].items()) if k != "sheetId")
            out[(sheet.title, bounds)] = p
    return out


def _write(http, sid: str, tab: str, cell: str, value) -> None:
    http.values_batch_update(sid, body={"valueInputOption": "USER_ENTERED",
                                        "data": [{"range": f"'{tab}'!{cell}", "values": [[value]]}]})


def _refused(call) -> dict:
    with pytest.raises(APIError) as caught:
        call()
    assert caught.value.response.status_code == 400
    return caught.value.response.json()["error"]


def test_owned_tabs_state_tab_and_checked_by_cells_are_protected(fake_server, book):
    sid, _, _, report = book
    ranges = _ranges(fake_server, sid)
    tabs = set(fake_server.tabs(sid))
    for title in [t for t in OWNED if t in tabs]:
        p = ranges[(title, ())]
        assert set(p["editors"]["users"]) == {SA_EMAIL, ORGANIZER} and p["warningOnly"] is False, title
    protocols = report.outcome.results.tournament.protocols
    assert protocols
    for proto in protocols:
        cell = proto.cells["checked_by"]
        assert cell.cell == "B7"
        p = ranges[(proto.sheet, B7)]
        assert set(p["editors"]["users"]) == {SA_EMAIL, CHIEF}
    # protocol tabs stay open: nothing else on them is protected
    assert not [key for key in ranges if key[0] == PROTOCOL and key[1] != B7]
    print("protected ranges after the first sync:", len(ranges), "of which «Проверил» cells:", len(protocols))


def test_a_judge_is_refused_with_the_api_error_where_only_the_sync_and_organizers_write(fake_server, book):
    sid, backend, people, _ = book
    judge = people[JUDGE]
    for tab, cell in (("Итоги", "B3"), (STATE_TAB, "A1"), (PROTOCOL, "B7")):
        error = _refused(lambda: _write(judge, sid, tab, cell, "Пума"))
        assert error == {"code": 400, "message": PROTECTED_MESSAGE, "status": "INVALID_ARGUMENT"}, tab
    # a batchUpdate is refused whole too: deleting the protection, or rewriting the standings
    (range_id,) = [p["protectedRangeId"] for (t, b), p in _ranges(fake_server, sid).items() if t == "Итоги"]
    assert _refused(lambda: judge.batch_update(sid, {"requests": [{"deleteProtectedRange": {"protectedRangeId": range_id}}]}))["message"] == PROTECTED_MESSAGE
    # what a judge types into a protocol goes in; the sync keeps working
    _write(judge, sid, PROTOCOL, "I10", "0,4")
    report = sync_once(backend, out_dir=None)
    assert report.written and fake_server.values(sid, PROTOCOL)[9][8] == 0.4
    # a judge does not even see who the editors are (the API shows them to editors only)
    meta = judge.fetch_sheet_metadata(sid, params={"fields": "sheets(properties(title),protectedRanges)"})
    standings = [s for s in meta["sheets"] if s["properties"]["title"] == "Итоги"][0]
    assert "editors" not in standings["protectedRanges"][0] and standings["protectedRanges"][0]["requestingUserCanEdit"] is False


def test_the_chief_judge_confirms_and_the_organizer_edits(fake_server, book):
    sid, backend, people, _ = book
    _write(people[CHIEF], sid, PROTOCOL, "B7", "Главный Судья")
    assert _refused(lambda: _write(people[CHIEF], sid, "Итоги", "B3", "x"))["message"] == PROTECTED_MESSAGE
    _write(people[ORGANIZER], sid, "Итоги", "Z1", "заметка организатора")
    report = sync_once(backend, out_dir=None)
    assert report.written
    assert PROTOCOL not in report.outcome.results.tournament.unconfirmed
    assert len(fake_server.values(sid, "Итоги")[0]) < 26  # the sync rewrote its tab over the organizer's note


def test_a_removed_protection_is_put_back_and_reported(fake_server, book):
    sid, backend, people, _ = book
    ranges = _ranges(fake_server, sid)
    removed = [ranges[("Итоги", ())]["protectedRangeId"], ranges[(PROTOCOL, B7)]["protectedRangeId"]]
    # the organizer takes the standings' protection away (an editor of it may); the chief judge the «Проверил» one
    people[ORGANIZER].batch_update(sid, {"requests": [{"deleteProtectedRange": {"protectedRangeId": removed[0]}}]})
    people[CHIEF].batch_update(sid, {"requests": [{"deleteProtectedRange": {"protectedRangeId": removed[1]}}]})
    _write(people[JUDGE], sid, PROTOCOL, "B7", "Судья Сам")  # nothing stops a judge now
    backend.refresh_metadata()  # as every metadata_max_age seconds: the read sees the protected ranges then
    fake_server.reset_counts()
    report = sync_once(backend, out_dir=None)
    assert fake_server.request_count == 3  # metadata, batchGet, batchUpdate: nothing more
    found = [p for p in report.outcome.problems if p.rule.startswith("protect.")]
    assert {(p.rule, p.location.sheet, p.severity) for p in found} == {
        ("protect.tab_restored", "Итоги", Severity.WARNING), ("protect.cells_restored", PROTOCOL, Severity.WARNING)}
    problems_tab = "\n".join(str(v) for row in fake_server.values(sid, "Проверка") for v in row if v)
    assert "Защиту вкладки «Итоги» сняли или изменили; sheets-sync вернул её" in problems_tab
    assert "Защиту ячейки B7 вкладки «Тур 1 Стол 1» сняли или изменили" in problems_tab
    assert found[0].message("en").startswith("The protection of")
    # put back: the judge is refused again, and the next sync has nothing more to say
    assert _refused(lambda: _write(people[JUDGE], sid, "Итоги", "B3", "x"))["message"] == PROTECTED_MESSAGE
    assert _refused(lambda: _write(people[JUDGE], sid, PROTOCOL, "B7", "x"))["message"] == PROTECTED_MESSAGE
    again = sync_once(backend, out_dir=None)
    assert not [p for p in again.outcome.problems if p.rule.startswith("protect.")]


def test_warning_only_or_an_organizer_added_becomes_protection_again_or_updates(fake_server, book):
    sid, backend, people, _ = book
    p = _ranges(fake_server, sid)[("Статистика", ())]
    people[ORGANIZER].batch_update(sid, {"requests": [{"updateProtectedRange": {
        "protectedRange": {"protectedRangeId": p["protectedRangeId"], "warningOnly": True, "editors": {}},
        "fields": "warningOnly,editors"}}]})
    fake_server.set_values(sid, "Турнир", [["Организаторы", f"{ORGANIZER}; second@example.com"]], start="A9")
    backend.refresh_metadata()
    report = sync_once(backend, out_dir=None)
    assert [x.location.sheet for x in report.outcome.problems if x.rule == "protect.tab_restored"] == ["Статистика"]
    ranges = _ranges(fake_server, sid)
    assert ranges[("Статистика", ())]["protectedRangeId"] == p["protectedRangeId"]  # updated, not added again
    assert ranges[("Статистика", ())]["warningOnly"] is False
    for title in ("Итоги", "Статистика", STATE_TAB):
        assert set(ranges[(title, ())]["editors"]["users"]) == {SA_EMAIL, ORGANIZER, "second@example.com"}


def test_an_idle_cycle_costs_one_request_and_sets_nothing(fake_server, book):
    sid, backend, _, _ = book
    fake_server.reset_counts()
    report = sync_once(backend, out_dir=None)
    assert fake_server.request_count == 1 and not report.written and report.patch.empty


def test_protection_changes_without_a_backend_that_reads_them():
    """A backend that does not read protections (an .xlsx): only the tabs written are asked for."""
    from scoring.standings import Results  # noqa: F401  (the outcome below needs none)
    from sheets_sync.backends.base import Snapshot, TabWrite

    snapshot = Snapshot(tabs={"Итоги": (), "Тур 1 Стол 1": ()}, order=("Итоги", "Тур 1 Стол 1"))
    wanted = (Protection(sheet="Итоги"), Protection(sheet=STATE_TAB), Protection(sheet="Тур 1 Стол 1", cells="B7"))
    add, drop = protection_changes(snapshot, wanted, [TabWrite(title=STATE_TAB, rows=())])
    assert add == (Protection(sheet=STATE_TAB),) and drop == ()
    assert restored_problems(snapshot) == []


def test_init_organizer_is_written_shared_and_an_editor(fake_server, sa_key, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from sheets_sync.backends.google import ENDPOINT_ENV
    from sheets_sync.cli import main

    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    players = tmp_path / "players.csv"
    players.write_text("Игрок;Клуб\n" + "\n".join(f"Игрок {i:02d};К{i % 4}" for i in range(1, 21)), encoding="utf-8")
    before = set(fake_server.spreadsheets)
    result = CliRunner().invoke(main, ["init", "gsheet:new", "--players", str(players), "--organizer", ORGANIZER,
                                       "--organizer", "Second@Example.com", "--credentials", sa_key])
    assert result.exit_code == 0, result.output
    (sid,) = set(fake_server.spreadsheets) - before
    assert ["Организаторы", f"{ORGANIZER}, second@example.com"] in fake_server.values(sid, "Турнир")
    assert [p["emailAddress"] for p in fake_server.spreadsheets[sid].permissions] == [ORGANIZER, "second@example.com"]
    ranges = _ranges(fake_server, sid)
    assert set(ranges[("Итоги", ())]["editors"]["users"]) == {SA_EMAIL, ORGANIZER, "second@example.com"}
    assert not [key for key in ranges if key[0].startswith("Тур ")]  # no confirmation asked for: protocols all open


@pytest.mark.parametrize(("typed", "emails", "refused"), [
    ("org@example.com", ("org@example.com",), []),
    ("A@x.ru, b@y.org; a@x.ru", ("a@x.ru", "b@y.org"), []),
    ("a@x.ru  Иван b@y.org", ("a@x.ru", "b@y.org"), ["Иван"]),
    ("", (), []),
])
def test_organizers_and_chief_judges_are_read_as_e_mails(typed, emails, refused):
    from scoring.parse import read_settings

    tabs = {"Турнир": (("Название", "Кубок"), ("Организаторы", typed), ("Главные судьи", typed))}
    settings = read_settings(tabs)
    assert settings.organizers == emails and settings.chief_judges == emails
    bad = [p for p in settings.problems if p.rule == "read.bad_setting"]
    assert [(p.location.cell, p.severity) for p in bad] == [("B2", Severity.WARNING)] * len(refused) + \
        [("B3", Severity.WARNING)] * len(refused)
    assert all(word in p.message("ru") for p, word in zip(bad, refused * 2))
