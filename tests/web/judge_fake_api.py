"""A small stand-in for the judge's API (issue 44, docs: /work/briefs/judge-contract.md's shapes),
so that the judge's page can be tested in a browser while the real server is built elsewhere.

It serves what the real server serves for the page — the page shell (``templates/web/judge/page.html``
rendered by Django's template engine with the contract's context), the service worker at ``/j/sw.js``,
the manifest, the page's files under ``/assets/judge/`` — and the API: the link's games, one game
(with an ETag), a form's save (conflicts against ``base``, ``choose``), live events (each id once).
Its "sheet" is a dict per game; :meth:`FakeApi.sheet_edit` is a person typing in the tab.
The problems it finds are a few simple ones (two dons, more than four fouls) with its own words,
so a test can tell the server's words from the page's own checks.

``start_fake_api()`` starts it in a thread on 127.0.0.1 (a secure context: the service worker
works); ``FakeApi.stop()`` ends it.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scoring import labels as L
from sheets_sync.web.headers import APP

__all__ = ["FakeApi", "FakeGame", "start_fake_api", "WORDS", "PLAYERS", "MAX_BODY"]

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "templates" / "web" / "judge" / "page.html"
ASSETS = ROOT / "templates" / "web" / "assets" / "judge"
MAX_BODY = 256 * 1024
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".webmanifest": "application/manifest+json", ".html": "text/html; charset=utf-8"}
# the words of the tab, as scoring.game.protocol.protocol_cells writes them
WORDS = {language: {"roles": [L.word(k, language) for k in ("civilian", "sheriff", "mafia", "don")],
                    "winners": [L.word(k, language) for k in ("red", "black")],
                    "removals": [L.word(k, language) for k in ("yes", "team_defeat")]} for language in ("ru", "en")}
PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зиновий", "Ирина", "Кирилл",
           "Лев", "Мария", "Никодим", "Константинопольский Вольдемар", "Ольга"]
SEAT_COLUMNS = ("player", "role", "fouls", "killed_night", "voted_day", "removal", "best_move", "extra_points")
FORM_KEYS = (":judge", ":winner") + tuple(f"{s}:{c}" for s in range(1, 11) for c in SEAT_COLUMNS)


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass
class FakeGame:
    gid: str
    title: str
    stage: str
    round: int
    table: int
    tab: str
    seats: list[str | None]
    cells: dict[str, str] = field(default_factory=dict)  # the tab's values (the "sheet")
    read_at: str = field(default_factory=_now)
    saved_at: str | None = None
    pending: int = 0
    conflicts: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, object]] = field(default_factory=list)
    mode: str | None = None


class FakeApi:
    def __init__(self, *, token: str, language: str, games: list[FakeGame], players: list[str],
                 asset_overrides: dict[str, str | None]) -> None:
        self.token, self.language, self.players = token, language, players
        self.games = {g.gid: g for g in games}
        self.order = [g.gid for g in games]
        self.asset_overrides = asset_overrides
        self.saves: list[tuple[str, dict]] = []  # every form body received, in order
        self.event_posts: list[tuple[str, dict]] = []
        self.gate = threading.Event()  # cleared: the POSTs wait (a slow network), set: they go
        self.gate.set()
        self.sent: list[tuple[str, int]] = []  # (path, bytes of the body) of every answer, in order
        self.failing: int | None = None  # a status every POST answers while set (503: the server in trouble)
        self.revoked = False  # the organizer revoked the link: everything under it is 404
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None
        self.url = ""

    # ---- what a person does in the sheet ----
    def sheet_edit(self, gid: str, key: str, text: str) -> None:
        with self.lock:
            self.games[gid].cells[key] = text
            self.games[gid].read_at = _now()

    # ---- the JSON of the contract ----
    def words(self) -> dict[str, list[str]]:
        return WORDS["en" if self.language == "en" else "ru"]

    def problems(self, cells: dict[str, str]) -> list[dict[str, object]]:
        words, en = self.words(), self.language == "en"
        out: list[dict[str, object]] = []
        dons = [s for s in range(1, 11) if cells.get(f"{s}:role", "").strip().lower() == words["roles"][3]]
        if len(dons) > 1:
            said = ", ".join(map(str, dons))
            for s in dons:
                out.append({"seat": s, "column": "role", "rule": "roles.count", "severity": "error",
                            "message": f"two dons at seats {said}" if en else f"сервер: два дона (места {said})",
                            "related": [[o, "role"] for o in dons if o != s]})
        for s in range(1, 11):
            fouls = cells.get(f"{s}:fouls", "").strip()
            if fouls.isdigit() and int(fouls) > 4:
                out.append({"seat": s, "column": "fouls", "rule": "fouls.too_many", "severity": "error",
                            "message": "more than four fouls" if en else "сервер: больше четырёх фолов", "related": []})
        return out

    def status(self, game: FakeGame) -> str:
        if game.pending:
            return "waiting"
        typed = any(game.cells.get(k, "") for k in FORM_KEYS if not k.endswith(":player"))
        if not typed:
            return "not_started"
        if self.problems(game.cells):
            return "problems"
        return "submitted" if game.cells.get(":winner") else "in_play"

    def game_json(self, game: FakeGame) -> dict[str, object]:
        return {"gid": game.gid, "title": game.title, "stage": game.stage, "round": game.round, "table": game.table,
                "tab": game.tab, "seats": game.seats, "status": self.status(game), "cells": dict(game.cells),
                "read_at": game.read_at, "saved_at": game.saved_at, "pending": game.pending,
                "conflicts": list(game.conflicts), "problems": self.problems(game.cells), "events": list(game.events),
                "mode": game.mode}

    def list_json(self) -> dict[str, object]:
        title = "Qualifying · table 3" if self.language == "en" else "Отбор · стол 3"
        return {"link": {"kind": "table", "title": title, "language": self.language, "tournament": "Кубок Рейна",
                         "confirmation": True},
                "choices": {**self.words(), "players": list(self.players)},
                "rules": {"best_move_by": ["shot_first"], "extra_min": None, "extra_max": None, "extra_step": None},
                "games": [self.game_json(self.games[g]) for g in self.order]}

    def save(self, gid: str, body: dict) -> dict[str, object]:
        game = self.games[gid]
        cells, base, choose = body.get("cells", {}), body.get("base", {}), body.get("choose", {})
        conflicts = []
        for key, mine in cells.items():
            sheet = game.cells.get(key, "")
            if choose.get(key) == "sheet":
                continue
            if choose.get(key) == "mine" or sheet in (base.get(key, ""), mine):
                game.cells[key] = mine
            else:
                conflicts.append({"key": key, "base": base.get(key, ""), "sheet": sheet, "mine": mine})
        game.conflicts = conflicts
        game.saved_at = game.read_at = _now()
        return {"problems": self.problems(cells), "game": self.game_json(game)}

    def add_events(self, gid: str, body: dict) -> dict[str, object]:
        game = self.games[gid]
        receipts = []
        for event in body.get("events", []):
            if any(e["id"] == event.get("id") for e in game.events):
                receipts.append({"status": "duplicate", "why": None})
            else:
                game.events.append(event)
                receipts.append({"status": "recorded", "why": None})
        game.mode = "live"
        game.saved_at = game.read_at = _now()
        return {"receipts": receipts, "game": self.game_json(game)}

    def stop(self) -> None:
        self.gate.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def _error(code: str, ru: str, en: str) -> dict[str, object]:
    return {"error": {"ru": ru, "en": en}, "code": code}


def _handler(api: FakeApi) -> type[BaseHTTPRequestHandler]:
    from django.template import Context, Engine

    engine = Engine()
    page = engine.from_string(PAGE.read_text(encoding="utf-8"))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def send(self, status: int, body: bytes, kind: str, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", APP)
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                api.sent.append((self.path, len(body)))
                self.wfile.write(body)

        def json(self, status: int, data: object, headers: dict[str, str] | None = None) -> None:
            body = json.dumps(data, ensure_ascii=False).encode()
            self.send(status, body, "application/json", {"Cache-Control": "no-store", **(headers or {})})

        def not_found(self) -> None:
            self.json(404, _error("not_found", "Ссылка не найдена", "No such link"))

        def file(self, path: Path, name: str, headers: dict[str, str] | None = None) -> None:
            kind = TYPES.get(Path(name).suffix, "application/octet-stream")
            if name in api.asset_overrides and api.asset_overrides[name] is None:  # a file the server lacks
                return self.not_found()
            if name in api.asset_overrides:
                return self.send(200, api.asset_overrides[name].encode(), kind, headers)
            if not path.is_file():
                return self.not_found()
            self.send(200, path.read_bytes(), kind, headers)

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            t = re.escape(api.token) if not api.revoked else "(?!)"
            if path == "/j/sw.js":
                return self.file(ASSETS / "sw.js", "sw.js", {"Service-Worker-Allowed": "/j/", "Cache-Control": "no-cache"})
            if path == "/j/manifest.webmanifest":
                return self.file(ASSETS / "manifest.webmanifest", "manifest.webmanifest")
            if m := re.fullmatch(r"/assets/judge/((?:vendor/)?[\w.-]+)", path):
                return self.file(ASSETS / m.group(1), m.group(1))
            if re.fullmatch(rf"/j/{t}/", path):
                html = page.render(Context({"token": api.token, "language": api.language,
                                            "title": api.list_json()["link"]["title"], "api": f"/j/{api.token}/api/"}))
                return self.send(200, html.encode(), TYPES[".html"], {"Cache-Control": "no-store"})
            with api.lock:
                if re.fullmatch(rf"/j/{t}/api/", path):
                    return self.json(200, api.list_json())
                if (m := re.fullmatch(rf"/j/{t}/api/games/([\w-]+)/", path)) and m.group(1) in api.games:
                    data = api.game_json(api.games[m.group(1)])
                    etag = '"' + hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20] + '"'
                    if self.headers.get("If-None-Match") == etag:
                        self.send_response(304)
                        self.send_header("ETag", etag)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return None
                    return self.json(200, data, {"ETag": etag})
            return self.not_found()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                return self.json(413, _error("too_large", "Слишком много данных", "Too much data"))
            raw = self.rfile.read(length)
            api.gate.wait(timeout=60)
            m = re.fullmatch(rf"/j/{re.escape(api.token)}/api/games/([\w-]+)/(form|events|confirm)/", self.path)
            if not m or m.group(1) not in api.games:
                return self.not_found()
            try:
                body = json.loads(raw)
            except ValueError:
                return self.json(400, _error("bad_json", "Непонятный запрос", "An unreadable request"))
            if api.revoked:
                return self.not_found()
            if api.failing:
                return self.json(api.failing, _error("busy", "Сервер занят, повторите", "The server is busy, try again"))
            gid, what = m.groups()
            with api.lock:
                if what == "form":
                    api.saves.append((gid, body))
                    return self.json(200, api.save(gid, body))
                if what == "events":
                    api.event_posts.append((gid, body))
                    return self.json(200, api.add_events(gid, body))
                return self.json(403, _error("not_chief", "Только для главного судьи", "For the chief judge only"))

    return Handler


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:  # a browser that hangs up mid-answer is no error
        pass


def default_games(language: str = "ru") -> list[FakeGame]:
    en = language == "en"
    out = []
    for round_no in (1, 2):
        seats: list[str | None] = PLAYERS[:10] if round_no == 1 else PLAYERS[5:15]
        title = f"Qualifying · round {round_no} · table 3" if en else f"Отбор · тур {round_no} · стол 3"
        tab = f"Round {round_no} Table 3" if en else f"Тур {round_no} Стол 3"
        out.append(FakeGame(gid=f"qualifying-{round_no}-3", title=title, stage="qualifying", round=round_no, table=3,
                            tab=tab, seats=list(seats), cells={f"{s}:player": seats[s - 1] or "" for s in range(1, 11)}))
    return out


def start_fake_api(*, language: str = "ru", games: list[FakeGame] | None = None, players: list[str] | None = None,
                   asset_overrides: dict[str, str | None] | None = None, token: str = "t0k3n-table-3",
                   host: str = "127.0.0.1") -> FakeApi:
    """The fake API serving the judge's page at ``api.url + f"/j/{token}/"``, started in a thread
    (on ``host``: another address than the loopback is a plain-http LAN address to a browser)."""
    api = FakeApi(token=token, language=language, games=games if games is not None else default_games(language),
                  players=players if players is not None else list(PLAYERS), asset_overrides=asset_overrides or {})
    server = _Quiet((host, 0), _handler(api))
    server.daemon_threads = True
    api.server = server
    api.url = f"http://{host}:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, name="judge-fake-api", daemon=True).start()
    return api
