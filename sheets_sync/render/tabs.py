"""The tabs the sync owns: Standings, one tab per stage, Statistics, Problems (and the heading the
Log tab of :mod:`sheets_sync.workbook.changelog` shares with them).

Pure functions from results to :class:`TabWrite`; numbers are written as numbers, everything
people typed (nicknames, clubs) as text.  Each tab opens with its title and status line, as the
site's pages do, and shows points with the site's decimals (a number format, not rounded values).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring import labels as L
from scoring.items import ITEMS
from scoring.liveness import ASK, Ask, Liveness, given_or_current
from scoring.metrics import METRICS
from scoring.numbers import quantize
from scoring.problems import Problem, Severity, cell_names, more_problems, reading_order, severity_counts
from scoring.rating.club import workbook_rating
from scoring.progress import progress, scheduled_games
from scoring.rule_names import rule_name
from scoring.standings import Results, Standing, game_states
from scoring.stats import PlayerStats
from sheets_sync.backends.base import Link, PageSetup, Style, TabWrite, column_letter
from sheets_sync.render import race as race_view
from sheets_sync.render.paper import LINE_PT, paper_page, text_lines
from sheets_sync.render.tab_look import (HEADER_HEIGHT, HEADER_ROW, HEADING_ROWS, PERCENT_FORMAT, POINTS_FORMAT,
                                         STANDINGS_HEADER_HEIGHT, TABLE_PAGE, TOP_ROWS, header_styles, heading,
                                         heading_styles, number, number_styles, points_format, tab_title)
from sheets_sync.render.progress_text import counted_line, games_line, headline
from sheets_sync.render.team_tabs import side_rows, side_tabs, team_tiebreak_text
from sheets_sync.render.words import ru_en, state_words, ui

__all__ = ["TABLE_PAGE", "HEADING_ROWS", "HEADER_ROW", "TOP_ROWS", "POINTS_FORMAT", "heading", "tab_title", "header_styles",
           "number_styles", "problems_status", "owned_tabs", "standings_tab", "stage_tab", "statistics_tab", "problems_tab", "tiebreak_text", "number",
           "ci_text", "nomination_rows", "team_tiebreak_text"]


def tiebreak_text(standing: Standing, language: str) -> str:
    if not standing.stats.games:  # no place to share: «полное равенство» was said of everyone before round 1
        return ru_en("игр пока нет — без места", "no game yet: no place", language)
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


@dataclass(frozen=True, slots=True)
class _Column:
    """A column of the Standings tab: its name, width, a player's cell, and whether it prints.

    The paper columns come first and the print area is theirs (docs/decisions.md, «Итоги on
    paper»): on the screen every column is there, on A4 only what a player looks for."""

    header: str
    width: float
    cell: Callable[[Standing], object]
    paper: bool = False
    points: int = 0  # points, shown with this many decimals (the site's: Preset.points_places); 0: not points
    wrap: bool = False  # long text: wrapped inside the column, the row as tall as it needs
    align: str | None = None


def _standings_columns(results: Results, language: str, live: Liveness | None) -> list[_Column]:
    preset = results.preset

    def w(ru: str, en: str) -> str:
        return ru_en(ru, en, language)

    def stage(key: str) -> Callable[[Standing], object]:
        return lambda st: (number(st.stats.stage_points.get(key, Decimal(0)))
                           if key in _stages_played(results, st.stats.player) else None)

    chances: dict[str, tuple] = {}  # a player's three liveness cells, worked out once

    def chance(i: int) -> Callable[[Standing], object]:
        def cell(st: Standing) -> object:
            if st.stats.player not in chances:
                chances[st.stats.player] = liveness_cells(live, st.stats.player, language)
            return chances[st.stats.player][i]
        return cell

    shown = [i for i in ITEMS if i.column is not None and i.scored_by(preset)]  # e.g. auto extra, Ci
    places = preset.points_places()
    heads = liveness_header(live, results, language) if live else None
    return [
        _Column(w("Место", "Place"), 7, lambda st: st.places if st.stats.games else None, True),  # no place before a game
        _Column(w("Игрок", "Player"), 20, lambda st: st.stats.player, True),
        _Column(w("Клуб", "Club"), 14, lambda st: st.stats.club or None, True),
        _Column(w("Итого", "Total"), 9, lambda st: number(st.stats.total), True, points=places),
        *(_Column(s.name(language), 11, stage(s.key), True, points=preset.points_places(s.key)) for s in preset.stages),
        _Column(w("Игр", "Games"), 6, lambda st: st.stats.games, True, align="center"),  # apart from the text beside it
        *((_Column(heads[0], 11, chance(0), True), _Column(heads[2], 32, chance(2), True, wrap=True)) if heads else ()),
        # while a cut is played the page has no room for both: it shows the cut line
        _Column(w("Почему выше следующего", "Why above the next"), 36, lambda st: tiebreak_text(st, language) or None,
                not heads, wrap=True),
        # on the screen only
        *((_Column(heads[1], 18, chance(1)),) if heads else ()),
        _Column(w("Побед", "Wins"), 6, lambda st: st.stats.wins),
        _Column(w("Побед доном", "Wins as don"), 8, lambda st: st.stats.wins_as["don"]),
        _Column(w("Побед шерифом", "Wins as sheriff"), 8, lambda st: st.stats.wins_as["sheriff"]),
        _Column(w("Побед мафией", "Wins as mafia"), 8, lambda st: st.stats.wins_as["mafia"]),
        _Column(w("Доп. баллы", "Extra points"), 9, lambda st: number(st.stats.extra_points), points=places),
        _Column(w("Лучший ход", "Best move"), 9, lambda st: number(st.stats.best_move_points), points=places),
        _Column(w("Штрафы", "Penalties"), 9, lambda st: number(st.stats.penalties), points=places),
        _Column(w("Убит первым", "Shot first"), 8, lambda st: st.stats.shot_first),
        *(_Column(i.column.name(language), i.column.width, lambda st, k=i.key: number(st.stats.item_total(k)),
                  points=places) for i in shown),
        # a mark only on who is out of the awards (issue 43 §8: «да» on every row)
        _Column(w("Призы", "Awards"), 9, lambda st: None if st.stats.eligible else ui("not_eligible", language)),
        *((_Column(w("Ci: как посчитано", "Ci: how it is counted"), 50,
                   lambda st: ci_text(results, st.stats, language) or None),) if preset.ci.enabled else ()),
        *_rating_columns(results, language),
    ]


def _rating_columns(results: Results, language: str) -> list[_Column]:
    """With the preset's ``[rating]``: each player's rating before the tournament, after it and the
    change, as the scheme shows them (none without a rating: the tab is as it always was)."""
    found = workbook_rating(results)
    if found is None:
        return []
    scheme, lines = found.scheme, found.lines

    def cell(st: Standing, what: str) -> object:
        line = lines.get(st.stats.player)
        if line is None or (what != "before" and not line.games):
            return None
        return {"before": scheme.shown(line.before), "after": scheme.shown(line.overall),
                "change": scheme.shown_change(line.change)}[what]

    return [_Column(ru_en(ru, en, language), 9, lambda st, k=key: cell(st, k))
            for key, ru, en in (("before", "Рейтинг до", "Rating before"), ("after", "Рейтинг после", "Rating after"),
                                ("change", "± рейтинга", "Rating ±"))]


def standings_tab(results: Results, language: str, live: Liveness | None | Ask = ASK) -> TabWrite:
    """The overall standings: every figure of a player on the screen; on paper (the print area) the
    columns a player looks for, every row as tall as its wrapped text, at 8 pt or more."""
    live = given_or_current(live, results)  # while a cut is played: ✓ / ✗, the bounds and the line
    columns = _standings_columns(results, language, live)
    p = progress(results)
    rows: list[tuple] = [*heading(tab_title(results.tournament.name, headline(p, results.preset, language)),
                                  games_line(p, language)), tuple(c.header for c in columns)]
    rows += [tuple(c.cell(st) for c in columns) for st in results.overall]
    last = len(rows) - 1
    paper = [c for c in columns if c.paper]
    # a row of wrapped text as tall as its lines: LibreOffice keeps a row's height on opening, so
    # a taller text would be cut at the cell's edge
    heights = [*STANDINGS_HEADER_HEIGHT, *(LINE_PT * max(text_lines(v, c.width) if c.wrap else 1
                                                         for c, v in zip(columns, row)) for row in rows[TOP_ROWS:])]
    formats = tuple(style for places in sorted({c.points for c in columns if c.points})
                    for style in number_styles([i for i, c in enumerate(columns) if c.points == places], TOP_ROWS,
                                               last, points_format(places)))

    def down(first: int, end: int) -> str:  # columns first…end of the players' rows
        return f"{column_letter(first)}{TOP_ROWS + 1}:{column_letter(end)}{last + 1}"

    body = (Style(cells=down(0, len(columns) - 1), middle=True),
            *(Style(cells=down(i, i), wrap=c.wrap, align=c.align) for i, c in enumerate(columns) if c.wrap or c.align),
            ) if last >= TOP_ROWS else ()
    rows.extend(_game_state_rows(results, language))
    side_first = len(rows)
    side_formats, side_bold = _with_sides(rows, columns, results, language)
    heights += [LINE_PT] * (side_first - len(heights))
    wrapped = _side_wrapped(columns, language)
    heights += [LINE_PT * max((text_lines(v, columns[i].width) for i, v in enumerate(row) if i in wrapped and v), default=1)
                for row in rows[side_first:]]
    page = paper_page([c.width for c in paper], heights, landscape=True, repeat_rows=TOP_ROWS,
                      area=f"A1:{column_letter(len(paper) - 1)}{len(rows)}")
    return TabWrite(title=L.tab("standings", language), rows=tuple(rows), column_widths=tuple(c.width for c in columns),
                    frozen_rows=TOP_ROWS, frozen_cols=2, bold_rows=(0, HEADER_ROW, *side_bold), row_heights=tuple(heights),
                    styles=(*header_styles(len(columns), size=None), *formats, *body, *side_formats), page=page)


def _with_sides(rows: list[tuple], columns: Sequence[_Column], results: Results,
                language: str) -> tuple[tuple[Style, ...], tuple[int, ...]]:
    """The team and classification tables added under the standings (none without the Players
    tab's columns): their points shown like the players', and the rows to draw bold."""
    headers = [c.header for c in columns]
    why = ru_en("Почему выше следующего", "Why above the next", language)
    at = {"place": 0, "name": 1, "note": 2, "points": 3, "why": headers.index(why) if why in headers else len(headers) - 1}
    side = side_rows(results, language, at, len(columns))
    first = len(rows)
    rows.extend(side.rows)
    if not side.rows:
        return (), ()
    wrap = tuple(Style(cells=f"{column_letter(i)}{first + 1}:{column_letter(i)}{len(rows)}", wrap=True)
                 for i in sorted(_side_wrapped(columns, language)))
    return (*number_styles([3], first, len(rows) - 1), *wrap), tuple(first + i for i in side.bold)


def _side_wrapped(columns: Sequence[_Column], language: str) -> set[int]:
    """The columns whose text wraps in the team and classification rows: the members (or the
    overall place's header) and «why above the next» — as tall as their lines on paper."""
    headers = [c.header for c in columns]
    why = ru_en("Почему выше следующего", "Why above the next", language)
    return {2, headers.index(why) if why in headers else len(headers) - 1}


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
    rows: list[tuple] = [*heading(tab_title(results.tournament.name, rule.name(language)), _stage_status(results, stage, language)),
                         tuple(header)]
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
    # the total with the tournament's decimals, the stage's columns with the stage's (issue 43 §8)
    formats = (*number_styles([3], TOP_ROWS, len(rows) - 1, points_format(preset.points_places())),
               *number_styles(range(4, 6 + len(rounds)), TOP_ROWS, len(rows) - 1,
                              points_format(preset.points_places(stage))))
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
    return TabWrite(title=rule.name(language), rows=tuple(rows), column_widths=widths, frozen_rows=TOP_ROWS,
                    frozen_cols=2, bold_rows=(0, HEADER_ROW), row_heights=HEADER_HEIGHT,
                    styles=(*header_styles(len(header)), *formats), page=TABLE_PAGE)


def _stage_status(results: Results, stage: str, language: str) -> str:
    """The games of one stage: counted of those seated or with a protocol."""
    t = results.tournament
    games = {g for g in scheduled_games(t.seating, t.protocols) if g[0] == stage}
    counted = len({p.key for p in results.counted if p.stage == stage})
    return counted_line(counted, max(counted, len(games)), language)


def statistics_tab(results: Results, language: str) -> TabWrite:
    """Red/black win rates overall, per table and per seat; best-move hits."""
    games = results.counted
    red = sum(1 for p in games if p.winner and p.winner.value == "red")
    rows: list[tuple] = heading(tab_title(results.tournament.name, L.tab("statistics", language)), games_line(progress(results), language))
    bold = [0, len(rows)]
    percents: list[int] = []  # rows whose second column is a percentage
    rows.append((ru_en("Показатель", "Measure", language), ru_en("Значение", "Value", language)))
    rows.append((ru_en("Засчитано игр", "Games counted", language), len(games)))
    if games:
        rows.append((ru_en("Побед мирных", "Red wins", language), red))
        rows.append((ru_en("Побед мафии", "Black wins", language), len(games) - red))
        percents.append(len(rows))
        rows.append((ru_en("Доля побед мирных, %", "Red win rate, %", language), round(Decimal(red * 100) / len(games), 1)))
    bm = [ln for ln in results.lines if ln.items.get("best_move")]
    rows.append((ru_en("Лучших ходов с баллами", "Best moves with points", language), len(bm)))
    rows.append(())
    bold.append(len(rows))
    rows.append((ru_en("Место", "Seat", language), ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
                 ru_en("Убит первым", "Shot first", language), ru_en("Лучших ходов с баллами", "Best moves scored", language)))
    for seat in range(1, 11):
        lines = [ln for ln in results.lines if ln.seat == seat]
        rows.append((seat, len(lines), sum(ln.won for ln in lines), sum(ln.shot_first for ln in lines),
                     sum(1 for ln in lines if ln.items.get("best_move"))))
    rows.append(())
    bold.append(len(rows))
    rows.append((ru_en("Этап, стол", "Stage, table", language), ru_en("Игр", "Games", language),
                 ru_en("Побед мирных", "Red wins", language), ru_en("Побед мафии", "Black wins", language),
                 ru_en("Доля побед мирных, %", "Red win rate, %", language)))
    by_table: dict[tuple[int, int], list] = defaultdict(list)
    stage_index = {k: i for i, k in enumerate(results.preset.stage_keys)}
    for p in games:
        by_table[(stage_index.get(p.stage, 0), p.table)].append(p)
    first_table = len(rows)
    for (si, table), played in sorted(by_table.items()):
        reds = sum(1 for p in played if p.winner and p.winner.value == "red")
        rows.append((f"{results.preset.stages[si].name(language)}, {table}", len(played), reds, len(played) - reds,
                     round(Decimal(reds * 100) / len(played), 1)))
    formats = [*number_styles([4], first_table, len(rows) - 1, PERCENT_FORMAT),
               *(s for r in percents for s in number_styles([1], r, r, PERCENT_FORMAT))]
    rows.append(())
    bold.append(len(rows))
    rows.append((ru_en("Роль", "Role", language), ru_en("Игр", "Games", language), ru_en("Побед", "Wins", language),
                 ru_en("Доп. баллы", "Extra points", language)))
    formats += number_styles([3], len(rows), len(rows) + 3)
    for role in ("don", "sheriff", "mafia", "civilian"):
        lines = [ln for ln in results.lines if ln.role.value == role]
        rows.append((L.word(role, language), len(lines), sum(ln.won for ln in lines),
                     number(sum((ln.item("extra") for ln in lines), Decimal(0)))))
    ci = _ci_rows(results, language)
    rows += ci
    if ci:  # its last row is the total of Ci points
        formats += number_styles([1], len(rows) - 1, len(rows) - 1)
    nom = nomination_rows(results, language)
    if nom:
        rows.append(())
        bold.append(len(rows))
        formats += number_styles([4], len(rows) + 1, len(rows) + len(nom) - 1)
        rows.extend(nom)
    return TabWrite(title=L.tab("statistics", language), rows=tuple(rows), column_widths=(30, 10, 10, 12, 14, 40),
                    bold_rows=tuple(bold), styles=(*heading_styles(), *formats), page=PageSetup())


def _ci_rows(results: Results, language: str) -> list[tuple]:
    """Under the roles: how much Ci compensation was given (a preset with Ci)."""
    if not results.preset.ci.enabled:
        return []
    ci_lines = [ln for ln in results.lines if ln.ci]
    total_ci = sum((ln.ci_points for ln in ci_lines), Fraction(0))
    return [(), (ru_en("Компенсация Ci", "Ci compensation", language),),
            (ru_en("Игр с Ci", "Games with Ci", language), len(ci_lines)),
            (ru_en("Игроков с Ci", "Players with Ci", language), len({ln.player for ln in ci_lines})),
            (ru_en("Сумма Ci", "Ci total", language), number(quantize(total_ci)))]


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


# a tab of garbage rows has thousands of problems: the Problems tab lists each tab's first ones in
# reading order and says how many more that tab holds, and stops after a few thousand rows
PROBLEMS_PER_TAB = 200
PROBLEMS_LISTED = 2000


def problems_tab(problems: Sequence[Problem], language: str, *, links: bool, name: str = "") -> TabWrite:
    """The problems of the run, by tab and cell (at most :data:`PROBLEMS_PER_TAB` a tab and
    :data:`PROBLEMS_LISTED` in all, then «и ещё…»); ``name`` (the tournament's) heads the tab."""
    header = (ru_en("Вкладка", "Tab", language), ru_en("Ячейка", "Cell", language), ru_en("Уровень", "Severity", language),
              ru_en("Проблема", "Problem", language), ru_en("Правило", "Rule", language))
    rows: list[tuple] = [*heading(tab_title(name, L.tab("problems", language)), problems_status(problems, language)), header]
    severity_word = {Severity.ERROR: ru_en("ошибка", "error", language), Severity.WARNING: ru_en("предупреждение", "warning", language)}
    for p, more in _listed(problems, language):
        if more:  # the tab's problems left out (p is its first)
            rows.append((p.sheet or None, None, None, more, None))
            continue
        # a problem of several cells is listed once, naming them all; the link goes to the first
        cell: object = cell_names(p.locations, p.sheet) or None
        if links and p.location is not None:
            cell = Link(text=str(cell), sheet=p.sheet, cell=reading_order(p.locations, p.sheet)[0].cell)
        rows.append((p.sheet or None, cell, severity_word[p.severity], p.message(language), rule_name(p.rule, language)))
    if len(rows) == TOP_ROWS:
        rows.append((None, None, None, ru_en("Проблем нет", "No problems", language), None))
    # a long message wraps inside its column, its row as tall as its lines, on the screen and on paper
    # (a message longer than the column was cut at its edge)
    wrapped = Style(cells=f"D{TOP_ROWS + 1}:D{len(rows)}", wrap=True) if len(rows) > TOP_ROWS else None
    heights = (*HEADER_HEIGHT, *(None if (n := text_lines(row[3], _MESSAGE_WIDTH)) == 1 else n * LINE_PT
                                 for row in rows[TOP_ROWS:]))
    while heights and heights[-1] is None:
        heights = heights[:-1]
    return TabWrite(title=L.tab("problems", language), rows=tuple(rows), column_widths=(20, 14, 17, _MESSAGE_WIDTH, 22),
                    frozen_rows=TOP_ROWS, bold_rows=(0, HEADER_ROW), row_heights=heights,
                    styles=header_styles(len(header)) + ((wrapped,) if wrapped else ()), page=TABLE_PAGE)


_MESSAGE_WIDTH = 80  # the Problems tab's «Проблема» column


def _listed(problems: Sequence[Problem], language: str) -> Iterator[tuple[Problem, str]]:
    """(problem, "") for each problem listed, sorted by tab and cell; (a problem, «и ещё…») where a
    tab's listed ones end and some of it are left out, and once for the rest of the workbook when
    :data:`PROBLEMS_LISTED` is reached."""
    by_tab: dict[str, list[Problem]] = {}
    for p in sorted(problems, key=Problem.sort_key):
        by_tab.setdefault(p.sheet, []).append(p)
    room = PROBLEMS_LISTED
    tabs = list(by_tab.values())
    for i, found in enumerate(tabs):
        shown = found[:min(PROBLEMS_PER_TAB, room)]
        room -= len(shown)
        yield from ((p, "") for p in shown)
        if len(shown) < len(found):
            yield found[0], more_problems(*severity_counts(found[len(shown):]), language)
        if room <= 0 and i + 1 < len(tabs):
            rest = [p for other in tabs[i + 1:] for p in other]
            yield rest[0], more_problems(*severity_counts(rest), language, here=False)
            return


def problems_status(problems: Sequence[Problem], language: str) -> str:
    """«ошибок: 1, предупреждений: 3» («проблем нет» when there are none)."""
    errors = sum(1 for p in problems if p.severity is Severity.ERROR)
    warnings = len(problems) - errors
    if not problems:
        return ru_en("проблем нет", "no problems", language)
    return ru_en(f"ошибок: {errors}, предупреждений: {warnings}", f"errors: {errors}, warnings: {warnings}", language)


def owned_tabs(results: Results, problems: Sequence[Problem], language: str, *, links: bool,
               live: Liveness | None | Ask = ASK) -> list[TabWrite]:
    tabs = [standings_tab(results, language, live)]
    for stage in results.preset.stage_keys:
        if results.participants.get(stage) and (stage == results.preset.stage_keys[0] or results.stages.get(stage)):
            tabs.append(stage_tab(results, stage, language))
    tabs += side_tabs(results, language)
    tabs.append(statistics_tab(results, language))
    tabs.append(problems_tab(problems, language, links=links, name=results.tournament.name))
    return tabs
