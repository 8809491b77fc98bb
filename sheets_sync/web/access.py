"""Who may see a tournament's organizer pages: its members, and nobody else.

Every organizer view of a tournament finds it through :func:`tournament_for`, so an organizer of
another tournament gets the same 404 as for a tournament that does not exist (no hint that it
does); tests/web walk the whole URL map to hold every view to it.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest

from sheets_sync.web.models import Membership, Tournament

__all__ = ["tournament_for", "is_owner"]


def tournament_for(request: HttpRequest, slug: str) -> Tournament:
    """The tournament ``slug`` if the signed-in person is one of its organizers; else 404."""
    user = request.user
    if not user.is_authenticated:
        raise Http404("no such tournament")
    try:
        return Tournament.objects.select_related("account").get(slug=slug, memberships__user=user)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None


def is_owner(request: HttpRequest, tournament: Tournament) -> bool:
    return Membership.objects.filter(user=request.user, tournament=tournament, role=Membership.OWNER).exists()
