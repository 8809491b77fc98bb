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


# -- §9 the league's words ---------------------------------------------------------------------------------
LEAGUE = ROOT / "examples" / "league"


def _league_with_a_bad_start(folder: Path) -> Path:
    """The example league (its league.toml says language = "ru") with «тысяча» typed as a starting rating."""
    import shutil

    import openpyxl

    for f in LEAGUE.iterdir():
        if f.suffix in (".toml", ".xlsx"):
            shutil.copyfile(f, folder / f.name)
    wb = openpyxl.load_workbook(folder / "stage-1.xlsx")
    players = wb["Игроки"]
    column = players.max_column + 1
    players.cell(row=1, column=column, value="Рейтинг")
    players.cell(row=2, column=column, value="тысяча")
    wb.save(folder / "stage-1.xlsx")
    return folder / "league.toml"


def _league(folder: Path, *args: str, lang: str) -> subprocess.CompletedProcess:
    env = dict(_env(), LANG=lang)
    return subprocess.run([sys.executable, "-m", "sheets_sync", "league", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, lang, said", [
    ((), "C", "начальный рейтинг должен быть числом, а не «тысяча»"),  # league.toml's language = "ru"
    (("--language", "ru"), "C", "начальный рейтинг должен быть числом, а не «тысяча»"),
    (("--language", "en"), "ru_RU.UTF-8", "a starting rating must be a number, not 'тысяча'"),
])
def test_a_bad_starting_rating_is_said_in_the_leagues_language(tmp_path, args, lang, said):
    toml = _league_with_a_bad_start(tmp_path)
    done = _league(tmp_path, toml.name, *args, lang=lang)
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in done.stderr, done.stderr
    assert "Игроки!" in done.stderr


def test_league_json_gives_each_games_exact_change_beside_the_shown_one(tmp_path):
    import json
    import shutil

    for f in LEAGUE.iterdir():
        if f.suffix in (".toml", ".xlsx"):
            shutil.copyfile(f, tmp_path / f.name)
    done = _league(tmp_path, "league.toml", lang="ru_RU.UTF-8")
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "league" / "league.json").read_text(encoding="utf-8"))
    offset = doc["scheme"]["offset"]
    for player, career in doc["players"].items():
        before = None
        for point in career["curve"]:
            exact = point["exact"]
            assert round(exact["change"], 2) == pytest.approx(point["change"], abs=0.0051), (player, point)
            assert round(exact["rating"] + offset) == pytest.approx(point["rating"], abs=1), (player, point)
            if before is not None:
                assert exact["rating"] == pytest.approx(before + exact["change"]), (player, point)
            before = exact["rating"]
        for e in career["events"]:
            assert round(e["exact"]["rating_change"], 2) == pytest.approx(e["rating_change"], abs=0.0051)
    for row in doc["rating"]:
        assert round(row["exact"]["last_game"], 2) == pytest.approx(row["last_game"], abs=0.0051)
        assert round(row["exact"]["rating"] + offset) == pytest.approx(row["rating"], abs=1)
    schema = json.loads((ROOT / "schemas" / "league.schema.json").read_text(encoding="utf-8"))
    import jsonschema

    jsonschema.validate(doc, schema)


def test_the_vk_posts_totals_have_one_number_of_decimals(tmp_path):
    from tests.newcomer_support import newcomer_cup, synced

    out = synced(newcomer_cup(tmp_path / "cup.xlsx"))
    lines = (out / "vk-post.txt").read_text(encoding="utf-8").splitlines()
    import re

    totals = [n for line in lines if " — " in line for n in re.findall(r"-?\d+\.\d+", line)]  # podium and table
    assert len(totals) == 23 and {len(t.partition(".")[2]) for t in totals} == {3}, totals


