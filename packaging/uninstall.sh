#!/usr/bin/env bash
# Uninstall procurement-connector installed by the release tarball's install.sh or by
# systemd/install.sh (the .deb: apt remove, apt purge).
#
#   sudo /opt/procurement-connector/uninstall.sh            # the program and the unit; keeps config, credentials, state
#   sudo /opt/procurement-connector/uninstall.sh --purge    # also the config, the credentials and the store
#
# Settings: the ones the install used (PREFIX, CONFIG_DIR, UNIT_DIR; packaging/layout.sh). The
# exchange folders (the ERP's files) and the service user (who owns them) are always kept.
set -euo pipefail

purge=no
case "${1:-}" in
  '') ;;
  --purge) purge=yes ;;
  *) echo "usage: uninstall.sh [--purge]" >&2; exit 2 ;;
esac

HERE=$(cd "$(dirname "$0")" && pwd)
# In an installed tree layout.sh is in packaging/; in a checkout it is beside this file.
if [ -f "$HERE/packaging/layout.sh" ]; then LAYOUT=$HERE/packaging/layout.sh; else LAYOUT=$HERE/layout.sh; fi
# shellcheck source=packaging/layout.sh
. "$LAYOUT"
layout_settings

if [ "$(id -u)" -ne 0 ]; then echo "uninstall.sh: run as root (sudo)" >&2; exit 1; fi
if command -v dpkg-query >/dev/null && dpkg-query -W -f '${Status}' procurement-connector 2>/dev/null | grep -q ' installed$'; then
  echo "uninstall.sh: installed by the .deb; use: apt remove procurement-connector (or apt purge)" >&2
  exit 1
fi
if [ -e "$PREFIX" ] && [ ! -x "$PREFIX/bin/procurement-connector" ]; then
  echo "uninstall.sh: $PREFIX does not look like an install of procurement-connector; not touching it" >&2
  exit 1
fi

if [ -d /run/systemd/system ]; then
  systemctl disable --now "$LAYOUT_UNIT" 2>/dev/null || true
fi
rm -f "$UNIT_DIR/$LAYOUT_UNIT"
if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
rm -rf "$PREFIX"
echo "Removed the program ($PREFIX) and the unit ($UNIT_DIR/$LAYOUT_UNIT)."

if [ "$purge" = yes ]; then
  layout_purge
  echo "Purged the config and credentials ($CONFIG_DIR) and the store ($LAYOUT_STATE_DIR)."
else
  echo "Kept the config and credentials ($CONFIG_DIR) and the store ($LAYOUT_STATE_DIR); --purge deletes them."
fi
echo "Kept the exchange folders ($EXCHANGE_DIR) and the user $SERVICE_USER."
