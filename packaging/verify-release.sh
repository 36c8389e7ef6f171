#!/usr/bin/env bash
# Proof that the release packages in release/ (`npm run package`) work on a server without Node.js.
# .ci/run runs it; by hand:
#
#   packaging/verify-release.sh              # the tarball and the .deb, as files (any user)
#   sudo packaging/verify-release.sh --install
#                                            # also installs both for real on this machine, upgrades,
#                                            # removes and purges them (refuses where one is installed)
#
# The tarball: under 60 MB; unpacked in a temporary folder and run with a PATH that holds no node:
# --version (the commit it was built from), `check` on the example config with dummy credentials,
# and the demo for a full cycle (a sample in; an acknowledgement and a status file out; SIGTERM,
# exit 0). The .deb: dpkg-deb --info/--contents, lintian without errors, systemd-analyze verify on
# the unit as installed (in a root made of the package's files and this system's units).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
started=$(date +%s)

install_too=no
case "${1:-}" in
  '') ;;
  --install) install_too=yes ;;
  *) echo "usage: verify-release.sh [--install]" >&2; exit 2 ;;
esac

version=$(node -p 'require("./package.json").version')
name=procurement-connector-$version-linux-x64
tarball=$repo/release/$name.tar.gz
deb=$repo/release/procurement-connector_${version}_amd64.deb
max_bytes=$((60 * 1024 * 1024))
unit=procurement-connector.service

work=$(mktemp -d "${TMPDIR:-/tmp}/pc-verify.XXXXXX")
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then kill -KILL "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo "== $*"; }
ok() { echo "   ok: $*"; }
fail() {
  echo "verify-release: FAIL: $*" >&2
  exit 1
}
# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.5 s.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
  ok "$what"
}

[ -f "$tarball" ] || fail "$tarball is missing: run npm run package first"
[ -f "$deb" ] || fail "$deb is missing: run npm run package first"
expected_commit=
if commit=$(git rev-parse --short HEAD 2>/dev/null); then expected_commit=$commit; fi

# A PATH with the basic tools and no node: this machine's node is in /usr/bin, so not /usr/bin.
nonode=$work/no-node-path
mkdir -p "$nonode"
for tool in sh readlink cat ls sleep; do ln -s "$(command -v "$tool")" "$nonode/$tool"; done
# without_node [NAME=VALUE...] COMMAND...: COMMAND with only these variables.
without_node() { env -i PATH="$nonode" HOME="$work/home" LANG=C.UTF-8 "$@"; }
if without_node sh -c 'command -v node' >/dev/null; then fail "the test PATH $nonode holds a node"; fi

step "tarball $(basename "$tarball")"
bytes=$(stat -c %s "$tarball")
[ "$bytes" -lt "$max_bytes" ] || fail "the tarball is $bytes bytes, over 60 MB"
ok "$((bytes / 1024 / 1024)) MB ($bytes bytes), under 60 MB"
tar -xzf "$tarball" -C "$work"
tree=$work/$name
for entry in bin/procurement-connector node/bin/node node/LICENSE dist/src/cli.js dist/src/admin/console/assets/console.js dist/src/admin/console/assets/editor.js \
  node_modules/better-sqlite3/build/Release/better_sqlite3.node node_modules/hono/package.json \
  package.json build-info.json config/connector.example.yaml config/demo.yaml config/mappings samples schemas/config.schema.json \
  schemas/mapping.schema.json systemd/$unit \
  packaging/layout.sh packaging/monitoring/grafana-dashboard.json packaging/monitoring/alerts.yml packaging/monitoring/README.md \
  install.sh uninstall.sh README.md docs/troubleshooting.md docs/images THIRD-PARTY-NOTICES; do
  [ -e "$tree/$entry" ] || fail "the tarball lacks $entry"
