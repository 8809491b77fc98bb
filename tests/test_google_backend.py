"""GoogleBackend through real gspread + google-auth over HTTP to the fake Sheets API."""

from __future__ import annotations

import json
import logging
import os
from decimal import Decimal

import pytest

from sheets_sync.backends.base import (
    MARK_COLOURS,
    STATE_TAB,
    Link,
    Mark,
    Patch,
    PermissionDenied,
    TabWrite,
    TransientError,
    Validation,
    WorkbookNotFound,
)
from sheets_sync.backends.google import (
    ENDPOINT_ENV,
    GoogleBackend,
    hyperlink_formula,
    locale_advice,
    parse_spreadsheet_ref,
)
from tests.fake_sheets import Fault
from tests.google_support import SA_EMAIL, fake_http_client, google_backend


@pytest.fixture(autouse=True)
def clean(fake_server):
    fake_server.faults.clear()
    fake_server.fault_rates.clear()
    fake_server.reset_counts()
    yield
    fake_server.faults.clear()


def make_backend(fake_server, sa_key, sid, **kw) -> GoogleBackend:
    return google_backend(fake_server, sa_key, sid, **kw)


PROTOCOL = [
    ["Протокол игры"],
    ["Этап", "Отбор"],
    ["Тур", 1],
    ["Стол", 1],
    [],
    ["№", "Игрок", "Роль", "Фолы"],
    [1, "Alpha", "ш", "0,5"],
]


def test_parse_spreadsheet_ref():
    sid = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd"
    assert parse_spreadsheet_ref(sid) == sid
    assert parse_spreadsheet_ref(f"gsheet:{sid}") == sid
    assert parse_spreadsheet_ref(f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid=0") == sid
    assert parse_spreadsheet_ref(f"https://docs.google.com/spreadsheets/d/{sid}") == sid
    for bad in ("", "gsheet:", "https://example.com/x", "a b c", "short"):
        with pytest.raises(ValueError):
            parse_spreadsheet_ref(bad)


def test_hyperlink_formula_escapes_text():
    assert hyperlink_formula(42, "b5", 'Игрок "X"') == '=HYPERLINK("#gid=42&range=B5";"Игрок ""X""")'
    with pytest.raises(ValueError):
        hyperlink_formula(1, 'A1");=IMPORTXML("x', "t")


def test_read_snapshot(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"Игроки": [["Игрок", "Клуб"], ["Alpha", "A"], ["Beta", ""]],
                                                "Тур 1 Стол 1": PROTOCOL, "Пусто": []})
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    assert snap.order == ("Игроки", "Тур 1 Стол 1", "Пусто")
    assert snap.locale == "ru_RU"
    assert snap.tabs["Игроки"] == (("Игрок", "Клуб"), ("Alpha", "A"), ("Beta",))
    proto = snap.tabs["Тур 1 Стол 1"]
    assert proto[2] == ("Тур", 1)
    assert proto[4] == ()
    assert proto[6] == (1, "Alpha", "ш", 0.5)  # typed "0,5" in a ru_RU sheet: a number
    assert snap.tabs["Пусто"] == ()
    assert snap.source.endswith(f"/d/{sid}/edit")
    assert any("ru_RU" in w for w in backend.warnings)
    # every request was UNFORMATTED / SERIAL_NUMBER, one batchGet for all tabs
    gets = [r for r in fake_server.request_log if r["path"].endswith("values:batchGet")]
    assert len(gets) == 1
    assert gets[0]["query"]["valueRenderOption"] == ["UNFORMATTED_VALUE"]
    assert gets[0]["query"]["dateTimeRenderOption"] == ["SERIAL_NUMBER"]
    assert len(gets[0]["query"]["ranges"]) == 3


def full_patch(existing_input: str) -> Patch:
    standings = TabWrite(
        title="Итоги",
        rows=(
            ("Место", "Игрок", "Итого", "Игр", "Ссылка"),
            (1, "Alpha", Decimal("2.75"), 3, Link("Тур 2 Стол 1", "Тур 2 Стол 1", "B7")),
            ("2–3", "Beta", 1.5, True, None),
        ),
        column_widths=(6, 20, 8.43),
        frozen_rows=1,
        bold_rows=(0,),
    )
    new_protocol = TabWrite(
        title="Тур 2 Стол 1",
        owned=False,
        rows=(("Протокол игры",), ("Этап", "Отбор"), ("Тур", 2), ("Стол", 1)),
        validations=(Validation(cells="C7:C16", values=("мирный", "шериф", "мафия", "дон")),),
        frozen_rows=1,
    )
    prefill = TabWrite(
        title=existing_input,
        owned=False,
        rows=((None,), (None, "Полуфинал"), (None, None), (None, 9)),
    )
    state = TabWrite(title=STATE_TAB, rows=(("Тур 1 Стол 1", "D7", "error"),), hidden=True)
    return Patch(
        writes=(standings, new_protocol, prefill, state),
        set_marks=(
            Mark(sheet=existing_input, cell="D7", severity="error", note="Фолы: не число"),
            Mark(sheet=existing_input, cell="C7", severity="warning", note="Роль?"),
        ),
    )


