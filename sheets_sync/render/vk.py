"""The VK post: plain text ready to paste, and a PNG picture of the final table.

VK shows posts in a proportional font and renders neither HTML nor Markdown, so the text
aligns numbers with figure spaces (U+2007, as wide as a digit) and puts the variable-width
nickname last.  Text people typed is pasted as text; only VK's own markup is defused
(``@id`` / ``*id`` mentions, ``[id1|…]`` links, ``#hashtags`` inside a nickname) by a
WORD JOINER (U+2060) after the markup character.  The post stays within VK's limit of
16384 characters (counted in UTF-16 units, as VK counts): the table is cut short with a
line saying how many players are left out.

The picture is drawn with Pillow and a Cyrillic-capable TTF found among installed fonts
(DejaVu Sans: Debian package ``fonts-dejavu-core``, or matplotlib's copy).  Both outputs are
deterministic: same results and the same given time, same bytes (PNG without time stamps).
Both say where the tournament stands (:mod:`scoring.progress`): medals and «Победители» only
for a finished tournament, no table at all before the first counted game.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple
from pathlib import Path

from scoring.progress import Progress, progress as progress_of
from scoring.standings import Results, Standing
from scoring.teams import sides
from sheets_sync.render.json_out import points
from sheets_sync.render.measure import FontNotFound, Fitted, find_font, fit_text, font
from sheets_sync.files import reuse_output, write_bytes_atomic, write_text_atomic
from scoring.liveness import ASK, Ask, Liveness, given_or_current
from sheets_sync.render import race as race_view
from sheets_sync.render.page_keys import page_key
from sheets_sync.render.progress_text import headline, status_lines
from sheets_sync.render.site import nominations
from sheets_sync.render.words import plain_text, ru_en, ui

__all__ = ["post_text", "post_image", "png_bytes", "picture_header", "find_font", "FontNotFound", "VK_LIMIT", "FIGURE_SPACE", "vk_safe",
           "utf16_len", "write_vk"]

VK_LIMIT = 16384
FIGURE_SPACE = "\u2007"
WORD_JOINER = "\u2060"
MINUS = "\u2212"
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
ZERO = Decimal(0)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def vk_safe(value: object) -> str:
    """One line of plain text that VK will not turn into a mention, a link or a hashtag."""
    return re.sub(r"([@#*\[])", "\\1" + WORD_JOINER, plain_text(value))


def _num(text: str, width: int) -> str:
    """Right-align a number in a proportional font: pad with figure spaces; minus as wide as a digit."""
    text = text.replace("-", MINUS)
    return FIGURE_SPACE * max(0, width - len(text)) + text


def _hashtags(name: str, language: str) -> str:
    base = re.split(r"[(\[]", name, maxsplit=1)[0]
    tag = re.sub(r"[^\w]+", "", base.title() if base.islower() else base, flags=re.UNICODE).replace("_", "")
    tags = ["#" + tag] if tag else []
    tags += ["#спортивнаямафия", "#мафия", "#ФИИМ"] if language != "en" else ["#sportmafia", "#mafia", "#FIIM"]
    return " ".join(dict.fromkeys(tags))


def _podium(overall: Sequence[Standing]) -> list[Standing]:
    return [st for st in overall if st.place <= 3]


def _decimal(text: str, int_w: int, frac_w: int) -> str:
    """Align on the decimal point: figure spaces before the whole part and after the fraction."""
    whole, _, frac = text.partition(".")
    return _num(whole, int_w) + "." + frac + FIGURE_SPACE * max(0, frac_w - len(frac))


def _table_line(st: Standing, place_w: int, int_w: int, frac_w: int, mark: str = "", places: int = 2) -> str:
    s = st.stats
    club = f" ({vk_safe(s.club)})" if s.club else ""
    place = f"{_num(st.places, place_w)}." if s.games else FIGURE_SPACE * (place_w + 1)  # no place before a game
    mark = f" {mark}" if mark else ""  # ✓ / ✗: through to or out of the next stage
    return f"{place} {_decimal(points(s.total, places), int_w, frac_w)} — {vk_safe(s.player)}{club}{mark}"


# the post's team table: the first ten teams (a post is read on a phone; the site has them all)
TEAMS_IN_POST = 10
CLASSIFICATION_TOP = 3  # each classification's first three, as the podium


def _side_lines(results: Results, language: str) -> list[str]:
    """A short team table after the players' and each classification's first three (nothing
    without the Players tab's «Команда» / «Зачёт»)."""
    found = sides(results)
    places = results.preset.points_places()
    lines: list[str] = []
    if found.teams:
        lines += ["", ru_en("Командный зачёт:", "Team standings:", language)]
        lines += [f"{t.places}. {vk_safe(t.team)} — {points(t.points, places)}" for t in found.teams[:TEAMS_IN_POST]]
        if len(found.teams) > TEAMS_IN_POST:
            more = len(found.teams) - TEAMS_IN_POST
            lines.append(ru_en(f"… и ещё {more}", f"… and {more} more", language))
    for c in found.classifications:
        top = [e for e in c.entries if e.standing.stats.games][:CLASSIFICATION_TOP]
        if top:
            lines += ["", ru_en(f"Зачёт «{vk_safe(c.name)}»:", f"Classification '{vk_safe(c.name)}':", language)]
            lines += [f"{e.places}. {vk_safe(e.standing.stats.player)} — {points(e.standing.stats.total, places)}"
                      for e in top]
    return lines


def _tail(results: Results, progress: Progress, updated: datetime | None, language: str, link: str) -> list[str]:
    """The post below the table: awaiting confirmation, nominations (finished), the status, the link, hashtags."""
    tail: list[str] = _side_lines(results, language) if progress.started else []
    if results.awaiting_confirmation:
        tail.append("")
        tail.append(f"⏳ {ui('awaiting', language)}: {results.awaiting_confirmation}")
    noms = nominations(results, language) if progress.finished else []
    if noms:
        tail.append("")
        tail.append(ru_en("Номинации:", "Nominations:", language))
        for n in noms:
            value = f" ({n.value})" if n.value else ""
            tail.append(f"🏅 {vk_safe(n.title)}: {', '.join(vk_safe(p) for p in n.players)}{value}")
    tail.append("")
    tail.extend("🕒 " + line if i == 0 and updated else line for i, line in enumerate(status_lines(progress, updated, language)))
    if link:  # no link: no line (a placeholder would be published as it is by sync and watch)
        tail.append("")
        tail.append(ru_en("🔗 Полные результаты, протоколы и статистика: ", "🔗 Full results, protocols and statistics: ",
                          language) + plain_text(link))
    tail.append("")
    tail.append(_hashtags(results.tournament.name, language))
    return tail


def post_text(results: Results, *, language: str, top: int = 20, link: str | None = None, limit: int = VK_LIMIT,
              progress: Progress | None = None, updated: datetime | None = None, live: Liveness | None | Ask = ASK) -> str:
    """The post: name, date, podium (finished), the top of the standings titled by the progress,
    nominations (finished), when updated and how many games are counted, link, hashtags."""
    t = results.tournament
    if progress is None:
        progress = progress_of(results)
    title = headline(progress, results.preset, language)
    places = results.preset.points_places()  # one number of decimals for every total of the post
    head = [f"🏆 {vk_safe(t.name)}"]
    if t.date:
        head.append(f"📅 {vk_safe(t.date)}")
    head.append("")
    overall = list(results.overall) if progress.started else []
    podium = _podium(overall) if progress.finished else []
    if podium:
        head.append(ru_en("Победители:", "Winners:", language))
        for st in podium:
            head.append(f"{MEDALS[st.place]} {vk_safe(st.stats.player)} — {points(st.stats.total, places)}")
        head.append("")
    # only who has played: a player without a counted game has no place, and ten «0.00» after round 1
    # would fill the post with nothing (they are counted in a line of their own instead)
    ranked = [st for st in overall if st.stats.games]
    waiting = len(overall) - len(ranked)
    shown = ranked[:top] if top else ranked
    table_title = (title + ru_en(f" (первые {len(shown)} из {len(ranked)}):", f" (top {len(shown)} of {len(ranked)}):",
                                 language) if len(shown) < len(ranked) else title + (":" if ranked else ""))
    place_w = max((len(st.places) for st in shown), default=1)
    totals = [points(st.stats.total, places).partition(".") for st in shown]
    int_w = max((len(w) for w, _, _ in totals), default=1)
    frac_w = max((len(f) for _, _, f in totals), default=2)
    live = given_or_current(live, results)
    table = [_table_line(st, place_w, int_w, frac_w, race_view.mark(live, st.stats.player), places) for st in shown]

    link = (link or t.link).strip()  # `export vk --link`, else the Tournament tab's «Ссылка»
    tail = _tail(results, progress, updated, language, link)

    def assemble(rows: list[str], left_out: int) -> str:
        body = [table_title, *rows]
        if live:
            legend = race_view.legend(live, results.preset.stage(live.stage).name(language), language,
                                      [st.stats.player for st in shown])
            if legend:
                body.append(legend)
        if left_out:
            body.append(ru_en(f"… и ещё {left_out}", f"… and {left_out} more", language)
                        + (ru_en(" — полная таблица по ссылке ниже", " — full table at the link below", language) if link else ""))
        if waiting and not progress.finished:  # after the last game nobody is «yet» to play
            body.append(ru_en(f"Ещё не играли: {waiting}", f"Not played yet: {waiting}", language))
        return "\n".join(head + body + tail) + "\n"

    rows = list(table)
    text = assemble(rows, len(ranked) - len(shown))
    while utf16_len(text) > limit and rows:
        rows.pop()
        text = assemble(rows, len(ranked) - len(rows))
    if utf16_len(text) > limit:  # absurdly long name or nominations: hard cut on a line boundary
        kept: list[str] = []
        for line in text.split("\n"):
            if utf16_len("\n".join(kept + [line, "…"])) > limit:
                break
            kept.append(line)
        text = "\n".join(kept + ["…"])
    return text


# -- the picture ---------------------------------------------------------------------------------------
def line_height(size: int) -> int:
    """The distance between two lines of type of ``size`` px in a picture (46 → 58)."""
    return round(size * 1.26)


def text_block(d: Any, fitted: Fitted, x: int, top: int, fill: str, *, anchor: str = "l") -> int:
    """``fitted``'s lines from ``top`` down, each centred in its line height (``anchor`` "l" or "r": which
    end stands at ``x``); the height they took."""
    step = line_height(fitted.size)
    for i, line in enumerate(fitted.lines):
        d.text((x, top + i * step + step // 2), line, font=fitted.font, fill=fill, anchor=anchor + "m")
    return step * len(fitted.lines)


def block_height(*fitted: Fitted | None) -> int:
    """The height the lines of every ``fitted`` take one under another."""
    return sum(line_height(f.size) * len(f.lines) for f in fitted if f is not None)


class Header(NamedTuple):
    """The dark band at the top of a picture, laid out: the title and the grey line under it, each as many
    lines as it needs (issue 43 §8: nothing in a picture is cut)."""

    title: Fitted
    subtitle: Fitted
    height: int


def header_layout(title: str, subtitle: str, *, width: int, pad: int, title_size: int = 46) -> Header:
    """The band's text fitted to the picture's width: smaller type down to a floor, then more lines."""
    t = fit_text(title, width - 2 * pad, size=title_size, floor=title_size - 8, bold=True)
    sub = fit_text(subtitle, width - 2 * pad, size=30, floor=24)
    return Header(t, sub, pad + block_height(t) + 6 + block_height(sub) + 36)


def picture_header(draw, header: Header, *, width: int, pad: int) -> None:
    """The dark band at the top of every picture: the title and a grey line under it."""
    draw.rectangle((0, 0, width, header.height), fill="#202833")
    y = pad - 8
    y += text_block(draw, header.title, pad, y, "#ffffff")
    text_block(draw, header.subtitle, pad, y + 6, "#c9d1db")


def _picture_rows(results: Results, progress: Progress) -> list[Standing]:
    if not progress.started:
        return []
    keys = results.preset.stage_keys
    last = keys[-1]
    if len(keys) > 1 and results.stages.get(last):
        n = len(results.participants.get(last, ())) or 10
    else:
        n = 10
    return list(results.overall)[: max(3, min(n, 20))]


class _Fonts:
    """The picture's fixed type sizes (bold where the reader's eye goes first); names, clubs and the
    columns' heads are fitted to their columns (:func:`_laid_rows`)."""

    def __init__(self) -> None:
        self.num, self.total, self.place, self.small = font(30), font(34, True), font(30, True), font(20)


class _Columns(NamedTuple):
    """Where the picture's columns stand: place | player (club) | stage points… | total."""

    pad: int
    width: int
    name_x: int
    name_w: int
    stages_x: int
    stage_w: int


# the least type a name, a club or a column's head shrinks to before it takes a second line
NAME_SIZES, CLUB_SIZES, HEAD_SIZES = (32, 24), (22, 18), (22, 16)
ROW_HEIGHT = 66  # a row of one name line and its club


@dataclass(frozen=True, slots=True)
class _Row:
    """One player's row of the picture, as it is drawn."""

    place: int
    places: str  # "5" or "5–6"
    played: bool  # no place is shown before a counted game
    name: str  # the nickname, with its ✓ / ✗ while a cut is played
    club: str
    stage_points: tuple[str | None, ...]  # per stage column; None: not in that stage
    total: str


@dataclass(frozen=True, slots=True)
class _Picture:
    """Everything the picture draws, as text: the picture is drawn from this alone, so its key
    (:func:`sheets_sync.render.page_keys.page_key`, salted with this module's code) says when the
    last picture can be kept — as a site page's does."""

    width: int
    title: str
    subtitle: str
    player_word: str
    total_word: str
    stages: tuple[str, ...]
    rows: tuple[_Row, ...]
    medals: bool  # a finished tournament: the first three places on a medal
    empty: str  # what a table without rows says
    footer: str
    fonts: tuple[str, str]  # the regular and the bold font file


def _picture(results: Results, *, language: str, width: int, progress: Progress | None, updated: datetime | None,
             live: Liveness | None | Ask) -> _Picture:
    t = results.tournament
    if progress is None:
        progress = progress_of(results)
    live = given_or_current(live, results)
    keys = [k for k in results.preset.stage_keys if results.participants.get(k)]
    places = {k: results.preset.points_places(k) for k in keys}
    total_places = results.preset.points_places()
    rows = []
    for st in _picture_rows(results, progress):
        s = st.stats
        mark = race_view.mark(live, s.player)  # ✓ / ✗ while a cut is played
        rows.append(_Row(place=st.place, places=st.places, played=bool(s.games),
                         name=plain_text(s.player) + (f" {mark}" if mark else ""), club=plain_text(s.club) if s.club else "",
                         stage_points=tuple(points(s.stage_points.get(k, ZERO), places[k])
                                            if s.player in results.participants.get(k, ()) else None for k in keys),
                         total=points(s.total, total_places)))
    chief = plain_text(t.chief_judge)
    head = headline(progress, results.preset, language)
    return _Picture(
        width=width, title=plain_text(t.name),
        subtitle=" · ".join(x for x in (plain_text(t.date), head) if x),
        player_word=ui("player", language), total_word=ui("total", language),
        stages=tuple(results.preset.stage(k).name(language) for k in keys), rows=tuple(rows), medals=progress.finished,
        empty=head,
        footer=" · ".join([*([f"{ui('chief_judge', language)}: {chief}"] if chief else []),
                           *status_lines(progress, updated, language)]),
        fonts=(str(find_font(False)), str(find_font(True))))


_MEDALS = {1: "#d4a017", 2: "#a8adb4", 3: "#b87333"}


def _draw_row(d: Any, row: _Row, top: int, height: int, laid: tuple[Fitted, Fitted | None], c: _Columns, f: _Fonts,
              medals: bool) -> None:
    """One player's row of the picture, ``height`` tall from ``top``: the name and the club as fitted."""
    pad, width, cy = c.pad, c.width, top + height // 2
    if medals and row.place in _MEDALS:
        r = 22
        d.ellipse((pad + 24 - r, cy - r, pad + 24 + r, cy + r), fill=_MEDALS[row.place])
        d.text((pad + 24, cy), str(row.place), font=f.place, fill="#ffffff", anchor="mm")
    elif row.played:
        d.text((pad + 24, cy), row.places, font=f.num if len(row.places) < 4 else f.small, fill="#1b1f24", anchor="mm")
    name, club = laid
    y = top + (height - block_height(name, club)) // 2
    y += text_block(d, name, c.name_x, y, "#1b1f24")
    if club is not None:
        text_block(d, club, c.name_x, y, "#5b6470")
    for j, value in enumerate(row.stage_points):
        if value is not None:
            d.text((c.stages_x + c.stage_w * (j + 1) - 4, cy), value, font=f.num, fill="#3a424c", anchor="rm")
    d.text((width - pad, cy), row.total, font=f.total, fill="#8a1c1c", anchor="rm")


def _laid_rows(rows: Sequence[_Row], name_w: int) -> list[tuple[Fitted, Fitted | None]]:
    """Each row's name and club fitted to the name column: smaller type down to a floor, then lines."""
    return [(fit_text(r.name, name_w, size=NAME_SIZES[0], floor=NAME_SIZES[1], bold=True),
             fit_text(r.club, name_w, size=CLUB_SIZES[0], floor=CLUB_SIZES[1]) if r.club else None) for r in rows]


def post_image(results: Results, *, language: str, width: int = 1080, progress: Progress | None = None,
               updated: datetime | None = None, live: Liveness | None | Ask = ASK) -> bytes:
    """A PNG of the top of the overall standings titled by the progress, readable on a phone;
    medals only for a finished tournament."""
    return _draw(_picture(results, language=language, width=width, progress=progress, updated=updated, live=live))


def _draw(m: _Picture) -> bytes:
    from PIL import Image, ImageDraw

    width, pad = m.width, 48
    fonts = _Fonts()
    header = header_layout(m.title, m.subtitle, width=width, pad=pad)
    # columns: place | player (club) | stage points… | total
    total_w = 170
    stage_w = 145 if len(m.stages) <= 3 else 110
    stages_x = width - pad - total_w - stage_w * len(m.stages)
    columns = _Columns(pad, width, pad + 80, stages_x - pad - 80 - 16, stages_x, stage_w)
    heads = [fit_text(name, stage_w - 8, size=HEAD_SIZES[0], floor=HEAD_SIZES[1], bold=True) for name in m.stages]
    word = fit_text(m.player_word, columns.name_w, size=HEAD_SIZES[0], floor=HEAD_SIZES[1], bold=True)
    table_top = header.height + 12 + max(block_height(h) for h in [word, *heads]) + 8
    laid = _laid_rows(m.rows, columns.name_w)
    heights = [max(ROW_HEIGHT, block_height(*x) + 10) for x in laid]
    footer = fit_text(m.footer, width - 2 * pad, size=20, floor=18)
    height = table_top + (sum(heights) or ROW_HEIGHT) + 44 + block_height(footer) + 16
    img = Image.new("RGB", (width, height), "#ffffff")
    d = ImageDraw.Draw(img)
    picture_header(d, header, width=width, pad=pad)
    hy = header.height + 12
    text_block(d, word, columns.name_x, hy, "#5b6470")
    d.text((pad, hy + line_height(word.size) // 2), "#", font=word.font, fill="#5b6470", anchor="lm")
    for i, head in enumerate(heads):
        text_block(d, head, stages_x + stage_w * (i + 1) - 4, hy, "#5b6470", anchor="r")
    text_block(d, fit_text(m.total_word, total_w, size=HEAD_SIZES[0], floor=HEAD_SIZES[1], bold=True), width - pad, hy,
               "#5b6470", anchor="r")
    d.line((pad, table_top - 4, width - pad, table_top - 4), fill="#b9c1cb", width=2)
    if not m.rows:
        d.text((pad, table_top + ROW_HEIGHT // 2), m.empty, font=font(32, True), fill="#1b1f24", anchor="lm")
    top = table_top
    for i, (row, h) in enumerate(zip(m.rows, heights)):
        if i % 2:
            d.rectangle((0, top, width, top + h), fill="#f3f5f8")
        _draw_row(d, row, top, h, laid[i], columns, fonts, m.medals)
        top += h
    foot = height - block_height(footer) - 16
    d.line((pad, foot - 20, width - pad, foot - 20), fill="#d5dae0", width=1)
    text_block(d, footer, pad, foot, "#5b6470")
    return png_bytes(img)


def png_bytes(img: Any) -> bytes:
    """The picture ``img`` as PNG bytes, at zlib's fastest level: VK re-encodes every picture it is
    given, so a smaller PNG is of no use to anybody, and a 1080 px picture encodes in 19 ms instead
    of 27 (level 6: 112 KB, level 1: 128 KB)."""
    buf = io.BytesIO()
    # named, not format="PNG": Pillow then loads its PNG plugin alone, where a format makes it load
    # BMP, GIF, JPEG and PPM too (4 ms of every process that draws a picture)
    buf.name = "picture.png"
    img.save(buf, compress_level=1)
    return buf.getvalue()


def write_vk(results: Results, out_dir: Path, *, language: str, link: str | None = None,
             progress: Progress | None = None, updated: datetime | None = None,
             live: Liveness | None | Ask = ASK) -> list[Path]:
    """Write vk-post.txt and vk-post.png into ``out_dir``; return the files that changed (``live``:
    who can still qualify in ``results``, worked out here when not given)."""
    written = []
    text_path = out_dir / "vk-post.txt"
    if write_text_atomic(text_path, post_text(results, language=language, link=link, progress=progress, updated=updated, live=live)):
        written.append(text_path)
    png_path = out_dir / "vk-post.png"
    picture = _picture(results, language=language, width=1080, progress=progress, updated=updated, live=live)
    key = page_key("vk-post.png", picture)
    # drawn from the same texts by the same code last time (the update time shown to the minute): kept
    if not reuse_output(png_path, key) and write_bytes_atomic(png_path, _draw(picture), inputs=key):
        written.append(png_path)
    return written
