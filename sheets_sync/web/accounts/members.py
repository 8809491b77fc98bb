"""A tournament's organizers: the owner invites co-organizers by e-mail, removes them, or
unregisters the tournament (the sheet itself is never touched).

An invitation is a random link, shown to copy and sent by mail (the server's log without a mail
server). Whoever opens it signed in becomes a co-organizer, whatever their account's e-mail: the
link is the proof, as a shared Google Docs link is; it works once.
"""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from sheets_sync.web import throttle
from sheets_sync.web.access import is_owner, tournament_for
from sheets_sync.web.models import Invitation, Membership, Tournament
from sheets_sync.web.words import request_language, word

__all__ = ["members", "accept_invitation"]


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
    invitation = Invitation.objects.create(tournament=tournament, email=form.cleaned_data["email"].lower(),
                                           token=secrets.token_urlsafe(24), invited_by=request.user)
    link = request.build_absolute_uri(reverse("accept_invitation", args=[invitation.token]))
    send_mail(word("members.mail_subject", lang, title=str(tournament)),
              word("members.mail_body", lang, title=str(tournament), who=request.user.email, link=link),
              None, [invitation.email])
    messages.success(request, word("members.invitation_ready", lang, email=invitation.email))
    request.session["invite_link"] = link
    return invitation


def _owner_action(request: HttpRequest, tournament: Tournament, lang: str) -> HttpResponse:
    action = request.POST.get("action")
    if action == "invite":
        _invite(request, tournament, lang)
    elif action == "remove":
        member = get_object_or_404(Membership, pk=request.POST.get("member"), tournament=tournament,
                                   role=Membership.CO_ORGANIZER)
        member.delete()
        messages.success(request, word("members.removed", lang, email=member.user.email))
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
    return render(request, "accounts/members.html", {
        "tournament": tournament, "owner": owner,
        "members": tournament.memberships.select_related("user").order_by("role", "created_at"),
        "invitations": tournament.invitations.filter(accepted_at__isnull=True).order_by("-created_at"),
        "invite_link": request.session.pop("invite_link", None)})


@login_required
@require_http_methods(["GET", "POST"])
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what accepting means; POST (a button) accepts — a link opened by a mail
    program's preview must not use the invitation up."""
    invitation = get_object_or_404(Invitation.objects.select_related("tournament"), token=token)
    lang = request_language(request)
    if invitation.accepted_at is not None:
        return render(request, "accounts/invitation.html", {"invitation": invitation, "used": True}, status=410)
    if request.method == "GET":
        return render(request, "accounts/invitation.html", {"invitation": invitation})
    with transaction.atomic():
        taken = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(accepted_at=timezone.now())
        if not taken:
            return render(request, "accounts/invitation.html", {"invitation": invitation, "used": True}, status=410)
        Membership.objects.get_or_create(user=request.user, tournament=invitation.tournament,
                                         defaults={"role": Membership.CO_ORGANIZER})
    messages.success(request, word("invite.accepted", lang, title=str(invitation.tournament)))
    return redirect("tournament", invitation.tournament.slug)
