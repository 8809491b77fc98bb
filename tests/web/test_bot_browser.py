"""The players' messages on the organizer's page in a real browser at 390 px (a phone): the
section's counts, a message in doubt and the press «Отправить ещё раз» — nothing wider than the
screen."""

from __future__ import annotations

import os

import pytest
from django.utils import timezone

from sheets_sync.web.messaging import outbox
from sheets_sync.web.models import Application, OutboxMessage
from tests.web.browser import chromium, phone  # noqa: F401 - fixtures
from tests.web.organizer_support import fresh_tournament, fresh_workbook, organizer, private_data  # noqa: F401
from tests.web.test_organizer_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_a_message_in_doubt_is_sent_again_from_a_phone(live_server, phone, organizer, fresh_tournament):
    a = Application.objects.create(tournament=fresh_tournament, nickname="Очень длинный ник игрока турнира", chat_id=5,
                                   applied_at=timezone.now(), token="t", token_hash="h", start_code="c")
    sent = outbox.queue(a, "state", "k0", "Ваша заявка на турнир «Кубок» подтверждена.")
    doubtful = outbox.queue(a, "seat", "k1", "«Кубок города Санкт-Петербурга»: Отбор, тур 1 — стол 12, место 10.")
    OutboxMessage.objects.filter(pk=sent.pk).update(state=OutboxMessage.SENT)
    OutboxMessage.objects.filter(pk=doubtful.pk).update(state=OutboxMessage.UNCERTAIN)
    sign_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/o/{fresh_tournament.slug}/")
    assert "Отправлено: 1" in phone.inner_text("#messages-counts") and "под вопросом: 1" in phone.inner_text("#messages-counts")
    wide = phone.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)
        .map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 12)""")
    assert wide == []
    box = phone.locator("#player-messages").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    phone.click(f"#message-{doubtful.pk} button:has-text('Отправить ещё раз')")
    phone.wait_for_selector("#messages-counts")
    assert "ждут отправки: 1" in phone.inner_text("#messages-counts")
    assert phone.locator("#messages-doubtful").count() == 0
    assert OutboxMessage.objects.get(pk=doubtful.pk).state == OutboxMessage.QUEUED
