#!/usr/bin/env bash
# CI check of the installable package: builds it (scripts/package-deb.sh), installs it with
# `dpkg -i` (as root or through sudo), checks what it installed, starts the installed app under
# Xvfb on the example (tests/package/) and runs the installed command line, then removes the
# package again unless it was installed before. Runs from any directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/shared.sh
source "$ROOT/scripts/shared.sh"

require_tools dpkg node
PACKAGE="$("$ROOT/scripts/package-deb.sh" | tail -n 1)"
NAME="$(dpkg-deb --field "$PACKAGE" Package)"

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  sudo=(sudo)
fi
if dpkg -s "$NAME" >/dev/null 2>&1; then
  installed_before=1
else
  installed_before=0
fi
remove_package() {
  if ((installed_before == 0)); then
    "${sudo[@]}" dpkg --remove "$NAME" >/dev/null
  fi
}
trap remove_package EXIT

step "${sudo[@]}" dpkg -i "$PACKAGE"
step env UNFOLD_PACKAGE="$PACKAGE" UNFOLD_APP=/usr/bin/unfold-app node --test "$ROOT/tests/package/"

echo
echo "check-deb: $PACKAGE installed, started and removed in $SECONDS s"
