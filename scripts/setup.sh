#!/usr/bin/env bash
# Prepares a fresh checkout: the system packages Callbar needs (Debian/Ubuntu), `npm ci` (skipped
# when node_modules already matches package-lock.json), then the `callbar` CLI build.
# Used by the README's first commands and by .ci/run, so a developer and CI install the same way.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Node.js package.json's `engines` asks for (.nvmrc names the one Callbar is built and tested
# with), checked before anything is installed: an older Node fails later in ways that do not say so.
required_node="$(sed -n 's/^ *"node": *">=\([0-9.]*\)".*/\1/p' package.json | head -n 1)"
if ! command -v node >/dev/null; then
  echo "Callbar needs Node.js ${required_node} or newer, and there is no \`node\` here." >&2
  echo "Install it (e.g. \`nvm install\`, which reads .nvmrc: $(cat .nvmrc)), then run this again." >&2
  exit 1
fi
if ! node -e '
  const [have, need] = [process.versions.node, process.argv[1]].map((v) => v.split(".").map(Number));
  const older = need.findIndex((part, i) => (have[i] ?? 0) !== part);
  process.exit(older !== -1 && (have[older] ?? 0) < need[older] ? 1 : 0);
' "$required_node"; then
  echo "Callbar needs Node.js ${required_node} or newer; this is $(node --version)." >&2
  echo "Install a newer one (e.g. \`nvm install\`, which reads .nvmrc: $(cat .nvmrc)), then run this again." >&2
  exit 1
fi

# chromium: the e2e browser (never a downloaded one). libsecret-1-dev + build-essential + python3:
# keytar's native build. gnome-keyring + dbus: a real Secret Service for the keychain and the demo.
# redis-server: the relay's shared store in its tests (docs/relay.md).
PACKAGES=(chromium libsecret-1-dev gnome-keyring dbus dbus-x11 build-essential python3 ca-certificates redis-server)
# Installed where the distribution has them, never required: chromium-headless-shell, the lighter
# browser the window's e2e tests run in (test/support/chromium.ts; Debian has it, Ubuntu's
# Chromium is a snap without it: the tests then use the full browser).
OPTIONAL_PACKAGES=(chromium-headless-shell)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if command -v apt-get >/dev/null; then
  missing=()
  for package in "${PACKAGES[@]}"; do
    installed "$package" || missing+=("$package")
  done
  optional=()
  for package in "${OPTIONAL_PACKAGES[@]}"; do
    installed "$package" || optional+=("$package")
  done
  if [ "$(id -u)" = 0 ] && [ "$((${#missing[@]} + ${#optional[@]}))" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    # Lists are refreshed when a needed package is missing; an optional one is added only where
    # this system's lists have it (a system without it is not asked again at every run).
    updated=0
    if [ "${#missing[@]}" -gt 0 ]; then
      apt-get update -qq
      updated=1
    fi
    for package in "${optional[@]}"; do
      if apt-cache show "$package" >/dev/null 2>&1; then missing+=("$package"); fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
      echo "=== system packages: ${missing[*]} ==="
      if [ "$updated" = 0 ]; then apt-get update -qq; fi
      apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
  elif [ "${#missing[@]}" -gt 0 ]; then
    echo "Callbar needs these system packages first:" >&2
    echo "  sudo apt-get install ${missing[*]}" >&2
    exit 1
  elif [ "${#optional[@]}" -gt 0 ]; then
    echo "Optional, for lighter end-to-end tests: sudo apt-get install ${optional[*]}" >&2
  fi
else
  echo "Not a Debian/Ubuntu system: install a C++ toolchain, Python 3 and libsecret's headers" \
    "(Linux) for keytar, and Chromium for the end-to-end tests (see README)."
fi

# node_modules is current when the last `npm ci` here installed this very lockfile for this Node
# (keytar is compiled against its ABI) on this platform: then a second run takes a second, not 15.
stamp_file=node_modules/.callbar-install-stamp
install_stamp="$(node -e "
  const hash = require('node:crypto').createHash('sha256');
  hash.update(require('node:fs').readFileSync('package-lock.json'));
  hash.update([process.versions.modules, process.platform, process.arch].join(' '));
  console.log(hash.digest('hex'));
")"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$install_stamp" ]; then
  echo "=== npm ci: skipped, node_modules matches package-lock.json ==="
else
  # The Electron binary comes from GitHub (or ELECTRON_MIRROR), not the npm registry. Where it cannot
  # be reached, install without it: everything but the desktop shell builds, runs (the demo becomes
  # the web preview) and is tested.
  if [ -z "${ELECTRON_SKIP_BINARY_DOWNLOAD:-}" ] && [ -z "${ELECTRON_MIRROR:-}" ] \
    && ! node -e "fetch('https://github.com',{method:'HEAD',signal:AbortSignal.timeout(8000)}).then(()=>{},()=>process.exit(1))"; then
    echo "Electron's download server is unreachable: installing without the Electron binary."
    export ELECTRON_SKIP_BINARY_DOWNLOAD=1
  fi
  # keytar compiles against Node's installed headers instead of downloading them (node-gyp's
  # setting as npm 11 passes it on; npm_config_nodedir would make npm warn about an unknown key).
  if [ -d /usr/include/node ]; then export npm_package_config_node_gyp_nodedir=/usr; fi

  echo "=== npm ci ==="
  # Electron's own tools ask for Node 22 in five lines each: one sentence instead (the script says why).
  npm ci --no-audit --no-fund 2>&1 | node scripts/install-notices.mjs
  echo "$install_stamp" >"$stamp_file"
fi

echo "=== callbar CLI build ==="
node scripts/build-cli.mjs
