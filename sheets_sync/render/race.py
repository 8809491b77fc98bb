"""The race over the rounds and who can still qualify, as the public outputs show them.

Pure functions from :class:`scoring.race.Race` and :class:`scoring.liveness.Liveness` to
inline SVG (the chart of the leaders' places per round, a player's sparkline: no JavaScript,
they print as they are), to the ✓ / ✗ marks and to the words that explain them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from html import escape

from scoring.liveness import Liveness, State
from scoring.race import Race
from scoring.numbers import quantize
from sheets_sync.render.words import ru_en

__all__ = ["points_sparkline", "MARK", "mark", "mark_title", "legend", "cut_line", "race_chart", "WIDE", "NARROW", "sparkline", "round_labels",
           "WORDS", "word"]

MARK = {State.THROUGH: "✓", State.OUT: "✗", State.OPEN: ""}
# «может пройти и без новых очков» is said to a player with at most this many games of the stage left
LATE_GAMES = 1

# words of the race and the marks: key -> (ru, en)
WORDS: dict[str, tuple[str, str]] = {
    "race": ("Гонка по турам", "Race over the rounds"),
    "race_intro": ("Место после каждого тура у {n} лучших на сейчас; считается заново по протоколам.",
                   "Place after every round of the current top {n}, recomputed from the protocols."),
    "race_empty": ("Ни одной засчитанной игры.", "No counted game yet."),
    "place_per_round": ("Место по турам", "Place per round"),
    "round_short": ("Т", "R"),
    "through": ("проходит в {stage}", "through to the {stage}"),
    "out": ("не проходит в {stage}", "cannot reach the {stage}"),
    "open": ("ещё может пройти в {stage}", "can still reach the {stage}"),
    "legend": ("✓ — проходит в {stage} при любых оставшихся играх, ✗ — уже не может пройти "
               "(в {stage} проходят {size}); отметки считают, что штрафов и пропусков игр больше не будет",
               "✓ through to the {stage} whatever the remaining games give, "
               "✗ cannot reach it any more ({size} go on); the marks assume no further penalties or absences"),
    "legend_complete": ("✓ — проходит в {stage}, ✗ — не проходит (в {stage} проходят {size})",
                        "✓ through to the {stage}, ✗ not through ({size} go on)"),
    "bounds": ("Можно набрать к концу этапа: от {low} до {high}", "Total at the end of the stage: {low} to {high}"),
    # the points to the cut line, while the player is open
    "get_in": ("до черты: ещё {points}", "to the cut line: {points} more"),
    "get_in_now": ("может пройти и без новых очков", "may go through without another point"),
    "sure": ("наверняка — больше {points}", "for sure: more than {points}"),
}


def word(key: str, language: str, **values: object) -> str:
    return ru_en(*WORDS[key], language).format(**values)


def mark(live: Liveness | None, player: str) -> str:
    """"✓", "✗" or "" for the player in the current cut."""
    state = live.state(player) if live else None
    return MARK[state] if state else ""


def mark_title(live: Liveness | None, player: str, stage_name: str, language: str) -> str:
    state = live.state(player) if live else None
    return word(state.value, language, stage=stage_name.lower()) if state else ""


def legend(live: Liveness | None, stage_name: str, language: str, shown: Iterable[str]) -> str:
    """What ✓ and ✗ mean, when one of the ``shown`` players carries a mark (else nothing)."""
    if not live or not any(mark(live, player) for player in shown):
        return ""
    return word("legend_complete" if live.complete else "legend", language, stage=stage_name.lower(), size=live.size)


def cut_line(live: Liveness | None, player: str, language: str) -> str:
    """The points an open player still needs: to have a chance (at equal points the tiebreaks
    decide) and, where a total he can reach does it, to be sure; "" once decided.  That he may go
    through without another point is said only when at most one game of the stage is left to him:
    earlier it is true of nearly everybody (after round 1, of every player on 0) and tells nothing."""
    chance = live.chances.get(player) if live else None
    if chance is None or chance.to_get_in is None:
        return ""
    get_in = chance.to_get_in
    parts = []
    if get_in:
        parts.append(word("get_in", language, points=f"{quantize(get_in):.2f}"))
    elif chance.remaining <= LATE_GAMES:
        parts.append(word("get_in_now", language))
    if chance.to_be_sure is not None:
        parts.append(word("sure", language, points=f"{quantize(chance.to_be_sure):.2f}"))
    return ", ".join(parts)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Box:
    """The chart's geometry, in SVG units: the SVG scales to its column, so a unit is a CSS pixel only
    where the chart is drawn as wide as its ``width``."""

    left: int = 34
    right: int = 170  # the names at the end of the lines
    top: int = 28
    bottom: int = 34
    width: int = 720
    row: int = 18  # pixels per place
    font: int = 11  # the axes' and the names' type
    name_chars: int = 0  # a longer name is cut with «…» (its line's title keeps it whole); 0: never
    label_room: int = 0  # the least units between two round labels shown (fewer are shown when it is tight)


WIDE = _Box()
# a phone (390 px; the column 374 px): drawn about as wide as its 360 units, so its type is ≥ 11 px there
NARROW = _Box(left=24, right=132, top=22, bottom=30, width=360, row=17, font=12, name_chars=13, label_room=30)


# 10 colours that stay apart on paper in grey too (alternating dark and light), then dashed for 11–20
_COLOURS = ("#1f4e99", "#d1495b", "#2a9d5c", "#e09f1f", "#6a3d9a", "#00798c", "#8c564b", "#c2185b", "#4d4d4d", "#7a9a01")


def round_labels(race: Race, stage_short: Callable[[str], str]) -> list[str]:
    """One short label per point of the race: the stage's letter and the round ("О3", "Ф1")."""
    return [f"{stage_short(p.stage)}{p.round}" for p in race.points]


