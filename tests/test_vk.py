"""The VK post: golden text of the example, alignment, length limit, escaping, the picture."""

from __future__ import annotations

import io
import json

from sheets_sync.render.vk import FIGURE_SPACE, WORD_JOINER, post_image, post_text, utf16_len
from tests.test_site import FORMULA, XSS, check_golden, example_outcome, hostile_outcome


def test_golden_post_ru():
    o = example_outcome()
    check_golden("vk-post.ru.txt", post_text(o.results, language=o.language))


def test_golden_post_en():
    o = example_outcome()
    check_golden("vk-post.en.txt", post_text(o.results, language="en", link="https://example.org/gmo"))


def test_post_shape():
    o = example_outcome()
    text = post_text(o.results, language="ru")
    lines = text.splitlines()
    assert lines[0].startswith("🏆 ") and o.results.tournament.name in lines[0]
    assert any(line.startswith("📅 ") for line in lines)
    for medal, st in zip("🥇🥈🥉", o.results.overall[:3]):
        assert any(line.startswith(f"{medal} {st.stats.player} — ") for line in lines)
    assert "#" in lines[-1]
    assert "<" not in text.replace("<", "") and "**" not in text  # no markup at all
    table = [line for line in lines if "." in line[:4] and " — " in line]
    assert len(table) == 20
    # aligned with figure spaces, never with runs of ASCII spaces
    assert any(FIGURE_SPACE in line for line in table)
    assert not any("  " in line for line in lines)
    # every total starts at the same column and the decimal points line up
    heads = {line.index(" — ") for line in table}
    assert len(heads) == 1


def test_length_limit_truncates_gracefully():
    o = example_outcome()
    full = post_text(o.results, language="ru", top=0)
    assert "и ещё" not in full and utf16_len(full) < 16384
    short = post_text(o.results, language="ru", top=0, limit=1200)
    assert utf16_len(short) <= 1200
    assert "… и ещё" in short and short.rstrip().splitlines()[-1].startswith("#")


def test_hostile_nicknames_in_post():
    o = hostile_outcome()
    text = post_text(o.results, language="ru", top=0)
    assert XSS in text  # VK shows text as text
    assert FORMULA in text
    assert "@id1" not in text and "@" + WORD_JOINER + "id1" in text  # no mention
    assert "[id1|x]" not in text  # no VK link markup
    assert "#тег" not in text


def test_picture():
    from PIL import Image

    o = example_outcome()
    data = post_image(o.results, language="ru")
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width == 1080 and 600 < img.height < 2200
    assert post_image(o.results, language="ru") == data  # deterministic
    hostile = post_image(hostile_outcome().results, language="ru")
    assert hostile != data
    # the title band is dark and the table below is light: something was drawn in both
    assert img.convert("L").getpixel((5, 5)) < 80 and img.convert("L").getpixel((5, img.height - 5)) > 200


def test_a_picture_is_a_png_made_with_pillows_png_plugin_alone():
    """png_bytes names its buffer instead of passing a format, so that Pillow loads no other format
    plugin (4 ms of each process); if a Pillow release stopped honouring the name, this says so."""
    import subprocess
    import sys

    code = ("import sys; from PIL import Image; from sheets_sync.render.vk import png_bytes; "
            "data = png_bytes(Image.new('RGB', (30, 20), '#8a1c1c')); "
            "print(data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', sorted(m for m in sys.modules if m.endswith('ImagePlugin')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "['PIL.PngImagePlugin']"]


# -- issue 34 §5: after round 1, a link typed once on the Tournament tab -------------------------------------
SITE = "https://mafia.example.org/cup-2026"


def _round_one_xlsx(path, *, link: str | None = None):
    """Thirty players on the Players tab, two tables of round 1 played (twenty players), typed into an .xlsx."""
    from tests.judge import table_tournament, write_xlsx

    tabs = table_tournament(2)
    tabs["Игроки"] += [[f"Запасной {k}"] for k in range(1, 11)]  # ten who have not played yet
    if link is not None:
        tabs["Турнир"].append(["Ссылка", link])
    return write_xlsx(path, tabs)


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if " — " in line and line.lstrip(FIGURE_SPACE)[:1].isdigit()]


