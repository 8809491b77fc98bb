"""`make bench` (the server's organizer pages): the tournament list and the account pages with
500 registered tournaments, p50 / p95 over repeated requests.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``web-accounts-bench`` markers). A private data folder and SQLite database (the
server's default), migrated; 500 tournaments, 100 of them one organizer's (each with a last sync
summary) and the rest spread over 40 other organizers; then Django's test client asks each page
(the whole middleware stack: sessions, CSRF, django-axes, the templates) ``--requests`` times;
the list also for a federation's organizer who co-organizes all 500.

    python -m bench.web_accounts              # 500 tournaments, 200 requests a page
    python -m bench.web_accounts --quick      # 100 requests a page
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import tempfile
import time

from bench.run import cpu_model, write_marked_section

BEGIN, END = "<!-- web-accounts-bench:begin -->", "<!-- web-accounts-bench:end -->"
TOURNAMENTS, MINE, ORGANIZERS = 500, 100, 40


def _setup() -> None:
    os.environ["SHEETS_SYNC_DATA"] = tempfile.mkdtemp(prefix="sheets-sync-bench-web-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "sheets_sync.web.settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _populate():
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from sheets_sync.web.models import Membership, ServiceAccount, Tournament

    users = [get_user_model().objects.create_user(username=f"org{n}@club.ru", email=f"org{n}@club.ru")
             for n in range(ORGANIZERS + 1)]
    accounts = [ServiceAccount.objects.create(email=f"sa{n}@p.iam.gserviceaccount.com", key_file=f"/keys/{n}.json")
                for n in range(3)]
    now = timezone.now()
    tournaments = Tournament.objects.bulk_create([
        Tournament(slug=f"turnir-{n}", title=f"Турнир {n}", spreadsheet_id=f"sheet{n:06d}xxxxxxxx", account=accounts[n % 3],
                   last_sync={"games": n % 60, "errors": n % 3, "warnings": 1}, last_sync_at=now, share_lost=n % 50 == 0)
        for n in range(TOURNAMENTS)])
    Membership.objects.bulk_create([
        Membership(user=users[0] if n < MINE else users[1 + n % ORGANIZERS], tournament=t, role=Membership.OWNER)
        for n, t in enumerate(tournaments)])
    everything = get_user_model().objects.create_user(username="federation@club.ru", email="federation@club.ru")
    Membership.objects.bulk_create([Membership(user=everything, tournament=t, role=Membership.CO_ORGANIZER)
                                    for t in tournaments])
    return users[0], everything, tournaments[0]


def _timings(client, url: str, requests: int) -> dict:
    client.get(url)  # templates compiled, connections open
    wall, cpu = [], []
    for _ in range(requests):
        w0, c0 = time.perf_counter(), time.process_time()
        answer = client.get(url)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
        assert answer.status_code == 200, (url, answer.status_code)
    wall.sort()
    return {"url": url, "p50": statistics.median(wall), "p95": wall[int(0.95 * (len(wall) - 1))],
            "cpu_p50": statistics.median(cpu), "bytes": len(answer.content)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--requests", type=int, default=None)
    args = parser.parse_args(argv)
    requests = args.requests or (100 if args.quick else 200)
    _setup()
    from django.test import Client

    me, everything, mine = _populate()
    client = Client()
    client.force_login(me, backend="django.contrib.auth.backends.ModelBackend")
    rows = [_timings(client, url, requests) for url in ("/", "/add/", "/new/", f"/o/{mine.slug}/members/")]
    federation = Client()
    federation.force_login(everything, backend="django.contrib.auth.backends.ModelBackend")
    rows.append({**_timings(federation, "/", requests), "url": "/ (co-organizer of all 500)"})
    rows.append(_timings(Client(), "/login/", requests))
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    lines = [BEGIN, "## The server's organizer pages (bench/web_accounts.py)", "",
             f"{dt.date.today().isoformat()} · {cpu_model()} · Python {platform.python_version()} · "
             f"SQLite · {TOURNAMENTS} tournaments registered, {MINE} of them the signed-in organizer's · "
             f"{requests} requests a page through Django's test client (the whole middleware stack, no network)", "",
             "| page | p50 | p95 | CPU p50 | size |", "|---|---|---|---|---|"]
    lines += [f"| `{r['url']}` | {ms(r['p50'])} | {ms(r['p95'])} | {ms(r['cpu_p50'])} | {r['bytes'] // 1024} KB |"
              for r in rows]
    lines += ["", "Target (issue 35): dashboard pages p95 ≤ 200 ms with 500 tournaments.", END]
    section = "\n".join(lines)
    write_marked_section(BEGIN, END, section)
    print(section)


if __name__ == "__main__":
    main()