def test_round_trip(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"Игроки": [["Игрок"], ["Alpha"]], "Тур 1 Стол 1": PROTOCOL})
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    fake_server.reset_counts()
    backend.apply(full_patch("Тур 1 Стол 1"), base=snap)
    assert fake_server.request_count == 1

    assert fake_server.tabs(sid) == ["Игроки", "Тур 1 Стол 1", "Итоги", "Тур 2 Стол 1", STATE_TAB]
    cells = fake_server.cells(sid, "Итоги")
    assert cells["A1"].bold and cells["E1"].bold and not cells["A2"].bold
    assert cells["C2"].value == 2.75 and cells["C2"].raw["userEnteredValue"] == {"numberValue": 2.75}
    assert cells["D3"].value is True
    new_id = fake_server.sheet_properties(sid, "Тур 2 Стол 1")["sheetId"]
    assert cells["E2"].formula == f'=HYPERLINK("#gid={new_id}&range=B7";"Тур 2 Стол 1")'
    assert cells["E2"].value == "Тур 2 Стол 1"
    assert fake_server.sheet_properties(sid, "Итоги")["gridProperties"]["frozenRowCount"] == 1
    assert fake_server.column_widths(sid, "Итоги") == {0: 47, 1: 145, 2: 64}
    assert fake_server.sheet_properties(sid, STATE_TAB).get("hidden") is True

    proto2 = fake_server.cells(sid, "Тур 2 Стол 1")
    assert proto2["C7"].validation == ("мирный", "шериф", "мафия", "дон")
    assert proto2["C16"].validation and "C17" not in proto2
    assert proto2["B3"].value == 2

    # the judge's tab: only the given cells were written, the rest is untouched
    proto1 = fake_server.cells(sid, "Тур 1 Стол 1")
    assert proto1["B2"].value == "Полуфинал" and proto1["B4"].value == 9
    assert proto1["A1"].value == "Протокол игры" and proto1["B3"].value == 1
    assert proto1["D7"].background == MARK_COLOURS["error"] and proto1["D7"].note == "Фолы: не число"
    assert proto1["C7"].background == MARK_COLOURS["warning"] and proto1["C7"].value == "ш"

    # steady state: read = 1 request; the read sees what we wrote
    fake_server.reset_counts()
    snap2 = backend.read()
    assert fake_server.request_count == 1
    assert snap2.order[-1] == STATE_TAB
    assert snap2.tabs["Итоги"][1] == (1, "Alpha", 2.75, 3, "Тур 2 Стол 1")

    # next cycle: owned tab shrinks, marks cleared
    fake_server.reset_counts()
    backend.apply(Patch(
        writes=(TabWrite(title="Итоги", rows=(("Место",),)),),
        clear_marks=(("Тур 1 Стол 1", "D7"), ("Тур 1 Стол 1", "C7"), ("Нет такой", "A1")),
    ), base=snap2)
    assert fake_server.request_count == 1
    assert fake_server.values(sid, "Итоги") == [["Место"]]
    assert not fake_server.cells(sid, "Итоги")["A1"].bold
    assert fake_server.sheet_properties(sid, "Итоги")["gridProperties"].get("frozenRowCount", 0) == 0
    proto1 = fake_server.cells(sid, "Тур 1 Стол 1")
    assert proto1["D7"].background is None and proto1["D7"].note is None
    assert proto1["D7"].value == 0.5 and proto1["C7"].value == "ш"

    # deleting tabs
    backend.apply(Patch(delete_tabs=("Итоги", "Нет такой")), base=None)
    assert "Итоги" not in fake_server.tabs(sid)
    fake_server.reset_counts()
    assert "Итоги" not in backend.read().order
    assert fake_server.request_count == 1


