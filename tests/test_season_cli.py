"""A club season through the real command line, on an .xlsx and on the fake Google server.

``init --season``, then three evenings added with ``evening`` and typed into their protocol
blocks as a judge types them, a guest added to the Players tab after the first evening, a
sync after each evening; then the ranking switched to the average on the Tournament tab.  The
games are those of tests/test_season.py, but for the last one, where Анна sits in Мира's seat
(a real workbook would not count a game with a name that is not on the Players tab):

        Анна   1.5  + 1.25 + 1    + 1.25 + 1          = 6     5 games
        Дина   2    + 1.25 + 1    + 0    + 0          = 4.25  5 games
        Егор   1    + 0    + 1    + 0    + 1          = 3     (Жанна, Зоя, Иван the same: places 3–6)
        Вера   0    + 1.5  + 0    + 1.25 + 0          = 2.75
        Борис  0    + 0    + 0    + 1.25 + 1          = 2.25
        Глеб   0    - 0.5  + 0    + 0    + 0          = -0.5
        Кира   1    + 0                  + 1          = 2     3 games: one more to be ranked (of 4)
        Лев                  2    + 0                 = 2     2 games, the guest: two more

By the average from 3 games: Анна 6/5 = 1.2, Дина 0.85, Кира 2/3 = 0.67, Егор Жанна Зоя Иван
0.6 (equal wins: shared 4–7), Вера 0.55, Борис 0.45, Глеб -0.1; Лев needs one more.  A second
game of the last evening names Мира, who is not on the Players tab: an error at her cell, the
game does not count, and nobody called Мира appears anywhere.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.cells import a1
from scoring.model import Protocol, Removal, Role, Team
from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.cli import main
from tests.helpers import ROOT, table
from tests.judge import _COLUMNS, _ROLE_TYPED, ExcelDesk, GoogleDesk, _norm
from tests.test_season import GAMES

PRESET = ROOT / "config" / "examples" / "club-season.toml"
PLAYERS = "Анна Борис Вера Глеб Дина Егор Жанна Зоя Иван Кира".split()
LAST = dataclasses.replace(GAMES[4], seats=tuple(dataclasses.replace(r, player="Анна") if r.player == "Мира" else r
                                                  for r in GAMES[4].seats))
STRANGER = dataclasses.replace(GAMES[4], seats=tuple(dataclasses.replace(r, player="Мира") if r.player == "Кира"
                                                     else r for r in LAST.seats))
EVENINGS = (("2026-12-05", (GAMES[0], GAMES[1])), ("2026-12-12", (GAMES[2], GAMES[3])), ("2026-12-19", (LAST,)))


def _csv(path: Path, names: list[str]) -> Path:
    path.write_text("Игрок;Клуб\n" + "".join(f"{n};\n" for n in names), encoding="utf-8-sig")
    return path


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def typed_block(grid: list[list], index: int, game: Protocol) -> dict[str, str]:
    """A1 cell → the text a judge types for ``game`` into the ``index``-th protocol block of an
    evening tab (its header line starts with «Игра»; the column headers below it; ten seats)."""
    tops = [r for r, row in enumerate(grid) if row and _norm(row[0]) == "игра"]
    top = tops[index]
    head = {_norm(v): c for c, v in enumerate(grid[top]) if v}
    columns = {_norm(k): v for k, v in _COLUMNS.items()}
    cols = {columns[_norm(v)]: c for c, v in enumerate(grid[top + 1]) if _norm(v) in columns}
    out = {a1(top, head["судья"] + 1): "Судья", a1(top, head["победа"] + 1): "Мирные" if game.winner is Team.RED
           else "Мафия"}
    for i, rec in enumerate(game.seats):
        row = top + 2 + i
        fields = {"player": rec.player, "role": _ROLE_TYPED[rec.role],
                  "fouls": str(rec.fouls) if rec.fouls else None,
                  "killed": str(rec.killed_night) if rec.killed_night else None,
                  "removal": f"да {rec.removal_day}" if rec.removal is Removal.REMOVED else None,
                  "best_move": " ".join(map(str, rec.best_move)) or None,
                  "extra": format(rec.extra_points.normalize(), "f").replace(".", ",") if rec.extra_points else None}
        out.update({a1(row, cols[k]): v for k, v in fields.items() if v is not None})
    return out


@pytest.fixture(params=["excel", "google"])
def desk(request, tmp_path, monkeypatch):
    players = _csv(tmp_path / "players.csv", PLAYERS)
    if request.param == "excel":
        shutil.copyfile(PRESET, tmp_path / PRESET.name)
        book = tmp_path / "club.xlsx"
        out = _cli("init", str(book), "--season", "--players", str(players), "--preset", str(tmp_path / PRESET.name),
                   "--name", "Клуб «Ночь»")
        assert "клубный сезон" in out
        return ExcelDesk(book)
    server = request.getfixturevalue("fake_server")
    key = request.getfixturevalue("sa_key")
    monkeypatch.setenv(ENDPOINT_ENV, server.url)
    before = set(server.spreadsheets)
    _cli("init", "gsheet:new", "--season", "--players", str(players), "--preset", str(PRESET), "--name", "Клуб «Ночь»",
         "--credentials", key)
    (sid,) = set(server.spreadsheets) - before
    return GoogleDesk(server, sid, key)


def _evening(desk, day: str, games) -> None:
    _cli("evening", desk.ref, "--date", day, "--games", str(len(games)), *desk.cli_extra)
    tab = f"{day[8:10]}.{day[5:7]}.{day[:4]}"
    grid = desk.grid(tab)
    desk.type({(tab, cell): text for i, g in enumerate(games) for cell, text in typed_block(grid, i, g).items()})


def _sync(desk, out: Path) -> dict:
    if desk.kind == "google":
        desk.server.reset_counts()
    _cli("sync", desk.ref, "--out", str(out), *desk.cli_extra)
    if desk.kind == "google":  # the cycle's budget, however many evenings: metadata, batchGet, batchUpdate
        assert desk.server.request_count <= 3, desk.server.request_log
    return json.loads((out / "standings.json").read_text(encoding="utf-8"))


def _table(entries: list[dict]) -> list[tuple]:
    return [(e["player"], e["places"], e["total"], e["games"], e["games_needed"]) for e in entries]


def test_season_through_the_cli(desk, tmp_path):
    out = tmp_path / "out"
    assert desk.tabs()[:3] == ["Турнир", "Игроки", "Штрафы"] and "Рассадка" not in desk.tabs()
    _evening(desk, *EVENINGS[0])
    first = _sync(desk, out)
    assert [e["date"] for e in first["season"]["evenings"]] == ["2026-12-05"]
    desk.type({("Игроки", "A12"): "Лев"})  # the guest, typed in after the first evening
    for day, games in EVENINGS[1:]:
        _evening(desk, day, games)
    doc = _sync(desk, out)
    assert not [p for p in doc["problems"] if p["severity"] == "error"], doc["problems"]
    season = doc["season"]
    assert _table(season["standings"]) == [
        ("Анна", "1", "6.00", 5, 0), ("Дина", "2", "4.25", 5, 0),
        *((name, "3–6", "3.00", 5, 0) for name in ("Егор", "Жанна", "Зоя", "Иван")),
        ("Вера", "7", "2.75", 5, 0), ("Борис", "8", "2.25", 5, 0), ("Глеб", "9", "-0.50", 5, 0)]
    assert _table(season["below_minimum"]) == [("Кира", None, "2.00", 3, 1), ("Лев", None, "2.00", 2, 2)]
    assert season["games"] == 5 and [e["date"] for e in season["evenings"]] == ["2026-12-05", "2026-12-12",
                                                                               "2026-12-19"]
    assert (out / "site" / "evening-2026-12-19.html").exists()
    assert "Итоги вечера 19.12.2026" in (out / "vk-post.txt").read_text(encoding="utf-8")
    standings = desk.grid("Итоги")
    assert [r[1] for r in table(standings)[1:3]] == ["Анна", "Дина"]

    _average_from_three(desk)
    season = _sync(desk, out)["season"]
    assert [(e["player"], e["places"], e["average"]) for e in season["standings"]] == [
        ("Анна", "1", "1.20"), ("Дина", "2", "0.85"), ("Кира", "3", "0.67"),
        *((name, "4–7", "0.60") for name in ("Егор", "Жанна", "Зоя", "Иван")),
        ("Вера", "8", "0.55"), ("Борис", "9", "0.45"), ("Глеб", "10", "-0.10")]
    assert _table(season["below_minimum"]) == [("Лев", None, "2.00", 2, 1)]


def _average_from_three(desk) -> None:
    """The organizer switches the ranking on the Tournament tab: two override rows below the settings."""
    n = len([r for r in desk.grid("Турнир") if any(v not in (None, "") for v in r)])
    desk.type({("Турнир", f"A{n + 1}"): "сезон.рейтинг", ("Турнир", f"B{n + 1}"): "average",
               ("Турнир", f"A{n + 2}"): "минимум.игр", ("Турнир", f"B{n + 2}"): "3"})


def test_a_name_not_on_players_is_never_a_player(tmp_path):
    """Мира, typed into a protocol but not on the Players tab: an error at her cell, the game does
    not count, nobody is created (trust's rule names the nearest players; here only where it points)."""
    players = _csv(tmp_path / "players.csv", PLAYERS)
    shutil.copyfile(PRESET, tmp_path / PRESET.name)
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(players), "--preset", str(tmp_path / PRESET.name))
    desk = ExcelDesk(book)
    _evening(desk, "2026-12-19", (LAST, STRANGER))
    doc = _sync(desk, tmp_path / "out")
    errors = [p for p in doc["problems"] if p["severity"] == "error"]
    grid = desk.grid("19.12.2026")
    (cell,) = [a1(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == "Мира"]
    assert [(p["sheet"], p["cell"]) for p in errors] == [("19.12.2026", cell)]
    assert doc["season"]["games"] == 1 and "Мира" not in doc["season"]["players"]
    assert all(e["player"] != "Мира" for e in doc["season"]["standings"] + doc["season"]["below_minimum"])
    assert "Мира" not in [r[0] for r in desk.grid("Игроки")]


def test_init_season_xlsx_tabs(tmp_path):
    """Tournament (with «Формат: сезон»), Players, Penalties and the owned tabs; no Seating, no
    protocol tab, no draw; the season's Standings lists everyone as not ranked yet."""
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", ["Анна", "Борис"])),
         "--preset", str(PRESET))
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames[:5] == ["Турнир", "Игроки", "Штрафы", "Итоги", "Вечера"]
    settings = {r[0].value: r[1].value for r in wb["Турнир"].iter_rows() if r[0].value}
    assert settings["Формат"] == "сезон"
    standings = [[c.value for c in r] for r in wb["Итоги"].iter_rows()]
    assert [r[1] for r in standings if r[-1] == "ещё 4"] == ["Анна", "Борис"]


