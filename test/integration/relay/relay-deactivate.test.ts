/**
 * The platform's deactivation through the relay (issue 39): identified by tenant, extension and
 * confirmation key alone, so a call whose tokens are "", null or left out is relayed all the same
 * to the user's devices (as the key's hash: the relay keeps no confirmation key) (a real node, embedded store, and Callbar's relay link as the device).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import {
  RelayLink,
  type LostMessages,
  type RelayCursor,
} from '../../../src-main/core/relay/relay-link';
import { keyName, type DeviceMessage } from '../../../src-main/core/relay/relay-protocol';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

const SECRET = 'relay-deactivate-secret-0123456789abcdef';
const store = memoryStore();
let node: RunningRelay;
let stream: { close(): void } | undefined;
const received: (DeviceMessage | LostMessages)[] = [];

beforeAll(async () => {
  node = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    keepAliveMs: 60_000,
    webhookSecret: SECRET,
  });
  const { credential } = await addTestDevice(store, 'device-601');
  const link = new RelayLink({
    urls: [node.origin],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
  });
  const connected = link.connect(
    { device_id: 'device-601', credential },
    (message) => {
      received.push(message);
      return Promise.resolve();
    },
    () => undefined,
  );
  stream = connected;
  await connected.ready;
});
afterAll(async () => {
  stream?.close();
  await node?.close();
  await store.close();
});

it('relays a deactivation whose tokens are null, left out or empty, by user and key', async () => {
  const user = { tenant_id: 'acme', user_extension: '601' };
  const calls: [string, string][] = [
    [
      'application/json',
      JSON.stringify({
        ...user,
        confirmation_key: 'k-null',
        access_token: null,
        refresh_token: null,
      }),
    ],
    [
      'application/x-www-form-urlencoded',
      new URLSearchParams({ ...user, confirmation_key: 'k-absent' }).toString(),
    ],
    [
      'application/json',
      JSON.stringify({ ...user, confirmation_key: 'k-empty', access_token: '', refresh_token: '' }),
    ],
  ];
  for (const [type, body] of calls) {
    const answer = await fetch(`${node.origin}/deactivate/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    expect(answer.status).toBe(200);
  }
  await until('three deactivations at the device', () => (received.length >= 3 ? true : undefined));
  expect(received).toEqual(
    ['k-null', 'k-absent', 'k-empty'].map((key) => ({
      type: 'deactivate',
      // Never the key itself: only its hash waits in the queue of a device that is off.
      body: { ...user, key_sha256: keyName(key) },
    })),
  );
});
