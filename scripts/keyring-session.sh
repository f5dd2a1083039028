#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked GNOME Keyring (the Secret
# Service), so that tests of API keys kept in the OS keychain run headless, without touching the
# user's own keyring: scripts/keyring-session.sh COMMAND [ARG…]
set -euo pipefail

if [[ -z "${UNFOLD_KEYRING_SESSION:-}" ]]; then
  command -v dbus-run-session >/dev/null || { echo "error: dbus-run-session is missing (apt-get install dbus)" >&2; exit 1; }
  command -v gnome-keyring-daemon >/dev/null || { echo "error: gnome-keyring-daemon is missing (apt-get install gnome-keyring)" >&2; exit 1; }
  exec env UNFOLD_KEYRING_SESSION=1 dbus-run-session -- "$0" "$@"
fi
# A throwaway keyring in a temporary folder; its password only unlocks it for this session.
KEYRINGS="$(mktemp -d)"
trap 'rm -rf "$KEYRINGS"' EXIT
printf 'unfold-test-session\n' |
  XDG_DATA_HOME="$KEYRINGS" gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null
"$@"
