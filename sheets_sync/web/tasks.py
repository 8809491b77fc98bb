"""The queue's tasks, where Huey's consumer looks for them (``tasks`` of each installed app)."""

from sheets_sync.web.jobs import run_job_task
from sheets_sync.web.keeping import keeping_minute

__all__ = ["run_job_task", "keeping_minute"]