def test_hostile_strings_stay_text(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"Лист1": []})
    backend = make_backend(fake_server, sa_key, sid)
    hostile = ('=HYPERLINK("http://x")', "+1", "-1", "@x", "<script>alert(1)</script>", "0,5", "'quoted",
               "=1+2", "TRUE", "1.5", "2.5")
    backend.apply(Patch(writes=(
        TabWrite(title="Итоги", rows=(hostile,)),
        TabWrite(title="Лист1", owned=False, rows=(hostile,)),
    )), base=None)
    for tab in ("Итоги", "Лист1"):
        cells = fake_server.cells(sid, tab)
        assert all(c.formula is None for c in cells.values())
        assert [cells[f"{chr(65 + i)}1"].value for i in range(len(hostile))] == list(hostile)
    snap = backend.read()
    assert snap.tabs["Итоги"] == (hostile,)
    # no values API write with USER_ENTERED ever happened
    assert not any("values:batchUpdate" in r["path"] for r in fake_server.request_log)


def test_sixty_tab_cycle_request_count(fake_server, sa_key):
    tabs = {f"Тур {r} Стол {t}": PROTOCOL for r in range(1, 13) for t in range(1, 6)}
    sid = fake_server.create_spreadsheet("Big", tabs=tabs)
    assert len(tabs) == 60
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    marks = tuple(Mark(sheet=t, cell="D7", severity="warning", note="x") for t in tabs)
    owned = tuple(TabWrite(title=f"Итоги {i}", rows=((i, "x"),) * 30) for i in range(5))
    backend.apply(Patch(writes=owned, set_marks=marks), base=snap)
    assert fake_server.request_count <= 3  # metadata + batchGet + batchUpdate
    assert fake_server.request_count == 3
    fake_server.reset_counts()
    snap = backend.read()
    backend.apply(Patch(writes=owned, clear_marks=tuple((t, "D7") for t in tabs)), base=snap)
    assert fake_server.request_count == 2
    assert len(snap.order) == 65


def test_long_tab_list_read_in_one_post(fake_server, sa_key):
    tabs = {f"Очень длинное название вкладки для проверки длины адреса {i:03d}": [[i]] for i in range(150)}
    sid = fake_server.create_spreadsheet("Long", tabs=tabs)
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    gets = [r for r in fake_server.request_log if r["path"].endswith("values:batchGet")]
    posts = [r for r in fake_server.request_log if r["path"].endswith("values:batchGetByDataFilter")]
    assert gets == [] and len(posts) == 1  # a URL that long would be split; the POST is one request
    assert all(r["url_length"] <= 8500 for r in fake_server.request_log)
    assert [snap.tabs[t] for t in snap.order] == [((i,),) for i in range(150)]


def test_decimal_and_types_written_as_numbers(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = make_backend(fake_server, sa_key, sid)
    backend.apply(Patch(writes=(TabWrite(title="A", rows=(
        (Decimal("0.5"), Decimal("3"), 7, -2.25, False, float("nan"), Decimal("NaN")),
    )),)), base=None)
    raw = [c.raw["userEnteredValue"] for c in fake_server.cells(sid, "A").values()]
    assert raw == [{"numberValue": 0.5}, {"numberValue": 3}, {"numberValue": 7}, {"numberValue": -2.25},
                   {"boolValue": False}, {"stringValue": "nan"}, {"stringValue": "NaN"}]
    assert backend.read().tabs["A"] == ((0.5, 3, 7, -2.25, False, "nan", "NaN"),)


def test_retry_on_429_and_500(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]]})
    backend = make_backend(fake_server, sa_key, sid)
    fake_server.faults.extend([Fault(status=429, times=2), Fault(status=500), Fault(status=503, match=":batchUpdate")])
    assert backend.read().tabs["A"] == (("x",),)
    backend.apply(Patch(writes=(TabWrite(title="B", rows=(("y",),)),)), base=None)
    assert fake_server.tabs(sid) == ["A", "B"]
    assert backend.http.retries == 4


def test_slow_answer_times_out_and_is_retried(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]]})
    backend = make_backend(fake_server, sa_key, sid, http_timeout=0.3)
    fake_server.faults.append(Fault(delay=0.8, match="values:batchGet"))
    assert backend.read().tabs["A"] == (("x",),)
    assert backend.http.retries == 1


