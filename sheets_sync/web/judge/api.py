"""The judge's page's API (the contract of issue 44, /work's judge-contract): the link's games, one
game, the form's save, the live mode's events and the chief judge's confirmation.

The token in the address is the only credential: no cookie, no session, so no CSRF token either
(the views are exempt; a forged cross-site request would have to know the token). Every answer is
JSON with ``Cache-Control: no-store``; an error is ``{"error": {"ru", "en"}, "code"}`` with a 4xx,
and a link that does not exist, was revoked or names another table is the same 404.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from scoring.game.events import EventError, from_dict
from scoring.game.log import GameLog
from scoring.game.protocol import protocol_cells, state_protocol
from scoring.game.state import GameRules
from scoring.model import SeatingEntry
from sheets_sync.web.judge.check import MAX_TEXT, form_check, key_known
from sheets_sync.web.judge.games import cell_key
from sheets_sync.web.judge.links import game_allowed, link_for, link_games
from sheets_sync.web.judge.state import base_dir_of, game_json, games_of
from sheets_sync.web.judge.writer import request_write
from sheets_sync.web.models import JudgeGame, JudgeLink, JudgeSave

__all__ = ["api_games", "api_game", "api_form", "api_events", "api_confirm", "MAX_JSON", "error"]

MAX_JSON = 256 * 1024
MAX_EVENTS = 500  # events in one request (a whole game is about 200)
_ERRORS = {
    "not_found": (404, "Ссылка не действует. Попросите у организатора новую.", "This link does not work. Ask the organizer for a new one."),
    "too_large": (413, "Слишком много данных за один раз.", "Too much data at once."),
    "bad_request": (400, "Запрос не прочитан: обновите страницу.", "The request could not be read: reload the page."),
    "too_long": (400, "Слишком длинный текст в поле (не больше {n} знаков).", "A field's text is too long (at most {n} characters)."),
    "no_sync": (409, "Таблица ещё не прочитана: подождите минуту.", "The sheet has not been read yet: wait a minute."),
    "no_tab": (409, "Для этой игры в таблице нет вкладки протокола: организатор должен её создать.",
               "This game has no protocol tab in the sheet: the organizer must make it."),
    "save_reused": (409, "Это сохранение уже было отправлено для другой игры.", "This save was already sent for another game."),
    "chief_only": (403, "Подтверждать может только главный судья.", "Only the chief judge confirms."),
    "no_confirmation": (409, "Подтверждение протоколов в этом турнире не включено.", "Protocol confirmation is not on in this tournament."),
    "no_name": (400, "Укажите, кто проверил.", "Say who checked."),
}


def error(code: str, **values: object) -> JsonResponse:
    status, ru, en = _ERRORS[code]
    response = JsonResponse({"error": {"ru": ru.format(**values), "en": en.format(**values)}, "code": code}, status=status)
    response["Cache-Control"] = "no-store"
    return response


_ESCAPED = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def _answer(data: dict, status: int = 200) -> HttpResponse:
    """JSON with ``<``, ``>`` and ``&`` escaped: a name typed as markup is never markup, even where
    a page would drop the answer into HTML by mistake, or a browser would sniff it."""
    text = json.dumps(data, ensure_ascii=False).translate(_ESCAPED)
    response = HttpResponse(text, status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


class _Refused(Exception):
    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code)
        self.code, self.values = code, values


def _api(view):
    """The API's frame: the link (404 alike for every reason), the body's size and JSON, the errors."""
    def wrapped(request: HttpRequest, token: str, *args, **kwargs):
        try:
            link = link_for(token)
            if request.method == "POST":
                size = int(request.META.get("CONTENT_LENGTH") or 0)
                if size > MAX_JSON or len(request.body) > MAX_JSON:
                    raise _Refused("too_large")
                try:
                    body = json.loads(request.body or b"{}")
                except ValueError:
                    raise _Refused("bad_request") from None
                if not isinstance(body, dict):
                    raise _Refused("bad_request")
                kwargs["body"] = body
            games = games_of(link.tournament)
            if games is None:
                raise _Refused("no_sync")
            return view(request, link, games, *args, **kwargs)
        except Http404:
            return error("not_found")
        except _Refused as refused:
            return error(refused.code, **refused.values)
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return csrf_exempt(wrapped)


def _choices(games: dict) -> dict:
    ru = games.get("language") != "en"
    return {"roles": ["мирный", "шериф", "мафия", "дон"] if ru else ["civilian", "sheriff", "mafia", "don"],
            "winners": ["Мирные", "Мафия"] if ru else ["Civilians", "Mafia"],
            "removals": ["да", "ППК"] if ru else ["yes", "TD"], "players": games.get("players", [])}


def link_title(link: JudgeLink, games: dict) -> str:
    ru = games.get("language") != "en"
    stage = games.get("stages", {}).get(link.stage, link.stage)
    if link.kind == JudgeLink.CHIEF:
        return "Главный судья" if ru else "Chief judge"
    if link.kind == JudgeLink.JUDGE:
        return f"{stage} · {link.judge}"
    return f"{stage} · {'стол' if ru else 'table'} {link.table}"


@require_http_methods(["GET", "HEAD"])
@_api
def api_games(request: HttpRequest, link: JudgeLink, games: dict) -> JsonResponse:
    """The link's games in playing order, with the words and rules the page needs offline."""
    tournament = link.tournament
    return _answer({"link": {"kind": link.kind, "title": link_title(link, games), "language": games.get("language", "ru"),
                             "tournament": games.get("tournament") or tournament.title,
                             "confirmation": bool(games.get("confirmation")), "judge": link.judge},
                    "choices": _choices(games), "rules": games.get("rules", {}),
                    "games": [game_json(tournament, games, g) for g in link_games(link, games["games"])]})


