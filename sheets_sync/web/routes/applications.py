"""The organizer's registration addresses (joined in :mod:`sheets_sync.web.urls`): ``/o/<slug>/applications/``
and ``/o/<slug>/checkin/``, each view finding its tournament through
:func:`sheets_sync.web.access.tournament_for`."""

from django.urls import path

from sheets_sync.web.registration import organizer

urlpatterns: list = [
    path("o/<slug:slug>/applications/", organizer.applications, name="applications"),
    path("o/<slug:slug>/checkin/", organizer.checkin, name="checkin_list"),
]
