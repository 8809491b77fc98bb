"""The web app's addresses. Organizers' pages need a sign-in; ``/t/<slug>/`` is the public site.

Each part keeps its own list in :mod:`sheets_sync.web.routes`: accounts (sign-up, sign-in, the
tournament list, adding a sheet), organizer (a tournament's page and its buttons), public (the
hosted site), keeping (the push webhook), judge (the judges' links: their page, its API, the
chief's page), messaging (a player's message in doubt), registration (the players' form, check-in
and own page) and applications (the organizer's registration pages). A missing page and a failure
of the server's own get
the site's pages in the reader's language (:mod:`sheets_sync.web.errors`).
"""

from django.urls import include, path

urlpatterns: list = [
    path("", include("sheets_sync.web.routes.accounts")),
    path("", include("sheets_sync.web.routes.organizer")),
    path("", include("sheets_sync.web.routes.public")),
    path("", include("sheets_sync.web.routes.keeping")),
    path("", include("sheets_sync.web.routes.judge")),
    path("", include("sheets_sync.web.routes.messaging")),
    path("", include("sheets_sync.web.routes.registration")),
    path("", include("sheets_sync.web.routes.applications")),
]

handler400 = "sheets_sync.web.errors.bad_request"
handler404 = "sheets_sync.web.errors.not_found"
handler500 = "sheets_sync.web.errors.server_error"