def test_the_post_after_round_one_lists_who_played_and_ends_with_the_tab_link(tmp_path):
    """sync on the real .xlsx: twenty rows (the ten who have not played are neither listed with 0.00 nor
    counted in «первые N из M»), and the Tournament tab's «Ссылка» ends the post; no setting warning."""
    from click.testing import CliRunner

    from sheets_sync.cli import main

    book = _round_one_xlsx(tmp_path / "cup.xlsx", link=SITE)
    result = CliRunner().invoke(main, ["sync", str(book)])
    assert result.exit_code == 0, result.output
    outputs = tmp_path / "cup.sheets-sync"  # the workbook's own output folder
    text = (outputs / "vk-post.txt").read_text(encoding="utf-8")
    rows = _table_rows(text)
    assert len(rows) == 20 and not any("Запасной" in row for row in rows)
    assert "первые" not in text and "из 30" not in text
    assert "Ещё не играли: 10" in text
    assert f"🔗 Полные результаты, протоколы и статистика: {SITE}\n" in text
    assert "вставьте" not in text
    doc = json.loads((outputs / "standings.json").read_text(encoding="utf-8"))
    assert not [p for p in doc["problems"] if p["rule"] == "read.unknown_setting"]


def test_a_long_table_counts_only_who_played(tmp_path):
    """top=5 of twenty who played: «первые 5 из 20», «и ещё 15», never the thirty on the Players tab."""
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.outcome import compute, read_workbook

    book = _round_one_xlsx(tmp_path / "cup.xlsx")
    outcome = compute(read_workbook(ExcelBackend(book)), base_dir=tmp_path)
    text = post_text(outcome.results, language="ru", top=5)
    assert "(первые 5 из 20):" in text and "… и ещё 15\n" in text and len(_table_rows(text)) == 5
    # no link anywhere: no line pointing to one, and no placeholder to paste over
    assert "🔗" not in text and "вставьте" not in text and "по ссылке" not in text
    assert post_text(outcome.results, language="ru", top=5, link=SITE).count(SITE) == 1


def test_export_vk_link_goes_before_the_tab_link_and_watch_uses_the_tab_link(tmp_path):
    from click.testing import CliRunner

    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.cli import main
    from sheets_sync.loop.watch import run_watch

    book = _round_one_xlsx(tmp_path / "cup.xlsx", link=SITE)
    run_watch(ExcelBackend(book), out_dir=tmp_path / "watched", interval=0, cycles=1, sleep=lambda _s: None)
    assert SITE in (tmp_path / "watched" / "vk-post.txt").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "vk", str(book), "--out", str(tmp_path / "vk"), "--link", "https://vk.cc/x"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "vk" / "vk-post.txt").read_text(encoding="utf-8")
    assert "https://vk.cc/x" in text and SITE not in text


def test_init_writes_the_link_row_empty_with_a_hint(tmp_path):
    from sheets_sync.workbook.layout import tournament_tab
    from scoring.parse import read_settings

    tab = tournament_tab(name="Кубок", preset_id="gmo-2016", language="ru")
    row = next(r for r in tab.rows if r[0] == "Ссылка")
    assert row[1] is None and "VK" in row[2]
    grid = [list(r) for r in tab.rows]
    grid[tab.rows.index(row)][1] = " " + SITE + " "
    settings = read_settings({tab.title: grid})
    assert settings.link == SITE and not settings.problems



def test_a_finished_tournament_has_nobody_still_to_play(tmp_path):
    """The example, finished, with one more player on the Players tab who never played (he withdrew):
    he is not listed, and the post does not say anybody has «not played yet»."""
    import shutil

    import openpyxl

    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.loop.outcome import compute, read_workbook

    book = tmp_path / "cup.xlsx"
    shutil.copyfile(EXAMPLE_PATH, book)
    wb = openpyxl.load_workbook(book)
    wb["Игроки"].append(["Новичок"])
    wb.save(book)
    outcome = compute(read_workbook(ExcelBackend(book)), base_dir=tmp_path)
    text = post_text(outcome.results, language="ru", top=0)
    assert "Победители:" in text and "Новичок" not in text
    assert "не играли" not in text
