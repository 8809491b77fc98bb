"""A club season's site: the season table, the evenings and each evening's page, the players'
pages with their history, role statistics and points after each evening.

The season's pages replace the tournament's standings, stages, games and race: every page
has the season's menu and status (an evening's page its own), and links only to the season's
pages (tests/test_dead_links.py crawls them).  The pages are built from the site's own lookups
(``site``: the :class:`sheets_sync.render.site` object that asks for them), so that the look
is the same; the games' statistics are the tournament's, in the season's frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scoring.collation import name_key
from scoring.model import Team
from scoring.race import Race, RacePoint
from scoring.season import Evening, Season, SeasonStanding, season
from sheets_sync.render import race as race_view
from sheets_sync.render.json_out import points
from sheets_sync.render.measure import name_width_class
from sheets_sync.render.progress_text import evening_date, season_headline, updated_line
from sheets_sync.render.season_text import (
    COUNT_COLUMNS,
    NUMBER_COLUMNS,
    RATING_VALUES,
    cell_text,
    change_text,
    rating_text,
    column_header,
    column_title,
    column_value,
    evening_status,
    evening_title,
    main_value,
    main_word,
    movement_text,
    place_text,
    provisional_note,
    season_columns,
    season_covers,
)
from sheets_sync.render.tabs import tiebreak_text
from sheets_sync.render.words import role_name, ru_en, ui

__all__ = ["SeasonPages", "evening_file"]


def evening_file(date: str) -> str:
    """The page of the evening of ``date`` (ISO); games without a date share one page."""
    return f"evening-{date or 'undated'}.html"


def _css(selector: str, lines: list[str]) -> str:
    """The generated text of a status line (as :func:`sheets_sync.render.site.status_css` writes it)."""
    text = " · ".join(lines).replace("\\", "\\\\").replace('"', '\\"')
    return f'{selector}::after {{ content: "{text}"; }}\n'


def _cell_class(key: str) -> str:
    """A column's classes: numbers right-aligned; «why» wraps (and, on a phone, is left out like every .opt)."""
    if key == "tiebreak":
        return "why opt col-tiebreak"
    if key in NUMBER_COLUMNS or key in COUNT_COLUMNS or key in RATING_VALUES or key in ("win_rate", "rating_change"):
        return f"num col-{key}"
    return f"nowrap col-{key}"


def _percent(share) -> str:
    return "" if share is None else f"{round(share * 100)}%"


