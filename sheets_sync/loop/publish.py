"""The outputs people read outside the workbook: standings.json, the site, the VK post.

They show only what the organizers may publish — e.g. no hidden final before the chief judge
releases it, no role, check, best move or extra points of a game still in play (:mod:`scoring.secrecy`).  :meth:`PublicResults.of` is the one place that decides what that is; every
writer here takes a :class:`PublicResults`, so nothing unfiltered reaches a public file.
Every output says where the tournament stands (:func:`scoring.progress.progress` of the full
results, so a hidden final is a phase of its own, counting the games the public standings rank:
no medals while a game of the final awaits confirmation or is disputed) and when it was updated: the time comes from
the caller (``sync`` passes the clock; tests a fixed time).  Unchanged files are not rewritten;
each writer returns the files it wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.liveness import Liveness, current_liveness
from scoring.problems import Problem
from scoring.progress import Progress, progress
from scoring.standings import Results, kept_secret, released
from sheets_sync.files import write_text_atomic
from sheets_sync.loop.draw_figures import DrawFigures
from sheets_sync.render.json_out import dumps, standings_document
from sheets_sync.render.site import write_site
from sheets_sync.render.vk import FontNotFound, post_text, write_vk

if TYPE_CHECKING:
    from sheets_sync.loop.outcome import Outcome

__all__ = ["PublicResults", "publish_files", "write_standings_json", "write_public_site", "write_vk_post"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicResults:
    """The results and problems that may be published, in the tournament's language."""

    results: Results
    problems: tuple[Problem, ...]
    language: str
    progress: Progress
    live: Liveness | None = None  # who can still qualify, in these results: worked out once for every output
    updated: datetime | None = None  # when the outputs were made, as they say (none when None)
    draw_figures: DrawFigures | None = None  # the draw report's figures (no name in them): under the seating

    @classmethod
    def of(cls, outcome: Outcome, *, updated: datetime | None = None) -> PublicResults:
        """What of a sync's outcome may be published (:func:`scoring.standings.published`): no
        hidden final, and no secret of a game in play (which changes no standing, so the sync's
        liveness stays true of it)."""
        shown = released(outcome.results)
        full = shown is outcome.results
        results = kept_secret(shown)
        problems = outcome.problems if results is outcome.results else results.problems
        return cls(results=results, problems=tuple(problems), language=outcome.language,
                   progress=progress(outcome.results, public=True),
                   live=outcome.live if full else current_liveness(results), updated=updated,
                   draw_figures=outcome.draw_figures)


def write_standings_json(public: PublicResults, out_dir: Path) -> list[Path]:
    """``out_dir/standings.json``."""
    doc = standings_document(public.results, public.problems, language=public.language, public=False,
                             progress=public.progress, updated=public.updated, live=public.live)
    path = out_dir / "standings.json"
    return [path] if write_text_atomic(path, dumps(doc)) else []


def write_public_site(public: PublicResults, folder: Path, *, link: str | None = None) -> list[Path]:
    """The static HTML site in ``folder`` (``link``: its hosted address, which the hall's screen prints)."""
    return write_site(public.results, public.problems, folder, language=public.language,
                      progress=public.progress, updated=public.updated, live=public.live, link=link,
                      draw_figures=public.draw_figures)


def write_vk_post(public: PublicResults, folder: Path, *, link: str | None = None,
                  text_without_font: bool = False) -> list[Path]:
    """``vk-post.txt`` and ``vk-post.png`` in ``folder``.  Without a Cyrillic font the picture
    cannot be drawn: ``text_without_font`` still writes the text (else :class:`FontNotFound`).
    ``link`` (``export vk --link``) goes before the Tournament tab's «Ссылка»; with neither, no link line.
    A club season's posts are the last evening's and the season's (:mod:`sheets_sync.render.vk_season`)."""
    link = link or public.results.tournament.link or None  # the Tournament tab's «Ссылка» when not given
    if public.results.tournament.season:
        from sheets_sync.render.vk_season import write_season_vk  # loaded for a club season only

        try:
            return write_season_vk(public.results, folder, language=public.language, link=link, updated=public.updated)
        except FontNotFound:
            if not text_without_font:
                raise
            return write_season_vk(public.results, folder, language=public.language, link=link,
                                   updated=public.updated, pictures=False)
    try:
        return write_vk(public.results, folder, language=public.language, link=link,
                        progress=public.progress, updated=public.updated, live=public.live)
    except FontNotFound:
        if not text_without_font:
            raise
        path = folder / "vk-post.txt"
        text = post_text(public.results, language=public.language, link=link, progress=public.progress,
                         updated=public.updated, live=public.live)
        return [path] if write_text_atomic(path, text) else []


def publish_files(outcome: Outcome, out_dir: Path, *, updated: datetime | None = None,
                  link: str | None = None) -> list[Path]:
    """standings.json, the site (``out_dir/site/``) and the VK post (``vk-post.txt``, ``vk-post.png``)
    of a sync; the post's text is written even where no font can draw its picture.
    ``updated``: the time the outputs say they were made; ``link``: the post's link (the server's
    hosted site), before the Tournament tab's «Ссылка»."""
    public = PublicResults.of(outcome, updated=updated)
    files = write_standings_json(public, out_dir)
    files += write_public_site(public, out_dir / "site", link=link)
    files += write_vk_post(public, out_dir, link=link, text_without_font=True)
    return files
