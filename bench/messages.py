"""`make bench` (the players' messages, issue 45 §4): a round's seating of 100 players (a workbook
made by ``init``, the sync's signal with its outcome) told to each of them through the outbox and the bot's loop, against the fake Telegram Bot API
(tests/fake_telegram.py) that refuses with 429 whatever breaks Telegram's limits (30 messages a
second, one a second to a chat) — the time from the seating known (queued by the sync's receiver)
to the last message received; once as is, once with a 429 (``retry_after`` 2 s) in the middle.

Plain script, not a test: it measures in real time and writes its own dated section of
docs/benchmarks.md (between the ``messages-bench`` markers).

    python -m bench.messages [--players 100] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

BEGIN, END = "<!-- messages-bench:begin -->", "<!-- messages-bench:end -->"


def _django(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.web_settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _workbook(folder: Path, players: int) -> Path:
    """A tournament of ``players`` made by ``init`` (the qualifying seated, nothing played)."""
    from sheets_sync.actions.init import init_workbook

    csv = folder / "players.csv"
    csv.write_text("Ник,Клуб\n" + "".join(f"Игрок {i:03d},Клуб {i % 9}\n" for i in range(1, players + 1)), encoding="utf-8")
    path = folder / "cup.xlsx"
    init_workbook(str(path), players_csv=csv, preset_ref="gmo-2016", name="Кубок", language="ru")
    return path


def _round(path: Path, slug: str, flood: bool) -> dict:
    """The sync's signal for the workbook at ``path`` told to a player per seat of its first
    round, each with a linked chat; the figures of it."""
    from django.db import close_old_connections
    from django.utils import timezone

    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.outcome import compute
    from sheets_sync.web.messaging.bot import BotLoop
    from sheets_sync.web.messaging.telegram import BotApi
    from sheets_sync.web.models import Application, OutboxMessage, Tournament
    from sheets_sync.web.signals import after_sync
    from tests.fake_telegram import TOKEN, FakeTelegram

    snapshot = ExcelBackend(path).read()
    outcome = compute(snapshot)
    names = [p.nickname for p in outcome.results.tournament.players]
    t = Tournament.objects.create(slug=slug, title="Кубок", source=Tournament.EXCEL, path=str(path))
    Application.objects.bulk_create([
        Application(tournament=t, nickname=n, chat_id=1_000_000 + t.pk * 1000 + i, applied_at=timezone.now(),
                    token=f"{slug}{i}", token_hash=f"{slug}h{i}", start_code=f"{slug}c{i}") for i, n in enumerate(names)])
    with FakeTelegram(enforce=True) as fake:
        loop = BotLoop(BotApi(TOKEN, fake.url), poll_wait=1)
        stop = threading.Event()

        def run() -> None:
            while not stop.is_set():
                loop.run(1.0, stop=stop)
            close_old_connections()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        time.sleep(1.5)  # the loop is in its long poll, as a server's is between rounds
        if flood:
            fake.flood(1, retry_after=2)
        started = time.monotonic()
        after_sync(t, outcome, snapshot)  # what the sync job does once it computed: the seating is known
        queued_s = time.monotonic() - started
        queued = OutboxMessage.objects.filter(application__tournament=t).count()
        fake.wait_for(queued, timeout=60)
        took = (fake.sent[-1].at - started) if fake.sent else float("nan")
        stop.set()
        thread.join(10)
        moments = [m.at for m in fake.sent]
        busiest = max((sum(1 for x in moments if 0 <= x - m < 1.0) for m in moments), default=0)
        counts = fake.counts()
        return {"players": len(names), "queued": queued, "queued_s": round(queued_s, 3), "received": len(fake.sent),
                "twice": sum(1 for n in counts.values() if n > 1), "last_s": round(took, 2), "busiest_second": busiest,
                "refused": fake.refused, "flood": flood,
                "sent_rows": OutboxMessage.objects.filter(application__tournament=t, state=OutboxMessage.SENT).count()}


def measure(players: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-messages-") as folder:
        _django(Path(folder))
        path = _workbook(Path(folder), players)
        return {"plain": _round(path, "plain", False), "flood": _round(path, "flood", True)}


def section(r: dict) -> str:
    from bench.run import cpu_model

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    p, f = r["plain"], r["flood"]
    return "\n".join([
        BEGIN,
        "## The players' messages: a round's seating told to 100 players (bench/messages.py, issue 45 §4)",
        "",
        f"Measured {date.today().isoformat()} on {cpu_model()}, {os.cpu_count()} cores shared with other work, "
        f"Python {platform.python_version()}; load average {load} at the end. A tournament of {p['players']} players "
        "made by `init` (gmo-2016, the qualifying seated), each with a linked chat; the sync's signal with its "
        "outcome (the receiver queues the first round's table and seat of each: the later rounds come as they "
        "come), sent by the bot's loop (in its long poll when the seating came) to the fake Telegram Bot API, "
        "which refuses with 429 whatever breaks Telegram's limits.",
        "",
        "| figure | as is | with one 429 (retry_after 2 s) | target |",
        "|---|---|---|---|",
        f"| messages queued / received | {p['queued']} / {p['received']} | {f['queued']} / {f['received']} | 100 / 100 |",
        f"| queuing them (s) | {p['queued_s']} | {f['queued_s']} | |",
        f"| the seating → the last message received (s) | {p['last_s']} | {f['last_s']} | ≤ 10 |",
        f"| messages in the busiest second | {p['busiest_second']} | {f['busiest_second']} | ≤ 30 |",
        f"| refused for breaking the limits | {p['refused']} | {f['refused']} | 0 |",
        f"| messages received twice | {p['twice']} | {f['twice']} | 0 |",
        "",
        "The loop sends a message every 1/29 s (no second holds more than 30) and a chat at most once a",
        "second; a 429 stops every send for its retry_after and the refused message goes again.",
        END,
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = measure(args.players)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if not args.no_write:
        from bench.run import write_marked_section

        write_marked_section(BEGIN, END, section(result))


if __name__ == "__main__":
    main()
