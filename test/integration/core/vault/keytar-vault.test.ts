/**
 * The keychain vault against a real Secret Service (run through scripts/with-keyring.sh when
 * there is no desktop session). No fakes: entries are written to and read from the keychain, and
 * the unavailable cases run the vault in a child process whose D-Bus is missing, empty, locked or
 * silent.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbarError } from '../../../../src-main/core/errors';
import {
  KEYCHAIN_SERVICE,
  KeytarVault,
  keychainAccountName,
  openVault,
} from '../../../../src-main/core/vault/keytar-vault';
import { VaultUnavailable } from '../../../../src-main/core/vault/vault';
import { containsSecret, sampleAccount, SECRETS } from '../../../support/vault-fixtures';
import type { ProbeLine } from '../../../support/vault-probe';

const repoRoot = join(import.meta.dirname, '../../../..');
const probeScript = join(import.meta.dirname, '../../../support/vault-probe.ts');
const tempDirs: string[] = [];
const usedAccountNames = new Set<string>();

async function tempDir(prefix = 'callbar-vault-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A vault on a fresh data dir; its keychain entry is removed after the test. */
async function freshVault(): Promise<{ vault: KeytarVault; dataDir: string }> {
  const dataDir = await tempDir();
  const vault = openVault({ dataDir });
  usedAccountNames.add(vault.accountName);
  return { vault, dataDir };
}

async function rejection(promise: Promise<unknown>): Promise<CallbarError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CallbarError);
  return error as CallbarError;
}

