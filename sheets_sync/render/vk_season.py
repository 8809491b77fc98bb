"""A club season's VK posts: «Итоги вечера 05.12.2026» with its picture, and the season so far.

The same conventions as the tournament's post (:mod:`sheets_sync.render.vk`): plain text
aligned with figure spaces, the nickname last, VK's markup defused, the picture drawn with
Pillow in a Cyrillic font, both deterministic.  ``vk-post.txt`` / ``vk-post.png`` are the last
evening's (the post a club writes after the evening, with the season's top below it);
``vk-season.txt`` / ``vk-season.png`` are the season's table so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scoring.season import Evening, Season, season
from sheets_sync.files import write_bytes_atomic, write_text_atomic
from sheets_sync.render.json_out import points
from sheets_sync.render.progress_text import season_headline, updated_line
from sheets_sync.render.season_text import (
    evening_status,
    evening_title,
    main_value,
    place_text,
    provisional_note,
    season_covers,
)
from sheets_sync.render.measure import fit_text, font
from sheets_sync.render.vk import (FIGURE_SPACE, NAME_SIZES, ROW_HEIGHT, _decimal, _hashtags, _num, _side_lines,
                                   block_height, header_layout, picture_header, png_bytes, text_block, vk_safe)
from sheets_sync.render.words import plain_text, ru_en, ui

__all__ = ["evening_post_text", "season_post_text", "table_picture", "write_season_vk", "Row"]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a post's table: place as shown («(10)» provisional), player, games, points shown."""

    places: str
    player: str
    games: int
    value: str


def _evening_rows(e: Evening) -> list[Row]:
    return [Row(st.places, st.stats.player, st.stats.games, points(st.stats.total)) for st in e.standings]


def _season_rows(s: Season) -> list[Row]:
    """The season table in its one order (the ranked, then the provisional), everyone who played."""
    return [Row(place_text(e), e.player, e.stats.games, main_value(s, e)) for e in s.table if e.stats.games]


def _label(places: str) -> str:
    return places if places.startswith("(") or not places else places + "."


def _lines(rows: Sequence[Row]) -> list[str]:
    place_w = max((len(_label(r.places)) for r in rows), default=1)
    parts = [r.value.partition(".") for r in rows]
    int_w = max((len(w) for w, _, _ in parts), default=1)
    frac_w = max((len(f) for _, _, f in parts), default=2)
    def aligned(value: str) -> str:  # whole numbers (a rating: 1008) have no decimal point to align on
        return _decimal(value, int_w, frac_w) if frac_w else _num(value, int_w)

    return [f"{_num(_label(r.places), place_w)} {aligned(r.value)} — {vk_safe(r.player)}"
            if r.places else f"{FIGURE_SPACE * place_w} {aligned(r.value)} — {vk_safe(r.player)}"
            for r in rows]


def _value_word(s: Season, language: str) -> str:
    return ui(f"ranked_by_{s.ranking}", language)


def _foot(results, language: str, link: str | None, updated: datetime | None) -> list[str]:
    """When updated, the link (``export vk --link``, else the Tournament tab's «Ссылка»), the hashtags.
    No link: no line (a placeholder would be published as it is by sync and watch)."""
    t = results.tournament
    link = (link or t.link or "").strip()
    stamp = updated_line(updated, language)
    link_line = [ru_en("🔗 Рейтинг, вечера и история игроков: ", "🔗 Rating, evenings and players' history: ", language)
                 + plain_text(link)] if link else []
    lines = [*([f"🕒 {stamp}"] if stamp else []), *link_line]
    return ["", *lines, *([""] if lines else []), _hashtags(t.name, language)]


def evening_post_text(results, evening: Evening, *, language: str, link: str | None = None, top: int = 10,
                      updated: datetime | None = None) -> str:
    """«Итоги вечера …» (while a game of it waits: «Вечер …: промежуточные итоги») with the evening's
    own status, its table, then the season's top ``top`` and the evenings it covers."""
    s = season(results)
    name = results.tournament.name
    body = [f"🌙 {vk_safe(name)}", "", f"{evening_title(evening, language)} ({evening_status(evening, language, named=False)}):",
            *_lines(_evening_rows(evening))]
    if not evening.standings:
        body.append(ru_en("Засчитанных игр пока нет", "No game counted yet", language))
    rows = _season_rows(s)
    if rows:
        body += ["", f"🏆 {season_headline(len(s.evenings), s.games, language)} · {_value_word(s, language).lower()}"
                 + ru_en(f" (первые {min(top, len(rows))}):", f" (top {min(top, len(rows))}):", language),
                 season_covers(s, language), *_lines(rows[:top])]
        note = provisional_note(s, language) if any(r.places.startswith("(") for r in rows[:top]) else ""
        body += [note] if note else []
    return "\n".join(body + _foot(results, language, link, updated)) + "\n"


def season_post_text(results, *, language: str, link: str | None = None, updated: datetime | None = None) -> str:
    """The season so far in its one order (provisional places in parentheses), the evenings it covers."""
    s = season(results)
    name = results.tournament.name
    body = [f"🏆 {vk_safe(name)}", "", f"{season_headline(len(s.evenings), s.games, language)}",
            season_covers(s, language), "", _value_word(s, language) + ":", *_lines(_season_rows(s))]
    note = provisional_note(s, language)
    body += ["", note] if note else []
    body += _side_lines(results, language) if s.games else []  # the team table and classifications, as a tournament's post
    return "\n".join(body + _foot(results, language, link, updated)) + "\n"


