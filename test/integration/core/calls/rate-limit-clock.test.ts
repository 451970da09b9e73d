/**
 * A dial after the machine's clock was set back, a while after the platform refused one with 429
 * (Retry-After: a duration): once that duration has passed, the dial goes out. Before, the wait
 * was kept as a time of the machine's clock, and a clock set back a day refused every dial
 * ("try again in 86,402 seconds") until it caught up. The platform is a simulator in its own
 * process (its clock is not the one set back), with a call-control limit of one per 2 seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { RateLimitedError } from '../../../../src-main/core/api/api-errors';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { apiFor } from '../../../support/api-rig';

const root = join(import.meta.dirname, '../../../..');
const DAY = 24 * 3600_000;
let child: ChildProcess;
let api: PlatformApi;

beforeAll(async () => {
  child = spawn(
    join(root, 'node_modules/.bin/tsx'),
    ['simulator/main.ts', '--port', '0', '--no-auto-answer', '--rate-limit-call-control', '1/2'],
    { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let sim: RunningSimulator | undefined;
  // Its one JSON line says it is ready.
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) {
      sim = JSON.parse(line) as RunningSimulator;
      break;
    }
  }
  ({ api } = await apiFor(sim!, 0));
}, 60_000);

afterAll(() => {
  vi.useRealTimers();
  child?.kill('SIGTERM');
});

it('a dial refused with 429, the clock set back a day, the Retry-After passed: the next dial goes out', async () => {
  await api.calls.clickToDial('+493055510001');
  const refused = await api.calls.clickToDial('+493055510002').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(RateLimitedError);
  const retryAfterMs = (refused as RateLimitedError).retryAfterMs;
  expect(retryAfterMs).toBeLessThanOrEqual(2_000);
  // The platform's Retry-After passes (real time), then the machine's clock is set back a day.
  await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 300));
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() - DAY);
  const accepted = await api.calls.clickToDial('+493055510003');
  expect(accepted).toBeDefined();
}, 60_000);
