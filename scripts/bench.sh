#!/usr/bin/env bash
# Times Unfold as a user runs it and prints the figures side by side with the previous release's
# and with weakincentives' render of the same template (benches/whole_process.py):
#   scripts/bench.sh [--against REV] [--runs N] [--no-weakincentives] [--app] [--study]
# - this checkout's release `unfold`, and REV's (default: the latest v* tag, else v0.1.0), built
#   once into target/bench/ (REV from a git worktree there, with its own target folder);
# - the benchmark template at 100 and 10,000 sections (crates/unfold-test-support's example);
# - weakincentives 0.27.0 from PyPI in a Python 3.13 venv in ~/.cache/unfold (python3.13 on PATH,
#   or pyenv's 3.13), unless --no-weakincentives.
# - with --app, the release desktop app (UI and binary built here): its size, its start to the
#   preview and keystroke latency in a real webview (Xvfb and WebKitWebDriver, as the e2e tests).
# - with --study, only a scripted study of 1,000 repetitions x 4 lanes, whole process, and its
#   peak memory at 100 and 1,000 repetitions (benches/study.py), with this checkout's build.
# The in-process benchmarks stay `cargo bench`. Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

# The previous release: the latest v* tag; in a clone without tags, v0.1.0's commit.
V0_1_0=3e43474
AGAINST="$(git -C "$ROOT" describe --tags --abbrev=0 --match 'v*' 2>/dev/null || echo "$V0_1_0")"
RUNS=15
WEAKINCENTIVES=1
MEASURE_APP=0
STUDY=0
while (($#)); do
  case "$1" in
    --against) AGAINST="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --no-weakincentives) WEAKINCENTIVES=0; shift ;;
    --app) MEASURE_APP=1; shift ;;
    --study) STUDY=1; shift ;;
    *) echo "usage: $0 [--against REV] [--runs N] [--no-weakincentives] [--app] [--study]" >&2; exit 2 ;;
  esac
done
require_tools cargo git python3

BENCH="$ROOT/target/bench"
mkdir -p "$BENCH"
echo "==> building this checkout's release unfold" >&2
cargo build --quiet --release --locked -p unfold-cli --manifest-path "$ROOT/Cargo.toml"
cp "$ROOT/target/release/unfold" "$BENCH/unfold-now"
if ((STUDY)); then
  exec python3 "$ROOT/benches/study.py" --unfold "$BENCH/unfold-now"
fi

PREVIOUS=()
if [[ -n "$AGAINST" ]]; then
  commit="$(git -C "$ROOT" rev-parse --verify "$AGAINST^{commit}")"
  if [[ ! -x "$BENCH/unfold-$commit" ]]; then
    echo "==> building $AGAINST ($commit)'s release unfold in $BENCH/previous" >&2
    rm -rf "$BENCH/previous"
    git -C "$ROOT" worktree prune
    git -C "$ROOT" worktree add --quiet --detach "$BENCH/previous" "$commit"
    CARGO_TARGET_DIR="$BENCH/previous-target" cargo build --quiet --release --locked -p unfold-cli \
      --manifest-path "$BENCH/previous/Cargo.toml"
    cp "$BENCH/previous-target/release/unfold" "$BENCH/unfold-$commit"
    git -C "$ROOT" worktree remove --force "$BENCH/previous"
  fi
  PREVIOUS=(--previous "$BENCH/unfold-$commit")
  echo "==> against $AGAINST ($commit)" >&2
else
  echo "note: --against \"\": this build alone" >&2
fi

write_template() {
  local file="$BENCH/$1"
  shift
  [[ -s "$file" ]] || cargo run --quiet --release --locked -p unfold-test-support --example bench_template \
    --manifest-path "$ROOT/Cargo.toml" -- "$@" >"$file"
}
write_template bench-100.unfold.json 100 plain read_section
write_template bench-10000.unfold.json 10000 plain read_section
write_template bench-5000.unfold.json 5000 plain read_section
write_template bench-10000-keyed.unfold.json 10000 keyed mixed

WI=()
if ((WEAKINCENTIVES)); then
  python313=""
  for candidate in python3.13 "$HOME"/.pyenv/versions/3.13*/bin/python; do
    # A pyenv shim is on PATH without its version being active: ask each one to run.
    if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' >/dev/null 2>&1; then
      python313="$candidate"
      break
    fi
  done
  if [[ -z "$python313" ]]; then
    echo "note: no Python 3.13 (weakincentives needs it): its figures are left out" >&2
  else
    venv="${UNFOLD_CACHE:-$HOME/.cache/unfold}/weakincentives-venv"
    if ! "$venv/bin/python" -c 'import importlib.metadata as m; assert m.version("weakincentives") == "0.27.0"' 2>/dev/null; then
      echo "==> installing weakincentives 0.27.0 into $venv" >&2
      rm -rf "$venv"
      "$python313" -m venv "$venv"
      "$venv/bin/pip" install --quiet --disable-pip-version-check "weakincentives==0.27.0"
    fi
    WI=(--weakincentives-python "$venv/bin/python")
  fi
fi

APP=()
if ((MEASURE_APP)); then
  require_tools npm node Xvfb WebKitWebDriver
  echo "==> building the release app" >&2
  (cd "$ROOT/ui" && npm run --silent build >/dev/null)
  cargo build --quiet --release --locked -p unfold-app --manifest-path "$ROOT/Cargo.toml"
  APP=(--app "$ROOT/target/release/unfold-app")
fi
python3 "$ROOT/benches/whole_process.py" --unfold "$BENCH/unfold-now" "${PREVIOUS[@]}" \
  --templates "$BENCH" --runs "$RUNS" "${WI[@]}" "${APP[@]}"
