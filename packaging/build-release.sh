#!/usr/bin/env bash
# `npm run package`: builds the release packages into release/ (docs/packaging.md).
#
#   release/procurement-connector-<version>-linux-x64.tar.gz   self-contained, with the Node.js runtime
#   release/procurement-connector_<version>_amd64.deb          the same tree under /opt, built by build-deb.sh
#   release/SHA256SUMS
#
# Network: only what `npm ci` needs (the production packages, through npm's cache) and the pinned
# runtime (fetch-node-runtime.sh, cached in .cache/node-runtime/). The native better-sqlite3 module
# is compiled here, by the bundled runtime against its own headers, so its ABI is the runtime's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
started=$(date +%s)

version=$(node -p 'require("./package.json").version')
name=procurement-connector-$version-linux-x64
out=$repo/release
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/$name

echo "== runtime"
runtime=$(packaging/fetch-node-runtime.sh)
runtime_version=$("$runtime/bin/node" -p 'process.versions.node')
echo "   Node.js $runtime_version from $runtime"

echo "== compile (as npm run build does, into a clean folder and without source maps)"
npx --no-install tsc -p tsconfig.build.json --outDir "$work/tsc" --sourceMap false
npm run --silent build:assets -- "$work/tsc"

echo "== production node_modules for the bundled runtime"
mkdir -p "$tree"
cp package.json package-lock.json "$tree/"
# npm and node-gyp run on the bundled node (first on PATH) and build against its headers;
# build-from-source skips prebuild-install's download, which has nowhere to go here.
(cd "$tree" && PATH="$runtime/bin:$PATH" npm_config_nodedir="$runtime" npm_config_build_from_source=true \
  npm ci --omit=dev --no-audit --no-fund --loglevel=error)
# better-sqlite3 keeps its SQLite sources and object files after the build: only the module is used.
sqlite=$tree/node_modules/better-sqlite3
rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/binding.gyp"
find "$sqlite/build" -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} +
find "$sqlite/build/Release" -mindepth 1 ! -name better_sqlite3.node -exec rm -rf {} +
strip --strip-unneeded "$sqlite/build/Release/better_sqlite3.node"
# Nothing in node_modules is run as a command, so nothing there needs to be executable, nor
# .bin/; the packages' dotfiles (.npmignore, .eslintrc, .github/, …) are their authors' tooling.
find "$tree/node_modules" -mindepth 1 -name '.*' ! -path "$tree/node_modules/.package-lock.json" -prune -exec rm -rf {} +
find "$tree/node_modules" -type f -perm /111 -exec chmod 0644 {} +
# shellcheck disable=SC2016 # JavaScript, not shell
env -i "$runtime/bin/node" -e '
  const Database = require(process.argv[1]);
  const db = new Database(":memory:");
  console.log(`   better-sqlite3 loads in Node.js ${process.versions.node} (ABI ${process.versions.modules}), SQLite ${db.prepare("select sqlite_version() as v").get().v}`);
  db.close();' "$sqlite"

echo "== tree $name"
install -d "$tree/bin" "$tree/node/bin" "$tree/dist" "$tree/systemd" "$tree/packaging"
install -m 0755 bin/procurement-connector "$tree/bin/"
install -m 0755 "$runtime/bin/node" "$tree/node/bin/node"
install -m 0644 "$runtime/LICENSE" "$tree/node/LICENSE"
cp -a "$work/tsc/src" "$tree/dist/src"
cp -a config docs samples schemas "$tree/"
install -m 0644 systemd/procurement-connector.service "$tree/systemd/"
install -m 0644 packaging/layout.sh "$tree/packaging/"
# The Grafana dashboard and the Prometheus alert rules (packaging/monitoring/README.md).
cp -a packaging/monitoring "$tree/packaging/"
install -m 0755 packaging/install.sh packaging/uninstall.sh "$tree/"
install -m 0644 README.md "$tree/"
if packaging/build-info.sh >"$tree/build-info.json"; then :; else
  rm -f "$tree/build-info.json"
  echo "   not a git checkout: --version will say (source)"
fi
node "$work/tsc/packaging/third-party-notices.js" "$tree" "$runtime/LICENSE" "$runtime_version" "$repo/packaging/licenses" >"$tree/THIRD-PARTY-NOTICES"
# The console's editor bundles browser packages into one file (dist/src/admin/console/assets/editor.js);
# their licenses, gathered by its build, follow the node_modules ones.
editor_licenses=$tree/dist/src/admin/console/assets/editor.licenses.txt
[ -f "$editor_licenses" ] || { echo "build-release: $editor_licenses is missing" >&2; exit 1; }
{ printf '\n%s\n' "-------------------------------------------------------------------------------"; cat "$editor_licenses"; } >>"$tree/THIRD-PARTY-NOTICES"
find "$tree" -type d -exec chmod 0755 {} +
find "$tree" -type f ! -perm /111 -exec chmod 0644 {} +
echo "   $("$tree/bin/procurement-connector" --version)"

rm -rf "$out"
mkdir -p "$out"
# Reproducible archives: sorted names, root owner, every mtime the commit's.
mtime=$(git log -1 --format=%ct 2>/dev/null || date +%s)
echo "== $name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$work" -cf - "$name" | gzip -9n >"$out/$name.tar.gz"

echo "== .deb"
SOURCE_DATE_EPOCH=$mtime packaging/build-deb.sh "$tree" "$out"

(cd "$out" && sha256sum -- *.tar.gz *.deb >SHA256SUMS)
echo "== release/ ($(($(date +%s) - started)) s)"
ls -l "$out"
