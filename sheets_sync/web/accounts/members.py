"""A tournament's organizers: the owner invites co-organizers by e-mail, removes them, or
unregisters the tournament (the sheet itself is never touched).

An invitation names whom it is for: its link (shown to copy, and mailed; without a mail server the
letter reaches only the server's log, and the page says so: the owner passes the link on) is
accepted only by the account with that e-mail, within
:attr:`~sheets_sync.web.models.Invitation.LIFETIME` (7 days; the page and the letter say until
when), and once. Anyone else signed in is asked to sign in as that address (the page says which);
signed out, the page offers sign-in and sign-up, both of which come back to the invitation. A
forwarded or leaked link makes nobody else an organizer.

Accepting shares the Google sheet with the new co-organizer and adds them to «Организаторы»;
removing one takes both back — a job each (:mod:`sheets_sync.web.accounts.sheet_access`), whose
outcome (or what the owner must do by hand) the members page shows beside the person.
"""

from __future__ import annotations

import logging
import secrets
import smtplib

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods

from sheets_sync.web import throttle
from sheets_sync.web.access import is_owner, tournament_for
from sheets_sync.web.accounts.forms import normal_email
from sheets_sync.web.accounts.sheet_access import member_access, removal_notices, request_access
from sheets_sync.web.models import Invitation, Membership, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["members", "accept_invitation", "until_words", "mail_server"]

log = logging.getLogger("sheets_sync.web.members")
LOG_MAIL = "sheets_sync.web.mail.LogEmailBackend"  # the letters go to the server's log (no mail server)


class InviteForm(forms.Form):
    email = forms.EmailField(max_length=150)


def _invite(request: HttpRequest, tournament: Tournament, lang: str) -> Invitation | None:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, word("members.bad_email", lang))
        return None
    wait = throttle.take(throttle.INVITATIONS, request.user.pk)  # each invitation is a letter
    if wait:
        messages.error(request, word("members.too_many", lang, wait=throttle.wait_words(wait, lang)))
        return None
    invitation = Invitation.objects.create(tournament=tournament, email=normal_email(form.cleaned_data["email"]),
                                           token=secrets.token_urlsafe(24), invited_by=request.user)
    link = request.build_absolute_uri(reverse("accept_invitation", args=[invitation.token]))
    request.session["invite_link"] = link
    try:  # without a mail server the letter reaches the server's log only (whoever runs it can find it there)
        send_mail(word("members.mail_subject", lang, title=str(tournament)),
                  word("members.mail_body", lang, title=str(tournament), who=request.user.email, link=link,
                       email=invitation.email, until=until_words(invitation.expires_at, lang)),
                  None, [invitation.email])
    except (OSError, smtplib.SMTPException) as exc:  # the invitation stands: its link is on the page
        log.warning("invitation letter to %s not sent: %s", invitation.email, type(exc).__name__)
        messages.warning(request, word("members.mail.failed", lang, email=invitation.email))
        return invitation
    if not mail_server():  # the letter went to the log, not to the person: say so, the link is the way
        messages.warning(request, word("members.mail.none", lang, email=invitation.email))
    else:
        messages.success(request, word("members.invitation_ready", lang, email=invitation.email))
    return invitation


def mail_server() -> bool:
    """Whether the server sends letters (``SHEETS_SYNC_SMTP_URL`` set), not only logs them."""
    return settings.EMAIL_BACKEND != LOG_MAIL


def _owner_action(request: HttpRequest, tournament: Tournament, lang: str) -> HttpResponse:
    action = request.POST.get("action")
    if action == "invite":
        _invite(request, tournament, lang)
    elif action == "remove":
        member = get_object_or_404(Membership, pk=request.POST.get("member"), tournament=tournament,
                                   role=Membership.CO_ORGANIZER)
        member.delete()
        messages.success(request, word("members.removed", lang, email=member.user.email))
        request_access(tournament, member.user.email, add=False, user=request.user)  # the sheet and the cell back
    elif action == "recheck":  # shared by hand as the page said: look again (a job, as every Google call)
        member = get_object_or_404(Membership, pk=request.POST.get("member"), tournament=tournament,
                                   role=Membership.CO_ORGANIZER)
        request_access(tournament, member.user.email, add=True, user=request.user, recheck=True)
    elif action == "cancel":
        Invitation.objects.filter(pk=request.POST.get("invitation"), tournament=tournament).delete()
    elif action == "unregister":
        title = str(tournament)
        tournament.delete()  # the registration only: the Google sheet stays as it is
        messages.success(request, word("members.unregistered", lang, title=title))
        return redirect("tournaments")
    return redirect("members", tournament.slug)


