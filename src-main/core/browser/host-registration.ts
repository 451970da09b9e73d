/**
 * Where each browser looks for Callbar's native messaging host, what the host manifest says, and
 * the small launcher it names (a browser starts an executable without arguments of ours, so the
 * launcher runs `callbar native-host` with this Node and this CLI). Decisions only: the files and
 * registry values are written by host-install.ts.
 *
 * Per user: Linux `<config>/google-chrome|chromium|microsoft-edge/NativeMessagingHosts` (the
 * browser's user data folder, $XDG_CONFIG_HOME or ~/.config) and `~/.mozilla/native-messaging-hosts`;
 * macOS `~/Library/Application Support/<browser>/NativeMessagingHosts`; Windows a manifest file in
 * Callbar's data folder, named by a value under HKEY_CURRENT_USER. Per machine (installers,
 * docs/administration.md): `/etc/opt/chrome/native-messaging-hosts`, `/etc/chromium/…`,
 * `/etc/opt/edge/…`, `/usr/lib/mozilla/native-messaging-hosts`; macOS `/Library/…`; Windows
 * HKEY_LOCAL_MACHINE.
 */
import { posix, win32 } from 'node:path';
import {
  CHROMIUM_EXTENSION_ORIGIN,
  FIREFOX_EXTENSION_ID,
  NATIVE_HOST_NAME,
} from './extension-identity';

export const BROWSERS = ['chromium', 'chrome', 'edge', 'firefox'] as const;
export type BrowserName = (typeof BROWSERS)[number];

export type Scope = 'user' | 'machine';

export interface RegistrationHost {
  platform: NodeJS.Platform;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** Callbar's data folder (where the launcher, and on Windows the manifests, live). */
  dataDir: string;
}

export interface HostLocation {
  /** The host manifest's file. */
  manifestFile: string;
  /** Windows: the registry key whose default value names the manifest file. */
  registryKey?: string;
}

const LINUX_USER_DIRS: Record<BrowserName, string> = {
  chrome: 'google-chrome',
  chromium: 'chromium',
  edge: 'microsoft-edge',
  firefox: '',
};
const LINUX_MACHINE_DIRS: Record<BrowserName, string> = {
  chrome: '/etc/opt/chrome/native-messaging-hosts',
  chromium: '/etc/chromium/native-messaging-hosts',
  edge: '/etc/opt/edge/native-messaging-hosts',
  firefox: '/usr/lib/mozilla/native-messaging-hosts',
};
const MAC_USER_DIRS: Record<BrowserName, string> = {
  chrome: 'Google/Chrome/NativeMessagingHosts',
  chromium: 'Chromium/NativeMessagingHosts',
  edge: 'Microsoft Edge/NativeMessagingHosts',
  firefox: 'Mozilla/NativeMessagingHosts',
};
const MAC_MACHINE_DIRS: Record<BrowserName, string> = {
  chrome: '/Library/Google/Chrome/NativeMessagingHosts',
  chromium: '/Library/Application Support/Chromium/NativeMessagingHosts',
  edge: '/Library/Microsoft/Edge/NativeMessagingHosts',
  firefox: '/Library/Application Support/Mozilla/NativeMessagingHosts',
};
const WINDOWS_KEYS: Record<BrowserName, string> = {
  chrome: 'Software\\Google\\Chrome\\NativeMessagingHosts',
  chromium: 'Software\\Chromium\\NativeMessagingHosts',
  edge: 'Software\\Microsoft\\Edge\\NativeMessagingHosts',
  firefox: 'Software\\Mozilla\\NativeMessagingHosts',
};

const manifestName = `${NATIVE_HOST_NAME}.json`;

/** Where `browser` finds the host manifest for `scope`. */
export function hostLocation(
  browser: BrowserName,
  scope: Scope,
  host: RegistrationHost,
): HostLocation {
  if (host.platform === 'win32') {
    const hive = scope === 'user' ? 'HKCU' : 'HKLM';
    const folder =
      scope === 'user'
        ? win32.join(host.dataDir, 'native-host')
        : win32.join(host.env.ProgramData ?? 'C:\\ProgramData', 'Callbar', 'native-host');
    return {
      manifestFile: win32.join(folder, `${browser}.json`),
      registryKey: `${hive}\\${WINDOWS_KEYS[browser]}\\${NATIVE_HOST_NAME}`,
    };
  }
  if (host.platform === 'darwin') {
    const dir =
      scope === 'machine'
        ? MAC_MACHINE_DIRS[browser]
        : posix.join(host.homeDir, 'Library/Application Support', MAC_USER_DIRS[browser]);
    return { manifestFile: posix.join(dir, manifestName) };
  }
  if (scope === 'machine')
    return { manifestFile: posix.join(LINUX_MACHINE_DIRS[browser], manifestName) };
  if (browser === 'firefox') {
    return {
      manifestFile: posix.join(host.homeDir, '.mozilla/native-messaging-hosts', manifestName),
    };
  }
  const config = host.env.XDG_CONFIG_HOME || posix.join(host.homeDir, '.config');
  return {
    manifestFile: posix.join(
      config,
      LINUX_USER_DIRS[browser],
      'NativeMessagingHosts',
      manifestName,
    ),
  };
}

/** The host manifest: exactly Callbar's extension may start the host. */
export function hostManifest(browser: BrowserName, launcher: string): Record<string, unknown> {
  const common = {
    name: NATIVE_HOST_NAME,
    description: 'Callbar: dial phone numbers from web pages',
    path: launcher,
    type: 'stdio',
  };
  return browser === 'firefox'
    ? { ...common, allowed_extensions: [FIREFOX_EXTENSION_ID] }
    : { ...common, allowed_origins: [CHROMIUM_EXTENSION_ORIGIN] };
}

export interface Launcher {
  file: string;
  text: string;
}

/** A POSIX shell word: single-quoted, with single quotes spelled out. */
const shellWord = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
/** A cmd.exe word: double-quoted (paths cannot hold a double quote on Windows). */
const cmdWord = (word: string) => `"${word}"`;

/**
 * The launcher the manifest names: runs `callbar native-host` with the browser's arguments. A
 * profile chosen with CALLBAR_DATA_DIR at install time is written into it (nothing else of the
 * environment: no secret ever reaches it).
 */
export function hostLauncher(options: {
  platform: NodeJS.Platform;
  folder: string;
  node: string;
  cli: string;
  dataDir?: string;
}): Launcher {
  const { platform, folder, node, cli, dataDir } = options;
  if (platform === 'win32') {
    const lines = [
      '@echo off',
      ...(dataDir ? [`set "CALLBAR_DATA_DIR=${dataDir}"`] : []),
      `${cmdWord(node)} ${cmdWord(cli)} native-host %*`,
    ];
    return {
      file: win32.join(folder, 'callbar-native-host.cmd'),
      text: `${lines.join('\r\n')}\r\n`,
    };
  }
  const lines = [
    '#!/bin/sh',
    '# Callbar’s native messaging host (written by `callbar browser install`).',
    ...(dataDir ? [`CALLBAR_DATA_DIR=${shellWord(dataDir)}`, 'export CALLBAR_DATA_DIR'] : []),
    `exec ${shellWord(node)} ${shellWord(cli)} native-host "$@"`,
  ];
  return { file: posix.join(folder, 'callbar-native-host'), text: `${lines.join('\n')}\n` };
}
