"""Proof that a sheet is the organizer's before the server takes it: a one-time code read back.

Anyone may share any sheet with the service account, so sharing proves nothing about who asks.
The page shows the signed-in organizer a code of their own (``SS-7KQ2-9XMD``); only someone who
can edit the sheet can type it into it. :func:`check_claim` reads the sheet as the service account
and looks for *this* claim's code: another person's code never proves yours, a code expires after
24 hours, and a sheet already registered cannot be claimed again (its owner invites co-organizers).
A sheet shared with the service as «Viewer» is refused too (one Drive call tells it): the
service could read the code but not write the standings.

Both steps are limited per organizer (:mod:`sheets_sync.web.throttle`, shared by every web
process): new codes (:data:`~sheets_sync.web.throttle.CLAIM_CODES` an hour — a live code shown
again is no new one) and checks (:data:`~sheets_sync.web.throttle.CHECK_PAUSE` seconds apart: each
costs the service account Sheets reads).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.errors import SheetsSyncError
from scoring.parse.grid import find_tab
from scoring.parse.settings import CLAIM_CODE_ALPHABET, read_settings
from sheets_sync.backends.base import BackendError, PermissionDenied, WorkbookNotFound
from sheets_sync.render.templates import slug as slug_of
from sheets_sync.web import throttle
from sheets_sync.web.limits import fitted
from sheets_sync.web.refusals import said
from sheets_sync.web.models import Claim, Membership, ServiceAccount, Tournament
from sheets_sync.web.shares import edit_access
from sheets_sync.web.words import word
from sheets_sync.web.workbooks import open_google_backend

__all__ = ["CODE_LIFETIME", "CHECK_PAUSE", "ClaimRefused", "new_code", "claim_for", "has_tournament_tab", "check_claim", "register", "unique_slug",
           "already_registered"]

CODE_LIFETIME = timedelta(hours=24)
CHECK_PAUSE = throttle.CHECK_PAUSE
TOURNAMENT_TAB, FIRST_TAB = "tournament", "first"


class ClaimRefused(Exception):
    """Why a sheet cannot be taken; ``key`` names the organizer's words (wording/accounts.py)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values

    def said(self, lang: str) -> str:
        """The refusal in ``lang`` (a ``wait`` in seconds said as «5 секунд», «20 minutes»)."""
        values = {k: throttle.wait_words(v, lang) if k == "wait" else v for k, v in self.values.items()}
        values = {k: said(v, lang) if isinstance(v, SheetsSyncError) else v for k, v in values.items()}
        return word(self.key, lang, **values)  # a backend's error inside it in the page's words too


def new_code() -> str:
    pick = lambda: "".join(secrets.choice(CLAIM_CODE_ALPHABET) for _ in range(4))  # noqa: E731
    return f"SS-{pick()}-{pick()}"


def already_registered(spreadsheet_id: str) -> bool:
    return Tournament.objects.filter(spreadsheet_id=spreadsheet_id).exists()


def has_tournament_tab(spreadsheet_id: str, account: ServiceAccount) -> None:
    """The sheet is shared with the service and has a «Турнир» tab, or :class:`ClaimRefused` says what
    to do first (issue 43 §6: no code is handed out for a sheet it could never prove). One metadata
    request; a failure that says nothing of the sheet (Google busy) lets the code through — the
    check tells later."""
    try:
        backend = open_google_backend(spreadsheet_id, account)
    except BackendError:  # the server's own key (missing, refused): not the organizer's to fix here
        return
    try:
        titles = backend.tab_titles()
    except PermissionDenied:
        raise ClaimRefused("claim.share_first", email=account.email) from None
    except WorkbookNotFound:
        raise ClaimRefused("claim.share_first", email=account.email) from None
    except BackendError:
        return
    finally:
        backend.close()
    if find_tab(dict.fromkeys(titles), "tournament") is None:
        raise ClaimRefused("claim.no_tournament_tab")


