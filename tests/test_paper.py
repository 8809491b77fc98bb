"""Paper conventions (project issue 13 §2) and incomplete protocols (issue 15 §2), typed the way
judges type them through the real backends, checked where the person looks: the game counted
(Standings), the marks (colour and note) in the judge's cells and the Problems tab lines.

* an empty role is a civilian when exactly one don, two mafia and one sheriff are marked;
* a problem of several cells marks every one of them, each note naming the others, and is
  listed once with all its cells;
* the winner as judges write it is understood, or one clear error (never also "not finished");
* a protocol whose departures contradict the winner is an error; one that merely does not
  record enough to confirm it is a warning naming what is missing, for either winner, and counts.
"""

from __future__ import annotations

import pytest

from scoring.cells import parse_a1
from scoring.model import Team
from sheets_sync.backends.excel import ExcelBackend
from sheets_sync.loop.sync import sync_once
from tests.google_support import ExcelBook, GoogleBook, google_backend, upload_tabs
from tests.judge import ExcelDesk, GoogleDesk, table_tournament, write_xlsx
from tests.rulebook import BLACK_GAME, parse, problems_in, run, workbook
from tests.helpers import table

BLANK_ROLES = [""] * 10
ALSO = "\nДругие ячейки этой проблемы: "

# (what the judge types into a protocol whose roles are all empty, its valid red game typed, or
#  the black one) -> marks expected in that tab: {cell: (severity, note)}; the game counts when
#  no mark is an error.  One table per case, all in one workbook, one sync.
CASES = [
    ("roles 1-2-1 marked, the rest empty: civilians",
     dict(roles=BLANK_ROLES), {"C11": "м", "C13": "ш", "C15": "д", "C17": "м"}, {}),
    ("dash for a civilian's role", dict(roles=BLANK_ROLES), {"C11": "м", "C13": "ш", "C15": "д", "C17": "м", "C10": "-"}, {}),
    ("no sheriff marked: the empty roles stay unknown",
     dict(roles=BLANK_ROLES), {"C11": "м", "C15": "д", "C17": "м", "C13": "мирный"},
     {f"C{9 + s}": ("error", f"Место {s}: роль не указана") for s in (1, 3, 5, 7, 9, 10)}),
    ("two dons: both marked", {}, {"C11": "д"}, {
        "C11": ("error", "Роли: 2 дон, 1 мафии, 1 шериф, 6 мирных; нужно 1, 2, 1, 6" + ALSO + "C15"),
        "C15": ("error", "Роли: 2 дон, 1 мафии, 1 шериф, 6 мирных; нужно 1, 2, 1, 6" + ALSO + "C11")}),
    ("three mafia: all three marked", {}, {"C19": "мафия"}, {
        cell: ("error", "Роли: 1 дон, 3 мафии, 1 шериф, 5 мирных; нужно 1, 2, 1, 6" + ALSO
               + ", ".join(c for c in ("C11", "C17", "C19") if c != cell)) for cell in ("C11", "C17", "C19")}),
    ("two shot on night 1: both marked", {}, {"E14": "1"}, {
        "E10": ("error", "Ночь 1: убиты двое (места 1, 5)" + ALSO + "E14"),
        "E14": ("error", "Ночь 1: убиты двое (места 1, 5)" + ALSO + "E10")}),
    ("voted out and removed: both cells", {}, {"G11": "да 1"}, {
        "F11": ("error", "Место 2: игрок покинул стол дважды (заголосован, удалён)" + ALSO + "G11"),
        "G11": ("error", "Место 2: игрок покинул стол дважды (заголосован, удалён)" + ALSO + "F11")}),
    ("black written, the departures say red: the winner and the deciding vote", {}, {"B6": "победа мафии"}, {
        "B6": ("error", "Победа «Мафия» противоречит протоколу: все чёрные выбыли — победа «Мирные»" + ALSO + "F17"),
        "F17": ("error", "Победа «Мафия» противоречит протоколу: все чёрные выбыли — победа «Мирные»" + ALSO + "B6")}),
    ("a shot after the end: the shot and the vote that ended the game", {}, {"E18": "4"}, {
        "E18": ("error", "Место 9: убит в ночь 4, но игра уже закончилась: все чёрные выбыли" + ALSO + "F17"),
        "F17": ("error", "Место 9: убит в ночь 4, но игра уже закончилась: все чёрные выбыли" + ALSO + "E18")}),
    ("red win written as judges do", {}, {"B6": "Мирные победили!"}, {}),
    ("black win as Ч", dict(game=BLACK_GAME, winner=""), {"B6": "Ч"}, {}),
    ("an unreadable winner: one error, not also «not finished»", {}, {"B6": "М"}, {
        "B6": ("error", "«М» — непонятный победитель: пишите «Мирные» (красные, К) или «Мафия» (чёрные, Ч)")}),
    ("red win, a black player's vote not recorded: a warning, the game counts", {}, {"F17": None}, {
        "B6": ("warning", "Победа «Мирные» не подтверждается протоколом: у 1 чёрного игрока не записано выбывание (место 8)")}),
    ("black win, red departures missing: a warning, the game counts", dict(game=BLACK_GAME, winner="Мафия"), {"F14": None}, {
        "B6": ("warning", "Победа «Мафия» не подтверждается протоколом: не записано выбывание ещё минимум 1 красного игрока "
                          "(за столом остались красных: 4, чёрных: 3)")}),
]