def test_a_season_before_its_first_game_says_who_is_registered_not_an_empty_table(tmp_path):
    """The console after init (and after an evening's tab is added) has no counted game: it says
    the season has not started and how many players wait, instead of a table with no row."""
    book = tmp_path / "club.xlsx"
    said = _cli("init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", ["Анна", "Борис", "Вера"])),
                "--preset", str(PRESET), "--language", "ru")
    assert "┏" not in said, said  # no empty box drawn
    assert "Итоги — Club: игр пока нет; игроков в списке: 3" in said, said
    said = _cli("sync", str(book), "--language", "ru")
    assert "┏" not in said and "игроков в списке: 3" in said, said


# -- issue 34 §11: `evening --games N` makes N games (all tables together), and says so -------------------
@pytest.mark.parametrize("games, tables, said, heads", [
    (6, 2, "игр 6 — туров 3 за 2 столами", [(g, t) for g in (1, 2, 3) for t in (1, 2)]),
    (5, 2, "игр 5 — туров 3 за 2 столами", [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)]),
    (6, None, "игр 6, протокол на каждую", [(g, None) for g in range(1, 7)]),
])
def test_evening_games_are_the_games_of_all_tables(tmp_path, games, tables, said, heads):
    """The README's `evening club.xlsx --date 2026-12-05 --games 6 --tables 2`: six protocol blocks, the
    six games of three rounds at two tables, and the command says it in those words."""
    from tests.test_blocks import _club_xlsx, _top

    book = _club_xlsx(tmp_path / "club.xlsx")
    args = ["evening", str(book), "--date", "2026-12-05", "--games", str(games)] + (["--tables", str(tables)] if tables else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert said in " ".join(result.output.split())
    ws = openpyxl.load_workbook(book)["05.12.2026"]
    found = [(ws.cell(_top(i), 2).value, ws.cell(_top(i), 4).value) for i in range(games + 1)]
    assert found == [*heads, (None, None)]  # as many blocks as games, no more
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--games 6 --tables 2   # a club evening: tab «05.12.2026», 6 games = 3 rounds at 2 tables" in readme


# -- issue 33: the first week of a season as a new user meets it ------------------------------------------
GUESTS = [f"Гость {i:02d}" for i in range(1, 22)]  # 31 players in all, 10 of them at the first evening
TWO_DONS = dataclasses.replace(GAMES[1], seats=tuple(dataclasses.replace(r, role=Role.DON) if r.seat == 2 else r
                                                      for r in GAMES[1].seats))


def _order_of_the_site(page: str) -> list[tuple[str, str]]:
    rows = re.findall(r'<td class="num place">([^<]*)</td>\s*<th scope="row" class="name"><a href="[^"]*">([^<]*)</a>', page)
    return [(place, name) for place, name in rows]


def test_the_first_evening_is_one_order_everywhere(tmp_path):
    """The README's commands, 31 players, the club-season scheme (4 games to be ranked), the first
    evening of three games of which two have an error (two dons): nobody has the minimum, so the
    ten who played are placed provisionally by the total — the same order, the same places in
    parentheses in the console, the Итоги tab, the site, the VK text; the evening says it is not final."""
    players = _csv(tmp_path / "players.csv", PLAYERS + GUESTS)
    shutil.copyfile(PRESET, tmp_path / PRESET.name)
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(players), "--preset", str(tmp_path / PRESET.name),
         "--name", "Клуб «Ночь»")
    desk = ExcelDesk(book)
    _evening(desk, "2026-12-05", (GAMES[0], TWO_DONS, TWO_DONS))
    out = tmp_path / "out"
    console = _cli("sync", str(book), "--out", str(out))
    expected = [("(1)", "Дина"), ("(2)", "Анна"), *((f"({p})", n) for p, n in (("3–7", "Егор"), ("3–7", "Жанна"),
                ("3–7", "Зоя"), ("3–7", "Иван"), ("3–7", "Кира"))), ("(8–10)", "Борис"), ("(8–10)", "Вера"),
                ("(8–10)", "Глеб")]
    printed = re.findall(r"│\s*(\(\S+\))\s*│\s*(\S+)\s*│", console)
    assert printed == expected, console
    tab = [r for r in table(desk.grid("Итоги")) if r and r[0] and str(r[0]).startswith("(")]
    assert [(r[0], r[1]) for r in tab] == expected
    site = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert _order_of_the_site(site) == expected
    assert "Ещё не играли" in site and "Гость 21" in site  # the 21 who have not played: after the table, by name
    post = (out / "vk-season.txt").read_text(encoding="utf-8")
    assert re.findall(r"^[\s\u2007]*(\(\S+\))\s+\S+ — (\S+)$", post, re.M) == expected and "Гость" not in post
    assert "Учтён вечер 05.12.2026, игр 1" in post and "ждут исправления или окончания: 2" in post
    evening = (out / "vk-post.txt").read_text(encoding="utf-8")
    assert "Вечер 05.12.2026: промежуточные итоги (игр 3, засчитано 1, ждут исправления 2):" in evening
    assert "Итоги вечера" not in evening
    page = (out / "site" / "evening-2026-12-05.html").read_text(encoding="utf-8")
    assert "<h1>Вечер 05.12.2026: промежуточные итоги</h1>" in page
    assert "<strong>Вечер 05.12.2026: игр 3, засчитано 1, ждут исправления 2</strong>" in page
    assert "Рейтинг сезона" not in page and "progress-live updated-only" in page
    assert re.findall(r"<li[^>]*>(Игра \d)[^<:]*: ([^<·]*?) ?[·<]", page) == [
        ("Игра 1", "победа мирных"), ("Игра 2", "ждёт исправления, не засчитана"),
        ("Игра 3", "ждёт исправления, не засчитана")]
    evenings = table(desk.grid("Вечера"))
    assert ("Вечер 05.12.2026: промежуточные итоги", "Вечер 05.12.2026: игр 3, засчитано 1, ждут исправления 2") in \
        [tuple(r[:2]) for r in evenings if r]
    doc = json.loads((out / "standings.json").read_text(encoding="utf-8"))["season"]
    assert [(e["provisional_places"], e["player"]) for e in doc["below_minimum"] if e["games"]] == \
        [(p.strip("()"), n) for p, n in expected]


