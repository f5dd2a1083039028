#!/usr/bin/env bash
# Runs every test of Unfold, as CI does: formatting, lints, the core and CLI tests (snapshots,
# schema drift, property tests, live runs against fakellm and a fault-injection server), the live
# transport against a real model (llama-server), then the desktop app's checks (UI typecheck,
# lint, unit tests, bindings drift, the end-to-end test of the real app under Xvfb) and the
# installable package (built, installed, started, removed). Installs the system packages it needs;
# runs from any working directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"
cd "$ROOT"

ensure_app_system_packages
require_tools cargo node npm

step cargo fmt --all -- --check
step cargo clippy --workspace --exclude unfold-app --all-targets -- -D warnings
# Real MCP servers for the tool-source tests (the Python SDK, and the reference server from npm).
step "$ROOT/scripts/mcp-servers.sh" install
# The tools the interop tests hand Unfold's output to: promptfoo (with the Node 22 it needs) and
# the OpenTelemetry protobuf definitions.
step "$ROOT/scripts/interop-tools.sh" install
# Real agent hosts for the host lab's tests (openai-agents, pydantic-ai from PyPI) and the official
# model SDKs that are the scripted endpoint's clients.
step "$ROOT/scripts/hosts.sh" install
# Includes the drift check of schema/*.json (`checked_in_schemas_match_the_types`).
step cargo test --workspace --exclude unfold-app
# A real model on a real server for the live transport: llama.cpp's server, built once (about 10
# minutes on 2 cores) into ~/.cache/unfold, then the tests a plain `cargo test` skips.
step "$ROOT/scripts/llama-server.sh" install
# The tests a plain `cargo test` skips: the live transport against that real model, and keys kept
# in the OS keychain, inside a private D-Bus session with a throwaway GNOME Keyring.
step "$ROOT/scripts/keyring-session.sh" cargo test -p unfold-cli --test real_model --test live_run -- --ignored
step "$ROOT/scripts/check-app.sh"
# The installable package: built by Tauri's bundler from the release profile, installed with
# dpkg -i, started, removed.
step "$ROOT/scripts/check-deb.sh"

echo
echo "test.sh: every check passed in $SECONDS s"
