"""The form's saves (issue 44 §2, §4, §6) through the real server's views and writer job, into the
.xlsx of app mode's tournaments: the cells land in the protocol tab as a person would type them
and the standings follow; a sheet edited meanwhile is a conflict, not overwritten, until the judge
chooses; two phones see each other's entries; a save sent twice is written once; the input's limits."""

from __future__ import annotations

import pytest

from sheets_sync.web.models import Job, JudgeSave
from tests.web.judge_support import (api_get, api_post, cell, confirmation_on, gid, judged, save_form, synced,  # noqa: F401
                                     table_links, type_into, whole_game)
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401

pytestmark = pytest.mark.django_db
TAB = "Тур 1 Стол 1"


def _game(client, token, game=gid(1, 1)) -> dict:
    answer = api_get(client, token, f"games/{game}/")
    assert answer.status_code == 200
    return answer.json()


def test_a_whole_game_saved_on_the_phone_lands_in_the_tab_and_counts(client, judged):
    token = table_links(judged)[1]
    seats = _game(client, token)["seats"]
    cells = {**whole_game(seats), ":judge": "Судья Анна"}
    answer = save_form(client, token, gid(1, 1), cells, submit=True)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert not [p for p in body["problems"] if p["severity"] == "error"], body["problems"]
    game = body["game"]
    assert game["pending"] == 0 and game["status"] == "submitted" and game["saved_at"]
    assert game["cells"][":winner"] == cells[":winner"] and game["cells"][":judge"] == "Судья Анна"
    path = judged.path
    assert cell(path, TAB, "B5") == "Судья Анна" and cell(path, TAB, "B6") == cells[":winner"]
    roles = [cell(path, TAB, f"C{9 + s}") for s in range(1, 11)]
    assert sorted(roles) == sorted(cells[f"{s}:role"] for s in range(1, 11))
    judged.refresh_from_db()
    assert judged.last_sync["games"] == 1  # the standings followed, in the same job
    assert Job.objects.filter(tournament=judged, action="judge-write", status=Job.DONE).count() == 1


def test_a_sheet_edit_meanwhile_is_a_conflict_then_the_judges_choice_wins(client, judged):
    token = table_links(judged)[1]
    base = _game(client, token)["cells"]
    type_into(judged.path, TAB, "D12", 2)  # a person types 2 fouls for seat 3 in the sheet
    answer = save_form(client, token, gid(1, 1), {"3:fouls": "1", ":judge": "Судья"}, base=base)
    game = answer.json()["game"]
    assert game["conflicts"] == [{"key": "3:fouls", "base": "", "sheet": "2", "mine": "1"}]
    assert cell(judged.path, TAB, "D12") == 2 and cell(judged.path, TAB, "B5") == "Судья"  # the rest is written
    again = save_form(client, token, gid(1, 1), {"3:fouls": "1"}, base=base, choose={"3:fouls": "mine"}).json()["game"]
    assert again["conflicts"] == [] and cell(judged.path, TAB, "D12") == 1
    type_into(judged.path, TAB, "D13", 3)
    synced(judged)
    kept = save_form(client, token, gid(1, 1), {"4:fouls": "1"}, base={"4:fouls": ""}).json()["game"]
    assert kept["conflicts"][0]["sheet"] == "3"
    taken = save_form(client, token, gid(1, 1), {"4:fouls": "1"}, base={"4:fouls": ""},
                      choose={"4:fouls": "sheet"}).json()["game"]
    assert taken["conflicts"] == [] and cell(judged.path, TAB, "D13") == 3 and taken["cells"]["4:fouls"] == "3"


def test_two_phones_on_one_table_see_each_others_entries(client, judged):
    token = table_links(judged)[1]
    save_form(client, token, gid(1, 1), {"5:fouls": "2"})
    second = _game(client, token)  # the other phone, reading the game
    assert second["cells"]["5:fouls"] == "2" and second["status"] == "in_play"
    save_form(client, token, gid(1, 1), {"6:fouls": "1"}, base={"6:fouls": ""})
    assert _game(client, token)["cells"]["5:fouls"] == "2" and _game(client, token)["cells"]["6:fouls"] == "1"


def test_the_same_save_sent_twice_is_written_once(client, judged):
    token = table_links(judged)[1]
    first = save_form(client, token, gid(1, 1), {"7:fouls": "1"}, save_id="save-1")
    type_into(judged.path, TAB, "D16", 3)  # the sheet changed after the first save: a second write would show
    synced(judged)
    again = save_form(client, token, gid(1, 1), {"7:fouls": "1"}, base={"7:fouls": ""}, save_id="save-1")
    assert first.status_code == again.status_code == 200
    assert JudgeSave.objects.filter(save_id="save-1").count() == 1
    assert Job.objects.filter(tournament=judged, action="judge-write").count() == 1
    assert cell(judged.path, TAB, "D16") == 3 and again.json()["game"]["conflicts"] == []


