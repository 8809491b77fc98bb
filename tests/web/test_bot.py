"""The players' messages (issue 45 §4) against the fake Telegram Bot API (tests/fake_telegram.py):
the outbox sends each message once, within Telegram's limits, waits a 429's ``retry_after``; a
player links his chat with ``/start <code>`` and stops it with ``/stop``; the messages come from
an application's new state and from a sync's seating; e-mail where there is no Telegram; a row
a crash left ``sending`` is never sent again by itself."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from sheets_sync.web.messaging import outbox
from sheets_sync.web.messaging.bot import BotLoop, handle_update
from sheets_sync.web.messaging.telegram import BotApi, NotSent, Refused, TooMany
from sheets_sync.web.models import Application, BotState, OutboxMessage, Tournament
from sheets_sync.web.signals import application_state_changed
from tests.fake_telegram import TOKEN, FakeTelegram
from tests.web.organizer_support import (  # noqa: F401 - fixtures
    fresh_tournament,
    fresh_workbook,
    organizer,
    private_data,
    qualified_tournament,
    signed_in,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def telegram(monkeypatch):
    with FakeTelegram(enforce=True) as fake:
        monkeypatch.setenv("SHEETS_SYNC_TELEGRAM_TOKEN", TOKEN)
        monkeypatch.setenv("SHEETS_SYNC_TELEGRAM_API", fake.url)
        yield fake


@pytest.fixture
def api(telegram) -> BotApi:
    return BotApi(TOKEN, telegram.url)


def make_tournament(slug: str = "cup", title: str = "Кубок") -> Tournament:
    return Tournament.objects.create(slug=slug, title=title, source=Tournament.EXCEL)


def apply(tournament: Tournament, nickname: str, *, chat: int | None = None, email: str = "", n: int = 0) -> Application:
    n = n or abs(hash((tournament.pk, nickname))) % 10**9
    return Application.objects.create(tournament=tournament, nickname=nickname, email=email, chat_id=chat,
                                      applied_at=timezone.now(), token=f"t{n}", token_hash=f"h{n}", start_code=f"c{n}")


def drain(sender: outbox.Sender, seconds: float = 10.0) -> None:
    """Send until nothing is queued (or ``seconds`` pass)."""
    end = time.monotonic() + seconds
    while OutboxMessage.objects.filter(state=OutboxMessage.QUEUED).exists() and time.monotonic() < end:
        _, soonest = sender.send_due()
        if soonest:
            time.sleep(min(soonest, 0.2))


# -- the client --------------------------------------------------------------------------------------
def test_the_client_tells_a_429_a_refusal_and_a_connection_never_made(api, telegram):
    assert api.get_me()["is_bot"]
    api.send_message(5, "привет")
    assert telegram.to(5) == ["привет"]
    telegram.flood(1, retry_after=3)
    with pytest.raises(TooMany) as flood:
        api.send_message(6, "раз")
    assert flood.value.retry_after == 3
    telegram.blocked.add(7)
    with pytest.raises(Refused) as blocked:
        api.send_message(7, "два")
    assert blocked.value.for_good and blocked.value.code == 403
    with pytest.raises(NotSent):
        BotApi(TOKEN, "http://127.0.0.1:9").send_message(8, "три")  # nobody listens there
    with pytest.raises(Refused) as wrong:
        BotApi("1:wrong", telegram.url).get_me()
    assert wrong.value.code == 401


# -- the outbox --------------------------------------------------------------------------------------
def test_a_message_queued_twice_is_sent_once(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=101)
    first = outbox.queue(a, "state", "state:x", "Заявка подтверждена.")
    again = outbox.queue(a, "state", "state:x", "Заявка подтверждена.")
    assert first.pk == again.pk
    sender = outbox.Sender(api)
    drain(sender)
    drain(sender)
    assert telegram.to(101) == ["Заявка подтверждена."]
    row = OutboxMessage.objects.get()
    assert row.state == OutboxMessage.SENT and row.sent_at and row.attempts == 1


def test_the_limits_thirty_a_second_and_one_a_second_per_chat(api, telegram):
    t = make_tournament()
    players = [apply(t, f"Игрок {i:02d}", chat=1000 + i, n=i) for i in range(45)]
    for a in players:
        for r in (1, 2):
            outbox.queue(a, "seat", f"seat:{a.pk}:{r}", f"тур {r}")
    started = time.monotonic()
    drain(outbox.Sender(api), 20)
    took = time.monotonic() - started
    assert len(telegram.sent) == 90 and telegram.refused == 0  # the fake refuses whatever breaks the limits
    moments = [m.at for m in telegram.sent]
    assert max(sum(1 for x in moments if 0 <= x - m < 1.0) for m in moments) <= 30
    for a in players:
        mine = [m.at for m in telegram.sent if m.chat_id == a.chat_id]
        assert mine[1] - mine[0] >= 1.0
    assert took >= 90 / 30 - 0.2


def test_a_new_holder_of_the_lease_keeps_the_last_ones_second_per_chat(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=251)
    first = outbox.queue(a, "seat", "k1", "тур 1")
    drain(outbox.Sender(api))
    assert OutboxMessage.objects.get(pk=first.pk).state == OutboxMessage.SENT
    outbox.queue(a, "seat", "k2", "тур 2")
    fresh = outbox.Sender(api)  # another process took the lease right after
    fresh.remember_recent()
    sent, soonest = fresh.send_due()
    assert sent == 0 and 0 < soonest <= 1.1  # not sooner than a second after the other's message
    drain(fresh)
    assert telegram.to(251) == ["тур 1", "тур 2"] and telegram.refused == 0


def test_a_429_waits_its_retry_after_and_sends_again(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=201)
    outbox.queue(a, "seat", "k1", "стол 1, место 3")
    telegram.flood(1, retry_after=2)
    started = time.monotonic()
    drain(outbox.Sender(api))
    assert telegram.to(201) == ["стол 1, место 3"]
    assert time.monotonic() - started >= 2.0
    row = OutboxMessage.objects.get()
    assert row.state == OutboxMessage.SENT and row.attempts == 2


def test_a_blocked_bot_fails_the_message_and_a_network_that_may_have_delivered_is_uncertain(api, telegram):
    t = make_tournament()
    blocked, lost = apply(t, "Игрок 01", chat=301, n=1), apply(t, "Игрок 02", chat=302, n=2)
    telegram.blocked.add(301)
    outbox.queue(blocked, "seat", "k1", "стол 1")
    sender = outbox.Sender(api)
    drain(sender)
    assert OutboxMessage.objects.get(key="k1").state == OutboxMessage.FAILED
    blocked.refresh_from_db()
    assert blocked.chat_stopped_at is not None  # blocked: as his /stop, nothing more is queued to him
    assert outbox.queue(blocked, "seat", "k3", "стол 3") is None
    outbox.queue(lost, "seat", "k2", "стол 2")
    telegram.delay = 1.5  # the answer comes after the client's patience: the message did arrive
    sender.api = BotApi(TOKEN, telegram.url, timeout=0.5)
    drain(sender)
    drain(sender)
    time.sleep(1.2)
    row = OutboxMessage.objects.get(key="k2")
    assert row.state == OutboxMessage.UNCERTAIN and row.attempts == 1
    assert telegram.to(302) == ["стол 2"]  # it reached him once, and is not sent again


def test_a_row_left_sending_by_a_dead_loop_is_uncertain_never_sent_again(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=401)
    row = outbox.queue(a, "seat", "k", "стол 3, место 7")
    OutboxMessage.objects.filter(pk=row.pk).update(state=OutboxMessage.SENDING, sending_at=timezone.now())
    BotState.objects.create(pk=1, lease_owner="bot-dead", lease_until=timezone.now() + timedelta(seconds=30))
    assert not outbox.take_lease("bot-alive")  # the dead loop's lease runs out first
    assert OutboxMessage.objects.get().state == OutboxMessage.SENDING
    BotState.objects.filter(pk=1).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert outbox.take_lease("bot-alive")
    assert OutboxMessage.objects.get().state == OutboxMessage.UNCERTAIN
    drain(outbox.Sender(api))
    assert telegram.to(401) == []


# -- /start and /stop --------------------------------------------------------------------------------
def test_start_links_the_chat_and_stop_ends_the_messages(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01")
    telegram.say(555, f"/start {a.start_code}")
    telegram.say(556, "/start nonsense")
    loop = BotLoop(api, poll_wait=0)
    assert outbox.take_lease(loop.owner)
    loop.step()
    a.refresh_from_db()
    assert a.chat_id == 555 and a.chat_stopped_at is None
    assert telegram.to(555) == []  # told through the outbox: the next pass sends it
    drain(loop.sender)
    assert "Кубок" in telegram.to(555)[0] and "/stop" in telegram.to(555)[0]
    assert "не найден" in telegram.to(556)[0]
    assert BotState.objects.get().offset == 3  # both updates read: never handled again
    application_state_changed.send(sender=Application, application=a, old="submitted", new="confirmed")
    drain(loop.sender)
    assert telegram.to(555)[-1] == "Ваша заявка на турнир «Кубок» подтверждена."
    telegram.say(555, "/stop")
    time.sleep(1.1)  # one a second to a chat: the answer to /stop waits its turn
    loop.step()
    a.refresh_from_db()
    assert a.chat_stopped_at is not None
    assert "остановлены" in telegram.to(555)[-1]
    heard = len(telegram.to(555))
    application_state_changed.send(sender=Application, application=a, old="confirmed", new="paid")
    drain(loop.sender)
    assert len(telegram.to(555)) == heard
    assert not OutboxMessage.objects.filter(key__startswith=f"state:{a.pk}:paid").exists()


def test_stop_fails_what_was_still_queued(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=601)
    outbox.queue(a, "seat", "k", "стол 1")
    handle_update({"update_id": 1, "message": {"text": "/stop", "chat": {"id": 601, "type": "private"}}})
    drain(outbox.Sender(api))
    assert telegram.to(601) == []
    assert OutboxMessage.objects.get().state == OutboxMessage.FAILED


def test_a_group_chat_is_not_linked(api, telegram):
    t = make_tournament()
    a = apply(t, "Игрок 01")
    assert handle_update({"update_id": 1, "message": {"text": f"/start {a.start_code}",
                                                       "chat": {"id": -100, "type": "group"}}}) is None
    a.refresh_from_db()
    assert a.chat_id is None


# -- what is said ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("old", "new", "said"), [
    ("submitted", "confirmed", "Ваша заявка на турнир «Кубок» подтверждена."),
    ("waiting", "confirmed", "Освободилось место: ваша заявка на турнир «Кубок» вышла из листа ожидания"),
    ("submitted", "waiting", "вы в листе ожидания"),
    ("confirmed", "withdrawn", "снята"),
    ("confirmed", "paid", "Оплата получена"),
])
def test_an_application_state_is_told_once(api, telegram, old, new, said):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=701)
    for _ in range(2):
        application_state_changed.send(sender=Application, application=a, old=old, new=new)
    drain(outbox.Sender(api))
    assert len(telegram.to(701)) == 1 and said in telegram.to(701)[0]


def test_email_where_the_player_gave_no_telegram(api, telegram, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament()
    a = apply(t, "Игрок 01", email="player@example.org")
    nobody = apply(t, "Игрок 02", n=2)
    application_state_changed.send(sender=Application, application=a, old="submitted", new="confirmed")
    application_state_changed.send(sender=Application, application=nobody, old="submitted", new="confirmed")
    drain(outbox.Sender(api))
    assert [m.to for m in mail.outbox] == [["player@example.org"]]
    assert mail.outbox[0].subject == "Кубок" and "подтверждена" in mail.outbox[0].body
    assert OutboxMessage.objects.get().channel == OutboxMessage.EMAIL  # nothing queued for who gave no contact


def test_a_new_application_by_mail_carries_the_players_own_link(api, telegram, settings, monkeypatch):
    """A player who gave only an e-mail may close the page «Заявка принята»: the first letter brings
    his own page back (withdraw, the excused round). Telegram's player opened the bot from that page."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    monkeypatch.setenv("SHEETS_SYNC_PUBLIC_URL", "https://mafia.example.org/")
    t = make_tournament()
    a = apply(t, "Игрок 01", email="player@example.org")
    b = apply(t, "Игрок 02", chat=702, n=2)
    for one in (a, b):
        application_state_changed.send(sender=Application, application=one, old="", new="submitted")
    application_state_changed.send(sender=Application, application=a, old="submitted", new="confirmed")
    drain(outbox.Sender(api))
    mine = f"https://mafia.example.org/me/{a.token}/"
    assert [mine in m.body for m in mail.outbox] == [True, False]  # the first letter only
    assert "/me/" not in telegram.to(702)[0]


