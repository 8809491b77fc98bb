"""The regulation's cases of a game recorded live, one short event list each: the state it
leaves, or the refusal of its last event naming the rule (scoring/game, issue 44).

Roles in every case (tests/game_support.py): don 8, mafia 9 and 10, sheriff 7, civilians 1–6.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import pytest

from scoring.game import events as ev
from scoring.game.refusals import REFUSALS
from scoring.game.replay import allowed, timer
from scoring.game.state import GameRules, Step
from scoring.model import Role, Team
from tests.game_support import Game


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Game]
    step: Step | None = None
    number: int | None = None
    winner: Team | None = None
    reason: str = ""  # a part of the end's reason (English)
    refused: str | None = None  # the rule refusing the last event
    out: dict[int, tuple[str, int]] = field(default_factory=dict)
    at_table: int | None = None
    turns: tuple[int, ...] | None = None
    timer: str | None = None


def add(g: Game, kind: type[ev.Event], **fields: object) -> Game:
    g.add(kind, **fields)
    return g


def day1_vote(g: Game, out: int) -> Game:
    """Day 1: 2 nominates ``out``, 4 nominates 5; the table votes ``out`` out; his last word."""
    g.speeches({2: out, 4: 5})
    return g.vote((out, 7), (5, 3)).speeches()


def to_four() -> Game:
    """Day 4's morning with four at the table: civilians 5, 6, the sheriff 7 and the don 8 — 9,
    10 and 4 voted out on days 1–3, 1, 2 and 3 shot on nights 1–3."""
    g = Game()
    day1_vote(g, 9)
    g.night(1).morning()
    g.speeches({2: 10, 3: 4}).vote((10, 6), (4, 1)).speeches()
    g.night(2).morning()
    g.speeches({3: 4, 4: 3}).vote((4, 4), (3, 1)).speeches()
    return g.night(3).morning()


def even_tie(g: Game, a: int, b: int, by: tuple[int, int]) -> Game:
    """``a`` and ``b`` nominated and tied twice, half the table each."""
    g.speeches({by[0]: a, by[1]: b})
    half = g.state.count() // 2
    g.vote((a, half), (b, half))
    g.speeches()
    return g.vote((a, half), (b, half))


def quiet_cycles(k: int) -> Game:
    g = Game()
    for _ in range(k):
        g.quiet_day()
        g.night(None)
    return g


def nominated_twice() -> Game:
    g = Game().turn(1, nominate=3)
    return add(add(g, ev.SpeechStart, seat=2), ev.Nominate, by=2, seat=3)


def second_nomination() -> Game:
    g = add(add(Game(), ev.SpeechStart, seat=1), ev.Nominate, by=1, seat=3)
    return add(g, ev.Nominate, by=1, seat=4)


def narrowed_tie() -> Game:
    """Day 2 at nine: a three-way tie, then two of the three tie again."""
    g = Game().quiet_day().night(6).morning()
    g.speeches({2: 3, 3: 9, 4: 5}).vote((3, 3), (9, 3), (5, 3)).speeches()
    return g.vote((3, 4), (9, 4), (5, 1))


def raised(yes: int) -> Game:
    return add(even_tie(Game(), 3, 9, (1, 2)), ev.RaiseAll, yes=yes)


def fouled(seat: int, fouls: int) -> Game:
    g = Game()
    for _ in range(fouls):
        g.add(ev.Foul, seat=seat)
    return g


def third_foul_before_his_speech() -> Game:
    return fouled(2, 3).turn(1)


def removed_then_speeches() -> Game:
    g = Game().turn(1, nominate=9)
    g.add(ev.Remove, seat=5)
    return g.speeches()


def nominate_after_removal() -> Game:
    g = add(Game(), ev.Remove, seat=5)
    return add(add(g, ev.SpeechStart, seat=1), ev.Nominate, by=1, seat=9)


def sheriff_shot() -> Game:
    return add(add(Game().quiet_day(), ev.Shot, seat=7), ev.DonCheck, seat=1)


def best_move(seats: tuple[int, ...]) -> Game:
    g = add(Game().quiet_day().night(3), ev.SpeechStart, seat=3)
    return add(g, ev.BestMove, seat=3, seats=seats)


def after_miss() -> Game:
    g = add(Game().quiet_day().night(None).quiet_day().night(3), ev.SpeechStart, seat=3)
    return add(g, ev.BestMove, seat=3, seats=(8, 9, 10))


def ended_with_preset_range() -> Game:
    g = Game(rules=GameRules(extra_min=Decimal("0.1"), extra_max=Decimal("0.7"), extra_step=Decimal("0.05")))
    return add(g, ev.Ruling, team=Team.RED)


CASES = [
    # the order of speeches and the turns
    Case("day 1 opens with seat 1", lambda: Game(), step=Step.SPEECHES, number=1, turns=tuple(range(1, 11)), timer="speech"),
    Case("day 2: the night's victim first says his last word", lambda: Game().quiet_day().night(3), step=Step.MORNING,
         number=2, turns=(3,), timer="last_word", out={3: ("shot", 1)}),
    Case("after the last word, day 2's speeches open with seat 2", lambda: Game().quiet_day().night(3).morning(),
         step=Step.SPEECHES, turns=(2, 4, 5, 6, 7, 8, 9, 10, 1)),
    Case("a speech out of turn is refused", lambda: add(Game(), ev.SpeechStart, seat=2), refused="speech.turn"),
    Case("a second speech while one runs is refused",
         lambda: add(add(Game(), ev.SpeechStart, seat=1), ev.SpeechStart, seat=2), refused="speech.busy"),
    # nominations
    Case("only the speaker nominates", lambda: add(add(Game(), ev.SpeechStart, seat=1), ev.Nominate, by=2, seat=3),
         refused="nominate.speaker"),
    Case("the first nomination of a speaker stands", second_nomination, refused="nominate.second"),
    Case("a nominee is not nominated twice (nor withdrawn)", nominated_twice, refused="nominate.already"),
    Case("day 1 with a single nominee: no vote, the night comes", lambda: Game().speeches({1: 9}), step=Step.SHOT, number=1),
    Case("day 2 with a single nominee: he leaves without a vote and says his last word",
         lambda: Game().quiet_day().night(None).speeches({2: 9}), step=Step.FAREWELL, number=2, out={9: ("voted", 2)},
         turns=(9,), timer="last_word"),
    # the vote
    Case("the votes not given go to the last nominee", lambda: Game().speeches({1: 3, 2: 9}).vote((3, 4)),
         step=Step.FAREWELL, out={9: ("voted", 1)}),
    Case("a vote for others than the nominees is refused", lambda: Game().speeches({1: 3, 2: 9}).vote((4, 4)),
         refused="vote.candidates"),
    Case("more votes than players is refused", lambda: Game().speeches({1: 3, 2: 9}).vote((3, 8), (9, 3)),
         refused="vote.total"),
    Case("a tie: the tied speak 30 s each", lambda: Game().speeches({1: 3, 2: 9}).vote((3, 5), (9, 5)),
         step=Step.TIE, turns=(3, 9), timer="tie"),
    Case("the tie narrowed: the two speak again before the next vote", narrowed_tie, step=Step.TIE, turns=(3, 9)),
    Case("the same tie again: the vote to raise all", lambda: even_tie(Game(), 3, 9, (1, 2)), step=Step.RAISE,
         timer="vote"),
    Case("more than half for raising: both leave and say their last words", lambda: raised(6), step=Step.FAREWELL,
         out={3: ("voted", 1), 9: ("voted", 1)}, turns=(3, 9)),
    Case("half for raising is not enough: nobody leaves", lambda: raised(5), step=Step.SHOT, at_table=10),
    Case("four at the table: two are not raised, the night comes", lambda: even_tie(to_four(), 5, 8, (6, 7)),
         step=Step.SHOT, number=4, at_table=4),
    Case("four at the table: the vote to raise all is refused naming the rule",
         lambda: add(even_tie(to_four(), 5, 8, (6, 7)), ev.RaiseAll, yes=4), refused="raise.four"),
    # fouls
    Case("the 3rd foul before his speech: he loses today's speech", third_foul_before_his_speech,
         turns=(2, 3, 4, 5, 6, 7, 8, 9, 10), timer="lost"),
    Case("the 4th foul removes the player", lambda: fouled(4, 4), out={4: ("removed", 1)}),
    Case("a foul to a player out of the game is refused", lambda: add(Game().quiet_day().night(3), ev.Foul, seat=3),
         refused="seat.out"),
    # removals
    Case("a removal during the speeches: the speeches go on, then the night without a vote", removed_then_speeches,
         step=Step.SHOT, number=1),
    Case("after a removal before the vote, a nomination is refused", nominate_after_removal, refused="nominate.no_vote"),
    Case("a removal during the vote: no vote, the night comes",
         lambda: add(Game().speeches({1: 3, 2: 9}).vote((3, 5), (9, 5)), ev.Remove, seat=5), step=Step.SHOT, at_table=9),
    Case("a removal with team defeat (ППК): the other team wins", lambda: add(Game(), ev.Remove, seat=9, team_defeat=True),
         winner=Team.RED, reason="team defeat of seat 9", out={9: ("team_defeat", 1)}),
    Case("a removal with four at the table gives the other team the win",
         lambda: add(to_four().speeches(), ev.Remove, seat=5), winner=Team.BLACK, reason="removed with 4 players"),
    Case("a removal during the night comes before its shot (the shot takes effect in the morning)",
         lambda: add(add(to_four().speeches(), ev.Shot, seat=5), ev.Remove, seat=8), winner=Team.RED,
         reason="seat 8 removed with 4 players", at_table=3),
    # the end
    Case("blacks as many as reds: black wins", lambda: to_four().speeches({5: 6}).speeches().night(7),
         winner=Team.BLACK, reason="at least as many"),
    Case("every black out: red wins", lambda: to_four().speeches({5: 8, 6: 7}).vote((8, 3), (7, 1)),
         winner=Team.RED, reason="every black player is out"),
    Case("two quiet days and nights: the game goes on", lambda: quiet_cycles(2), step=Step.SPEECHES, number=3),
    Case("three nights in a row nobody left: the civilians win", lambda: quiet_cycles(3), winner=Team.RED,
         reason="three nights in a row"),
    Case("an event after the end is refused", lambda: add(quiet_cycles(3), ev.Foul, seat=1), refused="game.ended"),
    Case("the judge's ruling ends the game", lambda: add(Game(), ev.Ruling, team=Team.BLACK), winner=Team.BLACK,
         reason="ruling"),
    # the night
    Case("the don does not check himself", lambda: add(add(Game().quiet_day(), ev.Shot, seat=1), ev.DonCheck, seat=8),
         refused="check.self"),
    Case("the sheriff shot tonight still checks", sheriff_shot, step=Step.SHERIFF_CHECK, at_table=10),
    Case("a shot at a player out of the game is refused",
         lambda: add(Game().speeches({1: 3, 2: 9}).vote((3, 6)).speeches(), ev.Shot, seat=3), refused="seat.out"),
    # the best move
    Case("the player shot on the first night names three seats in his last word", lambda: best_move((2, 8, 9)),
         step=Step.MORNING),
    Case("a best move of his own seat is refused", lambda: best_move((3, 8, 9)), refused="best_move.seats"),
    Case("after a first-night miss, the second night's victim names no best move", after_miss,
         refused="best_move.after_miss"),
    Case("after his last word, no best move",
         lambda: add(Game().quiet_day().night(3).morning(), ev.BestMove, seat=3, seats=(8, 9, 10)),
         refused="best_move.nobody"),
    # the deal and after the end
    Case("a second don is refused", lambda: add(Game(night0=False), ev.Deal, seat=1, role=Role.DON),
         refused="deal.too_many"),
    Case("night 0 waits for every card",
         lambda: add(Game(roles={8: Role.DON}, night0=False), ev.NightZero, step="agreement"), refused="deal.incomplete"),
    Case("extra points before the end are refused", lambda: add(Game(), ev.Extra, seat=1, points=Decimal("0.3")),
         refused="extra.not_ended"),
    Case("extra points out of the preset's range are refused",
         lambda: add(ended_with_preset_range(), ev.Extra, seat=1, points=Decimal("0.9")), refused="extra.range"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_regulation_case(case: Case):
    g = case.build()
    state = g.state
    if case.refused is not None:
        assert g.last_refusal == case.refused, state.refused
        return
    assert not state.refused, [(i, r.message("en")) for i, r in state.refused]
    if case.winner is not None:
        assert state.ended and state.winner is case.winner
        assert case.reason in state.reason.en
    for attr in ("step", "number", "turns"):
        if getattr(case, attr) is not None:
            assert getattr(state, attr) == getattr(case, attr), attr
    for seat, (how, number) in case.out.items():
        assert state.seat(seat).out is not None and (state.seat(seat).out.how, state.seat(seat).out.number) == (how, number)
    if case.at_table is not None:
        assert state.count() == case.at_table
    if case.timer is not None:
        assert timer(state).kind == case.timer


def test_the_third_foul_during_his_speech_costs_the_next_days_speech():
    g = Game().turn(1, fouls=3)
    assert g.state.seat(1).silenced_day == 2
    g.quiet_day().night(None)  # day 2 opens with seat 2; seat 1 speaks last
    while g.state.turns[0] != 1:
        g.turn()
    assert timer(g.state).kind == "lost" and timer(g.state).seconds == 0


def test_the_third_foul_at_night_costs_the_next_days_speech():
    g = Game().quiet_day()
    g.add(ev.Miss)
    for _ in range(3):
        g.add(ev.Foul, seat=5)
    assert g.state.seat(5).silenced_day == 2


def test_a_player_who_lost_his_speech_still_nominates():
    g = fouled(1, 3)
    g.add(ev.SpeechStart, seat=1)
    assert timer(g.state).kind == "lost"
    g.add(ev.Nominate, by=1, seat=9)
    assert g.last_refusal is None and g.state.candidates == (9,)


def test_with_four_at_the_table_a_lost_speech_is_30_seconds():
    g = to_four()  # day 4: 5, 6, 7, 8 at the table, 5 opens
    for _ in range(3):
        g.add(ev.Foul, seat=6)
    g.turn(5)
    assert g.state.turns[0] == 6 and timer(g.state).kind == "short" and timer(g.state).seconds == 30


def test_the_night_victim_stays_at_the_table_until_the_morning():
    g = Game().quiet_day()
    g.add(ev.Shot, seat=3)
    assert g.state.seat(3).at_table and g.state.step is Step.DON_CHECK
    g.add(ev.DonCheck, seat=3)  # the don may check tonight's victim: he is still at the table
    g.add(ev.SheriffCheck, seat=8)
    assert not g.state.seat(3).at_table and g.state.step is Step.MORNING


def test_a_removed_don_skips_the_dons_check():
    g = Game().quiet_day()
    g.add(ev.Remove, seat=8)  # the don is removed during day 1 (the vote is off)
    g.quiet_day()
    g.add(ev.Shot, seat=1)
    assert g.state.step is Step.SHERIFF_CHECK


def test_the_table_break_best_move_when_the_first_night_ends_the_game():
    """«При сломе стола в первый день, игрок, убитый в первую ночь всё равно имеет право назвать
    тройку черных»: the game ended in the morning, and the first night's victim still names three."""
    g = Game()
    g.speeches({1: 2, 3: 4, 5: 6})
    g.vote((2, 3), (4, 3), (6, 4))
    g.add(ev.SpeechStart, seat=6)
    g.add(ev.SpeechEnd, seat=6)  # 6 out: 6 red 3 black
    g.add(ev.Remove, seat=1)
    g.add(ev.Remove, seat=2)  # 4 red 3 black at the table
    g.night(3)  # 3 shot: 3 red, 3 black — black wins in the morning
    state = g.state
    assert state.ended and state.winner is Team.BLACK and state.best_move_by == (3,)
    g.add(ev.BestMove, seat=3, seats=(8, 9, 10))
    assert g.last_refusal is None and g.state.seat(3).best_move == (8, 9, 10)


