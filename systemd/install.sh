#!/usr/bin/env bash
# Install procurement-connector as a systemd service on this machine, from a checkout, with the
# system's Node.js (>= 20.19). Without Node.js on the server, install a release package instead
# (docs/installation.md, "Install from a release package"): it sets up the same layout (packaging/layout.sh).
#
#   sudo systemd/install.sh            # builds, copies, creates user and folders
#
# Settings (environment variables, defaults in brackets):
#   PREFIX        where the program goes            [/opt/procurement-connector]
#   CONFIG_DIR    config and credentials            [/etc/procurement-connector]
#   EXCHANGE_DIR  the ERP exchange folders          [/srv/erp/exchange]
#   SERVICE_USER  the dedicated user                [procurement-connector]
#   ERP_GROUP     a group the ERP's user is in, given write access to the exchange folders
#                 [the group the inbox already has, else the service user's group]
#
# It never overwrites an existing config or credential, so it is safe to run again on upgrade.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=packaging/layout.sh
. "$SRC/packaging/layout.sh"
layout_settings

if [ "$(id -u)" -ne 0 ]; then echo "install.sh: run as root (sudo)" >&2; exit 1; fi
NODE=$(command -v node) || { echo "install.sh: node (>= 20.19) is not installed" >&2; exit 1; }

echo "== building in $SRC"
(cd "$SRC" && npm ci && npm run build && npm prune --omit=dev)

echo "== user $SERVICE_USER"
layout_create_user

echo "== program in $PREFIX (runtime: $NODE)"
layout_stop_service
layout_install_program "$SRC" bin dist node_modules package.json README.md docs config schemas packaging/layout.sh packaging/monitoring
if build_info=$("$SRC/packaging/build-info.sh"); then echo "$build_info" >"$PREFIX/build-info.json"; fi
install -m 0755 "$SRC/packaging/uninstall.sh" "$PREFIX/uninstall.sh"
# The launcher runs <prefix>/node/bin/node: here, the system's node, by the path found now.
install -d -m 0755 "$PREFIX/node/bin"
ln -s "$NODE" "$PREFIX/node/bin/node"

echo "== config in $CONFIG_DIR"
layout_install_config "$SRC/config"

echo "== state and exchange folders in $LAYOUT_STATE_DIR, $EXCHANGE_DIR"
layout_create_folders

echo "== unit"
layout_install_unit "$SRC/systemd/$LAYOUT_UNIT"
layout_enable_unit
layout_start_service_again

echo
echo "Installed procurement-connector $("$PREFIX/bin/procurement-connector" --version)."
layout_next_steps
