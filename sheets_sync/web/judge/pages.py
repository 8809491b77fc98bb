"""The judge's page's own addresses: the page shell (h-jface's template), its service worker and
manifest, its scripts and styles under ``/assets/judge/``, and the chief judge's page (§7):
every table of every stage, round by round, with its state and problems, and a confirm button."""

from __future__ import annotations

from urllib.parse import quote, unquote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from sheets_sync.web.judge.api import link_title
from sheets_sync.web.judge.compress import COMPRESSED, accepts_gzip, gzipped_file
from sheets_sync.web.judge.games import CONFIRMED, IN_PLAY, NOT_STARTED, PROBLEMS, SUBMITTED, WAITING, cell_key
from sheets_sync.web.judge.links import game_allowed, link_for, link_games
from sheets_sync.web.judge.state import _moment, game_json, games_of
from sheets_sync.web.models import JudgeLink
from sheets_sync.web.public import ASSETS, file_response, safe_file

__all__ = ["judge_page", "service_worker", "manifest", "judge_asset", "chief_page", "chief_confirm", "CHIEF_NAME_COOKIE"]

JUDGE_ASSETS = ASSETS / "judge"
CHIEF_NAME_COOKIE = "sheets_sync_chief"


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the token is in the address: never sent to another site
    return response


@require_safe
def judge_page(request: HttpRequest, token: str) -> HttpResponse:
    link = link_for(token)
    games = games_of(link.tournament) or {}
    language = games.get("language") or link.tournament.language or "ru"
    context = {"token": token, "language": language, "lang": language,
               "title": link_title(link, games) if games else str(link.tournament), "api": f"/j/{token}/api/"}
    try:
        return _no_store(render(request, "judge/page.html", context))
    except TemplateDoesNotExist:  # the page's own template is another part's: its absence is no 500
        return _no_store(HttpResponse(f"<!doctype html><title>{context['title']}</title>", content_type="text/html"))


def _judge_file(request: HttpRequest, name: str) -> HttpResponse:
    real, _ = safe_file(JUDGE_ASSETS, name)
    if real is None:
        raise Http404("no such file")
    if real.suffix not in COMPRESSED:
        return file_response(request, real)
    response = gzipped_file(request, real) if accepts_gzip(request) else file_response(request, real)
    response["Vary"] = "Accept-Encoding"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = _judge_file(request, "sw.js")
    response["Service-Worker-Allowed"] = "/j/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    response = _judge_file(request, "manifest.webmanifest")
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
def judge_asset(request: HttpRequest, name: str) -> HttpResponse:
    return _judge_file(request, name)


# a game's state in the chief's words (the card's line and the round's counts), the contract's order
STATE_WORDS = {NOT_STARTED: ("не начата", "not started"), IN_PLAY: ("идёт", "in play"), WAITING: ("сохраняется", "saving"),
               PROBLEMS: ("с ошибками", "with problems"), SUBMITTED: ("сдана", "submitted"),
               CONFIRMED: ("подтверждена", "confirmed")}
UNFINISHED = (IN_PLAY, WAITING, PROBLEMS)


def _card(tournament, games: dict, game: dict, en: bool) -> dict:
    card = {**game, **game_json(tournament, games, game)}
    card["state"] = STATE_WORDS.get(card["status"], (card["status"],) * 2)[en]
    card["judge"] = card["cells"].get(cell_key(None, "judge"), "")
    card["checked_by"] = card["cells"].get(cell_key(None, "checked_by"), "")
    card["errors"] = [p for p in card["problems"] if p["severity"] == "error"]
    card["warnings"] = [p for p in card["problems"] if p["severity"] != "error"]
    return card


def _rounds(link: JudgeLink, games: dict, at: str) -> list[dict]:
    """Every stage's rounds in playing order, each with its tables' cards and its states counted. A
    round is shown open when something there waits for somebody (a game in play, saving, with
    problems; a submitted one to confirm), when it is the first not all finished, or when it holds
    the game ``at`` (just confirmed); the others are folded, a line each."""
    en = (games.get("language") or "ru") == "en"
    stages = games.get("stages", {})
    rounds: dict[tuple[str, int], list[dict]] = {}
    for game in link_games(link, games["games"]):
        rounds.setdefault((game["stage"], game["round"]), []).append(_card(link.tournament, games, game, en))
    waits = (*UNFINISHED, SUBMITTED) if games.get("confirmation") else UNFINISHED
    out, next_found = [], False
    for (stage, number), cards in rounds.items():
        states = [c["status"] for c in cards]
        first_open = not next_found and any(s in (NOT_STARTED, *UNFINISHED) for s in states)
        next_found = next_found or first_open
        out.append({"key": f"{stage}-{number}", "stage": stages.get(stage, stage), "round": number, "games": cards,
                    "open": first_open or any(s in waits for s in states) or any(c["gid"] == at for c in cards),
                    "counts": [(words[en], states.count(status)) for status, words in STATE_WORDS.items()
                               if status in states]})
    return out


@require_safe
def chief_page(request: HttpRequest, token: str) -> HttpResponse:
    """Every table of every stage, round by round, with its state; the confirm button where
    confirmation is on (issue 44 §7)."""
    link = link_for(token)
    if link.kind != JudgeLink.CHIEF:
        raise Http404("no such link")
    tournament = link.tournament
    games = games_of(tournament) or {"games": [], "language": tournament.language}
    name = link.judge or unquote(request.COOKIES.get(CHIEF_NAME_COOKIE, ""))[:200]
    context = {"link": link, "token": token, "rounds": _rounds(link, games, request.GET.get("at", "")), "name": name,
               "confirmation": bool(games.get("confirmation")), "tournament_name": games.get("tournament") or str(tournament),
               "lang": games.get("language") or "ru", "read_at": _moment(games.get("read_at"))}
    return _no_store(render(request, "judge/chief.html", context))


@csrf_exempt  # the token is the credential: no cookie is trusted here (the name's cookie only fills the field)
@require_http_methods(["POST"])
def chief_confirm(request: HttpRequest, token: str, gid: str) -> HttpResponse:
    """The confirm button of the chief's page: «Проверил» = his name, through the writer."""
    from sheets_sync.web.judge.api import MAX_TEXT, confirm_id
    from sheets_sync.web.judge.writer import request_write
    from sheets_sync.web.models import JudgeSave

    link = link_for(token)
    if link.kind != JudgeLink.CHIEF:
        raise Http404("no such link")
    games = games_of(link.tournament)
    if games is None or not games.get("confirmation"):
        raise Http404("no such link")
    game = game_allowed(link, games["games"], gid)
    name = (request.POST.get("name") or link.judge or "").strip()[:MAX_TEXT]
    if name and game.get("tab"):
        key = cell_key(None, "checked_by")
        current = game_json(link.tournament, games, game)["cells"].get(key, "")
        save, made = JudgeSave.objects.get_or_create(
            tournament=link.tournament, save_id=confirm_id(gid, name, current),
            defaults={"link": link, "gid": gid, "cells": {key: name}, "base": {key: current}, "choose": {key: "mine"}})
        if made:
            request_write(link.tournament)
    response = redirect(f"/j/{token}/chief/?at={quote(gid)}#table-{quote(gid)}")
    if name and not link.judge:
        response.set_cookie(CHIEF_NAME_COOKIE, quote(name), max_age=30 * 24 * 3600, samesite="Strict", httponly=True,
                            path=f"/j/{token}/")
    return _no_store(response)
