# shellcheck shell=sh
# The installed layout of procurement-connector, defined once. Three installers use it:
#
#   systemd/install.sh      from a checkout (builds, then uses the system's node)
#   install.sh              in the release tarball (the bundled runtime)
#   the .deb's postinst     (and postrm on purge), into which packaging/build-deb.sh copies the part
#                           above the marker line further down
#
# so that the user, the modes, the credentials and the hardened unit are the same whichever way the
# program arrived. POSIX sh (the maintainer scripts run under dash); sourced, so it sets no options.
#
# Settings (environment variables, defaults in brackets):
#   PREFIX        where the program goes            [/opt/procurement-connector]
#   CONFIG_DIR    config and credentials            [/etc/procurement-connector]
#   EXCHANGE_DIR  the ERP exchange folders          [/srv/erp/exchange]
#   SERVICE_USER  the dedicated user                [procurement-connector]
#   ERP_GROUP     a group the ERP's user is in, given write access to the exchange folders
#                 [the group the inbox already has, else the service user's group]
#   UNIT_DIR      where the unit goes (not for the .deb: /lib/systemd/system) [/etc/systemd/system]

LAYOUT_UNIT=procurement-connector.service
# The unit's StateDirectory= (the SQLite store) and WorkingDirectory=; the service user's home.
LAYOUT_STATE_DIR=/var/lib/procurement-connector
# The credentials the unit loads with LoadCredential= (an empty file is fine for one no flow uses).
LAYOUT_SECRETS="platform-token webhook-secret supplier-token console-password"
LAYOUT_EXCHANGE_FOLDERS="inbox import results confirmations confirmation-results"

# Fills in the settings above. Call it first.
layout_settings() {
  PREFIX=${PREFIX:-/opt/procurement-connector}
  CONFIG_DIR=${CONFIG_DIR:-/etc/procurement-connector}
  EXCHANGE_DIR=${EXCHANGE_DIR:-/srv/erp/exchange}
  SERVICE_USER=${SERVICE_USER:-procurement-connector}
  UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
  # An upgrade without ERP_GROUP keeps the group an earlier install gave the exchange folders,
  # rather than taking the ERP's access away.
  if [ -z "${ERP_GROUP:-}" ] && [ -d "$EXCHANGE_DIR/inbox" ]; then
    ERP_GROUP=$(stat -c %G "$EXCHANGE_DIR/inbox")
    [ "$ERP_GROUP" != UNKNOWN ] || ERP_GROUP=
  fi
  ERP_GROUP=${ERP_GROUP:-$SERVICE_USER}
}

# A system user and group without a shell; the user joins ERP_GROUP, since the daemon must read
# what the ERP's user writes (often mode 0640/0660) and the ERP what it writes.
layout_create_user() {
  getent group "$SERVICE_USER" >/dev/null || groupadd --system "$SERVICE_USER"
  id -u "$SERVICE_USER" >/dev/null 2>&1 ||
    useradd --system --gid "$SERVICE_USER" --home-dir "$LAYOUT_STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
  getent group "$ERP_GROUP" >/dev/null || groupadd --system "$ERP_GROUP"
  usermod -a -G "$ERP_GROUP" "$SERVICE_USER"
}

