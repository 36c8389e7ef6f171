#!/usr/bin/env bash
# Install procurement-connector as a systemd service on this machine.
#
#   sudo systemd/install.sh            # from a checkout: builds, copies, creates user and folders
#
# Settings (environment variables, defaults in brackets):
#   PREFIX        where the program goes            [/opt/procurement-connector]
#   CONFIG_DIR    config and credentials            [/etc/procurement-connector]
#   EXCHANGE_DIR  the ERP exchange folders          [/srv/erp/exchange]
#   SERVICE_USER  the dedicated user                [procurement-connector]
#   ERP_GROUP     a group the ERP's user is in, given write access to the exchange folders [the service user's group]
#
# It never overwrites an existing config or credential, so it is safe to run again on upgrade.
set -euo pipefail

PREFIX=${PREFIX:-/opt/procurement-connector}
CONFIG_DIR=${CONFIG_DIR:-/etc/procurement-connector}
EXCHANGE_DIR=${EXCHANGE_DIR:-/srv/erp/exchange}
SERVICE_USER=${SERVICE_USER:-procurement-connector}
ERP_GROUP=${ERP_GROUP:-$SERVICE_USER}
UNIT=procurement-connector.service
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then echo "install.sh: run as root (sudo)" >&2; exit 1; fi
command -v node >/dev/null || { echo "install.sh: node (>= 20.19) is not installed" >&2; exit 1; }

echo "== building in $SRC"
(cd "$SRC" && npm ci && npm run build && npm prune --omit=dev)

echo "== user $SERVICE_USER"
getent group "$SERVICE_USER" >/dev/null || groupadd --system "$SERVICE_USER"
id -u "$SERVICE_USER" >/dev/null 2>&1 || useradd --system --gid "$SERVICE_USER" --home-dir /var/lib/procurement-connector --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
getent group "$ERP_GROUP" >/dev/null || groupadd --system "$ERP_GROUP"
# The daemon must read what the ERP's user writes (often mode 0640/0660) and the ERP what it writes.
usermod -a -G "$ERP_GROUP" "$SERVICE_USER"

echo "== program in $PREFIX"
install -d -m 0755 "$PREFIX"
cp -a "$SRC/dist" "$SRC/node_modules" "$SRC/package.json" "$SRC/README.md" "$SRC/config" "$PREFIX/"
chown -R root:root "$PREFIX"

echo "== config in $CONFIG_DIR"
install -d -m 0750 -o root -g "$SERVICE_USER" "$CONFIG_DIR" "$CONFIG_DIR/mappings"
install -d -m 0700 -o root -g root "$CONFIG_DIR/credentials"
[ -f "$CONFIG_DIR/connector.yaml" ] || install -m 0640 -o root -g "$SERVICE_USER" "$SRC/config/connector.example.yaml" "$CONFIG_DIR/connector.yaml"
for mapping in "$SRC"/config/mappings/*.yaml; do
  [ -f "$CONFIG_DIR/mappings/$(basename "$mapping")" ] || install -m 0640 -o root -g "$SERVICE_USER" "$mapping" "$CONFIG_DIR/mappings/"
done
for secret in platform-token webhook-secret supplier-token console-password; do
  if [ ! -f "$CONFIG_DIR/credentials/$secret" ]; then
    install -m 0600 -o root -g root /dev/null "$CONFIG_DIR/credentials/$secret"
    echo "   put the $secret into $CONFIG_DIR/credentials/$secret (mode 0600, root)"
  fi
done

echo "== exchange folders in $EXCHANGE_DIR"
for dir in inbox import results confirmations confirmation-results; do
  install -d -m 2770 -o "$SERVICE_USER" -g "$ERP_GROUP" "$EXCHANGE_DIR/$dir"
done

echo "== unit"
install -m 0644 "$SRC/systemd/$UNIT" "/etc/systemd/system/$UNIT"
if [ "$PREFIX" != /opt/procurement-connector ] || [ "$CONFIG_DIR" != /etc/procurement-connector ] || [ "$EXCHANGE_DIR" != /srv/erp/exchange ]; then
  sed -i -e "s#/opt/procurement-connector#$PREFIX#g" -e "s#/etc/procurement-connector#$CONFIG_DIR#g" -e "s#/srv/erp/exchange#$EXCHANGE_DIR#g" "/etc/systemd/system/$UNIT"
fi
sed -i -e "s#^User=.*#User=$SERVICE_USER#" -e "s#^Group=.*#Group=$SERVICE_USER#" "/etc/systemd/system/$UNIT"
systemctl daemon-reload
systemctl enable "$UNIT"

cat <<MSG

Installed. Next:
  1. edit $CONFIG_DIR/connector.yaml (platform.baseUrl, sourceSystem, flows, webhook)
  2. fill $CONFIG_DIR/credentials/platform-token, webhook-secret, console-password (and supplier-token for a confirmations flow)
  3. check it (as root: the credentials are root-only until systemd hands them over):
     CREDENTIALS_DIRECTORY=$CONFIG_DIR/credentials node $PREFIX/dist/src/cli.js check --config $CONFIG_DIR/connector.yaml
  4. systemctl start $UNIT && journalctl -u $UNIT -f
MSG
