"""What judges really type, through the real backends, and what they see (project issue 13 §1).

Every case is typed into its own table of a one-round tournament (tests/judge.py) the way the
person's client stores it — a Google spreadsheet in ru_RU or en_US (the fake server's
USER_ENTERED coercion, sources in tests/fake_sheets.py) or a Russian Excel file — then one real
sync runs per workbook.  Each case then shows what the person sees: the value the sync counted
(the parsed protocol, the game among the counted ones, no mark, and where it earns points the
Standings cell), or the mark in the judge's cell (colour and note) with its one line on the
Problems tab — never a game dropped without a message saying why.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.model import Removal, Team
from scoring.parse import seat_readings
from scoring.rule_names import rule_name
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.loop.sync import sync_once
from tests.google_support import ExcelBook, GoogleBook, google_backend, upload_tabs
from tests.fake_sheets import _user_entered
from tests.judge import ExcelDesk, GoogleDesk, excel_ru_entered, table_tournament, write_xlsx
from tests.helpers import table

THIS_YEAR = date.today().year


@dataclass(frozen=True)
class Read:
    """The sync reads ``value`` from the case's cell; the game counts; no mark there."""

    field: str  # a SeatRecord attribute of the case's seat, or "winner"
    value: object
    column: tuple[str, str] | None = None  # (ru, en) Standings column where the person sees ...
    shown: Decimal | None = None  # ... this number for the case's player


@dataclass(frozen=True)
class Marked:
    """The case's cell is marked with exactly this problem, listed once on the Problems tab."""

    rule: str
    ru: str
    en: str
    severity: str = "error"


BEST, EXTRA, TOTAL = ("Лучший ход", "Best move"), ("Доп. баллы", "Extra points"), ("Итого", "Total")


def best(*seats: int, points: str) -> Read:
    return Read("best_move", seats, BEST, Decimal(points))


def extra(value: str) -> Read:
    return Read("extra_points", Decimal(value), EXTRA, Decimal(value))


def date_guessed(day: str) -> Marked:
    return Marked("read.date_guessed", f"Таблица превратила ввод в дату ({day}); введите число как текст",
                  f"The spreadsheet turned the input into a date ({day}); type the number as text")


def extra_range(value: str) -> Marked:
    return Marked("extra.range", f"Место 7: доп. баллы {value} вне диапазона 0…0.7",
                  f"Seat 7: extra points {value} outside 0…0.7")


TWO_SEATS = Marked("best_move.partial", "Место 1: лучший ход — три других места, а записано «8 10»; засчитан по чёрным "
                   "среди мест 8 10", "Seat 1: a best move is three other seats, the protocol has '8 10'; scored by the "
                   "blacks among seats 8 10", severity="warning")
FEB_1 = f"01.02.{THIS_YEAR}"  # "1.2" in ru_RU Sheets and Russian Excel
READ_258 = Marked("fouls.range", "Место 7: фолов 258, допустимо 0–4", "Seat 7: 258 fouls, allowed 0–4")

