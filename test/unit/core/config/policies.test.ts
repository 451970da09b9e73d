import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { userInfo, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  NO_POLICIES,
  policyOnlyValues,
  readPolicies,
  readPoliciesSync,
  type Policies,
} from '../../../../src-main/core/config/policy/policies';
import { effectiveValues } from '../../../../src-main/core/config/policy/policy-report';
import { decodeRegFile, parseRegFile } from '../../../../src-main/core/config/policy/reg-file';
import {
  loadSettings,
  saveSettings,
  settingsFilePath,
} from '../../../../src-main/core/config/settings-store';
import { failure } from '../../../support/failure';
import { sayAgain, translatorFor } from '../../../../src-main/core/text/translators';

const fixtures = join(import.meta.dirname, '../../../support/fixtures/policy');
const tempDirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'callbar-policy-'));
  tempDirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of tempDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const at = (dir: string) => ({ CALLBAR_POLICY_DIR: dir });

/** The Linux fixture, with a file that is not JSON (written here: the formatter would fix it). */
async function linuxFixture(): Promise<string> {
  const dir = await tempDir();
  await cp(join(fixtures, 'linux'), dir, { recursive: true });
  await writeFile(join(dir, 'policies.d/30-broken.json'), '{"locked": {"region": "FR",}}');
  return dir;
}

describe('Linux policy files', () => {
  let dir: string;
  let policies: Policies;
  beforeEach(async () => {
    dir = await linuxFixture();
    policies = readPoliciesSync({ platform: 'linux', env: at(dir) });
  });

  it('merges policies.json and policies.d/*.json in name order, a later file winning', () => {
    expect(policies.locked).toEqual({
      base_url: 'https://pbx.example.com',
      portal_url: 'https://pbx.example.com/portal',
      region: 'DE', // policies.json says AT, policies.d/10-dialling.json DE
      confirm_web_links: true,
      dial_allowed_countries: ['AT', 'DE'],
      link_allowed_classes: ['extension', 'national'],
      update_channel: 'beta',
    });
    expect(policies.recommended).toEqual({
      sync_interval_minutes: 30,
      dial_shortcut: 'CommandOrControl+Alt+K',
      favourites: ['+431234567', '+4930123456'],
    });
    expect(policies.origins.locked.region).toBe(join(dir, 'policies.d/10-dialling.json'));
    expect(policies.origins.locked.base_url).toBe(join(dir, 'policies.json'));
    // The policy-only values, for the relay, favourites, links and updates.
    expect(policyOnlyValues(policies)).toEqual({
      link_allowed_classes: ['extension', 'national'],
      link_allowed_countries: [],
      favourites: ['+431234567', '+4930123456'],
      updates_enabled: true,
      update_channel: 'beta',
    });
  });

  it('names the file and field of every mistake, ignores only that, and never repeats a secret', () => {
    const mistakes = join(dir, 'policies.d/20-mistakes.json');
    // File by file, in name order.
    expect(policies.problems).toEqual([
      `${mistakes}: "recomended" is not a policy level (the file holds "locked" and "recommended"); Callbar ignores it.`,
      `${mistakes}: the locked policy "receiver_port" is 80, but it must be a whole number from 1024 to 65535; Callbar ignores it.`,
      `${mistakes}: "client_secret" is a secret and never a policy (the client secret comes from the CALLBAR_CLIENT_SECRET environment variable; tokens stay in each user's keychain): remove it; Callbar ignores it.`,
      `${mistakes}: "regoin" is not a Callbar policy (the names are those of the generated templates and docs/administration.md); Callbar ignores it.`,
      `The policy file ${join(dir, 'policies.d/30-broken.json')} is not valid JSON: Expected double-quoted property name (line 1, column 28). Callbar ignores this file.`,
    ]);
    expect(policies.problems.join('\n')).not.toContain('s3cr3t');
  });

  it('reads nothing, and says nothing, where there is no policy', async () => {
    const empty = await tempDir();
    expect(readPoliciesSync({ platform: 'linux', env: at(empty) })).toEqual(NO_POLICIES);
    expect(await readPolicies({ platform: 'linux', env: at(join(empty, 'absent')) })).toEqual(
      NO_POLICIES,
    );
  });

  it('a policy file that is not an object, or a level that is not one, is a line, not a crash', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'policies.json'), '["region"]');
    await mkdir(join(root, 'policies.d'));
    await writeFile(
      join(root, 'policies.d/a.json'),
      '{"locked": "AT", "recommended": {"region": "fr"}}',
    );
    const read = readPoliciesSync({ platform: 'linux', env: at(root) });
    expect(read.recommended).toEqual({ region: 'FR' });
    expect(read.problems).toEqual([
      `The policy file ${join(root, 'policies.json')} must hold a JSON object such as {"locked": {"region": "AT"}}. Callbar ignores this file.`,
      `${join(root, 'policies.d/a.json')}: "locked" must be an object of settings such as {"region": "AT"}; Callbar ignores it.`,
    ]);
  });
});

