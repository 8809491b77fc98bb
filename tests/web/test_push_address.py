"""The push snippet's address (issue 43 §4): Google runs the snippet on its own servers, so an
address of this computer or of the club's network is one it never reaches. The snippet takes the
server's public address (``SHEETS_SYNC_PUBLIC_URL``) when it is set; without one, a loopback or
private address gets a plain warning beside the snippet saying Google cannot reach it and what to
set. The snippet's comments are in the page's language.

Before: ``SHEETS_SYNC_URL = 'http://127.0.0.1:…'`` silently, its comments in English on a Russian page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets_sync.keeper.address import unreachable_host
from sheets_sync.web.models import Tournament
from tests.google_support import fake_server, sa_key  # noqa: F401 - fixtures
from tests.web.organizer_support import google_account, member, organizer, private_data, signed_in  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(organizer, google_account) -> Tournament:
    return member(Tournament.objects.create(slug="gsheet", spreadsheet_id="sheet-1", account=google_account), organizer)


def _push_block(client, host: str, lang: str = "ru") -> str:
    html = client.get(reverse("tournament", args=["gsheet"]) + f"?lang={lang}", HTTP_HOST=host).content.decode()
    return re.search(r'<section class="push" id="push">.*?</section>', html, re.S).group(0)


def _comments(block: str) -> list[str]:
    code = re.search(r"<code[^>]*>(.*?)</code>", block, re.S).group(1)
    return [line.split("//", 1)[1].strip() for line in code.splitlines() if "//" in line and "http" not in line]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "192.168.1.20:8000", "localhost:8000"])
def test_an_address_google_cannot_reach_is_said_beside_the_snippet_with_what_to_set(signed_in, sheet, settings,
                                                                                   monkeypatch, host):
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.delenv("SHEETS_SYNC_PUBLIC_URL", raising=False)
    block = _push_block(signed_in, host)
    assert f"var SHEETS_SYNC_URL = 'http://{host}/hook/sheet-1/';" in block
    warning = re.sub(r"<[^>]+>", "", re.search(r'id="push-unreachable"[^>]*>(.*?)</p>', block, re.S).group(1))
    assert f"Google не сможет достучаться до этого адреса: {host.split(':')[0]} — адрес внутри вашей сети" in warning
    assert "SHEETS_SYNC_PUBLIC_URL" in warning


def test_the_public_address_is_what_the_snippet_gives_google(signed_in, sheet, settings, monkeypatch):
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setenv("SHEETS_SYNC_PUBLIC_URL", "https://sync.example.org/")
    block = _push_block(signed_in, "127.0.0.1:8000")
    assert "var SHEETS_SYNC_URL = 'https://sync.example.org/hook/sheet-1/';" in block
    assert 'id="push-unreachable"' not in block and "SHEETS_SYNC_PUBLIC_URL" not in block


@pytest.mark.parametrize("lang, said, not_said", [
    ("ru", ["сообщает серверу о правке таблицы", "Запустите installTrigger один раз"], "tells the server"),
    ("en", ["tells the server at once", "Run installTrigger once"], "сообщает"),
])
def test_the_snippets_comments_are_in_the_pages_language(signed_in, sheet, monkeypatch, lang, said, not_said):
    monkeypatch.setenv("SHEETS_SYNC_PUBLIC_URL", "https://sync.example.org")
    comments = " ".join(_comments(_push_block(signed_in, "testserver", lang)))
    assert all(s in comments for s in said) and not_said not in comments, comments
    if lang == "ru":  # not one English comment left
        assert not re.search(r"\b(the|and|once|every|trigger fires)\b", comments.replace("installTrigger", ""))


@pytest.mark.parametrize("url, host", [
    ("http://127.0.0.1:8000/hook/x/", "127.0.0.1"), ("http://[::1]:8000/", "::1"), ("http://10.1.2.3/", "10.1.2.3"),
    ("http://172.16.0.9/", "172.16.0.9"), ("http://192.168.0.2:8000/", "192.168.0.2"), ("http://100.64.0.1/", "100.64.0.1"),
    ("http://169.254.1.1/", "169.254.1.1"), ("http://localhost:8000/", "localhost"), ("http://clubpc:8000/", "clubpc"),
    ("http://pi.local/", "pi.local"), ("https://sync.example.org/hook/", ""), ("http://8.8.8.8/", ""),
])
def test_which_addresses_google_cannot_reach(url, host):
    assert unreachable_host(url) == host
