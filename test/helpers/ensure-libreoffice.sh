#!/bin/sh
# LibreOffice for the xlsx export's cross-check (test/export/xlsx-libreoffice.test.ts): the test
# converts the workbooks we write to CSV with a spreadsheet that is not ours. Like
# test/helpers/ensure-chromium.sh, it installs Debian's package (libreoffice-calc-nogui, no GUI
# toolkits) where it can, as root on a Debian-like machine, and never downloads anything else.
# Prints the soffice path and exits 0 when LibreOffice is there; otherwise says why and exits 1
# (the test is then skipped, naming the reason). Cheap to call again: an existing soffice returns at once.
set -u
soffice=${SOFFICE:-}
[ -n "$soffice" ] && [ -x "$soffice" ] && { echo "$soffice"; exit 0; }
found=$(command -v soffice 2>/dev/null) && { echo "$found"; exit 0; }
if [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's libreoffice-calc-nogui for the xlsx cross-check (apt-get)" >&2
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >/dev/null; then
    found=$(command -v soffice 2>/dev/null) && { echo "$found"; exit 0; }
  fi
  echo "apt-get could not install libreoffice-calc-nogui" >&2
  exit 1
fi
echo "soffice is missing and this is not root on Debian; install it: sudo apt-get install libreoffice-calc-nogui" >&2
exit 1
