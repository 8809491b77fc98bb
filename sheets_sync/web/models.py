"""What the server remembers: organizers' tournaments, who may act on them, and how each is kept.

An organizer is Django's own ``User`` (the e-mail is the user name); passwords are Django's
hashes. The service accounts' keys stay files on the server: :class:`ServiceAccount` keeps the
e-mail and the path, never the key.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models


class ServiceAccount(models.Model):
    """A Google service account the server acts as: organizers share their sheets with ``email``."""

    email = models.EmailField(unique=True)
    key_file = models.CharField(max_length=1000, help_text="path of the JSON key on the server; the key never enters the database")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.email


class Tournament(models.Model):
    """A registered workbook — a tournament or a club season — and the state of its keeping."""

    TOURNAMENT, SEASON = "tournament", "season"
    GOOGLE, EXCEL = "google", "excel"

    slug = models.SlugField(max_length=80, unique=True, help_text="the public site's address: /t/<slug>/")
    title = models.CharField(max_length=300, blank=True)
    kind = models.CharField(max_length=20, choices=[(TOURNAMENT, TOURNAMENT), (SEASON, SEASON)], default=TOURNAMENT)
    language = models.CharField(max_length=5, default="ru")
    source = models.CharField(max_length=10, choices=[(GOOGLE, GOOGLE), (EXCEL, EXCEL)], default=GOOGLE)
    spreadsheet_id = models.CharField(max_length=200, blank=True, db_index=True)
    path = models.CharField(max_length=1000, blank=True, help_text="an .xlsx (app mode)")
    account = models.ForeignKey(ServiceAccount, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments")
    created_at = models.DateTimeField(auto_now_add=True)
    public = models.BooleanField(default=True, help_text="the site at /t/<slug>/ is served")

    # keeping it synced
    share_lost = models.BooleanField(default=False, help_text="the sheet is no longer shared with the service account")
    share_view_only = models.BooleanField(default=False, help_text="shared with the service account as a viewer: "
                                                                   "it may read, every write is refused")
    hook_secret = models.CharField(max_length=100, blank=True, help_text="the Apps Script push trigger's secret")
    needs_sync = models.BooleanField(default=True, help_text="set by a change; cleared only by a sync that finished")
    changed_at = models.DateTimeField(null=True, blank=True, help_text="the last change noticed (Drive feed, push, button)")
    pushed_at = models.DateTimeField(null=True, blank=True, help_text="the last push from the sheet's trigger")
    fast_until = models.DateTimeField(null=True, blank=True, help_text="in the fast lane (being played) until then")
    lease_until = models.DateTimeField(null=True, blank=True, help_text="a worker holds the workbook until then "
                                                                        "(its heartbeat moves it on while it lives)")
    lease_worker = models.ForeignKey("Worker", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                     help_text="the worker whose job holds the workbook")
    lease_job = models.ForeignKey("Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                  help_text="the job holding the workbook (a sync, a draw, …)")
    last_sync_at = models.DateTimeField(null=True, blank=True)
    last_sync = models.JSONField(default=dict, blank=True, help_text="the last sync's summary for the dashboard")
    last_error = models.TextField(blank=True)
    # the keeper's (sheets_sync.web.keeping): the fast lane's last poll and the push's debounce
    polled_at = models.DateTimeField(null=True, blank=True, help_text="the fast lane's last direct read")
    poll_fingerprint = models.CharField(max_length=64, blank=True,
                                        help_text="the typed tabs as the last read saw them (a sync's or a poll's)")
    sync_read_at = models.DateTimeField(null=True, blank=True,
                                        help_text="when the last finished sync read the sheet: a change Drive "
                                                  "dates before it is on the site already")
    push_pending_since = models.DateTimeField(null=True, blank=True, help_text="the first push not yet synced")
    push_due_at = models.DateTimeField(null=True, blank=True, help_text="when the pushes' sync starts (debounced)")
    # registration (issue 45): the public form /apply/<slug>/ takes applications while open (and
    # before the Tournament tab's «Регистрация до»); the hall's code of the players' self check-in
    registration_open = models.BooleanField(default=False, help_text="the organizer opened the registration form")
    checkin_code = models.CharField(max_length=12, blank=True, help_text="the code shown in the hall (self check-in)")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title or self.slug


class Membership(models.Model):
    OWNER, CO_ORGANIZER = "owner", "co-organizer"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=[(OWNER, OWNER), (CO_ORGANIZER, CO_ORGANIZER)], default=OWNER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "tournament"], name="one_membership")]


class Invitation(models.Model):
    """A co-organizer invited by e-mail: the link with ``token`` makes the account with that e-mail
    one, until :attr:`expires_at` (:data:`LIFETIME` after it was made)."""

    LIFETIME = timedelta(days=7)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=100, unique=True)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    @property
    def expires_at(self):
        return self.created_at + self.LIFETIME


class Throttle(models.Model):
    """One rate limit's bucket for one organizer or address (:mod:`sheets_sync.web.throttle`): in the
    database, so every web process takes from the same allowance."""

    key = models.CharField(max_length=100, unique=True, help_text="the limit's name and a hash of who")
    tokens = models.FloatField(help_text="actions left at `stamp`")
    stamp = models.FloatField(help_text="unix seconds of the last action taken")
    version = models.IntegerField(default=0, help_text="bumped by every take: a conditional update's guard")


class Claim(models.Model):
    """A sheet an organizer says is theirs: proved when ``code`` is read back from its Tournament tab."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="claims")
    spreadsheet_id = models.CharField(max_length=200, db_index=True)
    account = models.ForeignKey(ServiceAccount, on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    proved_at = models.DateTimeField(null=True, blank=True)


class Worker(models.Model):
    """A process running jobs (the server's worker threads, or a ``sheets-sync worker``): alive while
    its heartbeat (``beat_at``) is fresh; the jobs and leases of a dead one are taken back
    (:mod:`sheets_sync.web.recovery`)."""

    name = models.CharField(max_length=200, help_text="host and process id")
    threads = models.IntegerField(default=1)
    started_at = models.DateTimeField(auto_now_add=True)
    beat_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class Job(models.Model):
    """One action run for a tournament (sync, draw, advance, …), or for an organizer before there
    is a tournament (the claim check, a new tournament): what the page shows as waiting or done."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    # why a queued job waits (the page says so): another job holds its workbook, its organizer's
    # long job runs, no worker thread is free for a long job, or the account's Google budget is spent
    FOR_WORKBOOK, FOR_SHARE, FOR_THREAD, FOR_BUDGET = "workbook", "share", "thread", "budget"

    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+", help_text="the organizer whose share of the workers it counts to")
    worker = models.ForeignKey(Worker, null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs",
                               help_text="the worker running it")
    waiting = models.CharField(max_length=20, blank=True, help_text="why it is still queued")
    looked_at = models.DateTimeField(null=True, blank=True, help_text="a worker last took it up, or it was queued again")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="runs started (a worker that died took one)")
    action = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, default=QUEUED,
                              choices=[(QUEUED, QUEUED), (RUNNING, RUNNING), (DONE, DONE), (FAILED, FAILED)])
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    message = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tournament", "-created_at"]), models.Index(fields=["status", "owner"])]


class DriveCursor(models.Model):
    """Where a service account's Drive changes feed was last read (its page token)."""

    account = models.OneToOneField(ServiceAccount, on_delete=models.CASCADE, related_name="cursor")
    page_token = models.CharField(max_length=200)
    updated_at = models.DateTimeField(auto_now=True)


class RequestTally(models.Model):
    """Requests an account made to Google in one 10-second slice (the per-account budget's storage:
    one table every worker process shares; see :mod:`sheets_sync.web.keeping`)."""

    account = models.CharField(max_length=254)
    kind = models.CharField(max_length=10)  # read / write / drive
    slice = models.BigIntegerField()  # unix seconds // 10
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "kind", "slice"], name="one_tally_per_slice")]


