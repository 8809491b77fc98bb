"""The static HTML site beside the workbook: standings, stages, players, games, statistics.

Pure rendering: :func:`site_files` turns the results into ``{relative path: text}``;
:func:`write_site` writes them (only what changed) and removes pages that no longer exist.
Everything a person typed (nicknames, clubs, comments) reaches the HTML through Jinja2's
autoescaping only.  File names never contain a raw nickname: a transliterated slug plus a
short hash.  No JavaScript, no network.  Every page says where the tournament stands
(:mod:`scoring.progress`) and, when the caller gives one, when it was updated: the same
results and the same time give the same bytes (rendering reads no clock).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from scoring import labels as L
from scoring.collation import name_key
from scoring.model import GameIndex, PlayerStatus, Protocol, Removal, Team
from scoring.items import GameLine, blacks_named, breakdown_items
from scoring.liveness import ASK, Ask, Liveness, given_or_current
from scoring.numbers import quantize
from scoring.race import race, rounds_played
from scoring.rating.club import workbook_rating
from scoring.problems import Problem, Severity
from scoring.progress import Progress, progress as progress_of
from scoring.standings import Results, Standing, game_states
from scoring.teams import Classification, sides
from sheets_sync.files import reuse_output, write_text_atomic
from sheets_sync.render import race as race_view
from sheets_sync.render.json_out import change_text, points, rating_text
from sheets_sync.render.screen import screen_files
from sheets_sync.render.progress_text import headline, status_lines
from sheets_sync.render.seating import Round, SeatingViews
from sheets_sync.render.registration_view import entrants, has_registration
from sheets_sync.render.tabs import tiebreak_text
from sheets_sync.render.team_tabs import team_count_text, team_tiebreak_text
from sheets_sync.render.page_keys import Words, page_key
from sheets_sync.render.templates import TEMPLATES, environment, slug
from sheets_sync.render.words import item_full, role_name, state_words, ui

__all__ = ["slug", "player_file", "game_file", "stage_file", "site_files", "write_site", "nominations"]

ZERO = Decimal(0)


# -- names of files --------------------------------------------------------------------------------
def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def player_file(nickname: str) -> str:
    return f"players/{slug(nickname)}-{_hash('player:' + nickname)}.html"


@lru_cache(maxsize=4096)  # each game's name is asked for by its page and its ten players' pages
def game_file(stage: str, round_no: int, table: int) -> str:
    return f"games/{slug(stage, limit=16)}-r{round_no}-t{table}-{_hash(f'game:{stage}:{round_no}:{table}')}.html"


def classification_file(name: str) -> str:
    return f"classification-{slug(name, limit=24)}-{_hash('classification:' + name)}.html"


TEAMS_FILE = "teams.html"
ENTRANTS_FILE = "entrants.html"  # «Участники» (issue 45): only when the tournament registers its players


def stage_file(stage: str) -> str:
    name = slug(stage, limit=24)
    return f"stage-{name}.html" if name == stage else f"stage-{name}-{_hash('stage:' + stage)}.html"


# -- nominations ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NominationView:
    key: str
    title: str
    players: tuple[str, ...]
    value: str


def nominations(results: Results, language: str) -> list[NominationView]:
    """The nominations somebody won, as the site and the VK post show them."""
    return [NominationView(key=n.key, title=n.name(language), players=n.winners,
                           value="" if n.score is None else points(n.score))
            for n in results.nominations if n.winners]


# -- page models -------------------------------------------------------------------------------------
def _pts(value: Decimal | None, places: int = 2) -> str:
    return "" if value is None else points(value, places)


def _signed(value: Decimal, places: int = 2) -> str:
    return "" if value == 0 else points(value, places)


class _Site:
    def __init__(self, results: Results, problems: Sequence[Problem], language: str,
                 progress: Progress | None = None, updated: datetime | None = None, live: Liveness | None | Ask = ASK,
                 link: str | None = None, draw_figures=None):
        self.r = results
        self.draw_figures = draw_figures  # sheets_sync.loop.draw_figures.DrawFigures: the fairness report's figures
        self.link = link  # the site's own address (the hosted one), before the Tournament tab's «Ссылка»
        self.progress = progress if progress is not None else progress_of(results)
        self.updated = updated
        self.problems = problems
        self.lang = language
        self.t = results.tournament
        self.preset = results.preset
        hidden = frozenset(getattr(results, "hidden", ()) or ())  # stages the public may not see yet
        self.keys = tuple(k for k in self.preset.stage_keys if k not in hidden)
        self.counted_keys = {p.key for p in results.counted}
        self.protocols = sorted((p for p in self.t.protocols if p.stage not in hidden), key=lambda p: (self._stage_index(p.stage), p.round, p.table, p.sheet))
        self.states = game_states(results)
        self.game_of: dict[tuple[str, int, int], Protocol] = {}
        for p in self.protocols:
            self.game_of.setdefault(p.key, p)
        self.lines_by_game: dict[tuple[str, int, int], list[GameLine]] = defaultdict(list)
        for ln in results.lines:
            if ln.stage in hidden:
                continue
            self.lines_by_game[(ln.stage, ln.round, ln.table)].append(ln)
        self.items = breakdown_items(results.lines)  # the columns of the points breakdown
        names = [p.nickname for p in self.t.players]
        names += sorted({ln.player for ln in results.lines} - set(names), key=name_key)
        self.player_names = names
        self.player_href = {n: player_file(n) for n in names}
        self.overall_place = {st.stats.player: st.places for st in results.overall}
        # per-player lookups: a page per player must not scan every player and every game
        self.standing_of = {st.stats.player: st for st in results.overall}
        self.lines_of: dict[str, list[GameLine]] = defaultdict(list)
        for ln in results.lines:
            self.lines_of[ln.player].append(ln)
        self.has_race = bool(rounds_played(results))  # what the race has points for (not the race itself)
        self.live = given_or_current(live, results)  # who can still qualify for the cut being played
        self.live_stage = self.stage_name(self.live.stage) if self.live else ""
        self.seating = SeatingViews(results, language, hidden=hidden)
        self._tables_of: dict[str, set[int]] = {}  # game_label's: the tables each stage has
        self.games = GameIndex(self.t.protocols)  # which game (tab, or block of a tab) a problem is in
        self.broken_sheets = {self.games.game_at(p.location) for p in problems if p.severity is Severity.ERROR}
        # by game, in the order a page lists them: a page per game must not sort and scan every problem
        self.problems_of: dict[str | None, list[Problem]] = defaultdict(list)
        for pr in sorted(problems, key=Problem.sort_key):
            self.problems_of[self.games.game_at(pr.location)].append(pr)
        self._line_points: dict[int, tuple[list[str], str]] = {}  # see line_points
        self._navs: dict[tuple[str, str], list[dict]] = {}  # see nav
        self.headline = headline(self.progress, self.preset, self.lang)
        # one number of decimals per column, as many as the preset's finest step needs (issue 43 §8)
        self.places = self.preset.points_places()
        self.stage_places = {k: self.preset.points_places(k) for k in self.preset.stage_keys}
        self.sides = sides(results)  # teams and classifications: empty without the Players tab's columns

    def line_points(self, ln: GameLine) -> tuple[list[str], str]:
        """A game line's breakdown and total as the pages show them, made once: the player's page and
        the game's page show the same line (20,000 times at 1000 players)."""
        shown = self._line_points.get(id(ln))
        if shown is None:
            places = self.stage_places.get(ln.stage, self.places)
            shown = self._line_points[id(ln)] = ([_signed(ln.item(i.key), places) for i in self.items],
                                                 points(ln.total, places))
        return shown

    @property
    def race(self):
        """The standings after every round, from the protocols: worked out when a page first needs
        it (the race page and the players' pages), once per sync (:mod:`scoring.memo`)."""
        return race(self.r)

    def _stage_index(self, key: str) -> int:
        return self.keys.index(key) if key in self.keys else len(self.keys)

    def stage_name(self, key: str) -> str:
        try:
            return self.preset.stage(key).name(self.lang)
        except KeyError:
            return key

    def round_word(self, stage: str) -> str:
        return ui("round", self.lang) if stage == self.keys[0] else ui("game", self.lang)

    def game_label(self, stage: str, round_no: int, table: int) -> str:
        tables = self._tables_of.get(stage)
        if tables is None:
            tables = {k[2] for k in self.game_of if k[0] == stage} | {e.table for e in self.t.seating if e.stage == stage}
            self._tables_of[stage] = tables
        text = f"{self.stage_name(stage)}, {self.round_word(stage).lower()} {round_no}"
        if len(tables) > 1 or table != 1:
            text += f", {ui('table', self.lang).lower()} {table}"
        return text

    def shown_stages(self) -> list[str]:
        return [k for k in self.keys if self.r.participants.get(k) and (k == self.keys[0] or self.r.stages.get(k))]

    def nav(self, root: str, current: str) -> list[dict]:
        """The menu of a page in folder ``root`` whose own entry is ``current``: made once per
        folder and entry (the 1,000 player pages share one), never changed by a template."""
        key = (root, current)
        if key not in self._navs:
            self._navs[key] = self._nav(root, current)
        return self._navs[key]

    def _nav(self, root: str, current: str) -> list[dict]:
        items = [{"href": root + "index.html", "text": ui("standings", self.lang), "id": "index"}]
        for k in self.shown_stages():
            items.append({"href": root + stage_file(k), "text": self.stage_name(k), "id": "stage:" + k})
        if self.seating.rounds:
            items.append({"href": root + "seating.html", "text": ui("seating", self.lang), "id": "seating"})
        if self.has_race:
            items.append({"href": root + "race.html", "text": race_view.word("race", self.lang), "id": "race"})
        items.append({"href": root + "games.html", "text": ui("games", self.lang), "id": "games"})
        items.append({"href": root + "players.html", "text": ui("players", self.lang), "id": "players"})
        if has_registration(self.t):
            items.append({"href": root + ENTRANTS_FILE, "text": ui("entrants", self.lang), "id": "entrants"})
        items.append({"href": root + "statistics.html", "text": ui("statistics", self.lang), "id": "statistics"})
        items += [{"href": root + href, "text": text, "id": key} for href, text, key in self.side_nav()]
        for it in items:
            it["current"] = it["id"] == current
        return items

    def item_heads(self) -> list[dict]:
        """The points breakdown's column heads: the item's short name and, for «ДБ», «ЛХ», «Ci», what it
        stands for (an <abbr title> and the legend under the table)."""
        return [{"name": i.name(self.lang), "full": item_full(i.key, self.lang)} for i in self.items]

    def page(self, root: str, current: str, title: str, **extra: Any) -> dict:
        return {
            "lang": self.lang,
            "root": root,
            "nav": self.nav(root, current),
            "title": title,
            "page_class": current.split(":")[0],
            "tournament": {"name": self.t.name, "date": self.t.date, "chief_judge": self.t.chief_judge},
            "ui": Words(self.lang, ui),
            # the lines that change with every sync («Обновлено», games counted) are in status.css
            "progress_status": {"headline": self.headline},
            **extra,
        }

    # -- standings -----------------------------------------------------------------------------
    def standing_row(self, st: Standing, root: str, prev_group: str | None) -> dict:
        s = st.stats
        status = "" if s.status is PlayerStatus.PLAYING else L.word(s.status.value, self.lang)
        return {
            "places": st.places if s.games else "",  # nobody is 8–36 before playing a game
            "player": s.player,
            "href": root + self.player_href.get(s.player, player_file(s.player)),
            "club": s.club,
            "status": status,
            "total": points(s.total, self.places),
            "stages": [(_pts(s.stage_points.get(k, ZERO), self.stage_places[k])
                        if s.player in self.r.participants.get(k, ()) else "") for k in self.keys],
            "games": s.games,
            "wins": s.wins,
            "wins_don": s.wins_as.get("don", 0),
            "wins_sheriff": s.wins_as.get("sheriff", 0),
            "wins_mafia": s.wins_as.get("mafia", 0),
            "extra": points(s.extra_points, self.places),
            "recognised_best": s.recognised_best,
            "best_move": points(s.best_move_points, self.places),
            "penalties": _signed(s.penalties, self.places),
            "shot_first": s.shot_first,
            "eligible": "" if s.eligible else ui("not_eligible", self.lang),
            "tiebreak": tiebreak_text(st, self.lang),
            "group_start": prev_group is not None and st.group != prev_group,
            "group": st.group,
            "mark": race_view.mark(self.live, s.player),
            "mark_title": race_view.mark_title(self.live, s.player, self.live_stage, self.lang),
        }

    def index(self) -> str:
        rows = []
        prev = None
        if self.progress.started:  # before the first counted game there is no ranking to show
            for st in self.r.overall:
                rows.append(self.standing_row(st, "", prev))
                prev = st.group
        finished = self.progress.finished
        return self.render("site/index.html", self.page(
            "", "index", headline(self.progress, self.preset, self.lang), rows=rows,
            winners=self.winners() if finished else None,
            awards_legend=ui("not_eligible_legend", self.lang) if any(r["eligible"] for r in rows) else "",
            stages=[self.stage_name(k) for k in self.keys],
            games_counted=len(self.r.counted), awaiting=self.r.awaiting_confirmation,
            nominations=nominations(self.r, self.lang) if finished else [],
            liveness_legend=race_view.legend(self.live, self.live_stage, self.lang,
                                             [st.stats.player for st in self.r.overall] if rows else [])))

    def winners(self) -> dict:
        """A finished tournament's podium (places 1–3, shared places included) and the final's
        winner — what the VK post says first, now on the index too (issue 43 §8)."""
        podium = [{"place": st.place, "places": st.places, "player": st.stats.player,
                   "total": points(st.stats.total, self.places),
                   "href": self.player_href.get(st.stats.player, player_file(st.stats.player))}
                  for st in self.r.overall if st.place <= 3 and st.stats.games]
        final = self.keys[-1] if len(self.keys) > 1 else None
        top = [st.stats.player for st in self.r.stages.get(final, ()) if st.place == 1] if final else []
        return {"podium": podium, "final": self.stage_name(final) if final else "", "final_winners": top}

    def race_page(self) -> str:
        top = 20
        title = race_view.word("place_per_round", self.lang)
        labels = race_view.round_labels(self.race, lambda k: self.stage_name(k)[:1] if len(self.keys) > 1 else "")
        # two drawings of one chart: the wide one for screens and paper, the narrow one for a phone,
        # whose type a 720-unit drawing would shrink to 6 px (style.css shows one of them)
        chart = "\n".join(race_view.race_chart(self.race, top=top, title=title, href=self.player_href, labels=labels,
                                                box=box, css=css)
                           for box, css in ((race_view.WIDE, "race-chart race-wide"),
                                            (race_view.NARROW, "race-chart race-narrow")))
        return self.render("site/race.html", self.page(
            "", "race", race_view.word("race", self.lang), chart=chart,
            intro=race_view.word("race_intro", self.lang, n=top), empty=race_view.word("race_empty", self.lang)))

    def stage(self, key: str) -> str:
        rule = self.preset.stage(key)
        table = self.r.stages.get(key, ())
        rounds = sorted({ln.round for ln in self.r.lines if ln.stage == key} | set(range(1, rule.games + 1)))
        per_game: dict[tuple[str, int], list[GameLine]] = defaultdict(list)
        for ln in self.r.lines:
            if ln.stage == key and not ln.substitute:
                per_game[(ln.player, ln.round)].append(ln)
        rows = []
        for st in table:
            s = st.stats
            cells = []
            for r in rounds:
                lines = per_game.get((s.player, r))
                if lines:
                    ln = lines[0]
                    cells.append({"text": points(sum((x.total for x in lines), ZERO), self.stage_places[key]),
                                  "href": "" + game_file(ln.stage, ln.round, ln.table), "won": ln.won,
                                  "title": f"{self.round_word(key)} {r}, {ui('table', self.lang).lower()} {ln.table}, "
                                           f"{role_name(ln.role, self.lang)}"})
                else:
                    cells.append(None)
            stage_pen = sum((p.points for p in s.applied_penalties if p.stage == key), ZERO)
            rows.append({"places": st.places if s.games else "", "player": s.player,
                         "href": self.player_href.get(s.player, player_file(s.player)),
                         "club": s.club, "total": points(s.total, self.places),
                         "stage_points": points(s.stage_points.get(key, ZERO), self.stage_places[key]),
                         "cells": cells, "penalties": _signed(stage_pen, self.stage_places[key]),
                         "tiebreak": tiebreak_text(st, self.lang)})
        cut = None
        i = self.keys.index(key)
        if i + 1 < len(self.keys):
            c = self.r.cuts.get(self.keys[i + 1])
            if c is not None and c.players:
                cut = {"stage": self.stage_name(c.stage), "size": c.size, "count": len(c.players), "tied": list(c.tied),
                       "complete": c.complete}
        cut_line = len(self.r.cuts[self.keys[i + 1]].players) if cut else None
        return self.render("site/stage.html", self.page(
            "", "stage:" + key, self.stage_name(key), stage_name=self.stage_name(key),
            coefficient=points(rule.coefficient), round_word=self.round_word(key), rounds=rounds, rows=rows, cut=cut,
            cut_line=cut_line))

    # -- players ---------------------------------------------------------------------------------
    def player(self, nickname: str) -> str:
        pl = self.t.player(nickname)
        stats = self.standing_of.get(nickname)
        lines = sorted(self.lines_of.get(nickname, ()),
                       key=lambda ln: (self._stage_index(ln.stage), ln.round, ln.table))
        games = []
        for ln in lines:
            parts, total = self.line_points(ln)
            games.append({
                "stage": self.stage_name(ln.stage),
                "round": ln.round,
                "table": ln.table,
                "href": "../" + game_file(ln.stage, ln.round, ln.table),
                "seat": ln.seat,
                "role": role_name(ln.role, self.lang),
                "won": ln.won,
                "result": ui("win" if ln.won else "loss", self.lang),
                "parts": parts,
                "coefficient": points(ln.coefficient),
                "total": total,
                "substitute": ln.substitute,
            })
        penalties = []
        if stats is not None:
            for ap in stats.stats.applied_penalties:
                note = ui("excused", self.lang) if ap.excused else (ui("derived", self.lang) if ap.derived else "")
                penalties.append({"stage": self.stage_name(ap.stage), "round": ap.round or "",
                                  "reason": L.word(ap.reason.value, self.lang), "points": points(ap.points, self.places),
                                  "note": note})
        summary = None
        if stats is not None:
            s = stats.stats
            summary = {
                "places": stats.places if s.games else "", "total": points(s.total, self.places), "games": s.games,
                "wins": s.wins, "stages": [(self.stage_name(k), points(s.stage_points.get(k, ZERO), self.stage_places[k]))
                                           for k in self.keys if nickname in self.r.participants.get(k, ())],
                "extra": points(s.extra_points, self.places), "recognised_best": s.recognised_best,
                "best_move": points(s.best_move_points, self.places), "penalties": points(s.penalties, self.places),
                "shot_first": s.shot_first,
                "eligible": ui("yes" if s.eligible else "no", self.lang), "tiebreak": tiebreak_text(stats, self.lang),
                "rating": self.rating_of(nickname),
            }
        status = ""
        if pl is not None and pl.status is not PlayerStatus.PLAYING:
            status = L.word(pl.status.value, self.lang)
        return self.render("site/player.html", self.page(
            "../", "players", nickname, nickname=nickname, club=pl.club if pl else "", city=pl.city if pl else "",
            team=pl.team if pl and self.sides.teams else "",
            status=status, summary=summary, games=games, penalties=penalties,
            # the games stage by stage, each stage's name once above its games (one stage: no name):
            # a stage column pushed the result under the sticky points on a phone («поражени»)
            game_groups=[{"stage": stage, "games": list(rows)} for stage, rows in groupby(games, itemgetter("stage"))],
            upcoming=[{"title": a.title, "table": a.table, "seat": a.seat, "anchor": f"{slug(a.stage, limit=16)}-{a.round}"}
                      for a in self.seating.schedule(nickname) if not a.counted],
            item_names=self.item_heads(), sparkline=self.sparkline(nickname)))

    def rating_of(self, nickname: str) -> list[tuple[str, str]] | None:
        """With the preset's ``[rating]``: his rating before the tournament, after it and the change,
        as the scheme shows them (None without a rating)."""
        found = workbook_rating(self.r)
        line = found.lines.get(nickname) if found is not None else None
        if line is None:
            return None
        scheme = found.scheme  # type: ignore[union-attr]
        shown = [(ui("rating_before", self.lang), rating_text(scheme.shown(line.before)))]
        if line.games:
            shown += [(ui("rating_after", self.lang), rating_text(scheme.shown(line.overall))),
                      (ui("rating_change", self.lang), change_text(scheme.shown_change(line.change)))]
        return shown

    def sparkline(self, nickname: str) -> dict | None:
        places = self.race.places(nickname)
        if not any(p is not None for p in places):
            return None
        title = race_view.word("place_per_round", self.lang)
        shown = ", ".join("–" if p is None else str(p) for p in places)
        live = self.live.chances.get(nickname) if self.live else None
        return {"svg": race_view.sparkline(places, field=len(self.r.overall), title=f"{title}: {shown}"),
                "title": title, "places": shown,
                "mark": race_view.mark(self.live, nickname),
                "mark_title": race_view.mark_title(self.live, nickname, self.live_stage, self.lang),
                "bounds": race_view.word("bounds", self.lang, low=points(quantize(live.low), self.places),
                                          high=points(quantize(live.high), self.places))
                if live and live.remaining else "",
                "line": race_view.cut_line(self.live, nickname, self.lang)}

    def seating_page(self) -> str:
        """Every seated round, tables × seats; the rounds still to play first."""
        current = self.seating.current
        rounds = [{"title": r.title, "anchor": f"{slug(r.stage, limit=16)}-{r.round}", "played": r.played,
                   "current": r is current,
                   "tables": [{"table": t.table,
                               "seats": [{"player": n, "href": self.player_href.get(n, "")} for n in t.seats]}
                              for t in r.tables],
                   "by_name": self._seated_by_name(r)}
                  for r in self.seating.rounds]
        return self.render("site/seating.html", self.page("", "seating", ui("seating", self.lang), rounds=rounds,
                                                          draw=self._draw_report()))

    def _draw_report(self) -> dict | None:
        """The fairness report's figures under the seating — only of a stage the public sees seated
        (a hidden final's draw is not announced by its report)."""
        report = self.draw_figures
        shown = {self.stage_name(r.stage) for r in self.seating.rounds}
        if report is None or report.stage not in shown:
            return None
        return {"stage": report.stage, "summary": report.summary, "rows": [list(r) for r in report.rows]}

    def _seated_by_name(self, r: Round) -> list[dict]:
        """«where do I sit»: every player of the round, in Russian alphabetical order, with table and seat."""
        seated = [(name, t.table, seat) for t in r.tables for seat, name in enumerate(t.seats, start=1) if name]
        return [{"player": name, "href": self.player_href.get(name, ""), "table": table, "seat": seat}
                for name, table, seat in sorted(seated, key=lambda x: name_key(x[0]))]

    def players_index(self) -> str:
        rows = []
        for n in sorted(self.player_names, key=name_key):
            pl = self.t.player(n)
            rows.append({"player": n, "href": self.player_href[n], "club": pl.club if pl else "",
                         "city": pl.city if pl else "", "team": pl.team if pl else "",
                         "places": self.overall_place.get(n, "") if self.standing_of.get(n) and self.standing_of[n].stats.games else "",
                         "status": L.word(pl.status.value, self.lang) if pl and pl.status is not PlayerStatus.PLAYING else ""})
        return self.render("site/players.html", self.page("", "players", ui("players", self.lang), rows=rows,
                                                          has_teams=bool(self.sides.teams)))

    def entrants_page(self) -> Page:
        """«Участники» (issue 45): who is in and who waits, in order, with the places — never a contact."""
        view = entrants(self.t, self.preset.registration)
        for row in view["taking"]:
            row["href"] = self.player_href.get(row["player"], "")
        return self.render("site/entrants.html", self.page("", "entrants", ui("entrants", self.lang), **view))

    # -- games ------------------------------------------------------------------------------------
    def game(self, p: Protocol) -> str:
        counted = p.key in self.counted_keys
        by_seat = {ln.seat: ln for ln in self.lines_by_game.get(p.key, ()) if counted}
        rows = []
        for rec in sorted(p.seats, key=lambda s: s.seat):
            ln = by_seat.get(rec.seat)
            removal = ""
            if rec.removal is Removal.TEAM_DEFEAT:
                removal = L.word("team_defeat", self.lang)
            elif rec.removal is Removal.REMOVED:
                removal = ui("yes", self.lang)
            if removal and rec.removal_day:
                removal += f" ({rec.removal_day})"
            bm = ""
            if rec.best_move:
                bm = " ".join(str(x) for x in rec.best_move)
                if counted and rec.killed_night == 1:
                    bm += f" ({blacks_named(p, rec)} {ui('blacks_named', self.lang)})"
            parts, total = self.line_points(ln) if ln else (["" for _ in self.items], "")
            rows.append({
                "seat": rec.seat,
                "player": rec.player or "",
                "href": ("../" + self.player_href[rec.player]) if rec.player in self.player_href else "",
                "role": role_name(rec.role, self.lang),
                "black": rec.role is not None and rec.role.team is Team.BLACK,
                "fouls": rec.fouls or "",
                "killed": rec.killed_night or "",
                "voted": rec.voted_day or "",
                "removal": removal,
                "best_move": bm,
                "extra": _signed(rec.extra_points, self.stage_places.get(p.stage, self.places)),
                "comment": rec.comment,
                "parts": parts,
                "total": total,
                "substitute": bool(ln and ln.substitute),
            })
        winner = ""
        if p.winner is not None:
            winner = ui("red" if p.winner is Team.RED else "black", self.lang)
        probs = [{"cell": pr.cell, "severity": pr.severity.value, "message": pr.message(self.lang)}
                 for pr in self.problems_of.get(p.game_id, ())]
        coefficient = ""
        try:
            coefficient = points(self.preset.stage(p.stage).coefficient)
        except KeyError:
            pass
        return self.render("site/game.html", self.page(
            "../", "games", self.game_label(p.stage, p.round, p.table), sheet=p.sheet, stage=self.stage_name(p.stage),
            round_word=self.round_word(p.stage), round=p.round, table=p.table, judge=p.judge, checked_by=p.checked_by,
            winner=winner, counted=counted, rows=rows, item_names=self.item_heads(),
            coefficient=coefficient, problems=probs, states=state_words(self.states.get(p.game_id, ()), self.lang),
            errors=p.game_id in self.broken_sheets))

    def games_index(self) -> str:
        groups = []
        for key in self.keys + tuple(sorted({p.stage for p in self.protocols} - set(self.keys))):
            games = []
            for p in self.protocols:
                if p.stage != key or self.game_of.get(p.key) is not p:
                    continue
                winner = ""
                if p.winner is not None:
                    winner = ui("red" if p.winner is Team.RED else "black", self.lang)
                games.append({"round": p.round, "table": p.table, "href": game_file(p.stage, p.round, p.table),
                              "judge": p.judge, "winner": winner, "counted": p.key in self.counted_keys,
                              "scheduled": not p.finished and p.game_id not in self.broken_sheets,
                              "states": state_words(self.states.get(p.game_id, ()), self.lang)})
            known = {(g["round"], g["table"]) for g in games}
            for r in self.seating.in_order:  # seated games without a protocol yet
                if r.stage != key:
                    continue
                for t in r.tables:
                    if (r.round, t.table) not in known:
                        games.append({"round": r.round, "table": t.table, "href": "", "judge": "", "winner": "",
                                      "counted": False, "scheduled": True, "states": ""})
            games.sort(key=lambda g: (g["round"], g["table"]))
            if games:
                groups.append({"stage": self.stage_name(key), "round_word": self.round_word(key), "games": games})
        return self.render("site/games.html", self.page("", "games", ui("games", self.lang), groups=groups))

    # -- statistics ---------------------------------------------------------------------------------
    def statistics(self) -> str:
        games = self.r.counted
        red = sum(1 for p in games if p.winner is Team.RED)
        summary = [(ui("games_counted", self.lang), str(len(games)))]
        if games:
            summary.append((ui("red_wins", self.lang), str(red)))
            summary.append((ui("black_wins", self.lang), str(len(games) - red)))
            summary.append((ui("red_rate", self.lang), _percent(red, len(games))))
        summary.append((ui("best_moves_scored", self.lang), str(sum(1 for ln in self.r.lines if ln.items.get("best_move")))))
        own = [ln for ln in self.r.lines]
        seats = []
        for seat in range(1, 11):
            lines = [ln for ln in own if ln.seat == seat]
            wins = sum(ln.won for ln in lines)
            seats.append({"seat": seat, "games": len(lines), "wins": wins, "rate": _percent(wins, len(lines)),
                          "shot_first": sum(ln.shot_first for ln in lines)})
        roles = []
        for role in ("don", "sheriff", "mafia", "civilian"):
            lines = [ln for ln in own if ln.role.value == role]
            wins = sum(ln.won for ln in lines)
            roles.append({"role": L.word(role, self.lang), "games": len(lines), "wins": wins, "rate": _percent(wins, len(lines)),
                          "extra": points(sum((ln.item("extra") for ln in lines), ZERO), self.places),
                          "best": sum(ln.recognised_best for ln in lines)})
        tables = []
        for key in self.keys:
            for table in sorted({p.table for p in games if p.stage == key}):
                tg = [p for p in games if p.stage == key and p.table == table]
                r = sum(1 for p in tg if p.winner is Team.RED)
                tables.append({"stage": self.stage_name(key), "table": table, "games": len(tg), "red": r,
                               "black": len(tg) - r, "rate": _percent(r, len(tg))})
        return self.render("site/statistics.html", self.page(
            "", "statistics", ui("statistics", self.lang), summary=summary, seats=seats, roles=roles, tables=tables,
            nominations=nominations(self.r, self.lang)))

    # -- teams and classifications ------------------------------------------------------------------
    def side_nav(self) -> list[tuple[str, str, str]]:
        """(file, text, id) of the team and classification pages, for a menu (a season's too)."""
        items = [(TEAMS_FILE, ui("teams", self.lang), "teams")] if self.sides.teams else []
        return items + [(classification_file(c.name), f"{ui('classification', self.lang)}: {c.name}",
                         "classification:" + c.name) for c in self.sides.classifications]

    def side_pages(self, frame: Callable[..., dict] | None = None) -> Iterator[tuple[str, Page]]:
        """The team page and each classification's, in ``frame`` (a club season's, default the tournament's)."""
        if self.sides.teams:
            yield TEAMS_FILE, self.teams_page(frame)
        for c in self.sides.classifications:
            yield classification_file(c.name), self.classification_page(c, frame)

    def teams_page(self, frame: Callable[..., dict] | None = None) -> Page:
        """Every team with its place and points, and its members with theirs (issue 36 §4);
        ``frame``: the page's frame (a club season's, default the tournament's)."""
        teams = [{"places": t.places if any(m.games for m in t.members) else "", "team": t.team,
                  "points": points(t.points, self.places), "tiebreak": team_tiebreak_text(t.tiebreak, self.lang),
                  "members": [{"player": m.player, "href": self.player_href.get(m.player, player_file(m.player)),
                               "places": m.places if m.games else "", "points": points(m.points, self.places),
                               "games": m.games,
                               "counted": m.counted} for m in t.members]}
                 for t in self.sides.teams]
        return self.render("site/teams.html", (frame or self.page)("", "teams", ui("teams", self.lang), teams=teams,
                                                                   count=team_count_text(self.sides, self.lang)))

    def classification_page(self, c: Classification, frame: Callable[..., dict] | None = None) -> Page:
        rows = [{"places": e.places if e.standing.stats.games else "", "player": e.standing.stats.player,
                 "href": self.player_href.get(e.standing.stats.player, player_file(e.standing.stats.player)),
                 "club": e.standing.stats.club, "overall": e.standing.places if e.standing.stats.games else "",
                 "total": points(e.standing.stats.total, self.places), "games": e.standing.stats.games}
                for e in c.entries]
        return self.render("site/classification.html", (frame or self.page)(
            "", "classification:" + c.name, f"{ui('classification', self.lang)}: {c.name}", name=c.name, rows=rows))

    def render(self, template: str, context: dict) -> Page:
        return Page(template, context)

    def pages(self) -> Iterator[tuple[str, str | Page]]:
        """Every file of the site, one at a time: (path relative to the site folder, its text or
        the :class:`Page` that renders it).  A writer that takes them as they come never holds the
        whole site (2,000 pages at 1000 players) in memory."""
        if self.t.season:  # a club season: its table, evenings and players instead of stages and race
            yield from self._season_pages()
            return
        yield "style.css", (TEMPLATES / "site" / "style.css").read_text(encoding="utf-8")
        yield "status.css", status_css(status_lines(self.progress, self.updated, self.lang))
        yield "index.html", self.index()
        yield "players.html", self.players_index()
        if has_registration(self.t):
            yield ENTRANTS_FILE, self.entrants_page()
        yield "games.html", self.games_index()
        yield "statistics.html", self.statistics()
        yield "race.html", self.race_page()
        if self.seating.rounds:
            yield "seating.html", self.seating_page()
        yield from screen_files(self.r, language=self.lang, progress=self.progress, updated=self.updated,
                                link=self.link).items()
        for key in self.shown_stages():
            yield stage_file(key), self.stage(key)
        yield from self.side_pages()
        for n in self.player_names:
            yield self.player_href[n], self.player(n)
        for key, p in self.game_of.items():
            yield game_file(*key), self.game(p)

    def _season_pages(self) -> Iterator[tuple[str, str | Page]]:
        from sheets_sync.render.season_site import SeasonPages  # loaded for a club season only

        pages = SeasonPages(self)
        yield "style.css", (TEMPLATES / "site" / "style.css").read_text(encoding="utf-8")
        yield from pages.pages()  # status.css, players.html and statistics.html in the season's frame too
        yield from screen_files(self.r, language=self.lang, progress=self.progress, updated=self.updated,
                                link=self.link).items()

    def files(self) -> dict[str, str]:
        return {rel: page if isinstance(page, str) else page.text() for rel, page in self.pages()}


