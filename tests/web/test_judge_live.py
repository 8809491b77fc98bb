"""The live mode's events on the server (issue 44 §3, §8) and the chief judge's page (§7): each
event added to the game's log (a resend is harmless), the derived protocol written as a person
would type it — while the game runs only what is public (who sits, fouls, who left when, the
judge), the roles, checks, best move and extra points once it ended; the chief confirms."""

from __future__ import annotations

import random

import pytest

from scoring.game import events as ev
from scoring.game.simulate import simulate_events
from sheets_sync.web.models import JudgeGame
from tests.web.judge_support import (api_get, api_post, cell, chief_token, confirmation_on, gid, judged,  # noqa: F401
                                     save_form, synced, table_links, whole_game)
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401

pytestmark = pytest.mark.django_db
TAB = "Тур 1 Стол 1"


def _events(seats) -> tuple[ev.Event, ...]:
    return simulate_events(random.Random(3), players=tuple(seats), undo=0.05)


def _send(client, token, events):
    return api_post(client, token, f"games/{gid(1, 1)}/events/", {"events": [e.to_dict() for e in events]})


def test_live_events_write_public_cells_during_play_and_roles_after_the_end(client, judged):
    token = table_links(judged)[1]
    seats = api_get(client, token, f"games/{gid(1, 1)}/").json()["seats"]
    events = _events(seats)
    fouls_at = next(i for i, e in enumerate(events) if isinstance(e, ev.Foul))
    first = events[: fouls_at + 1]
    answer = _send(client, token, first)
    assert answer.status_code == 200, answer.content
    assert {r["status"] for r in answer.json()["receipts"]} <= {"recorded", "refused"}
    game = answer.json()["game"]
    assert game["mode"] == "live" and len(game["events"]) == len(first)
    foul_seat = first[-1].seat
    assert cell(judged.path, TAB, f"D{9 + foul_seat}") is not None  # the foul is public: written
    roles = [cell(judged.path, TAB, f"C{9 + s}") for s in range(1, 11)]
    assert roles == [None] * 10  # no role in the sheet while the game runs (a sheet shared with players)
    assert not any(game["cells"][f"{s}:role"] for s in range(1, 11))
    resent = _send(client, token, first)  # the phone did not hear the answer: the same events again
    assert {r["status"] for r in resent.json()["receipts"]} == {"duplicate"}
    assert len(JudgeGame.objects.get(gid=gid(1, 1)).events) == len(first)
    end = _send(client, token, events[len(first):]).json()["game"]
    assert end["status"] in ("submitted", "problems") and end["cells"][":winner"]
    roles = [cell(judged.path, TAB, f"C{9 + s}") for s in range(1, 11)]
    assert sorted(r for r in roles if r) == sorted(["дон", "мафия", "мафия", "шериф", *["мирный"] * 6][: len([r for r in roles if r])])
    assert "дон" in roles and "шериф" in roles
    judged.refresh_from_db()
    assert judged.last_sync["games"] == 1


def test_a_malformed_event_is_rejected_with_its_reason_and_a_gap_waits(client, judged):
    token = table_links(judged)[1]
    bad = api_post(client, token, f"games/{gid(1, 1)}/events/", {"events": [{"kind": "nope", "id": "x", "seq": 1}]})
    receipt = bad.json()["receipts"][0]
    assert receipt["status"] == "rejected" and receipt["why"]["ru"] and receipt["why"]["en"]
    gap = _send(client, token, [ev.Foul(id="a", seq=5, seat=1)]).json()["receipts"][0]
    assert gap["status"] == "rejected" and JudgeGame.objects.get(gid=gid(1, 1)).events == []


def test_the_chief_sees_every_table_and_confirms_a_submitted_game(client, fresh_tournament):
    confirmation_on(fresh_tournament.path)
    judged = synced(fresh_tournament)
    token = table_links(judged)[1]
    seats = api_get(client, token, f"games/{gid(1, 1)}/").json()["seats"]
    save_form(client, token, gid(1, 1), {**whole_game(seats), ":judge": "Судья Анна"}, submit=True)
    save_form(client, table_links(judged).get(2) or _token_of(judged, 2), gid(1, 2), {"3:fouls": "1"})
    chief = chief_token(judged)
    page = client.get(f"/j/{chief}/chief/")
    html = page.content.decode()
    assert page.status_code == 200 and "<script" not in html
    assert 'id="table-qualifying-1-1"' in html and 'id="table-qualifying-1-2"' in html
    assert "сдана" in html and "идёт" in html and f'action="/j/{chief}/chief/confirm/{gid(1, 1)}/"' in html
    assert api_post(client, token, f"games/{gid(1, 1)}/confirm/", {"name": "Б"}).status_code == 403  # a table's link
    done = client.post(f"/j/{chief}/chief/confirm/{gid(1, 1)}/", {"name": "Главный Борис"})
    assert done.status_code == 302
    assert cell(judged.path, TAB, "B7") == "Главный Борис"
    again = client.get(f"/j/{chief}/chief/").content.decode()
    assert "подтверждена" in again and "Главный Борис" in again
    from urllib.parse import unquote

    assert unquote(client.cookies["sheets_sync_chief"].value) == "Главный Борис"  # asked once, kept for the next
    api = api_post(client, chief, f"games/{gid(1, 2)}/confirm/", {"name": "Главный Борис"})
    assert api.status_code == 200 and api.json()["game"]["cells"][":checked_by"] == "Главный Борис"
    assert client.get(f"/j/{token}/chief/").status_code == 404  # a table's link is no chief's


def _token_of(tournament, table: int) -> str:
    from sheets_sync.web.models import JudgeLink

    return JudgeLink.objects.get(tournament=tournament, table=table, revoked_at__isnull=True).token
