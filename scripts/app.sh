#!/usr/bin/env bash
# Builds the desktop app from the release profile (the build the package ships; the first one takes
# 5-15 minutes on 2 cores) and runs it on a template: `scripts/app.sh [TEMPLATE [SCENARIO]]`
# (default examples/task-executor.unfold.json; with a scenario the app opens on the compare view).
# Needs a display (X11 or Wayland). Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "error: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): the app opens a window." >&2
  echo "       Run it from a desktop session, or headless with: xvfb-run -a $0 ${*:-}" >&2
  exit 1
fi

# A relative TEMPLATE is relative to the caller's directory, not the repository.
TEMPLATE="$(realpath -m -- "${1:-$ROOT/examples/task-executor.unfold.json}")"
if [[ ! -f "$TEMPLATE" ]]; then
  echo "note: $TEMPLATE does not exist; the app will show the error" >&2
fi

ensure_app_system_packages
require_tools node npm cargo

echo "==> building the UI"
(cd "$ROOT/ui" && npm install --no-audit --no-fund && npm run build)
echo "==> building unfold-app (release)"
(cd "$ROOT" && cargo build --release --locked -p unfold-app)
# The scenario, like the template, is relative to the caller's directory.
ARGS=("$TEMPLATE")
if [[ -n "${2:-}" ]]; then
  ARGS+=("$(realpath -m -- "$2")")
fi
echo "==> unfold-app ${ARGS[*]}"
exec "${CARGO_TARGET_DIR:-$ROOT/target}/release/unfold-app" "${ARGS[@]}"
