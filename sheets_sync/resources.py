"""Where the shipped presets (``config/``) and templates (``templates/``) are.

In the repository they are top-level folders beside the packages.  A wheel carries them
inside the package, as ``sheets_sync/config`` and ``sheets_sync/templates`` (the
``package-dir`` mapping in ``pyproject.toml``), so ``pip install .``, ``pipx install .``
and an installed wheel find them without the checkout.  :func:`shipped` looks in the
installed package first (:mod:`importlib.resources`), then in the checkout (an editable
install, or running from a clone).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["shipped", "REPO_ROOT"]

# the checkout this module lives in, when it lives in one (editable install, a clone)
REPO_ROOT = Path(__file__).resolve().parent.parent


def shipped(name: str) -> Path:
    """The folder of shipped files ``name`` (``"config"`` or ``"templates"``)."""
    inside = files("sheets_sync").joinpath(name)
    if inside.is_dir():
        return Path(str(inside))
    return REPO_ROOT / name
