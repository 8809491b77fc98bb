"""The queue's tasks, where Huey's consumer looks for them (``tasks`` of each installed app); the
buttons' runners are imported with them, so a worker knows every action a page can enqueue."""

from sheets_sync.web import runners  # noqa: F401 - registers the buttons' actions with jobs.runner
from sheets_sync.web.jobs import run_job_task

__all__ = ["run_job_task"]
