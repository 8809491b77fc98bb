"""Every generated site, crawled: no page links to a page (or a stylesheet) that is not there.

The sites a person can have: the example tournament mid-qualifying and finished (as synced
from its real .xlsx), a tournament before its first game, and a club season — before its first
evening, after its evenings (the worked season of tests/test_season.py) — each written to a
folder by the writer the sync uses.  Every ``href`` and ``src`` of every page is resolved
against the page's own folder; a local target that is not a file of the site is a dead link.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from scoring.model import Player
from scoring.standings import compute
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.example import EXAMPLE_PATH, example_mid_qualifying
from sheets_sync.render.site import write_site
from sheets_sync.loop.sync import sync_once
from tests.helpers import tournament
from tests.test_season import CLUB, GAMES, PRESET


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found += [v for k, v in attrs if k in ("href", "src") and v]


def dead_links(site: Path) -> list[str]:
    """«page → target» for every local link of every page of ``site`` whose target is not a file."""
    dead = []
    pages = sorted(site.rglob("*.html"))
    assert pages, f"no pages in {site}"
    for page in pages:
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.found:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path:  # another site, or a place on this page
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                dead.append(f"{page.relative_to(site).as_posix()} → {link}")
    for css in sorted(site.rglob("*.css")):  # a stylesheet's url(...) is a link too
        for link in re.findall(r"url\(['\"]?([^'\")]+)", css.read_text(encoding="utf-8")):
            if not urlsplit(link).scheme and not (css.parent / link).is_file():
                dead.append(f"{css.relative_to(site).as_posix()} → {link}")
    return dead


def _synced_site(book: Path, out: Path) -> Path:
    sync_once(ExcelBackend(book, backups=0), out_dir=out)
    return out / "site"


def _season_results(games):
    t = dataclasses.replace(tournament([Player(nickname=n) for n in CLUB], games), season=True, name="Клуб «Ночь»")
    return compute(t, PRESET, [])


def _written(results, out: Path) -> Path:
    write_site(results, [], out, language="ru")
    return out


SITES = {
    "tournament-finished": lambda tmp: _synced_site(shutil.copyfile(EXAMPLE_PATH, tmp / "cup.xlsx"), tmp / "out"),
    "tournament-mid-qualifying": lambda tmp: _synced_site(example_mid_qualifying(tmp / "mid.xlsx"), tmp / "out"),
    "tournament-not-started": lambda tmp: _written(compute(tournament([f"Игрок {i}" for i in range(1, 21)]),
                                                           _gmo(), []), tmp / "site"),
    "season-not-started": lambda tmp: _written(_season_results(()), tmp / "site"),
    "season-first-evening": lambda tmp: _written(_season_results(GAMES[:2]), tmp / "site"),
    "season-three-evenings": lambda tmp: _written(_season_results(GAMES), tmp / "site"),
}


def _gmo():
    from tests.helpers import preset

    return preset("gmo-2016")


@pytest.mark.parametrize("name", sorted(SITES))
def test_no_page_links_to_a_page_that_is_not_there(name, tmp_path):
    site = SITES[name](tmp_path)
    dead = dead_links(site)
    assert not dead, "dead links:\n" + "\n".join(dead)
