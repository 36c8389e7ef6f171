#!/usr/bin/env bash
# Builds procurement-connector_<version>_amd64.deb from a release tree (the tarball's, made by
# build-release.sh) with dpkg-deb: no network, no debhelper.
#
#   packaging/build-deb.sh <tree> <out-dir>      # DEB_COMPRESSION: dpkg-deb -Z [xz]
#
#   /opt/procurement-connector/               the tree, without its installers (dpkg installs);
#                                             packaging/monitoring/ (dashboard, alert rules) included
#   /usr/bin/procurement-connector            runs the launcher by its absolute path
#   /lib/systemd/system/procurement-connector.service
#   /etc/procurement-connector/connector.yaml, mappings/*.yaml    conffiles: an upgrade keeps an edited one
#                                             (each names its schema in /opt/procurement-connector/schemas/)
#   DEBIAN/postinst, prerm, postrm            packaging/deb/*, with packaging/layout.sh copied in
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
out=$(cd "$2" && pwd)

version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$tree/package.json" | head -1)
package=procurement-connector_${version}_amd64
maintainer='procurement-connector maintainers <maintainers@users.noreply.a-seed-6d02b03c.example>'
epoch=${SOURCE_DATE_EPOCH:-$(date +%s)}
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/$package
opt=$root/opt/procurement-connector

install -d -m 0755 "$opt" "$root/usr/bin" "$root/lib/systemd/system" "$root/DEBIAN" \
  "$root/etc/procurement-connector/mappings" "$root/usr/share/doc/procurement-connector" "$root/usr/share/lintian/overrides"
for entry in bin node dist node_modules package.json package-lock.json build-info.json README.md docs THIRD-PARTY-NOTICES config samples schemas; do
  if [ -e "$tree/$entry" ]; then cp -a "$tree/$entry" "$opt/"; fi
done
# The Grafana dashboard and the Prometheus alert rules, where the tarball has them (not the
# installers of packaging/: dpkg is the installer here).
install -d -m 0755 "$opt/packaging"
cp -a "$tree/packaging/monitoring" "$opt/packaging/"

cat >"$root/usr/bin/procurement-connector" <<'SH'
#!/bin/sh
# procurement-connector from the .deb: the launcher runs the bundled Node.js (/opt/procurement-connector/node).
exec /opt/procurement-connector/bin/procurement-connector "$@"
SH
chmod 0755 "$root/usr/bin/procurement-connector"
install -m 0644 "$tree/systemd/procurement-connector.service" "$root/lib/systemd/system/"

# The config and the mappings as conffiles; postinst gives them the layout's owner and mode.
# They hold no secret (the credentials are separate files), so 0644 until postinst runs is harmless.
# Each names its JSON Schema in /opt/procurement-connector/schemas/, as the installers write it.
# shellcheck source=packaging/layout.sh
PREFIX=/opt/procurement-connector . "$here/layout.sh"
PREFIX=/opt/procurement-connector layout_copy_yaml "$tree/config/connector.example.yaml" "$root/etc/procurement-connector/connector.yaml"
for mapping in "$tree"/config/mappings/*.yaml; do
  PREFIX=/opt/procurement-connector layout_copy_yaml "$mapping" "$root/etc/procurement-connector/mappings/${mapping##*/}"
done
chmod 0644 "$root"/etc/procurement-connector/connector.yaml "$root"/etc/procurement-connector/mappings/*.yaml
(cd "$root" && find etc -type f | sort | sed 's#^#/#') >"$root/DEBIAN/conffiles"

node_version=$("$tree/node/bin/node" -p 'process.versions.node')
sed -e "s/@NODE_VERSION@/$node_version/" -e "s/@YEAR@/$(date -u -d "@$epoch" +%Y)/" "$here/deb/copyright" >"$root/usr/share/doc/procurement-connector/copyright"
commit=$(sed -n 's/.*"commit": *"\([0-9a-f]*\)".*/\1/p' "$tree/build-info.json" 2>/dev/null || true)
{
  echo "procurement-connector ($version) unstable; urgency=medium"
  echo
  echo "  * Release $version${commit:+, built from commit $commit}, with Node.js $node_version."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n >"$root/usr/share/doc/procurement-connector/changelog.gz"
install -m 0644 "$here/deb/lintian-overrides" "$root/usr/share/lintian/overrides/procurement-connector"

# Maintainer scripts: packaging/layout.sh, down to its marker line, is pasted in where @LAYOUT@
# stands, so that the package needs nothing but itself and purge (which runs after the files are
# gone) still has it.
grep -q "^# ---- The .deb's maintainer scripts get everything above this line" "$here/layout.sh"
layout=$(sed "/^# ---- The .deb's maintainer scripts get everything above this line/,\$d" "$here/layout.sh")
for script in postinst prerm postrm; do
  LAYOUT=$layout awk '$0 == "@LAYOUT@" { print ENVIRON["LAYOUT"]; next } { print }' "$here/deb/$script" >"$root/DEBIAN/$script"
  chmod 0755 "$root/DEBIAN/$script"
done

# The libraries the bundled runtime and the native module link against, as dpkg-shlibdeps reads
# them from the symbols files of this system's libraries (libc6 >= 2.34 comes from better-sqlite3,
# compiled here).
mkdir -p "$work/shlibdeps/debian"
printf 'Source: procurement-connector\n\nPackage: procurement-connector\nArchitecture: amd64\n' >"$work/shlibdeps/debian/control"
# (Its warnings about V8's symbols, which the module finds in the node binary, are expected.)
shlibs=$(cd "$work/shlibdeps" && dpkg-shlibdeps -O "-e$opt/node/bin/node" "-e$opt/node_modules/better-sqlite3/build/Release/better_sqlite3.node" 2>"$work/shlibdeps.log") ||
  { cat "$work/shlibdeps.log" >&2; exit 1; }
shlibs=${shlibs#shlibs:Depends=}

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: procurement-connector
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $shlibs, init-system-helpers (>= 1.52), passwd
Section: net
Priority: optional
Description: connects a buyer's ERP (1C) to the procurement platform
 An on-prem daemon: it takes request files (CSV, JSON, NDJSON, windows-1251 or
 UTF-8) from an ERP export folder, maps them to the platform's payloads, submits
 each one exactly once over HTTP, receives the platform's signed status
 webhooks and writes acknowledgement and status files into the ERP's import
 folder.
 .
 Self-contained: it brings its own Node.js $node_version runtime in
 /opt/procurement-connector and needs no network to install.
CONTROL

(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$epoch" {} +

SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group "-Z${DEB_COMPRESSION:-xz}" --build "$root" "$out/$package.deb" >/dev/null
echo "   $out/$package.deb"