def _label_centres(wanted: Sequence[float], gap: float) -> list[float]:
    """Where the names at the lines' ends go: at their line's end, pushed down just enough that two
    never overlap (players tied on a place, or places closer than a line of text)."""
    out: list[float] = []
    for y in wanted:  # best first: the order of the places
        out.append(max(y, out[-1] + gap) if out else y)
    return out


def _shown_rounds(n: int, spacing: float, room: int) -> set[int]:
    """The rounds whose label is written: all, or every k-th counted back from the last (always
    shown) when the labels would touch."""
    step = max(1, -(-room // int(spacing))) if room and spacing else 1
    return {i for i in range(n) if (n - 1 - i) % step == 0}


def _cut(name: str, chars: int) -> str:
    return name if not chars or len(name) <= chars else name[: chars - 1].rstrip() + "…"


def race_chart(race: Race, *, top: int, labels: Sequence[str], href: Mapping[str, str], title: str,
               box: _Box = WIDE, css: str = "race-chart") -> str:
    """An inline SVG: the place after every round of the ``top`` players of the last round,
    one labelled line each (the name and the place now at the right end, linked to the player's page;
    names that would overlap are stacked, each joined to its line by a stroke).  ``box``: the wide
    chart (:data:`WIDE`, screens and paper) or the phone's (:data:`NARROW`); ``css``: its class."""
    leaders = race.leaders(top)
    if not leaders:
        return ""
    places = {p: race.places(p) for p in leaders}
    deepest = max([len(leaders), *(x for seq in places.values() for x in seq if x is not None)])
    n = len(race.points)
    plot_w = box.width - box.left - box.right

    def x(i: int) -> float:
        return box.left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(place: int) -> float:
        return box.top + box.row * (place - 1)

    ends = _label_centres([y(places[p][-1] or deepest) for p in leaders], box.font + 3)
    height = max(box.top + box.bottom + box.row * (deepest - 1), round(ends[-1]) + box.bottom)
    title_id = f"{css.split()[-1]}-title"
    out = [f'<svg class="{css}" viewBox="0 0 {box.width} {height}" '
           f'role="img" aria-labelledby="{title_id}" font-family="sans-serif" font-size="{box.font}">',
           f'<title id="{title_id}">{escape(title)}</title>']
    out += _grid(race, labels, box, x, y, height, deepest)
    for rank, player in enumerate(reversed(leaders)):  # the leader drawn last: on top
        index = len(leaders) - 1 - rank
        out += _line(player, places[player], index, ends[index], box, x, y, href.get(player, ""))
    out.append("</svg>")
    return "\n".join(out)


def _grid(race: Race, labels: Sequence[str], box: _Box, x: Callable[[int], float], y: Callable[[int], float],
          height: int, deepest: int) -> list[str]:
    """A line per round with its label below, a dashed line where a stage begins, a place number every
    fifth row."""
    n = len(race.points)
    shown = _shown_rounds(n, x(1) - x(0) if n > 1 else 0, box.label_room)
    out = []
    for i, label in enumerate(labels):
        out.append(f'<line x1="{x(i):.1f}" y1="{box.top - 8}" x2="{x(i):.1f}" y2="{height - box.bottom + 8}" stroke="#ddd"/>')
        if i in shown:
            out.append(f'<text x="{x(i):.1f}" y="{height - box.bottom + 22}" text-anchor="middle" fill="#555">'
                       f'{escape(label)}</text>')
    for i in range(1, n):  # where a stage begins
        if race.points[i].stage != race.points[i - 1].stage:
            mid = (x(i - 1) + x(i)) / 2
            out.append(f'<line x1="{mid:.1f}" y1="{box.top - 14}" x2="{mid:.1f}" y2="{height - box.bottom + 8}" '
                       f'stroke="#888" stroke-dasharray="2 2"/>')
    for place in range(1, deepest + 1):
        if place == 1 or place % 5 == 0 or place == deepest:
            out.append(f'<text x="{box.left - 8}" y="{y(place) + 4:.1f}" text-anchor="end" fill="#555">{place}</text>')
    return out


def _line(player: str, seq: Sequence[int | None], index: int, label_y: float, box: _Box, x: Callable[[int], float],
          y: Callable[[int], float], href: str) -> list[str]:
    """One player's line, its dots and, at its end, the place now and the name (at ``label_y``)."""
    colour = _COLOURS[index % len(_COLOURS)]
    dash = ' stroke-dasharray="5 3"' if index >= len(_COLOURS) else ""
    n = len(seq)
    pts = [(x(i), y(pl)) for i, pl in enumerate(seq) if pl is not None]
    name = escape(player)
    out = [f'<g class="race-line"><title>{name}: {", ".join("–" if pl is None else str(pl) for pl in seq)}</title>']
    if len(pts) > 1:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
    for px, py in pts:
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="{colour}"/>')
    last = seq[-1]
    if last is not None:
        end_x, end_y = x(n - 1), y(last)
        if abs(label_y - end_y) > 0.5:  # stacked below a tie: a stroke from the line's end to its name
            out.append(f'<polyline points="{end_x + 3:.1f},{end_y:.1f} {end_x + 6:.1f},{label_y:.1f} '
                       f'{end_x + 7:.1f},{label_y:.1f}" fill="none" stroke="{colour}" stroke-width="1"/>')
        link = escape(href, quote=True)
        out.append(f'<a href="{link}"><text class="race-name" x="{end_x + 8:.1f}" y="{label_y + box.font * 0.35:.1f}" '
                   f'fill="{colour}">{last}. {escape(_cut(player, box.name_chars))}</text></a>')
    out.append("</g>")
    return out


def sparkline(places: Sequence[int | None], *, field: int, title: str) -> str:
    """A small inline SVG of one player's places (1 at the top, ``field`` players at the bottom)."""
    seen = [(i, p) for i, p in enumerate(places) if p is not None]
    if not seen:
        return ""
    return _polyline(seen, len(places), top=1, bottom=max(field, *(p for _, p in seen), 2), title=title)


def points_sparkline(totals: Sequence[Decimal], *, title: str) -> str:
    """The same small SVG of a season's points after each evening (the most at the top)."""
    if not totals:
        return ""
    high, low = max(totals), min(totals)
    return _polyline(list(enumerate(totals)), len(totals), top=high, bottom=low if low != high else high - 1,
                     title=title)


def _polyline(seen: Sequence[tuple[int, int | Decimal]], n: int, *, top: int | Decimal, bottom: int | Decimal,
              title: str) -> str:
    width, height, pad = 160, 36, 4

    def x(i: int) -> float:
        return pad + ((width - 2 * pad) * i / (n - 1) if n > 1 else (width - 2 * pad) / 2)

    def y(v: int | Decimal) -> float:
        return float(pad + (height - 2 * pad) * (v - top) / (bottom - top))

    path = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in seen)
    lx, ly = x(seen[-1][0]), y(seen[-1][1])
    return (f'<svg class="sparkline" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title, quote=True)}">'
            f'<title>{escape(title)}</title>'
            f'<polyline points="{path}" fill="none" stroke="#1f4e99" stroke-width="1.5"/>'
            f'<circle cx="{lx:.1f}" cy="{ly:.1f}" r="2.5" fill="#d1495b"/></svg>')