# (id, {cell: text typed, the first cell is the case's}, seat, expected on Google ru_RU, Google en_US, Russian Excel)
CASES = [
    # best move (seat 1, shot on night 1; seats 2 and 8 are mafia, 6 the don)
    ("best 8 9 10", {"H10": "8 9 10"}, 1, *[best(8, 9, 10, points="0")] * 3),  # ru: 8910; en: 9 Aug 2010; Excel: text
    ("best 3 7 10", {"H10": "3 7 10"}, 1, *[best(3, 7, 10, points="0")] * 3),
    ("best 2 6 8", {"H10": "2 6 8"}, 1, *[best(2, 6, 8, points="0.5")] * 3),  # ru: 268; en: 6 Feb 2008
    ("best 2 6 10", {"H10": "2 6 10"}, 1, *[best(2, 6, 10, points="0.25")] * 3),
    ("best 2,6,8", {"H10": "2,6,8"}, 1, *[best(2, 6, 8, points="0.5")] * 3),  # text everywhere
    ("best '8.9.10", {"H10": "'8.9.10"}, 1, *[best(8, 9, 10, points="0")] * 3),  # the apostrophe keeps it text
    # two seats (ru_RU stores 810): a warning, scored by the blacks named, the game counts (issue 25 §6)
    ("best two seats", {"H10": "8 10"}, 1,
     TWO_SEATS, replace(date_guessed(f"10.08.{THIS_YEAR}"), severity="warning"),  # en_US: 10 August
     TWO_SEATS),
    ("best dash", {"H10": "-"}, 1, *[Read("best_move", (), BEST, Decimal(0))] * 3),
    # extra points (seat 7; the preset allows 0 … 0.7)
    ("extra 0,5", {"I16": "0,5"}, 7, *[extra("0.5")] * 3),  # en_US keeps "0,5" as text
    ("extra 0.5", {"I16": "0.5"}, 7, *[extra("0.5")] * 3),  # ru_RU and Russian Excel keep "0.5" as text
    ("extra ½", {"I16": "½"}, 7, *[extra("0.5")] * 3),
    ("extra 1,5", {"I16": "1,5"}, 7, *[extra_range("1.5")] * 3),
    ("extra 1.2", {"I16": "1.2"}, 7, date_guessed(FEB_1), extra_range("1.2"), date_guessed(FEB_1)),
    ("extra dash", {"I16": "-"}, 7, *[Read("extra_points", Decimal(0), EXTRA, Decimal(0))] * 3),
    # fouls (seat 7)
    ("fouls 2", {"D16": "2"}, 7, *[Read("fouls", 2)] * 3),
    ("fouls 2 5 8", {"D16": "2 5 8"}, 7, READ_258, date_guessed("05.02.2008"), READ_258),
    ("fouls да 3", {"D16": "да 3"}, 7, *[Marked("read.number", "«да 3» — не число", "'да 3' is not a number")] * 3),
    ("fouls 1.2", {"D16": "1.2"}, 7, date_guessed(FEB_1),
     Marked("read.integer", "«1.2» — не целое число", "'1.2' is not a whole number"), date_guessed(FEB_1)),
    ("fouls dash", {"D16": "-"}, 7, *[Read("fouls", 0)] * 3),
    # removal (seat 7 removed on day 3: −0.5 of his 1 + 0.3; seat 8 team defeat on day 4 instead of the vote)
    ("removed да 3", {"G16": "да 3", "D16": "4"}, 7,
     *[Read("removal_day", 3, TOTAL, Decimal("0.8"))] * 3),
    ("team defeat ППК 4", {"G17": "ППК 4", "F17": None}, 8, *[Read("removal", Removal.TEAM_DEFEAT)] * 3),
    ("removal 1.2", {"G16": "1.2"}, 7, date_guessed(FEB_1),
     Marked("read.removal", "«1.2»: в «Удалён» пишут «да» или «ППК» (можно с номером дня)",
            "'1.2': 'Removed' takes 'yes' or 'team defeat' (optionally with the day)"), date_guessed(FEB_1)),
    # a role typed with a Latin letter that looks like the Cyrillic one (issue 43 §7): one error at the
    # cell saying which letter, not «unknown role» plus «no role» for the same seat
    ("role Latin k", {"C16": "k"}, 7,
     *[Marked("read.role_lookalike", "«k» — латинская буква «k» вместо русской «к»: роль «к» (мирный) пишут русскими буквами",
              "'k': the Latin letter 'k' in place of the Cyrillic 'к' — the role 'к' (civilian) is typed in Cyrillic")] * 3),
    ("role дoн with a Latin o", {"C15": "дoн"}, 6,
     *[Marked("read.role_lookalike", "«дoн» — латинская буква «o» вместо русской «о»: роль «дон» (дон) пишут русскими буквами",
              "'дoн': the Latin letter 'o' in place of the Cyrillic 'о' — the role 'дон' (don) is typed in Cyrillic")] * 3),
    # the winner cell
    ("winner мирные победили", {"B6": "мирные победили"}, 1, *[Read("winner", Team.RED)] * 3),
    ("winner М", {"B6": "М"}, 1,
     *[Marked("read.winner", "«М» — непонятный победитель: пишите «Мирные» (красные, К) или «Мафия» (чёрные, Ч)",
              "'М' is not a winner: write 'Red' (civilians, R) or 'Black' (mafia, B)")] * 3),
]
DESKS = {"google ru_RU": 3, "google en_US": 4, "excel ru": 5}  # the index of each desk's expectation in a case


