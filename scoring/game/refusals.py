"""Why the live engine refuses an event: one entry a rule, in Russian and English.

A refusal names the rule it applies.  Where the regulation (German Mafia Open 2016) says
it, the message quotes the regulation's words; where only FIIM's rules say it (the
tournament is played by them: «Турнир проводится по турнирным правилам ФИИМ») it says so;
the rest is the order of the game (whose speech it is, what the night waits for).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.problems import Text

__all__ = ["Refusal", "REFUSALS", "refusal"]

# the regulation's own words, quoted where a refusal applies them
_FOUR = ("регламент: «когда за столом остаётся четыре игрока, не разрешается поднимать двоих»",
         "the regulation: with four players at the table, two are not raised")
_FIRST = ("регламент: «при выставлении нескольких кандидатур на голосование принимается первая»",
          "the regulation: when a player nominates several, the first one stands")
_NO_WITHDRAW = ("регламент: «не разрешается отзывать выставленную кандидатуру»",
                "the regulation: a nomination cannot be withdrawn")
_REMOVED_NO_VOTE = ("регламент: «если игрок удаляется до голосования или во время голосования, дальнейшего "
                    "голосования не происходит»",
                    "the regulation: after a removal before or during the vote, no further vote takes place")
_MISS = ("регламент: «если в первую ночь был промах, игрок, убитый во вторую ночь, не имеет права назвать тройку "
         "чёрных»", "the regulation: after a first-night miss, the player shot on the second night names no three")

# rule id -> (Russian, English); placeholders are str.format fields
REFUSALS: dict[str, tuple[str, str]] = {
    "game.ended": ("Игра окончена ({reason}): теперь записываются только доп. баллы, судья и имена",
                   "The game is over ({reason}): only extra points, the judge and names are recorded now"),
    "game.not_started": ("Игра ещё не началась: сначала игроки и роли", "The game has not started: players and roles first"),
    "step.wrong": ("Сейчас {step}: «{event}» сейчас не записывается", "Now: {step}; '{event}' is not recorded now"),
    "seat.range": ("Место {seat}: места 1–10", "Seat {seat}: seats are 1–10"),
    "seat.empty": ("Место {seat}: нет игрока — посадите игрока перед раздачей", "Seat {seat}: no player — seat one before the deal"),
    "seat.out": ("Место {seat}: игрок уже не за столом", "Seat {seat}: the player is no longer at the table"),
    "player.twice": ("«{player}» уже сидит на месте {other}", "'{player}' already sits at seat {other}"),
    "deal.too_many": ("Роль «{role}» уже у {count}: в игре 1 дон, 2 мафии, 1 шериф, 6 мирных",
                      "'{role}' is dealt {count} times already: a game has 1 don, 2 mafia, 1 sheriff, 6 civilians"),
    "deal.incomplete": ("Роли розданы не все: {missing}", "Not every role is dealt: {missing}"),
    "speech.turn": ("Сейчас слово у места {next}, не у места {seat}", "It is seat {next}'s turn, not seat {seat}'s"),
    "speech.busy": ("Ещё говорит место {speaking}: сначала конец его речи", "Seat {speaking} is still speaking: end that speech first"),
    "speech.not_speaking": ("Место {seat} сейчас не говорит", "Seat {seat} is not speaking now"),
    "nominate.speaker": ("Выставляет говорящий игрок (сейчас место {speaking})",
                         "The speaking player nominates (now seat {speaking})"),
    "nominate.nobody_speaks": ("Выставляют во время своей речи: сейчас никто не говорит",
                               "A player nominates during his speech: nobody is speaking now"),
    "nominate.second": ("Место {by} уже выставило место {first}; " + _FIRST[0],
                        "Seat {by} already nominated seat {first}; " + _FIRST[1]),
    "nominate.already": ("Место {seat} уже выставлено (местом {by}); " + _NO_WITHDRAW[0],
                         "Seat {seat} is already nominated (by seat {by}); " + _NO_WITHDRAW[1]),
    "nominate.no_vote": ("Голосования сегодня не будет: " + _REMOVED_NO_VOTE[0],
                         "There is no vote today: " + _REMOVED_NO_VOTE[1]),
    "vote.candidates": ("Голоса записываются за {candidates}, по порядку выставления",
                        "Votes are recorded for {candidates}, in the order of nomination"),
    "vote.total": ("Голосов {total}, а за столом {count} игроков", "{total} votes, but {count} players are at the table"),
    "raise.four": ("Подъёма всех не будет: " + _FOUR[0], "No vote to raise all: " + _FOUR[1]),
    "raise.everyone": ("Подъёма всех не будет: кандидаты — все, кто за столом",
                       "No vote to raise all: the candidates are everyone at the table"),
    "raise.total": ("За подъём {yes}, а за столом {count} игроков", "{yes} for raising all, but {count} players are at the table"),
    "check.self": ("{who} не проверяет сам себя", "The {who} does not check himself"),
    "best_move.author": ("Лучший ход сейчас называет место {seats}", "Now seat {seats} names the best move"),
    "best_move.after_miss": ("В первую ночь был промах: " + _MISS[0], "The first night was a miss: " + _MISS[1]),
    "best_move.nobody": ("Сейчас лучший ход не называют: его называет убитый в первую ночь во время последнего слова",
                         "No best move now: the player shot on the first night names it during his last word"),
    "best_move.seats": ("Лучший ход — три разных места 1–10, кроме своего (названо: {seats})",
                        "A best move is three different seats 1–10, not his own (named: {seats})"),
    "extra.not_ended": ("Доп. баллы ставятся после окончания игры", "Extra points are given after the game"),
    "extra.range": ("Доп. баллы {value}: допустимо от {low} до {high}", "Extra points {value}: allowed from {low} to {high}"),
    "extra.step": ("Доп. баллы {value}: шаг {step}", "Extra points {value}: the step is {step}"),
    "undo.nothing": ("Отменять нечего", "There is nothing to undo"),
    "undo.not_last": ("Отменить можно только последнее событие ({last})", "Only the last event can be undone ({last})"),
    "undo.undo": ("Отмену не отменяют: запишите событие заново", "An undo is not undone: record the event again"),
    "log.gap": ("Пропущены события с номера {expected}: пришлите их по порядку",
                "Events from number {expected} are missing: send them in order"),
    "log.seq_taken": ("Номер {seq} уже занят другим событием", "Number {seq} is taken by another event"),
    "log.conflict": ("Событие {id} уже записано, но с другим содержимым", "Event {id} is recorded already, with other content"),
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """An event the engine did not record, and why (``rule`` keys :data:`REFUSALS`)."""

    rule: str
    params: tuple[tuple[str, object], ...] = field(default=())

    def message(self, language: str = "ru") -> str:
        ru, en = REFUSALS[self.rule]
        return (en if language == "en" else ru).format_map({k: _said(v, language) for k, v in self.params})

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "ru": self.message("ru"), "en": self.message("en")}


def _said(value: object, language: str) -> str:
    if isinstance(value, Text):
        return value.said(language)
    if isinstance(value, (tuple, list)):
        return ", ".join(_said(v, language) for v in value)
    return str(value)


def refusal(rule: str, **params: object) -> Refusal:
    if rule not in REFUSALS:
        raise KeyError(f"no message for refusal {rule!r}")
    return Refusal(rule, tuple(params.items()))

