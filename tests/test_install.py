"""sheets-sync installs like a normal Python tool: a wheel built from the sources works outside the checkout.

The slow test builds the wheel with pip from a copy of the files a clone has, installs it
into a fresh virtual environment in a temporary folder (its dependencies from the package
index, as ``pip install .`` or ``pipx install .`` would), and runs the installed
``sheets-sync`` there: ``init``, ``draw`` and ``sync`` on a players CSV, ``sync`` on the
example workbook, every shipped preset, a club season under an example scheme named by id
(``--preset club-season``), and a user mistake.  The fast tests check the
packaging configuration itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sheets_sync.example import EXAMPLE_PATH

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "scoring", "sheets_sync", "config", "templates", "schemas")


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def test_every_package_of_the_checkout_is_in_the_wheel():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("scoring", "sheets_sync")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def test_presets_templates_and_schemas_are_shipped_inside_the_package():
    tool = _pyproject()["tool"]["setuptools"]
    assert tool["package-dir"] == {"sheets_sync.config": "config", "sheets_sync.templates": "templates",
                                   "sheets_sync.schemas": "schemas"}
    data = tool["package-data"]
    assert data["sheets_sync.config"] == ["*.toml"]
    # the example schemes travel too: --preset club-season from an installed wheel
    assert data["sheets_sync.config.examples"] == ["*.toml"] and "sheets_sync.config.examples" in tool["packages"]
    assert {p.suffix for p in (ROOT / "config" / "examples").iterdir()} == {".toml"}
    assert data["sheets_sync.schemas"] == ["*.json"] and "sheets_sync.schemas" in tool["packages"]
    assert {p.suffix for p in (ROOT / "schemas").iterdir()} == {".json"}
    shipped = {p.suffix for p in (ROOT / "templates").rglob("*") if p.is_file()}
    patterns = {pattern for key, patterns in data.items() if key.startswith("sheets_sync.templates")
                for pattern in patterns}
    assert {f"*{suffix}" for suffix in shipped} <= patterns
    sub = {".".join(("sheets_sync", *p.relative_to(ROOT).parts)) for p in (ROOT / "templates").iterdir() if p.is_dir()}
    assert sub <= set(tool["packages"])


def test_the_licence_is_an_spdx_expression():
    project = _pyproject()["project"]
    assert project["license"] == "MIT"  # not the deprecated { text = "MIT" } table
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stdout + done.stderr
    return done


@pytest.mark.slow
def test_a_built_wheel_installs_into_a_fresh_venv_and_runs_outside_the_checkout(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(ROOT / name, src / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)], cwd=tmp_path, env=env)
    (wheel,) = dist.glob("sheets_sync-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path, env=env)
    tool = str(bin_dir / "sheets-sync")

    work = tmp_path / "work"
    work.mkdir()
    where = _run([str(bin_dir / "python"), "-c", "import sheets_sync, sheets_sync.presets as p, sheets_sync.resources as r; "
                  "print(sheets_sync.__file__); print(p.CONFIG_DIR); "
                  "print(r.shipped('schemas') / 'mwt-game.schema.json')"], cwd=work, env=env).stdout.split()
    assert all(str(venv) in line and str(ROOT) not in line for line in where), where
    assert Path(where[-1]).is_file()

    (work / "players.csv").write_text("Игрок;Клуб\n" + "\n".join(f"Игрок {i:02d};Клуб {i % 4}" for i in range(30)),
                                      encoding="utf-8")
    for preset in ("gmo-2016", "fiim-2019", "fiim-2023"):
        _run([tool, "init", f"{preset}.xlsx", "--players", "players.csv", "--preset", preset], cwd=work, env=env)
    # the README's club season, its scheme by id: the examples travel in the wheel
    _run([tool, "init", "club.xlsx", "--season", "--players", "players.csv", "--preset", "club-season"], cwd=work, env=env)
    season = work / "season"
    season.mkdir()
    _run([tool, "sync", "../club.xlsx", "--out", "."], cwd=season, env=env)
    assert json.loads((season / "standings.json").read_text(encoding="utf-8"))["preset"]["id"] == "club-season"
    _run([tool, "draw", "gmo-2016.xlsx", "--seed", "2", "--time-limit", "5"], cwd=work, env=env)
    _run([tool, "sync", "gmo-2016.xlsx"], cwd=work, env=env)
    assert json.loads((work / "gmo-2016.sheets-sync" / "standings.json").read_text(encoding="utf-8"))["preset"][
        "id"] == "gmo-2016"

    example = tmp_path / "example"
    example.mkdir()
    shutil.copyfile(EXAMPLE_PATH, example / "cup.xlsx")
    _run([tool, "sync", "cup.xlsx"], cwd=example, env=env)
    outputs = example / "cup.sheets-sync"  # the workbook's own output folder
    doc = json.loads((outputs / "standings.json").read_text(encoding="utf-8"))
    assert doc["games_counted"] == 38
    assert (outputs / "site" / "index.html").is_file() and (outputs / "vk-post.png").is_file()

    # a mistake is a message and exit 2 from the installed tool too
    mistake = subprocess.run([tool, "sync", str(work)], cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert mistake.returncode == 2 and "Traceback" not in mistake.stdout + mistake.stderr
    assert "is a folder" in mistake.stderr or "это папка" in mistake.stderr
