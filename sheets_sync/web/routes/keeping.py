"""The keeping part's addresses (joined in :mod:`sheets_sync.web.urls`): the push trigger's webhook."""

from django.urls import path

from sheets_sync.web.keeping import hook

urlpatterns: list = [
    path("hook/<str:spreadsheet_id>/", hook, name="hook"),
]