class JudgeLink(models.Model):
    """A judge's private link (issue 44 §1): the token in its address is the key — no account.

    ``table``: one table of one stage, its games of every round; ``judge``: a judge by name and the
    tables he runs (``tables``), his games in playing order; ``chief``: every table. Only a hash of
    the token is looked up (:mod:`sheets_sync.web.judge.links`); the token itself is kept so that the
    organizer's page can show the address and its QR code again. Revoked: dead at once."""

    TABLE, JUDGE, CHIEF = "table", "judge", "chief"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judge_links")
    kind = models.CharField(max_length=10, choices=[(TABLE, TABLE), (JUDGE, JUDGE), (CHIEF, CHIEF)], default=TABLE)
    stage = models.CharField(max_length=80, blank=True, help_text="the preset's stage key (table and judge links)")
    table = models.IntegerField(null=True, blank=True)
    tables = models.JSONField(default=list, blank=True, help_text="a judge's tables of the stage")
    judge = models.CharField(max_length=200, blank=True, help_text="the judge's name (a judge's or the chief's link)")
    token = models.CharField(max_length=100, help_text="secrets.token_urlsafe(32): the address's key")
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token: what a request is found by")
    base = models.CharField(max_length=300, blank=True, help_text="the address phones reached the server at when "
                                                                  "the link was made (the printed QR codes' host)")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "stage", "table", "pk"]


