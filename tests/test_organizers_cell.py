"""«Организаторы» changed as the owner's action (issue 43 §1): whatever was typed in the cell,
adding an e-mail keeps every other word as typed and puts the address after them; taking it out
drops that address only; adding and then taking out gives back the same addresses."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sheets_sync.workbook.organizers import ADDED, ALREADY, REMOVED, organizers_edit

_LOCAL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=8)
_EMAILS = st.builds(lambda a, b: f"{a}@{b}.ru", _LOCAL, st.sampled_from(["club", "mail", "yandex"]))
_SEPARATORS = st.sampled_from([", ", ",", "; ", " ", "\n", ",\n"])


def _words(value: str) -> list[str]:
    return [w for w in re.split(r"[,;\s]+", value) if w]


@given(st.lists(_EMAILS, max_size=5, unique=True), st.lists(_SEPARATORS, min_size=5, max_size=5), _EMAILS)
def test_adding_keeps_what_was_typed_and_removing_takes_out_only_that_address(emails, separators, new):
    typed = "".join(e + (separators[i] if i < len(emails) - 1 else "") for i, e in enumerate(emails))
    tabs = {"Турнир": (("Название", "Кубок"), ("Организаторы", typed))}
    added = organizers_edit(tabs, new, add=True)
    if new in emails:
        assert added.outcome == ALREADY and added.write is None
        return
    value = added.write.rows[1][1]
    assert added.outcome == ADDED and value.startswith(typed) and _words(value) == emails + [new]
    removed = organizers_edit({"Турнир": (("Название", "Кубок"), ("Организаторы", value))}, new, add=False)
    assert removed.outcome == REMOVED and _words(removed.write.rows[1][1]) == emails
    if emails:
        gone = organizers_edit(tabs, emails[0], add=False).write.rows[1][1]
        assert _words(gone) == emails[1:]
