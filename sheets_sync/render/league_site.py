"""The league's outputs (issue 36 §2): ``league.json`` (schemas/league.schema.json) and the league
site — the rating table, each player's career page with the rating's curve, the events, the
series — in the tournament site's visual language (its style.css), Russian or English.

Ratings are rounded here, for display only (:meth:`RatingScheme.shown`): the replay keeps floats.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from scoring.collation import name_key
from scoring.rating.scheme import RatingScheme
from sheets_sync.league.league_file import League
from sheets_sync.render.site import player_file
from sheets_sync.render.templates import TEMPLATES, environment

__all__ = ["WORDS", "league_document", "league_json", "league_site_files", "write_league_outputs", "curve_svg"]

WORDS: Mapping[str, Mapping[str, str]] = {
    "ru": {"rating": "Рейтинг", "events": "Турниры и сезоны", "series": "Серия", "player": "Игрок", "place": "Место",
           "red": "Красные", "black": "Чёрные", "games": "Игр", "wins": "Побед", "last_game": "За игру",
           "last_event": "За турнир/вечер", "unlisted": "Ещё не в рейтинге (меньше {n} игр)", "needs": "ещё игр",
           "event": "Турнир", "date": "Дата", "kind": "Вид", "players": "Игроков", "points": "Баллы",
           "best_moves": "Лучших ходов", "career": "Карьера", "curve": "Рейтинг по играм", "stars": "Звёзд",
           "counted": "Зачтено", "club": "клубный", "tournament": "турнир", "elite": "элитный турнир",
           "red_wins": "Побед красными", "black_wins": "Побед чёрными", "scheme": "Формула", "menu": "Разделы",
           "rated_games": "Рейтинговых игр", "change": "Изменение", "events_n": "Турниров", "before_after": "Рейтинг до → после"},
    "en": {"rating": "Rating", "events": "Tournaments and seasons", "series": "Series", "player": "Player",
           "place": "Place", "red": "Red", "black": "Black", "games": "Games", "wins": "Wins", "last_game": "Last game",
           "last_event": "Last event", "unlisted": "Not listed yet (fewer than {n} games)", "needs": "games to go",
           "event": "Event", "date": "Date", "kind": "Kind", "players": "Players", "points": "Points",
           "best_moves": "Best moves", "career": "Career", "curve": "Rating by game", "stars": "Stars",
           "counted": "Counted", "club": "club", "tournament": "tournament", "elite": "elite tournament",
           "red_wins": "Red wins", "black_wins": "Black wins", "scheme": "Formula", "menu": "Sections",
           "rated_games": "Rated games", "change": "Change", "events_n": "Events", "before_after": "Rating before → after"},
}


def _number(value: Decimal) -> int | float:
    """A rounded Decimal as a JSON number (an integer when it has no fraction)."""
    return int(value) if value == value.to_integral_value() else float(value)


def _signed(value: Decimal) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def start_of(league: League, player: str) -> float:
    """The player's overall rating before his first game (internal units): typed in, or the scheme's."""
    typed = league.starts.get(player)
    if typed is not None and typed.overall is not None:
        return league.scheme.internal(typed.overall)
    return league.scheme.start_overall


def _curves(league: League) -> dict[str, list[tuple[str, float, float]]]:
    """Each player's overall rating (internal units) after each of his games and that game's change,
    in the played order."""
    current: dict[str, float] = {}
    curves: dict[str, list[tuple[str, float, float]]] = {}
    for change in league.ratings.history:
        for seat, delta in zip(change.game.seats, change.changes):
            current[seat.player] = current.get(seat.player, start_of(league, seat.player)) + delta
            curves.setdefault(seat.player, []).append((change.game.id, current[seat.player], delta))
    return curves


def rating_rows(league: League) -> list[dict[str, Any]]:
    scheme, ratings = league.scheme, league.ratings
    last_game = ratings.last_changes()
    last_event_of = {s.player: c.game.event for c in ratings.history for s in c.game.seats}
    per_event = _event_changes(league)
    listed = {p.entry.player: p for p in ratings.listed()}
    rows = []
    for player in sorted(ratings.players, key=lambda p: (listed[p].place if p in listed else 10**9, name_key(p))):
        r = ratings.players[player]
        place = listed.get(player)
        last_event = per_event.get(last_event_of.get(player, ""), {}).get(player, 0.0)
        rows.append({"player": player, "listed": place is not None, "place": place.place if place else None,
                     "rating": scheme.shown(r.overall), "red": scheme.shown(r.red), "black": scheme.shown(r.black),
                     "games": r.games, "red_games": r.red_games, "black_games": r.black_games, "wins": r.wins,
                     "last_game": scheme.shown_change(last_game.get(player, 0.0)),
                     "last_event": scheme.shown_change(last_event),
                     "needs": max(0, scheme.min_games - r.games),
                     # the floats the replay keeps (internal units: the scheme's offset not added), beside the shown
                     "exact": {"rating": r.overall, "red": r.red, "black": r.black,
                               "last_game": last_game.get(player, 0.0), "last_event": last_event}})
    return rows


def _event_changes(league: League) -> dict[str, dict[str, float]]:
    """Each event's rating changes per player, in one pass over the history."""
    changes: dict[str, dict[str, float]] = {data.id: {} for _, data in league.events}
    for change in league.ratings.history:
        totals = changes.setdefault(change.game.event, {})
        for seat, delta in zip(change.game.seats, change.changes):
            totals[seat.player] = totals.get(seat.player, 0.0) + delta
    return changes


