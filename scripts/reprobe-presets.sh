#!/usr/bin/env bash
# Probes every real host Unfold ships a measured preset for (`unfold hosts probe`, spec 13) and
# writes the presets in crates/unfold-documents/data/hosts/ from the measurement: version, refresh,
# tool order and evidence. Run it when a pinned host version in scripts/hosts.sh changes (the probe
# test then fails), on a machine not busy with anything else: the hosts' timing is what is measured.
# Installs the pinned hosts first; no network beyond the package registries; the hosts run in
# throwaway homes. Usage: scripts/reprobe-presets.sh [RUNS]   (10 runs a host by default)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
HOSTS=(claude-code codex codex-list-changed gemini-cli openai-agents openai-agents-cached pydantic-ai pydantic-ai-cached)

"$ROOT/scripts/hosts.sh" install
# The release build users run: the endpoint's speed is part of the race being measured.
cargo build --quiet --release --manifest-path "$ROOT/Cargo.toml" -p unfold-cli
UNFOLD="${CARGO_TARGET_DIR:-$ROOT/target}/release/unfold"
# A home of its own: the consent given here is not the user's.
PROBE_HOME="$(mktemp -d)"
trap 'rm -rf "$PROBE_HOME"' EXIT
HOSTS_DIR="${UNFOLD_CACHE:-$HOME/.cache/unfold}/hosts"
HOME="$PROBE_HOME" UNFOLD_HOSTS_DIR="$HOSTS_DIR" \
  "$UNFOLD" hosts probe "${HOSTS[@]}" --repeat "$RUNS" --allow-host --write "$ROOT/crates/unfold-documents/data/hosts"
