/**
 * Another process of the profile (or anything that can write in its folder) changing the files
 * the running Callbar follows (files/folder-watch.ts) in a loop. Each change of `session.lock`
 * reads the keychain again (TokenManager.followVault); a keychain answers one call at a time
 * (keytar-vault.ts queues them) and may take long (a Secret Service over D-Bus, a prompt). The
 * reads of a flood must not queue up behind each other without end, delaying the session's own
 * writes behind them; the session stays as it is, no refresh token is spent, and nothing says
 * the session ended. A directory cache of another account planted in the folder is read once,
 * not again at each change of its attributes (its owner refuses it: it is the same file).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbarCore } from '../../src-main/core/callbar-core';
import { cacheFile, writeCache } from '../../src-main/core/directory/directory-cache';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import type { Vault } from '../../src-main/core/vault/vault';
import { generatedDirectory } from '../support/generated-directory';
import { recordFigure } from '../support/hardening/figures';
import { startTestCore } from '../support/test-core';
import { until } from '../support/until';
import { sampleAccount } from '../support/vault-fixtures';

/** How long the keychain takes to answer one call. */
const KEYCHAIN_MS = 150;

/**
 * A keychain that answers each call after KEYCHAIN_MS, one call at a time (as keytar-vault.ts
 * runs them), counting the reads asked and how many waited at once.
 */
class SlowKeychain implements Vault {
  readonly #inner: MemoryVault;
  #queue: Promise<unknown> = Promise.resolve();
  loads = 0;
  waiting = 0;
  mostWaiting = 0;

  constructor(account: StoredAccount) {
    this.#inner = new MemoryVault({ account });
  }

  load() {
    this.loads++;
    return this.#oneAtATime(() => this.#inner.load());
  }
  save(account: StoredAccount) {
    return this.#oneAtATime(() => this.#inner.save(account));
  }
  clear() {
    return this.#oneAtATime(() => this.#inner.clear());
  }
  webhookSecret() {
    return this.#oneAtATime(() => this.#inner.webhookSecret());
  }
  readRetiredDevices() {
    return this.#oneAtATime(() => this.#inner.readRetiredDevices());
  }
  writeRetiredDevices(text: string | undefined) {
    return this.#oneAtATime(() => this.#inner.writeRetiredDevices(text));
  }

  #oneAtATime<T>(task: () => Promise<T>): Promise<T> {
    this.waiting++;
    this.mostWaiting = Math.max(this.mostWaiting, this.waiting);
    const run = this.#queue.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, KEYCHAIN_MS));
      try {
        return await task();
      } finally {
        this.waiting--;
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

const cores: CallbarCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a flood of changes in the profile folder', () => {
  it('session.lock toggled in a loop: the keychain is read a bounded number of times, the session stays', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-folder-flood-'));
    dirs.push(dataDir);
    const account = sampleAccount();
    const keychain = new SlowKeychain(account);
    const core = await startTestCore({ env: { CALLBAR_DATA_DIR: dataDir }, vault: keychain });
    cores.push(core);
    const { account: service } = core.profile;
    await until('connected', () => (service.status().state === 'connected' ? true : undefined));
    const states = new Set<string>();
    service.onStatus((status) => states.add(status.state));
    await until('the start’s keychain calls done', () =>
      keychain.waiting === 0 ? true : undefined,
    );
    const before = keychain.loads;

    // Another process takes and leaves the lock as fast as it can, for two seconds: some forty
    // of the watch's rounds (files/folder-watch.ts), each longer than a keychain read.
    const lock = join(dataDir, 'session.lock');
    const until2s = Date.now() + 2_000;
    while (Date.now() < until2s) {
      writeFileSync(lock, String(process.pid));
      rmSync(lock, { force: true });
      await pause(2);
    }
    await pause(200);
    const waitingAtEnd = keychain.waiting;
    await until('the keychain is quiet', () => (keychain.waiting === 0 ? true : undefined));
    const reads = keychain.loads - before;
    recordFigure('session.lock toggled for 2 s: keychain reads', reads);
    recordFigure(
      'session.lock toggled for 2 s: keychain calls waiting at most',
      keychain.mostWaiting,
    );

    // One read at a time, and one more after it for the changes it did not see: never a queue.
    expect(keychain.mostWaiting).toBeLessThanOrEqual(2);
    expect(waitingAtEnd).toBeLessThanOrEqual(1);
    // At most one read per keychain answer during the flood, and one after it.
    expect(reads).toBeLessThanOrEqual(Math.ceil(2_200 / KEYCHAIN_MS) + 2);
    // The session is the one stored: still connected, never said to have ended, nothing renewed.
    expect(service.status().state).toBe('connected');
    expect([...states].filter((state) => state !== 'connected')).toEqual([]);
    expect((await keychain.load())?.refresh_token).toBe(account.refresh_token);
  });
});

/** The bytes this process has read from files so far (Linux's count, /proc/self/io). */
function bytesRead(): number {
  const line = /^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(line![1]);
}

describe('a directory cache of another account planted in the profile folder', () => {
  it.runIf(process.platform === 'linux')(
    'is read once, not again at each change of its mode',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'callbar-folder-cache-'));
      dirs.push(dataDir);
      const account = sampleAccount();
      const mine = { tenant_id: account.tenant_id, user_extension: account.user_extension };
      const phonebooks = [{ id: 1, description: 'Company', priority: 1 }];
      const synced_at = new Date().toISOString();
      await writeCache(dataDir, {
        owner: { ...mine, base_url: account.base_url },
        synced_at,
        phonebooks,
        contacts: generatedDirectory(20),
      });
      const core = await startTestCore({
        env: { CALLBAR_DATA_DIR: dataDir },
        vault: new MemoryVault({ account }),
      });
      cores.push(core);
      await until('the cache loaded', () =>
        core.directory.status().contacts === 20 ? true : undefined,
      );
      // Another account's directory, some megabytes, in its place.
      await writeCache(dataDir, {
        owner: { tenant_id: 'someone-else', user_extension: '999', base_url: account.base_url },
        synced_at,
        phonebooks,
        contacts: generatedDirectory(30_000),
      });
      const size = statSync(cacheFile(dataDir)).size;
      await pause(300);
      const before = bytesRead();
      for (let round = 0; round < 20; round++) {
        chmodSync(cacheFile(dataDir), round % 2 === 0 ? 0o644 : 0o600);
        await pause(80);
      }
      await pause(300);
      const read = bytesRead() - before;
      recordFigure(
        'a planted cache chmod-ed 20 times: times its size read',
        (read / size).toFixed(1),
      );
      expect(read).toBeLessThan(2 * size);
      // Refused: this account's directory stays.
      expect(core.directory.status().contacts).toBe(20);
    },
  );
});
