#!/usr/bin/env bash
# Installs the Debian packages of the real servers some tests start as private instances:
# Dovecot (packages/testing/src/dovecot.ts; without it most IMAP tests fall back to the
# in-process hoodiecrow server and the Dovecot-only ones skip), PgBouncer
# (packages/testing/src/pgbouncer.ts; without it test/engine/pgbouncer.test.ts skips) and
# Chromium (apps/api/test/docs-page.test.ts renders GET /docs in it; without it that test skips).
# Under CI none skips: a missing one fails those tests. The packages' system services are never
# started. Recommended packages are left out (Chromium renders without them). Only warns when apt
# is unavailable.
set -u

wanted=()
[ -x /usr/sbin/dovecot ] || wanted+=(dovecot-imapd)
[ -x /usr/sbin/pgbouncer ] || wanted+=(pgbouncer)
[ -x /usr/bin/chromium ] || wanted+=(chromium)
if [ ${#wanted[@]} -eq 0 ]; then
  echo "install-test-servers: Dovecot $(/usr/sbin/dovecot --version), $(/usr/sbin/pgbouncer --version | head -1) and $(/usr/bin/chromium --version 2>/dev/null) already installed"
  exit 0
fi

warn() {
  echo "install-test-servers: WARNING: $*; missing: ${wanted[*]}" >&2
  exit 0
}

if ! command -v apt-get >/dev/null 2>&1; then
  warn "apt-get not found"
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root() { "$@"; }
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root() { sudo -n "$@"; }
else
  warn "not root and no passwordless sudo"
fi

# policy-rc.d exit code 101 tells invoke-rc.d not to start services during the install.
policy=/usr/sbin/policy-rc.d
created_policy=no
if [ ! -e "$policy" ]; then
  if printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null \
    && as_root chmod 755 "$policy"; then
    created_policy=yes
  fi
fi
remove_policy() {
  if [ "$created_policy" = yes ]; then as_root rm -f "$policy"; fi
}
trap remove_policy EXIT

if ! as_root timeout 600 apt-get update -qq; then
  warn "apt-get update failed"
fi
if ! as_root env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null; then
  warn "apt-get install ${wanted[*]} failed"
fi

for binary in /usr/sbin/dovecot /usr/sbin/pgbouncer /usr/bin/chromium; do
  [ -x "$binary" ] || warn "$binary missing after install"
done
echo "install-test-servers: installed ${wanted[*]}"