describe('a port browsers refuse', () => {
  it('is an invalid policy, said with why and another port, in English and German', async () => {
    const root = await tempDir();
    const file = join(root, 'policies.json');
    await writeFile(
      file,
      JSON.stringify({ locked: { receiver_port: 10080 }, recommended: { receiver_port: 6665 } }),
    );
    const read = readPoliciesSync({ platform: 'linux', env: at(root) });
    expect(read.locked).toEqual({});
    expect(read.recommended).toEqual({});
    // The recommended level is read first.
    expect(read.problems).toEqual([
      `${file}: the recommended policy "receiver_port" is 6665, but web browsers refuse to connect to port 6665 (it is on the Fetch standard's list of blocked ports), so your browser could not reach Callbar there; choose another port, such as 6670; Callbar ignores it.`,
      `${file}: the locked policy "receiver_port" is 10080, but web browsers refuse to connect to port 10080 (it is on the Fetch standard's list of blocked ports), so your browser could not reach Callbar there; choose another port, such as 10081; Callbar ignores it.`,
    ]);
    // The level is a word of the sentence's language, never the file's English key.
    expect(sayAgain(translatorFor('de', 'errors'), read.problems[0]!)).toContain(
      `${file}: Die empfohlene Richtlinie „receiver_port“ ist 6665, aber`,
    );
    expect(sayAgain(translatorFor('de', 'errors'), read.problems[1]!)).toBe(
      `${file}: Die festgelegte Richtlinie „receiver_port“ ist 10080, aber Webbrowser verbinden sich nicht mit Port 10080 (er steht auf der Liste gesperrter Ports des Fetch-Standards), daher könnte Ihr Browser Callbar dort nicht erreichen; wählen Sie einen anderen Port, etwa 10081; Callbar ignoriert sie.`,
    );
  });
});

describe('an update feed with a password in its address', () => {
  it('is an invalid policy, said without the password', async () => {
    const root = await tempDir();
    const file = join(root, 'policies.json');
    const feeds = [
      'https://feed:s3cr3t@updates.example.com/callbar',
      'https:feed@updates.example.com',
    ];
    await writeFile(
      file,
      JSON.stringify({ locked: { update_url: feeds[0] }, recommended: { update_url: feeds[1] } }),
    );
    const read = readPoliciesSync({ platform: 'linux', env: at(root) });
    expect(read.locked).toEqual({});
    expect(read.recommended).toEqual({});
    expect(read.problems).toHaveLength(2);
    for (const problem of read.problems) {
      expect(problem).toContain('must be an https:// URL without a user name or password');
    }
    expect(read.problems.join('\n')).not.toContain('s3cr3t');
    // Without a user name or password, the same feed is a policy.
    await writeFile(
      file,
      JSON.stringify({ locked: { update_url: 'https://updates.example.com/callbar' } }),
    );
    expect(readPoliciesSync({ platform: 'linux', env: at(root) }).locked).toEqual({
      update_url: 'https://updates.example.com/callbar',
    });
  });
});

describe('a policy file every user can change', () => {
  it('is applied, and said: whoever can write it sets the locks', async () => {
    const root = await tempDir();
    const file = join(root, 'policies.json');
    await writeFile(file, '{"locked": {"region": "AT"}}');
    await chmod(file, 0o666);
    const read = readPoliciesSync({ platform: 'linux', env: at(root) });
    expect(read.locked).toEqual({ region: 'AT' });
    expect(read.problems).toEqual([
      `Every user of this computer can change the policy file ${file}, and with it the settings it locks: make it writable by its owner only (chmod 644).`,
    ]);
    await chmod(file, 0o644);
    expect(readPoliciesSync({ platform: 'linux', env: at(root) }).problems).toEqual([]);
  });
});

