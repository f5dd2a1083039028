#!/usr/bin/env bash
# Starts and stops the rule-based fake LLM server fakellm (PyPI, MIT) on tests/fixtures/fakellm.yaml,
# for live runs in tests and CI:
#   scripts/fakellm.sh start PORT   installs fakellm in a venv if missing, starts it on
#                                   127.0.0.1:PORT in the background, waits until it answers
#   scripts/fakellm.sh stop PORT    stops the one started for PORT
# OpenAI clients use http://127.0.0.1:PORT/v1, Anthropic ones http://127.0.0.1:PORT. The venv is
# ~/.cache/unfold/fakellm-venv (or $FAKELLM_VENV); the pid and log files are in ${TMPDIR:-/tmp}.
# Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

FAKELLM_VERSION=0.3.5
VENV="${FAKELLM_VENV:-$HOME/.cache/unfold/fakellm-venv}"
CONFIG="$ROOT/tests/fixtures/fakellm.yaml"
START_TIMEOUT=30

usage() {
  echo "usage: $0 start|stop PORT" >&2
  exit 2
}

# Creates the venv and installs the pinned fakellm when it is not there yet; quiet when it is.
ensure_fakellm() {
  if [[ -x "$VENV/bin/fakellm" ]] &&
    [[ "$("$VENV/bin/fakellm" --version 2>/dev/null)" == *"version $FAKELLM_VERSION" ]]; then
    return 0
  fi
  require_tools python3
  echo "==> installing fakellm $FAKELLM_VERSION into $VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" || {
    echo "error: could not create the venv $VENV (on Debian: apt-get install python3-venv)" >&2
    exit 1
  }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "fakellm==$FAKELLM_VERSION" || {
    echo "error: could not install fakellm==$FAKELLM_VERSION from PyPI into $VENV" >&2
    exit 1
  }
}

start() {
  server_may_start || return 0
  if [[ ! -f "$CONFIG" ]]; then
    echo "error: the config $CONFIG is missing" >&2
    exit 1
  fi
  ensure_fakellm
  launch_server "$VENV/bin/fakellm" serve --host 127.0.0.1 --port "$PORT" --config "$CONFIG"
}

(($# == 2)) || usage
COMMAND="$1"
use_server_port fakellm "$2"
# fakellm has no /health; its stats answer once it is up.
HEALTH_PATH=/_fakellm/stats
PROCESS_PATTERN="*fakellm*"

case "$COMMAND" in
  start)
    require_tools curl
    start
    ;;
  stop) stop_server ;;
  *) usage ;;
esac
