import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM_EXTENSION_ID,
  CHROMIUM_EXTENSION_KEY,
  FIREFOX_EXTENSION_ID,
  NATIVE_HOST_NAME,
} from '../../../../src-main/core/browser/extension-identity';
import {
  hostLauncher,
  hostLocation,
  hostManifest,
} from '../../../../src-main/core/browser/host-registration';

const linux = {
  platform: 'linux' as const,
  homeDir: '/home/ann',
  env: {},
  dataDir: '/home/ann/.config/Callbar',
};

describe('the extension’s identity', () => {
  it('the Chromium id is the one its fixed key gives (first 128 bits of SHA-256, letters a–p)', () => {
    const digest = createHash('sha256')
      .update(Buffer.from(CHROMIUM_EXTENSION_KEY, 'base64'))
      .digest('hex');
    const id = [...digest.slice(0, 32)]
      .map((digit) => String.fromCharCode(97 + parseInt(digit, 16)))
      .join('');
    expect(CHROMIUM_EXTENSION_ID).toBe(id);
    expect(NATIVE_HOST_NAME).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
  });
});

describe('where each browser finds the host manifest', () => {
  it('Linux, per user: the browser’s user data folder (XDG_CONFIG_HOME honoured), Firefox’s own', () => {
    const file = `${NATIVE_HOST_NAME}.json`;
    expect(hostLocation('chromium', 'user', linux).manifestFile).toBe(
      `/home/ann/.config/chromium/NativeMessagingHosts/${file}`,
    );
    expect(
      hostLocation('chrome', 'user', { ...linux, env: { XDG_CONFIG_HOME: '/x' } }).manifestFile,
    ).toBe(`/x/google-chrome/NativeMessagingHosts/${file}`);
    expect(hostLocation('edge', 'user', linux).manifestFile).toBe(
      `/home/ann/.config/microsoft-edge/NativeMessagingHosts/${file}`,
    );
    expect(hostLocation('firefox', 'user', linux).manifestFile).toBe(
      `/home/ann/.mozilla/native-messaging-hosts/${file}`,
    );
  });

  it('Linux and macOS, per machine: the folders the browsers document', () => {
    expect(hostLocation('chrome', 'machine', linux).manifestFile).toMatch(
      /^\/etc\/opt\/chrome\/native-messaging-hosts\//,
    );
    expect(hostLocation('chromium', 'machine', linux).manifestFile).toMatch(
      /^\/etc\/chromium\/native-messaging-hosts\//,
    );
    expect(hostLocation('firefox', 'machine', linux).manifestFile).toMatch(
      /^\/usr\/lib\/mozilla\/native-messaging-hosts\//,
    );
    const mac = { ...linux, platform: 'darwin' as const, homeDir: '/Users/ann' };
    expect(hostLocation('chrome', 'user', mac).manifestFile).toMatch(
      /^\/Users\/ann\/Library\/Application Support\/Google\/Chrome\/NativeMessagingHosts\//,
    );
    expect(hostLocation('edge', 'machine', mac).manifestFile).toMatch(
      /^\/Library\/Microsoft\/Edge\/NativeMessagingHosts\//,
    );
  });

  it('Windows: a manifest file named by a registry value, HKCU per user and HKLM per machine', () => {
    const windows = {
      platform: 'win32' as const,
      homeDir: 'C:\\Users\\ann',
      env: { ProgramData: 'C:\\ProgramData' },
      dataDir: 'C:\\Users\\ann\\AppData\\Roaming\\Callbar',
    };
    expect(hostLocation('chrome', 'user', windows)).toEqual({
      manifestFile: 'C:\\Users\\ann\\AppData\\Roaming\\Callbar\\native-host\\chrome.json',
      registryKey: `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
    });
    expect(hostLocation('firefox', 'machine', windows).registryKey).toBe(
      `HKLM\\Software\\Mozilla\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
    );
  });
});

describe('the host manifest and its launcher', () => {
  it('lets exactly Callbar’s extension start the host', () => {
    expect(hostManifest('chrome', '/l')).toEqual({
      name: NATIVE_HOST_NAME,
      description: expect.any(String) as string,
      path: '/l',
      type: 'stdio',
      allowed_origins: [`chrome-extension://${CHROMIUM_EXTENSION_ID}/`],
    });
    expect(hostManifest('firefox', '/l')).toMatchObject({
      allowed_extensions: [FIREFOX_EXTENSION_ID],
    });
    expect(hostManifest('firefox', '/l')).not.toHaveProperty('allowed_origins');
  });

  it('the launcher quotes every path, and carries only the profile folder of the environment', () => {
    const launcher = hostLauncher({
      platform: 'linux',
      folder: '/p/native-host',
      node: '/usr/bin/node',
      cli: "/o'brien/bin/callbar.mjs",
      dataDir: '/data dir',
    });
    expect(launcher.file).toBe('/p/native-host/callbar-native-host');
    expect(launcher.text).toBe(
      "#!/bin/sh\n# Callbar’s native messaging host (written by `callbar browser install`).\nCALLBAR_DATA_DIR='/data dir'\nexport CALLBAR_DATA_DIR\nexec '/usr/bin/node' '/o'\\''brien/bin/callbar.mjs' native-host \"$@\"\n",
    );
    const cmd = hostLauncher({
      platform: 'win32',
      folder: 'C:\\p',
      node: 'C:\\node.exe',
      cli: 'C:\\c\\callbar.mjs',
    });
    expect(cmd).toEqual({
      file: 'C:\\p\\callbar-native-host.cmd',
      text: '@echo off\r\n"C:\\node.exe" "C:\\c\\callbar.mjs" native-host %*\r\n',
    });
  });
});