def test_the_seasons_posts_carry_the_tab_link_and_export_vk_link_wins(tmp_path):
    """A club season on a real .xlsx: with the Tournament tab's «Ссылка» empty, sync's posts have no
    link line and no «[вставьте ссылку]»; once typed there, sync and watch end both posts with it;
    `export vk --link` goes before it."""
    site = "https://club.example.org/season"
    book = tmp_path / "club.xlsx"
    _cli("init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", PLAYERS)), "--preset", str(PRESET))
    _cli("evening", str(book), "--date", "2026-12-05", "--games", "1")
    out = tmp_path / "club.sheets-sync"  # the workbook's own output folder
    _cli("sync", str(book))
    posts = ("vk-post.txt", "vk-season.txt")
    for name in posts:
        text = (out / name).read_text(encoding="utf-8")
        assert "🔗" not in text and "вставьте" not in text, name
    wb = openpyxl.load_workbook(book)
    row = next(r for r in wb["Турнир"].iter_rows() if r[0].value == "Ссылка")
    row[1].value = site
    wb.save(book)
    _cli("sync", str(book))
    for name in posts:
        assert f"🔗 Рейтинг, вечера и история игроков: {site}\n" in (out / name).read_text(encoding="utf-8"), name
    _cli("export", "vk", str(book), "--out", str(tmp_path / "vk"), "--link", "https://vk.cc/x")
    for name in posts:
        text = (tmp_path / "vk" / name).read_text(encoding="utf-8")
        assert "https://vk.cc/x" in text and site not in text, name
