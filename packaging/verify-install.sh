#!/usr/bin/env bash
# Real installs of the release packages on this machine, as root (verify-release.sh --install):
#
#   1. the tarball's install.sh into temporary folders (PREFIX, CONFIG_DIR, EXCHANGE_DIR, UNIT_DIR),
#      with ERP_GROUP; again as an upgrade (edits kept, ERP_GROUP kept, stale files gone);
#      uninstall.sh, then uninstall.sh --purge
#   2. the .deb with dpkg: install, the same layout as the tarball's (modes, owners), an upgrade to a
#      newer version (an edited conffile kept, an unedited one updated), remove, purge
#
#   packaging/verify-install.sh <unpacked-tarball-tree> <deb>
#
# It refuses to run where procurement-connector is installed, and leaves the machine as it found it
# (the user, the groups and /srv/erp/exchange are removed again if it created them).
# shellcheck disable=SC2015 # "test && test || fail": fail exits, so it runs exactly when a test fails
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
deb=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")

user=procurement-connector
erp_group=pc-verify-erp
unit=procurement-connector.service

step() { echo "== $*"; }
ok() { echo "   ok: $*"; }
fail() {
  echo "verify-install: FAIL: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run as root: it installs for real"
if dpkg-query -W -f '${Status}' procurement-connector 2>/dev/null | grep -q 'installed'; then fail "the .deb is installed here"; fi
for path in /opt/procurement-connector /etc/procurement-connector /var/lib/procurement-connector /etc/systemd/system/$unit; do
  [ ! -e "$path" ] || fail "$path exists: an install is here, not touching it"
done
getent group "$erp_group" >/dev/null && fail "the group $erp_group exists"
user_existed=no
id -u "$user" >/dev/null 2>&1 && user_existed=yes
srv_existed=no
[ -e /srv/erp ] && srv_existed=yes

work=$(mktemp -d "${TMPDIR:-/tmp}/pc-install.XXXXXX")
# The service user must reach the temporary install, as it would /opt and /etc.
chmod 0755 "$work"
cleanup() {
  if dpkg-query -W -f '${Status}' procurement-connector 2>/dev/null | grep -q 'installed'; then dpkg --purge procurement-connector >/dev/null || true; fi
  rm -rf "$work" /var/lib/procurement-connector
  if [ "$srv_existed" = no ]; then rm -rf /srv/erp; fi
  if [ "$user_existed" = no ] && id -u "$user" >/dev/null 2>&1; then userdel "$user" || true; fi
  if [ "$user_existed" = no ] && getent group "$user" >/dev/null; then groupdel "$user" || true; fi
  if getent group "$erp_group" >/dev/null; then groupdel "$erp_group" || true; fi
}
trap cleanup EXIT

nonode=$work/no-node-path
mkdir -p "$nonode"
for tool in sh readlink; do ln -s "$(command -v "$tool")" "$nonode/$tool"; done

# expect_stat PATH "MODE OWNER:GROUP"
expect_stat() {
  local actual
  actual=$(stat -c '%a %U:%G' "$1")
  [ "$actual" = "$2" ] || fail "$1 is $actual, expected $2"
}
# Every path below CONFIG_DIR and EXCHANGE_DIR with its mode and owner, the exchange folders' group
# (ERP_GROUP) written as ERP, to compare two installs.
#   layout_listing CONFIG_DIR EXCHANGE_DIR ERP_GROUP
layout_listing() {
  (cd "$1" && find . -printf 'config/%P %m %u:%g\n' | sort)
  (cd "$2" && find . -printf 'exchange/%P %m %u:%g\n' | sort) | sed -E "/^exchange\/[^ ]/ s/:$3\$/:ERP/"
  stat -c 'state %a %U:%G' /var/lib/procurement-connector
}
expect_layout() { # CONFIG_DIR EXCHANGE_DIR ERP_GROUP
  expect_stat "$1" "750 root:$user"
  expect_stat "$1/connector.yaml" "640 root:$user"
  expect_stat "$1/mappings" "750 root:$user"
  expect_stat "$1/mappings/1c-requests.yaml" "640 root:$user"
  expect_stat "$1/credentials" "700 root:root"
  for secret in platform-token webhook-secret supplier-token; do expect_stat "$1/credentials/$secret" "600 root:root"; done
  for folder in inbox import results confirmations confirmation-results; do expect_stat "$2/$folder" "2770 $user:$3"; done
  expect_stat /var/lib/procurement-connector "750 $user:$user"
  id -nG "$user" | tr ' ' '\n' | grep -qx "$3" || fail "$user is not in the group $3"
  runuser -u "$user" -- test -r "$1/connector.yaml" || fail "$user cannot read the config"
  if runuser -u "$user" -- test -r "$1/credentials/platform-token"; then fail "$user can read the credentials"; fi
  ok "user $user (in $3), config 0750/0640 root:$user, credentials 0700/0600 root, exchange folders 2770 $user:$3, state 0750"
}

# The first line of an installed config or mapping names, for an editor, a schema the install holds.
#   expect_schema_line FILE SCHEMA_FILE
expect_schema_line() {
  [ "$(head -1 "$1")" = "# yaml-language-server: \$schema=$2" ] || fail "$1 names '$(head -1 "$1")', expected the schema $2"
  [ -f "$2" ] || fail "$2, the schema $1 names, is missing"
}

step "tarball: install.sh into $work/tarball"
t=$work/tarball
settings=(PREFIX="$t/opt/procurement-connector" CONFIG_DIR="$t/etc/procurement-connector" EXCHANGE_DIR="$t/srv/erp/exchange" UNIT_DIR="$t/systemd")
groupadd --system "$erp_group"
env "${settings[@]}" ERP_GROUP="$erp_group" "$tree/install.sh" >"$work/install.log" || fail "install.sh: $(cat "$work/install.log")"
expect_layout "$t/etc/procurement-connector" "$t/srv/erp/exchange" "$erp_group"
version_line=$(env -i PATH="$nonode" "$t/opt/procurement-connector/bin/procurement-connector" --version)
[ "$(runuser -u "$user" -- env -i PATH="$nonode" "$t/opt/procurement-connector/bin/procurement-connector" --version)" = "$version_line" ] ||
  fail "the service user cannot run the program"
ok "the program runs, as root and as $user: $version_line"
[ -f "$t/opt/procurement-connector/packaging/monitoring/alerts.yml" ] || fail "install.sh left out packaging/monitoring/"
expect_schema_line "$t/etc/procurement-connector/connector.yaml" "$t/opt/procurement-connector/schemas/config.schema.json"
expect_schema_line "$t/etc/procurement-connector/mappings/supplier-confirmations.yaml" "$t/opt/procurement-connector/schemas/mapping-confirmations.schema.json"
ok "the installed config and mappings name their schemas in the program's schemas/"
installed_unit=$t/systemd/$unit
grep -qx "ExecStart=$t/opt/procurement-connector/bin/procurement-connector run --config $t/etc/procurement-connector/connector.yaml" "$installed_unit" ||
  fail "the installed unit's ExecStart: $(grep ExecStart= "$installed_unit")"
grep -qx "ReadWritePaths=$t/srv/erp/exchange" "$installed_unit" || fail "the installed unit's ReadWritePaths"
systemd-analyze verify "$installed_unit" || fail "systemd-analyze verify $installed_unit"
ok "the unit as installed: its paths written in, systemd-analyze verify clean"
layout_listing "$t/etc/procurement-connector" "$t/srv/erp/exchange" "$erp_group" >"$work/tarball-layout"

step "tarball: install.sh again, as an upgrade without ERP_GROUP"
echo "# edited by verify-install" >>"$t/etc/procurement-connector/connector.yaml"
echo "secret-token" >"$t/etc/procurement-connector/credentials/platform-token"
touch "$t/opt/procurement-connector/dist/src/left-over-module.js"
env "${settings[@]}" "$tree/install.sh" >"$work/install.log" || fail "install.sh (upgrade): $(cat "$work/install.log")"
grep -q '^# edited by verify-install$' "$t/etc/procurement-connector/connector.yaml" || fail "the upgrade overwrote the config"
[ "$(cat "$t/etc/procurement-connector/credentials/platform-token")" = secret-token ] || fail "the upgrade overwrote a credential"
[ ! -e "$t/opt/procurement-connector/dist/src/left-over-module.js" ] || fail "a file of the old program survived the upgrade"
expect_layout "$t/etc/procurement-connector" "$t/srv/erp/exchange" "$erp_group"
ok "config and credentials kept, the old program replaced whole, ERP_GROUP kept"

step "tarball: uninstall.sh, then uninstall.sh --purge"
env "${settings[@]}" "$t/opt/procurement-connector/uninstall.sh" >/dev/null
[ ! -e "$t/opt/procurement-connector" ] && [ ! -e "$installed_unit" ] || fail "uninstall.sh left the program or the unit"
[ -f "$t/etc/procurement-connector/connector.yaml" ] && [ -d /var/lib/procurement-connector ] || fail "uninstall.sh removed the config or the store"
env "${settings[@]}" "$tree/uninstall.sh" --purge >/dev/null
[ ! -e "$t/etc/procurement-connector" ] && [ ! -e /var/lib/procurement-connector ] || fail "uninstall.sh --purge left the config or the store"
[ -d "$t/srv/erp/exchange/inbox" ] || fail "uninstall.sh --purge removed the exchange folders"
ok "uninstall keeps config and store; --purge removes them; the exchange folders stay"
# The .deb has fixed paths and no ERP_GROUP: start it from a service user in its own group only.
gpasswd -d "$user" "$erp_group" >/dev/null

step ".deb: dpkg -i"
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$work/dpkg.log")"
expect_layout /etc/procurement-connector /srv/erp/exchange "$user"
layout_listing /etc/procurement-connector /srv/erp/exchange "$user" >"$work/deb-layout"
diff "$work/tarball-layout" "$work/deb-layout" >"$work/layout.diff" || fail "the .deb's layout differs from the tarball's: $(cat "$work/layout.diff")"
ok "the same layout as the tarball's install.sh (every path, mode and owner below config and exchange)"
deb_version_line=$(env -i PATH="$nonode" /usr/bin/procurement-connector --version)
[ "$deb_version_line" = "$version_line" ] || fail "/usr/bin/procurement-connector says $deb_version_line"
ok "/usr/bin/procurement-connector --version, without node on PATH: $deb_version_line"
expect_schema_line /etc/procurement-connector/connector.yaml /opt/procurement-connector/schemas/config.schema.json
expect_schema_line /etc/procurement-connector/mappings/status-export.yaml /opt/procurement-connector/schemas/status-export.schema.json
ok "the conffiles name their schemas in /opt/procurement-connector/schemas/"
systemd-analyze verify "/lib/systemd/system/$unit" || fail "systemd-analyze verify /lib/systemd/system/$unit"
ok "systemd-analyze verify /lib/systemd/system/$unit: clean"

step ".deb: upgrade to a newer version"
version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$tree/package.json" | head -1)
next=$work/next
cp -a "$tree" "$next"
sed -i "s/\"version\": \"$version\"/\"version\": \"$version+verify1\"/" "$next/package.json"
echo "# changed in $version+verify1" >>"$next/config/mappings/status-export.yaml"
mkdir -p "$work/next-deb"
DEB_COMPRESSION=none "$here/build-deb.sh" "$next" "$work/next-deb" >/dev/null
echo "# edited by verify-install" >>/etc/procurement-connector/connector.yaml
echo "secret-token" >/etc/procurement-connector/credentials/platform-token
dpkg -i "$work"/next-deb/*.deb >"$work/dpkg.log" 2>&1 </dev/null || fail "dpkg -i (upgrade): $(cat "$work/dpkg.log")"
[ "$(dpkg-query -W -f '${Version}' procurement-connector)" = "$version+verify1" ] || fail "the upgrade did not happen"
grep -q '^# edited by verify-install$' /etc/procurement-connector/connector.yaml || fail "the upgrade overwrote the edited connector.yaml"
grep -q "^# changed in $version+verify1$" /etc/procurement-connector/mappings/status-export.yaml || fail "the upgrade did not update an unedited conffile"
[ "$(cat /etc/procurement-connector/credentials/platform-token)" = secret-token ] || fail "the upgrade overwrote a credential"
expect_layout /etc/procurement-connector /srv/erp/exchange "$user"
ok "$version -> $version+verify1: the edited config kept, the unedited mapping updated, credentials kept"

step ".deb: dpkg -r, then dpkg -P"
dpkg -r procurement-connector >"$work/dpkg.log" 2>&1 || fail "dpkg -r: $(cat "$work/dpkg.log")"
[ ! -e /opt/procurement-connector ] && [ ! -e /usr/bin/procurement-connector ] && [ ! -e "/lib/systemd/system/$unit" ] ||
  fail "dpkg -r left the program, the launcher or the unit"
[ -f /etc/procurement-connector/connector.yaml ] && [ -f /etc/procurement-connector/credentials/platform-token ] && [ -d /var/lib/procurement-connector ] ||
  fail "dpkg -r removed the config, the credentials or the store"
ok "remove: the program gone; config, credentials and store kept"
dpkg -P procurement-connector >"$work/dpkg.log" 2>&1 || fail "dpkg -P: $(cat "$work/dpkg.log")"
[ ! -e /etc/procurement-connector ] && [ ! -e /var/lib/procurement-connector ] || fail "dpkg -P left the config or the store"
[ -d /srv/erp/exchange/inbox ] && id -u "$user" >/dev/null || fail "dpkg -P removed the exchange folders or the user"
ok "purge: config, credentials and store gone; the exchange folders and the user stay"

echo "verify-install: all checks passed"
