"""render.paper: how many of a table's leading columns one A4 landscape width holds at 8 pt (the season's
Итоги prints those; LibreOffice's print of it is measured in tests/test_season_pictures.py)."""

from __future__ import annotations

import pytest

from sheets_sync.render.paper import columns_on_paper


@pytest.mark.parametrize("widths, font, expected", [
    ([8] * 20, 9, 15),  # 784 pt of landscape width at 8/9 · 1.03 of 7.05 pt a unit: 121 units
    ([8] * 20, 11, 18),  # 11 pt text may shrink further: 148 units
    ([300, 8], 11, 1),  # the first column is always printed
    ([7, 22, 9], 9, 3),  # a narrow table: all of it
])
def test_the_columns_one_landscape_width_holds_at_8_pt(widths, font, expected):
    assert columns_on_paper(widths, smallest_font=font) == expected