def test_every_refusal_is_said_in_both_languages_with_the_same_values():
    import string

    for rule, (ru, en) in REFUSALS.items():
        names = [{f for _, f, _, _ in string.Formatter().parse(t) if f} for t in (ru, en)]
        assert names[0] == names[1], rule
        assert ru != en and ru.strip() and en.strip(), rule


def test_the_refusals_the_regulation_words_quote_it():
    from scoring.game.refusals import refusal

    assert "не разрешается поднимать двоих" in refusal("raise.four").message("ru")
    assert "two are not raised" in refusal("raise.four").message("en")
    assert "промах" in refusal("best_move.after_miss").message("ru")


def test_allowed_lists_what_the_judge_may_record_now():
    g = Game()
    assert allowed(g.state)["speech_start"] == (1,)
    assert "vote" not in allowed(g.state)
    g.speeches({1: 3, 2: 9})
    now = allowed(g.state)
    assert "vote" in now and "speech_start" not in now and now["foul"] == tuple(range(1, 11))
    g.vote((3, 9))
    assert allowed(g.state)["speech_start"] == (3,)


def test_allowed_agrees_with_the_checks_on_simulated_games():
    """Every kind and seat ``allowed`` lists is recorded, and every seat it leaves out is refused."""
    import random

    from scoring.game.events import Foul, Shot, SpeechStart
    from scoring.game.replay import apply, replay
    from scoring.game.simulate import PLAYERS, simulate_events

    events = simulate_events(random.Random(7))
    for n in range(0, len(events), 7):
        state = replay(events[:n], players=PLAYERS)
        now = allowed(state)
        for kind, cls in (("foul", Foul), ("shot", Shot), ("speech_start", SpeechStart)):
            for seat in range(1, 11):
                recorded = not hasattr(apply(state, cls(id="x", seq=1, seat=seat)), "rule")
                assert recorded == (seat in now.get(kind, ())), (n, kind, seat)
