/**
 * A failure's sentence is in plain words; the request and status behind it are its `details`,
 * shown behind "Details" in the window (issue 27): "The platform did not answer in time.", not
 * "did not answer GET /v3/phonebook/phonebook/ in time".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { TokenManager } from '../../../../src-main/core/account/token-manager';
import { createPlatformApi } from '../../../../src-main/core/api/platform-api';
import { describeError } from '../../../../src-main/core/errors';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { control, issuedSession, startSim } from '../../../support/sim-harness';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSim({ profile: 'minimal', contacts: 3 });
});
afterAll(() => sim.close());

it('a platform that does not answer in time: a sentence without the request, the request in details', async () => {
  const tokens = new TokenManager({ vault: new MemoryVault(), log: silentLogger });
  await tokens.adopt(await issuedSession(sim, sim.users[0]!));
  const api = createPlatformApi({
    baseUrl: sim.base_url,
    tokens,
    log: silentLogger,
    client: { timeoutMs: 300, retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 } },
  });
  await control(sim, 'POST', 'faults', {
    method: 'GET',
    path: '/v3/phonebook/phonebook/',
    delay_ms: 3000,
    count: 1,
  });
  const failure = await api.phonebooks.listPhonebooks().then(
    () => undefined,
    (error: unknown) => describeError(error),
  );
  expect(failure).toEqual({
    code: 'timeout',
    message: 'The platform did not answer in time.',
    details: 'No answer to GET /v3/phonebook/phonebook/ within the time limit.',
  });
});
