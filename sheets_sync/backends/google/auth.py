"""Who we are to Google: service-account keys, a person's OAuth login, and advice about key files.

Nothing here ever puts the content of a key file into a message or a log: errors name the
file and the kind of problem only.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
from pathlib import Path
from typing import Any

import google.auth.exceptions
from google.auth.transport.requests import Request

from sheets_sync.backends.base import PermissionDenied
from sheets_sync.backends.google.http import RewritingSession

__all__ = ["SCOPES", "load_credentials", "resolve_credentials_path", "account_email", "key_file_warning", "config_dir"]

log = logging.getLogger(__name__)

SCOPES = (
    "https://www.googleapis.com/auth/spreadsheets",
    # only files this app created or was given: enough to share a spreadsheet made by `init`
    "https://www.googleapis.com/auth/drive.file",
)


def config_dir() -> Path:
    """Where a person's OAuth token is kept (``token.json``)."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "sheets-sync"
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / "sheets-sync"


def key_file_warning(path: Path) -> str | None:
    """Advice when a credentials file is readable by every user of this computer, else None."""
    if os.name != "posix":
        return None
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if mode & stat.S_IROTH:
        return (
            f"the credentials file {path} is readable by every user of this computer; "
            f"restrict it with: chmod 600 {path}"
        )
    return None


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o600)


def load_credentials(path: str | None, endpoint: str | None, warnings: list[str]) -> Any:
    """google-auth credentials from ``path``: a service-account key, an authorized-user file, or an
    OAuth client file (browser consent once); without a path, the token a person's consent left.
    Advice for the organizer (a world-readable key) is appended to ``warnings``."""
    from google.oauth2 import credentials as user_credentials
    from google.oauth2 import service_account

    token_path = config_dir() / "token.json"
    if not path:
        if token_path.exists():
            return user_credentials.Credentials.from_authorized_user_file(str(token_path), list(SCOPES))
        raise PermissionDenied(
            "no Google credentials: pass --credentials with a service-account key (JSON) or an OAuth "
            "client file, or set GOOGLE_APPLICATION_CREDENTIALS"
        )
    file = Path(path).expanduser()
    try:
        info = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PermissionDenied(f"credentials file not found: {file}") from None
    except (OSError, ValueError) as exc:
        raise PermissionDenied(f"cannot read credentials file {file}: {type(exc).__name__}") from None
    advice = key_file_warning(file)
    if advice:
        log.warning(advice)
        warnings.append(advice)
    if not isinstance(info, dict):
        raise PermissionDenied(f"{file} is not a Google credentials file")
    kind = info.get("type")
    try:
        if kind == "service_account":
            return service_account.Credentials.from_service_account_info(info, scopes=list(SCOPES))
        if kind == "authorized_user":
            return user_credentials.Credentials.from_authorized_user_info(info, list(SCOPES))
        if "installed" in info or "web" in info:
            return _installed_app_credentials(file, token_path, endpoint)
    except (ValueError, KeyError) as exc:
        # never echo the file's content: the exception text could quote the key
        raise PermissionDenied(f"{file} is not a valid Google credentials file ({type(exc).__name__})") from None
    raise PermissionDenied(
        f"{file} is neither a service-account key nor an OAuth client file (type={kind!r})"
    )


def _installed_app_credentials(client_file: Path, token_path: Path, endpoint: str | None) -> Any:
    """OAuth for a person's own Google account: browser consent once, token cached (0600)."""
    from google.oauth2 import credentials as user_credentials
    from google_auth_oauthlib.flow import InstalledAppFlow

    creds = None
    if token_path.exists():
        try:
            creds = user_credentials.Credentials.from_authorized_user_file(str(token_path), list(SCOPES))
        except ValueError:
            creds = None
    if creds is not None and creds.valid:
        return creds
    if creds is not None and creds.expired and creds.refresh_token:
        try:
            creds.refresh(Request(RewritingSession(endpoint)))
        except google.auth.exceptions.RefreshError:
            creds = None
    if creds is None or not creds.valid:
        flow = InstalledAppFlow.from_client_secrets_file(str(client_file), scopes=list(SCOPES))
        creds = flow.run_local_server(port=0, open_browser=True)
    _write_private(token_path, creds.to_json())
    return creds


def resolve_credentials_path(credentials: str | None) -> str | None:
    """``credentials``, else ``$GOOGLE_APPLICATION_CREDENTIALS``; None: a person's cached login."""
    return credentials or os.environ.get("GOOGLE_APPLICATION_CREDENTIALS") or None


def account_email(credentials: Any) -> str | None:
    """The service account's e-mail (None for a person's own OAuth login)."""
    return getattr(credentials, "service_account_email", None)
