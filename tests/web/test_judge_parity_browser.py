"""Whole games through the judge's page equal the same games typed into the sheet (issue 44,
«Tested as judges use it»), through the real server and the real page in Chromium at 390 px.

* Form parity: seeded generated games (scoring/simulate.py: fouls, removals, best moves, extra
  points) are entered on two phones at once — table 1's link on one, table 2's on the other, their
  taps interleaved — with the page's own buttons, selects and fields, then sent; the server's
  writer job puts them into the .xlsx and syncs. The same games are typed, as a judge types them
  (``д``, ``м``, ``да 2``, ``0,5``), into a copy of the workbook taken before, and that copy is
  synced by the same sync path. The standings (standings.json: points as Decimal texts, places,
  tiebreaks) and the Итоги tab's values must be equal, exactly.
* Offline in the middle: the network cut mid-game, entries made, the network back: each entry
  reaches the workbook, in order, and the status line says where the game stands at each step.
* A live game (live.js) against the real server: a foul is in the sheet during play and no role
  is; at the end (three nights, nobody leaving: the civilians win) the winner and the roles are.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Iterator

import openpyxl
import pytest
from playwright.sync_api import expect

from tests.judge import ExcelDesk, typed_protocol
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401 - fixtures
from tests.web.judge_support import cell, synced, table_links
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.test_judge_face_browser import SAVED, role, status, watch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
SHOTS = ARTIFACTS / "judge"
ROUNDS = 2  # two rounds at two tables: four whole games
TABLES = (1, 2)
SEED = 26  # these four games have between them a removal and three fouls on one player
HOW = {"killed_night": "shot", "voted_day": "voted"}


def settle(page) -> None:
    """Everything entered is in the workbook (the writer job and its sync may take a while on a
    busy machine: this waits for the words, it measures nothing)."""
    status(page).to_have_text(SAVED, timeout=60_000)


def generated_game(seats: list[str], round_no: int, table: int, tab: str):
    """A whole seeded game at this table (valid under the tournament's preset), and the form's
    cells it makes (``scoring.game.protocol.protocol_cells``' texts, the contract's keys)."""
    from scoring.game.protocol import protocol_cells
    from scoring.simulate import simulate_game
    from sheets_sync.presets import load_preset
    from sheets_sync.web.judge.games import cell_key

    preset, _ = load_preset("gmo-2016")
    game = simulate_game(seats, stage="qualifying", round_no=round_no, table=table, sheet=tab, preset=preset,
                         rng=random.Random(SEED + round_no * 100 + table), judge=f"Судья {round_no}-{table}")
    cells = {cell_key(seat, column): text for (seat, column), text in protocol_cells(game, "ru").items()}
    return game, cells


def enter_game(page, cells: dict[str, str]) -> Iterator[None]:
    """A judge's taps for one game on the open form, one step at a time (so two phones can
    take turns): roles, fouls (+1 each), who left when, the best move, extra points, the winner,
    the judge's name, then «send»."""
    page.wait_for_selector("#seat-10")
    for seat in range(1, 11):
        role(page, seat, cells[f"{seat}:role"])
        for _ in range(int(cells[f"{seat}:fouls"] or 0)):
            page.click(f"#seat-{seat} .fouls .plus")
        settle(page)
        yield
    for seat in range(1, 11):
        how, number = next(((HOW[c], cells[f"{seat}:{c}"]) for c in HOW if cells[f"{seat}:{c}"]), ("", ""))
        if cells[f"{seat}:removal"]:
            word, _, number = cells[f"{seat}:removal"].partition(" ")
            how = "ppk" if word == "ППК" else "removed"
        if how:
            page.select_option(f"#seat-{seat} select.how", how)
            if number:
                page.select_option(f"#seat-{seat} select.when", number)
            settle(page)
            yield
    for seat in range(1, 11):
        if cells[f"{seat}:best_move"]:
            page.select_option(".best-move select.who", str(seat))
            for i, named in enumerate(cells[f"{seat}:best_move"].split()):
                page.select_option(f".best-move .bm-{i}", named)
            settle(page)
            yield
        if cells[f"{seat}:extra_points"]:
            # the buttons say the preset's step (gmo-2016: 0,05), not a fixed «+0,5»
            expect(page.locator(f"#seat-{seat} .extra .plus")).to_have_text("+0,05")
            page.fill(f"#seat-{seat} .points", cells[f"{seat}:extra_points"])
            page.press(f"#seat-{seat} .points", "Tab")
            expect(page.locator(f"#seat-{seat} .points")).to_have_value(cells[f"{seat}:extra_points"])
            settle(page)
            yield
    page.click(f".winner >> text={cells[':winner']}")
    page.fill(".judge-name", cells[":judge"])
    page.press(".judge-name", "Tab")
    settle(page)
    expect(page.locator(".problem")).to_have_count(0)
    page.click(".send")
    settle(page)
    expect(page.locator(".done")).to_have_text("Игра отправлена")
    yield


