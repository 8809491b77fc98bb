"""The web app's addresses. Organizers' pages need a sign-in; ``/t/<slug>/`` is the public site."""

from django.urls import path

urlpatterns: list = [
]
