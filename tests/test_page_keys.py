"""The key of a page's inputs (issue 17): a sync after one edit renders only the pages whose
template, values or renderer changed; anything the key cannot see makes the page rendered."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date
from decimal import Decimal

import pytest
from markupsafe import Markup

from scoring.model import Team
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.render import page_keys
from sheets_sync.render.page_keys import Words, page_key
from sheets_sync.render.words import ui
from sheets_sync.loop.sync import sync_once


@dataclasses.dataclass(frozen=True)
class Row:
    player: str
    total: Decimal
    team: Team


BASE = {"lang": "ru", "ui": Words("ru", ui), "rows": [Row(player="Алхимик", total=Decimal("2.30"), team=Team.RED)],
        "when": date(2026, 12, 1), "title": Markup("<b>Кубок</b>"), "seats": (1, 2, 3), "flags": {"a": True}}


def changed(**kw):
    return {**BASE, **kw}


@pytest.mark.parametrize("other", [
    changed(lang="en"),
    changed(ui=Words("en", ui)),
    changed(rows=[Row(player="Алхимик", total=Decimal("2.3"), team=Team.RED)]),  # 2.30 and 2.3 print differently
    changed(rows=[Row(player="Алхимик", total=Decimal("2.30"), team=Team.BLACK)]),
    changed(rows=[]),
    changed(when=date(2026, 12, 2)),
    changed(title="<b>Кубок</b>"),  # text, not markup: escaped when rendered
    changed(seats=(1, 3, 2)),
    changed(seats=[1, 2, 3]),
    changed(flags={"a": 1}),  # True and 1 print differently
    {k: BASE[k] for k in reversed(BASE)},  # a template iterating the context sees another order
], ids=["lang", "words", "decimal-digits", "enum", "empty-list", "date", "markup", "order", "list-vs-tuple",
        "bool-vs-int", "dict-order"])
def test_every_difference_a_template_can_see_changes_the_key(other):
    key = page_key("site/player.html", BASE)
    assert key is not None and page_key("site/player.html", dict(BASE)) == key
    assert page_key("site/player.html", other) != key


def test_the_template_and_the_renderer_are_part_of_the_key(monkeypatch):
    key = page_key("site/player.html", BASE)
    assert page_key("site/game.html", BASE) != key
    monkeypatch.setattr(page_keys, "salt", lambda: "another version of the templates")
    assert page_key("site/player.html", BASE) != key


@pytest.mark.parametrize("value", [object(), lambda key: key, Row, dataclasses.make_dataclass("Mutable", ["x"])(1)],
                         ids=["object", "lambda", "class", "mutable-dataclass"])
def test_what_the_key_cannot_see_makes_the_page_always_rendered(value):
    assert page_key("site/player.html", changed(extra={"deep": [value]})) is None


def test_a_sync_after_one_edit_renders_only_the_pages_whose_inputs_changed(tmp_path, monkeypatch):
    """Through the real sync: the pages kept without rendering are byte-for-byte what rendering
    them again gives (a sync from scratch on the edited workbook writes the same files)."""
    monkeypatch.setenv("SHEETS_SYNC_NOW", "2026-12-01T14:05")
    from sheets_sync.render import site
    from tests.test_incremental import ExcelDesk, edit_cell, outputs, protocol_tabs

    rendered = []
    text = site.Page.text
    monkeypatch.setattr(site.Page, "text", lambda self: rendered.append(self.template) or text(self))
    step, scratch = tmp_path / "step" / "cup.xlsx", tmp_path / "scratch" / "cup.xlsx"
    for path in (step, scratch):
        path.parent.mkdir()
        shutil.copyfile(EXAMPLE_PATH, path)
    first = sync_once(ExcelBackend(step, backups=0), out_dir=step.parent)
    pages = len(rendered)
    assert first.outputs["reused"] == 0 and pages > 80
    tab = protocol_tabs(step)[0]
    for path in (step, scratch):
        desk = ExcelDesk(path)
        desk.type({(tab, edit_cell(desk, tab, 0, "extra")): "0,4"})
    rendered.clear()
    again = sync_once(ExcelBackend(step, backups=0), out_dir=step.parent)
    print(f"after one edit: {len(rendered)} of {pages} pages rendered, {again.outputs}")
    assert 0 < len(rendered) < pages / 2 and again.outputs["reused"] == pages - len(rendered)
    assert "site/game.html" in rendered and "site/index.html" in rendered
    sync_once(ExcelBackend(scratch, backups=0), out_dir=scratch.parent)
    assert outputs(step.parent) == outputs(scratch.parent)


_KEYS_OF_THE_EXAMPLE = """
import json, sys
from pathlib import Path
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.loop.outcome import compute, read_workbook
from sheets_sync.render.site import Page, _Site

outcome = compute(read_workbook(ExcelBackend(EXAMPLE_PATH, backups=0)), base_dir=EXAMPLE_PATH.parent)
site = _Site(outcome.results, outcome.problems, outcome.language)
print(json.dumps({rel: page.key() for rel, page in site.pages() if isinstance(page, Page)}))
"""


def test_every_page_of_the_example_has_a_key_and_the_next_process_finds_the_same():
    """The keys are what lets the next ``sheets-sync sync`` keep a page: they must not depend on
    this process's hash seed (the order of a set), on which objects are shared, or on ids."""
    import json
    import os
    import subprocess
    import sys

    keys = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _KEYS_OF_THE_EXAMPLE], env=env, capture_output=True, text=True,
                             check=True).stdout
        keys.append(json.loads(out))
    assert len(keys[0]) > 80 and all(keys[0].values())
    assert keys[0] == keys[1]
