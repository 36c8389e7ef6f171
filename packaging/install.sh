#!/usr/bin/env bash
# Install procurement-connector from this release tarball as a systemd service. Everything it needs
# is in the tarball (the Node.js runtime included): no Node.js, npm, compiler or network.
#
#   sudo ./install.sh                 # first install, and every upgrade (from the new version's tarball)
#
# Settings (environment variables; defaults and meaning in packaging/layout.sh): PREFIX, CONFIG_DIR,
# EXCHANGE_DIR, SERVICE_USER, ERP_GROUP. It sets up what systemd/install.sh and the .deb set up,
# from the same packaging/layout.sh, never overwrites an existing config or credential, and
# restarts a running service after an upgrade.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/layout.sh
. "$HERE/packaging/layout.sh"
layout_settings

if [ "$(id -u)" -ne 0 ]; then echo "install.sh: run as root (sudo)" >&2; exit 1; fi
if command -v dpkg-query >/dev/null && dpkg-query -W -f '${Status}' procurement-connector 2>/dev/null | grep -q ' installed$'; then
  echo "install.sh: the procurement-connector .deb is installed here; upgrade it with the .deb (apt install ./procurement-connector_<version>_amd64.deb)" >&2
  exit 1
fi
# Before anything changes: the bundled runtime and the native SQLite module must run on this system
# (the module needs glibc >= 2.34; docs/packaging.md).
if ! problem=$("$HERE/node/bin/node" -e 'new (require(process.argv[1]))(":memory:").close()' "$HERE/node_modules/better-sqlite3" 2>&1); then
  echo "install.sh: the bundled runtime cannot run here (docs/packaging.md, Requirements):" >&2
  echo "$problem" | head -5 >&2
  exit 1
fi

echo "== user $SERVICE_USER"
layout_create_user

echo "== program in $PREFIX"
layout_stop_service
layout_install_program "$HERE" bin node dist node_modules package.json package-lock.json build-info.json \
  README.md docs THIRD-PARTY-NOTICES config samples schemas systemd packaging/layout.sh packaging/monitoring install.sh uninstall.sh

echo "== config in $CONFIG_DIR"
layout_install_config "$HERE/config"

echo "== state and exchange folders in $LAYOUT_STATE_DIR, $EXCHANGE_DIR"
layout_create_folders

echo "== unit in $UNIT_DIR"
layout_install_unit "$HERE/systemd/$LAYOUT_UNIT"
layout_enable_unit
layout_start_service_again

echo
echo "Installed procurement-connector $("$PREFIX/bin/procurement-connector" --version)."
if [ "$LAYOUT_WAS_RUNNING" = yes ]; then echo "The service was running and has been restarted."; fi
layout_next_steps