def claim_for(user, spreadsheet_id: str, account: ServiceAccount, *, before_new=None) -> Claim:
    """This organizer's live code for the sheet (the same one on a second visit), or a new one;
    ``before_new()`` is called before a new one is made (it may refuse: :func:`has_tournament_tab`)."""
    if already_registered(spreadsheet_id):
        raise ClaimRefused("claim.taken")
    live = (Claim.objects.filter(user=user, spreadsheet_id=spreadsheet_id, proved_at__isnull=True,
                                 created_at__gte=timezone.now() - CODE_LIFETIME).order_by("-created_at").first())
    if live is not None:
        return live
    wait = throttle.take(throttle.CLAIM_CODES, user.pk)
    if wait:
        raise ClaimRefused("claim.too_many_codes", wait=wait)
    if before_new is not None:  # after the limit of new codes: the reads it costs are bounded by it
        before_new()
    return Claim.objects.create(user=user, spreadsheet_id=spreadsheet_id, account=account, code=new_code())


def _cells(grid) -> list[str]:
    return [v.strip().upper() for row in grid for v in row if isinstance(v, str)]


def check_claim(claim: Claim, *, tab: str = TOURNAMENT_TAB) -> tuple[str, object]:
    """Read the sheet and find the claim's code in its Tournament tab (``tab="first"``: its first
    tab, for an empty sheet); (the workbook's name, the snapshot) or :class:`ClaimRefused`."""
    if claim.created_at < timezone.now() - CODE_LIFETIME:
        raise ClaimRefused("claim.expired")
    if already_registered(claim.spreadsheet_id):
        raise ClaimRefused("claim.taken")
    wait = throttle.take(throttle.CLAIM_CHECKS, claim.user_id)
    if wait:
        raise ClaimRefused("claim.too_fast", wait=wait)  # a held-down button must not spend the quota
    backend = open_google_backend(claim.spreadsheet_id, claim.account)
    try:
        snapshot = backend.read()
        # the spreadsheet's own title, from the metadata the read just loaded (no request more)
        file_title = backend._meta.title if backend._meta is not None else ""  # noqa: SLF001
    except PermissionDenied:
        raise ClaimRefused("claim.not_shared", email=claim.account.email) from None
    except WorkbookNotFound:
        raise ClaimRefused("claim.not_found", email=claim.account.email) from None
    except BackendError as exc:
        raise ClaimRefused("claim.unreadable", reason=exc) from None  # said in the page's language
    finally:
        backend.close()
    if edit_access(claim.account, claim.spreadsheet_id) is False:  # one Drive call; unknown: let the sync tell
        raise ClaimRefused("claim.view_only", email=claim.account.email)
    name = find_tab(snapshot.tabs, "tournament") if tab == TOURNAMENT_TAB else (snapshot.order or (None,))[0]
    if name is None:
        raise ClaimRefused("claim.no_tournament_tab")
    if claim.code.upper() not in _cells(snapshot.tabs[name]):
        raise ClaimRefused("claim.code_missing", code=claim.code, tab=name)
    # the name the public site will show («Название» of the Tournament tab), else the file's title
    named = read_settings(snapshot.tabs).name.strip() if tab == TOURNAMENT_TAB else ""
    return named or file_title, snapshot


def unique_slug(name: str) -> str:
    base = slug_of(name or "tournament", limit=60)
    candidate, n = base, 1
    while Tournament.objects.filter(slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def register(user, *, spreadsheet_id: str, account: ServiceAccount, title: str, kind: str = Tournament.TOURNAMENT,
             language: str = "ru") -> Tournament:
    """The tournament, owned by ``user``; :class:`ClaimRefused` when somebody registered it first."""
    with transaction.atomic():
        if already_registered(spreadsheet_id):
            raise ClaimRefused("claim.taken")
        for _ in range(5):
            try:
                with transaction.atomic():
                    tournament = Tournament.objects.create(
                        slug=unique_slug(title), title=fitted(Tournament, "title", title), kind=kind, language=language,
                        source=Tournament.GOOGLE, spreadsheet_id=spreadsheet_id, account=account,
                        hook_secret=secrets.token_urlsafe(24))
                break
            except IntegrityError:  # two sheets of one name registered at the same moment
                continue
        else:
            raise ClaimRefused("claim.unreadable", reason="slug")
        Membership.objects.create(user=user, tournament=tournament, role=Membership.OWNER)
    return tournament
