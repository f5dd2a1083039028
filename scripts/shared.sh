# Sourced by the scripts in this folder: installs what building and running the desktop app needs
# (the list of Debian packages for Tauri, see the shared setup notes, and the system SQLite the run
# history uses) and what the test LLM servers need (python3-venv for fakellm and llama-server's
# build tools; dbus-daemon and gnome-keyring for the keychain tests), checks for tools, runs timed
# steps, and keeps pinned Python packages in virtual environments.

# Installs the missing system packages (apt-get, as root or through sudo); instant when all are there.
ensure_app_system_packages() {
  local packages=(
    build-essential pkg-config file curl wget libssl-dev libsqlite3-dev python3 python3-venv
    dbus-daemon gnome-keyring
    libwebkit2gtk-4.1-dev libxdo-dev libayatana-appindicator3-dev librsvg2-dev
    xvfb xauth webkit2gtk-driver
  )
  local missing=() package
  for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "==> installing system packages: ${missing[*]}"
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

# Fails with a clear message when a required tool is not on PATH.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "error: '$tool' is not installed or not on PATH" >&2
      exit 1
    }
  done
}

# Runs a command as a named, timed step of a check.
step() {
  echo
  echo "==> $*"
  local start=$SECONDS
  "$@"
  echo "    ($((SECONDS - start)) s)"
}

# --- Test servers in the background (scripts/fakellm.sh, scripts/llama-server.sh) ---
# The script calls use_server_port NAME PORT, and sets HEALTH_PATH (a path that answers once it is
# up), PROCESS_PATTERN (a glob its command line matches) and START_TIMEOUT (seconds).

# Sets SERVER to NAME and PORT, PID_FILE and LOG_FILE for the port given; exits 2 when it is not a
# port number.
use_server_port() {
  SERVER="$1"
  PORT="$2"
  if ! [[ "$PORT" =~ ^[0-9]{1,5}$ ]] || ((10#$PORT < 1 || 10#$PORT > 65535)); then
    echo "error: PORT must be a number from 1 to 65535, not '$PORT'" >&2
    exit 2
  fi
  PORT=$((10#$PORT))
  PID_FILE="${TMPDIR:-/tmp}/unfold-$SERVER-$PORT.pid"
  LOG_FILE="${TMPDIR:-/tmp}/unfold-$SERVER-$PORT.log"
}

# Whether the server answers on its health path.
server_answers() {
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$PORT$HEALTH_PATH" 2>/dev/null
}

# Whether anything listens on the port (curl's exit status 7: could not connect).
port_in_use() {
  local status=0
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/" 2>/dev/null || status=$?
  ((status != 7))
}

# The pid in the pid file when that process is alive and is the server; nothing otherwise.
server_pid() {
  local pid
  [[ -f "$PID_FILE" ]] || return 0
  pid="$(<"$PID_FILE")"
  # shellcheck disable=SC2053 # PROCESS_PATTERN is a glob on purpose
  if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null &&
    [[ "$(ps -o args= -p "$pid" 2>/dev/null)" == $PROCESS_PATTERN ]]; then
    echo "$pid"
  fi
}

# Whether the server may be started: false (after saying so) when it already runs and answers;
# exits with an error when the port is taken, by it or by something else.
server_may_start() {
  local pid
  pid="$(server_pid)"
  if [[ -n "$pid" ]] && server_answers; then
    echo "$SERVER already runs on 127.0.0.1:$PORT (pid $pid)"
    return 1
  fi
  if [[ -n "$pid" ]]; then
    echo "error: $SERVER (pid $pid, from $PID_FILE) runs but does not answer on port $PORT;" \
      "run: $0 stop $PORT" >&2
    exit 1
  fi
  rm -f "$PID_FILE"
  if port_in_use; then
    echo "error: port $PORT is already in use on 127.0.0.1 (by something this script did not start)" >&2
    exit 1
  fi
}

# Starts COMMAND [ARG…] in the background as the server and waits until it answers; on failure
# stops it and shows its log.
launch_server() {
  nohup "$@" >"$LOG_FILE" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$PID_FILE"
  local deadline=$((SECONDS + START_TIMEOUT)) failure=""
  until server_answers; do
    if ! kill -0 "$pid" 2>/dev/null; then
      failure="exited before answering on 127.0.0.1:$PORT"
    elif ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true
      failure="did not answer on 127.0.0.1:$PORT within $START_TIMEOUT s"
    fi
    if [[ -n "$failure" ]]; then
      rm -f "$PID_FILE"
      echo "error: $SERVER $failure; its log ($LOG_FILE):" >&2
      sed 's/^/    /' "$LOG_FILE" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "$SERVER runs on http://127.0.0.1:$PORT (pid $pid, log $LOG_FILE)"
}

# Stops the server (SIGTERM, then SIGKILL if it has not stopped within 5 s) and removes its pid
# file. Says what it did.
stop_server() {
  local pid
  pid="$(server_pid)"
  if [[ -z "$pid" ]]; then
    rm -f "$PID_FILE"
    echo "$SERVER is not running for port $PORT"
    return 0
  fi
  kill "$pid"
  local tries
  for ((tries = 0; tries < 50; tries++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "warning: $SERVER (pid $pid) did not stop within 5 s; killing it" >&2
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  echo "$SERVER stopped (port $PORT, pid $pid)"
}

# pinned_venv FOLDER PACKAGE VERSION REQUIREMENT...: a virtual environment at FOLDER with the
# requirements installed, unless PACKAGE is already there at VERSION (then instant).
pinned_venv() {
  local folder="$1" package="$2" version="$3"
  shift 3
  if [[ -x "$folder/bin/python" ]] &&
    [[ "$("$folder/bin/python" -c "import importlib.metadata as m; print(m.version('$package'))" 2>/dev/null)" == "$version" ]]; then
    return 0
  fi
  echo "==> installing $* into $folder"
  rm -rf "$folder"
  python3 -m venv "$folder"
  "$folder/bin/pip" install --quiet --disable-pip-version-check "$@"
}
