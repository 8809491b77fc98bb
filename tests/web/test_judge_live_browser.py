"""The live mode (templates/web/assets/judge/live.js) played through whole games in Chromium at
390 px, the way a judge presses it: the regulation's special cases, an undo at every kind of step,
and the protocol the buttons leave — the port's protocol cells against Python's protocol_cells
of the very events the page sent, exactly.

The page is tests/web/judge_live_harness.html, served from the repository by a tiny static server:
it mounts live.js with a ctx whose outbox numbers each event and hands the log back via onChange.
"""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from scoring.game.events import from_dict
from scoring.game.jsonform import state_to_dict
from scoring.game.protocol import protocol_cells, state_protocol
from scoring.game.replay import replay
from scoring.game.simulate import PLAYERS
from scoring.model import SeatingEntry, Team
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ARTIFACTS / "judge"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(ROOT)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Judge:
    """The judge's thumb on the live mode: one method a kind of press."""

    def __init__(self, page, site: str, *, lang: str = "ru", players=PLAYERS, echo: int | None = None):
        self.page = page
        self.players = tuple(players)
        more = "" if echo is None else f"&echo={echo}"  # the log echoed as the real page does (the harness)
        page.goto(f"{site}/tests/web/judge_live_harness.html?lang={lang}{more}&players={quote(json.dumps(self.players))}")
        page.wait_for_function("window.liveReady === true")

    # what the page holds
    @property
    def state(self) -> dict:
        return self.page.evaluate("window.liveState()")

    @property
    def step(self) -> str:
        return self.state["step"]

    def note(self) -> str:
        found = self.page.locator(".note")
        return found.inner_text() if found.count() else ""

    def click(self, selector: str) -> Judge:
        self.page.locator(selector).first.click()
        return self

    # the deal and night 0
    def deal(self, roles=None) -> Judge:
        for seat, role in (roles or {8: "don", 9: "mafia", 10: "mafia", 7: "sheriff"}).items():
            self.click(f'[data-role="{role}"]').click(f'.main [data-seat="{seat}"]')
        for _ in range(3):
            self.click('[data-act="night_zero"]')
        return self

    # a day
    def turn(self, nominate: int | None = None) -> Judge:
        self.click('[data-act="speech_start"]')
        if nominate is not None:
            self.click(f'.main .grid [data-seat="{nominate}"]')
        return self.click('[data-act="speech_end"]')

    def speeches(self, nominations: dict[int, int] | None = None) -> Judge:
        step, number = self.state["step"], self.state["number"]
        while True:
            s = self.state
            if s["step"] != step or s["number"] != number or not s["turns"]:
                return self
            self.turn((nominations or {}).get(s["turns"][0]))

    def quiet_day(self) -> Judge:
        while self.step in ("morning", "speeches"):
            self.speeches()
        return self

    def vote(self, *counts: tuple[int, int]) -> Judge:
        """The counts of the candidates but the last: he gets the votes left, as the page shows."""
        last = self.state["candidates"][-1]
        for seat, n in counts:
            for _ in range(n if seat != last else 0):
                self.click(f'[data-plus="{seat}"]')
        return self.click('[data-act="vote"]')

    # the night
    def night(self, shot: int | None, don: int | None = None, sheriff: int | None = None) -> Judge:
        self.click('[data-act="miss"]' if shot is None else f'.main [data-seat="{shot}"]')
        for step, seat in (("don_check", don), ("sheriff_check", sheriff)):
            if self.step == step:
                self.click('[data-act="nobody"]' if seat is None else f'.main [data-seat="{seat}"]')
        return self

    # at any time
    def seat_sheet(self, seat: int, action: str) -> Judge:
        self.click(f'[data-tile="{seat}"]').click(f'.sheet [data-act="{action}"]')
        if action in ("removal", "ppk"):
            assert self.note(), "a removal asks once more"
            self.click(f'.sheet [data-act="{action}"]')
        return self

    def undo(self) -> Judge:
        return self.click('[data-act="undo"]')

    def best_move(self, *seats: int) -> Judge:
        for seat in seats:
            self.click(f'[data-best="{seat}"]')
        return self.click('[data-act="best_move"]')

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"live-{name}.png"), full_page=True)

    # what Python makes of the same events
    def python(self):
        events = [from_dict(e) for e in self.page.evaluate("window.liveLog()")]
        state = replay(events, players=self.players)
        seating = SeatingEntry(stage="qualifying", round=1, table=1, players=self.players)
        for lang in ("ru", "en"):
            expected = {f"{seat or ''}:{key}": text
                        for (seat, key), text in protocol_cells(state_protocol(state, seating), lang, state).items()}
            assert self.page.evaluate(f"window.liveCells('{lang}')") == expected, lang
        assert self.page.evaluate("window.liveFullState()") == state_to_dict(state)
        assert not state.refused, [(i, r.message("en")) for i, r in state.refused]  # the page sent nothing refused
        return state


