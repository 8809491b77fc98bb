"""Creating a tournament workbook: players from CSV, a first seating, one protocol tab per game."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from scoring.errors import SheetsSyncError
from scoring import labels as L
from scoring.names import fold, typed_name
from scoring.model import Player, PlayerStatus, Protocol, SeatingEntry
from scoring.parse import _header_map  # the same header matching as the workbook reader
from scoring.parse.players import split_classifications
from scoring.preset import Preset
from sheets_sync.backends.base import Patch, TabWrite
from sheets_sync.workbook.layout import penalties_tab, players_tab, protocol_tab, protocol_title, seating_tab, tournament_tab
from sheets_sync.messages import fail
from sheets_sync.messages import text as words

__all__ = ["read_players_csv", "simple_seating", "workbook_patch", "CsvError", "title_from_file_name"]


class CsvError(SheetsSyncError, ValueError):
    pass


def title_from_file_name(stem: str) -> str:
    """A tournament's title as a person would write the file's name (issue 43 §8: a season made as
    the README shows was titled «club» and tagged «#Club»): dashes and underscores become spaces and
    the first letter a capital — ``клуб-мафии-2026`` → «Клуб мафии 2026», ``club`` → «Club»; the rest
    stays as typed (``GMO-2016`` → «GMO 2016»)."""
    words = " ".join(stem.replace("_", " ").replace("-", " ").split())
    return words[:1].upper() + words[1:]


def read_players_csv(path: Path, *, language: str | None = None) -> list[Player]:
    """Players from a CSV with the Players tab's columns (ru or en headers), UTF-8 with or
    without BOM, comma or semicolon separated (as Excel writes it).  A mistake in the file is
    a :class:`CsvError` saying where and how to fix it (every repeated nickname at once)."""
    def refuse(key: str, **values: object) -> CsvError:
        return fail(CsvError, key, language=language, file=path.name, **values)

    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = raw.decode("cp1251")  # Excel on a Russian Windows saves "CSV" in cp1251
        except UnicodeDecodeError as exc:
            raise refuse("csv.not_text") from exc
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first.count(";") > first.count(",") else ("\t" if "\t" in first else ",")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows:
        raise refuse("csv.empty")
    cols = _header_map(rows[0], L.PLAYER_COLUMNS)
    if "player" not in cols:
        raise refuse("csv.no_player_column", columns=", ".join(rows[0]))
    status_words = {L.norm(w): k for k, ws in L.STATUS_WORDS.items() for w in ws}
    players: list[Player] = []
    lines: dict[str, list[tuple[str, int]]] = {}  # folded name -> (spelling, line) of every row
    for n, row in enumerate(rows[1:], start=2):
        def get(key: str) -> str:
            i = cols.get(key)
            return " ".join(row[i].split()) if i is not None and i < len(row) else ""
        name = typed_name(get("player"))
        if not name:
            continue
        lines.setdefault(fold(name), []).append((name, n))
        if len(lines[fold(name)]) > 1:
            continue
        status = status_words.get(L.norm(get("status")))
        if status is None:
            raise refuse("csv.bad_status", line=n, status=get("status"))
        excused = frozenset(int(x) for x in get("excused").replace(";", ",").replace(" ", ",").split(",") if x.strip().isdigit())
        players.append(Player(nickname=name, club=get("club"), city=get("city"), status=PlayerStatus(status),
                              excused_rounds=excused, team=get("team"),
                              classifications=split_classifications(get("classifications"))))
    repeated = [at for at in lines.values() if len(at) > 1]
    if repeated:
        def listing(lang: str) -> str:  # «Пума» / «пума» (строки 2, 3): every spelling of one name
            quote = "«{}»" if lang == "ru" else "'{}'"
            return ", ".join(words("csv.duplicate", lang, names=" / ".join(quote.format(name) for name in dict.fromkeys(
                name for name, _ in at)), lines=", ".join(str(n) for _, n in at)) for at in repeated)
        raise CsvError(words("csv.duplicates", "en", file=path.name, names=listing("en")),
                       ru=words("csv.duplicates", "ru", file=path.name, names=listing("ru")), language=language)
    if not players:
        raise refuse("csv.no_players")
    return players


def simple_seating(players: Sequence[str], stage: str, rounds: int) -> list[SeatingEntry]:
    """A plain rotating seating (used until a proper draw is made): every round shifts
    player i by i·round places, so neighbours change.  Needs a multiple of ten players."""
    n = len(players) - len(players) % 10
    entries = []
    for r in range(rounds):
        order = sorted(range(n), key=lambda i: ((i * (r * 3 + 1)) % n, i))
        for t in range(n // 10):
            seated = tuple(players[order[t * 10 + s]] for s in range(10))
            seated = seated[r % 10:] + seated[: r % 10]
            entries.append(SeatingEntry(stage=stage, round=r + 1, table=t + 1, players=seated))
    return entries


def workbook_patch(*, name: str, preset: Preset, language: str, players: Sequence[Player], seating: Sequence[SeatingEntry],
                   protocols: Sequence[Protocol] = (), date: str = "", chief_judge: str = "",
                   include_base: bool = True, preset_ref: str | None = None,
                   settings: Sequence[tuple[str, object]] = (), organizers: Sequence[str] = (),
                   season: bool = False, registration: Mapping[str, object] | None = None) -> Patch:
    """Tabs people type into, created or pre-filled: Tournament, Players, Seating, Penalties, protocols.

    ``preset_ref`` is what the Tournament tab names as the preset (default: its id; a file's
    path from the workbook's folder); ``settings`` are preset overrides written below it
    (``отбор.туров = 6``).  ``season``: a club season's workbook (the Tournament tab says «Формат:
    сезон»; no Seating tab: whoever comes plays).  ``registration`` (issue 45): the Tournament tab's
    registration rows (their values by key: places…) and the Players tab's «Заявка», «Подана», «Прибыл»."""
    writes: list[TabWrite] = []
    if include_base:
        tournament = tournament_tab(name=name, preset_id=preset_ref or preset.id, language=language,
                                    chief_judge=chief_judge, date=date, organizers=organizers, season=season,
                                    registration=registration)
        if settings:
            tournament = replace(tournament, rows=tournament.rows + tuple((k, v) for k, v in settings))
        writes += [tournament, players_tab(players, language, registration=registration is not None)]
        if not season:
            writes.append(seating_tab(seating, preset, language))
        writes.append(penalties_tab(language))
    by_key = {p.key: p for p in protocols}
    for e in seating:
        writes.append(protocol_tab(title=protocol_title(preset, e.stage, e.round, e.table, language),
                                   stage_name=preset.stage(e.stage).name(language), round_no=e.round, table=e.table,
                                   players=e.players, language=language, preset=preset,
                                   protocol=by_key.get((e.stage, e.round, e.table))))
    return Patch(writes=tuple(writes))
