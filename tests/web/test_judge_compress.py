"""The judge's page's files gzip-compressed (issue 44's speed line): the same bytes once decompressed,
only for a client that accepts gzip, their own ETag and a 304; the page with the token is not."""

from __future__ import annotations

import gzip

from sheets_sync.web.judge.compress import accepts_gzip
from sheets_sync.web.judge.pages import JUDGE_ASSETS


def test_the_files_go_gzip_compressed_to_who_accepts_it(client, rf):
    plain = client.get("/assets/judge/judge.js")
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    assert b"".join(plain.streaming_content) == (JUDGE_ASSETS / "judge.js").read_bytes()
    for name in ("judge.js", "judge.css", "vendor/htm-preact.js", "game.js"):
        packed = client.get(f"/assets/judge/{name}", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed["Content-Encoding"] == "gzip" and packed["Vary"] == "Accept-Encoding"
        assert gzip.decompress(packed.content) == (JUDGE_ASSETS / name).read_bytes()
        assert len(packed.content) < (JUDGE_ASSETS / name).stat().st_size / 2
        again = client.get(f"/assets/judge/{name}", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
        assert again.status_code == 304
        assert packed["ETag"] != client.get(f"/assets/judge/{name}")["ETag"]  # another representation
    worker = client.get("/j/sw.js", HTTP_ACCEPT_ENCODING="gzip")
    assert worker["Content-Encoding"] == "gzip" and worker["Service-Worker-Allowed"] == "/j/"
    assert client.get("/j/manifest.webmanifest", HTTP_ACCEPT_ENCODING="gzip")["Content-Type"] == \
        "application/manifest+json"
    assert accepts_gzip(rf.get("/", HTTP_ACCEPT_ENCODING="br;q=1.0, gzip;q=0.8"))
    assert not accepts_gzip(rf.get("/", HTTP_ACCEPT_ENCODING="gzip;q=0, br"))
    assert not accepts_gzip(rf.get("/"))
