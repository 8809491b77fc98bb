"""The judge's events as the phone sends them: their JSON form, undo, and the server's log that
takes a resend as the same event (scoring/game, issue 44)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

import pytest

from scoring.game import events as ev
from scoring.game.events import EVENT_TYPES, EventError, from_dict
from scoring.game.log import GameLog
from scoring.game.replay import replay
from scoring.game.simulate import PLAYERS
from scoring.model import Role, Team
from tests.game_support import Game
from tests.test_game_rules import even_tie


def _start(g: Game, seat: int) -> Game:
    g.add(ev.SpeechStart, seat=seat)
    return g


def _shot(g: Game, seat: int = 1) -> Game:
    g.add(ev.Shot, seat=seat)
    return g


def _ended() -> Game:
    g = Game()
    g.add(ev.Ruling, team=Team.RED)
    return g


# each kind of event: a game where it can be recorded next, and the event's fields
EVERY_KIND: dict[str, tuple[Callable[[], Game], type[ev.Event], dict]] = {
    "seat": (Game, ev.SeatPlayer, {"seat": 1, "player": "Запасной"}),
    "deal": (lambda: Game(night0=False), ev.Deal, {"seat": 1, "role": Role.CIVILIAN}),
    "judge": (Game, ev.JudgeName, {"name": "Судья Анна"}),
    "night_zero": (lambda: Game(night0=False), ev.NightZero, {"step": "agreement"}),
    "speech_start": (Game, ev.SpeechStart, {"seat": 1}),
    "speech_end": (lambda: _start(Game(), 1), ev.SpeechEnd, {"seat": 1}),
    "nominate": (lambda: _start(Game(), 1), ev.Nominate, {"by": 1, "seat": 3}),
    "vote": (lambda: Game().speeches({1: 3, 2: 9}), ev.Vote, {"counts": ((3, 6), (9, 4))}),
    "raise_all": (lambda: even_tie(Game(), 3, 9, (1, 2)), ev.RaiseAll, {"yes": 6}),
    "shot": (lambda: Game().quiet_day(), ev.Shot, {"seat": 1}),
    "miss": (lambda: Game().quiet_day(), ev.Miss, {}),
    "don_check": (lambda: _shot(Game().quiet_day()), ev.DonCheck, {"seat": 2}),
    "sheriff_check": (lambda: _checked(), ev.SheriffCheck, {"seat": 8}),
    "best_move": (lambda: _start(Game().quiet_day().night(3), 3), ev.BestMove, {"seat": 3, "seats": (8, 9, 10)}),
    "foul": (Game, ev.Foul, {"seat": 1}),
    "removal": (Game, ev.Remove, {"seat": 1, "team_defeat": True}),
    "extra": (_ended, ev.Extra, {"seat": 1, "points": Decimal("0.35")}),
    "ruling": (Game, ev.Ruling, {"team": Team.BLACK}),
}


def _checked() -> Game:
    g = _shot(Game().quiet_day())
    g.add(ev.DonCheck, seat=2)
    return g


def test_every_kind_of_event_is_covered():
    assert set(EVERY_KIND) | {"undo"} == set(EVENT_TYPES)


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_undo_takes_back_every_kind_of_event(kind):
    build, cls, fields = EVERY_KIND[kind]
    g = build()
    before = g.state
    done = g.add(cls, **fields)
    assert g.last_refusal is None and g.state != before
    g.add(ev.Undo, target=done.id)
    after = g.state
    assert after.undone == (done.id,) and not after.refused
    assert replace(after, undone=()) == before


def test_an_undo_names_the_last_event_in_force():
    g = Game()
    first = g.add(ev.Foul, seat=1)
    g.add(ev.Foul, seat=2)
    g.add(ev.Undo, target=first.id)
    assert g.last_refusal == "undo.not_last"
    undo = g.add(ev.Undo, target=g.events[-2].id)
    assert g.last_refusal is None and g.state.seat(2).fouls == 0
    g.add(ev.Undo, target=undo.id)
    assert g.last_refusal == "undo.undo"
    g.add(ev.Undo, target=first.id)  # undos go back one event at a time
    assert g.last_refusal is None and g.state.seat(1).fouls == 0


def test_nothing_to_undo():
    assert replay([ev.Undo(id="u", seq=1, target="x")]).refused[0][1].rule == "undo.nothing"


def test_an_undo_of_the_fourth_foul_brings_the_player_back():
    g = Game()
    for _ in range(4):
        last = g.add(ev.Foul, seat=5)
    assert not g.state.seat(5).at_table and g.state.no_vote
    g.add(ev.Undo, target=last.id)
    assert g.state.seat(5).at_table and g.state.seat(5).fouls == 3 and not g.state.no_vote


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_every_kind_of_event_goes_through_json_and_back(kind):
    _, cls, fields = EVERY_KIND[kind]
    event = cls(id="3f2a-uuid", seq=12, **fields)
    sent = json.loads(json.dumps(event.to_dict()))
    assert sent["kind"] == kind and from_dict(sent) == event


def test_an_undo_goes_through_json_and_back():
    event = ev.Undo(id="b", seq=2, target="a")
    assert from_dict(json.loads(json.dumps(event.to_dict()))) == event


@pytest.mark.parametrize("data, field", [
    ({"kind": "jump", "id": "a", "seq": 1}, "kind"),
    ({"kind": "foul", "id": "a", "seq": 1}, "seat"),
    ({"kind": "foul", "id": "a", "seq": 1, "seat": 11}, "seat"),
    ({"kind": "foul", "id": "a", "seq": 1, "seat": "3"}, "seat"),
    ({"kind": "foul", "id": "a", "seq": 1, "seat": True}, "seat"),
    ({"kind": "foul", "id": "", "seq": 1, "seat": 3}, "id"),
    ({"kind": "foul", "id": "a" * 101, "seq": 1, "seat": 3}, "id"),
    ({"kind": "foul", "id": "a", "seq": 0, "seat": 3}, "seq"),
    ({"kind": "extra", "id": "a", "seq": 1, "seat": 3, "points": 0.35}, "points"),
    ({"kind": "extra", "id": "a", "seq": 1, "seat": 3, "points": "много"}, "points"),
    ({"kind": "vote", "id": "a", "seq": 1, "counts": [[3]]}, "counts"),
    ({"kind": "vote", "id": "a", "seq": 1, "counts": [[3, -1]]}, "counts"),
    ({"kind": "deal", "id": "a", "seq": 1, "seat": 3, "role": "werewolf"}, "role"),
    ({"kind": "night_zero", "id": "a", "seq": 1, "step": "dawn"}, "step"),
    ({"kind": "removal", "id": "a", "seq": 1, "seat": 3, "team_defeat": "yes"}, "team_defeat"),
    ("foul", "event"),
])
def test_a_malformed_event_is_an_error_naming_its_field_in_both_languages(data, field):
    with pytest.raises(EventError) as caught:
        from_dict(data)
    assert field in str(caught.value) and field in caught.value.message("ru") and "события" in caught.value.message("ru")


def test_extra_points_typed_with_a_comma_are_read():
    assert from_dict({"kind": "extra", "id": "a", "seq": 1, "seat": 3, "points": "0,5"}).points == Decimal("0.5")


def test_a_removal_sent_without_team_defeat_is_a_plain_removal():
    assert from_dict({"kind": "removal", "id": "a", "seq": 1, "seat": 3}) == ev.Remove(id="a", seq=1, seat=3)


def test_replay_takes_an_event_sent_twice_as_one():
    g = Game().speeches({1: 3, 2: 9})
    again = [*g.events, g.events[-5], g.events[3]]
    assert replay(again, players=PLAYERS) == g.state


def test_replay_takes_the_events_in_the_phones_order():
    g = Game().turn(1, nominate=3)
    shuffled = list(reversed(g.events))
    assert replay(shuffled, players=PLAYERS) == g.state


def _log_of(g: Game) -> GameLog:
    log = GameLog(players=PLAYERS)
    for event in g.events:
        log, receipt = log.add(event)
        assert receipt.status == "recorded", receipt.to_dict()
    return log


def test_the_log_answers_a_resend_without_recording_it_again():
    g = Game().speeches({1: 3})
    log = _log_of(g)
    again, receipt = log.add(g.events[4])
    assert receipt.status == "duplicate" and again is log


def test_the_phone_resends_its_tail_after_a_lost_answer():
    g = Game().speeches({1: 3, 2: 9}).vote((3, 6))
    log = _log_of(Game().speeches({1: 3, 2: 9}))  # the server has all but the vote
    statuses = []
    for event in g.events[-3:]:
        log, receipt = log.add(event)
        statuses.append(receipt.status)
    assert statuses == ["duplicate", "duplicate", "recorded"] and log.state() == g.state


def test_the_log_rejects_a_gap_a_taken_number_and_a_changed_event():
    g = Game()
    log = _log_of(g)
    last = len(g.events)
    _, gap = log.add(ev.Foul(id="new", seq=last + 2, seat=1))
    _, taken = log.add(ev.Foul(id="other", seq=last, seat=1))
    _, changed = log.add(replace(g.events[0], seat=2))
    assert (gap.status, gap.why.rule) == ("rejected", "log.gap") and "from number" in gap.why.message("en")
    assert (taken.status, taken.why.rule) == ("rejected", "log.seq_taken")
    assert (changed.status, changed.why.rule) == ("rejected", "log.conflict")


def test_an_event_the_game_refuses_stays_in_the_log_with_its_reason():
    log = _log_of(Game())
    log, receipt = log.add(ev.SpeechStart(id="x", seq=len(log.events) + 1, seat=4))
    assert receipt.status == "refused" and receipt.why.rule == "speech.turn"
    assert "seat 1" in receipt.why.message("en") and "у места 1" in receipt.why.message("ru")
    assert log.events[-1].id == "x" and log.state().speaking is None
