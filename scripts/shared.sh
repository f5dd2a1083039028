# Sourced by the scripts in this folder: installs what building and running the desktop app needs
# (the list of Debian packages for Tauri, see the shared setup notes) and what the test LLM servers
# need (python3-venv for fakellm and llama-server's build tools; dbus-daemon and gnome-keyring for
# the keychain tests), checks for tools, and runs timed steps.

# Installs the missing system packages (apt-get, as root or through sudo); instant when all are there.
ensure_app_system_packages() {
  local packages=(
    build-essential pkg-config file curl wget libssl-dev python3 python3-venv dbus-daemon gnome-keyring
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

# Stops the background server NAME whose live pid is PID (empty: not running) and removes its pid
# file PID_FILE: SIGTERM, then SIGKILL if it has not stopped within 5 s. Says what it did.
stop_background_server() {
  local name="$1" pid="$2" pid_file="$3" port="$4"
  if [[ -z "$pid" ]]; then
    rm -f "$pid_file"
    echo "$name is not running for port $port"
    return 0
  fi
  kill "$pid"
  local tries
  for ((tries = 0; tries < 50; tries++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "warning: $name (pid $pid) did not stop within 5 s; killing it" >&2
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
  echo "$name stopped (port $port, pid $pid)"
}
