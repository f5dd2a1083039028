#!/usr/bin/env bash
# Installs the real agent hosts of the host lab (spec 13) and the official model SDKs, pinned, into
# ~/.cache/unfold (or $UNFOLD_CACHE): `openai-agents` and `pydantic-ai-slim` from PyPI, each in a
# virtual environment of its own under hosts/ (what `UNFOLD_HOSTS_DIR` points Unfold at), and the
# official Python SDKs `openai`, `anthropic` and `google-genai` in model-sdks/ (the clients of
# `unfold model serve` in the tests). Idempotent: pinned versions already there are kept.
# Usage: scripts/hosts.sh install
set -euo pipefail

OPENAI_AGENTS="0.24.0"
PYDANTIC_AI="2.68.0"
OPENAI_SDK="3.57.0"
ANTHROPIC_SDK="2.14.0"
GOOGLE_GENAI="3.6.1"
CACHE="${UNFOLD_CACHE:-$HOME/.cache/unfold}"

# venv FOLDER PACKAGE VERSION [REQUIREMENT...]: a virtual environment at FOLDER with the
# requirements, unless PACKAGE is already there at VERSION.
venv() {
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

case "${1:-}" in
  install)
    mkdir -p "$CACHE/hosts"
    venv "$CACHE/hosts/openai-agents" openai-agents "$OPENAI_AGENTS" "openai-agents==$OPENAI_AGENTS"
    venv "$CACHE/hosts/pydantic-ai" pydantic-ai-slim "$PYDANTIC_AI" "pydantic-ai-slim[openai,mcp]==$PYDANTIC_AI"
    venv "$CACHE/model-sdks" google-genai "$GOOGLE_GENAI" \
      "openai==$OPENAI_SDK" "anthropic==$ANTHROPIC_SDK" "google-genai==$GOOGLE_GENAI"
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
