"""The organizer's advance button with the preset's team rules (issue 36 §4): when one member of
each team per game cannot hold for the semifinal's field, the job is done (the standings chose who
plays) and its page says which team, in the page's language."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.urls import reverse

from sheets_sync.web.models import Job, Tournament
from tests.web.organizer_support import member, organizer, private_data, signed_in  # noqa: F401 - fixtures
from tests.web.test_organizer import last_job, press

pytestmark = pytest.mark.django_db


def _workbook(path: Path, team_of: dict[str, str]) -> Path:
    """40 players, the 7 qualifying rounds typed (seed 1), teams on the Players tab and
    `teams.one_per_game = да` on the Tournament tab."""
    from scoring.model import Player
    from scoring.simulate import simulate_game
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.workbook.layout import protocol_title
    from sheets_sync.presets import load_preset
    from sheets_sync.workbook.tournament_setup import simple_seating, workbook_patch

    preset, _ = load_preset("gmo-2016")
    names = [f"Игрок {i:02d}" for i in range(1, 41)]
    seating = simple_seating(names, "qualifying", 7)
    rng = random.Random(1)
    protocols = [simulate_game(list(e.players), stage=e.stage, round_no=e.round, table=e.table, preset=preset, rng=rng,
                               sheet=protocol_title(preset, e.stage, e.round, e.table, "ru")) for e in seating]
    patch = workbook_patch(name="Кубок команд", preset=preset, language="ru", seating=seating, protocols=protocols,
                           players=[Player(nickname=n, team=team_of.get(n)) for n in names],
                           settings=[("teams.one_per_game", "да")])
    if path.exists():
        path.unlink()
    ExcelBackend(path, backups=0).apply(patch, base=None)
    return path


def test_advance_says_which_team_the_semifinal_cannot_split(tmp_path, organizer, signed_in):
    from sheets_sync.backends.excel import ExcelBackend
    from sheets_sync.loop.outcome import compute

    path = _workbook(tmp_path / "teams.xlsx", {})
    cut = compute(ExcelBackend(path).read()).results.cuts["semifinal"].players
    _workbook(path, {cut[0]: "Север", cut[5]: "Север", cut[11]: "Север"})
    tournament = member(Tournament.objects.create(slug="teams", source=Tournament.EXCEL, path=str(path)), organizer)
    press(signed_in, tournament, "advance")
    job = last_job(tournament, "advance")
    assert job.status == Job.DONE, job.message
    assert "Север" in job.result["warnings"]["ru"][0] and cut[11] in job.result["warnings"]["en"][0]
    russian = signed_in.get(reverse("job", args=["teams", job.pk])).content.decode()
    english = signed_in.get(reverse("job", args=["teams", job.pk]), {"lang": "en"}).content.decode()
    assert "по одному игроку команды за игрой не получится" in russian and "Север" in russian
    assert "one member of each team per game cannot hold" in english
