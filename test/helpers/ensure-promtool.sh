#!/bin/sh
# Prints the path of a promtool, for test/packaging/monitoring.test.ts (`promtool check rules` and
# `promtool test rules` on packaging/monitoring/alerts.yml). `npm test` runs it first (pretest), and
# the test runs it again when that did not happen (`npx vitest run test/packaging`).
#
# Looked for, in order: $PROMTOOL, promtool on PATH, the copy cached in .cache/promtool/. When none
# is there, the promtool of Debian's prometheus package is taken out of the package itself
# (apt-get download, which checks it against the signed archive index; dpkg-deb to unpack it)
# into the cache. The package is not installed: installing it would create a user and, on a machine
# running systemd, enable and start a Prometheus server on port 9090, none of which a test needs.
# As root, `apt-get update` runs first when the package lists do not know the package yet.
# Exits 1, saying why on stderr, when it cannot provide one.
set -u
if [ -n "${PROMTOOL:-}" ] && [ -x "$PROMTOOL" ]; then
  echo "$PROMTOOL"
  exit 0
fi
if found=$(command -v promtool 2>/dev/null); then
  echo "$found"
  exit 0
fi
repo=$(cd "$(dirname "$0")/../.." && pwd)
cached=$repo/.cache/promtool/promtool
if [ -x "$cached" ] && "$cached" --version >/dev/null 2>&1; then
  echo "$cached"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "ensure-promtool: no promtool and no apt-get here; install Prometheus's promtool (Debian: apt-get install prometheus) or set PROMTOOL" >&2
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/promtool.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt's downloader runs as the _apt user: it must be able to write here.
chmod 0755 "$work"
download() { (cd "$work" && apt-get download -qq prometheus >/dev/null 2>"$work/apt.log"); }
echo "ensure-promtool: taking promtool out of Debian's prometheus package (apt-get download; nothing is installed)" >&2
if ! download; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null 2>&1
    download
  fi
fi
deb=$(ls "$work"/prometheus_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
  echo "ensure-promtool: apt-get could not download the prometheus package:" >&2
  cat "$work/apt.log" >&2
  [ "$(id -u)" = 0 ] || echo "ensure-promtool: as root this would run apt-get update first; or: sudo apt-get install prometheus" >&2
  exit 1
fi
if ! dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$work" ./usr/bin/promtool; then
  echo "ensure-promtool: $deb holds no ./usr/bin/promtool" >&2
  exit 1
fi
mkdir -p "$(dirname "$cached")"
install -m 0755 "$work/usr/bin/promtool" "$cached"
if ! version=$("$cached" --version 2>&1 | head -1); then
  echo "ensure-promtool: the promtool taken from $(basename "$deb") does not run: $version" >&2
  exit 1
fi
echo "ensure-promtool: $version, in $cached" >&2
echo "$cached"
