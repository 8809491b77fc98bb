"""`make bench` (keeper): 500 registered Google sheets on the fake server over several service
accounts, 20 of them with judges saving every few seconds (10 with the push trigger, 10 without),
17 just added by their organizers (the claim code typed, the first sync) and then left alone, on a
simulated clock shared by the keeper, the budget and the fake's quotas and Drive lag.

Measured: each account's Sheets reads and writes in its busiest minute (Google allows 60 of each)
and the 429s the fake answered; the Sheets requests the idle sheets cost, and those the just-added
sheets cost after their first sync (issue 42 §4: both must be 0); edit → site updated
(simulated waiting — debounce, polls, Drive — plus the sync's own wall time); the process's peak
RSS (the fake server with its 500 spreadsheets lives in the same process: an upper bound).

    python -m bench.keeper [--minutes 3] [--accounts 10] [--sheets 500] [--busy 20] [--added 17] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import tempfile
import time
from datetime import date, datetime, timezone as dt_timezone
from pathlib import Path

BEGIN, END = "<!-- bench.keeper begin -->", "<!-- bench.keeper end -->"
EDIT_TAB = "Тур 1 Стол 1"


class Clock:
    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, tz=dt_timezone.utc)

    def sleep(self, seconds: float) -> None:
        self.t += seconds


def _django(data: Path) -> None:
    os.environ["SHEETS_SYNC_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.web_settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _register(fake, clock, args, folder: Path):
    """The accounts, 500 sheets (the busy ones are the example tournament), the keeper wired to ``clock``."""
    from django.conf import settings

    from sheets_sync.example import EXAMPLE_PATH
    from sheets_sync.web import keeping, workbooks
    from sheets_sync.web.models import ServiceAccount, Tournament
    from tests.google_support import upload_xlsx, write_key_file

    settings.GOOGLE_ENDPOINT = fake.url
    fake.clock, fake.drive_delay = clock, 120.0
    keeping.now = clock.now
    workbooks.budget_clock, workbooks.budget_sleep = clock, clock.sleep
    accounts = [ServiceAccount.objects.create(
        email=f"keeper-{n}@club.iam.gserviceaccount.com",
        key_file=write_key_file(folder / f"key-{n}.json", fake.token_uri, f"keeper-{n}@club.iam.gserviceaccount.com"))
        for n in range(args.accounts)]
    sids = []
    before = current_rss_mb()
    for n in range(args.sheets):  # the fake's spreadsheets first: their memory is not the keeper's
        if n < args.busy:
            path = folder / f"busy-{n}.xlsx"
            shutil.copyfile(EXAMPLE_PATH, path)
            sids.append(upload_xlsx(fake, path))
        else:
            sids.append(fake.create_spreadsheet(f"idle {n}", {"Турнир": [["Название", f"Клуб {n}"]]}))
        fake.share(sids[-1], accounts[n % args.accounts].email)
    fake_mb = current_rss_mb() - before
    busy, added, idle = [], [], []
    for n, sid in enumerate(sids):
        t = Tournament.objects.create(slug=f"t{n}", spreadsheet_id=sid, account=accounts[n % args.accounts],
                                      needs_sync=False)
        (busy if n < args.busy else added if n < args.busy + args.added else idle).append(t)
    for t in busy:
        keeping.ensure_hook_secret(t)
    return accounts, busy, added, idle, fake_mb


def current_rss_mb() -> float:
    """This process's resident memory now (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _add(fake, clock, added) -> dict[str, int]:
    """The just-added sheets: each organizer types the add-sheet page's code into the Tournament tab
    and presses «Проверить», which starts the first sync. Returns each sheet's Sheets requests so far."""
    from sheets_sync.web import jobs

    for n, t in enumerate(added):
        fake.set_values(t.spreadsheet_id, "Турнир", [[f"SS-ABCD-{n:04d}"]], start="D3", raw=True,
                        user=f"organizer{n}@club.ru")
    clock.t += 5
    for t in added:
        jobs.request_sync(t, "added")
    return {t.spreadsheet_id: _requests(fake, t.spreadsheet_id) for t in added}


def _requests(fake, sid: str) -> int:
    return fake.quota.file_reads.get(sid, 0) + fake.quota.file_writes.get(sid, 0)


