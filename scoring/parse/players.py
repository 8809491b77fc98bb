"""The Players tab: players, and the judges listed among them."""

from __future__ import annotations

import re
from collections.abc import Mapping

from scoring import labels as L
from scoring.model import Application, ApplicationState, Judge, Location, Player, PlayerStatus
from scoring.names import fold, typed_name
from scoring.preset import RegistrationRule
from scoring.problems import Problem, problem
from scoring.registration import takes_part
from scoring.values import is_blank, read_datetime, read_int, shown, text
from scoring.parse.grid import E, Grid, W, _Reader, _cell, _find_header_row, _words, find_tab
from scoring.parse.settings import read_mwt_id


# -- Players ----------------------------------------------------------------------------------
def _parse_players(tabs: Mapping[str, Grid], problems: list[Problem], rule: RegistrationRule = RegistrationRule()
                   ) -> tuple[tuple[Player, ...], tuple[Judge, ...], tuple[Application, ...]]:
    """The players, the judges listed as «судья» (for their MWT ids), and the rows with a «Заявка»
    state (issue 45: a row not taking part, by the preset's ``[registration]``, is no player)."""
    title = find_tab(tabs, "players")
    if title is None:
        problems.append(problem("read.tab_missing", E, None, tab="Игроки / Players"))
        return (), (), ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.PLAYER_COLUMNS, ("player",))
    if header is None:
        problems.append(problem("read.column_missing", E, Location(title, "A1"), column="Игрок / Player"))
        return (), (), ()
    hr, cols = header
    status_words = _words(L.STATUS_WORDS)
    judge_words = {L.norm(w) for w in L.JUDGE_WORDS}
    players: list[Player] = []
    judges: list[Judge] = []
    applications: list[Application] = []
    application_words = _words(L.APPLICATION_WORDS)
    yes_words = {L.norm(w) for w in L.YES_WORDS}
    seen: dict[str, int] = {}
    folds: dict[str, tuple[str, int]] = {}
    spellings = _Spellings()
    for r in range(hr + 1, len(grid)):
        nickname = typed_name(rd.text(r, cols["player"]))
        if not nickname:
            continue
        if nickname in seen:
            rd.add("read.duplicate_player", E, r, cols["player"], player=nickname, rows=f"{seen[nickname] + 1}, {r + 1}")
            continue
        seen[nickname] = r
        other, other_row = folds.setdefault(fold(nickname), (nickname, r))
        if other != nickname:  # two spellings a protocol could not tell apart: both are listed, the organizer renames one
            rd.problems.append(problem("read.similar_players", E, rd.loc(r, cols["player"]),
                                       related=(rd.loc(other_row, cols["player"]),),
                                       player=nickname, other=other, rows=f"{other_row + 1}, {r + 1}"))
        mwt_id = None
        if "mwt_id" in cols and not is_blank(_cell(grid, r, cols["mwt_id"])):
            mwt_id = read_mwt_id(_cell(grid, r, cols["mwt_id"]))
            if mwt_id is None:
                rd.add("read.mwt_id", W, r, cols["mwt_id"], value=shown(_cell(grid, r, cols["mwt_id"])))
        status_text = L.norm(rd.text(r, cols.get("status")))
        if status_text in judge_words:
            if any(not is_blank(_cell(grid, r, cols[k])) for k in ("team", "classifications") if k in cols):
                rd.add("read.team_of_judge", W, r, cols.get("team", cols.get("classifications", 0)), player=nickname)
            judges.append(Judge(nickname=nickname, mwt_id=mwt_id, location=rd.loc(r, cols["player"])))
            continue
        status_key = status_words.get(status_text)
        if status_key is None:
            rd.add("read.status", W, r, cols["status"], value=status_text)
            status_key = "playing"
        excused = _excused(rd, grid, r, cols)
        arrived = "arrived" in cols and L.norm(rd.text(r, cols["arrived"])) in yes_words
        application = _application(rd, grid, r, cols, nickname, arrived, excused, application_words)
        state = application.state if application is not None else None
        if application is not None:
            applications.append(application)
        if state is not None and not takes_part(state, rule):
            continue  # an applicant, not (yet, or any more) a player
        team, classes = spellings.of(rd, r, cols)
        players.append(
            Player(
                nickname=nickname,
                club=rd.text(r, cols.get("club")),
                city=rd.text(r, cols.get("city")),
                status=PlayerStatus(status_key),
                excused_rounds=frozenset(excused),
                mwt_id=mwt_id,
                location=rd.loc(r, cols["player"]),
                team=team,
                classifications=classes,
                team_location=rd.loc(r, cols["team"]) if "team" in cols else None,
                arrived=arrived,
                excused_location=rd.loc(r, cols["excused"]) if "excused" in cols else None,
            )
        )
    problems.extend(rd.problems)
    return tuple(players), tuple(judges), tuple(applications)