@require_http_methods(["GET", "HEAD"])
@_api
def api_game(request: HttpRequest, link: JudgeLink, games: dict, gid: str) -> HttpResponse:
    """One game, with an ETag: a page polling an unchanged game gets a 304 with no body."""
    answer = _answer(game_json(link.tournament, games, game_allowed(link, games["games"], gid)))
    etag = '"' + hashlib.sha256(answer.content).hexdigest()[:24] + '"'
    if etag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        answer = HttpResponse(status=304)
        answer["Cache-Control"] = "no-store"
    answer["ETag"] = etag
    return answer


def _texts(raw: object, *, choices: bool = False) -> dict[str, str]:
    """The body's ``{key: text}`` (known keys only; texts at most :data:`MAX_TEXT` characters)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _Refused("bad_request")
    out = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not key_known(key):
            continue
        if value is None:
            value = ""
        if not isinstance(value, str) or (choices and value not in ("mine", "sheet")):
            raise _Refused("bad_request")
        if len(value) > MAX_TEXT:
            raise _Refused("too_long", n=MAX_TEXT)
        out[key] = value.replace("\x00", "")
    return out


def _store(link: JudgeLink, game: dict, save_id: str, cells: dict, base: dict, *, choose: dict | None = None,
           submit: bool = False) -> JudgeSave:
    """The save, once per id (the same id again is the same save: stored and written once)."""
    tournament = link.tournament
    with transaction.atomic():
        save, made = JudgeSave.objects.get_or_create(
            tournament=tournament, save_id=save_id,
            defaults={"link": link, "gid": game["gid"], "cells": cells, "base": base, "choose": choose or {},
                      "submit": submit})
    if not made and save.gid != game["gid"]:
        raise _Refused("save_reused")
    if made or save.written_at is None:  # a resend of a save whose writer was never queued (the press failed
        request_write(tournament)            # after the save was stored) queues it now: no save waits forever
    return save


@require_http_methods(["POST"])
@_api
def api_form(request: HttpRequest, link: JudgeLink, games: dict, gid: str, body: dict) -> JsonResponse:
    """A save of the form: checked by the rules, stored, written by the tournament's writer."""
    game = game_allowed(link, games["games"], gid)
    save_id = body.get("id")
    if not isinstance(save_id, str) or not 1 <= len(save_id) <= 100:
        raise _Refused("bad_request")
    cells, base, choose = _texts(body.get("cells")), _texts(body.get("base")), _texts(body.get("choose"), choices=True)
    if not game.get("tab"):
        raise _Refused("no_tab")
    tournament, language = link.tournament, games.get("language", "ru")
    with transaction.atomic():
        kept, _ = JudgeGame.objects.get_or_create(tournament=tournament, gid=gid)
        if not kept.mode:
            JudgeGame.objects.filter(pk=kept.pk).update(mode="form")
    _store(link, game, save_id, cells, base, choose=choose, submit=bool(body.get("submit")))
    games, game = _again(link, games, game)
    answer = game_json(tournament, games, game)
    problems = answer["problems"] if answer["pending"] else form_check(games, game, answer["cells"], language,
                                                                       base_dir=base_dir_of(tournament))
    return _answer({"problems": problems, "game": {**answer, "problems": problems}})


def _again(link: JudgeLink, games: dict, game: dict) -> tuple[dict, dict]:
    """The games as they are now (a writer that ran at once, in the app or a test, synced them)."""
    fresh = games_of(link.tournament) or games
    return fresh, next((g for g in fresh["games"] if g["gid"] == game["gid"]), game)


