"""Every Google request the server makes goes through its account's budget (issue 42 §3): whichever
button or page causes it — a sync, a draw, the exports, «Новый турнир», adding a sheet, the keeper's
Drive feed and fast lane, the share check — the budget's tallies (``RequestTally``) equal what the
fake Google server received, kind by kind (Sheets reads, Sheets writes, Drive).

Before: the exports and «Новый турнир» opened a gspread client of their own from the key file, so
the budget never saw their requests (30 export presses in 2 s: 89 reads in a minute, 29 answered
429, and another organizer's sync failed)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from sheets_sync.example import EXAMPLE_PATH
from sheets_sync.web import jobs, keeping, throttle, workbooks
from sheets_sync.web.models import Job, Membership, RequestTally, ServiceAccount, Tournament
from sheets_sync.web.organizer.buttons import BUTTONS
from tests.fake_sheets import sheets_request_kind
from tests.google_support import SA_EMAIL, fake_server, private_key_pem, sa_key, upload_xlsx  # noqa: F401
from tests.web.test_accounts import google, signed_in, start_claim, type_code  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

NEW = {"name": "Кубок осени", "kind": "tournament", "preset": "gmo-2016", "language": "ru",
       "players": "\n".join(f"Игрок {n:02d}" for n in range(1, 21))}
FIELDS = {"draw": {"seed": 3, "time_limit": 1}, "replace": {"player": "Игрок 01"}, "protocols": {"round": 1},
          "seating": {"round": 1}, "evening": {"date": "2026-12-05", "games": 4, "tables": 1}}


class Moving:
    """The clocks a walk through every button moves instead of waiting: the budget's (a full minute
    is waited out at once) and the rate limits' (each press is the organizer's first in a while)."""

    def __init__(self, start: float) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def walk(google, monkeypatch):
    import time

    clock = Moving(time.time())
    monkeypatch.setattr(workbooks, "budget_clock", clock)
    monkeypatch.setattr(workbooks, "budget_sleep", clock.sleep)
    monkeypatch.setattr(throttle, "clock", clock)
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)  # where a client of its own would go
    workbooks._SYNC_BACKENDS.clear()
    keeping._BACKENDS.clear()
    google.reset_counts()
    return clock


def received(server) -> Counter:
    """What the fake server received, as the budget counts it (the token endpoint is no API request)."""
    kinds = Counter()
    for request in server.request_log:
        if request["path"] == "/token":
            continue
        kinds[sheets_request_kind(request["method"], request["path"]) or "drive"] += 1
    return kinds


def tallied() -> Counter:
    rows = RequestTally.objects.values("kind").annotate(n=Sum("count"))
    return Counter({row["kind"]: row["n"] for row in rows})


def press_every_button(client: Client, tournament: Tournament, walk: Moving) -> list[str]:
    pressed = []
    for action, button in BUTTONS.items():
        if tournament.kind not in button.kinds:
            continue
        walk.t += 120  # the organizer's presses a while apart: the press limit is not what is tested here
        answer = client.post(reverse("press", args=[tournament.slug, action]), FIELDS.get(action, {}))
        assert answer.status_code == 302, (action, answer.content.decode()[:500])
        pressed.append(action)
    return pressed


def test_every_button_and_page_spends_only_what_the_budget_counted(google, walk):
    client, _ = signed_in("anna@club.ru")
    # «Новый турнир» and «Новый сезон»: the sheet created, shared, filled and synced
    assert client.post(reverse("new_tournament"), NEW).status_code == 302
    assert client.post(reverse("new_tournament"), {**NEW, "name": "Сезон клуба", "kind": "season",
                                                   "preset": "club-season"}).status_code == 302
    cup, season = Tournament.objects.get(title="Кубок осени"), Tournament.objects.get(kind=Tournament.SEASON)
    # adding a sheet one has: the claim's check (Sheets reads and one Drive call), then its sync
    sid = upload_xlsx(google, EXAMPLE_PATH)
    claim = start_claim(client, sid)
    type_code(google, sid, claim.code)
    assert client.post(reverse("add_sheet"), {"claim": claim.pk}).status_code == 302
    pressed = press_every_button(client, cup, walk) + press_every_button(client, season, walk)
    assert {"vk", "mwt", "protocols", "seating", "draw", "evening"} <= set(pressed)
    assert Job.objects.filter(action__in=["vk", "mwt", "protocols", "seating"], status=Job.DONE).count() >= 5
    # the keeper: the Drive feed (twice: its cursor, then the changes), the sweep, the fast lane
    account = cup.account
    keeping.read_drive(account)
    walk.t += 61
    keeping.read_drive(account)
    jobs.sync_due()
    Tournament.objects.filter(pk=cup.pk).update(fast_until=keeping.now() + keeping.FAST_LANE)
    keeping.poll_fast_lane()
    # a share lowered to «Viewer»: the sync's refused write asks Drive why
    google.share(cup.spreadsheet_id, SA_EMAIL, role="reader")
    google.set_values(cup.spreadsheet_id, "Игроки", [["Игрок 21"]], start="A30", raw=True)  # a sync has to write
    walk.t += 120
    client.post(reverse("press", args=[cup.slug, "sync"]))
    cup.refresh_from_db()
    assert cup.share_view_only
    sent = received(google)
    assert sent["read"] and sent["write"] and sent["drive"]
    assert tallied() == sent  # nothing reached Google past the budget
    assert not google.quota.refused  # and Google refused nothing


def test_the_web_app_opens_google_only_through_its_budgeted_transport():
    """A new view or runner that built its own client (``open_backend``, ``GoogleBackend(…)``, a key
    file passed as ``credentials=``) would reach Google past the budget: only ``web/workbooks.py``
    makes Google clients, and it makes them budgeted."""
    import ast
    from pathlib import Path

    import sheets_sync.web

    root = Path(sheets_sync.web.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "workbooks.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("open_backend", "GoogleBackend", "create_spreadsheet", "authorized_http_client",
                        "load_credentials") or any(k.arg == "credentials" for k in node.keywords):
                found.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    assert found == []


def test_thirty_export_presses_in_two_seconds_leave_google_unrefused_and_another_sync_runs(google, monkeypatch):
    """The finding as it was met: one organizer holds «Пост ВКонтакте» down on a Google sheet while
    another organizer's sheet on the same service account needs its sync. Ten presses become
    exports (then the organizer is told when to press again), every request they make waits in the
    account's budget, Google refuses nothing, and the other sync finishes.

    Before: all 30 ran, their 60 reads were the account's whole minute, and the other sync failed
    on Google's 429 after its retries."""
    workbooks._SYNC_BACKENDS.clear()
    monkeypatch.setenv("SHEETS_SYNC_GOOGLE_ENDPOINT", google.url)
    account = ServiceAccount.objects.get()
    anna, boris = signed_in("anna@club.ru"), signed_in("boris@club.ru")
    theirs = []
    for slug, (_, user) in (("annas", anna), ("boriss", boris)):
        sid = upload_xlsx(google, EXAMPLE_PATH)
        google.share(sid, SA_EMAIL)
        t = Tournament.objects.create(slug=slug, spreadsheet_id=sid, account=account, needs_sync=False)
        Membership.objects.create(user=user, tournament=t)
        theirs.append(t)
    google.reset_counts()
    for _ in range(30):
        anna[0].post(reverse("press", args=["annas", "vk"]))
    assert Job.objects.filter(action="vk", status=Job.DONE).count() == 10  # the rest were told to wait
    boris[0].post(reverse("press", args=["boriss", "sync"]))
    assert Job.objects.get(tournament=theirs[1], action="sync").status == Job.DONE
    assert not google.quota.refused and google.quota.busiest_minute("read") <= 55
