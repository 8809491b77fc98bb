"""The queue's tasks, where Huey's consumer looks for them (``tasks`` of each installed app); the
buttons' runners and the accounts' jobs (the claim check, a new tournament) are imported with
them, so a worker knows every action a page can enqueue.

Every consumer (the server's own worker threads, each ``sheets-sync worker``) also runs the
keeping minute (:func:`sheets_sync.web.keeping.keeping_minute`), whose tick sweeps what is due
(:func:`sheets_sync.web.jobs.sync_due`): a sheet a failed sync left marked is synced again (a
killed worker's jobs are taken back by the living workers' heartbeats, :mod:`sheets_sync.web.recovery`). Several consumers sweeping the same minute start one sync per sheet
(:func:`~sheets_sync.web.jobs.request_sync` keeps one waiting)."""

from sheets_sync.web import runners  # noqa: F401 - registers the buttons' actions with jobs.runner
from sheets_sync.web.accounts import pending  # noqa: F401 - the claim check and a new tournament as jobs
from sheets_sync.web.accounts import sheet_access  # noqa: F401 - a co-organizer's access to the sheet as a job
from sheets_sync.web.jobs import run_job_task
from sheets_sync.web.judge import writer  # noqa: F401 - the judges' saves' writer job
from sheets_sync.web.keeping import keeping_minute

__all__ = ["run_job_task", "keeping_minute"]
