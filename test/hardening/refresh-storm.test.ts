/**
 * A refresh storm: the platform's clock jumps past the access token's life (24 h) and 50 requests
 * start at once. Exactly one refresh reaches the token endpoint, every request succeeds with the
 * new token, and the session survives (a second refresh would spend the rotated refresh token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { createPlatformApi } from '../../src-main/core/api/platform-api';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { advanceClock, countRequests, startSim } from '../support/sim-harness';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';

const STORM = 50;

describe('a refresh storm', () => {
  let sim: RunningSimulator;
  let rig: ConnectedCore;
  const vault = new MemoryVault();

  beforeAll(async () => {
    sim = await startSim({ profile: 'rich' });
    rig = await connectedCore(sim, { vault, log: () => silentLogger });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });

  it(`${STORM} requests after the token expired share one refresh`, async () => {
    const { phonebooks } = createPlatformApi({
      baseUrl: sim.base_url,
      tokens: rig.core.profile.account.tokens,
      log: silentLogger,
    });
    const before = (await vault.load())!;
    const refreshesBefore = await countRequests(sim, 'POST', '/v3/oauth/token/');
    await advanceClock(sim, 90_000);
    const results = await Promise.allSettled(
      Array.from({ length: STORM }, () => phonebooks.listPhonebooks()),
    );
    const refreshes = (await countRequests(sim, 'POST', '/v3/oauth/token/')) - refreshesBefore;
    const failed = results.filter((result) => result.status === 'rejected');

    expect(failed).toEqual([]);
    expect(refreshes).toBe(1);
    const after = (await vault.load())!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(rig.core.profile.account.status().state).toBe('connected');
    recordFigure(
      `refresh storm: ${STORM} requests after expiry`,
      `${refreshes} refresh, ${STORM - failed.length} of ${STORM} succeeded, session kept`,
    );
  });
});
