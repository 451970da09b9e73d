/**
 * The secrets audit: a whole journey against the simulator over real HTTP (connect through the
 * browser's one-time link and the portal, sync the directory, search, dial a number and a link,
 * hang up, a reactive token refresh after the platform's clock jumped 25 hours, disconnect),
 * with the core logging at debug level to a file. Then every file of the profile folder, the log,
 * and every IPC answer and event the renderer could have seen are searched for every secret the
 * journey handled: each access and refresh token ever stored, the client secret and the
 * confirmation key, and the webhook secret (the last part of the Webhook URL; the window gets it
 * only when the person asks for it in Settings, which this journey does not). 0 hits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import { createFileLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import { advanceClock, startSim } from '../support/sim-harness';
import { filesUnder } from '../support/files-under';
import { until } from '../support/until';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';

/** The keychain stand-in, remembering every secret it was ever given. */
class RecordingVault extends MemoryVault {
  readonly secrets = new Set<string>();
  override save(account: StoredAccount): Promise<void> {
    this.secrets.add(account.access_token);
    this.secrets.add(account.refresh_token);
    this.secrets.add(account.client_secret);
    return super.save(account);
  }
  /** The webhook secret is the user's too: on no disk, log or IPC answer of the journey. */
  override async webhookSecret(): Promise<string> {
    const secret = await super.webhookSecret();
    this.secrets.add(secret);
    return secret;
  }
}

describe('secrets audit after a full journey', () => {
  let sim: RunningSimulator;
  let rig: ConnectedCore;
  const vault = new RecordingVault();
  const secrets = new Set<string>();
  let closed = false;

  beforeAll(async () => {
    sim = await startSim({ profile: 'rich' });
    rig = await connectedCore(sim, {
      vault,
      log: (dataDir) => createFileLogger(join(dataDir, 'callbar.log'), 'debug'),
    });
    secrets.add(sim.client_secret);
    secrets.add(rig.confirmationKey);
  });
  afterAll(async () => {
    if (!closed) await rig?.core.close();
    await sim?.close();
  });

  it('finds no token, client secret or confirmation key anywhere the journey wrote', async () => {
    const { invoke, dataDir } = rig;
    const control = new SimControl(sim.base_url);
    await invoke('directory.sync');
    await until('the directory', async () => {
      const status = await invoke('directory.status');
      return status.ok && (status.value as { state: string }).state === 'ready' ? true : undefined;
    });
    await invoke('directory.search', { query: 'a' });
    // The platform's clock jumps past the access token's life (24 h): the next request refreshes.
    await advanceClock(sim, 90_000);
    await invoke('directory.sync');
    await until('a refreshed pair in the vault', () =>
      Promise.resolve(vault.secrets.size > 3 ? true : undefined),
    );
    expect((await invoke('calls.dial', { target: '+49 30 1234567' })).ok).toBe(true);
    await until('the call at the simulator', async () =>
      (await control.calls()).length > 0 ? true : undefined,
    );
    await control.webhooksSettled(20_000);
    await invoke('calls.hangup');
    await invoke('calls.openUrl', { url: 'tel:+1-212-555-0189' });
    await invoke('calls.list');
    await invoke('app.info');
    await invoke('account.forget');
    // Closed, so every write the journey started has landed (the call log writes in background).
    await rig.core.close();
    closed = true;

    for (const secret of vault.secrets) secrets.add(secret);
    // Two pairs, client secret, confirmation key, webhook secret.
    expect(secrets.size).toBeGreaterThanOrEqual(7);

    const places: [string, string][] = filesUnder(dataDir).map((path) => [
      path.slice(dataDir.length + 1),
      readFileSync(path, 'utf8'),
    ]);
    places.push(['IPC answers and events', JSON.stringify(rig.seen)]);
    const hits = places.flatMap(([where, text]) =>
      [...secrets].filter((secret) => text.includes(secret)).map(() => where),
    );
    expect(hits).toEqual([]);
    // The scan looked at something real: the log has the journey in it.
    expect(readFileSync(join(dataDir, 'callbar.log'), 'utf8')).toContain('activated');
    recordFigure(
      'secrets audit after a full journey',
      `${secrets.size} secrets × ${places.length} places (${places.map(([where]) => where).join(', ')}): 0 hits`,
    );
  });
});