def _run(fake, clock, args, busy, added, syncs):
    """The simulated minutes: judges' saves, pushes, the keeper's second / ten seconds / minute."""
    from django.test import Client

    from sheets_sync.web import jobs, keeping

    client, rng = Client(), random.Random(35)
    edits: dict[int, list[float]] = {t.pk: [] for t in busy}
    next_edit = {t.pk: clock() + rng.uniform(0, 5) for t in busy}
    from sheets_sync.web.models import Tournament

    keeping.tick()
    for t in busy:
        jobs.request_sync(t, "registered")
    first_syncs = _add(fake, clock, added)
    # steady state: these tournaments are being played (the Drive feed or a push put them in the fast lane)
    Tournament.objects.filter(pk__in=[t.pk for t in busy]).update(fast_until=clock.now() + keeping.FAST_LANE)
    start = clock()
    last_tick = start
    while clock() - start < args.minutes * 60:
        clock.t += 1.0
        for i, t in enumerate(busy):
            if clock() >= next_edit[t.pk]:
                # the ten cells in turn: a cell is typed again only ten edits (≥ 30 s) later, so no edit
                # undoes another before a sync (an edit undone is none to find, and had no latency)
                cell = f"I{10 + len(edits[t.pk]) % 10}"
                now_there = fake.cells(t.spreadsheet_id, EDIT_TAB).get(cell)
                choices = [n for n in range(1, 6) if now_there is None or now_there.value != n / 10]
                # always a real change: a value typed again as it was is no edit to find
                fake.set_values(t.spreadsheet_id, EDIT_TAB, [[f"0,{rng.choice(choices)}"]], start=cell)
                edits[t.pk].append(clock())
                next_edit[t.pk] = clock() + rng.uniform(3, 8)
                if i % 2 == 0:  # half the busy sheets have the push trigger
                    client.post(f"/hook/{t.spreadsheet_id}/", json.dumps({"secret": t.hook_secret}),
                                content_type="application/json")
        keeping.start_due_pushes()  # every second, as keeping_minute does: pushes, then the due polls
        keeping.poll_fast_lane()
        if clock() - last_tick >= 60:
            keeping.tick()
            last_tick = clock()
    after_first = sum(_requests(fake, sid) - before for sid, before in first_syncs.items())
    return edits, start, after_first


def _latencies(edits, syncs, pushed: set[int]):
    """edit → site: the first sync starting at or after the edit, plus that sync's wall time."""
    out = {True: [], False: []}
    for pk, times in edits.items():
        runs = sorted(s for s in syncs if s[0] == pk)
        for at in times:
            later = [(start, wall) for _, start, wall in runs if start >= at]
            if later:
                start, wall = later[0]
                out[pk in pushed].append(start - at + wall)
    return out


def measure(args) -> dict:
    import logging

    from tests.fake_sheets import FakeSheetsServer

    logging.getLogger("sheets_sync.backends.google").setLevel(logging.ERROR)  # the locale advice, once per sync

    clock = Clock()
    with tempfile.TemporaryDirectory(prefix="bench-keeper-") as tmp, FakeSheetsServer() as fake:
        folder = Path(tmp)
        _django(folder / "data")
        from sheets_sync.web import jobs

        accounts, busy, added, idle, fake_mb = _register(fake, clock, args, folder)
        rss_registered = current_rss_mb()
        syncs: list[tuple[int, float, float]] = []
        original = jobs.RUNNERS[jobs.SYNC]

        def timed(t, params):
            began, wall = clock(), time.perf_counter()
            try:
                return original(t, params)
            finally:
                syncs.append((t.pk, began, time.perf_counter() - wall))

        jobs.RUNNERS[jobs.SYNC] = timed
        fake.reset_counts()
        wall = time.perf_counter()
        edits, _, after_first = _run(fake, clock, args, busy, added, syncs)
        wall = time.perf_counter() - wall
        lat = _latencies(edits, syncs, {t.pk for i, t in enumerate(busy) if i % 2 == 0})
        idle_ids = {t.spreadsheet_id for t in idle}
        return {
            "accounts": len(accounts), "sheets": args.sheets, "busy": len(busy), "minutes": args.minutes,
            "reads_busiest_minute": fake.quota.busiest_minute("read"),
            "writes_busiest_minute": fake.quota.busiest_minute("write"),
            "quota_429": sum(fake.quota.refused.values()),
            "idle_sheet_requests": sum(n for sid, n in fake.quota.file_reads.items() if sid in idle_ids)
            + sum(n for sid, n in fake.quota.file_writes.items() if sid in idle_ids),
            "added": len(added), "added_after_first_sync": after_first,
            "drive_calls": sum(1 for r in fake.request_log if r["path"].startswith("/drive/v3/changes")),
            "edits": sum(len(v) for v in edits.values()), "syncs": len(syncs),
            "push_p50": _q(lat[True], 0.5), "push_p95": _q(lat[True], 0.95), "push_max": max(lat[True], default=None),
            "poll_p50": _q(lat[False], 0.5), "poll_p95": _q(lat[False], 0.95), "poll_max": max(lat[False], default=None),
            "sync_wall_p50": _q([s[2] for s in syncs], 0.5),
            "rss_registered_mb": round(rss_registered), "rss_end_mb": round(current_rss_mb()),
            "rss_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "fake_mb": round(fake_mb),
            "wall_s": round(wall, 1),
        }


