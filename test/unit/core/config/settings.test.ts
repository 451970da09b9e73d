import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  SETTING_NAMES,
  SETTING_RULES,
  type Settings,
} from '../../../../src-main/core/config/settings';
import { settingEnvName } from '../../../../src-main/core/config/settings-env';
import { resolveDataDir } from '../../../../src-main/core/config/data-dir';
import {
  loadSettings,
  saveSettings,
  settingsFilePath,
} from '../../../../src-main/core/config/settings-store';
import { failure } from '../../../support/failure';
import { sayWith } from '../../../../src-main/core/text/said';
import { englishFor, sayAgain, translatorFor } from '../../../../src-main/core/text/translators';

const tempDirs: string[] = [];

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'callbar-settings-'));
  tempDirs.push(dir);
  return dir;
}

async function writeSettingsFile(dir: string, content: unknown): Promise<string> {
  const file = settingsFilePath(dir);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

afterEach(async () => {
  for (const dir of tempDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('loadSettings', () => {
  it('gives the documented defaults when there is no file, and does not create one', async () => {
    const dir = join(await dataDir(), 'not-yet');
    expect(loadSettings({ dataDir: dir, env: {} })).toEqual({
      base_url: 'http://127.0.0.1:8089',
      portal_url: 'http://127.0.0.1:8089/portal',
      slug: 'callbar',
      receiver_port: 37153,
      accept_unauthenticated_events: false,
      // No region: the system's (config/region-source.ts), which the window asks to confirm.
      confirm_web_links: true,
      vanity_numbers: false,
      start_minimized: false,
      dial_shortcut: 'CommandOrControl+Shift+D',
      clipboard_shortcut: '',
      close_to_tray: true,
      sync_interval_minutes: 15,
      open_at_login: false,
      handle_links: 'ask',
      dial_allowed_classes: [
        'extension',
        'national',
        'international',
        'premium-rate',
        'shared-cost',
        'toll-free',
        'emergency',
        'service-code',
        'unknown',
      ],
      dial_allowed_countries: [],
      relay_url: '',
      crm_links: [],
      crm_open_on_connect: false,
      language: 'system',
    });
    expect(DEFAULT_SETTINGS.client_id).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });

  it('reads the values in the file over the defaults', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, {
      base_url: 'https://pbx.example.com',
      region: 'GB',
      receiver_port: 40000,
      client_id: 'acme-desktop',
      confirm_web_links: false,
      dial_shortcut: '',
    });
    expect(loadSettings({ dataDir: dir, env: {} })).toEqual({
      ...DEFAULT_SETTINGS,
      base_url: 'https://pbx.example.com',
      region: 'GB',
      receiver_port: 40000,
      client_id: 'acme-desktop',
      confirm_web_links: false,
      dial_shortcut: '',
    });
  });

  it('accepts a file saved with a byte-order mark (Windows Notepad)', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, '\uFEFF{"region": "DE"}');
    expect(loadSettings({ dataDir: dir, env: {} }).region).toBe('DE');
    // Any case, in the file and in CALLBAR_REGION.
    await writeSettingsFile(dir, '{"region": "gb"}');
    expect(loadSettings({ dataDir: dir, env: {} }).region).toBe('GB');
    expect(loadSettings({ dataDir: dir, env: { CALLBAR_REGION: 'de' } }).region).toBe('DE');
  });

  /** One override per setting; a new setting without a row here fails the suite. */
  const overrides: Record<keyof Settings, [raw: string, expected: unknown]> = {
    base_url: ['https://api.example.com', 'https://api.example.com'],
    portal_url: ['https://portal.example.com/x', 'https://portal.example.com/x'],
    slug: ['acme-dialer', 'acme-dialer'],
    receiver_port: ['40001', 40001],
    accept_unauthenticated_events: ['yes', true],
    region: ['FR', 'FR'],
    client_id: ['client-from-env', 'client-from-env'],
    confirm_web_links: ['no', false],
    vanity_numbers: ['yes', true],
    start_minimized: ['yes', true],
    dial_shortcut: ['Alt+Space', 'Alt+Space'],
    clipboard_shortcut: ['CmdOrCtrl+Shift+F12', 'CmdOrCtrl+Shift+F12'],
    close_to_tray: ['0', false],
    sync_interval_minutes: ['5', 5],
    open_at_login: ['yes', true],
    handle_links: ['no', 'no'],
    dial_allowed_classes: ['extension, national', ['extension', 'national']],
    dial_allowed_countries: ['de,FR', ['DE', 'FR']],
    relay_url: ['https://relay.example.com', 'https://relay.example.com'],
    crm_links: [
      'https://crm.example.com/?p={e164}, https://b.example.com/{name}',
      ['https://crm.example.com/?p={e164}', 'https://b.example.com/{name}'],
    ],
    crm_open_on_connect: ['yes', true],
    language: ['de', 'de'],
  };

  it('has an environment override row for every setting', () => {
    expect(Object.keys(overrides).sort()).toEqual([...SETTING_NAMES].sort());
    expect(settingEnvName('receiver_port')).toBe('CALLBAR_RECEIVER_PORT');
  });

  for (const name of SETTING_NAMES) {
    const [raw, expected] = overrides[name];
    it(`${settingEnvName(name)}=${raw} overrides the file's ${name}`, async () => {
      const dir = await dataDir();
      // A setting without a default holds a value of its own in the file.
      const inFile = { client_id: 'file-client', region: 'GB' }[name as string];
      await writeSettingsFile(dir, { [name]: DEFAULT_SETTINGS[name] ?? inFile });
      const settings = loadSettings({ dataDir: dir, env: { [settingEnvName(name)]: raw } });
      expect(settings[name]).toEqual(expected);
      expect({ ...settings, [name]: DEFAULT_SETTINGS[name] }).toEqual({
        ...DEFAULT_SETTINGS,
        [name]: DEFAULT_SETTINGS[name],
      });
    });
  }

  it.each([
    ['true', true],
    ['TRUE', true],
    [' 1 ', true],
    ['Yes', true],
    ['false', false],
    ['0', false],
    ['NO', false],
  ])('reads the boolean %j as %s', async (raw, expected) => {
    const dir = await dataDir();
    const env = { CALLBAR_START_MINIMIZED: raw, CALLBAR_CLOSE_TO_TRAY: raw };
    const settings = loadSettings({ dataDir: dir, env });
    expect([settings.start_minimized, settings.close_to_tray]).toEqual([expected, expected]);
  });

  // Tokens travel to base_url and the portal's pages take the user's sign-in: https, or plain
  // http to this computer only. Refused while the settings load, before any request or lookup.
  it.each([
    ['CALLBAR_BASE_URL', 'http://pbx.lan:8089', 'base_url'],
    ['CALLBAR_BASE_URL', 'http://192.168.1.20', 'base_url'],
    ['CALLBAR_BASE_URL', 'http://127.0.0.1.nip.io:8089', 'base_url'],
    ['CALLBAR_BASE_URL', 'http://localhost.example.com', 'base_url'],
    ['CALLBAR_PORTAL_URL', 'http://portal.example.com/portal', 'portal_url'],
    // The relay hands sealed tokens over it, and the device credential travels on every request.
    ['CALLBAR_RELAY_URL', 'http://relay.example.com', 'relay_url'],
    ['CALLBAR_RELAY_URL', 'https://relay-a.example.com, http://relay-b.lan', 'relay_url'],
  ])('refuses %s=%s: https only, except loopback', async (variable, raw, field) => {
    const dir = await dataDir();
    const error = await failure(() => loadSettings({ dataDir: dir, env: { [variable]: raw } }));
    expect(error.code).toBe('settings_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toContain(variable);
    expect(error.message).toContain(
      'an https:// URL without a user name or password (plain http:// only on this computer',
    );
  });

  // A password in an address is a secret in a setting: before, accepted, then shown by `status
  // --json` and repeated whole in any error naming the value.
  it.each([
    ['CALLBAR_BASE_URL', 'https://admin:s3cr3t-pw@pbx.example.com', 'base_url'],
    ['CALLBAR_PORTAL_URL', 'https://admin:s3cr3t-pw@pbx.example.com/portal', 'portal_url'],
    [
      'CALLBAR_RELAY_URL',
      'https://relay-a.example.com, https://svc:s3cr3t-pw@relay-b',
      'relay_url',
    ],
    ['CALLBAR_BASE_URL', 'http://admin:s3cr3t-pw@pbx.lan:8089', 'base_url'],
  ])('refuses %s=%s: no user name or password, never repeated', async (variable, raw, field) => {
    const dir = await dataDir();
    const error = await failure(() => loadSettings({ dataDir: dir, env: { [variable]: raw } }));
    expect(error.code).toBe('settings_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toContain('without a user name or password');
    expect(error.message).not.toContain('s3cr3t');
  });

  it.each([
    'http://127.0.0.1:8089',
    'http://127.3.2.1',
    'http://localhost:8089/api',
    'http://[::1]:8089',
    'https://pbx.example.com',
  ])('accepts %s as the platform and portal address', async (url) => {
    const dir = await dataDir();
    const env = { CALLBAR_BASE_URL: url, CALLBAR_PORTAL_URL: `${url}/portal` };
    const settings = loadSettings({ dataDir: dir, env });
    expect([settings.base_url, settings.portal_url]).toEqual([url, `${url}/portal`]);
  });

  it('treats an empty variable as unset', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, { region: 'GB' });
    const env = { CALLBAR_REGION: '', CALLBAR_RECEIVER_PORT: '  ' };
    expect(loadSettings({ dataDir: dir, env })).toEqual({ ...DEFAULT_SETTINGS, region: 'GB' });
  });

  it.each([
    ['CALLBAR_RECEIVER_PORT', 'eighty', 'receiver_port', '1024 to 65535'],
    ['CALLBAR_RECEIVER_PORT', '80', 'receiver_port', '1024 to 65535'],
    ['CALLBAR_RECEIVER_PORT', '4000.5', 'receiver_port', 'whole number'],
    ['CALLBAR_RECEIVER_PORT', '10080', 'receiver_port', 'refuse to connect to port 10080'],
    ['CALLBAR_CONFIRM_WEB_LINKS', 'maybe', 'confirm_web_links', 'true or false (or 1/0, yes/no)'],
    ['CALLBAR_BASE_URL', 'localhost:8089', 'base_url', 'an https:// URL'],
    ['CALLBAR_REGION', 'uk', 'region', 'two-letter country code'],
    ['CALLBAR_SLUG', 'Call Bar', 'slug', 'lowercase letters'],
    ['CALLBAR_DIAL_SHORTCUT', 'Ctrl+Shift+Banana', 'dial_shortcut', 'Electron accelerator'],
    ['CALLBAR_DIAL_ALLOWED_CLASSES', 'national,premium', 'dial_allowed_classes', 'premium-rate'],
    ['CALLBAR_DIAL_ALLOWED_COUNTRIES', 'DE,Germany', 'dial_allowed_countries', 'country codes'],
  ])('rejects %s=%j naming the variable and the setting', async (variable, raw, field, rule) => {
    const dir = await dataDir();
    const error = await failure(() => loadSettings({ dataDir: dir, env: { [variable]: raw } }));
    expect(error.code).toBe('settings_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toContain(variable);
    expect(error.message).toContain(`"${field}"`);
    expect(error.message).toContain(rule);
  });

  const invalidFiles: [what: string, content: string, field: string | undefined, says: string][] = [
    ['a port as text', '{"receiver_port": "8080"}', 'receiver_port', '1024 to 65535'],
    ['a port out of range', '{"receiver_port": 80}', 'receiver_port', 'is 80'],
    [
      'a port browsers refuse',
      '{"receiver_port": 6667}',
      'receiver_port',
      '"receiver_port" is 6667, but web browsers refuse to connect to port 6667',
    ],
    ['a non-http URL', '{"base_url": "ftp://pbx"}', 'base_url', 'an https:// URL'],
    [
      'a plain-http platform on the network',
      '{"base_url": "http://pbx.lan:8089"}',
      'base_url',
      'plain http:// only on this computer',
    ],
    [
      'a plain-http portal on the network',
      '{"portal_url": "http://10.0.0.7/portal"}',
      'portal_url',
      'tokens would travel in clear',
    ],
    ['a three-letter region', '{"region": "gbr"}', 'region', 'ISO 3166-1 alpha-2'],
    ['an unknown region', '{"region": "ZZ"}', 'region', 'such as US, GB or DE'],
    ['a slug with spaces', '{"slug": "Call Bar"}', 'slug', 'lowercase letters'],
    ['a boolean as text', '{"close_to_tray": "yes"}', 'close_to_tray', 'true or false'],
    ['a broken shortcut', '{"dial_shortcut": "Ctrl+"}', 'dial_shortcut', 'Electron'],
    ['a repeated modifier', '{"dial_shortcut": "Shift+Shift+A"}', 'dial_shortcut', 'one key'],
    ['an empty client id', '{"client_id": ""}', 'client_id', 'non-empty'],
    [
      'an unknown destination class',
      '{"dial_allowed_classes": ["national", "premium"]}',
      'dial_allowed_classes',
      'a list of destination classes from extension, national',
    ],
    [
      'a country list as text',
      '{"dial_allowed_countries": "DE"}',
      'dial_allowed_countries',
      'or [] for every country',
    ],
    ['a JSON syntax error', '{\n  "region": "GB",\n}', undefined, 'line 3, column 1'],
    ['truncated JSON', '{"region": ', undefined, 'ends too early'],
    ['an array', '["region", "GB"]', undefined, 'must contain a JSON object'],
    ['an unknown key', '{"bse_url": "http://x"}', 'bse_url', 'did you mean "base_url"?'],
    ['a key in the wrong case', '{"Region": "GB"}', 'Region', 'did you mean "region"?'],
  ];

  it.each(invalidFiles)(
    'rejects a file with %s, naming file and setting, leaving it untouched',
    async (_what, content, field, says) => {
      const dir = await dataDir();
      const file = await writeSettingsFile(dir, content);
      const before = await readFile(file);
      const error = await failure(() => loadSettings({ dataDir: dir, env: {} }));
      expect(error.code).toBe('settings_invalid');
      expect(error.field).toBe(field);
      expect(error.message).toContain(file);
      if (field) expect(error.message).toContain(`"${field}"`);
      expect(error.message).toContain(says);
      expect(await readFile(file)).toEqual(before);
      expect(await readdir(dir)).toEqual(['settings.json']);
    },
  );

  it('names every problem of a file at once', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, { receiver_port: 1, region: 'usa', colour: 'blue' });
    const error = await failure(() => loadSettings({ dataDir: dir, env: {} }));
    for (const name of ['receiver_port', 'region', 'colour']) {
      expect(error.message).toContain(`"${name}"`);
    }
  });

  it('never repeats a secret found in the file', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, { client_secret: 'shh-very-secret' });
    const unknown = await failure(() => loadSettings({ dataDir: dir, env: {} }));
    expect(unknown.message).toContain('"client_secret" is a secret, not a setting');
    expect(unknown.message).toContain('CALLBAR_CLIENT_SECRET');
    expect(unknown.message).not.toContain('shh-very-secret');

    await writeSettingsFile(dir, '{"client_secret": "shh-very-secret" "x"}');
    const syntax = await failure(() => loadSettings({ dataDir: dir, env: {} }));
    expect(syntax.message).not.toContain('shh-very-secret');
    await writeSettingsFile(dir, 'shh-very-secret');
    const notJson = await failure(() => loadSettings({ dataDir: dir, env: {} }));
    expect(notJson.message).not.toContain('shh-very-secret');
  });

  it('reports a settings path that cannot be read as settings_unreadable', async () => {
    const dir = await dataDir();
    await mkdir(settingsFilePath(dir));
    const error = await failure(() => loadSettings({ dataDir: dir, env: {} }));
    expect(error.code).toBe('settings_unreadable');
    expect(error.message).toContain(settingsFilePath(dir));
  });
});

