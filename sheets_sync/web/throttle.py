"""Rate limits per organizer or address — mails, claim codes, claim checks, button presses — kept in
the database, so every web process (several waitress processes, on one machine or several) takes
from the same allowance; Django's cache is per process and would let each of them grant its own.

Each limit is a token bucket: ``burst`` actions at once, then one more each ``period / burst``
seconds. :func:`take` spends one and answers 0, or answers how many seconds until one is free
(nothing spent); :func:`wait_words` says that wait in the reader's language ("5 минут").

A bucket is one row (:class:`~sheets_sync.web.models.Throttle`) changed by a conditional UPDATE on
its version, so two processes taking at the same instant never both spend the same token, on
SQLite as on PostgreSQL. Rows keep a hash of who (an e-mail, a client address), never the
address itself; a bucket that has filled up again is the same as no row and is deleted.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from sheets_sync.web.models import Throttle
from sheets_sync.web.words import word

__all__ = ["Limit", "take", "wait_words", "clock", "client_address", "RESET_PER_ADDRESS", "RESET_PER_CLIENT",
           "INVITATIONS", "CLAIM_CODES", "CLAIM_CHECKS", "PRESSES", "CHECK_PAUSE"]

HOUR = 3600.0
CHECK_PAUSE = 5  # seconds between one organizer's claim checks: each costs the service account two Sheets reads


@dataclass(frozen=True)
class Limit:
    """``burst`` actions at once, earned back evenly over ``period`` seconds."""

    name: str
    burst: int
    period: float

    @property
    def every(self) -> float:
        """Seconds in which one action is earned back."""
        return self.period / self.burst


RESET_PER_ADDRESS = Limit("reset-address", 3, HOUR)  # reset letters to one e-mail address
RESET_PER_CLIENT = Limit("reset-client", 10, HOUR)  # reset letters asked from one client address
INVITATIONS = Limit("invitation", 20, HOUR)  # invitation letters one organizer sends
CLAIM_CODES = Limit("claim-code", 10, HOUR)  # new claim codes one organizer is given
CLAIM_CHECKS = Limit("claim-check", 1, CHECK_PAUSE)  # «Проверить»: one organizer's checks CHECK_PAUSE apart
PRESSES = Limit("press", 10, 60.0)  # a tournament page's buttons: ten at once, then one each 6 s

_ATTEMPTS = 8  # a conditional update lost to another process is tried again this many times


def clock() -> float:
    """The limits' clock (a test moves its own)."""
    return time.time()


def _key(limit: Limit, who: object) -> str:
    return f"{limit.name}:{hashlib.sha256(str(who).strip().lower().encode()).hexdigest()[:40]}"


def take(limit: Limit, who: object) -> float:
    """Spend one action of ``who`` under ``limit``: 0.0 when allowed, else the seconds until one is
    free (nothing spent)."""
    key, now = _key(limit, who), clock()
    Throttle.objects.filter(key__startswith=f"{limit.name}:", stamp__lt=now - limit.period).delete()  # full again
    for _ in range(_ATTEMPTS):
        row = Throttle.objects.filter(key=key).values_list("tokens", "stamp", "version").first()
        if row is None:
            if _first(key, limit, now):
                return 0.0
            continue
        tokens, stamp, version = row
        tokens = min(float(limit.burst), tokens + max(0.0, now - stamp) / limit.every)
        if tokens < 1.0:
            return (1.0 - tokens) * limit.every
        if Throttle.objects.filter(key=key, version=version).update(tokens=tokens - 1.0, stamp=now,
                                                                     version=version + 1):
            return 0.0
    return limit.every  # others keep taking from this very bucket right now: it is as good as empty


def _first(key: str, limit: Limit, now: float) -> bool:
    try:
        with transaction.atomic():
            Throttle.objects.create(key=key, tokens=limit.burst - 1.0, stamp=now)
        return True
    except IntegrityError:  # another process made the row first: take from it
        return False


def _plural(n: int, lang: str) -> str:
    """Which of a unit's three forms ``n`` takes (Russian: 1 минуту, 3 минуты, 5 минут)."""
    if lang == "en":
        return "one" if n == 1 else "many"
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"


def wait_words(seconds: float, lang: str) -> str:
    """A wait as a person reads it: «5 секунд», «1 минуту», «20 minutes» (rounded up)."""
    unit, n = ("second", math.ceil(seconds)) if seconds < 60 else ("minute", math.ceil(seconds / 60))
    n = max(1, n)
    return f"{n} {word(f'wait.{unit}.{_plural(n, lang)}', lang)}"


def client_address(request) -> str:
    """The address a request came from, as django-axes sees it for sign-in lockouts (the same rule
    behind a proxy when ``AXES_CLIENT_IP_CALLABLE`` is set)."""
    from axes.helpers import get_client_ip_address

    return get_client_ip_address(request) or "unknown"