def _q(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(statistics.quantiles(values, n=100)[int(q * 100) - 1] if len(values) > 1 else values[0], 2)


def section(r: dict) -> str:
    from bench.run import cpu_model

    return "\n".join([
        BEGIN,
        "## Keeping registered sheets synced (bench/keeper.py)",
        "",
        f"{date.today().isoformat()}, {cpu_model()}, {os.cpu_count()} cores shared with other work, Python "
        f"{platform.python_version()}. {r['sheets']} sheets on the fake server over {r['accounts']} service "
        f"accounts, {r['busy']} with judges saving every 3–8 s (half with the push trigger), {r['added']} just "
        f"added by their organizers and left alone, "
        f"{r['minutes']} simulated minutes (Drive {120} s late), {r['wall_s']} s of wall time.",
        "",
        "| figure | measured | target |",
        "|---|---|---|",
        f"| Sheets reads, busiest account-minute | {r['reads_busiest_minute']} | ≤ 60 |",
        f"| Sheets writes, busiest account-minute | {r['writes_busiest_minute']} | ≤ 60 |",
        f"| 429 answers (quota of our own making) | {r['quota_429']} | 0 |",
        f"| Sheets requests of the {r['sheets'] - r['busy'] - r['added']} idle sheets | {r['idle_sheet_requests']} | 0 |",
        f"| idle sheets' Sheets requests after their first sync ({r['added']} just added: the claim code typed, "
        f"the first sync, then nobody) | {r['added_after_first_sync']} | 0 |",
        f"| Drive changes calls | {r['drive_calls']} | one per account and minute |",
        f"| edit → site with push, median / p95 / max (s) | {r['push_p50']} / {r['push_p95']} / "
        f"{r['push_max'] and round(r['push_max'], 2)} | ≤ 10 |",
        f"| edit → site without push, median / p95 / max (s) | {r['poll_p50']} / {r['poll_p95']} / "
        f"{r['poll_max'] and round(r['poll_max'], 2)} | ≤ 10 s interval + one sync |",
        f"| one sync's wall time, median (s) | {r['sync_wall_p50']} | |",
        f"| edits / syncs | {r['edits']} / {r['syncs']} | |",
        f"| RSS after registering / at the end / peak (MB, the in-process fake server included) | "
        f"{r['rss_registered_mb']} / {r['rss_end_mb']} / {r['rss_peak_mb']} | |",
        f"| of which the fake server's {r['sheets']} spreadsheets (MB) | {r['fake_mb']} | |",
        f"| the keeping process: peak less the fake's spreadsheets (MB) | {r['rss_peak_mb'] - r['fake_mb']} | ≤ 300 |",
        "",
        "Syncs run inline on the simulated clock (Huey in immediate mode), so a request waiting for its",
        "account's budget moves the clock for every sheet; the latencies add each sync's real wall time.",
        "Judges type into ten cells in turn, so no edit is undone by the next before a sync could see it.",
        "Without push an edit waits for its sheet's next poll (each 10 s after the last, checked every",
        "second, so a poll a full minute held back runs as soon as a read frees) and the sync computes",
        "from that poll's read. The backends' tab lists are cached for a minute of *real* time, which",
        "runs faster than the simulated clock here: the bench reads them more often than a server would.",
        END,
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--accounts", type=int, default=10)
    parser.add_argument("--sheets", type=int, default=500)
    parser.add_argument("--busy", type=int, default=20)
    parser.add_argument("--added", type=int, default=17, help="sheets added at the start (claim code, first sync)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = measure(args)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if not args.no_write:
        from bench.run import write_marked_section

        write_marked_section(BEGIN, END, section(result))


if __name__ == "__main__":
    main()
