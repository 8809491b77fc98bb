"""Real PostgreSQL and Redis servers for the tests of the server's scale-out mode, each private
to one test: a PostgreSQL cluster made by ``initdb`` in a temporary folder and a ``redis-server``
on a free port of 127.0.0.1, both stopped when the test ends.

PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres`` user (the
Debian package makes it) and its commands run through ``runuser``. Where the programs are
missing, the tests that need them skip with the reason (``.ci/system-deps.sh`` installs them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["free_port", "postgres_server", "redis_server"]

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def _pg_tool(name: str) -> str:
    for folder in PG_BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if not found:
        pytest.skip(f"PostgreSQL's {name} is not installed (.ci/system-deps.sh installs postgresql)")
    return found


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL cluster on a free port; yields its ``postgres://`` URL (database ``sheets``)."""
    initdb, pg_ctl, createdb = _pg_tool("initdb"), _pg_tool("pg_ctl"), _pg_tool("createdb")
    as_root = os.geteuid() == 0
    runas = ["runuser", "-u", "postgres", "--"] if as_root else []
    folder = Path(tempfile.mkdtemp(prefix="sheets-sync-pg-"))
    data = folder / "data"
    if as_root:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run([*runas, initdb, "-D", str(data), "-U", "sheets", "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, timeout=120, **quiet)
    subprocess.run([*runas, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60", "start",
                    "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"],
                   check=True, timeout=90, **quiet)
    try:
        subprocess.run([*runas, createdb, "-h", "127.0.0.1", "-p", str(port), "-U", "sheets", "sheets"],
                       check=True, timeout=60, **quiet)
        yield f"postgres://sheets@127.0.0.1:{port}/sheets"
    finally:
        subprocess.run([*runas, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], timeout=60, **quiet)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A ``redis-server`` of its own on a free port, nothing kept on disk; yields its ``redis://`` URL."""
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed (.ci/system-deps.sh installs it)")
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="sheets-sync-redis-"))
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, 30, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)
