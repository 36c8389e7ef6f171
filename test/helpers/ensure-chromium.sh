#!/bin/sh
# `npm test`'s first step (pretest). The console's browser tests drive Debian's Chromium
# (test/helpers/console/with-browser.ts); no browser build is ever downloaded. When it is missing,
# this installs it with apt-get where it can (root on a Debian-like machine), so `npm ci && npm test`
# works on a fresh machine; elsewhere it says how, and the browser tests fail naming it.
set -u
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing Debian's chromium for the console's browser tests (apt-get)" >&2
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; then
    exit 0
  fi
  echo "pretest: apt-get could not install chromium; the console's browser tests will fail" >&2
else
  echo "pretest: $chromium is missing; the console's browser tests will fail. Install it: sudo apt-get install chromium" >&2
fi
exit 0