def _before_after(league: League) -> dict[tuple[str, str], tuple[float, float]]:
    """(player, event) -> his overall rating before the event's first game and after its last."""
    current: dict[str, float] = {}
    spans: dict[tuple[str, str], tuple[float, float]] = {}
    for change in league.ratings.history:
        for seat, delta in zip(change.game.seats, change.changes):
            before = current.get(seat.player, start_of(league, seat.player))
            current[seat.player] = before + delta
            key = (seat.player, change.game.event)
            spans[key] = (spans[key][0] if key in spans else before, current[seat.player])
    return spans


def _careers(league: League) -> dict[str, list[dict[str, Any]]]:
    careers: dict[str, list[dict[str, Any]]] = {}
    per_event = _event_changes(league)
    spans = _before_after(league)
    shown = league.scheme.shown
    for event, data in league.events:
        for ln in data.lines:
            before, after = spans.get((ln.player, data.id), (None, None))
            careers.setdefault(ln.player, []).append({
                "event": data.id, "name": data.name, "date": data.date, "place": ln.place, "places": ln.places,
                "points": ln.points, "games": ln.games, "wins": ln.wins, "red_games": ln.red_games,
                "red_wins": ln.red_wins, "black_games": ln.black_games, "black_wins": ln.black_wins,
                "best_moves": ln.best_moves,
                "rating_change": league.scheme.shown_change(per_event[data.id].get(ln.player, 0.0)),
                "rating_before": None if before is None else shown(before),
                "rating_after": None if after is None else shown(after),
                "exact": {"rating_change": per_event[data.id].get(ln.player, 0.0), "rating_before": before,
                          "rating_after": after}})
    return careers


def _events(league: League) -> list[dict[str, Any]]:
    return [{"id": data.id, "name": data.name, "date": data.date, "kind": event.kind, "stars": event.stars,
             "games": len(data.games), "players": len(data.lines)} for event, data in league.events]


