"""The Django app of the web face."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "sheets_sync.web"
    label = "web"
    verbose_name = "sheets-sync"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # registration's receiver of sync_finished and its writer job: known to every process that syncs
        from sheets_sync.web.registration import mirror, writer  # noqa: F401