def test_retries_are_bounded(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = make_backend(fake_server, sa_key, sid, max_retries=3)
    backend.read()
    fake_server.reset_counts()
    fake_server.faults.append(Fault(status=429, times=100))
    with pytest.raises(TransientError, match="429"):
        backend.read()
    assert fake_server.request_count == 4  # 1 + 3 retries


def test_no_retry_on_400(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = make_backend(fake_server, sa_key, sid)
    with pytest.raises(ValueError):
        backend.apply(Patch(set_marks=(Mark(sheet="A", cell="not-a-cell", severity="error", note="n"),)), base=None)
    backend.read()
    fake_server.reset_counts()
    fake_server.faults.append(Fault(status=400, message="Invalid value", times=5))
    with pytest.raises(Exception) as info:
        backend.read()
    assert not isinstance(info.value, TransientError)
    assert fake_server.request_count == 1


def test_permission_denied_names_service_account(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("Private", tabs={"A": []}, shared_with={"someone@example.com"})
    backend = make_backend(fake_server, sa_key, sid)
    with pytest.raises(PermissionDenied) as info:
        backend.read()
    assert SA_EMAIL in str(info.value)
    assert fake_server.request_count == 1  # 403 is not retried
    fake_server.share(sid, SA_EMAIL)
    assert backend.read().order == ("A",)


def test_not_found(fake_server, sa_key):
    backend = make_backend(fake_server, sa_key, "1NoSuchSpreadsheet0000000000000000000000000")
    with pytest.raises(WorkbookNotFound):
        backend.read()
    assert fake_server.request_count == 1


def test_renamed_tab_mid_cycle(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"Игроки": [["Alpha"]], "Тур 1 Стол 1": PROTOCOL})
    backend = make_backend(fake_server, sa_key, sid)
    backend.read()
    fake_server.reset_counts()
    # a judge renames a tab just before our next batchGet
    fake_server.rename_mid_cycle(sid, "Тур 1 Стол 1", "Тур 1 Стол 1 (испр)")
    snap = backend.read()
    assert snap.order == ("Игроки", "Тур 1 Стол 1 (испр)")
    assert snap.tabs["Тур 1 Стол 1 (испр)"][0] == ("Протокол игры",)
    assert fake_server.request_count == 3  # failed batchGet, metadata, batchGet
    fake_server.reset_counts()
    backend.read()
    assert fake_server.request_count == 1


def test_tab_deleted_between_read_and_apply(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]], "B": [["y"]]})
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    fake_server.delete_tab(sid, "B")
    fake_server.reset_counts()
    backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=(("z",),)),),
                        set_marks=(Mark(sheet="B", cell="A1", severity="error", note="n"),
                                   Mark(sheet="A", cell="A1", severity="error", note="n"))), base=snap)
    assert fake_server.request_count == 3  # rejected batchUpdate, metadata, batchUpdate
    assert fake_server.tabs(sid) == ["A", "Итоги"]
    assert fake_server.cells(sid, "A")["A1"].note == "n"


def test_writes_beyond_default_grid(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = make_backend(fake_server, sa_key, sid)
    wide = tuple(range(40))
    backend.apply(Patch(writes=(TabWrite(title="A", rows=(wide,) * 3),
                                TabWrite(title="N", rows=(wide,), owned=False)),
                        set_marks=(Mark(sheet="A", cell="A1200", severity="error", note="far"),)), base=None)
    assert fake_server.values(sid, "A")[0] == list(wide)
    assert fake_server.cells(sid, "A")["A1200"].note == "far"
    assert fake_server.values(sid, "N") == [list(wide)]


def test_new_tab_seen_after_metadata_max_age(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": []})
    backend = make_backend(fake_server, sa_key, sid, metadata_max_age=0)
    backend.read()
    fake_server.add_tab(sid, "Тур 9 Стол 9")
    assert backend.read().order == ("A", "Тур 9 Стол 9")


def test_create_spreadsheet_and_init(fake_server, sa_key):
    backend = GoogleBackend.create_spreadsheet("Кубок", http_client=fake_http_client(fake_server, sa_key),
                                               locale="ru_RU", share_with=["org@example.com"])
    sid = backend.spreadsheet_id
    assert fake_server.spreadsheets[sid].permissions[0]["emailAddress"] == "org@example.com"
    fake_server.reset_counts()
    backend.apply(Patch(writes=(TabWrite(title="Игроки", owned=False, rows=(("Игрок", "Клуб"),)),),
                        delete_tabs=("Sheet1",)), base=None)
    assert fake_server.request_count == 1
    assert fake_server.tabs(sid) == ["Игроки"]


def test_endpoint_from_environment_and_credentials_never_logged(fake_server, sa_key, private_key_pem,
                                                                  monkeypatch, caplog):
    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]]})
    monkeypatch.setenv(ENDPOINT_ENV, fake_server.url)
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", sa_key)
    os.chmod(sa_key, 0o644)
    caplog.set_level(logging.DEBUG)
    backend = GoogleBackend(f"https://docs.google.com/spreadsheets/d/{sid}/edit#gid=0", backoff_base=0.001)
    fake_server.faults.append(Fault(status=503))
    assert backend.read().tabs["A"] == (("x",),)
    assert any("readable by every user" in w for w in backend.warnings)
    body = private_key_pem.splitlines()[1]
    assert body not in caplog.text and "ya29." not in caplog.text
    assert all(body not in w for w in backend.warnings)


