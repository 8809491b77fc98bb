"""The web app: sheets-sync for people who only have a browser (issue 35).

A Django project inside the package. ``sheets-sync server --data DIR`` runs it for a club, a league
or a federation (many organizers, Google sheets kept synced by a background worker on a queue);
``sheets-sync app FOLDER`` runs the same pages on 127.0.0.1 for one organizer's Excel workbooks.
Every button calls an action of :mod:`sheets_sync.actions`, as the command line does.

Rooms: ``settings`` (everything from the environment and the data folder), ``models`` (organizers'
tournaments, claims, invitations, jobs, the Drive cursor), ``urls`` and the views, ``tasks`` (the
queue's jobs), templates in ``templates/web/``.
"""
