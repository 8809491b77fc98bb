"""The Players tab: players, and the judges listed among them."""

from __future__ import annotations

import re
from collections.abc import Mapping

from scoring import labels as L
from scoring.model import Judge, Location, Player, PlayerStatus
from scoring.names import fold, typed_name
from scoring.problems import Problem, problem
from scoring.values import is_blank, read_int, shown, text
from scoring.parse.grid import E, Grid, W, _Reader, _cell, _find_header_row, _words, find_tab
from scoring.parse.settings import read_mwt_id


# -- Players ----------------------------------------------------------------------------------
def _parse_players(tabs: Mapping[str, Grid], problems: list[Problem]) -> tuple[tuple[Player, ...], tuple[Judge, ...]]:
    """The players, and the judges listed among them with the status «судья» (for their MWT ids)."""
    title = find_tab(tabs, "players")
    if title is None:
        problems.append(problem("read.tab_missing", E, None, tab="Игроки / Players"))
        return (), ()
    grid = tabs[title]
    rd = _Reader(title, grid)
    header = _find_header_row(grid, L.PLAYER_COLUMNS, ("player",))
    if header is None:
        problems.append(problem("read.column_missing", E, Location(title, "A1"), column="Игрок / Player"))
        return (), ()
    hr, cols = header
    status_words = _words(L.STATUS_WORDS)
    judge_words = {L.norm(w) for w in L.JUDGE_WORDS}
    players: list[Player] = []
    judges: list[Judge] = []
    seen: dict[str, int] = {}
    folds: dict[str, tuple[str, int]] = {}
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
            judges.append(Judge(nickname=nickname, mwt_id=mwt_id, location=rd.loc(r, cols["player"])))
            continue
        status_key = status_words.get(status_text)
        if status_key is None:
            rd.add("read.status", W, r, cols["status"], value=status_text)
            status_key = "playing"
        excused: set[int] = set()
        if "excused" in cols:
            raw = _cell(grid, r, cols["excused"])
            if not is_blank(raw):
                parts = re.split(r"[\s,;]+", text(raw)) if not isinstance(raw, (int, float)) else [text(raw)]
                for part in parts:
                    if not part:
                        continue
                    n, rule = read_int(part)
                    if rule or n is None or n < 1:
                        rd.add("read.rounds_list", E, r, cols["excused"], value=shown(raw))
                        break
                    excused.add(n)
        players.append(
            Player(
                nickname=nickname,
                club=rd.text(r, cols.get("club")),
                city=rd.text(r, cols.get("city")),
                status=PlayerStatus(status_key),
                excused_rounds=frozenset(excused),
                mwt_id=mwt_id,
                location=rd.loc(r, cols["player"]),
            )
        )
    problems.extend(rd.problems)
    return tuple(players), tuple(judges)
