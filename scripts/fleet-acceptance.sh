#!/usr/bin/env bash
# Runs the interface's acceptance scripts (spine, resources, language tools, documents, voice) against a
# fleet of two glossa-server instances with every feature, on one PostgreSQL and one Redis behind haproxy
# (started and stopped by packages/server/test/fleet-acceptance.ts). Needs the Debian packages of
# scripts/apt-packages.txt (postgresql, redis-server, haproxy, flite, ...).
#
#   scripts/fleet-acceptance.sh ACCEPTANCE_DIR      (e.g. ../shared/acceptance)
set -euo pipefail
acceptance="$(cd "${1:?usage: scripts/fleet-acceptance.sh ACCEPTANCE_DIR}" && pwd)"
root="$(cd "$(dirname "$0")/.." && pwd)"
wav="$(mktemp --suffix=.wav)"
trap 'rm -f "$wav"' EXIT
reference="i would like to buy a ticket to the city"
flite -voice kal16 -t "$reference." -o "$wav"
cd "$root/packages/server"
node --import tsx --conditions @glossa/source test/fleet-acceptance.ts --entry ../server-full/src/bin.ts \
  "$acceptance/spine.mjs" \
  --and "$acceptance/resources.mjs" \
  --and "$acceptance/language-tools.mjs" \
  --and "$acceptance/documents.mjs" "$root/packages/server-documents" \
  --and "$acceptance/voice.mjs" "$root/packages/server-voice" "$wav" "$reference"
