"""A crawler of the web app for the tests that open every page: it follows every link of this site
from the pages it is given, remembers what each answered, reads each Russian page's visible
words for English left in it, and finds on the app's own pages what their Content-Security-Policy
would block (an inline script, an ``on…=`` handler, an inline style).

"Visible" is what a person reads: the text, the button and field captions (``value``,
``placeholder``, ``title``, ``alt``) and the confirmation a button asks (``data-confirm``) — not
scripts, styles, ``<code>`` (Apps Script, a cell address, a path) and nothing inside an element marked
``lang="en"`` (the «English» switch). A Latin word is English unless it is one of :data:`NAMES`
(names of products and units, Latin in Russian too) or part of an id — a token with a digit, ``@``,
``/``, ``.``, ``_`` or ``:`` in it (an e-mail, a file, an address, a spreadsheet id, a time).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

__all__ = ["NAMES", "Crawler", "english_words", "page_language", "links_of"]

# Latin words a Russian page may show: names of products, services and formats
NAMES = frozenset({
    "sheets-sync", "Google", "Excel", "VK", "MWT", "CSV", "UTF-8", "ID", "Apps", "Script", "Drive", "JSON",
    "xlsx", "PNG", "ZIP", "HTML", "PDF", "URL", "HTTPS", "FIIM", "Ci", "Chrome", "LibreOffice",
    "Mafia", "World", "Tour",  # Mafia World Tour, the rating's format
    "mafiaratings",  # the rating site, named in a shipped preset's name (the new tournament's list)
    "installTrigger",  # the push trigger's Apps Script function, chosen by its name
    "Tournament",  # «Турнир» (Tournament): the tab's name in an English workbook
    "English",  # the language's own name (the switch, the new tournament's language)
    "Telegram",  # the messenger, named in the players' messages (also «Телеграм» where a player reads)
    "QR",  # «QR-код» is how Russian says it (the seating print's box: the judge's QR on a table's poster)
    "UTC",  # the server's time zone, named after a moment (an invitation's «до 12.12.2026 14:05 (UTC)»)
})

_SKIPPED = {"script", "style", "code", "noscript"}
_SHOWN_ATTRIBUTES = ("value", "placeholder", "title", "alt", "data-confirm", "data-done", "aria-label")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_ID_SIGNS = re.compile(r"[0-9@/._:#?=&]")
_CODE = re.compile(r"[A-Z0-9]+(-[A-Z0-9]+)+")  # a claim code, SS-7KQ2-9XMD
_EDGES = ".,;:!?()[]{}«»\"'“”„—–-…*"


class _Visible(HTMLParser):
    """The words a person sees on a page, and its links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self.language = ""
        self.inline: list[str] = []  # what a Content-Security-Policy of 'self' would block: inline code and style
        self._hidden: list[str] = []  # tags open whose content is not read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.inline += [f"<{tag} {k}=…>" for k in a if k.startswith("on") or k == "style"]
        if tag == "style" or (tag == "script" and not a.get("src")):
            self.inline.append(f"<{tag}> inline")
        if tag == "html":
            self.language = a.get("lang", "")
        for key in ("href", "src", "action"):
            if a.get(key) and not (tag == "form" and a.get("method", "get").lower() == "post"):
                self.links.append(a[key])
        hides = tag in _SKIPPED or a.get("lang", "").startswith("en") and tag != "html"
        if tag not in _VOID and (hides or self._hidden):
            self._hidden.append(tag)
        if not self._hidden and not hides:
            shown = [a[k] for k in _SHOWN_ATTRIBUTES if a.get(k) and not (k == "value" and (
                tag != "input" or a.get("type") not in ("submit", "button")))]  # a field's value is what was typed
            self.words.extend(w for text in shown for w in text.split())

    def handle_endtag(self, tag: str) -> None:
        if self._hidden and self._hidden[-1] == tag:
            self._hidden.pop()

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.extend(data.split())


