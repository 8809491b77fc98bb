"""Names people mistype (issue 25 §3, issue 23 §1): one folded form of a name, read the same way
by ``init`` (players.csv), the Players tab and every name typed into a protocol, the seating or
the Penalties tab.  Table-driven: the fold itself, then each case through the parser, then
through the command line on a real .xlsx.
"""

from __future__ import annotations

import json

import openpyxl
import pytest
from click.testing import CliRunner

from scoring.parse import parse_tournament, read_settings
from scoring.names import Match, NameIndex, fold, nearest, typed_name
from sheets_sync.cli import EXIT_USER_ERROR, main
from sheets_sync.presets import load_preset
from tests.judge import table_tournament, write_xlsx
from tests.rulebook import problems_in, run, workbook

# (one spelling, another, the same player?) — the near-duplicate table of docs and the note
FOLDS = [
    ("Пума", "пума ", True),  # case, a trailing space
    ("Пума", "Пyма", True),  # a Latin y
    ("Пума", "ПУМA", True),  # upper case, a Latin A
    ("Ёж", "еж", True),  # ё → е
    ("Ёжик", "EЖИK", True),  # Latin E, K
    ("Вольт", "Bольт", True),  # Latin B
    ("Том", "Tom", True),  # Т/T, о/o, and м/m: «Том» equals «ТОМ», which looks like «TOM»
    ("Хан Соло", "  Xан   Cоло ", True),  # Latin X, C, spaces collapsed
    ("Рысь", "Pысь", True),  # Latin P
    ("Кіт", "Кit", True),  # Ukrainian і and Latin i
    ("'+1+1", "+1+1", True),  # the spreadsheet's text escape is not part of the name
    ("Лиса", "Лиза", False),  # a different letter: a typo, not a look-alike
    ("Гроза", "Гроза 2", False),
    ("Бармен", "Барменн", False),
]


@pytest.mark.parametrize("one, other, same", FOLDS)
def test_fold(one, other, same):
    assert (fold(one) == fold(other)) is same
    assert fold(fold(one)) == fold(one)  # folding a folded name changes nothing


@pytest.mark.parametrize("typed, name", [("'+1+1", "+1+1"), ("  'Пума ", "Пума"), ("Пума", "Пума"), ("О'Нил", "О'Нил"),
                                         (None, ""), (7, "7")])
def test_typed_name_drops_only_a_leading_apostrophe(typed, name):
    assert typed_name(typed) == name


@pytest.mark.parametrize("typed, match, name, candidates", [
    ("Пума", Match.EXACT, "Пума", ()),
    ("пyма", Match.FOLDED, "Пума", ()),
    ("Лис", Match.EXACT, "Лис", ()),
    ("ЛИСА", Match.AMBIGUOUS, "ЛИСА", ("лиса", "Лиса")),  # one fold: lower case first, as ICU orders them
    ("Лиза", Match.UNKNOWN, "Лиза", ("лиса", "Лиса", "Лис")),  # equally near first, by name_key
    ("Незнакомец Иванович", Match.UNKNOWN, "Незнакомец Иванович", ()),
])
def test_resolve(typed, match, name, candidates):
    found = NameIndex(["Пума", "Лиса", "лиса", "Лис", "Бармен"]).resolve(typed)
    assert (found.match, found.name, found.candidates) == (match, name, candidates)


def test_nearest_is_by_the_folded_names_closest_first():
    assert nearest("Бapмен", ["Вольт", "Барон", "Бармен"]) == ["Бармен"]  # 0 letters apart; Барон 2
    assert nearest("Барм", ["Вольт", "Барон", "Бармен"]) == ["Бармен", "Барон"]  # 2 and 2
    assert nearest("Вольтаж", ["Вольт", "Барон", "Бармен"]) == ["Вольт"]
    assert nearest("Незнакомец", ["Вольт", "Барон", "Бармен"]) == []


# -- through the parser and the rules (tests/rulebook.py: Лиса sits on seat 10, row 19) ----------------
ADD = ". A new player is a new row on the Players tab"
PARSED = [
    pytest.param({"B19": "лиса"}, {}, [
        ("player.folded", "warning", "B19", "'лиса' is read as 'Лиса' of the Players tab (spelled differently: case, "
         "spaces, ё or a Latin letter)")], "Лиса", id="case"),
    pytest.param({"B19": "Лисa"}, {}, [
        ("player.folded", "warning", "B19", "'Лисa' is read as 'Лиса' of the Players tab (spelled differently: case, "
         "spaces, ё or a Latin letter)")], "Лиса", id="latin_a"),
    pytest.param({"B19": "'Лиса"}, {}, [], "Лиса", id="apostrophe"),
    pytest.param({"B19": "Лиза"}, {}, [
        ("player.unknown", "error", "B19", f"Seat 10: 'Лиза' is not a registered player (did you mean 'Лиса'?){ADD}")],
        None, id="unknown_nearest"),
    pytest.param({"B19": "ЛИСА"}, {"Игроки!A23": "лиса"}, [
        ("player.ambiguous", "error", "B19", "'ЛИСА' could be any of «лиса», «Лиса»: type the nickname as the Players "
         "tab spells it")], None, id="two_players_of_one_fold"),
]