def league_document(league: League) -> dict[str, Any]:
    """league.json as a dict (numbers rounded as shown)."""
    scheme = league.scheme
    curves = _curves(league)
    careers = _careers(league)
    rating = [{**row, **{k: _number(row[k]) for k in ("rating", "red", "black", "last_game", "last_event")}}
              for row in rating_rows(league)]
    players = {p: {"events": [{**e, "points": str(e["points"]), "rating_change": _number(e["rating_change"]),
                               **{k: None if e[k] is None else _number(e[k]) for k in ("rating_before", "rating_after")}}
                              for e in careers.get(p, [])],
                   "curve": [{"game": g, "rating": _number(scheme.shown(v)), "change": _number(scheme.shown_change(d)),
                              "exact": {"rating": v, "change": d}} for g, v, d in curves.get(p, [])]}
               for p in sorted(league.ratings.players, key=name_key)}
    document: dict[str, Any] = {
        "name": league.file.name, "language": league.file.language,
        "scheme": {"id": scheme.id, "name": scheme.name, "min_games": scheme.min_games, "offset": scheme.offset},
        "events": _events(league),
        "rating": rating, "players": players, "series": None}
    if league.series is not None:
        document["series"] = [{"place": p.place, "player": p.entry.player, "points": str(p.entry.points),
                               "events": p.entry.events, "counted": [[e, str(v)] for e, v in p.entry.counted],
                               "dropped": [[e, str(v)] for e, v in p.entry.dropped]} for p in league.series]
    return document


def league_json(league: League) -> str:
    return json.dumps(league_document(league), ensure_ascii=False, indent=2) + "\n"


def curve_svg(points: list[float], scheme: RatingScheme, *, width: int = 320, height: int = 80) -> str:
    """The rating's curve as an inline SVG polyline: ``values`` from the start, one after each game."""
    values = list(points) or [scheme.start_overall]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / max(1, len(values) - 1)
    coords = " ".join(f"{i * step:.1f},{height - 4 - (v - low) / span * (height - 8):.1f}" for i, v in enumerate(values))
    return (f'<svg class="curve" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{scheme.shown(low)}–{scheme.shown(high)}"><polyline fill="none" stroke="currentColor" '
            f'stroke-width="2" points="{coords}"/></svg>')


def _context(league: League, root: str, current: str) -> dict[str, Any]:
    lang = league.file.language
    w = WORDS[lang]
    nav = [{"href": f"{root}index.html", "text": w["rating"], "current": current == "index"},
           {"href": f"{root}events.html", "text": w["events"], "current": current == "events"}]
    if league.series is not None:
        nav.append({"href": f"{root}series.html", "text": w["series"], "current": current == "series"})
    return {"lang": lang, "w": w, "root": root, "nav": nav, "league": league.file.name or w["rating"],
            "scheme": league.scheme, "signed": _signed, "player_href": lambda p: root + player_file(p)}


def league_site_files(league: League) -> dict[str, str]:
    """Every page of the league site: relative path -> text."""
    env = environment()
    rows = rating_rows(league)
    files = {"style.css": (TEMPLATES / "site" / "style.css").read_text(encoding="utf-8")}
    files["index.html"] = env.get_template("league/index.html").render(
        **_context(league, "", "index"), title=_context(league, "", "index")["w"]["rating"],
        listed=[r for r in rows if r["listed"]], unlisted=[r for r in rows if not r["listed"]])
    ctx = _context(league, "", "events")
    files["events.html"] = env.get_template("league/events.html").render(
        **ctx, title=ctx["w"]["events"], events=_events(league))
    if league.series is not None:
        ctx = _context(league, "", "series")
        files["series.html"] = env.get_template("league/series.html").render(**ctx, title=ctx["w"]["series"],
                                                                             series=league.series)
    curves, careers = _curves(league), _careers(league)
    by_player = {r["player"]: r for r in rows}
    for player in league.ratings.players:
        ctx = _context(league, "../", "player")
        values = [start_of(league, player), *(v for _, v, _ in curves.get(player, []))]
        files[player_file(player)] = env.get_template("league/player.html").render(
            **ctx, title=player, row=by_player[player], events=careers.get(player, []),
            svg=curve_svg(values, league.scheme),
            curve_range=f"{league.scheme.shown(min(values))}–{league.scheme.shown(max(values))}")
    return files


def write_league_outputs(league: League, out: Path) -> list[Path]:
    """OUT/league.json and OUT/site/…; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "league.json"]
    written[0].write_text(league_json(league), encoding="utf-8")
    for name, content in league_site_files(league).items():
        path = out / "site" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        written.append(path)
    return written