afterEach(async () => {
  for (const name of usedAccountNames) {
    // When the keychain is out of reach the test has failed already; cleanup has nothing to do.
    await keytar.deletePassword(KEYCHAIN_SERVICE, name).catch(() => false);
  }
  usedAccountNames.clear();
  for (const dir of tempDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('KeytarVault with a real Secret Service', () => {
  // No keychain is a failure here, not a skip: every test below fails on its own (with the
  // VaultUnavailable message), and this one says how to run them.
  it('reaches the keychain', async () => {
    const reached = await keytar.getPassword(KEYCHAIN_SERVICE, 'callbar-test-probe').then(
      () => 'yes',
      (error: unknown) =>
        `No usable keychain for the vault tests (${String(error)}). Run them as \`bash scripts/with-keyring.sh npx vitest run test/integration/core/vault\`.`,
    );
    expect(reached).toBe('yes');
  });

  it('saves, loads and clears an account, writing nothing into the data dir', async () => {
    const { vault, dataDir } = await freshVault();
    expect(await vault.load()).toBeUndefined();

    await vault.save(sampleAccount());
    expect(await vault.load()).toEqual(sampleAccount());
    const raw = await keytar.getPassword(KEYCHAIN_SERVICE, vault.accountName);
    expect(JSON.parse(raw ?? 'null')).toEqual(sampleAccount());

    const replacement = sampleAccount({ access_token: 'access-2', refresh_token: 'refresh-2' });
    await vault.save(replacement);
    expect(await vault.load()).toEqual(replacement);

    await vault.clear();
    expect(await vault.load()).toBeUndefined();
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, vault.accountName)).toBeNull();
    await vault.clear(); // clearing nothing is fine
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('restores the session in a new vault object (as after a restart)', async () => {
    const { vault, dataDir } = await freshVault();
    const account = sampleAccount({ confirmation_key_sha256: 'ab'.repeat(32) });
    await vault.save(account);
    expect(await new KeytarVault({ dataDir }).load()).toEqual(account);
  });

  it('keeps the webhook secret in an entry of its own: created once, kept across forgetting', async () => {
    const { vault, dataDir } = await freshVault();
    usedAccountNames.add(`${vault.accountName}-webhook`);
    const secret = await vault.webhookSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, `${vault.accountName}-webhook`)).toBe(secret);
    await vault.save(sampleAccount());
    await vault.clear();
    // Another process of the profile (a new vault object) reads the same one; no file holds it.
    expect(await new KeytarVault({ dataDir }).webhookSecret()).toBe(secret);
    expect(await readdir(dataDir)).toEqual([]);
    const other = await freshVault();
    usedAccountNames.add(`${other.vault.accountName}-webhook`);
    expect(await other.vault.webhookSecret()).not.toBe(secret);
  });

  it('keeps one entry per data dir, keyed by its absolute path', async () => {
    const first = await freshVault();
    const second = await freshVault();
    expect(first.vault.accountName).toMatch(/^profile-[0-9a-f]{16}$/);
    expect(first.vault.accountName).not.toBe(second.vault.accountName);
    expect(keychainAccountName(first.dataDir + '/')).toBe(first.vault.accountName);
    expect(keychainAccountName(join(first.dataDir, 'x', '..'))).toBe(first.vault.accountName);

    await first.vault.save(sampleAccount({ user_extension: '201' }));
    await second.vault.save(sampleAccount({ user_extension: '202' }));
    expect((await first.vault.load())?.user_extension).toBe('201');
    expect((await second.vault.load())?.user_extension).toBe('202');

    await first.vault.clear();
    expect(await first.vault.load()).toBeUndefined();
    expect((await second.vault.load())?.user_extension).toBe('202');
  });

  it('reports a corrupt entry as vault_corrupt without quoting it', async () => {
    const { vault } = await freshVault();
    const garbage = `not json ${SECRETS.access_token}`;
    await keytar.setPassword(KEYCHAIN_SERVICE, vault.accountName, garbage);
    const notJson = await rejection(vault.load());
    expect(notJson.code).toBe('vault_corrupt');
    expect(notJson.message).toMatch(/keychain.*Connect Callbar/);
    expect(containsSecret(notJson.message)).toBe(false);
    expect(notJson.cause).toBeUndefined();

    const incomplete = JSON.stringify({ access_token: SECRETS.access_token, refresh_token: 7 });
    await keytar.setPassword(KEYCHAIN_SERVICE, vault.accountName, incomplete);
    const invalid = await rejection(vault.load());
    expect(invalid.code).toBe('vault_corrupt');
    expect(invalid.message).toContain('refresh_token');
    expect(invalid.message).toContain('tenant_id');
    expect(containsSecret(invalid.message)).toBe(false);

    // A corrupt entry is left for the user to replace, not silently deleted.
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, vault.accountName)).toBe(incomplete);
  });

  it('refuses an invalid account before anything reaches the keychain', async () => {
    const { vault } = await freshVault();
    const bad = sampleAccount({ refresh_token: '' });
    const error = await rejection(vault.save(bad));
    expect(error.code).toBe('account_invalid');
    expect(error.field).toBe('refresh_token');
    expect(containsSecret(error.message)).toBe(false);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, vault.accountName)).toBeNull();

    await vault.save(sampleAccount());
    const missing = { ...sampleAccount(), base_url: undefined } as unknown as typeof bad;
    expect((await rejection(vault.save(missing))).field).toBe('base_url');
    expect(await vault.load()).toEqual(sampleAccount()); // the stored one is untouched
  });

  it('drops unknown properties instead of storing them', async () => {
    const { vault } = await freshVault();
    await vault.save({ ...sampleAccount(), extra: 'x' } as ReturnType<typeof sampleAccount>);
    const raw = await keytar.getPassword(KEYCHAIN_SERVICE, vault.accountName);
    expect(JSON.parse(raw ?? '{}')).not.toHaveProperty('extra');
  });

  it('runs concurrent operations in order, each save verified by its read-back', async () => {
    const { vault } = await freshVault();
    const saves = Array.from({ length: 5 }, (_, index) =>
      vault.save(sampleAccount({ access_token: `access-${index}` })),
    );
    await Promise.all(saves);
    expect((await vault.load())?.access_token).toBe('access-4');
  });
});

