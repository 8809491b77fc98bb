"""The public part's words, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`)."""

WORDS: dict[str, tuple[str, str]] = {
    "public.unpublished.title": ("Ещё не опубликовано", "Not published yet"),
    "public.unpublished.text": ("Итоги этого турнира появятся здесь, как только организатор их опубликует. "
                                  "Загляните позже — страница обновится сама после первой синхронизации.",
                                  "This tournament's standings will appear here once its organizers publish them. "
                                  "Come back later: the page fills in after the first sync."),
}