describe('macOS managed preferences', () => {
  it('reads the machine plist (XML): top-level keys locked, the Recommended dictionary recommended', async () => {
    const dir = join(fixtures, 'macos');
    const file = join(dir, 'com.callbar.desktop.plist');
    const policies = await readPolicies({ platform: 'darwin', env: at(dir) });
    expect(policies.locked).toEqual({
      base_url: 'https://pbx.example.com',
      region: 'CH',
      open_at_login: true,
      dial_allowed_classes: ['extension', 'national'],
    });
    expect(policies.recommended).toEqual({ close_to_tray: false, update_channel: 'beta' });
    expect(policies.problems).toEqual([
      `${file}: the locked policy "sync_interval_minutes" is 5000, but it must be a whole number of minutes from 1 to 1440; Callbar ignores it.`,
    ]);
  });

  it("reads the user's binary plist too, the machine's winning where both set a value", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, userInfo().username));
    await cp(
      join(fixtures, 'macos/user-binary.plist'),
      join(dir, userInfo().username, 'com.callbar.desktop.plist'),
    );
    await cp(
      join(fixtures, 'macos/com.callbar.desktop.plist'),
      join(dir, 'com.callbar.desktop.plist'),
    );
    const policies = await readPolicies({ platform: 'darwin', env: at(dir) });
    expect(policies.locked).toMatchObject({ region: 'CH', start_minimized: true });
    expect(policies.recommended).toMatchObject({ vanity_numbers: true, handle_links: 'yes' });
    expect(policies.origins.locked.start_minimized).toBe(
      join(dir, userInfo().username, 'com.callbar.desktop.plist'),
    );
  });

  it('a plist that does not parse is one line naming it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'com.callbar.desktop.plist'), '<plist><dict><key>region</key>');
    const { problems, locked } = await readPolicies({ platform: 'darwin', env: at(dir) });
    expect(locked).toEqual({});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(
        `^The managed preferences ${join(dir, 'com.callbar.desktop.plist')} could not be parsed: .+ Callbar ignores this file\\.$`,
      ),
    );
  });

  it('the synchronous reader (which never loads the plist parser) says each plist it did not read', () => {
    // Only readPolicies loads the parser (a start without plists never does); a caller that
    // cannot wait still learns that a locked value may be missing, never skips it in silence.
    const dir = join(fixtures, 'macos');
    const file = join(dir, 'com.callbar.desktop.plist');
    const policies = readPoliciesSync({ platform: 'darwin', env: at(dir) });
    expect(policies.locked).toEqual({});
    expect(policies.problems).toEqual([
      `The managed preferences ${file} were not read here: they are read when Callbar starts. Callbar ignores this file here.`,
    ]);
  });
});

describe('Windows registry (an exported .reg file through the registry code)', () => {
  const dir = join(fixtures, 'windows');
  const policies = readPoliciesSync({ platform: 'win32', env: at(dir) });

  it('reads HKCU then HKLM, each key locked and its Recommended subkey recommended', () => {
    expect(policies.locked).toEqual({
      region: 'AT', // HKLM wins over HKCU's GB
      start_minimized: true, // HKCU only
      base_url: 'https://pbx.example.com',
      receiver_port: 40000,
      confirm_web_links: true,
      dial_shortcut: 'CommandOrControl+Alt+P',
      dial_allowed_countries: ['AT', 'DE', 'CH', 'FR', 'IT'], // REG_MULTI_SZ over two lines
      link_allowed_classes: ['extension', 'national'], // a list subkey, values 1, 2
    });
    expect(policies.recommended).toEqual({
      vanity_numbers: true, // "Vanity_Numbers": registry names are case-insensitive
      update_channel: 'beta',
      sync_interval_minutes: 60,
      favourites: ['+431234567', '+4930123456'], // in the order of the values' numbers
    });
    expect(policies.origins.locked.region).toBe('HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Callbar');
    expect(policies.origins.recommended.update_channel).toBe(
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Callbar\\Recommended',
    );
  });

  it('names the key and value of every mistake and ignores only those', () => {
    expect(policies.problems).toEqual([
      `HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Callbar\\Recommended: "client_secret" is a secret and never a policy (the client secret comes from the CALLBAR_CLIENT_SECRET environment variable; tokens stay in each user's keychain): remove it; Callbar ignores it.`,
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Callbar: the locked policy "open_at_login" is 2, but it must be true or false; Callbar ignores it.',
    ]);
  });

  it('reads UTF-8 exports too, and refuses a change script with the line that makes it one', async () => {
    const text = decodeRegFile(await readFile(join(dir, 'policies.reg')));
    expect(parseRegFile(text, 'x.reg')).toEqual(
      parseRegFile(decodeRegFile(Buffer.from(text)), 'x.reg'),
    );
    const deletion = await failure(() =>
      parseRegFile(`${text}\r\n[-HKEY_CURRENT_USER\\Software\\Policies\\Callbar]\r\n`, 'x.reg'),
    );
    expect(deletion.code).toBe('policy_invalid');
    expect(deletion.message).toBe(
      'x.reg, line 35: a key line is [HKEY_…\\Path] (deletions are refused).',
    );
    expect((await failure(() => parseRegFile('REGEDIT4\n', 'old.reg'))).message).toBe(
      'old.reg, line 1: a registry export starts with "Windows Registry Editor Version 5.00".',
    );
    const root = await tempDir();
    await writeFile(join(root, 'policies.reg'), `${text}\r\n"region"=-\r\n`);
    expect(readPoliciesSync({ platform: 'win32', env: at(root) }).problems).toEqual([
      `${join(root, 'policies.reg')}, line 35: "region" is deleted (=-): a change script, not an export. Callbar ignores this file.`,
    ]);
  });
});

