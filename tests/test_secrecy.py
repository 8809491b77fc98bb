"""Nothing secret of a game in play leaks (issue 44 §8): no public output shows a role, a check, a
best move or extra points of a game with no winner yet — peeking is a team's defeat.

The example as it stood mid-qualifying (three rounds and one game of the fourth finished, the later
games typed with roles, best moves, extra points and no winner) gets more secrets typed into games in
play: the optional check columns, a comment, a role with a Latin letter, two dons.  Its public
outputs — the site (with the hall screen), standings.json, the VK text and picture, the MWT export,
the hosted ``/t/<slug>/`` pages crawled through the test client — must be byte for byte those of the
same workbook with those games' secret cells emptied (SHEETS_SYNC_NOW pins «Обновлено»).  Once the
winner is typed, the roles show.  A Hypothesis property does the same over random games in play.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scoring.model import Protocol, Role, Team
from scoring.rules import validate
from scoring.secrecy import in_play, public_protocol, public_tournament
from scoring.standings import compute as compute_standings, published
from sheets_sync.actions.export import write_workbook_mwt
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import example_mid_qualifying
from sheets_sync.loop.sync import sync_once
from sheets_sync.render.json_out import standings_document
from sheets_sync.render.site import site_files
from sheets_sync.render.vk import post_text
from tests.helpers import examples, preset, protocol, seating_of, tournament

# the protocol tab's columns whose cells are secret while the game is played (as a judge would list them)
SECRET_HEADS = ("Роль", "ЛХ", "Доп. баллы", "Комментарий", "Проверка шерифа", "Проверка дона")
WINNER_CELL = "B6"
NOW = "2026-12-06T15:30"


def _header(ws) -> tuple[int, dict[str, int]]:
    for row in ws.iter_rows():
        heads = {str(c.value): c.column for c in row if c.value is not None}
        if "№" in heads and "Роль" in heads:
            return row[0].row, heads
    raise AssertionError(f"no seat table in {ws.title}")


def _in_play_tabs(wb) -> list[str]:
    return [ws.title for ws in wb.worksheets if ws.title.startswith("Тур ") and not ws[WINNER_CELL].value
            and any(ws.cell(r, 3).value for r in range(11, 21))]


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    return secret_workbooks(tmp_path_factory.mktemp("secret"))


def secret_workbooks(folder: Path) -> tuple[Path, Path, list[str]]:
    """(the mid-qualifying example with more secrets typed in games in play, the same with every
    game in play's secret cells emptied, the tabs of the games in play)."""
    typed = example_mid_qualifying(folder / "typed" / "cup.xlsx")
    wb = openpyxl.load_workbook(typed)
    playing = _in_play_tabs(wb)
    assert len(playing) >= 10, playing
    first, second, third = (wb[t] for t in playing[:3])
    row, heads = _header(first)
    first.cell(row + 1, heads["Проверка шерифа"], "1")  # the sheriff checked on night 1
    first.cell(row + 2, heads["Проверка дона"], "2")
    first.cell(row + 3, heads["Комментарий"], "шериф проверил 9 — чёрный")
    row, heads = _header(second)
    second.cell(row + 4, heads["Роль"], "шeриф")  # a Latin «e»: the reader's look-alike error quotes it
    row, heads = _header(third)
    dons = [r for r in range(row + 1, row + 11) if third.cell(r, heads["Роль"]).value in ("мафия", "мирный")]
    third.cell(dons[0], heads["Роль"], "дон")  # two dons: the composition error names both seats
    wb.save(typed)
    blank = folder / "blank" / "cup.xlsx"
    blank.parent.mkdir()
    wb = openpyxl.load_workbook(typed)
    for title in playing:
        ws = wb[title]
        row, heads = _header(ws)
        for r in range(row + 1, row + 11):
            for head in SECRET_HEADS:
                ws.cell(r, heads[head]).value = None  # (cell(r, c, None) would leave the value)
    wb.save(blank)
    return typed, blank, playing


def _public_files(workbook: Path, out: Path) -> dict[str, bytes]:
    sync_once(ExcelBackend(workbook, backups=0), out_dir=out)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
             if p.is_file() and not p.relative_to(out).as_posix().startswith(".")}  # not the sync's own memory
    mwt = write_workbook_mwt(str(workbook), out=str(out.parent / "mwt"))
    files |= {f"mwt/{p.name}": p.read_bytes() for p in sorted(mwt.folder.iterdir())}
    return files


