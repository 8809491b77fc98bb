"""The Django app of the web face."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "sheets_sync.web"
    label = "web"
    verbose_name = "sheets-sync"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the players' messages are queued from the server's signals (issue 45 §4)
        from sheets_sync.web.messaging import receivers  # noqa: F401
        # registration's receiver of sync_finished and its writer job: known to every process that syncs
        from sheets_sync.web.registration import mirror, writer  # noqa: F401