def _workbook() -> dict:
    """Every case's table in one tournament (each case's own roles, game and winner)."""
    tabs = table_tournament(len(CASES))
    for k, (_, options, _, _) in enumerate(CASES, start=1):
        if options:
            tabs[f"Тур 1 Стол {k}"] = table_tournament(k, **options)[f"Тур 1 Стол {k}"]
    return tabs


def _edits() -> dict:
    return {(f"Тур 1 Стол {k}", cell): text for k, case in enumerate(CASES, start=1) for cell, text in case[2].items()}


def _check(book, report) -> None:
    marks = book.marks()
    problems = table(book.values("Проверка"))[1:]
    counted = {p.sheet for p in report.outcome.results.counted}
    failures = []
    for k, (name, _, _, expected) in enumerate(CASES, start=1):
        tab = f"Тур 1 Стол {k}"
        got = {cell: mark for (t, cell), mark in marks.items() if t == tab}
        # each problem is listed once on the Problems tab, naming all of its cells
        listed = sorted(row[1] for row in problems if row[0] == tab)
        wanted_rows = sorted({", ".join(sorted([cell, *note.split(ALSO)[1].split(", ")], key=parse_a1))
                              if ALSO in note else cell for cell, (_, note) in expected.items()})
        counts = all(severity != "error" for severity, _ in expected.values())
        if (got, listed, tab in counted) != (expected, wanted_rows, counts):
            failures.append((name, got, listed, tab in counted))
    assert failures == []


def test_paper_conventions_on_google_sheets(fake_server, sa_key):
    sid = upload_tabs(fake_server, _workbook(), locale="ru_RU")
    GoogleDesk(fake_server, sid, sa_key).type(_edits())
    report = sync_once(google_backend(fake_server, sa_key, sid), out_dir=None)
    _check(GoogleBook(fake_server, sa_key, sid), report)


def test_paper_conventions_in_excel(tmp_path):
    path = write_xlsx(tmp_path / "cup.xlsx", _workbook())
    ExcelDesk(path).type(_edits())
    report = sync_once(ExcelBackend(path), out_dir=None)
    _check(ExcelBook(path), report)


