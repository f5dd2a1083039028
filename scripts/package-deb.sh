#!/usr/bin/env bash
# Builds the installable Debian package of Unfold with Tauri's bundler, from the release profile
# and offline: the desktop app (/usr/bin/unfold-app, its menu entry and icons) and the unfold
# command line (/usr/bin/unfold). Prints the package's path last:
#   target/release/bundle/deb/Unfold_<version>_amd64.deb
# Install it with `sudo apt install ./that.deb` (or `sudo dpkg -i` it). Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

ensure_app_system_packages
require_tools node npm cargo

cd "$ROOT/ui"
step npm install --no-audit --no-fund
cd "$ROOT"
# The package carries the command line too (tauri.conf.json's bundle.linux.deb.files).
step cargo build --release --locked -p unfold-cli
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
# tauri.conf.json names the command line under target/; cargo built it under $TARGET.
FILES="$(node -e 'console.log(JSON.stringify({ bundle: { linux: { deb: { files: { "/usr/bin/unfold": process.argv[1] } } } } }))' "$TARGET/release/unfold")"
# Builds the UI (beforeBuildCommand), the release app, then the package; --ci: no prompts.
cd "$ROOT/ui"
step npm run tauri -- build --bundles deb --ci --config "$FILES"
PACKAGE="$(ls -t "$TARGET"/release/bundle/deb/*.deb | head -n 1)"
echo "$PACKAGE"
