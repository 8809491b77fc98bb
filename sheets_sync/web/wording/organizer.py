"""The organizer part's words, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`)."""

WORDS: dict[str, tuple[str, str]] = {}