def test_notes_and_the_problems_tab_in_english(tmp_path):
    path = write_xlsx(tmp_path / "cup.xlsx", table_tournament(1, language="en"))
    ExcelDesk(path).type({("Тур 1 Стол 1", "E14"): "1"})
    sync_once(ExcelBackend(path), out_dir=None)
    book = ExcelBook(path)
    note = "Night 1: two players shot (seats 1, 5)\nOther cells of this problem: "
    assert book.marks() == {("Тур 1 Стол 1", "E10"): ("error", note + "E14"), ("Тур 1 Стол 1", "E14"): ("error", note + "E10")}
    assert [row[:4] for row in table(book.values("Problems"))[1:]] == [
        ("Тур 1 Стол 1", "E10, E14", "error", "Night 1: two players shot (seats 1, 5)")]


# -- the winner cell ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed, team", [
    ("Мирные", Team.RED), ("мирные победили", Team.RED), ("Победа мирных", Team.RED), ("победа: красные", Team.RED),
    ("К", Team.RED), ("город", Team.RED), ("Победили мирные жители", Team.RED), ("red wins", Team.RED), ("R", Team.RED),
    ("Мафия", Team.BLACK), ("победа мафии", Team.BLACK), ("Чёрные", Team.BLACK), ("ч.", Team.BLACK),
    ("мафия победила", Team.BLACK), ("black", Team.BLACK), ("Mafia won", Team.BLACK), ("B", Team.BLACK),
    ("М", None), ("мирные проиграли", None), ("ничья", None), ("мирные мафия", None), ("победа", None),
])
def test_winner_words(typed, team):
    """Understood, or one clear error ("М" could be either team; a defeat is not a victory word)."""
    protocol, problems = parse(workbook({"B6": typed}))
    assert protocol.winner is team
    all_problems = [(p.rule, p.severity.value) for p in run(workbook({"B6": typed})) if p.cell == "B6"]
    if team is None:
        assert all_problems == [("read.winner", "error")]
    else:
        assert all(rule.startswith("winner.") for rule, _ in all_problems)


# -- incomplete protocols, both winners (issue 15 §2) ------------------------------------------------------
RED_INCOMPLETE = "Winner 'Red' is not confirmed by the protocol: "
BLACK_INCOMPLETE = "Winner 'Black' is not confirmed by the protocol: "


@pytest.mark.parametrize("winner, base, edits, expected", [
    # red: complete, missing departures (warning), contradicted (error)
    ("Мирные", None, {}, []),
    ("Мирные", None, {"F17": None}, [("warning", RED_INCOMPLETE + "1 black player has no departure recorded (seat 8)")]),
    ("Мирные", None, {"F17": None, "F15": None},
     [("warning", RED_INCOMPLETE + "2 black players have no departure recorded (seats 6, 8)")]),
    ("Мирные", BLACK_GAME, {},
     [("error", "Winner 'Red' contradicts the protocol: blacks (3) are at least as many as reds (3): Black win")]),
    # black: complete, missing departures (warning), contradicted (error)
    ("Мафия", BLACK_GAME, {}, []),
    ("Мафия", BLACK_GAME, {"F14": None},
     [("warning", BLACK_INCOMPLETE + "at least 1 more red player must have left, but no departure is recorded "
                                     "(left at the table: 4 red, 3 black)")]),
    ("Мафия", BLACK_GAME, {"F14": None, "E13": None},
     [("warning", BLACK_INCOMPLETE + "at least 2 more red players must have left, but no departure is recorded "
                                     "(left at the table: 5 red, 3 black)")]),
    ("Мафия", None, {},
     [("error", "Winner 'Black' contradicts the protocol: every black player is out: Red win")]),
])
def test_incomplete_protocols_are_treated_alike_for_both_winners(winner, base, edits, expected):
    kwargs = {"winner": winner} if base is None else {"winner": winner, "base": base}
    got = [(severity, en) for rule, severity, cell, en, _ in problems_in(run(workbook(edits, **kwargs))) if cell == "B6"]
    assert got == expected
