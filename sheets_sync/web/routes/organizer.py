"""The organizer part's addresses (joined in :mod:`sheets_sync.web.urls`): ``/o/<slug>/…``, each
view finding its tournament through :func:`sheets_sync.web.access.tournament_for`."""

from django.urls import path

from sheets_sync.web import app_mode, organizer

urlpatterns: list = [
    path("o/<slug:slug>/", organizer.tournament_page, name="tournament"),
    path("o/<slug:slug>/status.json", organizer.tournament_status, name="tournament_status"),
    path("o/<slug:slug>/do/<slug:action>/", organizer.press, name="press"),
    path("o/<slug:slug>/jobs/<int:job_id>/", organizer.job_page, name="job"),
    path("o/<slug:slug>/jobs/<int:job_id>/status.json", organizer.job_status, name="job_status"),
    path("o/<slug:slug>/files/<path:path>", organizer.download, name="download"),
    path("app/", app_mode.app_home, name="app_home"),
    path("app/league/", app_mode.app_league, name="app_league"),
    path("app/status.json", app_mode.app_status, name="app_status"),
]
