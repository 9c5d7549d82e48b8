#!/usr/bin/env bash
# Installs what Glossa needs on a fresh Debian machine with Node 20 and npm:
# the Debian packages in scripts/apt-packages.txt (real engines), the pinned pnpm, and the workspace.
# Idempotent: what is already installed is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=$(grep -v '^\s*#' scripts/apt-packages.txt | grep -v '^\s*$' | tr '\n' ' ')
missing=()
for package in $packages; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=''
  [ "$(id -u)" -eq 0 ] || sudo='sudo'
  if command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: apt-get not found; install these packages by hand for real translation: ${missing[*]}" >&2
  fi
fi

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "setup: installing pnpm $pnpm_version"
  npm install -g "pnpm@$pnpm_version" >/dev/null
fi

pnpm install --frozen-lockfile