def to_four(j: Judge) -> Judge:
    """Day 4 with four at the table (5, 6, sheriff 7, don 8): 9, 10, 4 voted out, 1, 2, 3 shot."""
    j.deal().speeches({2: 9, 4: 5}).vote((9, 7), (5, 3)).speeches()
    j.night(1).speeches()
    j.speeches({2: 10, 3: 4}).vote((10, 6), (4, 1)).speeches()
    j.night(2).speeches()
    j.speeches({3: 4, 4: 3}).vote((4, 4), (3, 1)).speeches()
    return j.night(3).speeches()


def test_three_nights_with_nobody_leaving_the_civilians_win(phone, site):
    j = Judge(phone, site)
    j.shot("deal-empty")
    j.deal()
    assert j.step == "speeches"
    j.shot("speeches")
    for n in range(3):
        j.quiet_day()
        if n == 0:
            j.shot("night")
        j.night(None)
    assert j.step == "end"
    j.shot("end")
    state = j.python()
    assert state.winner is Team.RED and "three nights" in state.reason.en
    assert "Мирные" in phone.locator(".win").inner_text()
    assert phone.locator(".tile .role").nth(7).is_visible()  # the game is over: the roles are no secret


def test_four_at_the_table_two_are_not_raised(phone, site):
    j = to_four(Judge(phone, site))
    j.speeches({5: 5, 6: 8})
    j.vote((5, 2), (8, 2)).speeches()
    j.click('[data-plus="5"]').click('[data-plus="5"]')
    j.shot("vote")
    j.click('[data-act="vote"]')
    assert j.step == "shot" and len([s for s in j.state["seats"] if s["out"] is None]) == 4
    assert "не разрешается поднимать двоих" in phone.locator('[data-why="raise.four"]').inner_text()
    j.shot("no-raise-at-four")
    j.python()


def test_a_removal_before_the_vote_ends_the_day_without_one(phone, site):
    j = Judge(phone, site).deal()
    j.turn(nominate=9)
    j.seat_sheet(5, "removal")
    assert j.state["no_vote"] is True
    j.click('[data-act="speech_start"]').click('.main .grid [data-seat="3"]')
    assert "дальнейшего голосования не происходит" in j.note()  # the nomination is refused with the rule's words
    j.shot("refused-nomination")
    j.click('[data-act="speech_end"]').speeches()
    assert j.step == "shot" and j.state["number"] == 1
    j.python()


def test_a_removal_during_the_vote_ends_the_day_without_one(phone, site):
    j = Judge(phone, site).deal().speeches({1: 3, 2: 9})
    assert j.step == "vote"
    j.seat_sheet(5, "removal")
    assert j.step == "shot"
    state = j.python()
    assert not state.days[0].votes and state.seat(5).out.how == "removed"


def test_a_removal_with_four_at_the_table_gives_the_other_team_the_win(phone, site):
    j = to_four(Judge(phone, site))
    j.turn()
    j.seat_sheet(5, "removal")
    assert j.step == "end"
    state = j.python()
    assert state.winner is Team.BLACK and "removed with 4 players" in state.reason.en


def test_a_removal_at_three_gives_the_other_team_the_win(phone, site):
    j = to_four(Judge(phone, site)).speeches({5: 6})  # a single nominee on day 4 leaves without a vote
    assert j.step == "farewell"
    j.speeches()
    assert j.step == "shot" and [s["seat"] for s in j.state["seats"] if s["out"] is None] == [5, 7, 8]
    j.seat_sheet(8, "removal")  # the don removed with three at the table: the civilians win
    state = j.python()
    assert state.winner is Team.RED and "removed with 3 players" in state.reason.en