def _application(rd: _Reader, grid: Grid, r: int, cols: Mapping[str, int], nickname: str, arrived: bool,
                 excused: set[int], words: Mapping[str, str]) -> Application | None:
    """The row's application when its «Заявка» holds a state (an unknown word: a warning at the cell)."""
    if "application" not in cols or is_blank(_cell(grid, r, cols["application"])):
        return None
    state_key = words.get(L.norm(rd.text(r, cols["application"])))
    if state_key is None:
        rd.add("read.application", W, r, cols["application"], value=shown(_cell(grid, r, cols["application"])))
        return None
    applied_at = None
    if "applied_at" in cols and not is_blank(_cell(grid, r, cols["applied_at"])):
        applied_at = read_datetime(_cell(grid, r, cols["applied_at"]))
    return Application(nickname=nickname, state=ApplicationState(state_key), club=rd.text(r, cols.get("club")),
                       city=rd.text(r, cols.get("city")), applied_at=applied_at, arrived=arrived,
                       excused_rounds=frozenset(excused), row=r, location=rd.loc(r, cols["player"]),
                       state_location=rd.loc(r, cols["application"]))


def _excused(rd: _Reader, grid: Grid, r: int, cols: Mapping[str, int]) -> set[int]:
    """The rounds of the row's «Пропуск» cell (an error at the cell when one is not a round number)."""
    excused: set[int] = set()
    if "excused" not in cols:
        return excused
    raw = _cell(grid, r, cols["excused"])
    if is_blank(raw):
        return excused
    parts = re.split(r"[\s,;]+", text(raw)) if not isinstance(raw, (int, float)) else [text(raw)]
    for part in parts:
        if not part:
            continue
        n, rule = read_int(part)
        if rule or n is None or n < 1:
            rd.add("read.rounds_list", E, r, cols["excused"], value=shown(raw))
            break
        excused.add(n)
    return excused


# a «Зачёт» cell lists classifications separated by commas or semicolons: «женский, юниоры»
_CLASS_SEPARATORS = re.compile(r"\s*[,;]\s*")


def split_classifications(typed: str) -> tuple[str, ...]:
    """The classifications a «Зачёт» cell names, in order, each once (spaces tidied, case kept)."""
    names: dict[str, str] = {}
    for part in _CLASS_SEPARATORS.split(typed.strip()):
        part = " ".join(part.split())
        if part:
            names.setdefault(L.norm(part), part)
    return tuple(names.values())


class _Spellings:
    """One spelling per team and per classification: the first typed.  «Динамо» and «динамо »
    are one team (a warning at the later cell, since a typo should not split a team), and
    «Женский» and «женский» one classification."""

    def __init__(self) -> None:
        self.teams: dict[str, tuple[str, int]] = {}
        self.classes: dict[str, str] = {}

    def of(self, rd: _Reader, r: int, cols: Mapping[str, int]) -> tuple[str, tuple[str, ...]]:
        return self._team(rd, r, cols), self._classes(rd, r, cols)

    def _team(self, rd: _Reader, r: int, cols: Mapping[str, int]) -> str:
        typed = " ".join(rd.text(r, cols.get("team")).split())
        if not typed:
            return ""
        first, row = self.teams.setdefault(L.norm(typed), (typed, r))
        if first != typed:
            rd.add("read.similar_teams", W, r, cols["team"], team=typed, other=first, row=row + 1)
        return first

    def _classes(self, rd: _Reader, r: int, cols: Mapping[str, int]) -> tuple[str, ...]:
        names = [self.classes.setdefault(L.norm(part), part)
                 for part in split_classifications(rd.text(r, cols.get("classifications")))]
        return tuple(dict.fromkeys(names))