@pytest.mark.parametrize("protocol, players, expected, counted_as", PARSED)
def test_a_protocol_name_through_the_parser(protocol, players, expected, counted_as):
    backend = workbook({**protocol, **players})
    found = run(backend)
    assert [x[:4] for x in problems_in(found)] == expected
    snapshot = backend.read()
    settings = read_settings(snapshot.tabs)
    parsed = parse_tournament(snapshot.tabs, snapshot.order, load_preset("gmo-2016")[0], settings)
    if counted_as:
        assert parsed.tournament.protocols[0].seats[9].player == counted_as


@pytest.mark.parametrize("second, cell", [("лиса", "A23"), ("Лисa ", "A23"), ("'ЛИСА", "A23")])
def test_the_players_tab_refuses_two_names_of_one_fold(second, cell):
    found = problems_in(run(workbook({f"Игроки!{cell}": second})), "Игроки")
    assert [(rule, sev, at) for rule, sev, at, *_ in found] == [("read.similar_players", "error", cell)]
    assert f"'{typed_name(second)}' and 'Лиса' (rows 11, 23)" in found[0][3]


def test_a_folded_name_in_the_seating_and_the_penalties_is_the_player_too():
    backend = workbook({"Рассадка!M2": "лиса", "Штрафы!A2": "ЛИСА", "Штрафы!B2": "Отбор", "Штрафы!C2": 1,
                        "Штрафы!D2": "прочее", "Штрафы!F2": 1})
    found = run(backend)
    assert [(p.rule, p.sheet, p.cell) for p in found if p.rule.startswith(("player", "seating", "penalty"))] == [
        ("player.folded", "Рассадка", "M2"), ("player.folded", "Штрафы", "A2")]


# -- through the command line ---------------------------------------------------------------------------------
def cli(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def test_init_refuses_a_players_csv_with_two_spellings_of_one_name(tmp_path):
    csv = tmp_path / "players.csv"
    csv.write_text("Игрок;Клуб\n" + "".join(f"Игрок {i:02d};\n" for i in range(8)) + "Пума;\nпума ;\nПyма;\n",
                   encoding="utf-8")
    out = cli("init", tmp_path / "cup.xlsx", "--players", csv, "--language", "en", code=EXIT_USER_ERROR)
    assert "differing only in case, spaces, ё, look-alike Cyrillic and Latin letters" in " ".join(out.split())
    assert "'Пума' / 'пума' / 'Пyма' (lines 10, 11, 12)" in " ".join(out.split())
    assert not (tmp_path / "cup.xlsx").exists()


def test_a_protocol_typed_with_a_latin_letter_counts_for_the_player_with_a_warning(tmp_path):
    tabs = table_tournament(1)
    for tab in ("Игроки", "Рассадка"):
        tabs[tab] = [["Пума" if v == "Лиса 1" else v for v in row] for row in tabs[tab]]
    tabs["Тур 1 Стол 1"][18][1] = "Пyма"  # B19, seat 10, with a Latin y
    book = write_xlsx(tmp_path / "cup.xlsx", tabs)
    cli("sync", book, "--out", tmp_path / "out")
    issues = [(r[0], r[1]) for r in openpyxl.load_workbook(book)["Проверка"].iter_rows(min_row=2, values_only=True)
              if r[3] and "Пyма" in str(r[3])]
    assert issues == [("Тур 1 Стол 1", "B19")]
    doc = json.loads((tmp_path / "out" / "standings.json").read_text(encoding="utf-8"))
    puma = next(s for s in doc["standings"] if s["player"] == "Пума")
    assert doc["games_counted"] == 1 and puma["games"] == 1
    assert all(s["player"] != "Пyма" for s in doc["standings"])
    assert openpyxl.load_workbook(book)["Тур 1 Стол 1"]["B19"].value == "Пyма"  # what the judge typed stays


# -- the names a message offers, in Russian alphabetical order (scoring.collation.name_key) -----------------
@pytest.mark.parametrize("typed, known, offered", [
    ("ак", ["Вак", "бак"], ["бак", "Вак"]),  # equally near: by the alphabet, case ignored (code points: Вак first)
    ("Ёлк", ["Ёлки", "Елко", "елка"], ["елка", "Ёлки", "Елко"]),  # Е and Ё one letter
])
def test_the_nearest_names_are_offered_in_russian_order(typed, known, offered):
    assert nearest(typed, known) == offered


def test_names_of_one_fold_are_offered_in_russian_order():
    resolution = NameIndex(["Лёва", "лева"]).resolve("ЛЕВА")
    assert resolution.match is Match.AMBIGUOUS and resolution.candidates == ("лева", "Лёва")
