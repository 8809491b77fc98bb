"""A tournament's page for its organizers: what the sheet says at a glance, and a button for every
command (each one a job of :mod:`sheets_sync.web.jobs` running the same action as the CLI)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from sheets_sync.web.access import tournament_for

__all__ = ["tournament_page"]


@login_required
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return render(request, "organizer/tournament.html", {"tournament": tournament})
