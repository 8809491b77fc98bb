"""The judge's part's addresses (joined in :mod:`sheets_sync.web.urls`): ``/j/<token>/…`` — the
judge's page and its API, the chief judge's page — and the page's service worker, manifest and
files (issue 44; the addresses are the contract with the page's and the port's parts)."""

from django.urls import path

from sheets_sync.web.judge import api, organizer, pages
from sheets_sync.web.judge import writer  # noqa: F401 - registers the writer job with jobs.runner

urlpatterns: list = [
    path("o/<slug:slug>/judges/<slug:op>/", organizer.judges_press, name="judges_press"),
    path("j/sw.js", pages.service_worker, name="judge_sw"),
    path("j/manifest.webmanifest", pages.manifest, name="judge_manifest"),
    path("j/<str:token>/", pages.judge_page, name="judge_page"),
    path("j/<str:token>/chief/", pages.chief_page, name="judge_chief"),
    path("j/<str:token>/chief/confirm/<str:gid>/", pages.chief_confirm, name="judge_chief_confirm"),
    path("j/<str:token>/api/", api.api_games, name="judge_api"),
    path("j/<str:token>/api/games/<str:gid>/", api.api_game, name="judge_api_game"),
    path("j/<str:token>/api/games/<str:gid>/events/", api.api_events, name="judge_api_events"),
    path("j/<str:token>/api/games/<str:gid>/form/", api.api_form, name="judge_api_form"),
    path("j/<str:token>/api/games/<str:gid>/confirm/", api.api_confirm, name="judge_api_confirm"),
]