def test_a_game_in_play_shows_nothing_secret_on_any_public_output(workbooks, tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, blank, playing = workbooks
    shown = _public_files(typed, tmp_path / "typed" / "out")
    emptied = _public_files(blank, tmp_path / "blank" / "out")
    assert {"standings.json", "vk-post.txt", "vk-post.png", "site/index.html", "site/screen.html"} <= set(shown)
    assert len([f for f in shown if f.startswith("site/games/")]) == 28  # in play too: the page shows who plays
    assert shown.keys() == emptied.keys()
    differ = [name for name in shown if shown[name] != emptied[name]]
    assert differ == [], differ
    # what the mid example's games in play say on their pages: nobody's role, no best move
    page = next(v for k, v in shown.items() if k.startswith("site/games/qualifying-r4-t2-")).decode()
    assert "Эхо" in page and not re.search(r"\b(дон|шериф|мафия)\b", page, re.IGNORECASE), page
    assert "2 3 6" not in page and "проверил" not in page


def test_the_workbooks_own_tabs_count_no_game_in_play(workbooks, tmp_path, monkeypatch):
    """Итоги and Статистика are made of counted games only: a game in play adds no role to them."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, blank, _ = workbooks
    tabs = {}
    for name, source in (("typed", typed), ("blank", blank)):
        copy = tmp_path / name / "cup.xlsx"
        copy.parent.mkdir()
        shutil.copy(source, copy)
        sync_once(ExcelBackend(copy, backups=0), out_dir=None)
        wb = openpyxl.load_workbook(copy, read_only=True)
        tabs[name] = {t: [r for r in wb[t].iter_rows(values_only=True)] for t in ("Итоги", "Статистика")}
    assert tabs["typed"] == tabs["blank"]


def test_the_problems_tab_names_the_cell_of_a_secret_mistake_and_its_note_says_it(workbooks, tmp_path, monkeypatch):
    """Anybody who opens the workbook reads the Problems tab: a mistake of a game in play that would
    tell a role (a Latin letter in «шериф», two dons) is listed at its cell without the words; the
    note on the protocol's own cell, beside what was typed, keeps them."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, _, playing = workbooks
    copy = tmp_path / "cup.xlsx"
    shutil.copy(typed, copy)
    sync_once(ExcelBackend(copy, backups=0), out_dir=None)
    wb = openpyxl.load_workbook(copy)
    rows = [r for r in wb["Проверка"].iter_rows(values_only=True) if r[0] in playing]
    text = " ".join(str(v) for r in rows for v in r if v)
    assert "шeриф" not in text and "дон" not in text.replace("до конца", "") and "шериф" not in text, text
    secret = [r for r in rows if r[4] == "Игра идёт: подробности в примечании"]
    assert {r[0] for r in secret} == {playing[1], playing[2]}, rows
    lookalike = next(r for r in secret if r[0] == playing[1])
    assert "латинская буква «e»" in wb[playing[1]][lookalike[1]].comment.text
    assert any(r[0] == playing[0] and "не завершена" in r[3] for r in rows)  # what may be said is said


def test_the_log_tab_says_when_a_secret_cell_changed_but_not_what_to(workbooks, tmp_path, monkeypatch):
    """The Журнал is read by whoever opens the workbook: a role changed in a game in play is logged
    at its cell as hidden until the game ends; ``log.jsonl`` (the organizer's file) has the words,
    and once the winner is typed, a change is logged as typed."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, _, playing = workbooks
    copy = tmp_path / "cup.xlsx"
    shutil.copy(typed, copy)
    sync_once(ExcelBackend(copy, backups=0), out_dir=tmp_path / "out")
    wb = openpyxl.load_workbook(copy)
    ws = wb[playing[0]]
    row, heads = _header(ws)
    role = ws.cell(row + 1, heads["Роль"])
    role.value = "мафия" if role.value == "дон" else "дон"
    ws.cell(row + 2, heads["Фолы"]).value = 3  # a foul is public
    done = wb["Тур 4 Стол 1"]  # a finished game: its role is no secret
    done_row, done_heads = _header(done)
    done_role = done.cell(done_row + 2, done_heads["Роль"])
    done_role.value = "дон" if done_role.value != "дон" else "мафия"
    wb.save(copy)
    sync_once(ExcelBackend(copy, backups=0), out_dir=tmp_path / "out")
    log = {(r[1], r[2]): r[3:5] for r in openpyxl.load_workbook(copy)["Журнал"].iter_rows(values_only=True)}
    assert log[(playing[0], role.coordinate)] == ("скрыто до конца игры", "скрыто до конца игры")
    assert log[(playing[0], ws.cell(row + 2, heads["Фолы"]).coordinate)][1] == "3"
    assert log[("Тур 4 Стол 1", done_role.coordinate)][1] == done_role.value
    jsonl = (tmp_path / "out" / "log.jsonl").read_text(encoding="utf-8")
    assert f'"cell": "{role.coordinate}", "old": ' in jsonl and f'"new": "{role.value}"' in jsonl


def test_once_the_winner_is_typed_the_roles_show(workbooks, tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETS_SYNC_NOW", NOW)
    typed, _, playing = workbooks
    copy = tmp_path / "cup.xlsx"
    shutil.copy(typed, copy)
    wb = openpyxl.load_workbook(copy)
    title = next(t for t in playing if t == "Тур 4 Стол 2")
    wb[title][WINNER_CELL] = "Мирные"
    wb.save(copy)
    sync_once(ExcelBackend(copy, backups=0), out_dir=tmp_path / "out")
    page = next((tmp_path / "out" / "site" / "games").glob("qualifying-r4-t2-*.html")).read_text(encoding="utf-8")
    assert re.search(r"\bдон\b", page, re.IGNORECASE) and "2 3 6" in page


# -- the property ------------------------------------------------------------------------------------
NAMES = [f"Игрок {i}" for i in range(1, 21)]
FINISHED = protocol(NAMES[:10], "дммшкккккк", "red", table=1, s3={"killed_night": 1, "best_move": (1, 2, 4)})


@st.composite
def games_in_play(draw) -> Protocol:
    """A game of table 2 typed as far as a judge got: roles (any, even wrong ones), fouls, who left,
    best moves, extra points and comments — and no winner."""
    roles = draw(st.lists(st.sampled_from("дмшк-"), min_size=10, max_size=10))
    p = protocol(NAMES[10:], "".join(r if r != "-" else "к" for r in roles), None, table=2)
    seats = []
    for rec, r in zip(p.seats, roles):
        seats.append(replace(
            rec, role=None if r == "-" else rec.role, fouls=draw(st.integers(0, 4)),
            killed_night=draw(st.none() | st.integers(1, 3)), voted_day=draw(st.none() | st.integers(1, 3)),
            best_move=tuple(draw(st.lists(st.integers(1, 10), max_size=3, unique=True))),
            extra_points=draw(st.sampled_from([Decimal(0), Decimal("0.1"), Decimal("0.4"), Decimal("-0.5"), Decimal(7)])),
            comment=draw(st.sampled_from(["", "шериф проверил 3", "дон"]))))
    return replace(p, seats=tuple(seats))


def _emptied(p: Protocol) -> Protocol:
    return replace(p, seats=tuple(replace(s, role=None, best_move=(), extra_points=Decimal(0), comment="") for s in p.seats))


def _outputs(p: Protocol) -> tuple:
    pr = preset()
    t = tournament(NAMES, protocols=[FINISHED, p], seating=[seating_of(FINISHED), seating_of(p)])
    shown = published(compute_standings(t, pr, validate(t, pr)))
    return (standings_document(shown, shown.problems, language="ru", public=False),
            site_files(shown, shown.problems, language="ru"), post_text(shown, language="ru"))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_in_play())
def test_any_game_in_play_publishes_what_its_emptied_secrets_would(p):
    assert in_play(p) and public_protocol(p) == _emptied(p)
    assert _outputs(p) == _outputs(_emptied(p))
    # finished, it shows as typed
    done = replace(p, winner=Team.BLACK)
    assert public_protocol(done) is done
    t = tournament(NAMES, protocols=[done])
    assert public_tournament(t) is t


def test_an_emptied_game_and_a_finished_one_are_left_as_they_are():
    assert public_protocol(FINISHED) is FINISHED
    empty = _emptied(replace(FINISHED, winner=None))
    assert public_protocol(empty) is empty
    assert any(s.role is Role.DON for s in FINISHED.seats)


def test_an_evening_game_in_play_shows_nothing_secret_on_the_seasons_outputs():
    """A club season: the last evening's second game is typed as far as the judge got (a block of the
    evening's tab), and the season's pages, JSON and posts are those of its emptied secrets."""
    from scoring.model import Player
    from scoring.season import season
    from sheets_sync.render.vk_season import evening_post_text, season_post_text
    from tests.test_season import CLUB, GAMES, PRESET, THIRD, _game

    playing = replace(_game("2026-12-19", 2, THIRD, "дмшмкккккк", "red", s4={"killed_night": 1, "best_move": (1, 2, 3)},
                            s2={"extra": "0.5", "comment": "дон проверил 3"}), winner=None, anchor="A15", rows=(14, 26))

    def outputs(game: Protocol) -> tuple:
        t = replace(tournament([Player(nickname=n) for n in CLUB], (*GAMES, game)), season=True, name="Клуб «Ночь»")
        shown = published(compute_standings(t, PRESET, validate(t, PRESET)))
        return (site_files(shown, shown.problems, language="ru"), season_post_text(shown, language="ru"),
                evening_post_text(shown, season(shown).evenings[-1], language="ru"),
                standings_document(shown, shown.problems, language="ru", public=False))

    typed = outputs(playing)
    assert typed == outputs(_emptied(playing))
    assert any("2026-12-19" in page for page in typed[0]) and not any("дон проверил" in v for v in typed[0].values())