def tab(k: int) -> str:
    return f"Тур 1 Стол {k}"


def _edits() -> dict[tuple[str, str], str | None]:
    return {(tab(k), cell): text for k, case in enumerate(CASES, start=1) for cell, text in case[1].items()}


def _check(desk: str, book, report, language: str) -> None:
    """Every case as the person sees it after the sync."""
    protocols = {p.sheet: p for p in report.outcome.results.tournament.protocols}
    counted = {p.sheet for p in report.outcome.results.counted}
    marks = book.marks()
    problems = table(book.values("Problems" if language == "en" else "Проверка"))[1:]
    standings = table(book.values("Standings" if language == "en" else "Итоги"))
    header = standings[0]
    failures = []
    for k, case in enumerate(CASES, start=1):
        name, cells, seat, expected = case[0], case[1], case[2], case[DESKS[desk]]
        cell = next(iter(cells))
        listed = [row for row in problems if row[0] == tab(k)]
        if isinstance(expected, Read):
            p = protocols[tab(k)]
            got = p.winner if expected.field == "winner" else getattr(p.seats[seat - 1], expected.field)
            seen = None
            if expected.column:
                player = p.seats[seat - 1].player
                row = next(r for r in standings if r[1] == player)
                seen = row[header.index(expected.column[language == "en"])]
            if (got, (tab(k), cell) in marks, tab(k) in counted, listed, seen) != \
                    (expected.value, False, True, [], expected.shown):
                failures.append((name, got, marks.get((tab(k), cell)), listed, seen))
        else:
            message = expected.en if language == "en" else expected.ru
            severity = expected.severity if language == "en" else {"error": "ошибка", "warning": "предупреждение"}[expected.severity]
            want = ((expected.severity, message), [(tab(k), cell, severity, message, rule_name(expected.rule, language))],
                    expected.severity != "error")
            got = (marks.get((tab(k), cell)), listed, tab(k) in counted)
            if got != want:
                failures.append((name, got, want))
    assert failures == []


@pytest.mark.parametrize("locale, language", [("ru_RU", "ru"), ("en_US", "en")])
def test_typed_into_google_sheets(fake_server, sa_key, locale, language):
    sid = upload_tabs(fake_server, table_tournament(len(CASES), language=language), locale=locale)
    GoogleDesk(fake_server, sid, sa_key).type(_edits())
    report = sync_once(google_backend(fake_server, sa_key, sid), out_dir=None)
    _check(f"google {locale}", GoogleBook(fake_server, sa_key, sid), report, language)


def test_typed_into_russian_excel(tmp_path):
    path = write_xlsx(tmp_path / "cup.xlsx", table_tournament(len(CASES)))
    ExcelDesk(path).type(_edits())
    report = sync_once(ExcelBackend(path), out_dir=None)
    _check("excel ru", ExcelBook(path), report, "ru")


