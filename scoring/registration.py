"""Registration (issue 45), pure: the words of an application's state as the workbook spells them.

The state lives on the Players tab's «Заявка» (:class:`scoring.model.ApplicationState`); the server
and the sync write these words, a person may type any of ``labels.APPLICATION_WORDS``.
"""

from __future__ import annotations

from scoring import labels as L
from scoring.model import ApplicationState

__all__ = ["state_word"]


def state_word(state: ApplicationState, language: str) -> str:
    """The word written for ``state`` in a workbook of ``language`` (ru: «подтверждена», en: «confirmed»)."""
    words = L.APPLICATION_WORDS[state.value]
    if language == "en":
        return next(w for w in words if w.isascii())
    return words[0]
