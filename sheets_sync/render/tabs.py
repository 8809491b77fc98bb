"""The tabs the sync owns: Standings, one tab per stage, Statistics, Problems.

Pure functions from results to :class:`TabWrite`; numbers are written as numbers,
everything people typed (nicknames, clubs) as text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from scoring import labels as L
from scoring.metrics import METRICS
from scoring.problems import Problem, Severity
from scoring.standings import Results, Standing
from sheets_sync.backends.base import Link, TabWrite

__all__ = ["owned_tabs", "standings_tab", "stage_tab", "statistics_tab", "problems_tab", "tiebreak_text", "number"]


def number(value: Decimal) -> Decimal:
    """Points as written to cells: exact, without trailing zeros noise."""
    return value.normalize() if value != 0 else Decimal(0)


def _t(ru: str, en: str, language: str) -> str:
    return en if language == "en" else ru


def tiebreak_text(standing: Standing, language: str) -> str:
    if standing.tiebreak is None:
        return ""
    if standing.tiebreak == "shared":
        return _t("полное равенство: место делится", "all equal: place shared", language)
    return _t("выше по критерию: ", "ahead on: ", language) + METRICS[standing.tiebreak].name(language)


def standings_tab(results: Results, language: str) -> TabWrite:
    preset = results.preset
    header = [
        _t("Место", "Place", language), _t("Игрок", "Player", language), _t("Клуб", "Club", language),
        _t("Итого", "Total", language),
        *(s.name(language) for s in preset.stages),
        _t("Игр", "Games", language), _t("Побед", "Wins", language),
        _t("Побед доном", "Wins as don", language), _t("Побед шерифом", "Wins as sheriff", language),
        _t("Побед мафией", "Wins as mafia", language), _t("Доп. баллы", "Extra points", language),
        _t("Лучший ход", "Best move", language), _t("Штрафы", "Penalties", language),
        _t("Убит первым", "Shot first", language), _t("Призы", "Awards", language),
        _t("Почему выше следующего", "Why above the next", language),
    ]
    rows: list[tuple] = [tuple(header)]
    for st in results.overall:
        s = st.stats
        rows.append((
            st.places, s.player, s.club or None, number(s.total),
            *(number(s.stage_points.get(k, Decimal(0))) if k in _stages_played(results, s.player) else None for k in preset.stage_keys),
            s.games, s.wins, s.wins_as["don"], s.wins_as["sheriff"], s.wins_as["mafia"],
            number(s.extra_points), number(s.best_move_points), number(s.penalties), s.shot_first,
            L.word("yes", language) if s.eligible else L.word("no", language),
            tiebreak_text(st, language) or None,
        ))
    widths = (7, 22, 16, 9, *([11] * len(preset.stages)), 6, 6, 8, 8, 8, 9, 9, 9, 8, 7, 40)
    return TabWrite(title=L.tab("standings", language), rows=tuple(rows), column_widths=widths, frozen_rows=1,
                    frozen_cols=2, bold_rows=(0,))


def _stages_played(results: Results, player: str) -> set[str]:
    return {k for k, members in results.participants.items() if player in members}


def stage_tab(results: Results, stage: str, language: str) -> TabWrite:
    preset = results.preset
    rule = preset.stage(stage)
    table = results.stages.get(stage, ())
    rounds = sorted({ln.round for ln in results.lines if ln.stage == stage} | set(range(1, rule.games + 1)))
    per_game: dict[tuple[str, int], list] = defaultdict(list)
    for ln in results.lines:
        if ln.stage == stage and not ln.substitute:
            per_game[(ln.player, ln.round)].append(ln)
    round_word = _t("Тур", "Round", language) if stage == preset.stage_keys[0] else _t("Игра", "Game", language)
    header = [_t("Место", "Place", language), _t("Игрок", "Player", language), _t("Клуб", "Club", language),
              _t("Итого", "Total", language), _t("За этап", "This stage", language),
              *(f"{round_word} {r}" for r in rounds), _t("Штрафы", "Penalties", language),
              _t("Почему выше следующего", "Why above the next", language)]
    rows: list[tuple] = [tuple(header)]
    for st in table:
        s = st.stats
        cells = []
        for r in rounds:
            lines = per_game.get((s.player, r))
            cells.append(number(sum((ln.total for ln in lines), Decimal(0))) if lines else None)
        stage_pen = sum((p.points for p in s.applied_penalties if p.stage == stage), Decimal(0))
        rows.append((st.places, s.player, s.club or None, number(s.total), number(s.stage_points.get(stage, Decimal(0))),
                     *cells, number(stage_pen) if stage_pen else None, tiebreak_text(st, language) or None))
    cut = results.cuts.get(preset.stage_keys[preset.stage_keys.index(stage) + 1]) if stage != preset.stage_keys[-1] else None
    if cut is not None and cut.players:
        rows.append(())
        rows.append((_t(f"Проходят дальше ({cut.size}):", f"Go on ({cut.size}):", language), ", ".join(cut.players)))
        if cut.tied:
            rows.append((_t("Равенство на границе:", "Tied at the cut line:", language), ", ".join(cut.tied)))
    widths = (7, 22, 16, 9, 9, *([8] * len(rounds)), 9, 40)
    return TabWrite(title=rule.name(language), rows=tuple(rows), column_widths=widths, frozen_rows=1, frozen_cols=2,
                    bold_rows=(0,))


def statistics_tab(results: Results, language: str) -> TabWrite:
    """Red/black win rates overall, per table and per seat; best-move hits."""
    games = results.counted
    red = sum(1 for p in games if p.winner and p.winner.value == "red")
    rows: list[tuple] = [(_t("Показатель", "Measure", language), _t("Значение", "Value", language))]
    rows.append((_t("Засчитано игр", "Games counted", language), len(games)))
    if games:
        rows.append((_t("Побед мирных", "Red wins", language), red))
        rows.append((_t("Побед мафии", "Black wins", language), len(games) - red))
        rows.append((_t("Доля побед мирных, %", "Red win rate, %", language), round(Decimal(red * 100) / len(games), 1)))
    bm = [ln for ln in results.lines if ln.items.get("best_move")]
    rows.append((_t("Лучших ходов с баллами", "Best moves with points", language), len(bm)))
    rows.append(())
    rows.append((_t("Место", "Seat", language), _t("Игр", "Games", language), _t("Побед", "Wins", language),
                 _t("Убит первым", "Shot first", language)))
    for seat in range(1, 11):
        lines = [ln for ln in results.lines if ln.seat == seat]
        rows.append((seat, len(lines), sum(ln.won for ln in lines), sum(ln.shot_first for ln in lines)))
    rows.append(())
    rows.append((_t("Роль", "Role", language), _t("Игр", "Games", language), _t("Побед", "Wins", language),
                 _t("Доп. баллы", "Extra points", language)))
    for role in ("don", "sheriff", "mafia", "civilian"):
        lines = [ln for ln in results.lines if ln.role.value == role]
        rows.append((L.word(role, language), len(lines), sum(ln.won for ln in lines),
                     number(sum((ln.item("extra") for ln in lines), Decimal(0)))))
    return TabWrite(title=L.tab("statistics", language), rows=tuple(rows), column_widths=(30, 10, 10, 12), bold_rows=(0,))


def problems_tab(problems: Sequence[Problem], language: str, *, links: bool) -> TabWrite:
    header = (_t("Вкладка", "Tab", language), _t("Ячейка", "Cell", language), _t("Уровень", "Severity", language),
              _t("Проблема", "Problem", language), _t("Правило", "Rule", language))
    rows: list[tuple] = [header]
    severity_word = {Severity.ERROR: _t("ошибка", "error", language), Severity.WARNING: _t("предупреждение", "warning", language)}
    for p in sorted(problems, key=Problem.sort_key):
        cell: object = p.cell or None
        if links and p.location is not None:
            cell = Link(text=p.cell, sheet=p.sheet, cell=p.cell)
        rows.append((p.sheet or None, cell, severity_word[p.severity], p.message(language), p.rule))
    if len(rows) == 1:
        rows.append((None, None, None, _t("Проблем нет", "No problems", language), None))
    return TabWrite(title=L.tab("problems", language), rows=tuple(rows), column_widths=(20, 8, 14, 80, 22),
                    frozen_rows=1, bold_rows=(0,))


def owned_tabs(results: Results, problems: Sequence[Problem], language: str, *, links: bool) -> list[TabWrite]:
    tabs = [standings_tab(results, language)]
    for stage in results.preset.stage_keys:
        if results.participants.get(stage) and (stage == results.preset.stage_keys[0] or results.stages.get(stage)):
            tabs.append(stage_tab(results, stage, language))
    tabs.append(statistics_tab(results, language))
    tabs.append(problems_tab(problems, language, links=links))
    return tabs
