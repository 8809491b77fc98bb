#!/usr/bin/env bash
# Debian packages the tests use as real clients: Chromium (renders the site), LibreOffice
# (opens and re-saves the workbook, prints its tabs to PDF), poppler-utils (pdfinfo, pdftotext and
# pdftoppm count, read and picture those pages), DejaVu fonts (Cyrillic in the VK picture),
# python3-uno (tests/lo_protection.py types into a protected tab through LibreOffice's own view),
# libicu-dev, pkg-config and g++ (pip builds PyICU from source: tests/test_collation.py checks the
# Russian name order against ICU itself), PostgreSQL and Redis (the server's scale-out mode runs on
# real ones: tests/services.py starts private instances).
# Installed only when missing; without root or a package mirror the tests that need them skip
# with a reason instead of failing.
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc-nogui)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
/usr/bin/python3 -c 'import uno' >/dev/null 2>&1 || need+=(python3-uno)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists icu-i18n >/dev/null 2>&1 || need+=(libicu-dev)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: missing ${need[*]} (not root or no apt-get); the tests that need them will skip" >&2
  exit 0
fi
echo "system-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
  || echo "system-deps: could not install ${need[*]}; the tests that need them will skip" >&2
exit 0
