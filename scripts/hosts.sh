#!/usr/bin/env bash
# Installs the real agent hosts of the host lab (spec 13) and the official model SDKs, pinned, into
# ~/.cache/unfold (or $UNFOLD_CACHE): `openai-agents` and `pydantic-ai-slim` from PyPI, each in a
# virtual environment of its own under hosts/ (what `UNFOLD_HOSTS_DIR` points Unfold at); Claude
# Code, Codex CLI and Gemini CLI from npm, each in a folder of its own under hosts/; and the
# official Python SDKs `openai`, `anthropic` and `google-genai` in model-sdks/ (the clients of
# `unfold model serve` in the tests). Idempotent: pinned versions already there are kept.
# Usage: scripts/hosts.sh install
set -euo pipefail

OPENAI_AGENTS="0.24.0"
PYDANTIC_AI="2.68.0"
OPENAI_SDK="3.57.0"
ANTHROPIC_SDK="2.14.0"
GOOGLE_GENAI="3.6.1"
CLAUDE_CODE="2.1.197"
CODEX="0.171.0"
GEMINI_CLI="0.61.0"
CACHE="${UNFOLD_CACHE:-$HOME/.cache/unfold}"
# shellcheck source=scripts/shared.sh
source "$(dirname "${BASH_SOURCE[0]}")/shared.sh"

# pinned_npm FOLDER PACKAGE VERSION: PACKAGE@VERSION in FOLDER/node_modules, unless it is there.
pinned_npm() {
  local folder="$1" package="$2" version="$3"
  if grep -qs "\"version\": \"$version\"" "$folder/node_modules/$package/package.json"; then
    return 0
  fi
  echo "==> installing $package@$version into $folder"
  rm -rf "$folder"
  mkdir -p "$folder"
  npm install --prefix "$folder" --no-audit --no-fund --silent "$package@$version"
}

case "${1:-}" in
  install)
    mkdir -p "$CACHE/hosts"
    pinned_venv "$CACHE/hosts/openai-agents" openai-agents "$OPENAI_AGENTS" "openai-agents==$OPENAI_AGENTS"
    pinned_venv "$CACHE/hosts/pydantic-ai" pydantic-ai-slim "$PYDANTIC_AI" "pydantic-ai-slim[openai,mcp]==$PYDANTIC_AI"
    pinned_npm "$CACHE/hosts/claude-code" @anthropic-ai/claude-code "$CLAUDE_CODE"
    pinned_npm "$CACHE/hosts/codex" @openai/codex "$CODEX"
    pinned_npm "$CACHE/hosts/gemini-cli" @google/gemini-cli "$GEMINI_CLI"
    pinned_venv "$CACHE/model-sdks" google-genai "$GOOGLE_GENAI" \
      "openai==$OPENAI_SDK" "anthropic==$ANTHROPIC_SDK" "google-genai==$GOOGLE_GENAI"
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