class JudgeGame(models.Model):
    """A game as the judges' pages know it beyond the sheet: the live mode's event log, the mode,
    the conflicts of the last write and when a save of the page last reached the workbook."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judge_games")
    gid = models.CharField(max_length=120)
    events = models.JSONField(default=list, blank=True, help_text="the live log: Event.to_dict() in order")
    mode = models.CharField(max_length=10, blank=True, help_text="form / live / '' (not chosen yet)")
    conflicts = models.JSONField(default=list, blank=True, help_text="keys the last write did not write: "
                                                                     "[{key, base, sheet, mine}]")
    saved_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "gid"], name="one_judge_game")]


class JudgeSave(models.Model):
    """One save of a judge's page: the form's cells as typed and the cells they were typed over
    (``base``), written by the tournament's writer job (:mod:`sheets_sync.web.judge.writer`).
    ``save_id`` is the page's: the same save sent twice is stored, and written, once."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judge_saves")
    link = models.ForeignKey(JudgeLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="saves")
    gid = models.CharField(max_length=120)
    save_id = models.CharField(max_length=100)
    cells = models.JSONField(default=dict, blank=True)
    base = models.JSONField(default=dict, blank=True)
    choose = models.JSONField(default=dict, blank=True)
    submit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    written_at = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(default=dict, blank=True, help_text="written keys, conflicts, or why not written")

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "save_id"], name="one_judge_save")]


