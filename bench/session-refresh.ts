/**
 * The refresh's danger window: between the platform's answer (the old refresh token is spent from
 * then on) and the new pair being safe in the vault, a crash ends the session. The TokenManager
 * measures it on every refresh (`stored_after_ms` in its log line); this prints it for the memory
 * vault and the OS keychain, with and without the profile lock, plus what the lock costs a
 * refresh. Real HTTP against the simulator's token endpoint.
 *
 * The keychain figures need a Secret Service: `bash scripts/with-keyring.sh npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../simulator/index';
import { profileEndedMarker } from '../src-main/core/account/session-ended-marker';
import { profileSessionLock, type SessionLock } from '../src-main/core/account/session-lock';
import { TokenManager } from '../src-main/core/account/token-manager';
import { errorMessage } from '../src-main/core/errors';
import { createLogger, silentLogger } from '../src-main/core/log/logger';
import { openVault } from '../src-main/core/vault/keytar-vault';
import { MemoryVault } from '../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../src-main/core/vault/stored-account';
import type { Vault } from '../src-main/core/vault/vault';

const ROUNDS = 30;

async function issued(sim: RunningSimulator): Promise<StoredAccount> {
  const response = await fetch(`${sim.base_url}/__sim/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: sim.tenant_id, user_extension: sim.users[0]!.extension }),
  });
  const tokens = (await response.json()) as { access_token: string; refresh_token: string };
  return {
    ...tokens,
    expires_at: Date.now() - 1000,
    tenant_id: sim.tenant_id,
    user_extension: sim.users[0]!.extension,
    client_id: sim.client_id,
    client_secret: sim.client_secret,
    base_url: sim.base_url,
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** ROUNDS refreshes; the answer→vault windows and the whole refresh times, in ms. */
async function measure(sim: RunningSimulator, vault: Vault, lock: SessionLock | undefined) {
  const windows: number[] = [];
  const log = createLogger((line) => {
    const fields = JSON.parse(line) as { stored_after_ms?: number };
    if (fields.stored_after_ms !== undefined) windows.push(fields.stored_after_ms);
  });
  const dir = mkdtempSync(join(tmpdir(), 'callbar-bench-'));
  const tokens = new TokenManager({
    vault,
    log,
    endedMarker: profileEndedMarker(dir, silentLogger),
    ...(lock ? { lock } : {}),
  });
  const totals: number[] = [];
  try {
    await tokens.adopt(await issued(sim));
    for (let round = 0; round < ROUNDS; round++) {
      // Due again: the stored pair's access token counts as expired.
      await tokens.adopt({ ...(await vault.load())!, expires_at: Date.now() - 1000 });
      const started = performance.now();
      await tokens.getAccessToken();
      totals.push(performance.now() - started);
    }
  } finally {
    tokens.dispose();
    await vault.clear().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return { windows: windows.sort((a, b) => a - b), totals: totals.sort((a, b) => a - b) };
}

export async function sessionRefresh(): Promise<void> {
  const sim = await startSimulator({ contacts: 0, autoAnswer: false });
  const lockDir = mkdtempSync(join(tmpdir(), 'callbar-bench-lock-'));
  const keychainDir = mkdtempSync(join(tmpdir(), 'callbar-bench-keychain-'));
  try {
    const lock = profileSessionLock(lockDir, { log: silentLogger });
    const keychain = openVault({ dataDir: keychainDir });
    const keychainProblem = await keychain.load().then(
      () => undefined,
      (error: unknown) => errorMessage(error),
    );
    console.log(`${ROUNDS} refreshes each against the simulator's token endpoint (ms)`);
    console.log('vault     lock          answer→vault median   p95     max   refresh median   p95');
    const rows: [string, string, Vault | undefined, SessionLock | undefined][] = [
      ['memory', 'none', new MemoryVault(), undefined],
      ['memory', 'profile', new MemoryVault(), lock],
      ['keychain', 'none', keychainProblem ? undefined : keychain, undefined],
      ['keychain', 'profile', keychainProblem ? undefined : keychain, lock],
    ];
    for (const [vaultName, lockName, vault, rowLock] of rows) {
      const label = `${vaultName.padEnd(9)} ${lockName.padEnd(13)}`;
      if (!vault) {
        console.log(`${label} skipped: the keychain is unavailable (${keychainProblem})`);
        continue;
      }
      const { windows, totals } = await measure(sim, vault, rowLock);
      const cell = (value: number, width: number) => value.toFixed(2).padStart(width);
      console.log(
        `${label} ${cell(quantile(windows, 0.5), 20)} ${cell(quantile(windows, 0.95), 6)} ${cell(windows.at(-1)!, 7)} ${cell(quantile(totals, 0.5), 16)} ${cell(quantile(totals, 0.95), 6)}`,
      );
    }
    if (keychainProblem) {
      console.log('(for the keychain rows: bash scripts/with-keyring.sh npm run bench)');
    }
  } finally {
    await sim.close();
    rmSync(lockDir, { recursive: true, force: true });
    rmSync(keychainDir, { recursive: true, force: true });
  }
}
