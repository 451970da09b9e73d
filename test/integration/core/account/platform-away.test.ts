/**
 * The status says the truth while the platform is away and the access token is still fresh: after
 * two requests in a row that get no answer (the simulator resets their connections), a connected
 * status says since when the platform is not reachable; one failure alone says nothing; the next
 * answer ends it, without a restart and without a request of the status's own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { createPlatformApi } from '../../../../src-main/core/api/platform-api';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountRig,
  connect,
  control,
  requestLog,
  startSim,
  type AccountRig,
} from '../../../support/sim-harness';

let sim: RunningSimulator;
let rig: AccountRig;

beforeAll(async () => {
  sim = await startSim({ profile: 'minimal' });
  rig = await accountRig(sim, new MemoryVault(), silentLogger);
  expect((await connect(rig, sim)).status.state).toBe('connected');
});
afterAll(async () => {
  await rig?.account.close();
  await sim?.close();
});

it('says the platform is not reachable after two failed requests, and stops once it answers', async () => {
  const { account } = rig;
  // No retries inside a request: each failure here is one request the app made.
  const api = createPlatformApi({
    baseUrl: sim.base_url,
    tokens: account.tokens,
    log: silentLogger,
    client: { retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 } },
  });
  const changes: unknown[] = [];
  account.onStatus((status) => changes.push(status.platform_unreachable));
  await control(sim, 'DELETE', 'requests');
  await control(sim, 'POST', 'faults', { path: '/v3/phonebook/', reset: true });

  await expect(api.phonebooks.listPhonebooks({ page_size: 1 })).rejects.toMatchObject({
    code: 'network',
  });
  // One failure: a blip, nothing said.
  expect(account.status()).toMatchObject({ state: 'connected' });
  expect(account.status().platform_unreachable).toBeUndefined();

  await expect(api.phonebooks.listPhonebooks({ page_size: 1 })).rejects.toMatchObject({
    code: 'network',
  });
  const away = account.status();
  expect(away.state).toBe('connected');
  expect(Number.isNaN(Date.parse(away.platform_unreachable?.since ?? ''))).toBe(false);
  expect(away.platform_unreachable?.message).toContain(
    'does not answer Callbar’s requests (the connection broke)',
  );
  // A third failure keeps the same "since".
  await expect(api.phonebooks.listPhonebooks({ page_size: 1 })).rejects.toThrow();
  expect(account.status().platform_unreachable?.since).toBe(away.platform_unreachable?.since);

  await control(sim, 'DELETE', 'faults');
  await api.phonebooks.listPhonebooks({ page_size: 1 });
  expect(account.status()).toMatchObject({ state: 'connected' });
  expect(account.status().platform_unreachable).toBeUndefined();
  // Said once and ended once: no flapping in between.
  expect(changes.filter((each) => each !== undefined)).toHaveLength(1);
  expect(changes.at(-1)).toBeUndefined();
  // Only the app's own requests reached the platform: the status asked nothing of its own.
  const paths = (await requestLog(sim)).map((request) => `${request.method} ${request.path}`);
  expect(paths).toEqual(Array(4).fill('GET /v3/phonebook/phonebook/'));
});
