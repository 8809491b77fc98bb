"""The players' messages' addresses (joined in :mod:`sheets_sync.web.urls`): the organizer's
choices for a message in doubt, ``/o/<slug>/messages/<op>/``."""

from django.urls import path

from sheets_sync.web.messaging import organizer

urlpatterns: list = [
    path("o/<slug:slug>/messages/<slug:op>/", organizer.messages_press, name="messages_press"),
]
