"""The jobs' lifecycle on real processes (issue 42 §2, §3): a server killed with SIGKILL in the
middle of a sync or a draw and started again finishes the job instead of showing it running
forever; one tournament's workbook-writing jobs never run at once; one organizer's long jobs
never hold every worker thread.

Each test starts ``sheets-sync server`` on a data folder of its own (SQLite, the queue in its
SQLite file), enqueues the jobs beforehand from another process (as the pages would) and reads
the jobs' table straight from the database. Nothing here measures time: what is checked is what
ended, and in which order the jobs started and finished.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH
from tests.web.organizer_support import players_csv
from tests.web.process_support import JobsTable, environment, django_script, get, overlapping, running, start_server

pytestmark = pytest.mark.slow

DRAW_SECONDS = 6  # each draw searches this long: long enough that a job queued behind it visibly waits


def fresh_workbook(folder: Path, name: str) -> Path:
    from sheets_sync.actions.init import init_workbook

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.xlsx"
    init_workbook(str(path), players_csv=players_csv(folder, 20), preset_ref="gmo-2016", name=name, language="ru")
    return path


def rename(workbook: Path, name: str) -> None:
    """An organizer's edit: the tournament's name in the Tournament tab."""
    book = openpyxl.load_workbook(workbook)
    book["Турнир"]["B1"] = name
    book.save(workbook)


def test_a_server_killed_mid_sync_syncs_the_sheet_again_once_restarted(tmp_path):
    workbook = tmp_path / "cup.xlsx"
    shutil.copyfile(EXAMPLE_PATH, workbook)
    env = environment(tmp_path / "data")
    django_script(env, "jobs.request_sync(owned_by('anna@club.ru', slug='cup', source=Tournament.EXCEL, path=sys.argv[2]), 'added')",
                  str(workbook))
    table = JobsTable(env)
    server = start_server(env, tmp_path / "server.log")
    try:
        killed = table.wait(lambda rows: any(r.status == "running" for r in rows))
    finally:
        server.kill()  # in the middle of the sync
    rename(workbook, "Кубок после сбоя")  # typed while the server was down
    server = start_server(env, tmp_path / "server-2.log")
    with running(server):
        # the page of the players shows the edit: the killed sync ran again, well before 5 minutes
        table.wait(lambda rows: "Кубок после сбоя" in get(server.url + "t/cup/")[1], timeout=120)
        rows = table.wait(lambda rows: all(r.status in ("done", "failed") for r in rows))
    first = next(r for r in rows if r.id == killed[0].id)
    assert first.status == "done", first  # the killed job itself ended, by a real sync
    assert not [r for r in rows if r.status == "running"]


def test_a_server_killed_mid_draw_draws_again_once_restarted(tmp_path):
    workbook = fresh_workbook(tmp_path, "cup")
    env = environment(tmp_path / "data")
    django_script(env, f"""
t = owned_by('anna@club.ru', slug='cup', source=Tournament.EXCEL, path=sys.argv[2])
jobs.enqueue(t, 'draw', params={{'seed': 3, 'time_limit': {DRAW_SECONDS}}})
""", str(workbook))
    table = JobsTable(env)
    server = start_server(env, tmp_path / "server.log")
    try:
        table.wait(lambda rows: any(r.action == "draw" and r.status == "running" for r in rows))
    finally:
        server.kill()  # in the middle of the draw's search
    server = start_server(env, tmp_path / "server-2.log")
    with running(server):
        rows = table.wait(lambda rows: rows and all(r.status in ("done", "failed") for r in rows)
                          and any(r.action == "sync" for r in rows))
    draw = next(r for r in rows if r.action == "draw")
    assert draw.status == "done", draw
    seating = ExcelBackend(workbook).read().tabs["Рассадка"]
    assert sum(1 for row in seating if any(str(v).startswith("Игрок") for v in row)) > 0  # the seating is written
    assert not [r for r in rows if r.status == "running"]


def _enqueue_draws(env, workbooks: dict[str, Path], draws: list[tuple[str, int]], syncs: list[str],
                   owners: dict[str, str]) -> None:
    """Tournaments (slug → workbook, each owned by ``owners[slug]``), then draws (slug, seed) and
    syncs in that order — all in the queue before any worker runs."""
    code = f"""
