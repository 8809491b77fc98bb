"""A co-organizer's access to the Google sheet (issue 43 §1): accepting an invitation shares the
sheet with them as an editor (Drive) and adds their e-mail to «Организаторы» on the Tournament tab
(the editors of the sync's protected tabs); removing them undoes both.

Both are done by the job :data:`ACCESS` (:func:`request_access`), never in the web request: the
Drive calls and the Tournament tab's read and write go through the service account's budget, and a
job whose budget is spent for the minute waits in the queue (:class:`~sheets_sync.web.jobs.TryLater`)
— the page does not. The job is leased (it writes the workbook, as a sync does) and safe to run
again: each step looks before it changes (already shared, already listed), so a second run changes
nothing; the Drive step, once done, is kept in the job's params (``done``), so a run the budget sent
back to the queue, or a worker's crash, does not take its own share for one from before the
invitation when it runs again.

Removing undoes what accepting did, no more: a share or a listing that was there before the
invitation (the accept job says ``already``) stays. Where the service may not share (it is not an
editor, or the owner turned off «Editors can change permissions and share») or Google refuses, the
job says so and the members page tells the owner exactly what to do by hand (:func:`access_lines`).
An .xlsx has no per-person rights: nothing to share."""

from __future__ import annotations

import logging

from scoring.parse.grid import find_tab
from scoring.parse.settings import read_settings
from sheets_sync.backends.base import Patch, PermissionDenied, WorkbookChanged
from sheets_sync.keeper import sharing
from sheets_sync.keeper.budget import BudgetExhausted
from sheets_sync.web import jobs
from sheets_sync.web.models import Job, Tournament
from sheets_sync.web.words import word
from sheets_sync.workbook.organizers import ADDED, ALREADY, NO_TAB, REMOVED, organizers_edit

__all__ = ["ACCESS", "request_access", "run_access", "access_lines", "member_access", "own_access", "removal_notices", "CREATED", "BY_HAND",
           "UNSHARED", "KEPT", "ABSENT", "FAILED"]

log = logging.getLogger("sheets_sync.web.sheet_access")

ACCESS = "organizer_access"
# what the Drive step did
CREATED, BY_HAND, UNSHARED, KEPT, ABSENT, FAILED = "created", "by-hand", "unshared", "kept", "absent", "failed"
REFUSED = "refused"  # the Tournament tab's write was refused (the service is no editor)
SHARE_ALREADY = "already"
WRITES_TRIED = 3  # the Tournament tab changed between our read and write: read again, this many times


def request_access(tournament: Tournament, email: str, *, add: bool, user=None, recheck: bool = False) -> Job | None:
    """Queue the share (``add``) or its undoing for ``email``; None for a workbook without per-person
    rights (an .xlsx). ``recheck``: the owner says they shared by hand — the same job looks again."""
    if tournament.source != Tournament.GOOGLE or tournament.account is None or not tournament.spreadsheet_id:
        return None
    params = {"email": email.strip().lower(), "add": add, **({"recheck": True} if recheck else {})}
    return jobs.enqueue(tournament, ACCESS, params=params, user=user)


def _status(exc: Exception) -> int | None:
    return getattr(getattr(exc, "response", None), "status_code", None)


def _share(http, spreadsheet_id: str, email: str) -> dict:
    caps = sharing.capabilities(http, spreadsheet_id)
    try:
        found = sharing.permission_of(http, spreadsheet_id, email)
    except Exception as exc:  # noqa: BLE001 - a viewer may not list: then it may not share either
        if _status(exc) not in (403, 404):
            raise
        found = None
    if found is not None and found.get("role") in sharing.EDITOR_ROLES:
        return {"shared": SHARE_ALREADY}
    if not caps.can_share:
        return {"shared": BY_HAND, "why": "no-share"}
    try:
        sharing.share_as_editor(http, spreadsheet_id, email)
    except Exception as exc:  # noqa: BLE001 - Google's refusal is the owner's to act on, by hand
        status = _status(exc)
        if status is None or status >= 500 or status == 429:
            raise
        log.info("Drive refused to share %s with %s: %s", spreadsheet_id, email, status)
        return {"shared": BY_HAND, "why": "refused", "status": status}
    return {"shared": CREATED}