def _rules(games: dict) -> GameRules:
    raw = games.get("rules") or {}
    number = lambda v: Decimal(v) if v is not None else None  # noqa: E731 - three fields alike
    return GameRules(best_move_by=tuple(raw.get("best_move_by", ("shot_first",))), extra_min=number(raw.get("extra_min")),
                     extra_max=number(raw.get("extra_max")), extra_step=number(raw.get("extra_step")))


def confirm_id(gid: str, name: str, current: str) -> str:
    """The save id of a confirmation: the same press on the same cell is one save (fits the column)."""
    import hashlib

    return "confirm:" + hashlib.sha256(f"{gid}\n{name}\n{current}".encode()).hexdigest()[:48]


# what may be written into the sheet while the game runs (§8: a sheet shared with players must not
# show a role, a check or a best move before the end): who sits where, fouls, who left when, the judge
PUBLIC_COLUMNS = ("player", "fouls", "killed_night", "voted_day", "removal")


def live_cells(log: GameLog, game: dict, language: str) -> dict[str, str]:
    """The protocol cells of the live game, keyed as the form's: only the public ones while it runs."""
    state = log.state()
    seating = SeatingEntry(stage=game["stage"], round=game["round"], table=game["table"], players=tuple(game["seats"]))
    cells = protocol_cells(state_protocol(state, seating, sheet=game.get("tab") or ""), language, state)
    out = {}
    for (seat, column), text in cells.items():
        if not state.ended and (column not in PUBLIC_COLUMNS if seat is not None else column != "judge"):
            continue
        key = cell_key(seat, column)
        if key in game["where"]:
            out[key] = text
    return out


@require_http_methods(["POST"])
@_api
def api_events(request: HttpRequest, link: JudgeLink, games: dict, gid: str, body: dict) -> JsonResponse:
    """Live mode: each event added to the game's log (a resend is harmless), the protocol's cells
    derived from the log and saved like a form's — the public ones only until the game ends."""
    game = game_allowed(link, games["games"], gid)
    sent = body.get("events")
    if not isinstance(sent, list) or len(sent) > MAX_EVENTS:
        raise _Refused("bad_request")
    tournament, language = link.tournament, games.get("language", "ru")
    receipts = []
    with transaction.atomic():
        kept, _ = JudgeGame.objects.select_for_update().get_or_create(tournament=tournament, gid=gid)
        log = GameLog(events=tuple(from_dict(e) for e in kept.events), players=tuple(game["seats"]), rules=_rules(games))
        for raw in sent:
            try:
                event = from_dict(raw)
            except EventError as exc:
                receipts.append({"status": "rejected", "why": {"rule": "event.malformed", "ru": exc.message("ru"),
                                                               "en": exc.message("en")}})
                continue
            log, receipt = log.add(event)
            receipts.append(receipt.to_dict())
        kept.events = [e.to_dict() for e in log.events]
        kept.mode = "live"
        kept.save(update_fields=["events", "mode", "updated_at"])
    if game.get("tab") and log.events:
        current = game_json(tournament, games, game)["cells"]
        wanted = {k: v for k, v in live_cells(log, game, language).items() if current.get(k, "") != v}
        if wanted:
            _store(link, game, f"live:{gid}:{log.events[-1].seq}:{len(log.events)}", wanted,
                   {k: current.get(k, "") for k in wanted})
    games, game = _again(link, games, game)
    return _answer({"receipts": receipts, "game": game_json(tournament, games, game)})


@require_http_methods(["POST"])
@_api
def api_confirm(request: HttpRequest, link: JudgeLink, games: dict, gid: str, body: dict) -> JsonResponse:
    """The chief judge's «Проверил»: his name into the game's checked-by cell, through the writer."""
    if link.kind != JudgeLink.CHIEF:
        raise _Refused("chief_only")
    game = game_allowed(link, games["games"], gid)
    if not games.get("confirmation"):
        raise _Refused("no_confirmation")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _Refused("no_name")
    if len(name) > MAX_TEXT:
        raise _Refused("too_long", n=MAX_TEXT)
    if not game.get("tab"):
        raise _Refused("no_tab")
    current = game_json(link.tournament, games, game)["cells"]
    key = cell_key(None, "checked_by")
    _store(link, game, confirm_id(gid, name.strip(), current.get(key, "")), {key: name.strip()},
           {key: current.get(key, "")}, choose={key: "mine"})
    games, game = _again(link, games, game)
    return _answer({"game": game_json(link.tournament, games, game)})