def table_picture(title: str, subtitle: str, rows: Sequence[Row], *, value_header: str, language: str,
                  foot: str | Sequence[str] = "", width: int = 1080) -> bytes:
    """A PNG of a post's table (at most 20 rows), readable on a phone: place, player, games, points;
    ``foot``: a line (or lines) under it. Nothing is cut (issue 43 §8): a long name or foot takes smaller
    type down to a floor, then another line, and the picture grows."""
    from PIL import Image, ImageDraw

    rows = list(rows)[:20]
    pad = 48
    f_head, f_num, f_value, f_small = font(22, True), font(30), font(34, True), font(20)
    header = header_layout(plain_text(title), plain_text(subtitle), width=width, pad=pad)
    table_top = header.height + 44
    games_x, value_x, name_x = width - pad - 190, width - pad, pad + 96
    names = [fit_text(plain_text(r.player), games_x - name_x - 80, size=NAME_SIZES[0], floor=NAME_SIZES[1], bold=True)
             for r in rows]
    heights = [max(ROW_HEIGHT, block_height(n) + 10) for n in names]
    feet = [fit_text(plain_text(x), width - 2 * pad, size=20, floor=18)
            for x in ([foot] if isinstance(foot, str) else foot) if x]
    foot_h = block_height(*feet)
    height = table_top + (sum(heights) or ROW_HEIGHT) + 48 + max(foot_h, 32)
    img = Image.new("RGB", (width, height), "#ffffff")
    d = ImageDraw.Draw(img)
    picture_header(d, header, width=width, pad=pad)
    hy = header.height + 12
    for x, text, anchor in ((pad, "#", "la"), (name_x, ui("player", language), "la"),
                            (games_x, ui("games_n", language), "ra"), (value_x, value_header, "ra")):
        d.text((x, hy), text, font=f_head, fill="#5b6470", anchor=anchor)
    d.line((pad, table_top - 4, width - pad, table_top - 4), fill="#b9c1cb", width=2)
    top = table_top
    for i, (r, name, h) in enumerate(zip(rows, names, heights)):
        if i % 2:
            d.rectangle((0, top, width, top + h), fill="#f3f5f8")
        cy = top + h // 2
        d.text((pad + 30, cy), r.places, font=f_num if len(r.places) < 4 else f_small, fill="#1b1f24", anchor="mm")
        text_block(d, name, name_x, top + (h - block_height(name)) // 2, "#1b1f24")
        d.text((games_x, cy), str(r.games), font=f_num, fill="#3a424c", anchor="rm")
        d.text((value_x, cy), r.value, font=f_value, fill="#8a1c1c", anchor="rm")
        top += h
    if not rows:  # before the first counted game: say so, not an empty table
        d.text((name_x, table_top + ROW_HEIGHT // 2), ru_en("Засчитанных игр пока нет", "No game counted yet", language),
               font=f_num, fill="#5b6470", anchor="lm")
    if feet:
        y = height - foot_h - 32
        d.line((pad, y, width - pad, y), fill="#d5dae0", width=1)
        y += 12
        for line in feet:
            y += text_block(d, line, pad, y, "#5b6470")
    return png_bytes(img)


def _pictures(results, language: str, updated: datetime | None) -> dict[str, bytes]:
    s = season(results)
    name = results.tournament.name
    foot = updated_line(updated, language)
    value = ui("average" if s.ranking == "average" else "season_total", language)
    covers = (season_covers(s, language) if s.games else "", provisional_note(s, language), foot)
    pictures = {"vk-season.png": table_picture(name, season_headline(len(s.evenings), s.games, language),
                                               _season_rows(s), value_header=value, language=language, foot=covers)}
    if s.evenings:
        last = s.evenings[-1]
        status = evening_status(last, language, named=False)
        # what waits is the subtitle in full (the club's name goes to the foot then, it would cut it short)
        pictures["vk-post.png"] = table_picture(
            evening_title(last, language), status if last.waiting else f"{name} · {status}",
            _evening_rows(last), value_header=ui("points", language), language=language,
            foot=(name if last.waiting else "", foot))
    return pictures


def write_season_vk(results, out_dir: Path, *, language: str, link: str | None = None,
                    updated: datetime | None = None, pictures: bool = True) -> list[Path]:
    """``vk-post.txt`` / ``.png`` (the last evening's post; the season's before the first evening)
    and ``vk-season.txt`` / ``.png``; ``pictures=False``: the texts only (no font to draw with)."""
    s = season(results)
    texts = {"vk-season.txt": season_post_text(results, language=language, link=link, updated=updated)}
    texts["vk-post.txt"] = (evening_post_text(results, s.evenings[-1], language=language, link=link, updated=updated)
                            if s.evenings else texts["vk-season.txt"])
    written = [out_dir / n for n, text in sorted(texts.items()) if write_text_atomic(out_dir / n, text)]
    if pictures:
        written += [out_dir / n for n, png in sorted(_pictures(results, language, updated).items())
                    if write_bytes_atomic(out_dir / n, png)]
    return sorted(written)
