"""The players' registration addresses (joined in :mod:`sheets_sync.web.urls`), public by design:
the form ``/apply/<slug>/``, the self check-in ``/checkin/<slug>/`` (its code shown in the hall) and
the player's own page ``/me/<token>/`` (the token is the key). Nothing here shows a contact."""

from django.urls import path

from sheets_sync.web.registration import pages

urlpatterns: list = [
    path("apply/<slug:slug>/", pages.apply, name="apply"),
    path("checkin/<slug:slug>/", pages.self_checkin, name="self_checkin"),
    path("me/<str:token>/", pages.my_application, name="my_application"),
]