def test_the_rules_problems_come_at_their_fields_before_sending(client, judged):
    token = table_links(judged)[1]
    cells = {"1:role": "дон", "8:role": "дон", "5:fouls": "5"}
    problems = save_form(client, token, gid(1, 1), cells).json()["problems"]
    fields = {(p["seat"], p["column"]) for p in problems}
    assert (5, "fouls") in fields and ((1, "role") in fields or (8, "role") in fields)
    assert all(p["message"] and p["severity"] in ("error", "warning") for p in problems)
    assert _game(client, token)["status"] in ("in_play", "problems")


def test_input_limits_long_text_a_formula_and_html(client, judged):
    token = table_links(judged)[1]
    long = save_form(client, token, gid(1, 1), {"1:player": "Я" * 5000}, base={})
    assert long.status_code == 400 and long.json()["code"] == "too_long" and not JudgeSave.objects.exists()
    formula = '=HYPERLINK("http://evil.example/","x")'
    save_form(client, token, gid(1, 1), {"1:comment": formula, "2:comment": "<script>alert(1)</script>"})
    assert cell(judged.path, TAB, "J10") == formula  # text, not a formula
    import openpyxl

    ws = openpyxl.load_workbook(judged.path)[TAB]
    assert ws["J10"].data_type == "s"
    raw = api_get(client, token, f"games/{gid(1, 1)}/").content.decode()
    assert "<script>" not in raw  # JSON escapes it; the page sets it as text
    big = api_post(client, token, f"games/{gid(1, 1)}/form/", b'{"id": "x", "cells": {}, "pad": "' + b"a" * 300_000 + b'"}')
    assert big.status_code == 413 and big.json()["code"] == "too_large"
    bad = api_post(client, token, f"games/{gid(1, 1)}/form/", b"not json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_an_emptied_cell_is_cleared_in_the_sheet(client, judged):
    token = table_links(judged)[1]
    save_form(client, token, gid(1, 1), {"9:fouls": "2"})
    assert cell(judged.path, TAB, "D18") == 2
    save_form(client, token, gid(1, 1), {"9:fouls": ""})
    assert cell(judged.path, TAB, "D18") is None and _game(client, token)["cells"]["9:fouls"] == ""


def test_a_server_updated_makes_the_games_file_on_its_next_sync_of_an_unchanged_sheet(judged):
    from sheets_sync.web.jobs import out_dir
    from sheets_sync.web.judge.games import games_file

    path = games_file(out_dir(judged))
    path.unlink()
    synced(judged)  # the workbook is as the last sync left it: skipped, yet the judges' file is made
    judged.refresh_from_db()
    assert path.exists() and judged.last_sync["skipped"]


def test_an_unchanged_game_polled_again_is_a_304(client, judged):
    token = table_links(judged)[1]
    first = api_get(client, token, f"games/{gid(1, 1)}/")
    again = client.get(f"/j/{token}/api/games/{gid(1, 1)}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    save_form(client, token, gid(1, 1), {"2:fouls": "1"})
    changed = client.get(f"/j/{token}/api/games/{gid(1, 1)}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_organizers_jobs_table_names_the_judges_jobs_in_words(client, judged, organizer):
    token = table_links(judged)[1]
    save_form(client, token, gid(1, 1), {"1:fouls": "1"})
    client.force_login(organizer)
    html = client.get(f"/o/{judged.slug}/").content.decode()
    assert "Запись с телефонов судей" in html and "judge-write" not in html


def test_a_save_stored_when_queueing_its_writer_failed_is_written_when_the_phone_sends_it_again(client, judged,
                                                                                             monkeypatch):
    from sheets_sync.web.judge import api

    token = table_links(judged)[1]

    def busy(tournament):  # the database refused the job after the save was stored: the phone got an error
        raise RuntimeError("database is locked")

    monkeypatch.setattr(api, "request_write", busy)
    with pytest.raises(RuntimeError):
        save_form(client, token, gid(1, 1), {"7:fouls": "2"}, save_id="save-lost")
    assert JudgeSave.objects.get(save_id="save-lost").written_at is None
    assert not Job.objects.filter(tournament=judged, action="judge-write").exists()
    monkeypatch.undo()
    save_form(client, token, gid(1, 1), {"7:fouls": "2"}, save_id="save-lost")  # the outbox sends it again
    assert JudgeSave.objects.get(save_id="save-lost").written_at is not None
    assert cell(judged.path, TAB, "D16") == 2