def test_a_cell_formatted_as_plain_text_keeps_what_is_typed(fake_server, sa_key):
    """`init` formats text-like columns as plain text (Sheets numberFormat TEXT): there ``8 9 10``
    and ``0,5`` stay the text the judge typed, and the sync reads them."""
    sid = upload_tabs(fake_server, table_tournament(1), locale="ru_RU")
    for cell in ("H10", "I16"):
        fake_server.set_number_format(sid, tab(1), cell, "TEXT")
    GoogleDesk(fake_server, sid, sa_key).type({(tab(1), "H10"): "8 9 10", (tab(1), "I16"): "0,5"})
    stored = fake_server.cells(sid, tab(1))
    assert [stored[c].raw["userEnteredValue"] for c in ("H10", "I16")] == [{"stringValue": "8 9 10"}, {"stringValue": "0,5"}]
    report = sync_once(google_backend(fake_server, sa_key, sid), out_dir=None)
    seats = report.outcome.results.tournament.protocols[0].seats
    assert (seats[0].best_move, seats[6].extra_points) == ((8, 9, 10), Decimal("0.5"))
    assert report.outcome.problems == () or all(p.sheet != tab(1) for p in report.outcome.problems)


# -- the digit-run decoder ------------------------------------------------------------------------------
def _read_best_move(value) -> tuple[tuple[int, ...], list[str]]:
    """The best move the reader makes of ``value`` in seat 1's cell, and the reading problems there."""
    from tests.rulebook import parse, workbook

    protocol, problems = parse(workbook({"H10": value}))
    return protocol.seats[0].best_move, [rule for rule, _, cell in problems if cell == "H10"]


three_seats = st.lists(st.integers(2, 10), min_size=3, max_size=3, unique=True)


@given(three_seats)
def test_every_best_move_sheets_coerces_decodes_back_to_itself(seats):
    """ru_RU Sheets stores ``8 9 10`` as 8910, en_US as 9 Aug 2010, Russian Excel ``8.9.10`` as
    8 Sep 2010: each is read back as the seats typed (a date keeps no order: the set counts)."""
    typed = " ".join(map(str, seats))
    for locale in ("ru_RU", "en_US"):
        stored, _ = _user_entered(typed, locale, today=date(2026, 3, 1))
        assert "numberValue" in stored
        value, problems = _read_best_move(stored["numberValue"])
        assert (sorted(value), problems) == (sorted(seats), [])
    value, problems = _read_best_move(excel_ru_entered(".".join(map(str, seats))))
    assert (sorted(value), problems) == (sorted(seats), [])


def _readings_by_brute_force(digits: str, count: int = 3) -> set[tuple[int, ...]]:
    found = set()
    for cuts in itertools.combinations(range(1, len(digits)), count - 1):
        parts = [digits[i:j] for i, j in zip((0, *cuts), (*cuts, len(digits)))]
        if all(p[0] != "0" and 1 <= int(p) <= 10 for p in parts) and len({int(p) for p in parts}) == count:
            found.add(tuple(int(p) for p in parts))
    return found


@given(st.text(alphabet="0123456789", min_size=3, max_size=4).filter(lambda d: d[0] != "0"))
def test_a_digit_run_is_read_only_when_exactly_one_reading_exists(digits):
    assert set(seat_readings(digits)) == _readings_by_brute_force(digits)
    # three seats if they can be read, else two (the best-move rule scores what was named, with a warning)
    readings = _readings_by_brute_force(digits) or _readings_by_brute_force(digits, 2)
    value, problems = _read_best_move(int(digits))
    if len(readings) == 1:
        assert (value, problems) == (readings.pop(), [])
    else:  # no reading (or, were seats ever ambiguous, several): not read, never a guess
        assert (value, problems) == ((), ["read.best_move"])


@pytest.mark.parametrize("run, seats", [(8910, (8, 9, 10)), (3710, (3, 7, 10)), (258, (2, 5, 8)), (1092, (10, 9, 2)),
                                        (2101, (2, 10, 1)), (1010, None), (100, None), (12345, None), (810, (8, 10))])
def test_digit_runs_from_the_issue(run, seats):
    value, problems = _read_best_move(run)
    assert (value, problems) == ((seats, []) if seats else ((), ["read.best_move"]))