def test_after_a_first_night_miss_the_second_victim_names_no_best_move(phone, site):
    j = Judge(phone, site).deal().quiet_day().night(None).quiet_day().night(3)
    assert j.step == "morning"
    j.click('[data-act="speech_start"]')
    assert phone.locator('[data-act="best_move"]').count() == 0
    j.shot("no-best-move-after-miss")
    j.click('[data-act="speech_end"]')
    j.python()


def test_the_first_night_victim_names_a_best_move_in_his_last_word(phone, site):
    j = Judge(phone, site).deal().quiet_day().night(3)
    j.click('[data-act="speech_start"]')
    j.click('[data-best="3"]').click('[data-best="8"]').click('[data-best="9"]').click('[data-act="best_move"]')
    assert "кроме своего" in j.note()  # his own seat is refused
    j.click('[data-best="3"]').click('[data-best="10"]')
    j.shot("best-move")
    j.click('[data-act="best_move"]')
    assert j.state["seats"][2]["best_move"] == [8, 9, 10]
    j.click('[data-act="speech_end"]')
    j.python()


def test_roles_show_only_while_held(phone, site):
    j = Judge(phone, site).deal()
    roles = phone.locator(".tile .role")
    assert roles.count() == 10 and not any(roles.nth(i).is_visible() for i in range(10))
    phone.locator('[data-act="roles"]').hover()
    phone.mouse.down()
    assert all(roles.nth(i).is_visible() for i in range(10))
    assert roles.nth(7).inner_text() == "дон"
    j.shot("roles-held")
    phone.mouse.up()
    assert not any(roles.nth(i).is_visible() for i in range(10))


def test_fouls_the_third_takes_the_speech_the_fourth_removes(phone, site):
    j = Judge(phone, site).deal()
    for _ in range(3):
        j.seat_sheet(2, "foul")
    j.turn()
    assert "Без речи" in phone.locator(".clock").inner_text()
    j.shot("third-foul")
    j.seat_sheet(2, "foul")
    assert j.state["seats"][1]["out"] == {"how": "removed", "number": 1}
    state = j.python()
    assert state.seat(2).fouls == 4


def test_undo_at_every_kind_of_step(phone, site):
    """Each kind of press, then «Отменить»: the state is as before it; then the press again."""
    j = Judge(phone, site)
    undone_kinds = set()

    def with_undo(press) -> None:
        before = j.state
        press()
        assert j.state != before
        kind = j.page.evaluate("window.liveLog().at(-1).kind")
        j.undo()
        assert j.state == before, kind
        undone_kinds.add(kind)
        press()

    for seat, role in {8: "don", 9: "mafia", 10: "mafia", 7: "sheriff"}.items():
        with_undo(lambda s=seat, r=role: j.click(f'[data-role="{r}"]').click(f'.main [data-seat="{s}"]'))
    for _ in range(3):
        with_undo(lambda: j.click('[data-act="night_zero"]'))
    with_undo(lambda: j.click('[data-act="speech_start"]'))
    with_undo(lambda: j.click('.main .grid [data-seat="3"]'))
    with_undo(lambda: j.click('[data-act="speech_end"]'))
    j.click('[data-act="speech_start"]')
    with_undo(lambda: j.click('.main .grid [data-seat="9"]'))
    j.click('[data-act="speech_end"]')
    with_undo(lambda: j.seat_sheet(4, "foul"))
    j.speeches()
    j.click('[data-plus="3"]')
    with_undo(lambda: j.click('[data-act="vote"]'))  # 1 for 3: 9 the rest, 9 leaves
    j.speeches()
    with_undo(lambda: j.click('.main [data-seat="3"]'))  # the shot
    with_undo(lambda: j.click('.main [data-seat="1"]'))  # the don's check
    with_undo(lambda: j.click('[data-act="nobody"]'))  # the sheriff's
    j.click('[data-act="speech_start"]')
    with_undo(lambda: j.best_move(8, 9, 10))
    j.click('[data-act="speech_end"]')
    j.quiet_day()
    with_undo(lambda: j.click('[data-act="miss"]'))
    j.night_rest = None
    while j.step in ("don_check", "sheriff_check"):
        j.click('[data-act="nobody"]')
    with_undo(lambda: j.seat_sheet(5, "removal"))
    j.speeches({2: 4, 4: 5} if j.step == "speeches" else None)
    with_undo(lambda: j.seat_sheet(10, "ppk"))
    assert j.step == "end"
    with_undo(lambda: (phone.locator('[data-field="extra"]').fill("0,5"), j.click('[data-act="extra"]')))
    with_undo(lambda: (phone.locator('[data-field="judge"]').fill("Анна"), j.click('[data-act="judge"]')))
    assert {"deal", "night_zero", "speech_start", "nominate", "speech_end", "foul", "vote", "shot", "don_check",
            "sheriff_check", "best_move", "miss", "removal", "extra", "judge"} <= undone_kinds
    state = j.python()
    assert state.winner is Team.RED and state.seat(10).extra == 0 and state.judge == "Анна"
    assert [e for e in j.page.evaluate("window.liveLog()") if e["kind"] == "undo"]


