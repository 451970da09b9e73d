#!/usr/bin/env bash
# Runs a command with a Secret Service available, so keychain tests behave as on a desktop.
# When there is a D-Bus session (a desktop), the command uses it as it is. When there is none
# (CI, a container, ssh), a private D-Bus session is started with its own gnome-keyring whose
# keyrings live in a throwaway folder, removed on exit: the user's own keyrings
# ($HOME/.local/share/keyrings) are never created, opened or changed. CALLBAR_KEYRING_DIR names
# a folder to keep the private keyring in instead (kept after the run; the demo's --state).
#
#   bash scripts/with-keyring.sh COMMAND [ARGS…]
set -euo pipefail
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -z "${CALLBAR_PRIVATE_DBUS:-}" ] \
  && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  if [ -n "${CALLBAR_KEYRING_DIR:-}" ]; then
    # A folder to keep (the demo's --state): the keyring outlives this run.
    keyring_dir="$CALLBAR_KEYRING_DIR"
    mkdir -p -m 700 "$keyring_dir"
  else
    keyring_dir="$(mktemp -d "${TMPDIR:-/tmp}/callbar-keyring.XXXXXXXX")"
    trap 'rm -rf "$keyring_dir"' EXIT
  fi
  trap 'exit 130' INT
  trap 'exit 143' TERM
  status=0
  dbus-run-session -- env CALLBAR_PRIVATE_DBUS="$keyring_dir" bash "$0" "$@" || status=$?
  exit "$status"
fi
if [ -n "${CALLBAR_PRIVATE_DBUS:-}" ]; then
  # gnome-keyring keeps its keyrings in $XDG_DATA_HOME/keyrings: only the daemon sees the
  # throwaway folder. The keyring is new and its password is only ever typed here, so a fixed
  # one is fine (an empty one would make the daemon try to prompt).
  eval "$(echo callbar-test-keyring \
    | XDG_DATA_HOME="$CALLBAR_PRIVATE_DBUS" gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL
fi
exec "$@"
