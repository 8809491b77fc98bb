"""The hall's screen: ``screen.html`` (standings, top rows) and ``screen-2.html`` (the next
round's seating), big type for a TV or a projector; in a club season the evening's standings
and the season's.

Each page reloads itself with a meta refresh (no JavaScript) and hands over to the other, so a
screen left on ``screen.html`` alternates between the two and shows an edit to a protocol at
the next reload (``watch --serve`` serves the files as the watch rewrites them).  The next round
is derived from the tournament's seating: the first round, in stage order, with a scheduled
game that is not counted yet.  Pure: results in, ``{file: html}`` out.
"""

from __future__ import annotations

from datetime import datetime

from scoring.progress import Progress, progress as progress_of
from scoring.standings import Results
from sheets_sync.render.json_out import points
from sheets_sync.render.progress_text import (headline, season_headline, season_status_lines,
                                               status_lines)
from sheets_sync.render.seating import Round, SeatingViews
from sheets_sync.render.templates import environment
from sheets_sync.render.words import ui

__all__ = ["SCREEN_ROWS", "SCREEN_SECONDS", "next_round", "screen_files", "qr_svg"]

# What a TV across a hall can show in type read from the back rows; not a regulation number.
SCREEN_ROWS = 12
# Seconds each of the two pages stays before the other: long enough to find one's name.
SCREEN_SECONDS = 20


def next_round(results: Results, language: str = "ru") -> Round | None:
    """The first round, in stage order, with a scheduled game not counted yet (a hidden stage's
    left out): the seating page's current round."""
    return SeatingViews(results, language, hidden=results.hidden).current


def qr_svg(address: str) -> str:
    """A QR code of ``address`` as inline SVG (segno: pure Python; no script, no file of its own), its
    size set by the page's style."""
    import segno  # only where a screen has an address to show

    return segno.make(address, error="m").svg_inline(scale=1, border=2, dark="#000", light="#fff", omitsize=True)


def _link(address: str | None) -> dict | None:
    """Where the full standings are, as the hall's screen prints it (issue 43 §8: «Вся таблица — на
    сайте турнира» without an address): the address and its QR code."""
    address = (address or "").strip()
    return {"address": address, "qr": qr_svg(address)} if address else None


def screen_files(results: Results, *, language: str, progress: Progress | None = None,
                 updated: datetime | None = None, link: str | None = None) -> dict[str, str]:
    """``screen.html`` and ``screen-2.html`` (the second only alternates when there is a next round),
    titled by the tournament's progress like every page (``progress`` of the full results when
    these are the published ones; ``updated`` the time the pages say they were made; ``link`` the
    site's address the screen prints with its QR code: the hosted site's, else the Tournament tab's
    «Ссылка»)."""
    preset = results.preset
    if progress is None:
        progress = progress_of(results)
    site_link = _link(link or results.tournament.link)
    if results.tournament.season:
        return _season_screen(results, language=language, updated=updated, link=site_link)
    nxt = next_round(results, language)
    places = preset.points_places()
    rows = [{"places": st.places, "player": st.stats.player, "total": points(st.stats.total, places), "games": st.stats.games}
            for st in results.overall[:SCREEN_ROWS]] if progress.started else []
    seating = None
    if nxt is not None:
        seating = {
            "title": nxt.title,
            "tables": [{"table": t.table, "seats": [{"seat": i + 1, "player": p or "—"} for i, p in enumerate(t.seats)]}
                       for t in nxt.tables],
        }
    common = {"lang": language, "tournament": results.tournament.name, "seconds": SCREEN_SECONDS, "link": site_link,
              "headline": headline(progress, preset, language), "status": status_lines(progress, updated, language), "ui": lambda key: ui(key, language)}
    env = environment()
    standings_page = env.get_template("site/screen.html").render(
        **common, part="standings", next_page="screen-2.html" if seating else "screen.html",
        title=common["headline"], rows=rows, seating=None, shown=len(rows), total_players=len(results.overall))
    seating_page = env.get_template("site/screen.html").render(
        **common, part="seating", next_page="screen.html",
        title=seating["title"] if seating else ui("seating", language), rows=[], seating=seating, shown=0,
        total_players=len(results.overall))
    return {"screen.html": standings_page, "screen-2.html": seating_page}


def _season_screen(results: Results, *, language: str, updated: datetime | None, link: dict | None) -> dict[str, str]:
    """A club season's screen: the last evening's standings (``screen.html``), then the season's
    (``screen-2.html``), in turn."""
    from scoring.season import season  # a club season's modules load for a club season only

    s = season(results)
    status = season_status_lines(s.games, updated, language)
    evening = s.evenings[-1] if s.evenings else None
    evening_rows = [{"places": st.places, "player": st.stats.player, "total": points(st.stats.total),
                     "games": st.stats.games} for st in (evening.standings if evening else ())][:SCREEN_ROWS]
    from sheets_sync.render.season_text import evening_title, main_value, main_word, place_text  # the season's words

    played = [e for e in s.table if e.stats.games]  # the provisional too: never an empty table in the first weeks
    season_rows = [{"places": place_text(e), "player": e.player, "total": main_value(s, e), "games": e.stats.games}
                   for e in played[:SCREEN_ROWS]]
    common = {"lang": language, "tournament": results.tournament.name, "seconds": SCREEN_SECONDS, "status": status,
              "ui": lambda key: ui(key, language), "part": "standings", "seating": None, "link": link}
    template = environment().get_template("site/screen.html")
    first = evening_title(evening, language) if evening else season_headline(0, 0, language)
    second = season_headline(len(s.evenings), s.games, language)
    return {
        "screen.html": template.render(**common, headline=first, title=first, next_page="screen-2.html",
                                       rows=evening_rows, shown=len(evening_rows),
                                       total_players=len(evening.standings) if evening else 0),
        "screen-2.html": template.render(**common, headline=second, title=second, next_page="screen.html",
                                         rows=season_rows, shown=len(season_rows), total_players=len(played),
                                         key_title=main_word(s, language) if s.ranking == "rating" else None),
    }
