#!/usr/bin/env bash
# Prints build-info.json for the checkout this script sits in: the commit the build is made from,
# and whether the working tree had changes. `procurement-connector --version` reads it
# (src/version.ts). Outside a git checkout (a source archive) it prints nothing and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

commit=$(git rev-parse --short HEAD 2>/dev/null) || { echo "build-info.sh: not a git checkout" >&2; exit 1; }
modified=false
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then modified=true; fi
printf '{ "commit": "%s", "modified": %s }\n' "$commit" "$modified"
