#!/usr/bin/env bash
# CI check of the desktop app (ui/ + src-tauri/): UI formatting (prettier), typecheck, lint, tests
# and build; clippy, tests (including the bindings drift check) and build of unfold-app; then the
# end-to-end test of the real binary under Xvfb. Runs from any working directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

ensure_app_system_packages
require_tools node npm cargo Xvfb WebKitWebDriver

cd "$ROOT/ui"
step npm install --no-audit --no-fund
step npm run format:check
step npm run typecheck
step npm run lint
step npm test
# ui/dist must exist before src-tauri compiles: tauri's context macro embeds it.
step npm run build

cd "$ROOT"
step cargo fmt -p unfold-app -- --check
step cargo clippy -p unfold-app --all-targets -- -D warnings
# Includes `bindings_are_up_to_date`: fails when ui/src/bindings.ts is stale.
step cargo test -p unfold-app
step cargo build -p unfold-app
step node --test tests/e2e/

echo
echo "check-app: all passed in $SECONDS s"
