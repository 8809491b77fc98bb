"""A new organizer's first day at the terminal (issue 43 §8): the README's commands as he types them,
run as the console script in a real process (with a terminal where a prompt is the point)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from sheets_sync.workbook.tournament_setup import title_from_file_name

ROOT = Path(__file__).resolve().parent.parent
NAMES = "Пума Цезарь Рубин Эхо Жасмин Ягуар Сирин Гроза Вольт Ураган".split() + [f"Игрок {i}" for i in range(1, 31)]


def _players(folder: Path) -> Path:
    csv = folder / "players.csv"
    csv.write_text("Игрок;Клуб;Город\n" + "".join(f"{n};Рейн;Кёльн\n" for n in NAMES), encoding="utf-8")
    return csv


def _env() -> dict[str, str]:
    env = dict(os.environ, LANG="ru_RU.UTF-8", SHEETS_SYNC_NOW="2026-12-05T14:05", COLUMNS="100")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def sheets_sync(folder: Path, *args: str) -> str:
    """The console script as a person runs it (no terminal: a script, a pipe)."""
    done = subprocess.run([sys.executable, "-m", "sheets_sync", *args], cwd=folder, env=_env(), capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_init_before_the_first_game_says_what_the_site_says(tmp_path):
    """`init` of a cup printed 40 rows of «1–40» while the site says the tournament has not started."""
    said = sheets_sync(tmp_path, "init", "cup.xlsx", "--players", str(_players(tmp_path)), "--name", "Кубок Рейна",
                       "--preset", "gmo-2016")
    assert "1–40" not in said and "┏" not in said, said
    assert "Итоги — Кубок Рейна: Турнир ещё не начался; игроков в списке: 40" in said, said


@pytest.mark.parametrize("stem, title", [
    ("club", "Club"), ("клуб-мафии-2026", "Клуб мафии 2026"), ("cup_2026", "Cup 2026"),
    ("GMO-2016", "GMO 2016"), ("кубок  рейна", "Кубок рейна"),
])
def test_a_title_from_the_file_name_as_a_person_writes_it(stem, title):
    assert title_from_file_name(stem) == title


def test_a_season_made_as_the_readme_shows_is_not_titled_club(tmp_path):
    """`init club.xlsx --season …` without --name, from a script: a title a person would write, and
    the console says where it came from and how to change it."""
    said = sheets_sync(tmp_path, "init", "клуб-мафии-2026.xlsx", "--season", "--players", str(_players(tmp_path)),
                       "--preset", "club-season")
    assert "«Клуб мафии 2026»" in said and "--name" in said, said
    sheets_sync(tmp_path, "evening", "клуб-мафии-2026.xlsx", "--date", "2026-12-05", "--games", "2")
    sheets_sync(tmp_path, "sync", "клуб-мафии-2026.xlsx")
    out = tmp_path / "клуб-мафии-2026.sheets-sync"
    assert "#Клубмафии2026" in (out / "vk-post.txt").read_text(encoding="utf-8")
    assert "<title>Сезон ещё не начался · Клуб мафии 2026</title>" in (out / "site" / "index.html").read_text(encoding="utf-8")


def test_init_asks_for_the_name_at_a_terminal(tmp_path):
    """At a terminal `init` without --name asks, the file name's title offered as the answer's default."""
    players = _players(tmp_path)
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync", "init", "club.xlsx", "--season", "--players",
                             str(players), "--preset", "club-season"], cwd=tmp_path, env=_env(), stdin=follower,
                            stdout=follower, stderr=follower, close_fds=True)
    os.close(follower)
    seen = b""
    try:
        while b"[Club]" not in seen:
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, seen.decode(errors="replace")
            seen += os.read(leader, 4096)
        assert "Название" in seen.decode(), seen.decode()
        os.write(leader, "Клуб «Ночь»\r".encode())
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill() if proc.poll() is None else None
        os.close(leader)
    sheets_sync(tmp_path, "evening", "club.xlsx", "--date", "2026-12-05", "--games", "2")
    sheets_sync(tmp_path, "sync", "club.xlsx")
    assert "#КлубНочь" in (tmp_path / "club.sheets-sync" / "vk-post.txt").read_text(encoding="utf-8")
