"""The public part's addresses (joined in :mod:`sheets_sync.web.urls`): each tournament's hosted
site at ``/t/<slug>/`` (no sign-in; only what its syncs published), and the app's own scripts and
styles at ``/assets/`` (shipped files, the same for everyone)."""

from django.urls import path

from sheets_sync.web import public
from sheets_sync.web.judge.pages import judge_asset

urlpatterns: list = [
    path("t/<slug:slug>/", public.public_site, name="public_site"),
    path("t/<slug:slug>/<path:path>", public.public_site, name="public_file"),
    path("assets/<str:name>", public.asset, name="asset"),  # the app's own scripts and styles
    path("assets/judge/<path:name>", judge_asset, name="judge_asset"),  # the judge's page's (issue 44)
]