class Page:
    """A page to render: its template and context, and the key of both (see
    :mod:`sheets_sync.render.page_keys`), so that a writer can keep the file the last sync
    rendered from the same inputs instead of rendering it again."""

    __slots__ = ("template", "context")

    def __init__(self, template: str, context: dict):
        self.template, self.context = template, context

    def key(self) -> str | None:
        return page_key(self.template, self.context)

    def text(self) -> str:
        return environment().get_template(self.template).render(**self.context)


def _percent(part: int, whole: int) -> str:
    if not whole:
        return ""
    return f"{(Decimal(part * 100) / whole).quantize(Decimal('1'))}%"


def status_css(lines: list[str]) -> str:
    """The lines every page shows that change with every sync (when it was made, games counted),
    as the generated text of ``.progress-live``: one small file changes, the pages need not."""
    text = " · ".join(lines).replace("\\", "\\\\").replace('"', '\\"')
    return f'.progress-live::after {{ content: "{text}"; }}\n'


def site_files(results: Results, problems: Sequence[Problem] = (), *, language: str,
               progress: Progress | None = None, updated: datetime | None = None) -> dict[str, str]:
    """Every page of the site: ``{path relative to the site folder: text}``, deterministic.
    ``progress``: of the full results when these are the published ones (a hidden final);
    ``updated``: the time the pages say they were made (none shown when None)."""
    return _Site(results, problems, language, progress, updated).files()


