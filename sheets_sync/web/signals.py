"""What the server's parts tell each other without importing each other (Django signals).

``application_state_changed``: an application's state changed as the sheet says it now (the sync
mirrored it, or the server set it): ``application`` (:class:`sheets_sync.web.models.Application`,
already saved with the new state), ``old`` and ``new`` (``ApplicationState`` values, ``old`` "" for
a new application). The player's message («заявка подтверждена», «место освободилось») is queued from it.

``sync_finished``: a sync of a tournament computed its workbook afresh (not when the workbook was
unchanged and the sync skipped): ``tournament`` (the model), ``outcome``
(:class:`sheets_sync.loop.outcome.Outcome`) and ``snapshot`` (what it read). Registration mirrors
the applications' states from it; the messages to players (their table and seat, through to the
next stage) are queued from it. A receiver runs inside the sync job: it must be quick, must not
reach Google, and its failure is logged, never the sync's (``send_robust``).
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["sync_finished", "after_sync", "application_state_changed"]

sync_finished = Signal()
application_state_changed = Signal()


def after_sync(tournament, outcome, snapshot) -> None:
    """Tell the receivers of :data:`sync_finished`; a receiver that fails is logged and skipped."""
    import logging

    for receiver, result in sync_finished.send_robust(sender=type(tournament), tournament=tournament,
                                                      outcome=outcome, snapshot=snapshot):
        if isinstance(result, Exception):
            logging.getLogger("sheets_sync.web.signals").error(
                "after a sync of %s: %s failed", tournament.slug, getattr(receiver, "__qualname__", receiver),
                exc_info=(type(result), result, result.__traceback__))