import json
workbooks, owners = json.loads(sys.argv[2]), json.loads(sys.argv[3])
made = {{slug: owned_by(owners[slug], slug=slug, source=Tournament.EXCEL, path=path) for slug, path in workbooks.items()}}
for slug, seed in json.loads(sys.argv[4]):
    jobs.enqueue(made[slug], 'draw', params={{'seed': seed, 'time_limit': {DRAW_SECONDS}}})
for slug in json.loads(sys.argv[5]):
    jobs.request_sync(made[slug], 'button')
"""
    import json

    django_script(env, code, json.dumps({k: str(v) for k, v in workbooks.items()}), json.dumps(owners),
                  json.dumps(draws), json.dumps(syncs))


def _tournament_ids(env) -> dict[str, int]:
    import json

    return json.loads(django_script(env, "import json; print(json.dumps(dict(Tournament.objects.values_list('slug', 'pk'))))"))


def test_one_tournaments_draws_and_sync_never_run_at_once(tmp_path):
    workbook = fresh_workbook(tmp_path, "cup")
    env = environment(tmp_path / "data")
    _enqueue_draws(env, {"cup": workbook}, draws=[("cup", 1), ("cup", 2), ("cup", 3)], syncs=["cup"],
                   owners={"cup": "anna@club.ru"})
    table = JobsTable(env)
    with running(start_server(env, tmp_path / "server.log", workers=3)):
        rows = table.wait(lambda rows: len([r for r in rows if r.status == "done"]) >= 4
                          and all(r.status in ("done", "failed") for r in rows))
    assert all(r.status == "done" for r in rows), rows
    assert overlapping(rows) == []  # draws and syncs of one workbook, one after another
    draws = sorted((r for r in rows if r.action == "draw"), key=lambda r: r.id)  # by id: the order they were pressed, seeds 1, 2, 3
    seeds = {d.id: seed for d, seed in zip(draws, (1, 2, 3))}
    last = max(draws, key=lambda r: r.finished_at)
    assert _seed_in_the_draw_report(workbook) == seeds[last.id]  # the Seating tab is the last draw's, whole


def _seed_in_the_draw_report(workbook: Path) -> int:
    """The seed («Зерно») the workbook's draw report was written with: the draw that wrote
    the Seating tab wrote it too, in the same write."""
    tabs = ExcelBackend(workbook).read().tabs
    report = next(rows for title, rows in tabs.items() if "жеребь" in title.lower())
    for row in report:
        cells = [v for v in row if v not in (None, "")]
        if cells and str(cells[0]).strip() == "Зерно" and len(cells) > 1:
            return int(cells[1])
    raise AssertionError(report)


def test_one_organizers_draws_leave_room_for_another_organizers_sync(tmp_path):
    books = {slug: fresh_workbook(tmp_path / slug, slug) for slug in ("anna-1", "anna-2", "anna-3")}
    books["boris"] = tmp_path / "boris.xlsx"
    shutil.copyfile(EXAMPLE_PATH, books["boris"])
    owners = {**{slug: "anna@club.ru" for slug in books if slug.startswith("anna")}, "boris": "boris@club.ru"}
    env = environment(tmp_path / "data")
    # Anna's three draws first in the queue, then Boris's sync
    _enqueue_draws(env, books, draws=[("anna-1", 1), ("anna-2", 1), ("anna-3", 1)], syncs=["boris"], owners=owners)
    ids = _tournament_ids(env)
    table = JobsTable(env)
    with running(start_server(env, tmp_path / "server.log", workers=3)):
        rows = table.wait(lambda rows: all(r.status in ("done", "failed") for r in rows)
                          and len([r for r in rows if r.action == "draw" and r.status == "done"]) == 3)
    draws = [r for r in rows if r.action == "draw"]
    sync = next(r for r in rows if r.action == "sync" and r.tournament_id == ids["boris"])
    assert sync.status == "done", sync
    assert sync.started_at < min(d.finished_at for d in draws)  # it did not wait for a draw to end
    assert overlapping(draws) == []  # one long job of Anna's at a time
