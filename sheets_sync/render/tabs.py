"""The tabs the sync owns: Standings, one tab per stage, Statistics, Problems.

Pure functions from results to :class:`TabWrite`; numbers are written as numbers,
everything people typed (nicknames, clubs) as text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from scoring import labels as L
from scoring.items import ITEMS
from scoring.liveness import ASK, Ask, Liveness, given_or_current
from scoring.metrics import METRICS
from scoring.numbers import quantize
from scoring.problems import Problem, Severity, cell_names, reading_order
from scoring.progress import progress
from scoring.standings import Results, Standing, game_states
from scoring.stats import PlayerStats
from sheets_sync.backends.base import Link, PageSetup, Style, TabWrite, column_letter
from sheets_sync.render import race as race_view
from sheets_sync.render.progress_text import games_line, headline
from sheets_sync.render.words import ru_en, state_words, ui

__all__ = ["TABLE_PAGE", "owned_tabs", "standings_tab", "stage_tab", "statistics_tab", "problems_tab", "tiebreak_text", "number",
           "ci_text", "nomination_rows"]


# a wide table: landscape, every column on one page width, its header row on every page
TABLE_PAGE = PageSetup(landscape=True, repeat_rows=1)


HEADER_HEIGHT = (28.0,)  # the header row: two lines of the small bold header font


def _header(columns: int) -> tuple[Style, ...]:
    """A table's header row: shaded, small, centred and wrapped on two lines, so that narrow columns
    keep their names readable on screen and in print (owned tabs: no mark ever lands here)."""
    return (Style(cells=f"A1:{column_letter(columns - 1)}1", shade=True, size=9, align="center", middle=True,
                  wrap=True),)


def number(value: Decimal) -> Decimal:
    """Points as written to cells: exact, without trailing zeros noise."""
    return value.normalize() if value != 0 else Decimal(0)


def tiebreak_text(standing: Standing, language: str) -> str:
    if standing.tiebreak is None:
        return ""
    if standing.tiebreak == "shared":
        return ru_en("полное равенство: место делится", "all equal: place shared", language)
    return ru_en("выше по критерию: ", "ahead on: ", language) + METRICS[standing.tiebreak].name(language)


def ci_text(results: Results, stats: PlayerStats, language: str) -> str:
    """Why the player has the Ci he has: per stage group B, N, k·B/round(k·N), games compensated.

    "Отбор+Полуфинал: B=1, N=7, 0.4·1/3 = 0.133 × 1 игр"."""
    preset = results.preset
    if not preset.ci.enabled:
        return ""
    names = {s.key: s.name(language) for s in preset.stages}
    parts = []
    for a in stats.ci_accounts:
        if not a.shot_first_red:
            continue
        group = "+".join(names.get(k, k) for k in a.group)
        got = sum((ln.ci_points for ln in stats.lines if ln.stage in a.group), Fraction(0))
        parts.append(ru_en(f"{group}: B={a.shot_first_red}, N={a.games}, за игру {a.formula(preset.ci.coefficient)}; "
                           f"игр с Ci {a.compensated}, с коэффициентом {quantize(got)}",
                           f"{group}: B={a.shot_first_red}, N={a.games}, per game {a.formula(preset.ci.coefficient)}; "
                           f"games with Ci {a.compensated}, with coefficient {quantize(got)}", language))
    return "; ".join(parts)


def liveness_header(live: Liveness, results: Results, language: str) -> list[str]:
    stage = results.preset.stage(live.stage).name(language).lower()
    return [ru_en(f"Проход в {stage}", f"To the {stage}", language),
            ru_en("Итог этапа: от … до …", "Stage total: from … to …", language),
            ru_en("До черты (без новых штрафов и пропусков)", "To the cut line (no further penalties or absences)",
                  language)]


def liveness_cells(live: Liveness, player: str, language: str) -> tuple[str | None, str | None, str | None]:
    """"✓" (through whatever the remaining games give), "✗" (cannot reach the cut) or nothing,
    the least and the most the player can end the stage with while games remain, and the
    points he still needs to the cut line while he is open."""
    chance = live.chances.get(player)
    if chance is None:
        return None, None, None
    mark = race_view.MARK.get(chance.state) or None
    bounds = (ru_en(f"от {quantize(chance.low)} до {quantize(chance.high)}",
                    f"{quantize(chance.low)} to {quantize(chance.high)}", language) if chance.remaining else None)
    return mark, bounds, race_view.cut_line(live, player, language) or None


def standings_tab(results: Results, language: str, live: Liveness | None | Ask = ASK) -> TabWrite:
    preset = results.preset
    ci_on = preset.ci.enabled
    item_columns = [i for i in ITEMS if i.column is not None and i.scored_by(preset)]  # e.g. auto extra, Ci
    header = [
        ru_en("Место", "Place", language), ru_en("Игрок", "Player", language), ru_en("Клуб", "Club", language),
        ru_en("Итого", "Total", language),
        *(s.name(language) for s in preset.stages),
        ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
        ru_en("Побед доном", "Wins as don", language), ru_en("Побед шерифом", "Wins as sheriff", language),
        ru_en("Побед мафией", "Wins as mafia", language), ru_en("Доп. баллы", "Extra points", language),
        ru_en("Лучший ход", "Best move", language), ru_en("Штрафы", "Penalties", language),
        ru_en("Убит первым", "Shot first", language),
        *(i.column.name(language) for i in item_columns),
        ru_en("Призы", "Awards", language),
        ru_en("Почему выше следующего", "Why above the next", language),
        *((ru_en("Ci: как посчитано", "Ci: how it is counted", language),) if ci_on else ()),
    ]
    live = given_or_current(live, results)  # while a cut is played: ✓ / ✗, the bounds and the line, last
    if live:
        header += liveness_header(live, results, language)
    rows: list[tuple] = [tuple(header)]
    for st in results.overall:
        s = st.stats
        rows.append((
            st.places if s.games else None, s.player, s.club or None, number(s.total),  # no place before a game
            *(number(s.stage_points.get(k, Decimal(0))) if k in _stages_played(results, s.player) else None for k in preset.stage_keys),
            s.games, s.wins, s.wins_as["don"], s.wins_as["sheriff"], s.wins_as["mafia"],
            number(s.extra_points), number(s.best_move_points), number(s.penalties), s.shot_first,
            *(number(s.item_total(i.key)) for i in item_columns),
            L.word("yes", language) if s.eligible else L.word("no", language),
            tiebreak_text(st, language) or None,
            *((ci_text(results, s, language) or None,) if ci_on else ()),
            *(liveness_cells(live, s.player, language) if live else ()),
        ))
    rows.extend(_game_state_rows(results, language))
    rows += progress_rows(results, language)
    widths = (7, 22, 16, 9, *([11] * len(preset.stages)), 6, 6, 8, 8, 8, 9, 9, 9, 8,
              *(i.column.width for i in item_columns), 7, 40, *((50,) if ci_on else ()), *((10, 18, 34) if live else ()))
    return TabWrite(title=L.tab("standings", language), rows=tuple(rows), column_widths=widths, frozen_rows=1,
                    frozen_cols=2, bold_rows=(0,), row_heights=HEADER_HEIGHT, styles=_header(len(header)), page=TABLE_PAGE)


def progress_rows(results: Results, language: str) -> list[tuple]:
    """Under the table: where the tournament stands and how many games are counted (no time:
    the tab changes only when the data does)."""
    p = progress(results)
    return [(), (headline(p, results.preset, language),), (games_line(p, language),)]


def _game_state_rows(results: Results, language: str) -> list[tuple]:
    """Below the standings: every game not confirmed, changed after confirmation, disputed or cancelled."""
    states = game_states(results)
    if not states:
        return []
    rows: list[tuple] = [(), (ui("games_state", language),)]
    rows.extend((None, sheet, state_words(found, language)) for sheet, found in states.items())
    return rows


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
    round_word = ru_en("Тур", "Round", language) if stage == preset.stage_keys[0] else ru_en("Игра", "Game", language)
    header = [ru_en("Место", "Place", language), ru_en("Игрок", "Player", language), ru_en("Клуб", "Club", language),
              ru_en("Итого", "Total", language), ru_en("За этап", "This stage", language),
              *(f"{round_word} {r}" for r in rounds), ru_en("Штрафы", "Penalties", language),
              ru_en("Почему выше следующего", "Why above the next", language)]
    rows: list[tuple] = [tuple(header)]
    for st in table:
        s = st.stats
        cells = []
        for r in rounds:
            lines = per_game.get((s.player, r))
            cells.append(number(sum((ln.total for ln in lines), Decimal(0))) if lines else None)
        stage_pen = sum((p.points for p in s.applied_penalties if p.stage == stage), Decimal(0))
        rows.append((st.places if s.games else None, s.player, s.club or None, number(s.total),
                     number(s.stage_points.get(stage, Decimal(0))),
                     *cells, number(stage_pen) if stage_pen else None, tiebreak_text(st, language) or None))
    states = game_states(results)
    by_round: dict[int, list[str]] = defaultdict(list)
    for p in results.tournament.protocols:
        if p.stage == stage and p.game_id in states:
            by_round[p.round].append(f"{ru_en('стол', 'table', language)} {p.table}: {state_words(states[p.game_id], language)}")
    if by_round:  # a column per game: under each round, its tables that are not plainly counted
        rows.append(())
        rows.append((ui("games_state", language), None, None, None, None,
                     *("\n".join(by_round[r]) if r in by_round else None for r in rounds)))
    cut = results.cuts.get(preset.stage_keys[preset.stage_keys.index(stage) + 1]) if stage != preset.stage_keys[-1] else None
    if cut is not None and cut.players:
        rows.append(())
        rows.append((ru_en(f"Проходят дальше ({cut.size}):", f"Go on ({cut.size}):", language), ", ".join(cut.players)))
        if cut.tied:
            rows.append((ru_en("Равенство на границе:", "Tied at the cut line:", language), ", ".join(cut.tied)))
    widths = (7, 22, 16, 9, 9, *([8] * len(rounds)), 9, 40)
    return TabWrite(title=rule.name(language), rows=tuple(rows), column_widths=widths, frozen_rows=1, frozen_cols=2,
                    bold_rows=(0,), row_heights=HEADER_HEIGHT, styles=_header(len(header)), page=TABLE_PAGE)


def statistics_tab(results: Results, language: str) -> TabWrite:
    """Red/black win rates overall, per table and per seat; best-move hits."""
    games = results.counted
    red = sum(1 for p in games if p.winner and p.winner.value == "red")
    rows: list[tuple] = [(ru_en("Показатель", "Measure", language), ru_en("Значение", "Value", language))]
    rows.append((ru_en("Засчитано игр", "Games counted", language), len(games)))
    if games:
        rows.append((ru_en("Побед мирных", "Red wins", language), red))
        rows.append((ru_en("Побед мафии", "Black wins", language), len(games) - red))
        rows.append((ru_en("Доля побед мирных, %", "Red win rate, %", language), round(Decimal(red * 100) / len(games), 1)))
    bm = [ln for ln in results.lines if ln.items.get("best_move")]
    rows.append((ru_en("Лучших ходов с баллами", "Best moves with points", language), len(bm)))
    rows.append(())
    rows.append((ru_en("Место", "Seat", language), ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
                 ru_en("Убит первым", "Shot first", language), ru_en("Лучших ходов с баллами", "Best moves scored", language)))
    for seat in range(1, 11):
        lines = [ln for ln in results.lines if ln.seat == seat]
        rows.append((seat, len(lines), sum(ln.won for ln in lines), sum(ln.shot_first for ln in lines),
                     sum(1 for ln in lines if ln.items.get("best_move"))))
    rows.append(())
    rows.append((ru_en("Этап, стол", "Stage, table", language), ru_en("Игр", "Games", language),
                 ru_en("Побед мирных", "Red wins", language), ru_en("Побед мафии", "Black wins", language),
                 ru_en("Доля побед мирных, %", "Red win rate, %", language)))
    by_table: dict[tuple[int, int], list] = defaultdict(list)
    stage_index = {k: i for i, k in enumerate(results.preset.stage_keys)}
    for p in games:
        by_table[(stage_index.get(p.stage, 0), p.table)].append(p)
    for (si, table), played in sorted(by_table.items()):
        reds = sum(1 for p in played if p.winner and p.winner.value == "red")
        rows.append((f"{results.preset.stages[si].name(language)}, {table}", len(played), reds, len(played) - reds,
                     round(Decimal(reds * 100) / len(played), 1)))
    rows.append(())
    rows.append((ru_en("Роль", "Role", language), ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
                 ru_en("Доп. баллы", "Extra points", language)))
    for role in ("don", "sheriff", "mafia", "civilian"):
        lines = [ln for ln in results.lines if ln.role.value == role]
        rows.append((L.word(role, language), len(lines), sum(ln.won for ln in lines),
                     number(sum((ln.item("extra") for ln in lines), Decimal(0)))))
    if results.preset.ci.enabled:
        ci_lines = [ln for ln in results.lines if ln.ci]
        rows.append(())
        rows.append((ru_en("Компенсация Ci", "Ci compensation", language),))
        rows.append((ru_en("Игр с Ci", "Games with Ci", language), len(ci_lines)))
        rows.append((ru_en("Игроков с Ci", "Players with Ci", language), len({ln.player for ln in ci_lines})))
        total_ci = sum((ln.ci_points for ln in ci_lines), Fraction(0))
        rows.append((ru_en("Сумма Ci", "Ci total", language), number(quantize(total_ci))))
    nom = nomination_rows(results, language)
    bold = [0]
    if nom:
        rows.append(())
        bold.append(len(rows))
        rows.extend(nom)
    return TabWrite(title=L.tab("statistics", language), rows=tuple(rows), column_widths=(30, 10, 10, 12, 14, 40),
                    bold_rows=tuple(bold), page=PageSetup())


def nomination_rows(results: Results, language: str, *, top: int = 3) -> list[tuple]:
    """Nominations: a header, then per nomination its winner(s) and the next places.

    Columns: nomination, place, player, games in the role, score, note (shared / nobody)."""
    if not results.nominations:
        return []
    rows: list[tuple] = [(ru_en("Номинация", "Nomination", language), ru_en("Место", "Place", language),
                          ru_en("Игрок", "Player", language), ru_en("Игр в роли", "Games in role", language),
                          ru_en("Баллы", "Score", language), ru_en("Примечание", "Note", language))]
    for n in results.nominations:
        if not n.winners:
            note = ru_en(f"нет претендентов (нужно игр в роли: {n.min_games})", f"nobody qualifies (games in role needed: {n.min_games})", language)
            rows.append((n.name(language), None, None, None, None, note))
            continue
        shown = [e for e in n.ranking if e.place <= top or e.player in n.winners]
        for i, e in enumerate(shown):
            note = None
            if e.player in n.winners and n.shared:
                note = ru_en("номинация делится: равные баллы", "shared: equal scores", language)
            rows.append((n.name(language) if i == 0 else None, e.places, e.player, e.games, number(e.shown), note))
    return rows


def problems_tab(problems: Sequence[Problem], language: str, *, links: bool) -> TabWrite:
    header = (ru_en("Вкладка", "Tab", language), ru_en("Ячейка", "Cell", language), ru_en("Уровень", "Severity", language),
              ru_en("Проблема", "Problem", language), ru_en("Правило", "Rule", language))
    rows: list[tuple] = [header]
    severity_word = {Severity.ERROR: ru_en("ошибка", "error", language), Severity.WARNING: ru_en("предупреждение", "warning", language)}
    for p in sorted(problems, key=Problem.sort_key):
        # a problem of several cells is listed once, naming them all; the link goes to the first
        cell: object = cell_names(p.locations, p.sheet) or None
        if links and p.location is not None:
            cell = Link(text=str(cell), sheet=p.sheet, cell=reading_order(p.locations, p.sheet)[0].cell)
        rows.append((p.sheet or None, cell, severity_word[p.severity], p.message(language), p.rule))
    if len(rows) == 1:
        rows.append((None, None, None, ru_en("Проблем нет", "No problems", language), None))
    return TabWrite(title=L.tab("problems", language), rows=tuple(rows), column_widths=(20, 14, 17, 80, 22),
                    frozen_rows=1, bold_rows=(0,), row_heights=HEADER_HEIGHT, styles=_header(len(header)), page=TABLE_PAGE)


def owned_tabs(results: Results, problems: Sequence[Problem], language: str, *, links: bool,
               live: Liveness | None | Ask = ASK) -> list[TabWrite]:
    tabs = [standings_tab(results, language, live)]
    for stage in results.preset.stage_keys:
        if results.participants.get(stage) and (stage == results.preset.stage_keys[0] or results.stages.get(stage)):
            tabs.append(stage_tab(results, stage, language))
    tabs.append(statistics_tab(results, language))
    tabs.append(problems_tab(problems, language, links=links))
    return tabs