def test_an_address_taken_away_before_the_sending_fails_the_mail(api, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    a = apply(make_tournament(), "Игрок 01", email="player@example.org")
    outbox.queue(a, "seat", "k", "стол 1")
    Application.objects.filter(pk=a.pk).update(email="")  # the player asked his address deleted
    drain(outbox.Sender(api))
    assert OutboxMessage.objects.get().state == OutboxMessage.FAILED and mail.outbox == []


def test_no_mail_queued_where_the_server_only_logs_its_mail(settings, caplog):
    settings.EMAIL_BACKEND = "sheets_sync.web.mail.LogEmailBackend"  # a server without SMTP: mail to the log
    a = apply(make_tournament(), "Игрок 01", email="player@example.org")
    with caplog.at_level(logging.DEBUG):
        application_state_changed.send(sender=Application, application=a, old="submitted", new="confirmed")
        drain(outbox.Sender(None))
    assert not OutboxMessage.objects.exists() and "player@example.org" not in caplog.text


def test_the_seating_of_a_sync_tells_each_player_his_table_and_seat_once(fresh_tournament, api, telegram, settings):
    from sheets_sync.web import jobs

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    players = [apply(fresh_tournament, f"Игрок {i:02d}", chat=800 + i, n=i) for i in (1, 2, 3)]
    apply(fresh_tournament, "Не в турнире", chat=899, n=99)
    jobs.request_sync(fresh_tournament, "test")
    seats = OutboxMessage.objects.filter(kind="seat")
    assert seats.count() >= 3 and not OutboxMessage.objects.filter(application__chat_id=899).exists()
    first = seats.filter(application=players[0]).order_by("pk").first()
    assert first.key == f"seat:{fresh_tournament.pk}:qualifying:1:{players[0].pk}"
    assert all(":qualifying:1:" in key for key in seats.values_list("key", flat=True))  # not the seven rounds at once
    table, seat = first.params["table"], first.params["seat"]
    assert first.text.endswith(f"тур 1 — стол {table}, место {seat}.")
    count = OutboxMessage.objects.count()
    Tournament.objects.filter(pk=fresh_tournament.pk).update(needs_sync=True)
    jobs.request_sync(fresh_tournament, "test")
    assert OutboxMessage.objects.count() == count  # a sync that sees the same seating queues nothing new
    drain(outbox.Sender(api), 30)
    assert all(v == 1 for v in telegram.counts().values())
    assert len(telegram.to(801)) == seats.filter(application=players[0]).count()


def test_a_changed_seating_is_told_again_and_a_played_round_is_not(api, telegram):
    from types import SimpleNamespace

    from sheets_sync.web.messaging.receivers import queue_seating
    from sheets_sync.web.messaging.texts import seat_plan

    t = make_tournament()
    a = apply(t, "A", chat=901, n=1)
    stages = [("qualifying", "Отбор"), ("final", "Финал")]

    def entry(stage, round_no, table, players):
        return SimpleNamespace(stage=stage, round=round_no, table=table, players=tuple(players))

    seating = [entry("qualifying", 1, 1, ["A", "B"]), entry("qualifying", 2, 2, ["B", "A"])]
    assert queue_seating(t, seat_plan("Кубок", seating, stages, played=set())) == 1  # round 1 only: round 2 when it comes
    first = {("qualifying", 1, 1)}
    assert queue_seating(t, seat_plan("Кубок", seating, stages, played=first)) == 1
    assert OutboxMessage.objects.order_by("-pk").first().text == "«Кубок»: Отбор, тур 2 — стол 2, место 2."
    moved = [entry("qualifying", 1, 1, ["A", "B"]), entry("qualifying", 2, 3, ["A", "B"])]
    assert queue_seating(t, seat_plan("Кубок", moved, stages, played=first)) == 1
    again = OutboxMessage.objects.order_by("-pk").first()
    assert again.text == "Рассадка изменилась. «Кубок»: Отбор, тур 2 — стол 3, место 1."
    final = [*moved, entry("final", 1, 1, ["B", "A"])]
    assert queue_seating(t, seat_plan("Кубок", final, stages, played={("qualifying", 1, 1), ("qualifying", 2, 3)},
                                      link="https://example.org/t/cup/")) == 2
    news = OutboxMessage.objects.get(kind="final")
    assert "«Финал»" in news.text and "1. B, 2. A" in news.text and "https://example.org/t/cup/" in news.text
    assert list(OutboxMessage.objects.filter(application=a).values_list("kind", flat=True)) == \
        ["seat", "seat", "seat", "final", "seat"]


# -- personal data -----------------------------------------------------------------------------------
def test_no_chat_id_in_the_log_and_the_messages_go_with_the_application(api, telegram, caplog):
    t = make_tournament()
    a = apply(t, "Игрок 01", chat=987654321, email="secret@example.org")
    telegram.blocked.add(987654321)
    outbox.queue(a, "seat", "k", "стол 1")
    telegram.say(987654321, "/stop")
    with caplog.at_level(logging.DEBUG):
        drain(outbox.Sender(api))
        loop = BotLoop(api, poll_wait=0)
        assert outbox.take_lease(loop.owner)
        loop.step()
    assert "987654321" not in caplog.text and "secret@example.org" not in caplog.text
    a.delete()
    assert not OutboxMessage.objects.exists()


# -- the organizer -----------------------------------------------------------------------------------
def test_the_organizer_sees_a_message_in_doubt_and_decides(fresh_tournament, signed_in, api, telegram):
    from django.contrib.auth import get_user_model
    from django.test import Client

    a = apply(fresh_tournament, "Игрок 01", chat=1201)
    doubtful = outbox.queue(a, "seat", "k1", "«Кубок»: тур 1 — стол 2, место 5.")
    other = outbox.queue(a, "seat", "k2", "«Кубок»: тур 2 — стол 1, место 3.")
    OutboxMessage.objects.filter(pk__in=[doubtful.pk, other.pk]).update(state=OutboxMessage.UNCERTAIN)
    page = signed_in.get(f"/o/{fresh_tournament.slug}/").content.decode()
    assert "Сообщения игрокам" in page and "под вопросом: 2" in page and "тур 1 — стол 2, место 5" in page
    assert "1201" not in page  # the chat id is no organizer's business either
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("boris@example.org", "boris@example.org", "x long pass 2"))
    assert stranger.post(f"/o/{fresh_tournament.slug}/messages/resend/", {"message": doubtful.pk}).status_code == 404
    assert signed_in.post(f"/o/{fresh_tournament.slug}/messages/resend/", {"message": doubtful.pk}).status_code == 302
    assert signed_in.post(f"/o/{fresh_tournament.slug}/messages/delivered/", {"message": other.pk}).status_code == 302
    assert signed_in.post(f"/o/{fresh_tournament.slug}/messages/resend/", {"message": other.pk}).status_code == 404
    drain(outbox.Sender(api))
    assert telegram.to(1201) == ["«Кубок»: тур 1 — стол 2, место 5."]
    assert set(OutboxMessage.objects.values_list("state", flat=True)) == {OutboxMessage.SENT}


