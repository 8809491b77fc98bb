"""The example as it stood mid-qualifying (`make demo` shows it beside the finished one): made with
the backend's writer, read back as a tournament after three rounds and one game of the fourth."""

from __future__ import annotations

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import example_mid_qualifying
from sheets_sync.loop.sync import sync_once


def test_the_mid_qualifying_copy_is_the_example_after_three_rounds(tmp_path):
    path = example_mid_qualifying(tmp_path / "mid.xlsx")
    snapshot = ExcelBackend(path, backups=0).read()
    assert not [t for t in snapshot.order if t.split()[0] in ("ПФ", "Финал")]
    assert {row[0] for row in snapshot.tabs["Рассадка"][1:] if row} == {"Отбор"}
    report = sync_once(ExcelBackend(path, backups=0), out_dir=None)
    counted = {(p.round, p.table) for p in report.outcome.results.counted}
    assert counted == {(r, t) for r in (1, 2, 3) for t in (1, 2, 3, 4)} | {(4, 1)}
