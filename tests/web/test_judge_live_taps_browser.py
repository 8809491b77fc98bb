"""Real taps on the live mode (templates/web/assets/judge/live.js) while the page redraws on its
own (issue 44: «element is not attached to the DOM» after presses on the real page).

On the real page (judge.js) a press's log comes back to live.js twice: once the outbox kept the
event, and again, the same, when the server answered. The harness's ``echo`` does the same. A
redraw the judge did not ask for must not replace the button under his thumb: a tap begun on a
button and finished after such a redraw (or a clock's tick) is one press, and a whole game played
with Playwright's real clicks, fast, the clock running and the CPU slowed 4×, leaves the same log as
the game played slowly.
"""

from __future__ import annotations

from tests.web.browser import chromium, phone  # noqa: F401  (fixtures)
from tests.web.test_judge_live_browser import Judge, site  # noqa: F401  (site is a fixture)

ECHO_MS = 40  # the server's answer on a quick network


def game(j: Judge) -> Judge:
    """Four days with votes, fouls and a night's shot each: some 120 presses."""
    j.deal()
    j.seat_sheet(3, "foul").seat_sheet(3, "foul").seat_sheet(5, "foul")
    j.speeches({2: 9, 4: 5}).vote((9, 7), (5, 3)).speeches()
    j.night(1).speeches()
    j.seat_sheet(6, "foul")
    j.speeches({2: 10, 3: 4}).vote((10, 6), (4, 1)).speeches()
    j.night(2).speeches()
    j.speeches({3: 4, 4: 3}).vote((4, 4), (3, 1)).speeches()
    return j.night(3).speeches()


def events_of(j: Judge) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "id"} for e in j.page.evaluate("window.liveLog()")]


def test_a_tap_across_a_redraw_and_a_clock_tick_is_one_press(phone, site):
    j = Judge(phone, site, echo=ECHO_MS).deal()
    j.click('[data-act="speech_start"]')
    phone.wait_for_timeout(2 * ECHO_MS)
    button = phone.locator('[data-act="speech_end"]')
    box = button.bounding_box()
    before = len(events_of(j))
    button.evaluate("b => { window.mine = b; }")  # the node itself (a redraw may rewrite attributes)
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    phone.evaluate("window.liveEcho()")  # the server's answer lands while the finger is down
    phone.wait_for_timeout(450)  # two ticks of the running clock
    assert phone.evaluate("window.mine.isConnected"), "the button under the thumb was replaced"
    phone.mouse.up()
    phone.wait_for_timeout(2 * ECHO_MS)
    assert len(events_of(j)) == before + 1, "the tap was lost"
    assert events_of(j)[-1]["kind"] == "speech_end"


def test_a_redraw_keeps_the_buttons_that_did_not_change(phone, site):
    j = Judge(phone, site, echo=ECHO_MS).deal()
    j.click('[data-act="speech_start"]')
    phone.wait_for_timeout(2 * ECHO_MS)
    phone.evaluate("() => { window.mine = [...document.querySelectorAll('button')]; }")
    assert phone.evaluate("window.mine.length") > 20
    phone.evaluate("window.liveEcho()")
    assert phone.evaluate("window.mine.filter((b) => !b.isConnected).length") == 0
    # a change elsewhere (a foul from the seat's sheet) keeps the speech's buttons and the tiles
    phone.evaluate("() => { window.mine = [...document.querySelectorAll('.main button, .tile')]; }")
    j.seat_sheet(3, "foul")
    phone.wait_for_timeout(2 * ECHO_MS)
    assert j.state["seats"][2]["fouls"] == 1
    assert phone.evaluate("window.mine.filter((b) => !b.isConnected).length") == 0


def test_a_whole_game_with_fast_real_clicks_the_clock_running_and_the_cpu_slowed(phone, site):
    slow = game(Judge(phone, site))
    expected = events_of(slow)
    assert len(expected) >= 50
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        fast = game(Judge(phone, site, echo=ECHO_MS))
        phone.wait_for_timeout(4 * ECHO_MS)
        assert events_of(fast) == expected  # no press lost, none doubled
        fast.python()  # and the protocol is Python's of the same events
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})


def test_the_servers_answer_keeps_the_votes_counted_so_far(phone, site):
    j = Judge(phone, site, echo=ECHO_MS).deal().speeches({2: 9, 4: 5})
    assert j.step == "vote"
    phone.wait_for_timeout(2 * ECHO_MS)
    j.click('[data-plus="9"]').click('[data-plus="9"]')
    phone.evaluate("window.liveEcho()")  # the answer to the last speech's end comes late
    assert phone.locator(".cand .n").first.inner_text() == "2"
    j.click('[data-act="vote"]')
    phone.wait_for_timeout(2 * ECHO_MS)
    assert events_of(j)[-1]["counts"] == [[9, 2]]


def test_a_double_tap_before_the_outbox_answers_is_one_press(phone, site):
    j = Judge(phone, site, echo=ECHO_MS).deal()
    phone.wait_for_timeout(2 * ECHO_MS)
    before = len(events_of(j))
    phone.locator('[data-act="speech_start"]').dblclick()
    phone.wait_for_timeout(2 * ECHO_MS)
    assert [e["kind"] for e in events_of(j)[before:]] == ["speech_start"]
    assert not j.page.evaluate("window.liveFullState()")["refused"]
