#!/bin/sh
# The keygen one-off of docker-compose.yml: creates a random ENCRYPTION_KEY in
# the given file the first time, and keeps it on every later run (the secrets in
# the database are encrypted with it). Run as root so it can write the fresh
# volume; the file is then readable by the apps' user (uid 1000) only.
#
#   sh scripts/compose-generate-key.sh /run/outreach-keys/encryption-key
set -eu
key_file=${1:?usage: compose-generate-key.sh <key file>}
if [ -s "$key_file" ]; then
  echo "encryption key: keeping the existing $key_file"
  exit 0
fi
umask 077
tmp="$key_file.tmp.$$"
node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))' >"$tmp"
if [ "$(id -u)" = 0 ]; then chown 1000:1000 "$tmp"; fi
chmod 400 "$tmp"
mv "$tmp" "$key_file"
echo "encryption key: generated $key_file"