/**
 * Runs the probe in a child process and returns its lines; kills it once it is done. The timeout
 * guards against a hang only: a probe is a Node process started with tsx (two, for the locked
 * keyring), on a loaded CI machine more than 15 s (CI saw it).
 */
async function runProbe(
  run: { command: string; args: string[]; env: NodeJS.ProcessEnv },
  timeoutMs = 45_000,
): Promise<ProbeLine[]> {
  const child = spawn(run.command, run.args, { cwd: repoRoot, env: run.env });
  const lines: ProbeLine[] = [];
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the probe did not finish: ${stdout}\n${stderr}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      resolve();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      let newline: number;
      while ((newline = stdout.indexOf('\n')) >= 0) {
        const text = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as ProbeLine | { done: true };
        if ('done' in line) {
          // A stuck keychain call keeps the child alive: it has said all it will.
          if (run.command === process.execPath) child.kill('SIGKILL');
        } else {
          lines.push(line);
        }
      }
    });
    child.on('exit', finish);
    child.on('error', reject);
  });
  if (lines.length === 0) throw new Error(`the probe printed nothing: ${stderr}`);
  return lines;
}

/** The environment of a process with no desktop session: no D-Bus address, no display. */
function headlessEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY']) {
    if (!(name in extra)) delete env[name];
  }
  delete env.GNOME_KEYRING_CONTROL;
  return env;
}

function probeArgs(dataDir: string, timeoutMs: number, ops: string[]): string[] {
  return ['--import', 'tsx', probeScript, dataDir, String(timeoutMs), ...ops];
}

/** Asserts that a probe line is a VaultUnavailable with the advice and no secret. */
function expectUnavailable(line: ProbeLine | undefined, reason: RegExp): void {
  expect(line?.ok).toBe(false);
  expect(line?.error?.name).toBe('VaultUnavailable');
  expect(line?.error?.code).toBe('vault_unavailable');
  const message = line?.error?.message ?? '';
  expect(message).toMatch(reason);
  expect(message).toContain('Secret Service');
  expect(message).toContain('GNOME Keyring or KWallet');
  expect(message).toContain('Callbar never stores tokens in a file.');
  expect(containsSecret(message)).toBe(false);
}