@login_required
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    lang = request_language(request)
    owner = is_owner(request, tournament)
    if request.method == "POST":
        if not owner:
            raise Http404("only the owner changes the organizers")
        return _owner_action(request, tournament, lang)
    now = timezone.now()
    invitations = [(i, until_words(i.expires_at, lang), i.expires_at <= now)
                   for i in tournament.invitations.filter(accepted_at__isnull=True).order_by("-created_at")]
    members = list(tournament.memberships.select_related("user").order_by("role", "created_at"))
    google = tournament.source == Tournament.GOOGLE
    rows = [(m, *(member_access(tournament, normal_email(m.user.email), lang)
                  if google and m.role == Membership.CO_ORGANIZER else ("", False))) for m in members]
    return render(request, "accounts/members.html", {
        "tournament": tournament, "owner": owner, "members": rows, "google": google, "mail_server": mail_server(),
        "removed_by_hand": removal_notices(tournament, {normal_email(m.user.email) for m in members}, lang)
        if google and owner else [],
        "invitations": invitations, "invite_link": request.session.pop("invite_link", None)})


def until_words(moment, lang: str) -> str:
    """A moment as the page and the letter say «until when»: the server's time zone, named."""
    local = timezone.localtime(moment)
    return f"{local.strftime('%d.%m.%Y %H:%M' if lang == 'ru' else '%Y-%m-%d %H:%M')} ({local.tzname()})"


USED, EXPIRED, SIGNED_OUT, SOMEONE_ELSE, READY = "used", "expired", "signed-out", "someone-else", "ready"
_STATUS = {USED: 410, EXPIRED: 410, SIGNED_OUT: 200, SOMEONE_ELSE: 403, READY: 200}


def _state(request: HttpRequest, invitation: Invitation) -> str:
    if invitation.accepted_at is not None:
        return USED
    if timezone.now() >= invitation.expires_at:
        return EXPIRED
    if not request.user.is_authenticated:
        return SIGNED_OUT
    return READY if normal_email(request.user.email) == normal_email(invitation.email) else SOMEONE_ELSE


def _page(request: HttpRequest, invitation: Invitation, state: str) -> HttpResponse:
    """The invitation as its state says: accept it, sign in (or up) as its address, or why not."""
    back = request.path
    login = f"{reverse('login')}?{urlencode({'next': back})}"
    return render(request, "accounts/invitation.html", {
        "invitation": invitation, "state": state, "until": until_words(invitation.expires_at, request_language(request)),
        "login_url": login, "signup_url": f"{reverse('signup')}?{urlencode({'next': back, 'email': invitation.email})}"},
        status=_STATUS[state])


@require_http_methods(["GET", "POST"])
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what accepting means; POST (a button) accepts — a link opened by a mail program's
    preview must not use the invitation up. Only the invited address's account accepts, until the
    invitation expires, once (a conditional update)."""
    invitation = get_object_or_404(Invitation.objects.select_related("tournament"), token=token)
    state = _state(request, invitation)
    if state != READY or request.method == "GET":
        return _page(request, invitation, state)
    now = timezone.now()
    with transaction.atomic():
        taken = (Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True,
                                           created_at__gt=now - Invitation.LIFETIME).update(accepted_at=now))
        if not taken:
            invitation.refresh_from_db()
            return _page(request, invitation, _state(request, invitation))
        _, joined = Membership.objects.get_or_create(user=request.user, tournament=invitation.tournament,
                                                     defaults={"role": Membership.CO_ORGANIZER})
    if joined:  # the sheet shared with them and their e-mail in «Организаторы»: a job, not this request
        request_access(invitation.tournament, request.user.email, add=True, user=request.user)
    messages.success(request, word("invite.accepted", request_language(request), title=str(invitation.tournament)))
    return redirect("tournament", invitation.tournament.slug)
