"""`make bench` (the players' messages, issue 45 §4): a round's seating of 100 players told to each
of them through the outbox and the bot's loop, against the fake Telegram Bot API
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
from types import SimpleNamespace

BEGIN, END = "<!-- messages-bench:begin -->", "<!-- messages-bench:end -->"


def _django(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.web_settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _round(players: int, slug: str, flood: bool) -> dict:
    """One round's seating told to ``players`` players; the figures of it."""
    from django.db import close_old_connections
    from django.utils import timezone

    from sheets_sync.web.messaging.bot import BotLoop
    from sheets_sync.web.messaging.receivers import queue_seating
    from sheets_sync.web.messaging.telegram import BotApi
    from sheets_sync.web.messaging.texts import seat_plan
    from sheets_sync.web.models import Application, OutboxMessage, Tournament
    from tests.fake_telegram import TOKEN, FakeTelegram

    t = Tournament.objects.create(slug=slug, title="Кубок", source=Tournament.EXCEL)
    names = [f"Игрок {i:03d}" for i in range(players)]
    Application.objects.bulk_create([
        Application(tournament=t, nickname=n, chat_id=1_000_000 + t.pk * 1000 + i, applied_at=timezone.now(),
                    token=f"{slug}{i}", token_hash=f"{slug}h{i}", start_code=f"{slug}c{i}") for i, n in enumerate(names)])
    seating = [SimpleNamespace(stage="qualifying", round=1, table=k // 10 + 1, players=tuple(names[k:k + 10]))
               for k in range(0, players, 10)]
    with FakeTelegram(enforce=True) as fake:
        loop = BotLoop(BotApi(TOKEN, fake.url), poll_wait=1)
        stop = threading.Event()

        def run() -> None:
            while not stop.is_set():
                loop.run(1.0)
            close_old_connections()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        time.sleep(1.5)  # the loop is in its long poll, as a server's is between rounds
        if flood:
            fake.flood(1, retry_after=2)
        started = time.monotonic()
        queued = queue_seating(t, seat_plan("Кубок", seating, [("qualifying", "Отбор")], played=set()))
        queued_s = time.monotonic() - started
        fake.wait_for(players, timeout=60)
        took = (fake.sent[-1].at - started) if fake.sent else float("nan")
        stop.set()
        thread.join(10)
        moments = [m.at for m in fake.sent]
        busiest = max((sum(1 for x in moments if 0 <= x - m < 1.0) for m in moments), default=0)
        counts = fake.counts()
        return {"players": players, "queued": queued, "queued_s": round(queued_s, 3), "received": len(fake.sent),
                "twice": sum(1 for n in counts.values() if n > 1), "last_s": round(took, 2), "busiest_second": busiest,
                "refused": fake.refused, "flood": flood,
                "sent_rows": OutboxMessage.objects.filter(application__tournament=t, state=OutboxMessage.SENT).count()}


def measure(players: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-messages-") as folder:
        _django(Path(folder))
        return {"plain": _round(players, "plain", False), "flood": _round(players, "flood", True)}


def section(r: dict) -> str:
    from bench.run import cpu_model

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    p, f = r["plain"], r["flood"]
    return "\n".join([
        BEGIN,
        "## The players' messages: a round's seating told to 100 players (bench/messages.py, issue 45 §4)",
        "",
        f"Measured {date.today().isoformat()} on {cpu_model()}, {os.cpu_count()} cores shared with other work, "
        f"Python {platform.python_version()}; load average {load} at the end. {p['players']} players with a linked "
        "chat; one round's seating (ten tables) queued by the sync's receiver, sent by the bot's loop (in its "
        "long poll when the seating came) to the fake Telegram Bot API, which refuses with 429 whatever breaks "
        "Telegram's limits.",
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
