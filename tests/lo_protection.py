"""LibreOffice's own view of an .xlsx's sheet protection, through UNO (run by the system Python
that has ``uno``: Debian's ``python3-uno``; the tests call it in a child process).

``python3 tests/lo_protection.py check BOOK.xlsx '{"TAB": "A1", …}' [PASSWORD]`` starts LibreOffice
headless (a profile of its own, so that it never meets another soffice), opens the workbook and
prints one JSON object: for every tab, whether LibreOffice reports it protected and whether it is
hidden; for the tabs given, whether text typed into the given cell changed it (LibreOffice refuses
what is typed into a protected sheet's locked cell and leaves it as it was); with PASSWORD,
whether a wrong password is refused and PASSWORD unprotects it (LibreOffice checks the hash
Excel's way of storing it gave).

``python3 tests/lo_protection.py show BOOK.xlsx TAB XWD`` (under an X display, with a LibreOffice
that has a GUI: ``$SHEETS_SYNC_SOFFICE``) opens the workbook on TAB, types into a cell as a judge
would (xdotool) and saves a dump of the screen (xwd; the test makes it a PNG): LibreOffice's message.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uno  # noqa: F401  (the system Python's binding; registers the com.sun.star imports)
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import IllegalArgumentException

PROBE = "набрано судьёй"


def _prop(name: str, value) -> PropertyValue:
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


class Office:
    """A LibreOffice of its own (profile in a temporary folder), reached over a pipe."""

    def __init__(self, soffice: str, *, headless: bool) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="lo-protect-"))
        self.pipe = f"lo_protect_{os.getpid()}"
        args = [soffice, f"-env:UserInstallation=file://{self.profile}", f"--accept=pipe,name={self.pipe};urp;",
                "--norestore", "--nologo", "--nodefault", "--nofirststartwizard"]
        # what importing uno set for this Python's LibreOffice must not point another one at it
        env = {k: v for k, v in os.environ.items() if k not in ("URE_BOOTSTRAP", "UNO_PATH", "UNO_TYPES", "UNO_SERVICES")}
        self.process = subprocess.Popen(args + (["--headless", "--invisible"] if headless else []), env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.desktop = self._connect()

    def _connect(self):
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.monotonic() + 90
        while True:
            try:
                self.ctx = resolver.resolve(f"uno:pipe,name={self.pipe};urp;StarOffice.ComponentContext")
                self.smgr = self.ctx.ServiceManager
                return self.smgr.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)
            except NoConnectException:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.5)

    def open(self, path: Path, *, hidden: bool):
        url = uno.systemPathToFileUrl(str(path.resolve()))
        return self.desktop.loadComponentFromURL(url, "_blank", 0, (_prop("Hidden", hidden),))

    def dispatch(self, doc, command: str, *args: PropertyValue) -> None:
        helper = self.smgr.createInstanceWithContext("com.sun.star.frame.DispatchHelper", self.ctx)
        helper.executeDispatch(doc.CurrentController.Frame, command, "", 0, args)

    def close(self) -> None:
        try:
            self.desktop.terminate()
        except Exception:  # noqa: BLE001 - it may be gone already
            pass
        try:
            self.process.wait(timeout=10)  # a message box still up vetoes the end: then it is killed
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def check(path: Path, probes: dict[str, str], password: str | None) -> dict:
    office = Office(os.environ.get("SHEETS_SYNC_SOFFICE", "soffice"), headless=True)
    try:
        doc = office.open(path, hidden=True)
        report = {}
        for name in doc.Sheets.ElementNames:
            sheet = doc.Sheets.getByName(name)
            report[name] = {"protected": bool(sheet.isProtected()), "hidden": not sheet.IsVisible}
            if password is not None and sheet.isProtected():
                report[name]["wrong_password_refused"] = _refused(sheet, password + "-wrong")
                report[name]["password_unprotects"] = not _refused(sheet, password) and not sheet.isProtected()
        doc.close(True)
        # each typing in a copy of its own: a headless LibreOffice that refused what was typed into
        # a protected tab dies on the next tab it is shown (7.4)
        for name, ref in probes.items():
            if name in report:
                doc = office.open(path, hidden=True)
                report[name]["changed"] = _typed(office, doc, doc.Sheets.getByName(name), ref)
                doc.close(True)
        return report
    finally:
        office.close()


def _typed(office: Office, doc, sheet, ref: str) -> bool:
    """Whether typing into cell ``ref`` of ``sheet`` changed it: the cell selected and the text
    entered through the view, as a person types (the API's setString is the program's own write,
    which a sheet's protection does not stop); a hidden tab (the state tab) is shown first, as a
    person would."""
    cell = sheet.getCellRangeByName(ref)
    before = cell.getString()
    sheet.IsVisible = True
    doc.CurrentController.setActiveSheet(sheet)
    doc.CurrentController.select(cell)
    office.dispatch(doc, ".uno:EnterString", _prop("StringName", PROBE))
    return cell.getString() != before


def _refused(sheet, password: str) -> bool:
    try:
        sheet.unprotect(password)
    except IllegalArgumentException:
        return True
    return sheet.isProtected()


def show(path: Path, tab: str, picture: Path) -> None:
    office = Office(os.environ["SHEETS_SYNC_SOFFICE"], headless=False)
    try:
        doc = office.open(path, hidden=False)
        controller = doc.CurrentController
        sheet = doc.Sheets.getByName(tab)
        controller.setActiveSheet(sheet)
        controller.select(sheet.getCellRangeByName("B3"))
        window = controller.Frame.ContainerWindow
        window.setPosSize(0, 0, 1100, 700, 15)
        window.setFocus()
        time.sleep(3)
        # a judge types a name into the cell (the focused window: there is no window manager):
        # LibreOffice answers with its message box, which stays up until somebody presses OK
        subprocess.run(["xdotool", "type", "--delay", "80", "Пума"], check=True, timeout=30)
        time.sleep(3)
        subprocess.run(["xwd", "-root", "-silent", "-out", str(picture)], check=True, timeout=30)
    finally:
        office.close()


if __name__ == "__main__":
    if sys.argv[1] == "check":
        print(json.dumps(check(Path(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None),
                         ensure_ascii=False))
    elif sys.argv[1] == "show":
        show(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
    else:
        raise SystemExit(f"unknown command {sys.argv[1]!r}: check | show")
