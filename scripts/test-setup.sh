#!/bin/sh
# System packages the web tests need, installed only when missing (Debian 12, as root):
#   chromium    /usr/bin/chromium, for the browser tests (Playwright drives it), with a font
#   postgresql  server binaries under /usr/lib/postgresql/*/bin, for the PostgreSQL
#               persistence tests (the tests start their own server in a temp directory)
# `make test` runs this before pytest.  Idempotent and quiet; a no-op when all is there.
set -eu

need=""
[ -x /usr/bin/chromium ] || need="$need chromium fonts-liberation"
found_pg=no
for bin in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$bin" ] && [ -x "$(dirname "$bin")/pg_ctl" ] && found_pg=yes
done
[ "$found_pg" = yes ] || need="$need postgresql"

[ -z "$need" ] && exit 0

fail() {
    echo "test-setup: $*" >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    fail "missing:$need; run this script as root (or: sudo apt-get install$need)"
fi
command -v apt-get >/dev/null 2>&1 || fail "missing:$need and no apt-get here; install them by hand"

log=$(mktemp /tmp/test-setup.XXXXXX.log)
echo "test-setup: installing$need (log: $log)"
export DEBIAN_FRONTEND=noninteractive
# Another apt-get (a second checkout's set-up, a fresh machine's own updates) may hold apt's
# locks; apt-get update does not wait for them, so try again for up to five minutes.
tries=0
# shellcheck disable=SC2086  # $need is a list of package names
until { apt-get update -q && apt-get install -y -q --no-install-recommends $need; } >"$log" 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -lt 60 ] && grep -q -e 'Could not get lock' -e 'Unable to lock' "$log"; then
        sleep 5
        continue
    fi
    tail -n 20 "$log" >&2
    fail "apt-get install$need failed (full log: $log)"
done

[ -x /usr/bin/chromium ] || fail "chromium was installed but /usr/bin/chromium is missing"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || fail "postgresql was installed but no /usr/lib/postgresql/*/bin/initdb"
rm -f "$log"
echo "test-setup: done"
