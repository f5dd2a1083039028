#!/usr/bin/env bash
# Installs the MCP servers the tool-source tests run against, pinned, into ~/.cache/unfold (or
# $UNFOLD_CACHE): the official Python SDK (`mcp` from PyPI) in a virtual environment, for the test
# servers in crates/unfold-sources/tests/servers, and the reference server
# `@modelcontextprotocol/server-everything` from npm with the TypeScript SDK (the clients of
# `unfold mcp serve` in crates/unfold-cli/tests/mcp_serve). Idempotent: a pinned version already there is
# kept. Usage: scripts/mcp-servers.sh install
set -euo pipefail

MCP_PYTHON_SDK="1.30.0"
SERVER_EVERYTHING="2026.8.31"
# The TypeScript SDK, as a client of `unfold mcp serve` (the version server-everything depends on).
TYPESCRIPT_SDK="1.32.2"
CACHE="${UNFOLD_CACHE:-$HOME/.cache/unfold}"
# shellcheck source=scripts/shared.sh
source "$(dirname "${BASH_SOURCE[0]}")/shared.sh"

install_python_sdk() {
  pinned_venv "$CACHE/mcp-venv" mcp "$MCP_PYTHON_SDK" "mcp==$MCP_PYTHON_SDK"
}

install_server_everything() {
  local folder="$CACHE/mcp-npm"
  local modules="$folder/node_modules/@modelcontextprotocol"
  if grep -qs "\"version\": \"$SERVER_EVERYTHING\"" "$modules/server-everything/package.json" &&
    grep -qs "\"version\": \"$TYPESCRIPT_SDK\"" "$modules/sdk/package.json"; then
    return 0
  fi
  echo "==> installing @modelcontextprotocol/server-everything $SERVER_EVERYTHING and sdk $TYPESCRIPT_SDK into $folder"
  mkdir -p "$folder"
  npm install --prefix "$folder" --no-audit --no-fund --silent \
    "@modelcontextprotocol/server-everything@$SERVER_EVERYTHING" "@modelcontextprotocol/sdk@$TYPESCRIPT_SDK"
}

case "${1:-}" in
  install)
    mkdir -p "$CACHE"
    install_python_sdk
    install_server_everything
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
