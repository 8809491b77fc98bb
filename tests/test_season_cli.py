"""A club season through the real command line: ``init --season`` on an .xlsx and on the fake
Google server, then evenings, a guest added mid-season, the season's outputs."""

from __future__ import annotations

import openpyxl
from click.testing import CliRunner

from sheets_sync.cli import main
from tests.helpers import ROOT

PRESET = ROOT / "config" / "examples" / "club-season.toml"


def _csv(path, names):
    path.write_text("Игрок;Клуб\n" + "".join(f"{n};\n" for n in names), encoding="utf-8-sig")
    return path


def test_init_season_xlsx(tmp_path):
    """Tournament (with «Формат: сезон»), Players, Penalties and the owned tabs; no Seating, no
    protocol tab, no draw; the season's Standings lists everyone as not ranked yet."""
    book = tmp_path / "club.xlsx"
    result = CliRunner().invoke(main, ["init", str(book), "--season", "--players", str(_csv(tmp_path / "p.csv", ["Анна", "Борис"])),
                                       "--preset", str(PRESET)])
    assert result.exit_code == 0, result.output
    assert "клубный сезон" in result.output
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames[:5] == ["Турнир", "Игроки", "Штрафы", "Итоги", "Вечера"]
    assert "Рассадка" not in wb.sheetnames
    settings = {r[0].value: r[1].value for r in wb["Турнир"].iter_rows() if r[0].value}
    assert settings["Формат"] == "сезон"
    standings = [[c.value for c in r] for r in wb["Итоги"].iter_rows()]
    assert [r[1] for r in standings if r[-1] == "ещё 4"] == ["Анна", "Борис"]
