"""The words of the tournament's progress (:mod:`scoring.progress`) in every output.

«Промежуточные итоги после 3 тура из 7» until the tournament is finished, «Итоговая таблица»
after; «Турнир ещё не начался» with no counted game; «засчитано игр: 38 из 40» and
«Обновлено: 01.12.2026 14:05» (the time is given by the caller: rendering reads no clock).
"""

from __future__ import annotations

from datetime import datetime

from scoring.preset import Preset
from scoring.progress import Phase, Progress
from sheets_sync.render.words import ru_en

__all__ = ["headline", "games_line", "counted_line", "updated_line", "status_lines", "stamp"]


def _stage(preset: Preset, key: str, language: str) -> str:
    try:
        return preset.stage(key).name(language)
    except KeyError:
        return key


def headline(p: Progress, preset: Preset, language: str) -> str:
    """The title of the standings for this progress."""
    if p.phase is Phase.NOT_STARTED:
        return ru_en("Турнир ещё не начался", "The tournament has not started yet", language)
    if p.phase is Phase.FINISHED:
        return ru_en("Итоговая таблица", "Final standings", language)
    stage = _stage(preset, p.stage, language)
    if p.phase is Phase.FINAL_HIDDEN:
        keys = preset.stage_keys
        before = _stage(preset, keys[keys.index(p.stage) - 1], language) if p.stage in keys and keys.index(p.stage) else ""
        return ru_en(f"Промежуточные итоги после этапа «{before}», финал скрыт до награждения",
                     f"Provisional standings after the stage “{before}”, the final is hidden until the awards", language)
    if p.first:
        if p.done:
            return ru_en(f"Промежуточные итоги после {p.done} тура из {p.of}",
                         f"Provisional standings after round {p.done} of {p.of}", language)
        return ru_en(f"Промежуточные итоги: идёт 1-й тур из {p.of}",
                     f"Provisional standings: round 1 of {p.of} in progress", language)
    if p.done:
        return ru_en(f"Промежуточные итоги: {stage}, после игры {p.done} из {p.of}",
                     f"Provisional standings: {stage}, after game {p.done} of {p.of}", language)
    return ru_en(f"Промежуточные итоги: {stage}, идёт игра 1 из {p.of}",
                 f"Provisional standings: {stage}, game 1 of {p.of} in progress", language)


def games_line(p: Progress, language: str) -> str:
    """«засчитано игр: 37 из 40», and the games that wait: «ждут подтверждения: 2, оспорено: 1»."""
    line = counted_line(p.games_counted, p.games_total, language)
    if p.awaiting:
        line += ru_en(f", ждут подтверждения: {p.awaiting}", f", awaiting confirmation: {p.awaiting}", language)
    if p.disputed:
        line += ru_en(f", оспорено: {p.disputed}", f", disputed: {p.disputed}", language)
    return line


def counted_line(counted: int, total: int, language: str) -> str:
    """«засчитано игр: 38 из 40» (of the tournament, or of one stage)."""
    return ru_en(f"засчитано игр: {counted} из {total}", f"games counted: {counted} of {total}", language)


def stamp(moment: datetime) -> str:
    """A moment as people read it on a notice board: 01.12.2026 14:05."""
    return moment.strftime("%d.%m.%Y %H:%M")


def updated_line(moment: datetime | None, language: str) -> str:
    return "" if moment is None else ru_en(f"Обновлено: {stamp(moment)}", f"Updated: {stamp(moment)}", language)


def status_lines(p: Progress, moment: datetime | None, language: str) -> list[str]:
    """«Обновлено: …» (when a time is given) and «засчитано игр: …», for the foot of a page or post."""
    return [x for x in (updated_line(moment, language), games_line(p, language)) if x]


def evening_date(iso: str) -> str:
    """An evening's ISO date as people write it: 2026-12-05 → 05.12.2026 ("" stays "")."""
    year, _, rest = iso.partition("-")
    month, _, day = rest.partition("-")
    return f"{day}.{month}.{year}" if year and month and day else iso


def season_headline(evenings: int, games: int, language: str) -> str:
    """The title of a club season's standings: how far the season is."""
    if not games:
        return ru_en("Сезон ещё не начался", "The season has not started yet", language)
    return ru_en(f"Рейтинг сезона: вечеров {evenings}, игр {games}", f"Season rating: {evenings} evenings, {games} games",
                 language)


def evening_headline(iso: str, language: str) -> str:
    """«Итоги вечера 05.12.2026»."""
    return ru_en(f"Итоги вечера {evening_date(iso)}", f"Results of the evening {evening_date(iso)}", language)


def season_status_lines(games: int, moment: datetime | None, language: str) -> list[str]:
    """«Обновлено: …» and the games a club season counts (every evening's: a season has no plan of games)."""
    counted = ru_en(f"засчитано игр: {games}", f"games counted: {games}", language)
    return [x for x in (updated_line(moment, language), counted) if x]