class SeasonPages:
    """The pages of a season; ``site`` gives the page frame, the renderer and the players' files."""

    def __init__(self, site: Any):
        self.site = site
        self.lang = site.lang
        self.season: Season = season(site.r)
        self.columns = season_columns(self.season, site.r.preset.season.columns)

    # -- the frame --------------------------------------------------------------------------------
    def nav(self, root: str, current: str) -> list[dict]:
        items = [("index.html", ui("standings", self.lang), "index"),
                 ("evenings.html", ui("evenings", self.lang), "evenings"),
                 ("race.html", ru_en("Гонка", "Race", self.lang), "race"),
                 ("players.html", ui("players", self.lang), "players"),
                 ("statistics.html", ui("statistics", self.lang), "statistics")]
        items += self.site.side_nav()  # the Players tab's «Команда» / «Зачёт», ranked by the season's own table
        return [{"href": root + href, "text": text, "id": key, "current": key == current} for href, text, key in items]

    def page(self, root: str, current: str, title: str, **extra: Any) -> dict:
        context = self.site.page(root, current, title, **extra)
        context["nav"] = self.nav(root, current)
        context["progress_status"] = {"headline": self.headline()}
        return context

    def headline(self) -> str:
        return season_headline(len(self.season.evenings), self.season.games, self.lang)

    # -- the season table -------------------------------------------------------------------------
    def row(self, e: SeasonStanding, root: str) -> dict:
        st = e.stats
        why = tiebreak_text(e.standing, self.lang) if e.ranked else \
            ru_en(f"до рейтинга ещё игр: {e.games_needed}", f"games still needed to be ranked: {e.games_needed}",
                  self.lang)
        cells = []
        for key in self.columns:
            value = column_value(self.season, e, key, self.lang, why=why)
            cells.append({"text": cell_text(key, value), "cls": _cell_class(key)})
        return {"places": place_text(e), "player": st.player, "club": st.club, "provisional": e.provisional,
                "href": root + self.site.player_href.get(st.player, ""), "total": points(st.total),
                "average": points(e.average), "main": main_value(self.season, e), "games": st.games, "wins": st.wins,
                "needed": e.games_needed, "movement": movement_text(e, self.lang), "tiebreak": why, "cells": cells}

    def index(self):
        s = self.season
        ranking = ui(f"ranked_by_{s.ranking}", self.lang)
        played = [e for e in s.table if e.stats.games]
        first_provisional = next((e.player for e in played if e.provisional), None)
        return self.site.render("site/season.html", self.page(
            "", "index", self.headline(), ranking=ranking, by_average=s.ranking == "average",
            main=main_word(s, self.lang),
            columns=[{"cls": _cell_class(k), "text": column_header(k, self.lang), "title": column_title(k, self.lang)}
                     for k in self.columns],
            covers=season_covers(s, self.lang), note=provisional_note(s, self.lang),
            rows=[{**self.row(e, ""), "group_start": e.player == first_provisional and e is not played[0]}
                  for e in played],
            name_class=name_width_class(e.player for e in played),
            unplayed_title=ru_en("Ещё не играли в этом сезоне", "Not played this season yet", self.lang),
            unplayed=[self.row(e, "") for e in s.table if not e.stats.games],
            evenings=[self.evening_link(e) for e in reversed(s.evenings)][:5]))

    # -- the evenings -----------------------------------------------------------------------------
    def evening_link(self, e: Evening) -> dict:
        return {"href": evening_file(e.date), "title": evening_title(e, self.lang),
                "status": evening_status(e, self.lang, named=False), "games": len(e.games), "players": len(e.standings)}

    def evenings_index(self):
        return self.site.render("site/evenings.html", self.page(
            "", "evenings", ui("evenings", self.lang), covers=season_covers(self.season, self.lang),
            evenings=[self.evening_link(e) for e in reversed(self.season.evenings)]))

    def evening(self, e: Evening):
        rating = self.season.rating
        changes = rating.ratings.event_changes(e.date) if rating is not None else {}
        rows = [{"places": st.places, "player": st.stats.player, "href": self.site.player_href.get(st.stats.player, ""),
                 "points": points(st.stats.total), "games": st.stats.games, "wins": st.stats.wins,
                 "tiebreak": tiebreak_text(st, self.lang),
                 "rating_change": change_text(rating.scheme.shown_change(changes[st.stats.player]))
                 if rating is not None and st.stats.player in changes else ""} for st in e.standings]
        games = [{"game": p.round, "table": p.table, "winner": ui("red_won" if p.winner is Team.RED else "black_won",
                                                                   self.lang), "judge": p.judge} for p in e.games]
        games += [{"game": p.round, "table": p.table, "judge": p.judge, "waits": True,
                   "winner": ru_en("ждёт исправления, не засчитана", "awaiting a correction, not counted", self.lang)
                   if error else ru_en("не закончена, не засчитана", "not finished, not counted", self.lang)}
                  for p, error in e.waiting_games]
        games.sort(key=lambda g: (g["game"], g["table"]))
        title = evening_title(e, self.lang)
        context = self.page("", "evenings", title, rows=rows, games=games, waiting=e.waiting,
                            waiting_text=evening_status(e, self.lang), rated=rating is not None)
        # the evening's own status under its title, not the season's «засчитано игр» (status.css: the time only)
        context["progress_status"] = {"headline": evening_status(e, self.lang), "live": "updated-only"}
        return self.site.render("site/evening.html", context)

    # -- the season's players and statistics (the frame of the season, not the tournament's) ------
    def players_index(self):
        s = self.season
        shown = {e.player: place_text(e) for e in s.table}
        rows = []
        for name in sorted(s.players, key=name_key):
            pl = self.site.t.player(name)
            rows.append({"player": name, "href": self.site.player_href[name], "club": pl.club if pl else "",
                         "city": pl.city if pl else "", "places": shown.get(name, ""), "status": ""})
        return self.site.render("site/players.html", self.page("", "players", ui("players", self.lang), rows=rows))

    def statistics(self):
        page = self.site.statistics()  # the games' statistics are the tournament's; the frame is the season's
        page.context.update(nav=self.nav("", "statistics"), progress_status={"headline": self.headline()})
        return page

    def status_css(self) -> str:
        """«Обновлено …» and the games counted (status.css, see site.status_css); an evening's page: the time only."""
        updated = updated_line(self.site.updated, self.lang)
        counted = ru_en(f"засчитано игр: {self.season.games}", f"games counted: {self.season.games}", self.lang)
        if self.season.waiting:
            counted += ru_en(f", ждут исправления или окончания: {self.season.waiting}",
                             f", awaiting a correction or a winner: {self.season.waiting}", self.lang)
        return _css(".progress-live", [x for x in (updated, counted) if x]) + _css(".progress-live.updated-only",
                                                                                    [updated] if updated else [])

    # -- the race over the evenings ---------------------------------------------------------------
    def race(self) -> Race:
        """The season's table after each evening as the tournament's race (one point an evening)."""
        return Race(points=tuple(RacePoint(stage="season", round=i + 1, places=p.places, shown=p.shown)
                                 for i, p in enumerate(self.season.race)))

    def race_page(self):
        top = 20
        title = ru_en("Место после каждого вечера", "Place after each evening", self.lang)
        chart = race_view.race_chart(self.race(), top=top, title=title, href=self.site.player_href,
                                     labels=[evening_date(p.date)[:5] for p in self.season.race])
        intro = ru_en(f"Место в сезоне после каждого вечера у {top} лучших на сейчас; считается заново по протоколам "
                      "(ниже минимума игр место предварительное).",
                      f"The season place after each evening of the {top} best now, worked out again from the "
                      "protocols (below the minimum of games a place is provisional).", self.lang)
        return self.site.render("site/race.html", self.page(
            "", "race", ru_en("Гонка по вечерам", "Race over the evenings", self.lang), chart=chart, intro=intro,
            empty=ru_en("Ни одной засчитанной игры.", "No counted game yet.", self.lang)))

    def evening_places(self, nickname: str) -> list[dict]:
        """The player's place in the season table after every evening (— before his first games)."""
        return [{"date": evening_date(p.date), "href": "../" + evening_file(p.date),
                 "place": (f"({p.shown[nickname]})" if nickname in p.provisional else p.shown[nickname])
                 if nickname in p.shown else "—"} for p in self.season.race]

    # -- the players ------------------------------------------------------------------------------
    def player(self, nickname: str):
        s = self.season
        ps = s.players.get(nickname)
        entry = next((e for e in (*s.standings, *s.below_minimum) if e.player == nickname), None)
        history = [{"date": evening_date(h.date), "href": "../" + evening_file(h.date), "game": h.game,
                    "table": h.table, "seat": h.seat, "role": role_name(h.role, self.lang),
                    "won": h.won, "result": ui("win" if h.won else "loss", self.lang), "points": points(h.points)}
                   for h in (ps.history if ps else ())]
        roles = [{"role": role_name(r.role, self.lang), "games": r.games, "wins": r.wins,
                  "rate": _percent(r.win_rate)} for r in (ps.roles if ps else ())]
        totals = [total for _, total in (ps.after_evening if ps else ())]
        title = ui("points_over_time", self.lang)
        shown = ", ".join(points(t) for t in totals)
        spark = {"svg": race_view.points_sparkline(totals, title=f"{title}: {shown}"), "title": title,
                 "places": shown, "mark": "", "mark_title": "", "bounds": ""} if totals else None
        player = self.site.t.player(nickname)
        return self.site.render("site/season-player.html", self.page(
            "../", "players", nickname, nickname=nickname, club=player.club if player else "",
            city=player.city if player else "", summary=self.row(entry, "../") if entry else None,
            ranked=bool(entry and entry.ranked), history=history, roles=roles, sparkline=spark,
            best_moves=ps.best_moves if ps else 0, blacks_named=ps.blacks_named if ps else 0,
            evening_places=self.evening_places(nickname), places_line=race_view.sparkline(
                [p.places.get(nickname) for p in s.race], field=max(2, len(s.table)),
                title=ru_en("Место после каждого вечера", "Place after each evening", self.lang)),
            accuracy=_percent(ps.best_move_accuracy) if ps else "", rating=self.rating_summary(entry),
            rating_after=self.rating_after(nickname)))

    def rating_summary(self, entry: SeasonStanding | None) -> list[tuple[str, str]] | None:
        """With the preset's ``[rating]``: his rating, side ratings, rated games and the last
        evening's change, as the season table shows them (None without a rating)."""
        if self.season.rating is None or entry is None:
            return None
        keys = ("rating", "rating_red", "rating_black", "rated_games")
        shown = [(ui(k, self.lang), cell_text(k, column_value(self.season, entry, k, self.lang)) or "—") for k in keys]
        change = column_value(self.season, entry, "rating_change", self.lang)
        return [*shown, (ui("rating_last_evening", self.lang), cell_text("rating_change", change) or "—")]

    def rating_after(self, nickname: str) -> list[dict] | None:
        """His rating after each evening of the race, as shown («—» before his first game)."""
        rating = self.season.rating
        if rating is None:
            return None
        after = [(p.date, rating.after(p.date).get(nickname)) for p in self.season.race]
        return [{"date": evening_date(day), "href": "../" + evening_file(day),
                 "rating": "—" if value is None else rating_text(rating.scheme.shown(value))} for day, value in after]

    def pages(self) -> Iterator[tuple[str, Any]]:
        """The season's own pages: the table, the evenings, the players' pages."""
        yield "status.css", self.status_css()
        yield "index.html", self.index()
        yield "evenings.html", self.evenings_index()
        yield "race.html", self.race_page()
        yield "players.html", self.players_index()
        yield "statistics.html", self.statistics()
        for e in self.season.evenings:
            yield evening_file(e.date), self.evening(e)
        yield from self.site.side_pages(frame=self.page)
        for name in self.season.players:  # the Players tab's players: never a name typed elsewhere
            yield self.site.player_href[name], self.player(name)
