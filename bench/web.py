"""`make bench` (the web app): the organizers' dashboard with 500 tournaments registered.

Plain script, not a test: it measures and writes its own dated section of docs/benchmarks.md
(between the ``web-bench`` markers). In a fresh data folder it registers 500 tournaments, each
with an organizer, a last sync's summary (counts and 20 problems with their cells) and 10 jobs,
and the example's synced public site for 50 of them; then it asks, through Django's test client
(the whole middleware stack, sessions and CSRF included), a few hundred times each: the
tournament page of a random tournament as its organizer, the public page of a random published
one, and the tournament list at ``/`` where this branch has it. It reports p50/p95/max and the
process's RSS (now and peak).

    python -m bench.web            # 500 tournaments, 300 requests a page
    python -m bench.web --quick    # 100 tournaments, 50 requests a page
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.run import ROOT, cpu_model, write_marked_section

__all__ = ["setup_django", "register", "measure"]

BEGIN, END = "<!-- web-bench:begin -->", "<!-- web-bench:end -->"


def setup_django(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "sheets_sync.web.settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def _summary(i: int) -> dict:
    problems = [{"tab": f"Тур {r} Стол {t}", "cell": f"D{9 + t}", "gid": 1000 + r * 10 + t, "severity": "error",
                 "ru": "фолов больше четырёх", "en": "more than four fouls"} for r in range(1, 6) for t in range(1, 5)]
    return {"games": 20 + i % 18, "planned": 38, "errors": 20, "warnings": 3, "name": f"Турнир {i}", "language": "ru",
            "problems": problems, "problems_total": 23, "skipped": False, "written": True, "tabs": 7, "files": 90}


def register(n: int, published: int) -> list:
    """``n`` Google tournaments, one organizer each, with summaries and jobs; the example's synced
    site copied into the first ``published`` ones' site folders."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from sheets_sync.web import jobs
    from sheets_sync.web.models import Job, Membership, ServiceAccount, Tournament

    account = ServiceAccount.objects.create(email="sa@bench.iam.gserviceaccount.com", key_file="/nonexistent/key.json")
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"org{i}@example.org", email=f"org{i}@example.org") for i in range(n)])
    now = timezone.now()
    tournaments = Tournament.objects.bulk_create(
        [Tournament(slug=f"t{i}", title=f"Турнир {i}", spreadsheet_id=f"sheet{i:04d}", account=account,
                    last_sync=_summary(i), last_sync_at=now, needs_sync=False) for i in range(n)])
    Membership.objects.bulk_create([Membership(user=u, tournament=t) for u, t in zip(users, tournaments)])
    statuses = [Job.DONE] * 7 + [Job.FAILED, Job.QUEUED, Job.RUNNING]
    Job.objects.bulk_create([Job(tournament=t, action=random.choice(["sync", "draw", "vk"]), status=s,
                                 result={"games": 30}) for t in tournaments for s in statuses])
    site = _example_site()
    for t in tournaments[:published]:
        shutil.copytree(site, jobs.site_dir(t))
    return list(zip(users, tournaments))


def _example_site() -> Path:
    """The bundled example synced once: its public site, as a sync writes it."""
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.loop.sync import sync_once

    folder = Path(tempfile.mkdtemp(prefix="web-bench-example-"))
    workbook = folder / "example.xlsx"
    shutil.copy(EXAMPLE_PATH, workbook)
    sync_once(ExcelBackend(workbook), out_dir=folder / "out")
    return folder / "out" / "site"


def _timed(client, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    if hasattr(response, "streaming_content"):
        b"".join(response.streaming_content)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def measure(pairs: list, requests: int, published: int) -> dict[str, list[float]]:
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    rng = random.Random(1)
    times: dict[str, list[float]] = {"tournament page": [], "public page": []}
    clients = {}
    for _ in range(requests):
        user, t = rng.choice(pairs)
        client = clients.get(user.pk)
        if client is None:
            client = clients[user.pk] = Client()
            client.force_login(user)
        times["tournament page"].append(_timed(client, reverse("tournament", args=[t.slug])))
        times["public page"].append(_timed(Client(), f"/t/t{rng.randrange(published)}/"))
    try:
        home = reverse("tournaments")
    except NoReverseMatch:
        return times
    times["tournament list (/)"] = [_timed(clients[user.pk], home) for user, _ in rng.sample(pairs, min(requests, 50))
                                    if user.pk in clients]
    return times


def _rss_mb() -> tuple[float, float]:
    now = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _section(n: int, published: int, times: dict[str, list[float]], rss: tuple[float, float]) -> str:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = []
    for name, values in times.items():
        values = sorted(values)
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        rows.append(f"| {name} | {len(values)} | {statistics.median(values) * 1000:.1f} | {p95 * 1000:.1f} | "
                    f"{values[-1] * 1000:.1f} |")
    return "\n".join([
        BEGIN, "## Web dashboard (bench/web.py)", "",
        f"{stamp} · {cpu_model()} · Python {sys.version.split()[0]} · SQLite · Django's test client "
        f"(the whole middleware stack) · {n} tournaments registered, each with an organizer, a last sync of "
        f"20 problems and 10 jobs; {published} with the example's published site.", "",
        "| page | requests | p50 ms | p95 ms | max ms |", "|---|---:|---:|---:|---:|", *rows, "",
        f"Process RSS after the run: {rss[0]:.0f} MB (peak {rss[1]:.0f} MB; the example's first sync, made "
        f"in this process to publish a site, included). Targets (issue 35): p95 ≤ 200 ms, ≤ 300 MB.",
        "", END])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="print the section, leave docs/benchmarks.md")
    args = parser.parse_args(argv)
    n, requests, published = (100, 50, 20) if args.quick else (500, 300, 50)
    data = Path(tempfile.mkdtemp(prefix="web-bench-"))
    try:
        setup_django(data)
        pairs = register(n, published)
        measure(pairs[:5], 5, published)  # warm: templates compiled, connections open
        times = measure(pairs, requests, published)
        section = _section(n, published, times, _rss_mb())
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print(section)
    if not args.no_write:
        write_marked_section(BEGIN, END, section)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