describe('precedence: locked > user > recommended > default', () => {
  let policies: Policies;
  beforeEach(async () => {
    policies = readPoliciesSync({ platform: 'linux', env: at(await linuxFixture()) });
  });

  it('applies locked over the file and the environment, the file over recommended', async () => {
    const dataDir = await tempDir();
    await writeFile(
      settingsFilePath(dataDir),
      JSON.stringify({ region: 'GB', sync_interval_minutes: 10 }),
    );
    const settings = loadSettings({
      dataDir,
      env: { CALLBAR_REGION: 'FR', CALLBAR_BASE_URL: 'https://other.example.com' },
      policies,
    });
    expect(settings).toMatchObject({
      region: 'DE', // locked
      base_url: 'https://pbx.example.com', // locked beats the environment
      sync_interval_minutes: 10, // the user's, over the recommended 30
      dial_shortcut: 'CommandOrControl+Alt+K', // recommended, the user chose nothing
      vanity_numbers: false, // default
    });
  });

  it('reports each effective value with its source', async () => {
    const dataDir = await tempDir();
    await writeFile(settingsFilePath(dataDir), JSON.stringify({ sync_interval_minutes: 10 }));
    const values = Object.fromEntries(
      effectiveValues({ dataDir, env: { CALLBAR_VANITY_NUMBERS: 'yes' }, policies }).map((v) => [
        v.name,
        v,
      ]),
    );
    expect(values.region).toEqual({
      name: 'region',
      value: 'DE',
      source: { kind: 'locked', origin: policies.origins.locked.region },
    });
    expect(values.sync_interval_minutes?.source).toEqual({
      kind: 'user',
      origin: settingsFilePath(dataDir),
    });
    expect(values.vanity_numbers?.source).toEqual({
      kind: 'environment',
      origin: 'CALLBAR_VANITY_NUMBERS',
    });
    expect(values.favourites?.source.kind).toBe('recommended');
    expect(values.updates_enabled).toEqual({
      name: 'updates_enabled',
      value: true,
      source: { kind: 'default' },
    });
  });

  it('refuses to save a locked setting, naming who locked it, and writes nothing', async () => {
    const dataDir = await tempDir();
    const error = await saveSettings(
      { dataDir, policies },
      { region: 'GB', vanity_numbers: true },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'setting_locked',
      field: 'region',
      message: `"region" is set by your organisation (locked in ${policies.origins.locked.region}), so Callbar did not change it; nothing was saved.`,
      // The window shows it beside the field, which has its label: no internal name.
      fields: {
        region: `Set by your organisation (locked in ${policies.origins.locked.region}): Callbar did not change it; nothing was saved.`,
      },
    });
    await expect(readFile(settingsFilePath(dataDir))).rejects.toThrow(/ENOENT/);
    // A recommended one is the user's to change.
    await saveSettings({ dataDir, policies }, { sync_interval_minutes: 45 });
    expect(loadSettings({ dataDir, env: {}, policies }).sync_interval_minutes).toBe(45);
  });
});