/** A private environment for a throw-away keyring daemon: its own home and runtime folders. */
async function isolatedDesktopEnv(): Promise<NodeJS.ProcessEnv> {
  const home = await tempDir('callbar-home-');
  await mkdir(join(home, 'run'), { mode: 0o700 });
  return headlessEnv({
    HOME: home,
    XDG_RUNTIME_DIR: join(home, 'run'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
  });
}

describe.runIf(process.platform === 'linux')('KeytarVault without a usable keychain', () => {
  it.each([
    {
      case: 'no D-Bus session at all',
      env: () => headlessEnv(),
      reason: /could not use it: Cannot autolaunch D-Bus/,
    },
    {
      case: 'a D-Bus address whose socket does not exist',
      env: () => headlessEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/callbar-bus' }),
      reason: /could not use it: Could not connect/,
    },
  ])('$case: every operation is VaultUnavailable, no file is written', async (scenario) => {
    const dataDir = await tempDir();
    const lines = await runProbe({
      command: process.execPath,
      args: probeArgs(dataDir, 5_000, ['save', 'load', 'clear']),
      env: scenario.env(),
    });
    expect(lines.map((line) => line.op)).toEqual(['save', 'load', 'clear']);
    for (const line of lines) expectUnavailable(line, scenario.reason);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('a D-Bus session without a Secret Service: VaultUnavailable', async () => {
    const dataDir = await tempDir();
    const config = join(await tempDir(), 'bus.conf');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      config,
      `<busconfig><type>session</type><listen>unix:tmpdir=${tmpdir()}</listen><auth>EXTERNAL</auth>
       <policy context="default"><allow send_destination="*" eavesdrop="true"/>
       <allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
    );
    const lines = await runProbe({
      command: 'dbus-run-session',
      args: [
        `--config-file=${config}`,
        '--',
        process.execPath,
        ...probeArgs(dataDir, 5_000, ['save', 'load']),
      ],
      env: await isolatedDesktopEnv(),
    });
    for (const line of lines) expectUnavailable(line, /org\.freedesktop\.secrets was not provided/);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('a locked keyring: every operation is VaultUnavailable', async () => {
    const dataDir = await tempDir();
    const env = await isolatedDesktopEnv();
    // Create and unlock a keyring, store the account, lock it, then try again. The unlock
    // prompt cannot be shown (no display), as when the user dismisses it.
    const lockLogin =
      'dbus-send --session --dest=org.freedesktop.secrets --print-reply /org/freedesktop/secrets org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null';
    const probe = (ops: string) =>
      `"$NODE" --import tsx "$PROBE" "$DATA_DIR" 5000 ${ops} | grep -v '"done"'`;
    const script = [
      'set -e',
      'echo callbar-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
      probe('save'),
      lockLogin,
      probe('load save clear'),
    ].join('\n');
    const lines = await runProbe({
      command: 'dbus-run-session',
      args: ['--', 'sh', '-c', script],
      env: { ...env, NODE: process.execPath, PROBE: probeScript, DATA_DIR: dataDir },
    });
    expect(lines.map((line) => [line.op, line.ok])).toEqual([
      ['save', true],
      ['load', false],
      ['save', false],
      ['clear', false],
    ]);
    // libsecret itself answers "no such entry" to load and clear; the vault's check write
    // turns that into the truth.
    for (const line of lines.slice(1)) expectUnavailable(line, /locked collection/);
    expect(await readdir(dataDir)).toEqual([]);
  });

  describe('a keychain that never answers', () => {
    let server: Server | undefined;
    const connections = new Set<Socket>();

    afterEach(async () => {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    });

    it('times out as VaultUnavailable, then fails fast while the call is stuck', async () => {
      const dataDir = await tempDir();
      const socketPath = join(await tempDir(), 'silent-bus');
      server = createServer((socket) => connections.add(socket)); // accepts, never answers
      await new Promise<void>((resolve) => server?.listen(socketPath, resolve));
      const lines = await runProbe({
        command: process.execPath,
        args: probeArgs(dataDir, 300, ['save', 'load', 'clear']),
        env: headlessEnv({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}` }),
      });
      const [save, load, clear] = lines;
      expectUnavailable(save, /did not answer within 0\.3 s while storing the sign-in/);
      expect(save?.ms).toBeGreaterThanOrEqual(290);
      expect(save?.ms).toBeLessThan(3_000);
      for (const line of [load, clear]) {
        expectUnavailable(line, /has not yet answered an earlier request/);
        expect(line?.ms).toBeLessThan(200);
      }
      expect(await readdir(dataDir)).toEqual([]);
    });
  });
});

describe('VaultUnavailable', () => {
  it('explains the fix for each platform and never says a file is used', () => {
    const linux = new VaultUnavailable('it is locked.', { platform: 'linux' });
    expect(linux.message).toBe(
      'Callbar keeps your sign-in in the system keychain (Secret Service) and could not use it: it is locked. Install and unlock GNOME Keyring or KWallet (Callbar also needs the libsecret library), then try again. Callbar never stores tokens in a file.',
    );
    expect(linux.code).toBe('vault_unavailable');
    expect(linux).toBeInstanceOf(CallbarError);
    expect(new VaultUnavailable('x', { platform: 'darwin' }).message).toContain('macOS Keychain');
    expect(new VaultUnavailable('x', { platform: 'win32' }).message).toContain(
      'Windows Credential Manager',
    );
    expect(new VaultUnavailable('x', { platform: 'freebsd' }).message).toContain('Secret Service');
  });
});
