"""A league with a Google sheet among its events (the fake Sheets server): the same rating as
from the .xlsx, and the sheet is read again only when its fingerprint changed."""

from __future__ import annotations

import pytest

from sheets_sync.backends.google import ENDPOINT_ENV
from sheets_sync.league.league_file import build_league, parse_league
from tests.google_support import fake_server, sa_key, upload_xlsx  # noqa: F401 - fixtures
from tests.league_support import write_tournament
from tests.test_league import A_GAMES, B_GAMES


@pytest.fixture
def books(tmp_path):
    write_tournament(tmp_path / "a.xlsx", A_GAMES, name="Турнир A", date="01.02.2020")
    write_tournament(tmp_path / "b.xlsx", B_GAMES, name="Турнир B", date="01.03.2020")
    return tmp_path


def _league(folder, b_ref):
    data = {"name": "Лига", "event": [{"workbook": "a.xlsx", "kind": "tournament"}, {"workbook": b_ref, "kind": "club"}]}
    return parse_league(data, source="league.toml", base_dir=folder)


def test_a_google_event_rates_like_its_xlsx(books, fake_server, sa_key, monkeypatch):
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    sid = upload_xlsx(fake_server, books / "b.xlsx")
    from_google = build_league(_league(books, f"gsheet:{sid}"), cache=books / "cache", credentials=sa_key)
    from_excel = build_league(_league(books, "b.xlsx"), cache=None)
    assert {p: r.overall for p, r in from_google.ratings.players.items()} == \
        {p: r.overall for p, r in from_excel.ratings.players.items()}
    assert from_google.read_again == ("a.xlsx", f"gsheet:{sid}")
    again = build_league(_league(books, f"gsheet:{sid}"), cache=books / "cache", credentials=sa_key)
    assert again.read_again == ()


def test_the_rating_tab_goes_into_a_google_sheet(books, fake_server, sa_key, monkeypatch):
    from sheets_sync.actions.league import run_league
    from tests.google_support import google_backend, upload_tabs

    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    sid = upload_tabs(fake_server, {"Заметки": [["typed by a person"]]}, title="Рейтинг клуба")
    (books / "league.toml").write_text(
        f'name = "Лига"\nlanguage = "en"\noutput = "gsheet:{sid}"\n'
        '[[event]]\nworkbook = "a.xlsx"\n[[event]]\nworkbook = "b.xlsx"\nkind = "club"\n', encoding="utf-8")
    run = run_league(books / "league.toml", credentials=sa_key)
    assert run.output_tabs == ("Rating",)
    tabs = google_backend(fake_server, sa_key, sid).read().tabs
    assert tabs["Заметки"] == (("typed by a person",),)
    assert tabs["Rating"][1][:3] == ("Place", "Player", "Rating")
    assert len(tabs["Rating"]) == 2 + len(run.league.ratings.players)
    index = (books / "league" / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in index and "Last game" in index
