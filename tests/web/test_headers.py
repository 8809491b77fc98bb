"""The security headers of every page (issue 42 §8): a Content-Security-Policy everywhere — the
public site and the exports run no script at all (``script-src 'none'``), the organizer's pages
only the app's own files (no inline script, no inline handler, no inline style: the crawl of
tests/web/test_every_page.py checks every page for those) — ``Referrer-Policy``,
``X-Content-Type-Options``, and HSTS behind HTTPS (``SHEETS_SYNC_HTTPS=1``; a real server behind a
trusted proxy saying ``X-Forwarded-Proto: https``)."""

from __future__ import annotations

import urllib.request

import pytest
from django.urls import reverse

from sheets_sync.web import jobs
from tests.web.organizer_support import excel_tournament, organizer, private_data, signed_in  # noqa: F401 - fixtures
from tests.web.test_server_command import start, stop

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, set[str]]:
    header = response["Content-Security-Policy"]
    parts = (p.split() for p in header.split(";") if p.strip())
    return {p[0]: set(p[1:]) for p in parts}


def test_every_kind_of_page_has_its_policy_and_the_common_headers(signed_in, excel_tournament, client):
    signed_in.post(reverse("press", args=["gmo", "sync"]))
    signed_in.post(reverse("press", args=["gmo", "protocols"]), {"round": 1})
    export = jobs.Job.objects.get(action="protocols").result["files"][0]
    app_pages = [signed_in.get(reverse("tournament", args=["gmo"])), signed_in.get(reverse("tournaments")),
                 client.get(reverse("login")), client.get("/no/such/page/")]
    no_scripts = [client.get("/t/gmo/"), client.get("/t/gmo/style.css"), client.get("/t/nobody/"),
                  signed_in.get(reverse("download", args=["gmo", export]))]
    for response in app_pages:
        csp = policy(response)
        assert csp["script-src"] == {"'self'"} and csp["style-src"] == {"'self'"}, csp  # no 'unsafe-inline'
        assert csp["default-src"] == {"'self'"} and csp["frame-ancestors"] == {"'none'"}
        assert csp["object-src"] == {"'none'"} and csp["base-uri"] == {"'none'"} and csp["form-action"] == {"'self'"}
    for response in no_scripts:
        csp = policy(response)
        assert csp["script-src"] == {"'none'"} and csp["default-src"] == {"'none'"}, csp
        assert csp["frame-ancestors"] == {"'none'"} and csp["form-action"] == {"'none'"}
    for response in app_pages + no_scripts:
        assert response["Referrer-Policy"] == "same-origin" and response["X-Content-Type-Options"] == "nosniff"
        assert "Strict-Transport-Security" not in response  # plain HTTP: no HSTS
    assert "'unsafe-inline'" in policy(no_scripts[-1])["style-src"]  # a printable page carries its own styles


def test_the_apps_own_scripts_and_styles_are_served_as_files(client):
    for name, kind in (("web.css", "text/css"), ("poll.js", "text/javascript"), ("confirm.js", "text/javascript")):
        response = client.get(reverse("asset", args=[name]))
        assert response.status_code == 200 and response["Content-Type"].startswith(kind), name
    assert client.get("/assets/../web/settings.py").status_code == 404 and client.get("/assets/..%2Fbase.html").status_code == 404
    assert client.get(reverse("asset", args=["nothing.js"])).status_code == 404


def header_of(url: str, **headers: str) -> dict[str, str]:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:
        return dict(response.headers)


def test_hsts_behind_https_only(tmp_path):
    proc, url = start("server", "--data", str(tmp_path / "data"), "--port", "0", "--no-worker",
                      env={"SHEETS_SYNC_HTTPS": "1", "SHEETS_SYNC_TRUSTED_PROXY": "127.0.0.1"})
    try:
        behind_https = header_of(url + "login/", **{"X-Forwarded-Proto": "https"})
        plain = header_of(url + "login/")
    finally:
        stop(proc)
    assert behind_https["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "Strict-Transport-Security" not in plain and "Content-Security-Policy" in plain
