#!/usr/bin/env bash
# Runs a command with a Secret Service available, so keychain tests behave as on a desktop.
# When there is no D-Bus session (CI, a container), start a private one with an unlocked
# gnome-keyring inside it; when there is one, use it as it is.
set -euo pipefail
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -z "${CALLBAR_PRIVATE_DBUS:-}" ] \
  && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  exec dbus-run-session -- env CALLBAR_PRIVATE_DBUS=1 bash "$0" "$@"
fi
if [ -n "${CALLBAR_PRIVATE_DBUS:-}" ]; then
  # An empty password would make the daemon try to prompt; any fixed one unlocks a test keyring.
  eval "$(echo callbar-test-keyring | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL
fi
exec "$@"
