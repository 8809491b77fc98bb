"""The accounts part's addresses (joined in :mod:`sheets_sync.web.urls`)."""

urlpatterns: list = []