def test_through_to_the_semifinal_after_the_advance(qualified_tournament, signed_in, api, telegram):
    """The qualifying played to the end: no message for its rounds; the advance seats the semifinal,
    and each semifinalist hears he is through, then his table and seat of each semifinal round."""
    from django.urls import reverse

    from sheets_sync.web import jobs
    from sheets_sync.web.models import Job

    players = {i: apply(qualified_tournament, f"Игрок {i:02d}", chat=1300 + i, n=i) for i in range(1, 41)}
    jobs.request_sync(qualified_tournament, "test")
    assert not OutboxMessage.objects.exists()  # every qualifying round was played: nothing to tell
    signed_in.post(reverse("press", args=[qualified_tournament.slug, "advance"]), {"seed": "1"})
    assert Job.objects.filter(tournament=qualified_tournament, action="advance").get().status == Job.DONE
    Tournament.objects.filter(pk=qualified_tournament.pk).update(needs_sync=True)
    jobs.request_sync(qualified_tournament, "test")
    through = OutboxMessage.objects.filter(kind="through")
    assert through.count() == 20
    assert all("вы прошли в этап «Полуфинал» турнира «Кубок города»" in m.text for m in through)
    one = through.first().application
    seats = list(OutboxMessage.objects.filter(application=one).order_by("pk").values_list("kind", "text"))
    assert [k for k, _ in seats] == ["through", "seat"]  # the semifinal's first round; the next when it comes
    assert seats[1][1].startswith("«Кубок города»: Полуфинал, тур 1 — стол ")
    assert not OutboxMessage.objects.filter(application__in=[a for a in players.values() if a.pk != one.pk],
                                            kind="seat", text__contains="Отбор").exists()


