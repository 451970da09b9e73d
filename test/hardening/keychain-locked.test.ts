/**
 * The keychain locked mid-session.
 *
 * - For real: in a D-Bus session of its own, a connected Callbar process finds the keyring locked
 *   (org.freedesktop.Secret.Service.Lock) when the token is due: `vault-unavailable` with a
 *   sentence, the request refused readably, the refresh token not spent. The keyring daemon is
 *   then restarted unlocked: a new process finds the session intact; the process that was running
 *   cannot reach the new daemon (libsecret keeps its first connection) and says to restart it.
 * - At the worst moment: the keychain (the real one, through a wrapper that starts failing the
 *   way keytar fails on a locked collection, since a prompt-less keyring cannot be unlocked again
 *   in-process) locks between the platform's new pair and the vault write. The pair is kept in
 *   memory only (no file), every request says why it fails, and "Try again" once the keychain is
 *   back stores that pair: the session survives the next refresh.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import {
  keychainFailure,
  openVault,
  type KeytarVault,
} from '../../src-main/core/vault/keytar-vault';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import type { Vault } from '../../src-main/core/vault/vault';
import { advanceClock, capturingLogger, countRequests, startSim } from '../support/sim-harness';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';
import { keychainReachable, KEYCHAIN_HINT } from '../support/hardening/keychain-reachable';
import { profileText } from '../support/files-under';
import type { LockedKeychainReport } from '../support/hardening/keychain-lock-child';

const TOKEN_PATH = '/v3/oauth/token/';
/** What keytar throws when it is asked to write into a locked collection (libsecret's words). */
const LOCKED = new Error('Cannot create an item in a locked collection');

/** The real keychain vault, which starts failing as a locked keychain does when told to. */
class KeychainThatLocks implements Vault {
  locked = false;
  /** Locks just before the next save reaches the keychain. */
  lockBeforeNextSave = false;
  constructor(private readonly keychain: KeytarVault) {}
  load(): Promise<StoredAccount | undefined> {
    return this.#unlessLocked(() => this.keychain.load());
  }
  save(account: StoredAccount): Promise<void> {
    if (this.lockBeforeNextSave) this.locked = true;
    this.lockBeforeNextSave = false;
    return this.#unlessLocked(() => this.keychain.save(account));
  }
  clear(): Promise<void> {
    return this.#unlessLocked(() => this.keychain.clear());
  }
  webhookSecret(): Promise<string> {
    return this.#unlessLocked(() => this.keychain.webhookSecret());
  }
  readRetiredDevices(): Promise<string | undefined> {
    return this.#unlessLocked(() => this.keychain.readRetiredDevices());
  }
  writeRetiredDevices(text: string | undefined): Promise<void> {
    return this.#unlessLocked(() => this.keychain.writeRetiredDevices(text));
  }
  #unlessLocked<T>(operation: () => Promise<T>): Promise<T> {
    return this.locked ? Promise.reject(keychainFailure(LOCKED)) : operation();
  }
}