def write_site(results: Results, problems: Sequence[Problem], out_dir: Path, *, language: str,
               progress: Progress | None = None, updated: datetime | None = None,
               live: Liveness | None | Ask = ASK, link: str | None = None, draw_figures=None) -> list[Path]:
    """Write the site into ``out_dir``; return the files that changed.  Stale pages are removed.
    ``link``: the site's address where it is hosted (the hall's screen prints it; else «Ссылка»)."""
    files: set[str] = set()
    written = []
    for rel, page in _Site(results, problems, language, progress, updated, live, link, draw_figures).pages():
        files.add(rel)
        path = out_dir / rel
        key = None
        if isinstance(page, Page):
            key = page.key()
            if reuse_output(path, key):  # rendered by the last sync from the same inputs, still there
                continue
            page = page.text()
        if write_text_atomic(path, page, durable=False, inputs=key):
            written.append(path)
    written.sort()
    for sub in ("players", "games"):
        folder = out_dir / sub
        if folder.is_dir():
            for old in sorted(folder.glob("*.html")):
                if f"{sub}/{old.name}" not in files:
                    old.unlink()
    for single in ("seating.html", TEAMS_FILE, ENTRANTS_FILE):
        if single not in files and (out_dir / single).exists():
            (out_dir / single).unlink()
    for old in sorted([*out_dir.glob("stage-*.html"), *out_dir.glob("evening-*.html"),
                       *out_dir.glob("classification-*.html")]):
        if old.name not in files:
            old.unlink()
    return written