# The config folder (0750 root:service group), the config and the mappings (0640, readable by the
# daemon, never written by it), and the credentials (0700/0600 root: systemd hands them over).
# With EXAMPLES (a folder holding connector.example.yaml and mappings/), copies what is missing;
# an existing config, mapping or credential is never overwritten. The .deb passes none: dpkg
# installs the config and the mappings as conffiles.
#   layout_install_config [EXAMPLES]
layout_install_config() {
  install -d -m 0750 -o root -g "$SERVICE_USER" "$CONFIG_DIR" "$CONFIG_DIR/mappings"
  install -d -m 0700 -o root -g root "$CONFIG_DIR/credentials"
  if [ -n "${1:-}" ]; then
    [ -f "$CONFIG_DIR/connector.yaml" ] || layout_copy_yaml "$1/connector.example.yaml" "$CONFIG_DIR/connector.yaml"
    for layout_mapping in "$1"/mappings/*.yaml; do
      [ -f "$CONFIG_DIR/mappings/${layout_mapping##*/}" ] || layout_copy_yaml "$layout_mapping" "$CONFIG_DIR/mappings/${layout_mapping##*/}"
    done
  fi
  for layout_file in "$CONFIG_DIR/connector.yaml" "$CONFIG_DIR"/mappings/*.yaml; do
    if [ -f "$layout_file" ]; then
      chown root:"$SERVICE_USER" "$layout_file"
      chmod 0640 "$layout_file"
    fi
  done
  for layout_secret in $LAYOUT_SECRETS; do
    if [ ! -f "$CONFIG_DIR/credentials/$layout_secret" ]; then
      install -m 0600 -o root -g root /dev/null "$CONFIG_DIR/credentials/$layout_secret"
      echo "   put the $layout_secret into $CONFIG_DIR/credentials/$layout_secret (mode 0600, root)"
    fi
  done
}

# A shipped config or mapping copied into CONFIG_DIR. Its first line names the file's JSON Schema for
# an editor (`# yaml-language-server: $schema=../schemas/config.schema.json`), relative to the
# shipped tree, where it holds; from CONFIG_DIR it would name nothing, so it is pointed at the copy
# of the schemas in PREFIX. The daemon reads the line as the comment it is.
#   layout_copy_yaml SOURCE TARGET
layout_copy_yaml() {
  sed '1s#^\(\# yaml-language-server: [$]schema=\)\(\.\./\)*schemas/#\1'"$PREFIX"'/schemas/#' "$1" >"$2"
}

# The state folder (systemd's StateDirectory= would create it at the first start; made here so
# that `status` works before that) and the exchange folders: setgid, so that what either side
# writes keeps ERP_GROUP.
layout_create_folders() {
  install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$LAYOUT_STATE_DIR"
  for layout_dir in $LAYOUT_EXCHANGE_FOLDERS; do
    install -d -m 2770 -o "$SERVICE_USER" -g "$ERP_GROUP" "$EXCHANGE_DIR/$layout_dir"
  done
}

# Purge: the store and every config and credential. Never the exchange folders (the ERP's files)
# nor the user, who still owns them.
layout_purge() {
  rm -rf "$LAYOUT_STATE_DIR" "$CONFIG_DIR"
}

# What to do after an install, for the installers to print.
layout_next_steps() {
  cat <<MSG

Next:
  1. edit $CONFIG_DIR/connector.yaml (platform.baseUrl, sourceSystem, flows, webhook)
  2. fill $CONFIG_DIR/credentials/platform-token, webhook-secret, console-password (and supplier-token for a confirmations flow)
  3. check it (as root: the credentials are root-only until systemd hands them over):
     CREDENTIALS_DIRECTORY=$CONFIG_DIR/credentials $PREFIX/bin/procurement-connector check --config $CONFIG_DIR/connector.yaml
  4. systemctl start $LAYOUT_UNIT && journalctl -u $LAYOUT_UNIT -f
MSG
}

# ---- The .deb's maintainer scripts get everything above this line (packaging/build-deb.sh); the
# ---- installers below are for install.sh and systemd/install.sh: dpkg installs the program and the
# ---- unit itself, and deb-systemd-helper enables and starts the unit.

# Replaces the program in PREFIX with the named entries of a built tree (root-owned, 0755 folders).
# The new tree is assembled beside the old one and swapped in, so no file of an older version
# (a removed module) survives an upgrade.
#   layout_install_program SOURCE_TREE ENTRY...
layout_install_program() {
  layout_source=$1
  shift
  rm -rf "$PREFIX.new" "$PREFIX.old"
  install -d -m 0755 "$PREFIX.new"
  for layout_entry in "$@"; do
    install -d -m 0755 "$PREFIX.new/$(dirname "$layout_entry")"
    cp -a "$layout_source/$layout_entry" "$PREFIX.new/$layout_entry"
  done
  chown -R root:root "$PREFIX.new"
  chmod 0755 "$PREFIX.new"
  if [ -e "$PREFIX" ]; then mv "$PREFIX" "$PREFIX.old"; fi
  mv "$PREFIX.new" "$PREFIX"
  rm -rf "$PREFIX.old"
}

# The unit, with the paths and the user of these settings written in.
#   layout_install_unit UNIT_FILE
layout_install_unit() {
  install -d -m 0755 "$UNIT_DIR"
  install -m 0644 "$1" "$UNIT_DIR/$LAYOUT_UNIT"
  sed -i -e "s#/opt/procurement-connector#$PREFIX#g" -e "s#/etc/procurement-connector#$CONFIG_DIR#g" \
    -e "s#/srv/erp/exchange#$EXCHANGE_DIR#g" -e "s#^User=.*#User=$SERVICE_USER#" -e "s#^Group=.*#Group=$SERVICE_USER#" \
    "$UNIT_DIR/$LAYOUT_UNIT"
}

# Enables the unit (not the .deb: it uses deb-systemd-helper, which remembers the choice for purge).
# Without a running systemd (a container, a chroot) there is nothing to tell.
layout_enable_unit() {
  if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable "$LAYOUT_UNIT"
  else
    echo "   systemd is not running here: enable the unit with 'systemctl enable $LAYOUT_UNIT' once it is"
  fi
}

# An upgrade replaces the program under a running daemon, whose lazy imports would then find the
# new files (or none): stop it first, and start it again afterwards if it was running.
layout_stop_service() {
  LAYOUT_WAS_RUNNING=no
  if [ -d /run/systemd/system ] && systemctl is-active --quiet "$LAYOUT_UNIT"; then
    LAYOUT_WAS_RUNNING=yes
    systemctl stop "$LAYOUT_UNIT"
  fi
}

layout_start_service_again() {
  if [ "${LAYOUT_WAS_RUNNING:-no}" = yes ]; then systemctl start "$LAYOUT_UNIT"; fi
}
