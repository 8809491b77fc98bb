"""Make the workbooks of tests/corpus/ with excelize (the Go Excelize library, a real writer of
the parts Excel makes): each holds what an organizer adds to a tournament workbook and what
openpyxl drops or mangles on a save.  Run from the repository root:

    .venv/bin/python tests/corpus/make_corpus.py [FILE …]   # every file, or those named

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


# Excel 365's threaded comments: a thread (comment and reply) in xl/threadedComments/, its people in
# xl/persons/, and beside it the note Excel writes for programs that know only notes (author
# "tc={id}", the thread's text under Excel's own preamble).  excelize and LibreOffice make no threads:
# the parts are written here as Excel writes them (MS-XLSX 2.3.10, 2.3.11).
_THREADS_NS = ('xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" '
               'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"')
_PEOPLE = (("{0B8A4E3C-5D21-4F6A-9C7E-2A1B3C4D5E6F}", "Организатор"), ("{7E6D5C4B-3A29-4817-B6C5-D4E3F2A1B0C9}", "Судья 2"))
_THREAD = (("{A1B2C3D4-0001-4000-8000-000000000001}", _PEOPLE[0][0], "2026-11-28T18:04:11.52",
            "Проверить: клуб сыграл 11 игр?", None),
           ("{A1B2C3D4-0002-4000-8000-000000000002}", _PEOPLE[1][0], "2026-11-28T18:20:40.10",
            "Да, одна перенесена с прошлого сезона.", "{A1B2C3D4-0001-4000-8000-000000000001}"))
_THREAD_CELL = "C3"


def threaded_comments_and_notes(f: excelize.File) -> None:
    """A thread on C3 (its legacy note is Excel's fallback) and the organizer's own note on A2."""
    f.add_comment(DATA, excelize.Comment(author="Организатор", cell="A2", text="взнос оплачен"))
    fallback = ("[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any "
                "edits to it will get removed if the file is opened in a newer version of Excel. Learn more: "
                "https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n    " + _THREAD[0][3]
                + "\nReply:\n    " + _THREAD[1][3])
    f.add_comment(DATA, excelize.Comment(author="tc=" + _THREAD[0][0], cell=_THREAD_CELL, text=fallback))


def add_thread_parts(path: Path) -> None:
    """The threaded comment parts, their relationships and content types, added to the saved package."""
    import re
    import zipfile

    from sheets_sync.backends.excel_read import worksheet_parts

    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
        sheet = worksheet_parts(z)[DATA]
    sheet_rels = f"xl/worksheets/_rels/{sheet.rsplit('/', 1)[1]}.rels"
    comments = "".join(
        f'<threadedComment ref="{_THREAD_CELL}" dT="{when}" personId="{person}" id="{tid}"'
        + (f' parentId="{parent}"' if parent else "") + f"><text>{text}</text></threadedComment>"
        for tid, person, when, text, parent in _THREAD)
    members["xl/threadedComments/threadedComment1.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<ThreadedComments {_THREADS_NS}>{comments}'
        "</ThreadedComments>").encode()
    people = "".join(f'<person displayName="{name}" id="{pid}" userId="{name}" providerId="None"/>' for pid, name in _PEOPLE)
    members["xl/persons/person.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<personList {_THREADS_NS}>{people}</personList>'
    ).encode()
    members[sheet_rels] = members[sheet_rels].replace(b"</Relationships>", (
        '<Relationship Id="rIdThread1" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" '
        'Target="../threadedComments/threadedComment1.xml"/></Relationships>').encode())
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(b"</Relationships>", (
        '<Relationship Id="rIdPersons" Type="http://schemas.microsoft.com/office/2017/10/relationships/person" '
        'Target="persons/person.xml"/></Relationships>').encode())
    members["[Content_Types].xml"] = re.sub(rb"</Types>$", (
        '<Override PartName="/xl/threadedComments/threadedComment1.xml" ContentType="application/vnd.ms-excel.threadedcomments+xml"/>'
        '<Override PartName="/xl/persons/person.xml" ContentType="application/vnd.ms-excel.person+xml"/></Types>').encode(),
        members["[Content_Types].xml"].rstrip())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)


CORPUS = {
    "sparklines-data-bars.xlsx": sparklines_and_data_bars,
    "table-slicer.xlsx": table_and_slicer,
    "pivot-table.xlsx": pivot_table,
    "shape-picture-chart.xlsx": drawings,
    "list-from-tab-notes.xlsx": lists_and_notes,
    "names-hidden-properties.xlsx": names_hidden_properties,
    "threaded-comments-notes.xlsx": threaded_comments_and_notes,
}
AFTER_SAVE = {"threaded-comments-notes.xlsx": add_thread_parts}


def main(names: list[str]) -> None:
    """Make the files ``names`` (all of them when none is named)."""
    for name in names or CORPUS:
        f = _book()
        CORPUS[name](f)
        f.save_as(str(HERE / name))
        f.close()
        if name in AFTER_SAVE:
            AFTER_SAVE[name](HERE / name)
        print(HERE / name, (HERE / name).stat().st_size)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
