"""The fake server's Drive side (changes feed, permissions, Drive's lag) and Google's per-minute
quotas, over HTTP as the server's own clients reach them."""

from __future__ import annotations

import pytest

from tests.fake_sheets import QUOTA_PER_MINUTE
from tests.google_support import SA_EMAIL, fake_http_client, fake_server, sa_key, write_key_file  # noqa: F401

DRIVE = "https://www.googleapis.com/drive/v3"
SHEETS = "https://sheets.googleapis.com/v4/spreadsheets"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(fake_server):
    c = Clock()
    fake_server.clock = c
    fake_server.drive_delay = 0.0
    yield c
    import time
    fake_server.clock = time.time


def _http(fake_server, key):
    return fake_http_client(fake_server, key, max_retries=0)


def _changes(http, token):
    return http.request("get", f"{DRIVE}/changes", params={"pageToken": token, "includeRemoved": "true",
                                                            "pageSize": 100}).json()


def test_changes_feed_sees_shared_files_after_the_delay_and_removed_shares(fake_server, sa_key, clock):
    http = _http(fake_server, sa_key)
    mine = fake_server.create_spreadsheet("mine", {"Players": []}, shared_with={SA_EMAIL})
    other = fake_server.create_spreadsheet("other", {"Players": []}, shared_with={"someone@example.com"})
    token = http.request("get", f"{DRIVE}/changes/startPageToken").json()["startPageToken"]
    fake_server.drive_delay = 180
    fake_server.set_values(mine, "Players", [["Ann"]])
    fake_server.set_values(other, "Players", [["Bob"]])
    page = _changes(http, token)
    assert page["changes"] == [] and page["newStartPageToken"] == token  # Drive has not seen it yet
    clock.now += 181
    page = _changes(http, token)
    assert [(c["fileId"], c["removed"]) for c in page["changes"]] == [(mine, False)]
    assert page["changes"][0]["file"]["lastModifyingUser"]["emailAddress"] == "judge@example.com"
    token = page["newStartPageToken"]
    assert _changes(http, token)["changes"] == []
    fake_server.unshare(mine, SA_EMAIL)
    clock.now += 181
    page = _changes(http, token)
    assert [(c["fileId"], c["removed"]) for c in page["changes"]] == [(mine, True)]


def test_changes_pages_and_one_change_per_file(fake_server, sa_key, clock):
    http = _http(fake_server, sa_key)
    token = http.request("get", f"{DRIVE}/changes/startPageToken").json()["startPageToken"]
    ids = [fake_server.create_spreadsheet(f"t{n}", {"A": []}, shared_with={SA_EMAIL}) for n in range(5)]
    for sid in ids:
        fake_server.set_values(sid, "A", [[1]])
        fake_server.set_values(sid, "A", [[2]])
    seen, pages = [], 0
    while True:
        page = http.request("get", f"{DRIVE}/changes", params={"pageToken": token, "pageSize": 2}).json()
        pages += 1
        seen += [c["fileId"] for c in page["changes"]]
        if "newStartPageToken" in page:
            break
        token = page["nextPageToken"]
    assert sorted(seen) == sorted(ids) and pages == 3


def test_permissions_list_create_delete(fake_server, sa_key, clock):
    http = _http(fake_server, sa_key)
    sid = fake_server.create_spreadsheet("t", {"A": []}, shared_with={SA_EMAIL})
    url = f"{DRIVE}/files/{sid}/permissions"
    created = http.request("post", url, json={"type": "user", "role": "writer", "emailAddress": "org@example.com"}).json()
    emails = {p.get("emailAddress") for p in http.request("get", url).json()["permissions"]}
    assert emails == {SA_EMAIL, "org@example.com"}
    response = http.request("delete", f"{url}/{created['id']}")
    assert response.status_code == 204
    assert {p.get("emailAddress") for p in http.request("get", url).json()["permissions"]} == {SA_EMAIL}
    assert "org@example.com" not in fake_server.spreadsheets[sid].shared_with


def test_sixty_reads_a_minute_then_googles_429(fake_server, sa_key, clock, tmp_path):
    from gspread.exceptions import APIError

    http = _http(fake_server, sa_key)
    sid = fake_server.create_spreadsheet("t", {"A": [[1]]}, shared_with={SA_EMAIL, "second@example.com"})
    for _ in range(QUOTA_PER_MINUTE):
        http.request("get", f"{SHEETS}/{sid}")
    with pytest.raises(APIError) as refused:
        http.request("get", f"{SHEETS}/{sid}")
    body = refused.value.response.json()["error"]
    assert (body["code"], body["status"]) == (429, "RESOURCE_EXHAUSTED")
    assert body["details"][0]["reason"] == "RATE_LIMIT_EXCEEDED"
    # writes have their own quota, and another account its own
    http.request("post", f"{SHEETS}/{sid}/values:batchUpdate",
                 json={"valueInputOption": "RAW", "data": [{"range": "A!A1", "values": [[2]]}]})
    second = _http(fake_server, write_key_file(tmp_path / "second.json", fake_server.token_uri, "second@example.com"))
    second.request("get", f"{SHEETS}/{sid}")
    clock.now += 61  # the minute rolls on
    http.request("get", f"{SHEETS}/{sid}")
    assert fake_server.quota.file_reads[sid] == QUOTA_PER_MINUTE + 2
    assert fake_server.quota.refused[(SA_EMAIL, "read")] == 1
    assert fake_server.quota.busiest_minute("read") <= QUOTA_PER_MINUTE


def test_storm_of_500s_then_calm(fake_server, sa_key, clock):
    from gspread.exceptions import APIError

    http = _http(fake_server, sa_key)
    sid = fake_server.create_spreadsheet("t", {"A": [[1]]}, shared_with={SA_EMAIL})
    fake_server.storm(500, 3)
    for _ in range(3):
        with pytest.raises(APIError):
            http.request("get", f"{SHEETS}/{sid}")
    assert http.request("get", f"{SHEETS}/{sid}").status_code == 200


def test_a_changes_file_is_dated_by_its_last_edit_drive_knows_of(fake_server, sa_key, clock):
    """The ``file`` of a change carries the file's ``modifiedTime`` and ``lastModifyingUser``: its
    latest content edit Drive has seen (Drive's lag holds them back too); sharing moves neither."""
    http = _http(fake_server, sa_key)
    sid = fake_server.create_spreadsheet("t", {"A": []}, shared_with={"org@club.ru"})
    token = http.request("get", f"{DRIVE}/changes/startPageToken").json()["startPageToken"]
    fake_server.drive_delay = 180
    fake_server.set_values(sid, "A", [["code"]], user="org@club.ru")  # at 1,000,000 s
    clock.now += 30
    fake_server.share(sid, SA_EMAIL)
    clock.now += 181
    (change,) = _changes(http, token)["changes"]
    assert change["file"]["modifiedTime"] == "1970-01-12T13:46:40.000Z"  # the edit's time, not the share's
    assert change["file"]["lastModifyingUser"]["emailAddress"] == "org@club.ru"
    fake_server.set_values(sid, "A", [["later"]], user="judge@club.ru")
    (change,) = _changes(http, token)["changes"]  # the new edit is not visible yet: neither is its date
    assert change["file"]["modifiedTime"] == "1970-01-12T13:46:40.000Z"
    clock.now += 181
    (change,) = _changes(http, token)["changes"]
    assert change["file"]["modifiedTime"] == "1970-01-12T13:50:11.000Z"
    assert change["file"]["lastModifyingUser"]["emailAddress"] == "judge@club.ru"
