"""Preset loading: every value of gmo-2016, and every way a preset file can be wrong."""

import copy
from decimal import Decimal as D

import pytest

from scoring.preset import Preset, PresetError, apply_overrides, normalise_override_key
from scoring.preset_settings import OVERRIDE_ALIASES, OVERRIDE_PATHS, SETTINGS, with_settings_table
from sheets_sync.presets import SETTINGS_DOC, known_presets, load_preset
from tests.helpers import preset_dict

GMO = preset_dict("gmo-2016")


@pytest.mark.parametrize("attribute,expected", [
    ("win", D(1)), ("extra_min", D(0)), ("extra_max", D("0.7")), ("extra_step", D("0.05")),
    ("removal", D("-0.5")), ("team_defeat", D("-0.5")), ("auto_extra", D(0)),
    ("missed_round", D(-2)), ("excused_rounds", 1), ("max_missed_rounds", 1), ("disqualified_eligible", False),
    ("late_stages", ("semifinal",)), ("finalists_first", True), ("hidden_final", False),
    ("tiebreaks", ("recognised_best", "wins", "wins_don", "wins_sheriff", "wins_mafia", "shot_first", "qualifying_place")),
])
def test_gmo_2016_values(attribute, expected):
    assert getattr(Preset.from_dict(GMO, source="gmo-2016.toml"), attribute) == expected


def test_gmo_2016_best_move_and_stages():
    p = Preset.from_dict(GMO, source="gmo-2016.toml")
    assert [p.best_move_points(n) for n in (0, 1, 2, 3)] == [D(0), D(0), D("0.25"), D("0.5")]
    assert [(s.key, s.games, s.players, s.coefficient) for s in p.stages] == [
        ("qualifying", 7, 0, D(1)), ("semifinal", 3, 20, D("1.5")), ("final", 4, 10, D(2))]
    assert not p.ci.enabled


def _broken(**edits):
    data = copy.deepcopy(GMO)
    for path, value in edits.items():
        target = data
        keys = path.split("__")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        target[keys[-1]] = value
    return data


@pytest.mark.parametrize("edits,message", [
    ({"points__wine": 1}, "gmo-2016.toml: points.wine: unknown key"),
    ({"colour": "red"}, "gmo-2016.toml: colour: unknown key"),
    ({"ranking__tiebreaks": ["wins", "wins"]}, "gmo-2016.toml: ranking.tiebreaks: tiebreak 'wins' is listed twice"),
    ({"ranking__tiebreaks": ["wins", "luck"]}, "gmo-2016.toml: ranking.tiebreaks: unknown tiebreak 'luck'"),
    ({"points__extra_max": D("-1")}, "gmo-2016.toml: points.extra_max: -1 must be ≥ points.extra_min (0)"),
    ({"points__win": D(11)}, "gmo-2016.toml: points.win: 11 is above the maximum 10"),
    ({"points__removal": D("0.5")}, "gmo-2016.toml: points.removal: 0.5 is above the maximum 0"),
    ({"stages__1__players": 25}, "gmo-2016.toml: stages[1].players: 25 is not a multiple of 10"),
    ({"stages__1__games": 0}, "gmo-2016.toml: stages[1].games: 0 is below the minimum 1"),
    ({"stages__2__key": "semifinal"}, "gmo-2016.toml: stages: stage key 'semifinal' is used twice"),
    ({"points__win": "lots"}, "gmo-2016.toml: points.win: must be a number, not 'lots'"),
    ({"penalties__late__1__first": 40}, "gmo-2016.toml: penalties.late[1].first: tiers must follow each other"),
])
def test_invalid_presets_are_rejected_naming_file_and_key(edits, message):
    with pytest.raises(PresetError) as info:
        Preset.from_dict(_broken(**edits), source="gmo-2016.toml")
    assert any(line.startswith(message) for line in str(info.value).splitlines()), str(info.value)


def test_all_errors_reported_at_once():
    with pytest.raises(PresetError) as info:
        Preset.from_dict(_broken(points__wine=1, points__win=D(-1)), source="x.toml")
    assert len(info.value.errors) == 2


@pytest.mark.parametrize("key,value,attribute,expected", [
    ("полуфинал.игроков", "30", ("stage", "semifinal", "players"), 30),
    ("semifinal.players", 30, ("stage", "semifinal", "players"), 30),
    ("финал.коэффициент", "2,5", ("stage", "final", "coefficient"), D("2.5")),
    ("points.win", "2", ("win",), D(2)),
    ("Пропуск", "-3", ("missed_round",), D(-3)),
])
def test_tournament_tab_overrides(key, value, attribute, expected):
    data, rejected = apply_overrides(GMO, [(key, value)])
    assert rejected == []
    p = Preset.from_dict(data, source="gmo-2016.toml")
    got = p.stage(attribute[1]).__getattribute__(attribute[2]) if attribute[0] == "stage" else getattr(p, attribute[0])
    assert got == expected


def test_unknown_override_is_reported_not_ignored():
    _, rejected = apply_overrides(GMO, [("полуфинал.столов_много", 3), ("points.nonsense", 1)])
    assert [k for k, _ in rejected] == ["полуфинал.столов_много", "points.nonsense"]


def test_out_of_range_override_fails_like_the_file():
    with pytest.raises(PresetError, match="points.win"):
        load_preset("gmo-2016", [("points.win", "100")])


def test_every_shipped_preset_loads():
    assert "gmo-2016" in known_presets()
    for name in known_presets():
        preset, _ = load_preset(name)
        assert preset.id == name


@pytest.mark.parametrize("typed,path", [
    ("победа", "points.win"), ("доп.мин", "points.extra_min"), ("доп.макс", "points.extra_max"),
    ("доп.шаг", "points.extra_step"), ("лх.3", "points.best_move_3"), ("лх.2", "points.best_move_2"),
    ("удаление", "points.removal"), ("ППК", "points.team_defeat"), ("автобаллы", "points.auto_extra"),
    ("пропуск", "penalties.missed_round"), ("Пропуск . без . штрафа", "penalties.excused_rounds"),
    ("скрытый.финал", "publish.hidden_final"), ("Ci", "ci.enabled"), ("тайбрейки", "ranking.tiebreaks"),
    ("отбор.игр", "stages.qualifying.games"), ("полуфинал.игры", "stages.semifinal.games"),
    ("финал.туров", "stages.final.games"), ("полуфинал.игроков", "stages.semifinal.players"),
    ("финал.коэффициент", "stages.final.coefficient"), ("final.players", "stages.final.players"),
    ("ci.cap", "ci.cap"), ("stages.my_stage.games", "stages.my_stage.games"),
])
def test_tournament_tab_spellings(typed, path):
    assert normalise_override_key(typed) == path


def test_every_alias_is_normalised_and_names_one_setting():
    aliases = [a for s in SETTINGS if s.path in OVERRIDE_PATHS for a in s.aliases]
    assert len(aliases) == len(OVERRIDE_ALIASES)
    assert all(a == "".join(a.split()).lower().replace("ё", "е") for s in SETTINGS for a in s.aliases)


def test_docs_hold_the_generated_settings_table():
    text = SETTINGS_DOC.read_text(encoding="utf-8")
    assert text == with_settings_table(text), "docs/presets.md is stale: run python -m sheets_sync.presets"