def _unshare(http, spreadsheet_id: str, email: str, before: dict | None) -> dict:
    if before is not None and before.get("shared") == SHARE_ALREADY:
        return {"shared": KEPT}  # shared before the invitation: not ours to take back
    caps = sharing.capabilities(http, spreadsheet_id)
    if not caps.can_share:
        return {"shared": BY_HAND, "why": "no-share"}
    found = sharing.permission_of(http, spreadsheet_id, email)
    if found is None:
        return {"shared": ABSENT}
    if found.get("role") == "owner":
        return {"shared": KEPT}
    try:
        sharing.unshare(http, spreadsheet_id, str(found["id"]))
    except Exception as exc:  # noqa: BLE001 - as for sharing
        status = _status(exc)
        if status is None or status >= 500 or status == 429:
            raise
        return {"shared": BY_HAND, "why": "refused", "status": status}
    return {"shared": UNSHARED}


def _list(tournament: Tournament, email: str, add: bool, before: dict | None) -> dict:
    """Add ``email`` to «Организаторы» or take it out: one read, one write of one cell."""
    from sheets_sync.web.workbooks import open_tournament_backend

    if not add and before is not None and before.get("listed") == ALREADY:
        return {"listed": KEPT}
    backend = open_tournament_backend(tournament)
    for attempt in range(WRITES_TRIED):
        snapshot = backend.read()
        edit = organizers_edit(snapshot.tabs, email, add=add, language=read_settings(snapshot.tabs).language)
        if edit.write is None:
            return {"listed": edit.outcome, "tab": find_tab(snapshot.tabs, "tournament") or ""}
        try:
            backend.apply(Patch(writes=(edit.write,)), base=snapshot)
        except WorkbookChanged:  # someone typed meanwhile: read again, never write over it
            if attempt + 1 == WRITES_TRIED:
                raise
            continue
        return {"listed": edit.outcome, "tab": edit.write.title, "cell": edit.cell}
    return {"listed": NO_TAB}  # not reached


def _accepted(tournament: Tournament, email: str) -> dict | None:
    """What the last finished share of ``email`` at an acceptance did (None: none on record — a
    co-organizer from before this job existed: removing takes both back). A check the owner asked
    for after sharing by hand (``recheck``) finds the share there, but it is no share from before."""
    done = Job.objects.filter(tournament=tournament, action=ACCESS, status=Job.DONE, params__email=email,
                              params__add=True).order_by("-pk")
    # in Python, not ``exclude(params__recheck=True)``: SQL's NULL for a missing key would drop every row
    job = next((j for j in done.iterator() if not j.params.get("recheck")), None)
    return dict(job.result) if job is not None else None


def _keep_progress(tournament: Tournament, params: dict, progress: dict) -> None:
    """Remember the steps done in the job's own params before it goes back to the queue: its next
    run must not take its own share for one from before the invitation (``already``)."""
    job_id = Tournament.objects.filter(pk=tournament.pk).values_list("lease_job_id", flat=True).first()
    if job_id is not None:  # a leased job holds the workbook's lease while it runs
        Job.objects.filter(pk=job_id, action=ACCESS).update(params={**params, "done": progress})


@jobs.runner(ACCESS, leased=True, again=True)
def run_access(tournament: Tournament, params: dict) -> dict:
    from sheets_sync.web.workbooks import account_http

    email, add = str(params["email"]), bool(params.get("add", True))
    before = None if add else _accepted(tournament, email)
    progress = dict(params.get("done") or {})  # the steps an earlier run of this job did
    try:
        if "shared" not in progress:
            http = account_http(tournament.account)
            try:
                progress.update(_share(http, tournament.spreadsheet_id, email) if add else
                                _unshare(http, tournament.spreadsheet_id, email, before))
            except BudgetExhausted:
                raise
            except Exception as exc:  # noqa: BLE001 - the cell is still worth writing; the page says what to do
                log.warning("%s: Drive share for %s failed: %s", tournament.slug, email, type(exc).__name__)
                progress["shared"] = FAILED
            _keep_progress(tournament, params, progress)  # a crash or a spent budget from here on redoes nothing
        if "listed" not in progress:
            try:
                progress.update(_list(tournament, email, add, before))
            except PermissionDenied:  # the service only reads the sheet: the cell is the owner's to type
                progress["listed"] = REFUSED
    except BudgetExhausted:  # the account's minute is spent: back to the queue, the steps done kept
        raise jobs.TryLater(jobs.BUDGET_AGAIN) from None
    if progress.get("listed") in (ADDED, REMOVED):
        jobs.request_sync(tournament, ACCESS)  # the protections follow «Организаторы»
    result = {"email": email, "add": add, **progress}
    result["lines"] = {lang: access_lines(result, lang) for lang in ("ru", "en")}
    return result


