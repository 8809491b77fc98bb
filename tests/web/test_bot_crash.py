"""The outbox after ``kill -9`` (issue 45, Safety): the bot's loop as a real process
(``python -m sheets_sync.web.messaging.run``) sending a batch to the fake Telegram server, killed
with SIGKILL in the middle of it, started again: every message arrives, none twice. The one
message whose call the kill cut off may have arrived (the fake counts it) — it is marked
``uncertain`` for the organizer and never sent again by itself."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fake_telegram import TOKEN, FakeTelegram
from tests.web.process_support import ROOT, Running, django_script, environment

pytestmark = pytest.mark.slow

PLAYERS = 40

QUEUE = """
from django.utils import timezone
from sheets_sync.web.messaging import outbox
from sheets_sync.web.models import Application, Tournament
t = Tournament.objects.create(slug="cup", title="Кубок", source=Tournament.EXCEL)
for i in range(int(sys.argv[2])):
    a = Application.objects.create(tournament=t, nickname=f"Игрок {i:02d}", chat_id=10_000 + i, applied_at=timezone.now(),
                                   token=f"t{i}", token_hash=f"h{i}", start_code=f"c{i}")
    outbox.queue(a, "seat", f"seat:{t.pk}:qualifying:1:{a.pk}", f"«Кубок»: тур 1 — стол {i // 10 + 1}, место {i % 10 + 1}.")
"""


def start_bot(env: dict[str, str], log: Path) -> Running:
    out = log.open("a")
    proc = subprocess.Popen([sys.executable, "-m", "sheets_sync.web.messaging.run", "--data", env["SHEETS_SYNC_DATA"],
                             "--seconds", "60"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)
    return Running(proc, log)


def states(data: Path) -> dict[str, int]:
    with sqlite3.connect(data / "server.sqlite3") as db:
        return dict(db.execute("SELECT state, COUNT(*) FROM web_outboxmessage GROUP BY state").fetchall())


def test_a_killed_sender_sends_each_message_once(tmp_path):
    data = tmp_path / "data"
    with FakeTelegram(enforce=True, delay=0.15) as telegram:  # each call takes a while: the kill cuts one off
        env = environment(data, SHEETS_SYNC_TELEGRAM_TOKEN=TOKEN, SHEETS_SYNC_TELEGRAM_API=telegram.url,
                          SHEETS_SYNC_BOT_LEASE="2")
        django_script(env, QUEUE, str(PLAYERS))
        assert states(data) == {"queued": PLAYERS}
        first = start_bot(env, tmp_path / "bot1.log")
        try:
            deadline = time.monotonic() + 60
            while telegram.calls["sendMessage"] < PLAYERS // 3 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.07)  # the middle of a call: the fake sleeps 0.15 s in each
        finally:
            first.kill()
        before = states(data)
        assert before.get("queued", 0) > 0 and before.get("sent", 0) > 0, before
        second = start_bot(env, tmp_path / "bot2.log")
        try:
            deadline = time.monotonic() + 60
            while (states(data).get("queued", 0) or states(data).get("sending", 0)) and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            second.kill()
        after = states(data)
    counts = telegram.counts()
    assert all(n == 1 for n in counts.values()), {k: n for k, n in counts.items() if n > 1}  # never twice
    assert after.get("sent", 0) + after.get("uncertain", 0) == PLAYERS, after
    assert after.get("uncertain", 0) <= 1 and after.get("sending", 0) == 0
    with sqlite3.connect(data / "server.sqlite3") as db:
        rows = db.execute("SELECT a.chat_id, m.text, m.state FROM web_outboxmessage m "
                          "JOIN web_application a ON a.id = m.application_id").fetchall()
    for chat_id, text, state in rows:
        delivered = counts.get((chat_id, text), 0)
        assert delivered == 1 if state == "sent" else delivered <= 1, (chat_id, state, delivered)
    assert sum(counts.values()) >= PLAYERS - 1  # every message arrived (the cut-off one may have: the fake says)
    assert telegram.refused == 0


def test_the_server_runs_the_bot_beside_its_workers(tmp_path):
    """``sheets-sync server`` with the bot's token: a player's /start links his chat and the queued
    messages reach him, while the worker threads stay free for the jobs."""
    from tests.web.process_support import start_server

    data = tmp_path / "data"
    with FakeTelegram(enforce=True) as telegram:
        env = environment(data, SHEETS_SYNC_TELEGRAM_TOKEN=TOKEN, SHEETS_SYNC_TELEGRAM_API=telegram.url)
        django_script(env, QUEUE, "3")
        with sqlite3.connect(data / "server.sqlite3") as db:
            db.execute("UPDATE web_application SET chat_id = NULL WHERE nickname = 'Игрок 02'")
        server = start_server(env, tmp_path / "server.log")
        try:
            telegram.say(777, "/start c2")
            assert telegram.wait_for(3, 30), telegram.sent  # two seats and the linked chat's welcome
        finally:
            server.stop()
    assert sorted(m.chat_id for m in telegram.sent) == [777, 10_000, 10_001]
    assert "сюда будут приходить" in telegram.to(777)[0]
    with sqlite3.connect(data / "server.sqlite3") as db:
        assert db.execute("SELECT chat_id FROM web_application WHERE start_code = 'c2'").fetchone() == (777,)
        assert db.execute("SELECT lease_owner FROM web_botstate").fetchone() == ("",)  # released when it stopped


def test_the_bot_on_its_own_stops_on_sigterm_and_lets_the_lease_go(tmp_path):
    data = tmp_path / "data"
    with FakeTelegram() as telegram:
        env = environment(data, SHEETS_SYNC_TELEGRAM_TOKEN=TOKEN, SHEETS_SYNC_TELEGRAM_API=telegram.url)
        django_script(env, QUEUE, "2")
        bot = start_bot(env, tmp_path / "bot.log")
        try:
            assert telegram.wait_for(2, 30)
        finally:
            bot.stop()  # SIGTERM
    assert bot.proc.returncode == 0
    with sqlite3.connect(data / "server.sqlite3") as db:
        assert db.execute("SELECT lease_owner, lease_until FROM web_botstate").fetchone() == ("", None)
