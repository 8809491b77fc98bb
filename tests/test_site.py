"""The HTML site of the example tournament: golden files, safe names, escaping, publish_files.

Golden files live in tests/golden/; regenerate on purpose with ``UPDATE_GOLDEN=1 pytest
tests/test_site.py tests/test_vk.py`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.render.site import game_file, player_file, site_files, slug, write_site
from sheets_sync.loop.sync import Outcome, compute, publish_files

GOLDEN = Path(__file__).parent / "golden"
XSS = "<script>alert(1)</script>"
FORMULA = '=HYPERLINK("http://x")'
MENTION = "@id1 [id1|x] #тег"
RENAMES = {"Жасмин": XSS, "Мистраль": FORMULA, "Гроза": MENTION}


@lru_cache(maxsize=1)
def _snapshot():
    return ExcelBackend(EXAMPLE_PATH).read()


@lru_cache(maxsize=1)
def example_outcome() -> Outcome:
    return compute(_snapshot())


@lru_cache(maxsize=1)
def hostile_outcome() -> Outcome:
    """The example with three nicknames replaced by HTML, a formula and VK markup, in every tab."""
    snap = _snapshot()
    tabs = {title: tuple(tuple(RENAMES.get(v, v) if isinstance(v, str) else v for v in row) for row in grid)
            for title, grid in snap.tabs.items()}
    return compute(dataclasses.replace(snap, tabs=tabs))


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}: run with UPDATE_GOLDEN=1 and review the diff"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file; if intended, regenerate with UPDATE_GOLDEN=1"


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    o = example_outcome()
    return site_files(o.results, o.problems, language=o.language)


GOLDEN_PAGES = ["index.html", "stage-qualifying.html", "stage-final.html", "statistics.html", "games.html", "players.html",
                "race.html"]


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_golden_pages(files, page):
    check_golden(f"site/{page}", files[page])


def test_stylesheet_is_the_template_verbatim(files):
    # no golden copy: the site's CSS is templates/site/style.css itself
    assert files["style.css"] == (Path(__file__).resolve().parent.parent / "templates" / "site" / "style.css").read_text(encoding="utf-8")


def test_golden_player_and_game(files):
    check_golden("site/player-zhasmin.html", files[player_file("Жасмин")])
    check_golden("site/game-qualifying-1-1.html", files[game_file("qualifying", 1, 1)])


def test_every_page_is_there_and_deterministic(files):
    o = example_outcome()
    again = site_files(o.results, o.problems, language=o.language)
    assert again == files
    t = o.results.tournament
    for p in t.players:
        assert player_file(p.nickname) in files
    for p in o.results.counted:
        assert game_file(p.stage, p.round, p.table) in files
    for text in files.values():
        assert not re.search(r"\b20\d\d-\d\d-\d\d[T ]\d\d:\d\d", text), "no timestamps in the site"
        assert "http://" not in text and "https://" not in text, "no network resources"
        assert "<script" not in text, "the site needs no JavaScript"


def test_links_resolve(files):
    for rel, text in files.items():
        if not rel.endswith(".html"):
            continue
        base = Path(rel).parent
        for href in re.findall(r'href="([^"#]+)"', text):
            target = os.path.normpath(base / href)
            assert target in files, f"{rel} links to missing {href}"


def test_overall_columns(files):
    o = example_outcome()
    index = files["index.html"]
    top = o.results.overall[0].stats
    assert f">{top.player}</a>" in index
    for word in ("Итого", "Отбор", "Полуфинал", "Финал", "Побед доном", "Доп. баллы", "Лучший ход", "Штрафы",
                 "Почему выше следующего"):
        assert word in index
    # everyone takes part in the awards: no «Призы: да» column on every row (issue 43 §8)
    assert all(st.stats.eligible for st in o.results.overall) and "Призы" not in index
    tie = next(st for st in o.results.overall if st.tiebreak)
    from sheets_sync.render.tabs import tiebreak_text

    assert tiebreak_text(tie, "ru") in index


def test_file_names_are_safe():
    for name in ("Алхимик", XSS, FORMULA, "../../etc/passwd", "con", "", "ёжик в тумане", "名前"):
        path = player_file(name)
        assert re.fullmatch(r"players/[a-z0-9-]+-[0-9a-f]{8}\.html", path), path
    assert player_file("A") != player_file("a")
    assert slug("Алхимик") == "alkhimik"
    assert re.fullmatch(r"games/[a-z0-9-]+\.html", game_file("qualifying", 3, 2))


def test_hostile_nicknames_are_text_everywhere(tmp_path):
    o = hostile_outcome()
    files = site_files(o.results, o.problems, language=o.language)
    assert any(st.stats.player == XSS for st in o.results.overall)
    for rel, text in files.items():
        assert "<script" not in text, rel
        assert "<" not in rel and '"' not in rel and "=" not in rel
    index = files["index.html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "=HYPERLINK(&#34;http://x&#34;)" in index
    assert files[player_file(XSS)].count("&lt;script&gt;") >= 2


def test_publish_files_writes_site_and_post_once(tmp_path):
    o = example_outcome()
    first = publish_files(o, tmp_path)
    names = {p.relative_to(tmp_path).as_posix() for p in first}
    assert {"standings.json", "site/index.html", "site/style.css", "vk-post.txt", "vk-post.png"} <= names
    assert (tmp_path / "site" / player_file("Жасмин")).exists()
    assert publish_files(o, tmp_path) == []  # unchanged: nothing rewritten
    stale = tmp_path / "site" / "players" / "gone-00000000.html"
    stale.write_text("old")
    publish_files(o, tmp_path)
    assert not stale.exists()


def test_write_site_returns_only_changes(tmp_path):
    o = example_outcome()
    assert write_site(o.results, o.problems, tmp_path, language=o.language)
    assert write_site(o.results, o.problems, tmp_path, language=o.language) == []


def test_english_site():
    o = example_outcome()
    files = site_files(o.results, o.problems, language="en")
    assert "Standings" in files["index.html"] and 'lang="en"' in files["index.html"]
    assert "Why above the next" in files["index.html"]


def test_print_protocols_command(tmp_path):
    from click.testing import CliRunner

    from sheets_sync.cli import main

    workbook = tmp_path / "t.xlsx"
    workbook.write_bytes(EXAMPLE_PATH.read_bytes())
    result = CliRunner().invoke(main, ["print-protocols", str(workbook), "--round", "3", "--stage", "Отбор", "--no-pdf",
                                       "--out", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "p" / "protocols-qualifying-3.html").read_text(encoding="utf-8")
    assert html.count('class="sheet"') == 4  # one A4 page per table
    t = example_outcome().results.tournament
    for e in (e for e in t.seating if e.stage == "qualifying" and e.round == 3):
        for nick in e.players:
            assert f'class="player">{nick}<' in html
    assert "@page { size: A4" in html
    bad = CliRunner().invoke(main, ["print-protocols", str(workbook), "--round", "99", "--no-pdf"])
    assert bad.exit_code == 2


def test_print_protocols_escape_nicknames():
    from sheets_sync.render.protocols import blanks_html

    o = hostile_outcome()
    t = o.results.tournament
    entry = next(e for e in t.seating if XSS in e.players)
    html = blanks_html(t, o.preset, round_no=entry.round, stage=entry.stage, language="ru")
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_export_commands(tmp_path):
    from click.testing import CliRunner

    from sheets_sync.cli import main

    workbook = tmp_path / "t.xlsx"
    workbook.write_bytes(EXAMPLE_PATH.read_bytes())
    r = CliRunner().invoke(main, ["export", "site", str(workbook)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "t.sheets-sync" / "site" / "index.html").exists()
    r = CliRunner().invoke(main, ["export", "vk", str(workbook), "--out", str(tmp_path / "vk")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "vk" / "vk-post.txt").exists() and (tmp_path / "vk" / "vk-post.png").exists()


def test_no_template_calls_a_method_of_a_dict():
    """The pages' environment finds ``row.name`` on a dict as its key first (render/templates.py);
    a template calling ``.items()``, ``.get()`` … on a dict would find a key of that name instead."""
    import re

    from sheets_sync.render.templates import TEMPLATES

    methods = "|".join(name for name in dir(dict) if not name.startswith("_"))
    calls = [(p.name, m.group(0)) for p in sorted(TEMPLATES.rglob("*.html"))
             for m in re.finditer(rf"\.(?:{methods})\s*\(", p.read_text(encoding="utf-8"))]
    assert not calls


# -- issue 34 §11: a game page names each column once, and explains its short heads -------------------------
@pytest.mark.parametrize("page, short, full", [
    ("game", "ДБ", "очки за доп. баллы"),
    ("game", "ЛХ", "очки за лучший ход"),
    ("player", "ДБ", "очки за доп. баллы"),
    ("player", "ЛХ", "очки за лучший ход"),
])
def test_the_breakdowns_short_heads_are_explained(files, page, short, full):
    """The protocol's «Доп. баллы» and «Лучший ход» (what the judge typed) beside the breakdown's «ДБ» and
    «ЛХ» (the points they gave): each short head is an <abbr> saying what it is, and a legend under the
    table says it in words (consistent with the printed protocol, where «ЛХ» is the best move)."""
    html = files[game_file("qualifying", 1, 1) if page == "game" else player_file("Жасмин")]
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html)
    assert f'<abbr title="{full}">{short}</abbr>' in heads
    assert short not in [h for h in heads if "<abbr" not in h], f"«{short}» unexplained"
    legend = re.search(r'<p class="meta items-legend">(.*?)</p>', html)
    assert legend and f"{short} — {full}" in legend.group(1)
