"""A write too big for one Google request (issue 42 §5): split into several in order, each far
under Google's 10 MB, the marks and the state tab that remembers them together in the last one —
checked on the plan and through the fake server (which refuses a body over 10 MB as Google does)."""

from __future__ import annotations

import json

from sheets_sync.backends.base import STATE_TAB, Mark, Patch, TabWrite
from sheets_sync.backends.google.metadata import SpreadsheetMetadata, TabProperties
from sheets_sync.backends.google.planner import MAX_REQUEST_BYTES, plan_batch_update, request_size, split_batch
from tests.google_support import fake_server, google_backend, sa_key, upload_tabs  # noqa: F401 - fixtures

# long Cyrillic text: each letter travels as a six-byte JSON escape, so 36,000 cells make some 12 MB
ROWS = [(f"Игрок {i:05d}", i, "Примечание судьи к игре, записанное очень подробно и многословно " * 2, "ё" * 80)
        for i in range(9_000)]


def big_patch() -> Patch:
    """Итоги of 9,000 long rows (some 12 MB of requests), a mark, and the state tab remembering it."""
    mark = Mark(sheet="Игроки", cell="A2", severity="error", note="«x» — не число")
    state = TabWrite(title=STATE_TAB, rows=(("sheet", "cell", "severity", "note"), ("Игроки", "A2", "error", mark.note)),
                     hidden=True)
    return Patch(writes=(TabWrite(title="Итоги", rows=tuple(ROWS)), state), set_marks=(mark,))


def test_a_big_write_is_split_in_order_with_the_marks_and_the_state_last():
    meta = SpreadsheetMetadata(title="T", locale="ru_RU", tabs=[TabProperties(1, "Игроки")])
    body, after = plan_batch_update(big_patch(), meta)
    assert request_size(body) > 10 * 1024 * 1024  # what used to go as one request

    bodies = split_batch(body, after)

    assert len(bodies) > 1 and all(len(json.dumps(b)) <= MAX_REQUEST_BYTES for b in bodies)
    state_id = next(t.sheet_id for t in after.tabs if t.title == STATE_TAB)
    last = bodies[-1]["requests"]
    assert any(r.get("updateCells", {}).get("fields", "").startswith("note") for r in last)  # the mark
    assert any((r.get("updateCells", {}).get("start") or {}).get("sheetId") == state_id for r in last)
    earlier = [r for b in bodies[:-1] for r in b["requests"]]
    assert not any((next(iter(r.values())).get("start") or {}).get("sheetId") == state_id for r in earlier)
    assert "addSheet" in bodies[0]["requests"][0]  # the tabs exist before anything is written into them
    starts = [(r["updateCells"]["start"]["rowIndex"], len(r["updateCells"]["rows"])) for b in bodies for r in b["requests"]
              if "rows" in r.get("updateCells", {}) and r["updateCells"]["start"]["sheetId"] != state_id
              and r["updateCells"]["start"]["sheetId"] != 1]
    assert starts[0][0] == 0 and all(a + n == b for (a, n), (b, _) in zip(starts, starts[1:]))
    assert sum(n for _, n in starts) == len(ROWS)


def test_a_small_write_stays_one_request():
    meta = SpreadsheetMetadata(title="T", locale="ru_RU", tabs=[TabProperties(1, "Игроки")])
    body, after = plan_batch_update(Patch(writes=(TabWrite(title="Итоги", rows=tuple(ROWS[:100])),)), meta)
    assert split_batch(body, after) == [body]


def test_the_fake_server_takes_the_split_write_and_holds_every_row(fake_server, sa_key):
    sid = upload_tabs(fake_server, {"Игроки": [["Игрок"], ["Анна"]]})
    backend = google_backend(fake_server, sa_key, sid)
    fake_server.reset_counts()

    backend.apply(big_patch(), base=None)

    writes = [r["bytes"] for r in fake_server.request_log if r["path"].endswith(":batchUpdate")]
    assert len(writes) > 1 and max(writes) <= MAX_REQUEST_BYTES
    held = fake_server.values(sid, "Итоги")
    assert len(held) == len(ROWS) and held[-1][0] == ROWS[-1][0]
    assert fake_server.cells(sid, "Игроки")["A2"].note == "«x» — не число"
    assert fake_server.values(sid, STATE_TAB)[1] == ["Игроки", "A2", "error", "«x» — не число"]
