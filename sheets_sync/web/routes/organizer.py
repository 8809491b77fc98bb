"""The organizer part's addresses (joined in :mod:`sheets_sync.web.urls`): ``/o/<slug>/…``, each
view finding its tournament through :func:`sheets_sync.web.access.tournament_for`."""

from django.urls import path

from sheets_sync.web import organizer

urlpatterns: list = [
    path("o/<slug:slug>/", organizer.tournament_page, name="tournament"),
]
