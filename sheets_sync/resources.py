"""Where the shipped presets (``config/``), templates (``templates/``) and JSON Schemas of the
outputs (``schemas/``) are.

In the repository they are top-level folders beside the packages.  A wheel carries them
inside the package, as ``sheets_sync/config``, ``sheets_sync/templates`` and
``sheets_sync/schemas`` (the ``package-dir`` mapping in ``pyproject.toml``), so ``pip install .``, ``pipx install .``
and an installed wheel find them without the checkout.  :func:`shipped` looks in the
installed package first (the folder beside this module: a wheel always installs as files),
then in the checkout (an editable install, or running from a clone).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["shipped", "REPO_ROOT"]

# the checkout this module lives in, when it lives in one (editable install, a clone)
PACKAGE = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE.parent


def shipped(name: str) -> Path:
    """The folder of shipped files ``name`` (``"config"``, ``"templates"`` or ``"schemas"``)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else REPO_ROOT / name