def test_bad_credentials_file(tmp_path, fake_server):
    path = tmp_path / "k.json"
    path.write_text(json.dumps({"type": "service_account", "client_email": SA_EMAIL,
                                "private_key": "-----BEGIN PRIVATE KEY-----\nsecretsecret\n-----END PRIVATE KEY-----\n",
                                "token_uri": fake_server.token_uri}))
    backend = GoogleBackend("gsheet:1AbCdEfGhIjKlMnOp", credentials=str(path), endpoint=fake_server.url)
    with pytest.raises(PermissionDenied) as info:
        backend.read()
    assert "secretsecret" not in str(info.value)
    with pytest.raises(PermissionDenied, match="not found"):
        GoogleBackend("gsheet:1AbCdEfGhIjKlMnOp", credentials=str(tmp_path / "none.json"),
                      endpoint=fake_server.url).read()


def test_locale_advice():
    assert "date" in locale_advice("ru_RU")
    assert "15" in locale_advice("en_US")
    assert locale_advice(None) is None


def test_fake_server_contract(fake_server, sa_key):
    """Shapes our code relies on: empty range has no 'values', unknown tab is a 400."""
    import requests

    sid = fake_server.create_spreadsheet("T", tabs={"A": [["1,5", "", "x"], [], []], "B": []}, locale="en_US")
    backend = make_backend(fake_server, sa_key, sid)
    session = backend.http.session
    url = f"{fake_server.url}/v4/spreadsheets/{sid}/values:batchGet"
    r = session.get(url, params={"ranges": ["'A'", "'B'"], "valueRenderOption": "FORMATTED_VALUE"})
    data = r.json()
    assert data["valueRanges"][0]["values"] == [["1,5", "", "x"]]
    assert "values" not in data["valueRanges"][1]
    r = session.get(url, params={"ranges": ["'C'"]})
    assert r.status_code == 400
    assert r.json() == {"error": {"code": 400, "message": "Unable to parse range: 'C'",
                                  "status": "INVALID_ARGUMENT"}}
    # USER_ENTERED turns a leading '=' into a formula; RAW does not
    body = {"valueInputOption": "USER_ENTERED", "data": [{"range": "A!A5", "values": [["=1+2", "0.5"]]}]}
    assert session.post(f"{fake_server.url}/v4/spreadsheets/{sid}/values:batchUpdate", json=body).ok
    assert fake_server.cells(sid, "A")["A5"].formula == "=1+2"
    assert fake_server.cells(sid, "A")["B5"].value == 0.5
    # an invalid request anywhere rejects the whole batchUpdate
    bad = {"requests": [{"addSheet": {"properties": {"title": "Z"}}}, {"deleteSheet": {"sheetId": 999}}]}
    r = session.post(f"{fake_server.url}/v4/spreadsheets/{sid}:batchUpdate", json=bad)
    assert r.status_code == 400 and "Z" not in fake_server.tabs(sid)
    assert requests.get(f"{fake_server.url}/v4/spreadsheets/{sid}").status_code == 401


def test_random_faults_converge(fake_server, sa_key):
    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]]})
    backend = make_backend(fake_server, sa_key, sid, max_retries=10)
    fake_server.fault_rates.update({429: 0.25, 500: 0.1, 503: 0.1})
    for i in range(5):
        snap = backend.read()
        assert snap.tabs["A"] == (("x",),)
        backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=((i,),)),)), base=snap)
    fake_server.fault_rates.clear()
    assert fake_server.values(sid, "Итоги") == [[4]]
    assert backend.http.retries > 0


def test_dates_and_recreated_tab(fake_server, sa_key):
    from datetime import date, datetime

    sid = fake_server.create_spreadsheet("T", tabs={"A": [["x"]], "Итоги": [["old"]]})
    backend = make_backend(fake_server, sa_key, sid)
    snap = backend.read()
    old_id = fake_server.sheet_properties(sid, "Итоги")["sheetId"]
    backend.apply(Patch(writes=(TabWrite(title="Итоги", rows=((date(2025, 5, 2), datetime(2025, 5, 2, 12)),)),),
                        delete_tabs=("Итоги",)), base=snap)
    assert fake_server.sheet_properties(sid, "Итоги")["sheetId"] != old_id
    cells = fake_server.cells(sid, "Итоги")
    assert cells["A1"].value == 45779 and cells["A1"].number_format == "DATE"
    assert cells["B1"].value == 45779.5 and cells["B1"].number_format == "DATE_TIME"