def _why(result: dict, lang: str) -> str:
    if result.get("why") == "refused":
        return word("access.why.refused", lang, status=result.get("status", ""))
    if result.get("shared") == FAILED:
        return word("access.why.failed", lang)
    return word("access.why.no.share", lang)


def access_lines(result: dict, lang: str) -> list[str]:
    """What one access job did, in the page's words (its page, the members page)."""
    email, add, shared, listed = result.get("email", ""), result.get("add", True), result.get("shared"), result.get("listed")
    lines = []
    if shared in (BY_HAND, FAILED):
        key = "access.by.hand" if add else "access.removed.by.hand"
        lines.append(word(key, lang, email=email, why=_why(result, lang)))
    else:
        key = {CREATED: "access.done.shared", SHARE_ALREADY: "access.done.already", UNSHARED: "access.done.unshared",
               KEPT: "access.done.kept"}.get(shared)
        if key:
            lines.append(word(key, lang, email=email))
    tab, cell = result.get("tab", ""), result.get("cell", "")
    key = {ADDED: "access.done.listed", ALREADY: "access.done.listed.already", REMOVED: "access.done.unlisted",
           KEPT: "access.done.unlisted.kept"}.get(listed)
    if key:
        lines.append(word(key, lang, email=email, tab=tab, cell=cell))
    elif listed in (NO_TAB, REFUSED) and add:
        lines.append(word("access.cell.by.hand", lang, email=email))
    return lines


def member_access(tournament: Tournament, email: str, lang: str) -> tuple[str, bool]:
    """A co-organizer's line on the members page: (what it says, whether the owner has to act)."""
    job = (Job.objects.filter(tournament=tournament, action=ACCESS, params__email=email, params__add=True)
           .order_by("-pk").first())
    if job is None:
        return "", False
    if job.status in (Job.QUEUED, Job.RUNNING):
        return word("access.pending", lang), False
    result = job.result or {}
    if job.status == Job.FAILED or result.get("shared") in (BY_HAND, FAILED):
        said = access_lines({**result, "email": email, "add": True,
                             "shared": result.get("shared") if job.status == Job.DONE else FAILED}, lang)
        cell = [line for line in said[1:] if result.get("listed") in (NO_TAB, REFUSED)]
        return " ".join(said[:1] + cell), True  # what to do; what the job did besides is on its page
    if result.get("listed") in (ADDED, ALREADY):
        return word("access.shared", lang, tab=result.get("tab") or "Турнир"), False
    return word("access.shared.only", lang), False


def own_access(tournament: Tournament, user, lang: str) -> str:
    """What a co-organizer's own tournament page says of their access to the sheet ("" once it is
    theirs, or when nothing is on record): being shared, or that the owner has to share it."""
    if tournament.source != Tournament.GOOGLE or not getattr(user, "is_authenticated", False):
        return ""
    email = (user.email or "").strip().lower()
    job = (Job.objects.filter(tournament=tournament, action=ACCESS, params__email=email, params__add=True)
           .order_by("-pk").first())
    if job is None:
        return ""
    if job.status in (Job.QUEUED, Job.RUNNING):
        return word("access.mine.pending", lang)
    if job.status == Job.FAILED or (job.result or {}).get("shared") in (BY_HAND, FAILED):
        return word("access.mine.by.hand", lang, email=email)
    return ""


def removal_notices(tournament: Tournament, members: set[str], lang: str, kept: int = 5) -> list[str]:
    """What the owner still has to do by hand for co-organizers removed lately (the last ``kept``)."""
    notices = []
    for job in (Job.objects.filter(tournament=tournament, action=ACCESS, params__add=False,
                                   status__in=(Job.DONE, Job.FAILED)).order_by("-pk")[:kept]):
        result = dict(job.result) if job.status == Job.DONE else {"shared": FAILED}
        result.update(email=job.params.get("email", ""), add=False)
        if result["email"] not in members and result.get("shared") in (BY_HAND, FAILED):
            notices.append(" ".join(access_lines(result, lang)[:1]))
    return notices
