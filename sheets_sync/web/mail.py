"""Mail when the server has no mail server: every message is written to the server's log.

A club's server often has no SMTP account; the organizer who forgot a password asks whoever runs
the server, who finds the reset link in the log (logger ``sheets_sync.web.mail``). Not Django's
console backend: that writes to standard output, which a service manager may drop, and bypasses
the log's format and level.
"""

from __future__ import annotations

import logging

from django.core.mail.backends.base import BaseEmailBackend

__all__ = ["LogEmailBackend"]

log = logging.getLogger("sheets_sync.web.mail")


class LogEmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            log.info("mail to %s: %s\n%s", ", ".join(message.to), message.subject, message.body)
        return len(email_messages)
