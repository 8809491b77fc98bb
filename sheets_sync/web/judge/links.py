"""The judges' private links (issue 44 §1): made by the organizer's page, the token the only key.

A token is ``secrets.token_urlsafe(32)`` (43 characters, 256 bits). A request finds its link by
the SHA-256 of the token (a lookup whose timing says nothing of the token) and is then compared
in constant time. A link that does not exist, was revoked, or names another table is the same 404
(:func:`link_for`, :func:`game_allowed`): nothing tells a guesser which.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.http import Http404, HttpRequest
from django.utils import timezone

from sheets_sync.web.models import JudgeLink, Tournament

__all__ = ["new_token", "link_for", "make_table_links", "make_judge_link", "make_chief_link", "revoke", "renew", "live_links",
           "link_games", "game_allowed", "link_address", "qr_svg", "printed_links"]

TOKEN_BYTES = 32


def new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, _hash(token)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def link_for(token: str) -> JudgeLink:
    """The live link of ``token``; else 404 (unknown, revoked, malformed: all alike)."""
    if not token or len(token) > 100:
        raise Http404("no such link")
    link = (JudgeLink.objects.select_related("tournament", "tournament__account")
            .filter(token_hash=_hash(token), revoked_at__isnull=True).first())
    if link is None or not hmac.compare_digest(link.token.encode(), token.encode("utf-8", "replace")):
        raise Http404("no such link")
    return link


def live_links(tournament: Tournament):
    return JudgeLink.objects.filter(tournament=tournament, revoked_at__isnull=True)


def make_table_links(tournament: Tournament, stage: str, tables: list[int], *, base: str = "") -> list[JudgeLink]:
    """A link for each table of ``stage`` that has none yet (one press makes the stage's)."""
    have = set(live_links(tournament).filter(kind=JudgeLink.TABLE, stage=stage).values_list("table", flat=True))
    made = []
    for table in sorted(set(tables) - have):
        token, hashed = new_token()
        made.append(JudgeLink.objects.create(tournament=tournament, kind=JudgeLink.TABLE, stage=stage, table=table,
                                             token=token, token_hash=hashed, base=base[:300]))
    return made


def make_judge_link(tournament: Tournament, stage: str, judge: str, tables: list[int], *, base: str = "") -> JudgeLink:
    """A judge's link: the games of ``tables`` of ``stage``, in playing order (round by round)."""
    token, hashed = new_token()
    return JudgeLink.objects.create(tournament=tournament, kind=JudgeLink.JUDGE, stage=stage, judge=judge[:200],
                                    tables=sorted(set(tables)), token=token, token_hash=hashed, base=base[:300])


def make_chief_link(tournament: Tournament, judge: str = "", *, base: str = "") -> JudgeLink:
    """The chief judge's link (one live at a time: a new one revokes the old)."""
    live_links(tournament).filter(kind=JudgeLink.CHIEF).update(revoked_at=timezone.now())
    token, hashed = new_token()
    return JudgeLink.objects.create(tournament=tournament, kind=JudgeLink.CHIEF, judge=judge[:200], token=token,
                                    token_hash=hashed, base=base[:300])


def revoke(link: JudgeLink) -> None:
    JudgeLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def renew(link: JudgeLink, *, base: str = "") -> JudgeLink:
    """The same link with a new token; the old token is dead at once (the same transaction's update)."""
    token, hashed = new_token()
    revoke(link)
    return JudgeLink.objects.create(tournament=link.tournament, kind=link.kind, stage=link.stage, table=link.table,
                                    tables=link.tables, judge=link.judge, token=token, token_hash=hashed,
                                    base=(base or link.base)[:300])


def link_games(link: JudgeLink, games: list[dict]) -> list[dict]:
    """The link's games in playing order: a table's of every round, a judge's tables', every one for the chief."""
    if link.kind == JudgeLink.CHIEF:
        return list(games)
    tables = {link.table} if link.kind == JudgeLink.TABLE else set(link.tables or ())
    return [g for g in games if g["stage"] == link.stage and g["table"] in tables]


def game_allowed(link: JudgeLink, games: list[dict], gid: str) -> dict:
    """The game ``gid`` if the link may see it; else the same 404 as an unknown link."""
    for game in link_games(link, games):
        if game["gid"] == gid:
            return game
    raise Http404("no such link")


def link_address(request: HttpRequest, link: JudgeLink, *, chief_page: bool = False) -> str:
    """The address a phone opens: the request's own host, or the machine's LAN address in app
    mode when the app listens on the network (:func:`sheets_sync.web.addresses.phone_base`)."""
    from sheets_sync.web.addresses import phone_base

    path = f"/j/{link.token}/chief/" if chief_page else f"/j/{link.token}/"
    return phone_base(request) + path


def printed_links(tournament: Tournament, stage: str) -> dict[int, str]:
    """The live table links of ``stage`` with the address they were made for: table → address (what
    the protocol blanks and the seating poster print as QR codes)."""
    return {link.table: f"{link.base}/j/{link.token}/" for link in
            live_links(tournament).filter(kind=JudgeLink.TABLE, stage=stage).exclude(base="")}


def qr_svg(address: str) -> str:
    """The address as an inline SVG QR code (the hall screen's own drawing)."""
    from sheets_sync.render.screen import qr_svg as drawn

    return drawn(address)
