#!/usr/bin/env bash
# Fetches the pinned Node.js runtime (packaging/node-runtime.env) into a cache folder, checks it,
# unpacks it, and prints the folder that holds bin/node, include/node and LICENSE.
#
#   packaging/fetch-node-runtime.sh          # cache: .cache/node-runtime/ (NODE_RUNTIME_CACHE)
#
# The one network access of the package build, like `npm ci`'s: `npm pack` from the npm registry
# (through npm's own cache, so a second build needs no network). The tarball is checked against the
# pinned integrity and bin/node against the pinned SHA-256 before anything uses them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/node-runtime.env
. "$here/node-runtime.env"

cache=${NODE_RUNTIME_CACHE:-$here/../.cache/node-runtime}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
tarball=$cache/$NODE_RUNTIME_PACKAGE-$NODE_RUNTIME_VERSION.tgz
runtime=$cache/node-v$NODE_RUNTIME_VERSION-linux-x64

integrity_of() {
  node -e 'const c = require("node:crypto"), fs = require("node:fs");
    process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$1"
}

if [ ! -f "$tarball" ] || [ "$(integrity_of "$tarball")" != "$NODE_RUNTIME_INTEGRITY" ]; then
  rm -rf "$tarball" "$runtime"
  echo "fetch-node-runtime: npm pack $NODE_RUNTIME_PACKAGE@$NODE_RUNTIME_VERSION" >&2
  (cd "$cache" && npm pack --silent "$NODE_RUNTIME_PACKAGE@$NODE_RUNTIME_VERSION" >/dev/null)
  actual=$(integrity_of "$tarball")
  if [ "$actual" != "$NODE_RUNTIME_INTEGRITY" ]; then
    rm -f "$tarball"
    echo "fetch-node-runtime: $NODE_RUNTIME_PACKAGE@$NODE_RUNTIME_VERSION has integrity $actual, expected $NODE_RUNTIME_INTEGRITY" >&2
    exit 1
  fi
fi

if [ ! -x "$runtime/bin/node" ]; then
  rm -rf "$runtime" "$runtime.tmp"
  mkdir -p "$runtime.tmp"
  tar -xzf "$tarball" -C "$runtime.tmp" --strip-components=1 --no-same-owner
  mv "$runtime.tmp" "$runtime"
fi
actual=$(sha256sum "$runtime/bin/node" | cut -d' ' -f1)
if [ "$actual" != "$NODE_RUNTIME_BINARY_SHA256" ]; then
  echo "fetch-node-runtime: $runtime/bin/node has SHA-256 $actual, expected $NODE_RUNTIME_BINARY_SHA256" >&2
  exit 1
fi
version=$("$runtime/bin/node" --version)
if [ "$version" != "v$NODE_RUNTIME_VERSION" ]; then
  echo "fetch-node-runtime: $runtime/bin/node says $version, expected v$NODE_RUNTIME_VERSION" >&2
  exit 1
fi
echo "$runtime"