def judge_at_table(page, url: str, games: list[dict[str, str]], table: int) -> Iterator[None]:
    """One phone with its table's link: every game of ``games`` in the order the list shows them."""
    page.goto(url)
    for index, cells in enumerate(games):
        page.locator(".game-link").nth(index).click()
        yield from enter_game(page, cells)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"parity-table-{table}-game-{index + 1}.png"), full_page=True)
        page.click("a.back")
        expect(page.locator(".game-link")).to_have_count(7)


def take_turns(*walks: Iterator[None]) -> None:
    """Two judges at once: a step of one phone, then of the other, until both are done. Each step
    ends with its page's «сохранено в таблице»: Django's live server shares one in-memory SQLite
    connection between its threads, and two saves in flight at once there fail with 500s
    («cannot start a transaction within a transaction») that a real server's database does not."""
    walks_left = list(walks)
    while walks_left:
        for walk in list(walks_left):
            if next(walk, StopIteration) is StopIteration:
                walks_left.remove(walk)


def standings_of(tournament) -> dict:
    """The sync's standings.json, less what names the tournament itself (its slug, its time)."""
    from sheets_sync.web.jobs import out_dir

    doc = json.loads((out_dir(tournament) / "standings.json").read_text("utf-8"))
    return {k: v for k, v in doc.items() if k not in ("generated_at", "slug", "updated_at", "synced_at", "source")}


def tab_values(path, tab: str) -> list[list[object]]:
    """The tab's values, row by row, without the empty cells at the ends (the two files may
    say their used ranges differently)."""
    ws = openpyxl.load_workbook(path)[tab]  # not read_only: that trusts the file's stated dimension
    rows = [list(row) for row in ws.iter_rows(values_only=True)]
    for row in rows:
        while row and row[-1] in (None, ""):
            row.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


def new_phone(chromium):  # noqa: F811 - the fixture's browser
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, locale="ru-RU",
                                   timezone_id="Europe/Moscow")
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def test_whole_games_through_two_phones_equal_the_same_games_typed_into_the_sheet(transactional_db, live_server,
                                                                                 chromium, fresh_tournament,
                                                                                 tmp_path):
    from sheets_sync.web.judge.state import games_of
    from sheets_sync.web.models import Tournament

    synced(fresh_tournament)
    copy = tmp_path / "typed.xlsx"
    shutil.copyfile(fresh_tournament.path, copy)  # the same workbook, to be typed into by hand
    links = table_links(fresh_tournament)
    listed = {(g["round"], g["table"]): g for g in games_of(fresh_tournament)["games"] if g["stage"] == "qualifying"}
    desk = ExcelDesk(copy)
    wanted: dict[int, list[dict[str, str]]] = {t: [] for t in TABLES}
    features = set()
    for round_no in range(1, ROUNDS + 1):
        for table in TABLES:
            tab = listed[(round_no, table)]["tab"]
            seats = [str(p) for p in listed[(round_no, table)]["seats"]]
            game, cells = generated_game(seats, round_no, table, tab)
            wanted[table].append(cells)
            features |= {c for c in ("fouls", "removal", "best_move", "extra_points", "killed_night", "voted_day")
                         if any(cells[f"{s}:{c}"] for s in range(1, 11))}
            typed = typed_protocol(desk.grid(tab), game, judge=cells[":judge"])
            desk.type({(tab, ref): text for ref, text in typed.items()})
    assert features == {"fouls", "removal", "best_move", "extra_points", "killed_night", "voted_day"}

    phones = {t: new_phone(chromium) for t in TABLES}
    refused = [said for page in phones.values() for said in [watch(page)]]
    try:
        take_turns(*(judge_at_table(phones[t], f"{live_server.url}/j/{links[t]}/", wanted[t], t) for t in TABLES))
    finally:
        for page in phones.values():
            page.context.close()
    assert refused == [[] for _ in TABLES]

    # every form cell of every game is in the judge's workbook as the generator made it
    from tests.web.judge_support import api_get
    from django.test import Client

    client = Client()
    for table in TABLES:
        for round_no, cells in enumerate(wanted[table], start=1):
            game = api_get(client, links[table], f"games/qualifying-{round_no}-{table}/").json()
            assert {k: game["cells"].get(k, "") for k in cells} == cells
            assert game["status"] == "submitted" and game["pending"] == 0 and game["problems"] == []
    judged = Tournament.objects.get(pk=fresh_tournament.pk)
    assert judged.last_sync["games"] == ROUNDS * len(TABLES)  # the writer's job synced the standings

    by_hand = synced(Tournament.objects.create(slug="typed", source=Tournament.EXCEL, path=str(copy)))
    assert by_hand.last_sync["games"] == ROUNDS * len(TABLES)
    through_phones, through_sheet = standings_of(judged), standings_of(by_hand)
    assert through_phones["games_counted"] == ROUNDS * len(TABLES)
    assert through_phones == through_sheet
    assert tab_values(judged.path, "Итоги") == tab_values(copy, "Итоги")


