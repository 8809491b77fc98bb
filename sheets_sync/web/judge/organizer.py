"""The judges' links on the organizer's tournament page (§1): the section «Судьи» (each link's
address, a copy button and a QR code) and its presses — the current stage's table links in one
press, the chief judge's link, revoke and renew — POST forms with Django's CSRF token, for the
tournament's organizers only (:func:`sheets_sync.web.access.tournament_for`)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from sheets_sync.web.access import tournament_for
from sheets_sync.web.addresses import phone_address, phone_base
from sheets_sync.web.judge.links import (link_address, live_links, make_chief_link, make_judge_link, make_table_links,
                                         qr_svg, renew, revoke)
from sheets_sync.web.judge.state import games_of
from sheets_sync.web.models import JudgeLink, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["judges_context", "judges_press"]


def judges_context(request: HttpRequest, tournament: Tournament) -> dict:
    """The section's links (address and QR code each), and whether the stage's links can be made."""
    games = games_of(tournament) or {}
    stages = games.get("stages", {})
    lang = request_language(request)
    rows = []
    for link in live_links(tournament):
        address = link_address(request, link, chief_page=link.kind == JudgeLink.CHIEF)
        if link.kind == JudgeLink.CHIEF:
            title = word("judge.chief", lang)
        elif link.kind == JudgeLink.TABLE:
            title = f"{stages.get(link.stage, link.stage)} · {word('judge.table', lang)} {link.table}"
        else:
            title = f"{stages.get(link.stage, link.stage)} · {link.judge}"
        rows.append({"pk": link.pk, "kind": link.kind, "title": title, "address": address, "qr": qr_svg(address)})
    lan = settings.MODE == "app" and phone_address() is not None  # app --lan: the phones can reach it
    local_only = settings.MODE == "app" and not lan
    _, tables = _stage_tables(games)
    return {"judges": {"links": rows, "stage": stages.get(games.get("current_stage") or "", ""), "tables": tables,
                       "names": games.get("judges", []),
                       "can_make": bool(games.get("current_stage")), "local_only": local_only,
                       "lan": lan}}


def _stage_tables(games: dict) -> tuple[str | None, list[int]]:
    stage = games.get("current_stage")
    return stage, sorted({g["table"] for g in games.get("games", ()) if g["stage"] == stage})


@login_required
@require_POST
def judges_press(request: HttpRequest, slug: str, op: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    lang = request_language(request)
    if op == "make":
        stage, tables = _stage_tables(games_of(tournament) or {})
        if not stage:
            messages.error(request, word("judge.noseating", lang))
        else:
            made = make_table_links(tournament, stage, tables, base=phone_base(request))
            messages.info(request, word("judge.made", lang, n=len(made)))
    elif op == "judge":  # a judge by name and the tables he runs: his games in playing order
        stage, tables = _stage_tables(games_of(tournament) or {})
        name = (request.POST.get("name") or "").strip()
        chosen = sorted({int(t) for t in request.POST.getlist("tables") if t.isdigit() and int(t) in tables})
        if not stage or not name or not chosen or len(name) > 200:
            messages.error(request, word("judge.judge.invalid", lang))
        else:
            make_judge_link(tournament, stage, name, chosen, base=phone_base(request))
            messages.info(request, word("judge.made", lang, n=1))
    elif op == "chief":
        make_chief_link(tournament, base=phone_base(request))
        messages.info(request, word("judge.made", lang, n=1))
    elif op in ("revoke", "renew"):
        try:
            pk = int(request.POST.get("link", ""))
        except ValueError:
            raise Http404("no such link") from None
        link = live_links(tournament).filter(pk=pk).first()
        if link is None:
            raise Http404("no such link")
        if op == "revoke":
            revoke(link)
            messages.info(request, word("judge.revoked", lang))
        else:
            renew(link, base=phone_base(request))
            messages.info(request, word("judge.renewed", lang))
    else:
        raise Http404("no such press")
    return redirect(f"/o/{tournament.slug}/#judges")
