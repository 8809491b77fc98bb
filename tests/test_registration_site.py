"""The public side of registration (issue 45 §1): the site's «Участники» page lists who is in and who
waits, in order, and standings.json's ``registration`` says the same in numbers — never a contact;
the page at 390 px fits the phone (screenshot in tests/artifacts/registration/)."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from sheets_sync.backends.memory import MemoryBackend
from sheets_sync.loop.outcome import compute
from sheets_sync.render.json_out import standings_document
from sheets_sync.render.site import ENTRANTS_FILE, write_site
from sheets_sync.resources import shipped
from tests.web.browser import ARTIFACTS, chromium, phone  # noqa: F401  (fixtures)

HEADER = ["Игрок", "Клуб", "Город", "Заявка", "Подана", "Телефон", "Telegram"]
CONTACTS = ("+49 170 1234567", "@adam_secret", "+7 900 000-00-00", "@gamma_secret")


def _outcome(places: int | None = 4, applications: bool = True):
    rows = [["Ева", "Клуб 1", "Кёльн", "", "", "", ""]]
    if applications:
        rows += [["Адам Длинноникович-Многобуквенный", "Северный Рейн", "Дюссельдорф", "подтверждена",
                  "01.04.2016 10:00", CONTACTS[0], CONTACTS[1]],
                 ["Бета", "", "", "оплачена", "01.04.2016 11:00", "", ""],
                 ["Вега", "", "", "подана", "01.04.2016 12:00", "", ""],
                 ["Жук", "", "", "лист ожидания", "03.04.2016 10:00", "", ""],
                 ["Гамма", "Клуб 2", "Бонн", "лист ожидания", "02.04.2016 10:00", CONTACTS[2], CONTACTS[3]],
                 ["Дельта", "", "", "снялась", "", "", ""]]
    settings = [["Мест", places]] if places else []
    tabs = {"Турнир": [["Название", "German Mafia Open"], ["Регламент", "fiim-2023"], *settings], "Игроки": [HEADER, *rows]}
    return compute(MemoryBackend(tabs).read())


def test_standings_json_says_who_is_in_and_who_waits_and_matches_the_schema():
    outcome = _outcome()
    document = standings_document(outcome.results, outcome.problems, language="ru")
    assert document["registration"] == {"places": 4, "confirmed": 3, "pending": 1, "places_left": 0,
                                        "waiting": ["Гамма", "Жук"]}
    schema = json.loads((shipped("schemas") / "standings.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(document)
    text = json.dumps(document, ensure_ascii=False)
    assert not [c for c in CONTACTS if c in text]


def test_a_tournament_without_registration_has_no_registration_key_nor_page(tmp_path):
    outcome = _outcome(places=None, applications=False)
    assert "registration" not in standings_document(outcome.results, outcome.problems, language="ru")
    write_site(outcome.results, outcome.problems, tmp_path, language="ru")
    assert not (tmp_path / ENTRANTS_FILE).exists()
    assert "Участники" not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_the_entrants_page_lists_who_is_in_then_the_waiting_list_in_order_never_a_contact(tmp_path):
    outcome = _outcome()
    write_site(outcome.results, outcome.problems, tmp_path, language="ru")
    page = (tmp_path / ENTRANTS_FILE).read_text(encoding="utf-8")
    assert "Мест: 4 · Участвуют: 3 · свободно: 0 · заявок ждут решения организатора: 1" in page
    taking, waiting = page.split("Лист ожидания", 1)
    assert taking.index("Ева") < taking.index("Адам") < taking.index("Бета")
    assert "Вега" not in page and "Дельта" not in page  # undecided and withdrawn: not listed by name
    assert waiting.index("Гамма") < waiting.index("Жук")
    assert not [c for c in CONTACTS if c in page]
    assert 'href="entrants.html"' in (tmp_path / "index.html").read_text(encoding="utf-8")


@pytest.mark.browser
def test_the_entrants_page_fits_a_phone(tmp_path, phone):  # noqa: F811
    outcome = _outcome()
    write_site(outcome.results, outcome.problems, tmp_path, language="ru")
    phone.goto((tmp_path / ENTRANTS_FILE).as_uri())
    assert phone.locator("table.entrants tbody tr").count() == 3
    assert phone.locator("table.waiting tbody tr").count() == 2
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    out = ARTIFACTS / "registration"
    out.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(out / "entrants-390.png"), full_page=True)