# -- §8 nothing in a picture is cut ---------------------------------------------------------------------
class _Drawn:
    """Every text a picture's drawing put on the image, with the box its letters took."""

    def __init__(self, monkeypatch) -> None:
        from PIL import ImageDraw

        self.drawn: list[tuple[tuple[int, int], str, tuple[int, int, int, int]]] = []
        original = ImageDraw.ImageDraw.text

        def text(draw, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
            self.drawn.append((draw.im.size, text, draw.textbbox(xy, text, font=font, anchor=anchor)))
            return original(draw, xy, text, fill, font, anchor, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)

    def on(self, size: tuple[int, int]) -> list[tuple[str, tuple[int, int, int, int]]]:
        """What was drawn on the pictures of this size (a run may draw several pictures)."""
        return [(t, box) for on, t, box in self.drawn if on == size]


def _check_nothing_cut(png: bytes, drawn: _Drawn, wanted: list[str], name: str) -> None:
    """The picture holds every ``wanted`` text whole (its words in order, on one line or several), no
    «…», every text inside the image, no two texts on top of each other, ink where each one was drawn."""
    import io
    import re

    from PIL import Image

    from tests.newcomer_support import fresh_artifacts

    (fresh_artifacts() / name).write_bytes(png)
    image = Image.open(io.BytesIO(png)).convert("L")
    drawn_here = drawn.on(image.size)
    texts = [t for t, _ in drawn_here]
    assert not [t for t in texts if "…" in t], texts
    said = " ".join(texts)
    for want in wanted:
        assert re.search(r"\s+".join(map(re.escape, want.split())), said), (want, texts)
    boxes = [(t, b) for t, b in drawn_here if t.strip()]
    for t, (x0, y0, x1, y1) in boxes:
        assert 0 <= x0 and 0 <= y0 and x1 <= image.width and y1 <= image.height, (t, (x0, y0, x1, y1), image.size)
        assert min(image.crop((x0, y0, x1 + 1, y1 + 1)).getextrema()) < 200, t  # the letters are there
    for i, (t, a) in enumerate(boxes):
        for u, b in boxes[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert overlap[0] <= 1 or overlap[1] <= 1, f"«{t}» {a} lies over «{u}» {b}"


def test_the_tournaments_picture_cuts_nothing(tmp_path, monkeypatch):
    """After the qualifying: «Чеширский Кот ✓» with the ✓ of the cut to the semifinal."""
    from tests.newcomer_support import newcomer_cup, synced

    drawn = _Drawn(monkeypatch)
    out = synced(newcomer_cup(tmp_path / "mid.xlsx", rounds_played=7))
    png = (out / "vk-post.png").read_bytes()
    _check_nothing_cut(png, drawn, ["Чеширский Кот ✓"], "vk-post-qualifying-done.png")


def test_the_finished_tournaments_picture_cuts_nothing(tmp_path, monkeypatch):
    from tests.newcomer_support import newcomer_cup, synced

    drawn = _Drawn(monkeypatch)
    out = synced(newcomer_cup(tmp_path / "cup.xlsx"))
    _check_nothing_cut((out / "vk-post.png").read_bytes(), drawn,
                       ["Полуфинал", "Финал", "Чеширский Кот", "Гроссмейстер", "засчитано игр: 38 из 38"],
                       "vk-post-finished.png")


def test_the_seasons_picture_cuts_nothing(tmp_path, monkeypatch):
    """The season picture's foot («(вече…»): which evenings it covers, the provisional note, the time."""
    from scoring.season import season
    from sheets_sync.render.season_text import provisional_note, season_covers
    from sheets_sync.render.vk_season import write_season_vk
    from tests.test_season_pictures import FIVE, _results

    results = _results(FIVE)
    results = __import__("dataclasses").replace(results, tournament=__import__("dataclasses").replace(
        results.tournament, name="Клуб спортивной мафии «Чеширский Кот» — открытый рейтинговый сезон 2026/2027"))
    drawn = _Drawn(monkeypatch)
    write_season_vk(results, tmp_path, language="ru")
    s = season(results)
    feet = [season_covers(s, "ru"), provisional_note(s, "ru")]
    assert all(feet)
    _check_nothing_cut((tmp_path / "vk-season.png").read_bytes(), drawn,
                       [*feet, "открытый рейтинговый сезон 2026/2027"], "vk-season-five-evenings.png")


@pytest.mark.parametrize("text", ["Чеширский Кот", "Гроссмейстер", "Ааааааааааааааааааааааааааааааааааааааааааааааааа",
                                  "Клуб спортивной мафии «Чеширский Кот» открытый сезон"])
def test_fitted_text_keeps_every_letter(text):
    """Smaller type down to the floor, then lines between words; a word longer than the column even at
    the floor is broken where it must be — never a letter left out."""
    from sheets_sync.render.measure import fit_text

    fitted = fit_text(text, 200, size=32, floor=24, bold=True)
    assert "".join(fitted.lines).replace(" ", "") == text.replace(" ", "")
    assert all(fitted.font.getlength(line) <= 200 for line in fitted.lines)
    assert fitted.size >= 24
