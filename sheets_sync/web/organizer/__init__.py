"""A tournament's pages for its organizers: what the sheet says at a glance (:mod:`.glance`), a
button for every command (:mod:`.buttons`: each one a job of :mod:`sheets_sync.web.jobs` running the
same action as the CLI, :mod:`sheets_sync.web.runners`) and the pages that show them
(:mod:`.views`). Every view finds its tournament through
:func:`sheets_sync.web.access.tournament_for` (404 to all but its members); every button is a
POST form with Django's CSRF token."""

from sheets_sync.web.organizer.views import download, job_page, job_status, press, tournament_page, tournament_status

__all__ = ["tournament_page", "tournament_status", "press", "job_page", "job_status", "download"]
