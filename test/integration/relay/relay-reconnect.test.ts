/**
 * Callbar's relay link when the relay goes away: it tries again after pauses that grow (jittered,
 * capped) while the relay stays unreachable, and starts from the first pause once a stream served
 * its backlog again. The pauses are counted through the link's pause hook (no clock involved);
 * the relay is a real node (embedded store) stopped and started again on the same port.
 */
import { afterAll, expect, it } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

const store = memoryStore();
let node: RunningRelay | undefined;
const start = async (port: number) =>
  (node = await startRelay({
    port,
    store,
    log: silentLogger,
    webhookSecret: 'relay-reconnect-webhook-secret-0123456789',
    keepAliveMs: 60_000,
  }));

afterAll(async () => {
  await node?.close();
  await store.close();
});

it('backs off with jitter while the relay is down, and from the first step once it is back', async () => {
  const port = await freePort();
  await start(port);
  const { credential } = await addTestDevice(store, 'device-601');
  const pauses: number[] = [];
  let restarted: Promise<unknown> | undefined;
  const draws = [0.9, 0.1, 0.6, 0.3];
  const link = new RelayLink({
    urls: [`http://127.0.0.1:${port}`],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    maxBackoffMs: 1000,
    random: () => draws[pauses.length % draws.length]!,
    pause: async (ms) => {
      pauses.push(ms);
      // After six failed attempts in a row the relay comes back (before the seventh).
      if (pauses.length === 6) await (restarted = start(port));
    },
  });
  const received: string[] = [];
  const stream = link.connect(
    { device_id: 'device-601', credential },
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  await node!.close();
  await until('six pauses and the relay back', () => restarted);
  await store.append('device-601', JSON.stringify({ type: 'event', event: { id: 'leg-back' } }));
  await until('the event after the restart', () =>
    received.includes('leg-back') ? true : undefined,
  );
  // Each pause in the upper half of its step; the steps double up to the cap (1 s).
  const steps = [100, 200, 400, 800, 1000, 1000];
  expect(pauses).toHaveLength(6);
  pauses.forEach((pause, at) => {
    expect(pause).toBeGreaterThanOrEqual(steps[at]! / 2);
    expect(pause).toBeLessThanOrEqual(steps[at]!);
  });
  // The jitter: not just the halves or the whole steps.
  expect(new Set(pauses.map((pause, at) => pause / steps[at]!)).size).toBeGreaterThan(1);

  // Gone again: the first pause is the first step's again (the stream that served counted).
  await node!.close();
  node = undefined;
  await until('a pause after the second stop', () => (pauses.length > 6 ? true : undefined));
  expect(pauses[6]).toBeLessThanOrEqual(100);
  stream.close();
  expect(await stream.ended).toBe('closed');
});