describe('the keychain locked mid-session', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSim({ profile: 'minimal' });
  });
  afterAll(() => sim?.close());

  describe('locked between the platform answer and the vault write', () => {
    let rig: ConnectedCore;
    let keychain: KeytarVault;
    const account = () => rig.core.profile.account;
    const keychainDir = mkdtempSync(join(tmpdir(), 'callbar-locked-keychain-'));

    afterAll(async () => {
      await rig?.core.close();
      await keychain?.clear().catch(() => undefined);
      rmSync(keychainDir, { recursive: true, force: true });
    });

    it('keeps the new pair in memory only, refuses readably, and stores it on "Try again"', async () => {
      expect(await keychainReachable(), KEYCHAIN_HINT).toBe(true);
      keychain = openVault({ dataDir: keychainDir });
      const locking = new KeychainThatLocks(keychain);
      rig = await connectedCore(sim, { vault: locking, log: () => capturingLogger().log });
      expect((await rig.invoke('phonebooks.list')).ok).toBe(true);
      const before = (await keychain.load())!;

      await advanceClock(sim, 25 * 3600);
      locking.lockBeforeNextSave = true;
      const refreshesBefore = await countRequests(sim, 'POST', TOKEN_PATH);
      const refused = await rig.invoke('phonebooks.list');
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.message).toContain('keychain');
      expect(refused.error.message).toContain('locked collection');
      expect(account().status()).toMatchObject({
        state: 'vault-unavailable',
        message: expect.stringContaining('keyring is locked') as unknown,
      });
      // The platform has spent the old refresh token: the new pair exists only in memory.
      expect((await countRequests(sim, 'POST', TOKEN_PATH)) - refreshesBefore).toBe(1);

      // While it stays locked: the same sentence, and no refresh loop.
      const again = await rig.invoke('phonebooks.list');
      expect(again.ok).toBe(false);
      const tryAgainLocked = await rig.invoke('account.status');
      expect(tryAgainLocked).toMatchObject({ ok: true, value: { state: 'vault-unavailable' } });
      expect((await countRequests(sim, 'POST', TOKEN_PATH)) - refreshesBefore).toBe(1);

      // The keychain is back: "Try again" stores the pair the platform issued.
      locking.locked = false;
      const tryAgain = await rig.invoke('account.status');
      expect(tryAgain).toMatchObject({ ok: true, value: { state: 'connected' } });
      const stored = (await keychain.load())!;
      expect(stored.refresh_token).not.toBe(before.refresh_token);

      // Nothing was written anywhere else meanwhile.
      const files = profileText(rig.dataDir);
      for (const secret of [stored.access_token, stored.refresh_token, stored.client_secret]) {
        expect(files).not.toContain(secret);
      }

      // The session is intact: the next expiry is one more refresh, with the stored pair.
      expect((await rig.invoke('phonebooks.list')).ok).toBe(true);
      await advanceClock(sim, 25 * 3600);
      expect(await rig.invoke('phonebooks.list')).toMatchObject({ ok: true });
      expect(account().status().state).toBe('connected');
      expect((await keychain.load())!.refresh_token).not.toBe(stored.refresh_token);
      recordFigure(
        'keychain locked between the token answer and the vault write',
        'requests refused with the keychain sentence, 0 refresh loops, 0 files with a token; "Try again" stored the new pair, session kept',
      );
    });
  });

  describe.runIf(process.platform === 'linux')(
    'a real keyring locked, then its daemon restarted',
    () => {
      it('vault-unavailable with a sentence, the refresh token unspent, the session intact for the next process', async () => {
        const home = mkdtempSync(join(tmpdir(), 'callbar-locked-home-'));
        try {
          mkdirSync(join(home, 'run'), { mode: 0o700 });
          const report = await lockedKeychainRun(sim, home);
          expect(report.connected).toBe('connected');
          expect(report.whileLocked.request).toContain('locked');
          expect(report.whileLocked.status).toMatchObject({
            state: 'vault-unavailable',
            message: expect.stringContaining('keyring is locked') as unknown,
          });
          expect(report.whileLocked.refreshes).toBe(0);
          expect(report.whileLocked.tryAgain).toBe('vault-unavailable');
          // The same process after the daemon restarted: says what to do.
          expect(report.afterRestart.status).toMatchObject({
            state: 'vault-unavailable',
            message: expect.stringContaining('Quit Callbar and start it again') as unknown,
          });
          // A new process: the session is intact (one refresh, with the unspent token).
          expect(report.afterRestart.newProcess).toMatchObject({ code: 0 });
          expect(report.afterRestart.refreshes).toBe(1);
          expect(report.filesWithToken).toBe(0);
          recordFigure(
            'real keyring locked mid-session, then restarted',
            'vault-unavailable, request refused, 0 refreshes while locked; restarted: the running process asks to be restarted, a new one kept the session',
          );
        } finally {
          rmSync(home, { recursive: true, force: true });
        }
      }, 120_000);
    },
  );
});

const run = promisify(execFile);

/** Runs keychain-lock-child.ts in a D-Bus session of its own, with a fresh unlocked keyring. */
async function lockedKeychainRun(
  sim: RunningSimulator,
  home: string,
): Promise<LockedKeychainReport> {
  const password = 'callbar-locked-test';
  const script = [
    'set -e',
    `eval "$(echo ${password} | gnome-keyring-daemon --unlock --components=secrets)"`,
    'export GNOME_KEYRING_CONTROL',
    `exec "$NODE" --import tsx "$CHILD"`,
  ].join('\n');
  const { stdout } = await run('dbus-run-session', ['--', 'sh', '-c', script], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_RUNTIME_DIR: join(home, 'run'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      NODE: process.execPath,
      CHILD: join(import.meta.dirname, '../support/hardening/keychain-lock-child.ts'),
      KEYRING_PASSWORD: password,
      SIM: JSON.stringify({
        base_url: sim.base_url,
        portal_url: sim.portal_url,
        client_id: sim.client_id,
        client_secret: sim.client_secret,
        tenant_id: sim.tenant_id,
        extension: sim.users[0]!.extension,
      }),
    },
  });
  const line = stdout.split('\n').find((text) => text.startsWith('{"report"'));
  if (!line) throw new Error(`the locked-keychain run printed no report: ${stdout}`);
  return (JSON.parse(line) as { report: LockedKeychainReport }).report;
}