def test_offline_in_the_middle_every_entry_reaches_the_workbook_in_order(transactional_db, live_server, phone,
                                                                        fresh_tournament):
    from tests.web.test_judge_face_browser import _wait_offline_ready

    refused = watch(phone)
    synced(fresh_tournament)
    token = table_links(fresh_tournament)[1]
    tab = "Тур 1 Стол 1"
    path = fresh_tournament.path
    phone.goto(f"{live_server.url}/j/{token}/")
    phone.locator(".game-link").first.click()
    phone.wait_for_selector("#seat-10")
    _wait_offline_ready(phone)
    role(phone, 1, "дон")
    settle(phone)
    assert cell(path, tab, "C10") == "дон"
    from sheets_sync.web.models import JudgeSave

    saved_before = JudgeSave.objects.count()

    phone.context.set_offline(True)
    role(phone, 2, "шериф")
    status(phone).to_have_text("ждёт сети: 1 изменение")
    phone.click("#seat-3 .fouls .plus")
    status(phone).to_have_text("ждёт сети: 2 изменения")
    phone.click("#seat-4 .extra .plus")  # one step of the preset (0,05)
    expect(phone.locator("#seat-4 .points")).to_have_value("0,05")
    status(phone).to_have_text("ждёт сети: 3 изменения")
    phone.select_option("#seat-5 select.how", "voted")  # «заголосован, день» …
    status(phone).to_have_text("ждёт сети: 4 изменения")
    phone.select_option("#seat-5 select.when", "1")  # … «1»
    status(phone).to_have_text("ждёт сети: 5 изменений")
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "parity-offline-waiting.png"))
    # nothing reached the workbook while the phone was offline
    assert [cell(path, tab, ref) for ref in ("C11", "D12", "I13", "F14")] == [None, None, None, None]

    phone.reload()  # offline: the service worker's shell, the entries kept on the phone
    phone.wait_for_selector("#seat-10")
    status(phone).to_have_text("ждёт сети: 5 изменений")

    seen: list[str] = []
    phone.expose_function("statusSeen", lambda text: seen.append(text))
    phone.evaluate("""() => new MutationObserver(() => statusSeen(document.querySelector('#status').textContent))
                      .observe(document.querySelector('#status'), {childList: true, subtree: true, characterData: true})""")
    phone.context.set_offline(False)
    settle(phone)
    assert cell(path, tab, "C11") == "шериф" and cell(path, tab, "D12") == 1
    assert cell(path, tab, "I13") == 0.05 and cell(path, tab, "F14") == 1
    assert cell(path, tab, "C10") == "дон"
    # the server took the five entries one save each, in the order they were made, and wrote each
    saves = list(JudgeSave.objects.filter(pk__gt=JudgeSave.objects.order_by("pk")[saved_before - 1].pk))
    made = [(s.cells.get("2:role"), s.cells.get("3:fouls"), s.cells.get("4:extra_points"), s.cells.get("5:voted_day"))
            for s in saves]
    assert made == [("шериф", "", "", ""), ("шериф", "1", "", ""), ("шериф", "1", "0,05", ""),
                    ("шериф", "1", "0,05", ""), ("шериф", "1", "0,05", "1")], made
    assert all(s.written_at for s in saves)
    assert [s.written_at for s in saves] == sorted(s.written_at for s in saves)
    # the status line counted down to «saved»: never more waiting than before, the last one saved
    assert seen and SAVED.match(seen[-1]), seen
    waiting = [int(m.group(1)) for t in seen if (m := re.match(r"ждёт сети: (\d+)", t))]
    assert waiting == sorted(waiting, reverse=True), seen
    phone.screenshot(path=str(SHOTS / "parity-offline-back.png"))
    assert refused == []


