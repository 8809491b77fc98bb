"""Make the workbooks of tests/corpus/ with excelize (the Go Excelize library, a real writer of
the parts Excel makes): each holds what an organizer adds to a tournament workbook and what
openpyxl drops or mangles on a save.  Run from the repository root:

    .venv/bin/python tests/corpus/make_corpus.py

The files are committed (tests/test_corpus.py reads these very bytes); run this again only to
change the corpus, and look at the diff of tests/corpus/README.md's table.
"""

from __future__ import annotations

import io
from pathlib import Path

import excelize
from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
DATA = "Данные"
ROWS = [("Клуб", "Город", "Игр", "Побед", "Баллы")] + [
    (f"Клуб {i}", ("Москва", "Берлин", "Рига")[i % 3], 10 + i, 3 + i % 4, 12.5 + i) for i in range(1, 9)]


def _book(extra_tab: str = DATA) -> excelize.File:
    f = excelize.new_file()
    f.set_sheet_name("Sheet1", extra_tab)
    for r, row in enumerate(ROWS, start=1):
        f.set_sheet_row(extra_tab, f"A{r}", list(row))
    return f


def sparklines_and_data_bars(f: excelize.File) -> None:
    f.add_sparkline(DATA, excelize.SparklineOptions(location=["F2", "F3", "F4"], range=["C2:E2", "C3:E3", "C4:E4"],
                                                    markers=True))
    f.set_conditional_format(DATA, "E2:E9", [excelize.ConditionalFormatOptions(
        type="data_bar", criteria="=", min_type="min", max_type="max", bar_color="#638EC6", bar_solid=True)])
    f.set_conditional_format(DATA, "D2:D9", [excelize.ConditionalFormatOptions(
        type="icon_set", icon_style="3Arrows")])


def table_and_slicer(f: excelize.File) -> None:
    f.add_table(DATA, excelize.Table(range="A1:E9", name="Clubs", style_name="TableStyleMedium2"))
    f.add_slicer(DATA, excelize.SlicerOptions(name="Город", cell="H2", table_sheet=DATA, table_name="Clubs",
                                              caption="Город", width=200, height=200))


def pivot_table(f: excelize.File) -> None:
    f.new_sheet("Сводная")
    f.add_pivot_table(excelize.PivotTableOptions(
        data_range=f"{DATA}!A1:E9", pivot_table_range="Сводная!A1:D12",
        rows=[excelize.PivotTableField(data="Город")], data=[excelize.PivotTableField(data="Баллы", subtotal="Sum")],
        row_grand_totals=True, col_grand_totals=True, show_row_headers=True, show_col_headers=True))


def drawings(f: excelize.File) -> None:
    f.add_shape(DATA, excelize.Shape(cell="H2", type="rect", width=180, height=60,
                                     paragraph=[excelize.RichTextRun(text="Спонсор: клуб «Дон»")]))
    picture = Image.new("RGB", (64, 32), "white")
    ImageDraw.Draw(picture).rectangle((4, 4, 60, 28), outline="red", width=3)
    png = io.BytesIO()
    picture.save(png, format="PNG")
    f.add_picture_from_bytes(DATA, "H8", excelize.Picture(extension=".png", file=png.getvalue(),
                                                          format=excelize.GraphicOptions(alt_text="логотип")))
    f.add_chart(DATA, "H14", excelize.Chart(type=excelize.ChartType.Col, series=[excelize.ChartSeries(
        name=f"{DATA}!$E$1", categories=f"{DATA}!$A$2:$A$9", values=f"{DATA}!$E$2:$E$9")]))


def lists_and_notes(f: excelize.File) -> None:
    f.new_sheet("Списки")
    for r, city in enumerate(("Москва", "Берлин", "Рига"), start=1):
        f.set_cell_str("Списки", f"A{r}", city)
    dv = excelize.DataValidation(allow_blank=True, sqref="B2:B9", type="list", formula1="Списки!$A$1:$A$3")
    f.add_data_validation(DATA, dv)
    f.add_comment(DATA, excelize.Comment(author="Организатор", cell="A2", text="взнос оплачен"))


def names_hidden_properties(f: excelize.File) -> None:
    f.set_defined_name(excelize.DefinedName(name="Клубы", refers_to=f"'{DATA}'!$A$2:$A$9"))
    f.set_defined_name(excelize.DefinedName(name="_xlnm.Print_Area", refers_to=f"'{DATA}'!$A$1:$E$9", scope=DATA))
    f.new_sheet("Скрытый")
    f.set_cell_str("Скрытый", "A1", "заметки организатора")
    f.set_sheet_visible("Скрытый", False)
    f.set_custom_props(excelize.CustomProperty(name="Организатор", value="Федерация"))
    f.set_custom_props(excelize.CustomProperty(name="Сезон", value=2026))


CORPUS = {
    "sparklines-data-bars.xlsx": sparklines_and_data_bars,
    "table-slicer.xlsx": table_and_slicer,
    "pivot-table.xlsx": pivot_table,
    "shape-picture-chart.xlsx": drawings,
    "list-from-tab-notes.xlsx": lists_and_notes,
    "names-hidden-properties.xlsx": names_hidden_properties,
}


def main() -> None:
    for name, add in CORPUS.items():
        f = _book()
        add(f)
        f.save_as(str(HERE / name))
        f.close()
        print(HERE / name, (HERE / name).stat().st_size)


if __name__ == "__main__":
    main()
