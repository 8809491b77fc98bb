"""The Django app of the web face."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "sheets_sync.web"
    label = "web"
    verbose_name = "sheets-sync"
    default_auto_field = "django.db.models.BigAutoField"
