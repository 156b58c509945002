#!/usr/bin/env bash
# Installs Debian's Dovecot IMAP server for the IMAP tests. The tests start their own private
# instances (see packages/testing/src/dovecot.ts), so the package's system service is never
# started. When apt is unavailable this only warns: the tests then use the in-process
# hoodiecrow IMAP server instead.
set -u

if [ -x /usr/sbin/dovecot ]; then
  echo "install-dovecot: $(/usr/sbin/dovecot --version) already installed"
  exit 0
fi

warn() {
  echo "install-dovecot: WARNING: $*; IMAP tests will use hoodiecrow instead of Dovecot" >&2
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
if ! as_root env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq dovecot-imapd >/dev/null; then
  warn "apt-get install dovecot-imapd failed"
fi

if [ -x /usr/sbin/dovecot ]; then
  echo "install-dovecot: installed $(/usr/sbin/dovecot --version)"
else
  warn "/usr/sbin/dovecot missing after install"
fi