done
# Every JSON Schema an editor may be pointed at, not only the two the shipped files name.
for schema in schemas/*.schema.json; do
  cmp -s "$schema" "$tree/$schema" || fail "the tarball lacks $schema, or holds another one"
done
ok "holds the runtime, the program (with the console's assets), node_modules, config, samples, schemas, the unit, the installers, the monitoring files, README with the manual (docs/) and notices"
# Production packages only: the test, lint and type tools of a checkout stay out.
for dev in vitest typescript eslint prettier playwright-core; do
  [ ! -e "$tree/node_modules/$dev" ] || fail "the tarball holds the development package $dev"
done
ok "node_modules holds no development package (vitest, typescript, eslint, prettier, playwright-core)"
for dependency in $(node -p 'Object.keys(require("./package.json").dependencies).join(" ")'); do
  grep -q "^$dependency " "$tree/THIRD-PARTY-NOTICES" || fail "THIRD-PARTY-NOTICES does not list $dependency"
done
grep -q '^Node.js ' "$tree/THIRD-PARTY-NOTICES" || fail "THIRD-PARTY-NOTICES does not name Node.js"
grep -q '^Packages bundled into editor.js' "$tree/THIRD-PARTY-NOTICES" || fail "THIRD-PARTY-NOTICES lacks the console editor's bundled packages"
ok "THIRD-PARTY-NOTICES names Node.js, every dependency and the editor's bundled packages"

step "--version, with PATH=$nonode (no node)"
line=$(without_node "$tree/bin/procurement-connector" --version)
echo "   $line"
[[ $line == "$version (commit "* ]] || fail "--version says '$line', expected '$version (commit ...)'"
if [ -n "$expected_commit" ] && [[ $line != "$version (commit $expected_commit"* ]]; then
  fail "--version names another commit than this checkout's HEAD ($expected_commit): a stale package?"
fi
ln -s "$tree/bin/procurement-connector" "$work/linked-launcher"
[ "$(without_node "$work/linked-launcher" --version)" = "$line" ] || fail "the launcher fails when reached through a symlink"
ok "also through a symlink to the launcher"

step "check on the example config, with dummy credentials"
creds=$work/credentials
mkdir -p "$creds"
for secret in platform-token webhook-secret supplier-token console-password; do printf 'dummy-%s-0123456789' "$secret" >"$creds/$secret"; done
sed -e "s#/etc/procurement-connector/mappings/#$tree/config/mappings/#g" -e "s#/srv/erp/exchange/#$work/exchange/#g" \
  -e "s#/var/lib/procurement-connector#$work/state#g" "$tree/config/connector.example.yaml" >"$work/connector.yaml"
out=$(without_node CREDENTIALS_DIRECTORY="$creds" "$tree/bin/procurement-connector" check --config "$work/connector.yaml") ||
  fail "check exited $?: $out"
[ "$out" = OK ] || fail "check printed '$out'"
ok "check: OK"
if without_node "$tree/bin/procurement-connector" check --config "$work/connector.yaml" >/dev/null 2>&1; then
  fail "check passed without the credentials"
fi
ok "and without the credentials it fails"
out=$(without_node "$tree/bin/procurement-connector" schema mapping-requests) || fail "schema exited $?"
grep -q '"$id": "urn:procurement-connector:schema:mapping-requests"' <<<"$out" || fail "schema mapping-requests printed no such schema"
ok "schema mapping-requests prints the JSON Schema editors read (shipped in schemas/)"

step "the demo, a full cycle (config/demo.yaml in the unpacked tree)"
demo=config/demo.yaml
admin_port=9464
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if port_busy 8787 || port_busy 8788 || port_busy 9464; then
  # Someone runs a demo already: the same demo on free ports.
  ports=()
  for candidate in $(shuf -i 20000-60000 -n 20); do
    port_busy "$candidate" || ports+=("$candidate")
  done
  sed -e "s/8787/${ports[0]}/g" -e "s/8788/${ports[1]}/g" -e "s/9464/${ports[2]}/g" "$tree/$demo" >"$tree/config/demo-verify.yaml"
  demo=config/demo-verify.yaml
  admin_port=${ports[2]}
  echo "   the demo's ports are busy here: on ${ports[*]:0:3} instead"
fi
(cd "$tree" && exec env -i PATH="$nonode" HOME="$work/home" LANG=C.UTF-8 bin/procurement-connector run --config "$demo") \
  >"$work/demo.log" 2>"$work/demo.err" &
daemon_pid=$!
demo_started() {
  kill -0 "$daemon_pid" 2>/dev/null || fail "the demo exited during its start: $(cat "$work/demo.err" "$work/demo.log")"
  grep -q '"msg":"connector started"' "$work/demo.log"
}
wait_for 60 "the demo started" demo_started || fail "the demo did not start within 60 s: $(cat "$work/demo.err")"
cp "$tree/samples/requests-1c-windows1251.csv" "$tree/var/inbox/"
has_file() { compgen -G "$1" >/dev/null; }
wait_for 60 "an acknowledgement in var/import" has_file "$tree/var/import/ack-*.csv" || fail "no acknowledgement in var/import within 60 s: $(ls -R "$tree/var")"
wait_for 60 "a status file in var/import" has_file "$tree/var/import/order-status-*.csv" ||
  fail "no order status file in var/import within 60 s: $(ls -R "$tree/var")"
echo "   var/import: $(find "$tree/var/import" -maxdepth 1 -type f -printf '%f ' | head -c 300)"
# The console from the installed tree: its page and its script (the assets the build copies).
# shellcheck disable=SC2016 # JavaScript, not shell
env -i "$tree/node/bin/node" --input-type=module -e '
  const base = `http://127.0.0.1:${process.argv[1]}`;
  const page = await fetch(`${base}/`);
  const script = await fetch(`${base}/assets/console.js`);
  if (page.status !== 200 || !(await page.text()).includes("<html")) throw new Error(`/ answered ${page.status}`);
  if (script.status !== 200) throw new Error(`/assets/console.js answered ${script.status}`);' "$admin_port" ||
  fail "the console did not answer from the unpacked tree"
ok "the console answers on port $admin_port, with its script"
kill -TERM "$daemon_pid"
status=0
wait "$daemon_pid" || status=$?
daemon_pid=
[ "$status" -eq 0 ] || fail "the demo exited $status after SIGTERM: $(tail -5 "$work/demo.err")"
ok "SIGTERM: a clean stop, exit 0"

step ".deb $(basename "$deb")"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb" >"$work/contents"
for path in ./opt/procurement-connector/bin/procurement-connector ./opt/procurement-connector/node/bin/node \
  ./opt/procurement-connector/dist/src/cli.js ./opt/procurement-connector/THIRD-PARTY-NOTICES ./usr/bin/procurement-connector \
  ./opt/procurement-connector/packaging/monitoring/alerts.yml ./opt/procurement-connector/packaging/monitoring/grafana-dashboard.json \
  ./lib/systemd/system/$unit ./etc/procurement-connector/connector.yaml ./usr/share/doc/procurement-connector/copyright; do
  grep -q " $path\( \|$\)" "$work/contents" || fail "the .deb lacks $path"
done
ok "contents ($(wc -l <"$work/contents") entries): /opt tree (with the monitoring files), /usr/bin launcher, unit, conffiles, copyright"
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles >"$work/conffiles"
grep -qx /etc/procurement-connector/connector.yaml "$work/conffiles" || fail "connector.yaml is not a conffile"
ok "conffiles: $(tr '\n' ' ' <"$work/conffiles")"

step "lintian"
command -v lintian >/dev/null || fail "lintian is not installed (apt-get install -y lintian)"
lintian --fail-on error "$deb" | tee "$work/lintian" || fail "lintian reports errors"
ok "no errors ($(grep -c '^W:' "$work/lintian" || true) warnings; overrides: packaging/deb/lintian-overrides)"

step "systemd-analyze verify, the unit as the .deb installs it"
root=$work/deb-root
dpkg-deb -x "$deb" "$root"
# verify resolves the unit's dependencies (sysinit.target, ...) and ExecReload's /bin/kill in the
# root too: this system's units and kill, next to the package's files.
for file in /lib/systemd/system/*; do
  [ -e "$root/lib/systemd/system/${file##*/}" ] || cp -a "$file" "$root/lib/systemd/system/"
done
install -D -m 0755 "$(type -P kill)" "$root/bin/kill"
systemd-analyze verify --root="$root" "/lib/systemd/system/$unit" || fail "systemd-analyze verify"
ok "verify --root: clean"
[ "$(without_node "$root/opt/procurement-connector/bin/procurement-connector" --version)" = "$line" ] ||
  fail "the .deb's launcher does not say '$line'"
ok "the .deb's launcher: $line"

if [ "$install_too" = yes ]; then
  "$repo/packaging/verify-install.sh" "$tree" "$deb"
fi

echo "verify-release: all checks passed ($(($(date +%s) - started)) s)"