def english_words(words, names: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The Latin words of ``words`` that are neither a name of :data:`NAMES` (or ``names``: those
    people gave, a tournament's) nor part of an id."""
    found, known = [], NAMES | names
    for token in words:
        bare = token.strip(_EDGES)
        if not re.search(r"[A-Za-z]{2}", bare) or _ID_SIGNS.search(bare) or bare in known or _CODE.fullmatch(bare):
            continue
        if all(part in known or not re.search(r"[A-Za-z]{2}", part) for part in re.split(r"[-–/]", bare)):
            continue
        found.append(bare)
    return found


def page_language(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return parser.language


def links_of(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.links


@dataclass
class Crawler:
    """Opens pages with a Django test client and follows this site's links from them.

    ``findings`` lists what is wrong: an answer 500, English on a Russian page. ``names()``: the
    words of names people gave (a tournament's title), Latin or not.
    ``skip`` — path prefixes not followed (the public site's players' pages are many and alike:
    ``sample`` of each folder are opened)."""

    client: object
    names: Callable[[], set[str]] = set
    language: str = "ru"  # the session's: a JSON status has no lang of its own
    seen: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    per_folder: int = 4
    _folders: dict[str, int] = field(default_factory=dict)

    def check(self, url: str, response) -> None:
        """Record ``response`` (to ``url``) and what is wrong with it."""
        self.seen[url] = response.status_code
        if response.status_code == 500:  # a 503 is a page of ours (no service account yet, a busy database)
            self.findings.append(f"500 {url}")
        kind = response.get("Content-Type", "")
        if "text/html" in kind:
            html = _body(response)
            parser = _Visible()
            parser.feed(html)
            if parser.inline and not url.startswith(("/t/", "POST /t/")) and "/files/" not in url:
                self.findings.append(f"inline script or style on {url}: {' '.join(dict.fromkeys(parser.inline))}")
            if parser.language == "ru":
                english = english_words(parser.words, self.names())
                if english:
                    self.findings.append(f"English on a Russian page {url}: {' '.join(dict.fromkeys(english))}")
        elif "json" in kind and "/status.json" in url and self.language == "ru":
            message = str(json.loads(_body(response)).get("message") or "")
            english = english_words(message.split(), self.names())
            if english and not re.search(r"[А-Яа-яЁё]", message):
                self.findings.append(f"English message in {url}: {message}")

    def open(self, url: str, *, follow: bool = True):
        """GET ``url`` (again if it was seen: a page changes after a press), check it, and
        (``follow``) everything of this site it links to that was not seen yet."""
        queue = [url]
        first = None
        while queue:
            current = queue.pop(0)
            if (current in self.seen and first is not None) or not self._wanted(current):
                continue
            response = self.client.get(current)
            first = first or response
            self.check(current, response)
            if response.status_code in (301, 302, 303, 307, 308):
                queue.append(_local(response["Location"], current))
            elif follow and "text/html" in response.get("Content-Type", ""):
                queue.extend(link for link in (_local(h, current) for h in links_of(_body(response))) if link)
        return first

    def post(self, url: str, data: dict, **kwargs):
        """POST a form, check the answer, and open (and crawl) where it leads."""
        response = self.client.post(url, data, **kwargs)
        self.check(f"POST {url}", response)
        if response.status_code in (301, 302, 303):
            self.open(_local(response["Location"], url))
        elif "text/html" in response.get("Content-Type", ""):
            for link in (_local(h, url) for h in links_of(_body(response))):
                if link:
                    self.open(link)
        return response

    def _wanted(self, url: str) -> bool:
        if not url or url.startswith(("/logout/", "/hook/")) or "lang=" in url:
            return False  # the language switch would turn the session English: again_in_english does that
        folder = url.rstrip("/").rsplit("/", 1)[0] if url.startswith("/t/") else ""
        if folder:
            self._folders[folder] = self._folders.get(folder, 0) + 1
            return self._folders[folder] <= self.per_folder
        return True


def _body(response) -> str:
    if getattr(response, "streaming", False):  # a file of a site or an export: read once, kept for a second look
        if not hasattr(response, "read_body"):
            response.read_body = b"".join(response.streaming_content)
        return response.read_body.decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def _local(href: str, base: str) -> str | None:
    """``href`` on ``base`` as this site's path (with its query), or None for another site."""
    href, _ = urldefrag(href.strip())
    if not href or href.startswith(("mailto:", "javascript:", "data:", "tel:")):
        return None
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None if parts.netloc not in ("testserver",) else parts.path + (f"?{parts.query}" if parts.query else "")
    if href.startswith("?"):
        return base.split("?")[0] + href
    if not href.startswith("/"):
        folder = base.split("?")[0].rsplit("/", 1)[0]
        href = _resolve(folder + "/" + href)
    return href


def _resolve(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if len(parts) > 1:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts) or "/"