def test_without_a_token_the_telegram_messages_wait_and_the_loop_idles(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament()
    outbox.queue(apply(t, "Игрок 01", chat=1401, n=1), "seat", "k1", "стол 1")
    outbox.queue(apply(t, "Игрок 02", email="p2@example.org", n=2), "seat", "k2", "стол 2")
    loop = BotLoop(None, poll_wait=1)
    passes = []
    send_due = loop.sender.send_due
    loop.sender.send_due = lambda **kw: passes.append(1) or send_due(**kw)
    assert loop.run(2.0)
    assert len(passes) <= 4  # a pass a second, not a busy loop over the row it cannot send
    assert OutboxMessage.objects.get(key="k1").state == OutboxMessage.QUEUED
    assert OutboxMessage.objects.get(key="k2").state == OutboxMessage.SENT and len(mail.outbox) == 1


def test_a_message_is_queued_in_the_transaction_of_its_event(api, telegram):
    from django.db import transaction

    a = apply(make_tournament(), "Игрок 01", chat=1501)
    with pytest.raises(RuntimeError), transaction.atomic():
        Application.objects.filter(pk=a.pk).update(state="confirmed")
        application_state_changed.send(sender=Application, application=a, old="submitted", new="confirmed")
        assert OutboxMessage.objects.count() == 1
        raise RuntimeError("the state's change failed after the message was queued")
    assert not OutboxMessage.objects.exists()  # no message of a change that did not happen
    drain(outbox.Sender(api))
    assert telegram.to(1501) == []
