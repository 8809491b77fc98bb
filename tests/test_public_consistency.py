"""What the public sees agrees with itself (issue 25 §7): the progress, «засчитано игр», medals,
winners and nominations of standings.json, the site and the VK post come from the games the
public standings rank — with «Подтверждение протоколов = да», a game awaiting its second judge is
not one of them, and no game of the final may await a confirmation or a dispute's decision
before anybody is crowned.

On the finished example (38 games: qualifying, semifinal, final), computed as a sync does.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scoring.model import Dispute
from scoring.progress import Phase
from scoring.standings import compute as compute_standings
from sheets_sync.loop.outcome import Outcome, compute
from sheets_sync.loop.publish import PublicResults
from sheets_sync.render.json_out import standings_document
from sheets_sync.render.progress_text import games_line, headline
from sheets_sync.render.site import site_files
from sheets_sync.render.vk import post_text


@pytest.fixture(scope="module")
def finished(example_snapshot) -> Outcome:
    return compute(example_snapshot)


def with_trust(outcome: Outcome, confirmed: set[str], disputed: set[str]) -> Outcome:
    """The example with confirmation required, ``confirmed`` games confirmed, ``disputed`` ones disputed."""
    t = outcome.results.tournament
    preset = replace(outcome.preset, confirmation=True)
    t = replace(t, unconfirmed=frozenset(p.sheet for p in t.protocols) - confirmed,
                disputes=tuple(Dispute(game=sheet, filed_by="Капитан", reason="спорное голосование") for sheet in sorted(disputed)))
    results = compute_standings(t, preset, outcome.results.input_problems)
    return replace(outcome, preset=preset, results=results, problems=results.problems)


def test_one_confirmed_game_of_a_finished_tournament_crowns_nobody(finished):
    assert PublicResults.of(finished).progress.phase is Phase.FINISHED  # without confirmation: as before
    public = PublicResults.of(with_trust(finished, {"Тур 1 Стол 1"}, set()))
    assert public.progress.phase is Phase.RUNNING
    assert public.progress.games_counted == len(public.results.counted) == 1
    assert public.progress.awaiting == 37
    assert headline(public.progress, public.results.preset, "ru") == "Промежуточные итоги: идёт 1-й тур из 7"  # table 2 of round 1 waits
    assert games_line(public.progress, "ru") == "засчитано игр: 1 из 38, ждут подтверждения: 37"
    post = post_text(public.results, language="ru", progress=public.progress)
    assert "Победители" not in post and "🥇" not in post and "Итоговая таблица" not in post
    doc = standings_document(public.results, public.problems, language="ru", public=False, progress=public.progress)
    assert doc["progress"]["phase"] == "running" and doc["progress"]["games_counted"] == doc["games_counted"] == 1


def test_a_disputed_game_of_the_final_keeps_the_tournament_open(finished):
    every = {p.sheet for p in finished.results.tournament.protocols}
    public = PublicResults.of(with_trust(finished, every, {"Финал 4"}))
    assert public.progress.phase is Phase.RUNNING and public.progress.disputed == 1
    assert public.progress.games_counted == 38  # a disputed game still counts, marked
    assert "оспорено: 1" in games_line(public.progress, "ru")
    assert "Победители" not in post_text(public.results, language="ru", progress=public.progress)
    crowned = PublicResults.of(with_trust(finished, every, {"Тур 1 Стол 1"}))  # a dispute outside the final
    assert crowned.progress.phase is Phase.FINISHED
    assert "Победители" in post_text(crowned.results, language="ru", progress=crowned.progress)


def _medals_on_the_site(public: PublicResults) -> bool:
    index = site_files(public.results, public.problems, language="ru", progress=public.progress)["index.html"]
    return "Итоговая таблица" in index


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_public_outputs_crown_only_a_final_every_game_of_which_is_public(finished, data):
    protocols = finished.results.tournament.protocols
    sheets = sorted(p.sheet for p in protocols)
    final = {p.sheet for p in protocols if p.stage == "final"}
    # whole stages confirmed or not, and single games on top, so that every case is reached
    confirmed = set(data.draw(st.sets(st.sampled_from(sheets)), label="confirmed"))
    for stage in ("qualifying", "semifinal", "final"):
        if data.draw(st.booleans(), label=f"all of {stage} confirmed"):
            confirmed |= {p.sheet for p in protocols if p.stage == stage}
    disputed = set(data.draw(st.sets(st.sampled_from(sheets), max_size=3), label="disputed"))
    public = PublicResults.of(with_trust(finished, confirmed, disputed))
    p = public.progress
    doc = standings_document(public.results, public.problems, language="ru", public=False, progress=p)
    post = post_text(public.results, language="ru", progress=p)
    crowned = "Победители" in post or "🥇" in post
    assert crowned == p.finished == _medals_on_the_site(public) == (final <= confirmed and not final & disputed)
    ranked = {ln.sheet for ln in public.results.lines}  # the games the public standings are made of
    assert p.games_counted == doc["games_counted"] == doc["progress"]["games_counted"] == len(ranked)
    assert ranked == {pr.sheet for pr in public.results.counted} <= confirmed
    assert p.awaiting == doc["games_awaiting_confirmation"] == len(set(sheets) - confirmed)
    assert p.disputed == len(disputed & ranked)
