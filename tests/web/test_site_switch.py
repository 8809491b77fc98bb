"""The public site of a tournament changes all at once (issue 42 §7).

Found on main: a sync writes the site's files one by one into the folder ``/t/<slug>/`` serves, so
a full disk mid-sync left the public site half old, half new. Now the sync's folder stays
incremental and the server serves a version: after a sync, a new version folder of hard links,
then one atomic switch of a pointer. The disk fills mid-sync here twice: injected into the writer
(``ENOSPC`` after a few pages, anywhere), and for real on a tiny tmpfs when this machine lets the
test mount one. Either way every page served is the old one, the organizer's page says so in
Russian, and the next sync switches every page at once."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess

import openpyxl
import pytest
from django.urls import reverse

from sheets_sync import files
from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from tests.web.organizer_support import excel_tournament, organizer, private_data, signed_in  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

OLD, NEW = "German Mafia Open 2016", "Кубок нового имени"


def rename(path, name: str) -> None:
    """The workbook's «Название»: every page of the site carries it."""
    wb = openpyxl.load_workbook(path)
    wb["Турнир"]["B1"] = name
    wb.save(path)


def served(client, tournament: Tournament) -> dict[str, bytes]:
    """Every page of the public site as /t/<slug>/ serves it (the site's own list of files)."""
    root = jobs.site_dir(tournament)
    pages = {}
    for path in sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()):
        response = client.get(f"/t/{tournament.slug}/{path}")
        assert response.status_code == 200, path
        pages[path] = b"".join(response.streaming_content)
    return pages


def sync(client, tournament: Tournament) -> Job:
    client.post(reverse("press", args=[tournament.slug, "sync"]))
    return Job.objects.filter(tournament=tournament, action="sync").order_by("-pk").first()


class FullDisk:
    """The writer answers ENOSPC from the ``after``-th page of the site on (a disk that filled up)."""

    def __init__(self, after: int) -> None:
        self.after, self.written = after, 0
        self.real = files._write_new

    def __call__(self, path, data, durable):
        if "site" in path.parts:
            self.written += 1
            if self.written > self.after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return self.real(path, data, durable)


def test_a_full_disk_mid_sync_leaves_the_old_site_whole_and_the_page_says_so(signed_in, excel_tournament,
                                                                              monkeypatch):
    assert sync(signed_in, excel_tournament).status == Job.DONE
    before = served(signed_in, excel_tournament)
    assert sum(OLD.encode() in page for page in before.values()) > 20  # the name is on the pages
    rename(excel_tournament.path, NEW)
    disk = FullDisk(after=5)
    monkeypatch.setattr(files, "_write_new", disk)
    failed = sync(signed_in, excel_tournament)
    assert failed.status == Job.FAILED and disk.written > 5  # five new pages were written, then the disk was full
    assert served(signed_in, excel_tournament) == before  # every page the old one: none of the five shows
    page = signed_in.get(reverse("tournament", args=[excel_tournament.slug])).content.decode()
    assert "на диске сервера закончилось место" in page and "прежнюю версию сайта, целиком" in page
    assert "--out" not in page

    monkeypatch.setattr(files, "_write_new", disk.real)  # space freed
    assert sync(signed_in, excel_tournament).status == Job.DONE
    after = served(signed_in, excel_tournament)
    index = after["index.html"].decode()
    assert NEW in index and OLD not in index
    assert all(OLD.encode() not in page for page in after.values())  # all at once


def test_the_served_version_is_hard_links_of_the_syncs_folder_and_old_versions_go(signed_in, excel_tournament):
    for name in ("Первое имя", "Второе имя", "Третье имя"):
        rename(excel_tournament.path, name)
        assert sync(signed_in, excel_tournament).status == Job.DONE
    out = jobs.out_dir(excel_tournament)
    current = jobs.site_dir(excel_tournament)
    assert current.parent == out / "versions" and current != out / "site"
    assert len(list((out / "versions").iterdir())) <= 2  # the one served and the one before (a request may be reading it)
    for page in ("index.html", "style.css"):
        assert os.path.samefile(current / page, out / "site" / page)  # a link, not a copy: a version costs no space
    index = b"".join(signed_in.get(f"/t/{excel_tournament.slug}/").streaming_content).decode()
    assert "Третье имя" in index and "Второе имя" not in index


@pytest.fixture
def tiny_disk(tmp_path, settings):
    """DATA on a tmpfs of its own, whose size the test sets (root only: else skipped)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    settings.DATA_DIR = mount
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def resize(mount, size_kb: int) -> None:
    subprocess.run(["mount", "-o", f"remount,size={size_kb}k", str(mount)], check=True)


def test_a_real_full_disk_leaves_the_old_site_whole(signed_in, excel_tournament, tiny_disk):
    assert sync(signed_in, excel_tournament).status == Job.DONE
    before = served(signed_in, excel_tournament)
    used = shutil.disk_usage(tiny_disk).used // 1024
    # room for standings.json and some pages, not for a new site beside the one served (before versions the
    # sync replaced the pages one by one, each freeing the old one: it never filled this disk at all)
    resize(tiny_disk, used + 160)
    rename(excel_tournament.path, NEW)
    failed = sync(signed_in, excel_tournament)
    assert failed.status == Job.FAILED and "закончилось место" in failed.result["messages"]["ru"]
    assert served(signed_in, excel_tournament) == before
    resize(tiny_disk, 64 * 1024)
    assert sync(signed_in, excel_tournament).status == Job.DONE
    assert all(OLD.encode() not in page for page in served(signed_in, excel_tournament).values())