def _wait_for(check, what: str, tries: int = 300):
    import time

    for _ in range(tries):
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"never happened: {what}")


def tap(main, selector: str) -> None:
    """A tap on the live screen: Playwright's real click (once, before live.js patched its screen in
    place, a redraw after each press replaced the buttons and this click met «element is not
    attached to the DOM»; tests/web/test_judge_live_taps_browser.py keeps that away)."""
    main.locator(selector).first.click()


def test_a_live_game_against_the_real_server_public_cells_during_play_roles_after_the_end(
        transactional_db, live_server, phone, fresh_tournament):
    refused = watch(phone)
    synced(fresh_tournament)
    token = table_links(fresh_tournament)[1]
    tab, path = "Тур 1 Стол 1", fresh_tournament.path
    phone.goto(f"{live_server.url}/j/{token}/")
    phone.locator(".game-link").first.click()
    phone.wait_for_selector("#seat-10")
    phone.click("button.live")
    main = phone.locator("#live")
    for seat, card in {8: "don", 9: "mafia", 10: "mafia", 7: "sheriff"}.items():
        tap(main, f'[data-role="{card}"]')
        tap(main, f'.main [data-seat="{seat}"]')
    for _ in range(3):
        tap(main, '[data-act="night_zero"]')
    tap(main, '[data-tile="3"]')  # a foul for seat 3: public during play
    tap(main, '.sheet [data-act="foul"]')
    _wait_for(lambda: cell(path, tab, "D12") == 1, "the foul in the sheet")
    roles_now = [cell(path, tab, f"C{9 + s}") for s in range(1, 11)]
    assert roles_now == [None] * 10, roles_now  # no role in the sheet while the game is in play
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "parity-live-in-play.png"))
    phone.reload()  # a game begun live reopens live, where it stands — not as the form
    main = phone.locator("#live")
    expect(main.locator('[data-tile="3"]')).to_be_visible()
    expect(phone.locator("#seat-10")).to_be_hidden()  # the form stays behind the live screens
    for night in range(3):  # nobody nominated, nobody shot: the third such night gives the civilians the win
        for _ in range(100):  # each speech started and ended, as the page offers, until the night
            if main.locator('[data-act="miss"]').count():
                break
            tap(main, '[data-act="speech_start"], [data-act="speech_end"]')
        tap(main, '[data-act="miss"]')
        for check in ("проверка дона", "проверка шерифа"):  # nobody checked: each step waited for by its words
            expect(main).to_contain_text(f"Ночь {night + 1}, {check}")
            tap(main, '[data-act="nobody"]')
    expect(main.locator(".win")).to_contain_text("Мирные")
    _wait_for(lambda: cell(path, tab, "B6") == "Мирные", "the winner in the sheet")
    _wait_for(lambda: cell(path, tab, "C17") == "дон", "the roles in the sheet after the end")
    roles = [cell(path, tab, f"C{9 + s}") for s in range(1, 11)]
    assert roles == ["мирный"] * 6 + ["шериф", "дон", "мафия", "мафия"], roles
    assert cell(path, tab, "D12") == 1
    phone.screenshot(path=str(SHOTS / "parity-live-end.png"))
    assert refused == []
