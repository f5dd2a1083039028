#!/usr/bin/env bash
# Runs every test of Unfold, as CI does: formatting, lints, the core and CLI tests (snapshots,
# schema drift, property tests), then the desktop app's checks (UI typecheck, lint, unit tests,
# bindings drift, the end-to-end test of the real app under Xvfb). Installs the system packages it
# needs; runs from any working directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"
cd "$ROOT"

ensure_app_system_packages
require_tools cargo node npm

step cargo fmt --all -- --check
step cargo clippy -p unfold-core -p unfold-cli --all-targets -- -D warnings
# Includes the drift check of schema/*.json (`checked_in_schemas_match_the_types`).
step cargo test -p unfold-core -p unfold-cli
step "$ROOT/scripts/check-app.sh"

echo
echo "test.sh: every check passed in $SECONDS s"
