"""A URL map with a path parameter tests/web/test_safety.py cannot fill: its walk must fail loudly
rather than skip the address (a new kind of id needs its filler)."""

from django.http import HttpResponse
from django.urls import path

urlpatterns = [path("o/<slug:slug>/thing/<int:gadget_id>/", lambda request, slug, gadget_id: HttpResponse("x"))]