describe('saveSettings', () => {
  it('writes only the chosen values, mode 0600, creating the data dir 0700', async () => {
    const dir = join(await dataDir(), 'profile', 'nested');
    const result = await saveSettings({ dataDir: dir }, { region: 'GB', receiver_port: 40000 });
    expect(result).toEqual({ ...DEFAULT_SETTINGS, region: 'GB', receiver_port: 40000 });
    const file = settingsFilePath(dir);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      receiver_port: 40000,
      region: 'GB',
    });
    expect(loadSettings({ dataDir: dir, env: {} })).toEqual(result);
    if (process.platform !== 'win32') {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
    }
  });

  it('merges with the file, and undefined puts a setting back to its default', async () => {
    const dir = await dataDir();
    await writeSettingsFile(dir, { region: 'GB', client_id: 'acme', start_minimized: true });
    await saveSettings({ dataDir: dir }, { client_id: undefined, close_to_tray: false });
    expect(JSON.parse(await readFile(settingsFilePath(dir), 'utf8'))).toEqual({
      region: 'GB',
      start_minimized: true,
      close_to_tray: false,
    });
  });

  it('replaces the file by rename (a new inode), tightening its mode to 0600', async () => {
    const dir = await dataDir();
    const file = await writeSettingsFile(dir, { region: 'GB' });
    await chmod(file, 0o644);
    const before = await stat(file);
    await saveSettings({ dataDir: dir }, { region: 'DE' });
    const after = await stat(file);
    expect(after.ino).not.toBe(before.ino);
    if (process.platform !== 'win32') expect(after.mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it.each([
    ['a bad value', { receiver_port: 99999 }, 'receiver_port'],
    ['a wrong type', { confirm_web_links: 'yes' }, 'confirm_web_links'],
    ['an unknown setting', { recevier_port: 40000 }, 'recevier_port'],
  ])('writes nothing for a patch with %s', async (_what, patch, field) => {
    const dir = await dataDir();
    const file = await writeSettingsFile(dir, { region: 'GB' });
    const before = await readFile(file);
    const error = await failure(() => saveSettings({ dataDir: dir }, patch as never));
    expect(error.code).toBe('settings_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toContain(`"${field}"`);
    expect(await readFile(file)).toEqual(before);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it.each([10080, 6000, 6665, 6669])(
    'refuses receiver_port %i, a port browsers refuse, saying why and which to take',
    async (port) => {
      const dir = await dataDir();
      const file = await writeSettingsFile(dir, { region: 'GB' });
      const before = await readFile(file);
      const error = await failure(() => saveSettings({ dataDir: dir }, { receiver_port: port }));
      expect(error.code).toBe('settings_invalid');
      expect(error.field).toBe('receiver_port');
      const why = `web browsers refuse to connect to port ${port} (it is on the Fetch standard's list of blocked ports), so your browser could not reach Callbar there; choose another port, such as ${port === 6665 || port === 6669 ? 6670 : port + 1}`;
      expect(error.message).toBe(
        `The settings were not saved: "receiver_port" is ${port}, but ${why}.`,
      );
      // The window's form shows the field's own sentence, and says it in German.
      expect(error.fields).toEqual({
        receiver_port: `${why.charAt(0).toUpperCase()}${why.slice(1)}.`,
      });
      expect(sayAgain(translatorFor('de', 'errors'), error.fields!.receiver_port!)).toContain(
        `Webbrowser verbinden sich nicht mit Port ${port}`,
      );
      expect(sayWith(translatorFor('de', 'errors'), error.said!)).toContain(
        `„receiver_port“ ist ${port}, aber Webbrowser verbinden sich nicht mit Port ${port}`,
      );
      expect(await readFile(file)).toEqual(before);
    },
  );

  it('words each rule wholly in the language, the examples joined by its own "or"', () => {
    const german = translatorFor('de', 'errors');
    expect(sayWith(german, SETTING_RULES.base_url)).toMatch(
      /, etwa https:\/\/pbx\.example\.com oder http:\/\/127\.0\.0\.1:8089$/,
    );
    expect(sayWith(englishFor('errors'), SETTING_RULES.portal_url)).toMatch(
      /, such as https:\/\/pbx\.example\.com\/portal or http:\/\/127\.0\.0\.1:8089\/portal$/,
    );
    for (const name of SETTING_NAMES)
      expect(sayWith(german, SETTING_RULES[name])).not.toMatch(/ or /);
  });

  it('takes ports beside the refused ones', async () => {
    const dir = await dataDir();
    for (const port of [10079, 10081, 6664, 6670]) {
      expect((await saveSettings({ dataDir: dir }, { receiver_port: port })).receiver_port).toBe(
        port,
      );
    }
  });

  it('rejects a "__proto__" key like any unknown key', async () => {
    const dir = await dataDir();
    const patch = JSON.parse('{"__proto__": {"region": "GB"}}') as never;
    const error = await failure(() => saveSettings({ dataDir: dir }, patch));
    expect(error.field).toBe('__proto__');
    expect(existsSync(settingsFilePath(dir))).toBe(false);
  });

  it('does not create the data dir or the file for an invalid patch', async () => {
    const dir = join(await dataDir(), 'fresh');
    await failure(() => saveSettings({ dataDir: dir }, { region: 'Narnia' } as never));
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses to save over an invalid file', async () => {
    const dir = await dataDir();
    const file = await writeSettingsFile(dir, '{"region": "GB", "receiver_port": 1}');
    const before = await readFile(file);
    const error = await failure(() => saveSettings({ dataDir: dir }, { region: 'DE' }));
    expect(error.field).toBe('receiver_port');
    expect(await readFile(file)).toEqual(before);
  });

  it('does not persist environment overrides', async () => {
    const dir = await dataDir();
    const env = { CALLBAR_BASE_URL: 'https://from-env.example.com', CALLBAR_REGION: 'FR' };
    expect(loadSettings({ dataDir: dir, env }).base_url).toBe('https://from-env.example.com');
    await saveSettings({ dataDir: dir }, { start_minimized: true });
    expect(JSON.parse(await readFile(settingsFilePath(dir), 'utf8'))).toEqual({
      start_minimized: true,
    });
    expect(loadSettings({ dataDir: dir, env: {} })).toEqual({
      ...DEFAULT_SETTINGS,
      start_minimized: true,
    });
  });

  it('keeps every change of concurrent saves and leaves no temporary file', async () => {
    const dir = await dataDir();
    await Promise.all([
      saveSettings({ dataDir: dir }, { region: 'GB' }),
      saveSettings({ dataDir: dir }, { receiver_port: 40000 }),
      saveSettings({ dataDir: dir }, { receiver_port: 99 }).catch(() => undefined),
      saveSettings({ dataDir: dir }, { start_minimized: true }),
      saveSettings({ dataDir: dir }, { slug: 'acme' }),
    ]);
    expect(loadSettings({ dataDir: dir, env: {} })).toEqual({
      ...DEFAULT_SETTINGS,
      region: 'GB',
      receiver_port: 40000,
      start_minimized: true,
      slug: 'acme',
    });
    expect(await readdir(dir)).toEqual(['settings.json']);
  });
});

describe('resolveDataDir', () => {
  const linux = { platform: 'linux' as const, homeDir: '/home/ada' };

  it('uses CALLBAR_DATA_DIR first, made absolute', () => {
    expect(resolveDataDir({ CALLBAR_DATA_DIR: '/srv/callbar' }, linux)).toBe('/srv/callbar');
    expect(resolveDataDir({ CALLBAR_DATA_DIR: 'profiles/a' }, linux)).toBe(resolve('profiles/a'));
  });

  it('otherwise gives the folder Electron uses for an app named Callbar', () => {
    expect(resolveDataDir({}, linux)).toBe('/home/ada/.config/Callbar');
    expect(resolveDataDir({ XDG_CONFIG_HOME: '/cfg' }, linux)).toBe('/cfg/Callbar');
    expect(resolveDataDir({}, { platform: 'freebsd', homeDir: '/home/ada' })).toBe(
      '/home/ada/.config/Callbar',
    );
    expect(resolveDataDir({}, { platform: 'darwin', homeDir: '/Users/ada' })).toBe(
      '/Users/ada/Library/Application Support/Callbar',
    );
    const windows = { platform: 'win32' as const, homeDir: 'C:\\Users\\ada' };
    expect(resolveDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, windows)).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Callbar',
    );
    expect(resolveDataDir({}, windows)).toBe('C:\\Users\\ada\\AppData\\Roaming\\Callbar');
  });

  it('defaults to the real environment and machine', () => {
    expect(resolveDataDir({ ...process.env, CALLBAR_DATA_DIR: '/x/y' })).toBe(resolve('/x/y'));
    const host = { platform: process.platform, homeDir: homedir() };
    expect(resolveDataDir()).toBe(resolveDataDir(process.env, host));
  });
});
