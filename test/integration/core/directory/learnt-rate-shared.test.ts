/**
 * The learnt rate limit (`rate-limit.json`) shared by the profile's processes: two pacers on one
 * real profile folder, as the app's sync and `callbar sync` running at once. Each learns from what
 * it sent before a 429; one that saw more of its own requests must not raise the file above the
 * stricter limit the other kept, so the profile's next sync starts at the stricter one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SimClock } from '../../../../simulator/clock';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { learntRateFile, RequestPacer } from '../../../../src-main/core/directory/request-pacer';

const dataDir = mkdtempSync(join(tmpdir(), 'callbar-learnt-rate-'));
const clock = new SimClock();
afterAll(() => {
  clock.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const pacer = () =>
  new RequestPacer({
    budget: 100,
    windowMs: 60_000,
    clock,
    memory: learntRateFile(dataDir, silentLogger),
  });

it('a process that lags behind does not raise the stricter limit another one kept', async () => {
  const app = pacer();
  const cli = pacer();
  // Both are syncing: each has read the file (nothing learnt yet) and sent its requests.
  for (let i = 0; i < 50; i++) await cli.take();
  for (let i = 0; i < 30; i++) await app.take();
  // The app's 30th is refused: the limit is at most 29 (kept with the margin: 23).
  await app.learnFromRefusal({ retryAfterMs: 1_000 });
  expect(app.budget).toBe(23);
  // Then the CLI's 50th: it counted 49 of its own.
  await cli.learnFromRefusal({ retryAfterMs: 1_000 });
  expect(cli.budget).toBe(23);

  const next = pacer();
  await next.take();
  expect(next.budget).toBe(23);
});