def test_undo_of_a_name_a_raise_and_a_ruling(phone, site):
    j = Judge(phone, site)
    phone.on("dialog", lambda dialog: dialog.accept("  Новый   игрок "))
    j.click('[data-role="name"]').click('.main [data-seat="4"]')
    assert j.state["seats"][3]["player"] == "Новый игрок"
    j.undo()
    assert j.state["seats"][3]["player"] == PLAYERS[3]
    j.click('[data-role="name"]').click('.main [data-seat="4"]')
    j.players = (*PLAYERS[:3], "Новый игрок", *PLAYERS[4:])
    j.deal().speeches({1: 3, 2: 9}).vote((3, 5), (9, 5)).speeches().vote((3, 5), (9, 5))
    assert j.step == "raise"
    for _ in range(6):
        j.click('[data-plus="yes"]')
    j.shot("raise")
    j.click('[data-act="raise_all"]')
    assert j.step == "farewell"
    j.undo()
    assert j.step == "raise"
    j.click('[data-act="raise_all"]')  # the count is set again from 0: nobody raised
    assert j.step == "shot"
    phone.locator("details.ruling summary").click()
    j.click('[data-ruling="black"]')
    assert j.step == "shot" and "ещё раз" in j.note()  # a ruling asks once more
    j.click('[data-ruling="black"]')
    assert j.step == "end"
    j.undo()
    assert j.step == "shot"
    state = j.python()
    assert state.days[0].raise_yes == 0 and state.seat(4).player == "Новый игрок"


def test_the_speech_clock_counts_down_and_buzzes_at_10_and_0(phone, site):
    """The page's clock is Playwright's fake one: a minute passes when the test says so."""
    phone.clock.install()
    phone.add_init_script("window.buzz = []; navigator.vibrate = (p) => { window.buzz.push(p); return true; };")
    j = Judge(phone, site).deal()
    clock = phone.locator(".clock .time")
    assert clock.inner_text() == "1:00" and phone.locator('[data-act="clock"]').inner_text() == "Старт"
    j.click('[data-act="speech_start"]')  # the floor given: the minute runs
    assert phone.locator('[data-act="clock"]').inner_text() == "Пауза"
    phone.clock.run_for(45_250)  # a tick of the page (every 200 ms) past 45 s
    assert clock.inner_text() == "0:15" and phone.evaluate("window.buzz") == []
    j.click('[data-act="clock"]')  # paused: the clock stands
    phone.clock.run_for(30_000)
    assert clock.inner_text() == "0:15"
    j.click('[data-act="clock"]')
    phone.clock.run_for(6_000)
    assert clock.inner_text() == "0:09" and len(phone.evaluate("window.buzz")) == 1
    j.shot("clock-low")
    phone.clock.run_for(10_000)
    assert clock.inner_text() == "0:00" and len(phone.evaluate("window.buzz")) == 2
    assert phone.locator('[data-act="clock"]').inner_text() == "Старт"


def test_english_link_says_english(phone, site):
    j = Judge(phone, site, lang="en").deal()
    assert phone.locator("h2").inner_text() == "Day 1, speeches"
    j.click('[data-act="speech_start"]').click('.main .grid [data-seat="9"]').click('.main .grid [data-seat="4"]')
    assert j.note().startswith("Seat 1 already nominated seat 9; the regulation: when a player nominates several")
    j.shot("english")
    j.click('[data-act="speech_end"]')
    j.python()