class Application(models.Model):
    """A player's application to a tournament (issue 45), made on the public registration page or
    added by an organizer: what the server alone keeps about him — the contacts (never written to
    the workbook, never on the site, in JSON, VK posts or MWT exports: only the tournament's
    organizers see them), his private link and his Telegram chat.

    The workbook is the record of the state: the application's row on the Players tab («Заявка»:
    подана / подтверждена / оплачена / лист ожидания / снялась) — the organizer sets it on the page
    or types it in the sheet, and the sheet wins: ``state`` mirrors what the last sync read
    (:class:`scoring.model.ApplicationState` values). Deleted with the tournament (GDPR) or on the
    player's request."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="applications")
    nickname = models.CharField(max_length=60)
    club = models.CharField(max_length=100, blank=True)
    city = models.CharField(max_length=100, blank=True)
    # contacts: at least one; only the tournament's organizers see them
    telegram = models.CharField(max_length=64, blank=True, help_text="@username as typed")
    vk = models.CharField(max_length=200, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    # the optional ids a league uses
    mwt_id = models.PositiveIntegerField(null=True, blank=True)
    rating = models.CharField(max_length=20, blank=True, help_text="a rating as the player typed it")
    state = models.CharField(max_length=20, default="submitted",
                             help_text="ApplicationState's value as the sheet last said (the sheet wins)")
    applied_at = models.DateTimeField(help_text="when it was made: the waiting list's order")
    # the player's own link (/me/<token>/): the token is the key, only its hash is looked up
    token = models.CharField(max_length=100)
    token_hash = models.CharField(max_length=64, unique=True)
    # Telegram: the /start code of his confirmation, the chat it linked, and /stop
    start_code = models.CharField(max_length=64, unique=True)
    chat_id = models.BigIntegerField(null=True, blank=True)
    chat_stopped_at = models.DateTimeField(null=True, blank=True)
    # the row reaching the sheet (the registration writer), and what the player asked on his page
    written_at = models.DateTimeField(null=True, blank=True, db_index=True)
    excused_round = models.PositiveIntegerField(null=True, blank=True, help_text="the round he asked to skip")
    arrived_at = models.DateTimeField(null=True, blank=True, help_text="checked in on the day («Прибыл», as the sheet says)")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["applied_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "nickname"], name="one_application_per_nickname")]

    def __str__(self) -> str:
        return self.nickname



class OutboxMessage(models.Model):
    """One message to a player (issue 45 §4), queued in the transaction of the event that caused
    it and sent by the bot's loop (:mod:`sheets_sync.web.messaging.outbox`).

    ``key`` is unique: the same message («seat:<tournament>:<stage>:<round>:<application>») is
    queued once however many syncs see it. ``state``: queued → sending (marked before the call)
    → sent; a row found ``sending`` by the next holder of the bot's lease was left by a crash in
    the middle of its call: it may have reached the player, so it is never sent again by itself
    but marked ``uncertain`` for the organizer. ``failed``: Telegram refused it for good (the bot
    blocked, the chat gone) or the player said /stop. No chat id nor address is kept here: the
    channel's address is read from the application when sending, and the row goes with it."""

    QUEUED, SENDING, SENT, UNCERTAIN, FAILED = "queued", "sending", "sent", "uncertain", "failed"
    TELEGRAM, EMAIL = "telegram", "email"

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(max_length=20, help_text="state / seat / through / final / linked")
    channel = models.CharField(max_length=10, choices=[(TELEGRAM, TELEGRAM), (EMAIL, EMAIL)], default=TELEGRAM)
    key = models.CharField(max_length=200, unique=True, help_text="what makes the message one: queued once")
    text = models.TextField()
    params = models.JSONField(default=dict, blank=True, help_text="what the text says (table, seat): a changed seating is told")
    state = models.CharField(max_length=10, default=QUEUED, db_index=True,
                             choices=[(s, s) for s in (QUEUED, SENDING, SENT, UNCERTAIN, FAILED)])
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=200, blank=True, help_text="why failed or uncertain (no personal data)")
    queued_at = models.DateTimeField(auto_now_add=True)
    sending_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]


class BotState(models.Model):
    """The Telegram bot's one row: the next update to read (``offset`` of getUpdates) and the lease
    of the loop that polls and sends — one at a time in every process of the server (Telegram
    answers two getUpdates at once with a conflict, and the limits are the bot's, not a process's)."""

    offset = models.BigIntegerField(default=0)
    lease_owner = models.CharField(max_length=200, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)


class RegistrationWrite(models.Model):
    """One change of a Players-tab row asked by the server's pages (issue 45): the organizer's state
    button, a tick of arrival, the player's withdrawal or excused round. ``cells`` are column keys
    (``scoring.labels.PLAYER_COLUMNS``: application, arrived, excused) → the text to write, ``base``
    what the server knew the cell held: the registration writer
    (:mod:`sheets_sync.web.registration.writer`) writes a cell only while the sheet still holds
    ``base`` (or the value already) — never over a person's typing — and says so in ``result``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registration_writes")
    application = models.ForeignKey(Application, null=True, blank=True, on_delete=models.CASCADE, related_name="writes")
    nickname = models.CharField(max_length=1000, help_text="the row's player, found by his nickname (a sheet's cell: scoring.values.MAX_TEXT)")
    cells = models.JSONField(default=dict, blank=True)
    base = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    written_at = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(default=dict, blank=True, help_text="written keys, conflicts, or why not written")

    class Meta:
        ordering = ["pk"]
