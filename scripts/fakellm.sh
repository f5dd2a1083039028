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

# Whether a server answers on the port (fakellm's stats endpoint; it has no /health).
answers() {
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/_fakellm/stats" 2>/dev/null
}

# Whether anything listens on the port (curl's exit status 7: could not connect).
port_in_use() {
  local status=0
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/" 2>/dev/null || status=$?
  ((status != 7))
}

# The pid in the pid file when that process is alive and is fakellm; nothing otherwise.
running_pid() {
  local pid
  [[ -f "$PID_FILE" ]] || return 0
  pid="$(<"$PID_FILE")"
  if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null &&
    [[ "$(ps -o args= -p "$pid" 2>/dev/null)" == *fakellm* ]]; then
    echo "$pid"
  fi
}

start() {
  local pid
  pid="$(running_pid)"
  if [[ -n "$pid" ]] && answers; then
    echo "fakellm already runs on 127.0.0.1:$PORT (pid $pid)"
    return 0
  fi
  if [[ -n "$pid" ]]; then
    echo "error: fakellm (pid $pid, from $PID_FILE) runs but does not answer on port $PORT;" \
      "run: $0 stop $PORT" >&2
    exit 1
  fi
  rm -f "$PID_FILE"
  if port_in_use; then
    echo "error: port $PORT is already in use on 127.0.0.1 (by something this script did not start)" >&2
    exit 1
  fi
  if [[ ! -f "$CONFIG" ]]; then
    echo "error: the config $CONFIG is missing" >&2
    exit 1
  fi
  ensure_fakellm

  nohup "$VENV/bin/fakellm" serve --host 127.0.0.1 --port "$PORT" --config "$CONFIG" \
    >"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"

  local deadline=$((SECONDS + START_TIMEOUT))
  until answers; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      echo "error: fakellm exited before answering on 127.0.0.1:$PORT; its log ($LOG_FILE):" >&2
      sed 's/^/    /' "$LOG_FILE" >&2
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true
      rm -f "$PID_FILE"
      echo "error: fakellm did not answer on 127.0.0.1:$PORT within $START_TIMEOUT s; its log ($LOG_FILE):" >&2
      sed 's/^/    /' "$LOG_FILE" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "fakellm runs on http://127.0.0.1:$PORT (pid $pid, log $LOG_FILE)"
}

stop() {
  stop_background_server fakellm "$(running_pid)" "$PID_FILE" "$PORT"
}

(($# == 2)) || usage
COMMAND="$1"
PORT="$2"
if ! [[ "$PORT" =~ ^[0-9]{1,5}$ ]] || ((10#$PORT < 1 || 10#$PORT > 65535)); then
  echo "error: PORT must be a number from 1 to 65535, not '$PORT'" >&2
  exit 2
fi
PORT=$((10#$PORT))
PID_FILE="${TMPDIR:-/tmp}/unfold-fakellm-$PORT.pid"
LOG_FILE="${TMPDIR:-/tmp}/unfold-fakellm-$PORT.log"

case "$COMMAND" in
  start)
    require_tools curl
    start
    ;;
  stop) stop ;;
  *) usage ;;
esac
